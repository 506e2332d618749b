//! The stored puzzles of `learn/puzzles/`, checked with the engine: at least
//! 200 a game with unique ids, and every one found again by its theme's
//! search with the same answer (a sample of the mates in 2 and 3 with long
//! proofs, all of them in an ignored test); the line solves it, and another
//! first action fails it; a puzzle's own rating moves within its bounds.

use std::collections::HashSet;
use tabula_learn::data::library;
use tabula_learn::generate::recheck;
use tabula_learn::{PuzzleStatus, GAMES};

#[test]
fn every_game_has_200_puzzles_with_unique_ids() {
    let lib = library();
    assert!(lib.broken.is_empty(), "{:#?}", lib.broken);
    for game in GAMES {
        let puzzles = lib.puzzles.get(game).map_or(&[][..], |v| v.as_slice());
        assert!(puzzles.len() >= 200, "{game}: {} puzzles", puzzles.len());
        let ids: HashSet<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), puzzles.len(), "{game}: ids repeat");
        assert!(
            puzzles.iter().all(|p| p.spec.starts_with(game)),
            "{game}: another game's puzzle"
        );
    }
}

/// Mates in 2 and 3 whose proof visited more positions than this are
/// long to prove again (up to seconds each): the fast test takes one in
/// [`SAMPLE`] of them, the ignored one (and `tabula puzzles check`) all.
const FAST_NODES: u64 = 50_000;
const SAMPLE: usize = 8;

/// Recheck the puzzles `keep` selects (by puzzle and its index among the
/// long proofs); the failures.
fn recheck_some(keep: impl Fn(usize) -> bool) -> Vec<String> {
    let reg = tabula_games::registry();
    let mut failures = Vec::new();
    let mut long = 0;
    for puzzles in library().puzzles.values() {
        for p in puzzles {
            let take = match p.nodes {
                Some(n) if n > FAST_NODES => {
                    long += 1;
                    keep(long - 1)
                }
                _ => true,
            };
            if take {
                if let Err(e) = recheck(&reg, p) {
                    failures.push(e);
                }
            }
        }
    }
    failures
}

#[test]
fn every_puzzle_is_found_again_by_the_engine() {
    let failures = recheck_some(|long| long % SAMPLE == 0);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore = "proves every long mate again: minutes (scripts/test.sh runs it)"]
fn every_long_mate_is_found_again_by_the_engine() {
    let failures = recheck_some(|_| true);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn another_first_action_fails_a_puzzle() {
    let reg = tabula_games::registry();
    for puzzles in library().puzzles.values() {
        // The first puzzle with a first action that does not end where the
        // line's run ends (in some, every first action transposes into it:
        // a roll's dice played in either order).
        let failing = |p: &tabula_learn::Puzzle| {
            let game = p.start(&reg).unwrap();
            game.legal_actions().into_iter().find(|a| {
                matches!(
                    p.check(&reg, std::slice::from_ref(a)).map(|r| r.status),
                    Ok(PuzzleStatus::Failed { .. })
                )
            })
        };
        let (p, other) = puzzles
            .iter()
            .find_map(|p| Some((p, failing(p)?)))
            .unwrap_or_else(|| panic!("{}: every first action is accepted", puzzles[0].id));
        let start = p.start(&reg).unwrap().position();
        let run = p.check(&reg, &[other]).unwrap();
        assert_eq!(
            run.status,
            PuzzleStatus::Failed {
                at: 0,
                expected: p.line[0].clone()
            },
            "{}",
            p.id
        );
        assert_eq!(run.state.position, start);
        let solved = p.check(&reg, &p.line).unwrap();
        assert_eq!(solved.status, PuzzleStatus::Solved, "{}", p.id);
        // Glicko-2 both ways, for the solver and (the other way) the puzzle.
        let me = tabula_rating::Rating::new();
        let live = p.base_rating();
        assert!(p.rate(&me, &live, true).rating > me.rating);
        assert!(p.rate(&me, &live, false).rating < me.rating);
        assert!(p.rerate(&live, &me, true).rating < live.rating);
        assert!(p.rerate(&live, &me, false).rating > live.rating);
    }
}

/// A puzzle's rating follows its solvers, within its bounds: a thousand
/// strong solvers failing it move it up by at most the drift, and its
/// deviation never falls under the floor.
#[test]
fn a_puzzles_rating_moves_with_its_solvers_within_bounds() {
    use tabula_learn::puzzle::{PUZZLE_DRIFT, PUZZLE_MIN_RD};
    let p = &library().puzzles["dragonchess"][0];
    let strong = tabula_rating::Rating {
        rating: 2400.0,
        rd: 60.0,
        ..tabula_rating::Rating::new()
    };
    let mut live = p.base_rating();
    for _ in 0..1000 {
        live = p.rerate(&live, &strong, false);
    }
    assert_eq!(live.rating, p.rating + PUZZLE_DRIFT);
    assert!(live.rd >= PUZZLE_MIN_RD);
    for _ in 0..1000 {
        live = p.rerate(&live, &tabula_rating::Rating::new(), true);
    }
    assert_eq!(live.rating, p.rating - PUZZLE_DRIFT);
}
