//! `POST` and `GET /api/games/{id}/analysis` (`docs/api.md`, "Analysis"):
//! ask for a game's analysis, and read it: 202 while it waits or runs,
//! 200 once done.

use super::{visitor_for_change, ClientAddr};
use crate::analysis::{Finished, Pending, State, Stored};
use crate::app::App;
use crate::error::ApiError;
use axum::extract::{Path, State as AppState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use std::sync::Arc;

pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/games/{id}/analysis", get(read).post(request))
}

async fn request(
    AppState(app): AppState<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let visitor = visitor_for_change(&app, &headers).await?;
    // Counted by person: their identity, else (no session) their address.
    let requester = visitor
        .ids()
        .first()
        .map_or_else(|| format!("a:{addr}"), ToString::to_string);
    let state = app.analyses.request(&id, &requester).await?;
    answer(state)
}

async fn read(
    AppState(app): AppState<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    match app.analyses.state(&id).await? {
        Some(state) => answer(state),
        None => Err(ApiError {
            code: "no_analysis",
            ..ApiError::not_found(format!("nobody asked for game `{}`'s analysis", cut(&id)))
        }),
    }
}

/// An id as sent, cut short for an error line.
fn cut(text: &str) -> String {
    text.chars().take(40).collect()
}

/// 202 with the progress while pending, 200 with the analysis once done.
fn answer(state: State) -> Result<Response, ApiError> {
    match state {
        State::Pending {
            running,
            done,
            total,
        } => Ok((
            StatusCode::ACCEPTED,
            Json(Pending {
                status: if running { "running" } else { "queued" }.into(),
                done,
                total,
            }),
        )
            .into_response()),
        State::Done(stored) => match *stored {
            Stored {
                analysis: Some(analysis),
                ..
            } => Ok(Json(Finished {
                status: "done".into(),
                analysis,
            })
            .into_response()),
            Stored { error, .. } => Err(ApiError {
                code: "analysis_failed",
                ..ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!(
                        "the engine could not analyse this game: {}",
                        error.unwrap_or_default()
                    ),
                )
            }),
        },
    }
}
