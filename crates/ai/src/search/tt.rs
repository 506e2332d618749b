//! The transposition table: one slot per hash bucket, deeper results kept.

use crate::value::DECIDED;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least the stored one (the node failed high).
    Lower,
    /// The true score is at most the stored one (the node failed low).
    Upper,
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

#[derive(Clone, Copy, Debug)]
pub struct Entry<A> {
    key: u64,
    /// Win scores are stored relative to this node, not to the root.
    value: i32,
    pub depth: i32,
    pub bound: Bound,
    pub best: Option<A>,
}

impl<A> Entry<A> {
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
            _ => None,
        }
    }
}

pub struct Table<A> {
    slots: Vec<Option<Entry<A>>>,
}

impl<A: Copy> Table<A> {
    /// A table of `2^bits` slots; `bits == 0` gives a table that stores nothing.
    pub fn new(bits: u32) -> Self {
        let n = if bits == 0 { 0 } else { 1usize << bits };
        Table {
            slots: vec![None; n],
        }
    }

    fn slot(&self, key: u64) -> Option<usize> {
        let n = self.slots.len();
        (n > 0).then(|| (key as usize) & (n - 1))
    }

    pub fn probe(&self, key: u64) -> Option<Entry<A>> {
        let e = self.slots[self.slot(key)?]?;
        (e.key == key).then_some(e)
    }

    pub fn store(
        &mut self,
        key: u64,
        score: i32,
        ply: usize,
        depth: i32,
        bound: Bound,
        best: Option<A>,
    ) {
        let Some(i) = self.slot(key) else { return };
        let mut best = best;
        if let Some(old) = self.slots[i].filter(|old| old.key == key) {
            if old.depth > depth && old.bound == Bound::Exact {
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
        self.slots[i] = Some(Entry {
            key,
            value,
            depth,
            bound,
            best,
        });
    }
}
