//! Rolls of two dice and the die values they give (spec R2 and §11).
//!
//! Only 1s, 6s and doubles move. The values of a roll form a tiny multiset of
//! at most two distinct values (a subset of {1, 6}, or copies of one double
//! value), so [`Left`] stores two (value, count) slots and copies for free.

use crate::options::{Doubles, LastDoubles, Options};
use std::fmt;

/// An unordered roll, written `hi-lo` with `hi >= lo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Roll {
    hi: u8,
    lo: u8,
}

/// The 21 rolls with their probabilities in 36ths, in `(hi, lo)` order.
pub const ROLLS: [(Roll, u8); 21] = {
    let mut t = [(Roll { hi: 1, lo: 1 }, 1); 21];
    let mut i = 0;
    let mut hi = 1;
    while hi <= 6 {
        let mut lo = 1;
        while lo <= hi {
            t[i] = (Roll { hi, lo }, if hi == lo { 1 } else { 2 });
            i += 1;
            lo += 1;
        }
        hi += 1;
    }
    t
};

impl Roll {
    /// The roll `a-b` in either order; `None` unless both are in 1..=6.
    pub fn new(a: u8, b: u8) -> Option<Roll> {
        ((1..=6).contains(&a) && (1..=6).contains(&b)).then(|| Roll {
            hi: a.max(b),
            lo: a.min(b),
        })
    }
    pub fn hi(self) -> u8 {
        self.hi
    }
    pub fn lo(self) -> u8 {
        self.lo
    }
    #[inline(always)]
    pub fn is_double(self) -> bool {
        self.hi == self.lo
    }
    /// Position in [`ROLLS`] (0..21).
    pub fn index(self) -> usize {
        let (h, l) = (self.hi as usize, self.lo as usize);
        h * (h - 1) / 2 + l - 1
    }

    /// The values this roll gives to a mover with `last_pawn` (one pawn left).
    #[inline(always)]
    pub fn values(self, last_pawn: bool, o: &Options) -> Left {
        let six_moves = if o.six_counts_twice { 2 } else { 1 };
        if !self.is_double() {
            let ones = u8::from(self.lo == 1);
            let sixes = if self.hi == 6 { six_moves } else { 0 };
            return Left::of(1, ones).with(6, sixes);
        }
        let n = self.hi;
        let ludii = o.doubles == Doubles::LudiiDoubled;
        if last_pawn {
            if o.last_doubles == LastDoubles::Reroll {
                return Left::EMPTY;
            }
            return match (n, ludii) {
                (1, false) => Left::of(1, 2),
                (1, true) => Left::of(2, 2),
                (6, false) => Left::of(6, 2 * six_moves),
                (6, true) => Left::of(12, 2 * six_moves),
                _ => Left::EMPTY,
            };
        }
        match (n, ludii) {
            (6, false) => Left::of(6, 4 * six_moves),
            (_, false) => Left::of(n, 2),
            (1, true) => Left::of(2, 2),
            (6, true) => Left::of(12, 2 * six_moves),
            _ => Left::EMPTY,
        }
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.hi, self.lo)
    }
}

/// The die values still to use in a roll: up to two distinct values, in
/// increasing order, each with a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Left {
    vals: [u8; 2],
    counts: [u8; 2],
}

impl Left {
    pub const EMPTY: Left = Left {
        vals: [0; 2],
        counts: [0; 2],
    };

    /// `count` copies of `value`.
    #[inline(always)]
    pub fn of(value: u8, count: u8) -> Left {
        Left::EMPTY.with(value, count)
    }

