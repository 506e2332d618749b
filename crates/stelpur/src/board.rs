//! Geometry of the circuit: cells, 24-bit occupancy masks, rune corners.
//!
//! Both players run round one closed track of 24 cells, numbered in the
//! direction of travel (spec §1):
//!
//! ```text
//!  column:       1    2    3    4    5    6  |  7    8    9   10   11   12
//!  North row:  [24]  23   22   21   20  [19] | [18]  17   16   15   14  [13]
//!  South row:  [ 1]   2    3    4    5  [ 6] | [ 7]   8    9   10   11  [12]
//! ```
//!
//! Bracketed cells are the eight rune corners. A mask holds cell `c` in bit
//! `c - 1`, so moving every pawn `d` cells forward is one 24-bit rotation.

use std::fmt;

/// Number of cells on the circuit.
pub const CELLS: u8 = 24;
/// All 24 cells.
pub const FULL: u32 = (1 << CELLS) - 1;
/// The rune corners 1, 6, 7, 12, 13, 18, 19, 24.
pub const CORNERS: u32 = bit(0) | bit(5) | bit(6) | bit(11) | bit(12) | bit(17) | bit(18) | bit(23);

/// One cell of the circuit; holds the 0-based index (`cell number - 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with number `n` (1..=24).
    pub fn from_number(n: u8) -> Option<Cell> {
        (1..=CELLS).contains(&n).then(|| Cell(n - 1))
    }
    /// The cell at 0-based index `i` (callers guarantee `i < 24`).
    pub const fn from_index(i: u8) -> Cell {
        debug_assert!(i < CELLS);
        Cell(i)
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    /// The 1-based number players read.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
    pub const fn bit(self) -> u32 {
        1 << self.0
    }
    /// `d` cells further along the track.
    pub const fn ahead(self, d: u8) -> Cell {
        Cell((self.0 + d) % CELLS)
    }
    /// The same place after a half turn of the board (c -> c + 12).
    pub const fn half_turn(self) -> Cell {
        self.ahead(CELLS / 2)
    }
    pub const fn is_corner(self) -> bool {
        CORNERS & self.bit() != 0
    }
    /// The `k`-th rune corner strictly after this cell (k = 1, 2 or 4).
    pub fn corner_ahead(self, k: u8) -> Cell {
        Cell(CORNER_AHEAD[k as usize][self.0 as usize])
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Exactly one pawn in `mask` (cheaper than a population count without `popcnt`).
#[inline]
pub const fn single(mask: u32) -> bool {
    mask != 0 && mask & (mask - 1) == 0
}

/// At most one pawn in `mask`.
#[inline]
pub const fn single_or_none(mask: u32) -> bool {
    mask & mask.wrapping_sub(1) == 0
}

pub const fn bit(i: u8) -> u32 {
    1 << i
}

/// Every pawn of `mask` moved `d` cells forward (0 < d < 24).
#[inline]
pub const fn forward(mask: u32, d: u8) -> u32 {
    ((mask << d) | (mask >> (CELLS - d))) & FULL
}

/// Every pawn of `mask` moved `d` cells backward (0 < d < 24).
#[inline]
pub const fn backward(mask: u32, d: u8) -> u32 {
    forward(mask, CELLS - d)
}

/// The cells of `mask`, in increasing order.
pub fn cells(mask: u32) -> impl Iterator<Item = Cell> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Cell(i)
        })
    })
}

/// The `k`-th cell (from 0) of `mask` in increasing order; `k` must be below
/// the mask's count. Two byte tables and no loop: a playout picks a use this
/// way at every decision, and a loop whose length the dice decide costs a
/// mispredicted exit each time.
#[inline]
pub fn nth_cell(mask: u32, k: u32) -> Cell {
    debug_assert!(k < mask.count_ones() && mask <= FULL);
    let c0 = u32::from(BYTE_COUNT[(mask & 0xFF) as usize]);
    let c01 = c0 + u32::from(BYTE_COUNT[(mask >> 8 & 0xFF) as usize]);
    let (past0, past1) = (u32::from(k >= c0), u32::from(k >= c01));
    let byte = past0 + past1;
    let skipped = past0 * c0 + past1 * (c01 - c0);
    let bits = (mask >> (8 * byte)) & 0xFF;
    Cell((8 * byte) as u8 + NTH_IN_BYTE[bits as usize][((k - skipped) & 7) as usize])
}

/// The pawns of `mask` (a 24-bit mask): three table reads, where
/// `count_ones` without the `popcnt` instruction is a dozen operations.
#[inline]
pub fn count(mask: u32) -> u32 {
    let byte = |i: u32| u32::from(BYTE_COUNT[(mask >> (8 * i) & 0xFF) as usize]);
    byte(0) + byte(1) + byte(2)
}

/// `BYTE_COUNT[b]`: the set bits of `b`.
const BYTE_COUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// `NTH_IN_BYTE[b][k]`: the index of the `k`-th set bit of `b` (0 past the last).
const NTH_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// `CORNER_AHEAD[k][i]`: index of the k-th corner strictly after index `i`.
const CORNER_AHEAD: [[u8; CELLS as usize]; 5] = {
    let mut t = [[0u8; CELLS as usize]; 5];
    let mut k = 1;
    while k <= 4 {
        let mut i = 0;
        while i < CELLS {
            let mut c = i;
            let mut seen = 0;
            while seen < k {
                c = (c + 1) % CELLS;
                if CORNERS & bit(c) != 0 {
                    seen += 1;
                }
            }
            t[k][i as usize] = c;
            i += 1;
        }
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    fn n(c: u8) -> Cell {
        Cell::from_number(c).unwrap()
    }

    #[test]
    fn corner_steps_follow_the_spec_examples() {
        assert_eq!(n(9).corner_ahead(1), n(12));
        assert_eq!(n(9).corner_ahead(2), n(13));
        assert_eq!(n(12).corner_ahead(1), n(13));
        assert_eq!(n(12).corner_ahead(2), n(18));
        assert_eq!(n(24).corner_ahead(1), n(1));
        assert_eq!(n(24).corner_ahead(2), n(6));
        // Four corners from a corner is always 12 cells.
        for c in cells(CORNERS) {
            assert_eq!(c.corner_ahead(4), c.ahead(12));
        }
    }

    /// Against the plain walk: every mask of the low 16 cells with each
    /// of its counts, and masks over all 24 cells spread by a fixed generator.
    #[test]
    fn nth_cell_is_the_kth_of_the_cells_in_order() {
        let check = |mask: u32| {
            assert_eq!(count(mask), mask.count_ones());
            for (k, c) in cells(mask).enumerate() {
                assert_eq!(nth_cell(mask, k as u32), c, "mask {mask:#x}, k {k}");
            }
        };
        (0..1u32 << 16).for_each(check);
        let mut x = 0x9E37_79B9u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            check(x & FULL);
        }
        check(FULL);
    }

    #[test]
    fn rotation_wraps_24_to_1() {
        assert_eq!(forward(n(24).bit(), 1), n(1).bit());
        assert_eq!(backward(n(1).bit(), 1), n(24).bit());
        assert_eq!(forward(CORNERS, 12), CORNERS);
        assert_eq!(cells(CORNERS).count(), 8);
        assert_eq!(Cell::from_number(0), None);
        assert_eq!(Cell::from_number(25), None);
    }
}
