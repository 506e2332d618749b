//! The position: piece sets, a board array, and the incremental hash.
//!
//! Pieces are kept twice: one 288-bit set per kind and per side (move
//! generation and check detection) and a byte per square (what stands
//! where). About 1.1 KB, no heap except the shared repetition chunks, so a
//! clone is a short copy.

use crate::geometry::{Bits, Side, Square, GROUND, SQUARES, UNDERWORLD};
use crate::history::History;
use crate::options::Options;
use crate::piece::{Kind, Piece};
use std::fmt;
use tabula_core::zobrist;

/// One Zobrist key per (piece, square), then the side key.
static KEYS: [u64; 30 * SQUARES + 1] = zobrist::keys(0xD4A6_0C4E_5515_1985);
const SIDE_KEY: usize = 30 * SQUARES;

fn key(p: Piece, sq: Square) -> u64 {
    KEYS[p.index() * SQUARES + sq.index()]
}

/// Board byte: 0 empty, else `1 + side * 16 + kind`.
const EMPTY: u8 = 0;

fn encode(p: Piece) -> u8 {
    1 + (p.side.index() as u8) * 16 + p.kind.index() as u8
}

fn decode(b: u8) -> Option<Piece> {
    if b == EMPTY {
        return None;
    }
    let side = if (b - 1) >> 4 == 0 {
        Side::Gold
    } else {
        Side::Scarlet
    };
    Some(Piece::new(side, Kind::ALL[((b - 1) & 15) as usize]))
}

/// A Dragonchess position with the state needed by the draw rules.
#[derive(Clone)]
pub struct Dragonchess {
    pub(crate) kinds: [Bits; Kind::COUNT],
    pub(crate) sides: [Bits; 2],
    board: [u8; SQUARES],
    pub(crate) kings: [Square; 2],
    pub(crate) side: Side,
    /// Plies since the last capture or Warrior move.
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// Whether the side to move is in check (computed after each move).
    pub(crate) in_check: bool,
    /// Whether this placement occurred twice before (threefold repetition).
    pub(crate) threefold: bool,
    pub(crate) history: History,
    pub(crate) options: Options,
}

impl Dragonchess {
    /// An empty board, Gold to move.
    pub(crate) fn empty(options: Options) -> Dragonchess {
        Dragonchess {
            kinds: [Bits::EMPTY; Kind::COUNT],
            sides: [Bits::EMPTY; 2],
            board: [EMPTY; SQUARES],
            kings: [Square::from_index(0); 2],
            side: Side::Gold,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            in_check: false,
            threefold: false,
            history: History::default(),
            options,
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.board[sq.index()])
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Whether the side to move is in check (a frozen King too under
    /// `basilisk_freeze_is_check`).
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// The squares of `side`'s pieces of `kind`.
    pub fn pieces(&self, side: Side, kind: Kind) -> Bits {
        self.kinds[kind.index()] & self.sides[side.index()]
    }

    pub(crate) fn occupied(&self) -> Bits {
        self.sides[0] | self.sides[1]
    }

    /// The pieces of `side` frozen by the other side's Basilisks: those on
    /// the Ground straight above one.
    pub fn frozen(&self, side: Side) -> Bits {
        let basilisks = self.pieces(side.other(), Kind::Basilisk);
        let mut b = Bits::EMPTY;
        b.0[GROUND] = self.sides[side.index()].0[GROUND] & basilisks.0[UNDERWORLD];
        b
    }

    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        self.board[sq.index()] = encode(p);
        self.kinds[p.kind.index()].set(sq);
        self.sides[p.side.index()].set(sq);
        self.hash ^= key(p, sq);
        if p.kind == Kind::King {
            self.kings[p.side.index()] = sq;
        }
    }

    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let p = decode(self.board[sq.index()])?;
        self.board[sq.index()] = EMPTY;
        self.kinds[p.kind.index()].clear(sq);
        self.sides[p.side.index()].clear(sq);
        self.hash ^= key(p, sq);
        Some(p)
    }

    pub(crate) fn set_side(&mut self, side: Side) {
        if side != self.side {
            self.hash ^= KEYS[SIDE_KEY];
            self.side = side;
        }
    }
}

impl fmt::Debug for Dragonchess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Dragonchess")
            .field(&self.position_string())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_bytes_round_trip() {
        for side in Side::BOTH {
            for kind in Kind::ALL {
                let p = Piece::new(side, kind);
                assert_eq!(decode(encode(p)), Some(p));
            }
        }
        assert_eq!(decode(EMPTY), None);
    }
}
