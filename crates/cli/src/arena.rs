//! `tabula arena`: matches between agents, for strength tables and for
//! testing changes.
//!
//! Games come in blocks: one game per seating order of the agents, all with
//! the same dice (one seeded random stream per block, drawn in order) and
//! the same few random opening actions, so seat and dice luck cancel out.
//! Blocks run in parallel, one game per thread.

mod stats;

use crate::hint::parse_time;
use crate::{open_game, print_json, CmdResult};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use stats::{elo, mean_interval, Sprt, Verdict};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tabula_ai::{AgentKind, AnyAgent, Limits};
use tabula_core::{AnyGame, Outcome, Player, Record, Turn};

#[derive(clap::Args)]
pub struct Args {
    /// Game spec, e.g. `phylde` or `gildervaik(mode=warrior)`.
    spec: String,
    /// One agent per seat, comma-separated: random, greedy, uct, mcts,
    /// alphabeta, expectimax, level1 ... level8, classic (level 8 with the
    /// game's previous evaluation); `NAME@SECONDS` gives that
    /// agent its own thinking time (e.g. `mcts@0.4,mcts@0.1`), and a
    /// `:THREADS` suffix its own search threads (`alphabeta@0.5:2`).
    #[arg(long)]
    agents: String,
    /// Number of games (rounded up to whole blocks of seatings).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Thinking time per action in seconds, for every agent (default: each
    /// agent's own budget).
    #[arg(long)]
    time: Option<f64>,
    /// Multiply each agent's own thinking time by this factor (for a ladder
    /// of levels at a fraction of their budgets); ignored with `--time`.
    #[arg(long)]
    time_scale: Option<f64>,
    /// Random actions played at the start of every game, for variety.
    #[arg(long, default_value_t = 2)]
    opening: usize,
    /// Stop early once the first agent is proven `ELO1` stronger than the
    /// second, or not `ELO0` stronger: `--sprt ELO0,ELO1` (two agents).
    #[arg(long)]
    sprt: Option<String>,
    /// Save the record of every game in this directory.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Parallel games (default: the available cores over the most search
    /// threads of an agent).
    #[arg(long)]
    threads: Option<usize>,
    /// Search threads of every agent without a `:THREADS` of its own.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=crate::hint::MAX_THREADS))]
    agent_threads: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// What happened in one game, with the agents' search statistics.
struct GameResult {
    index: usize,
    /// Agent index of each seat.
    seating: Vec<usize>,
    outcome: Outcome,
    record: Record,
    /// Per agent: actions chosen, nodes searched, thinking time.
    moves: Vec<u64>,
    nodes: Vec<u64>,
    thinking: Vec<Duration>,
}

/// Per-agent totals.
#[derive(Default, Clone)]
struct Tally {
    games: usize,
    wins: usize,
    draws: usize,
    points: f64,
    moves: u64,
    nodes: u64,
    thinking: Duration,
}

struct Match<'a> {
    spec: &'a str,
    /// Each agent as written (`mcts@0.4`), for tables and records.
    names: Vec<String>,
    /// Each agent without its time, and its limits.
    agents: Vec<(AgentKind, Limits)>,
    opening: usize,
    seed: u64,
}

