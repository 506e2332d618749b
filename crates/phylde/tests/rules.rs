//! End-of-game rules, position-string and notation errors, free placement,
//! evaluation hooks, and the picture.

use phylde::{whole_turns, Kind, Options, Phylde, Setup, Side};
use tabula_core::{Error, ErrorKind, Evaluate, Game, Outcome, Player, PlayerSet, Turn};

fn opts(f: impl FnOnce(&mut Options)) -> Options {
    let mut o = Options::default();
    f(&mut o);
    o
}

fn play(g: &mut Phylde, stream: &str) {
    for t in stream.split_whitespace() {
        let a = g.parse_action(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        g.apply(a);
    }
}

fn draw() -> Option<Outcome> {
    Some(Outcome::Draw(PlayerSet::all(2)))
}

/// Written positions read back identically, outcome included.
fn round_trips(g: &Phylde) {
    let back = Phylde::from_position(g.options(), &g.position()).unwrap();
    assert_eq!(back.position(), g.position());
    assert_eq!(back.outcome(), g.outcome());
    assert_eq!(back.hash(), g.hash());
}

/// Kings plus four soldiers a side (no material draw), far apart.
const QUIET: &str = "18/8r9/18/18/ssss14/18/18/18/18/18/18/18/18/18/14SSSS/18/18/8R9 S";

#[test]
fn threefold_repetition_draws() {
    let mut g = Phylde::from_position(&Options::default(), QUIET).unwrap();
    let cycle = "i1+-h1+ i17+-h17+ h1+-i1+ h17+-i17+";
    play(&mut g, cycle);
    assert_eq!(g.outcome(), None, "second occurrence");
    play(&mut g, "i1+-h1+ i17+-h17+ h1+-i1+");
    assert_eq!(g.outcome(), None);
    play(&mut g, "h17+-i17+");
    assert_eq!(g.outcome(), draw(), "third occurrence");
    assert!(g.position().ends_with(" - 8 8 draw"), "{}", g.position());
    round_trips(&g);

    let mut twice = Phylde::from_position(&opts(|o| o.repetition = 2), QUIET).unwrap();
    play(&mut twice, cycle);
    assert_eq!(twice.outcome(), draw());
}

#[test]
fn repetitions_count_from_the_last_capture() {
    let fen = "18/8r9/18/18/ssss14/18/18/18/18/18/18/18/18/13s4/14SSSS/18/18/8R9 S";
    let mut g = Phylde::from_position(&opts(|o| o.repetition = 2), fen).unwrap();
    play(&mut g, "o4xn5 end");
    assert_eq!(g.counters(), (0, 1));
    play(&mut g, "i17+-h17+ i1+-h1+ h17+-i17+");
    assert_eq!(g.outcome(), None);
    play(&mut g, "h1+-i1+");
    assert_eq!(
        g.outcome(),
        draw(),
        "the position right after the capture, again"
    );
}

#[test]
fn turns_without_capture_draw() {
    let mut g = Phylde::from_position(&opts(|o| o.no_capture_turns = 4), QUIET).unwrap();
    play(&mut g, "o4-o5 end a14-a13");
    // Mid-turn the count includes the turn in progress.
    assert_eq!(g.counters(), (2, 1));
    play(&mut g, "end i1+-h1+");
    assert_eq!(g.counters(), (3, 3));
    play(&mut g, "i17+-h17+");
    assert_eq!(g.counters(), (4, 4));
    assert_eq!(g.outcome(), draw());
    round_trips(&g);
}

#[test]
fn material_draw_and_immobility() {
    // South: a lone King in the corner; North to move walls it in.
    let fen = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/s17/18/2s15/R17 N";
    let mut off = Phylde::from_position(&opts(|o| o.material_draw = false), fen).unwrap();
    play(&mut off, "a4-a3 end");
    assert_eq!(off.turn(), Turn::Over);
    assert_eq!(
        off.outcome(),
        Some(Outcome::Win(Player(1))),
        "South cannot move"
    );
    round_trips(&off);
    // With the material draw, the draw rules come before immobility.
    let mut on = Phylde::from_position(&Options::default(), fen).unwrap();
    play(&mut on, "a4-a3 end");
    assert_eq!(on.outcome(), draw());
    // A position read with the side to move immobile is lost at once.
    let stuck = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/s17/s17/2s15/R17 S";
    let g = Phylde::from_position(&Options::default(), stuck).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Player(1))));
}

#[test]
fn a_surrounded_king_in_a_read_position_is_lost() {
    // E7 after l8-l9: the North King, not to move, is surrounded.
    let won = "18/18/18/18/18/9A8/18/13C4/9r8/8S2S6/18/18/18/18/18/18/2R15/18 S S1:l9 1 0";
    let g = Phylde::from_position(&Options::default(), won).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Player(0))));
    round_trips(&g);
    // At a boundary with North to move, North's own King surrounded is not
    // a result: North may still break the surround.
    let open = "18/18/18/18/18/9A8/18/13C4/9r8/8S2S6/18/18/18/18/18/18/2R15/18 N";
    let g = Phylde::from_position(&Options::default(), open).unwrap();
    assert_eq!(g.outcome(), None);
}

