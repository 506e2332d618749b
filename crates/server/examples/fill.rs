//! Fill a database with many finished-looking games, for measuring what
//! start-up and memory cost as the stored history grows.
//!
//! ```text
//! cargo run --release -p tabula-server --example fill -- \
//!     --db tabula-100k.db|postgres://… [--games 100000] [--actions 40]
//! ```
//!
//! Each game is a real random game of a registered game (its first
//! `--actions` actions), under a fresh id; a few distinct games are played
//! and reused, so filling is bound by the database.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::time::Instant;
use tabula_core::Turn;
use tabula_server::store::{Status, Store, StoredAction, StoredGame};

/// Games played for real, then stored again and again under new ids.
const DISTINCT: usize = 64;
/// Inserts in flight at once.
const IN_FLIGHT: usize = 64;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn play(spec: &str, actions: usize, seed: u64) -> Result<Vec<StoredAction>, String> {
    let registry = tabula_games::registry();
    let mut game = registry.create(spec, None).map_err(|e| e.to_string())?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < actions {
        let actor = match game.turn() {
            Turn::Over => break,
            Turn::Chance => None,
            Turn::Player(p) => Some(p.0),
        };
        let text = match actor {
            None => game.sample_chance(&mut rng).ok_or("no outcome")?,
            Some(_) => {
                let legal = game.legal_actions();
                legal[rng.gen_range(0..legal.len())].clone()
            }
        };
        let text = game.apply_text(&text).map_err(|e| e.to_string())?;
        out.push(StoredAction { actor, text });
    }
    Ok(out)
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let db = arg("--db").ok_or("--db ADDRESS is required")?;
    let games: usize = arg("--games")
        .map_or(Ok(100_000), |s| s.parse())
        .map_err(|e| format!("--games: {e}"))?;
    let actions: usize = arg("--actions")
        .map_or(Ok(40), |s| s.parse())
        .map_err(|e| format!("--actions: {e}"))?;
    let store = Store::open(&db).await?;
    let specs = ["dragonchess", "phylde", "gildervaik", "stelpur"];
    let meta2 = r#"{"seats":[{"kind":"human","token":"x","joined":true},{"kind":"ai","level":"level3","token":"y","joined":true}]}"#;
    let meta3 = r#"{"seats":[{"kind":"human","token":"x","joined":true},{"kind":"ai","level":"level3","token":"y","joined":true},{"kind":"ai","level":"level3","token":"z","joined":true}]}"#;
    let mut played = Vec::new();
    for i in 0..DISTINCT {
        let spec = specs[i % specs.len()];
        played.push((spec, play(spec, actions, i as u64)?));
    }
    let played = Arc::new(played);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..games {
        if tasks.len() >= IN_FLIGHT {
            if let Some(r) = tasks.join_next().await {
                r.map_err(|e| e.to_string())??;
            }
        }
        let (store, played) = (store.clone(), Arc::clone(&played));
        tasks.spawn(async move {
            let (spec, actions) = &played[i % DISTINCT];
            let meta = if *spec == "gildervaik" { meta3 } else { meta2 };
            let game = StoredGame {
                id: format!("fill{i:08}"),
                created: i as i64,
                spec: spec.to_string(),
                start: None,
                seed: i as u64,
                meta: meta.to_string(),
                actions: actions.clone(),
                version: 0,
            };
            // Stored as finished: nothing to resume at start-up.
            let status = Status {
                result: Some("win 1".into()),
                ai_turn: false,
                ..Default::default()
            };
            store.insert(game, status).await.map_err(|e| e.to_string())
        });
        if (i + 1) % 10_000 == 0 {
            eprintln!("{} games, {:.0} s", i + 1, started.elapsed().as_secs_f64());
        }
    }
    while let Some(r) = tasks.join_next().await {
        r.map_err(|e| e.to_string())??;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "stored {games} games of {actions} actions in {secs:.1} s ({:.0} games/s); the store holds {}",
        games as f64 / secs,
        store.count().await.map_err(|e| e.to_string())?
    );
    Ok(())
}
