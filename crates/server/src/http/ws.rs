//! The live channel of one game: the server sends a snapshot, then every
//! change; a client may also send moves here, answered by `ack` or `error`
//! with the request's `rid` (see `protocol::ClientMessage`).

use super::ClientAddr;
use crate::app::App;
use crate::error::ApiError;
use crate::protocol::{ClientMessage, ServerMessage};
use crate::round::{Caller, Command, Reply, RoundError};
use crate::user::session::{self, Visitor};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

pub async fn handler(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Refuse an unknown game before the upgrade, with a plain 404.
    app.rounds.handle(&id).await?;
    let slot = app
        .sockets
        .open(&addr, app.config.guard.sockets_per_address)?;
    let visitor = socket_visitor(&app, &headers).await?;
    Ok(small(ws).on_upgrade(move |socket| async move {
        run(app, id, visitor, addr, socket).await;
        drop(slot);
    }))
}

/// What keeps a live channel honest: a client that stops reading (a send
/// stays blocked, or a ping goes unanswered) for `stall` is closed, so a
/// thousand clients that never read cannot pin the host's socket memory.
pub(crate) struct Heartbeat {
    stall: std::time::Duration,
    timer: tokio::time::Interval,
    /// A ping was sent and nothing has come back since.
    waiting: bool,
}

impl Heartbeat {
    pub(crate) fn new(stall: std::time::Duration) -> Heartbeat {
        let start = tokio::time::Instant::now() + stall;
        Heartbeat {
            stall,
            timer: tokio::time::interval_at(start, stall),
            waiting: false,
        }
    }

    /// Resolves every `stall`: with a ping to send, or `None` when the last
    /// one went unanswered (close the channel).
    pub(crate) async fn beat(&mut self) -> Option<Message> {
        self.timer.tick().await;
        if self.waiting {
            return None;
        }
        self.waiting = true;
        Some(Message::Ping(Default::default()))
    }

    /// The client sent something (a pong, a request): it reads.
    pub(crate) fn heard(&mut self) {
        self.waiting = false;
    }

    /// Send `msg`, unless the client has not made room for it within
    /// `stall`; whether it went.
    pub(crate) async fn send<S>(&self, sink: &mut S, msg: Message) -> bool
    where
        S: futures_util::Sink<Message> + Unpin,
    {
        matches!(
            tokio::time::timeout(self.stall, sink.send(msg)).await,
            Ok(Ok(()))
        )
    }
}

/// A live channel with buffers sized for Tabula's messages: a watcher that
/// only listens costs a few KB, and no client message exceeds 64 KB.
pub(crate) fn small(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1 << 20)
        .max_message_size(super::guard::WS_MAX_MESSAGE)
        .max_frame_size(super::guard::WS_MAX_MESSAGE)
}

/// The answer to a binary message: Tabula speaks JSON text.
pub(crate) fn binary_refused() -> ServerMessage {
    ApiError::bad_request("binary messages are not accepted: send JSON text").to_message(None)
}

/// The visitor of a live channel: a socket opened by another site's page
/// does not get the session (it could act for the player).
pub(crate) async fn socket_visitor(app: &App, headers: &HeaderMap) -> Result<Visitor, ApiError> {
    if session::check_origin(headers, &app.config.guard.allowed_origins).is_err() {
        return Ok(Visitor::default());
    }
    Ok(app.users.visitor(headers).await?)
}

async fn run(app: Arc<App>, id: String, visitor: Visitor, addr: String, socket: WebSocket) {
    let mut seats = Vec::new();
    serve(&app, &id, &visitor, &addr, socket, &mut seats).await;
    // The player's channel closed: the game counts them away.
    if !seats.is_empty() {
        if let Some(h) = app.rounds.live().get(&id) {
            let _ = h.tx.send(crate::round::actor::Msg::Unwatch { seats }).await;
        }
    }
}

