//! The type-erased layer: any game behind one object-safe trait, speaking
//! text (spec strings, position strings, action notation). The CLI and the
//! server use only this; hot loops stay monomorphised inside `Erased<G>`.

use crate::error::Error;
use crate::game::{ActionFacts, Game, GameType, Outcome, Player, Turn};
use crate::options::OptionValues;
use crate::perft::{self, PerftTable};
use crate::playout::{random_playout, PlayoutStats};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use std::any::Any;

/// One action just played, as [`AnyGame::play_text`] reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The canonical text of the action.
    pub text: String,
    /// What it did (all false for a chance outcome).
    pub facts: ActionFacts,
    /// The cells it passed through when its text names only some
    /// ([`Game::action_route`]); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub route: Vec<String>,
}

/// One game in progress, whatever the game.
pub trait AnyGame: Send + Sync {
    /// The game's name, e.g. `phylde`.
    fn name(&self) -> &'static str;
    /// The canonical spec string (name plus non-default options).
    fn spec(&self) -> &str;
    /// The game's declared facts under its options.
    fn game_type(&self) -> GameType;
    fn num_players(&self) -> usize;
    fn player_name(&self, p: Player) -> &'static str;
    fn turn(&self) -> Turn;
    fn outcome(&self) -> Option<Outcome>;
    /// See [`Game::in_play`].
    fn in_play(&self, p: Player) -> bool;
    /// Legal actions in notation (chance outcomes at a chance node).
    fn legal_actions(&self) -> Vec<String>;
    /// Chance outcomes with probabilities (empty unless a chance node).
    fn chance_outcomes(&self) -> Vec<(String, f64)>;
    /// See [`Game::end_reason`].
    fn end_reason(&self) -> Option<&'static str>;
    /// The legal actions whose text leaves out cells they pass through,
    /// each with its route ([`Game::action_route`]).
    fn legal_routes(&self) -> Vec<(String, Vec<String>)>;
    /// The legal actions that take a piece ([`ActionFacts::capture`]), so
    /// a client can point at a capture without knowing the rules.
    fn legal_captures(&self) -> Vec<String>;
    /// Check and play one action given as text; returns its canonical text
    /// and what it did (judged before it is played). On error nothing
    /// changes.
    fn play_text(&mut self, text: &str) -> Result<Played, Error>;
    /// [`AnyGame::play_text`] without the facts: the canonical text.
    fn apply_text(&mut self, text: &str) -> Result<String, Error> {
        self.play_text(text).map(|played| played.text)
    }
    /// Roll the dice: the chance outcome picked by one uniform draw from
    /// `rng` (see [`crate::pick_chance`]), in notation; `None` unless a
    /// chance node. Nothing is played.
    fn sample_chance(&self, rng: &mut dyn RngCore) -> Option<String>;
    fn position(&self) -> String;
    /// Replace the position by one read from text; on error nothing changes.
    fn set_position(&mut self, text: &str) -> Result<(), Error>;
    fn render(&self) -> String;
    fn hash(&self) -> u64;
    fn max_game_actions(&self) -> u64;
    fn perft(&self, depth: u32) -> u64;
    /// Perft per first action on `threads` threads (1: this one), with
    /// `table` if given (`perft::divide_hashed`); `progress(done, total)`
    /// now and then, on the calling thread.
    fn divide(
        &self,
        depth: u32,
        threads: usize,
        table: Option<&PerftTable>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<(String, u64)>;
    /// One seeded random playout from a copy of this position.
    fn random_playout(&self, seed: u64) -> PlayoutStats;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// For glue code that knows the concrete type (AI agents per game).
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A concrete game wrapped for the type-erased layer.
#[derive(Clone, Debug)]
pub struct Erased<G: Game> {
    pub state: G,
    spec: String,
}

impl<G: Game> Erased<G> {
    /// Build from validated option values, at the start or from `position`.
    pub fn create(values: &OptionValues, position: Option<&str>) -> Result<Self, Error> {
        let options = G::options_from(values)?;
        let state = match position {
            Some(p) => G::from_position(&options, p)?,
            None => G::new_game(&options)?,
        };
        Ok(Erased {
            state,
            spec: values.spec_string(G::NAME, G::option_defs()),
        })
    }

    pub fn new(state: G, spec: String) -> Self {
        Erased { state, spec }
    }
}

impl<G: Game> AnyGame for Erased<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn spec(&self) -> &str {
        &self.spec
    }
    fn game_type(&self) -> GameType {
        self.state.game_type()
    }
    fn num_players(&self) -> usize {
        self.state.num_players()
    }
    fn player_name(&self, p: Player) -> &'static str {
        self.state.player_name(p)
    }
    fn turn(&self) -> Turn {
        self.state.turn()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }
    fn in_play(&self, p: Player) -> bool {
        self.state.in_play(p)
    }
    fn legal_actions(&self) -> Vec<String> {
        self.state
            .actions_here()
            .into_iter()
            .map(|a| self.state.action_text(a))
            .collect()
    }
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        let mut outs = Vec::new();
        self.state.chance_outcomes(&mut outs);
        outs.into_iter()
            .map(|(a, p)| (self.state.action_text(a), p))
            .collect()
    }
    fn end_reason(&self) -> Option<&'static str> {
        self.state.end_reason()
    }
    fn legal_routes(&self) -> Vec<(String, Vec<String>)> {
        if !matches!(self.state.turn(), Turn::Player(_)) {
            return Vec::new();
        }
        self.state
            .actions_here()
            .into_iter()
            .filter_map(|a| {
                let route = self.state.action_route(a);
                (!route.is_empty()).then(|| (self.state.action_text(a), route))
            })
            .collect()
    }
    fn legal_captures(&self) -> Vec<String> {
        if !matches!(self.state.turn(), Turn::Player(_)) {
            return Vec::new();
        }
        self.state
            .actions_here()
            .into_iter()
            .filter(|&a| self.state.action_facts(a).capture)
            .map(|a| self.state.action_text(a))
            .collect()
    }
    fn play_text(&mut self, text: &str) -> Result<Played, Error> {
        let action = self.state.parse_action(text)?;
        let (facts, route) = match self.state.turn() {
            Turn::Player(_) => (
                self.state.action_facts(action),
                self.state.action_route(action),
            ),
            Turn::Chance | Turn::Over => (ActionFacts::default(), Vec::new()),
        };
        let text = self.state.action_text(action);
        self.state.apply(action);
        Ok(Played { text, facts, route })
    }
    fn sample_chance(&self, rng: &mut dyn RngCore) -> Option<String> {
        if self.state.turn() != Turn::Chance {
            return None;
        }
        self.state
            .pick_chance_at(rng.gen(), &mut Vec::new())
            .map(|a| self.state.action_text(a))
    }
    fn position(&self) -> String {
        self.state.position()
    }
    fn set_position(&mut self, text: &str) -> Result<(), Error> {
        self.state = G::from_position(self.state.options(), text)?;
        Ok(())
    }
    fn render(&self) -> String {
        self.state.render()
    }
    fn hash(&self) -> u64 {
        self.state.hash()
    }
    fn max_game_actions(&self) -> u64 {
        self.state.max_game_actions()
    }
    fn perft(&self, depth: u32) -> u64 {
        perft::perft(&self.state, depth)
    }
    fn divide(
        &self,
        depth: u32,
        threads: usize,
        table: Option<&PerftTable>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<(String, u64)> {
        perft::divide_with(&self.state, depth, threads, table, progress)
    }
    fn random_playout(&self, seed: u64) -> PlayoutStats {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut g = self.state.clone();
        let bound = g.max_game_actions();
        random_playout(&mut g, &mut rng, bound)
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
