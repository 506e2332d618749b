//! The conformance harness every game crate runs in its tests.
//!
//! It plays seeded random games and checks, at every ply, the contract of the
//! `Game` trait: legal actions apply and their text round-trips; garbled or
//! illegal text is rejected and changes nothing; the position string
//! round-trips; equal positions hash equal; chance probabilities sum to 1;
//! clones are independent; every game ends within `max_game_actions`; the
//! declared [`GameType`] agrees with play (players, chance nodes, several
//! actions in a row) and a mating action really wins; on the last states of
//! each game, `perft` and `divide` agree (so a last step that ends the game
//! is counted on both paths).
//! Failures panic with the position and the action history.

use crate::game::{Game, GameType, Outcome, Player, Turn};
use crate::perft::{divide, divide_hashed, divide_parallel, perft, PerftTable};
use crate::playout::sample_chance;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashSet, VecDeque};

/// How many states before the end of each game get the perft check, and to
/// what depth: deep enough that the game ends on the last step of some
/// sequences, shallow enough to stay cheap on every game.
const END_PERFT_DEPTH: u32 = 2;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Number of random games from each start position.
    pub games: usize,
    pub seed: u64,
    /// Check every `check_every`-th ply in full (1 = every ply).
    pub check_every: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            games: 20,
            seed: 1,
            check_every: 1,
        }
    }
}

/// Text that no game accepts as an action.
const GARBAGE: &[&str] = &[
    "",
    "   ",
    "zz9-zz9",
    "!!",
    "x",
    "-",
    "12345678901234567890",
    "é",
];

/// What random play met, to hold against a declared [`GameType`].
#[derive(Clone, Copy, Debug, Default)]
struct Met {
    chance: bool,
    /// A player acted twice in a row with no chance node between.
    repeat: bool,
}

/// Run the harness from each start state. Returns the total number of plies
/// checked (so callers can assert the harness did real work).
///
/// The declared facts are checked at every ply; that a declared chance node
/// or multi-action turn really occurs is checked over all the games of the
/// starts sharing a declaration, so give at least a few games.
pub fn check_games<G: Game>(starts: &[G], config: &Config) -> u64 {
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let mut plies = 0;
    let mut met: Vec<(GameType, Met)> = Vec::new();
    for start in starts {
        let ty = start.game_type();
        let i = match met.iter().position(|m| m.0 == ty) {
            Some(i) => i,
            None => {
                met.push((ty, Met::default()));
                met.len() - 1
            }
        };
        for _ in 0..config.games {
            plies += check_one_game(start.clone(), config, &mut rng, &mut met[i].1);
        }
    }
    for (ty, m) in met {
        assert!(
            !ty.chance || m.chance,
            "declared with chance, but {} random games from each start met no chance node ({ty:?})",
            config.games
        );
        assert!(
            !ty.multi_action_turns || m.repeat,
            "declared with multi-action turns, but in {} random games from each start no player \
             acted twice in a row ({ty:?})",
            config.games
        );
    }
    plies
}

