//! Fits Ad Elta Stelpur's n-tuple network (`stelpur::ntuple`) to self-play
//! results, on top of the fixed linear evaluation.
//!
//! The targets are TD(λ) returns (`--lambda`, 0.7 in the script): each
//! position learns a mix of the next position's value and its target, the
//! game's result at the end. The results alone (λ = 1) carry the noise of
//! every later roll: fitted to them, the network barely generalised (on
//! 40,000 games the held-out loss fell by 0.0004, against 0.0016 with
//! λ = 0.7, and rose at a ten times higher rate). The targets are recomputed with the current weights
//! before each epoch. `--linear FILE` also refits the linear weights and
//! writes them there (it gained 0.0002 of held-out loss; not used).
//!
//! Reads the position files `tune_stelpur --positions` writes (`game result
//! position` lines), and fits the network's weights so that the linear
//! model's logit plus the network's predicts the mover's result: logistic
//! loss, stochastic gradient descent with a small L2 pull towards zero
//! (thousands of weights, each seen in few positions: Newton's method would
//! need a matrix of their square). The linear weights stay fixed, so the
//! network learns what they miss. One game in ten is held out, and the
//! weights of the epoch with the lowest held-out loss are kept. Prints the
//! weights file on stdout; the losses go to stderr.
//!
//! ```sh
//! cargo run --release -p tabula-games --example fit_stelpur_ntuple -- \
//!     --epochs 6 --lambda 0.7 positions-*.txt
//! ```

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use stelpur::eval::{format_weights, parse_weights, FEATURES};
use stelpur::ntuple::{self, WINDOWS};
use stelpur::{Options, Stelpur};
use tabula_core::{Game, Player};

/// One position: the linear model's logit, the network's windows, the
/// mover's result, and what the mover of the next position in the same
/// game is (`None` for a game's last position).
struct Sample {
    base: f32,
    /// The linear features that are not zero, for `--linear`.
    features: Vec<(u8, f32)>,
    windows: [u16; WINDOWS],
    result: f32,
    next: Option<Next>,
}

/// The next position of a game is played by the same mover or the other.
#[derive(Clone, Copy, PartialEq)]
enum Next {
    Same,
    Other,
}

struct Args {
    epochs: usize,
    rate: f32,
    lambda: f32,
    /// The linear weights' rate, as a share of the network's.
    rate_linear: f32,
    l2: f32,
    init: Option<String>,
    /// Also refit the linear weights (from the built-in ones), and write
    /// them to this file.
    linear: Option<String>,
    files: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        epochs: 12,
        rate: 0.001,
        lambda: 1.0,
        rate_linear: 0.1,
        l2: 1e-4,
        init: None,
        linear: None,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        if !arg.starts_with("--") {
            a.files.push(arg);
            continue;
        }
        let value = it.next().ok_or(format!("{arg} needs a value"))?;
        let bad = || format!("{arg}: `{value}` is not a number");
        match arg.as_str() {
            "--epochs" => a.epochs = value.parse().map_err(|_| bad())?,
            "--rate" => a.rate = value.parse().map_err(|_| bad())?,
            "--rate-linear" => a.rate_linear = value.parse().map_err(|_| bad())?,
            "--lambda" => a.lambda = value.parse().map_err(|_| bad())?,
            "--l2" => a.l2 = value.parse().map_err(|_| bad())?,
            "--init" => a.init = Some(value),
            "--linear" => a.linear = Some(value),
            _ => return Err(format!("unknown flag {arg}")),
        }
    }
    if a.files.is_empty() {
        return Err("no position files".into());
    }
    Ok(a)
}

/// Reads one position file into training and held-out samples.
fn read(
    path: &str,
    keep_features: bool,
    train: &mut Vec<Sample>,
    test: &mut Vec<Sample>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let opts = Options::default();
    let mut last: Option<(usize, Player)> = None;
    for (n, line) in text.lines().enumerate() {
        let err = |what: &str| format!("{path}:{}: {what}", n + 1);
        let mut parts = line.splitn(3, ' ');
        let (Some(game), Some(result), Some(pos)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(err("expected `game result position`"));
        };
        let game: usize = game.parse().map_err(|_| err("bad game number"))?;
        let result: f32 = result.parse().map_err(|_| err("bad result"))?;
        let g = Stelpur::from_position(&opts, pos).map_err(|e| err(&e.to_string()))?;
        let me = g.to_move();
        let (mine, theirs) = (g.pawns(me), g.pawns(Player(1 - me.0)));
        let mut windows = [0u16; WINDOWS];
        let mut k = 0;
        ntuple::windows(mine, theirs, |i| {
            windows[k] = i as u16;
            k += 1;
        });
        let features = if keep_features {
            let f = g.features();
            (0..FEATURES)
                .filter(|&i| f[i] != 0.0)
                .map(|i| (i as u8, f[i]))
                .collect()
        } else {
            Vec::new()
        };
        let s = Sample {
            base: g.linear_logit(),
            features,
            windows,
            result,
            next: None,
        };
        let set = if game % 10 == 9 {
            &mut *test
        } else {
            &mut *train
        };
        if let (Some((before, mover)), Some(prev)) = (last, set.last_mut()) {
            if before == game {
                prev.next = Some(if mover == me { Next::Same } else { Next::Other });
            }
        }
        last = Some((game, me));
        set.push(s);
    }
    Ok(())
}

