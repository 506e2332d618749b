//! Which searcher fits which kind of game, read from the game's declared
//! [`GameType`] (the AI never guesses it from play or from a name).

use tabula_core::{Error, GameType};

/// Whether the two-player searcher fits: alpha-beta (`deterministic`)
/// needs two players and no dice, expectimax two players.
pub(crate) fn require_two_player(
    ty: GameType,
    agent: &str,
    deterministic: bool,
) -> Result<(), Error> {
    if ty.players != 2 {
        return Err(Error::spec(format!(
            "agent `{agent}` needs a two-player game; this one has {} players (try `mcts`)",
            ty.players
        )));
    }
    if deterministic && ty.chance {
        return Err(Error::spec(format!(
            "agent `{agent}` needs a game without dice (try `expectimax` or `mcts`)"
        )));
    }
    Ok(())
}
