//! Action facts: a die-use captures when it lands on an enemy pawn (R6);
//! a bump never does; there is no check or mate.

use stelpur::{Options, Stelpur};
use tabula_core::conformance::check_capture_facts;
use tabula_core::{ActionFacts, Game, RawSpec};

/// Pawns on the board, from the position string (`1,2/13,14 1 - 0 1`).
fn pawns(position: &str) -> usize {
    let cells = position.split_whitespace().next().unwrap_or("");
    cells.split(['/', ',']).filter(|c| !c.is_empty()).count()
}

fn facts(g: &Stelpur, text: &str) -> ActionFacts {
    g.action_facts(g.parse_action(text).unwrap())
}

fn play(g: &mut Stelpur, text: &str) {
    let a = g.parse_action(text).unwrap();
    g.apply(a);
}

fn game(spec: &str) -> Stelpur {
    let raw = RawSpec::parse(spec).unwrap();
    let values =
        tabula_core::OptionValues::validate(Stelpur::NAME, Stelpur::option_defs(), &raw.pairs)
            .unwrap();
    Stelpur::new_game(&Stelpur::options_from(&values).unwrap()).unwrap()
}

#[test]
fn a_hit_is_a_capture_and_a_step_is_not() {
    // Spec T1: after 6-1 from the start, 6-12 then 12x13.
    let mut g = Stelpur::new_game(&Options::default()).unwrap();
    play(&mut g, "6-1");
    assert_eq!(facts(&g, "6:6-12"), ActionFacts::default());
    play(&mut g, "6:6-12");
    let hit = facts(&g, "1:12x13");
    assert!(hit.capture && !hit.check && !hit.mate, "{hit:?}");
}

#[test]
fn facts_agree_with_the_notation_and_the_board_in_random_games() {
    let starts = [
        game("stelpur"),
        game("stelpur(preset=ludii)"),
        game("stelpur(preset=tablesites)"),
        game("stelpur(own_landing=bump,forced_play=free)"),
    ];
    let captures = check_capture_facts(&starts, 5, 3, 'x', pawns, false);
    assert!(captures > 50, "too few captures: {captures}");
}
