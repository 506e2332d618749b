//! The live channel of one game: the server sends a snapshot, then every
//! change; a client may also send moves here (`{"type":"move",...}`),
//! answered by `ack` or `error` with the request's `rid`.

use crate::app::App;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

#[derive(Deserialize)]
struct ClientMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    rid: Value,
}

pub async fn handler(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ws: WebSocketUpgrade,
) -> Result<Response, crate::error::ApiError> {
    app.handle(&id)?;
    Ok(ws.on_upgrade(move |socket| run(app, id, socket)))
}

async fn run(app: Arc<App>, id: String, socket: WebSocket) {
    let Ok(h) = app.handle(&id) else { return };
    let (mut sink, mut stream) = socket.split();
    let (mut updates, snapshot) = {
        let s = h.session.lock().await;
        (h.tx.subscribe(), s.snapshot().to_string())
    };
    if sink.send(Message::Text(snapshot.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text: String = match update {
                    Ok(text) => text.to_string(),
                    Err(RecvError::Lagged(_)) => h.session.lock().await.snapshot().to_string(),
                    Err(RecvError::Closed) => return,
                };
                if sink.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                // One request at a time per client; updates wait in the
                // channel meanwhile.
                let reply = answer(&app, &id, text.as_str()).await.to_string();
                if sink.send(Message::Text(reply.into())).await.is_err() {
                    return;
                }
            }
        }
    }
}

async fn answer(app: &Arc<App>, id: &str, text: &str) -> Value {
    let msg: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => return json!({"type": "error", "error": format!("bad message: {e}")}),
    };
    match msg.kind.as_str() {
        "move" => match app.play(id, &msg.token, &msg.action, msg.ply).await {
            Ok(ply) => json!({"type": "ack", "rid": msg.rid, "ply": ply}),
            Err(e) => {
                json!({"type": "error", "rid": msg.rid, "error": e.message, "status": e.status.as_u16()})
            }
        },
        "ping" => json!({"type": "pong", "rid": msg.rid}),
        other => {
            json!({"type": "error", "rid": msg.rid, "error": format!("unknown message type `{other}` (valid: move, ping)")})
        }
    }
}
