//! The tournaments' endpoints (`docs/api.md`, "Tournaments").

use super::{body, visitor_for_change, Answer};
use crate::app::App;
use crate::protocol::{Done, NewTournament, TournamentId, TournamentList, TournamentView};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(one))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/withdraw", post(withdraw))
}

async fn list(State(app): State<Arc<App>>) -> Answer<TournamentList> {
    Ok(Json(app.tournaments.tournaments().await?))
}

async fn one(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<TournamentView> {
    let visitor = app.users.visitor(&headers).await?;
    Ok(Json(app.tournaments.tournament(&visitor, &id).await?))
}

async fn create(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<TournamentId> {
    let req: NewTournament = body(&bytes)?;
    let visitor = visitor_for_change(&app, &headers).await?;
    Ok(Json(
        app.tournaments.create_tournament(&visitor, req).await?,
    ))
}

async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Done> {
    let visitor = visitor_for_change(&app, &headers).await?;
    app.tournaments.join_tournament(&visitor, &id).await?;
    Ok(Json(Done {}))
}

async fn withdraw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Done> {
    let visitor = visitor_for_change(&app, &headers).await?;
    app.tournaments.withdraw_tournament(&visitor, &id).await?;
    Ok(Json(Done {}))
}
