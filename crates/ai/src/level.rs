//! Levels 1-8: an agent and a budget each, chosen by the kind of game
//! (alpha-beta for two players without dice, expectimax with dice, MCTS
//! for more players), with deliberate blunders at the bottom so that a
//! beginner can win.
//!
//! With dice, luck flattens what thinking time buys (measured in Ad Elta
//! Stelpur: 20 times the time scores 52 % against itself, one-ply greedy
//! already 95 % against random), so there the levels are set apart by
//! their blunder rate instead, spread over the whole range from nearly
//! random play to none (each step measured at 0.60 or more; see
//! `docs/benchmarks.md`).

use crate::agent::{Agent, Decision};
use crate::budget::{Budget, Limits};
use crate::greedy::GreedyAgent;
use crate::mcts::{MctsAgent, MctsConfig};
use crate::names::AiLevel;
use crate::search::{SearchAgent, SearchConfig};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;
use tabula_core::{Error, Evaluate, GameType};

/// The numbered levels (`AiLevel::Level1` to `Level8`).
const LEVELS: usize = 8;

/// What one level plays with.
struct LevelDef {
    /// Search (the game's strongest agent) rather than one-ply greedy.
    search: bool,
    /// Thinking time per action.
    millis: u64,
    /// Share of actions replaced by a random other action.
    blunder: f32,
    /// The same in games with dice.
    dice_blunder: f32,
}

const TABLE: [LevelDef; LEVELS] = [
    LevelDef {
        search: false,
        millis: 10,
        blunder: 0.35,
        dice_blunder: 0.86,
    },
    LevelDef {
        search: false,
        millis: 10,
        blunder: 0.10,
        dice_blunder: 0.77,
    },
    LevelDef {
        search: true,
        millis: 20,
        blunder: 0.05,
        dice_blunder: 0.66,
    },
    LevelDef {
        search: true,
        millis: 60,
        blunder: 0.0,
        dice_blunder: 0.54,
    },
    LevelDef {
        search: true,
        millis: 150,
        blunder: 0.0,
        dice_blunder: 0.42,
    },
    LevelDef {
        search: true,
        millis: 400,
        blunder: 0.0,
        dice_blunder: 0.30,
    },
    LevelDef {
        search: true,
        millis: 1000,
        blunder: 0.0,
        dice_blunder: 0.16,
    },
    LevelDef {
        search: true,
        millis: 1900,
        blunder: 0.0,
        dice_blunder: 0.0,
    },
];

pub struct LevelAgent<G: Evaluate> {
    name: String,
    def: &'static LevelDef,
    seed: u64,
    rng: SmallRng,
    /// Built on the first decision, from the game's declared type: the
    /// agent and the blunder rate.
    inner: Option<(Box<dyn Agent<G>>, f32)>,
    /// Search with the game's previous evaluation (`classic`).
    previous_evaluation: bool,
}

impl<G: Evaluate> LevelAgent<G> {
    /// A numbered level; `None` for `AiLevel::Random`, which is no search.
    pub fn new(level: AiLevel, seed: u64) -> Option<Self> {
        let def = TABLE.get(usize::from(level.number()?) - 1)?;
        Some(LevelAgent {
            name: level.name().to_string(),
            def,
            seed,
            rng: SmallRng::seed_from_u64(seed ^ 0xb1_0d),
            inner: None,
            previous_evaluation: false,
        })
    }

    /// Level 8 searching with the game's previous evaluation
    /// (`Evaluate::evaluate_previous`): the `classic` agent, kept to
    /// measure a new evaluation against.
    pub fn classic(seed: u64) -> Self {
        let mut agent = LevelAgent::new(AiLevel::Level8, seed)
            .unwrap_or_else(|| unreachable!("level 8 is a numbered level"));
        agent.name = "classic".to_string();
        agent.previous_evaluation = true;
        agent
    }
}

/// The strongest agent for this kind of game; its searches score leaves
/// with the game's previous evaluation if `previous_evaluation`.
pub fn strongest<G: Evaluate>(
    ty: GameType,
    limits: Limits,
    seed: u64,
    previous_evaluation: bool,
) -> Box<dyn Agent<G>> {
    let (name, cfg) = match (ty.players, ty.chance) {
        (2, false) => ("alphabeta", SearchConfig::alphabeta()),
        (2, true) => ("expectimax", SearchConfig::expectimax()),
        _ => return Box::new(MctsAgent::new("mcts", MctsConfig::mcts(), limits, seed)),
    };
    let cfg = SearchConfig {
        previous_evaluation,
        ..cfg
    };
    Box::new(SearchAgent::new(name, cfg, limits))
}

impl<G: Evaluate> Agent<G> for LevelAgent<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn default_limits(&self) -> Limits {
        Limits::time(Duration::from_millis(self.def.millis))
    }

    fn decide(&mut self, state: &G, budget: &Budget) -> Result<Decision<G>, Error> {
        let def = self.def;
        let seed = self.seed;
        let previous = self.previous_evaluation;
        let (inner, blunder) = self.inner.get_or_insert_with(|| {
            let ty = state.game_type();
            let agent: Box<dyn Agent<G>> = if def.search {
                strongest(ty, Limits::default(), seed, previous)
            } else {
                Box::new(GreedyAgent::new(seed))
            };
            let blunder = if ty.chance {
                def.dice_blunder
            } else {
                def.blunder
            };
            (agent, blunder)
        });
        let mut d = inner.decide(state, budget)?;
        if *blunder > 0.0 && self.rng.gen::<f32>() < *blunder {
            let others: Vec<_> = state
                .actions_here()
                .into_iter()
                .filter(|&a| a != d.action)
                .collect();
            if !others.is_empty() {
                let a = others[self.rng.gen_range(0..others.len())];
                let value = d.ranked.iter().find(|r| r.0 == a).map_or(d.value, |r| r.1);
                d.action = a;
                d.value = value;
                d.pv = vec![a];
                d.seats = None;
            }
        }
        Ok(d)
    }
}
