//! Position strings, notation, results, picture and evaluation: the parts
//! users and agents see.

mod common;

use common::{draw, game, options, play};
use gildervaik::Gildervaik;
use tabula_core::{ErrorKind, Evaluate, Game, Outcome, Player, Turn};

const START: &str = "A:a1,b1,b3,c1,c3,c5,d1,d3,d5,d7 \
                     B:g13,h13,h15,i13,i15,i17,j13,j15,j17,j19 \
                     C:g1,h1,h3,i1,i3,i5,j1,j3,j5,j7 / A";

#[test]
fn position_strings_round_trip_with_counters() {
    assert_eq!(game("gildervaik", "start").position(), START);
    for text in [
        "A:e3 B:j19 C:j1 / B ply=178 turns=60,59,59",
        "A:e3,e5 B:e6 / A ply=3 turns=1,1,1 nocap=2 passes=1 caps=0,0,4",
        "B:e6,f5 C:f7 / C",
    ] {
        assert_eq!(game("gildervaik(mode=warrior)", text).position(), text);
    }
    // Input is read leniently: any case, any group order, spaces.
    let g = game("gildervaik", " c:g6,F7 a:E5,e3  b:e6,f5 /b ");
    assert_eq!(g.position(), "A:e3,e5 B:e6,f5 C:f7,g6 / B");
}

#[test]
fn bad_position_strings_are_errors() {
    let opts = options("gildervaik");
    for bad in [
        "",
        "A:e3",
        "A:e3 / D",
        "A:e3 / B",
        "A:z9 / A",
        "A:e10 / A",
        "A:e3,e3 / A",
        "A:e3 B:e3 / A",
        "A:e3 A:e4 / A",
        "X:e3 / A",
        "A e3 / A",
        "A:a1,b1,b2,b3,c1,c2,c3,c4,c5,d1,d2 / A",
        "A:e3 / A ply=x",
        "A:e3 / A ply=-1",
        "A:e3 / A foo=1",
        "A:e3 / A turns=1,2",
        "A:e3 / A passes=4",
        "A:e3 / A ply=1 ply=2",
        "A:e3 / A ply",
        "/ A",
    ] {
        let e = Gildervaik::from_position(&opts, bad).err();
        assert_eq!(e.map(|e| e.kind), Some(ErrorKind::Position), "{bad}");
    }
}

#[test]
fn finished_positions_read_as_finished() {
    let cases = [
        ("gildervaik", "A:e3 / A", Outcome::Win(Player(0))),
        (
            "gildervaik",
            "A:g13,h13,h15,i13,i15,i17,j13,j15,j17,j19 B:a1 C:j1 / B",
            Outcome::Win(Player(0)),
        ),
        (
            "gildervaik",
            "A:e3 B:e5 C:e7 / A passes=3",
            draw(&[0, 1, 2]),
        ),
        ("gildervaik", "A:e3 B:e5 / A ply=600", draw(&[0, 1])),
        (
            "gildervaik(mode=warrior)",
            "A:e3,e4 B:e6 C:e8 / A nocap=90",
            Outcome::Win(Player(0)),
        ),
        (
            "gildervaik(mode=warrior)",
            "A:e3 B:e6 C:e8 / A nocap=90 caps=1,1,0",
            draw(&[0, 1, 2]),
        ),
        (
            "gildervaik(mode=warrior,limit_rank=captures)",
            "A:e3 B:e6 C:e8 / A nocap=90 caps=1,1,0",
            draw(&[0, 1]),
        ),
    ];
    for (spec, pos, result) in cases {
        let g = game(spec, pos);
        assert_eq!(g.turn(), Turn::Over, "{pos}");
        assert_eq!(g.outcome(), Some(result), "{pos}");
        assert!(g.actions_here().is_empty());
        assert!(g.parse_action("pass").is_err());
    }
}

#[test]
fn forced_pass_and_everyone_passing() {
    // A is walled in; B and C are too after A passes.
    let mut g = game("gildervaik", "A:a1 B:b2 C:b1,b3 / A");
    assert_eq!(common::listed(&g), "pass");
    play(&mut g, "PASS");
    assert_eq!(
        g.position(),
        "A:a1 B:b2 C:b1,b3 / B ply=1 turns=1,0,0 passes=1"
    );
    assert_eq!(common::listed(&g), "b2-c2 b2-c4");
    // A move resets the count of passes.
    play(&mut g, "b2-c2");
    assert_eq!(g.position(), "A:a1 B:c2 C:b1,b3 / C ply=2 turns=1,1,0");
    // Warrior: when everyone has passed, the most pawns wins (C's pawns in
    // zone A are untouchable, so A cannot jump them).
    let mut w = game(
        "gildervaik(mode=warrior)",
        "A:a1 B:j19 C:b1,b2,b3 / A passes=2",
    );
    play(&mut w, "pass");
    assert_eq!(w.outcome(), Some(Outcome::Win(Player(2))));
}

