//! A small neural network over the board, trained by self-play TD(λ) as
//! TD-Gammon was: level 8's evaluation before a roll under the seed rules.
//!
//! One hidden layer of [`HIDDEN`] ReLU units over [`INPUTS`] binary inputs
//! (each cell holding one of the mover's pawns, each holding one of the
//! opponent's, and each side's pawn count one-hot), giving the logit of the
//! mover's win. The rules are the same after a turn of 6 cells, so a
//! position is first turned to the canonical one of its four turns: the
//! value is exactly the same for all four. A network is either the whole
//! evaluation (`base none`, the one in the repository) or a correction
//! added to the previous evaluation's logit (`base previous`; with zero
//! output weights, as [`Net::new`] makes it, it leaves that evaluation as
//! it was).
//!
//! Inference is f32 and sparse: at most [`MAX_ACTIVE`] inputs are on, and
//! each adds its row of [`HIDDEN`] weights (contiguous, so the additions
//! vectorise); the output is a dot product kept in 8 lanes for the same
//! reason. No linear features are computed, so a leaf costs less than the
//! previous evaluation's. The weights are data (`data/mlp-weights.txt`),
//! written by `tabula train stelpur` ([`crate::train`]).

use crate::board::forward;

/// Inputs: 24 cells of the mover, 24 of the opponent, 6 pawn counts each.
pub const INPUTS: usize = 60;
/// Hidden units (a multiple of 8, the vector width the loops assume).
pub const HIDDEN: usize = 64;
/// Inputs on at once at most: 6 pawns and a count a side.
pub const MAX_ACTIVE: usize = 14;
/// Version of the weights file's format; a file of another version, or of
/// other sizes, is refused.
pub const FORMAT: u32 = 1;
/// The file's first line (after comments): `stelpur-mlp FORMAT INPUTS HIDDEN`.
const MAGIC: &str = "stelpur-mlp";
const OWN_CELLS: usize = 0;
const THEIR_CELLS: usize = 24;
const OWN_COUNT: usize = 48;
const THEIR_COUNT: usize = 54;
/// Lanes of the output's dot product.
const LANES: usize = 8;

/// The network's weights, and how many training games made them.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// One row of hidden weights per input: an input that is on adds its row.
    pub(crate) w1: Vec<[f32; HIDDEN]>,
    pub(crate) b1: [f32; HIDDEN],
    pub(crate) w2: [f32; HIDDEN],
    pub(crate) b2: f32,
    /// Self-play games trained on so far (kept in the file, for resuming).
    pub games: u64,
    /// Whether the network's logit is the whole evaluation, rather than
    /// added to the previous evaluation's (the file's `base` line).
    pub alone: bool,
}

/// The position turned by 0, 6, 12 or 18 cells to the smallest
/// `(mine, theirs)`: the same for all four turns of a position.
pub fn canonical(mine: u32, theirs: u32) -> (u32, u32) {
    let key = |(m, t): (u32, u32)| (u64::from(m) << 24) | u64::from(t);
    [6, 12, 18]
        .into_iter()
        .map(|turn| (forward(mine, turn), forward(theirs, turn)))
        .fold(
            (mine, theirs),
            |best, c| {
                if key(c) < key(best) {
                    c
                } else {
                    best
                }
            },
        )
}

