//! Helpers shared by the integration tests.

use phylde::{Options, Phylde, Setup, Side};
use tabula_core::Game;

/// The start of a preset with the given first player.
pub fn preset(setup: Setup, first_player: Side) -> Phylde {
    Phylde::new_game(&Options {
        setup,
        first_player,
        ..Options::default()
    })
    .expect("presets have a start position")
}
