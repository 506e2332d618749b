//! AI players for every Tabula game.
//!
//! Agents are written once, generic over [`Game`] + [`Evaluate`] and
//! monomorphised per game for speed; the CLI and the server see them only
//! through the type-erased [`AnyAgent`], which speaks action text.
//!
//! Values reported to callers ([`Choice::value`], [`Choice::ranked`]) are
//! always the *expected score of the player to move* in `[0, 1]` (1 = sure
//! win, 0 = sure loss, a two-player draw 0.5), whatever the agent, so hints
//! from different agents read the same way.

mod agent;
pub mod analysis;
mod budget;
mod class;
mod greedy;
mod level;
mod mcts;
mod names;
mod random;
mod search;
pub mod tune;
pub mod value;

pub use agent::{Agent, Decision};
pub use budget::{Budget, Limits};
pub use mcts::{MctsAgent, MctsConfig};
pub use names::{AgentKind, AiLevel};
pub use search::{LineCheck, SearchAgent, SearchConfig};

use std::marker::PhantomData;
use std::time::Duration;
use tabula_core::{AnyGame, Erased, Error, Evaluate, Game, Turn};

/// The answer of an agent, in the game's notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The chosen action, legal in the game it was asked about.
    pub action: String,
    /// Expected score of the player to move, in `[0, 1]`.
    pub value: f32,
    /// Principal line, starting with `action`.
    pub pv: Vec<String>,
    /// Nodes (or playouts, for MCTS) searched.
    pub nodes: u64,
    /// Deepest completed search iteration, when the agent deepens step by
    /// step (alpha-beta, expectimax; 1 for greedy).
    pub depth: Option<u32>,
    /// Best actions first, with their values (same scale as `value`).
    pub ranked: Vec<(String, f32)>,
    /// Leading entries of `ranked` whose values are the agent's estimates;
    /// after them (alpha-beta and expectimax beyond `Limits::multipv`)
    /// values are upper bounds: the action is no better, maybe worse.
    pub exact: usize,
    /// Expected score of every seat, in seat order (same scale as
    /// `value`): derived from `value` for two players, the search's own
    /// for more (MCTS on one thread); empty when unknown.
    pub values: Vec<f32>,
}

/// Any agent for any game, speaking text: what the CLI and the server use.
pub trait AnyAgent: Send {
    fn name(&self) -> &str;
    /// Pick an action for the player to move in `game`. Errors when the
    /// game is not the one the agent was built for, is over, or waits for
    /// a chance outcome.
    fn choose(&mut self, game: &dyn AnyGame, limits: &Limits) -> Result<Choice, Error>;
}

/// Most root actions a caller may ask to value exactly (`Limits::multipv`):
/// the CLI's `--multipv` and Python's `hint(multipv=)` check against it.
pub const MAX_MULTIPV: usize = 256;
/// Deepest iteration a tree search runs (`Limits::depth` above it changes nothing).
pub const MAX_DEPTH: u32 = 64;

/// Thinking time of the searching agents when the caller sets no limit.
const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// Build an agent by name (see [`AgentKind`]) for game type `G`; `seed`
/// fixes its randomness.
pub fn make_agent<G: Game + Evaluate>(name: &str, seed: u64) -> Result<Box<dyn AnyAgent>, Error> {
    Ok(agent_of::<G>(name.parse()?, seed))
}

/// Build the agent `kind` for game type `G`; `seed` fixes its randomness.
pub fn agent_of<G: Game + Evaluate>(kind: AgentKind, seed: u64) -> Box<dyn AnyAgent> {
    let timed = Limits::time(DEFAULT_TIME);
    let name = kind.name();
    match kind {
        AgentKind::Greedy => typed::<G, _>(greedy::GreedyAgent::new(seed)),
        AgentKind::AlphaBeta => typed::<G, _>(SearchAgent::<G>::new(
            name,
            SearchConfig::alphabeta(),
            timed,
        )),
        AgentKind::Expectimax => typed::<G, _>(SearchAgent::<G>::new(
            name,
            SearchConfig::expectimax(),
            timed,
        )),
        AgentKind::Uct => typed::<G, _>(MctsAgent::<G>::new(name, MctsConfig::uct(), timed, seed)),
        AgentKind::Mcts => {
            typed::<G, _>(MctsAgent::<G>::new(name, MctsConfig::mcts(), timed, seed))
        }
        AgentKind::Level(level) => match level::LevelAgent::<G>::new(level, seed) {
            Some(agent) => typed::<G, _>(agent),
            None => typed::<G, _>(random::RandomAgent::new(seed)),
        },
        AgentKind::Classic => typed::<G, _>(level::LevelAgent::<G>::classic(seed)),
    }
}

/// The per-game entry of the agent table in `tabula-games`: `None` when
/// `game` is not a `G`, otherwise the agent `kind`, or an error when it
/// cannot play this game (alpha-beta with dice or three players), judged
/// from the game's declared type.
pub fn agent_for<G: Game + Evaluate>(
    game: &dyn AnyGame,
    kind: AgentKind,
    seed: u64,
) -> Option<Result<Box<dyn AnyAgent>, Error>> {
    let state = &game.as_any().downcast_ref::<Erased<G>>()?.state;
    let fits = match kind {
        AgentKind::AlphaBeta => class::require_two_player(state.game_type(), kind.name(), true),
        AgentKind::Expectimax => class::require_two_player(state.game_type(), kind.name(), false),
        _ => Ok(()),
    };
    Some(fits.map(|()| agent_of::<G>(kind, seed)))
}

fn typed<G: Game, A: Agent<G> + 'static>(agent: A) -> Box<dyn AnyAgent> {
    Box::new(Typed {
        agent,
        game: PhantomData::<fn() -> G>,
    })
}

/// Adapts a generic [`Agent`] to the text-speaking [`AnyAgent`].
struct Typed<G, A> {
    agent: A,
    game: PhantomData<fn() -> G>,
}

impl<G: Game, A: Agent<G>> AnyAgent for Typed<G, A> {
    fn name(&self) -> &str {
        self.agent.name()
    }

    fn choose(&mut self, game: &dyn AnyGame, limits: &Limits) -> Result<Choice, Error> {
        let state = &game
            .as_any()
            .downcast_ref::<Erased<G>>()
            .ok_or_else(|| {
                Error::spec(format!(
                    "agent `{}` plays {}, not {}",
                    self.agent.name(),
                    G::NAME,
                    game.name()
                ))
            })?
            .state;
        match state.turn() {
            Turn::Player(_) => {}
            Turn::Chance => return Err(Error::illegal("no player to move: waiting for a roll")),
            Turn::Over => return Err(Error::illegal("the game is over")),
        }
        let budget = Budget::new(limits, &self.agent.default_limits());
        let d = self.agent.decide(state, &budget)?;
        Ok(d.to_choice(state))
    }
}
