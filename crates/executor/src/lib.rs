//! tutti-executor (being written).
