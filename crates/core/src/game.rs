//! The one `Game` trait every Tabula game implements.
//!
//! Modelled on OpenSpiel's state API: a state knows whose turn it is (a player,
//! the chance player, or nobody once the game is over), lists its legal actions
//! or its chance outcomes, and moves on by `apply`. A turn made of several
//! actions is simply the same player being to move again.

use crate::error::Error;
use crate::options::{OptionDef, OptionValues};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::hash::Hash;

/// A seat at the table: 0-based index (`Player(0)` moves first by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(pub u8);

impl Player {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    Player(Player),
    /// Nature acts: pick one of `chance_outcomes` with its probability.
    Chance,
    Over,
}

/// A set of players as a bit mask (at most 8 players).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PlayerSet(pub u8);

impl PlayerSet {
    pub fn all(n: usize) -> Self {
        PlayerSet(((1u16 << n) - 1) as u8)
    }
    pub fn contains(self, p: Player) -> bool {
        self.0 & (1 << p.0) != 0
    }
    pub fn insert(&mut self, p: Player) {
        self.0 |= 1 << p.0;
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Player> {
        (0..8u8).filter(move |i| self.0 & (1 << i) != 0).map(Player)
    }
}

impl FromIterator<Player> for PlayerSet {
    fn from_iter<I: IntoIterator<Item = Player>>(players: I) -> Self {
        let mut set = PlayerSet::default();
        players.into_iter().for_each(|p| set.insert(p));
        set
    }
}

/// How a finished game ended. Every game result in Tabula is one winner (all
/// others lose) or a draw shared by some players (the others lose).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw(PlayerSet),
}

impl Outcome {
    /// Points of `p`: 1 for a win, 0 for a loss, a shared draw split evenly.
    /// The points of all players sum to 1, which makes them usable as returns.
    pub fn score(self, p: Player) -> f64 {
        match self {
            Outcome::Win(w) => f64::from(u8::from(w == p)),
            Outcome::Draw(set) if set.contains(p) => 1.0 / set.len() as f64,
            Outcome::Draw(_) => 0.0,
        }
    }

    /// Text form used in records: `win 2` or `draw 1,3` (1-based seats).
    pub fn to_text(self) -> String {
        match self {
            Outcome::Win(p) => format!("win {}", p.0 + 1),
            Outcome::Draw(set) => {
                let seats: Vec<String> = set.iter().map(|p| (p.0 + 1).to_string()).collect();
                format!("draw {}", seats.join(","))
            }
        }
    }

    pub fn parse(text: &str) -> Result<Outcome, Error> {
        let bad = || {
            Error::bad_record(format!(
                "bad result `{text}` (expected `win N` or `draw N,M`)"
            ))
        };
        let (kind, rest) = text.trim().split_once(' ').ok_or_else(bad)?;
        let seat = |s: &str| -> Result<Player, Error> {
            match s.trim().parse::<u8>() {
                Ok(n) if (1..=8).contains(&n) => Ok(Player(n - 1)),
                _ => Err(bad()),
            }
        };
        match kind {
            "win" => Ok(Outcome::Win(seat(rest)?)),
            "draw" => {
                let mut set = PlayerSet::default();
                for s in rest.split(',') {
                    set.insert(seat(s)?);
                }
                Ok(Outcome::Draw(set))
            }
            _ => Err(bad()),
        }
    }
}

/// Facts about a game that hold for every position under the same options,
/// declared by the game (as OpenSpiel's `GameType`) so that nobody has to
/// discover them by playing. The conformance harness checks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameType {
    /// Number of seats.
    pub players: usize,
    /// Whether chance nodes (dice) occur.
    pub chance: bool,
    /// Whether a player may act several times in a row within one turn
    /// (with no chance node in between), e.g. Phylde's up to five actions
    /// or the die-uses of one roll.
    pub multi_action_turns: bool,
}

/// What one player action does, for people: sounds, marks, highlights.
/// Exact from the rules (not guessed from the notation); all false for a
/// quiet move, and for chance outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActionFacts {
    /// It removes at least one enemy piece.
    pub capture: bool,
    /// It leaves an opponent in check (false in games without check).
    pub check: bool,
    /// It wins the game at once by checkmate, King capture or the game's
    /// equivalent (a Phylde surround).
    pub mate: bool,
}

