//! Live channels (game and lobby WebSockets) open per client address: a
//! stranger cannot hold thousands of idle sockets.

use super::GuardError;
use std::sync::Arc;

/// The live channels open per client address.
#[derive(Default)]
pub struct SocketCounts(std::sync::Mutex<std::collections::HashMap<String, usize>>);

/// One open live channel of an address: the count goes down when it drops.
pub struct SocketSlot {
    counts: Arc<SocketCounts>,
    addr: String,
}

impl SocketCounts {
    /// Count one more channel of `addr`, unless it holds `max` already.
    pub fn open(self: &Arc<Self>, addr: &str, max: usize) -> Result<SocketSlot, GuardError> {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(addr.to_string()).or_default();
        if *n >= max {
            return Err(GuardError::Channels(max));
        }
        *n += 1;
        Ok(SocketSlot {
            counts: Arc::clone(self),
            addr: addr.to_string(),
        })
    }

    /// Channels open now, over every address.
    pub fn total(&self) -> usize {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .sum()
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.addr) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&self.addr);
            }
        }
    }
}
