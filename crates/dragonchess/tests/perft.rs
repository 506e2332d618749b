//! Perft tables (`tests/data/dragonchess.perft`) and the naive generator.
//!
//! Every published count must be reproduced by both the fast generator and
//! the naive one of `naive/mod.rs`; the two are also compared move by move
//! on thousands of random positions. Deep rows:
//! `cargo test --release -p tabula-dragonchess --test perft -- --ignored`.

mod common;
mod naive;

use dragonchess::{Dragonchess, Options};
use naive::{engine_moves, Naive};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::perft_data::{check_file, game_of, parse};
use tabula_core::{divide, perft, Game, Turn};

const DATA: &str = include_str!("data/dragonchess.perft");

/// Depth checked by the fast generator in the default test run.
const FAST_DEPTH: u32 = 3;
/// The naive generator checks, in the default test run, the counts up to
/// this many nodes (it is some 100 times slower).
const NAIVE_NODES: u64 = 60_000;

#[test]
fn perft_file_matches_the_fast_generator() {
    let checked = check_file::<Dragonchess>(DATA, FAST_DEPTH);
    assert!(checked >= 60, "only {checked} counts checked");
}

#[test]
fn perft_file_matches_the_naive_generator() {
    naive_check(NAIVE_NODES);
}

#[test]
#[ignore = "deep rows: run with --release -- --ignored"]
fn perft_file_deep_rows_match_the_fast_generator() {
    check_file::<Dragonchess>(DATA, u32::MAX);
}

#[test]
#[ignore = "deep rows: run with --release -- --ignored"]
fn perft_file_deep_rows_match_the_naive_generator() {
    naive_check(u64::MAX);
}

