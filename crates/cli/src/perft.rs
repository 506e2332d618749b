//! `tabula perft`: count action sequences, with per-first-action totals.

use crate::{open_game, print_json, CmdResult};
use serde_json::json;
use std::io::Write;
use std::time::Instant;
use tabula_core::PerftTable;

#[derive(clap::Args)]
pub struct Args {
    /// Game spec, e.g. `dragonchess`.
    spec: String,
    /// Number of actions (player actions and chance outcomes) per sequence.
    depth: u32,
    /// Position string (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// Also print the count below each first action.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Threads sharing the first actions (same counts, sooner).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// A table of subtree counts of this many MB (0: none), for deep
    /// counts: a subtree reached again by another order of the same
    /// actions is counted once (same counts; shared by the threads).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=crate::hint::MAX_HASH_MB))]
    hash: u32,
}

pub fn run(args: Args) -> CmdResult {
    let game = open_game(&args.spec, args.position.as_deref())?;
    let table = match args.hash {
        0 => None,
        mb => Some(PerftTable::with_mb(mb as usize)?),
    };
    let start = Instant::now();
    let (nodes, rows) = if args.depth == 0 {
        (game.perft(0), Vec::new())
    } else {
        let mut progress = |done: usize, total: usize| {
            if start.elapsed().as_secs_f64() > 1.0
                || done == total && total > 0 && start.elapsed().as_millis() > 300
            {
                eprint!(
                    "\rperft {}: {done}/{total} first actions, {:.1} s",
                    args.depth,
                    start.elapsed().as_secs_f64()
                );
                if done == total {
                    eprintln!();
                }
                let _ = std::io::stderr().flush();
            }
        };
        let rows = game.divide(
            args.depth,
            args.threads as usize,
            table.as_ref(),
            &mut progress,
        );
        (rows.iter().map(|r| r.1).sum(), rows)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    if args.json {
        let mut obj = json!({"game": game.spec(), "depth": args.depth, "threads": args.threads, "hash_mb": args.hash, "nodes": nodes, "seconds": seconds, "nodes_per_sec": nps});
        if args.divide {
            obj["divide"] = json!(rows
                .iter()
                .map(|(a, n)| json!({"action": a, "nodes": n}))
                .collect::<Vec<_>>());
        }
        print_json(&obj);
        return Ok(());
    }
    if args.divide {
        for (a, n) in &rows {
            println!("{a}: {n}");
        }
        println!();
    }
    eprintln!("{}, {:.0} nodes/s", duration_text(seconds), nps);
    println!("{nodes}");
    Ok(())
}

/// A run time in the unit that reads best: µs below a millisecond, ms below
/// a second, else seconds (a fixed `s` showed "0.000 s" for fast runs).
fn duration_text(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.0} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{seconds:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::duration_text;

    #[test]
    fn run_times_use_a_readable_unit() {
        assert_eq!(duration_text(0.000_280), "280 µs");
        assert_eq!(duration_text(0.0), "0 µs");
        assert_eq!(duration_text(0.001), "1.0 ms");
        assert_eq!(duration_text(0.2804), "280.4 ms");
        assert_eq!(duration_text(1.0), "1.000 s");
        assert_eq!(duration_text(280.0), "280.000 s");
    }
}