fn check_one_game<G: Game>(mut game: G, config: &Config, rng: &mut SmallRng, met: &mut Met) -> u64 {
    let bound = game.max_game_actions();
    let ty = game.game_type();
    let mut history: Vec<String> = Vec::new();
    let mut recent: VecDeque<G> = VecDeque::new();
    let mut ply: u64 = 0;
    // The player who made the previous action (`None` after chance).
    let mut last: Option<Player> = None;
    loop {
        let ctx = || {
            format!(
                "position `{}` after [{}]",
                game.position(),
                history.join(" ")
            )
        };
        if (ply as usize).is_multiple_of(config.check_every.max(1)) {
            check_state(&game, rng, &ctx);
        }
        assert_eq!(
            game.game_type(),
            ty,
            "the declared game type changed during play: {}",
            ctx()
        );
        match game.turn() {
            Turn::Chance => {
                assert!(
                    ty.chance,
                    "a chance node in a game declared without chance: {}",
                    ctx()
                );
                met.chance = true;
            }
            Turn::Player(p) if last == Some(p) => {
                assert!(
                    ty.multi_action_turns,
                    "{} acts twice in a row in a game declared with one action a turn: {}",
                    game.player_name(p),
                    ctx()
                );
                met.repeat = true;
            }
            _ => {}
        }
        let action = match game.turn() {
            Turn::Over => {
                assert!(
                    game.outcome().is_some(),
                    "game over without an outcome: {}",
                    ctx()
                );
                assert!(
                    game.actions_here().is_empty(),
                    "finished game lists actions: {}",
                    ctx()
                );
                check_perft_paths(&game, END_PERFT_DEPTH, &ctx);
                for before in &recent {
                    check_perft_paths(before, END_PERFT_DEPTH, &|| {
                        format!("position `{}` near the end of {}", before.position(), ctx())
                    });
                }
                break;
            }
            Turn::Chance => {
                last = None;
                let mut outs = Vec::new();
                game.chance_outcomes(&mut outs);
                // A game's own dice table answers as the generic pick.
                for x in [0.0, 0.25, 0.5, 0.999, rng.gen::<f64>()] {
                    assert_eq!(
                        game.pick_chance_at(x, &mut Vec::new()),
                        crate::playout::pick_chance(&outs, x),
                        "pick_chance_at({x}) disagrees with the outcomes in {}",
                        ctx()
                    );
                }
                for bits in [0, 1 << 63, u64::MAX, rng.gen::<u64>()] {
                    let x = crate::playout::unit_from_bits(bits);
                    assert_eq!(
                        game.pick_chance_bits(bits, &mut Vec::new()),
                        crate::playout::pick_chance(&outs, x),
                        "pick_chance_bits({bits:#x}) disagrees with the outcomes in {}",
                        ctx()
                    );
                }
                sample_chance::<G, _>(&outs, rng)
            }
            Turn::Player(p) => {
                last = Some(p);
                let acts = game.actions_here();
                // A game's own random pick is the generic one, draw for draw.
                let mut probe = rng.clone();
                let picked = game.random_action(&mut probe, &mut Vec::new());
                let action = acts[rng.gen_range(0..acts.len())];
                assert_eq!(
                    picked,
                    Some(action),
                    "random_action disagrees with a uniform pick from the legal actions in {}",
                    ctx()
                );
                assert_eq!(
                    probe.gen::<u64>(),
                    rng.clone().gen::<u64>(),
                    "random_action draws from the generator differently in {}",
                    ctx()
                );
                action
            }
        };
        history.push(game.action_text(action));
        if recent.len() == END_PERFT_DEPTH as usize {
            recent.pop_front();
        }
        recent.push_back(game.clone());
        game.apply(action);
        ply += 1;
        assert!(
            ply <= bound,
            "game longer than max_game_actions ({bound}): {}",
            history.join(" ")
        );
    }
    ply
}

/// Perft conventions on one state: depth 0 is 1 (also when the game is
/// over), depth 1 is the number of actions (or chance outcomes) here, and up
/// to `max_depth` the total of `divide` equals `perft`.
pub fn check_perft_paths<G: Game>(game: &G, max_depth: u32, ctx: &dyn Fn() -> String) {
    assert_eq!(perft(game, 0), 1, "perft(0) is not 1: {}", ctx());
    let here = match game.turn() {
        Turn::Over => 0,
        Turn::Chance => {
            let mut outs = Vec::new();
            game.chance_outcomes(&mut outs);
            outs.len()
        }
        Turn::Player(_) => game.actions_here().len(),
    };
    assert_eq!(
        perft(game, 1),
        here as u64,
        "perft(1) is not the action count: {}",
        ctx()
    );
    for depth in 1..=max_depth {
        let whole = perft(game, depth);
        let split: u64 = divide(game, depth, |_, _| {}).iter().map(|r| r.1).sum();
        assert_eq!(
            split,
            whole,
            "divide({depth}) sums to {split}, perft({depth}) is {whole}: {}",
            ctx()
        );
    }
    if max_depth > 0 {
        let rows = divide(game, max_depth, |_, _| {});
        assert_eq!(
            divide_parallel(game, max_depth, 2, |_, _| {}),
            rows,
            "divide({max_depth}) on two threads differs: {}",
            ctx()
        );
        // One ply deeper, so that the table holds subtrees (of depth 2 and
        // more), near the ends where the draw rules' counters and histories
        // decide; a small table, so that slots are shared and overwritten.
        let deeper = max_depth + 1;
        let table = PerftTable::with_slots(1 << 10).expect("a small table");
        assert_eq!(
            divide_hashed(game, deeper, 2, &table, |_, _| {}),
            divide(game, deeper, |_, _| {}),
            "divide({deeper}) with a table differs: {}",
            ctx()
        );
    }
}

