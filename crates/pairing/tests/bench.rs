//! Pairing time for a large Swiss (200 players, 9 rounds) and large
//! three-player rounds. Ignored by default; numbers with:
//! `cargo test -p tabula-pairing --release --test bench -- --ignored --nocapture`

use pairing::swiss::{self, Game, GameResult, Round, SwissConfig};
use pairing::tables::{self, PlayedTable, Seat, TableRound, TablesConfig};
use pairing::Player;
use std::time::{Duration, Instant};

fn field(n: usize) -> Vec<Player> {
    (0..n)
        .map(|i| Player::new(format!("p{i}"), 2400 - (i as i32 * 7) % 900))
        .collect()
}

/// Results from a fixed xorshift stream, so every run times the same event.
fn results(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed % 3
}

#[test]
#[ignore = "timing"]
fn swiss_200_players_9_rounds() {
    let players = field(200);
    let config = SwissConfig::default();
    let mut history = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut total = Duration::ZERO;
    let mut worst = Duration::ZERO;
    for round in 0..9 {
        let clock = Instant::now();
        let p = swiss::pair(&players, &history, &config).unwrap();
        let took = clock.elapsed();
        total += took;
        worst = worst.max(took);
        assert_eq!(p.relaxed, Default::default(), "round {round}");
        let games = p
            .boards
            .iter()
            .map(|b| Game {
                first: b.first.clone(),
                second: b.second.clone(),
                result: [
                    GameResult::FirstWins,
                    GameResult::SecondWins,
                    GameResult::Draw,
                ][results(&mut seed) as usize],
            })
            .collect();
        history.push(Round {
            games,
            byes: p.bye.into_iter().collect(),
        });
    }
    eprintln!("swiss 200 players x 9 rounds: total {total:.1?}, slowest round {worst:.1?}");
}

#[test]
#[ignore = "timing"]
fn tables_61_players_6_rounds() {
    let players = field(61);
    let config = TablesConfig::default();
    let mut history: Vec<TableRound> = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut total = Duration::ZERO;
    let mut repeats = 0;
    for _ in 0..6 {
        let clock = Instant::now();
        let p = tables::pair(&players, &history, &config).unwrap();
        total += clock.elapsed();
        repeats += p.repeated_pairs;
        let tables = p
            .tables
            .iter()
            .map(|t| PlayedTable {
                seats: t.seats.clone(),
                places: [[0, 1, 2], [1, 0, 2], [2, 1, 0]][results(&mut seed) as usize].to_vec(),
            })
            .collect();
        history.push(TableRound {
            tables,
            byes: p.byes,
        });
        assert!(history
            .last()
            .unwrap()
            .tables
            .iter()
            .all(|t| t.seats.len() == 3));
        let _ = Seat::Ai { level: 1 };
    }
    eprintln!("tables 61 players x 6 rounds: total {total:.1?}, repeated pairs {repeats}");
}
