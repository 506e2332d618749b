//! Alpha-beta equals plain minimax, expectimax equals brute force, and
//! both find forced wins, on games small enough to check by hand.

mod common;

use common::{DiceRace, Nim, NimAct, RaceAct, Ttt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula_ai::value::{expected, outcome_score, static_score};
use tabula_ai::{Agent, Budget, Limits, SearchAgent, SearchConfig};
use tabula_core::{sample_chance, Evaluate, Game, Player, Turn};

/// Plain expectiminimax to `depth` player actions (or, with `rolls`, to
/// `depth` chance nodes below the first, leaves only before a roll),
/// scores of player 0, with chance averaged in the searcher's order
/// (likeliest first) over the distinct positions it leads to.
fn brute_force<G: Evaluate>(g: &G, depth: i32, ply: usize, rolls: bool) -> i32 {
    match g.turn() {
        Turn::Over => outcome_score(g.outcome().unwrap(), ply),
        Turn::Player(_) if rolls => {
            let p = g.turn();
            let values = g.actions_here().into_iter().map(|a| {
                let mut c = g.clone();
                c.apply(a);
                brute_force(&c, depth, ply + 1, rolls)
            });
            if p == Turn::Player(Player(0)) {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
        _ if depth <= 0 => static_score(g),
        Turn::Chance => {
            let mut outs = Vec::new();
            g.chance_outcomes(&mut outs);
            // Outcomes that reach the same position count once, with
            // their shares summed (as the searcher does, by hash).
            let mut children: Vec<(G, f64)> = Vec::new();
            for (a, p) in outs {
                let mut c = g.clone();
                c.apply(a);
                match children.iter_mut().find(|x| x.0.position() == c.position()) {
                    Some(x) => x.1 += p,
                    None => children.push((c, p)),
                }
            }
            children.sort_by(|a, b| b.1.total_cmp(&a.1));
            let below = if rolls { depth - 1 } else { depth };
            let sum: f64 = children
                .iter()
                .map(|(c, p)| p * f64::from(brute_force(c, below, ply + 1, rolls)))
                .sum();
            sum.round() as i32
        }
        Turn::Player(p) => {
            let values = g.actions_here().into_iter().map(|a| {
                let mut c = g.clone();
                c.apply(a);
                brute_force(&c, depth - 1, ply + 1, rolls)
            });
            if p == Player(0) {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
    }
}

fn fixed_depth(depth: i32, chance: bool, tt_bits: u32, rolls: bool) -> SearchConfig {
    SearchConfig {
        max_depth: depth,
        quiescence: true,
        tt_bits,
        chance,
        contempt: 0.0,
        depth_in_rolls: rolls,
        reductions: false,
        previous_evaluation: false,
    }
}

/// The searcher's value and action at `depth` match brute force.
fn check_against_brute_force<G: Evaluate>(
    g: &G,
    depth: i32,
    chance: bool,
    tt_bits: u32,
    rolls: bool,
) {
    let Turn::Player(me) = g.turn() else {
        panic!("not a player node")
    };
    let cfg = fixed_depth(depth, chance, tt_bits, rolls);
    let mut agent = SearchAgent::<G>::new("ab", cfg, Limits::default());
    let d = agent.decide(g, &Budget::unlimited()).unwrap();
    let best = brute_force(g, depth, 0, rolls);
    assert_eq!(
        d.value,
        expected(best, me),
        "value at depth {depth} in {}",
        g.position()
    );
    let mut child = g.clone();
    child.apply(d.action);
    assert_eq!(
        brute_force(&child, if rolls { depth } else { depth - 1 }, 1, rolls),
        best,
        "action {:?} at depth {depth} in {}",
        d.action,
        g.position()
    );
}

/// With `multipv` k at a fixed depth, the first k ranked actions carry
/// their exact brute-force values and are the k best; the values after
/// the exact ones are upper bounds for the mover.
fn check_multipv<G: Evaluate>(g: &G, depth: i32, chance: bool, k: usize) {
    let Turn::Player(me) = g.turn() else {
        panic!("not a player node")
    };
    let cfg = fixed_depth(depth, chance, 12, false);
    let mut agent = SearchAgent::<G>::new("ab", cfg, Limits::default());
    let limits = Limits {
        multipv: Some(k),
        ..Limits::default()
    };
    let d = agent
        .decide(g, &Budget::new(&limits, &Limits::default()))
        .unwrap();
    // A search that sees a forced win stops deepening.
    let depth = d.depth.unwrap() as i32;
    let truth = |a| {
        let mut child = g.clone();
        child.apply(a);
        expected(brute_force(&child, depth - 1, 1, false), me)
    };
    let mut best: Vec<f32> = g.actions_here().into_iter().map(truth).collect();
    best.sort_by(|a, b| b.total_cmp(a));
    let k = k.min(best.len());
    assert!(d.exact >= k, "{} exact of {k} in {}", d.exact, g.position());
    assert_eq!(d.ranked.len(), best.len());
    for (i, &(a, v)) in d.ranked.iter().enumerate() {
        if i < d.exact {
            assert_eq!(
                v,
                truth(a),
                "action {i} at depth {depth} in {}",
                g.position()
            );
        } else {
            assert!(
                v >= truth(a),
                "bound {i} at depth {depth} in {}",
                g.position()
            );
        }
    }
    let shown: Vec<f32> = d.ranked[..k].iter().map(|r| r.1).collect();
    assert_eq!(
        shown,
        best[..k],
        "the {k} best at depth {depth} in {}",
        g.position()
    );
}

#[test]
fn multipv_values_the_best_actions_exactly_and_bounds_the_rest() {
    for g in random_positions(&Ttt::start(), 30, 5, 3) {
        for depth in 1..=4 {
            for k in [1, 2, 3, 9] {
                check_multipv(&g, depth, false, k);
            }
        }
    }
    let start = DiceRace::new_game(&()).unwrap();
    for g in random_positions(&start, 20, 8, 4) {
        for depth in 1..=3 {
            for k in [1, 2, 4] {
                check_multipv(&g, depth, true, k);
            }
        }
    }
}

/// Random positions a few actions into the game (chance sampled).
fn random_positions<G: Game>(start: &G, count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut outs = Vec::new();
    while out.len() < count {
        let mut g = start.clone();
        for _ in 0..rng.gen_range(0..=max_plies) {
            match g.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    g.chance_outcomes(&mut outs);
                    let a = sample_chance::<G, _>(&outs, &mut rng);
                    g.apply(a);
                }
                Turn::Player(_) => {
                    let acts = g.actions_here();
                    g.apply(acts[rng.gen_range(0..acts.len())]);
                }
            }
        }
        if g.turn() == Turn::Chance {
            g.chance_outcomes(&mut outs);
            let a = sample_chance::<G, _>(&outs, &mut rng);
            g.apply(a);
        }
        if matches!(g.turn(), Turn::Player(_)) {
            out.push(g);
        }
    }
    out
}

#[test]
fn alphabeta_equals_minimax_at_fixed_depth_on_tic_tac_toe() {
    for g in random_positions(&Ttt::start(), 30, 5, 1) {
        for depth in 1..=4 {
            check_against_brute_force(&g, depth, false, 0, false);
            check_against_brute_force(&g, depth, false, 12, false);
        }
    }
}

#[test]
fn alphabeta_solves_tic_tac_toe() {
    let mut agent = SearchAgent::<Ttt>::new("ab", SearchConfig::alphabeta(), Limits::default());
    let d = agent.decide(&Ttt::start(), &Budget::unlimited()).unwrap();
    assert_eq!(d.value, 0.5, "tic-tac-toe is a draw");
    // x wins at once on the top row; o must block it otherwise.
    let win = Ttt::from_rows("xx./oo./...");
    assert_eq!(agent.decide(&win, &Budget::unlimited()).unwrap().action, 2);
    let block = Ttt::from_rows("xx./o../...");
    assert_eq!(
        agent.decide(&block, &Budget::unlimited()).unwrap().action,
        2
    );
    // o answered the corner with an adjacent edge: x forces a win by forks.
    let fork = Ttt::from_rows("xo./.../...");
    let d = agent.decide(&fork, &Budget::unlimited()).unwrap();
    assert_eq!(d.value, 1.0);
    assert_eq!(
        d.value,
        expected(brute_force(&fork, 9, 0, false), Player(0))
    );
}

#[test]
fn alphabeta_plays_nim_perfectly_over_single_and_multi_action_turns() {
    let mut agent = SearchAgent::<Nim>::new("ab", SearchConfig::alphabeta(), Limits::default());
    for pile in [5, 6, 7, 9, 10, 11] {
        let d = agent
            .decide(&Nim::new(2, false, pile), &Budget::unlimited())
            .unwrap();
        assert_eq!(d.action, NimAct::Take(pile % 4), "pile {pile}");
        assert_eq!(d.value, 1.0);
    }
    let d = agent
        .decide(&Nim::new(2, false, 8), &Budget::unlimited())
        .unwrap();
    assert_eq!(d.value, 0.0, "a multiple of 4 is lost");
    // One stone per action: stop exactly when 4 are left.
    let stop = agent
        .decide(&Nim::mid_turn(4, 2), &Budget::unlimited())
        .unwrap();
    assert_eq!(stop.action, NimAct::End);
    let go_on = agent
        .decide(&Nim::mid_turn(5, 1), &Budget::unlimited())
        .unwrap();
    assert_eq!(go_on.action, NimAct::Take(1));
    assert_eq!(go_on.pv[..2], [NimAct::Take(1), NimAct::End]);
}

#[test]
fn expectimax_equals_brute_force_on_dice_positions() {
    let start = DiceRace::new_game(&()).unwrap();
    for g in random_positions(&start, 25, 8, 2) {
        for depth in 1..=4 {
            check_against_brute_force(&g, depth, true, 0, false);
            check_against_brute_force(&g, depth, true, 12, false);
        }
        for depth in 1..=2 {
            check_against_brute_force(&g, depth, true, 0, true);
            check_against_brute_force(&g, depth, true, 12, true);
        }
    }
}

#[test]
fn expectimax_takes_the_sure_win() {
    let mut g = DiceRace::at([2, 1], 0, 0);
    g.apply(RaceAct::Roll(2));
    let mut agent =
        SearchAgent::<DiceRace>::new("em", SearchConfig::expectimax(), Limits::default());
    let d = agent.decide(&g, &Budget::unlimited()).unwrap();
    assert_eq!(d.action, RaceAct::Run);
    assert_eq!(d.value, 1.0);
}

#[test]
fn alphabeta_refuses_dice_and_three_players() {
    let mut g = DiceRace::new_game(&()).unwrap();
    g.apply(RaceAct::Roll(1));
    let mut agent =
        SearchAgent::<DiceRace>::new("alphabeta", SearchConfig::alphabeta(), Limits::default());
    let e = agent.decide(&g, &Budget::unlimited()).unwrap_err();
    assert!(e.message.contains("without dice"), "{e}");
    let mut agent =
        SearchAgent::<Nim>::new("alphabeta", SearchConfig::alphabeta(), Limits::default());
    let e = agent
        .decide(&Nim::new(3, false, 9), &Budget::unlimited())
        .unwrap_err();
    assert!(e.message.contains("two-player"), "{e}");
}

/// An unlimited budget on `threads` threads, optionally cancelled by `cancel`.
fn threaded(threads: usize, cancel: Option<Arc<AtomicBool>>) -> Budget {
    let limits = Limits {
        threads: Some(threads),
        cancel,
        ..Limits::default()
    };
    Budget::new(&limits, &Limits::default())
}

#[test]
fn lazy_smp_finds_the_forced_wins_the_single_thread_finds() {
    let two = threaded(2, None);
    let mut agent = SearchAgent::<Ttt>::new("ab", SearchConfig::alphabeta(), Limits::default());
    let win = Ttt::from_rows("xx./oo./...");
    assert_eq!(agent.decide(&win, &two).unwrap().action, 2);
    let block = Ttt::from_rows("xx./o../...");
    assert_eq!(agent.decide(&block, &two).unwrap().action, 2);
    let fork = Ttt::from_rows("xo./.../...");
    let d = agent.decide(&fork, &two).unwrap();
    assert_eq!(d.value, 1.0);
    assert!(fork.actions_here().contains(&d.action));
    let d = agent.decide(&Ttt::start(), &threaded(3, None)).unwrap();
    assert_eq!(d.value, 0.5, "tic-tac-toe is a draw on three threads too");

    let mut nim = SearchAgent::<Nim>::new("ab", SearchConfig::alphabeta(), Limits::default());
    for pile in [5, 6, 7, 9, 10, 11] {
        let d = nim.decide(&Nim::new(2, false, pile), &two).unwrap();
        assert_eq!(d.action, NimAct::Take(pile % 4), "pile {pile}");
        assert_eq!(d.value, 1.0);
    }
    let d = nim.decide(&Nim::mid_turn(5, 1), &two).unwrap();
    assert_eq!(d.action, NimAct::Take(1));

    let mut g = DiceRace::at([2, 1], 0, 0);
    g.apply(RaceAct::Roll(2));
    let mut em = SearchAgent::<DiceRace>::new("em", SearchConfig::expectimax(), Limits::default());
    let d = em.decide(&g, &two).unwrap();
    assert_eq!(d.action, RaceAct::Run);
    assert_eq!(d.value, 1.0);
}

#[test]
fn lazy_smp_plays_legal_moves_and_stops_when_cancelled() {
    let start = DiceRace::new_game(&()).unwrap();
    let mut em = SearchAgent::<DiceRace>::new("em", SearchConfig::expectimax(), Limits::default());
    for g in random_positions(&start, 10, 8, 5) {
        // Cancelled before it starts, and cancelled while it runs.
        let cancel = Arc::new(AtomicBool::new(true));
        let d = em.decide(&g, &threaded(2, Some(cancel))).unwrap();
        assert!(g.actions_here().contains(&d.action));
        let cancel = Arc::new(AtomicBool::new(false));
        let budget = threaded(2, Some(Arc::clone(&cancel)));
        let started = Instant::now();
        let d = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(20));
                cancel.store(true, Ordering::Relaxed);
            });
            em.decide(&g, &budget).unwrap()
        });
        assert!(started.elapsed() < Duration::from_secs(5), "ignored cancel");
        assert!(g.actions_here().contains(&d.action));
    }
    // A fixed iteration count bounds the main thread; helpers stop with it.
    let limits = Limits {
        threads: Some(2),
        ..Limits::iterations(2_000)
    };
    let g = Nim::new(2, false, 60);
    let mut ab = SearchAgent::<Nim>::new("ab", SearchConfig::alphabeta(), Limits::default());
    let d = ab.decide(&g, &Budget::new(&limits, &limits)).unwrap();
    assert!(g.actions_here().contains(&d.action));
}

