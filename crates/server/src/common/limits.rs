//! Rate limits (the `governor` crate: a generic cell rate limiter per key,
//! no background task). Each limit is a burst and a rate of refill; the
//! numbers are documented in `docs/security.md`.

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::num::NonZeroU32;
use std::time::Duration;

/// A request over a limit: what is limited and how long to wait.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many {what}: try again in {} s", wait_secs(*.wait))]
pub struct Limited {
    pub what: &'static str,
    pub wait: Duration,
}

/// A wait in whole seconds, rounded up, at least one.
pub fn wait_secs(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// One limit: `burst` at once, then one more every `period`.
pub struct Limit {
    what: &'static str,
    limiter: DefaultKeyedRateLimiter<String>,
}

impl Limit {
    pub fn new(what: &'static str, burst: u32, period: Duration) -> Limit {
        let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(period)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        Limit {
            what,
            limiter: DefaultKeyedRateLimiter::keyed(quota),
        }
    }

    /// Count one request of `key`: `Err(wait)` when over the limit.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.limiter
            .check_key(&key.to_string())
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()))
    }

    /// Count one request of `key` against the limit.
    pub fn count(&self, key: &str) -> Result<(), Limited> {
        self.check(key).map_err(|wait| Limited {
            what: self.what,
            wait,
        })
    }

    /// What it limits, for the 429 message.
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// Forget keys that are back to a full burst (keeps memory bounded).
    pub fn prune(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

/// Every limit of the server.
pub struct Limits {
    /// Sign-in attempts per user name, from browsers the account does not
    /// know (`user::device`).
    pub login_name: Limit,
    /// Sign-in attempts from a browser the account knows, per browser.
    pub login_device: Limit,
    /// Password checks of a signed-in account (changing the password,
    /// deleting the account), per account.
    pub password: Limit,
    /// Sign-in attempts per client address, from browsers the account does
    /// not know.
    pub login_address: Limit,
    /// Accounts made per client address (only requests that would make
    /// one: a taken or malformed name does not count).
    pub signup_address: Limit,
    /// Chat lines per identity (or token).
    pub chat: Limit,
    /// Chat lines per client address (many guests behind one script).
    pub chat_address: Limit,
    /// Seeks posted per identity.
    pub seeks: Limit,
    /// Games created (or imported) per identity.
    pub create: Limit,
    /// Games created (or imported) per client address.
    pub create_address: Limit,
    /// Hints per identity (or token).
    pub hints: Limit,
    /// Hints per client address.
    pub hints_address: Limit,
    /// Engine checks (`POST /api/position`, lessons' and puzzles' answers)
    /// per client address: a club of learners never sees it.
    pub engine_address: Limit,
    /// Moves per identity (or token): generous, a fast player never sees it.
    pub moves: Limit,
    /// Moves per client address.
    pub moves_address: Limit,
    /// Requests of the bot API per personal token.
    pub bot: Limit,
    /// Tournaments created per account.
    pub tournaments: Limit,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            login_name: Limit::new("sign-in attempts for this name", 5, Duration::from_secs(60)),
            login_device: Limit::new(
                "sign-in attempts from this browser",
                10,
                Duration::from_secs(60),
            ),
            password: Limit::new("password checks", 5, Duration::from_secs(60)),
            login_address: Limit::new("sign-in attempts", 20, Duration::from_secs(15)),
            signup_address: Limit::new("new accounts", 12, Duration::from_secs(300)),
            chat: Limit::new("chat messages", 5, Duration::from_secs(3)),
            chat_address: Limit::new("chat messages", 20, Duration::from_secs(1)),
            seeks: Limit::new("challenges", 10, Duration::from_secs(6)),
            create: Limit::new("new games", 20, Duration::from_secs(6)),
            create_address: Limit::new("new games", 30, Duration::from_secs(3)),
            hints: Limit::new("hints", 10, Duration::from_secs(3)),
            hints_address: Limit::new("hints", 30, Duration::from_secs(1)),
            engine_address: Limit::new("engine checks", 60, Duration::from_millis(50)),
            moves: Limit::new("moves", 600, Duration::from_millis(20)),
            moves_address: Limit::new("moves", 2000, Duration::from_millis(5)),
            bot: Limit::new("bot requests", 60, Duration::from_millis(250)),
            tournaments: Limit::new("new tournaments", 5, Duration::from_secs(3600)),
        }
    }
}

impl Limits {
    pub fn prune(&self) {
        for l in [
            &self.login_name,
            &self.login_device,
            &self.password,
            &self.login_address,
            &self.signup_address,
            &self.chat,
            &self.chat_address,
            &self.seeks,
            &self.create,
            &self.create_address,
            &self.hints,
            &self.hints_address,
            &self.moves,
            &self.moves_address,
            &self.bot,
            &self.tournaments,
        ] {
            l.prune();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_next_waits() {
        let l = Limit::new("tries", 3, Duration::from_secs(60));
        for _ in 0..3 {
            assert!(l.check("a").is_ok());
        }
        let wait = l.check("a").expect_err("over the limit");
        assert!(wait > Duration::from_secs(50) && wait <= Duration::from_secs(60));
        // Other keys are not affected.
        assert!(l.check("b").is_ok());
    }
}
