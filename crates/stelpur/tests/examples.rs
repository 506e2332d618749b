//! The worked examples T1-T14 of spec §8, with their exact action sets,
//! sequence counts and end-position counts.

mod common;
use common::*;
use tabula_core::{Game, Player, Turn};

fn rolled(spec: &str, pos: &str, roll: &str) -> stelpur::Stelpur {
    let mut g = game(spec, pos);
    play(&mut g, &[roll]);
    g
}

fn set(s: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = s.iter().map(|x| x.to_string()).collect();
    v.sort();
    v
}

#[test]
fn t1_start_6_1() {
    let g = rolled("stelpur", START, "6-1");
    assert_eq!(g.position(), "1,2,3,4,5,6/13,14,15,16,17,18 1 6-1:1,6 0 1");
    assert_eq!(
        firsts(&g),
        set(&["1:6-7", "6:1-7", "6:2-8", "6:3-9", "6:4-10", "6:5-11", "6:6-12"])
    );
    let (n, ends, lines) = sequences(&g);
    assert_eq!((n, ends.len()), (20, 10));
    assert!(lines.contains(&"6-7, 7x13".to_string()));
    assert!(lines.contains(&"6-12, 12x13".to_string()));
}

#[test]
fn t2_start_4_1_ignores_the_4() {
    let g = rolled("stelpur", START, "4-1");
    assert_eq!(firsts(&g), set(&["1:6-7"]));
}

#[test]
fn t3_start_3_2_passes_to_p2() {
    let g = rolled("stelpur", START, "3-2");
    assert_eq!(g.turn(), Turn::Chance);
    assert_eq!(g.position(), "1,2,3,4,5,6/13,14,15,16,17,18 2 - 1 2");
}

#[test]
fn t4_start_4_4() {
    let g = rolled("stelpur", START, "4-4");
    assert_eq!(firsts(&g), set(&["4:3-7", "4:4-8", "4:5-9", "4:6-10"]));
    let (n, ends, lines) = sequences(&g);
    assert_eq!((n, ends.len()), (18, 12));
    assert!(lines.contains(&"5-9, 9x13".to_string()));
    assert!(lines.contains(&"6-10, 10x14".to_string()));
    let mut after = g.clone();
    play(&mut after, &["4:3-7", "4:7-11"]);
    assert_eq!(after.turn(), Turn::Chance);
    assert_eq!(after.to_move(), Player(0), "P1 rolls again after a double");
}

#[test]
fn t5_start_6_6() {
    let g = rolled("stelpur", START, "6-6");
    assert_eq!(
        firsts(&g),
        set(&["6:1-7", "6:2-8", "6:3-9", "6:4-10", "6:5-11", "6:6-12"])
    );
    let (n, ends, _) = sequences(&g);
    assert_eq!((n, ends.len()), (1296, 126));
}

#[test]
fn t5b_start_1_1() {
    let g = rolled("stelpur", START, "1-1");
    assert_eq!(firsts(&g), set(&["1:6-7"]));
    let mut g2 = g.clone();
    play(&mut g2, &["1:6-7"]);
    assert_eq!(firsts(&g2), set(&["1:5-6", "1:7-8"]));
    play(&mut g2, &["1:7-8"]);
    assert_eq!((g2.turn(), g2.to_move()), (Turn::Chance, Player(0)));
}

#[test]
fn t6_mirror_of_t1() {
    let g = rolled("stelpur", "1,2,3,4,5,6/13,14,15,16,17,18 2 - 0 1", "6-1");
    assert_eq!(
        firsts(&g),
        set(&["1:18-19", "6:13-19", "6:14-20", "6:15-21", "6:16-22", "6:17-23", "6:18-24"])
    );
    assert_eq!(sequences(&g).0, 20);
}

#[test]
fn t7_corner_between_two_enemies_is_protected() {
    let g = rolled("stelpur", "6,11,13/12,20 1 - 0 1", "6-3");
    assert_eq!(firsts(&g), set(&["6:11-17", "6:13-19"]));
}

