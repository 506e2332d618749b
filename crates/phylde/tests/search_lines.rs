//! Lines the search reports end in a draw only with a draw's score (issue
//! 39), here with the strictest draw rules (a position's second
//! occurrence draws, and so do 10 turns without a capture), so that lines
//! meet them.

use phylde::{Options, Phylde};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_ai::LineCheck;
use tabula_core::{Game, Turn};

#[test]
fn no_line_ending_in_a_draw_is_scored_otherwise() {
    let options = Options {
        repetition: 2,
        no_capture_turns: 10,
        ..Options::default()
    };
    let mut drawn = 0;
    for seed in 0..6u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut g = Phylde::new_game(&options).expect("start");
        for _ in 0..rng.gen_range(0..8) {
            if !matches!(g.turn(), Turn::Player(_)) {
                break;
            }
            let moves = g.actions_here();
            g.apply(moves[rng.gen_range(0..moves.len())]);
        }
        let mut check = LineCheck::new(&g, 4_000);
        check
            .self_play(&g, 60, seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        drawn += check.drawn;
    }
    // The check must have met drawn lines to mean anything.
    assert!(drawn > 0);
    eprintln!("{drawn} lines ended in a draw");
}