/// The rules of one game. A value of the type is one position (state).
///
/// Implementations keep `clone` cheap: search and perft clone at every node.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// One decision of one player, or one chance outcome. Small and `Copy`.
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The rule variants of the spec, already validated.
    type Options: Clone + Debug + Default + PartialEq + Send + Sync + 'static;

    /// The name used in spec strings, e.g. `dragonchess`.
    const NAME: &'static str;

    /// The option keys, their values and defaults (spec string schema).
    fn option_defs() -> &'static [OptionDef];
    /// The options that make another game for rating purposes (a start
    /// layout, another mode, a rule set): games differing in one of these
    /// are rated in separate pools, and games differing only in the others
    /// (readings of an ambiguous rule, draw thresholds, who moves first)
    /// share one. Keys of [`Game::option_defs`]; none by default.
    const RATING_POOL_OPTIONS: &'static [&'static str] = &[];
    /// Build typed options from validated values (every key present).
    fn options_from(values: &OptionValues) -> Result<Self::Options, Error>;

    /// The start position under `options`.
    fn new_game(options: &Self::Options) -> Result<Self, Error>;
    /// Read a position string (format of the game's spec).
    fn from_position(options: &Self::Options, text: &str) -> Result<Self, Error>;
    /// Write the position string; `from_position` reads it back identically.
    fn position(&self) -> String;
    fn options(&self) -> &Self::Options;

    /// The declared facts of this game under this state's options (the same
    /// for every state with equal options). The default is the cautious
    /// declaration, for games that declare nothing: dice and several actions
    /// a turn are possible. Every real game overrides it, and the
    /// conformance harness fails a game that claims dice it never throws.
    fn game_type(&self) -> GameType {
        GameType {
            players: self.num_players(),
            chance: true,
            multi_action_turns: true,
        }
    }

    /// Number of seats (2 or 3).
    fn num_players(&self) -> usize;
    /// Display name of a seat, e.g. `Gold`, `A`, `South`.
    fn player_name(&self, p: Player) -> &'static str;
    /// Whose turn it is. A player to move always has at least one legal
    /// action (a forced pass is an action).
    fn turn(&self) -> Turn;

    /// Append the legal actions of the player to move to `out` (cleared first).
    /// Empty when the game is over or at a chance node.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);
    /// Append the chance outcomes with their probabilities (cleared first).
    /// Empty unless `turn()` is `Chance`; probabilities sum to 1.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>);
    /// The outcome [`crate::pick_chance`] gives for the uniform `x` among the
    /// chance outcomes (listed into `buf` if needed); `None` unless `turn()`
    /// is `Chance`. Games with fixed dice answer from a
    /// [`crate::playout::ChanceTable`]: the same outcome, faster.
    fn pick_chance_at(&self, x: f64, buf: &mut Vec<(Self::Action, f64)>) -> Option<Self::Action> {
        self.chance_outcomes(buf);
        crate::playout::pick_chance(buf, x)
    }
    /// [`Game::pick_chance_at`] for the draw whose random bits are `bits`
    /// (`rng.gen::<f64>()` is [`crate::playout::unit_from_bits`] of
    /// `rng.next_u64()`): the same outcome. Games with fixed dice answer
    /// from [`crate::playout::ChanceTable::pick_bits`], without floating point.
    fn pick_chance_bits(
        &self,
        bits: u64,
        buf: &mut Vec<(Self::Action, f64)>,
    ) -> Option<Self::Action> {
        self.pick_chance_at(crate::playout::unit_from_bits(bits), buf)
    }
    /// How many steps lead on from here: the legal actions of the player to
    /// move, the chance outcomes at a chance node, none once the game is
    /// over (perft's count at depth 1). The default lists them into the
    /// buffers; a game may count them without listing.
    fn count_steps(
        &self,
        actions: &mut Vec<Self::Action>,
        chances: &mut Vec<(Self::Action, f64)>,
    ) -> u64 {
        match self.turn() {
            Turn::Player(_) => {
                self.legal_actions(actions);
                actions.len() as u64
            }
            Turn::Chance => {
                self.chance_outcomes(chances);
                chances.len() as u64
            }
            Turn::Over => 0,
        }
    }
    /// The action a uniformly random playout plays here: the one
    /// [`crate::playout::pick_uniform`] gives (`legal[rng.gen_range(0..n)]`),
    /// with the same draws from `rng`; `None` unless a player is to move.
    /// Games override it to skip listing every action; the conformance
    /// harness holds the override to the default, draw for draw.
    fn random_action<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        crate::playout::pick_uniform(self, rng, buf)
    }
    /// Play a legal action (or chance outcome). Behaviour on an illegal one is
    /// unspecified (it may panic in debug builds): check with `parse_action`.
    fn apply(&mut self, action: Self::Action);
    /// The result once `turn()` is `Over`.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether player `p` still takes part: false once eliminated (the
    /// order of eliminations ranks the losers of a game of three).
    fn in_play(&self, _p: Player) -> bool {
        true
    }

    /// The action in the game's notation.
    fn action_text(&self, action: Self::Action) -> String;
    /// How a game over on the board ended, as a stable code for the words
    /// a client shows (`conquest`, `move_limit`; docs/api.md lists them);
    /// `None` while the game is on, or when the outcome says it all.
    fn end_reason(&self) -> Option<&'static str> {
        None
    }
    /// The cells the legal player action `action` passes through, from its
    /// start to its end, in the game's cell names, when its notation leaves
    /// some out (a Gildervaik chain jump is written by its two ends): for
    /// boards that draw the path. Empty when the notation says it all.
    fn action_route(&self, _action: Self::Action) -> Vec<String> {
        Vec::new()
    }
    /// What the legal player action `action` does, judged in this position
    /// (before it is played). Not for hot loops: it may play the action on a
    /// copy. The default, all false, fits games without captures.
    fn action_facts(&self, _action: Self::Action) -> ActionFacts {
        ActionFacts::default()
    }
    /// Read an action in this position: the result is always legal here
    /// (a legal player action, or a chance outcome at a chance node).
    /// The default compares with the text of every legal action; games
    /// override it to accept alternative spellings.
    fn parse_action(&self, text: &str) -> Result<Self::Action, Error> {
        crate::notation::parse_by_listing(self, text)
    }
    /// A compact integer for history tables: stable for an action, below
    /// `action_key_space()`; distinct actions may share a key.
    fn action_key(&self, action: Self::Action) -> usize;
    fn action_key_space(&self) -> usize;

    /// Zobrist-style hash of everything that affects future play.
    fn hash(&self) -> u64;
    /// A hash of everything that decides the rest of the game, for tables
    /// that must be exact (perft's): what `hash` leaves to the search, such
    /// as the positions a repetition rule compares with and the counters
    /// of a draw rule, included. The default is `hash`, for games whose
    /// `hash` already holds all of it.
    fn exact_hash(&self) -> u64 {
        self.hash()
    }
    /// An upper bound on the number of actions (chance included) any game
    /// from the start position can last: every game terminates within it.
    fn max_game_actions(&self) -> u64;

    /// A text picture of the board for terminals.
    fn render(&self) -> String;

    /// Current legal actions or chance outcomes as a fresh vector; handy
    /// outside hot loops.
    fn actions_here(&self) -> Vec<Self::Action> {
        match self.turn() {
            Turn::Player(_) => {
                let mut v = Vec::new();
                self.legal_actions(&mut v);
                v
            }
            Turn::Chance => {
                let mut v = Vec::new();
                self.chance_outcomes(&mut v);
                v.into_iter().map(|(a, _)| a).collect()
            }
            Turn::Over => Vec::new(),
        }
    }
}

