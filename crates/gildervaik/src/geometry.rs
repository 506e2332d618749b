//! The triangular board (spec §1): 100 triangle cells in 10 rows, their
//! names, neighbours, the six rays along strips, the three corner zones and
//! the 120° rotation. Every table is computed once, at compile time.
//!
//! ```text
//! a          A            row r has 2r+1 cells, c = 0..2r;
//! b         A:A           a cell is "up" (points like the board) iff c is even
//! c        A:A:A
//! d       A:A:A:A         zone A: r <= 3
//! e      .........
//! f     ...........       the 52 cells outside the zones: the minefield
//! g    C...........B
//! h   C:C.........B:B     zone B: c >= 12
//! i  C:C:C.......B:B:B    zone C: r >= 6 and c <= 2(r-6)
//! j C:C:C:C.....B:B:B:B
//! ```

use std::fmt;

/// Number of cells.
pub const CELLS: usize = 100;
/// Number of rows (`a`..`j`).
pub const ROWS: usize = 10;
/// The longest ray (row `j` seen from a corner).
pub const MAX_RAY: usize = 18;

/// One triangle cell, by dense id `r*r + c` (0..99). Id order is name order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell of id `id`, if on the board.
    pub const fn new(id: usize) -> Option<Cell> {
        if id < CELLS {
            Some(Cell(id as u8))
        } else {
            None
        }
    }

    /// The cell in row `r`, column `c`, if on the board.
    pub const fn at(r: i32, c: i32) -> Option<Cell> {
        if r < 0 || r >= ROWS as i32 || c < 0 || c > 2 * r {
            None
        } else {
            Some(Cell((r * r + c) as u8))
        }
    }

    /// A cell id known to be on the board (crate tables only).
    pub(crate) const fn of(id: u8) -> Cell {
        Cell(id)
    }

    pub const fn id(self) -> usize {
        self.0 as usize
    }

    pub const fn row(self) -> i32 {
        let mut r = 0;
        while (r + 1) * (r + 1) <= self.0 as i32 {
            r += 1;
        }
        r
    }

    pub const fn col(self) -> i32 {
        let r = self.row();
        self.0 as i32 - r * r
    }

    /// Whether the triangle points up, like the board.
    pub const fn is_up(self) -> bool {
        self.col() % 2 == 0
    }

    /// The one-bit set of this cell.
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The cell 120° clockwise from this one (zone A to B, B to C, C to A):
    /// `(p,q,s) -> (s,p,q)`.
    pub const fn rotated(self) -> Cell {
        let (r, c) = (self.row(), self.col());
        match Cell::at(9 - r + (c + 1) / 2, 2 * (9 - r) + c % 2) {
            Some(x) => x,
            None => panic!("rotation leaves the board"),
        }
    }

    /// Read a name like `e5` (row letter `a`..`j`, then `c+1`).
    pub fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !('a'..='j').contains(&letter)
            || digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let n: i32 = digits.parse().ok()?;
        Cell::at(letter as i32 - 'a' as i32, n - 1)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = (b'a' + self.row() as u8) as char;
        write!(f, "{letter}{}", self.col() + 1)
    }
}

/// The six ray directions (spec §1 table). Opposite directions come in pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    E,
    W,
    NE,
    SW,
    NW,
    SE,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::E, Dir::W, Dir::NE, Dir::SW, Dir::NW, Dir::SE];

    /// The next cell of a ray in this direction.
    pub const fn next(self, x: Cell) -> Option<Cell> {
        let (r, c) = (x.row(), x.col());
        let up = c % 2 == 0;
        match (self, up) {
            (Dir::E, _) => Cell::at(r, c + 1),
            (Dir::W, _) => Cell::at(r, c - 1),
            (Dir::NE, true) => Cell::at(r, c + 1),
            (Dir::NE, false) => Cell::at(r - 1, c - 1),
            (Dir::SW, true) => Cell::at(r + 1, c + 1),
            (Dir::SW, false) => Cell::at(r, c - 1),
            (Dir::NW, true) => Cell::at(r, c - 1),
            (Dir::NW, false) => Cell::at(r - 1, c - 1),
            (Dir::SE, true) => Cell::at(r + 1, c + 1),
            (Dir::SE, false) => Cell::at(r, c + 1),
        }
    }
}

/// The cells met going straight from a cell in one direction, nearest first.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    cells: [u8; MAX_RAY],
    len: u8,
    /// All cells of the ray.
    pub mask: u128,
}

impl Ray {
    pub const fn len(&self) -> usize {
        self.len as usize
    }
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The `i`-th cell (0 = the neighbour); `i < len()`.
    pub const fn cell(&self, i: usize) -> Cell {
        Cell(self.cells[i])
    }
}

