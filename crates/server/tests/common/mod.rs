//! What the server's integration tests share: a tiny test game, a server
//! over a temporary database, and calls to its router.

#![allow(dead_code)]

#[path = "../race/mod.rs"]
pub mod race;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;
use tabula_core::{GameEntry, Registry};
use tower::ServiceExt;

pub fn test_registry() -> Registry {
    Registry::new(vec![GameEntry::of::<race::Race>("Race", "A test race.")])
}

pub fn temp_db(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    std::env::temp_dir().join(format!("tabula-{name}-{}-{nanos}.db", std::process::id()))
}

pub struct Server {
    pub router: Router,
    pub app: std::sync::Arc<tabula_server::App>,
}

pub async fn start(registry: Registry, db: &std::path::Path) -> Server {
    let config = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    start_with(registry, db, config).await
}

pub async fn start_with(
    registry: Registry,
    db: &std::path::Path,
    config: tabula_server::RoundConfig,
) -> Server {
    let (router, app) = tabula_server::build(registry, &db.to_string_lossy(), config)
        .await
        .expect("open");
    app.resume_ai().await.expect("resume");
    Server { router, app }
}

impl Server {
    pub async fn call(&self, method: &str, path: &str, body: Value) -> (StatusCode, Value) {
        let body = if body.is_null() {
            Body::empty()
        } else {
            Body::from(body.to_string())
        };
        let req = Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", "application/json")
            .body(body)
            .expect("request");
        let res = self.router.clone().oneshot(req).await.expect("response");
        let status = res.status();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        (status, value)
    }
    pub async fn get(&self, path: &str) -> Value {
        let (status, v) = self.call("GET", path, Value::Null).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
        v
    }
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, v) = self.call("POST", path, body).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
        v
    }
    pub async fn create(&self, body: Value) -> (String, Vec<String>) {
        let v = self.post("/api/games", body).await;
        let tokens = v["tokens"]
            .as_array()
            .expect("tokens")
            .iter()
            .map(|t| t["token"].as_str().expect("token").to_string())
            .collect();
        (v["id"].as_str().expect("id").to_string(), tokens)
    }
    /// Wait until the AI has played and a human (or nobody) is to move.
    pub async fn settled(&self, id: &str) -> Value {
        for _ in 0..500 {
            let s = self.get(&format!("/api/games/{id}")).await;
            let st = &s["state"];
            let ai_turn = st["turn"]["kind"] == "player"
                && st["players"][st["turn"]["seat"].as_u64().unwrap_or(0) as usize]["kind"] == "ai";
            if !ai_turn && st["thinking"] == false {
                return s;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("the AI never moved in {id}");
    }
}

pub fn ply(s: &Value) -> u64 {
    s["state"]["ply"].as_u64().expect("ply")
}
