//! Gildervaik: shape (7, 10, 19) = planes × rows a-j × columns; row r has
//! cells 0..=2r (cell `c4` is row 2, column 4); the other columns are
//! padding.

use super::{fill, Observe};
use gildervaik::Gildervaik;
use tabula_core::{Game, Player, Turn};

const ROWS: usize = 10;
const COLS: usize = 19;
const SIZE: usize = ROWS * COLS;
const SHAPE: [usize; 3] = [7, ROWS, COLS];

impl Observe for Gildervaik {
    fn observation_shape(&self) -> &'static [usize] {
        &SHAPE
    }

    /// Planes 0-2: the pawns of the observer, of the next seat after it and
    /// of the seat after that; 3: the board's cells; 4-6: 1 if the player to
    /// move is the observer / the next seat / the one after.
    fn observe(&self, observer: Player, out: &mut [f32]) {
        let at = |row: i32, col: i32| row as usize * COLS + col as usize;
        for k in 0..3 {
            let seat = (observer.index() + k) % 3;
            for cell in self.pawns_of(seat) {
                out[k * SIZE + at(cell.row(), cell.col())] = 1.0;
            }
        }
        for row in 0..ROWS as i32 {
            for col in 0..=2 * row {
                out[3 * SIZE + at(row, col)] = 1.0;
            }
        }
        if let Turn::Player(p) = self.turn() {
            let k = (p.index() + 3 - observer.index()) % 3;
            fill(out, 4 + k, SIZE, 1.0);
        }
    }
}
