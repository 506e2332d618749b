//! The wire protocol: every request and answer of the JSON API and every
//! WebSocket message, as typed structs. `docs/api.md` shows an example of
//! each, and a test parses those examples into these types, so the docs
//! and the code cannot drift apart.
//!
//! Field names are part of the public API (the web client and outside
//! scripts rely on them): rename nothing here without a new API version.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tabula_ai::AiLevel;
use tabula_clock::TimeControl;
use tabula_core::{EndReason, GameType};

// ---------------------------------------------------------------- shared

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    #[default]
    Human,
    Ai,
}

/// The two chat rooms of a game.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// Written by the players, read by everyone.
    Players,
    /// Written by spectators; the players see it once the game is over.
    Spectators,
}

/// One line of a game's chat.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ChatLine {
    pub room: Room,
    /// Milliseconds since 1970.
    pub at: i64,
    pub name: String,
    /// The author's account, if signed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    pub text: String,
}

// ---------------------------------------------------------------- requests

/// A seat as asked for when creating a game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    #[serde(rename = "type")]
    pub kind: SeatKind,
    /// The AI level of an AI seat (`random`, `level1`..`level8`); level 3
    /// when missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<AiLevel>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A seat for a friend, joined when the invite link is opened (the
    /// creator's own seats are joined at once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invite: bool,
}

impl SeatRequest {
    pub fn human() -> Self {
        SeatRequest {
            kind: SeatKind::Human,
            level: None,
            name: None,
            invite: false,
        }
    }
}

/// `POST /api/games`: a spec string, optionally a start position, the seats.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub spec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// One per seat; empty = every seat human.
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
    /// Seeds the dice (and the AI), for reproducible games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The players agree to play with hints ("casual with help"); games
    /// with an AI seat always allow them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// A time control: `{"initial_s": 300, "increment_s": 3}` (real time)
    /// or `{"days": 2}` (correspondence); none by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// Refused here (400): rated games start from the lobby, where every
    /// seat is a signed-in player.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

impl NewGame {
    /// A game of `spec` with every seat human, nothing else asked.
    pub fn new(spec: &str) -> NewGame {
        NewGame {
            spec: spec.to_string(),
            position: None,
            seats: Vec::new(),
            seed: None,
            hints: false,
            clock: None,
            rated: false,
        }
    }
}

/// `POST /api/games/import`: a record file and the seats to go on with.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ImportGame {
    pub record: String,
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
}

/// `POST /api/games/{id}/move`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MoveRequest {
    #[serde(default)]
    pub token: String,
    pub action: String,
    /// The ply the mover saw; a move on a board that has changed since is
    /// refused (409) rather than played on a position nobody looked at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
}

/// `POST /api/games/{id}/join`: claim a seat by its token.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct JoinRequest {
    #[serde(default)]
    pub token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `POST /api/games/{id}/draw`: offer or accept (`accept` true, the
/// default), or decline (`false`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DrawRequest {
    #[serde(default)]
    pub token: String,
    #[serde(default = "yes")]
    pub accept: bool,
}

fn yes() -> bool {
    true
}

/// `POST /api/games/{id}/claim`: the other player abandoned the game;
/// claim the win (or a draw).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct ClaimRequest {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub token: String,
    #[serde(default)]
    pub draw: bool,
}

/// The body of the verbs that need only the seat's token: `undo`,
/// `resign`, `leave`, `rematch`, `hint`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct TokenRequest {
    #[serde(default)]
    pub token: String,
}

// ----------------------------------------------------------------- answers

/// `{"error": "...", "code": "..."}`: every 4xx and 5xx answer of the API.
/// `error` is one English line for people and scripts; `code` names the
/// refusal for programs (the web app shows its own translated words for it),
/// and `vars` holds the values those words name (`side`, `seat`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ErrorBody {
    pub error: String,
    #[serde(default)]
    pub code: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub vars: BTreeMap<String, String>,
}

