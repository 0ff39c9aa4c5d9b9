//! The tutti node: configuration, startup and shutdown, the command line, and the status
//! the admin surface shows. This is the only layer that opens sockets.

pub mod cli;
pub mod config;
mod datadir;
mod error;
pub mod http;
pub mod local_cluster;
pub mod logging;
pub mod member;
pub mod node;
mod peer;
mod status;

pub use config::Config;
pub use error::NodeError;
pub use node::Node;
