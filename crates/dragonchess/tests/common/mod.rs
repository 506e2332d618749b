//! Helpers shared by the integration tests.
#![allow(dead_code)]

use dragonchess::{Dragonchess, Options};
use tabula_core::Game;

/// A position string from `(letter, square)` pairs, e.g. `('K', "2a1")`.
pub fn position(pieces: &[(char, &str)], side: char) -> String {
    let mut grid = [[['.'; 12]; 8]; 3];
    for &(c, sq) in pieces {
        let b = sq.as_bytes();
        let (l, f, r) = (
            (b[0] - b'1') as usize,
            (b[1] - b'a') as usize,
            (b[2] - b'1') as usize,
        );
        assert_eq!(grid[l][r][f], '.', "{sq} given twice");
        grid[l][r][f] = c;
    }
    let mut levels = Vec::new();
    for l in (0..3).rev() {
        let mut ranks = Vec::new();
        for r in (0..8).rev() {
            let mut s = String::new();
            let mut run = 0;
            for &c in &grid[l][r] {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(c);
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            ranks.push(s);
        }
        levels.push(ranks.join("/"));
    }
    format!("{} {side} 0 1", levels.join("|"))
}

pub fn game(pieces: &[(char, &str)], side: char) -> Dragonchess {
    game_with(Options::default(), pieces, side)
}

pub fn game_with(options: Options, pieces: &[(char, &str)], side: char) -> Dragonchess {
    let text = position(pieces, side);
    Dragonchess::from_position(&options, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal move texts (without check marks), sorted.
pub fn move_texts(g: &Dragonchess) -> Vec<String> {
    let mut v: Vec<String> = g
        .actions_here()
        .into_iter()
        .map(|m| plain(&g.action_text(m)))
        .collect();
    v.sort();
    v
}

/// A move text without its `+`/`#` suffix.
pub fn plain(text: &str) -> String {
    text.trim_end_matches(['+', '#']).to_string()
}

/// The legal move texts of the piece on `from`, sorted.
pub fn moves_from(g: &Dragonchess, from: &str) -> Vec<String> {
    move_texts(g)
        .into_iter()
        .filter(|t| &t[1..4] == from)
        .collect()
}

pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
