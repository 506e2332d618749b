//! A tiny test-only game that exercises every part of the `Game` contract
//! (chance nodes, turns of several actions, two or three players, shared
//! draws), used to prove the core tools. Not shipped as a game.
//!
//! Rules: on a turn the player rolls a die showing 1, 2 or 3 (probabilities
//! 1/2, 1/3, 1/6), then makes one or two `step`s (each adds the roll to his
//! score) or `stop`s after one. Reaching `TARGET` wins at once. After
//! `MAX_TURNS` turns the leaders share a draw.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::conformance::{check_games, check_state, Config};
use tabula_core::options::{OptionDef, OptionKind, OptionValues};
use tabula_core::{
    perft, ActionFacts, EndReason, Ending, Error, Game, GameEntry, GameType, Outcome, Played,
    Player, PlayerSet, Record, Registry, Turn,
};

const TARGET: u8 = 10;
const MAX_TURNS: u16 = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Act {
    Roll(u8),
    Step,
    Stop,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Opts {
    players: u8,
    /// Test hook: a broken position writer, to prove the harness can fail.
    broken_text: bool,
    /// Test hook: chance probabilities that do not sum to 1.
    bad_chance: bool,
    /// Test hook: a false declaration (`chance`, `turns` or `mate`).
    lie: &'static str,
}

#[derive(Clone, Debug)]
struct Toy {
    opts: Opts,
    scores: [u8; 3],
    to_move: u8,
    roll: Option<u8>,
    steps: u8,
    turns: u16,
}

const DEFS: &[OptionDef] = &[
    OptionDef {
        key: "players",
        kind: OptionKind::Int { min: 2, max: 3 },
        default: "2",
        help: "seats",
    },
    OptionDef {
        key: "broken_text",
        kind: OptionKind::Bool,
        default: "false",
        help: "test hook",
    },
    OptionDef {
        key: "bad_chance",
        kind: OptionKind::Bool,
        default: "false",
        help: "test hook",
    },
    OptionDef {
        key: "lie",
        kind: OptionKind::Choice(LIES),
        default: "none",
        help: "test hook",
    },
];

const LIES: &[&str] = &["none", "chance", "turns", "mate"];

impl Toy {
    fn n(&self) -> usize {
        self.opts.players as usize
    }
    fn end_turn(&mut self) {
        self.roll = None;
        self.steps = 0;
        self.turns += 1;
        self.to_move = (self.to_move + 1) % self.opts.players;
    }
}

impl Game for Toy {
    type Action = Act;
    type Options = Opts;
    const NAME: &'static str = "toy";

    fn option_defs() -> &'static [OptionDef] {
        DEFS
    }
    fn options_from(v: &OptionValues) -> Result<Opts, Error> {
        Ok(Opts {
            players: v.int("players").unwrap_or(2) as u8,
            broken_text: v.bool("broken_text"),
            bad_chance: v.bool("bad_chance"),
            lie: LIES
                .iter()
                .find(|&&l| l == v.get("lie"))
                .copied()
                .unwrap_or("none"),
        })
    }
    fn new_game(o: &Opts) -> Result<Self, Error> {
        Ok(Toy {
            opts: o.clone(),
            scores: [0; 3],
            to_move: 0,
            roll: None,
            steps: 0,
            turns: 0,
        })
    }
    fn from_position(o: &Opts, text: &str) -> Result<Self, Error> {
        let bad = |m: &str| Error::position(format!("`{text}`: {m}"));
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 4 {
            return Err(bad("expected 4 fields"));
        }
        let scores: Vec<u8> = f[0]
            .split(',')
            .map(|s| s.parse().map_err(|_| bad("bad score")))
            .collect::<Result<_, _>>()?;
        if scores.len() != o.players as usize || scores.iter().any(|&s| s > TARGET + 6) {
            return Err(bad("wrong number of scores"));
        }
        let mut g = Toy::new_game(o)?;
        g.scores[..scores.len()].copy_from_slice(&scores);
        g.to_move = f[1]
            .parse::<u8>()
            .ok()
            .filter(|p| (1..=o.players).contains(p))
            .ok_or_else(|| bad("bad player"))?
            - 1;
        if f[2] != "-" {
            let (r, s) = f[2].split_once(':').ok_or_else(|| bad("bad phase"))?;
            g.roll = Some(
                r.parse()
                    .ok()
                    .filter(|r| (1..=3).contains(r))
                    .ok_or_else(|| bad("bad roll"))?,
            );
            g.steps = s
                .parse()
                .ok()
                .filter(|s| *s <= 1)
                .ok_or_else(|| bad("bad steps"))?;
        }
        g.turns = f[3]
            .parse()
            .ok()
            .filter(|t| *t <= MAX_TURNS)
            .ok_or_else(|| bad("bad turn count"))?;
        Ok(g)
    }
    fn position(&self) -> String {
        let scores: Vec<String> = self.scores[..self.n()].iter().map(u8::to_string).collect();
        let phase = match self.roll {
            None => "-".to_string(),
            Some(r) if self.opts.broken_text => format!("{r}:0"),
            Some(r) => format!("{r}:{}", self.steps),
        };
        format!(
            "{} {} {phase} {}",
            scores.join(","),
            self.to_move + 1,
            self.turns
        )
    }
    fn options(&self) -> &Opts {
        &self.opts
    }
    fn game_type(&self) -> GameType {
        GameType {
            players: self.n(),
            chance: self.opts.lie != "chance",
            multi_action_turns: self.opts.lie != "turns",
        }
    }
    fn num_players(&self) -> usize {
        self.n()
    }
    fn player_name(&self, p: Player) -> &'static str {
        ["One", "Two", "Three"][p.index()]
    }
    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else if self.roll.is_none() {
            Turn::Chance
        } else {
            Turn::Player(Player(self.to_move))
        }
    }
    fn legal_actions(&self, out: &mut Vec<Act>) {
        out.clear();
        if matches!(self.turn(), Turn::Player(_)) {
            out.push(Act::Step);
            if self.steps == 1 {
                out.push(Act::Stop);
            }
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(Act, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let third = if self.opts.bad_chance { 0.2 } else { 1.0 / 6.0 };
            out.extend([
                (Act::Roll(1), 0.5),
                (Act::Roll(2), 1.0 / 3.0),
                (Act::Roll(3), third),
            ]);
        }
    }
    fn apply(&mut self, a: Act) {
        match a {
            Act::Roll(r) => self.roll = Some(r),
            Act::Stop => self.end_turn(),
            Act::Step => {
                let p = self.to_move as usize;
                self.scores[p] += self.roll.unwrap_or(0);
                self.steps += 1;
                if self.steps == 2 || self.scores[p] >= TARGET {
                    self.end_turn();
                }
            }
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        let s = &self.scores[..self.n()];
        if let Some(w) = s.iter().position(|&x| x >= TARGET) {
            return Some(Outcome::Win(Player(w as u8)));
        }
        if self.turns >= MAX_TURNS {
            let best = *s.iter().max()?;
            let set: PlayerSet = (0..s.len())
                .filter(|&i| s[i] == best)
                .map(|i| Player(i as u8))
                .collect();
            return Some(if set.len() == 1 {
                Outcome::Win(set.iter().next()?)
            } else {
                Outcome::Draw(set)
            });
        }
        None
    }
    fn action_text(&self, a: Act) -> String {
        match a {
            Act::Roll(r) => format!("roll{r}"),
            Act::Step => "step".into(),
            Act::Stop => "stop".into(),
        }
    }
    /// A step that reaches the target wins: the toy's "mate".
    fn action_facts(&self, a: Act) -> ActionFacts {
        let score = self.scores[self.to_move as usize] + self.roll.unwrap_or(0);
        ActionFacts {
            mate: match a {
                Act::Step => score >= TARGET,
                Act::Stop => self.opts.lie == "mate",
                Act::Roll(_) => false,
            },
            ..ActionFacts::default()
        }
    }
    fn action_key(&self, a: Act) -> usize {
        match a {
            Act::Roll(r) => r as usize,
            Act::Step => 4,
            Act::Stop => 5,
        }
    }
    fn action_key_space(&self) -> usize {
        6
    }
    fn hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.scores, self.to_move, self.roll, self.steps, self.turns).hash(&mut h);
        h.finish()
    }
    fn max_game_actions(&self) -> u64 {
        3 * MAX_TURNS as u64
    }
    fn render(&self) -> String {
        self.position()
    }
}

