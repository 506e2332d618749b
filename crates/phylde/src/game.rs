//! `tabula_core::Game` for Phylde: the glue between the trait and the rules.

use crate::action::{Action, KEY_SPACE};
use crate::options::{options_from, Options, OPTION_DEFS};
use crate::pieces::Side;
use crate::state::{player, Phylde};
use tabula_core::options::{OptionDef, OptionValues};
use tabula_core::{ActionFacts, Error, Game, GameType, Outcome, Player, Turn};

/// Seed of the keys that mix the no-capture count into `exact_hash`.
const NO_CAPTURE_SEED: u64 = 0x3C9D_15E7_A042_B86F;

impl Game for Phylde {
    type Action = Action;
    type Options = Options;
    const NAME: &'static str = "phylde";
    /// Each start layout has its own openings (and the drawn ones other material).
    const RATING_POOL_OPTIONS: &'static [&'static str] = &["setup"];

    fn option_defs() -> &'static [OptionDef] {
        &OPTION_DEFS
    }
    fn options_from(values: &OptionValues) -> Result<Options, Error> {
        options_from(values)
    }

    fn new_game(options: &Options) -> Result<Self, Error> {
        let board = options.setup.board().ok_or_else(|| {
            Error::spec(
                "setup=free has no default start: give the placement as a position (FEN), \
                 South in ranks 1-9 and North in ranks 10-18",
            )
        })?;
        Phylde::from_fen(
            *options,
            &format!("{board} {}", options.first_player.letter()),
        )
    }
    fn from_position(options: &Options, text: &str) -> Result<Self, Error> {
        Phylde::from_fen(*options, text)
    }
    fn position(&self) -> String {
        self.fen()
    }
    fn options(&self) -> &Options {
        &self.options
    }

    /// A turn is up to five actions of one side (spec §5).
    fn game_type(&self) -> GameType {
        GameType {
            players: 2,
            chance: false,
            multi_action_turns: true,
        }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &'static str {
        Side::from_index(p.index()).name()
    }
    fn turn(&self) -> Turn {
        match self.result {
            Some(_) => Turn::Over,
            None => Turn::Player(player(self.side)),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.generate(out);
    }
    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
    }
    fn apply(&mut self, action: Action) {
        self.play(action);
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    /// Read from the finished position, in the order of spec §7: a King
    /// surrounded, a side without an action, then the draw rules (the
    /// repetition last: the others are seen on the board).
    fn end_reason(&self) -> Option<&'static str> {
        let result = self.result?;
        let o = &self.options;
        Some(
            if self.is_surrounded(Side::South) || self.is_surrounded(Side::North) {
                "surround"
            } else if matches!(result, Outcome::Win(_)) {
                "no_move"
            } else if self.no_capture >= o.no_capture_turns {
                "no_capture"
            } else if o.material_draw
                && self.material(Side::South) < 4
                && self.material(Side::North) < 4
            {
                "material"
            } else {
                "repetition"
            },
        )
    }

    fn action_text(&self, action: Action) -> String {
        self.action_token(action)
    }
    /// A step onto an enemy piece or a shot captures (§6); an action that
    /// surrounds the enemy King wins at once (§7), Phylde's mate. There is
    /// no check.
    fn action_facts(&self, action: Action) -> ActionFacts {
        let capture = match action {
            Action::Step { to, .. } => self.piece(to).is_some(),
            Action::Shot { .. } => true,
            Action::King { .. } | Action::EndTurn => false,
        };
        let mate = action != Action::EndTurn && {
            let mut after = self.clone();
            after.play(action);
            after.result == Some(Outcome::Win(player(self.side)))
                && after.is_surrounded(self.side.other())
        };
        ActionFacts {
            capture,
            check: false,
            mate,
        }
    }
    fn parse_action(&self, text: &str) -> Result<Action, Error> {
        self.parse_token(text)
    }
    fn action_key(&self, action: Action) -> usize {
        action.key()
    }
    fn action_key_space(&self) -> usize {
        KEY_SPACE
    }

    fn hash(&self) -> u64 {
        self.board_hash ^ self.turn_hash
    }
    /// The hash, plus what the draw rules read: the turns without a
    /// capture and the turn-boundary positions since the last capture.
    fn exact_hash(&self) -> u64 {
        let counter = tabula_core::zobrist::key(NO_CAPTURE_SEED, u64::from(self.no_capture));
        self.hash() ^ counter ^ self.history.key()
    }
    /// Each capture-free stretch lasts at most `no_capture_turns` turns
    /// after the capture that opened it, a turn is at most 5 actions, and
    /// there are at most as many captures as pieces on the board.
    fn max_game_actions(&self) -> u64 {
        let pieces = (self.material(Side::South) + self.material(Side::North)) as u64;
        (pieces + 1) * (u64::from(self.options.no_capture_turns) + 1) * 5 + 5
    }

    fn render(&self) -> String {
        self.picture()
    }
}
