//! Jump segments (spec §2): the one place that decides them.
//!
//! Every ray runs along a strip (§1): the row (E/W), the "/" strip (SW/NE)
//! or the "\" strip (SE/NW) of its cell. With the pawns of each of the 30
//! strips kept as a bit string in strip order, a segment is a few integer
//! operations: the nearest pawn ahead is one bit scan, `k` is its distance,
//! and the `k + 1` cells beyond it up to the landing must be empty.
//!
//! ```text
//! strip order:  row r: c = 0..2r (E)     "/" strip p = c/2: 2r - c (SW)
//!               "\" strip q = r - ceil(c/2): c (SE)
//! ```
//!
//! Only the nearest pawn of a ray can be a centre, so a cell has at most one
//! segment per direction, and the six landings are distinct (cells of one
//! orientation share at most one strip): a cell's segments are fully
//! described by the set of their landing cells.

use crate::geometry::{Cell, Cells, CELLS};

/// A bit beyond every strip (positions are below 19).
const SENTINEL: u32 = 1 << 30;

/// Strips: 10 per family, each read from both ends, so a "line" is one
/// strip in one direction: `line = (family * 10 + strip) * 2 + end`.
const LINES: usize = 60;
/// Positions a landing computation may reach: up to `2 * 30 + 2`.
const READS: usize = 64;
/// An id off the board, whose one-cell set is empty.
const OFF_BOARD: u8 = 127;

/// One of a cell's six rays: its line and the cell's position on it.
#[derive(Clone, Copy, Debug)]
struct Ray {
    line: u8,
    pos: u8,
}

struct Tables {
    /// `rays[cell]`: the six lines through the cell.
    rays: [[Ray; 6]; CELLS],
    /// `cells[line][pos]`: the cell there; `OFF_BOARD` past the end, so a
    /// landing beyond the strip needs no test.
    cells: [[u8; READS]; LINES],
    /// `beyond[k]`: the `k + 1` positions after a centre at `k` up to the
    /// landing, in a ray read from just past its start.
    beyond: [u32; 32],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        rays: [[Ray { line: 0, pos: 0 }; 6]; CELLS],
        cells: [[OFF_BOARD; READS]; LINES],
        beyond: [0; 32],
    };
    let mut id = 0;
    while id < CELLS {
        let x = Cell::of(id as u8);
        let (r, c) = (x.row(), x.col());
        // (family, strip, position from the start, strip length)
        let places = [
            (0, r, c, 2 * r + 1),
            (1, c / 2, 2 * r - c, 19 - c / 2 * 2),
            (2, r - (c + 1) / 2, c, 19 - (r - (c + 1) / 2) * 2),
        ];
        let mut f = 0;
        while f < 3 {
            let (family, strip, pos, len) = places[f];
            let line = (family * 10 + strip) as usize * 2;
            t.rays[id][2 * f] = Ray {
                line: line as u8,
                pos: pos as u8,
            };
            t.rays[id][2 * f + 1] = Ray {
                line: line as u8 + 1,
                pos: (len - 1 - pos) as u8,
            };
            t.cells[line][pos as usize] = id as u8;
            t.cells[line + 1][(len - 1 - pos) as usize] = id as u8;
            f += 1;
        }
        id += 1;
    }
    let mut k = 0;
    while k < 32 {
        let mut j = k + 1;
        while j <= 2 * k + 1 && j < 32 {
            t.beyond[k] |= 1 << j;
            j += 1;
        }
        k += 1;
    }
    t
}

static TABLES: Tables = build_tables();

/// `CELL_BITS[id]`: the one-cell set (a table: cheaper than a 128-bit
/// shift); empty for ids off the board.
static CELL_BITS: [u128; 128] = {
    let mut out = [0u128; 128];
    let mut id = 0;
    while id < CELLS {
        out[id] = 1u128 << id;
        id += 1;
    }
    out
};

/// A set of cells as bit strings along every line (bit = position).
#[derive(Clone, Copy, Debug)]
pub struct Strips([u32; LINES]);

impl Default for Strips {
    fn default() -> Self {
        Strips([0; LINES])
    }
}

impl Strips {
    pub fn new(set: u128) -> Strips {
        let mut s = Strips::default();
        for x in Cells(set) {
            s.toggle(x);
        }
        s
    }

