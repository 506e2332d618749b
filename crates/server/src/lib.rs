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

/// Wait for Ctrl-C or SIGTERM, then say the server is stopping.
async fn shutdown_signal() {
    stop_signal().await;
    tracing::info!("shutting down: no new connections, requests in flight finish");
}

/// Wait for Ctrl-C or SIGTERM (what service managers send). SIGTERM is
/// listened for from this call on, not from the first poll: one that came
/// between the two would end the process the default way (a worker that
/// logged its first failure and was stopped at once died so in a test).
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    async move {
        #[cfg(unix)]
        let term = async {
            match term.as_mut() {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let term = std::future::pending::<()>();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term => {}
        }
    }
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

/// How long a worker waits before trying an unreachable database again.
const WORKER_RETRY: std::time::Duration = std::time::Duration::from_secs(2);
/// How long a stopping worker lets the AI turns it holds finish.
const WORKER_DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// `tabula worker`: an instance without HTTP that takes AI turns from the
/// PostgreSQL database `db`, shared with `tabula serve` instances (those
/// started with `--ai-workers 0` compute none). It claims each turn on the
/// game's row (announced by a note, or found by its sweep every
/// `rounds.ai_sweep`), renews the claim while it thinks, and stores the
/// move through the game's owner as any instance does, until Ctrl-C or
/// SIGTERM; then it claims no more and lets the turns it holds finish.
pub async fn work(db: &str, rounds: RoundConfig) -> Result<(), Box<dyn std::error::Error>> {
    init_logging();
    if !(db.starts_with("postgres://") || db.starts_with("postgresql://")) {
        return Err(format!(
            "a worker takes AI turns from the PostgreSQL database its web instances share: \
             give --db postgres://… (not `{db}`)"
        )
        .into());
    }
    let shown = shown_address(db);
    let stop = stop_signal();
    tokio::pin!(stop);
    let app = loop {
        tokio::select! {
            opened = App::open(tabula_games::registry(), db, rounds.clone()) => match opened {
                Ok(app) => break app,
                Err(e) => tracing::error!(
                    "cannot use the database {shown}: {e}; trying again in {WORKER_RETRY:?}"
                ),
            },
            _ = &mut stop => return Ok(()),
        }
        tokio::select! {
            _ = tokio::time::sleep(WORKER_RETRY) => {}
            _ = &mut stop => return Ok(()),
        }
    };
    let resumed = app.rounds.resume_ai().await.unwrap_or_else(|e| {
        tracing::warn!("AI sweep: {e}");
        0
    });
    tracing::info!(
        threads = rounds.guard.ai_workers,
        claim_ms = rounds.ai_claim.as_millis() as u64,
        sweep_ms = rounds.ai_sweep.as_millis() as u64,
        resumed,
        "AI worker on database {shown}"
    );
    println!("Tabula AI worker on {shown}");
    stop.await;
    tracing::info!("stopping: no new AI turn is claimed; the turns held finish");
    app.close_channels();
    let until = tokio::time::Instant::now() + WORKER_DRAIN;
    while app.rounds.ai_turns_held() > 0 && tokio::time::Instant::now() < until {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    match app.rounds.ai_turns_held() {
        0 => tracing::info!("stopped"),
        n => tracing::warn!("stopped with {n} AI turns unfinished: their claims run out"),
    }
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
