//! The transposition table: one slot per hash bucket, deeper results kept,
//! shared lock-free by the threads of one search (Lazy SMP).
//!
//! A slot is two `AtomicU64`: the entry packed into 64 bits, and the
//! position key XORed with it. A slot torn by two threads writing at once
//! fails the key check and reads as empty (Hyatt's lockless hashing), so
//! no lock is needed and a thread never sees another position's entry.
//!
//! The table is kept between moves, but the history a game's draw rules
//! read grows with every move while the key leaves it out: so an entry
//! records the search (generation) that stored it, and an entry of an
//! earlier search never keeps a result of this one out of its slot.

use crate::value::DECIDED;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use tabula_core::Evaluate;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least the stored one (the node failed high).
    Lower,
    /// The true score is at most the stored one (the node failed low).
    Upper,
    /// No score, only the best move: the score depended on the path to
    /// the node (a draw by repetition of a position above it, or by a draw
    /// rule counting the game's history), so it would be wrong on another
    /// path (the graph-history interaction).
    Path,
}

impl Bound {
    /// The bound a fail-soft search result carries for its window.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// The best action of an entry, without the action type: its action key
/// (low 20 bits) and 12 bits of its hash, which tell apart the rare legal
/// actions sharing a key (bearing off with either die).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTag(u32);

const KEY_BITS: u32 = 20;
const HASH_BITS: u32 = 32 - KEY_BITS;

impl MoveTag {
    pub fn of<G: Evaluate>(g: &G, a: G::Action) -> MoveTag {
        let key = (g.action_key(a) as u32) & ((1 << KEY_BITS) - 1);
        MoveTag(key << HASH_BITS | action_hash(a))
    }

    /// The legal action `self` was made from, if it is among `moves`.
    pub fn find<G: Evaluate>(self, g: &G, moves: &[G::Action]) -> Option<G::Action> {
        let key = self.0 >> HASH_BITS;
        moves.iter().copied().find(|&a| {
            (g.action_key(a) as u32) & ((1 << KEY_BITS) - 1) == key
                && action_hash(a) == self.0 & ((1 << HASH_BITS) - 1)
        })
    }
}

/// A fixed hash of an action (SipHash with zero keys: the same every run).
fn action_hash<A: Hash>(a: A) -> u32 {
    let mut h = DefaultHasher::new();
    a.hash(&mut h);
    (h.finish() as u32) & ((1 << HASH_BITS) - 1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Win scores are stored relative to this node, not to the root.
    value: i32,
    pub depth: i32,
    pub bound: Bound,
    pub best: Option<MoveTag>,
    /// The search that stored it, modulo 8.
    generation: u8,
}

/// Bits of the packed value: a signed 18-bit score (wins stay below
/// `WIN + MAX_PLY`, inside it), 7 of depth (iterations stop at 64), 3 of
/// bound (0: empty), 3 of generation, 1 for "has a move", 32 of move tag.
const VALUE_BITS: u32 = 18;
const DEPTH_SHIFT: u32 = VALUE_BITS;
const DEPTH_MAX: i32 = 127;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 7;
const GEN_SHIFT: u32 = BOUND_SHIFT + 3;
const GEN_MASK: u8 = 7;
const HAS_MOVE: u64 = 1 << (GEN_SHIFT + 3);
const TAG_SHIFT: u32 = 32;

impl Entry {
    fn pack(&self) -> u64 {
        debug_assert!(self.value.unsigned_abs() < 1 << (VALUE_BITS - 1));
        let value = u64::from(self.value as u32) & ((1 << VALUE_BITS) - 1);
        let depth = self.depth.clamp(0, DEPTH_MAX) as u64;
        let bound: u64 = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
            Bound::Path => 4,
        };
        let generation = u64::from(self.generation & GEN_MASK);
        let mv = self
            .best
            .map_or(0, |t| HAS_MOVE | u64::from(t.0) << TAG_SHIFT);
        value | depth << DEPTH_SHIFT | bound << BOUND_SHIFT | generation << GEN_SHIFT | mv
    }

    /// `None` for an empty slot.
    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> BOUND_SHIFT) & 7 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            4 => Bound::Path,
            _ => return None,
        };
        Some(Entry {
            value: ((data << (64 - VALUE_BITS)) as i64 >> (64 - VALUE_BITS)) as i32,
            depth: ((data >> DEPTH_SHIFT) & DEPTH_MAX as u64) as i32,
            bound,
            best: (data & HAS_MOVE != 0).then_some(MoveTag((data >> TAG_SHIFT) as u32)),
            generation: ((data >> GEN_SHIFT) as u8) & GEN_MASK,
        })
    }

    /// The stored score, as seen from a root `ply` actions above.
    pub fn score(&self, ply: usize) -> i32 {
        let ply = ply as i32;
        if self.value >= DECIDED {
            self.value - ply
        } else if self.value <= -DECIDED {
            self.value + ply
        } else {
            self.value
        }
    }

    /// Whether this entry settles a search of `depth` with window
    /// `(alpha, beta)` at `ply`; returns the score if so.
    pub fn cutoff(&self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth < depth {
            return None;
        }
        let v = self.score(ply);
        match self.bound {
            Bound::Exact => Some(v),
            Bound::Lower if v >= beta => Some(v),
            Bound::Upper if v <= alpha => Some(v),
            Bound::Lower | Bound::Upper | Bound::Path => None,
        }
    }
}

#[derive(Default)]
struct Slot {
    /// The position key XOR `data`.
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    slots: Vec<Slot>,
    /// The current search's generation (see [`Table::new_search`]).
    generation: AtomicU8,
}

