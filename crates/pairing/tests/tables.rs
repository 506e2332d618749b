//! Three-player tables (Gildervaik): seating, repeated pairs against an
//! exhaustive search, seat rotation, leftovers, standings.

use pairing::tables::{self, Leftover, PlayedTable, Seat, TableRound, TablesConfig, TablesPairing};
use pairing::{Player, PlayerId, Score};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::collections::HashMap;

struct Rng(u64);

impl Rng {
    fn below(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
}

fn id(s: &Seat) -> Option<&str> {
    match s {
        Seat::Player(p) => Some(&p.0),
        Seat::Ai { .. } => None,
    }
}

/// Earlier tables shared by each pair of players.
fn meetings(rounds: &[TableRound]) -> HashMap<(String, String), u32> {
    let mut met = HashMap::new();
    for r in rounds {
        for t in &r.tables {
            for a in t.seats.iter().filter_map(id) {
                for b in t.seats.iter().filter_map(id) {
                    if a != b {
                        *met.entry((a.to_string(), b.to_string())).or_default() += 1;
                    }
                }
            }
        }
    }
    met
}

fn pair_cost(met: &HashMap<(String, String), u32>, a: &str, b: &str) -> u32 {
    met.get(&(a.to_string(), b.to_string()))
        .copied()
        .unwrap_or(0)
}

/// Least repeated meetings over every split of `ids` into tables of three.
fn best_split(met: &HashMap<(String, String), u32>, ids: &mut Vec<String>) -> u32 {
    let Some(a) = ids.pop() else { return 0 };
    let mut best = u32::MAX;
    for i in 0..ids.len() {
        for j in i + 1..ids.len() {
            let (b, c) = (ids[i].clone(), ids[j].clone());
            let here = pair_cost(met, &a, &b) + pair_cost(met, &a, &c) + pair_cost(met, &b, &c);
            let mut rest: Vec<String> = ids
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i && k != j)
                .map(|(_, s)| s.clone())
                .collect();
            best = best.min(here + best_split(met, &mut rest));
        }
    }
    ids.push(a);
    best
}

fn check_round(
    players: &[Player],
    rounds: &[TableRound],
    p: &TablesPairing,
    exhaustive: bool,
) -> Result<(), TestCaseError> {
    let mut seen: Vec<&str> = p
        .tables
        .iter()
        .flat_map(|t| t.seats.iter().filter_map(id))
        .chain(p.byes.iter().map(|b| b.0.as_str()))
        .collect();
    seen.sort();
    let mut want: Vec<&str> = players
        .iter()
        .filter(|p| !p.withdrawn)
        .map(|p| p.id.0.as_str())
        .collect();
    want.sort();
    prop_assert_eq!(&seen, &want, "every active player seated exactly once");
    prop_assert!(p.tables.iter().all(|t| t.seats.len() == 3));
    let with_ai = p
        .tables
        .iter()
        .filter(|t| t.seats.iter().any(|s| id(s).is_none()))
        .count();
    prop_assert!(with_ai + p.byes.len() <= 2 && with_ai <= 1);
    prop_assert_eq!(
        with_ai > 0 || !p.byes.is_empty(),
        !want.len().is_multiple_of(3)
    );

    let met = meetings(rounds);
    let mut got = 0;
    let mut full: Vec<String> = Vec::new();
    for t in &p.tables {
        let ids: Vec<&str> = t.seats.iter().filter_map(id).collect();
        for i in 0..ids.len() {
            for j in i + 1..ids.len() {
                got += pair_cost(&met, ids[i], ids[j]);
            }
        }
        if ids.len() == 3 {
            full.extend(ids.iter().map(|s| s.to_string()));
        }
    }
    prop_assert_eq!(got, p.repeated_pairs, "repeats reported truthfully");
    if exhaustive {
        let ai_table: u32 = p
            .tables
            .iter()
            .filter(|t| t.seats.iter().filter_map(id).count() == 2)
            .map(|t| {
                let ids: Vec<&str> = t.seats.iter().filter_map(id).collect();
                pair_cost(&met, ids[0], ids[1])
            })
            .sum();
        prop_assert_eq!(
            got,
            ai_table + best_split(&met, &mut full),
            "repeats minimal"
        );
    }
    Ok(())
}

