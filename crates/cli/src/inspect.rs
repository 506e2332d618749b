//! `tabula show` and `tabula moves`: look at one position.

use crate::{open_game, print_json, CmdResult};
use serde_json::json;
use tabula_core::{AnyGame, Turn};

#[derive(clap::Args)]
pub struct ShowArgs {
    /// Game spec, e.g. `dragonchess` or `gildervaik(mode=warrior)`.
    spec: String,
    /// Position string (default: the start position).
    #[arg(long)]
    position: Option<String>,
}

#[derive(clap::Args)]
pub struct MovesArgs {
    /// Game spec, e.g. `phylde(setup=block)`.
    spec: String,
    /// Position string (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// One line saying whose turn it is, or how the game ended.
pub fn status_line(game: &dyn AnyGame) -> String {
    match game.turn() {
        Turn::Player(p) => format!("{} to move", game.player_name(p)),
        Turn::Chance => "waiting for a roll of the dice".to_string(),
        Turn::Over => match game.outcome() {
            Some(tabula_core::Outcome::Win(p)) => {
                format!("game over: {} wins", game.player_name(p))
            }
            Some(tabula_core::Outcome::Draw(set)) => {
                let names: Vec<&str> = set.iter().map(|p| game.player_name(p)).collect();
                format!("game over: draw ({})", names.join(", "))
            }
            None => "game over".to_string(),
        },
    }
}

pub fn show(args: ShowArgs) -> CmdResult {
    let game = open_game(&args.spec, args.position.as_deref())?;
    println!("{}", game.render().trim_end());
    println!("{}", status_line(game.as_ref()));
    println!("position: {}", game.position());
    Ok(())
}

pub fn moves(args: MovesArgs) -> CmdResult {
    let game = open_game(&args.spec, args.position.as_deref())?;
    if args.json {
        let mut obj = json!({
            "game": game.spec(),
            "position": game.position(),
            "players": game.num_players(),
            "status": status_line(game.as_ref()),
            "moves": game.legal_actions(),
        });
        if game.turn() == Turn::Chance {
            let chance: Vec<_> = game
                .chance_outcomes()
                .into_iter()
                .map(|(a, p)| json!({"action": a, "p": p}))
                .collect();
            obj["chance"] = json!(chance);
        }
        print_json(&obj);
        return Ok(());
    }
    for a in game.legal_actions() {
        println!("{a}");
    }
    Ok(())
}
