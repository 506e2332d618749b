//! The `ludii` preset plays what Ludii's game file plays (spec §9, §11):
//! sixes counted twice, doubled doubles, the first-turn rule, no protection,
//! stepwise play, last pawn with normal moves (and corner moves from a corner),
//! literal re-rolls.

mod common;
use common::*;
use tabula_core::{Game, Player, Turn};

const LUDII: &str = "stelpur(preset=ludii)";

#[test]
fn first_turn_sixes_start_from_cells_1_and_2() {
    let mut g = game(LUDII, START);
    play(&mut g, &["6-1"]);
    assert_eq!(
        g.position(),
        "1,2,3,4,5,6/13,14,15,16,17,18 1 6-1:1,6,6 0 1"
    );
    assert_eq!(firsts(&g), ["1:6-7", "6:1-7", "6:2-8"]);
    play(&mut g, &["6:1-7"]);
    // The second 6-move is due at once, again from cell 1 or 2.
    assert_eq!(firsts(&g), ["6:2-8"]);
    play(&mut g, &["6:2-8"]);
    assert_eq!(firsts(&g), ["1:8-9"]);
}

#[test]
fn a_pending_six_that_cannot_move_ends_the_roll_and_the_1_lapses() {
    let mut g = game(LUDII, "1,2,8/13,14,15 1 - 0 1");
    play(&mut g, &["6-1"]);
    assert_eq!(firsts(&g), ["1:2-3", "1:8-9", "6:1-7"]);
    play(&mut g, &["6:1-7"]);
    assert_eq!(g.position(), "2,7,8/13,14,15 2 - 1 2");
}

#[test]
fn doubles_are_doubled_and_2_2_to_5_5_end_the_turn() {
    let mut g = game(LUDII, START);
    play(&mut g, &["4-4"]);
    assert_eq!(g.position(), "1,2,3,4,5,6/13,14,15,16,17,18 2 - 1 2");
    let mut g = game(LUDII, START);
    play(&mut g, &["1-1"]);
    assert_eq!(firsts(&g), ["2:5-7", "2:6-8"]);
    play(&mut g, &["2:6-8", "2:8-10"]);
    assert_eq!((g.turn(), g.to_move()), (Turn::Chance, Player(0)));
    let mut g = game(LUDII, "1,2,3,4,5,6/13,14,15,16,17,18 2 - 0 2");
    play(&mut g, &["6-6"]);
    assert_eq!(
        firsts(&g),
        ["12:13x1", "12:14x2", "12:15x3", "12:16x4", "12:17x5", "12:18x6"]
    );
}

#[test]
fn no_protection_and_stepwise_play() {
    // T7's protected pawn on 12 can be taken, and the dead end of T9 is allowed.
    let mut g = game(LUDII, "6,11,13/12,20 1 - 0 2");
    play(&mut g, &["6-3"]);
    assert!(firsts(&g).contains(&"6:6x12".to_string()));
    let mut g = game(LUDII, "1,6,13,19/4 1 - 0 2");
    play(&mut g, &["6-1"]);
    assert!(firsts(&g).contains(&"1:6-7".to_string()));
}

#[test]
fn last_pawn_on_a_plain_cell_has_the_normal_step_only() {
    // §11: from a plain cell (9) no corner step, as Ludii's file plays.
    let mut g = game(LUDII, "9/13,18,22 1 - 0 2");
    play(&mut g, &["6-1"]);
    assert_eq!(firsts(&g), ["1:9-10", "6:9-15"]);
    let mut g = game(LUDII, "9/13,18,22 1 - 0 2");
    play(&mut g, &["1-1"]);
    assert_eq!(firsts(&g), ["2:9-11"]);
}

#[test]
fn last_pawn_on_a_corner_has_the_corner_and_the_normal_step() {
    // From corner 7: a 1 goes to 8 (cell) or 12 (next corner); a 6 gives
    // 13 either way, counted once.
    let mut g = game(LUDII, "7/13,18,22 1 - 0 2");
    play(&mut g, &["6-1"]);
    assert_eq!(firsts(&g), ["1:7-12", "1:7-8", "6:7x13"]);
    // 2 = two corners (7 -> 12 -> 13) or two cells.
    let mut g = game(LUDII, "7/13,18,22 1 - 0 2");
    play(&mut g, &["1-1"]);
    assert_eq!(firsts(&g), ["2:7-9", "2:7x13"]);
    // After a normal step to a plain cell, the next value steps normally.
    let mut g = game(LUDII, "7/13,18,22 1 - 0 2");
    play(&mut g, &["6-1", "1:7-8"]);
    assert_eq!(firsts(&g), ["6:8-14"]);
}

#[test]
fn without_the_option_a_last_pawn_on_a_plain_cell_steps_to_a_corner() {
    let mut g = game("stelpur(last_doubles=move11_66)", "9/13,18,22 1 - 0 2");
    play(&mut g, &["6-1"]);
    assert_eq!(firsts(&g), ["1:9-12", "6:9x13"]);
    let mut g = game("stelpur(last_pawn_normal_moves)", "9/13,18,22 1 - 0 2");
    play(&mut g, &["6-1"]);
    assert_eq!(firsts(&g), ["1:9-10", "6:9-15"]);
}
