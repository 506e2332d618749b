//! The stored puzzles of `learn/puzzles/`, checked with the engine: at least
//! 200 a game with unique ids, and every one found again by its theme's
//! search with the same answer (all of them take well under a second); the
//! line solves it, and another first action fails it.

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

#[test]
fn every_puzzle_is_found_again_by_the_engine() {
    let reg = tabula_games::registry();
    let mut failures = Vec::new();
    for puzzles in library().puzzles.values() {
        for p in puzzles {
            if let Err(e) = recheck(&reg, p) {
                failures.push(e);
            }
        }
    }
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
        // Glicko-2 both ways.
        let me = tabula_rating::Rating::new();
        assert!(p.rate(&me, true).rating > me.rating && p.rate(&me, false).rating < me.rating);
    }
}
