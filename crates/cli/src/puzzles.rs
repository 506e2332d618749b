//! `tabula puzzles`: make puzzles by self-play (`generate`) and check the
//! stored ones (`check`), with `tabula-learn`'s themes and checks.

use crate::CmdResult;
use clap::{Args as ClapArgs, Subcommand};
use std::io::Write;
use tabula_core::Error;
use tabula_learn::generate::{self, Config, Event};

#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Self-play games and keep the positions with one clearly best answer
    /// (mates in 1 for Dragonchess and Phylde, capture chains and race
    /// finishes for Gildervaik, the best use of a roll for Ad Elta Stelpur).
    Generate(GenerateArgs),
    /// Check a puzzle file with the engine (each puzzle's answer found again).
    Check(CheckArgs),
}

#[derive(ClapArgs, Debug)]
struct GenerateArgs {
    /// The game spec, e.g. `gildervaik(mode=warrior)`.
    spec: String,
    /// How many puzzles to make at most.
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// Stop after this many seconds, whatever the count.
    #[arg(long, default_value_t = 600.0)]
    seconds: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The agent playing the self-play games.
    #[arg(long, default_value = "greedy")]
    agent: String,
    /// The chance of a random action instead of the agent's, in each position.
    #[arg(long, default_value_t = 0.2)]
    noise: f64,
    /// Another theme than the game's own: `mate2` or `mate3` (forced wins
    /// in 2 or 3 for Dragonchess and Phylde).
    #[arg(long)]
    theme: Option<String>,
    /// Positions the proof of one mate in 2 or 3 may visit (a mate in 3
    /// needs millions).
    #[arg(long, default_value_t = generate::MATE_NODES)]
    proof_nodes: u64,
    /// The prefix of the puzzle ids (`<prefix>-0001`, ...).
    #[arg(long, default_value = "p")]
    prefix: String,
    /// Append the puzzles to this file (one JSON object a line) instead of
    /// printing them.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

#[derive(ClapArgs, Debug)]
struct CheckArgs {
    /// A puzzle file (`learn/puzzles/<game>.jsonl`).
    file: std::path::PathBuf,
}

pub fn run(args: Args) -> CmdResult {
    let registry = tabula_games::registry();
    match args.command {
        Sub::Generate(a) => {
            let config = Config {
                spec: a.spec,
                count: a.count,
                seconds: a.seconds,
                seed: a.seed,
                agent: a.agent,
                noise: a.noise,
                theme: match a.theme.as_deref() {
                    Some(name) => Some(
                        generate::Theme::parse(name)
                            .ok_or_else(|| format!("no puzzle theme `{name}`"))?,
                    ),
                    None => None,
                },
                proof_nodes: a.proof_nodes,
            };
            // Each puzzle is written as soon as it is found: a long run
            // stopped early keeps what it made.
            let mut out: Box<dyn Write> = match &a.out {
                Some(path) => Box::new(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(path)
                        .map_err(|e| format!("{}: {e}", path.display()))?,
                ),
                None => Box::new(std::io::stdout()),
            };
            let mut shown = false;
            let report = generate::generate(&registry, &config, &a.prefix, |event| {
                match event {
                    Event::Found(p) => {
                        let line =
                            serde_json::to_string(p).map_err(|e| Error::illegal(e.to_string()))?;
                        writeln!(out, "{line}")
                            .and_then(|()| out.flush())
                            .map_err(|e| Error::illegal(format!("writing the puzzle: {e}")))?;
                    }
                    Event::Progress(r) => {
                        shown = true;
                        eprint!(
                            "\rpuzzles {}: {} found, {} games, {} positions, {:.0} s ",
                            config.spec,
                            r.puzzles.len(),
                            r.games,
                            r.positions,
                            r.seconds
                        );
                    }
                }
                Ok(())
            })
            .map_err(|e| e.message)?;
            if shown {
                eprintln!();
            }
            eprintln!(
                "{} puzzles from {} games ({} positions) in {:.1} s",
                report.puzzles.len(),
                report.games,
                report.positions,
                report.seconds
            );
            Ok(())
        }
        Sub::Check(a) => {
            let text = std::fs::read_to_string(&a.file)
                .map_err(|e| format!("{}: {e}", a.file.display()))?;
            let puzzles = tabula_learn::data::read_puzzles(&a.file.display().to_string(), &text)?;
            let mut bad = 0;
            for p in &puzzles {
                if let Err(e) = generate::recheck(&registry, p) {
                    eprintln!("{e}");
                    bad += 1;
                }
            }
            println!("{} puzzles, {bad} failed", puzzles.len());
            if bad > 0 {
                return Err(format!("{bad} puzzles failed their check"));
            }
            Ok(())
        }
    }
}
