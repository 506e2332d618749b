//! The 18×18 board, its squares, the goban points the Kings stand on, and
//! the eight ray directions, with tables computed at compile time.
//!
//! ```text
//!  rank 18  a18 ........ r18      square (x, y), index y*18 + x
//!    ...                          point  (X, Y), X, Y in 0..=18, is the
//!  rank 2   a2  b2 ...            common corner of squares
//!           +---+---+             (X-1,Y-1) (X,Y-1) (X-1,Y) (X,Y):
//!  rank 1   |a1 |b1 | ...         its *quad*; point b1+ = (2,2) is the
//!           +---+---+             corner between a1 b1 a2 b2... written
//!                                 as its south-west square plus `+`.
//! ```

use std::fmt;

/// Files and ranks of the board.
pub const SIDE: usize = 18;
/// Number of squares.
pub const SQUARES: usize = SIDE * SIDE;
/// Lines of the goban (points per line).
const LINES: usize = SIDE + 1;
/// Number of point indices (`Y * 19 + X`), edge points included.
pub const POINTS: usize = LINES * LINES;

/// A square, index `y * 18 + x` (0..324).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(pub u16);

impl Sq {
    pub const fn new(x: usize, y: usize) -> Sq {
        Sq((y * SIDE + x) as u16)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn x(self) -> usize {
        self.0 as usize % SIDE
    }
    pub const fn y(self) -> usize {
        self.0 as usize / SIDE
    }

    /// Read `a1`..`r18` (lower case).
    pub fn parse(text: &str) -> Option<Sq> {
        let (x, y) = parse_coords(text)?;
        (x < SIDE && y < SIDE).then(|| Sq::new(x, y))
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x() as u8) as char, self.y() + 1)
    }
}

/// A goban point, index `Y * 19 + X`. Kings stand only on interior points
/// (`X, Y` in 1..=17), so every King has four quad squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pt(pub u16);

impl Pt {
    pub const fn new(x: usize, y: usize) -> Pt {
        Pt((y * LINES + x) as u16)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn x(self) -> usize {
        self.0 as usize % LINES
    }
    pub const fn y(self) -> usize {
        self.0 as usize / LINES
    }
    pub const fn is_interior(self) -> bool {
        self.x() >= 1 && self.x() < SIDE && self.y() >= 1 && self.y() < SIDE
    }
    /// The interior point whose south-west square is `sq` (if interior).
    pub const fn from_sw(sq: Sq) -> Option<Pt> {
        let p = Pt::new(sq.x() + 1, sq.y() + 1);
        if p.is_interior() {
            Some(p)
        } else {
            None
        }
    }
    /// The square south-west of the point, where FEN writes the King.
    pub const fn sw(self) -> Sq {
        Sq::new(self.x() - 1, self.y() - 1)
    }
    /// The four quad squares in index order: SW, SE, NW, NE.
    pub const fn quad(self) -> [Sq; 4] {
        let (x, y) = (self.x(), self.y());
        [
            Sq::new(x - 1, y - 1),
            Sq::new(x, y - 1),
            Sq::new(x - 1, y),
            Sq::new(x, y),
        ]
    }

    /// Read `a1+`..`q17+`.
    pub fn parse(text: &str) -> Option<Pt> {
        let sq = Sq::parse(text.strip_suffix('+')?)?;
        Pt::from_sw(sq)
    }
}

impl fmt::Display for Pt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+", self.sw())
    }
}

/// `a1` -> (0, 0); any file letter and rank number, range checked by callers.
fn parse_coords(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let file = *bytes.first()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank = &text[1..];
    if rank.is_empty()
        || rank.len() > 2
        || rank.starts_with('0')
        || !rank.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rank: usize = rank.parse().ok()?;
    Some(((file - b'a') as usize, rank - 1))
}

/// The eight directions, ordered by index offset (SW, S, SE, W, E, NW, N,
/// NE) so that walking them in order visits neighbours in index order.
pub const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Index offset of each direction.
pub const OFFSETS: [i32; 8] = {
    let mut o = [0; 8];
    let mut d = 0;
    while d < 8 {
        o[d] = DIRS[d].0 + SIDE as i32 * DIRS[d].1;
        d += 1;
    }
    o
};

/// `EDGE[sq][d]`: how many squares lie beyond `sq` in direction `d`.
pub static EDGE: [[u8; 8]; SQUARES] = {
    let mut t = [[0u8; 8]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (x, y) = ((i % SIDE) as i32, (i / SIDE) as i32);
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRS[d];
            let mut n = 0;
            while n < SIDE as i32 {
                let (nx, ny) = (x + dx * (n + 1), y + dy * (n + 1));
                if nx < 0 || ny < 0 || nx >= SIDE as i32 || ny >= SIDE as i32 {
                    break;
                }
                n += 1;
            }
            t[i][d] = n as u8;
            d += 1;
        }
        i += 1;
    }
    t
};

/// Index of the wall cell after the last square: off-board neighbours
/// point there, so neighbour loops need no edge test.
pub const WALL: usize = SQUARES;

