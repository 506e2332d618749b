//! Tabula's web app: every registered game playable in the browser, against
//! the AI or other people.
//!
//! - `store`: SQLite, every action stored before it is acknowledged;
//! - `session`: one game in progress (rules object, history, seats);
//! - `app`: the games held, every change to them, the AI seats;
//! - `api` / `ws`: the JSON API and the live channel of a game;
//! - `assets`: the UI in `web/` and the rules pages.

pub mod ai;
pub mod api;
pub mod app;
pub mod assets;
pub mod error;
pub mod session;
pub mod store;
pub mod ws;

pub use app::App;
pub use error::ApiError;

use axum::serve::ListenerExt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    /// The SQLite file; created if missing.
    pub db: PathBuf,
    /// Pause before each AI action, so people can follow.
    pub ai_pause: Duration,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("tabula.db"),
            ai_pause: Duration::from_millis(300),
        }
    }
}

/// The app over `registry`, stored in `db`: the router and its state.
pub fn build(
    registry: tabula_core::Registry,
    db: &std::path::Path,
    ai_pause: Duration,
) -> Result<(axum::Router, Arc<App>), String> {
    let app = App::open(registry, db, ai_pause)?;
    Ok((api::router(Arc::clone(&app)), app))
}

/// Serve every registered game until Ctrl-C.
pub async fn serve(config: ServeConfig) -> Result<(), Box<dyn std::error::Error>> {
    let (router, app) = build(tabula_games::registry(), &config.db, config.ai_pause)?;
    app.resume_ai();
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    println!(
        "Tabula is at http://{} (games stored in {})",
        tokio::net::TcpListener::local_addr(&listener)?,
        config.db.display()
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
