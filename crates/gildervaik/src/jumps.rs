//! Jump segments (spec §2): the one place that decides them.
//!
//! Every ray runs along a strip (§1): the row (E/W), the "/" strip (SW/NE)
//! or the "\" strip (SE/NW) of its cell. With the pawns of each of the 30
//! strips kept as a bit string in strip order, a segment is a few integer
//! operations: the nearest pawn ahead is one bit scan, `k` is its distance,
//! and a second bit scan past it tells whether the `k + 1` cells up to the
//! landing are empty and on the board.
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
//!
//! The tables are sized so that every index is a masked or byte-sized
//! value: the hot loop has no bounds checks.

use crate::geometry::{Cell, Cells, CELLS};

/// Strips: 10 per family, each read from both ends, so a "line" is one
/// strip in one direction: `line = (family * 10 + strip) * 2 + end`.
/// Rounded up to a power of two for masked indexing.
const LINES: usize = 64;
/// Positions on a line, rounded up to a power of two (strips are below 20).
const POSITIONS: usize = 32;

/// One of a cell's six rays.
#[derive(Clone, Copy, Debug)]
struct Ray {
    /// The line the ray runs along.
    line: u8,
    /// The position of the ray's first cell on the line (the cell's plus one).
    start: u8,
    /// Where the cell `k = 0` would land in [`LAND_SETS`] (the ray's
    /// second cell): a landing is this plus `2k`.
    land: u16,
    /// The bit just past the line's end, counted from the ray's first cell:
    /// it stops the bit scans as a pawn would, and is never a centre.
    edge: u32,
}

/// A cell's place on one line, as the line and its bit there.
#[derive(Clone, Copy, Debug)]
struct Mark {
    line: u32,
    bit: u32,
}

struct Tables {
    /// `rays[id]`: the six rays of a cell (256 rows: any byte indexes it).
    rays: [[Ray; 6]; 256],
    /// `marks[id]`: the cell's six places (128 rows: a masked id indexes
    /// it), so that adding or removing it is six `xor`s.
    marks: [[Mark; 6]; 128],
    /// `cells[line * POSITIONS + pos]`: the cell there.
    cells: [u8; LINES * POSITIONS],
    /// `ends[line]`: the bit just past the line's end (0 for the padding).
    ends: [u32; LINES],
}

const fn build_tables() -> Tables {
    let none = Ray {
        line: 0,
        start: 0,
        land: 0,
        edge: 1,
    };
    let mut t = Tables {
        rays: [[none; 6]; 256],
        marks: [[Mark { line: 0, bit: 0 }; 6]; 128],
        cells: [0; LINES * POSITIONS],
        ends: [0; LINES],
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
            let back = len - 1 - pos;
            t.rays[id][2 * f] = Ray {
                line: line as u8,
                start: pos as u8 + 1,
                land: (line * SPAN) as u16 + pos as u16 + 2,
                edge: 1 << (len - pos - 1),
            };
            t.rays[id][2 * f + 1] = Ray {
                line: line as u8 + 1,
                start: back as u8 + 1,
                land: ((line + 1) * SPAN) as u16 + back as u16 + 2,
                edge: 1 << (len - back - 1),
            };
            t.marks[id][2 * f] = Mark {
                line: line as u32,
                bit: 1 << pos,
            };
            t.marks[id][2 * f + 1] = Mark {
                line: line as u32 + 1,
                bit: 1 << back,
            };
            t.ends[line] = 1 << len;
            t.ends[line + 1] = 1 << len;
            t.cells[line * POSITIONS + pos as usize] = id as u8;
            t.cells[(line + 1) * POSITIONS + back as usize] = id as u8;
            f += 1;
        }
        id += 1;
    }
    t
}

static TABLES: Tables = build_tables();

/// `LAND_BITS[id]`: the one-cell set (a table: cheaper than a 128-bit
/// shift); the upper half is empty, for "no landing" (`id | 128`).
static LAND_BITS: [u128; 256] = {
    let mut out = [0u128; 256];
    let mut id = 0;
    while id < CELLS {
        out[id] = 1u128 << id;
        id += 1;
    }
    out
};

