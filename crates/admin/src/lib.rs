//! The admin HTTP surface.
//!
//! - `GET /health`: clustercheck semantics. 200 and a one-line body when the node is
//!   synced and ready for clients; 503 with the reason otherwise. Like clustercheck's
//!   `AVAILABLE_WHEN_DONOR`, `?available_when_donor=1` also accepts a donor (and a
//!   desynced node), so a load balancer can keep it in rotation during a state transfer.
//! - `GET /status`: the node's state as JSON.
//! - `GET /metrics`: Prometheus text format, every numeric status variable as a gauge.
//! - `GET /members`: the members of the cluster as this node knows them (JSON).
//! - `DELETE /members/{name or hex id}`: asks the cluster to remove a member (an operator
//!   retiring a node for good; `tutti member remove`). 200 with what was done, 409 with why
//!   not.
//!
//! The node supplies the data through [`StatusSource`]; this crate only serves it.

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{delete, get};
use axum::Router;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusRecorder};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// What the health check concludes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Health {
    /// Synced and ready for clients.
    Synced,
    /// Serving a state transfer or desynced by the operator: up, but possibly behind.
    Donor(String),
    /// Not available, with the reason.
    Unavailable(String),
}

/// The node's view, as the admin surface needs it.
pub trait StatusSource: Send + Sync + 'static {
    /// Health for the load balancer.
    fn health(&self) -> Health;
    /// The whole status document.
    fn status(&self) -> serde_json::Value;
    /// Numeric status variables for `/metrics` (name, value).
    fn metrics(&self) -> Vec<(String, f64)>;
    /// The members, as `GET /members` lists them.
    fn members(&self) -> serde_json::Value;
    /// Removes a member (by name or hex id): what was done, or why not.
    fn remove_member(&self, who: &str) -> Result<String, String>;
}

#[derive(Clone)]
struct AppState {
    source: Arc<dyn StatusSource>,
    /// This node's own recorder (not the global one: tests run several nodes per process).
    recorder: Arc<PrometheusRecorder>,
}

/// Serves the admin endpoints until `shutdown` turns true.
pub async fn serve(
    listener: TcpListener,
    source: Arc<dyn StatusSource>,
    mut shutdown: watch::Receiver<bool>,
) {
    let recorder = Arc::new(PrometheusBuilder::new().build_recorder());
    let app = Router::new()
        .route("/health", get(health))
        .route("/status", get(status))
        .route("/metrics", get(metrics_text))
        .route("/members", get(members))
        .route("/members/{who}", delete(remove_member))
        .with_state(AppState { source, recorder });
    let stop = async move {
        let _ = shutdown.wait_for(|s| *s).await;
    };
    if let Err(e) = axum::serve(listener, app)
        .with_graceful_shutdown(stop)
        .await
    {
        tracing::warn!("admin server stopped: {e}");
    }
}

async fn health(
    State(s): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> impl IntoResponse {
    let donor_ok = q
        .get("available_when_donor")
        .is_some_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
    let (code, body) = match s.source.health() {
        Health::Synced => (StatusCode::OK, "tutti node is synced.\n".to_string()),
        Health::Donor(what) if donor_ok => (
            StatusCode::OK,
            format!("tutti node is {what} (available when donor).\n"),
        ),
        Health::Donor(what) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("tutti node is not synced: {what}.\n"),
        ),
        Health::Unavailable(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("tutti node is not synced: {why}.\n"),
        ),
    };
    (
        code,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
}

async fn status(State(s): State<AppState>) -> impl IntoResponse {
    axum::Json(s.source.status())
}

async fn members(State(s): State<AppState>) -> impl IntoResponse {
    axum::Json(s.source.members())
}

async fn remove_member(State(s): State<AppState>, Path(who): Path<String>) -> impl IntoResponse {
    // The removal waits for the Raft thread: off the async runtime.
    let source = s.source.clone();
    let result = tokio::task::spawn_blocking(move || source.remove_member(&who))
        .await
        .unwrap_or_else(|e| Err(e.to_string()));
    match result {
        Ok(done) => (StatusCode::OK, format!("{done}\n")),
        Err(why) => (StatusCode::CONFLICT, format!("{why}\n")),
    }
}

async fn metrics_text(State(s): State<AppState>) -> impl IntoResponse {
    let values = s.source.metrics();
    metrics::with_local_recorder(&*s.recorder, || {
        for (name, value) in values {
            let name: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            metrics::gauge!(format!("tutti_{name}")).set(value);
        }
    });
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        s.recorder.handle().render(),
    )
}
