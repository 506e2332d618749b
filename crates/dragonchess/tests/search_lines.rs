//! Lines the search reports end in a draw only with a draw's score (issue
//! 39): a player kept through a game must not take a threefold repetition
//! for a win because its table remembers a position from before it had
//! occurred twice.

use dragonchess::{Dragonchess, Options};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_ai::LineCheck;
use tabula_core::{Game, Turn};

/// A won game that level 8 (Scarlet) drew by threefold repetition: its
/// first 95 actions, Scarlet to move (`../shared/cases` of issue 39).
const REPETITION_GAME: &str = include_str!("data/repetition-game.txt");

/// Nodes a decision, as in the reproduction (`go nodes 30000`).
const NODES: u64 = 30_000;

fn game_actions() -> Vec<&'static str> {
    REPETITION_GAME.split_whitespace().collect()
}

fn play(g: &mut Dragonchess, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(a);
}

#[test]
fn a_player_kept_through_the_game_sees_the_threefold_repetition() {
    let mut g = Dragonchess::new_game(&Options::default()).expect("start");
    let mut check = LineCheck::new(&g, NODES);
    let actions = game_actions();
    assert_eq!(actions.len(), 95);
    for (played, text) in actions.into_iter().enumerate() {
        // Scarlet's decisions from its second on, as in the reproduction.
        if played >= 3 && played % 2 == 1 {
            check.search(&g).unwrap_or_else(|e| panic!("{e}"));
        }
        play(&mut g, text);
    }
    let best = check.search(&g).unwrap_or_else(|e| panic!("{e}"));
    let into_repetition = g.parse_action("K2f5-2g5").expect("legal");
    assert_ne!(best, into_repetition, "Scarlet walks into the repetition");
}

/// The property: a searcher kept through the king hunt of that game (both
/// sides: Gold, behind, seeks the repetition), then through self-play
/// from there and from random openings, never reports a line that ends in
/// a draw with another score.
#[test]
fn no_line_ending_in_a_draw_is_scored_otherwise() {
    let mut drawn = 0;
    for seed in 0..4u64 {
        let mut g = Dragonchess::new_game(&Options::default()).expect("start");
        let hunt = seed % 2 == 0;
        let mut check = LineCheck::new(&g, if hunt { NODES } else { 4_000 });
        if hunt {
            // Then the move of the issue: Gold may repeat a third time.
            let actions = game_actions().into_iter().chain(["K2f5-2g5"]);
            for (played, text) in actions.enumerate() {
                if played >= 60 + 4 * seed as usize {
                    check.search(&g).unwrap_or_else(|e| panic!("{played}: {e}"));
                }
                play(&mut g, text);
            }
        } else {
            let mut rng = SmallRng::seed_from_u64(seed);
            for _ in 0..rng.gen_range(20..80) {
                if matches!(g.turn(), Turn::Over) {
                    break;
                }
                let moves = g.actions_here();
                g.apply(moves[rng.gen_range(0..moves.len())]);
            }
        }
        check
            .self_play(&g, 30, seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        drawn += check.drawn;
    }
    // The check must have met drawn lines to mean anything.
    assert!(drawn > 0);
    eprintln!("{drawn} lines ended in a draw");
}