/// A seat's secret, given once to the creator.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeatToken {
    pub seat: u8,
    pub token: String,
}

/// Answer to creating or importing a game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Created {
    pub id: String,
    /// The human seats' tokens (AI seats have none).
    pub tokens: Vec<SeatToken>,
}

/// Answer to `move` and `undo`: the ply after the change.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct PlyAnswer {
    pub ply: usize,
}

/// Answer to `join`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeatAnswer {
    pub seat: u8,
    /// The seat's new token when an invite was claimed: the invite's own
    /// token no longer works.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// `POST /api/games/{id}/chat`: a line for the players' chat (from a
/// player) or the spectators' chat (from anyone else).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub token: String,
    pub room: Room,
    pub text: String,
}

/// Answer to `rematch`: the new game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameId {
    pub id: String,
}

/// Answer to `resign`, `draw` and `leave`: `{}`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Done {}

/// Answer to `hint`: the advised action and the ranking it came from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Hint {
    pub action: String,
    /// `[action, expected score of the mover]`, best first.
    pub ranked: Vec<(String, f32)>,
}

/// `GET /healthz`: the server and its database answer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Health {
    /// `ok`, or `unavailable` (with status 503) when the database fails.
    pub status: String,
    /// `sqlite` or `postgres`.
    pub store: String,
    /// Games stored.
    pub games: u64,
    /// Games in this instance's memory now.
    pub live: usize,
    /// Why the status is `unavailable`: the database does not answer, or
    /// its writes fail (a full disk, say) and have not succeeded since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `GET /api/metrics`: what this instance's AI workers and games are doing.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Metrics {
    /// Games in memory now.
    pub live_games: usize,
    /// Threads that think for AI seats and hints.
    pub ai_workers: usize,
    /// Jobs being computed now.
    pub ai_running: usize,
    /// AI seats' moves waiting for a worker.
    pub ai_queued_moves: usize,
    /// Hints waiting for a worker.
    pub ai_queued_hints: usize,
    /// Moves of games without a human seat waiting for a worker (they
    /// come last and never take every worker).
    pub ai_queued_demos: usize,
    /// Jobs done since the start.
    pub ai_done: u64,
    /// Time recent jobs waited for a worker (the last 256): median, 99th
    /// percentile, longest.
    pub ai_wait_p50_ms: u64,
    pub ai_wait_p99_ms: u64,
    pub ai_wait_max_ms: u64,
}

/// `GET /api/rules/{game}` and `GET /api/rules/{game}/reference`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RulesPage {
    /// `null` for the conventions every game shares.
    pub game: Option<String>,
    pub title: String,
    pub html: String,
}

/// `GET /api/catalog`: the games and what the UI needs to offer them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Catalog {
    pub games: Vec<CatalogGame>,
    /// AI levels, weakest first.
    pub levels: Vec<AiLevel>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CatalogGame {
    pub name: String,
    pub title: String,
    pub description: String,
    pub players: usize,
    /// The seats' names, in seat order.
    pub sides: Vec<String>,
    pub options: Vec<CatalogOption>,
    /// The start position string under the default options.
    pub start: String,
    /// Seats, dice, turns of several actions: as the game declares them.
    pub game_type: GameType,
}

/// One option of a game's spec string.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CatalogOption {
    pub key: String,
    /// The accepted values as people read them (`2..3`, `a|b`).
    pub values: String,
    pub default: String,
    pub help: String,
    /// The accepted values as data, so a client builds its controls
    /// without parsing `values`.
    pub kind: OptionKind,
}

/// The kinds of option values.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    /// An integer in range, or the word `none`.
    IntOrNone {
        min: i64,
        max: i64,
    },
    Choice {
        choices: Vec<String>,
    },
}

impl From<tabula_core::OptionKind> for OptionKind {
    fn from(kind: tabula_core::OptionKind) -> Self {
        use tabula_core::OptionKind as K;
        match kind {
            K::Bool => OptionKind::Bool,
            K::Int { min, max } => OptionKind::Int { min, max },
            K::IntOrNone { min, max } => OptionKind::IntOrNone { min, max },
            K::Choice(words) => OptionKind::Choice {
                choices: words.iter().map(|w| w.to_string()).collect(),
            },
        }
    }
}

