//! `tabula games`: what can be played, with every option.

use crate::{print_json, CmdResult};
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> CmdResult {
    let reg = tabula_games::registry();
    if args.json {
        let games: Vec<_> = reg
            .entries()
            .iter()
            .map(|e| {
                let options: Vec<_> = e
                    .options
                    .iter()
                    .map(|o| json!({"key": o.key, "default": o.default, "values": o.values_text(), "help": o.help}))
                    .collect();
                json!({"name": e.name, "title": e.title, "description": e.description, "options": options})
            })
            .collect();
        print_json(&json!({ "games": games }));
        return Ok(());
    }
    for e in reg.entries() {
        println!("{} — {}", e.name, e.title);
        println!("  {}", e.description);
        for o in e.options {
            println!(
                "  {:<24} default {:<10} values {}",
                o.key,
                o.default,
                o.values_text()
            );
            if !o.help.is_empty() {
                println!("  {:<24} {}", "", o.help);
            }
        }
        println!();
    }
    Ok(())
}
