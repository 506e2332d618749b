//! Perft: count action sequences of an exact length (chess convention): every
//! player action and every chance outcome is one step; a sequence that ends
//! the game before its last step is not counted, one whose last step ends it
//! is (like a mating move at depth 1). Depth 0 is 1, even for a finished game,
//! so [`perft`] and the sum of [`divide`] always agree.

use crate::game::{Game, Turn};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Number of action sequences of length `depth` from `game`.
///
/// Leaves are counted in bulk: at depth 1 the answer is
/// [`Game::count_steps`], which a game may compute without listing.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut bufs = Buffers::<G>::new(depth);
    perft_inner(game, depth, &mut bufs.actions, &mut bufs.chances, None)
}

/// Perft split by first action: `(action text, count)` in generation order.
/// `progress` is called after each first action with (done, total).
pub fn divide<G: Game>(
    game: &G,
    depth: u32,
    progress: impl FnMut(usize, usize),
) -> Vec<(String, u64)> {
    divide_with(game, depth, 1, None, progress)
}

/// [`divide`] on `threads` threads: each takes the next first action from a
/// shared counter, so a slow subtree does not hold the others back. The
/// rows are the same as [`divide`]'s, in the same order, and `progress`
/// is called as often, on the calling thread.
pub fn divide_parallel<G: Game>(
    game: &G,
    depth: u32,
    threads: usize,
    progress: impl FnMut(usize, usize),
) -> Vec<(String, u64)> {
    divide_with(game, depth, threads, None, progress)
}

/// [`divide_parallel`] that looks subtrees up in `table` and stores them
/// there: a subtree met again by another order of the same actions is
/// counted once. The same rows.
pub fn divide_hashed<G: Game>(
    game: &G,
    depth: u32,
    threads: usize,
    table: &PerftTable,
    progress: impl FnMut(usize, usize),
) -> Vec<(String, u64)> {
    divide_with(game, depth, threads, Some(table), progress)
}

/// [`perft`] on `threads` threads with `table` (see [`divide_hashed`]).
pub fn perft_hashed<G: Game>(game: &G, depth: u32, threads: usize, table: &PerftTable) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide_hashed(game, depth, threads, table, |_, _| {})
        .iter()
        .map(|r| r.1)
        .sum()
}

/// [`divide_parallel`], with `table` when given ([`divide_hashed`]).
pub(crate) fn divide_with<G: Game>(
    game: &G,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    if threads <= 1 {
        let firsts = game.actions_here();
        let total = firsts.len();
        let mut bufs = Buffers::<G>::new(depth);
        let mut out = Vec::with_capacity(total);
        for (i, a) in firsts.into_iter().enumerate() {
            let mut child = game.clone();
            child.apply(a);
            let n = perft_inner(
                &child,
                depth - 1,
                &mut bufs.actions,
                &mut bufs.chances,
                table,
            );
            out.push((game.action_text(a), n));
            progress(i + 1, total);
        }
        return out;
    }
    let firsts = game.actions_here();
    let total = firsts.len();
    let counts: Vec<AtomicU64> = (0..total).map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        for _ in 0..threads.min(total) {
            let done_tx = done_tx.clone();
            let (firsts, counts, next) = (&firsts, &counts, &next);
            s.spawn(move || {
                let mut bufs = Buffers::<G>::new(depth);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&a) = firsts.get(i) else { break };
                    let mut child = game.clone();
                    child.apply(a);
                    let n = perft_inner(
                        &child,
                        depth - 1,
                        &mut bufs.actions,
                        &mut bufs.chances,
                        table,
                    );
                    counts[i].store(n, Ordering::Relaxed);
                    // The receiver outlives the workers (same scope).
                    let _ = done_tx.send(());
                }
            });
        }
        drop(done_tx);
        // Ends when every worker has dropped its sender.
        for done in 1..=total {
            if done_rx.recv().is_err() {
                break;
            }
            progress(done, total);
        }
    });
    firsts
        .iter()
        .zip(counts)
        .map(|(&a, n)| (game.action_text(a), n.into_inner()))
        .collect()
}

/// [`perft`] on `threads` threads, split at the first action.
pub fn perft_parallel<G: Game>(game: &G, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 1 {
        return perft(game, depth);
    }
    divide_parallel(game, depth, threads, |_, _| {})
        .iter()
        .map(|r| r.1)
        .sum()
}

/// One action buffer per ply so the recursion never allocates after warm-up.
struct Buffers<G: Game> {
    actions: Vec<Vec<G::Action>>,
    chances: Vec<Vec<(G::Action, f64)>>,
}

