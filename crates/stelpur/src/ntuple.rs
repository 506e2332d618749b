//! An n-tuple network over the track: the non-linear part of the evaluation.
//!
//! The linear model of [`crate::eval`] counts pawns, exposure and pair
//! distances one at a time; it cannot see how several pawns stand together
//! (a pawn that covers another's landing cell, a frame round a corner).
//! This network adds a learned value for the exact contents of every window
//! of [`TUPLE`] consecutive cells (each cell empty, the mover's or the
//! opponent's: `3^TUPLE` patterns), sliding round the circular track. The
//! rules are the same after a turn of 6 cells (the rune corners sit at both
//! ends of every quarter), so the 24 windows share [`CLASSES`] tables, by
//! where the window starts within its quarter. The sum is added to the
//! linear model's logit; the weights are fitted to self-play results by
//! `scripts/train-stelpur-ntuple.sh` and kept in `data/ntuple-weights.txt`.
//! A look-up per window: cheaper than the linear features.

use crate::board::{forward, CELLS};

/// Cells in one window.
pub const TUPLE: usize = 8;
/// Patterns of one window: each cell empty, own or enemy.
pub const PATTERNS: usize = 3usize.pow(TUPLE as u32);
/// Tables shared by rotation: a window's start cell modulo 6.
pub const CLASSES: usize = 6;
/// Number of weights.
pub const WEIGHTS: usize = CLASSES * PATTERNS;
/// Windows on the track: one starting at each cell.
pub const WINDOWS: usize = CELLS as usize;

/// `BASE3[m]`: the window pattern with the cells of the `TUPLE`-bit mask
/// `m` set to 1 (own) and the others empty; enemy cells count twice.
static BASE3: [u16; 1 << TUPLE] = {
    let mut t = [0u16; 1 << TUPLE];
    let mut m = 0;
    while m < 1 << TUPLE {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < TUPLE {
            if m & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The weight index of each window of the position where the mover holds
/// `mine` and the opponent `theirs` (24-bit masks), passed to `f`.
#[inline]
pub fn windows(mine: u32, theirs: u32, mut f: impl FnMut(usize)) {
    const LOW: u32 = (1 << TUPLE) - 1;
    let (mut m, mut t) = (mine, theirs);
    for s in 0..WINDOWS {
        let pattern = BASE3[(m & LOW) as usize] + 2 * BASE3[(t & LOW) as usize];
        f((s % CLASSES) * PATTERNS + usize::from(pattern));
        // Bring the next cell down to bit 0.
        m = forward(m, CELLS - 1);
        t = forward(t, CELLS - 1);
    }
}

/// The network's logit for the mover holding `mine` against `theirs`.
#[inline]
pub fn logit(mine: u32, theirs: u32, w: &[f32]) -> f32 {
    let mut sum = 0.0;
    windows(mine, theirs, |i| sum += w[i]);
    sum
}

/// The header line that opens a weights file.
const HEADER: &str = "ntuple";

/// The lines of a weights file that hold data, with their numbers from 1:
/// comments (`#` to the end of a line) and blank lines left out.
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// Read a weights file: comment lines (`#`), the line `ntuple TUPLE
/// CLASSES`, then one line of `PATTERNS` numbers a class.
pub fn parse_weights(text: &str) -> Result<Vec<f32>, String> {
    let mut lines = data_lines(text);
    let want = format!("{HEADER} {TUPLE} {CLASSES}");
    match lines.next() {
        Some((_, l)) if l.split_whitespace().eq(want.split_whitespace()) => {}
        Some((n, l)) => return Err(format!("line {n}: expected `{want}`, found `{l}`")),
        None => return Err(format!("empty file: expected `{want}`")),
    }
    let mut w = Vec::with_capacity(WEIGHTS);
    for (n, line) in lines {
        if w.len() == WEIGHTS {
            return Err(format!("line {n}: more than {CLASSES} classes"));
        }
        let before = w.len();
        for x in line.split_whitespace() {
            let v = x
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("line {n}: `{x}` is not a number"))?;
            w.push(v);
        }
        if w.len() - before != PATTERNS {
            return Err(format!(
                "line {n}: {} numbers, expected {PATTERNS}",
                w.len() - before
            ));
        }
    }
    if w.len() != WEIGHTS {
        return Err(format!(
            "{} classes, expected {CLASSES}",
            w.len() / PATTERNS
        ));
    }
    Ok(w)
}

/// Write weights in the file's format (3 decimals; zero as `0`, since most
/// patterns hold more pawns than a side has and are never seen).
pub fn format_weights(w: &[f32]) -> String {
    let mut out = format!("{HEADER} {TUPLE} {CLASSES}\n");
    for class in w.chunks(PATTERNS) {
        let line: Vec<String> = class
            .iter()
            .map(|&x| {
                let s = format!("{x:.3}");
                match s.as_str() {
                    "0.000" | "-0.000" => "0".to_string(),
                    _ => s,
                }
            })
            .collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_see_each_cell_in_each_place() {
        // One own pawn on cell 1: it is the first cell of window 0 and the
        // last of window 17 (which covers cells 18..24 and 1).
        let mut seen = Vec::new();
        windows(1, 0, |i| seen.push(i));
        assert_eq!(seen.len(), WINDOWS);
        assert_eq!(seen[0], 1);
        assert_eq!(seen[17], (17 % CLASSES) * PATTERNS + 3usize.pow(7));
        assert_eq!(seen[1], (1 % CLASSES) * PATTERNS);
        // An enemy pawn counts 2 in its digit.
        let mut first = 0;
        windows(0, 1 << 2, |i| {
            if first == 0 {
                first = i + 1;
            }
        });
        assert_eq!(first - 1, 2 * 9);
    }

    #[test]
    fn turning_the_board_by_a_quarter_keeps_the_logit() {
        let w: Vec<f32> = (0..WEIGHTS).map(|i| (i % 97) as f32 * 0.01).collect();
        let (mine, theirs) = (
            0b1001_0110_0000_0001_0000_0011,
            0b0010_0000_0000_1100_1000_0100,
        );
        for turn in [6, 12, 18] {
            let a = logit(mine, theirs, &w);
            let b = logit(forward(mine, turn), forward(theirs, turn), &w);
            assert!((a - b).abs() < 1e-4, "{a} {b}");
        }
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let w: Vec<f32> = (0..WEIGHTS).map(|i| ((i % 7) as f32 - 3.0) / 8.0).collect();
        let text = format_weights(&w);
        let back = parse_weights(&text).expect("round trip");
        assert!(back.iter().zip(&w).all(|(a, b)| (a - b).abs() < 1e-3));
        assert!(parse_weights("").unwrap_err().contains("empty"));
        assert!(parse_weights("ntuple 6 6\n")
            .unwrap_err()
            .contains("expected"));
        let short: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(parse_weights(&short).unwrap_err().contains("classes"));
        let nan = text.replacen(" 0 ", " NaN ", 1);
        assert!(parse_weights(&nan).unwrap_err().contains("not a number"));
        let cut = text.replacen(" 0 ", " ", 1);
        assert!(parse_weights(&cut).unwrap_err().contains("numbers"));
    }
}
