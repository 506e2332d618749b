//! Dragonchess: shape (34, 3, 8, 12) = planes × levels (Underworld, Ground,
//! Sky) × ranks 1-8 × files a-l, square `2g1` at [p, 1, 0, 6].

use super::{fill, to_move, Observe};
use dragonchess::{Dragonchess, Kind, Side, Square};
use tabula_core::Player;

const SQUARES: usize = 3 * 8 * 12;
const SHAPE: [usize; 4] = [34, 3, 8, 12];

fn side(p: Player) -> Side {
    if p.0 == 0 {
        Side::Gold
    } else {
        Side::Scarlet
    }
}

impl Observe for Dragonchess {
    fn observation_shape(&self) -> &'static [usize] {
        &SHAPE
    }

    /// Planes 0-14: the observer's pieces by kind in notation order
    /// (SGRWOUHTCMKPDBE), 15-29: the opponent's; 30/31: the observer's /
    /// the opponent's pieces frozen by a Basilisk; 32: 1 if the observer is
    /// to move; 33: 1 if the side to move is in check.
    fn observe(&self, observer: Player, out: &mut [f32]) {
        let me = side(observer);
        for sq in Square::all() {
            if let Some(piece) = self.piece_at(sq) {
                let base = if piece.side == me { 0 } else { Kind::COUNT };
                out[(base + piece.kind.index()) * SQUARES + sq.index()] = 1.0;
            }
        }
        for (plane, s) in [(30, me), (31, me.other())] {
            for sq in self.frozen(s).iter() {
                out[plane * SQUARES + sq.index()] = 1.0;
            }
        }
        if to_move(self, observer) {
            fill(out, 32, SQUARES, 1.0);
        }
        if self.in_check() {
            fill(out, 33, SQUARES, 1.0);
        }
    }
}