fn toy(players: u8) -> Toy {
    Toy::new_game(&Opts {
        players,
        ..Opts::default()
    })
    .unwrap()
}

fn registry() -> Registry {
    Registry::new(vec![GameEntry::of::<Toy>("Toy", "A test game.")])
}

#[test]
fn harness_passes_on_a_correct_game() {
    let plies = check_games(
        &[toy(2), toy(3)],
        &Config {
            games: 50,
            ..Config::default()
        },
    );
    assert!(plies > 500, "the harness played too little: {plies}");
}

#[test]
#[should_panic(expected = "incremental hash differs")]
fn harness_catches_a_broken_position_string() {
    let g = Toy::new_game(&Opts {
        players: 2,
        broken_text: true,
        ..Opts::default()
    })
    .unwrap();
    check_games(&[g], &Config::default());
}

#[test]
#[should_panic(expected = "chance probabilities sum to")]
fn harness_catches_a_bad_probability_sum() {
    let g = Toy::new_game(&Opts {
        players: 2,
        bad_chance: true,
        ..Opts::default()
    })
    .unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
    check_state(&g, &mut rng, &|| "start".into());
}

#[test]
fn perft_counts_chance_and_multi_action_turns() {
    let g = toy(2);
    // depth 1: 3 rolls; depth 2: each roll then `step`; depth 3: after one
    // step the player may step or stop (2 each).
    assert_eq!(perft(&g, 0), 1);
    assert_eq!(perft(&g, 1), 3);
    assert_eq!(perft(&g, 2), 3);
    assert_eq!(perft(&g, 3), 6);
    // depth 4: after stop -> 3 rolls; after second step -> 3 rolls.
    assert_eq!(perft(&g, 4), 18);
    let div = tabula_core::divide(&g, 4, |_, _| {});
    assert_eq!(div.iter().map(|d| d.1).sum::<u64>(), 18);
    assert_eq!(div[0].0, "roll1");
}

