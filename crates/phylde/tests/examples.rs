//! The worked examples of spec §10 (E1–E11) and the note at the end of §12.

mod common;

use common::preset;
use phylde::{
    format_turn, parse_turn, turn_records, whole_turns, Kind, Options, Phylde, Setup, Side,
};
use std::collections::BTreeSet;
use tabula_core::{perft, Game, Outcome, Player, Turn};

fn with(material_draw: bool, fen: &str) -> Phylde {
    let options = Options {
        material_draw,
        ..Options::default()
    };
    Phylde::from_position(&options, fen).unwrap()
}

/// The default options (material draw on).
fn game(fen: &str) -> Phylde {
    with(true, fen)
}

fn texts(g: &Phylde) -> BTreeSet<String> {
    g.actions_here().iter().map(|&a| g.action_text(a)).collect()
}

fn set(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_string).collect()
}

fn play(g: &mut Phylde, stream: &str) {
    for t in stream.split_whitespace() {
        let a = g.parse_action(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        g.apply(a);
    }
}

fn distinct_turns(g: &Phylde, kind: Option<Kind>) -> usize {
    let list = whole_turns(g, kind, usize::MAX);
    assert!(list.complete);
    list.turns.len()
}

const E1: &str = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/8s9/7S10/18/8R9 S";

#[test]
fn e1_soldier_next_to_its_own_quad() {
    let g = with(false, E1);
    assert_eq!(
        texts(&g),
        set("h3-g2 h3-h2 h3-g3 h3-i3 h3-g4 h3-h4 h3xi4 i1+-h1+ i1+-j1+ i1+-i2+")
    );
    assert!(g.parse_action("h3-i2").is_err(), "i2 is a quad square");
    assert_eq!(perft(&g, 2), 38);
    assert_eq!(distinct_turns(&g, None), 10);
}

#[test]
fn e2_king_blocked() {
    let g = game("18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/18/9s8/18/7SR9 S");
    let kings: BTreeSet<String> = texts(&g).into_iter().filter(|t| t.contains('+')).collect();
    assert_eq!(kings, set("i1+-j1+"));
}

#[test]
fn e3_archer_moves_and_shots() {
    let g = game("18/8r9/18/18/18/18/18/18/18/18/18/4s13/5s12/1s1SA13/18/2c15/18/8R9 S");
    let e5: BTreeSet<String> = texts(&g)
        .into_iter()
        .filter(|t| t.starts_with("e5"))
        .collect();
    assert_eq!(
        e5,
        set("e5-f5 e5-g5 e5-e6 e5xe7 e5*e7 e5-e4 e5-e3 e5xf6 e5*f6 e5-f4 e5-g3 e5-d6 e5-c7 e5-d4 e5xc3 e5*c3")
    );
}

#[test]
fn e4_cavalier_slides_up_to_five() {
    let g = game("18/8r9/18/18/18/18/18/18/18/18/18/18/18/4a13/18/18/1S2C13/8R9 S");
    let e2: BTreeSet<String> = texts(&g)
        .into_iter()
        .filter(|t| t.starts_with("e2"))
        .collect();
    let dests = "f2 g2 h2 d2 c2 e3 e4 e1 f1 d1 f3 g4 h5 i6 j7 d3 c4 b5 a6";
    let mut expected: BTreeSet<String> = dests.split(' ').map(|d| format!("e2-{d}")).collect();
    expected.insert("e2xe5".into());
    assert_eq!(e2, expected);
}

const E5: &str = "18/8r9/18/18/18/18/18/18/18/18/18/4s13/18/4S13/4S13/18/18/8R9 S";

#[test]
fn e5_sequencing() {
    let g = with(false, E5);
    let first = texts(&g);
    assert_eq!(first.len(), 17);
    assert!(!first.contains("e4-e5"));

    let mut after = g.clone();
    play(&mut after, "e5-e6");
    let t = texts(&after);
    assert_eq!(t.len(), 9);
    assert!(t.contains("end") && t.contains("e4-e5"));
    assert_eq!(t.iter().filter(|a| a.starts_with("e4")).count(), 8);
    play(&mut after, "e4-e5");
    assert_eq!(texts(&after), set("end"));
    play(&mut after, "end");
    assert_eq!(after.side_to_move(), Side::North);

    assert_eq!([1, 2, 3].map(|d| perft(&g, d)), [17, 151, 438]);
    assert_eq!(distinct_turns(&g, None), 62);
}

const E6: &str = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/2s2c12/18/2A2A12/18/8R9 S";

#[test]
fn e6_two_archers_shoot() {
    let g = with(false, E6);
    assert_eq!(texts(&g).len(), 37);
    let mut after = g.clone();
    play(&mut after, "c3*c5");
    let t = texts(&after);
    assert_eq!(t.len(), 18);
    assert!(t.iter().all(|a| a.starts_with("f3") || a == "end"));
    play(&mut after, "f3*f5");
    assert_eq!(after.turn(), Turn::Player(Player(1)), "L=2 ends the turn");
    let archers: Vec<_> = ["c3", "f3"]
        .map(|s| after.piece(phylde::Sq(square(s))))
        .into();
    assert_eq!(archers, [Some((Side::South, Kind::Archer)); 2]);
    assert_eq!(perft(&g, 2), 730);
    assert_eq!(distinct_turns(&g, None), 323);
}

fn square(name: &str) -> u16 {
    let x = name.as_bytes()[0] - b'a';
    let y: u16 = name[1..].parse().unwrap();
    (y - 1) * 18 + x as u16
}

#[test]
fn e7_surround_completed_mid_turn() {
    let g = game("18/18/18/18/18/9A8/18/13C4/9r8/8S9/11S6/18/18/18/18/18/2R15/18 S");
    assert_eq!(g.turn(), Turn::Player(Player(0)));
    assert!(!g.is_surrounded(Side::North));
    assert_eq!(g.surround_pressure(Side::North), 3, "k10 is unattacked");
    let mut after = g.clone();
    assert_eq!(after.end_reason(), None);
    play(&mut after, "l8-l9");
    assert_eq!(after.outcome(), Some(Outcome::Win(Player(0))));
    assert_eq!(after.end_reason(), Some("surround"));
    assert_eq!(after.turn(), Turn::Over);
    assert!(after.actions_here().is_empty(), "no `end` after a win");
}

#[test]
fn e8_four_distinct_attackers_required() {
    let g = game("18/18/18/18/18/9A8/18/16C1/9r1S6/8S9/18/18/18/18/18/18/2R15/18 S");
    assert!(!g.is_surrounded(Side::North));
    assert_eq!(
        g.surround_pressure(Side::North),
        3,
        "l10 covers two squares"
    );
    let mut win = g.clone();
    play(&mut win, "q11-p11");
    assert_eq!(win.outcome(), Some(Outcome::Win(Player(0))));
    let mut no_win = g.clone();
    play(&mut no_win, "i9-i10");
    assert_eq!(no_win.outcome(), None);
    assert_eq!(no_win.turn(), Turn::Player(Player(0)));
}

#[test]
fn e9_self_exposure_loses_at_turn_end() {
    let g = game("18/18/18/18/18/9A8/18/12sC4/9r1S6/8S9/18/18/18/18/18/18/2R15/18 N");
    assert!(!g.is_surrounded(Side::North));
    let mut after = g.clone();
    play(&mut after, "m11-m12");
    assert!(after.is_surrounded(Side::North));
    assert_eq!(after.outcome(), None, "the game goes on");
    assert_eq!(texts(&after), set("end"));
    play(&mut after, "end");
    assert_eq!(after.outcome(), Some(Outcome::Win(Player(0))));
}

/// First actions by kind (S, A, C, R) and their total.
fn first_actions(g: &Phylde) -> [usize; 5] {
    let mut n = [0; 5];
    for a in g.actions_here() {
        n[g.action_kind(a).unwrap().index()] += 1;
        n[4] += 1;
    }
    n
}

#[test]
fn e10_start_positions() {
    let cases = [
        (Setup::Lines, [91, 53, 32, 2, 178], 16515, [2, 32, 1289]),
        (Setup::Block, [40, 50, 32, 2, 124], 7866, [2, 32, 1067]),
        (Setup::Corners, [75, 58, 20, 0, 153], 11588, [0, 20, 1503]),
    ];
    for (setup, firsts, perft2, turns) in cases {
        for side in [Side::South, Side::North] {
            let g = preset(setup, side);
            assert_eq!(g.side_to_move(), side);
            assert_eq!(first_actions(&g), firsts, "{setup:?} {side:?}");
        }
        let g = preset(setup, Side::South);
        assert_eq!(perft(&g, 2), perft2, "{setup:?}");
        let by_kind =
            [Kind::King, Kind::Cavalier, Kind::Archer].map(|k| distinct_turns(&g, Some(k)));
        assert_eq!(by_kind, turns, "{setup:?}");
    }
    assert_eq!(
        first_actions(&preset(Setup::CornersSym, Side::South))[4],
        161
    );
}

#[test]
fn e11_game_fragment() {
    let start = preset(Setup::Lines, Side::South);
    let stream = "e6-e7 g6-g7 i6-i7 end k16-k17 e4-d3 n4-o3 i17+-h17+ q6-q7 r6-r7 end";
    let mut g = start.clone();
    let mut actions = Vec::new();
    let mut mid_turn = String::new();
    for t in stream.split_whitespace() {
        let a = g.parse_action(t).unwrap();
        g.apply(a);
        actions.push(a);
        if t == "q6-q7" {
            mid_turn = g.position();
        }
    }
    let records = turn_records(&start, &actions).unwrap();
    assert_eq!(
        records,
        [
            "S e6-e7, g6-g7, i6-i7",
            "C k16-k17",
            "A e4-d3, n4-o3",
            "R i17+-h17+",
            "S q6-q7, r6-r7"
        ]
    );
    // The spec prints the FENs without their draw counters (here 4 turns
    // played, none with a capture, then 5).
    assert_eq!(
        mid_turn,
        "18/7r2c7/6cccc1c6/4aaaaaaaaaa4/s1s1s1s1s1s1s1s1ss/ss1s1s1s1s1s1s1s1s/18/18/18/18/18/4S1S1S7S1/S1S7S1S1S2S/SS1S1S1S1S1S1S1S1S/5AAAAAAAA5/3A2CCCCCC2A3/18/8R9 S S1:q7 5 4"
    );
    assert_eq!(
        g.position(),
        "18/7r2c7/6cccc1c6/4aaaaaaaaaa4/s1s1s1s1s1s1s1s1ss/ss1s1s1s1s1s1s1s1s/18/18/18/18/18/4S1S1S7SS/S1S7S1S1S3/SS1S1S1S1S1S1S1S1S/5AAAAAAAA5/3A2CCCCCC2A3/18/8R9 N - 5 5"
    );
    // The records read back to the same action stream.
    let mut replay = start.clone();
    let mut back = Vec::new();
    for r in &records {
        let turn = parse_turn(&replay, r).unwrap();
        assert_eq!(format_turn(&replay, &turn).unwrap(), *r);
        for &a in &turn {
            replay.apply(a);
        }
        back.extend(turn);
    }
    assert_eq!(back, actions);
}

#[test]
fn turn_records_check_their_kind_and_end() {
    let g = preset(Setup::Lines, Side::South);
    let turn = parse_turn(&g, "S e6-e7, g6-g7 ; end").unwrap();
    assert_eq!(turn.len(), 3);
    assert_eq!(parse_turn(&g, "S e6-e7, g6-g7").unwrap(), turn);
    assert!(parse_turn(&g, "A e6-e7").is_err(), "kind letter must match");
    assert!(
        parse_turn(&g, "C k3-k4 ; end").is_err(),
        "a cavalier turn is complete"
    );
    assert!(
        parse_turn(&g, "S e6-e7, e7-e8").is_err(),
        "same soldier twice"
    );
    assert!(parse_turn(&g, "S e6-e7, end").is_err());
    assert!(parse_turn(&g, "S").is_err());
    assert!(parse_turn(&g, "S e6-e7 ; stop").is_err());
}

/// Spec §12 note: with the default material draw, every turn end in E1, E5
/// and E6 is a draw.
#[test]
fn material_draw_counts() {
    assert_eq!(perft(&game(E1), 2), 7);
    assert_eq!([1, 2, 3].map(|d| perft(&game(E5), d)), [17, 118, 104]);
    assert_eq!(perft(&game(E6), 2), 606);
}