#[test]
fn blocked_players_are_eliminated_with_that_option() {
    let g = game(
        "gildervaik(blocked_player=eliminated)",
        "A:a1 B:b2,e5 C:b1,b3 / A",
    );
    assert_eq!(g.position(), "B:b2,e5 C:b1,b3 / B");
    // A leaves, then B is walled in too: C is left alone.
    let g = game(
        "gildervaik(blocked_player=eliminated)",
        "A:a1 B:j19 C:b1,b2,b3,i17,j17,j18 / A",
    );
    assert_eq!(g.outcome(), Some(Outcome::Win(Player(2))));
}

#[test]
fn free_start_cells_need_a_placement() {
    let spec = "gildervaik(start_cells=free)";
    let opts = options(spec);
    assert_eq!(
        Gildervaik::new_game(&opts).err().map(|e| e.kind),
        Some(ErrorKind::Spec)
    );
    let placement = "A:a1,b1,b2,b3,c1,c2,c3,c4,c5,d1 \
                     B:g13,h13,h14,h15,i13,i15,i17,j13,j15,j17 \
                     C:g1,h1,h3,i1,i3,i5,j1,j3,j5,j7 / A";
    assert_eq!(game(spec, placement).actions_here().len(), 5);
    let outside = placement.replace("a1,", "e1,");
    assert!(Gildervaik::from_position(&opts, &outside).is_err());
}

#[test]
fn notation_errors_and_spellings() {
    let g = game("gildervaik", "A:e3,e5 B:e6,f5 C:f7,g6 / A");
    for (bad, kind) in [
        ("", ErrorKind::Notation),
        ("e5", ErrorKind::Notation),
        ("e5-", ErrorKind::Notation),
        ("e5-k1", ErrorKind::Notation),
        ("e5xe7xf9", ErrorKind::Illegal),
        ("e5-e9", ErrorKind::Illegal),
        ("e6-e7", ErrorKind::Illegal),
        ("pass", ErrorKind::Illegal),
    ] {
        assert_eq!(
            g.parse_action(bad).err().map(|e| e.kind),
            Some(kind),
            "{bad}"
        );
    }
    assert_eq!(g.action_text(g.parse_action(" E5-G9 ").unwrap()), "e5-g9");
    let w = game("gildervaik(mode=warrior)", "A:e5,h3 B:e6 C:f8,h2 / A");
    let m = w.parse_action("e5-e7-f9").unwrap();
    assert_eq!(w.action_text(m), "e5xe7xf9");
    assert!(m.is_capture() && w.is_tactical(m));
    assert!(!w.is_tactical(g.parse_action("e5-g9").unwrap()));
}

#[test]
fn picture_follows_the_spec_diagram() {
    let g = game("gildervaik", "start");
    let picture = g.render();
    let lines: Vec<&str> = picture.lines().collect();
    assert_eq!(lines[0], "a          A");
    assert_eq!(lines[6], "g    C...........B");
    assert_eq!(lines[9], "j C:C:C:C.....B:B:B:B");
    assert!(lines[10].starts_with("pawns A 10, B 10, C 10; ply 0/600"));
}

#[test]
fn hash_tells_positions_apart_and_meets_transpositions() {
    let mut a = game("gildervaik", "start");
    let mut b = a.clone();
    for m in ["a1-b2", "g13-g12", "g1-g2", "d7-e8"] {
        play(&mut a, m);
    }
    for m in ["d7-e8", "g13-g12", "g1-g2", "a1-b2"] {
        play(&mut b, m);
    }
    assert_eq!(a.position(), b.position());
    assert_eq!(a.hash(), b.hash());
    let other_side = game("gildervaik", &START.replace("/ A", "/ B"));
    assert_ne!(other_side.hash(), game("gildervaik", "start").hash());
}

#[test]
fn evaluation_is_relative_to_the_others() {
    for spec in ["gildervaik", "gildervaik(mode=warrior)"] {
        let g = game(spec, "start");
        for p in 0..3 {
            assert!(g.evaluate(Player(p)).abs() < 1e-6, "{spec}");
        }
    }
    // A is one step from filling zone C, B has not left home, C is on its way.
    let g = game(
        "gildervaik",
        "A:g1,g2,h1,h3,i1,i3,i5,j1,j3,j5 \
         B:g13,h13,h15,i13,i15,i17,j13,j15,j17,j19 \
         C:e1,e2,e3,e4,e5,e6,e7,e8,e9,f1 / A",
    );
    assert!(g.evaluate(Player(0)) > 3.0);
    assert!(g.evaluate(Player(1)) < g.evaluate(Player(2)));
    // Warrior: pawns count, and safe ones a little more.
    let w = game("gildervaik(mode=warrior)", "A:e3,e5,e7 B:f3 C:a1 / A");
    assert!(w.evaluate(Player(0)) > 1.0);
    assert!(w.evaluate(Player(2)) > w.evaluate(Player(1)));
}