/// Plays `rounds` rounds with random places; returns the history.
fn tournament(
    n: usize,
    rounds: usize,
    seed: u64,
    config: &TablesConfig,
    withdrawals: bool,
) -> Result<Vec<TableRound>, TestCaseError> {
    let mut rng = Rng(seed | 1);
    let mut players: Vec<Player> = (0..n)
        .map(|i| Player::new(format!("p{i}"), 1000 + rng.below(800) as i32))
        .collect();
    let mut history: Vec<TableRound> = Vec::new();
    for _ in 0..rounds {
        let active = players.iter().filter(|p| !p.withdrawn).count();
        if withdrawals && active > 4 && rng.below(6) == 0 {
            let k = rng.below(n as u64) as usize;
            players[k].withdrawn = true;
        }
        let p = tables::pair(&players, &history, config)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(
            &p,
            &tables::pair(&players, &history, config).unwrap(),
            "deterministic"
        );
        check_round(&players, &history, &p, n <= 9)?;
        const PLACES: [[u8; 3]; 8] = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [2, 0, 1],
            [1, 2, 0],
            [2, 1, 0],
            [0, 0, 2],
            [1, 0, 1],
        ];
        let tables = p
            .tables
            .iter()
            .map(|t| PlayedTable {
                seats: t.seats.clone(),
                places: PLACES[rng.below(8) as usize].to_vec(),
            })
            .collect();
        history.push(TableRound {
            tables,
            byes: p.byes,
        });
    }
    Ok(history)
}

