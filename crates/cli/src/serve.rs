//! `tabula serve`: the web app (see the `tabula-server` crate); `tabula
//! worker`: its AI turns computed on other processes.

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
    /// cores). 0: none here; on PostgreSQL, `tabula worker` processes take
    /// the AI turns (this instance gives no hints).
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
    /// Let `POST /api/test/clock` move the server's clock forward: for
    /// tests that drive a real server through time. Never in production:
    /// anyone could end every clock and tournament at once.
    #[arg(long)]
    test_clock: bool,
}

pub fn run(args: Args) -> CmdResult {
    let shared = args.db.starts_with("postgres://") || args.db.starts_with("postgresql://");
    if args.ai_workers == Some(0) && !shared {
        return Err(
            "--ai-workers 0 leaves the AI's turns to `tabula worker` processes, which share a \
             PostgreSQL database (--db postgres://…) with this instance; a SQLite file is one \
             process's"
                .into(),
        );
    }
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
                test_clock: args.test_clock,
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

#[derive(clap::Args)]
pub struct WorkerArgs {
    /// The PostgreSQL database the web instances share
    /// (`postgres://user@host/dbname`).
    #[arg(long, env = "TABULA_DB")]
    db: String,
    /// Threads that think for AI seats (default: the number of cores).
    #[arg(long, env = "TABULA_AI_WORKERS")]
    threads: Option<usize>,
    /// How long a claim on an AI turn lasts, in seconds; it is renewed
    /// every third of that while the AI thinks, so another worker takes
    /// the turn about this long after this one dies.
    #[arg(long, default_value_t = 5.0)]
    claim_secs: f64,
    /// How often to look for AI turns nobody drives, in milliseconds (a
    /// safety net: turns are announced as they come).
    #[arg(long, default_value_t = 1000)]
    poll_ms: u64,
    /// Pause before each AI action, in milliseconds, so people can follow.
    #[arg(long, default_value_t = 300)]
    ai_pause_ms: u64,
}

pub fn work(args: WorkerArgs) -> CmdResult {
    let defaults = tabula_server::common::GuardConfig::default();
    let threads = args.threads.unwrap_or(defaults.ai_workers);
    if threads == 0 {
        return Err("a worker needs at least one thread (--threads)".into());
    }
    if !(args.claim_secs.is_finite() && (0.3..=3600.0).contains(&args.claim_secs)) {
        return Err("--claim-secs must be from 0.3 to 3600".into());
    }
    if args.poll_ms < 10 {
        return Err("--poll-ms must be at least 10".into());
    }
    let rounds = tabula_server::RoundConfig {
        ai_pause: std::time::Duration::from_millis(args.ai_pause_ms),
        ai_claim: std::time::Duration::from_secs_f64(args.claim_secs),
        ai_sweep: std::time::Duration::from_millis(args.poll_ms),
        guard: tabula_server::common::GuardConfig {
            ai_workers: threads,
            ..defaults
        },
        ..Default::default()
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime
        .block_on(tabula_server::work(&args.db, rounds))
        .map_err(|e| e.to_string())
}