/// A seat as everyone sees it (never its token).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PlayerInfo {
    pub seat: u8,
    /// The seat's name in the game (`Gold`, `A`, `South`).
    pub side: String,
    pub kind: SeatKind,
    pub level: Option<AiLevel>,
    /// Who plays it: the player's name, the side, or `AI levelN`.
    pub name: String,
    /// Someone holds the seat (always true for the AI).
    pub joined: bool,
    /// The account that plays it, for a link to its profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// A bot account plays it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// Whose turn it is.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TurnInfo {
    Player {
        seat: u8,
    },
    /// The dice are being rolled (the server rolls them at once).
    Chance,
    Over,
}

/// How a finished game ended.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ResultInfo {
    /// `win N` or `draw N,M` (1-based seats), as in records.
    pub text: String,
    pub draw: bool,
    /// The winner, or the seats sharing the draw (0-based).
    pub winners: Vec<u8>,
    pub reason: EndReason,
    /// A game over on the board: how, in the game's terms (`conquest`,
    /// `move_limit`…), when the game says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub how: Option<String>,
}

/// What changes move by move.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameState {
    pub ply: usize,
    pub position: String,
    pub turn: TurnInfo,
    /// The legal actions of the seat to move (empty otherwise).
    pub legal: Vec<String>,
    /// The legal actions whose text leaves out cells they pass through,
    /// with every cell of their path (see `HistoryEntry::route`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub routes: BTreeMap<String, Vec<String>>,
    pub result: Option<ResultInfo>,
    pub players: Vec<PlayerInfo>,
    /// Seats (0-based) that offer a draw now.
    pub draw_offer: Vec<u8>,
    /// An AI seat is computing its move.
    pub thinking: bool,
    /// The game that follows this one, once asked for.
    pub rematch: Option<String>,
    /// Hints may be asked for (games against the AI, or agreed).
    #[serde(default)]
    pub hints: bool,
    /// The clocks, in a game with a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockInfo>,
    /// Per seat: since when (ms) its player has had no live channel open,
    /// `null` while connected; for abandonment claims.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<Option<i64>>,
    /// A rated game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Once a rated game is over and rated: each seat's rating change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rating_diff: Vec<Option<i32>>,
    /// Imported from a record: it counts on no profile, rating or
    /// leaderboard.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
    /// An imported record's ending that no record can prove (on time, a
    /// player left, abandoned, aborted): shown as its claim, not a result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<ResultInfo>,
}

/// The clocks as the server counts them at `at` (ms since 1970): each
/// seat's time left (`null`: untimed, an AI), and the seat whose time is
/// going down. A client counts down from when it received this.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ClockInfo {
    pub control: TimeControl,
    pub remaining_ms: Vec<Option<u64>>,
    pub running: Option<u8>,
    pub at: i64,
    /// While a seat's first move is awaited: when the game is aborted
    /// without it (ms since 1970).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_by: Option<i64>,
}

/// One played action, with what it did and the position after it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct HistoryEntry {
    /// The seat that acted; `null` for a roll of the dice.
    pub actor: Option<u8>,
    pub text: String,
    pub pos: String,
    /// It took a piece (or pieces).
    #[serde(default)]
    pub capture: bool,
    /// It leaves an opponent in check (Dragonchess).
    #[serde(default)]
    pub check: bool,
    /// It ends the game by mate or its game's equivalent.
    #[serde(default)]
    pub mate: bool,
    /// Every cell it passed through, when `text` names only some (a
    /// Gildervaik chain jump, written by its ends): for drawing its path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub route: Vec<String>,
}

