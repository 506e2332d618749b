//! The core conformance harness on every preset and on mixed options, plus
//! position-string errors, and random playouts against the plain loop.

mod common;
use common::game;
use tabula_core::conformance::{check_games, Config};
use tabula_core::{ErrorKind, Game};

#[test]
fn harness_passes_on_every_preset_and_mixed_options() {
    let specs = [
        "stelpur",
        "stelpur(preset=tablesites)",
        "stelpur(preset=ludii)",
        "stelpur(forced_play=free,nondouble_one_pawn,between=nearest)",
        "stelpur(six_counts_twice,first_player=2,mutual_last_pawn_draw)",
        "stelpur(preset=ludii,no_capture_roll_limit=15)",
    ];
    let starts: Vec<_> = specs.iter().map(|s| game(s, "start")).collect();
    let config = Config {
        games: 10,
        seed: 7,
        check_every: 1,
    };
    let plies = check_games(&starts, &config);
    assert!(plies > 1000, "the harness played too little: {plies}");
}

#[test]
fn bad_position_strings_are_rejected_with_a_message() {
    let opts = *game("stelpur", "start").options();
    let onepawn = *game("stelpur(nondouble_one_pawn)", "start").options();
    for (o, text) in [
        (opts, ""),
        (opts, "1,2/13 1 -"),
        (opts, "1,2,13 1 - 0 1"),
        (opts, "1,2/2 1 - 0 1"),
        (opts, "2,1/13 1 - 0 1"),
        (opts, "1,2/25 1 - 0 1"),
        (opts, "1,2,3,4,5,6,7/13 1 - 0 1"),
        (opts, "/ 1 - 0 1"),
        (opts, "1/13 3 - 0 1"),
        (opts, "1/13 1 - 301 1"),
        (opts, "1/13 1 - 0 0"),
        (opts, "1/13 1 1-6:1,6 0 1"),
        (opts, "1/13 1 6-1: 0 1"),
        (opts, "1/13 1 6-1:6,1 0 1"),
        (opts, "1/13 1 6-1:1,1 0 1"),
        (opts, "1/13 1 3-2:3 0 1"),
        (opts, "1,2/13 1 6-1:1x 4 1"),
        (opts, "1,2/13 1 6-1:1,6x 0 1"),
        (opts, "1,2/13 1 6-1:1@2 0 1"),
        (onepawn, "1,2/13 1 6-1:1 0 1"),
        (onepawn, "1,2/13 1 6-1:1@5 0 1"),
        (opts, "1,2/ 2 - 0 1"),
        (opts, "1,2/ 1 6-1:1 0 1"),
        (opts, "1,2/13 1 6-1:6 300 1"),
        // Every 6 lands on an own pawn: the roll would already be over.
        (opts, "1,7,13,19/4 1 6-2:6 0 1"),
    ] {
        let e = stelpur::Stelpur::from_position(&o, text).err();
        assert!(
            e.as_ref().is_some_and(|e| e.kind == ErrorKind::Position),
            "accepted `{text}`"
        );
    }
    let ok = stelpur::Stelpur::from_position(&onepawn, "2,7/13 1 6-1:1@7 0 1").unwrap();
    assert_eq!(ok.position(), "2,7/13 1 6-1:1@7 0 1");
    let short = stelpur::Stelpur::from_position(&opts, "1/13 1 - 0").unwrap();
    assert_eq!(short.position(), "1/13 1 - 0 1");
}

/// `random_playout` (dice read from each draw's bits) plays the games of the
/// plain loop: dice by `pick_chance` over the listed outcomes, actions by a
/// uniform index into the listed actions, one draw each.
#[test]
fn random_playouts_play_the_plain_loops_games() {
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    use tabula_core::{pick_chance, random_playout, Turn};
    for spec in [
        "stelpur",
        "stelpur(preset=ludii)",
        "stelpur(forced_play=free,preset=tablesites)",
    ] {
        let start = game(spec, "start");
        let bound = start.max_game_actions();
        for seed in 0..300 {
            let mut fast = start.clone();
            let stats = random_playout(&mut fast, &mut SmallRng::seed_from_u64(seed), bound);
            let (mut plain, mut rng, mut actions) =
                (start.clone(), SmallRng::seed_from_u64(seed), 0);
            let mut outcomes = Vec::new();
            while actions < bound {
                let a = match plain.turn() {
                    Turn::Over => break,
                    Turn::Chance => {
                        plain.chance_outcomes(&mut outcomes);
                        pick_chance(&outcomes, rng.gen()).unwrap()
                    }
                    Turn::Player(_) => {
                        let legal = plain.actions_here();
                        legal[rng.gen_range(0..legal.len())]
                    }
                };
                plain.apply(a);
                actions += 1;
            }
            assert_eq!(stats.actions, actions, "{spec}, seed {seed}");
            assert_eq!(fast.position(), plain.position(), "{spec}, seed {seed}");
        }
    }
}
