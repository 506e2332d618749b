//! The text-speaking layer, agent names, levels, budgets and cancelling.

mod common;

use common::{DiceRace, Nim, Ttt};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula_ai::{agent_for, make_agent, AgentKind, AnyAgent, Limits};
use tabula_core::{AnyGame, Erased, Evaluate, Game};

fn erased<G: Game>(g: G) -> Erased<G> {
    Erased::new(g, G::NAME.to_string())
}

fn agent<G: Evaluate>(game: &Erased<G>, name: &str) -> Box<dyn AnyAgent> {
    agent_for::<G>(game, name.parse().unwrap(), 3)
        .expect("right game type")
        .expect(name)
}

#[test]
fn every_agent_plays_legal_moves_in_every_kind_of_game() {
    let mut race = DiceRace::new_game(&()).unwrap();
    race.apply(common::RaceAct::Roll(2));
    let games: Vec<Box<dyn AnyGame>> = vec![
        Box::new(erased(Ttt::from_rows("x../.o./..."))),
        Box::new(erased(Nim::new(3, false, 10))),
        Box::new(erased(Nim::mid_turn(9, 1))),
        Box::new(erased(race)),
    ];
    let limits = Limits::iterations(300);
    for g in &games {
        for kind in AgentKind::ALL {
            let name = kind.name();
            let made = match g.name() {
                "ttt" => agent_for::<Ttt>(g.as_ref(), kind, 1),
                "nim" => agent_for::<Nim>(g.as_ref(), kind, 1),
                _ => agent_for::<DiceRace>(g.as_ref(), kind, 1),
            }
            .expect("right game type");
            let unfit = (name == "alphabeta" && (g.name() == "race" || g.num_players() == 3))
                || (name == "expectimax" && g.num_players() == 3);
            match made {
                Err(e) => assert!(unfit, "{name} on {}: {e}", g.spec()),
                Ok(mut a) => {
                    assert!(!unfit, "{name} should refuse {}", g.spec());
                    assert_eq!(a.name(), name, "every kind builds its own agent");
                    let c = a.choose(g.as_ref(), &limits).unwrap();
                    assert!(
                        g.legal_actions().contains(&c.action),
                        "{name}: {}",
                        c.action
                    );
                    assert_eq!(c.pv.first(), Some(&c.action), "{name}");
                    assert!((0.0..=1.0).contains(&c.value), "{name}: {}", c.value);
                    assert!(!c.ranked.is_empty(), "{name}");
                }
            }
        }
    }
}

#[test]
fn bad_names_and_wrong_games_are_clear_errors() {
    let e = make_agent::<Ttt>("deepblue", 1).err().unwrap();
    assert!(
        e.message.contains("valid: random, greedy, uct, mcts"),
        "{e}"
    );
    assert!(make_agent::<Ttt>("level9", 1).is_err());
    assert!(make_agent::<Ttt>("level0", 1).is_err());
    assert!(make_agent::<Ttt>(" Level3 ", 1).is_ok());
    let nim = erased(Nim::new(2, false, 5));
    assert!(agent_for::<Ttt>(&nim, "random".parse().unwrap(), 1).is_none());
    let mut a = make_agent::<Ttt>("greedy", 1).unwrap();
    let e = a.choose(&nim, &Limits::default()).unwrap_err();
    assert!(e.message.contains("plays ttt, not nim"), "{e}");
    let over = erased(Ttt::from_rows("xxx/oo./..."));
    assert!(a.choose(&over, &Limits::default()).is_err());
    let dice = erased(DiceRace::new_game(&()).unwrap());
    let mut r = agent(&dice, "mcts");
    assert!(
        r.choose(&dice, &Limits::default()).is_err(),
        "nobody moves before the roll"
    );
}

#[test]
fn text_choice_ranks_the_winning_move_first() {
    let g = erased(Ttt::from_rows("xx./oo./..."));
    for name in ["alphabeta", "mcts", "greedy", "level8"] {
        let c = agent(&g, name)
            .choose(&g, &Limits::iterations(2000))
            .unwrap();
        assert_eq!(c.action, "c2", "{name}");
        assert_eq!(c.ranked[0].0, "c2", "{name}");
        assert_eq!(c.value, 1.0, "{name}");
    }
}

#[test]
fn level_one_blunders_at_its_set_rate() {
    // One move wins at once; level 1 misses it about a third of the time.
    let g = erased(Ttt::from_rows("xx./oo./..."));
    let mut a = agent(&g, "level1");
    let misses = (0..400)
        .filter(|_| a.choose(&g, &Limits::default()).unwrap().action != "c2")
        .count();
    assert!((90..=190).contains(&misses), "{misses} misses in 400");
    let mut a = agent(&g, "level4");
    let misses = (0..20)
        .filter(|_| a.choose(&g, &Limits::iterations(500)).unwrap().action != "c2")
        .count();
    assert_eq!(misses, 0);
}

