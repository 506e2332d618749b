//! The core conformance harness in both modes and under rule variants, and
//! the perft data file.

mod common;

use common::game;
use gildervaik::Gildervaik;
use tabula_core::conformance::{check_games, Config};
use tabula_core::perft_data::check_file;

fn harness(specs: &[&str], games: usize) -> u64 {
    let starts: Vec<Gildervaik> = specs.iter().map(|s| game(s, "start")).collect();
    check_games(
        &starts,
        &Config {
            games,
            seed: 7,
            check_every: 3,
        },
    )
}

#[test]
fn conformance_conquest() {
    let plies = harness(
        &[
            "gildervaik",
            "gildervaik(first_player=c,chain_jumps=false,win_zone=either)",
            "gildervaik(jump_own_pawns=true,confine_in_target=true,evacuation_turn=none,max_plies=300,cap_result=progress)",
            "gildervaik(conquest_long_jumps=false,blocked_player=eliminated,evacuation_turn=30)",
        ],
        4,
    );
    assert!(plies > 1000, "{plies}");
}

#[test]
fn conformance_warrior() {
    let plies = harness(
        &[
            "gildervaik(mode=warrior)",
            "gildervaik(mode=warrior,first_player=b,warrior_long_jumps=true,untouchable=no_jump,majority_capture=true)",
            "gildervaik(mode=warrior,home_capturable=true,capture_continuation=optional,limit_rank=captures,no_capture_limit=30)",
            "gildervaik(mode=warrior,capture_removal=end_of_move,jump_own_pawns=true,blocked_player=eliminated)",
        ],
        4,
    );
    assert!(plies > 1000, "{plies}");
}

#[test]
fn perft_data_file() {
    let text = include_str!("data/gildervaik.perft");
    assert!(check_file::<Gildervaik>(text, 3) >= 36);
}