/// The logit under `w`: the network's weights, then (with `--linear`)
/// changes to the built-in linear weights.
fn logit(s: &Sample, w: &[f32]) -> f32 {
    let linear = &w[ntuple::WEIGHTS..];
    s.base
        + s.windows.iter().map(|&i| w[usize::from(i)]).sum::<f32>()
        + s.features
            .iter()
            .map(|&(i, x)| linear[usize::from(i)] * x)
            .sum::<f32>()
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean log-loss of the samples under `w`.
fn loss(data: &[Sample], w: &[f32]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|s| {
            let p = f64::from(sigmoid(logit(s, w))).clamp(1e-9, 1.0 - 1e-9);
            let y = f64::from(s.result);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The targets of TD(λ), from the last position of each game back: the
/// λ-return mixes the value of the next position (under `w`, seen by this
/// position's mover) with the next position's own target, the game's result
/// at its end. λ = 1 is the result itself.
fn lambda_returns(data: &[Sample], w: &[f32], lambda: f32, out: &mut [f32]) {
    let mut after = (0.0, 0.0); // the next position's value and target
    for (k, s) in data.iter().enumerate().rev() {
        out[k] = match s.next {
            None => s.result,
            Some(next) => {
                let t = (1.0 - lambda) * after.0 + lambda * after.1;
                if next == Next::Same {
                    t
                } else {
                    1.0 - t
                }
            }
        };
        after = (sigmoid(logit(s, w)), out[k]);
    }
}

fn main() {
    let args = parse_args().unwrap_or_else(|e| {
        eprintln!("fit_stelpur_ntuple: {e}");
        std::process::exit(2);
    });
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for f in &args.files {
        if let Err(e) = read(f, args.linear.is_some(), &mut train, &mut test) {
            eprintln!("fit_stelpur_ntuple: {e}");
            std::process::exit(1);
        }
    }
    let mut w = match &args.init {
        None => vec![0.0; ntuple::WEIGHTS],
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| ntuple::parse_weights(&t))
            .unwrap_or_else(|e| {
                eprintln!("fit_stelpur_ntuple: {path}: {e}");
                std::process::exit(1);
            }),
    };
    w.resize(ntuple::WEIGHTS + FEATURES, 0.0);
    let zero = vec![0.0; ntuple::WEIGHTS + FEATURES];
    let linear = loss(&test, &zero);
    let start = loss(&test, &w);
    eprintln!(
        "{} training positions, {} held out; held-out log-loss {linear:.5} (linear only), \
         {start:.5} (start)",
        train.len(),
        test.len()
    );
    let mut best = (start, w.clone());
    let mut rng = SmallRng::seed_from_u64(1);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut targets = vec![0.0f32; train.len()];
    for epoch in 0..args.epochs {
        lambda_returns(&train, &w, args.lambda, &mut targets);
        // The rate falls linearly to a tenth over the epochs.
        let rate = args.rate * (1.0 - 0.9 * epoch as f32 / args.epochs.max(1) as f32);
        order.shuffle(&mut rng);
        for &k in &order {
            let s = &train[k];
            let g = sigmoid(logit(s, &w)) - targets[k];
            for &i in &s.windows {
                let wi = &mut w[usize::from(i)];
                *wi -= rate * (g + args.l2 * *wi);
            }
            for &(i, x) in &s.features {
                w[ntuple::WEIGHTS + usize::from(i)] -= args.rate_linear * rate * g * x;
            }
        }
        let (tr, te) = (loss(&train, &w), loss(&test, &w));
        eprintln!(
            "epoch {}: rate {rate:.4}, log-loss {tr:.5} training, {te:.5} held out",
            epoch + 1
        );
        if te < best.0 {
            best = (te, w.clone());
        }
    }
    println!(
        "# Ad Elta Stelpur n-tuple network: logit added to the linear evaluation's.\n\
         # Written by scripts/train-stelpur-ntuple.sh (fit_stelpur_ntuple, {} epochs, rate {}, \
         lambda {}, l2 {})\n\
         # ({} positions; held-out log-loss {linear:.5} linear only -> {:.5}).",
        args.epochs,
        args.rate,
        args.lambda,
        args.l2,
        train.len(),
        best.0
    );
    let (net, linear) = best.1.split_at(ntuple::WEIGHTS);
    print!("{}", ntuple::format_weights(net));
    if let Some(path) = &args.linear {
        let mut out = parse_weights(include_str!("../../stelpur/data/eval-weights.txt"))
            .expect("the built-in weights parse");
        out.iter_mut().zip(linear).for_each(|(o, d)| *o += d);
        let text = format!(
            "# Ad Elta Stelpur evaluation: logit of the mover's win, by feature.\n\
             # Refitted with the n-tuple network by fit_stelpur_ntuple (TD lambda {}).\n{}",
            args.lambda,
            format_weights(&out)
        );
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("fit_stelpur_ntuple: {path}: {e}");
            std::process::exit(1);
        }
    }
}
