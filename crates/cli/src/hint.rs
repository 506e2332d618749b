//! `tabula hint`: the best actions of a position with their values, from
//! the same agents and levels the computer players use (the web app's
//! hints make the same call).

use crate::{open_game, print_json, CmdResult};
use serde_json::json;
use tabula_ai::{AgentKind, AiLevel, Limits};

/// How many ranked actions the text output lists.
const SHOWN: usize = 10;

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
    let level = AiLevel::from_number(args.level).map_err(|e| format!("--level: {}", e.message))?;
    let kind = args.agent.unwrap_or(AgentKind::Level(level));
    let mut agent =
        tabula_games::make_agent(game.as_ref(), kind, args.seed).map_err(|e| e.to_string())?;
    let limits = Limits {
        time: parse_time(args.time)?,
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
            .map(|(a, v)| json!({"action": a, "value": v}))
            .collect();
        print_json(&json!({
            "game": game.spec(),
            "position": game.position(),
            "agent": agent.name(),
            "best": choice.action,
            "value": choice.value,
            "pv": choice.pv,
            "nodes": choice.nodes,
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
    for (a, v) in choice.ranked.iter().take(SHOWN) {
        println!("  {a:<24} {v:.3}");
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
