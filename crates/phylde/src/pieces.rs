//! Sides, piece kinds, the one-byte cell encoding of the mailbox, and a
//! 324-bit set of squares.

use crate::geometry::{Sq, SQUARES};

/// South (`Player(0)`, upper case) or North (`Player(1)`, lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    South = 0,
    North = 1,
}

impl Side {
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
    pub const fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::South
        } else {
            Side::North
        }
    }
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }
}

/// A piece kind. The King stands on a point, the others on squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Soldier = 0,
    Archer = 1,
    Cavalier = 2,
    King = 3,
}

impl Kind {
    /// The kinds that stand on squares.
    pub const ON_SQUARES: [Kind; 3] = [Kind::Soldier, Kind::Archer, Kind::Cavalier];

    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn from_index(i: usize) -> Kind {
        match i {
            0 => Kind::Soldier,
            1 => Kind::Archer,
            2 => Kind::Cavalier,
            _ => Kind::King,
        }
    }
    /// Upper-case letter (FEN, turn records).
    pub const fn letter(self) -> char {
        match self {
            Kind::Soldier => 'S',
            Kind::Archer => 'A',
            Kind::Cavalier => 'C',
            Kind::King => 'R',
        }
    }
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'S' => Some(Kind::Soldier),
            'A' => Some(Kind::Archer),
            'C' => Some(Kind::Cavalier),
            'R' => Some(Kind::King),
            _ => None,
        }
    }
    /// Actions a turn of this kind may have (spec §5: L).
    pub const fn turn_limit(self) -> u8 {
        match self {
            Kind::Soldier => 5,
            Kind::Archer => 2,
            Kind::Cavalier | Kind::King => 1,
        }
    }
    /// Reach of moves and attacks in squares (the King attacks nothing).
    pub const fn range(self) -> usize {
        match self {
            Kind::Soldier => 1,
            Kind::Archer => 2,
            Kind::Cavalier => 5,
            Kind::King => 0,
        }
    }
    /// Pieces of this kind in a full army.
    pub const fn full_count(self) -> u8 {
        match self {
            Kind::Soldier => 20,
            Kind::Archer => 10,
            Kind::Cavalier => 6,
            Kind::King => 1,
        }
    }
}

/// One mailbox cell: `EMPTY`, a piece `1 + kind + 4 * side` (1..=3 South,
/// 5..=7 North), or a quad square `QUAD + side` of that side's King.
pub type Cell = u8;
pub const EMPTY: Cell = 0;
pub const QUAD: Cell = 8;
/// The cell beyond the board edge (see `geometry::WALL`).
pub const WALL_CELL: Cell = 15;

pub const fn piece_cell(side: Side, kind: Kind) -> Cell {
    1 + kind as u8 + 4 * side as u8
}
pub const fn quad_cell(side: Side) -> Cell {
    QUAD + side as u8
}
pub const fn is_piece(c: Cell) -> bool {
    c != EMPTY && c < QUAD
}
/// Side of a piece cell.
pub const fn cell_side(c: Cell) -> Side {
    Side::from_index((c >> 2) as usize & 1)
}
/// Kind of a piece cell.
pub const fn cell_kind(c: Cell) -> Kind {
    Kind::from_index(((c & 3) - 1) as usize)
}

/// What a cell is to a mover of one side: free, an enemy to take, or a wall.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Empty,
    Enemy,
    Blocked,
}

/// `CLASS[mover][cell]`, so the hot loops branch on one table read.
pub static CLASS: [[Class; 16]; 2] = {
    let mut t = [[Class::Blocked; 16]; 2];
    let mut s = 0;
    while s < 2 {
        t[s][EMPTY as usize] = Class::Empty;
        let mut c = 1;
        while c < QUAD as usize {
            if c != 4 && (c >> 2) & 1 != s {
                t[s][c] = Class::Enemy;
            }
            c += 1;
        }
        s += 1;
    }
    t
};

/// A set of squares, one bit per square index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 6]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; 6]);

    #[inline]
    pub fn contains(&self, sq: usize) -> bool {
        self.0[sq >> 6] >> (sq & 63) & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, sq: usize) {
        self.0[sq >> 6] |= 1 << (sq & 63);
    }
    #[inline]
    pub fn remove(&mut self, sq: usize) {
        self.0[sq >> 6] &= !(1 << (sq & 63));
    }
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 6]
    }
    #[inline]
    pub fn union(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0) {
            *a |= b;
        }
        r
    }
    #[inline]
    pub fn minus(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0) {
            *a &= !b;
        }
        r
    }
    /// Squares in increasing index order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(i, mut w)| {
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + b
                })
            })
        })
    }
    pub fn squares(self) -> impl Iterator<Item = Sq> {
        self.iter().map(|i| Sq(i as u16))
    }
}

const _: () = assert!(SQUARES <= 6 * 64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_encode_side_and_kind() {
        for side in [Side::South, Side::North] {
            for kind in Kind::ON_SQUARES {
                let c = piece_cell(side, kind);
                assert!(is_piece(c));
                assert_eq!((cell_side(c), cell_kind(c)), (side, kind));
                assert_eq!(CLASS[side.index()][c as usize], Class::Blocked);
                assert_eq!(CLASS[side.other().index()][c as usize], Class::Enemy);
            }
            assert!(!is_piece(quad_cell(side)));
            assert_eq!(CLASS[0][quad_cell(side) as usize], Class::Blocked);
        }
    }

    #[test]
    fn bits_iterate_in_order() {
        let mut b = Bits::EMPTY;
        for i in [323, 0, 64, 63, 200] {
            b.insert(i);
        }
        assert_eq!(b.iter().collect::<Vec<_>>(), [0, 63, 64, 200, 323]);
        b.remove(64);
        assert_eq!(b.len(), 4);
        assert!(!b.contains(64) && b.contains(323));
    }
}
