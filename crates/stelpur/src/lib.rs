//! Ad Elta Stelpur ("chasing the girls"), the Icelandic dice chase on a 2x12
//! board, as `docs/rules/reference/stelpur.md` specifies it, with the presets `seed`
//! (default), `tablesites` and `ludii` and every option of its §11.
//!
//! One action is one die-use (`6:6-12`); a roll of the two dice is a chance
//! action (`6-1`, one of 21 unordered outcomes). A position is two 24-bit
//! masks plus the roll in progress, so cloning is a copy and generation is
//! shifts and masks.

mod board;
mod dice;
pub mod eval;
pub mod mlp;
mod movegen;
mod notation;
pub mod ntuple;
mod options;
mod position;
mod render;
mod state;
pub mod train;

pub use board::Cell;
pub use dice::{Left, Roll, ROLLS};
pub use movegen::Use;
pub use notation::{roll_records, RollRecord, Step};
use options::under_rules;
pub use options::{
    Between, Doubles, ForcedPlay, LastDoubles, Options, OwnLanding, Preset, Protection,
};
pub use state::{Action, Stelpur};

use board::cells;
use rand::Rng;
use std::sync::LazyLock;
use tabula_core::options::{OptionDef, OptionValues};
use tabula_core::playout::{pick_uniform, ChanceTable};
use tabula_core::{zobrist, ActionFacts, Error, Game, GameType, Outcome, Player, Turn};

/// Display title for menus.
pub const TITLE: &str = "Ad Elta Stelpur";
/// One or two sentences for menus and `tabula games`.
pub const DESCRIPTION: &str = "Icelandic chase on a 2x12 board: two dice, only 1s, 6s and doubles \
     move, capture by landing, pawns safe on rune corners between two enemies, and a lone last \
     pawn that jumps from corner to corner. Presets: seed, tablesites, ludii.";

const PAWN_KEYS: [u64; 48] = zobrist::keys(0x5374_656C_7075_7201);
const STATE_SEED: u64 = 0x5374_656C_7075_7202;
const COUNTER_SEED: u64 = 0x5374_656C_7075_7203;
/// The hash's code of every roll that is not a double (the 21 rolls are
/// 1..=21 by index; 5 bits).
const NON_DOUBLE: u64 = 22;

/// The chance outcomes with their probabilities, built once.
const CHANCE: [(Action, f64); 21] = {
    let mut t = [(Action::Pass, 0.0); 21];
    let mut i = 0;
    while i < ROLLS.len() {
        t[i] = (Action::Roll(ROLLS[i].0), ROLLS[i].1 as f64 / 36.0);
        i += 1;
    }
    t
};

/// [`CHANCE`] as a table of where each roll's share starts.
static DICE: LazyLock<ChanceTable<Action>> = LazyLock::new(|| ChanceTable::new(&CHANCE));

/// Actions per roll at most: the roll, eight die-uses, a pass.
const ACTIONS_PER_ROLL: u64 = 10;
/// Captures in a game at most: the 11th takes a last pawn.
const MAX_CAPTURES: u64 = 11;

