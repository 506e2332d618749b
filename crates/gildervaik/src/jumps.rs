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

/// Strips per family.
const STRIPS: usize = 10;
/// Positions a landing computation may reach: up to `2 * 30 + 2`.
const READS: usize = 64;
/// An id off the board, whose one-cell set is empty.
const OFF_BOARD: u8 = 127;

/// A cell's strip in one family and its position along it, counted from
/// each end (so both directions of the strip read as "ahead").
#[derive(Clone, Copy, Debug)]
struct Place {
    strip: u8,
    pos: u8,
    rpos: u8,
}

struct Tables {
    /// `places[cell][family]`, families: rows, "/" strips, "\" strips.
    places: [[Place; 3]; CELLS],
    /// `cells[family][strip][end][pos]`: the cell at `pos` counted from
    /// the strip's start (`end = 0`) or its end (`end = 1`); past the end
    /// `OFF_BOARD`, so a landing beyond the strip needs no test.
    cells: [[[[u8; READS]; 2]; STRIPS]; 3],
    /// `len[family][strip]`: `19 - 2 * strip` for the slanted families.
    len: [[u8; STRIPS]; 3],
    /// `beyond[k]`: the `k + 1` positions after a centre at `k` up to the
    /// landing, in a ray read from just past its start.
    beyond: [u32; 32],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        places: [[Place {
            strip: 0,
            pos: 0,
            rpos: 0,
        }; 3]; CELLS],
        cells: [[[[OFF_BOARD; READS]; 2]; STRIPS]; 3],
        len: [[0; STRIPS]; 3],
        beyond: [0; 32],
    };
    let mut id = 0;
    while id < CELLS {
        let x = Cell::of(id as u8);
        let (r, c) = (x.row(), x.col());
        let places = [(r, c), (c / 2, 2 * r - c), (r - (c + 1) / 2, c)];
        let mut f = 0;
        while f < 3 {
            let (strip, pos) = places[f];
            t.places[id][f].strip = strip as u8;
            t.places[id][f].pos = pos as u8;
            t.len[f][strip as usize] += 1;
            f += 1;
        }
        id += 1;
    }
    let mut id = 0;
    while id < CELLS {
        let mut f = 0;
        while f < 3 {
            let place = &mut t.places[id][f];
            let len = t.len[f][place.strip as usize];
            place.rpos = len - 1 - place.pos;
            t.cells[f][place.strip as usize][0][place.pos as usize] = id as u8;
            t.cells[f][place.strip as usize][1][place.rpos as usize] = id as u8;
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

/// A set of cells as bit strings along every strip, read from both ends.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strips([[[u32; 2]; STRIPS]; 3]);

impl Strips {
    pub fn new(set: u128) -> Strips {
        let mut s = Strips::default();
        for x in Cells(set) {
            s.toggle(x);
        }
        s
    }

    /// Add or remove one cell.
    #[inline(always)]
    pub fn toggle(&mut self, x: Cell) {
        for (f, place) in TABLES.places[x.id()].iter().enumerate() {
            let strip = &mut self.0[f][place.strip as usize];
            strip[0] ^= 1 << place.pos;
            strip[1] ^= 1 << place.rpos;
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

    /// The landing cells of every jump segment from `x`: along each of its
    /// three strips, toward both ends.
    #[inline]
    pub fn landings(&self, x: Cell) -> u128 {
        let mut out = 0;
        for (f, place) in TABLES.places[x.id()].iter().enumerate() {
            let s = place.strip as usize;
            for (end, p) in [place.pos, place.rpos].into_iter().enumerate() {
                let occ = self.occupied.0[f][s][end];
                let centres = self.centres.0[f][s][end];
                out |= self.landing(occ, centres, u32::from(p), &TABLES.cells[f][s][end]);
            }
        }
        out
    }

    /// The landing bit of the segment from position `p` toward increasing
    /// positions, or 0. Branch-free: which rays hold what is unpredictable.
    #[inline(always)]
    fn landing(&self, occ: u32, centres: u32, p: u32, cells: &[u8; READS]) -> u128 {
        // Read from just past `p`; the sentinel stands for "no pawn ahead"
        // and is never a centre.
        let ahead = (occ | SENTINEL) >> (p + 1);
        let k = ahead.trailing_zeros();
        let ok = (ahead & TABLES.beyond[k as usize] == 0)
            & ((centres >> (p + 1 + k)) & 1 != 0)
            & (self.long | (k == 0));
        let land = (p + 2 * k + 2) as usize;
        CELL_BITS[cells[land] as usize] & 0u128.wrapping_sub(u128::from(ok))
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
    fn strips_have_the_lengths_of_the_spec() {
        for (f, lens) in TABLES.len.iter().enumerate() {
            for (s, &len) in lens.iter().enumerate() {
                let want = if f == 0 { 2 * s + 1 } else { 19 - 2 * s };
                assert_eq!(len as usize, want);
            }
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
