//! The HTTP edge (lila's controllers): the router, and thin handlers per
//! module that read a typed request, call that module's service and write
//! a typed answer. Every refusal is `{"error", "code"}` with a 4xx (or
//! 5xx) status and changes nothing; `docs/api.md` documents every
//! endpoint with an example. Nothing below `http` knows about HTTP
//! requests, only this edge and `error` do.

pub mod analysis;
pub mod bot;
pub mod games;
pub mod guard;
pub mod learn;
pub mod lobby;
pub mod test_clock;
pub mod tournament;
pub mod user;
pub mod ws;

pub use guard::ClientAddr;

use crate::app::App;
use crate::assets;
use crate::error::ApiError;
use crate::round::Caller;
use crate::user::session::{self, Visitor};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Request};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use std::sync::Arc;

pub fn router(app: Arc<App>) -> Router {
    let router = Router::new()
        .route("/healthz", get(games::health))
        .route("/api/catalog", get(games::catalog))
        .route("/api/rules/{game}", get(games::rules))
        .route("/api/rules/{game}/reference", get(games::reference))
        .route("/api/games", get(games::list).post(games::create))
        .route("/api/games/import", post(games::import))
        .route("/api/games/{id}", get(games::snapshot))
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/games/{id}/move", post(games::play))
        .route("/api/games/{id}/join", post(games::join))
        .route("/api/games/{id}/draw", post(games::draw))
        .route("/api/games/{id}/hint", post(games::hint))
        .route("/api/games/{id}/rematch", post(games::rematch))
        .route("/api/games/{id}/chat", post(games::chat))
        .route("/api/games/{id}/claim", post(games::claim))
        .route("/api/games/{id}/stop", post(games::stop))
        .route("/api/metrics", get(games::metrics))
        .route("/api/games/{id}/{verb}", post(games::token_verb))
        .merge(user::routes())
        .merge(lobby::routes())
        .merge(bot::routes())
        .merge(tournament::routes())
        .merge(learn::routes())
        .merge(analysis::routes())
        .merge(test_clock::routes(app.config.guard.test_clock))
        .fallback(assets::web)
        .with_state(Arc::clone(&app));
    guard::protect(router, app)
}

/// The client's address, for rate limits (see `guard::ClientAddr`).
pub(crate) fn client_address(req: &Request) -> String {
    if let Some(ClientAddr(a)) = req.extensions().get::<ClientAddr>() {
        return a.clone();
    }
    req.extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map_or_else(|| "local".to_string(), |c| c.0.ip().to_string())
}

/// The visitor of a request that changes something: when it carries the
/// session cookie it must come from this site's pages (`Origin`).
pub(crate) async fn visitor_for_change(
    app: &App,
    headers: &HeaderMap,
) -> Result<Visitor, ApiError> {
    if session::bearer(headers).is_some() {
        return Ok(app.users.visitor(headers).await?);
    }
    if session::cookie(headers).is_none() {
        return Ok(Visitor::default());
    }
    session::check_origin(headers, &app.config.guard.allowed_origins)?;
    Ok(app.users.visitor(headers).await?)
}

/// Who sends a game command: the seat token of the body, and the session's
/// identities when the cookie may be used. With a token, a cookie from
/// another site is ignored; without one, it is refused.
pub(crate) async fn caller(
    app: &App,
    headers: &HeaderMap,
    token: &str,
) -> Result<Caller, ApiError> {
    if session::bearer(headers).is_some() {
        return Ok(app.users.visitor(headers).await?.caller(token));
    }
    if session::cookie(headers).is_none() {
        return Ok(Caller::token(token));
    }
    match session::check_origin(headers, &app.config.guard.allowed_origins) {
        Ok(()) => Ok(app.users.visitor(headers).await?.caller(token)),
        Err(e) if token.is_empty() => Err(e.into()),
        Err(_) => Ok(Caller::token(token)),
    }
}

/// Read a JSON body, with a clear error for a malformed one; an empty body
/// is `{}`.
pub(crate) fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let text = if bytes.is_empty() { &b"{}"[..] } else { bytes };
    serde_json::from_slice(text)
        .map_err(|e| ApiError::bad_request(format!("bad request body: {e}")))
}

pub(crate) type Answer<T> = Result<Json<T>, ApiError>;
