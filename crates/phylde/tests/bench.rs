//! Speed measurements, ignored by default. Run with
//! `cargo test --release -p tabula-phylde --test bench -- --ignored --nocapture`.

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

#[test]
#[ignore]
fn playout_speed() {
    for setup in [Setup::Lines, Setup::Block, Setup::Corners] {
        let start = preset(setup);
        let mut rng = SmallRng::seed_from_u64(1);
        let (mut games, mut actions) = (0u64, 0u64);
        let t = Instant::now();
        while t.elapsed().as_secs_f64() < 3.0 {
            let mut g = start.clone();
            let bound = g.max_game_actions();
            actions += random_playout(&mut g, &mut rng, bound).actions;
            games += 1;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{setup:?}: {games} playouts, {:.0} actions/s, {:.0} actions/game",
            actions as f64 / s,
            actions as f64 / games as f64
        );
    }
}

/// A fixed workload (best of 3), steadier than a timed loop on a busy machine.
#[test]
#[ignore]
fn playout_fixed() {
    let start = preset(Setup::Lines);
    let mut best = f64::MAX;
    let mut actions = 0;
    for _ in 0..3 {
        let mut rng = SmallRng::seed_from_u64(7);
        actions = 0;
        let t = Instant::now();
        for _ in 0..300 {
            let mut g = start.clone();
            let bound = g.max_game_actions();
            actions += random_playout(&mut g, &mut rng, bound).actions;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "fixed: {actions} actions, best {:.0} actions/s",
        actions as f64 / best
    );
}

#[test]
#[ignore]
fn perft_speed() {
    for (setup, depth) in [(Setup::Lines, 3), (Setup::Lines, 4)] {
        let g = preset(setup);
        let t = Instant::now();
        let n = perft(&g, depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{setup:?} perft {depth} = {n} in {s:.2} s ({:.0} nodes/s)",
            n as f64 / s
        );
    }
    println!("state size {} bytes", std::mem::size_of::<Phylde>());
}

#[test]
#[ignore]
fn branching_stats() {
    use rand::Rng;
    let start = preset(Setup::Lines);
    let mut rng = SmallRng::seed_from_u64(1);
    let (mut n, mut sum, mut starts, mut start_sum) = (0u64, 0u64, 0u64, 0u64);
    let mut buf = Vec::new();
    for _ in 0..50 {
        let mut g = start.clone();
        while g.outcome().is_none() {
            g.legal_actions(&mut buf);
            n += 1;
            sum += buf.len() as u64;
            if g.turn_state().count == 0 {
                starts += 1;
                start_sum += buf.len() as u64;
            }
            let a = buf[rng.gen_range(0..buf.len())];
            g.apply(a);
        }
    }
    println!(
        "mean legal {:.1}, at turn start {:.1}, turn starts {:.2} of positions",
        sum as f64 / n as f64,
        start_sum as f64 / starts as f64,
        starts as f64 / n as f64
    );
}
