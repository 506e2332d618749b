//! The server's one clock. Everything that asks "what time is it" (clocks
//! of games, expiry, seeks, sessions, ratings' grace) asks it, so a test
//! moves time for all of them at once instead of sleeping.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The system time plus an offset that only tests move.
#[derive(Debug, Default)]
pub struct Clock {
    offset: AtomicI64,
}

impl Clock {
    /// Milliseconds since 1970.
    pub fn now(&self) -> i64 {
        system_ms() + self.offset.load(Ordering::Relaxed)
    }

    /// Move time forward by `ms` (tests).
    pub fn advance(&self, ms: i64) {
        self.offset.fetch_add(ms, Ordering::Relaxed);
    }
}

/// The system's time in milliseconds since 1970: read only by [`Clock`].
fn system_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_moves_now_by_as_much() {
        let clock = Clock::default();
        let before = clock.now();
        clock.advance(3_600_000);
        let after = clock.now();
        assert!(after - before >= 3_600_000 && after - before < 3_660_000);
    }
}
