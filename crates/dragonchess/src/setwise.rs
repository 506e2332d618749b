//! Set-wise generation for the numerous forward-stepping kinds: Warriors
//! on the Ground, Dwarves below the Sky, Sylphs on the Sky (24 of the 42
//! pieces a side at the start).
//!
//! Their rules are a few fixed steps, so the destinations of all of them
//! at once come from shifting the level's set of them (like a chess
//! engine's pawns), and each target gives its origin back by the same
//! offset. This skips the per-piece table look-up, which costs more than
//! the few moves these pieces have. Only pieces whose moves need no replay
//! go here; the move generator handles the rest one by one.

use crate::geometry::{cells, Square, FILES, GROUND, LEVEL_MASK, SKY, UNDERWORLD};
use crate::movegen::{Frame, Sink};
use crate::moves::Move;
use crate::piece::Kind;
use crate::state::Dragonchess;
use std::ops::ControlFlow;

/// Cells of the first and the last file.
const FILE_A: u128 = {
    let mut b = 0;
    let mut rank = 0;
    while rank < 8 {
        b |= 1 << (rank * FILES);
        rank += 1;
    }
    b
};
const FILE_L: u128 = FILE_A << (FILES - 1);

/// The cells of `b` moved `df` files and `dr` ranks (each -1, 0 or 1),
/// those leaving the level dropped.
#[inline(always)]
fn step(b: u128, df: i32, dr: i32) -> u128 {
    let b = match df {
        1 => b & !FILE_L,
        -1 => b & !FILE_A,
        _ => b,
    };
    let delta = dr * FILES as i32 + df;
    if delta >= 0 {
        (b << delta) & LEVEL_MASK
    } else {
        b >> -delta
    }
}

impl Dragonchess {
    /// Feed the moves of the `kind` pieces in `pieces` (one set per level,
    /// none needing a replay) that this module handles; continues with
    /// those left to the caller.
    #[inline(always)]
    pub(crate) fn generate_setwise<S: Sink>(
        &self,
        f: &Frame,
        kind: Kind,
        pieces: [u128; 3],
        sink: &mut S,
    ) -> ControlFlow<(), [u128; 3]> {
        let mut left = pieces;
        match kind {
            Kind::Warrior => {
                left[GROUND] = 0;
                self.setwise_plane(f, kind, GROUND, pieces[GROUND], sink)?;
            }
            Kind::Sylph => {
                // Ground Sylphs (back up or home) are left to the caller.
                let s = pieces[SKY];
                left[SKY] = 0;
                self.setwise_plane(f, kind, SKY, s, sink)?;
                // c straight down.
                let down = s & f.enemy.0[GROUND];
                emit_shifted(sink, SKY, GROUND, down, 0, Move::CAPTURE)?;
            }
            Kind::Dwarf => {
                let (u, g) = (pieces[UNDERWORLD], pieces[GROUND]);
                left[UNDERWORLD] = 0;
                left[GROUND] = 0;
                self.setwise_plane(f, kind, UNDERWORLD, u, sink)?;
                // c straight up.
                let up = u & f.enemy.0[GROUND];
                emit_shifted(sink, UNDERWORLD, GROUND, up, 0, Move::CAPTURE)?;
                self.setwise_plane(f, kind, GROUND, g, sink)?;
                // m straight down.
                let down = g & !f.occ.0[UNDERWORLD];
                emit_shifted(sink, GROUND, UNDERWORLD, down, 0, 0)?;
            }
            _ => {}
        }
        ControlFlow::Continue(left)
    }

    /// The moves of the `kind` pieces in `b` that stay on `level`.
    #[inline(always)]
    fn setwise_plane<S: Sink>(
        &self,
        f: &Frame,
        kind: Kind,
        level: usize,
        b: u128,
        sink: &mut S,
    ) -> ControlFlow<()> {
        if b == 0 {
            return ControlFlow::Continue(());
        }
        let fwd = self.side.forward();
        let (e, x) = (!f.occ.0[level] & LEVEL_MASK, f.enemy.0[level]);
        // Warriors promote on their last rank.
        let promote = if kind == Kind::Warrior {
            0xFFF << (self.side.last_rank() * FILES)
        } else {
            0
        };
        let mut emit = |targets: u128, df: i32, dr: i32, flags: u8| {
            let delta = dr * FILES as i32 + df;
            emit_shifted(sink, level, level, targets & !promote, delta, flags)?;
            let promoted = flags | Move::PROMOTION;
            emit_shifted(sink, level, level, targets & promote, delta, promoted)
        };
        match kind {
            // m diagonally forward, c straight forward.
            Kind::Sylph => {
                emit(step(b, -1, fwd) & e, -1, fwd, 0)?;
                emit(step(b, 1, fwd) & e, 1, fwd, 0)?;
                emit(step(b, 0, fwd) & x, 0, fwd, Move::CAPTURE)
            }
            // m straight forward, c diagonally forward.
            Kind::Warrior => {
                emit(step(b, 0, fwd) & e, 0, fwd, 0)?;
                emit(step(b, -1, fwd) & x, -1, fwd, Move::CAPTURE)?;
                emit(step(b, 1, fwd) & x, 1, fwd, Move::CAPTURE)
            }
            // Dwarf: m straight forward and sideways, c diagonally forward.
            _ => {
                emit(step(b, 0, fwd) & e, 0, fwd, 0)?;
                emit(step(b, -1, 0) & e, -1, 0, 0)?;
                emit(step(b, 1, 0) & e, 1, 0, 0)?;
                emit(step(b, -1, fwd) & x, -1, fwd, Move::CAPTURE)?;
                emit(step(b, 1, fwd) & x, 1, fwd, Move::CAPTURE)
            }
        }
    }
}

/// Feed a move to each cell of `targets` on `to_level`, from the cell
/// `delta` cells back on `from_level`.
#[inline(always)]
fn emit_shifted<S: Sink>(
    sink: &mut S,
    from_level: usize,
    to_level: usize,
    targets: u128,
    delta: i32,
    flags: u8,
) -> ControlFlow<()> {
    if S::COUNTS {
        sink.add(targets.count_ones());
        return ControlFlow::Continue(());
    }
    for cell in cells(targets) {
        let from = (cell as i32 - delta) as usize;
        sink.accept(Move {
            from: Square::at(from_level, from),
            to: Square::at(to_level, cell),
            flags,
        })?;
    }
    ControlFlow::Continue(())
}
