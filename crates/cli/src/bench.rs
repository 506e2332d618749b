//! `tabula bench`: random playouts on one thread for a fixed time, or a
//! fixed number of them (the same work every run, for instruction counts).

use crate::{open_game, print_json, CmdResult};
use serde_json::json;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Game spec, e.g. `stelpur(preset=ludii)`.
    spec: String,
    /// How long to run.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Stop after this many playouts instead of after `--seconds`: the same
    /// games every run, so `valgrind --tool=callgrind` counts compare.
    #[arg(long)]
    playouts: Option<u64>,
    /// Seed of the first playout (playout i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Position string to play out from (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> CmdResult {
    if !(args.seconds > 0.0 && args.seconds <= 86_400.0) {
        return Err(format!(
            "--seconds must be between 0 and 86400, got {}",
            args.seconds
        ));
    }
    if args.playouts == Some(0) {
        return Err("--playouts must be at least 1".into());
    }
    let game = open_game(&args.spec, args.position.as_deref())?;
    let budget = Duration::from_secs_f64(args.seconds);
    let start = Instant::now();
    let mut next_report = Duration::from_secs(1);
    let (mut playouts, mut actions, mut decisions, mut unfinished) = (0u64, 0u64, 0u64, 0u64);
    let more = |playouts: u64| match args.playouts {
        Some(n) => playouts < n,
        None => start.elapsed() < budget || playouts == 0,
    };
    while more(playouts) {
        let stats = game.random_playout(args.seed.wrapping_add(playouts));
        playouts += 1;
        actions += stats.actions;
        decisions += stats.decisions;
        unfinished += u64::from(stats.outcome.is_none());
        if start.elapsed() >= next_report {
            eprint!(
                "\rbench {}: {playouts} playouts, {:.0} s",
                game.spec(),
                start.elapsed().as_secs_f64()
            );
            next_report += Duration::from_secs(1);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if secs >= 1.0 {
        eprintln!();
    }
    let (pps, aps) = (playouts as f64 / secs, actions as f64 / secs);
    let mean_actions = actions as f64 / playouts as f64;
    let mean_decisions = decisions as f64 / playouts as f64;
    if args.json {
        print_json(&json!({
            "game": game.spec(), "seconds": secs, "playouts": playouts,
            "playouts_per_sec": pps, "actions_per_sec": aps,
            "mean_actions": mean_actions, "mean_decisions": mean_decisions,
            "unfinished": unfinished,
        }));
    } else {
        println!("game            {}", game.spec());
        println!("playouts        {playouts} in {secs:.2} s");
        println!("playouts/s      {pps:.1}");
        println!("actions/s       {aps:.0}");
        println!("mean actions    {mean_actions:.1} per game (chance included)");
        println!("mean decisions  {mean_decisions:.1} per game (player actions)");
        if unfinished > 0 {
            println!("unfinished      {unfinished} (hit the action bound)");
        }
    }
    Ok(())
}