/// `GET /api/games/{id}` and the first message of the live channel
/// (`type: snapshot`, `from: 0`, the whole history), and every later
/// change (`type: update`, the history from ply `from` on). A client
/// appends `history` at `from`, dropping what it held from there on (a
/// take-back shortens the history).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameView {
    pub id: String,
    pub game: String,
    pub title: String,
    pub spec: String,
    pub num_players: usize,
    /// The position before the first action.
    pub start: String,
    pub from: usize,
    pub history: Vec<HistoryEntry>,
    pub state: GameState,
    /// In a snapshot: the seats the asker plays (by session or token).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub you: Vec<u8>,
    /// In a snapshot: the chat the asker may read, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chat: Vec<ChatLine>,
}

/// A line of `GET /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub id: String,
    pub game: String,
    pub title: String,
    pub spec: String,
    /// Milliseconds since 1970.
    pub created: i64,
    pub ply: usize,
    pub over: bool,
    pub players: Vec<PlayerInfo>,
    /// `win N` / `draw N,M` once over.
    pub result: Option<String>,
    /// How it ended, once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<EndReason>,
    /// Seats whose player left (they rank last, whatever their stand-in
    /// did).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<u8>,
    /// Imported from a record: it counts nowhere.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
}

// ------------------------------------------------------------ live channel

/// A client's own id for a request on the live channel, echoed in the
/// answer: a number or a string.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum RequestId {
    Number(i64),
    Text(String),
}

/// What a client sends on `GET /api/games/{id}/ws`, with its own request
/// id `rid`, echoed in the answer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMessage {
    Move {
        #[serde(default)]
        token: String,
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
        #[serde(default)]
        rid: Option<RequestId>,
    },
    Ping {
        #[serde(default)]
        rid: Option<RequestId>,
    },
    /// A chat line (see `ChatRequest`), answered by `ack` (ply 0 unused:
    /// `ok`) or `error`.
    Chat {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        token: String,
        room: Room,
        text: String,
        #[serde(default)]
        rid: Option<RequestId>,
    },
}

/// What the server sends on the live channel.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    Snapshot(GameView),
    Update(GameView),
    /// A move of this client was played.
    Ack {
        rid: Option<RequestId>,
        ply: usize,
    },
    Pong {
        rid: Option<RequestId>,
    },
    /// A new chat line.
    Chat(ChatLine),
    /// A chat line of this client was posted.
    Posted {
        rid: Option<RequestId>,
    },
    /// The AI seat to move waits for a worker: `ahead` jobs (running, or
    /// queued before it) go first. Sent only when no worker is free.
    Queue {
        ahead: usize,
    },
    /// A request of this client was refused (nothing changed): the
    /// `error`, `code` and `vars` of the `ErrorBody` the same HTTP request
    /// would get, so a client translates it the same way.
    Error {
        #[serde(default)]
        rid: Option<RequestId>,
        #[serde(flatten)]
        refusal: ErrorBody,
        /// The HTTP status the same request would get.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
    },
}

impl ServerMessage {
    /// The message as JSON text (serialising these types cannot fail: no
    /// maps with non-string keys, no non-finite floats).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                r#"{{"type":"error","rid":null,"error":"cannot encode: {e}","code":"internal"}}"#
            )
        })
    }
}

// ------------------------------------------------------------ accounts

/// `POST /api/account` (sign up) and `POST /api/login` (sign in).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// `POST /api/account/password`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub old: String,
    pub new: String,
}

/// `DELETE /api/account`: the password confirms it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AccountDeletion {
    pub password: String,
}

/// `GET /api/me` (signed in), and the answer to signing up or in.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Me {
    pub username: String,
    /// Milliseconds since 1970.
    pub created: i64,
}

/// `POST /api/session`: this browser's session (a guest's, or signed in).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SessionInfo {
    /// `null` for a guest.
    pub username: Option<String>,
}

/// `GET /api/me/games`: the games of the asker (account or guest browser).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MyGames {
    /// Games where the asker is to move, the longest waiting first.
    pub your_turn: Vec<Summary>,
    /// Every game in progress, newest first.
    pub playing: Vec<Summary>,
}