/// Check one state in full.
pub fn check_state<G: Game>(game: &G, rng: &mut impl Rng, ctx: &dyn Fn() -> String) {
    // Position text round-trips, and the copy is the same position.
    let text = game.position();
    let back = G::from_position(game.options(), &text)
        .unwrap_or_else(|e| panic!("position string does not read back ({e}): {}", ctx()));
    assert_eq!(
        back.position(),
        text,
        "position string changes on a round trip: {}",
        ctx()
    );
    assert_eq!(
        back.hash(),
        game.hash(),
        "equal positions hash differently: {}",
        ctx()
    );
    assert_eq!(
        back.turn(),
        game.turn(),
        "round trip changes whose turn it is: {}",
        ctx()
    );
    assert_eq!(
        back.outcome(),
        game.outcome(),
        "round trip changes the outcome: {}",
        ctx()
    );
    assert_eq!(
        back.actions_here(),
        game.actions_here(),
        "round trip changes the legal actions: {}",
        ctx()
    );

    assert_eq!(
        game.game_type().players,
        game.num_players(),
        "the declared players differ from `num_players`: {}",
        ctx()
    );
    // Perft's last ply counts without listing where a game can: the count
    // must be the list's length.
    assert_eq!(
        game.count_steps(&mut Vec::new(), &mut Vec::new()),
        game.actions_here().len() as u64,
        "count_steps differs from the legal actions: {}",
        ctx()
    );
    match game.turn() {
        Turn::Over => {
            assert!(game.outcome().is_some(), "over without outcome: {}", ctx());
        }
        Turn::Chance => {
            let mut outs = Vec::new();
            game.chance_outcomes(&mut outs);
            assert!(!outs.is_empty(), "chance node without outcomes: {}", ctx());
            let sum: f64 = outs.iter().map(|o| o.1).sum();
            assert!(
                (sum - 1.0).abs() < 1e-9,
                "chance probabilities sum to {sum}: {}",
                ctx()
            );
            assert!(
                outs.iter().all(|o| o.1 > 0.0),
                "zero-probability outcome: {}",
                ctx()
            );
            check_actions(
                game,
                &outs.iter().map(|o| o.0).collect::<Vec<_>>(),
                rng,
                ctx,
            );
        }
        Turn::Player(p) => {
            assert!(
                p.index() < game.num_players(),
                "bad player index: {}",
                ctx()
            );
            assert!(
                game.outcome().is_none(),
                "outcome before the end: {}",
                ctx()
            );
            let mut acts = Vec::new();
            game.legal_actions(&mut acts);
            assert!(
                !acts.is_empty(),
                "a player to move has no action: {}",
                ctx()
            );
            check_actions(game, &acts, rng, ctx);
        }
    }

    // Garbled text is rejected and changes nothing.
    for junk in GARBAGE {
        let before = game.clone();
        assert!(
            game.parse_action(junk).is_err(),
            "accepted garbage `{junk}`: {}",
            ctx()
        );
        assert_eq!(before.position(), game.position());
    }
}

