//! `tabula replay`: check a record file and show the game.

use crate::inspect::status_line;
use crate::CmdResult;
use tabula_core::{EndReason, Record};

#[derive(clap::Args)]
pub struct Args {
    /// A record file written by `tabula play`, `tabula arena` or the web app.
    file: String,
    /// Draw the board after every action, not only at the end.
    #[arg(long)]
    boards: bool,
}

pub fn run(args: Args) -> CmdResult {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file))?;
    let record = Record::parse(&text).map_err(|e| format!("{}: {e}", args.file))?;
    println!("game: {}", record.game);
    for (k, v) in &record.meta {
        println!("{k}: {v}");
    }
    let reg = tabula_games::registry();
    let replayed = record
        .replay_checked(&reg, |game, i| {
            if i > 0 {
                let a = &record.actions[i - 1];
                let who = a
                    .actor
                    .map_or("roll".to_string(), |p| game.player_name(p).to_string());
                println!("{i:>4}. {who:<8} {}", a.text);
            }
            if args.boards {
                println!("{}", game.render().trim_end());
            }
        })
        .map_err(|e| format!("{}: {e}", args.file))?;
    let game = replayed.game;
    if !args.boards {
        println!("{}", game.render().trim_end());
    }
    println!("{}", status_line(game.as_ref()));
    if let Some(end) = replayed.ending.filter(|e| e.reason != EndReason::Board) {
        println!(
            "result by {}: {}",
            end.reason.as_str(),
            end.outcome.to_text()
        );
    }
    println!("record OK: {} actions", record.actions.len());
    Ok(())
}
