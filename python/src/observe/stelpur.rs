//! Ad Elta Stelpur: shape (62,), a flat vector; cells are counted from the
//! observer's own start, so both players see the same picture of their
//! own position.

use super::{to_move, Observe};
use stelpur::Stelpur;
use tabula_core::{Player, Turn};

const CELLS: usize = 24;
/// Die values a roll can give: 1-6, and 12 for Ludii's doubled 6-6.
const VALUES: usize = 12;
const SHAPE: [usize; 1] = [2 * CELLS + VALUES + 2];

impl Observe for Stelpur {
    fn observation_shape(&self) -> &'static [usize] {
        &SHAPE
    }

    /// 0-23: the observer's pawns, index k for the k-th cell from its start
    /// (cell k+1 for the first player, cell (k+12) mod 24 + 1 for the
    /// second); 24-47: the opponent's pawns, same indices; 48-59: how many
    /// die values v = 1..12 are left to use in the roll in progress (at
    /// 47+v); 60: 1 if the observer is to move; 61: 1 if waiting for a roll.
    fn observe(&self, observer: Player, out: &mut [f32]) {
        let shift = 12 * observer.index();
        for (base, p) in [(0, observer), (CELLS, Player(1 - observer.0))] {
            let mask = self.pawns(p);
            for cell in (0..CELLS).filter(|c| mask & (1 << c) != 0) {
                out[base + (cell + CELLS - shift) % CELLS] = 1.0;
            }
        }
        if let Some((_, left)) = self.dice() {
            for v in left.distinct().filter(|&v| (1..=VALUES as u8).contains(&v)) {
                out[2 * CELLS + usize::from(v) - 1] = f32::from(left.count(v));
            }
        }
        out[2 * CELLS + VALUES] = f32::from(u8::from(to_move(self, observer)));
        out[2 * CELLS + VALUES + 1] = f32::from(u8::from(self.turn() == Turn::Chance));
    }
}
