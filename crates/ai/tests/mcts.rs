//! MCTS finds wins with two and three players, over multi-action turns and
//! dice, proves them with its solver, and reuses its tree.

mod common;

use common::{DiceRace, Nim, NimAct, RaceAct, Ttt};
use tabula_ai::{Agent, Budget, Limits, MctsAgent, MctsConfig};
use tabula_core::Game;

fn decide<G: tabula_core::Evaluate>(
    cfg: MctsConfig,
    g: &G,
    iterations: u64,
) -> tabula_ai::Decision<G> {
    let limits = Limits::iterations(iterations);
    let mut agent = MctsAgent::<G>::new("mcts", cfg, limits.clone(), 7);
    agent.decide(g, &Budget::new(&limits, &limits)).unwrap()
}

#[test]
fn mcts_plays_nim_perfectly() {
    for pile in [5, 6, 7, 9, 10, 11] {
        let d = decide(MctsConfig::mcts(), &Nim::new(2, false, pile), 4000);
        assert_eq!(d.action, NimAct::Take(pile % 4), "pile {pile}");
        assert_eq!(d.value, 1.0, "the solver proves pile {pile}");
    }
}

#[test]
fn plain_uct_finds_the_nim_move() {
    let d = decide(MctsConfig::uct(), &Nim::new(2, false, 7), 4000);
    assert_eq!(d.action, NimAct::Take(3));
}

#[test]
fn mcts_plays_turns_of_several_actions() {
    let stop = decide(MctsConfig::mcts(), &Nim::mid_turn(4, 2), 2000);
    assert_eq!(stop.action, NimAct::End);
    let go_on = decide(MctsConfig::mcts(), &Nim::mid_turn(5, 1), 2000);
    assert_eq!(go_on.action, NimAct::Take(1));
    assert_eq!(go_on.pv[..2], [NimAct::Take(1), NimAct::End]);
}

#[test]
fn mcts_takes_a_three_player_win_and_avoids_handing_one_over() {
    let d = decide(MctsConfig::mcts(), &Nim::new(3, false, 3), 500);
    assert_eq!(d.action, NimAct::Take(3));
    // Pile 5: leaving 3 or 2 lets the next player win at once; leaving 4
    // lets the player after him win whatever the next one does.
    let d = decide(MctsConfig::mcts(), &Nim::new(3, false, 5), 3000);
    assert!(
        d.value <= 0.01,
        "pile 5 with three players is lost: {}",
        d.value
    );
}

#[test]
fn mcts_wins_and_blocks_at_tic_tac_toe() {
    let win = Ttt::from_rows("xx./oo./...");
    assert_eq!(decide(MctsConfig::mcts(), &win, 300).action, 2);
    let block = Ttt::from_rows("xx./o../...");
    assert_eq!(decide(MctsConfig::mcts(), &block, 2000).action, 2);
    let block = Ttt::from_rows("xx./o../...");
    assert_eq!(decide(MctsConfig::uct(), &block, 4000).action, 2);
}

#[test]
fn mcts_runs_with_dice() {
    let mut g = DiceRace::at([2, 1], 0, 0);
    g.apply(RaceAct::Roll(2));
    let d = decide(MctsConfig::mcts(), &g, 200);
    assert_eq!(d.action, RaceAct::Run);
    assert_eq!(d.value, 1.0);
    let mut g = DiceRace::new_game(&()).unwrap();
    g.apply(RaceAct::Roll(1));
    let d = decide(MctsConfig::mcts(), &g, 2000);
    assert!(d.value > 0.0 && d.value < 1.0);
    assert_eq!(d.nodes, 2000);
}

#[test]
fn the_tree_is_reused_for_the_next_move() {
    let limits = Limits::iterations(3000);
    let budget = Budget::new(&limits, &limits);
    let mut agent = MctsAgent::<Ttt>::new("mcts", MctsConfig::mcts(), limits.clone(), 1);
    let mut g = Ttt::start();
    let first = agent.decide(&g, &budget).unwrap();
    g.apply(first.action);
    let reply = first
        .pv
        .get(1)
        .copied()
        .unwrap_or(if first.action == 4 { 0 } else { 4 });
    g.apply(reply);
    // The reused subtree already holds visits from the first search.
    let second = agent.decide(&g, &budget).unwrap();
    assert!(g.actions_here().contains(&second.action));
    assert!(
        u64::from(agent.root_visits()) > second.nodes + 100,
        "{} visits after {} iterations",
        agent.root_visits(),
        second.nodes
    );
}

/// `decide` on `threads` threads (root parallelism).
fn decide_on<G: tabula_core::Evaluate>(
    cfg: MctsConfig,
    g: &G,
    iterations: u64,
    threads: usize,
) -> tabula_ai::Decision<G> {
    let limits = Limits {
        threads: Some(threads),
        ..Limits::iterations(iterations)
    };
    let mut agent = MctsAgent::<G>::new("mcts", cfg, limits.clone(), 7);
    agent.decide(g, &Budget::new(&limits, &limits)).unwrap()
}

#[test]
fn root_parallel_mcts_finds_the_same_wins() {
    for pile in [5, 6, 7, 9] {
        let d = decide_on(MctsConfig::mcts(), &Nim::new(2, false, pile), 4000, 2);
        assert_eq!(d.action, NimAct::Take(pile % 4), "pile {pile}");
        assert_eq!(d.value, 1.0, "the solver proves pile {pile}");
    }
    let d = decide_on(MctsConfig::mcts(), &Nim::new(3, false, 3), 500, 3);
    assert_eq!(d.action, NimAct::Take(3));
    let block = Ttt::from_rows("xx./o../...");
    let d = decide_on(MctsConfig::mcts(), &block, 2000, 2);
    assert_eq!(d.action, 2);
    assert!(d.nodes > 0);
    assert_eq!(d.pv[0], d.action);
    assert!(d.ranked.iter().any(|r| r.0 == d.action));
    let mut g = DiceRace::new_game(&()).unwrap();
    g.apply(RaceAct::Roll(1));
    let d = decide_on(MctsConfig::mcts(), &g, 2000, 2);
    assert!(g.actions_here().contains(&d.action));
    // The main thread counts its iterations; the helpers add theirs.
    assert!(d.nodes >= 2000, "{} nodes", d.nodes);
}

#[test]
fn mcts_refuses_a_depth_limit_instead_of_searching_forever() {
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let mut agent = MctsAgent::<Nim>::new("mcts", MctsConfig::mcts(), Limits::default(), 7);
    let e = agent
        .decide(&Nim::new(2, false, 9), &Budget::new(&limits, &limits))
        .expect_err("no depth for MCTS");
    assert!(e.to_string().contains("no search depth"), "{e}");
}
