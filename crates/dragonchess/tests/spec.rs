//! Spec §8: the start position's 90 moves and every listed test position,
//! with exact destination sets; plus the special rules of §5 and §10.

mod common;

use common::{game, game_with, move_texts, moves_from, plain, sorted};
use dragonchess::{Dragonchess, Options, Status};
use tabula_core::{Game, Outcome, Player, PlayerSet, Turn};

/// Both Kings where the §8 tests put them unless said otherwise.
const KINGS: [(char, &str); 2] = [('K', "2a1"), ('k', "2h8")];

fn with_kings(extra: &[(char, &'static str)]) -> Vec<(char, &'static str)> {
    let mut v = KINGS.to_vec();
    v.extend_from_slice(extra);
    v
}

/// `prefix` followed by each target, e.g. ("S3d5-", ["3c6"]) -> "S3d5-3c6".
fn each(prefix: &str, targets: &[&str]) -> Vec<String> {
    targets.iter().map(|t| format!("{prefix}{t}")).collect()
}

#[test]
fn start_position_has_90_moves_with_the_spec_breakdown() {
    let g = Dragonchess::new_game(&Options::default()).unwrap();
    let mut expected: Vec<String> = [
        // Sylphs 11
        each("S3a2-", &["3b3"]),
        each("S3c2-", &["3b3", "3d3"]),
        each("S3e2-", &["3d3", "3f3"]),
        each("S3g2-", &["3f3", "3h3"]),
        each("S3i2-", &["3h3", "3j3"]),
        each("S3k2-", &["3j3", "3l3"]),
        // Griffins 5
        each("G3c1-", &["3a4", "3e4", "3f3"]),
        each("G3k1-", &["3i4", "3h3"]),
        // Dragon 13
        each(
            "R3g1-",
            &[
                "3f2", "3e3", "3d4", "3c5", "3b6", "3h2", "3i3", "3j4", "3k5", "3l6", "3f1", "3h1",
            ],
        ),
        vec!["R3g1x3a7".to_string()],
        // Unicorns 4, Heroes 8, Cleric 2, Mage 2, Paladin 8
        each("U2b1-", &["2a3", "2c3"]),
        each("U2k1-", &["2j3", "2l3"]),
        each("H2c1-", &["2a3", "2e3", "3b2", "3d2"]),
        each("H2j1-", &["2h3", "2l3", "1i2", "1k2"]),
        each("C2e1-", &["3e1", "1e1"]),
        each("M2f1-", &["3f1", "1f1"]),
        each(
            "P2h1-",
            &["2g3", "2i3", "3f1", "3j1", "3h3", "1f1", "1j1", "1h3"],
        ),
        // Basilisks 2, Elemental 6
        each("B1c1-", &["1c2"]),
        each("B1k1-", &["1k2"]),
        each("E1g1-", &["1f1", "1e1", "1h1", "1i1", "1g2", "1g3"]),
        // Dwarves 17
        each("D1b2-", &["1b3", "1a2", "1c2"]),
        each("D1d2-", &["1d3", "1c2", "1e2"]),
        each("D1f2-", &["1f3", "1e2", "1g2"]),
        each("D1h2-", &["1h3", "1g2", "1i2"]),
        each("D1j2-", &["1j3", "1i2", "1k2"]),
        each("D1l2-", &["1l3", "1k2"]),
    ]
    .concat();
    // Warriors 12
    for f in 'a'..='l' {
        expected.push(format!("W2{f}2-2{f}3"));
    }
    expected.sort();
    assert_eq!(expected.len(), 90);
    assert_eq!(move_texts(&g), expected);
}

#[test]
fn sylph_moves_diagonally_captures_ahead_and_below() {
    let g = game(
        &with_kings(&[('S', "3d5"), ('w', "3d6"), ('w', "2d5")]),
        'g',
    );
    assert_eq!(
        moves_from(&g, "3d5"),
        sorted(&["S3d5-3c6", "S3d5-3e6", "S3d5x3d6", "S3d5x2d5"])
    );
}

#[test]
fn sylph_on_the_ground_returns_home_or_goes_up() {
    let g = game(&with_kings(&[('S', "2j4"), ('C', "3c2")]), 'g');
    assert_eq!(
        moves_from(&g, "2j4"),
        sorted(&["S2j4-3a2", "S2j4-3e2", "S2j4-3g2", "S2j4-3i2", "S2j4-3k2", "S2j4-3j4"])
    );
    // Straight up onto a home square: one move, listed once.
    let g = game(&with_kings(&[('S', "2c2")]), 'g');
    assert_eq!(
        moves_from(&g, "2c2"),
        sorted(&["S2c2-3a2", "S2c2-3c2", "S2c2-3e2", "S2c2-3g2", "S2c2-3i2", "S2c2-3k2"])
    );
}

#[test]
fn griffin_leaps_in_the_sky_and_steps_on_the_ground() {
    let g = game(&with_kings(&[('G', "3d5")]), 'g');
    let t = [
        "3b8", "3f8", "3a7", "3g7", "3a3", "3g3", "3b2", "3f2", "2c6", "2e6", "2c4", "2e4",
    ];
    assert_eq!(moves_from(&g, "3d5"), sorted_each("G3d5-", &t));
    let g = game(&with_kings(&[('G', "2k2")]), 'g');
    let t = ["2j3", "2l3", "2j1", "2l1", "3j3", "3l3", "3j1", "3l1"];
    assert_eq!(moves_from(&g, "2k2"), sorted_each("G2k2-", &t));
}

/// `each` then sorted.
fn sorted_each(prefix: &str, targets: &[&str]) -> Vec<String> {
    let mut v = each(prefix, targets);
    v.sort();
    v
}

#[test]
fn dragon_captures_from_afar_and_stays() {
    let g = game(
        &with_kings(&[
            ('R', "3f5"),
            ('w', "2f6"),
            ('w', "2e5"),
            ('w', "2f5"),
            ('w', "2g5"),
            ('w', "2f4"),
        ]),
        'g',
    );
    let remote: Vec<String> = moves_from(&g, "3f5")
        .into_iter()
        .filter(|t| t.contains("x2"))
        .collect();
    assert_eq!(
        remote,
        sorted(&["R3f5x2e5", "R3f5x2f4", "R3f5x2f5", "R3f5x2f6", "R3f5x2g5"])
    );
    let m = g.parse_action("R3f5x2f4").unwrap();
    assert!(m.is_remote());
    let mut after = g.clone();
    after.apply(m);
    let sq = |s: &str| dragonchess::Square::parse(s).unwrap();
    assert!(after.piece_at(sq("3f5")).is_some());
    assert!(after.piece_at(sq("2f4")).is_none());
    assert_eq!(after.position().split(' ').nth(2), Some("0"));
}

#[test]
fn hero_steps_leaps_and_changes_level_diagonally() {
    let g = game(&with_kings(&[('H', "2c6"), ('C', "2d7")]), 'g');
    let t = [
        "2a8", "2e8", "2b7", "2b5", "2d5", "2a4", "2e4", "3b7", "3d7", "3b5", "3d5", "1b7", "1d7",
        "1b5", "1d5",
    ];
    assert_eq!(moves_from(&g, "2c6"), sorted_each("H2c6-", &t));
    let g = game(&with_kings(&[('H', "1k2"), ('H', "3k7")]), 'g');
    let t = ["2j3", "2l3", "2j1", "2l1"];
    assert_eq!(moves_from(&g, "1k2"), sorted_each("H1k2-", &t));
    let t = ["2j8", "2l8", "2j6", "2l6"];
    assert_eq!(moves_from(&g, "3k7"), sorted_each("H3k7-", &t));
}

#[test]
fn hero_vertical_option_changes_level_straight() {
    let opts = Options {
        hero_vertical: true,
        ..Options::default()
    };
    let g = game_with(opts, &with_kings(&[('H', "2c6"), ('H', "1k2")]), 'g');
    let t = [
        "2a8", "2e8", "2b7", "2d7", "2b5", "2d5", "2a4", "2e4", "3c6", "1c6",
    ];
    assert_eq!(moves_from(&g, "2c6"), sorted_each("H2c6-", &t));
    assert_eq!(moves_from(&g, "1k2"), sorted(&["H1k2-2k2"]));
}

#[test]
fn mage_jumps_two_levels_unless_the_ground_is_occupied() {
    let g = game(&with_kings(&[('M', "3e5")]), 'g');
    let t = ["3e6", "3e4", "3d5", "3f5", "2e5", "1e5"];
    assert_eq!(moves_from(&g, "3e5"), sorted_each("M3e5-", &t));
    let g = game(&with_kings(&[('M', "3e5"), ('o', "2e5")]), 'g');
    assert_eq!(
        moves_from(&g, "3e5"),
        sorted(&["M3e5-3e6", "M3e5-3e4", "M3e5-3d5", "M3e5-3f5", "M3e5x2e5"])
    );
}

#[test]
fn king_off_the_ground_only_returns() {
    let g = game(&[('K', "1d4"), ('k', "2h8")], 'g');
    assert_eq!(move_texts(&g), ["K1d4-2d4"]);
}

#[test]
fn elemental_climbs_only_to_capture_over_an_empty_square() {
    // Gold's King on 2l1: on 2a1 the Thief on 2e5 would give check.
    let pieces = [
        ('K', "2l1"),
        ('k', "2h8"),
        ('E', "1e4"),
        ('C', "1f4"),
        ('t', "2e5"),
        ('t', "2f4"),
    ];
    let g = game(&pieces, 'g');
    let climbs: Vec<String> = moves_from(&g, "1e4")
        .into_iter()
        .filter(|t| t.as_bytes()[5] == b'2')
        .collect();
    assert_eq!(climbs, ["E1e4x2e5"]);
    let t = [
        "1d4", "1e5", "1e3", "1c4", "1e6", "1e2", "1d5", "1f5", "1d3", "1f3",
    ];
    let mut all = each("E1e4-", &t);
    all.push("E1e4x2e5".into());
    all.sort();
    assert_eq!(moves_from(&g, "1e4"), all);
    // The quiet-climb option adds the empty Ground squares.
    let opts = Options {
        elemental_climb_quiet: true,
        ..Options::default()
    };
    let g = game_with(opts, &pieces, 'g');
    let climbs: Vec<String> = moves_from(&g, "1e4")
        .into_iter()
        .filter(|t| t.as_bytes()[5] == b'2')
        .collect();
    assert_eq!(climbs, sorted(&["E1e4-2d4", "E1e4-2e3", "E1e4x2e5"]));
}

#[test]
fn basilisk_freezes_the_piece_above_until_it_leaves() {
    let g = game(&with_kings(&[('O', "2e5"), ('b', "1e5")]), 'g');
    assert!(moves_from(&g, "2e5").is_empty());
    let mut g = game(&with_kings(&[('O', "2e5"), ('b', "1e5")]), 's');
    g.apply(g.parse_action("B1e5-1e4").unwrap());
    assert_eq!(moves_from(&g, "2e5").len(), 11 + 7);
}

#[test]
fn frozen_attacker_gives_no_check() {
    let g = game(&with_kings(&[('o', "2a5"), ('T', "2k4")]), 'g');
    assert!(g.in_check());
    assert!(moves_from(&g, "2k4").is_empty());
    let g = game(
        &with_kings(&[('o', "2a5"), ('T', "2k4"), ('B', "1a5")]),
        'g',
    );
    assert!(!g.in_check());
    assert_eq!(moves_from(&g, "2k4").len(), 9);
}

#[test]
fn pinned_dragon_may_capture_from_afar() {
    let g = game(
        &[
            ('K', "3a1"),
            ('R', "3b2"),
            ('r', "3d4"),
            ('w', "2b3"),
            ('k', "2h8"),
        ],
        'g',
    );
    assert_eq!(
        moves_from(&g, "3b2"),
        sorted(&["R3b2-3c3", "R3b2x2b3", "R3b2x3d4"])
    );
}

#[test]
fn warrior_promotes_on_the_last_rank() {
    let g = game(&with_kings(&[('W', "2c7")]), 'g');
    assert_eq!(moves_from(&g, "2c7"), ["W2c7-2c8=H"]);
    let mut g = game(&with_kings(&[('W', "2c7"), ('u', "2d8")]), 'g');
    assert_eq!(moves_from(&g, "2c7"), sorted(&["W2c7-2c8=H", "W2c7x2d8=H"]));
    assert!(g.parse_action("W2c7x2d8").is_err());
    g.apply(g.parse_action("W2c7x2d8=H").unwrap());
    assert_eq!(
        g.piece_at(dragonchess::Square::parse("2d8").unwrap()),
        Some(dragonchess::Piece::new(
            dragonchess::Side::Gold,
            dragonchess::Kind::Hero
        ))
    );
}

#[test]
fn dwarf_on_the_last_rank_still_steps_sideways_and_down() {
    let g = game(&with_kings(&[('D', "2e8")]), 'g');
    assert_eq!(
        moves_from(&g, "2e8"),
        sorted(&["D2e8-2d8", "D2e8-2f8", "D2e8-1e8"])
    );
}

#[test]
fn checkmate_wins_and_stalemate_draws() {
    // Two Oliphants on the Ground; the Cleric covers the square below the
    // King, the Griffin the square above.
    let g = game(
        &[
            ('k', "2a8"),
            ('O', "2l8"),
            ('O', "2l7"),
            ('K', "2l1"),
            ('C', "1b7"),
            ('G', "3c5"),
        ],
        's',
    );
    assert!(g.in_check());
    assert_eq!(g.status(), Status::Checkmate);
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player(0))));
    assert_eq!(g.end_reason(), Some("checkmate"));
    // Without the Griffin the King escapes to the Sky.
    let g = game(
        &[
            ('k', "2a8"),
            ('O', "2l8"),
            ('O', "2l7"),
            ('K', "2l1"),
            ('C', "1b7"),
        ],
        's',
    );
    assert_eq!(move_texts(&g), ["K2a8-3a8"]);
    // A King in the Underworld under its own blocked Warrior: no move, no check.
    let g = game(
        &[('k', "1a8"), ('w', "2a8"), ('W', "2a7"), ('K', "2l1")],
        's',
    );
    assert!(!g.in_check());
    assert_eq!(g.status(), Status::Stalemate);
    assert_eq!(g.outcome(), Some(Outcome::Draw(PlayerSet::all(2))));
    assert_eq!(g.end_reason(), Some("stalemate"));
}