    /// The cells of `self` not in `other` (`other` within `self`), one
    /// vectorised pass.
    #[inline]
    pub fn without(&self, other: &Strips) -> Strips {
        let mut out = *self;
        for (o, x) in out.0.iter_mut().zip(&other.0) {
            *o ^= x;
        }
        out
    }

    /// Add or remove one cell.
    #[inline(always)]
    pub fn toggle(&mut self, x: Cell) {
        for ray in &TABLES.rays[x.id()] {
            self.0[ray.line as usize] ^= 1 << ray.pos;
        }
    }
}

/// The pawns that block and the pawns that may be jumped, along strips.
#[derive(Clone, Copy, Debug)]
pub struct JumpBoard {
    /// Every pawn (the jumping pawn excluded), along strips.
    pub occupied: Strips,
    /// The pawns that may be the centre of a segment, along strips.
    pub centres: Strips,
    /// Whether segments may be long (`k >= 1`).
    pub long: bool,
}

impl JumpBoard {
    /// From cell sets (`centres` within `occupied`).
    pub fn new(occupied: u128, centres: u128, long: bool) -> JumpBoard {
        JumpBoard {
            occupied: Strips::new(occupied),
            centres: Strips::new(centres),
            long,
        }
    }

    /// The landing cells of every jump segment from `x`, one per ray at
    /// most. Branch-free: which rays hold what is unpredictable.
    #[inline]
    pub fn landings(&self, x: Cell) -> u128 {
        let mut out = 0;
        for ray in &TABLES.rays[x.id()] {
            let line = ray.line as usize;
            let p = u32::from(ray.pos);
            // Read from just past `p`; the sentinel stands for "no pawn
            // ahead" and is never a centre.
            let ahead = (self.occupied.0[line] | SENTINEL) >> (p + 1);
            let k = ahead.trailing_zeros();
            let ok = (ahead & TABLES.beyond[k as usize] == 0)
                & ((self.centres.0[line] >> (p + 1 + k)) & 1 != 0)
                & (self.long | (k == 0));
            let land = TABLES.cells[line][(p + 2 * k + 2) as usize];
            out |= CELL_BITS[land as usize] & 0u128.wrapping_sub(u128::from(ok));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{centre, ALL_BOARD, RAYS};

    /// The segment of spec §2 by walking the ray cell by cell.
    fn walk(x: usize, d: usize, occ: u128, centres: u128, long: bool) -> u128 {
        let ray = &RAYS[x][d];
        let Some(k) = (0..ray.len()).find(|&i| occ & ray.cell(i).bit() != 0) else {
            return 0;
        };
        let land = 2 * k + 1;
        if land >= ray.len() || centres & ray.cell(k).bit() == 0 || (k > 0 && !long) {
            return 0;
        }
        if (k + 1..=land).any(|i| occ & ray.cell(i).bit() != 0) {
            return 0;
        }
        ray.cell(land).bit()
    }

    #[test]
    fn lines_have_the_lengths_of_the_spec() {
        for line in 0..LINES {
            let len = TABLES.cells[line]
                .iter()
                .filter(|&&c| c != OFF_BOARD)
                .count();
            let strip = line / 2 % 10;
            let want = if line < 20 {
                2 * strip + 1
            } else {
                19 - 2 * strip
            };
            assert_eq!(len, want, "line {line}");
        }
    }

    #[test]
    fn landings_match_a_walk_along_each_ray() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut rand = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (u128::from(seed) << 64) | u128::from(seed.rotate_left(29) ^ 0x9e37_79b9)
        };
        for round in 0..400 {
            let bits = rand();
            // Densities of about 1/2 and 1/4.
            let occ = ALL_BOARD & if round % 2 == 0 { bits & rand() } else { bits };
            let centres = occ & rand();
            for x in 0..CELLS {
                let cell = Cell::of(x as u8);
                let occ = occ & !cell.bit();
                for long in [false, true] {
                    let want = (0..6).fold(0, |m, d| m | walk(x, d, occ, centres, long));
                    let board = JumpBoard::new(occ, centres & occ, long);
                    assert_eq!(board.landings(cell), want, "{cell}");
                    for l in Cells(want) {
                        assert!(centre(cell, l).is_some());
                    }
                }
            }
        }
    }
}