/// Serve one live channel until it closes; `seats` are the seats its
/// session plays.
async fn serve(
    app: &Arc<App>,
    id: &str,
    visitor: &Visitor,
    addr: &str,
    socket: WebSocket,
    seats: &mut Vec<u8>,
) {
    let me = visitor.caller("");
    let Ok((snapshot, mut updates)) = app.rounds.watch(id, &me).await else {
        return;
    };
    seats.clone_from(&snapshot.you);
    let player = !snapshot.you.is_empty();
    let (mut sink, mut stream) = socket.split();
    let mut closing = app.rounds.closing();
    let mut revoked = app.users.revocation(visitor);
    let mut heart = Heartbeat::new(app.config.guard.socket_stall);
    let first = ServerMessage::Snapshot(snapshot).to_json();
    if !heart.send(&mut sink, Message::Text(first.into())).await {
        return;
    }
    loop {
        tokio::select! {
            _ = crate::common::closed(&mut closing) => {
                // 1012: the service is restarting; clients reconnect.
                let frame = CloseFrame { code: 1012, reason: "the server is restarting".into() };
                let _ = heart.send(&mut sink, Message::Close(Some(frame))).await;
                return;
            }
            _ = revoked.fired() => {
                let _ = heart.send(&mut sink, Message::Close(Some(signed_out()))).await;
                return;
            }
            ping = heart.beat() => {
                let Some(ping) = ping else { return };
                if !heart.send(&mut sink, ping).await {
                    return;
                }
            }
            update = updates.recv() => {
                let text: String = match update {
                    Ok(p) if p.hidden_from_players && player => continue,
                    Ok(p) => p.text.to_string(),
                    // Fell behind: start again from a fresh snapshot.
                    Err(RecvError::Lagged(_)) => match app.rounds.view(id, 0).await {
                        Ok(view) => ServerMessage::Snapshot(view).to_json(),
                        Err(_) => return,
                    },
                    Err(RecvError::Closed) => match app.rounds.watch(id, &me).await {
                        // The game's owner retired or was replaced: watch
                        // the new one.
                        Ok((view, rx)) => {
                            updates = rx;
                            ServerMessage::Snapshot(view).to_json()
                        }
                        Err(_) => return,
                    },
                };
                if !heart.send(&mut sink, Message::Text(text.into())).await {
                    return;
                }
            }
            incoming = stream.next() => {
                heart.heard();
                let reply = match incoming {
                    // One request at a time per client; updates wait in
                    // the channel meanwhile.
                    Some(Ok(Message::Text(t))) => answer(app, id, visitor, addr, t.as_str()).await,
                    Some(Ok(Message::Binary(_))) => binary_refused(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                }
                .to_json();
                if !heart.send(&mut sink, Message::Text(reply.into())).await {
                    return;
                }
            }
        }
    }
}

async fn answer(
    app: &Arc<App>,
    id: &str,
    visitor: &Visitor,
    addr: &str,
    text: &str,
) -> ServerMessage {
    let msg: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return ApiError::bad_request(format!(
                "bad message: {e} (valid types: move, chat, ping)"
            ))
            .to_message(None)
        }
    };
    match msg {
        ClientMessage::Chat {
            token,
            room,
            text,
            rid,
        } => {
            let caller = visitor.caller(&token);
            let posted = match crate::guard::allow_chat(&app.limits, addr, &caller) {
                Ok(()) => app
                    .rounds
                    .chat(id, &caller, room, &text)
                    .await
                    .map_err(ApiError::from),
                Err(e) => Err(e.into()),
            };
            match posted {
                Ok(()) => ServerMessage::Posted { rid },
                Err(e) => e.to_message(rid),
            }
        }
        ClientMessage::Move {
            token,
            action,
            ply,
            rid,
        } => {
            let played = match move_allowed(app, addr, &visitor.caller(&token)) {
                Err(e) => Err(e),
                Ok(caller) => app
                    .rounds
                    .command(id, &caller, Command::Play { action, ply })
                    .await
                    .map_err(ApiError::from),
            };
            match played {
                Ok(Reply::Ply(ply)) => ServerMessage::Ack { rid, ply },
                Ok(other) => {
                    ApiError::from(RoundError::Internal(format!("unexpected answer {other:?}")))
                        .to_message(rid)
                }
                Err(e) => e.to_message(rid),
            }
        }
        ClientMessage::Ping { rid } => ServerMessage::Pong { rid },
    }
}

/// `caller`, if their move is within the limits.
fn move_allowed(app: &App, addr: &str, caller: &Caller) -> Result<Caller, ApiError> {
    crate::guard::allow_move(&app.limits, addr, caller)?;
    Ok(caller.clone())
}

/// The close frame of a channel whose session or token was revoked
/// (1008, policy violation: its credentials are no longer valid).
pub(crate) fn signed_out() -> CloseFrame {
    CloseFrame {
        code: 1008,
        reason: "signed out: the session or token was revoked".into(),
    }
}
