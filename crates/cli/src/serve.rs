//! `tabula serve`: the web app (see the `tabula-server` crate).

use crate::CmdResult;
use std::net::SocketAddr;

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, env = "TABULA_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are kept: a SQLite file (created if missing) or a
    /// PostgreSQL URL (`postgres://user@host/dbname`).
    #[arg(long, env = "TABULA_DB", default_value = "tabula.db")]
    db: String,
    /// Pause before each AI action, in milliseconds, so people can follow.
    #[arg(long, default_value_t = 300)]
    ai_pause_ms: u64,
    /// Threads that think for AI seats and hints (default: the number of
    /// cores).
    #[arg(long, env = "TABULA_AI_WORKERS")]
    ai_workers: Option<usize>,
    /// Another origin whose pages may use the session cookie and the live
    /// channels, e.g. `https://play.example.org` (repeatable).
    #[arg(
        long = "allowed-origin",
        env = "TABULA_ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    allowed_origins: Vec<String>,
    /// Take the client's address from `X-Forwarded-For` (only behind a
    /// reverse proxy that sets it), for rate limits and quotas.
    #[arg(long, env = "TABULA_TRUST_PROXY")]
    trust_proxy: bool,
}

pub fn run(args: Args) -> CmdResult {
    let defaults = tabula_server::common::GuardConfig::default();
    let config = tabula_server::ServeConfig {
        addr: args.addr,
        db: args.db,
        rounds: tabula_server::RoundConfig {
            ai_pause: std::time::Duration::from_millis(args.ai_pause_ms),
            guard: tabula_server::common::GuardConfig {
                ai_workers: args.ai_workers.unwrap_or(defaults.ai_workers),
                allowed_origins: args.allowed_origins,
                trust_proxy: args.trust_proxy,
                ..defaults
            },
            ..Default::default()
        },
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime
        .block_on(tabula_server::serve(config))
        .map_err(|e| e.to_string())
}
