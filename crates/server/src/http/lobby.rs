//! The lobby's endpoints and its live channel (`docs/api.md`).

use super::{body, visitor_for_change, Answer};
use crate::app::App;
use crate::lobby::service::{RENEW_EVERY, SEEK_ALIVE_MS};
use crate::protocol::{Accepted, Done, LobbyMessage, NewSeek, Seek, SeekId};
use crate::user::session::Visitor;
use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt;
use std::sync::Arc;
use std::time::Duration;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/seeks", get(list).post(create))
        .route("/api/seeks/{id}", get(one).delete(cancel))
        .route("/api/seeks/{id}/accept", post(accept))
        .route("/api/lobby/ws", get(channel))
}

async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer<Vec<Seek>> {
    let visitor = app.users.visitor(&headers).await?;
    Ok(Json(app.lobby.seeks_for(&visitor).await?))
}

async fn one(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Seek> {
    let visitor = app.users.visitor(&headers).await?;
    Ok(Json(app.lobby.seek(&visitor, &id).await?))
}

async fn create(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> Answer<SeekId> {
    let req: NewSeek = body(&bytes)?;
    let visitor = visitor_for_change(&app, &headers).await?;
    crate::bot::refuse_lobby(&visitor)?;
    Ok(Json(app.lobby.post_seek(&visitor, req).await?))
}

async fn accept(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Accepted> {
    let visitor = visitor_for_change(&app, &headers).await?;
    crate::bot::refuse_lobby(&visitor)?;
    Ok(Json(app.lobby.accept_seek(&visitor, &id).await?))
}

async fn cancel(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Done> {
    let visitor = visitor_for_change(&app, &headers).await?;
    app.lobby.cancel_seek(&visitor, &id).await?;
    Ok(Json(Done {}))
}

async fn channel(
    State(app): State<Arc<App>>,
    super::ClientAddr(addr): super::ClientAddr,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, crate::ApiError> {
    let slot = app
        .sockets
        .open(&addr, app.config.guard.sockets_per_address)?;
    let visitor = super::ws::socket_visitor(&app, &headers).await?;
    Ok(super::ws::small(ws).on_upgrade(move |socket| async move {
        run(app, visitor, socket).await;
        drop(slot);
    }))
}

/// Send the seeks the visitor may see now, and again whenever they may
/// have changed (at most every 100 ms); keep the visitor's own seeks alive
/// while the channel is open.
async fn run(app: Arc<App>, visitor: Visitor, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let mut changes = app.lobby.subscribe();
    let mut closing = app.rounds.closing();
    let mut revoked = app.users.revocation(&visitor);
    let mut heart = super::ws::Heartbeat::new(app.config.guard.socket_stall);
    let mut renew = tokio::time::interval(RENEW_EVERY);
    let mut dirty = true;
    loop {
        if dirty {
            dirty = false;
            let Ok(seeks) = app.lobby.seeks_for(&visitor).await else {
                break;
            };
            let text = serde_json::to_string(&LobbyMessage::Seeks { seeks }).unwrap_or_default();
            if !heart.send(&mut sink, Message::Text(text.into())).await {
                break;
            }
        }
        tokio::select! {
            _ = crate::common::closed(&mut closing) => break,
            _ = revoked.fired() => {
                let _ = heart.send(&mut sink, Message::Close(Some(super::ws::signed_out()))).await;
                break;
            }
            ping = heart.beat() => {
                let Some(ping) = ping else { break };
                if !heart.send(&mut sink, ping).await {
                    break;
                }
            }
            _ = renew.tick() => app.lobby.keep_seeks(&visitor, SEEK_ALIVE_MS).await,
            change = changes.recv() => {
                if matches!(change, Err(tokio::sync::broadcast::error::RecvError::Closed)) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                // Fold the changes that came meanwhile into one list.
                while changes.try_recv().is_ok() {}
                dirty = true;
            }
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                _ => heart.heard(),
            },
        }
    }
    // The page closed: its seeks lapse unless another page keeps them.
    app.lobby
        .keep_seeks(&visitor, 2 * RENEW_EVERY.as_millis() as i64)
        .await;
}
