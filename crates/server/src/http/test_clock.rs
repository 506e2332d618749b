//! `POST /api/test/clock` (`tabula serve --test-clock` only): move the
//! server's clock forward, so that a test drives a real server through an
//! arena's end or a deadline in a moment instead of waiting for it. Without
//! the flag the route does not exist (404).

use super::body;
use crate::app::App;
use crate::error::ApiError;
use crate::protocol::{ClockAdvance, ServerTime};
use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use std::sync::Arc;

/// The most one request moves the clock: a year.
const MAX_ADVANCE_MS: i64 = 366 * 86_400_000;

pub fn routes(enabled: bool) -> Router<Arc<App>> {
    let router = Router::new();
    if enabled {
        router.route("/api/test/clock", post(advance))
    } else {
        router
    }
}

async fn advance(State(app): State<Arc<App>>, bytes: Bytes) -> Result<Json<ServerTime>, ApiError> {
    let ClockAdvance { advance_ms } = body(&bytes)?;
    if !(1..=MAX_ADVANCE_MS).contains(&advance_ms) {
        return Err(ApiError::bad_request(
            "advance_ms: 1 to a year, in milliseconds (time only moves forward)",
        ));
    }
    app.advance_clock(advance_ms);
    tracing::info!("test clock moved forward by {advance_ms} ms");
    Ok(Json(ServerTime { now: app.now() }))
}