/// The inputs that are on for the mover holding `mine` against `theirs`
/// (24-bit masks, both non-empty): written to `out`, their number returned.
pub fn active(mine: u32, theirs: u32, out: &mut [u8; MAX_ACTIVE]) -> usize {
    let (mine, theirs) = canonical(mine, theirs);
    let mut n = 0;
    let mut push = |i: usize| {
        if n < MAX_ACTIVE {
            out[n] = i as u8;
            n += 1;
        }
    };
    let count = |m: u32| (m.count_ones() as usize).clamp(1, 6) - 1;
    push(OWN_COUNT + count(mine));
    push(THEIR_COUNT + count(theirs));
    for (base, mut m) in [(OWN_CELLS, mine), (THEIR_CELLS, theirs)] {
        while m != 0 {
            push(base + m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }
    n
}

impl Net {
    /// A network whose output is zero everywhere (zero output weights) and
    /// whose hidden weights are small and varied (from `seed`), so that
    /// training can start from the evaluation as it is.
    pub fn new(seed: u64) -> Net {
        let mut s = seed;
        let mut w1 = vec![[0.0; HIDDEN]; INPUTS];
        for row in &mut w1 {
            for w in row.iter_mut() {
                // Uniform in [-0.3, 0.3): about 1 / sqrt(active inputs).
                *w =
                    (crate::train::splitmix(&mut s) >> 40) as f32 / (1u64 << 24) as f32 * 0.6 - 0.3;
            }
        }
        Net {
            w1,
            b1: [0.1; HIDDEN],
            w2: [0.0; HIDDEN],
            b2: 0.0,
            games: 0,
            alone: false,
        }
    }

    /// The hidden layer before its ReLU, for the given active inputs.
    #[inline]
    fn accumulate(&self, active: &[u8]) -> [f32; HIDDEN] {
        let mut acc = self.b1;
        for &i in active {
            let row = &self.w1[usize::from(i)];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The output from the hidden layer before its ReLU.
    #[inline]
    fn output(&self, acc: &[f32; HIDDEN]) -> f32 {
        let mut lanes = [0.0f32; LANES];
        for (a, w) in acc.chunks_exact(LANES).zip(self.w2.chunks_exact(LANES)) {
            for k in 0..LANES {
                lanes[k] += a[k].max(0.0) * w[k];
            }
        }
        self.b2 + lanes.iter().sum::<f32>()
    }

    /// The network's logit (added to the linear model's) for the mover
    /// holding `mine` against `theirs`.
    #[inline]
    pub fn logit(&self, mine: u32, theirs: u32) -> f32 {
        let mut on = [0u8; MAX_ACTIVE];
        let n = active(mine, theirs, &mut on);
        self.output(&self.accumulate(&on[..n]))
    }

    /// One step of stochastic gradient descent on the log-loss of the
    /// win probability `sigmoid(base + logit)` against `target` (in
    /// `[0, 1]`); returns that loss before the step.
    pub fn learn(&mut self, mine: u32, theirs: u32, base: f32, target: f32, rate: f32) -> f32 {
        let mut on = [0u8; MAX_ACTIVE];
        let n = active(mine, theirs, &mut on);
        let acc = self.accumulate(&on[..n]);
        let p = sigmoid(base + self.output(&acc));
        let g = p - target;
        // The step of each hidden unit's input weights (zero where the
        // ReLU is off), from the output weights before their own step.
        let mut d = [0.0f32; HIDDEN];
        for ((dj, &a), w) in d.iter_mut().zip(&acc).zip(self.w2.iter_mut()) {
            if a > 0.0 {
                *dj = rate * g * *w;
                *w -= rate * g * a;
            }
        }
        for (b, dj) in self.b1.iter_mut().zip(&d) {
            *b -= dj;
        }
        for &i in &on[..n] {
            for (w, dj) in self.w1[usize::from(i)].iter_mut().zip(&d) {
                *w -= dj;
            }
        }
        self.b2 -= rate * g;
        log_loss(p, target)
    }

    /// The weights file: comment lines, then `stelpur-mlp FORMAT INPUTS
    /// HIDDEN`, `games N`, `base previous|none`, `b1`, one `w1` line an input, `w2`, `b2`.
    pub fn to_text(&self, comment: &str) -> String {
        let row = |name: &str, xs: &[f32]| {
            let xs: Vec<String> = xs.iter().map(|x| format!("{x:.5}")).collect();
            format!("{name} {}\n", xs.join(" "))
        };
        let mut out: String = comment.lines().map(|l| format!("# {l}\n")).collect();
        out.push_str(&format!("{MAGIC} {FORMAT} {INPUTS} {HIDDEN}\n"));
        out.push_str(&format!("games {}\n", self.games));
        let base = if self.alone { "none" } else { "previous" };
        out.push_str(&format!("base {base}\n"));
        out.push_str(&row("b1", &self.b1));
        for r in &self.w1 {
            out.push_str(&row("w1", r));
        }
        out.push_str(&row("w2", &self.w2));
        out.push_str(&row("b2", &[self.b2]));
        out
    }

    /// Read a weights file, refusing any other format version, other
    /// sizes, a missing or extra line, or a number that is not finite.
    pub fn parse(text: &str) -> Result<Net, String> {
        let mut lines = crate::ntuple::data_lines(text);
        let want = format!("{MAGIC} {FORMAT} {INPUTS} {HIDDEN}");
        match lines.next() {
            None => return Err(format!("empty file: expected `{want}`")),
            Some((n, l)) => {
                let words: Vec<&str> = l.split_whitespace().collect();
                if words.first() != Some(&MAGIC) {
                    return Err(format!(
                        "line {n}: not a Stelpur network (expected `{want}`)"
                    ));
                }
                if words.get(1) != Some(&FORMAT.to_string().as_str()) {
                    return Err(format!(
                        "line {n}: format version {}, this build reads version {FORMAT}",
                        words.get(1).unwrap_or(&"(none)")
                    ));
                }
                if words[1..] != want.split_whitespace().collect::<Vec<_>>()[1..] {
                    return Err(format!("line {n}: sizes `{l}`, this build has `{want}`"));
                }
            }
        }
        let games = {
            let (n, l) = lines
                .next()
                .ok_or_else(|| "the file ends before its `games` line".to_string())?;
            match l.split_whitespace().collect::<Vec<_>>()[..] {
                ["games", g] => g
                    .parse::<u64>()
                    .map_err(|_| format!("line {n}: `{g}` is not a game count"))?,
                _ => return Err(format!("line {n}: expected `games N`")),
            }
        };
        let alone = match lines.next() {
            Some((_, "base previous")) => false,
            Some((_, "base none")) => true,
            Some((n, _)) => {
                return Err(format!("line {n}: expected `base previous` or `base none`"))
            }
            None => return Err("the file ends before its `base` line".to_string()),
        };
        let mut next = |name: &str, len: usize| -> Result<Vec<f32>, String> {
            let (n, l) = lines
                .next()
                .ok_or_else(|| format!("the file ends before its `{name}` line"))?;
            let mut words = l.split_whitespace();
            if words.next() != Some(name) {
                return Err(format!("line {n}: expected a `{name}` line"));
            }
            let xs = words
                .map(|x| {
                    x.parse::<f32>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| format!("line {n}: `{x}` is not a number"))
                })
                .collect::<Result<Vec<f32>, String>>()?;
            if xs.len() != len {
                return Err(format!("line {n}: {} numbers, expected {len}", xs.len()));
            }
            Ok(xs)
        };
        let hidden = |xs: Vec<f32>| -> [f32; HIDDEN] {
            let mut a = [0.0; HIDDEN];
            a.copy_from_slice(&xs);
            a
        };
        let b1 = hidden(next("b1", HIDDEN)?);
        let w1 = (0..INPUTS)
            .map(|_| next("w1", HIDDEN).map(hidden))
            .collect::<Result<Vec<_>, _>>()?;
        let w2 = hidden(next("w2", HIDDEN)?);
        let b2 = next("b2", 1)?[0];
        if let Some((n, _)) = lines.next() {
            return Err(format!("line {n}: more lines than the network has"));
        }
        Ok(Net {
            w1,
            b1,
            w2,
            b2,
            games,
            alone,
        })
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Log-loss of predicting `p` for an outcome of (expected) score `y`.
pub fn log_loss(p: f32, y: f32) -> f32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network with every weight set, varied and non-zero.
    fn varied() -> Net {
        let mut net = Net::new(7);
        for (j, w) in net.w2.iter_mut().enumerate() {
            *w = ((j % 5) as f32 - 2.0) * 0.1;
        }
        net.b1
            .iter_mut()
            .enumerate()
            .for_each(|(j, b)| *b = (j % 3) as f32 * 0.05 - 0.05);
        net.b2 = 0.2;
        net
    }

    const MINE: u32 = 0b1001_0110_0000_0001_0000_0010;
    const THEIRS: u32 = 0b0010_0000_0000_1100_1000_0000;

    #[test]
    fn the_forward_pass_equals_a_naive_computation() {
        let net = varied();
        let (mine, theirs) = canonical(MINE, THEIRS);
        let mut x = [0.0f32; INPUTS];
        for c in 0..24 {
            x[c] = ((mine >> c) & 1) as f32;
            x[24 + c] = ((theirs >> c) & 1) as f32;
        }
        x[48 + mine.count_ones() as usize - 1] = 1.0;
        x[54 + theirs.count_ones() as usize - 1] = 1.0;
        let mut out = f64::from(net.b2);
        for j in 0..HIDDEN {
            let mut h = f64::from(net.b1[j]);
            for (i, xi) in x.iter().enumerate() {
                h += f64::from(*xi) * f64::from(net.w1[i][j]);
            }
            out += h.max(0.0) * f64::from(net.w2[j]);
        }
        let fast = net.logit(MINE, THEIRS);
        assert!((f64::from(fast) - out).abs() < 1e-4, "{fast} against {out}");
        assert!(out.abs() > 0.01, "the test network is not trivial");
    }

    #[test]
    fn the_value_is_the_same_for_every_quarter_turn() {
        let net = varied();
        let a = net.logit(MINE, THEIRS);
        for turn in [6, 12, 18] {
            let b = net.logit(forward(MINE, turn), forward(THEIRS, turn));
            assert_eq!(a, b, "turned by {turn}");
        }
        // Not by other turns: the corners are every 6 cells.
        assert_ne!(a, net.logit(forward(MINE, 1), forward(THEIRS, 1)));
    }

    #[test]
    fn a_new_network_adds_nothing() {
        assert_eq!(Net::new(1).logit(MINE, THEIRS), 0.0);
    }

    #[test]
    fn learning_moves_the_value_towards_the_target() {
        let mut net = varied();
        let before = net.logit(MINE, THEIRS);
        let loss = net.learn(MINE, THEIRS, 0.3, 1.0, 0.05);
        assert!(net.logit(MINE, THEIRS) > before);
        assert!(net.learn(MINE, THEIRS, 0.3, 1.0, 0.05) < loss);
    }

    #[test]
    fn files_round_trip() {
        let mut net = varied();
        net.games = 1234;
        let back = Net::parse(&net.to_text("a comment\nover two lines")).expect("parses");
        assert_eq!(back.games, 1234);
        assert!((back.logit(MINE, THEIRS) - net.logit(MINE, THEIRS)).abs() < 1e-3);
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let text = varied().to_text("");
        let err = |t: &str| Net::parse(t).unwrap_err();
        assert!(err("").contains("empty"));
        assert!(err("ntuple 8 6\n").contains("not a Stelpur network"));
        let v2 = text.replace("stelpur-mlp 1 ", "stelpur-mlp 2 ");
        assert!(err(&v2).contains("format version 2, this build reads version 1"));
        let sizes = text.replace("stelpur-mlp 1 60 64", "stelpur-mlp 1 60 32");
        assert!(err(&sizes).contains("sizes"));
        let cut: String = text.lines().take(20).map(|l| format!("{l}\n")).collect();
        assert!(err(&cut).contains("ends before"));
        assert!(err(&format!("{text}b2 1\n")).contains("more lines"));
        let nan = text.replacen("w2 ", "w2 NaN ", 1);
        assert!(err(&nan).contains("not a number"));
        let short = text.replacen("b2 ", "b2 1 ", 1);
        assert!(err(&short).contains("2 numbers, expected 1"));
        assert!(err(&text.replace("games 0", "games x")).contains("game count"));
        assert!(err(&text.replace("base previous", "base x")).contains("base none"));
    }
}
