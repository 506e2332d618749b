//! The action type: a step, a jump move `(from, to)`, a warrior capture
//! path, or a forced pass. `Copy`, with the landing cells inline.

use crate::geometry::Cell;

/// The most captures one move can make: every opposing pawn (2 × 10).
pub const MAX_PATH: usize = 20;

const PASS_FROM: u8 = u8::MAX;

/// One Gildervaik action.
///
/// A step, a conquest jump move (identified by its end cells only) and a
/// warrior non-capturing jump have one landing cell; a warrior capture lists
/// every landing cell, since the path decides which pawns are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    len: u8,
    capture: bool,
    /// Landing cells; unused slots stay 0 so equal moves compare equal.
    path: [u8; MAX_PATH],
}

impl Move {
    /// The forced pass of a player without a legal move.
    pub const PASS: Move = Move {
        from: PASS_FROM,
        len: 0,
        capture: false,
        path: [0; MAX_PATH],
    };

    /// A step or a non-capturing jump move.
    #[inline]
    pub fn quiet(from: Cell, to: Cell) -> Move {
        let mut path = [0; MAX_PATH];
        path[0] = to.id() as u8;
        Move {
            from: from.id() as u8,
            len: 1,
            capture: false,
            path,
        }
    }

    /// A capture sequence through `landings` (1 to `MAX_PATH` cells).
    pub fn capture(from: Cell, landings: &[Cell]) -> Move {
        let mut path = [0; MAX_PATH];
        for (slot, x) in path.iter_mut().zip(landings) {
            *slot = x.id() as u8;
        }
        Move {
            from: from.id() as u8,
            len: landings.len().min(MAX_PATH) as u8,
            capture: true,
            path,
        }
    }

    pub fn is_pass(&self) -> bool {
        self.from == PASS_FROM
    }

    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// The moving pawn's cell (`None` for a pass).
    pub fn from(&self) -> Option<Cell> {
        (!self.is_pass()).then(|| Cell::of(self.from))
    }

    /// Where the pawn ends (`None` for a pass).
    pub fn to(&self) -> Option<Cell> {
        self.landings().last()
    }

    /// The landing cells in order (one for a quiet move, none for a pass).
    pub fn landings(&self) -> impl Iterator<Item = Cell> + '_ {
        self.path[..self.len as usize]
            .iter()
            .map(|&id| Cell::of(id))
    }

    /// Number of pawns taken (capture sequences only).
    pub fn captures(&self) -> usize {
        if self.capture {
            self.len as usize
        } else {
            0
        }
    }
}
