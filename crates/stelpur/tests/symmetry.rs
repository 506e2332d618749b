//! Half-turn symmetry (spec §8): rotating a position by 12 cells and swapping
//! the colours maps legal actions to legal actions and children to children.

mod common;
use common::game;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use stelpur::Stelpur;
use tabula_core::{sample_chance, Game, Turn};

fn turn_cell(c: &str) -> String {
    let n: u8 = c.parse().expect("cell");
    ((n - 1 + 12) % 24 + 1).to_string()
}

fn turn_list(list: &str) -> String {
    let mut v: Vec<u8> = list
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|c| turn_cell(c).parse().expect("cell"))
        .collect();
    v.sort();
    v.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// The position after a half turn with the colours swapped.
fn half_turn(pos: &str) -> String {
    let f: Vec<&str> = pos.split(' ').collect();
    let (a, b) = f[0].split_once('/').expect("slash");
    let mover = if f[1] == "1" { "2" } else { "1" };
    let dice = match f[2].split_once('@') {
        Some((head, tail)) => {
            let cell: String = tail.chars().take_while(char::is_ascii_digit).collect();
            format!("{head}@{}{}", turn_cell(&cell), &tail[cell.len()..])
        }
        None => f[2].to_string(),
    };
    format!(
        "{}/{} {mover} {dice} {} {}",
        turn_list(b),
        turn_list(a),
        f[3],
        f[4]
    )
}

/// An action text after a half turn (`6:6-12` -> `6:18-24`).
fn turn_action(t: &str) -> String {
    match t.split_once(':') {
        Some((d, step)) => {
            let i = step.find(['-', 'x']).expect("separator");
            format!(
                "{d}:{}{}{}",
                turn_cell(&step[..i]),
                &step[i..=i],
                turn_cell(&step[i + 1..])
            )
        }
        None => t.to_string(),
    }
}

fn texts(g: &Stelpur) -> BTreeSet<String> {
    g.actions_here()
        .into_iter()
        .map(|a| g.action_text(a))
        .collect()
}

#[test]
fn half_turn_maps_legal_actions_to_legal_actions() {
    let specs = [
        "stelpur",
        "stelpur(preset=tablesites)",
        "stelpur(preset=ludii)",
        "stelpur(nondouble_one_pawn,between=nearest,forced_play=free)",
    ];
    let mut rng = SmallRng::seed_from_u64(12);
    let mut checked = 0;
    for spec in specs {
        for _ in 0..15 {
            let mut g = game(spec, "start");
            let mut outs = Vec::new();
            while g.turn() != Turn::Over {
                let pos = g.position();
                let mirror = game(spec, &half_turn(&pos));
                assert_eq!(half_turn(&mirror.position()), pos, "involution");
                let mapped: BTreeSet<String> = texts(&g).iter().map(|t| turn_action(t)).collect();
                assert_eq!(mapped, texts(&mirror), "{spec} at {pos}");
                let a = if g.turn() == Turn::Chance {
                    g.chance_outcomes(&mut outs);
                    sample_chance::<Stelpur, _>(&outs, &mut rng)
                } else {
                    let acts = g.actions_here();
                    acts[rng.gen_range(0..acts.len())]
                };
                let mut child = mirror.clone();
                child.apply(
                    mirror
                        .parse_action(&turn_action(&g.action_text(a)))
                        .expect("mapped"),
                );
                g.apply(a);
                assert_eq!(half_turn(&g.position()), child.position(), "{spec}");
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}
