//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeSet;
use stelpur::{Action, Stelpur};
use tabula_core::{Game, OptionValues, RawSpec, Turn};

/// A game from a spec string and a position string (`start` = the start).
pub fn game(spec: &str, position: &str) -> Stelpur {
    let raw = RawSpec::parse(spec).expect("spec");
    let values =
        OptionValues::validate(Stelpur::NAME, Stelpur::option_defs(), &raw.pairs).expect("options");
    let opts = Stelpur::options_from(&values).expect("options");
    if position == "start" {
        Stelpur::new_game(&opts).expect("start")
    } else {
        Stelpur::from_position(&opts, position).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// Play actions given as text.
pub fn play(g: &mut Stelpur, texts: &[&str]) {
    for t in texts {
        let a = g
            .parse_action(t)
            .unwrap_or_else(|e| panic!("`{t}` at {}: {e}", g.position()));
        g.apply(a);
    }
}

/// The legal action texts, sorted.
pub fn firsts(g: &Stelpur) -> Vec<String> {
    let mut v: Vec<String> = g
        .actions_here()
        .into_iter()
        .map(|a| g.action_text(a))
        .collect();
    v.sort();
    v
}

/// Every complete sequence of actions of the roll in progress: the number of
/// ordered sequences and the set of boards (first field) they end on.
pub fn sequences(g: &Stelpur) -> (usize, BTreeSet<String>, Vec<String>) {
    let mut ends = BTreeSet::new();
    let mut lines = Vec::new();
    let n = walk(g, &mut Vec::new(), &mut ends, &mut lines);
    (n, ends, lines)
}

fn walk(
    g: &Stelpur,
    line: &mut Vec<String>,
    ends: &mut BTreeSet<String>,
    lines: &mut Vec<String>,
) -> usize {
    if !matches!(g.turn(), Turn::Player(_)) {
        let pos = g.position();
        ends.insert(pos.split(' ').next().unwrap_or_default().to_string());
        lines.push(line.join(", "));
        return 1;
    }
    let mut n = 0;
    for a in g.actions_here() {
        let mut c = g.clone();
        line.push(step_text(g, a));
        c.apply(a);
        n += walk(&c, line, ends, lines);
        line.pop();
    }
    n
}

/// A use as a record step (`6-7`, `7x13`).
pub fn step_text(g: &Stelpur, a: Action) -> String {
    match a {
        Action::Use(u) => g.step(u).to_string(),
        other => g.action_text(other),
    }
}

pub const START: &str = "1,2,3,4,5,6/13,14,15,16,17,18 1 - 0 1";
