//! Squares, sides and 288-bit square sets.
//!
//! Three 12x8 levels stacked; a square is `<level><file><rank>` (`2g1`).
//! Indices are `level * 96 + rank * 12 + file`, all 0-based, so level 0 is
//! level 1 (Underworld), and one level is the low 96 bits of a `u128`:
//!
//! ```text
//!   rank 8 | 84 .. 95 |       level 3 Sky         bits 192..287 (Bits.0[2])
//!   ...    |          |       level 2 Ground      bits  96..191 (Bits.0[1])
//!   rank 1 |  0 .. 11 |       level 1 Underworld  bits   0.. 95 (Bits.0[0])
//!            a  ..  l
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign};

pub const LEVELS: usize = 3;
pub const FILES: usize = 12;
pub const RANKS: usize = 8;
/// Squares on one level.
pub const CELLS: usize = FILES * RANKS;
pub const SQUARES: usize = LEVELS * CELLS;

/// Level indices (0-based) by name.
pub const UNDERWORLD: usize = 0;
pub const GROUND: usize = 1;
pub const SKY: usize = 2;

/// The 96 valid bits of one level.
pub const LEVEL_MASK: u128 = (1u128 << CELLS) - 1;

/// One of the 288 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// `level`, `file`, `rank` are 0-based and must be in range.
    pub const fn new(level: usize, file: usize, rank: usize) -> Square {
        Square((level * CELLS + rank * FILES + file) as u16)
    }
    /// Square from its index in `0..288`.
    pub const fn from_index(i: usize) -> Square {
        Square(i as u16)
    }
    /// Square from a level and a cell (`rank * 12 + file`).
    pub const fn at(level: usize, cell: usize) -> Square {
        Square((level * CELLS + cell) as u16)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// 0-based level: 0 Underworld, 1 Ground, 2 Sky.
    pub const fn level(self) -> usize {
        self.0 as usize / CELLS
    }
    /// Position inside the level, `rank * 12 + file`.
    pub const fn cell(self) -> usize {
        self.0 as usize % CELLS
    }
    pub const fn file(self) -> usize {
        self.cell() % FILES
    }
    pub const fn rank(self) -> usize {
        self.cell() / FILES
    }

    /// The square at `(dlevel, dfile, drank)` from here, if it exists.
    pub fn offset(self, dl: i32, df: i32, dr: i32) -> Option<Square> {
        let l = self.level() as i32 + dl;
        let f = self.file() as i32 + df;
        let r = self.rank() as i32 + dr;
        let inside = (0..LEVELS as i32).contains(&l)
            && (0..FILES as i32).contains(&f)
            && (0..RANKS as i32).contains(&r);
        inside.then(|| Square::new(l as usize, f as usize, r as usize))
    }

    /// Read `2g1`-style text (exactly three characters).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 3 {
            return None;
        }
        let level = b[0].checked_sub(b'1').filter(|&l| (l as usize) < LEVELS)?;
        let file = b[1].checked_sub(b'a').filter(|&f| (f as usize) < FILES)?;
        let rank = b[2].checked_sub(b'1').filter(|&r| (r as usize) < RANKS)?;
        Some(Square::new(level as usize, file as usize, rank as usize))
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES).map(Square::from_index)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.level() + 1,
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The two sides. Gold moves first and is `Player(0)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    Gold = 0,
    Scarlet = 1,
}

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::Gold => Side::Scarlet,
            Side::Scarlet => Side::Gold,
        }
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    /// +1 rank per step forward for Gold, -1 for Scarlet.
    pub const fn forward(self) -> i32 {
        match self {
            Side::Gold => 1,
            Side::Scarlet => -1,
        }
    }
    /// The rank (0-based) a Warrior promotes on.
    pub const fn last_rank(self) -> usize {
        match self {
            Side::Gold => RANKS - 1,
            Side::Scarlet => 0,
        }
    }
    pub const BOTH: [Side; 2] = [Side::Gold, Side::Scarlet];
}

/// A set of squares: one `u128` per level, only the low 96 bits used.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bits(pub [u128; LEVELS]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; LEVELS]);
    pub const ALL: Bits = Bits([LEVEL_MASK; LEVELS]);

    pub const fn has(self, sq: Square) -> bool {
        self.0[sq.level()] >> sq.cell() & 1 != 0
    }
    pub fn set(&mut self, sq: Square) {
        self.0[sq.level()] |= 1 << sq.cell();
    }
    pub fn clear(&mut self, sq: Square) {
        self.0[sq.level()] &= !(1 << sq.cell());
    }
    pub fn single(sq: Square) -> Bits {
        let mut b = Bits::EMPTY;
        b.set(sq);
        b
    }
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }
    pub fn any(self) -> bool {
        !self.is_empty()
    }
    #[inline]
    pub fn count(self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }
    /// `self` without the squares of `other`.
    pub fn without(self, other: Bits) -> Bits {
        Bits([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
        ])
    }
    /// The complement within the 288 squares.
    pub fn complement(self) -> Bits {
        Bits::ALL.without(self)
    }
    pub fn iter(self) -> BitsIter {
        BitsIter {
            bits: self.0,
            level: 0,
        }
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    fn bitand(self, o: Bits) -> Bits {
        Bits([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
}

impl BitOr for Bits {
    type Output = Bits;
    fn bitor(self, o: Bits) -> Bits {
        Bits([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
}

impl BitAndAssign for Bits {
    fn bitand_assign(&mut self, o: Bits) {
        *self = *self & o;
    }
}

impl BitOrAssign for Bits {
    fn bitor_assign(&mut self, o: Bits) {
        *self = *self | o;
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Squares of a set in index order.
pub struct BitsIter {
    bits: [u128; LEVELS],
    level: usize,
}

impl Iterator for BitsIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.level < LEVELS {
            let b = self.bits[self.level];
            if b != 0 {
                self.bits[self.level] = b & (b - 1);
                return Some(Square::at(self.level, b.trailing_zeros() as usize));
            }
            self.level += 1;
        }
        None
    }
}

/// Iterate the cells (0..96) of one level's bits.
#[inline]
pub fn cells(mut b: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let c = b.trailing_zeros() as usize;
            b &= b - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_offsets_stay_on_the_board() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        let g1 = Square::parse("2g1").unwrap();
        assert_eq!((g1.level(), g1.file(), g1.rank()), (GROUND, 6, 0));
        assert_eq!(
            g1.offset(1, -1, 1).map(|s| s.to_string()),
            Some("3f2".into())
        );
        assert_eq!(g1.offset(0, 0, -1), None);
        assert_eq!(g1.offset(2, 0, 0), None);
        for bad in ["", "4a1", "2m1", "2a9", "2a10", "a21", "2A1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn bits_iterate_in_index_order() {
        let mut b = Bits::EMPTY;
        for s in ["3l8", "1a1", "2g1", "1l8"] {
            b.set(Square::parse(s).unwrap());
        }
        let v: Vec<String> = b.iter().map(|s| s.to_string()).collect();
        assert_eq!(v, ["1a1", "1l8", "2g1", "3l8"]);
        assert_eq!(b.count(), 4);
        assert_eq!(b.complement().count(), 284);
        b.clear(Square::parse("1a1").unwrap());
        assert!(!b.has(Square::parse("1a1").unwrap()));
    }
}
