//! `tabula`: the command-line tool for everything scriptable.
//!
//! Every command works through the game registry (spec strings such as
//! `stelpur(preset=ludii)`); bad input gives a one-line error and a non-zero
//! exit status.

mod analyse;
mod arena;
mod bench;
mod engine;
mod games;
mod hint;
mod inspect;
mod legend;
mod perft;
mod play;
mod puzzles;
mod replay;
mod serve;
mod train;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tabula",
    version,
    about = "Tabula: rules engines, AI and play for Dragonchess, Gildervaik, Phylde and Ad Elta Stelpur"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games, their options and defaults.
    Games(games::Args),
    /// Draw the board of a position as text.
    Show(inspect::ShowArgs),
    /// List the legal actions of a position, one per line.
    Moves(inspect::MovesArgs),
    /// Count action sequences of a given length (last stdout line = the count).
    Perft(perft::Args),
    /// Random playouts on one thread: playouts/s, actions/s, game length.
    Bench(bench::Args),
    /// Play in the terminal against the computer or at one keyboard.
    Play(play::Args),
    /// Check a record file and show the game move by move.
    Replay(replay::Args),
    /// The engine's analysis of a record: values, best actions, losses, accuracy.
    Analyse(analyse::Args),
    /// The best actions of a position with their values, from an AI level.
    Hint(hint::Args),
    /// Matches between AI agents: score, Elo difference, 95 % interval.
    Arena(arena::Args),
    /// Serve the web app: play every game in the browser.
    Serve(serve::Args),
    /// Take AI turns from the PostgreSQL database of `tabula serve --ai-workers 0` instances.
    Worker(serve::WorkerArgs),
    /// Speak the engine protocol (UGI-like) on stdin/stdout, for outside programs.
    Engine(engine::Args),
    /// Make puzzles by self-play and check puzzle files.
    Puzzles(puzzles::Args),
    /// Train a game's neural network by self-play (Ad Elta Stelpur: TD(λ)).
    Train(train::Args),
}

/// A command's failure: the message printed after `tabula: `.
pub type CmdResult = Result<(), String>;

/// Die quietly when stdout is closed early (`tabula moves ... | head`), as
/// Unix tools do, instead of panicking on the failed write.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal disposition to its default at start-up, before
    // any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let result = match cli.command {
        Command::Games(a) => games::run(a),
        Command::Show(a) => inspect::show(a),
        Command::Moves(a) => inspect::moves(a),
        Command::Perft(a) => perft::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Play(a) => play::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::Hint(a) => hint::run(a),
        Command::Arena(a) => arena::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Worker(a) => serve::work(a),
        Command::Engine(a) => engine::run(a),
        Command::Puzzles(a) => puzzles::run(a),
        Command::Train(a) => train::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("tabula: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Help and version print as usual; a usage mistake is one line on stderr.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("bad arguments");
    eprintln!(
        "tabula: {} (see --help)",
        first.trim_start_matches("error: ")
    );
    ExitCode::from(2)
}

/// Create a game from a spec string and an optional position string.
pub fn open_game(
    spec: &str,
    position: Option<&str>,
) -> Result<Box<dyn tabula_core::AnyGame>, String> {
    tabula_games::registry()
        .create(spec, position)
        .map_err(|e| e.to_string())
}

/// Print a JSON value on one line.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}