#[test]
fn parallel_divide_gives_the_serial_rows_and_progress() {
    let g = toy(2);
    for depth in 0..=5 {
        let serial = tabula_core::divide(&g, depth, |_, _| {});
        for threads in [1, 2, 3, 8] {
            let mut calls = Vec::new();
            let rows = tabula_core::divide_parallel(&g, depth, threads, |d, t| calls.push((d, t)));
            assert_eq!(rows, serial, "depth {depth}, {threads} threads");
            // One call per first action, counting up, as the serial divide.
            let want: Vec<_> = (1..=serial.len()).map(|d| (d, serial.len())).collect();
            assert_eq!(calls, want, "depth {depth}, {threads} threads");
            assert_eq!(
                tabula_core::perft_parallel(&g, depth, threads),
                perft(&g, depth)
            );
        }
    }
}

#[test]
fn perft_does_not_count_sequences_ending_early() {
    // One step from the target: roll then step wins, so depth 3 counts
    // nothing after a winning step.
    let g = Toy::from_position(
        &Opts {
            players: 2,
            ..Opts::default()
        },
        "9,0 1 - 0",
    )
    .unwrap();
    assert_eq!(perft(&g, 2), 3);
    assert_eq!(perft(&g, 3), 0);
}

#[test]
fn perft_counts_a_last_step_that_ends_the_game_on_both_paths() {
    // One step from the target: every roll then `step` wins, so the winning
    // step is the last step of each sequence of length 2.
    let two = Opts {
        players: 2,
        ..Opts::default()
    };
    let g = Toy::from_position(&two, "9,0 1 - 0").unwrap();
    let mut rolled = g.clone();
    rolled.apply(Act::Roll(1));
    let mut won = rolled.clone();
    won.apply(Act::Step);
    assert_eq!(won.turn(), Turn::Over);
    // Depth 0 is 1, also for a finished position; nothing is longer.
    assert_eq!(perft(&won, 0), 1);
    assert_eq!(perft(&won, 1), 0);
    for (game, depth, total) in [(&rolled, 1, 1), (&g, 2, 3), (&won, 1, 0)] {
        assert_eq!(perft(game, depth), total);
        let div = tabula_core::divide(game, depth, |_, _| {});
        assert_eq!(
            div.iter().map(|d| d.1).sum::<u64>(),
            total,
            "divide {depth}"
        );
    }
    // The winning step is listed with its one sequence.
    assert_eq!(
        tabula_core::divide(&rolled, 1, |_, _| {}),
        vec![("step".to_string(), 1)]
    );
}

#[test]
fn registry_validates_specs_and_positions() {
    let reg = registry();
    let g = reg.create("toy(players=3)", None).unwrap();
    assert_eq!(g.num_players(), 3);
    assert_eq!(g.spec(), "toy(players=3)");
    assert_eq!(reg.create("TOY", None).unwrap().spec(), "toy");
    let e = reg.create("toy(colour=red)", None).err().unwrap();
    assert!(
        e.message.contains("players, broken_text, bad_chance"),
        "{e}"
    );
    assert!(reg
        .create("chess", None)
        .err()
        .unwrap()
        .message
        .contains("valid: toy"));
    assert!(reg.create("toy", Some("1,2 9 - 0")).is_err());
}