/// Positions a line holds in [`LAND_SETS`]: every strip is shorter.
const SPAN: usize = 20;
/// The empty entry of [`LAND_SETS`], for "no landing" (the table is
/// rounded up to a power of two for masked indexing).
const NO_LAND: usize = 2047;
const _: () = assert!(LINES * SPAN <= NO_LAND);

/// `LAND_SETS[line * SPAN + pos]`: the one-cell set of the cell there, so
/// that a ray's landing is one load from its position (no cell id between).
static LAND_SETS: [u128; NO_LAND + 1] = {
    let mut out = [0u128; NO_LAND + 1];
    let mut line = 0;
    while line < LINES {
        let mut pos = 0;
        while pos < SPAN && TABLES.ends[line] >> pos > 1 {
            out[line * SPAN + pos] = 1u128 << TABLES.cells[line * POSITIONS + pos];
            pos += 1;
        }
        line += 1;
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
        for mark in &TABLES.marks[x.id() % 128] {
            self.0[mark.line as usize % LINES] ^= mark.bit;
        }
    }

    /// Add or remove one cell in two sets, in one pass over its rays.
    #[inline(always)]
    pub fn toggle_both(a: &mut Strips, b: &mut Strips, x: Cell) {
        for mark in &TABLES.marks[x.id() % 128] {
            let line = mark.line as usize % LINES;
            a.0[line] ^= mark.bit;
            b.0[line] ^= mark.bit;
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
    /// most.
    #[inline]
    pub fn landings(&self, x: Cell) -> u128 {
        if self.long {
            self.landings_of::<true>(x)
        } else {
            self.landings_of::<false>(x)
        }
    }

    /// [`JumpBoard::landings`] with `long` known (`LONG == self.long`), for
    /// a caller that checks it once for many cells. Branch-free: which
    /// rays hold what is unpredictable.
    #[inline(always)]
    pub fn landings_of<const LONG: bool>(&self, x: Cell) -> u128 {
        let mut out = 0;
        for ray in &TABLES.rays[x.id() as u8 as usize] {
            let line = usize::from(ray.line) % LINES;
            let s = u32::from(ray.start);
            // The ray from its first cell; the edge bit stands for "no pawn
            // ahead", and is never a centre.
            let ahead = (self.occupied.0[line] >> s) | ray.edge;
            let k = ahead.trailing_zeros();
            // The k + 1 cells past the centre, up to the landing, must be
            // empty and before the edge.
            let ok = ((ahead >> (k + 1)).trailing_zeros() > k)
                & ((self.centres.0[line] >> (s + k)) & 1 != 0)
                & (LONG | (k == 0));
            let land = usize::from(ray.land) + 2 * k as usize;
            let keep = usize::from(ok).wrapping_neg();
            out |= LAND_SETS[((land & keep) | (NO_LAND & !keep)) % LAND_SETS.len()];
        }
        out
    }

    /// Every first segment of the pawns `movers` (within `occupied`, whose
    /// own cells are not on their rays), as `(from, landing)` pairs in
    /// `out`; returns how many.
    ///
    /// All lines at once, where [`JumpBoard::landings`] goes ray by ray:
    /// adding each mover's next bit to a line's empty cells carries through
    /// the empty run ahead of it and stops on the nearest pawn, so one
    /// addition finds the nearest pawn ahead of every mover. Only those that
    /// are centres with an empty cell behind them (a few) are checked one by
    /// one, without branches: which of them pass is unpredictable.
    #[inline]
    pub fn first_segments(&self, movers: &Strips, out: &mut [(Cell, Cell); MAX_FIRSTS]) -> usize {
        let mut hits = [0u32; LINES];
        let mut any = [0u8; LINES];
        for l in 0..LINES {
            let occ = self.occupied.0[l];
            let empty = !occ & (TABLES.ends[l].wrapping_sub(1));
            let near = movers.0[l] << 1;
            let ahead = empty.wrapping_add(near);
            let short = if self.long { u32::MAX } else { near };
            hits[l] = ahead & self.centres.0[l] & (empty >> 1) & short;
            any[l] = u8::from(hits[l] != 0);
        }
        let mut count = 0;
        let mut lines = bits_of_bytes(&any);
        while lines != 0 {
            let l = lines.trailing_zeros() as usize % LINES;
            lines &= lines - 1;
            let occ = self.occupied.0[l] | TABLES.ends[l];
            let cells = &TABLES.cells[l * POSITIONS..][..POSITIONS];
            let mut todo = hits[l];
            while todo != 0 {
                let v = todo.trailing_zeros();
                todo &= todo - 1;
                // The mover: the nearest pawn behind the centre.
                let from = 31 - (occ & ((1 << v) - 1)).leading_zeros();
                let k = v - from - 1;
                let ok = (occ >> (v + 1)).trailing_zeros() > k;
                out[count % MAX_FIRSTS] = (
                    Cell::of(cells[from as usize % POSITIONS]),
                    Cell::of(cells[(v + k + 1) as usize % POSITIONS]),
                );
                count += usize::from(ok);
            }
        }
        count
    }
}

/// At most one first segment per ray of each of ten pawns (an array of this
/// size never overflows).
pub const MAX_FIRSTS: usize = 64;

/// Bit `i` set iff `bytes[i]` (0 or 1) is 1: eight bytes at a time, one
/// multiplication gathers their low bits into the top byte.
#[inline]
fn bits_of_bytes(bytes: &[u8; 64]) -> u64 {
    let mut out = 0;
    for (i, chunk) in bytes.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let gathered = u64::from_le_bytes(word).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        out |= gathered << (8 * i);
    }
    out
}

/// The landing set of one cell, or empty: `LAND_BITS` with `ok` folded into
/// the index.
#[inline(always)]
pub fn cell_bit_if(x: Cell, ok: bool) -> u128 {
    LAND_BITS[x.id() as u8 as usize | (usize::from(!ok) << 7)]
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
        for line in 0..60 {
            let len = (0..CELLS)
                .flat_map(|id| TABLES.rays[id])
                .filter(|ray| usize::from(ray.line) == line)
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

    /// A small generator of 128-bit random sets (an LCG; the low half is
    /// its state rotated by `rot` and mixed with `mix`).
    fn random_boards(mut seed: u64, rot: u32, mix: u64) -> impl FnMut() -> u128 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (u128::from(seed) << 64) | u128::from(seed.rotate_left(rot) ^ mix)
        }
    }

    #[test]
    fn landings_match_a_walk_along_each_ray() {
        let mut rand = random_boards(0x1234_5678_9abc_def1, 29, 0x9e37_79b9);
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

    /// The bulk first segments of a set of movers are the union of each
    /// mover's `landings` (movers on the board, centres among the others).
    #[test]
    fn first_segments_match_landings_of_each_mover() {
        let mut rand = random_boards(0x0fed_cba9_8765_4321, 23, 0x7f4a_7c15);
        for round in 0..2000 {
            let bits = rand();
            let occ = ALL_BOARD & if round % 2 == 0 { bits & rand() } else { bits };
            let movers = occ & rand() & rand();
            // Centres among the others, or every pawn (`jump_own_pawns`).
            let centres = if round % 3 == 0 {
                occ
            } else {
                occ & !movers & rand()
            };
            for long in [false, true] {
                let board = JumpBoard::new(occ, centres, long);
                let mut got = vec![0u128; CELLS];
                let mut pairs = [(Cell::of(0), Cell::of(0)); MAX_FIRSTS];
                let count = board.first_segments(&Strips::new(movers), &mut pairs);
                for &(from, to) in &pairs[..count] {
                    assert!(got[from.id()] & to.bit() == 0, "{from}-{to} twice");
                    got[from.id()] |= to.bit();
                }
                for (x, &got) in got.iter().enumerate() {
                    let cell = Cell::of(x as u8);
                    let want = if movers & cell.bit() != 0 {
                        board.landings(cell)
                    } else {
                        0
                    };
                    assert_eq!(got, want, "{cell} round {round} long {long}");
                }
            }
        }
    }
}
