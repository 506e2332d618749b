//! Tabula's web app: every registered game playable in the browser, against
//! the AI or other people. Its rooms, after lila's modules, each a service
//! with a narrow door (`docs/architecture.md` draws who uses whom; a test
//! keeps the directions):
//!
//! - `common`: the shared core every module may use: the one clock, ids
//!   and secrets, configuration, rate limits;
//! - `store`: SQLite or PostgreSQL, every action stored before it is
//!   acknowledged; `protocol`: every request, answer and live message,
//!   typed; `ai`: the one pool of threads that thinks for AI seats;
//! - `round`: games in progress (lila's `round`): pure logic
//!   (`round::state`), one owner task per live game (`round::actor`), one
//!   way to end a game (`round::finish`), storage (`round::repo`) and the
//!   door, `round::Rounds`;
//! - `user`: accounts, sessions, devices, tokens, revocation (lila's `user`);
//! - `guard`: rate limits, live channels per address, quotas on new games;
//! - `bot`: bot accounts and the bot API's streams (Lichess's Bot API);
//! - `lobby`: open challenges that start games (lila's `lobby`);
//! - `rating`: Glicko-2 ratings per pool, updated as rated games end;
//! - `tournament`: Swiss, arena and tables tournaments (lila's `swiss`
//!   and `tournament`);
//! - `learn`: lessons and puzzles over `tabula-learn`, an account's
//!   progress (issue 40);
//! - `error`: refusals with a status and a stable code;
//! - `app`: builds the services and starts them; `http`: the edge, routes
//!   and handlers (lila's controllers); `assets`: the UI in `web/` and the
//!   rules.

pub mod ai;
pub mod analysis;
pub mod app;
pub mod assets;
pub mod bot;
pub mod common;
pub mod error;
pub mod guard;
pub mod http;
pub mod learn;
pub mod lobby;
pub mod protocol;
pub mod rating;
pub mod round;
pub mod store;
pub mod tournament;
pub mod user;

pub use app::App;
pub use common::RoundConfig;
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
    Ok((http::router(Arc::clone(&app)), app))
}

/// Log to stderr, one line per event; `RUST_LOG` chooses what (default:
/// `info`, which is one line per request with its status and latency).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .compact()
        .try_init();
}

/// One log line per request: method, path, status and latency.
fn with_request_log(router: axum::Router) -> axum::Router {
    use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
    use tower_http::LatencyUnit;
    use tracing::Level;
    router.layer(
        TraceLayer::new_for_http()
            .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
            .on_request(())
            .on_response(
                DefaultOnResponse::new()
                    .level(Level::INFO)
                    .latency_unit(LatencyUnit::Micros),
            )
            .on_failure(()),
    )
}

/// Wait for Ctrl-C or SIGTERM (what service managers send).
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
    tracing::info!("shutting down: no new connections, requests in flight finish");
}

/// Serve every registered game until Ctrl-C or SIGTERM.
pub async fn serve(config: ServeConfig) -> Result<(), Box<dyn std::error::Error>> {
    init_logging();
    let (router, app) = build(tabula_games::registry(), &config.db, config.rounds).await?;
    let resumed = app.rounds.resume_ai().await?;
    tracing::info!(
        store = app.rounds.store_engine(),
        resumed,
        "database {}",
        shown_address(&config.db)
    );
    let router = with_request_log(router);
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
    let closing = Arc::clone(&app);
    let service = router.into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            closing.close_channels();
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