pub fn run(args: Args) -> CmdResult {
    let start = open_game(&args.spec, None)?;
    let names: Vec<String> = args
        .agents
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let players = start.num_players();
    if names.len() != players {
        return Err(format!(
            "--agents names {} agents but {} has {players} seats",
            names.len(),
            start.spec()
        ));
    }
    let time = parse_time(args.time)?;
    if let Some(f) = args.time_scale {
        if !(f > 0.0 && f <= 100.0) {
            return Err(format!(
                "--time-scale must be above 0 and at most 100, got {f}"
            ));
        }
    }
    let agents = names
        .iter()
        .map(|n| agent_entry(n, time, args.time_scale, args.agent_threads as usize))
        .collect::<Result<Vec<_>, _>>()?;
    for (kind, _) in &agents {
        tabula_games::make_agent(start.as_ref(), *kind, 0).map_err(|e| e.to_string())?;
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && players != 2 {
        return Err("--sprt needs exactly two agents".into());
    }
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let seatings = permutations(players);
    let blocks = args.games.div_ceil(seatings.len());
    let total = blocks * seatings.len();
    let most_agent_threads = agents
        .iter()
        .filter_map(|(_, l)| l.threads)
        .max()
        .unwrap_or(1);
    let threads = args
        .threads
        .unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| n.get()) / most_agent_threads
        })
        .clamp(1, total);
    let m = Match {
        spec: &args.spec,
        names: names.clone(),
        agents,
        opening: args.opening,
        seed: args.seed,
    };

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut tallies = vec![Tally::default(); players];
    // Per agent: the points of every game, for the interval and the SPRT.
    let mut scores = vec![Vec::new(); players];
    let mut verdict = Verdict::Continue;
    let mut done = 0;
    let progress = Progress::new(total, &names);
    let failure = std::thread::scope(|scope| -> Result<(), String> {
        let (tx, rx) = mpsc::channel::<Result<GameResult, String>>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (m, next, stop, seatings) = (&m, &next, &stop, &seatings);
            scope.spawn(move || loop {
                let j = next.fetch_add(1, Ordering::SeqCst);
                if j >= total || stop.load(Ordering::SeqCst) {
                    break;
                }
                let r = m.play(j, j / seatings.len(), &seatings[j % seatings.len()]);
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    break;
                }
            });
        }
        drop(tx);
        for r in rx {
            let r = match r {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            };
            done += 1;
            for (seat, &a) in r.seating.iter().enumerate() {
                let p = Player(seat as u8);
                let pts = r.outcome.score(p);
                let t = &mut tallies[a];
                t.games += 1;
                t.points += pts;
                match r.outcome {
                    Outcome::Win(w) if w == p => t.wins += 1,
                    Outcome::Draw(set) if set.contains(p) => t.draws += 1,
                    _ => {}
                }
                t.moves += r.moves[a];
                t.nodes += r.nodes[a];
                t.thinking += r.thinking[a];
                scores[a].push(pts);
            }
            if let Some(dir) = &args.records {
                let path = dir.join(format!("game-{:04}.txt", r.index + 1));
                std::fs::write(&path, r.record.to_text())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            progress.show(done, &tallies);
            if let Some(s) = &sprt {
                verdict = s.verdict(&scores[0]);
                if verdict != Verdict::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        Ok(())
    });
    progress.finish();
    failure?;

    let rows: Vec<_> = (0..players)
        .map(|a| {
            let t = &tallies[a];
            let (mean, half) = mean_interval(&scores[a]);
            let score = if t.games > 0 {
                t.points / t.games as f64
            } else {
                0.0
            };
            let nps = t.nodes as f64 / t.thinking.as_secs_f64().max(1e-9);
            (
                a,
                score,
                elo(score, players - 1),
                elo((mean - half).max(0.0), players - 1),
                elo((mean + half).min(1.0), players - 1),
                nps,
            )
        })
        .collect();
    if args.json {
        let agents: Vec<_> = rows
            .iter()
            .map(|&(a, score, e, lo, hi, nps)| {
                let t = &tallies[a];
                json!({
                    "name": names[a],
                    "score": score,
                    "games": t.games,
                    "wins": t.wins,
                    "draws": t.draws,
                    "losses": t.games - t.wins - t.draws,
                    "elo": e,
                    "elo_low": lo,
                    "elo_high": hi,
                    "moves": t.moves,
                    "nodes": t.nodes,
                    "seconds_per_move": t.thinking.as_secs_f64() / t.moves.max(1) as f64,
                    "nodes_per_second": nps,
                })
            })
            .collect();
        let mut obj = json!({
            "game": start.spec(),
            "games": done,
            "seatings": seatings.len(),
            "time": args.time,
            "time_scale": args.time_scale,
            "agents": agents,
        });
        if let Some(s) = &sprt {
            obj["sprt"] = json!({
                "elo0": s.elo0, "elo1": s.elo1,
                "llr": s.llr(&scores[0]),
                "verdict": format!("{verdict:?}"),
            });
        }
        print_json(&obj);
        return Ok(());
    }
    println!(
        "{}: {done} games ({} seatings a block), {}, {threads} threads, {:.0} s",
        start.spec(),
        seatings.len(),
        match (args.time, args.time_scale) {
            (Some(t), _) => format!("{t} s a move"),
            (None, Some(f)) => format!("each agent's own time x {f}"),
            (None, None) => "each agent's own time".to_string(),
        },
        started.elapsed().as_secs_f64()
    );
    let w = names.iter().map(String::len).max().unwrap_or(0).max(12);
    println!(
        "{:<w$} {:>5} {:>5} {:>5} {:>6} {:>6} {:>7} {:>17} {:>8} {:>10}",
        "agent",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "Elo",
        "95% interval",
        "s/move",
        "nodes/s"
    );
    let fmt = |e: Option<f64>, hi: bool| match e {
        Some(e) => format!("{e:+.0}"),
        None if hi => "+inf".into(),
        None => "-inf".into(),
    };
    for &(a, score, e, lo, hi, nps) in &rows {
        let t = &tallies[a];
        println!(
            "{:<w$} {:>5} {:>5} {:>5} {:>6} {:>6.3} {:>7} {:>17} {:>8.3} {:>10.0}",
            names[a],
            t.games,
            t.wins,
            t.draws,
            t.games - t.wins - t.draws,
            score,
            fmt(e, score >= 1.0),
            format!("[{}, {}]", fmt(lo, false), fmt(hi, true)),
            t.thinking.as_secs_f64() / t.moves.max(1) as f64,
            nps
        );
    }
    if let Some(s) = &sprt {
        println!(
            "SPRT elo0={} elo1={}: LLR {:.2}, {}",
            s.elo0,
            s.elo1,
            s.llr(&scores[0]),
            match verdict {
                Verdict::H1 => "H1 accepted (stronger)",
                Verdict::H0 => "H0 accepted (not stronger)",
                Verdict::Continue => "no decision",
            }
        );
    }
    Ok(())
}

