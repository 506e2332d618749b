//! The 15 piece kinds and a side's piece.

use crate::geometry::Side;

/// A piece kind, in the order of the notation's letters `SGRWOUHTCMKPDBE`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    Sylph,
    Griffin,
    Dragon,
    Warrior,
    Oliphant,
    Unicorn,
    Hero,
    Thief,
    Cleric,
    Mage,
    King,
    Paladin,
    Dwarf,
    Basilisk,
    Elemental,
}

/// Gygax's letters (R = Dragon, D = Dwarf), indexed by `Kind`.
const LETTERS: &[u8; 15] = b"SGRWOUHTCMKPDBE";

impl Kind {
    pub const COUNT: usize = 15;
    pub const ALL: [Kind; Kind::COUNT] = [
        Kind::Sylph,
        Kind::Griffin,
        Kind::Dragon,
        Kind::Warrior,
        Kind::Oliphant,
        Kind::Unicorn,
        Kind::Hero,
        Kind::Thief,
        Kind::Cleric,
        Kind::Mage,
        Kind::King,
        Kind::Paladin,
        Kind::Dwarf,
        Kind::Basilisk,
        Kind::Elemental,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }
    /// The uppercase letter of the notation.
    pub fn letter(self) -> char {
        LETTERS[self.index()] as char
    }
    /// The kind of an uppercase or lowercase letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        let up = c.to_ascii_uppercase() as u8;
        LETTERS.iter().position(|&l| l == up).map(|i| Kind::ALL[i])
    }
    pub fn name(self) -> &'static str {
        [
            "Sylph",
            "Griffin",
            "Dragon",
            "Warrior",
            "Oliphant",
            "Unicorn",
            "Hero",
            "Thief",
            "Cleric",
            "Mage",
            "King",
            "Paladin",
            "Dwarf",
            "Basilisk",
            "Elemental",
        ][self.index()]
    }
}

/// A piece of one side, packed in a byte for the board array.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }
    /// Uppercase for Gold, lowercase for Scarlet (position strings).
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        match self.side {
            Side::Gold => c,
            Side::Scarlet => c.to_ascii_lowercase(),
        }
    }
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Gold
        } else {
            Side::Scarlet
        };
        Some(Piece { side, kind })
    }
    /// Index into per-piece tables (`side * 15 + kind`).
    pub const fn index(self) -> usize {
        self.side.index() * Kind::COUNT + self.kind.index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_letter(k.letter()), Some(k));
            for side in Side::BOTH {
                let p = Piece::new(side, k);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(Kind::from_letter('R'), Some(Kind::Dragon));
        assert_eq!(Kind::from_letter('x'), None);
    }
}
