//! The bot API's endpoints and the token endpoints of accounts
//! (`docs/api.md`, `docs/bots.md`). The streams are newline-delimited JSON
//! (`application/x-ndjson`), as Lichess's.

use super::user::{save_account, signed_in};
use super::{body, Answer};
use crate::app::App;
use crate::bot::service::{run_events, run_game};
use crate::error::ApiError;
use crate::protocol::{Accepted, Done, PlyAnswer};
use crate::round::{Command, Reply};
use crate::user::session::{self, Visitor};
use crate::user::tokens::{NewToken, TokenCreated, TokenInfo};
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use std::sync::Arc;
use tokio::sync::mpsc;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account/tokens", get(list_tokens).post(create_token))
        .route("/api/account/tokens/{id}", delete(revoke_token))
        .route("/api/bot/account/upgrade", post(upgrade))
        .route("/api/bot/stream/event", get(event_stream))
        .route("/api/bot/game/stream/{id}", get(game_stream))
        .route("/api/bot/game/{id}/move/{action}", post(play))
        .route("/api/bot/challenge/{id}/accept", post(accept))
        .route("/api/bot/challenge/{id}/decline", post(decline))
}

async fn create_token(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let req: NewToken = body(&bytes)?;
    let (_, key, _, _) = signed_in(&app, &headers).await?;
    let created: TokenCreated = app.users.create_token(&key, &req.description).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn list_tokens(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer<Vec<TokenInfo>> {
    let visitor = app.users.visitor(&headers).await?;
    let Some((key, _)) = visitor.account else {
        return Err(ApiError::unauthorized("not signed in"));
    };
    Ok(Json(app.users.list_tokens(&key).await?))
}

async fn revoke_token(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Done> {
    let (_, key, _, _) = signed_in(&app, &headers).await?;
    app.users.revoke_token(&key, &id).await?;
    Ok(Json(Done {}))
}

/// Make the signed-in account a bot: only before it has played a game
/// (its record would mix games as a person and as a bot), and for good.
async fn upgrade(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer<Done> {
    let (_, key, version, mut account) = signed_in(&app, &headers).await?;
    if account.bot {
        return Ok(Json(Done {}));
    }
    if app.bots.has_games(&account.identities()).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "only an account that has never played can become a bot",
        ));
    }
    account.bot = true;
    save_account(&app, &key, version, &account).await?;
    Ok(Json(Done {}))
}

/// The bot of a bot API request: a personal token of a bot account,
/// within the token's rate limit.
async fn bot(app: &App, headers: &HeaderMap) -> Result<Visitor, ApiError> {
    if session::bearer(headers).is_none() {
        return Err(ApiError::unauthorized(
            "the bot API needs a personal API token: Authorization: Bearer tbl_…",
        ));
    }
    let visitor = app.users.visitor(headers).await?;
    if !visitor.is_bot() {
        return Err(ApiError::forbidden(
            "not a bot account (POST /api/bot/account/upgrade makes one)",
        ));
    }
    let key = visitor.token.clone().unwrap_or_default();
    app.limits.bot.count(&key)?;
    Ok(visitor)
}

/// A newline-delimited JSON response fed by `rx` until it closes.
fn ndjson(rx: mpsc::Receiver<String>) -> Response {
    let lines = futures_util::stream::unfold(rx, |mut rx| async move {
        let line = rx.recv().await?;
        Some((Ok::<_, std::convert::Infallible>(line), rx))
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(lines),
    )
        .into_response()
}

async fn event_stream(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let visitor = bot(&app, &headers).await?;
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(run_events(Arc::clone(&app.bots), visitor, tx));
    Ok(ndjson(rx))
}

async fn game_stream(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let visitor = bot(&app, &headers).await?;
    let (snapshot, updates) = app.rounds.watch(&id, &visitor.caller("")).await?;
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(run_game(
        Arc::clone(&app.bots),
        id,
        visitor,
        snapshot,
        updates,
        tx,
    ));
    Ok(ndjson(rx))
}

/// Play `action` (the game's notation, URL-encoded) for the bot's seat.
async fn play(
    State(app): State<Arc<App>>,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer<PlyAnswer> {
    let caller = bot(&app, &headers).await?.caller("");
    let command = Command::Play { action, ply: None };
    match app.rounds.command(&id, &caller, command).await? {
        Reply::Ply(ply) => Ok(Json(PlyAnswer { ply })),
        other => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("unexpected answer {other:?}"),
        )),
    }
}

async fn accept(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Accepted> {
    let visitor = bot(&app, &headers).await?;
    Ok(Json(app.lobby.accept_seek(&visitor, &id).await?))
}

async fn decline(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Done> {
    let visitor = bot(&app, &headers).await?;
    app.bots.decline_seek(&visitor, &id).await?;
    Ok(Json(Done {}))
}
