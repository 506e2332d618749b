//! The core conformance harness on the start position under each option
//! and on a sparse middle-game position.

use dragonchess::{Dragonchess, Options};
use tabula_core::conformance::{check_games, Config};
use tabula_core::Game;

#[test]
fn conformance_harness_passes() {
    let variants = [
        Options::default(),
        Options {
            hero_vertical: true,
            ..Options::default()
        },
        Options {
            basilisk_freeze_is_check: true,
            elemental_climb_quiet: true,
            no_capture_plies: 30,
            ..Options::default()
        },
    ];
    let mut starts: Vec<Dragonchess> = variants
        .iter()
        .map(|o| Dragonchess::new_game(o).unwrap())
        .collect();
    starts.push(
        Dragonchess::from_position(
            &Options::default(),
            "6r5/12/12/4S7/12/12/12/12|3k8/2w9/12/4M7/12/5O6/12/6K5|12/12/12/4b7/12/12/12/4E7 g 0 1",
        )
        .unwrap(),
    );
    let plies = check_games(
        &starts,
        &Config {
            games: 3,
            seed: 7,
            check_every: 40,
        },
    );
    assert!(plies > 1000, "only {plies} plies");
}
