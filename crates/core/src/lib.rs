//! Tabula's core: the one [`Game`] trait, generic tools over any game (perft,
//! random playouts, the conformance harness), game records, spec strings and
//! the type-erased layer used by the CLI and the server.
//!
//! Nothing here knows any particular game.

pub mod conformance;
pub mod erased;
pub mod error;
pub mod game;
pub mod notation;
pub mod options;
pub mod perft;
pub mod perft_data;
pub mod playout;
pub mod record;
pub mod registry;
pub mod zobrist;

pub use erased::{AnyGame, Erased, Played};
pub use error::{Error, ErrorKind, Reason};
pub use game::{ActionFacts, Evaluate, Game, GameType, Outcome, Player, PlayerSet, Turn};
pub use options::{OptionDef, OptionKind, OptionValues, RawSpec};
pub use perft::{
    divide, divide_hashed, divide_parallel, perft, perft_hashed, perft_parallel, PerftTable,
};
pub use playout::{pick_chance, pick_uniform, random_playout, sample_chance, PlayoutStats};
pub use record::{EndReason, Ending, Record, Replayed};
pub use registry::{GameEntry, Registry};