#[test]
fn erased_apply_rejects_bad_text_and_changes_nothing() {
    let mut g = registry().create("toy", None).unwrap();
    assert_eq!(g.legal_actions(), vec!["roll1", "roll2", "roll3"]);
    let before = g.position();
    for bad in ["", "step", "roll4", "roll 1"] {
        assert!(g.apply_text(bad).is_err(), "{bad}");
        assert_eq!(g.position(), before);
    }
    assert_eq!(g.apply_text(" ROLL2 ").unwrap(), "roll2");
    assert_eq!(g.position(), "0,0 1 2:0 0");
}

#[test]
fn records_round_trip_and_report_the_first_bad_line() {
    let reg = registry();
    let mut game = reg.create("toy", None).unwrap();
    let mut rec = Record::new(game.spec(), None);
    rec.set_meta("seed", "7");
    for text in [
        "roll3", "step", "step", "roll3", "step", "stop", "roll2", "step", "step",
    ] {
        let actor = match game.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        let t = game.apply_text(text).unwrap();
        rec.push(actor, t);
    }
    rec.result = game.outcome();
    assert_eq!(rec.result, Some(Outcome::Win(Player(0))));
    let text = rec.to_text();
    let back = Record::parse(&text).unwrap();
    assert_eq!(back.to_text(), text);
    let end = back.replay(&reg).unwrap();
    assert_eq!(end.position(), game.position());

    let broken = text.replace("* roll2", "* roll7");
    let e = Record::parse(&broken).unwrap().replay(&reg).err().unwrap();
    let line = text.lines().position(|l| l == "* roll2").unwrap() + 1;
    assert!(e.message.starts_with(&format!("line {line}:")), "{e}");

    // Comments (an analysis's verdicts) are written after their action and
    // read as nothing: the record replays the same, and reads back equal
    // to the record without them.
    let mut noted = rec.clone();
    noted.actions[1].comment = Some("blunder: best stop\nloss 0.3".into());
    let noted_text = noted.to_text();
    assert!(
        noted_text.contains("1 step\n# blunder: best stop loss 0.3\n1 step"),
        "{noted_text}"
    );
    let read = Record::parse(&noted_text).unwrap();
    assert_eq!(read.to_text(), text);
    assert_eq!(read.replay(&reg).unwrap().position(), game.position());

    let wrong_seat = text.replacen("1 step", "2 step", 1);
    assert!(Record::parse(&wrong_seat).unwrap().replay(&reg).is_err());
    let wrong_result = text.replace("result: win 1", "result: win 2");
    assert!(Record::parse(&wrong_result).unwrap().replay(&reg).is_err());
    assert!(Record::parse("hello").is_err());
    assert!(Record::parse("[Tabula record]\nno colon here\n").is_err());
    assert!(Record::parse("[Tabula record]\ngame: toy\n\nx step\n").is_err());
}