/// Wins, draws and losses in one game kind.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Tally {
    pub win: u64,
    pub draw: u64,
    pub loss: u64,
}

/// `GET /api/players/{name}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Profile {
    pub username: String,
    /// A bot account (it plays through the bot API).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    pub created: i64,
    /// Per game name (`dragonchess`, …).
    pub record: std::collections::BTreeMap<String, Tally>,
    /// Per rating pool (`dragonchess`, `gildervaik(mode=warrior)/correspondence`).
    pub ratings: std::collections::BTreeMap<String, PoolRating>,
    pub playing: Vec<Summary>,
    /// The first page of finished games (`/api/players/{name}/games?page=N`
    /// for more).
    pub finished: Vec<Summary>,
}

/// `GET /api/players/{name}/games?page=N`: finished games, newest first.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GamePage {
    pub page: usize,
    pub games: Vec<Summary>,
    /// Whether a next page exists.
    pub more: bool,
}

// --------------------------------------------------------------- lobby

/// A seat of a seek, as asked for.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum SeekSeatRequest {
    /// The creator plays it.
    Me,
    /// For whoever accepts.
    Open,
    Ai {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<AiLevel>,
    },
}

/// `POST /api/seeks`: an open challenge, or a direct one (`to` a user
/// name, or `unlisted`: only those with the link see it).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NewSeek {
    pub spec: String,
    /// A time control, as for `NewGame`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// Rated: every seat a signed-in player (no AI seat, no hints, no
    /// take-backs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// One per seat, in seat order; default: the creator, then open seats.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<SeekSeatRequest>,
    /// Casual with hints.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// Only this user may accept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Not listed in the lobby: shared by link.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unlisted: bool,
}

/// A seek's seat as everyone sees it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeekSeat {
    /// `open`, `taken` (a player, the creator too) or `ai`.
    pub state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<AiLevel>,
    /// A bot account holds it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// A seek as listed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Seek {
    pub id: String,
    pub spec: String,
    pub title: String,
    /// The creator's name.
    pub creator: String,
    pub created: i64,
    pub seats: Vec<SeekSeat>,
    pub hints: bool,
    pub rated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// A direct challenge's addressee.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    pub unlisted: bool,
    /// The asker created it or holds one of its seats.
    pub mine: bool,
    /// The game, once every seat is filled.
    pub game: Option<String>,
}

/// Answer to `POST /api/seeks`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeekId {
    pub id: String,
}

/// Answer to `POST /api/seeks/{id}/accept`: the game once every seat is
/// filled, else `null` (the lobby channel says when it starts).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Accepted {
    pub game: Option<String>,
}

/// What the lobby channel (`GET /api/lobby/ws`) sends: the seeks the
/// asker may see, whenever they change.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LobbyMessage {
    Seeks { seeks: Vec<Seek> },
}

// -------------------------------------------------------------- ratings

/// A player's rating in one pool.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PoolRating {
    pub rating: i32,
    /// Rating deviation: how unsure the rating still is.
    pub rd: i32,
    pub games: u32,
    /// Shown as `1500?`: the deviation is still above 110.
    pub provisional: bool,
    /// `[ms since 1970, rating]` after each game, oldest first (the last 500).
    #[serde(default)]
    pub history: Vec<(i64, i32)>,
}

/// A line of `GET /api/leaderboard?pool=<pool>`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Leader {
    pub username: String,
    pub rating: i32,
    pub rd: i32,
    pub games: u32,
}

// ---------------------------------------------------------- tournaments

/// How a tournament pairs its players.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TournamentFormat {
    /// Two-player games, rounds paired by the Dutch Swiss system.
    Swiss,
    /// Two-player games, players paired again as soon as they are free.
    Arena,
    /// Three-player games (Gildervaik), rounds of tables of three.
    Tables,
}

/// Where a tournament is in its life.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    Upcoming,
    Running,
    Finished,
}

/// A start time: ms since 1970, or `"now"`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum StartTime {
    At(i64),
    Now(Now),
}