/// Game knowledge for the AI agents, implemented by each game crate next to
/// its rules (the AI crate never matches on game names).
pub trait Evaluate: Game {
    /// Static value of the position for player `p`, positive = good for `p`,
    /// in "pawn" units (1.0 ~ the game's weakest piece). For two players it
    /// is zero-sum: `evaluate(0) == -evaluate(1)`. Called on non-terminal
    /// positions; terminal ones are scored from `outcome()` by the agents.
    fn evaluate(&self, p: Player) -> f32;
    /// The game's previous evaluation, on the same scale, kept so that a
    /// new one can be measured against it (the `classic` agent). The
    /// default is `evaluate`: games whose evaluation has not changed.
    fn evaluate_previous(&self, p: Player) -> f32 {
        self.evaluate(p)
    }
    /// Whether an action changes material (captures, promotions): searched
    /// in quiescence and tried first.
    fn is_tactical(&self, _action: Self::Action) -> bool {
        false
    }
    /// Relative weight of an action in playout policies (1.0 = neutral).
    fn playout_weight(&self, _action: Self::Action) -> f32 {
        1.0
    }
    /// The action the game's own endgame knowledge picks for the player to
    /// move, as a chess engine probes a tablebase at the root: the search
    /// agents play it in place of their own best action (their search still
    /// runs and reports its values). `None`, the default, where the game
    /// knows nothing better than the search.
    fn endgame_action(&self) -> Option<Self::Action> {
        None
    }
    /// Whether the game's own knowledge rules `action` out for the player
    /// to move because it only gives ground in a won position (a pawn
    /// running back in a won race): the search agents then play their best
    /// other action. A search that sees every action win soon may rank
    /// such a move first by noise, or for what it does to a rival who is
    /// out of the race anyway. `false`, the default.
    fn is_retreat(&self, _action: Self::Action) -> bool {
        false
    }
}
