//! Action facts (capture, check, mate) against the rules and the notation.

use dragonchess::{Dragonchess, Options, Status};
use tabula_core::conformance::visit_random_play;
use tabula_core::{ActionFacts, Game, Outcome, Turn};

fn at(position: &str) -> Dragonchess {
    Dragonchess::from_position(&Options::default(), position).unwrap()
}

/// The facts of the legal move written `text` (without its check mark).
fn facts(g: &Dragonchess, text: &str) -> ActionFacts {
    let m = g.parse_action(text).unwrap();
    g.action_facts(m)
}

/// Pieces on the three boards of a position string.
fn pieces(position: &str) -> usize {
    let boards = position.split_whitespace().next().unwrap_or("");
    boards.chars().filter(char::is_ascii_alphabetic).count()
}

const MATE_IN_ONE: &str =
    "12/12/12/3r8/12/12/12/12|7k4/12/12/12/4W7/12/2w9/K11|12/12/12/12/12/12/1b10/12 s 0 1";

#[test]
fn one_mating_move_among_29() {
    let g = at(MATE_IN_ONE);
    let moves = g.actions_here();
    assert_eq!(moves.len(), 29);
    let mates: Vec<String> = moves
        .iter()
        .filter(|&&m| g.action_facts(m).mate)
        .map(|&m| g.action_text(m))
        .collect();
    assert_eq!(mates.len(), 1, "{mates:?}");
    assert!(mates[0].ends_with('#'), "{mates:?}");
    let mate = g.parse_action(&mates[0]).unwrap();
    let f = g.action_facts(mate);
    assert!(f.check && f.mate, "a mate is a check too: {f:?}");
    let mut after = g.clone();
    after.apply(mate);
    assert_eq!(after.status(), Status::Checkmate);
    assert_eq!(after.outcome(), Some(Outcome::Win(tabula_core::Player(1))));
    // The checks that are not mate are marked `+`, the rest nothing.
    for &m in &moves {
        let f = g.action_facts(m);
        let text = g.action_text(m);
        assert_eq!(f.check && !f.mate, text.ends_with('+'), "{text}");
    }
}

#[test]
fn captures_quiet_moves_and_the_dragon_from_afar() {
    let g = Dragonchess::new_game(&Options::default()).unwrap();
    let quiet = g.actions_here()[0];
    assert_eq!(g.action_facts(quiet), ActionFacts::default());
    // A Scarlet Dragon on 3d5 above a Gold Warrior on 2d5 takes it from afar.
    let afar =
        at("12/12/12/3r8/12/12/12/12|7k4/12/12/3W8/12/12/12/K11|12/12/12/12/12/12/12/12 s 0 1");
    let f = facts(&afar, "R3d5x2d5");
    assert!(f.capture && !f.check && !f.mate, "{f:?}");
    let quiet = facts(&afar, "R3d5-3d6");
    assert!(!quiet.capture, "{quiet:?}");
}

#[test]
fn facts_agree_with_the_notation_and_the_board_in_random_games() {
    let starts = [
        Dragonchess::new_game(&Options::default()).unwrap(),
        at(MATE_IN_ONE),
        at("6r5/12/12/4S7/12/12/12/12|3k8/2w9/12/4M7/12/5O6/12/6K5|12/12/12/4b7/12/12/12/4E7 g 0 1"),
    ];
    let (mut captures, mut checks, mut mates) = (0, 0, 0);
    visit_random_play(&starts, 6, 11, |before, m, after| {
        let f = before.action_facts(m);
        let text = before.action_text(m);
        let mover = match before.turn() {
            Turn::Player(p) => p,
            _ => unreachable!("only player actions are visited"),
        };
        assert_eq!(f.capture, text.contains('x'), "{text}");
        assert_eq!(
            f.capture,
            pieces(&after.position()) < pieces(&before.position()),
            "{text} in {}",
            before.position()
        );
        assert_eq!(f.check, text.ends_with(['+', '#']), "{text}");
        assert_eq!(f.check, after.in_check(), "{text}");
        assert_eq!(f.mate, text.ends_with('#'), "{text}");
        assert_eq!(f.mate, after.status() == Status::Checkmate, "{text}");
        if f.mate {
            assert_eq!(after.outcome(), Some(Outcome::Win(mover)));
        }
        captures += usize::from(f.capture);
        checks += usize::from(f.check);
        mates += usize::from(f.mate);
    });
    assert!(
        captures > 50 && checks > 5,
        "too little seen: {captures} captures, {checks} checks, {mates} mates"
    );
}