    /// Add `count` copies of `value` (a value above every one present, or an
    /// existing one); used to build lists in increasing order.
    #[inline(always)]
    pub fn with(mut self, value: u8, count: u8) -> Left {
        if count == 0 {
            return self;
        }
        let slot = if self.counts[0] == 0 || self.vals[0] == value {
            0
        } else {
            1
        };
        self.vals[slot] = value;
        self.counts[slot] += count;
        self
    }

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.total() == 0
    }
    /// Number of values left.
    #[inline(always)]
    pub fn total(self) -> u8 {
        self.counts[0] + self.counts[1]
    }
    #[inline(always)]
    pub fn count(self, value: u8) -> u8 {
        (0..2)
            .filter(|&i| self.vals[i] == value)
            .map(|i| self.counts[i])
            .sum()
    }
    /// The distinct values with a count above zero, in increasing order.
    pub fn distinct(self) -> impl Iterator<Item = u8> {
        (0..2)
            .filter(move |&i| self.counts[i] > 0)
            .map(move |i| self.vals[i])
    }
    /// The two (value, count) slots, the smaller value first; an empty
    /// slot is (0, 0), and only the second can be empty alone.
    #[inline(always)]
    pub(crate) fn slots(self) -> [(u8, u8); 2] {
        [
            (self.vals[0], self.counts[0]),
            (self.vals[1], self.counts[1]),
        ]
    }
    /// Remove one copy of `value` (present).
    #[inline(always)]
    pub fn take(mut self, value: u8) -> Left {
        let i = usize::from(self.vals[0] != value || self.counts[0] == 0);
        debug_assert!(self.vals[i] == value && self.counts[i] > 0);
        self.counts[i] -= 1;
        if self.counts[i] == 0 {
            self.vals[i] = 0;
            if i == 0 {
                self.vals.swap(0, 1);
                self.counts.swap(0, 1);
            }
        }
        self
    }
    /// Whether `self` is a sub-multiset of `of`.
    pub fn within(self, of: Left) -> bool {
        self.distinct().all(|v| self.count(v) <= of.count(v))
    }
    /// A compact code of the multiset, for hashing.
    pub fn code(self) -> u64 {
        u64::from(self.vals[0])
            | u64::from(self.counts[0]) << 8
            | u64::from(self.vals[1]) << 16
            | u64::from(self.counts[1]) << 24
    }
    /// The values one by one, in increasing order.
    pub fn each(self) -> impl Iterator<Item = u8> {
        self.distinct()
            .flat_map(move |v| std::iter::repeat_n(v, self.count(v) as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Preset;

    fn vals(roll: (u8, u8), last: bool, o: &Options) -> Vec<u8> {
        Roll::new(roll.0, roll.1)
            .unwrap()
            .values(last, o)
            .each()
            .collect()
    }

    #[test]
    fn rolls_are_21_with_probabilities_summing_to_36() {
        assert_eq!(ROLLS.iter().map(|r| u32::from(r.1)).sum::<u32>(), 36);
        for (i, (r, _)) in ROLLS.iter().enumerate() {
            assert_eq!(r.index(), i);
        }
        assert_eq!(Roll::new(1, 6).unwrap().to_string(), "6-1");
    }

    #[test]
    fn values_follow_the_tables_of_r2_and_section_11() {
        let seed = Options::default();
        assert_eq!(vals((6, 1), false, &seed), [1, 6]);
        assert_eq!(vals((4, 1), false, &seed), [1]);
        assert_eq!(vals((3, 2), false, &seed), Vec::<u8>::new());
        assert_eq!(vals((4, 4), false, &seed), [4, 4]);
        assert_eq!(vals((6, 6), false, &seed), [6, 6, 6, 6]);
        assert!(vals((1, 1), true, &seed).is_empty());
        let ts = Options::preset(Preset::TableSites);
        assert_eq!(vals((1, 1), true, &ts), [1, 1]);
        assert_eq!(vals((6, 6), true, &ts), [6, 6]);
        assert!(vals((3, 3), true, &ts).is_empty());
        let l = Options::preset(Preset::Ludii);
        assert_eq!(vals((6, 1), false, &l), [1, 6, 6]);
        assert_eq!(vals((6, 3), false, &l), [6, 6]);
        assert_eq!(vals((1, 1), false, &l), [2, 2]);
        assert_eq!(vals((6, 6), false, &l), [12, 12, 12, 12]);
        assert!(vals((4, 4), false, &l).is_empty());
        assert_eq!(vals((6, 6), true, &l), [12, 12, 12, 12]);
        assert_eq!(vals((1, 1), true, &l), [2, 2]);
        let sct = Options {
            six_counts_twice: true,
            ..seed
        };
        assert_eq!(vals((6, 6), false, &sct).len(), 8);
    }

    #[test]
    fn left_takes_values_one_by_one() {
        let l = Left::of(1, 1).with(6, 2);
        assert_eq!(l.take(1).each().collect::<Vec<_>>(), [6, 6]);
        assert_eq!(l.take(6).each().collect::<Vec<_>>(), [1, 6]);
        assert!(l.take(6).take(6).take(1).is_empty());
        assert!(Left::of(6, 1).within(l));
        assert!(!Left::of(6, 3).within(l));
        assert_eq!(l.take(1), Left::of(6, 2));
    }
}
