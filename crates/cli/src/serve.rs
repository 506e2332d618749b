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
}

pub fn run(args: Args) -> CmdResult {
    let config = tabula_server::ServeConfig {
        addr: args.addr,
        db: args.db,
        rounds: tabula_server::RoundConfig {
            ai_pause: std::time::Duration::from_millis(args.ai_pause_ms),
            ..Default::default()
        },
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime
        .block_on(tabula_server::serve(config))
        .map_err(|e| e.to_string())
}