const fn build_rays() -> [[Ray; 6]; CELLS] {
    let empty = Ray {
        cells: [0; MAX_RAY],
        len: 0,
        mask: 0,
    };
    let mut rays = [[empty; 6]; CELLS];
    let mut id = 0;
    while id < CELLS {
        let mut d = 0;
        while d < 6 {
            let dir = Dir::ALL[d];
            let mut ray = empty;
            let mut cur = Dir::next(dir, Cell(id as u8));
            while let Some(x) = cur {
                ray.cells[ray.len as usize] = x.0;
                ray.len += 1;
                ray.mask |= x.bit();
                cur = dir.next(x);
            }
            rays[id][d] = ray;
            d += 1;
        }
        id += 1;
    }
    rays
}

/// `RAYS[cell][dir]`: the ray from `cell` in `Dir::ALL[dir]`.
pub static RAYS: [[Ray; 6]; CELLS] = build_rays();

const fn build_neighbours() -> [u128; CELLS] {
    let mut out = [0u128; CELLS];
    let mut id = 0;
    while id < CELLS {
        let x = Cell(id as u8);
        let (r, c) = (x.row(), x.col());
        let vertical = if c % 2 == 0 {
            Cell::at(r + 1, c + 1)
        } else {
            Cell::at(r - 1, c - 1)
        };
        let candidates = [Cell::at(r, c - 1), Cell::at(r, c + 1), vertical];
        let mut i = 0;
        while i < 3 {
            if let Some(n) = candidates[i] {
                out[id] |= n.bit();
            }
            i += 1;
        }
        id += 1;
    }
    out
}

/// `NEIGHBOURS[cell]`: the cells sharing an edge with `cell` (1 to 3).
pub static NEIGHBOURS: [u128; CELLS] = build_neighbours();

/// `STEP_LISTS[cell]`: its neighbours in id order, padded with the cell
/// itself (never free for its own pawn), so a step loop has no exit to
/// predict.
pub static STEP_LISTS: [[u8; 3]; CELLS] = {
    let sets = build_neighbours();
    let mut out = [[0u8; 3]; CELLS];
    let mut id = 0;
    while id < CELLS {
        out[id] = [id as u8; 3];
        let (mut n, mut k) = (0, 0);
        while n < CELLS {
            if sets[id] & (1u128 << n) != 0 {
                out[id][k] = n as u8;
                k += 1;
            }
            n += 1;
        }
        id += 1;
    }
    out
};

/// No cell (in `CENTRE`).
const NONE: u8 = u8::MAX;

const fn build_centres() -> [[u8; CELLS]; CELLS] {
    let mut out = [[NONE; CELLS]; CELLS];
    let rays = build_rays();
    let mut id = 0;
    while id < CELLS {
        let mut d = 0;
        while d < 6 {
            let ray = &rays[id][d];
            let mut k = 0;
            while 2 * k + 1 < ray.len() {
                out[id][ray.cells[2 * k + 1] as usize] = ray.cells[k];
                k += 1;
            }
            d += 1;
        }
        id += 1;
    }
    out
}

static CENTRES: [[u8; CELLS]; CELLS] = build_centres();

/// The centre of the jump segment from `from` landing on `to` (a cell
/// `y_{k+1}` whose ray continues to `y_{2k+2} = to`), if the two cells lie on
/// one strip at an even distance. Same-orientation cells share at most one
/// strip, so the centre is unique.
pub fn centre(from: Cell, to: Cell) -> Option<Cell> {
    let c = CENTRES[from.id()][to.id()];
    (c != NONE).then_some(Cell(c))
}

/// A player's seat as a zone index: 0 = A (top), 1 = B (bottom right),
/// 2 = C (bottom left).
pub type Seat = usize;

const fn zone_test(seat: Seat, x: Cell) -> bool {
    let (r, c) = (x.row(), x.col());
    match seat {
        0 => r <= 3,
        1 => c >= 12,
        _ => r >= 6 && c <= 2 * (r - 6),
    }
}

const fn build_zones() -> [u128; 3] {
    let mut out = [0u128; 3];
    let mut id = 0;
    while id < CELLS {
        let mut s = 0;
        while s < 3 {
            if zone_test(s, Cell(id as u8)) {
                out[s] |= 1u128 << id;
            }
            s += 1;
        }
        id += 1;
    }
    out
}

