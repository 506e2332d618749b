//! Whether the store's writes succeed. A full disk answered every move
//! with 500 while `/healthz` said "ok" and nothing was logged above INFO:
//! here every write's outcome is observed, a failing cause is logged at
//! ERROR once (not once per request) and recovery at WARN, and `/healthz`
//! answers 503 with the cause while writes fail.

use super::StoreError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Default)]
pub struct Health {
    /// Why the last write failed, while no write has succeeded since.
    failing: Mutex<Option<String>>,
    /// Writes still to fail on purpose (fault tests: [`Health::inject`]).
    injected: AtomicUsize,
}

/// The cause of a write failed on purpose.
pub const INJECTED: &str = "an injected fault (a test made this write fail)";

impl Health {
    /// Make the next `n` writes fail as a database fault would, for tests
    /// of what people see while the database fails.
    pub fn inject(&self, n: usize) {
        self.injected.store(n, Ordering::SeqCst);
    }

    /// A write about to run: fail it if a fault is injected.
    pub fn before_write(&self) -> Result<(), StoreError> {
        let take = self
            .injected
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        match take {
            Ok(_) => Err(StoreError::Failed(INJECTED.into())),
            Err(_) => Ok(()),
        }
    }

    /// Note how a write went, and pass its result on. A conflict or a
    /// missing row is an answer, not a fault.
    pub fn observe<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        match &result {
            Ok(_) => self.succeeded(),
            Err(StoreError::Failed(cause)) => self.failed(cause),
            Err(StoreError::Conflict | StoreError::Missing) => {}
        }
        result
    }

    fn failed(&self, cause: &str) {
        let mut failing = self.failing.lock().unwrap_or_else(|e| e.into_inner());
        if failing.as_deref() != Some(cause) {
            tracing::error!("database writes fail: {cause}");
            *failing = Some(cause.to_string());
        }
    }

    fn succeeded(&self) {
        let mut failing = self.failing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(cause) = failing.take() {
            tracing::warn!("database writes succeed again (they failed: {cause})");
        }
    }

    /// Why writes fail, while they do.
    pub fn failing(&self) -> Option<String> {
        self.failing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_kept_until_a_write_succeeds_and_answers_are_no_faults() {
        let h = Health::default();
        assert_eq!(h.failing(), None);
        let _ = h.observe::<()>(Err(StoreError::Conflict));
        let _ = h.observe::<()>(Err(StoreError::Missing));
        assert_eq!(h.failing(), None);
        let full = || Err::<(), _>(StoreError::Failed("database or disk is full".into()));
        assert!(h.observe(full()).is_err());
        assert!(h.observe(full()).is_err());
        assert_eq!(h.failing().as_deref(), Some("database or disk is full"));
        assert_eq!(h.observe(Ok(3)), Ok(3));
        assert_eq!(h.failing(), None);
    }
}
