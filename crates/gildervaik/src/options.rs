//! The rule variants of spec §7, as spec-string options and typed values.

use tabula_core::options::{OptionDef, OptionKind, OptionValues};
use tabula_core::{Error, Player};

/// The two games played on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Race: gather all ten pawns in an opposing zone (§4).
    #[default]
    Conquest,
    /// Battle: capture in the minefield, last player standing (§5).
    Warrior,
}

/// Which opposing zones count for the conquest win (C3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WinZone {
    /// All ten in one opposing zone.
    #[default]
    Same,
    /// All ten anywhere in the two opposing zones.
    Either,
}

/// Result when the conquest ply cap is reached (C7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CapResult {
    #[default]
    Draw,
    /// Rank by pawns in the best opposing zone, then in both.
    Progress,
}

/// What "untouchable" means for a pawn in one of its owner's opposing zones (W2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Untouchable {
    /// It may be jumped, without capture.
    #[default]
    NoCapture,
    /// It may not be jumped at all.
    NoJump,
}

/// Whether a capture sequence must go on while it can (W4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Continuation {
    #[default]
    Mandatory,
    Optional,
}

/// When captured pawns leave the board (W4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Removal {
    /// At once (Turkish draughts).
    #[default]
    Immediate,
    /// After the move; until then they block, each jumpable once.
    EndOfMove,
}

/// How the warrior limits rank the remaining players (W7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LimitRank {
    #[default]
    Pawns,
    Captures,
}

/// What happens to a player without a legal move (C4, W6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Blocked {
    /// He plays `pass`.
    #[default]
    Pass,
    /// He is eliminated at once, without a ply.
    Eliminated,
}

/// Where the pawns start (D3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StartCells {
    /// The ten up cells of each zone.
    #[default]
    Up,
    /// Any ten cells of each zone, given as a position string.
    Free,
}

/// Every option of spec §7, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub mode: Mode,
    pub first_player: Player,
    pub chain_jumps: bool,
    pub conquest_long_jumps: bool,
    pub warrior_long_jumps: bool,
    pub jump_own_pawns: bool,
    pub win_zone: WinZone,
    pub confine_in_target: bool,
    /// The turn from which a pawn at home eliminates its owner; `None` = never.
    pub evacuation_turn: Option<u32>,
    pub max_plies: u32,
    pub cap_result: CapResult,
    pub untouchable: Untouchable,
    pub home_capturable: bool,
    pub majority_capture: bool,
    pub capture_continuation: Continuation,
    pub capture_removal: Removal,
    pub no_capture_limit: u32,
    pub limit_rank: LimitRank,
    pub blocked_player: Blocked,
    pub start_cells: StartCells,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Conquest,
            first_player: Player(0),
            chain_jumps: true,
            conquest_long_jumps: true,
            warrior_long_jumps: false,
            jump_own_pawns: false,
            win_zone: WinZone::Same,
            confine_in_target: false,
            evacuation_turn: Some(60),
            max_plies: 600,
            cap_result: CapResult::Draw,
            untouchable: Untouchable::NoCapture,
            home_capturable: false,
            majority_capture: false,
            capture_continuation: Continuation::Mandatory,
            capture_removal: Removal::Immediate,
            no_capture_limit: 90,
            limit_rank: LimitRank::Pawns,
            blocked_player: Blocked::Pass,
            start_cells: StartCells::Up,
        }
    }
}

const fn def(
    key: &'static str,
    kind: OptionKind,
    default: &'static str,
    help: &'static str,
) -> OptionDef {
    OptionDef {
        key,
        kind,
        default,
        help,
    }
}

const BOOL: OptionKind = OptionKind::Bool;

