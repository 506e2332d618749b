//! What the server's integration tests share: a tiny test game, a server
//! over a temporary database, and calls to its router.

#![allow(dead_code)]

#[path = "../race/mod.rs"]
pub mod race;

pub mod browser;
pub mod client;
pub mod live;

// Each test file uses some of these.
#[allow(unused_imports)]
pub use browser::{met, Browser};
#[allow(unused_imports)]
pub use client::{
    ai, api, days, human, invite, realtime, seated, seeded, seek, status_of, Call, Client, Refusal,
    ViewExt,
};
#[allow(unused_imports)]
pub use live::{connect, live, published, published_until, serve, spectate, Live, Watch, Ws};

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

/// A fresh database path for one test (remove it with [`remove_db`]).
pub fn temp_db(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    // Cargo's scratch directory for integration tests: inside the target
    // directory, so a run never litters the system's temporary directory.
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tabula-{name}-{}-{nanos}.db", std::process::id()))
}

/// Remove a test database with its write-ahead log and shared-memory file.
pub fn remove_db(db: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.as_os_str().to_owned();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
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
    start_at(registry, &address(db).await, config).await
}

/// A server on the database at `address` (a SQLite path or a URL).
pub async fn start_at(
    registry: Registry,
    address: &str,
    config: tabula_server::RoundConfig,
) -> Server {
    let (router, app) = tabula_server::build(registry, address, config)
        .await
        .expect("open");
    app.rounds.resume_ai().await.expect("resume");
    Server { router, app }
}

/// The PostgreSQL server the tests may use (`scripts/postgres.sh`). A run
/// promised one (`TABULA_REQUIRE_PG=1`, exported by `scripts/test.sh` once
/// it started it) fails where none is found: a lost variable must not turn
/// PostgreSQL's tests into silent passes.
pub fn postgres_url() -> Option<String> {
    let url = std::env::var("TABULA_TEST_PG")
        .ok()
        .filter(|u| !u.is_empty());
    let required = std::env::var("TABULA_REQUIRE_PG").is_ok_and(|v| v == "1");
    assert!(
        url.is_some() || !required,
        "TABULA_REQUIRE_PG=1 but TABULA_TEST_PG is not set: PostgreSQL was expected"
    );
    url
}

/// [`postgres_url`], saying on stderr that `what` is skipped without one.
pub fn postgres_or_skip(what: &str) -> Option<String> {
    let url = postgres_url();
    if url.is_none() {
        eprintln!("{what}: no TABULA_TEST_PG, PostgreSQL NOT TESTED (scripts/test.sh starts one)");
    }
    url
}

/// Where the tests keep the database named by `db`: that SQLite file, or
/// with `TABULA_TEST_STORE=postgres` a database of its own on the test
/// PostgreSQL (the same name gives the same database, for restarts), which
/// must then exist: the run asked for PostgreSQL by name.
pub async fn address(db: &std::path::Path) -> String {
    if !std::env::var("TABULA_TEST_STORE").is_ok_and(|s| s == "postgres") {
        return db.to_string_lossy().into_owned();
    }
    let url = postgres_url().expect("TABULA_TEST_STORE=postgres needs TABULA_TEST_PG");
    fresh_database(&url, &db.to_string_lossy()).await
}

/// A fresh PostgreSQL database for a test of several instances, named
/// after `what`; `None` when there is no PostgreSQL (skipped, or a
/// failure when the run promised one).
pub async fn instances_database(what: &str) -> Option<String> {
    let url = postgres_or_skip(what)?;
    let key = temp_db(&what.replace(' ', "-"));
    Some(fresh_database(&url, &key.display().to_string()).await)
}

/// A database on the server at `url` named after `key`, created if missing.
pub async fn fresh_database(url: &str, key: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    let name = format!("tabula_test_{:016x}", h.finish());
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect to the test PostgreSQL");
    tokio::spawn(connection);
    let exists = client
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
        .await
        .expect("query");
    if exists.is_none() {
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
            .expect("create database");
    }
    let base = url.rsplit_once('/').map_or(url, |(base, _)| base);
    format!("{base}/{name}")
}

impl Server {
    pub async fn call(&self, method: &str, path: &str, body: Value) -> (StatusCode, Value) {
        let (status, _, value) = self.call_full(method, path, body).await;
        (status, value)
    }

    /// Send a request without a session; the status, headers and body
    /// (JSON, or a string where it is not JSON).
    pub async fn call_full(
        &self,
        method: &str,
        path: &str,
        body: Value,
    ) -> (StatusCode, axum::http::HeaderMap, Value) {
        let body = json_body(&body);
        let req = Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", "application/json")
            .body(body)
            .expect("request");
        self.respond(req).await
    }

    /// The router's answer to `req`: status, headers and body (JSON, or a
    /// string where it is not JSON).
    pub async fn respond(&self, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Value) {
        let res = self.router.clone().oneshot(req).await.expect("response");
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        (status, headers, value)
    }
    /// GET `path` as JSON, which must succeed (for answers the typed client
    /// does not read: see `client.rs`).
    pub async fn get(&self, path: &str) -> Value {
        let (status, v) = self.call("GET", path, Value::Null).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
        v
    }
    /// POST `body` to `path` as JSON, which must succeed.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, v) = self.call("POST", path, body).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
        v
    }
}

/// A request body of `body`: none for `Null`.
pub fn json_body(body: &Value) -> Body {
    if body.is_null() {
        Body::empty()
    } else {
        Body::from(body.to_string())
    }
}

/// How long [`poll`] waits at most: long enough for a machine busy with
/// other work; a passing test waits only as long as it must.
pub const POLL_LIMIT: Duration = Duration::from_secs(30);

/// Ask `check` every `every` until it answers, for up to [`POLL_LIMIT`];
/// panics saying `what` never happened. For what the server does in its
/// own time (an AI move, a tournament's next round), seen from outside.
pub async fn poll<T, Fut>(what: &str, every: Duration, mut check: impl FnMut() -> Fut) -> T
where
    Fut: std::future::Future<Output = Option<T>>,
{
    let mut waiting = Waiting::new(what, every);
    loop {
        if let Some(answer) = check().await {
            return answer;
        }
        waiting.tick().await;
    }
}

/// [`poll`] written as a loop, for checks that need `&mut` state (a
/// browser): `tick` between tries, which panics past [`POLL_LIMIT`].
pub struct Waiting<'a> {
    what: &'a str,
    every: Duration,
    until: std::time::Instant,
}

impl<'a> Waiting<'a> {
    pub fn new(what: &'a str, every: Duration) -> Self {
        let until = std::time::Instant::now() + POLL_LIMIT;
        Waiting { what, every, until }
    }

    /// Give up after `limit` rather than [`POLL_LIMIT`].
    pub fn within(mut self, limit: Duration) -> Self {
        self.until = std::time::Instant::now() + limit;
        self
    }

    /// Wait before the next try; panics if `what` is overdue.
    pub async fn tick(&mut self) {
        let what = self.what;
        assert!(
            std::time::Instant::now() < self.until,
            "{what}: not in time"
        );
        tokio::time::sleep(self.every).await;
    }
}
