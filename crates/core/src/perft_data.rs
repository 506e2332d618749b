//! Perft tables kept as data files, read by one generic test per game.
//!
//! One position per line, fields separated by `;`:
//!
//! ```text
//! # name; spec; position (or `start`); depth:nodes ...
//! start; dragonchess; start; 1:90 2:8100
//! e2; gildervaik; A:e3,e5 B:e6,f5 C:f7,g6 / A; 1:11
//! ```
//!
//! Blank lines and `#` comments are ignored. Depths above the limit given to
//! [`check_file`] are skipped (deep rows stay in the file for `--ignored`
//! runs and for the published tables).

use crate::game::Game;
use crate::options::{OptionValues, RawSpec};
use crate::perft::{perft, perft_hashed, perft_parallel, PerftTable};

/// One row of a perft file.
#[derive(Clone, Debug)]
pub struct PerftRow {
    pub line: usize,
    pub name: String,
    pub spec: String,
    /// `None` = the start position.
    pub position: Option<String>,
    pub counts: Vec<(u32, u64)>,
}

/// Parse a perft file; panics with the line on malformed input (test data).
pub fn parse(text: &str) -> Vec<PerftRow> {
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(
            f.len(),
            4,
            "perft file line {}: expected 4 `;`-separated fields",
            i + 1
        );
        let counts = f[3]
            .split_whitespace()
            .map(|c| {
                let (d, n) = c
                    .split_once(':')
                    .unwrap_or_else(|| panic!("line {}: bad `{c}`", i + 1));
                let d = d
                    .parse()
                    .unwrap_or_else(|_| panic!("line {}: bad depth `{d}`", i + 1));
                let n = n
                    .parse()
                    .unwrap_or_else(|_| panic!("line {}: bad count `{n}`", i + 1));
                (d, n)
            })
            .collect();
        rows.push(PerftRow {
            line: i + 1,
            name: f[0].to_string(),
            spec: f[1].to_string(),
            position: (f[2] != "start").then(|| f[2].to_string()),
            counts,
        });
    }
    rows
}

/// Build the game of a row (its spec must name `G`).
pub fn game_of<G: Game>(row: &PerftRow) -> G {
    let raw = RawSpec::parse(&row.spec).unwrap_or_else(|e| panic!("line {}: {e}", row.line));
    assert_eq!(
        raw.name,
        G::NAME,
        "line {}: spec names another game",
        row.line
    );
    let values = OptionValues::validate(G::NAME, G::option_defs(), &raw.pairs)
        .unwrap_or_else(|e| panic!("line {}: {e}", row.line));
    let opts = G::options_from(&values).unwrap_or_else(|e| panic!("line {}: {e}", row.line));
    match &row.position {
        None => G::new_game(&opts),
        Some(p) => G::from_position(&opts, p),
    }
    .unwrap_or_else(|e| panic!("line {}: {e}", row.line))
}

/// Slots of the perft tables of the checks.
const TEST_SLOTS: usize = 1 << 12;

/// Check every row of a perft file up to `max_depth`; returns the number of
/// (row, depth) pairs checked. Panics listing every mismatch. The deepest
/// count of each row is also checked on two threads, and with a table.
pub fn check_file<G: Game>(text: &str, max_depth: u32) -> usize {
    let mut checked = 0;
    let mut errors = Vec::new();
    for row in parse(text) {
        let game = game_of::<G>(&row);
        let counts: Vec<_> = row.counts.iter().filter(|(d, _)| *d <= max_depth).collect();
        for (i, &&(d, expected)) in counts.iter().enumerate() {
            let got = perft(&game, d);
            checked += 1;
            if got != expected {
                errors.push(format!(
                    "line {} `{}` depth {d}: expected {expected}, got {got}",
                    row.line, row.name
                ));
            }
            if i + 1 == counts.len() {
                let par = perft_parallel(&game, d, 2);
                if par != expected {
                    errors.push(format!(
                        "line {} `{}` depth {d} on two threads: expected {expected}, got {par}",
                        row.line, row.name
                    ));
                }
                // A small table, so that slots are shared and overwritten.
                let table = PerftTable::with_slots(TEST_SLOTS).expect("a small table");
                let hashed = perft_hashed(&game, d, 2, &table);
                if hashed != expected {
                    errors.push(format!(
                        "line {} `{}` depth {d} with a table: expected {expected}, got {hashed}",
                        row.line, row.name
                    ));
                }
            }
        }
    }
    assert!(
        errors.is_empty(),
        "perft mismatches:\n{}",
        errors.join("\n")
    );
    checked
}

/// `games`, positions with the same board that differ only in what their
/// draw rules read (histories, counters), have different counts at
/// `depth`, and one perft table serving them in turn, then the first
/// again, gives each its own count: the table's key
/// (`Game::exact_hash`) tells them apart. Panics otherwise.
pub fn check_table_tells_apart<G: Game>(games: &[&G], depth: u32) {
    let plain: Vec<u64> = games.iter().map(|g| perft(*g, depth)).collect();
    for (g, n) in games.iter().zip(&plain).skip(1) {
        assert_ne!(
            *n,
            plain[0],
            "no different count to tell apart: {}",
            g.position()
        );
    }
    let table = PerftTable::with_mb(1).expect("a small table");
    for (i, g) in games.iter().enumerate().chain([(0, &games[0])]) {
        let got = perft_hashed(*g, depth, 2, &table);
        assert_eq!(got, plain[i], "with a shared table: {}", g.position());
    }
}
