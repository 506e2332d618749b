//! Lines the search reports end in a draw only with a draw's score (issue
//! 39): expectimax's lines stop at the dice, and are checked all the same.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stelpur::{Options, Stelpur};
use tabula_ai::LineCheck;
use tabula_core::{Game, Turn};

#[test]
fn no_line_ending_in_a_draw_is_scored_otherwise() {
    let mut searches = 0;
    for seed in 0..3u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut g = Stelpur::new_game(&Options::default()).expect("start");
        let mut buf = Vec::new();
        for _ in 0..rng.gen_range(10..60) {
            let a = match g.turn() {
                Turn::Over => break,
                Turn::Chance => g.pick_chance_at(rng.gen(), &mut buf),
                Turn::Player(_) => {
                    let moves = g.actions_here();
                    Some(moves[rng.gen_range(0..moves.len())])
                }
            };
            g.apply(a.expect("an action"));
        }
        searches += LineCheck::new(&g, 2_000)
            .self_play(&g, 80, seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    assert!(searches >= 20, "{searches} searches");
}
