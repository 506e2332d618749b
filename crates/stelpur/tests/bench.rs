//! Playout speed per preset (ignored: run it in release for numbers):
//! `cargo test --release -p tabula-stelpur --test bench -- --ignored --nocapture`.

mod common;
use common::game;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::{Duration, Instant};
use tabula_core::{random_playout, Game};

#[test]
#[ignore]
fn playouts_per_second() {
    for spec in [
        "stelpur",
        "stelpur(preset=tablesites)",
        "stelpur(preset=ludii)",
    ] {
        let start = game(spec, "start");
        let bound = start.max_game_actions();
        let mut rng = SmallRng::seed_from_u64(1);
        let (mut n, mut actions, mut decisions) = (0u64, 0u64, 0u64);
        let cpu0 = cpu_seconds();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(3) {
            let mut g = start.clone();
            let s = random_playout(&mut g, &mut rng, bound);
            n += 1;
            actions += s.actions;
            decisions += s.decisions;
        }
        let secs = t.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu0;
        println!(
            "{spec}: {:.0} playouts/s ({:.0} per CPU second), {:.1} actions and {:.1} decisions per game",
            n as f64 / secs,
            n as f64 / cpu,
            actions as f64 / n as f64,
            decisions as f64 / n as f64
        );
    }
}

/// CPU time of this thread (Linux), so a busy shared machine skews less.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}