fn check_actions<G: Game>(
    game: &G,
    acts: &[G::Action],
    rng: &mut impl Rng,
    ctx: &dyn Fn() -> String,
) {
    let texts: Vec<String> = acts.iter().map(|&a| game.action_text(a)).collect();
    let unique: HashSet<&String> = texts.iter().collect();
    assert_eq!(
        unique.len(),
        texts.len(),
        "duplicate action texts {texts:?}: {}",
        ctx()
    );
    let space = game.action_key_space();
    for (&a, t) in acts.iter().zip(&texts) {
        assert_eq!(
            game.parse_action(t).ok(),
            Some(a),
            "action text `{t}` does not parse back: {}",
            ctx()
        );
        assert!(
            game.action_key(a) < space,
            "action key out of range for `{t}`: {}",
            ctx()
        );
        // Text legal elsewhere but mangled here must not be accepted as a different action.
        let mangled = format!("{t}#?");
        if let Ok(b) = game.parse_action(&mangled) {
            assert!(
                acts.contains(&b),
                "mangled `{mangled}` parsed to an illegal action: {}",
                ctx()
            );
        }
    }
    // Applying to a clone leaves the original untouched; every action applies.
    let before_pos = game.position();
    let before_hash = game.hash();
    let sample: Vec<usize> = if acts.len() <= 24 {
        (0..acts.len()).collect()
    } else {
        (0..24).map(|_| rng.gen_range(0..acts.len())).collect()
    };
    let mover = match game.turn() {
        Turn::Player(p) => Some(p),
        _ => None,
    };
    for i in sample {
        let mut child = game.clone();
        child.apply(acts[i]);
        // A mating action wins at once for the mover.
        if let Some(p) = mover {
            if game.action_facts(acts[i]).mate {
                assert_eq!(
                    child.outcome(),
                    Some(Outcome::Win(p)),
                    "`{}` is declared mate but does not win: {}",
                    texts[i],
                    ctx()
                );
            }
        }
        let _ = child.position();
        let _ = child.turn();
        assert_eq!(
            game.position(),
            before_pos,
            "applying to a clone changed the original: {}",
            ctx()
        );
        assert_eq!(
            game.hash(),
            before_hash,
            "applying to a clone changed the hash: {}",
            ctx()
        );
        // The child's incremental hash equals a fresh computation from its text.
        let fresh = G::from_position(child.options(), &child.position()).unwrap_or_else(|e| {
            panic!(
                "child position does not read back ({e}) after `{}`: {}",
                texts[i],
                ctx()
            )
        });
        assert_eq!(
            fresh.hash(),
            child.hash(),
            "incremental hash differs after `{}`: {}",
            texts[i],
            ctx()
        );
        // Actions legal one ply later are illegal here unless listed here.
        for b in child.actions_here() {
            let t = child.action_text(b);
            if let Ok(parsed) = game.parse_action(&t) {
                assert!(
                    acts.contains(&parsed),
                    "`{t}` (legal later) parsed to an illegal action: {}",
                    ctx()
                );
            }
        }
    }
}

/// Over random games from `starts`, every player action's `capture` fact
/// agrees with the notation's capture mark and with a drop in `material`
/// (a count read from the position string); in a game without check no
/// action claims check or mate. Returns the captures seen, so a test can
/// demand enough of them to mean something.
pub fn check_capture_facts<G: Game>(
    starts: &[G],
    games: usize,
    seed: u64,
    mark: char,
    material: impl Fn(&str) -> usize,
    has_check: bool,
) -> usize {
    let mut captures = 0;
    visit_random_play(starts, games, seed, |before, a, after| {
        let f = before.action_facts(a);
        let text = before.action_text(a);
        assert!(has_check || (!f.check && !f.mate), "{text}: {f:?}");
        assert_eq!(f.capture, text.contains(mark), "{text}");
        assert_eq!(
            f.capture,
            material(&after.position()) < material(&before.position()),
            "{text} in {}",
            before.position()
        );
        captures += usize::from(f.capture);
    });
    captures
}

/// Play `games` seeded random games from each start and show `visit` every
/// player action with the position before it and the one after: for tests
/// of per-action claims such as [`crate::ActionFacts`].
pub fn visit_random_play<G: Game>(
    starts: &[G],
    games: usize,
    seed: u64,
    mut visit: impl FnMut(&G, G::Action, &G),
) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut outs = Vec::new();
    for start in starts {
        for _ in 0..games {
            let mut game = start.clone();
            let bound = game.max_game_actions();
            for _ in 0..bound {
                match game.turn() {
                    Turn::Over => break,
                    Turn::Chance => {
                        game.chance_outcomes(&mut outs);
                        let a = sample_chance::<G, _>(&outs, &mut rng);
                        game.apply(a);
                    }
                    Turn::Player(_) => {
                        let acts = game.actions_here();
                        let a = acts[rng.gen_range(0..acts.len())];
                        let before = game.clone();
                        game.apply(a);
                        visit(&before, a, &game);
                    }
                }
            }
        }
    }
}
