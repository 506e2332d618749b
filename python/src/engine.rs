//! One game in progress behind an object-safe trait that speaks integer
//! action ids: the Python classes hold a `Box<dyn Engine>`.
//!
//! An action id is the index of the action in the state's list of legal
//! actions (or chance outcomes) in the engine's generation order, the order
//! `tabula` prints them in. The list is computed once per position, so a
//! Python loop of `legal_actions()` and `apply_action()` generates once.

use crate::observe::Observe;
use tabula_core::{AnyGame, Erased, Error, Game, Player, Turn};

/// A game in progress, whatever the game, addressed by action ids.
pub trait Engine: Send + Sync {
    /// The erased game, for the AI and everything text-based.
    fn any(&self) -> &dyn AnyGame;
    /// Number of legal actions (chance outcomes at a chance node).
    fn num_legal(&self) -> usize;
    /// Probabilities of the chance outcomes, by id (empty unless chance).
    fn chance_probabilities(&self) -> &[f64];
    /// The notation of action `id`, if it is legal here.
    fn action_text(&self, id: usize) -> Option<String>;
    /// The id of an action given in notation (any spelling the game reads).
    fn action_id(&self, text: &str) -> Result<usize, Error>;
    /// The game's compact integer of each legal action, by id: the same
    /// action has the same key in every position (distinct actions may
    /// share one), below [`Engine::key_space`].
    fn action_keys(&self) -> Vec<usize>;
    fn key_space(&self) -> usize;
    /// Play action `id`; on an id out of range nothing changes.
    fn apply(&mut self, id: usize) -> Result<(), Error>;
    /// Replace the position by one read from text; on error nothing changes.
    fn set_position(&mut self, text: &str) -> Result<(), Error>;
    /// Shape of the observation tensor (the same for every state of a game).
    fn observation_shape(&self) -> Vec<usize>;
    /// The observation tensor of `observer`, flattened in C order.
    fn observation(&self, observer: Player) -> Vec<f32>;
    fn clone_box(&self) -> Box<dyn Engine>;
}

/// A concrete game with its current action list.
#[derive(Clone)]
struct Typed<G: Game> {
    game: Erased<G>,
    actions: Vec<G::Action>,
    probabilities: Vec<f64>,
}

impl<G: Game + Observe> Typed<G> {
    fn new(game: Erased<G>) -> Self {
        let mut typed = Typed {
            game,
            actions: Vec::new(),
            probabilities: Vec::new(),
        };
        typed.refresh();
        typed
    }

    /// Recompute the action list after the position changed.
    fn refresh(&mut self) {
        let state = &self.game.state;
        self.probabilities.clear();
        match state.turn() {
            Turn::Player(_) => state.legal_actions(&mut self.actions),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                state.chance_outcomes(&mut outcomes);
                self.actions = outcomes.iter().map(|&(a, _)| a).collect();
                self.probabilities = outcomes.iter().map(|&(_, p)| p).collect();
            }
            Turn::Over => self.actions.clear(),
        }
    }
}

impl<G: Game + Observe> Engine for Typed<G> {
    fn any(&self) -> &dyn AnyGame {
        &self.game
    }
    fn num_legal(&self) -> usize {
        self.actions.len()
    }
    fn chance_probabilities(&self) -> &[f64] {
        &self.probabilities
    }
    fn action_text(&self, id: usize) -> Option<String> {
        let action = *self.actions.get(id)?;
        Some(self.game.state.action_text(action))
    }
    fn action_id(&self, text: &str) -> Result<usize, Error> {
        let action = self.game.state.parse_action(text)?;
        self.actions
            .iter()
            .position(|&a| a == action)
            .ok_or_else(|| Error::illegal(format!("`{text}` is not legal here")))
    }
    fn action_keys(&self) -> Vec<usize> {
        let state = &self.game.state;
        self.actions.iter().map(|&a| state.action_key(a)).collect()
    }
    fn key_space(&self) -> usize {
        self.game.state.action_key_space()
    }
    fn apply(&mut self, id: usize) -> Result<(), Error> {
        let action = *self.actions.get(id).ok_or_else(|| {
            Error::illegal(format!(
                "action id {id} is not legal here (legal ids: 0..{})",
                self.actions.len()
            ))
        })?;
        self.game.state.apply(action);
        self.refresh();
        Ok(())
    }
    fn set_position(&mut self, text: &str) -> Result<(), Error> {
        self.game.set_position(text)?;
        self.refresh();
        Ok(())
    }
    fn observation_shape(&self) -> Vec<usize> {
        self.game.state.observation_shape().to_vec()
    }
    fn observation(&self, observer: Player) -> Vec<f32> {
        let len = self.game.state.observation_shape().iter().product();
        let mut out = vec![0.0; len];
        self.game.state.observe(observer, &mut out);
        out
    }
    fn clone_box(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// Wraps the game `game` is an instance of, if it is of type `G`.
fn typed<G: Game + Observe>(game: &dyn AnyGame) -> Option<Box<dyn Engine>> {
    let erased = game.as_any().downcast_ref::<Erased<G>>()?;
    Some(Box::new(Typed::new(erased.clone())))
}

/// Wraps a game when it is of the wrapper's type.
type Wrapper = fn(&dyn AnyGame) -> Option<Box<dyn Engine>>;

/// Every game of `tabula_games::registry`, one line per game.
const WRAPPERS: &[Wrapper] = &[
    typed::<dragonchess::Dragonchess>,
    typed::<gildervaik::Gildervaik>,
    typed::<phylde::Phylde>,
    typed::<stelpur::Stelpur>,
];

/// A new engine for a spec string, at the start or from a position string.
pub fn create(spec: &str, position: Option<&str>) -> Result<Box<dyn Engine>, Error> {
    let game = tabula_games::registry().create(spec, position)?;
    WRAPPERS
        .iter()
        .find_map(|wrap| wrap(game.as_ref()))
        .ok_or_else(|| Error::spec(format!("`{}` has no Python binding", game.name())))
}
