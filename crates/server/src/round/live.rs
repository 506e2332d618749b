//! The live games by id (lila's `GameProxy` registry): addresses only,
//! each game's state lives in its owner task.

use super::actor::Msg;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::mpsc;

/// How many commands may wait for one game's owner; a sender beyond that
/// waits its turn (backpressure, never an unbounded queue).
pub const INBOX: usize = 64;

/// The address of a live game's owner.
#[derive(Clone)]
pub struct RoundHandle {
    pub(crate) tx: mpsc::Sender<Msg>,
}

/// The live games by id. Holds only addresses: each game's state lives in
/// its owner task.
#[derive(Default)]
pub struct Live {
    live: Mutex<HashMap<String, RoundHandle>>,
}

impl Live {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoundHandle>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, id: &str) -> Option<RoundHandle> {
        self.map().get(id).cloned()
    }

    /// Every live game's owner.
    pub(crate) fn all(&self) -> Vec<RoundHandle> {
        self.map().values().cloned().collect()
    }

    /// Register `handle` for `id` unless another owner got there first;
    /// returns the owner that holds the game (and whether it is `handle`).
    pub(crate) fn claim(&self, id: &str, handle: RoundHandle) -> (RoundHandle, bool) {
        let mut map = self.map();
        match map.get(id) {
            Some(h) if !h.tx.is_closed() => (h.clone(), false),
            _ => {
                map.insert(id.to_string(), handle.clone());
                (handle, true)
            }
        }
    }

    /// Drop `id` if `tx` is still its owner and `idle` says nothing waits.
    pub(crate) fn retire(
        &self,
        id: &str,
        tx: &mpsc::Sender<Msg>,
        idle: impl FnOnce() -> bool,
    ) -> bool {
        let mut map = self.map();
        match map.get(id) {
            Some(h) if h.tx.same_channel(tx) && idle() => {
                map.remove(id);
                true
            }
            _ => false,
        }
    }

    /// Forget an owner that has stopped.
    pub(crate) fn forget_closed(&self, id: &str) {
        let mut map = self.map();
        if map.get(id).is_some_and(|h| h.tx.is_closed()) {
            map.remove(id);
        }
    }

    /// How many games are live in memory.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
