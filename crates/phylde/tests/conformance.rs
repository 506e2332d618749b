//! The core conformance harness on random games: from the presets (long
//! games, so every 25th ply is checked in full) and from sparse positions
//! (short games, every ply checked).

mod common;

use common::preset;
use phylde::{Options, Phylde, Setup, Side};
use tabula_core::conformance::{check_games, Config};
use tabula_core::Game;

#[test]
fn conformance_from_the_presets() {
    let free = Options {
        setup: Setup::Free,
        ..Options::default()
    };
    let starts = [
        preset(Setup::Lines, Side::South),
        preset(Setup::Block, Side::North),
        preset(Setup::Corners, Side::South),
        preset(Setup::CornersDrawn, Side::North),
        Phylde::from_position(&free, "18/8r9/6cccccc6/4aaaaaaaaaa4/6ssssss6/6ssssss6/5ssssssss5/18/18/18/18/5SSSSSSSS5/6SSSSSS6/6SSSSSS6/4AAAAAAAAAA4/6CCCCCC6/18/8R9 N").unwrap(),
    ];
    let config = Config {
        games: 2,
        seed: 3,
        check_every: 25,
    };
    let plies = check_games(&starts, &config);
    assert!(plies > 10_000, "the harness played too little: {plies}");
}

#[test]
fn conformance_from_sparse_positions() {
    let short = Options {
        no_capture_turns: 30,
        ..Options::default()
    };
    let fens = [
        // E7 / E9: surrounds within reach.
        "18/18/18/18/18/9A8/18/13C4/9r8/8S9/11S6/18/18/18/18/18/2R15/18 S",
        "18/18/18/18/18/9A8/18/12sC4/9r1S6/8S9/18/18/18/18/18/18/2R15/18 N",
        // Two small armies, so captures, draws and wins all happen.
        "18/8r9/6cc10/5aaa10/6ss10/6ss10/18/18/18/18/18/18/10SS6/10SS6/10AAA5/10CC6/18/8R9 S",
    ];
    let starts: Vec<Phylde> = fens
        .iter()
        .map(|f| Phylde::from_position(&short, f).unwrap())
        .collect();
    let config = Config {
        games: 15,
        seed: 4,
        check_every: 1,
    };
    let plies = check_games(&starts, &config);
    assert!(plies > 1_000, "the harness played too little: {plies}");
}
