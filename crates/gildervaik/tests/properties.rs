//! Properties over thousands of random positions: the engine's moves equal
//! those of a naive second generator (and captures remove the same pawns),
//! and rotating a position by 120° rotates its legal moves (spec §1).

mod common;
mod naive;

use common::{game, options};
use gildervaik::{Cell, Gildervaik, Mode};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tabula_core::{Game, Turn};

/// Rule variants covering every value of every option that affects moves.
const SPECS: &[&str] = &[
    "gildervaik",
    "gildervaik(chain_jumps=false)",
    "gildervaik(conquest_long_jumps=false)",
    "gildervaik(jump_own_pawns=true)",
    "gildervaik(jump_own_pawns=true,chain_jumps=false,confine_in_target=true)",
    "gildervaik(confine_in_target=true)",
    "gildervaik(mode=warrior)",
    "gildervaik(mode=warrior,warrior_long_jumps=true)",
    "gildervaik(mode=warrior,jump_own_pawns=true,untouchable=no_jump)",
    "gildervaik(mode=warrior,home_capturable=true,majority_capture=true)",
    "gildervaik(mode=warrior,capture_continuation=optional)",
    "gildervaik(mode=warrior,capture_removal=end_of_move,warrior_long_jumps=true)",
    "gildervaik(mode=warrior,capture_removal=end_of_move,capture_continuation=optional,home_capturable=true)",
];

const SEATS: [&str; 3] = ["A", "B", "C"];

/// A position string with up to `max` pawns per player on random cells.
fn random_position(rng: &mut SmallRng, max: usize) -> String {
    let mut cells: Vec<usize> = (0..100).collect();
    cells.shuffle(rng);
    let mut it = cells.into_iter();
    let mut groups = Vec::new();
    let mut seats = Vec::new();
    for (s, seat) in SEATS.iter().enumerate() {
        let n = rng.gen_range(0..=max);
        if n == 0 && s > 0 {
            continue;
        }
        let mut mine: Vec<usize> = it.by_ref().take(n.max(1)).collect();
        mine.sort();
        let names: Vec<String> = mine
            .iter()
            .map(|&id| Cell::new(id).unwrap().to_string())
            .collect();
        groups.push(format!("{seat}:{}", names.join(",")));
        seats.push(*seat);
    }
    format!("{} / {}", groups.join(" "), seats.choose(rng).unwrap())
}

/// Positions met in random games under `spec`.
fn played_positions(rng: &mut SmallRng, spec: &str, games: usize) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut g = game(spec, "start");
        while let Turn::Player(_) = g.turn() {
            if rng.gen_bool(0.2) {
                out.push(g.position());
            }
            let acts = g.actions_here();
            g.apply(acts[rng.gen_range(0..acts.len())]);
        }
    }
    out
}

fn engine_moves(g: &Gildervaik) -> Vec<String> {
    let mut v: Vec<String> = g.actions_here().iter().map(|&m| g.action_text(m)).collect();
    v.sort();
    v
}

/// Compare the engine and the naive generator at `position`; returns
/// whether the position was in play.
fn compare(spec: &str, position: &str) -> bool {
    let opts = options(spec);
    let Ok(g) = Gildervaik::from_position(&opts, position) else {
        return false;
    };
    if g.turn() == Turn::Over {
        return false;
    }
    let n = naive::parse(&g.position());
    let want = naive::moves(&n, &opts);
    assert_eq!(engine_moves(&g), want, "{spec} at {position}");
    for m in g.actions_here() {
        let text = g.action_text(m);
        let mut child = g.clone();
        child.apply(m);
        let pawns = naive::after(&n, &opts, &text);
        for (seat, cells) in pawns.iter().enumerate() {
            let got: Vec<String> = child.pawns_of(seat).map(|c| c.to_string()).collect();
            // The evacuation rule may also remove the mover's pawns.
            let evacuated = got.is_empty() && seat == n.to_move && opts.mode == Mode::Conquest;
            assert!(
                got == *cells || evacuated,
                "{spec} at {position} after {text}"
            );
        }
    }
    true
}