/// `NAME`, `NAME@SECONDS`, either with `:THREADS`: the agent and its
/// limits (`time` from `--time` unless the entry gives its own;
/// `time_scale` applies to the agent's own time when neither does;
/// `threads` unless the entry gives its own).
fn agent_entry(
    entry: &str,
    time: Option<Duration>,
    time_scale: Option<f64>,
    threads: usize,
) -> Result<(AgentKind, Limits), String> {
    let (entry, threads) = match entry.split_once(':') {
        None => (entry, threads),
        Some((rest, n)) => match n.parse::<usize>() {
            Ok(n) if (1..=crate::hint::MAX_THREADS as usize).contains(&n) => (rest, n),
            _ => {
                return Err(format!(
                    "`{entry}`: the threads after : must be 1 to {}, e.g. alphabeta:2",
                    crate::hint::MAX_THREADS
                ))
            }
        },
    };
    let (name, time) = match entry.split_once('@') {
        None => (entry, time),
        Some((name, secs)) => {
            let secs: f64 = secs.parse().map_err(|_| {
                format!("`{entry}`: the time after @ must be seconds, e.g. mcts@0.5")
            })?;
            (name, parse_time(Some(secs))?)
        }
    };
    Ok((
        name.parse()
            .map_err(|e: tabula_core::Error| e.to_string())?,
        Limits {
            time,
            time_scale,
            threads: Some(threads),
            ..Limits::default()
        },
    ))
}

