//! `tabula analyse`: the engine's analysis of a record, as the web app's
//! (`tabula_ai::analysis`), computed here on one thread.

use crate::CmdResult;
use std::time::Instant;
use tabula_core::Record;

#[derive(clap::Args)]
pub struct Args {
    /// A record file (`tabula play --save`, the web app's export).
    file: String,
    /// Analyse only the first N actions.
    #[arg(long)]
    plies: Option<usize>,
    /// Print the analysis as JSON (the API's `GET /api/games/{id}/analysis`).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> CmdResult {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file))?;
    let record = Record::parse(&text).map_err(|e| format!("{}: {e}", args.file))?;
    let reg = tabula_games::registry();
    let start = reg
        .create(&record.game, record.start.as_deref())
        .map_err(|e| format!("{}: {e}", args.file))?;
    let take = args.plies.unwrap_or(usize::MAX);
    let actions: Vec<String> = record
        .actions
        .iter()
        .take(take)
        .map(|a| a.text.clone())
        .collect();
    let started = Instant::now();
    let positions = tabula_ai::analysis::positions(start.as_ref(), &actions)
        .map_err(|e| format!("{}: {e}", args.file))?;
    let verdicts = positions
        .iter()
        .map(|g| tabula_games::analyse_position(g.as_ref()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let analysis = tabula_ai::analysis::analyse(start.game_type(), &actions, &verdicts)
        .map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let json = serde_json::to_string(&analysis).map_err(|e| e.to_string())?;
        println!("{json}");
    } else {
        for (i, (action, ply)) in actions.iter().zip(&analysis.plies).enumerate() {
            let values: Vec<String> = ply.values.iter().map(|v| format!("{v:.3}")).collect();
            let class = ply
                .class
                .map_or(String::new(), |c| format!("{c:?}").to_lowercase());
            println!(
                "{:>4}. {action:<16} {}  best {:<16} loss {:.3} {class}",
                i + 1,
                values.join("/"),
                ply.best.as_deref().unwrap_or("-"),
                ply.loss,
            );
        }
        let accuracy: Vec<String> = analysis
            .accuracy
            .iter()
            .map(|a| a.map_or("-".to_string(), |a| format!("{a:.1}")))
            .collect();
        println!("accuracy: {}", accuracy.join(" / "));
    }
    eprintln!(
        "analysed {} actions in {seconds:.1} s ({:.0} ms a position)",
        actions.len(),
        1000.0 * seconds / positions.len() as f64
    );
    Ok(())
}
