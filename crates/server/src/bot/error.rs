//! Why the bot service refused: each refusal changes nothing, and
//! `crate::error` alone says how the API answers it.

use crate::lobby::LobbyError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("not signed in")]
    NotSignedIn,
    /// A bot in the people's lobby.
    #[error("{}", super::USE_THE_BOT_API)]
    UseTheBotApi,
    #[error("this challenge has started")]
    Started,
    #[error("this challenge is for another player")]
    NotForYou,
    #[error(transparent)]
    Lobby(#[from] LobbyError),
    #[error(transparent)]
    Store(#[from] StoreError),
}