impl Match<'_> {
    /// Play game `index` of `block` with agent `seating[s]` in seat `s`.
    fn play(&self, index: usize, block: usize, seating: &[usize]) -> Result<GameResult, String> {
        let mut game: Box<dyn AnyGame> = open_game(self.spec, None)?;
        let block_seed = self.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ block as u64;
        let mut agents: Vec<Box<dyn AnyAgent>> = seating
            .iter()
            .enumerate()
            .map(|(seat, &a)| {
                let seed = block_seed.wrapping_add(1 + seat as u64 * 7919);
                tabula_games::make_agent(game.as_ref(), self.agents[a].0, seed)
            })
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let mut record = Record::new(game.spec(), None);
        record.set_meta("seed", block_seed.to_string());
        for (seat, &a) in seating.iter().enumerate() {
            record.set_meta(&format!("player {}", seat + 1), &self.names[a]);
        }
        let n = self.names.len();
        let (mut moves, mut nodes, mut thinking) =
            (vec![0; n], vec![0; n], vec![Duration::ZERO; n]);
        let mut dice = SmallRng::seed_from_u64(block_seed);
        let mut opening = SmallRng::seed_from_u64(block_seed ^ 0x0bee);
        let mut opening_left = self.opening;
        let outcome = loop {
            let (actor, text) = match game.turn() {
                Turn::Over => break game.outcome().ok_or("a finished game has no result")?,
                Turn::Chance => (
                    None,
                    game.sample_chance(&mut dice)
                        .ok_or("a chance node has no outcome")?,
                ),
                Turn::Player(p) if opening_left > 0 => {
                    opening_left -= 1;
                    let acts = game.legal_actions();
                    (Some(p), acts[opening.gen_range(0..acts.len())].clone())
                }
                Turn::Player(p) => {
                    let a = seating[p.index()];
                    let t0 = Instant::now();
                    let c = agents[p.index()]
                        .choose(game.as_ref(), &self.agents[a].1)
                        .map_err(|e| format!("{} failed: {e}", self.names[a]))?;
                    thinking[a] += t0.elapsed();
                    moves[a] += 1;
                    nodes[a] += c.nodes;
                    (Some(p), c.action)
                }
            };
            let canonical = game
                .apply_text(&text)
                .map_err(|e| format!("game {}: `{text}`: {e}", index + 1))?;
            record.push(actor, canonical);
        };
        record.result = Some(outcome);
        Ok(GameResult {
            index,
            seating: seating.to_vec(),
            outcome,
            record,
            moves,
            nodes,
            thinking,
        })
    }
}

/// Every ordering of `0..n`, first the identity.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n <= 1 {
        return vec![(0..n).collect()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in (0..n).rev() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// A progress line on stderr: redrawn in place on a terminal, every tenth
/// of the way otherwise.
struct Progress<'a> {
    total: usize,
    names: &'a [String],
    tty: bool,
}

impl<'a> Progress<'a> {
    fn new(total: usize, names: &'a [String]) -> Self {
        Progress {
            total,
            names,
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn show(&self, done: usize, tallies: &[Tally]) {
        if !self.tty && done * 10 / self.total == (done - 1) * 10 / self.total {
            return;
        }
        let width = 30;
        let filled = done * width / self.total;
        let scores: Vec<String> = self
            .names
            .iter()
            .zip(tallies)
            .map(|(n, t)| format!("{n} {}", t.points))
            .collect();
        let line = format!(
            "[{}{}] {done}/{} games  {}",
            "#".repeat(filled),
            "-".repeat(width - filled),
            self.total,
            scores.join("  ")
        );
        let mut err = std::io::stderr();
        let _ = if self.tty {
            write!(err, "\r{line}")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seating_order_once() {
        let p = permutations(3);
        assert_eq!(p.len(), 6);
        assert_eq!(p[0], vec![0, 1, 2]);
        let mut sorted = p.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6);
        assert_eq!(permutations(2), vec![vec![0, 1], vec![1, 0]]);
    }

    #[test]
    fn agent_entries_carry_time_and_threads() {
        let (kind, l) = agent_entry("alphabeta@0.5:2", None, None, 1).unwrap();
        assert_eq!(kind, AgentKind::AlphaBeta);
        assert_eq!(l.time, Some(Duration::from_millis(500)));
        assert_eq!(l.threads, Some(2));
        let (_, l) = agent_entry("mcts", Some(Duration::from_secs(1)), None, 3).unwrap();
        assert_eq!((l.time, l.threads), (Some(Duration::from_secs(1)), Some(3)));
        let (_, l) = agent_entry("level8:4", None, Some(0.5), 1).unwrap();
        assert_eq!(
            (l.time, l.threads, l.time_scale),
            (None, Some(4), Some(0.5))
        );
        for bad in ["mcts:0", "mcts:x", "mcts@0.1:", "mcts:1000"] {
            let e = agent_entry(bad, None, None, 1).unwrap_err();
            assert!(e.contains("threads after :"), "{bad}: {e}");
        }
    }
}
