//! Action ids, roll records (spec §7), the picture and the evaluation.

mod common;
use common::*;
use stelpur::{roll_records, RollRecord, Stelpur};
use tabula_core::{ErrorKind, Evaluate, Game, Player, Turn};

#[test]
fn roll_records_read_and_write() {
    for text in [
        "r=6-1: 6-7, 7x13",
        "r=3-2: -",
        "r=6-6: 3-9, 9x15, 15-21, 4-10",
    ] {
        assert_eq!(RollRecord::parse(text).unwrap().to_string(), text);
    }
    assert_eq!(
        RollRecord::parse(" r=1-6:6-7,7x13 ").unwrap().to_string(),
        "r=6-1: 6-7, 7x13"
    );
    for bad in [
        "",
        "6-1: 6-7",
        "r=7-1: 6-7",
        "r=6-1 6-7",
        "r=6-1: 6-",
        "r=6-1: 6-25",
    ] {
        let e = RollRecord::parse(bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Notation, "{bad}");
    }
}

#[test]
fn roll_records_play_and_group_a_game() {
    let mut g = game("stelpur", START);
    let start = g.clone();
    for rec in [
        "r=6-6: 3-9, 9x15, 15-21, 4-10",
        "r=4-4: 5-9, 9x13",
        "r=3-2: -",
    ] {
        g.apply_roll_record(&RollRecord::parse(rec).unwrap())
            .unwrap_or_else(|e| panic!("{rec}: {e}"));
    }
    assert_eq!(g.position(), "1,2,6,10,13,21/14,16,17,18 2 - 1 2");
    // Incomplete, illegal or mistimed records change nothing.
    let before = g.position();
    for rec in ["r=6-1: 13-14", "r=6-1: 14-20", "r=6-1: 18-19, 19-25"] {
        if let Ok(r) = RollRecord::parse(rec) {
            assert!(g.apply_roll_record(&r).is_err(), "{rec}");
        }
        assert_eq!(g.position(), before);
    }
    let actions: Vec<_> = [
        "6-6", "6:3-9", "6:9x15", "6:15-21", "6:4-10", "4-4", "4:5-9",
    ]
    .iter()
    .scan(start.clone(), |h, t| {
        let a = h.parse_action(t).ok()?;
        h.apply(a);
        Some(a)
    })
    .collect();
    let recs: Vec<String> = roll_records(&start, &actions)
        .iter()
        .map(RollRecord::to_string)
        .collect();
    assert_eq!(
        recs,
        ["r=6-6: 3-9, 9x15, 15-21, 4-10"],
        "the open 4-4 is left out"
    );
}

#[test]
fn bump_records_find_the_die_that_fits() {
    let mut g = game("stelpur(preset=tablesites)", START);
    // `1-7` fits the 1 (bumped) and the 6; only the 6 leaves `7-8` for the 1.
    g.apply_roll_record(&RollRecord::parse("r=6-1: 1-7, 7-8").unwrap())
        .unwrap();
    assert_eq!(g.position(), "2,3,4,5,6,8/13,14,15,16,17,18 2 - 1 2");
}

#[test]
fn action_text_accepts_short_forms_and_rejects_junk() {
    let mut g = game("stelpur", START);
    assert_eq!(
        g.parse_action("1-6").unwrap(),
        g.parse_action("6-1").unwrap()
    );
    play(&mut g, &["6-1"]);
    let a = g.parse_action("6-12").unwrap();
    assert_eq!(g.action_text(a), "6:6-12");
    assert_eq!(g.parse_action("6:6x12").unwrap(), a);
    for bad in [
        "6:6-13", "1:6-8", "7:6-13", "pass", "6-1", "6:6-12 ", "6:6-12x",
    ] {
        if let Ok(b) = g.parse_action(bad) {
            assert_eq!(g.action_text(b), bad.trim(), "`{bad}` accepted");
        }
    }
    assert_eq!(
        g.parse_action("6:6-13").unwrap_err().kind,
        ErrorKind::Illegal
    );
    assert_eq!(
        g.parse_action("6:a-13").unwrap_err().kind,
        ErrorKind::Notation
    );
    play(&mut g, &["6:6-12"]);
    assert_eq!(firsts(&g), ["1:12x13", "1:5-6"]);
}

#[test]
fn free_play_offers_pass_after_a_use() {
    let mut g = game("stelpur(forced_play=free)", START);
    play(&mut g, &["6-1"]);
    assert!(!firsts(&g).contains(&"pass".to_string()));
    play(&mut g, &["6:1-7"]);
    assert!(firsts(&g).contains(&"pass".to_string()));
    play(&mut g, &["pass"]);
    assert_eq!(g.position(), "2,3,4,5,6,7/13,14,15,16,17,18 2 - 1 2");
}

#[test]
fn picture_shows_runes_pawns_and_dice() {
    let g = game("stelpur", "6,11,13/12,20 1 6-1:1,6 0 1");
    let pic = g.render();
    for part in ["ᚠ", "ᚹ", "X", "O", "24", "dice 6-1, values to use 1,6"] {
        assert!(pic.contains(part), "{part} in\n{pic}");
    }
    let won = game("stelpur", "6,11,13/ 1 - 0 1");
    assert!(won.render().contains("South (X) wins"));
}

#[test]
fn evaluation_is_zero_sum_and_counts_pawns() {
    let g = game("stelpur", "1,2,3,4,5/13,14,15,16,17,18 1 - 0 1");
    let v = g.evaluate(Player(0));
    assert_eq!(v, -g.evaluate(Player(1)));
    assert!(v < -0.5, "a pawn down: {v}");
    let mut t = game("stelpur", START);
    play(&mut t, &["6-1"]);
    let a = t.parse_action("1:6-7").unwrap();
    assert!(!t.is_tactical(a));
    play(&mut t, &["1:6-7"]);
    let cap = t.parse_action("6:7x13").unwrap();
    assert!(t.is_tactical(cap));
    assert_eq!(t.turn(), Turn::Player(Player(0)));
}

#[test]
fn draw_by_the_no_capture_limit_and_by_mutual_last_pawns() {
    let mut g = game("stelpur", "3,9/15,21 2 - 299 88");
    play(&mut g, &["3-2"]);
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.position(), "3,9/15,21 1 - 300 89");
    let d = game("stelpur(mutual_last_pawn_draw)", "1,9/13 1 - 0 5");
    let mut d2 = d.clone();
    play(&mut d2, &["6-2", "6:1-7"]);
    assert_eq!(d2.turn(), Turn::Chance);
    let mut d3: Stelpur = game("stelpur(mutual_last_pawn_draw)", "7,9/13 1 - 0 5");
    play(&mut d3, &["6-2", "6:7x13"]);
    assert!(matches!(d3.outcome(), Some(tabula_core::Outcome::Win(_))));
    // A last pawn (corners: 7 -> 12 -> 13) takes one of two: one pawn each.
    let mut d4 = game("stelpur(mutual_last_pawn_draw)", "7/13,20 1 - 0 5");
    play(&mut d4, &["6-2", "6:7x13"]);
    assert!(matches!(d4.outcome(), Some(tabula_core::Outcome::Draw(_))));
    assert_eq!(d4.position(), "13/20 1 - 0 5");
}
