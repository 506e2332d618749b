//! The worked examples of spec §9 (E1–E6), with every variant list.

mod common;

use common::{draw, game, listed, moves, play};
use gildervaik::Cell;
use tabula_core::{Game, Outcome, Player, Turn};

const E1_A: &str = "a1-b2 b1-b2 b1-c2 b3-b2 b3-c4 c1-c2 c1-d2 c3-c2 c3-c4 c3-d4 c5-c4 \
                    c5-d6 d1-d2 d1-e2 d3-d2 d3-d4 d3-e4 d5-d4 d5-d6 d5-e6 d7-d6 d7-e8";

fn rotate_text(text: &str) -> String {
    text.split('-')
        .map(|c| Cell::parse(c).unwrap().rotated().to_string())
        .collect::<Vec<_>>()
        .join("-")
}

#[test]
fn e1_opening_has_22_steps_for_each_player_in_both_modes() {
    for mode in ["conquest", "warrior"] {
        let g = game(&format!("gildervaik(mode={mode})"), "start");
        assert_eq!(listed(&g), E1_A, "{mode}");
        let mut expected: Vec<String> = E1_A.split(' ').map(str::to_string).collect();
        for first in ["b", "c"] {
            expected = expected.iter().map(|m| rotate_text(m)).collect();
            let g = game(
                &format!("gildervaik(mode={mode},first_player={first})"),
                "start",
            );
            let mut got = moves(&g);
            got.sort();
            let mut want = expected.clone();
            want.sort();
            assert_eq!(got, want, "{mode}, {first} first");
        }
    }
}

const E2: &str = "A:e3,e5 B:e6,f5 C:f7,g6 / A";

/// A chain jump is written by its ends; its route names every landing, and
/// is itself a path the notation accepts for the same move. One jump and
/// steps have none (their text says it all).
#[test]
fn e2_chain_jumps_have_routes_through_their_landings() {
    let g = game("gildervaik", E2);
    let route = |text: &str| g.action_route(g.parse_action(text).unwrap()).join("-");
    assert_eq!(route("e5-g7"), "e5-e7-g7");
    assert_eq!(route("e5-g3"), "e5-g9-g3");
    for single in ["e5-e7", "e5-g9", "e5-d5", "e3-e4"] {
        assert_eq!(route(single), "", "{single}");
    }
    let mut chains = 0;
    for m in g.actions_here() {
        let cells = g.action_route(m);
        if cells.is_empty() {
            continue;
        }
        chains += 1;
        assert!(cells.len() > 2);
        assert_eq!(g.parse_action(&cells.join("-")), Ok(m), "{cells:?}");
    }
    assert_eq!(chains, 3, "e5-g3, e5-g5, e5-g7");
    // Warrior capture paths are written in full: no route.
    let w = game("gildervaik(mode=warrior)", "A:e5,h3 B:e6 C:f8,h2 / A");
    assert!(w
        .actions_here()
        .iter()
        .all(|&m| w.action_route(m).is_empty()));
}

#[test]
fn e2_conquest_jumps_default() {
    let g = game("gildervaik", E2);
    assert_eq!(
        listed(&g),
        "e3-e2 e3-e4 e3-f4 e5-d5 e5-e4 e5-e7 e5-f6 e5-g3 e5-g5 e5-g7 e5-g9"
    );
    // A chain may be given by its full path.
    for (path, short) in [
        ("e5-e7-g7", "e5-g7"),
        ("e5-g9-g3", "e5-g3"),
        ("e5-e7-g7-g5", "e5-g5"),
    ] {
        let m = g.parse_action(path).unwrap();
        assert_eq!(g.action_text(m), short);
    }
    // Not a chain of legal segments, or revisiting a cell.
    for bad in ["e5-g7-g5", "e5-e7-e5", "e5-e7-g7-e7", "e3-e4-e5"] {
        assert!(g.parse_action(bad).is_err(), "{bad}");
    }
}

#[test]
fn e2_conquest_jump_variants() {
    let one = "e3-e2 e3-e4 e3-f4 e5-d5 e5-e4 e5-e7 e5-f6 e5-g9";
    assert_eq!(listed(&game("gildervaik(chain_jumps=false)", E2)), one);
    let short = "e3-e2 e3-e4 e3-f4 e5-d5 e5-e4 e5-e7 e5-f6";
    for chain in ["true", "false"] {
        let spec = format!("gildervaik(conquest_long_jumps=false,chain_jumps={chain})");
        assert_eq!(listed(&game(&spec, E2)), short, "{spec}");
    }
    assert_eq!(
        listed(&game("gildervaik(jump_own_pawns=true)", E2)),
        "e3-e2 e3-e4 e3-f4 e5-c3 e5-d5 e5-e1 e5-e4 e5-e7 e5-f6 e5-f9 e5-g3 e5-g5 e5-g7 e5-g9"
    );
    assert_eq!(
        listed(&game(
            "gildervaik(jump_own_pawns=true,chain_jumps=false)",
            E2
        )),
        "e3-e2 e3-e4 e3-f4 e5-d5 e5-e1 e5-e4 e5-e7 e5-f6 e5-g9"
    );
    assert!(game("gildervaik(chain_jumps=false)", E2)
        .parse_action("e5-e7-g7")
        .is_err());
}