impl Game for Stelpur {
    type Action = Action;
    type Options = Options;
    const NAME: &'static str = "stelpur";
    /// The three rule sets play differently (dice values, protection, bumps);
    /// single overrides of a preset stay in its pool.
    const RATING_POOL_OPTIONS: &'static [&'static str] = &["preset"];

    fn option_defs() -> &'static [OptionDef] {
        options::DEFS
    }
    fn options_from(values: &OptionValues) -> Result<Options, Error> {
        Options::from_values(values)
    }
    fn new_game(options: &Options) -> Result<Self, Error> {
        Ok(Stelpur::start(options))
    }
    fn from_position(options: &Options, text: &str) -> Result<Self, Error> {
        Stelpur::from_position_string(options, text)
    }
    fn position(&self) -> String {
        self.position_string()
    }
    fn options(&self) -> &Options {
        &self.opts
    }
    /// Two dice are rolled before each roll's die-uses, each use one
    /// action of the same player.
    fn game_type(&self) -> GameType {
        GameType {
            players: 2,
            chance: true,
            multi_action_turns: true,
        }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &'static str {
        if p.0 == 0 {
            "South"
        } else {
            "North"
        }
    }
    fn turn(&self) -> Turn {
        Stelpur::turn(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_actions_into(out);
    }
    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend_from_slice(&CHANCE);
        }
    }
    /// The dice never change: a roll is read from a table of its shares.
    fn pick_chance_at(&self, x: f64, _buf: &mut Vec<(Action, f64)>) -> Option<Action> {
        (self.turn() == Turn::Chance)
            .then(|| DICE.pick(x))
            .flatten()
    }
    fn pick_chance_bits(&self, bits: u64, _buf: &mut Vec<(Action, f64)>) -> Option<Action> {
        (self.turn() == Turn::Chance)
            .then(|| DICE.pick_bits(bits))
            .flatten()
    }
    /// Without a list when every use is a plain step: the uses are then the
    /// cells of a few masks, in the order `legal_actions` gives them, so the
    /// pick is a count, one draw and the k-th cell (the conformance harness
    /// holds it to the listed pick, draw for draw).
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
        under_rules!(self, |o| self.random_action_under(rng, buf, o))
    }
    fn apply(&mut self, action: Action) {
        Stelpur::apply(self, action);
    }
    fn outcome(&self) -> Option<Outcome> {
        Stelpur::outcome(self)
    }
    fn action_text(&self, action: Action) -> String {
        self.action_string(action)
    }
    /// A die-use captures when it lands on an enemy pawn (R6); there is no
    /// check, and taking the last pawn is not a King's capture.
    fn action_facts(&self, action: Action) -> ActionFacts {
        ActionFacts {
            capture: matches!(action, Action::Use(u) if self.captures(u)),
            ..ActionFacts::default()
        }
    }
    fn parse_action(&self, text: &str) -> Result<Action, Error> {
        self.parse_action_text(text)
    }
    fn action_key(&self, action: Action) -> usize {
        match action {
            Action::Roll(r) => r.index(),
            Action::Pass => ROLLS.len(),
            Action::Use(u) => {
                ROLLS.len() + 1 + usize::from(u.from.index()) * 24 + usize::from(u.to.index())
            }
        }
    }
    fn action_key_space(&self) -> usize {
        ROLLS.len() + 1 + 24 * 24
    }
    fn hash(&self) -> u64 {
        let mut h = 0;
        for (p, &mask) in self.pawns.iter().enumerate() {
            for c in cells(mask) {
                h ^= PAWN_KEYS[p * 24 + usize::from(c.index())];
            }
        }
        // Everything else that steers play, packed; the turn only matters
        // for `ludii_first_turn`, so only "turn 1 or not" is hashed.
        // Of a roll only what steers play: a double's value (its extra roll
        // and, under some options, its values), and for any other roll
        // nothing beyond the values left. So 2-1 and 4-1 hash alike, and
        // a search sees the roll classes of §7 as one position each.
        let roll = self.roll.map_or(0, |r| {
            if r.is_double() {
                r.index() as u64 + 1
            } else {
                NON_DOUBLE
            }
        });
        let pin = self.pin.map_or(0, |c| u64::from(c.number()));
        let small = u64::from(self.to_move)
            | roll << 1
            | pin << 6
            | u64::from(self.captured) << 11
            | u64::from(self.turn == 1) << 12
            | self.left.code() << 13;
        h ^ zobrist::key(STATE_SEED, small) ^ zobrist::key(COUNTER_SEED, u64::from(self.no_capture))
    }
    fn max_game_actions(&self) -> u64 {
        match u64::from(self.opts.no_capture_roll_limit) {
            0 => u64::MAX,
            limit => MAX_CAPTURES * (limit + 1) * ACTIONS_PER_ROLL,
        }
    }
    fn render(&self) -> String {
        self.picture()
    }
}

impl Stelpur {
    /// [`Game::random_action`] under `o`, `self.opts` or a constant copy of it.
    #[inline(always)]
    fn random_action_under<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<Action>,
        o: &Options,
    ) -> Option<Action> {
        let Some(roll) = self
            .roll
            .filter(|_| movegen::lists_plain_steps(self.left, o))
        else {
            return pick_uniform(self, rng, buf);
        };
        let [low, high] = self.value_uses(roll, o);
        let n_low = low.steps();
        let n = n_low + high.steps();
        if n == 0 {
            return None;
        }
        let k = rng.gen_range(0..n as usize) as u32;
        let (u, k) = if k < n_low {
            (low, k)
        } else {
            (high, k - n_low)
        };
        Some(Action::Use(u.nth_step(k, self.pawns[self.mover()])))
    }
}