#[test]
fn one_thread_searches_exactly_as_before() {
    // Same nodes and moves whether threads is unset or 1.
    let g = Nim::new(2, false, 30);
    let run = |threads: Option<usize>| {
        let limits = Limits {
            threads,
            ..Limits::iterations(5_000)
        };
        let mut ab = SearchAgent::<Nim>::new("ab", SearchConfig::alphabeta(), Limits::default());
        let d = ab.decide(&g, &Budget::new(&limits, &limits)).unwrap();
        (d.action, d.nodes, d.depth, d.pv)
    };
    assert_eq!(run(None), run(Some(1)));
}

#[test]
fn a_depth_limit_ends_the_search_at_that_depth_on_any_thread_count() {
    // The agent's own time (1 ms) does not apply: a depth alone sets no
    // time limit, so every run reaches the asked depth, and no deeper.
    let g = Nim::new(2, false, 60);
    for threads in [1, 2, 3] {
        for depth in [1, 3, 5] {
            let limits = Limits {
                threads: Some(threads),
                depth: Some(depth),
                ..Limits::default()
            };
            let own = Limits::time(Duration::from_millis(1));
            let mut ab = SearchAgent::<Nim>::new("ab", SearchConfig::alphabeta(), own.clone());
            let d = ab.decide(&g, &Budget::new(&limits, &own)).unwrap();
            assert_eq!(d.depth, Some(depth), "{threads} threads, depth {depth}");
            assert!(g.actions_here().contains(&d.action));
        }
    }
}