#[test]
fn e2_other_players_to_move() {
    let b = E2.replace("/ A", "/ B");
    assert_eq!(
        listed(&game("gildervaik", &b)),
        "e6-d4 e6-d5 e6-e2 e6-e4 e6-e7 e6-f4 e6-f6 e6-f8 e6-g4 e6-g8 \
         f5-d1 f5-e7 f5-f4 f5-f6 f5-f9 f5-g5 f5-g7"
    );
    let c = E2.replace("/ A", "/ C");
    assert_eq!(
        listed(&game("gildervaik", &c)),
        "f7-d3 f7-f3 f7-f6 f7-f8 f7-g8 g6-e2 g6-e4 g6-f4 g6-f6 g6-g5 g6-g7"
    );
}

const E3: &str = "A:e5,h3 B:e6 C:f8,h2 / A";

#[test]
fn e3_warrior_compulsory_and_multiple_capture() {
    let g = game("gildervaik(mode=warrior)", E3);
    assert_eq!(listed(&g), "e5xd5 e5xe7xf7 e5xe7xf9");
    assert!(g.parse_action("e5xe7").is_err());
    assert!(g.parse_action("h3-h1").is_err());
    assert_eq!(
        listed(&game("gildervaik(mode=warrior,majority_capture=true)", E3)),
        "e5xe7xf7 e5xe7xf9"
    );
    assert_eq!(
        listed(&game("gildervaik(mode=warrior,home_capturable=true)", E3)),
        "e5xd5 e5xe7xf7 e5xe7xf9 h3xg1 h3xh1"
    );
}

#[test]
fn e3_capturing_the_last_pawn_eliminates_b() {
    let start = game("gildervaik(mode=warrior)", E3);
    for m in start.actions_here() {
        let mut g = start.clone();
        g.apply(m);
        assert!(g.position().starts_with("A:"), "{}", g.position());
        assert!(!g.position().contains("B:"), "{}", g.position());
        assert!(!g.in_play(Player(1)) && g.in_play(Player(0)) && g.in_play(Player(2)));
        assert_eq!(g.turn(), Turn::Player(Player(2)));
        let c_move = g.actions_here()[0];
        g.apply(c_move);
        assert_eq!(g.turn(), Turn::Player(Player(0)));
    }
}

const E4: &str = "A:h4,i6 B:h3 C:i5 / A";

#[test]
fn e4_warrior_safe_pawns_in_zones() {
    let w = "gildervaik(mode=warrior)";
    assert_eq!(
        listed(&game(w, E4)),
        "h4-g3 h4-h2 h4-h5 h4-i4 i6-h5 i6-i4 i6-i7 i6-j6"
    );
    assert_eq!(
        listed(&game("gildervaik(mode=warrior,untouchable=no_jump)", E4)),
        "h4-g3 h4-h5 i6-h5 i6-i4 i6-i7 i6-j6"
    );
    assert_eq!(
        listed(&game("gildervaik(mode=warrior,home_capturable=true)", E4)),
        "i6xi4 i6xj6"
    );
    assert_eq!(
        listed(&game(w, &E4.replace("/ A", "/ B"))),
        "h3xg3 h3xh5xi7"
    );
    assert_eq!(
        listed(&game(w, &E4.replace("/ A", "/ C"))),
        "i5xh5xg3 i5xi7"
    );
}

const E5: &str = "A:g13,h12,h15,i13,i15,i17,j13,j15,j17,j19 B:a1 C:j1 / A";

#[test]
fn e5_conquest_win() {
    let g = game("gildervaik", E5);
    assert_eq!(
        listed(&g),
        "g13-g12 g13-h14 h12-g11 h12-h11 h12-h13 h15-h14 h15-i16 i13-i12 i13-i14 i13-j14 \
         i15-i14 i15-i16 i15-j16 i17-i16 i17-j18 j13-j12 j13-j14 j15-j14 j15-j16 j17-j16 \
         j17-j18 j19-j18"
    );
    let winners: Vec<String> = g
        .actions_here()
        .into_iter()
        .filter(|&m| {
            let mut child = g.clone();
            child.apply(m);
            child.outcome() == Some(Outcome::Win(Player(0)))
        })
        .map(|m| g.action_text(m))
        .collect();
    assert_eq!(winners, ["h12-h13"]);
}