fn position_error(options: &Options, fen: &str) -> Error {
    match Phylde::from_position(options, fen) {
        Ok(g) => panic!("accepted `{fen}` as {}", g.position()),
        Err(e) => e,
    }
}

#[test]
fn bad_position_strings_are_rejected_with_a_reason() {
    let o = Options::default();
    let e1 = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/8s9/7S10/18/8R9";
    let e1s = format!("{e1} S");
    let cases = [
        ("", "expected"),
        (e1, "expected"),
        ("18/8r9 S", "18 ranks"),
        (&format!("{e1} W"), "not S or N"),
        (&e1s.replace("8s9", "8s8"), "18 squares wide"),
        (&e1s.replace("8s9", "8s10"), "18 squares wide"),
        (&e1s.replace("8s9", "8x9"), "unknown piece"),
        (&e1s.replace("8s9", "8s09"), "bad run"),
        (&e1s.replace("8s9", "8r9"), "two Kings"),
        (&e1s.replace("8R9", "18"), "no King"),
        (&e1s.replace("8R9", "17R"), "interior point"),
        (&e1s.replace("18/8r9/", "8r9/18/"), "interior point"),
        (&e1s.replace("/18/8R9", "/9S8/8R9"), "must be empty"),
        (
            &e1s.replace(
                "8r9/18/18/18/18/18/18/18/18/18/18/18/18/8s9/7S10/18/8R9",
                "18/18/18/18/18/18/18/18/18/18/18/18/18/8s9/7S10/9r8/8R9",
            ),
            "overlap",
        ),
        (&format!("{e1} S S2:h3"), "lists 1"),
        (&format!("{e1} S S1:i4"), "does not hold"),
        (&format!("{e1} S A1:h3"), "does not hold"),
        (&format!("{e1} S C2:h3"), "1 to 1"),
        (&format!("{e1} S S6:h3"), "1 to 5"),
        (&format!("{e1} S X1:h3"), "bad turn state"),
        (&format!("{e1} S S1:h3 1"), "expected"),
        (&format!("{e1} S - x 1"), "no-capture"),
        (&format!("{e1} S S1:h3 1 1 draw"), "turn boundary"),
        (&format!("{e1} S - 1 1 drawn"), "only `draw`"),
    ];
    for (fen, want) in cases {
        let e = position_error(&o, fen);
        assert_eq!(e.kind, ErrorKind::Position);
        assert!(e.message.contains(want), "`{fen}`: {e} (wanted `{want}`)");
    }
    let crowded = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/SSSSSSSSSSSSSSSSSS/SSS15/18/8R9 S";
    assert!(position_error(&o, crowded).message.contains("at most 20"));
    // A complete turn of a cavalier cannot be in progress unless it won.
    let e4 = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/4a13/18/18/1S2C13/8R9";
    let e = position_error(&o, &format!("{e4} S C1:e2"));
    assert!(e.message.contains("ends after 1"), "{e}");
}

#[test]
fn free_placement_needs_a_position() {
    let free = opts(|o| o.setup = Setup::Free);
    let e = Phylde::new_game(&free).unwrap_err();
    assert!(e.message.contains("FEN"), "{e}");
    let block = "18/8r9/6cccccc6/4aaaaaaaaaa4/6ssssss6/6ssssss6/5ssssssss5/18/18/18/18/5SSSSSSSS5/6SSSSSS6/6SSSSSS6/4AAAAAAAAAA4/6CCCCCC6/18/8R9";
    let g = Phylde::from_position(&free, &format!("{block} S")).unwrap();
    assert_eq!(g.actions_here().len(), 124);
    // A South soldier on rank 10 is outside South's half.
    let over = block.replacen("/18/18/18/18/5SSSSSSSS5", "/18/1S16/18/18/6SSSSSSS5", 1);
    let e = position_error(&free, &format!("{over} S"));
    assert!(e.message.contains("outside its half"), "{e}");
    // Missing pieces: not a full placement...
    let short = block.replace("5SSSSSSSS5", "6SSSSSSS5");
    let e = position_error(&free, &format!("{short} S"));
    assert!(e.message.contains("must place 20"), "{e}");
    // ...but fine as a later position, which has counters.
    assert!(Phylde::from_position(&free, &format!("{short} S - 3 12")).is_ok());
    // A King's quad must lie in its half too.
    let high_king =
        block
            .replace("/18/8R9", "/18/18")
            .replacen("/18/18/18/18/5S", "/18/18/8R9/18/5S", 1);
    let e = position_error(&free, &format!("{high_king} S"));
    assert!(e.message.contains("quad"), "{e}");
}

