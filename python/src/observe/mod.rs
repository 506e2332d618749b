//! Observation tensors: each game's position as planes of numbers seen by
//! one player, for learning code. The planes of each game are listed in
//! `python/README.md`; every plane is laid out like the game's board.
//!
//! Every tensor is relative to the observer: its own pieces come first,
//! then the opponents' in seat order after it, and a constant plane says
//! whether the observer is to move. The board itself is never turned, except
//! in Ad Elta Stelpur, where the observer's cells are counted from its own
//! start (both players run the same circuit, half a lap apart).

mod dragonchess;
mod gildervaik;
mod phylde;
mod stelpur;

use tabula_core::{Game, Player, Turn};

/// A game's observation tensor.
pub trait Observe: Game {
    /// The tensor's shape: planes first, then the board's dimensions.
    fn observation_shape(&self) -> &'static [usize];
    /// Write the tensor of `observer` into `out` (zeroed, of the shape's
    /// size), in C order.
    fn observe(&self, observer: Player, out: &mut [f32]);
}

/// Whether `observer` is to move (a chance node or the end: no).
fn to_move(game: &impl Game, observer: Player) -> bool {
    game.turn() == Turn::Player(observer)
}

/// Fill plane `plane` (of `size` cells) with `value`.
fn fill(out: &mut [f32], plane: usize, size: usize, value: f32) {
    out[plane * size..(plane + 1) * size].fill(value);
}
