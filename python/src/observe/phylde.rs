//! Phylde: shape (11, 18, 18) = planes × ranks 1-18 × files a-r, square
//! `c5` at [p, 4, 2].

use super::{fill, to_move, Observe};
use phylde::{Kind, Phylde, Side, Sq};
use tabula_core::Player;

const SIZE: usize = 18 * 18;
const SHAPE: [usize; 3] = [11, 18, 18];

impl Observe for Phylde {
    fn observation_shape(&self) -> &'static [usize] {
        &SHAPE
    }

    /// Planes 0-2: the observer's soldiers, archers, cavaliers; 3: the four
    /// squares around its King's point; 4-7: the same for the opponent;
    /// 8: the pieces that have acted in the turn in progress; 9: the actions
    /// played in this turn divided by its limit (0 at a turn's start);
    /// 10: 1 if the observer is to move.
    fn observe(&self, observer: Player, out: &mut [f32]) {
        let me = Side::from_index(observer.index());
        for index in 0..SIZE {
            if let Some((side, kind)) = self.piece(Sq(index as u16)) {
                let base = if side == me { 0 } else { 4 };
                out[(base + kind.index()) * SIZE + index] = 1.0;
            }
        }
        for (base, side) in [(0, me), (4, me.other())] {
            for sq in self.king(side).quad() {
                out[(base + Kind::King.index()) * SIZE + sq.index()] = 1.0;
            }
        }
        let turn = self.turn_state();
        for sq in turn.acted.squares() {
            out[8 * SIZE + sq.index()] = 1.0;
        }
        if let Some(kind) = turn.kind {
            let used = f32::from(turn.count) / f32::from(kind.turn_limit());
            fill(out, 9, SIZE, used);
        }
        if to_move(self, observer) {
            fill(out, 10, SIZE, 1.0);
        }
    }
}