/// `ZONES[seat]`: the 16 cells of that player's corner zone (his home).
pub static ZONES: [u128; 3] = build_zones();
/// Every zone cell.
pub const ALL_ZONES: u128 = {
    let z = build_zones();
    z[0] | z[1] | z[2]
};
/// The 52 cells outside the zones.
pub const MINEFIELD: u128 = ALL_BOARD & !ALL_ZONES;
/// Every cell of the board.
pub const ALL_BOARD: u128 = (1u128 << CELLS) - 1;
/// The 55 up cells.
pub const UP_CELLS: u128 = {
    let mut m = 0u128;
    let mut id = 0;
    while id < CELLS {
        if Cell(id as u8).is_up() {
            m |= 1u128 << id;
        }
        id += 1;
    }
    m
};

/// `ZONE_OF[cell]`: the seat whose zone holds `cell`, or 3 in the minefield.
static ZONE_OF: [u8; CELLS] = {
    let zones = build_zones();
    let mut out = [3u8; CELLS];
    let mut id = 0;
    while id < CELLS {
        let mut s = 0;
        while s < 3 {
            if zones[s] & (1u128 << id) != 0 {
                out[id] = s as u8;
            }
            s += 1;
        }
        id += 1;
    }
    out
};

/// The zone a cell lies in, if any.
#[inline]
pub fn zone_of(x: Cell) -> Option<Seat> {
    let z = ZONE_OF[x.id()] as usize;
    (z < 3).then_some(z)
}

/// The two other seats, whose zones `seat` may conquer, in turn order.
pub const fn opposing_seats(seat: Seat) -> [Seat; 2] {
    [(seat + 1) % 3, (seat + 2) % 3]
}

/// The cells of both zones that are "opposing" for `seat`.
pub const fn opposing_zones(seat: Seat) -> u128 {
    ALL_ZONES & !build_zones()[seat]
}

/// Steps from every cell to the nearest cell of `target` (`u8::MAX` when
/// unreachable), by breadth-first search over the neighbour table.
const fn distances_to(target: u128) -> [u8; CELLS] {
    let nbrs = build_neighbours();
    let mut out = [u8::MAX; CELLS];
    let mut reached = target;
    let mut frontier = target;
    let mut dist = 0u8;
    while frontier != 0 {
        let mut id = 0;
        let mut next = 0u128;
        while id < CELLS {
            if frontier & (1u128 << id) != 0 {
                out[id] = dist;
                next |= nbrs[id];
            }
            id += 1;
        }
        frontier = next & !reached;
        reached |= next;
        dist += 1;
    }
    out
}

const fn per_zone(outside: bool) -> [[u8; CELLS]; 3] {
    let zones = build_zones();
    let mut out = [[0; CELLS]; 3];
    let mut s = 0;
    while s < 3 {
        let target = if outside {
            ALL_BOARD & !zones[s]
        } else {
            zones[s]
        };
        out[s] = distances_to(target);
        s += 1;
    }
    out
}

/// `DISTANCES[seat][cell]`: steps from `cell` to the nearest cell of that zone.
pub static DISTANCES: [[u8; CELLS]; 3] = per_zone(false);

/// `NEAR_ZONES[seat]`: the cells of that zone and those at most two steps
/// from it.
pub static NEAR_ZONES: [u128; 3] = {
    let d = per_zone(false);
    let mut out = [0u128; 3];
    let mut s = 0;
    while s < 3 {
        let mut id = 0;
        while id < CELLS {
            if d[s][id] <= 2 {
                out[s] |= 1u128 << id;
            }
            id += 1;
        }
        s += 1;
    }
    out
};

/// `EXITS[seat][cell]`: steps from `cell` to the nearest cell outside that
/// zone (0 outside it): what evacuating a home pawn costs at least.
pub static EXITS: [[u8; CELLS]; 3] = per_zone(true);

/// The cells of a set in id order.
#[derive(Clone, Copy, Debug)]
pub struct Cells(pub u128);

