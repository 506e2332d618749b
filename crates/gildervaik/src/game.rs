//! The `tabula_core::Game` implementation: glue from the trait to the rules.

use crate::geometry::Cells;
use crate::moves::Move;
use crate::options::{Mode, Options, StartCells, OPTION_DEFS};
use crate::state::{Gildervaik, SEAT_NAMES};
use rand::Rng;
use tabula_core::options::{OptionDef, OptionValues};
use tabula_core::{pick_uniform, ActionFacts, Error, Game, GameType, Outcome, Player, Turn};

/// `action_key` of `pass`; moves use `from * 100 + to`.
const PASS_KEY: usize = 100 * 100;

impl Game for Gildervaik {
    type Action = Move;
    type Options = Options;
    const NAME: &'static str = "gildervaik";
    /// Conquest and warrior are two games; a free placement is no standard start.
    const RATING_POOL_OPTIONS: &'static [&'static str] = &["mode", "start_cells"];

    fn option_defs() -> &'static [OptionDef] {
        &OPTION_DEFS
    }

    fn options_from(values: &OptionValues) -> Result<Options, Error> {
        Options::from_values(values)
    }

    fn new_game(options: &Options) -> Result<Self, Error> {
        if options.start_cells == StartCells::Free {
            return Err(Error::spec(
                "start_cells=free: give the placement as a position string, \
                 e.g. `A:a1,b1,... B:... C:... / A`",
            ));
        }
        Ok(Gildervaik::start(*options))
    }

    fn from_position(options: &Options, text: &str) -> Result<Self, Error> {
        Gildervaik::parse_position(*options, text)
    }

    fn position(&self) -> String {
        self.write_position()
    }

    fn options(&self) -> &Options {
        &self.opts
    }

    /// Three seats under every option; a ply is one player's whole move
    /// (a jump chain is one action), and eliminated players are skipped.
    fn game_type(&self) -> GameType {
        GameType {
            players: 3,
            chance: false,
            multi_action_turns: false,
        }
    }

    fn num_players(&self) -> usize {
        3
    }

    fn player_name(&self, p: Player) -> &'static str {
        SEAT_NAMES.get(p.index()).copied().unwrap_or("?")
    }

    fn turn(&self) -> Turn {
        if self.result.is_some() {
            Turn::Over
        } else {
            Turn::Player(Player(self.to_move as u8))
        }
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    /// Conquest picks by counting each pawn's targets, without listing the
    /// moves; warrior capture paths are listed as usual.
    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R, buf: &mut Vec<Move>) -> Option<Move> {
        if self.result.is_some() {
            return None;
        }
        match self.opts.mode {
            Mode::Conquest => Some(self.random_conquest_move(rng)),
            Mode::Warrior => pick_uniform(self, rng, buf),
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Move, f64)>) {
        out.clear();
    }

    fn apply(&mut self, action: Move) {
        self.play(action);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    /// An eliminated player has no pawn left (C5, W5).
    fn in_play(&self, p: Player) -> bool {
        self.pawns.get(usize::from(p.0)).is_some_and(|&b| b != 0)
    }

    fn action_text(&self, action: Move) -> String {
        Gildervaik::move_text(action)
    }

    /// Only warrior capture paths capture, and each of their segments does
    /// (W2-W4); conquest jumps and non-capturing jumps take nothing. There
    /// is no check or mate: the game ends by elimination or a full zone.
    fn action_facts(&self, action: Move) -> ActionFacts {
        ActionFacts {
            capture: action.is_capture(),
            ..ActionFacts::default()
        }
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.result.and(Some(self.why_over()))
    }

    fn action_route(&self, action: Move) -> Vec<String> {
        self.jump_route(action)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn parse_action(&self, text: &str) -> Result<Move, Error> {
        self.read_move(text)
    }

    fn action_key(&self, action: Move) -> usize {
        match (action.from(), action.to()) {
            (Some(from), Some(to)) => from.id() * 100 + to.id(),
            _ => PASS_KEY,
        }
    }

    fn action_key_space(&self) -> usize {
        PASS_KEY + 1
    }

    fn hash(&self) -> u64 {
        self.full_hash()
    }

    fn max_game_actions(&self) -> u64 {
        match self.opts.mode {
            Mode::Conquest => u64::from(self.opts.max_plies),
            // Each capture restarts the no-capture count; there are fewer
            // captures than pawns.
            Mode::Warrior => {
                let pawns: u64 = (0..3).map(|s| Cells(self.pawns[s]).count() as u64).sum();
                (pawns + 1) * u64::from(self.opts.no_capture_limit)
            }
        }
    }

    fn render(&self) -> String {
        self.picture()
    }
}