#[test]
fn frozen_king_and_the_freeze_is_check_option() {
    let pieces = [('K', "2e1"), ('b', "1e1"), ('k', "2h8"), ('W', "2a2")];
    // Default: the frozen King is not in check and cannot move.
    let g = game(&pieces, 'g');
    assert!(!g.in_check());
    assert_eq!(move_texts(&g), ["W2a2-2a3"]);
    // Option: the frozen King is in check, and nothing can take the Basilisk.
    let opts = Options {
        basilisk_freeze_is_check: true,
        ..Options::default()
    };
    let g = game_with(opts, &pieces, 'g');
    assert!(g.in_check());
    assert_eq!(g.status(), Status::Checkmate);
    // Capturing the Basilisk is the only answer.
    let g = game_with(
        opts,
        &[
            ('K', "2e1"),
            ('b', "1e1"),
            ('k', "2h8"),
            ('W', "2a2"),
            ('E', "1f1"),
        ],
        'g',
    );
    assert_eq!(move_texts(&g), ["E1f1x1e1"]);
    // A King may not step over an enemy Basilisk.
    let free = [('K', "2e2"), ('b', "1e1"), ('k', "2h8")];
    assert!(moves_from(&game(&free, 'g'), "2e2").contains(&"K2e2-2e1".to_string()));
    assert!(!moves_from(&game_with(opts, &free, 'g'), "2e2").contains(&"K2e2-2e1".to_string()));
}

