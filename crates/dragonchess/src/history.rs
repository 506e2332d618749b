//! Hashes of the positions since the last irreversible move (threefold rule).
//!
//! Only positions after the last capture or Warrior move can recur, so the
//! list is cleared on those. Search clones the state at every node, so the
//! newest `CHUNK` hashes live inline (a clone copies them) and older ones sit
//! in immutable shared chunks (a clone bumps one reference count): pushing
//! allocates once per `CHUNK` reversible plies, cloning never allocates.

use std::sync::Arc;
use tabula_core::zobrist;

const CHUNK: usize = 16;

struct Chunk {
    hashes: [u64; CHUNK],
    older: Option<Arc<Chunk>>,
}

#[derive(Clone, Default)]
pub struct History {
    recent: [u64; CHUNK],
    len: usize,
    older: Option<Arc<Chunk>>,
    /// The sum of the entries' mixed hashes: the same for the same entries
    /// in any order, which is all the threefold rule reads of them.
    key: u64,
}

/// Seed of the keys that mix the entries into `History::key`.
const KEY_SEED: u64 = 0x5EED_4157_0C1A_7E01;

impl History {
    /// A hash of the entries (see [`Game::exact_hash`]).
    ///
    /// [`Game::exact_hash`]: tabula_core::Game::exact_hash
    pub fn key(&self) -> u64 {
        self.key
    }

    pub fn push(&mut self, hash: u64) {
        self.key = self.key.wrapping_add(zobrist::key(KEY_SEED, hash));
        if self.len == CHUNK {
            let chunk = Chunk {
                hashes: self.recent,
                older: self.older.take(),
            };
            self.older = Some(Arc::new(chunk));
            self.len = 0;
        }
        self.recent[self.len] = hash;
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.key = 0;
        self.len = 0;
        drop_chain(self.older.take());
    }

    /// How often `hash` occurs with the same side to move: every second
    /// entry, starting two plies back.
    pub fn repetitions(&self, hash: u64) -> usize {
        let mut count = 0;
        let mut back = 0;
        let mut visit = |h: u64| {
            back += 1;
            if back % 2 == 0 && h == hash {
                count += 1;
            }
        };
        self.recent[..self.len].iter().rev().for_each(|&h| visit(h));
        let mut chunk = self.older.as_deref();
        while let Some(c) = chunk {
            c.hashes.iter().rev().for_each(|&h| visit(h));
            chunk = c.older.as_deref();
        }
        count
    }
}

impl Drop for History {
    fn drop(&mut self) {
        drop_chain(self.older.take());
    }
}

/// Free a chain of chunks iteratively (a long chain would overflow the
/// stack with the default recursive drop).
fn drop_chain(mut next: Option<Arc<Chunk>>) {
    while let Some(arc) = next {
        next = match Arc::try_unwrap(arc) {
            Ok(mut chunk) => chunk.older.take(),
            Err(_) => None,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_same_side_repetitions_across_chunks() {
        let mut h = History::default();
        // Positions A B A B ... : from the side of A, A recurs every 2 plies.
        for i in 0..(3 * CHUNK + 3) {
            h.push(if i % 2 == 0 { 7 } else { 9 });
        }
        // The next position (index 3*CHUNK+3, odd) would be B.
        assert_eq!(h.repetitions(9), (3 * CHUNK + 3) / 2);
        assert_eq!(h.repetitions(7), 0);
        let copy = h.clone();
        h.clear();
        assert_eq!(h.repetitions(9), 0);
        assert_eq!(copy.repetitions(9), (3 * CHUNK + 3) / 2);
    }

    #[test]
    fn long_chains_drop_without_recursion() {
        let mut h = History::default();
        for i in 0..2_000_000u64 {
            h.push(i);
        }
        drop(h);
    }
}
