//! The games Tabula plays. A new game plugs in here with one line.

use tabula_ai::{AgentKind, AnyAgent};
use tabula_core::{AnyGame, Error, GameEntry, Registry};

/// Every game, in menu order.
pub fn registry() -> Registry {
    Registry::new(vec![
        // GAMES: one `GameEntry::of::<Type>(TITLE, DESCRIPTION)` line per game crate.
        GameEntry::of::<dragonchess::Dragonchess>(dragonchess::TITLE, dragonchess::DESCRIPTION),
        GameEntry::of::<gildervaik::Gildervaik>(gildervaik::TITLE, gildervaik::DESCRIPTION),
        GameEntry::of::<phylde::Phylde>(phylde::TITLE, phylde::DESCRIPTION),
        GameEntry::of::<stelpur::Stelpur>(stelpur::TITLE, stelpur::DESCRIPTION),
    ])
}

/// The rating pool of the game `spec` names, e.g. `gildervaik(mode=warrior)`
/// or `phylde/correspondence` (see `Registry::pool_of`); the list is in
/// `docs/ratings.md`.
pub fn pool_of(spec: &str, correspondence: bool) -> Result<String, Error> {
    registry().pool_of(spec, correspondence)
}

/// Builds an agent when the game is of its type (see `tabula_ai::agent_for`).
type AgentMaker = fn(&dyn AnyGame, AgentKind, u64) -> Option<Result<Box<dyn AnyAgent>, Error>>;

/// The AI of every game, one line per game, next to the registry above.
const AGENTS: &[AgentMaker] = &[
    // AGENTS: one `tabula_ai::agent_for::<Type>` line per game crate.
    tabula_ai::agent_for::<dragonchess::Dragonchess>,
    tabula_ai::agent_for::<gildervaik::Gildervaik>,
    tabula_ai::agent_for::<phylde::Phylde>,
    tabula_ai::agent_for::<stelpur::Stelpur>,
];

/// An AI player by name (`random`, `mcts`, `level5`, ... see
/// `tabula_ai::AgentKind`) for the game `game` is an instance of.
pub fn agent(game: &dyn AnyGame, name: &str, seed: u64) -> Result<Box<dyn AnyAgent>, Error> {
    make_agent(game, name.parse::<AgentKind>()?, seed)
}

/// The AI player `kind` (an `AgentKind` or an `AiLevel`) for the game
/// `game` is an instance of.
pub fn make_agent(
    game: &dyn AnyGame,
    kind: impl Into<AgentKind>,
    seed: u64,
) -> Result<Box<dyn AnyAgent>, Error> {
    let kind = kind.into();
    AGENTS
        .iter()
        .find_map(|make| make(game, kind, seed))
        .unwrap_or_else(|| Err(Error::spec(format!("no AI player for `{}`", game.name()))))
}

/// One search of the analysis (`tabula_ai::analysis`): a fresh strongest
/// agent at the analysis budget of the game's kind, so that a position's
/// verdict depends on the position alone (and on its history, for the
/// games whose draws count it).
pub fn analysis_search(game: &dyn AnyGame) -> Result<tabula_ai::Choice, Error> {
    let limits = tabula_ai::analysis::limits(game.game_type());
    make_agent(game, tabula_ai::AiLevel::STRONGEST, ANALYSIS_SEED)?.choose(game, &limits)
}

/// The seed of the analysis searches (MCTS's playouts): fixed, so the same
/// game always gets the same analysis.
const ANALYSIS_SEED: u64 = 41;

/// The engine's verdict on `game`'s position, by [`analysis_search`].
pub fn analyse_position(game: &dyn AnyGame) -> Result<tabula_ai::analysis::Verdict, Error> {
    tabula_ai::analysis::verdict(game, &mut analysis_search)
}