impl<G: Game> Buffers<G> {
    fn new(depth: u32) -> Self {
        let n = depth as usize + 1;
        Buffers {
            actions: (0..n).map(|_| Vec::with_capacity(256)).collect(),
            chances: (0..n).map(|_| Vec::with_capacity(32)).collect(),
        }
    }
}

fn perft_inner<G: Game>(
    game: &G,
    depth: u32,
    actions: &mut [Vec<G::Action>],
    chances: &mut [Vec<(G::Action, f64)>],
    table: Option<&PerftTable>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        let (buf, cbuf) = (&mut actions[0], &mut chances[0]);
        return game.count_steps(buf, cbuf);
    }
    let slot = table.map(|t| (t, PerftTable::key(game.exact_hash(), depth)));
    if let Some(n) = slot.and_then(|(t, key)| t.get(key)) {
        return n;
    }
    let (buf, rest_a) = actions.split_first_mut().expect("buffer per ply");
    let (cbuf, rest_c) = chances.split_first_mut().expect("buffer per ply");
    let total = match game.turn() {
        Turn::Over => 0,
        Turn::Player(_) => {
            game.legal_actions(buf);
            let mut total = 0;
            for &a in buf.iter() {
                let mut child = game.clone();
                child.apply(a);
                total += perft_inner(&child, depth - 1, rest_a, rest_c, table);
            }
            total
        }
        Turn::Chance => {
            game.chance_outcomes(cbuf);
            let mut total = 0;
            for &(a, _) in cbuf.iter() {
                let mut child = game.clone();
                child.apply(a);
                total += perft_inner(&child, depth - 1, rest_a, rest_c, table);
            }
            total
        }
    };
    if let Some((t, key)) = slot {
        t.put(key, total);
    }
    total
}

/// Subtree counts by position and depth, shared by perft's threads without
/// locks: a slot holds the key XOR the count, and the count, so that a
/// slot torn by two writers fails the check instead of giving a wrong
/// count (Hyatt's lockless hashing). A new count always replaces the old.
/// Keys are 64 bits of [`Game::exact_hash`] mixed with the depth, so a
/// wrong count needs two subtrees with the same 64-bit key.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
}

/// Bytes of one slot.
const SLOT_BYTES: usize = 16;

impl PerftTable {
    /// A table of at most `mb` megabytes (a power of two of slots, at
    /// least one); an error when the memory cannot be had.
    pub fn with_mb(mb: usize) -> Result<PerftTable, String> {
        PerftTable::with_slots(mb.saturating_mul(1 << 20) / SLOT_BYTES)
    }

    /// A table of `slots` slots (rounded down to a power of two).
    pub fn with_slots(slots: usize) -> Result<PerftTable, String> {
        let n = 1usize << slots.max(1).ilog2();
        let mut v = Vec::new();
        v.try_reserve_exact(n).map_err(|_| {
            format!(
                "cannot allocate a perft table of {} MB",
                n.saturating_mul(SLOT_BYTES) >> 20
            )
        })?;
        v.extend((0..n).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(PerftTable { slots: v })
    }

    /// The key of a subtree. An empty slot reads as key 0 with count 0: a
    /// 64-bit collision like any other.
    fn key(hash: u64, depth: u32) -> u64 {
        hash ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    fn get(&self, key: u64) -> Option<u64> {
        let [check, count] = self.slot(key);
        let count = count.load(Ordering::Relaxed);
        (check.load(Ordering::Relaxed) ^ count == key).then_some(count)
    }

    fn put(&self, key: u64, count: u64) {
        let [check, stored] = self.slot(key);
        check.store(key ^ count, Ordering::Relaxed);
        stored.store(count, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::PerftTable;
    use std::sync::atomic::Ordering;

    #[test]
    fn sizes_round_down_to_a_power_of_two_of_slots() {
        assert_eq!(PerftTable::with_mb(1).unwrap().slots.len(), 1 << 16);
        assert_eq!(PerftTable::with_mb(3).unwrap().slots.len(), 1 << 17);
        assert_eq!(PerftTable::with_slots(1000).unwrap().slots.len(), 512);
        assert_eq!(PerftTable::with_slots(0).unwrap().slots.len(), 1);
        assert!(PerftTable::with_slots(usize::MAX).is_err());
    }

    #[test]
    fn a_slot_answers_its_own_key_only_and_never_torn() {
        let t = PerftTable::with_slots(16).unwrap();
        let (a, b) = (PerftTable::key(7, 3), PerftTable::key(7, 4));
        assert_eq!(t.get(a), None);
        t.put(a, 123);
        assert_eq!(t.get(a), Some(123));
        assert_eq!(t.get(b), None, "another depth, another key");
        // A count written without its check (a torn write) is not read.
        t.slot(a)[1].store(456, Ordering::Relaxed);
        assert_eq!(t.get(a), None);
    }
}
