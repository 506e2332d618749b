//! Live channels (WebSockets) of a server served on a loopback port, and
//! their messages read as the protocol's types.

use super::Server;
use serde::de::DeserializeOwned;
use std::time::Duration;
use tabula_server::protocol::{ClientMessage, ServerMessage};

/// A client WebSocket.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Serve `srv` on a free loopback port (WebSockets need a real socket).
pub async fn serve(srv: &Server) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let router = srv.router.clone();
    tokio::spawn(async move { axum::serve(listener, router).await });
    addr
}

/// A live channel at `path` of the server at `addr`, opened by a browser
/// holding session `cookie` on a page of `origin`.
pub async fn connect(addr: std::net::SocketAddr, path: &str, cookie: &str, origin: &str) -> Ws {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}{path}")
        .into_client_request()
        .expect("request");
    let headers = req.headers_mut();
    let cookie = format!("tabula_session={cookie}");
    headers.insert("cookie", cookie.parse().expect("header"));
    headers.insert("origin", origin.parse().expect("header"));
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("connect");
    ws
}

/// A live channel at `path` (a WebSocket) opened by a browser holding
/// session `cookie`, from a page of the server (one started for it on a
/// loopback port).
pub async fn live(srv: &Server, cookie: &str, path: &str) -> Ws {
    let addr = serve(srv).await;
    connect(addr, path, cookie, &format!("http://{addr}")).await
}

/// A game's live channel opened without a session (a spectator's).
pub async fn spectate(srv: &Server, id: &str) -> Ws {
    let addr = serve(srv).await;
    let url = format!("ws://{addr}/api/games/{id}/ws");
    let (ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect");
    ws
}

/// How long a test waits for a message it expects.
const MESSAGE_LIMIT: Duration = Duration::from_secs(10);

/// A live channel spoken in the protocol's types.
#[allow(async_fn_in_trait)]
pub trait Live {
    /// The next text message as `T` (within [`MESSAGE_LIMIT`]).
    async fn read<T: DeserializeOwned>(&mut self) -> T;
    /// Send `msg` as JSON text.
    async fn say(&mut self, msg: &impl serde::Serialize);

    /// The next message of a game's channel.
    async fn message(&mut self) -> ServerMessage {
        self.read().await
    }

    /// Read a game's messages until `pick` takes one.
    async fn until<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
        loop {
            if let Some(found) = pick(self.message().await) {
                return found;
            }
        }
    }

    /// Send a game's channel `msg`.
    async fn send_message(&mut self, msg: &ClientMessage) {
        self.say(msg).await
    }
}

impl Live for Ws {
    async fn read<T: DeserializeOwned>(&mut self) -> T {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::Message;
        let next = tokio::time::timeout(MESSAGE_LIMIT, self.next())
            .await
            .expect("a message in time");
        match next {
            Some(Ok(Message::Text(text))) => serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{e}: a message not of its type: {text}")),
            other => panic!("not a text message: {other:?}"),
        }
    }

    async fn say(&mut self, msg: &impl serde::Serialize) {
        use futures_util::SinkExt;
        let text = serde_json::to_string(msg).expect("json");
        self.send(tokio_tungstenite::tungstenite::Message::Text(text.into()))
            .await
            .expect("send");
    }
}

/// What a game's watcher inside the server receives.
pub type Watch = tokio::sync::broadcast::Receiver<tabula_server::round::actor::Published>;

impl Server {
    /// Watch game `id` from inside the server, as a page does (an AI-only
    /// game's AI thinks only while someone watches).
    pub async fn watch(&self, id: &str) -> Watch {
        self.app
            .rounds
            .watch(id, &Default::default())
            .await
            .expect("watch")
            .1
    }
}

/// The next message a watcher gets (within [`MESSAGE_LIMIT`]).
pub async fn published(rx: &mut Watch) -> ServerMessage {
    let p = tokio::time::timeout(MESSAGE_LIMIT, rx.recv())
        .await
        .expect("a message in time")
        .expect("an open channel");
    serde_json::from_str(&p.text).unwrap_or_else(|e| panic!("{e}: {}", p.text))
}

/// Read a watcher's messages until `pick` takes one.
pub async fn published_until<T>(
    rx: &mut Watch,
    mut pick: impl FnMut(ServerMessage) -> Option<T>,
) -> T {
    loop {
        if let Some(found) = pick(published(rx).await) {
            return found;
        }
    }
}