fn run(cases: u32, strategy: impl Strategy<Value = (usize, usize, u64, bool)>) {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        // A fixed seed: the same cases in CI as here.
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let result = runner.run(&strategy, |(n, rounds, seed, bye)| {
        let config = TablesConfig {
            leftover: if bye {
                Leftover::Bye
            } else {
                Leftover::Ai { level: 3 }
            },
            ..TablesConfig::default()
        };
        tournament(n, rounds, seed, &config, true).map(|_| ())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn small_fields_minimise_repeated_pairs_exhaustively() {
    run(150, (6usize..=9, 1usize..=3, any::<u64>(), any::<bool>()));
}

#[test]
fn larger_fields_seat_everyone_once() {
    run(20, (10usize..=30, 1usize..=6, any::<u64>(), any::<bool>()));
}

#[test]
fn nine_players_three_rounds_never_meet_twice() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 100,
            failure_persistence: None,
            ..Config::default()
        },
        // A fixed seed: the same cases in CI as here.
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let result = runner.run(&any::<u64>(), |seed| {
        let history = tournament(9, 3, seed, &TablesConfig::default(), false)?;
        let met = meetings(&history);
        prop_assert!(met.values().all(|&m| m == 1), "{:?}", met);
        prop_assert_eq!(met.len(), 9 * 8 * 3 / 4, "each meets 6 others once");
        // Three rounds, three seats: nobody sits in one seat three times (each
        // seat once is not always possible once the tables are fixed).
        let mut seats: HashMap<&str, [u32; 3]> = HashMap::new();
        for r in &history {
            for t in &r.tables {
                for (k, s) in t.seats.iter().enumerate() {
                    seats.entry(id(s).unwrap()).or_default()[k] += 1;
                }
            }
        }
        prop_assert!(
            seats.values().all(|c| c.iter().all(|&x| x <= 2)),
            "{:?}",
            seats
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn leftovers_get_ai_seats_or_byes() {
    let players: Vec<Player> = (0..7)
        .map(|i| Player::new(format!("p{i}"), 2000 - i))
        .collect();
    let p = tables::pair(&players, &[], &TablesConfig::default()).unwrap();
    assert_eq!(p.tables.len(), 3);
    let last = &p.tables[2];
    assert_eq!(
        last.seats
            .iter()
            .filter(|s| matches!(s, Seat::Ai { level: 4 }))
            .count(),
        2,
        "the lowest-ranked player meets two AIs: {last:?}"
    );
    assert!(last.seats.contains(&Seat::Player(PlayerId::new("p6"))));
    let config = TablesConfig {
        leftover: Leftover::Bye,
        ..TablesConfig::default()
    };
    let p = tables::pair(&players, &[], &config).unwrap();
    assert_eq!(p.byes, vec![PlayerId::new("p6")]);
    // The first round is the thirds layout: 1 4 7 style over six players.
    let first: Vec<Vec<&str>> = p
        .tables
        .iter()
        .map(|t| {
            let mut ids: Vec<&str> = t.seats.iter().filter_map(id).collect();
            ids.sort();
            ids
        })
        .collect();
    assert_eq!(first, vec![vec!["p0", "p2", "p4"], vec!["p1", "p3", "p5"]]);
    let bad = TablesConfig {
        leftover: Leftover::Ai { level: 0 },
        ..TablesConfig::default()
    };
    assert!(tables::pair(&players, &[], &bad).is_err());
}

#[test]
fn first_round_of_nine_is_the_thirds_layout() {
    let players: Vec<Player> = (1..=9)
        .map(|i| Player::new(format!("p{i}"), 2000 - i))
        .collect();
    let p = tables::pair(&players, &[], &TablesConfig::default()).unwrap();
    let got: Vec<Vec<&str>> = p
        .tables
        .iter()
        .map(|t| t.seats.iter().filter_map(id).collect())
        .collect();
    assert_eq!(
        got,
        vec![
            vec!["p1", "p4", "p7"],
            vec!["p2", "p5", "p8"],
            vec!["p3", "p6", "p9"]
        ]
    );
}

#[test]
fn bad_results_are_rejected() {
    let players: Vec<Player> = (0..3).map(|i| Player::new(format!("p{i}"), 1500)).collect();
    let seats: Vec<Seat> = (0..3)
        .map(|i| Seat::Player(PlayerId::new(format!("p{i}"))))
        .collect();
    let round = |places: Vec<u8>| TableRound {
        tables: vec![PlayedTable {
            seats: seats.clone(),
            places,
        }],
        byes: vec![],
    };
    let config = TablesConfig::default();
    assert!(tables::pair(&players, &[round(vec![0, 1, 3])], &config).is_err());
    assert!(tables::pair(&players, &[round(vec![0, 1])], &config).is_err());
    assert!(tables::pair(&players, &[round(vec![0, 2, 1])], &config).is_ok());
    let twice = TableRound {
        tables: vec![PlayedTable {
            seats: vec![seats[0].clone(), seats[0].clone(), seats[1].clone()],
            places: vec![0, 1, 2],
        }],
        byes: vec![],
    };
    assert!(tables::pair(&players, &[twice], &config).is_err());
}

#[test]
fn standings_with_table_tiebreaks() {
    let players: Vec<Player> = (0..4).map(|i| Player::new(format!("p{i}"), 1500)).collect();
    let p = |i: usize| Seat::Player(PlayerId::new(format!("p{i}")));
    let rounds = vec![
        TableRound {
            tables: vec![PlayedTable {
                seats: vec![p(0), p(1), p(2)],
                places: vec![0, 1, 2],
            }],
            byes: vec![PlayerId::new("p3")],
        },
        TableRound {
            tables: vec![PlayedTable {
                seats: vec![p(3), p(1), Seat::Ai { level: 2 }],
                places: vec![0, 0, 2],
            }],
            byes: vec![],
        },
    ];
    let s = tables::standings(&players, &rounds, &TablesConfig::default()).unwrap();
    let score = |name: &str| s.iter().find(|x| x.id.0 == name).unwrap().clone();
    // p0 3; p1 1 + 2 (shared first) = 3; p3 bye 1 + 2 = 3; p2 0.
    assert_eq!(score("p0").score, Score::points(3));
    assert_eq!(score("p1").score, Score::points(3));
    assert_eq!(score("p3").score, Score::points(3));
    // Buchholz (second tie-break): p0 met p1 (3) and p2 (0) = 3;
    // p1 met p0, p2, p3 (and an AI, worth 0) = 6; p3 met p1 = 3.
    assert_eq!(score("p0").tiebreaks[1], Score::points(3));
    assert_eq!(score("p1").tiebreaks[1], Score::points(6));
    assert_eq!(score("p3").tiebreaks[1], Score::points(3));
    // Sonneborn–Berger: p1 beat p2 (0), lost to p0, level with p3 (3 / 2).
    assert_eq!(score("p1").tiebreaks[2], Score::halves(3));
    assert_eq!(s[0].id.0, "p1");
    assert_eq!(score("p3").played, 1);
}