#[test]
fn engine_matches_a_naive_generator_on_random_placements() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut checked = 0;
    for i in 0..3000 {
        let spec = SPECS[i % SPECS.len()];
        let max = [3, 6, 10][i % 3];
        if compare(spec, &random_position(&mut rng, max)) {
            checked += 1;
        }
    }
    assert!(checked > 2500, "{checked}");
}

#[test]
fn engine_matches_a_naive_generator_in_random_games() {
    let mut rng = SmallRng::seed_from_u64(12);
    let mut checked = 0;
    for spec in SPECS {
        for position in played_positions(&mut rng, spec, 3) {
            if compare(spec, &position) {
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

fn rotate_move(text: &str) -> String {
    if text == "pass" {
        return text.into();
    }
    let sep = if text.contains('x') { 'x' } else { '-' };
    text.split(sep)
        .map(|c| Cell::parse(c).unwrap().rotated().to_string())
        .collect::<Vec<_>>()
        .join(&sep.to_string())
}

/// The position turned 120° clockwise: A's pawns become B's, and so on.
fn rotate_position(g: &Gildervaik) -> String {
    let mut groups = Vec::new();
    for seat in [2, 0, 1] {
        let mut cells: Vec<Cell> = g.pawns_of(seat).map(Cell::rotated).collect();
        cells.sort();
        if !cells.is_empty() {
            let names: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
            groups.push(format!("{}:{}", SEATS[(seat + 1) % 3], names.join(",")));
        }
    }
    format!(
        "{} / {}",
        groups.join(" "),
        SEATS[(g.side_to_move() + 1) % 3]
    )
}

#[test]
fn rotating_a_position_rotates_its_moves() {
    let mut rng = SmallRng::seed_from_u64(13);
    let mut checked = 0;
    for (i, spec) in SPECS.iter().cycle().take(1500).enumerate() {
        let position = if i % 2 == 0 {
            random_position(&mut rng, 10)
        } else {
            let played = played_positions(&mut rng, spec, 1);
            match played.choose(&mut rng) {
                Some(p) => p.split(" ply=").next().unwrap().to_string(),
                None => continue,
            }
        };
        let Ok(g) = Gildervaik::from_position(&options(spec), &position) else {
            continue;
        };
        if g.turn() == Turn::Over {
            continue;
        }
        let turned = game(spec, &rotate_position(&g));
        let mut want: Vec<String> = engine_moves(&g).iter().map(|m| rotate_move(m)).collect();
        want.sort();
        assert_eq!(engine_moves(&turned), want, "{spec} at {position}");
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
}

/// Perft with the naive generator choosing every move (the engine applies
/// them and says when the game is over). A move that ends the game counts
/// when it is the last one: depth 0 is 1.
fn naive_perft(g: &Gildervaik, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if g.turn() == Turn::Over {
        return 0;
    }
    let n = naive::parse(&g.position());
    naive::moves(&n, g.options())
        .iter()
        .map(|text| {
            let mut child = g.clone();
            let m = child.parse_action(text).expect("naive move parses");
            child.apply(m);
            naive_perft(&child, depth - 1)
        })
        .sum()
}

/// Every count of the perft table up to 60 000 nodes, from the naive
/// generator (the generic checker reads the same file with the engine).
#[test]
fn naive_perft_matches_the_table() {
    let mut errors = Vec::new();
    let mut checked = 0;
    for row in tabula_core::perft_data::parse(include_str!("data/gildervaik.perft")) {
        let g: Gildervaik = tabula_core::perft_data::game_of(&row);
        for &(d, want) in row.counts.iter().filter(|c| c.1 <= 60_000) {
            checked += 1;
            let got = naive_perft(&g, d);
            if got != want {
                errors.push(format!(
                    "`{}` depth {d}: table {want}, naive {got}",
                    row.name
                ));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(checked >= 60, "only {checked} counts checked");
}
