//! Texel-style tuning of Ad Elta Stelpur's evaluation by self-play.
//!
//! Plays games between two expectimax searches at a fixed node budget
//! (with the evaluation built into this binary), records the features of
//! every position with the mover's result (1 win, 0.5 draw, 0 loss), and
//! fits the logistic model's weights by Newton's method, regularised
//! towards the current weights (so a feature no game reached keeps its
//! value). Prints the new weights file on stdout; the log-loss of the old
//! and new weights on held-out games (one in ten) goes to stderr.
//!
//! ```sh
//! cargo run --release -p tabula-games --example tune_stelpur -- --games 4000 --nodes 400 --seed 1
//! ```
//!
//! With `--positions FILE` it writes the games' positions (`game result
//! position` lines) instead of fitting, for the n-tuple network's trainer
//! (`fit_stelpur_ntuple`, run by `scripts/train-stelpur-ntuple.sh`).
//!
//! `scripts/tune-stelpur.sh` runs a few rounds of it, rebuilding with each
//! round's weights so that the games follow the evaluation being tuned.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stelpur::eval::{format_weights, material_feature, parse_weights, FEATURES, PAWNS};
use stelpur::{Options, Stelpur};
use tabula_ai::tune::{fit_logistic, log_loss};
use tabula_ai::{Agent, Budget, Limits, SearchAgent, SearchConfig};
use tabula_core::playout::sample_chance;
use tabula_core::{Game, Outcome, Player, Turn};

/// Share of decisions played at random, so that the games cover positions
/// good play avoids.
const EXPLORE: f64 = 0.05;
/// Strength of the pull towards the current weights (a Gaussian prior).
const PRIOR: f64 = 1.0;

struct Args {
    games: usize,
    nodes: u64,
    seed: u64,
    threads: usize,
    /// Write the games' positions here instead of fitting (for the n-tuple
    /// network's trainer, `fit_stelpur_ntuple`).
    positions: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        games: 2000,
        nodes: 400,
        seed: 1,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        positions: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("{flag}: `{value}` is not a number");
        match flag.as_str() {
            "--games" => a.games = value.parse().map_err(bad)?,
            "--nodes" => a.nodes = value.parse().map_err(bad)?,
            "--seed" => a.seed = value.parse().map_err(bad)?,
            "--threads" => a.threads = value.parse::<usize>().map_err(bad)?.max(1),
            "--positions" => a.positions = Some(value),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(a)
}

/// The players of the tuning games: expectimax with depth in actions, which
/// plays sensibly within a few hundred nodes (depth in rolls, the agents'
/// default, needs thousands for its first iteration), so that tens of
/// thousands of games take minutes.
fn player() -> SearchConfig {
    SearchConfig {
        depth_in_rolls: false,
        ..SearchConfig::expectimax()
    }
}

/// Plays one game; returns its positions with the mover's result.
fn play(agent: &mut SearchAgent<Stelpur>, nodes: u64, rng: &mut SmallRng) -> Vec<(Stelpur, f32)> {
    let mut g = Stelpur::start(&Options::default());
    let mut seen: Vec<(Stelpur, Player)> = Vec::new();
    let mut buf = Vec::new();
    let limits = Limits::iterations(nodes);
    loop {
        let turn = g.turn();
        if turn != Turn::Over {
            seen.push((g.clone(), g.to_move()));
        }
        match turn {
            Turn::Over => break,
            Turn::Chance => {
                g.chance_outcomes(&mut buf);
                let roll = sample_chance::<Stelpur, _>(&buf, rng);
                g.apply(roll);
            }
            Turn::Player(_) => {
                let actions = g.actions_here();
                let action = if actions.len() > 1 && rng.gen_bool(EXPLORE) {
                    actions[rng.gen_range(0..actions.len())]
                } else if actions.len() == 1 {
                    actions[0]
                } else {
                    let budget = Budget::new(&limits, &Limits::default());
                    match agent.decide(&g, &budget) {
                        Ok(d) => d.action,
                        Err(_) => actions[0],
                    }
                };
                g.apply(action);
            }
        }
    }
    let outcome = g.outcome().unwrap_or(Outcome::Draw(Default::default()));
    seen.into_iter()
        .map(|(g, p)| (g, outcome.score(p) as f32))
        .collect()
}

/// Writes `game result position` lines, the result the mover's.
fn write_positions(path: &str, games: &[(usize, Vec<(Stelpur, f32)>)]) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for (i, game) in games {
        for (g, y) in game {
            writeln!(out, "{i} {y} {}", g.position())?;
        }
    }
    out.flush()
}

/// Makes the material table monotone (a pawn more of one's own, or one
/// fewer of the opponent's, never scores lower), as the evaluation's tests
/// require: the rare pairings (six pawns against one) get few samples.
fn monotone_material(w: &mut [f64]) {
    let at = material_feature;
    for _ in 0..PAWNS * PAWNS {
        for u in 1..=PAWNS {
            for t in 1..=PAWNS {
                if u < PAWNS && w[at(u + 1, t)] < w[at(u, t)] {
                    w[at(u + 1, t)] = w[at(u, t)];
                }
                if t < PAWNS && w[at(u, t + 1)] > w[at(u, t)] {
                    w[at(u, t + 1)] = w[at(u, t)];
                }
            }
        }
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tune_stelpur: {e}");
            std::process::exit(2);
        }
    };
    let current = parse_weights(include_str!("../../stelpur/data/eval-weights.txt"))
        .expect("the built-in weights parse");
    let prior: Vec<f64> = current.iter().map(|&x| f64::from(x)).collect();

    // Games are dealt to threads by index, each game with its own seed:
    // the same arguments give the same data on any number of threads.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let games: Vec<(usize, Vec<(Stelpur, f32)>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..args.threads)
            .map(|_| {
                s.spawn(|| {
                    let mut agent = SearchAgent::new("expectimax", player(), Limits::default());
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= args.games {
                            break out;
                        }
                        let mut rng =
                            SmallRng::seed_from_u64(args.seed.wrapping_mul(1_000_003) + i as u64);
                        out.push((i, play(&mut agent, args.nodes, &mut rng)));
                        if (i + 1).is_multiple_of(500) {
                            eprintln!("{} / {} games", i + 1, args.games);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    if let Some(path) = &args.positions {
        if let Err(e) = write_positions(path, &games) {
            eprintln!("tune_stelpur: {path}: {e}");
            std::process::exit(1);
        }
        return;
    }
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, game) in games {
        let samples = game.into_iter().map(|(g, y)| (g.features().to_vec(), y));
        if i % 10 == 9 {
            test.extend(samples);
        } else {
            train.extend(samples);
        }
    }
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        test.len()
    );
    let mut w = fit_logistic(&prior, &train, PRIOR, args.threads);
    monotone_material(&mut w);
    let (before, after) = (log_loss(&prior, &test), log_loss(&w, &test));
    eprintln!(
        "held-out log-loss: {before:.5} with the current weights, {after:.5} with the new ones"
    );
    println!(
        "# Ad Elta Stelpur evaluation: logit of the mover's win, by feature.\n\
         # Written by scripts/tune-stelpur.sh (tune_stelpur --games {} --nodes {} --seed {})\n\
         # ({} positions; held-out log-loss {:.5} -> {:.5}).",
        args.games,
        args.nodes,
        args.seed,
        train.len(),
        before,
        after
    );
    let mut out = [0.0; FEATURES];
    out.iter_mut().zip(&w).for_each(|(o, &x)| *o = x as f32);
    print!("{}", format_weights(&out));
}