fn naive_check(max_nodes: u64) {
    let mut errors = Vec::new();
    for row in parse(DATA) {
        let g: Dragonchess = game_of(&row);
        let n = Naive::from_game(&g);
        for &(d, expected) in row.counts.iter().filter(|(_, n)| *n <= max_nodes) {
            let got = n.perft(d);
            if got != expected {
                errors.push(format!(
                    "{} depth {d}: file {expected}, naive {got}",
                    row.name
                ));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Compare both generators on one position: moves, check, the board after
/// each move, and the fast generator's count (perft's last ply) with its list.
fn compare(g: &Dragonchess) {
    let n = Naive::from_game(g);
    let fast = engine_moves(g);
    let slow = n.legal();
    assert_eq!(
        perft(g, 1),
        g.actions_here().len() as u64,
        "count differs from the list in {}",
        g.position()
    );
    if fast != slow {
        let only = |a: &[naive::Mv], b: &[naive::Mv]| -> Vec<String> {
            a.iter()
                .filter(|m| !b.contains(m))
                .map(|m| format!("{m:?}"))
                .collect()
        };
        panic!(
            "moves differ in {}\nfast only: {:?}\nnaive only: {:?}",
            g.position(),
            only(&fast, &slow),
            only(&slow, &fast)
        );
    }
    assert_eq!(
        g.in_check(),
        n.in_check(n.side),
        "check differs in {}",
        g.position()
    );
    for m in g.actions_here() {
        let mut child = g.clone();
        child.apply(m);
        let mut nc = n.clone();
        let mv = slow
            .iter()
            .copied()
            .find(|x| x.from == m.from.index() && x.to == m.to.index())
            .expect("same move");
        nc.play(mv);
        assert!(
            Naive::from_game(&child).cells == nc.cells,
            "board after {} differs in {}",
            g.action_text(m),
            g.position()
        );
        assert_eq!(child.in_check(), nc.in_check(nc.side));
    }
}

fn random_options(rng: &mut SmallRng) -> Options {
    Options {
        hero_vertical: rng.gen_bool(0.3),
        basilisk_freeze_is_check: rng.gen_bool(0.3),
        elemental_climb_quiet: rng.gen_bool(0.3),
        no_capture_plies: if rng.gen_bool(0.1) { 3 } else { 100 },
    }
}

/// Random placements: the Kings and up to 40 pieces anywhere (unreachable
/// levels included), biased towards the pieces with unusual rules.
fn random_placement(rng: &mut SmallRng) -> Option<Dragonchess> {
    const LETTERS: &[u8] = b"SGRWOUHTCMPDBEBEMRSD";
    let mut cells: Vec<Option<char>> = vec![None; 288];
    let mut place = |c: char, rng: &mut SmallRng| loop {
        let i = rng.gen_range(0..288);
        if cells[i].is_none() {
            cells[i] = Some(c);
            return;
        }
    };
    place('K', rng);
    place('k', rng);
    for _ in 0..rng.gen_range(0..40) {
        let c = LETTERS[rng.gen_range(0..LETTERS.len())] as char;
        place(
            if rng.gen_bool(0.5) {
                c
            } else {
                c.to_ascii_lowercase()
            },
            rng,
        );
    }
    let squares: Vec<String> = (0..288)
        .map(|i| dragonchess::Square::from_index(i).to_string())
        .collect();
    let pieces: Vec<(char, &str)> = cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (c, squares[i].as_str())))
        .collect();
    let side = if rng.gen_bool(0.5) { 'g' } else { 's' };
    let text = common::position(&pieces, side);
    Dragonchess::from_position(&random_options(rng), &text).ok()
}

#[test]
fn generators_agree_on_random_placements() {
    random_placements(11, 3000);
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn generators_agree_on_many_random_placements() {
    random_placements(12, 200_000);
}

fn random_placements(seed: u64, count: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut compared = 0;
    let mut with_check = 0;
    while compared < count {
        if let Some(g) = random_placement(&mut rng) {
            compare(&g);
            compared += 1;
            with_check += usize::from(g.in_check());
        }
    }
    assert!(with_check > count / 30, "too few checks: {with_check}");
}

#[test]
fn generators_agree_along_random_games() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut compared = 0;
    while compared < 2000 {
        let mut g = Dragonchess::new_game(&random_options(&mut rng)).unwrap();
        for _ in 0..400 {
            compare(&g);
            compared += 1;
            let moves = g.actions_here();
            if moves.is_empty() {
                break;
            }
            // Prefer captures so games reach open, sparse positions.
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && rng.gen_bool(0.7) {
                *captures[rng.gen_range(0..captures.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            g.apply(m);
        }
    }
}

#[test]
fn perft_counts_agree_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut done = 0;
    while done < 40 {
        if let Some(g) = random_placement(&mut rng) {
            assert_eq!(
                perft(&g, 2),
                Naive::from_game(&g).perft(2),
                "{}",
                g.position()
            );
            done += 1;
        }
    }
}

/// Gold to move has 29 legal moves, one of which mates: a sequence whose
/// last move ends the game is counted, on every path.
const MATE_IN_ONE: &str =
    "12/12/12/3r8/12/12/12/12|7k4/12/12/12/4W7/12/2w9/K11|12/12/12/12/12/12/1b10/12 s 0 1";

#[test]
fn a_mating_last_move_is_counted_by_perft_divide_and_the_naive_generator() {
    let g = Dragonchess::from_position(&Options::default(), MATE_IN_ONE).unwrap();
    assert_eq!(perft(&g, 1), 29);
    assert_eq!(Naive::from_game(&g).perft(1), 29);
    let rows = divide(&g, 1, |_, _| {});
    assert_eq!(rows.len(), 29);
    let mut mates = Vec::new();
    for (m, (text, n)) in g.actions_here().into_iter().zip(&rows) {
        assert_eq!(*n, 1, "divide lists `{text}` with {n}");
        let mut after = g.clone();
        after.apply(m);
        if after.turn() == Turn::Over {
            mates.push(text.clone());
        }
        // Depth 0 is 1, also once the game is over.
        assert_eq!(perft(&after, 0), 1, "{text}");
        assert_eq!(Naive::from_game(&after).perft(0), 1, "{text}");
    }
    assert_eq!(mates.len(), 1, "exactly one move mates: {mates:?}");
    let two: u64 = divide(&g, 2, |_, _| {}).iter().map(|r| r.1).sum();
    assert_eq!(two, perft(&g, 2));
    assert_eq!(Naive::from_game(&g).perft(2), perft(&g, 2));
}

/// A perft table must tell apart positions that differ only in what the
/// draw rules read: the positions since the last irreversible move, and
/// the halfmove clock.
#[test]
fn a_perft_table_keeps_histories_and_clocks_apart() {
    let at = |clock: &str| {
        let text = format!(
            "12/12/12/12/12/12/12/12|k11/12/12/12/12/12/12/K10O|12/12/12/12/12/12/12/12 {clock}"
        );
        Dragonchess::from_position(&Options::default(), &text).expect("position")
    };
    let fresh = at("g 4 3");
    // The same placement after the Kings stepped out and back: it has now
    // occurred twice, and the next return to it is a threefold draw.
    let mut repeated = at("g 0 1");
    for m in ["K2a1-2b1", "k2a8-2b8", "K2b1-2a1", "k2b8-2a8"] {
        let action = repeated.parse_action(m).expect("legal");
        repeated.apply(action);
    }
    assert_eq!(repeated.position(), fresh.position());
    // Two plies from the no-capture draw.
    let late = at("g 98 50");
    tabula_core::perft_data::check_table_tells_apart(&[&fresh, &repeated, &late], 5);
}