/// The option schema, in the order of spec §7.
pub static OPTION_DEFS: [OptionDef; 20] = [
    def(
        "mode",
        OptionKind::Choice(&["conquest", "warrior"]),
        "conquest",
        "conquest: gather ten pawns in an opposing zone; warrior: capture, last one standing",
    ),
    def(
        "first_player",
        OptionKind::Choice(&["a", "b", "c"]),
        "a",
        "who moves first (then clockwise A, B, C)",
    ),
    def(
        "chain_jumps",
        BOOL,
        "true",
        "conquest: a pawn may chain jump segments in one move",
    ),
    def(
        "conquest_long_jumps",
        BOOL,
        "true",
        "conquest: jumps over a distant pawn to the symmetric cell",
    ),
    def(
        "warrior_long_jumps",
        BOOL,
        "false",
        "warrior: long jumps too (the centre pawn is captured iff in the minefield)",
    ),
    def(
        "jump_own_pawns",
        BOOL,
        "false",
        "pawns may jump over their own side's pawns (never capturing)",
    ),
    def(
        "win_zone",
        OptionKind::Choice(&["same", "either"]),
        "same",
        "conquest win: all ten in the same opposing zone, or across both",
    ),
    def(
        "confine_in_target",
        BOOL,
        "false",
        "conquest: a pawn in an opposing zone may not leave it",
    ),
    def(
        "evacuation_turn",
        OptionKind::IntOrNone { min: 1, max: 10000 },
        "60",
        "conquest: from this turn on, a pawn left at home eliminates its owner",
    ),
    def(
        "max_plies",
        OptionKind::Int {
            min: 1,
            max: 100000,
        },
        "600",
        "conquest: the game stops after this many plies",
    ),
    def(
        "cap_result",
        OptionKind::Choice(&["draw", "progress"]),
        "draw",
        "conquest: result at the ply cap (shared draw, or ranked by pawns in opposing zones)",
    ),
    def(
        "untouchable",
        OptionKind::Choice(&["no_capture", "no_jump"]),
        "no_capture",
        "warrior: a pawn in an opposing zone may be jumped without capture, or not jumped",
    ),
    def(
        "home_capturable",
        BOOL,
        "false",
        "warrior: pawns in their own zone can be captured too",
    ),
    def(
        "majority_capture",
        BOOL,
        "false",
        "warrior: only the capture sequences taking the most pawns are legal",
    ),
    def(
        "capture_continuation",
        OptionKind::Choice(&["mandatory", "optional"]),
        "mandatory",
        "warrior: whether a multiple capture must go on while it can",
    ),
    def(
        "capture_removal",
        OptionKind::Choice(&["immediate", "end_of_move"]),
        "immediate",
        "warrior: captured pawns leave at once, or after the move",
    ),
    def(
        "no_capture_limit",
        OptionKind::Int { min: 1, max: 10000 },
        "90",
        "warrior: the game stops after this many plies without a capture",
    ),
    def(
        "limit_rank",
        OptionKind::Choice(&["pawns", "captures"]),
        "pawns",
        "warrior: at the limit the most pawns (or captures) wins",
    ),
    def(
        "blocked_player",
        OptionKind::Choice(&["pass", "eliminated"]),
        "pass",
        "a player without a legal move passes, or is eliminated",
    ),
    def(
        "start_cells",
        OptionKind::Choice(&["up", "free"]),
        "up",
        "up: the ten up cells of each zone; free: a placement given as a position string",
    ),
];

fn int(values: &OptionValues, key: &str) -> Result<u32, Error> {
    values
        .int(key)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| Error::spec(format!("option `{key}` needs a number")))
}

