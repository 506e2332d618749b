//! The AI finds forced wins in small hand-made positions of every game,
//! through the same type-erased door the CLI and the server use.
//! Budgets are node/iteration counts, never time, so the tests are the same
//! on a loaded machine.

use tabula_ai::Limits;
use tabula_core::{AnyGame, Erased, Game, Outcome, Player, Turn};

/// Whether `me` can force a win within `plies` player actions (no chance).
fn forced_win<G: Game>(g: &G, me: Player, plies: u32) -> bool {
    match g.turn() {
        Turn::Over => g.outcome() == Some(Outcome::Win(me)),
        Turn::Chance => false,
        Turn::Player(_) if plies == 0 => false,
        Turn::Player(p) => {
            let mut children = g.actions_here().into_iter().map(|a| {
                let mut c = g.clone();
                c.apply(a);
                forced_win(&c, me, plies - 1)
            });
            if p == me {
                children.any(|w| w)
            } else {
                children.all(|w| w)
            }
        }
    }
}

fn open(spec: &str, position: &str) -> Box<dyn AnyGame> {
    tabula_games::registry()
        .create(spec, Some(position))
        .unwrap_or_else(|e| panic!("{spec} {position}: {e}"))
}

fn state<G: Game>(game: &dyn AnyGame) -> &G {
    &game
        .as_any()
        .downcast_ref::<Erased<G>>()
        .expect("game type")
        .state
}

/// The action `agent` picks in `game` with `limits`.
fn pick(game: &dyn AnyGame, agent: &str, limits: &Limits) -> String {
    let mut a = tabula_games::agent(game, agent, 1).unwrap_or_else(|e| panic!("{agent}: {e}"));
    a.choose(game, limits)
        .unwrap_or_else(|e| panic!("{agent}: {e}"))
        .action
}

/// `agent` plays the mover's side for up to `actions` actions (the other
/// side's replies are all tried by `forced_win`); the mover must still be
/// winning after each of its actions, and win at the end.
fn assert_finds_win<G: Game>(
    spec: &str,
    position: &str,
    plies: u32,
    agents: &[&str],
    limits: &Limits,
) {
    let start = open(spec, position);
    let Turn::Player(me) = start.turn() else {
        panic!("no mover")
    };
    assert!(
        forced_win(state::<G>(start.as_ref()), me, plies),
        "not a forced win: {position}"
    );
    if plies > 1 {
        assert!(
            !forced_win(state::<G>(start.as_ref()), me, plies - 2),
            "a shorter win exists: {position}"
        );
    }
    for &agent in agents {
        let mut g = start.clone();
        let action = pick(g.as_ref(), agent, limits);
        g.apply_text(&action).unwrap();
        assert!(
            forced_win(state::<G>(g.as_ref()), me, plies - 1),
            "{agent} played {action} and lets the win slip in {position}"
        );
    }
}

#[test]
fn dragonchess_mate_in_one() {
    // Scarlet King 2a8; Gold Oliphants 2k6 and 2l7, Cleric 1b7, Griffin
    // 3c5, King 2l1: O2k6-2k8 mates along the eighth rank.
    let pos =
        "12/12/12/2G9/12/12/12/12|k11/11O/10O1/12/12/12/12/11K|12/1C10/12/12/12/12/12/12 g 0 1";
    assert_finds_win::<dragonchess::Dragonchess>(
        "dragonchess",
        pos,
        1,
        &["alphabeta", "level8", "greedy"],
        &Limits::iterations(200_000),
    );
}

#[test]
fn dragonchess_mate_in_two() {
    // Scarlet King 2a7; Gold Oliphants 2b5 and 2k6, Cleric 1b7, Griffin
    // 3c5, King 2l1.
    let pos =
        "12/12/12/2G9/12/12/12/12|12/k11/10O1/1O10/12/12/12/11K|12/1C10/12/12/12/12/12/12 g 0 1";
    assert_finds_win::<dragonchess::Dragonchess>(
        "dragonchess",
        pos,
        3,
        &["alphabeta", "level8"],
        &Limits::iterations(400_000),
    );
}

#[test]
fn phylde_surround_in_one_action() {
    // North King on j9+ (quad j9 k9 j10 k10) is attacked on three quad
    // squares by South Cavaliers j5, k5 and e10; the Cavalier on p12 can
    // complete the surround.
    let pos = "18/18/18/18/18/18/15C2/18/4C13/9r8/18/18/18/S8CC7/18/18/18/R17 S";
    assert_finds_win::<phylde::Phylde>(
        "phylde",
        pos,
        1,
        &["alphabeta", "level8", "greedy", "mcts"],
        &Limits::iterations(20_000),
    );
}

#[test]
fn stelpur_takes_the_last_pawn() {
    // North's last pawn stands on corner 13; South rolled 6-1 and can take
    // it with the 6 from 7 (or the 1 from 12 after using the 6 elsewhere).
    let pos = "2,7/13 1 6-1:1,6 0 9";
    let g = open("stelpur", pos);
    for agent in ["expectimax", "mcts", "level8", "greedy"] {
        let mut g = g.clone();
        while g.turn() == Turn::Player(Player(0)) {
            let a = pick(g.as_ref(), agent, &Limits::iterations(20_000));
            g.apply_text(&a).unwrap();
        }
        assert_eq!(
            g.outcome(),
            Some(Outcome::Win(Player(0))),
            "{agent} in {pos}"
        );
    }
}

#[test]
fn gildervaik_winning_jump() {
    // A has nine pawns in B's zone; the tenth on h11 jumps over B's pawn
    // on h12 to h13, the zone's last free cell A can reach in one move.
    let pos = "A:h11,i13,i14,i15,i16,i17,j13,j14,j15,j16 \
               B:e1,e2,e3,e4,e5,e6,e7,e8,f1,h12 \
               C:g1,h1,h3,i1,i3,i5,j1,j3,j5,j7 / A";
    let g = open("gildervaik", pos);
    for agent in ["mcts", "level8", "greedy", "uct"] {
        let a = pick(g.as_ref(), agent, &Limits::iterations(3_000));
        let mut after = g.clone();
        after.apply_text(&a).unwrap();
        assert_eq!(
            after.outcome(),
            Some(Outcome::Win(Player(0))),
            "{agent} played {a}"
        );
        assert_eq!(a, "h11-h13", "{agent}");
    }
}