/// A record's declared result is accepted only when the replay agrees:
/// the board's outcome, or a resignation or agreement while the game goes on.
#[test]
fn declared_results_must_agree_with_the_replay() {
    let reg = registry();
    let check = |text: &str| Record::parse(text).and_then(|r| r.replay_checked(&reg, |_, _| {}));
    let ending = |text: &str| check(text).map(|r| r.ending);
    let refused = |text: &str, why: &str| {
        let e = check(text)
            .err()
            .unwrap_or_else(|| panic!("accepted:\n{text}"));
        assert!(e.message.contains(why), "{e}");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    };
    let head = "[Tabula record]\ngame: toy\n";
    // Nothing played: no result can be claimed without a reason.
    assert_eq!(ending(&format!("{head}\n")), Ok(None));
    refused(&format!("{head}result: win 1\n\n"), "not over");
    refused(&format!("{head}result: draw 1,2\n\n"), "not over");
    // A finished game: the board's result, with or without the header.
    let moves = "\n* roll3\n1 step\n1 step\n* roll3\n2 step\n2 stop\n* roll2\n1 step\n1 step\n";
    let won = Ending {
        outcome: Outcome::Win(Player(0)),
        reason: EndReason::Board,
    };
    assert_eq!(ending(&format!("{head}{moves}")), Ok(Some(won)));
    assert_eq!(
        ending(&format!("{head}result: win 1\n{moves}")),
        Ok(Some(won))
    );
    refused(&format!("{head}result: win 2\n{moves}"), "ended `win 1`");
    refused(&format!("{head}result: draw 1,2\n{moves}"), "ended `win 1`");
    // Off the board, as Tabula writes it: a resignation in a two-player
    // game (either seat may resign), an agreed draw of every seat.
    for (headers, outcome, reason) in [
        (
            "result: win 2\nend: resign\n",
            Outcome::Win(Player(1)),
            EndReason::Resign,
        ),
        (
            "result: win 1\nend: resign\n",
            Outcome::Win(Player(0)),
            EndReason::Resign,
        ),
        (
            "result: draw 1,2\nend: agreement\n",
            Outcome::Draw(PlayerSet::all(2)),
            EndReason::Agreement,
        ),
        (
            "result: win 2\nend: left\n",
            Outcome::Win(Player(1)),
            EndReason::Left,
        ),
        (
            "result: win 1\nend: time\n",
            Outcome::Win(Player(0)),
            EndReason::Time,
        ),
    ] {
        for body in ["\n", "\n* roll1\n1 step\n"] {
            let text = format!("{head}{headers}{body}");
            assert_eq!(
                ending(&text),
                Ok(Some(Ending { outcome, reason })),
                "{text}"
            );
        }
    }
    refused(
        &format!("{head}result: draw 1,2\nend: resign\n\n"),
        "`end: resign` is a win",
    );
    refused(
        &format!("{head}result: win 3\nend: resign\n\n"),
        "`end: resign` is a win",
    );
    refused(
        &format!("{head}result: win 1\nend: agreement\n\n"),
        "is a draw of every seat",
    );
    refused(
        &format!("{head}result: draw 1\nend: agreement\n\n"),
        "is a draw of every seat",
    );
    refused(&format!("{head}end: resign\n\n"), "needs a `result:`");
    refused(&format!("{head}result: win 1\nend: board\n\n"), "bad end");
    refused(
        &format!("{head}result: draw 1,2\nend: time\n\n"),
        "`end: time` is a win",
    );
    // A claimed draw of an abandoned game, and an aborted game, are draws
    // of every seat.
    for end in ["abandoned", "aborted"] {
        let text = format!("{head}result: draw 1,2\nend: {end}\n\n");
        let reason = ending(&text).ok().flatten().map(|e| e.reason.as_str());
        assert_eq!(reason, Some(end), "{text}");
    }
    refused(
        &format!("{head}result: win 1\nend: aborted\n\n"),
        "draw of every seat",
    );
    refused(
        &format!("{head}result: win 2\nend: resign\n{moves}"),
        "ended on the board",
    );
    refused(
        &format!("{head}result: win 1\nend: agreement\n{moves}"),
        "ended on the board",
    );
    let three = "[Tabula record]\ngame: toy(players=3)\n";
    refused(
        &format!("{three}result: win 2\nend: resign\n\n"),
        "two-player",
    );
    assert_eq!(
        ending(&format!("{three}result: draw 1,2,3\nend: agreement\n\n")),
        Ok(Some(Ending {
            outcome: Outcome::Draw(PlayerSet::all(3)),
            reason: EndReason::Agreement
        }))
    );
    refused(
        &format!("{three}result: draw 1,2\nend: agreement\n\n"),
        "draw 1,2,3",
    );
    // An unknown end is a syntax error; the reason is read in any case.
    let e = Record::parse(&format!("{head}result: win 1\nend: timeout\n\n")).unwrap_err();
    assert!(e.message.contains("line 4: bad end `timeout`"), "{e}");
    let r = Record::parse(&format!("{head}result: win 1\nend: Resign\n\n")).unwrap();
    assert_eq!(r.end.as_deref(), Some("resign"));
}

#[test]
fn outcome_scores_sum_to_one() {
    let d = Outcome::Draw([Player(0), Player(2)].into_iter().collect());
    assert_eq!(
        d.score(Player(0)) + d.score(Player(1)) + d.score(Player(2)),
        1.0
    );
    assert_eq!(Outcome::parse(&d.to_text()).unwrap(), d);
    assert_eq!(Outcome::Win(Player(1)).score(Player(1)), 1.0);
}