impl Options {
    /// Typed options from validated spec values.
    pub fn from_values(v: &OptionValues) -> Result<Options, Error> {
        let pick = |key: &str, first: &str| v.get(key) == first;
        Ok(Options {
            mode: if pick("mode", "warrior") {
                Mode::Warrior
            } else {
                Mode::Conquest
            },
            first_player: Player(match v.get("first_player") {
                "b" => 1,
                "c" => 2,
                _ => 0,
            }),
            chain_jumps: v.bool("chain_jumps"),
            conquest_long_jumps: v.bool("conquest_long_jumps"),
            warrior_long_jumps: v.bool("warrior_long_jumps"),
            jump_own_pawns: v.bool("jump_own_pawns"),
            win_zone: if pick("win_zone", "either") {
                WinZone::Either
            } else {
                WinZone::Same
            },
            confine_in_target: v.bool("confine_in_target"),
            evacuation_turn: match v.get("evacuation_turn") {
                "none" => None,
                _ => Some(int(v, "evacuation_turn")?),
            },
            max_plies: int(v, "max_plies")?,
            cap_result: if pick("cap_result", "progress") {
                CapResult::Progress
            } else {
                CapResult::Draw
            },
            untouchable: if pick("untouchable", "no_jump") {
                Untouchable::NoJump
            } else {
                Untouchable::NoCapture
            },
            home_capturable: v.bool("home_capturable"),
            majority_capture: v.bool("majority_capture"),
            capture_continuation: if pick("capture_continuation", "optional") {
                Continuation::Optional
            } else {
                Continuation::Mandatory
            },
            capture_removal: if pick("capture_removal", "end_of_move") {
                Removal::EndOfMove
            } else {
                Removal::Immediate
            },
            no_capture_limit: int(v, "no_capture_limit")?,
            limit_rank: if pick("limit_rank", "captures") {
                LimitRank::Captures
            } else {
                LimitRank::Pawns
            },
            blocked_player: if pick("blocked_player", "eliminated") {
                Blocked::Eliminated
            } else {
                Blocked::Pass
            },
            start_cells: if pick("start_cells", "free") {
                StartCells::Free
            } else {
                StartCells::Up
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::RawSpec;

    fn options(spec: &str) -> Result<Options, Error> {
        let raw = RawSpec::parse(spec)?;
        let v = OptionValues::validate("gildervaik", &OPTION_DEFS, &raw.pairs)?;
        Options::from_values(&v)
    }

    #[test]
    fn defaults_match_the_spec_table() {
        assert_eq!(options("gildervaik").unwrap(), Options::default());
        assert_eq!(
            options("gildervaik(mode=Warrior)").unwrap(),
            Options {
                mode: Mode::Warrior,
                ..Options::default()
            }
        );
    }

    #[test]
    fn every_alternative_parses() {
        let o = options(
            "gildervaik(mode=warrior,first_player=C,chain_jumps=false,conquest_long_jumps=false,\
             warrior_long_jumps=true,jump_own_pawns,win_zone=Either,confine_in_target=true,\
             evacuation_turn=none,max_plies=300,cap_result=Progress,untouchable=NoJump,\
             home_capturable=true,majority_capture=true,capture_continuation=Optional,\
             capture_removal=EndOfMove,no_capture_limit=40,limit_rank=Captures,\
             blocked_player=Eliminated,start_cells=Free)",
        )
        .unwrap();
        let expected = Options {
            mode: Mode::Warrior,
            first_player: Player(2),
            chain_jumps: false,
            conquest_long_jumps: false,
            warrior_long_jumps: true,
            jump_own_pawns: true,
            win_zone: WinZone::Either,
            confine_in_target: true,
            evacuation_turn: None,
            max_plies: 300,
            cap_result: CapResult::Progress,
            untouchable: Untouchable::NoJump,
            home_capturable: true,
            majority_capture: true,
            capture_continuation: Continuation::Optional,
            capture_removal: Removal::EndOfMove,
            no_capture_limit: 40,
            limit_rank: LimitRank::Captures,
            blocked_player: Blocked::Eliminated,
            start_cells: StartCells::Free,
        };
        assert_eq!(o, expected);
        assert_eq!(
            options("gildervaik(evacuation_turn=45)")
                .unwrap()
                .evacuation_turn,
            Some(45)
        );
    }

    #[test]
    fn bad_values_are_errors() {
        for spec in [
            "gildervaik(mode=peace)",
            "gildervaik(max_plies=0)",
            "gildervaik(max_plies=none)",
            "gildervaik(evacuation_turn=-1)",
            "gildervaik(first_player=d)",
            "gildervaik(speed=3)",
        ] {
            assert!(options(spec).is_err(), "{spec}");
        }
    }
}