/// The word `now`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Now {
    Now,
}

/// `POST /api/tournaments`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    pub name: String,
    /// The game and its options (`gildervaik(mode=warrior)`).
    pub spec: String,
    pub format: TournamentFormat,
    /// A real-time control: `{"initial_s": 300, "increment_s": 3}`.
    pub clock: TimeControl,
    pub starts: StartTime,
    /// Swiss and tables: the number of rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Arena: its length in minutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Tables: `{"ai": {"level": 3}}` (one table filled with AI seats) or
    /// `"bye"` for the one or two players left over; default an AI of level 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leftover: Option<pairing::tables::Leftover>,
    /// Tables: points for first, second and third place (default 3, 1, 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<[u32; 3]>,
    /// Its games are rated (default); a table with AI seats never is.
    #[serde(default = "yes")]
    pub rated: bool,
    /// Bot accounts may enter, and their games with people are rated as
    /// every game of the tournament (default: bots are refused).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bots: bool,
}

/// Answer to `POST /api/tournaments`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentId {
    pub id: String,
}

/// A tournament as listed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentSummary {
    pub id: String,
    pub name: String,
    pub spec: String,
    pub title: String,
    pub format: TournamentFormat,
    pub clock: TimeControl,
    /// Start time (ms since 1970).
    pub starts: i64,
    /// Arena: when pairing stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends: Option<i64>,
    /// Swiss and tables: the rounds it will have (`rounds` when created).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_total: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    pub status: TournamentStatus,
    /// Players in it (withdrawn ones not counted).
    pub count: usize,
    /// Rounds (arena: waves of pairings) published so far.
    pub round: usize,
    /// The creator's name.
    pub creator: String,
    /// Its games are rated.
    #[serde(default)]
    pub rated: bool,
    /// Bot accounts may enter (and are rated against people).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bots: bool,
}

/// `GET /api/tournaments`: upcoming (soonest first), running, and the
/// latest finished (newest first).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentList {
    pub upcoming: Vec<TournamentSummary>,
    pub running: Vec<TournamentSummary>,
    pub finished: Vec<TournamentSummary>,
}

/// A seat of a tournament game: a player's name, or an AI's level.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentSeat {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<u8>,
}

/// A game of a round: seats in playing order, places once over (0 is
/// first; tied seats share a place).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentGame {
    pub id: String,
    pub seats: Vec<TournamentSeat>,
    pub places: Option<Vec<u8>>,
}

/// A round's pairings (published when it starts) and byes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentRound {
    pub number: u32,
    pub started: i64,
    pub games: Vec<TournamentGame>,
    pub byes: Vec<String>,
}

/// A line of the standings; `tiebreaks` in the order the tournament's
/// `tiebreaks` names them. Scores in points.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentStanding {
    pub rank: u32,
    pub name: String,
    /// The rating the player was seeded with (their rating in the
    /// tournament's pool when they joined).
    pub rating: i32,
    pub score: f64,
    pub tiebreaks: Vec<f64>,
    pub played: u32,
    pub withdrawn: bool,
}

/// `GET /api/tournaments/{id}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TournamentView {
    #[serde(flatten)]
    pub summary: TournamentSummary,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<[u32; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leftover: Option<pairing::tables::Leftover>,
    pub tiebreaks: Vec<pairing::TieBreak>,
    /// Names of everyone registered, in order of registration.
    pub players: Vec<String>,
    pub withdrawn: Vec<String>,
    pub rounds: Vec<TournamentRound>,
    pub standings: Vec<TournamentStanding>,
    /// The asker is in it (and not withdrawn).
    pub joined: bool,
    /// The asker's game in progress.
    pub my_game: Option<String>,
}

/// `POST /api/test/clock` body.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClockAdvance {
    /// Milliseconds to move the clock forward (1 to a year).
    pub advance_ms: i64,
}

/// Its answer: the server's time after the move (ms since 1970).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct ServerTime {
    pub now: i64,
}
