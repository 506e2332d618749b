//! Speed measurements, ignored by default. Run one at a time with
//! `cargo test --release -p tabula-phylde --test bench -- --ignored --nocapture --test-threads 1`.
//!
//! Rates are per second of CPU time of this process (from /proc/self/stat,
//! where available) as well as wall time, since a shared machine can make
//! wall time meaningless.

use phylde::{Options, Phylde, Setup};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::Instant;
use tabula_core::{perft, random_playout, Game};

fn preset(setup: Setup) -> Phylde {
    Phylde::new_game(&Options {
        setup,
        ..Options::default()
    })
    .unwrap()
}

/// User + system CPU seconds of this process (Linux), else `None`.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Run `work` repeatedly for about `seconds` of CPU; returns (units done,
/// CPU seconds, wall seconds).
fn measure(seconds: f64, mut work: impl FnMut() -> u64) -> (u64, f64, f64) {
    let (cpu0, wall) = (cpu_seconds(), Instant::now());
    let mut units = 0;
    loop {
        units += work();
        let cpu = cpu_seconds().zip(cpu0).map(|(a, b)| a - b);
        let spent = cpu.unwrap_or_else(|| wall.elapsed().as_secs_f64());
        if spent >= seconds {
            return (units, spent, wall.elapsed().as_secs_f64());
        }
    }
}

#[test]
#[ignore]
fn playout_speed() {
    for setup in [Setup::Lines, Setup::Block, Setup::Corners] {
        let start = preset(setup);
        let mut rng = SmallRng::seed_from_u64(1);
        let mut games = 0;
        let (actions, cpu, wall) = measure(5.0, || {
            let mut g = start.clone();
            let bound = g.max_game_actions();
            games += 1;
            random_playout(&mut g, &mut rng, bound).actions
        });
        println!(
            "{setup:?}: {games} playouts, {:.0} actions/s CPU ({:.0} wall), {:.0} actions/game",
            actions as f64 / cpu,
            actions as f64 / wall,
            actions as f64 / games as f64
        );
    }
}

#[test]
#[ignore]
fn perft_speed() {
    for setup in [Setup::Lines, Setup::Block, Setup::Corners] {
        let g = preset(setup);
        let (cpu0, wall) = (cpu_seconds().unwrap_or(0.0), Instant::now());
        let n = perft(&g, 4);
        let cpu = cpu_seconds().unwrap_or(0.0) - cpu0;
        println!(
            "{setup:?} perft 4 = {n}: {cpu:.2} s CPU, {:.2} s wall",
            wall.elapsed().as_secs_f64()
        );
    }
}

/// The cost of `clone` (which search and perft pay at every node), against
/// generating the actions of the same position.
#[test]
#[ignore]
fn clone_cost() {
    let g = preset(Setup::Lines);
    let mut sink = 0u64;
    let (clones, cpu, _) = measure(2.0, || {
        for _ in 0..100_000 {
            let c = std::hint::black_box(&g).clone();
            sink = sink.wrapping_add(std::hint::black_box(&c).hash());
        }
        100_000
    });
    let clone_ns = cpu * 1e9 / clones as f64;
    let mut buf = Vec::with_capacity(256);
    let (gens, cpu, _) = measure(2.0, || {
        for _ in 0..10_000 {
            std::hint::black_box(&g).legal_actions(&mut buf);
            sink = sink.wrapping_add(buf.len() as u64);
        }
        10_000
    });
    let gen_ns = cpu * 1e9 / gens as f64;
    println!(
        "state {} bytes: clone {clone_ns:.1} ns; start-position generation {gen_ns:.0} ns ({})",
        std::mem::size_of::<Phylde>(),
        sink % 2
    );
}