#[test]
fn threefold_repetition_and_the_no_capture_rule_draw() {
    let mut g = game(&[('K', "2a1"), ('k', "2h8")], 'g');
    for m in ["K2a1-2b1", "K2h8-2g8", "K2b1-2a1", "K2g8-2h8"].repeat(2) {
        assert_eq!(g.status(), Status::Playing, "before {m}");
        g.apply(g.parse_action(m).unwrap());
    }
    assert_eq!(g.status(), Status::Repetition);
    assert!(g.actions_here().is_empty());
    let opts = Options {
        no_capture_plies: 3,
        ..Options::default()
    };
    let mut g = game_with(opts, &[('K', "2a1"), ('k', "2h8"), ('W', "2e2")], 'g');
    for m in ["K2a1-2b1", "K2h8-2g8", "W2e2-2e3", "K2g8-2f8", "K2b1-2c1"] {
        assert_eq!(g.status(), Status::Playing, "before {m}");
        g.apply(g.parse_action(m).unwrap());
    }
    assert_eq!(g.status(), Status::Playing);
    g.apply(g.parse_action("K2f8-2e8").unwrap());
    assert_eq!(g.status(), Status::NoCapture);
    assert_eq!(g.position().split(' ').nth(2), Some("3"));
}

#[test]
fn notation_marks_check_and_mate_and_rejects_bad_moves() {
    let g = game(&[('K', "2a1"), ('k', "2h8"), ('O', "2b2")], 'g');
    let texts: Vec<String> = g.actions_here().iter().map(|&m| g.action_text(m)).collect();
    assert!(texts.contains(&"O2b2-2b8+".to_string()), "{texts:?}");
    assert!(texts.contains(&"O2b2-2h2+".to_string()));
    assert_eq!(plain("O2b2-2h2+"), "O2b2-2h2");
    assert!(g.parse_action("O2b2-2h2").is_ok());
    assert!(g.parse_action("o2b2-2H2+").is_ok());
    for (text, why) in [
        ("O2b2x2h2", "written with `-`"),
        ("T2b2-2h2", "holds piece `O`"),
        ("O2c2-2h2", "no piece"),
        ("K2h8-2g8", "not Gold's"),
        ("O2b2-2c3", "cannot go"),
        ("O2b2-2h2=H", "only a Warrior"),
    ] {
        let e = g.parse_action(text).unwrap_err();
        assert!(e.message.contains(why), "{text}: {e}");
    }
}

