//! Tabula's web app: every registered game playable in the browser, against
//! the AI or other people. Its rooms, after lila's modules:
//!
//! - `protocol`: every request, answer and live message, typed;
//! - `round`: games in progress: pure logic (`round::state`), one owner
//!   task per live game (`round::actor`), one way to end a game
//!   (`round::finish`);
//! - `app`: the entry points handlers call; games loaded on demand;
//! - `store`: SQLite or PostgreSQL, every action stored before it is
//!   acknowledged;
//! - `api` / `ws`: the JSON API and the live channel of a game;
//! - `ai`: AI seats and hints; `assets`: the UI in `web/` and the rules.

pub mod ai;
pub mod api;
pub mod app;
pub mod assets;
pub mod error;
pub mod protocol;
pub mod round;
pub mod store;
pub mod ws;

pub use app::{App, RoundConfig};
pub use error::ApiError;

use axum::serve::ListenerExt;
use std::net::SocketAddr;
use std::sync::Arc;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    /// A SQLite file (created if missing) or a `postgres://` URL.
    pub db: String,
    pub rounds: RoundConfig,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: "tabula.db".into(),
            rounds: RoundConfig::default(),
        }
    }
}

/// The app over `registry`, stored in `db` (a SQLite file or a
/// `postgres://` URL): the router and its state.
pub async fn build(
    registry: tabula_core::Registry,
    db: &str,
    rounds: RoundConfig,
) -> Result<(axum::Router, Arc<App>), String> {
    let app = App::open(registry, db, rounds).await?;
    Ok((api::router(Arc::clone(&app)), app))
}

/// Serve every registered game until Ctrl-C.
pub async fn serve(config: ServeConfig) -> Result<(), Box<dyn std::error::Error>> {
    let (router, app) = build(tabula_games::registry(), &config.db, config.rounds).await?;
    app.resume_ai().await?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    println!(
        "Tabula is at http://{} (games stored in {})",
        tokio::net::TcpListener::local_addr(&listener)?,
        shown_address(&config.db)
    );
    let listener = listener.tap_io(|tcp| {
        // Moves are small messages: send them at once (no Nagle delay).
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

/// A database address fit for logs: a URL's password is hidden.
pub fn shown_address(db: &str) -> String {
    match (db.find("://"), db.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &db[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &db[..scheme + 3], &db[at..]),
                None => db.to_string(),
            }
        }
        _ => db.to_string(),
    }
}
