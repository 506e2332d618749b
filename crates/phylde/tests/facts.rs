//! Action facts: steps onto an enemy and shots capture (§6); a surround of
//! the enemy King is Phylde's mate (§7); there is no check.

use phylde::{Options, Phylde, Setup};
use tabula_core::conformance::visit_random_play;
use tabula_core::{ActionFacts, Game, Outcome, Turn};

fn at(fen: &str) -> Phylde {
    let short = Options {
        no_capture_turns: 30,
        ..Options::default()
    };
    Phylde::from_position(&short, fen).unwrap()
}

/// Pieces on the board, from the FEN's first field (Kings included).
fn pieces(fen: &str) -> usize {
    let board = fen.split_whitespace().next().unwrap_or("");
    board.chars().filter(char::is_ascii_alphabetic).count()
}

const SURROUND_NEAR: &str = "18/18/18/18/18/9A8/18/13C4/9r8/8S9/11S6/18/18/18/18/18/2R15/18 S";
const SMALL_ARMIES: &str =
    "18/8r9/6cc10/5aaa10/6ss10/6ss10/18/18/18/18/18/18/10SS6/10SS6/10AAA5/10CC6/18/8R9 S";

#[test]
fn the_start_has_only_quiet_actions() {
    let g = Phylde::new_game(&Options::default()).unwrap();
    for m in g.actions_here() {
        assert_eq!(
            g.action_facts(m),
            ActionFacts::default(),
            "{}",
            g.action_text(m)
        );
    }
}

#[test]
fn a_surround_is_a_mate_and_only_a_surround() {
    // Spec E7: South surrounds the North King in one action; E9: North can
    // break it before it happens.
    for fen in [
        SURROUND_NEAR,
        "18/18/18/18/18/9A8/18/12sC4/9r1S6/8S9/18/18/18/18/18/18/2R15/18 N",
    ] {
        let g = at(fen);
        let mut mates = 0;
        for a in g.actions_here() {
            let mut after = g.clone();
            after.apply(a);
            let surround = after.outcome()
                == Some(Outcome::Win(tabula_core::Player(
                    g.side_to_move().index() as u8
                )))
                && after.is_surrounded(g.side_to_move().other());
            assert_eq!(
                g.action_facts(a).mate,
                surround,
                "{} in {fen}",
                g.action_text(a)
            );
            mates += usize::from(surround);
        }
        assert_eq!(mates > 0, fen == SURROUND_NEAR, "{fen}");
    }
}

#[test]
fn facts_agree_with_the_notation_and_the_board_in_random_games() {
    let block = Options {
        setup: Setup::Block,
        ..Options::default()
    };
    let starts = [
        at(SURROUND_NEAR),
        at(SMALL_ARMIES),
        Phylde::new_game(&block).unwrap(),
    ];
    let (mut steps, mut shots, mut mates) = (0, 0, 0);
    visit_random_play(&starts, 20, 9, |before, a, after| {
        let f = before.action_facts(a);
        let text = before.action_text(a);
        assert!(!f.check, "{text}");
        assert_eq!(f.capture, text.contains(['x', '*']), "{text}");
        assert_eq!(
            f.capture,
            pieces(&after.position()) < pieces(&before.position()),
            "{text} in {}",
            before.position()
        );
        let Turn::Player(mover) = before.turn() else {
            unreachable!("only player actions are visited")
        };
        let won = after.outcome() == Some(Outcome::Win(mover));
        let surround = won && after.is_surrounded(before.side_to_move().other());
        assert_eq!(f.mate, surround, "{text} in {}", before.position());
        mates += usize::from(f.mate);
        steps += usize::from(f.capture && text.contains('x'));
        shots += usize::from(f.capture && text.contains('*'));
    });
    assert!(
        steps > 10 && shots > 5 && mates > 0,
        "too little seen: {steps} captures, {shots} shots, {mates} mates"
    );
}