#[test]
fn presets_round_trip_and_start_as_asked() {
    for setup in [
        Setup::Lines,
        Setup::Block,
        Setup::Corners,
        Setup::CornersSym,
        Setup::LinesDrawn,
        Setup::BlockDrawn,
        Setup::CornersDrawn,
    ] {
        for side in [Side::South, Side::North] {
            let g = Phylde::new_game(&opts(|o| {
                o.setup = setup;
                o.first_player = side;
            }))
            .unwrap();
            assert_eq!(g.side_to_move(), side);
            assert!(g.position().ends_with(&format!(" {}", side.letter())));
            round_trips(&g);
        }
    }
    // The literal diagrams keep their reduced material (spec §3).
    let material = |setup| {
        let g = Phylde::new_game(&opts(|o| o.setup = setup)).unwrap();
        (g.material(Side::South), g.material(Side::North))
    };
    assert_eq!(material(Setup::Lines), (36, 36));
    assert_eq!(material(Setup::LinesDrawn), (35, 35));
    assert_eq!(material(Setup::BlockDrawn), (30, 30));
    assert_eq!(material(Setup::CornersSym), (30, 30));
    assert_eq!(material(Setup::CornersDrawn), (30, 28));
}

#[test]
fn action_text_errors() {
    let g = Phylde::new_game(&Options::default()).unwrap();
    let kind = |t: &str| g.parse_action(t).unwrap_err().kind;
    for bad in [
        "", "e6", "e6e7", "e6-", "e6-s7", "i1+-i2", "i1+xi2+", "e6-e7+", "z1-z2",
    ] {
        assert_eq!(kind(bad), ErrorKind::Notation, "`{bad}`");
    }
    for illegal in ["end", "e6-e8", "e6*e7", "i1+-i3+", "e15-e14"] {
        assert_eq!(kind(illegal), ErrorKind::Illegal, "`{illegal}`");
    }
    assert!(
        g.parse_action(" E6-E7 ").is_ok(),
        "case and spaces are ignored"
    );
    let e3 = "18/8r9/18/18/18/18/18/18/18/18/18/4s13/5s12/1s1SA13/18/2c15/18/8R9 S";
    let g = Phylde::from_position(&Options::default(), e3).unwrap();
    let e = g.parse_action("e5-e7").unwrap_err();
    assert!(e.message.contains("write `e5xe7`"), "{e}");
    assert!(g.parse_action("e5xe6").is_err(), "nothing to capture on e6");
}

#[test]
fn whole_turns_stop_at_the_limit() {
    let g = Phylde::new_game(&Options::default()).unwrap();
    let list = whole_turns(&g, Some(Kind::Soldier), 500);
    assert!(!list.complete);
    assert_eq!(list.turns.len(), 500);
    assert!(list.turns.iter().all(|t| !t.actions.is_empty()));
    // From mid-turn, only the rest of the turn.
    let mut mid = g.clone();
    mid.apply(mid.parse_action("e4-d3").unwrap());
    let rest = whole_turns(&mid, None, usize::MAX);
    assert!(rest.complete);
    // `end` now, or one more archer action (46 distinct results).
    assert_eq!(rest.turns.len(), 47);
}

#[test]
fn evaluation_is_zero_sum_and_flags_tactics() {
    let e7 = "18/18/18/18/18/9A8/18/13C4/9r8/8S9/11S6/18/18/18/18/18/2R15/18 S";
    let g = Phylde::from_position(&Options::default(), e7).unwrap();
    let (s, n) = (g.evaluate(Player(0)), g.evaluate(Player(1)));
    assert_eq!(s, -n);
    assert!(s > 0.0, "South has more and presses the King: {s}");
    let tactical = |t: &str| g.is_tactical(g.parse_action(t).unwrap());
    assert!(tactical("l8-l9"), "adds a fourth attacker");
    assert!(!tactical("l8-m7"));
    assert!(tactical("j13-j12"), "still attacks j11 from j12");
    let e3 = "18/8r9/18/18/18/18/18/18/18/18/18/4s13/5s12/1s1SA13/18/2c15/18/8R9 S";
    let g = Phylde::from_position(&Options::default(), e3).unwrap();
    assert!(g.is_tactical(g.parse_action("e5*e7").unwrap()));
    assert!(g.is_tactical(g.parse_action("e5xf6").unwrap()));
    assert!(!g.is_tactical(g.parse_action("e5-f5").unwrap()));
}

#[test]
fn the_picture_shows_the_kings_on_their_points() {
    let g = Phylde::new_game(&Options::default()).unwrap();
    let pic = g.render();
    let lines: Vec<&str> = pic.lines().collect();
    let rank = |n: usize| {
        lines
            .iter()
            .position(|l| l.starts_with(&format!("{n:>3}  ")))
            .unwrap()
    };
    // The South King sits between ranks 2 and 1, under the gap of i|j.
    let below_2 = lines[rank(2) + 1];
    assert_eq!(rank(1), rank(2) + 2);
    assert_eq!(below_2.trim(), "R");
    assert_eq!(below_2.find('R'), lines[0].find('i').map(|i| i + 1));
    assert!(lines[rank(1)].contains("# #"));
    assert!(pic.contains("Kings: South i1+, North i17+"));
}