impl Iterator for Cells {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cells: impl Iterator<Item = Cell>) -> String {
        cells.map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
    }

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    #[test]
    fn cells_names_and_orientation() {
        assert_eq!(UP_CELLS.count_ones(), 55);
        assert_eq!(cell("a1").id(), 0);
        assert_eq!(cell("j1").id(), 81);
        assert_eq!(cell("j19").id(), 99);
        for id in 0..CELLS {
            let x = Cell::new(id).unwrap();
            assert_eq!(Cell::parse(&x.to_string()), Some(x));
        }
        for bad in ["", "a", "a0", "a2", "k1", "e05", "j20", "e5x", "é1"] {
            assert_eq!(Cell::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn degrees_and_bipartite_adjacency() {
        let mut by_degree = [0; 4];
        for (id, &n) in NEIGHBOURS.iter().enumerate() {
            by_degree[n.count_ones() as usize] += 1;
            let up = Cell::of(id as u8).is_up();
            for m in Cells(n) {
                assert_ne!(m.is_up(), up);
                assert!(NEIGHBOURS[m.id()] & (1u128 << id) != 0);
            }
        }
        assert_eq!(by_degree, [0, 3, 24, 73]);
    }

    #[test]
    fn rays_of_e5_match_the_spec() {
        let e5 = cell("e5");
        let ray = |d: Dir| {
            let r = &RAYS[e5.id()][d as usize];
            names((0..r.len()).map(|i| r.cell(i)))
        };
        assert_eq!(ray(Dir::E), "e6 e7 e8 e9");
        assert_eq!(ray(Dir::W), "e4 e3 e2 e1");
        assert_eq!(ray(Dir::NE), "e6 d5 d6 c5");
        assert_eq!(ray(Dir::NW), "e4 d3 d2 c1");
        assert_eq!(ray(Dir::SE), "f6 f7 g8 g9 h10 h11 i12 i13 j14 j15");
        assert_eq!(ray(Dir::SW), "f6 f5 g6 g5 h6 h5 i6 i5 j6 j5");
    }

    #[test]
    fn every_neighbour_starts_exactly_two_rays() {
        for id in 0..CELLS {
            let mut firsts = [0; CELLS];
            let mut longest = 0;
            for ray in &RAYS[id] {
                if !ray.is_empty() {
                    firsts[ray.cell(0).id()] += 1;
                }
                longest = longest.max(ray.len());
            }
            for m in Cells(NEIGHBOURS[id]) {
                assert_eq!(firsts[m.id()], 2);
            }
            assert_eq!(
                firsts.iter().sum::<i32>(),
                2 * NEIGHBOURS[id].count_ones() as i32
            );
            assert!(longest <= MAX_RAY);
        }
    }

    #[test]
    fn zones_and_minefield() {
        let zone = |s: Seat| names(Cells(ZONES[s] & UP_CELLS));
        assert_eq!(zone(0), "a1 b1 b3 c1 c3 c5 d1 d3 d5 d7");
        assert_eq!(zone(1), "g13 h13 h15 i13 i15 i17 j13 j15 j17 j19");
        assert_eq!(zone(2), "g1 h1 h3 i1 i3 i5 j1 j3 j5 j7");
        assert_eq!(
            names(Cells(ZONES[1] & !UP_CELLS)),
            "h14 i14 i16 j14 j16 j18"
        );
        assert_eq!(MINEFIELD.count_ones(), 52);
        let exits = |s: Seat| {
            let mut m = 0;
            for x in Cells(ZONES[s]) {
                m |= NEIGHBOURS[x.id()];
            }
            names(Cells(m & !ZONES[s]))
        };
        assert_eq!(exits(0), "e2 e4 e6 e8");
        assert_eq!(exits(1), "g12 h12 i12 j12");
        assert_eq!(exits(2), "g2 h4 i6 j8");
        assert_eq!(DISTANCES[0][cell("e2").id()], 1);
        assert_eq!(DISTANCES[1][cell("g13").id()], 0);
        assert_eq!(EXITS[0][cell("a1").id()], 7);
        assert_eq!(EXITS[0][cell("d3").id()], 1);
        assert_eq!(EXITS[0][cell("d2").id()], 2);
        assert_eq!(EXITS[0][cell("e5").id()], 0);
    }

    #[test]
    fn rotation_maps_zones_and_keeps_adjacency() {
        assert_eq!(cell("a1").rotated(), cell("j19"));
        assert_eq!(cell("j19").rotated(), cell("j1"));
        for (id, &n) in NEIGHBOURS.iter().enumerate() {
            let x = Cell::of(id as u8);
            assert_eq!(x.rotated().rotated().rotated(), x);
            for m in Cells(n) {
                assert!(NEIGHBOURS[x.rotated().id()] & m.rotated().bit() != 0);
            }
            if let Some(s) = zone_of(x) {
                assert_eq!(zone_of(x.rotated()), Some((s + 1) % 3));
            }
        }
    }

    #[test]
    fn centres_of_jumps() {
        assert_eq!(centre(cell("e5"), cell("e7")), Some(cell("e6")));
        assert_eq!(centre(cell("e5"), cell("d5")), Some(cell("e6")));
        assert_eq!(centre(cell("e5"), cell("g9")), Some(cell("f7")));
        assert_eq!(centre(cell("e5"), cell("e6")), None);
        assert_eq!(centre(cell("e5"), cell("e5")), None);
    }
}
