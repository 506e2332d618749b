//! Random-playout speed, for when the CLI bench is not at hand:
//! `cargo test --release -p tabula-gildervaik --test bench -- --ignored --nocapture`.
//! Rates are per second of this thread's CPU time, so a busy machine does
//! not skew them (Linux only: read from `/proc/thread-self/stat`).

mod common;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{random_playout, Game};

/// CPU seconds used by this thread (user + system), to 10 ms.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // Fields after the `(name)`: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

fn bench(spec: &str, seconds: f64) {
    let start = common::game(spec, "start");
    let mut rng = SmallRng::seed_from_u64(1);
    let (mut actions, mut games) = (0u64, 0u64);
    let t0 = cpu_seconds();
    while cpu_seconds() - t0 < seconds {
        for _ in 0..100 {
            let mut g = start.clone();
            let bound = g.max_game_actions();
            actions += random_playout(&mut g, &mut rng, bound).actions;
            games += 1;
        }
    }
    let secs = cpu_seconds() - t0;
    println!(
        "{spec}: {:.0} actions/s, {:.0} games/s, {:.1} actions/game (per CPU second)",
        actions as f64 / secs,
        games as f64 / secs,
        actions as f64 / games as f64
    );
}

#[test]
#[ignore]
fn random_playouts_per_second() {
    bench("gildervaik", 5.0);
    bench("gildervaik(mode=warrior)", 5.0);
}

/// Positions met in random conquest games.
fn random_positions(games: usize) -> Vec<gildervaik::Gildervaik> {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut g = common::game("gildervaik", "start");
        while g.outcome().is_none() {
            let acts = g.actions_here();
            positions.push(g.clone());
            g.apply(acts[rng.gen_range(0..acts.len())]);
        }
    }
    positions
}

#[test]
#[ignore]
fn generation_speed() {
    let positions = random_positions(100);
    let mut buf = Vec::with_capacity(256);
    let (mut total, mut rounds) = (0, 0);
    let t0 = cpu_seconds();
    while cpu_seconds() - t0 < 3.0 {
        for p in &positions {
            p.legal_actions(&mut buf);
            total += buf.len();
        }
        rounds += 1;
    }
    let per = (cpu_seconds() - t0) / (rounds * positions.len()) as f64;
    println!(
        "{} positions, {:.1} moves each, {:.0} ns per generation (CPU time)",
        positions.len(),
        total as f64 / (rounds * positions.len()) as f64,
        per * 1e9
    );
}
