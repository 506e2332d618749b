//! `tabula hint`: the best actions of a position with their values, from
//! the same agents and levels the computer players use (the web app's
//! hints make the same call).

use crate::{open_game, print_json, CmdResult};
use serde_json::json;
use tabula_ai::{AgentKind, AiLevel, Limits};
use tabula_core::{AnyGame, Turn};

/// How many ranked actions the text output lists.
const SHOWN: usize = 10;
/// Most search threads a command accepts.
pub const MAX_THREADS: i64 = 256;
/// Largest transposition table a command accepts, in MB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Most nodes a `--nodes` search may take (hours at level 8's speed).
const MAX_NODES: u64 = 10_000_000_000;

#[derive(clap::Args)]
pub struct Args {
    /// Game spec, e.g. `dragonchess` or `stelpur(preset=ludii)`.
    spec: String,
    /// Position string (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// Strength, 1 to 8 (8 thinks about 2 s).
    #[arg(long, default_value_t = 8)]
    level: u8,
    /// Use this agent instead of a level (`mcts`, `alphabeta`, ...).
    #[arg(long)]
    agent: Option<AgentKind>,
    /// Thinking time in seconds (default: the level's or agent's own).
    #[arg(long)]
    time: Option<f64>,
    /// Nodes (playouts for MCTS) instead of time: on one thread, the
    /// same answer on any machine and under any load.
    #[arg(long, conflicts_with = "time", value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// Stop alpha-beta and expectimax once an iteration of this depth is
    /// done (alone: no time limit); with `--threads`, time to depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=tabula_ai::MAX_DEPTH as i64))]
    depth: Option<u32>,
    /// Search threads (alpha-beta and expectimax: Lazy SMP; MCTS: one
    /// tree per thread).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS))]
    threads: u32,
    /// Transposition table size in MB (alpha-beta and expectimax; default 8).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MB))]
    hash: Option<u32>,
    /// Actions whose values alpha-beta and expectimax make exact; the
    /// others only show a bound (`<=`): they are no better, maybe worse.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=tabula_ai::MAX_MULTIPV as i64))]
    multipv: u32,
    /// Seed of the agent's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `--time` in seconds as a duration, checked.
pub fn parse_time(seconds: Option<f64>) -> Result<Option<std::time::Duration>, String> {
    match seconds {
        None => Ok(None),
        Some(s) if s > 0.0 && s <= 3600.0 => Ok(Some(std::time::Duration::from_secs_f64(s))),
        Some(s) => Err(format!(
            "--time must be between 0 and 3600 seconds, got {s}"
        )),
    }
}

pub fn run(args: Args) -> CmdResult {
    let game = open_game(&args.spec, args.position.as_deref())?;
    if game.turn() == Turn::Chance {
        return Err(waiting_for_chance(game.as_ref()));
    }
    let level = AiLevel::from_number(args.level).map_err(|e| format!("--level: {}", e.message))?;
    let kind = args.agent.unwrap_or(AgentKind::Level(level));
    let mut agent =
        tabula_games::make_agent(game.as_ref(), kind, args.seed).map_err(|e| e.to_string())?;
    let limits = Limits {
        time: parse_time(args.time)?,
        iterations: args.nodes,
        threads: Some(args.threads as usize),
        hash_mb: args.hash.map(|mb| mb as usize),
        multipv: Some(args.multipv as usize),
        depth: args.depth,
        ..Limits::default()
    };
    let started = std::time::Instant::now();
    let choice = agent
        .choose(game.as_ref(), &limits)
        .map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let ranked: Vec<_> = choice
            .ranked
            .iter()
            .enumerate()
            .map(|(i, (a, v))| json!({"action": a, "value": v, "exact": i < choice.exact}))
            .collect();
        print_json(&json!({
            "game": game.spec(),
            "position": game.position(),
            "agent": agent.name(),
            "best": choice.action,
            "value": choice.value,
            "pv": choice.pv,
            "nodes": choice.nodes,
            "depth": choice.depth,
            "threads": args.threads,
            "seconds": seconds,
            "ranked": ranked,
        }));
        return Ok(());
    }
    println!(
        "best: {}  (expected score {:.3} for {})",
        choice.action,
        choice.value,
        mover_name(game.as_ref())
    );
    println!("line: {}", choice.pv.join(" "));
    for (i, (a, v)) in choice.ranked.iter().enumerate().take(SHOWN) {
        let bound = if i < choice.exact { "  " } else { "<=" };
        println!("  {a:<24} {bound}{v:.3}");
    }
    if choice.ranked.len() > SHOWN {
        println!("  ... {} more", choice.ranked.len() - SHOWN);
    }
    println!("{}: {} nodes in {seconds:.2} s", agent.name(), choice.nodes);
    Ok(())
}

fn mover_name(game: &dyn tabula_core::AnyGame) -> &'static str {
    match game.turn() {
        tabula_core::Turn::Player(p) => game.player_name(p),
        _ => "nobody",
    }
}

/// Why a position waiting for the dice has no hint, with a position after a
/// roll to ask about instead: the roll that leaves the most choices (6-1 at
/// the start of Ad Elta Stelpur).
fn waiting_for_chance(game: &dyn AnyGame) -> String {
    let example = game
        .chance_outcomes()
        .into_iter()
        .filter_map(|(roll, _)| {
            let mut after = game.clone_box();
            after.apply_text(&roll).ok()?;
            matches!(after.turn(), Turn::Player(_))
                .then(|| (after.legal_actions().len(), roll, after.position()))
        })
        .reduce(|best, x| if x.0 > best.0 { x } else { best });
    let mut msg = "this position waits for a roll, and a hint needs a player to move: \
                   give a position after a roll"
        .to_string();
    if let Some((_, roll, position)) = example {
        msg += &format!(
            ", e.g. after {roll}: tabula hint '{}' --position '{position}'",
            game.spec()
        );
    }
    msg
}