#[test]
fn short_forms_name_the_same_moves_as_the_long_form() {
    // Every legal move of a few plies of play, written `2e22e3`, `2e2-2e3`
    // and in capitals, is the move its long form names.
    let mut g = Dragonchess::new_game(&Options::default()).unwrap();
    for ply in 0..12 {
        let legal = g.actions_here();
        for &m in &legal {
            let long = plain(&g.action_text(m));
            let (from, to) = (&long[1..4], &long[5..8]);
            for short in [
                format!("{from}{to}"),
                format!("{from}-{to}"),
                format!("{from}{to}").to_uppercase(),
            ] {
                assert_eq!(g.parse_action(&short), Ok(m), "{short} for {long}");
            }
        }
        g.apply(legal[(ply * 7) % legal.len()]);
    }
    // A promotion needs no letter; `h` and `=H` are accepted.
    let g = game(&with_kings(&[('W', "2c7"), ('u', "2d8")]), 'g');
    let long = g.parse_action("W2c7x2d8=H").unwrap();
    for short in ["2c72d8", "2c7x2d8", "2c72d8h", "2c72d8=H", "2c7x2d8=h+"] {
        assert_eq!(g.parse_action(short), Ok(long), "{short}");
    }
    // Refusals say why, as for the long form; nonsense is a notation error.
    for (text, why) in [
        ("2c62c7", "no piece"),
        ("2c72c5", "cannot go"),
        ("2h82g8", "not Gold's"),
    ] {
        let e = g.parse_action(text).unwrap_err();
        assert!(e.message.contains(why), "{text}: {e}");
    }
    for text in ["", "2c7", "2c72d", "2c7/2d8", "9z92d8", "2c72d8q", "ééé2d8"] {
        assert!(g.parse_action(text).is_err(), "{text}");
    }
}

/// A refused move names its reason as a code with its values, for clients
/// that say it in their own words; the English line stays for the CLI.
#[test]
fn refusals_give_a_reason_code_and_its_values() {
    let g = Dragonchess::new_game(&Options::default()).unwrap();
    let why = |text: &str| {
        let e = g.parse_action(text).unwrap_err();
        let reason = e.reason.clone().expect("a reason");
        let vars: Vec<String> = reason
            .vars
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        (e.to_string(), reason.code, vars.join(" "))
    };
    assert_eq!(
        why("W2e2-2e5"),
        (
            "illegal action: `W2e2-2e5`: 2e2 cannot go to 2e5 here".to_string(),
            "cannot_reach",
            "action=W2e2-2e5 from=2e2 to=2e5".to_string()
        )
    );
    assert_eq!(why("W2e4-2e5").1, "no_piece");
    assert_eq!(why("W2e7-2e6").2, "action=W2e7-2e6 square=2e7 side=Gold");
    assert_eq!(
        why("O2e2-2e3").2,
        "action=O2e2-2e3 square=2e2 piece=W written=O"
    );
    assert_eq!(why("W2e2x2e3").1, "write_dash");
    assert_eq!(why("zz").1, "unreadable");
}