/// `NEIGHBOURS[sq][d]`: the adjacent square in direction `d`, or `WALL`.
pub static NEIGHBOURS: [[u16; 8]; SQUARES] = {
    let mut t = [[WALL as u16; 8]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut d = 0;
        while d < 8 {
            if EDGE[i][d] > 0 {
                t[i][d] = (i as i32 + OFFSETS[d]) as u16;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The square `dist` steps from `sq` in direction `d` (caller checks `EDGE`).
#[inline]
pub fn step(sq: usize, d: usize, dist: usize) -> usize {
    (sq as i32 + OFFSETS[d] * dist as i32) as usize
}

/// Direction and distance from `a` to `b` when they share a ray.
pub fn ray_between(a: Sq, b: Sq) -> Option<(usize, usize)> {
    let dx = b.x() as i32 - a.x() as i32;
    let dy = b.y() as i32 - a.y() as i32;
    if (dx, dy) == (0, 0) || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) {
        return None;
    }
    let dist = dx.abs().max(dy.abs());
    let d = DIRS.iter().position(|&v| v == (dx.signum(), dy.signum()))?;
    Some((d, dist as usize))
}

/// King steps, ordered by destination index: S, W, E, N.
pub const KING_DIRS: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

/// A King step: the destination point and the two squares it newly covers.
pub type KingStep = Option<(Pt, [Sq; 2])>;

/// The step from `p` in `KING_DIRS[k]`, or `None` when the destination is
/// not an interior point.
pub const fn king_step(p: Pt, k: usize) -> KingStep {
    let (dx, dy) = KING_DIRS[k];
    let (x, y) = (p.x() as i32 + dx, p.y() as i32 + dy);
    if x < 1 || y < 1 || x >= SIDE as i32 || y >= SIDE as i32 {
        return None;
    }
    let (x, y) = (x as usize, y as usize);
    // The quad of (x, y) is (x-1..=x) × (y-1..=y); the fresh squares are
    // its column or row farthest from `p`.
    let fresh = match k {
        0 => [Sq::new(x - 1, y - 1), Sq::new(x, y - 1)],
        1 => [Sq::new(x - 1, y - 1), Sq::new(x - 1, y)],
        2 => [Sq::new(x, y - 1), Sq::new(x, y)],
        _ => [Sq::new(x - 1, y), Sq::new(x, y)],
    };
    Some((Pt::new(x, y), fresh))
}

/// `KING_STEPS[point][k]` = `king_step(point, k)` for interior points.
pub static KING_STEPS: [[KingStep; 4]; POINTS] = {
    let mut t = [[None; 4]; POINTS];
    let mut i = 0;
    while i < POINTS {
        if Pt(i as u16).is_interior() {
            let mut k = 0;
            while k < 4 {
                t[i][k] = king_step(Pt(i as u16), k);
                k += 1;
            }
        }
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(Sq::parse("a1"), Some(Sq(0)));
        assert_eq!(Sq::parse("r18"), Some(Sq(323)));
        assert_eq!(Sq::new(4, 4).to_string(), "e5");
        for bad in ["", "a", "a0", "s1", "a19", "A1", "a01", "a1+"] {
            assert_eq!(Sq::parse(bad), None, "{bad}");
        }
        let p = Pt::parse("i1+").unwrap();
        assert_eq!((p.x(), p.y()), (9, 1));
        assert_eq!(p.to_string(), "i1+");
        let names: Vec<String> = p.quad().iter().map(Sq::to_string).collect();
        assert_eq!(names, ["i1", "j1", "i2", "j2"]);
        assert_eq!(
            Pt::parse("q17+").map(|p| p.to_string()).as_deref(),
            Some("q17+")
        );
        assert_eq!(Pt::parse("r1+"), None);
        assert_eq!(Pt::parse("a18+"), None);
    }

    #[test]
    fn king_steps_cover_two_new_squares() {
        let p = Pt::parse("i1+").unwrap();
        let (to, fresh) = king_step(p, 1).unwrap();
        assert_eq!(to.to_string(), "h1+");
        assert_eq!(fresh.map(|s| s.to_string()), ["h1", "h2"]);
        let (to, fresh) = king_step(p, 3).unwrap();
        assert_eq!(to.to_string(), "i2+");
        assert_eq!(fresh.map(|s| s.to_string()), ["i3", "j3"]);
        assert!(king_step(p, 0).is_none(), "no edge points");
        // Every step covers exactly the new quad minus the old one.
        for (i, steps) in KING_STEPS.iter().enumerate() {
            for (to, fresh) in steps.iter().flatten() {
                let old = Pt(i as u16).quad();
                let new: Vec<Sq> = to.quad().into_iter().filter(|s| !old.contains(s)).collect();
                assert_eq!(&new, fresh);
            }
        }
    }

    #[test]
    fn edges_and_rays() {
        assert_eq!(EDGE[0], [0, 0, 0, 0, 17, 0, 17, 17]);
        assert_eq!(
            ray_between(Sq::parse("n11").unwrap(), Sq::parse("j11").unwrap()),
            Some((3, 4))
        );
        assert_eq!(
            ray_between(Sq::parse("a1").unwrap(), Sq::parse("b3").unwrap()),
            None
        );
    }
}
