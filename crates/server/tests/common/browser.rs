//! A browser over the router: its session and device cookies, its
//! pages' Origin and its address; raw calls and the typed ones.

use super::client::{api, Call, Client};
use super::{json_body, Server};
use axum::http::{HeaderMap, Request, StatusCode};
use serde::Serialize;
use serde_json::Value;
use tabula_server::protocol::{Me, NewSeek};

/// Two browsers signed up as Ann (address 1) and Bob (address 2) in the
/// game of Ann's seek `seek`, which Bob accepts; the game's id.
pub async fn met<'a>(srv: &'a Server, seek: &NewSeek) -> (Browser<'a>, Browser<'a>, String) {
    let mut ann = Browser::signed_up(srv, 1, "Ann").await;
    let mut bob = Browser::signed_up(srv, 2, "Bob").await;
    let sid = ann.send(api::seek(seek)).await.id;
    let game = bob.accept_seek(&sid).await;
    (ann, bob, game)
}

/// A browser: keeps the session cookie and sends its pages' Origin, from
/// its own address.
pub struct Browser<'a> {
    pub srv: &'a Server,
    pub cookie: Option<String>,
    /// The device cookie (`tabula_device`): set once this browser signed in.
    pub device: Option<String>,
    pub origin: Option<String>,
    pub address: std::net::SocketAddr,
}

impl<'a> Browser<'a> {
    pub fn new(srv: &'a Server, n: u8) -> Browser<'a> {
        Browser {
            srv,
            cookie: None,
            device: None,
            origin: Some("http://tabula.test".into()),
            address: std::net::SocketAddr::from(([10, 0, 0, n], 5000)),
        }
    }

    /// Send a request; remember a cookie the server sets.
    pub async fn call(&mut self, method: &str, path: &str, body: Value) -> (StatusCode, Value) {
        let (status, headers, value) = self.call_full(method, path, body).await;
        let _ = headers;
        (status, value)
    }

    pub async fn call_full(
        &mut self,
        method: &str,
        path: &str,
        body: Value,
    ) -> (StatusCode, axum::http::HeaderMap, Value) {
        let body = json_body(&body);
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header("host", "tabula.test")
            .header("content-type", "application/json");
        if let Some(o) = &self.origin {
            req = req.header("origin", o.as_str());
        }
        let cookies: Vec<String> = [
            ("tabula_session", &self.cookie),
            ("tabula_device", &self.device),
        ]
        .into_iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name}={v}")))
        .collect();
        if !cookies.is_empty() {
            req = req.header("cookie", cookies.join("; "));
        }
        let mut req = req.body(body).expect("request");
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(self.address));
        let (status, headers, body) = self.srv.respond(req).await;
        for set in headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
        {
            let (name, value) = set
                .split(';')
                .next()
                .and_then(|kv| kv.split_once('='))
                .unwrap_or_default();
            let value = (!value.is_empty()).then(|| value.to_string());
            match name {
                "tabula_device" => self.device = value,
                _ => self.cookie = value,
            }
        }
        (status, headers, body)
    }

    /// Expect `status`; the answer.
    pub async fn expect(
        &mut self,
        status: StatusCode,
        method: &str,
        path: &str,
        body: Value,
    ) -> Value {
        let (st, v) = self.call(method, path, body.clone()).await;
        assert_eq!(st, status, "{method} {path} {body}: {v}");
        v
    }

    /// A browser at address `n` with a guest session.
    pub async fn guest_at(srv: &'a Server, n: u8) -> Browser<'a> {
        let mut browser = Browser::new(srv, n);
        browser.guest().await;
        browser
    }

    /// A browser at address `n` signed up as `name`.
    pub async fn signed_up(srv: &'a Server, n: u8, name: &str) -> Browser<'a> {
        let mut browser = Browser::new(srv, n);
        browser.sign_up(name).await;
        browser
    }

    /// Join game `id` by the seat's (invite) `token`; the seat's token
    /// from now on.
    pub async fn join(&mut self, id: &str, token: &str) -> String {
        let seat = self.send(api::join(id, token)).await;
        seat.token.unwrap_or_else(|| token.to_string())
    }

    /// Sign up as `name` (with [`api::PASSWORD`]).
    pub async fn sign_up(&mut self, name: &str) -> Me {
        self.send(api::sign_up(name)).await
    }

    /// Sign in to the account `sign_up` made.
    pub async fn sign_in(&mut self, name: &str) -> Me {
        self.send(api::sign_in(name)).await
    }

    /// Post seek `body` (a `NewSeek`, or JSON); its id.
    pub async fn post_seek(&mut self, body: &impl Serialize) -> String {
        let call = Call::<tabula_server::protocol::SeekId>::post("/api/seeks", body);
        self.send(call).await.id
    }

    /// Take a seat of seek `sid`, filling it; the game's id.
    pub async fn accept_seek(&mut self, sid: &str) -> String {
        let accepted = self.send(api::accept(sid)).await;
        accepted.game.expect("the game starts")
    }

    /// Open a guest session.
    pub async fn guest(&mut self) {
        self.send(api::session()).await;
    }
}

impl Client for &mut Browser<'_> {
    async fn exchange(
        self,
        method: &str,
        path: &str,
        body: Value,
    ) -> (StatusCode, HeaderMap, Value) {
        self.call_full(method, path, body).await
    }
}