/// The table bits that fit in `mb` megabytes (at least one slot).
pub fn bits_for_mb(mb: usize) -> u32 {
    let slots = (mb.max(1) << 20) / std::mem::size_of::<Slot>();
    slots.max(1).ilog2()
}

impl Table {
    /// A table of `2^bits` slots; `bits == 0` gives a table that stores nothing.
    pub fn new(bits: u32) -> Self {
        let n = if bits == 0 { 0 } else { 1usize << bits };
        Table {
            slots: (0..n).map(|_| Slot::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// Start a new search (a new move): the entries stored so far become
    /// old, and no longer keep newer results out of their slots.
    pub fn new_search(&self) {
        self.generation.store(
            self.generation.load(Relaxed).wrapping_add(1) & GEN_MASK,
            Relaxed,
        );
    }

    fn slot(&self, key: u64) -> Option<&Slot> {
        let n = self.slots.len();
        (n > 0).then(|| &self.slots[(key as usize) & (n - 1)])
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key)?;
        let data = slot.data.load(Relaxed);
        let check = slot.check.load(Relaxed);
        if check ^ data != key {
            return None;
        }
        Entry::unpack(data)
    }

    pub fn store(
        &self,
        key: u64,
        score: i32,
        ply: usize,
        depth: i32,
        bound: Bound,
        best: Option<MoveTag>,
    ) {
        let Some(slot) = self.slot(key) else { return };
        let generation = self.generation.load(Relaxed);
        let mut best = best;
        if let Some(old) = self.probe(key) {
            if old.depth > depth && old.bound == Bound::Exact && old.generation == generation {
                return;
            }
            best = best.or(old.best);
        }
        let ply = ply as i32;
        let value = if score >= DECIDED {
            score + ply
        } else if score <= -DECIDED {
            score - ply
        } else {
            score
        };
        let data = Entry {
            value: if bound == Bound::Path { 0 } else { value },
            depth,
            bound,
            best,
            generation,
        }
        .pack();
        slot.data.store(data, Relaxed);
        slot.check.store(key ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::WIN;

    #[test]
    fn entries_round_trip_through_64_bits() {
        let bounds = [Bound::Exact, Bound::Lower, Bound::Upper, Bound::Path];
        let values = [
            0,
            1,
            -1,
            37,
            -4_000,
            DECIDED,
            -DECIDED,
            WIN + 128,
            -WIN - 128,
        ];
        let tags = [
            None,
            Some(MoveTag(0)),
            Some(MoveTag(u32::MAX)),
            Some(MoveTag(0x1234_5678)),
        ];
        for &bound in &bounds {
            for &value in &values {
                for &best in &tags {
                    for (depth, generation) in [(0, 0), (1, 7), (7, 3), (64, 1), (127, 5)] {
                        let e = Entry {
                            value,
                            depth,
                            bound,
                            best,
                            generation,
                        };
                        assert_eq!(Entry::unpack(e.pack()), Some(e), "{e:?}");
                    }
                }
            }
        }
        assert_eq!(Entry::unpack(0), None, "a zeroed slot is empty");
    }

    #[test]
    fn the_table_keeps_keys_apart_and_deeper_exact_results() {
        let t = Table::new(4);
        t.store(5, -300, 0, 3, Bound::Lower, Some(MoveTag(9)));
        let e = t.probe(5).expect("stored");
        assert_eq!(
            (e.score(0), e.depth, e.bound, e.best),
            (-300, 3, Bound::Lower, Some(MoveTag(9)))
        );
        // Same slot, other key: not this position.
        assert_eq!(t.probe(5 + 16), None);
        // A shallower result replaces a bound and keeps the move.
        t.store(5, 10, 0, 2, Bound::Upper, None);
        assert_eq!(t.probe(5).expect("stored").best, Some(MoveTag(9)));
        t.store(5, 20, 0, 4, Bound::Exact, None);
        t.store(5, 30, 0, 1, Bound::Exact, None);
        assert_eq!(t.probe(5).expect("kept").score(0), 20);
        // A later search's result replaces a deeper one of an earlier search.
        t.new_search();
        t.store(5, 40, 0, 1, Bound::Exact, None);
        assert_eq!(t.probe(5).expect("replaced").score(0), 40);
        // A score that depended on the path keeps only its move.
        t.store(6, 50, 0, 9, Bound::Path, Some(MoveTag(3)));
        let e = t.probe(6).expect("stored");
        assert_eq!((e.best, e.cutoff(1, 0, 0, 1)), (Some(MoveTag(3)), None));
        // Wins are stored from the node and read from the root.
        t.store(7, WIN - 5, 3, 2, Bound::Exact, None);
        assert_eq!(t.probe(7).expect("stored").score(1), WIN - 3);
        t.store(8, -WIN + 5, 3, 2, Bound::Exact, None);
        assert_eq!(t.probe(8).expect("stored").score(1), -WIN + 3);
        // A torn slot (data of one write, check of another) reads empty.
        let slot = t.slot(5).expect("slot");
        slot.data.store(slot.data.load(Relaxed) ^ 1 << 20, Relaxed);
        assert_eq!(t.probe(5), None);
        assert!(Table::new(0).probe(5).is_none());
    }

    #[test]
    fn megabytes_give_a_power_of_two_of_slots() {
        // 16-byte slots: the built-in 2^19 slots are 8 MB.
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(bits_for_mb(8), 19);
        assert_eq!(bits_for_mb(1), 16);
        assert_eq!(bits_for_mb(12), 19);
        assert_eq!(bits_for_mb(1024), 26);
    }
}
