//! Action facts: only warrior capture paths capture (W2-W4); conquest
//! jumps never do; there is no check or mate.

mod common;

use common::game;
use gildervaik::Gildervaik;
use tabula_core::conformance::{check_capture_facts, visit_random_play};
use tabula_core::{ActionFacts, Game};

/// Pawns on the board, from the position string (`A:e5,h3 B:e6 / A`).
fn pawns(position: &str) -> usize {
    let board = position.split(" / ").next().unwrap_or("");
    board
        .split_whitespace()
        .filter_map(|seat| seat.split_once(':'))
        .map(|(_, cells)| cells.split(',').filter(|c| !c.is_empty()).count())
        .sum()
}

#[test]
fn warrior_captures_are_captures_and_nothing_else_is() {
    // Spec E3: capture is compulsory, so every move here captures.
    let g = game("gildervaik(mode=warrior)", "A:e5,h3 B:e6 C:f8,h2 / A");
    let acts = g.actions_here();
    assert!(!acts.is_empty());
    for &m in &acts {
        let f = g.action_facts(m);
        assert!(f.capture && !f.check && !f.mate, "{}", g.action_text(m));
    }
    let start = game("gildervaik(mode=warrior)", "start");
    for m in start.actions_here() {
        assert_eq!(start.action_facts(m), ActionFacts::default());
    }
}

#[test]
fn facts_agree_with_the_notation_and_the_board_in_random_games() {
    let warrior = [game("gildervaik(mode=warrior)", "start")];
    let captures = check_capture_facts(&warrior, 12, 5, 'x', pawns, false);
    assert!(captures > 20, "too few captures: {captures}");
    // Conquest jumps leap over pawns but take none.
    let conquest: [Gildervaik; 1] = [game("gildervaik", "start")];
    visit_random_play(&conquest, 2, 6, |before, m, _| {
        assert_eq!(before.action_facts(m), ActionFacts::default());
    });
}

/// In random conquest games (long jumps too), every move the notation
/// writes by its ends that passes other landings has a route: a chain the
/// notation accepts for that very move, landing nowhere twice.
#[test]
fn chain_routes_are_legal_paths_of_their_move_in_random_games() {
    let starts: [Gildervaik; 2] = [
        game("gildervaik", "start"),
        game("gildervaik(conquest_long_jumps=true)", "start"),
    ];
    let mut chains = 0;
    visit_random_play(&starts, 3, 11, |before, m, _| {
        let route = before.action_route(m);
        if route.is_empty() {
            return;
        }
        chains += 1;
        let distinct: std::collections::HashSet<_> = route.iter().collect();
        assert_eq!(distinct.len(), route.len(), "{route:?}");
        assert_eq!(before.parse_action(&route.join("-")), Ok(m), "{route:?}");
    });
    assert!(chains > 5, "too few chains: {chains}");
}
