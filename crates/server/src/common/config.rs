//! Every setting of the server (`tabula serve` flags), in one place: each
//! module reads its part. The limits are documented in `docs/security.md`.

use std::time::Duration;

/// A game with no stored action for this long and no clock is ended.
pub const EXPIRY: Duration = Duration::from_secs(30 * 86_400);

/// Live channels one address may hold open: a club of a dozen people on
/// one Wi-Fi, each with a few pages open, stays well under it.
pub const SOCKETS_PER_ADDRESS: usize = 100;

/// Password checks that may wait for a hashing thread: with two threads
/// at ~30 ms a check, the last waits about half a second.
pub const HASH_QUEUE: usize = 32;

/// How the server defends itself (`tabula serve` flags).
#[derive(Clone, Debug)]
pub struct GuardConfig {
    /// Origins besides the server's own whose pages may use the session
    /// cookie (`--allowed-origin`), e.g. `https://play.example.org`.
    pub allowed_origins: Vec<String>,
    /// Take the client's address from `X-Forwarded-For` (behind a reverse
    /// proxy that sets it; `--trust-proxy`).
    pub trust_proxy: bool,
    /// Threads that think for AI seats and hints (`--ai-workers`).
    pub ai_workers: usize,
    /// Games in progress one guest, account or address may hold.
    pub games_in_progress: usize,
    /// Live channels (game and lobby WebSockets) open at once per client
    /// address (`--trust-proxy` aware); more get 429.
    pub sockets_per_address: usize,
    /// A live channel whose client has not read for this long (a send
    /// stays blocked, or a ping goes unanswered) is closed.
    pub socket_stall: Duration,
    /// Threads that check passwords (Argon2id, 19 MiB each).
    pub hash_workers: usize,
    /// Password checks that may wait for one (more get 503).
    pub hash_queue: usize,
    /// Unfinished games untouched for this long are ended.
    pub expiry: Duration,
    /// How often to look for them.
    pub expiry_sweep: Duration,
    /// Let `POST /api/test/clock` move the server's clock forward
    /// (`--test-clock`): for tests that drive a real server through time
    /// (an arena's end, a correspondence deadline); never in production.
    pub test_clock: bool,
}

impl Default for GuardConfig {
    fn default() -> Self {
        GuardConfig {
            allowed_origins: Vec::new(),
            trust_proxy: false,
            ai_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            games_in_progress: 50,
            sockets_per_address: SOCKETS_PER_ADDRESS,
            socket_stall: Duration::from_secs(30),
            hash_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            hash_queue: HASH_QUEUE,
            expiry: EXPIRY,
            expiry_sweep: Duration::from_secs(3600),
            test_clock: false,
        }
    }
}

/// How the games are run.
#[derive(Clone, Debug)]
pub struct RoundConfig {
    /// Pause before each AI action, so people can follow the AI's moves.
    pub ai_pause: Duration,
    /// A game nobody has used or watched for this long leaves memory (it
    /// is read back from the store when someone opens it).
    pub idle: Duration,
    /// How long an instance's claim on a game's AI turn lasts: another
    /// instance takes over a turn whose claim ran out (its instance died).
    pub ai_claim: Duration,
    /// How often to look for AI turns nobody drives.
    pub ai_sweep: Duration,
    /// How often to wake the games whose time is up (a flag, a first
    /// move), even when nobody watches them.
    pub clock_sweep: Duration,
    /// How often to drop expired seeks and forget idle rate-limit keys.
    pub seek_sweep: Duration,
    /// How often the tournament scheduler moves live tournaments on.
    pub tournament_tick: Duration,
    /// Limits, quotas, AI workers, origins (`guard`).
    pub guard: GuardConfig,
    /// Rate each rated game as it ends here. Off, only the catch-up sweep
    /// rates games (as after a crash between a game's end and its rating).
    pub rate_on_finish: bool,
    /// How often to look for ended rated games not rated yet, and how long
    /// after its last write such a game is left to the live path.
    pub rating_sweep: Duration,
    pub rating_grace: Duration,
}

impl Default for RoundConfig {
    fn default() -> Self {
        RoundConfig {
            ai_pause: Duration::from_millis(300),
            idle: Duration::from_secs(60),
            ai_claim: Duration::from_secs(30),
            ai_sweep: Duration::from_secs(5),
            clock_sweep: Duration::from_secs(1),
            seek_sweep: Duration::from_secs(5),
            tournament_tick: Duration::from_secs(1),
            guard: Default::default(),
            rate_on_finish: true,
            rating_sweep: Duration::from_secs(10),
            rating_grace: Duration::from_secs(10),
        }
    }
}