#[test]
fn with_dice_the_levels_differ_by_their_blunder_rate() {
    // One step from home with a roll in hand: running wins at once.
    let mut g = DiceRace::at([1, 5], 0, 0);
    g.apply(common::RaceAct::Roll(1));
    let g = erased(g);
    let misses = |name: &str, tries: usize| {
        let mut a = agent(&g, name);
        (0..tries)
            .filter(|_| a.choose(&g, &Limits::iterations(200)).unwrap().action != "run")
            .count()
    };
    // Level 7 blunders a fifth of the time in a dice game, level 8 never.
    let m = misses("level7", 400);
    assert!((50..=115).contains(&m), "{m} misses in 400");
    assert_eq!(misses("level8", 50), 0);
}

#[test]
fn iteration_budgets_are_respected() {
    let g = erased(Nim::new(2, false, 40));
    let c = agent(&g, "mcts")
        .choose(&g, &Limits::iterations(777))
        .unwrap();
    assert_eq!(c.nodes, 777);
    let c = agent(&g, "uct")
        .choose(&g, &Limits::iterations(50))
        .unwrap();
    assert_eq!(c.nodes, 50);
    let t = erased(Ttt::start());
    let c = agent(&t, "alphabeta")
        .choose(&t, &Limits::iterations(3000))
        .unwrap();
    assert!(c.nodes <= 3000 + 256, "{} nodes", c.nodes);
}

#[test]
fn time_budgets_and_cancelling_stop_the_search() {
    // Generous bounds: CI machines are slow and shared.
    let g = erased(Nim::new(2, false, 60));
    for name in ["mcts", "uct", "alphabeta", "level8"] {
        let mut a = agent(&g, name);
        let start = Instant::now();
        let c = a
            .choose(&g, &Limits::time(Duration::from_millis(100)))
            .unwrap();
        assert!(start.elapsed() < Duration::from_secs(3), "{name}");
        assert!(c.nodes > 0, "{name}");

        let cancel = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            time: Some(Duration::from_secs(600)),
            cancel: Some(cancel),
            ..Limits::default()
        };
        let start = Instant::now();
        let c = a.choose(&g, &limits).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{name} ignored cancel"
        );
        assert!(g.legal_actions().contains(&c.action), "{name}");
    }
}

/// The agents pick their search from the declared game type, so the test
/// games must declare it truly.
#[test]
fn the_test_games_declare_their_type_truly() {
    use tabula_core::conformance::{check_games, Config};
    let config = Config {
        games: 10,
        ..Config::default()
    };
    check_games(&[Nim::new(2, false, 12), Nim::new(3, true, 12)], &config);
    check_games(&[Ttt::from_rows("..././...")], &config);
    check_games(&[DiceRace::new_game(&()).unwrap()], &config);
}

/// An action the game rules out (`Evaluate::is_retreat`) is never chosen
/// while another is ranked, even the search's best (here the winning
/// take); the only legal action is still played.
#[test]
fn search_agents_avoid_the_games_retreats() {
    use common::NimAct;
    for kind in [AgentKind::AlphaBeta, AgentKind::Mcts] {
        let mut nim = Nim::new(2, false, 5);
        nim.retreat = Some(NimAct::Take(1));
        let game = erased(nim.clone());
        let d = agent(&game, kind.name())
            .choose(&game, &Limits::iterations(2000))
            .unwrap();
        assert_ne!(d.action, "take1", "{}", kind.name());
        assert_eq!(d.ranked[0].0, d.action);
        assert!(d.ranked.iter().any(|(a, _)| a == "take1"));
        let mut last = Nim::new(2, false, 1);
        last.retreat = Some(NimAct::Take(1));
        let game = erased(last);
        let d = agent(&game, kind.name())
            .choose(&game, &Limits::iterations(200))
            .unwrap();
        assert_eq!(d.action, "take1", "{}", kind.name());
    }
}

/// A game's own endgame knowledge (`Evaluate::endgame_action`) overrides
/// the search agents' choice, even a worse one (here a losing take), and
/// its value is the one their search found for it (MCTS: its mean; alpha-
/// beta knows only a bound for an action that is not its best).
#[test]
fn search_agents_play_the_games_endgame_action() {
    use common::NimAct;
    let mut nim = Nim::new(2, false, 5);
    for kind in [AgentKind::AlphaBeta, AgentKind::Mcts] {
        nim.oracle = None;
        let free = agent(&erased(nim.clone()), kind.name())
            .choose(&erased(nim.clone()), &Limits::iterations(2000))
            .unwrap();
        assert_eq!(free.action, "take1", "{}", kind.name());
        nim.oracle = Some(NimAct::Take(2));
        let game = erased(nim.clone());
        let told = agent(&game, kind.name())
            .choose(&game, &Limits::iterations(2000))
            .unwrap();
        assert_eq!(told.action, "take2", "{}", kind.name());
        assert_eq!(told.ranked[0].0, "take2");
        if kind == AgentKind::Mcts {
            assert!(told.value < free.value, "{told:?}");
        }
    }
}