#[test]
fn perft_files_are_checked_row_by_row() {
    let good = "# name; spec; position; counts\nstart; toy; start; 1:3 2:3 3:6 4:18\nnear; toy(players=3); 9,0,0 1 - 0; 2:3 3:0\n";
    assert_eq!(tabula_core::perft_data::check_file::<Toy>(good, 3), 5);
    let bad = good.replace("4:18", "4:19");
    let caught = std::panic::catch_unwind(|| tabula_core::perft_data::check_file::<Toy>(&bad, 4));
    assert!(caught.is_err(), "a wrong count must fail");
}

fn lying(lie: &'static str) -> Toy {
    Toy::new_game(&Opts {
        players: 2,
        lie,
        ..Opts::default()
    })
    .unwrap()
}

#[test]
#[should_panic(expected = "a chance node in a game declared without chance")]
fn harness_catches_undeclared_chance() {
    check_games(&[lying("chance")], &Config::default());
}

#[test]
#[should_panic(expected = "acts twice in a row in a game declared with one action a turn")]
fn harness_catches_undeclared_multi_action_turns() {
    check_games(&[lying("turns")], &Config::default());
}

#[test]
#[should_panic(expected = "is declared mate but does not win")]
fn harness_catches_a_false_mate() {
    check_games(&[lying("mate")], &Config::default());
}

#[test]
#[should_panic(expected = "declared with chance, but 3 random games")]
fn harness_catches_declared_chance_that_never_comes() {
    // Finished games never roll: the declaration is not borne out.
    let over = Toy::from_position(
        &Opts {
            players: 2,
            ..Opts::default()
        },
        "10,0 2 - 1",
    )
    .unwrap();
    assert_eq!(over.turn(), Turn::Over);
    check_games(
        &[over],
        &Config {
            games: 3,
            ..Config::default()
        },
    );
}

#[test]
fn game_type_is_declared_per_options_and_reaches_the_erased_layer() {
    let reg = registry();
    let expected = |players| GameType {
        players,
        chance: true,
        multi_action_turns: true,
    };
    assert_eq!(reg.entries()[0].game_type().unwrap(), expected(2));
    assert_eq!(
        reg.create("toy(players=3)", None).unwrap().game_type(),
        expected(3)
    );
}

#[test]
fn play_text_gives_the_canonical_text_and_the_facts() {
    let mut g = registry().create("toy", Some("9,0 1 - 0")).unwrap();
    let roll = g.play_text("ROLL1").unwrap();
    assert_eq!(
        roll,
        Played {
            text: "roll1".into(),
            facts: ActionFacts::default(),
            route: Vec::new(),
        }
    );
    let before = g.position();
    assert!(g.play_text("roll1").is_err());
    assert_eq!(g.position(), before, "a rejected action changes nothing");
    let win = g.play_text("step").unwrap();
    assert!(win.facts.mate && !win.facts.capture && !win.facts.check);
    assert_eq!(g.outcome(), Some(Outcome::Win(Player(0))));
}

/// The draw the server used before the sampler moved to core: a fresh
/// `SmallRng` per ply, one `gen::<f64>()`, probabilities subtracted in
/// outcome order. Stored games replay their dice through it.
fn old_server_roll(outcomes: &[(String, f64)], rng: &mut SmallRng) -> Option<String> {
    let mut x: f64 = rng.gen();
    let mut pick = outcomes.last().map(|o| o.0.clone());
    for (text, p) in outcomes {
        if x < *p {
            pick = Some(text.clone());
            break;
        }
        x -= p;
    }
    pick
}

#[test]
fn sample_chance_keeps_the_stored_games_dice() {
    let g = registry().create("toy", None).unwrap();
    let mut counts = [0; 3];
    for seed in 0..3000u64 {
        let ply = seed % 17;
        let fresh = || SmallRng::seed_from_u64(seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let new = g.sample_chance(&mut fresh()).unwrap();
        assert_eq!(
            Some(new.clone()),
            old_server_roll(&g.chance_outcomes(), &mut fresh())
        );
        counts[["roll1", "roll2", "roll3"]
            .iter()
            .position(|&r| r == new)
            .unwrap()] += 1;
    }
    // 1/2, 1/3, 1/6 of 3000.
    assert!((1400..1600).contains(&counts[0]), "{counts:?}");
    assert!((900..1100).contains(&counts[1]), "{counts:?}");
    assert!((420..580).contains(&counts[2]), "{counts:?}");
    let mut after = g.clone();
    after.apply_text("roll1").unwrap();
    assert_eq!(after.sample_chance(&mut SmallRng::seed_from_u64(1)), None);
}