#[test]
fn t8_breaking_the_frame_first() {
    let g = rolled("stelpur", "6,11,13/12,20 1 - 0 1", "6-1");
    assert_eq!(firsts(&g), set(&["1:6-7", "1:13-14", "6:11-17", "6:13-19"]));
    let (n, _, lines) = sequences(&g);
    assert_eq!(n, 11);
    for l in ["13-14, 6x12", "13-19, 11x12", "13-14, 14x20"] {
        assert!(lines.contains(&l.to_string()), "{l} in {lines:?}");
    }
}

#[test]
fn t9_r5_excludes_a_dead_end() {
    let g = rolled("stelpur", "1,6,13,19/4 1 - 0 1", "6-1");
    assert_eq!(
        firsts(&g),
        set(&["1:1-2", "1:13-14", "1:19-20", "6:1-7", "6:6-12"])
    );
    let (n, _, lines) = sequences(&g);
    assert_eq!(n, 16);
    assert!(lines.iter().any(|l| l.contains("19-1")));
    assert!(lines.iter().any(|l| l.contains("20-2")));
}

#[test]
fn t10_last_pawn_moves_by_corners() {
    let g = rolled("stelpur", "9/13,18,22 1 - 0 1", "6-1");
    assert_eq!(firsts(&g), set(&["1:9-12", "6:9x13"]));
    let (n, _, lines) = sequences(&g);
    assert_eq!(n, 2);
    assert_eq!(
        lines
            .iter()
            .cloned()
            .collect::<std::collections::BTreeSet<_>>(),
        ["9-12, 12x18", "9x13, 13x18"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
}

#[test]
fn t11_last_pawn_rerolls_on_doubles() {
    for roll in ["1-1", "3-3", "6-6"] {
        let g = rolled("stelpur", "9/13,18,22 1 - 0 1", roll);
        assert_eq!(g.turn(), Turn::Chance, "{roll}");
        assert_eq!(g.to_move(), Player(0), "{roll}: P1 rolls again");
        assert_eq!(g.position(), "9/13,18,22 1 - 1 1");
    }
}

#[test]
fn t11b_tablesites_last_pawn_moves_on_1_1() {
    let g = rolled("stelpur(preset=tablesites)", "9/13,18,22 1 - 0 1", "1-1");
    assert_eq!(firsts(&g), set(&["1:9-12"]));
    let mut g2 = g.clone();
    play(&mut g2, &["1:9-12"]);
    assert_eq!(firsts(&g2), set(&["1:12x13"]));
    play(&mut g2, &["1:12x13"]);
    assert_eq!((g2.turn(), g2.to_move()), (Turn::Chance, Player(0)));
}

#[test]
fn t12_protected_last_pawn() {
    let g = rolled("stelpur", "5,7,11/6 1 - 0 1", "2-1");
    assert_eq!(firsts(&g), set(&["1:7-8", "1:11-12"]));
}

#[test]
fn t13_moving_a_framing_pawn_frees_the_capture() {
    let g = rolled("stelpur", "5,7,11/6 1 - 0 1", "6-1");
    assert_eq!(firsts(&g), set(&["1:7-8", "1:11-12", "6:7-13", "6:11-17"]));
    let (n, _, lines) = sequences(&g);
    assert_eq!(n, 10);
    assert!(lines.contains(&"7-13, 5x6".to_string()));
    let mut won = g.clone();
    play(&mut won, &["6:7-13", "1:5x6"]);
    assert_eq!(won.turn(), Turn::Over);
    assert_eq!(won.position(), "6,11,13/ 1 - 0 1");
}

#[test]
fn t14_tablesites_bump() {
    let g = rolled("stelpur(preset=tablesites)", START, "6-1");
    assert_eq!(
        firsts(&g),
        set(&[
            "1:1-7", "1:2-7", "1:3-7", "1:4-7", "1:5-7", "1:6-7", "6:1-7", "6:2-8", "6:3-9",
            "6:4-10", "6:5-11", "6:6-12"
        ])
    );
    // Without the die, `1-7` is ambiguous and says so.
    let e = g.parse_action("1-7").unwrap_err();
    assert!(e.message.contains("1:1-7 or 6:1-7"), "{e}");
    assert!(g.parse_action("2-7").is_ok());
}
