//! `tabula train stelpur`: train Ad Elta Stelpur's neural network by
//! self-play TD(λ) (`stelpur::train`), with progress on stderr and
//! checkpoints that a later run resumes from.

use crate::CmdResult;
use std::path::{Path, PathBuf};
use std::time::Instant;
use stelpur::mlp::Net;
use stelpur::train::{duel, Config, Trainer};

#[derive(clap::Args)]
pub struct Args {
    /// The game to train: only `stelpur` has a trained network.
    game: String,
    /// Train until the network has played this many games in all (a
    /// resumed run counts the games already in its file).
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Start from this weights file (a checkpoint) instead of an untrained
    /// network.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Where checkpoints and the final weights go (default: the resumed
    /// file, else `mlp-weights.txt`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write a checkpoint every this many games.
    #[arg(long, default_value_t = 5_000)]
    checkpoint: u64,
    /// λ of the TD(λ) returns.
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Learning rate.
    #[arg(long, default_value_t = 0.01)]
    rate: f32,
    /// Seed of the dice (and of the untrained network's weights).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// At each checkpoint, play this many pairs of games (the same dice
    /// from both seats), one roll ahead, the network against the
    /// evaluation without it, and print the score.
    #[arg(long, default_value_t = 200)]
    duels: u64,
    /// Train an untrained network to be the whole evaluation, rather than
    /// what it adds to the previous one.
    #[arg(long)]
    alone: bool,
}

pub fn run(args: Args) -> CmdResult {
    if args.game != "stelpur" {
        return Err(format!(
            "no trained network for `{}` (only `stelpur` has one)",
            args.game
        ));
    }
    if !((0.0..=1.0).contains(&args.lambda) && args.rate > 0.0 && args.rate < 1.0) {
        return Err("--lambda must be in [0, 1] and --rate in (0, 1)".to_string());
    }
    if args.checkpoint == 0 {
        return Err("--checkpoint must be at least 1".to_string());
    }
    let net = match &args.resume {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Net::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => {
            let mut net = Net::new(args.seed);
            net.alone = args.alone;
            net
        }
    };
    let out = args
        .out
        .clone()
        .or_else(|| args.resume.clone())
        .unwrap_or_else(|| PathBuf::from("mlp-weights.txt"));
    let config = Config {
        lambda: args.lambda,
        rate: args.rate,
        seed: args.seed,
    };
    let mut t = Trainer::new(net, config);
    eprintln!(
        "training from {} games to {}, lambda {}, rate {}, checkpoints every {} games to {}",
        t.net.games,
        args.games,
        args.lambda,
        args.rate,
        args.checkpoint,
        out.display()
    );
    let start = Instant::now();
    let first = t.net.games;
    let mut last_report = Instant::now();
    let (mut positions, mut loss, mut base_loss) = (0u64, 0.0f64, 0.0f64);
    while t.net.games < args.games {
        let s = t.play_game();
        positions += s.positions;
        loss += s.loss;
        base_loss += s.base_loss;
        let done = t.net.games;
        if last_report.elapsed().as_secs_f64() >= 5.0 || done == args.games {
            let rate = (done - first) as f64 / start.elapsed().as_secs_f64();
            let eta = (args.games - done) as f64 / rate.max(1e-9);
            eprintln!(
                "games {done}/{}  {rate:.0} games/s  log-loss {:.4} (without the network {:.4}; {positions} positions)  eta {}",
                args.games,
                loss / positions.max(1) as f64,
                base_loss / positions.max(1) as f64,
                minutes(eta)
            );
            (positions, loss, base_loss) = (0, 0.0, 0.0);
            last_report = Instant::now();
        }
        if done.is_multiple_of(args.checkpoint) || done == args.games {
            let score = (args.duels > 0).then(|| measure(&t.net, args.duels, done));
            if let Some(score) = score {
                eprintln!(
                    "games {done}: one roll ahead against the evaluation without the network, {:.3} over {} games",
                    score,
                    2 * args.duels
                );
            }
            save(&t, &out, score, args.duels)?;
        }
    }
    eprintln!(
        "done: {} games in {}, weights in {}",
        t.net.games - first,
        minutes(start.elapsed().as_secs_f64()),
        out.display()
    );
    Ok(())
}

/// The network's score, one roll ahead, against the evaluation without
/// it: `pairs` dice sequences, each played from both seats.
fn measure(net: &Net, pairs: u64, salt: u64) -> f64 {
    let mut sum = 0.0;
    for i in 0..pairs {
        let seed = 0x5eed_0000 ^ salt.wrapping_mul(1_000_003) ^ i;
        sum += f64::from(duel(Some(net), None, seed));
        sum += 1.0 - f64::from(duel(None, Some(net), seed));
    }
    sum / (2 * pairs) as f64
}

/// Write the weights to `out` through a temporary file, so that an
/// interrupted run never leaves half a file.
fn save(t: &Trainer, out: &Path, score: Option<f64>, duels: u64) -> CmdResult {
    let c = &t.config;
    let what = if t.net.alone {
        "the whole evaluation"
    } else {
        "logit added to the previous evaluation's"
    };
    let mut comment = format!(
        "Ad Elta Stelpur TD network: {what} (seed rules, before a roll).\n\
         Written by tabula train stelpur (self-play one roll ahead, TD(lambda) {}, rate {}, seed {}).",
        c.lambda, c.rate, c.seed
    );
    if let Some(s) = score {
        comment.push_str(&format!(
            "\nOne roll ahead against the evaluation without it: {s:.3} over {} games.",
            2 * duels
        ));
    }
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, t.net.to_text(&comment))
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))
}

fn minutes(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    format!("{}m{:02}s", s / 60, s % 60)
}