#[test]
fn e5_nine_in_one_zone_and_one_in_the_other_wins_only_with_either() {
    let pos = "A:g2,g13,h13,h15,i13,i15,i17,j13,j15,j17 B:a1 C:j1 / A";
    let mut same = game("gildervaik", pos);
    play(&mut same, "g2-g1");
    assert_eq!(same.outcome(), None);
    let mut either = game("gildervaik(win_zone=either)", pos);
    play(&mut either, "g2-g1");
    assert_eq!(either.outcome(), Some(Outcome::Win(Player(0))));
}

#[test]
fn e6a_evacuation_eliminates_at_the_60th_turn() {
    let mut g = game(
        "gildervaik",
        "A:e3 B:e7,j19 C:f1 / B ply=178 turns=60,59,59",
    );
    play(&mut g, "e7-e8");
    assert_eq!(g.position(), "A:e3 C:f1 / C ply=179 turns=60,60,59");
    assert!(!g.in_play(Player(1)));
    assert_eq!(g.outcome(), None);
    play(&mut g, "f1-f2");
    assert_eq!(g.turn(), Turn::Player(Player(0)));
    // One turn earlier the same pawn at home is still allowed.
    let mut early = game("gildervaik", "A:e3 B:e7,j19 C:f1 / B turns=59,58,58");
    play(&mut early, "e7-e8");
    assert!(early.position().contains("B:e8,j19"));
    // With `evacuation_turn=none` nobody is eliminated.
    let mut never = game(
        "gildervaik(evacuation_turn=none)",
        "A:e3 B:e7,j19 C:f1 / B ply=178 turns=60,59,59",
    );
    play(&mut never, "e7-e8");
    assert!(never.position().contains("B:e8,j19"));
}

#[test]
fn e6b_a_win_on_the_last_ply_beats_the_cap() {
    let pos = "A:g13,h12,h15,i13,i15,i17,j13,j15,j17,j19 B:a1 C:e5 / A ply=599 turns=200,200,199";
    let mut win = game("gildervaik", pos);
    play(&mut win, "h12-h13");
    assert_eq!(win.outcome(), Some(Outcome::Win(Player(0))));
    let mut cap = game("gildervaik", pos);
    play(&mut cap, "j19-j18");
    assert_eq!(cap.outcome(), Some(draw(&[0, 1, 2])));
    // `cap_result=progress`: A has 9 pawns in zone B, the others fewer.
    let mut progress = game("gildervaik(cap_result=progress)", pos);
    play(&mut progress, "j19-j18");
    assert_eq!(progress.outcome(), Some(Outcome::Win(Player(0))));
}

#[test]
fn e6c_warrior_no_capture_limit_ranks_by_pawns() {
    let pos = "A:a1,b1,b3,c1,c3,c5 B:g13,h13,h15,i13,i15,i17 C:g1,h1,h3 / A nocap=89 caps=1,2,12";
    let mut g = game("gildervaik(mode=warrior)", pos);
    assert_eq!(g.outcome(), None);
    play(&mut g, "a1-b2");
    assert_eq!(g.outcome(), Some(draw(&[0, 1])));
    assert_eq!(g.turn(), Turn::Over);
    let mut by_caps = game("gildervaik(mode=warrior,limit_rank=captures)", pos);
    play(&mut by_caps, "a1-b2");
    assert_eq!(by_caps.outcome(), Some(Outcome::Win(Player(2))));
}

/// How a game ended, in the game's terms (the web says it): a conquest,
/// the last player left, the warrior no-capture limit; nothing while on.
#[test]
fn end_reasons_name_how_the_game_ended() {
    let mut g = game("gildervaik", E5);
    assert_eq!(g.end_reason(), None);
    play(&mut g, "h12-h13");
    assert_eq!(g.end_reason(), Some("conquest"));
    let pos = "A:a1,b1,b3,c1,c3,c5 B:g13,h13,h15,i13,i15,i17 C:g1,h1,h3 / A nocap=89 caps=1,2,12";
    let mut w = game("gildervaik(mode=warrior)", pos);
    play(&mut w, "a1-b2");
    assert_eq!(w.end_reason(), Some("no_capture_limit"));
    // B's last pawn taken, then C's: A is the last player left.
    let mut last = game("gildervaik(mode=warrior)", "A:e5 B:e6 / A");
    let m = last.actions_here()[0];
    last.apply(m);
    assert_eq!(
        (last.outcome(), last.end_reason()),
        (Some(Outcome::Win(Player(0))), Some("last_player"))
    );
}
