//! Rule variants (spec §9 and §11): the option schema, the three presets and
//! the typed `Options` the engine reads.
//!
//! A preset is applied first; every option the user writes explicitly then
//! overrides it, so `stelpur(preset=ludii,protection=all)` is Ludii's rules
//! with the seed's protection.

use tabula_core::options::{OptionDef, OptionKind, OptionValues};
use tabula_core::{Error, Player};

/// How doubles turn into die values (§11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Doubles {
    /// n-n gives `[n,n]`; 6-6 gives four 6s.
    Standard,
    /// Ludii's "twice the normal roll": 1-1 = `[2,2]`, 6-6 = `[12,12]`, others nothing.
    LudiiDoubled,
}

/// What a step onto an own pawn does (R7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OwnLanding {
    Illegal,
    /// Run on to the next empty cell (no capture from a bump).
    Bump,
}

/// How many die-uses a roll must make (R5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForcedPlay {
    /// As many as possible, the 6 before the 1 when only one can be played.
    Max,
    /// Any legal use, no look-ahead; the roll ends when none is legal.
    Stepwise,
    /// Any legal use, and `pass` after the first.
    Free,
}

/// Which pawns a rune corner protects (R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protection {
    All,
    LastPawnOnly,
    None,
}

/// What "between two enemy pawns" means (R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Between {
    /// Both track neighbours hold enemy pawns.
    Track,
    /// The nearest pawn on each side is an enemy (two distinct pawns).
    Nearest,
}

/// What doubles do for a last pawn (§5, §9 row 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LastDoubles {
    /// No movement, but the player rolls again.
    Reroll,
    /// 1-1 gives two 1-steps, 6-6 two 6-steps.
    Move11_66,
}

/// The named rule sets of §9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    Seed,
    TableSites,
    Ludii,
}

/// Every rule variant, already validated. `Default` is the seed preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub first_player: Player,
    pub nondouble_one_pawn: bool,
    pub six_counts_twice: bool,
    pub doubles: Doubles,
    pub own_landing: OwnLanding,
    pub forced_play: ForcedPlay,
    pub protection: Protection,
    pub between: Between,
    pub last_doubles: LastDoubles,
    /// Also on whenever `ludii_literal` is.
    pub last_pawn_normal_moves: bool,
    pub ludii_first_turn: bool,
    pub mutual_last_pawn_draw: bool,
    pub ludii_literal: bool,
    /// Completed rolls without a capture that draw the game; 0 = no limit.
    pub no_capture_roll_limit: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options::preset(Preset::Seed)
    }
}

impl Options {
    /// The options of a preset, before any explicit override.
    pub const fn preset(preset: Preset) -> Options {
        let seed = Options {
            first_player: Player(0),
            nondouble_one_pawn: false,
            six_counts_twice: false,
            doubles: Doubles::Standard,
            own_landing: OwnLanding::Illegal,
            forced_play: ForcedPlay::Max,
            protection: Protection::All,
            between: Between::Track,
            last_doubles: LastDoubles::Reroll,
            last_pawn_normal_moves: false,
            ludii_first_turn: false,
            mutual_last_pawn_draw: false,
            ludii_literal: false,
            no_capture_roll_limit: 300,
        };
        match preset {
            Preset::Seed => seed,
            Preset::TableSites => Options {
                own_landing: OwnLanding::Bump,
                protection: Protection::LastPawnOnly,
                last_doubles: LastDoubles::Move11_66,
                ..seed
            },
            Preset::Ludii => Options {
                six_counts_twice: true,
                doubles: Doubles::LudiiDoubled,
                ludii_first_turn: true,
                protection: Protection::None,
                last_doubles: LastDoubles::Move11_66,
                ludii_literal: true,
                last_pawn_normal_moves: true,
                forced_play: ForcedPlay::Stepwise,
                ..seed
            },
        }
    }

    /// The preset these options are, exactly (no option changed).
    pub fn exact_preset(&self) -> Option<Preset> {
        [Preset::Ludii, Preset::Seed, Preset::TableSites]
            .into_iter()
            .find(|&p| *self == Options::preset(p))
    }

    /// Typed options from validated spec values: preset first, explicit keys over it.
    pub fn from_values(v: &OptionValues) -> Result<Options, Error> {
        let preset = match v.get("preset") {
            "tablesites" => Preset::TableSites,
            "ludii" => Preset::Ludii,
            _ => Preset::Seed,
        };
        let mut o = Options::preset(preset);
        let set = |key: &str| v.is_explicit(key);
        if set("first_player") {
            o.first_player = Player(u8::from(v.get("first_player") == "2"));
        }
        if set("nondouble_one_pawn") {
            o.nondouble_one_pawn = v.bool("nondouble_one_pawn");
        }
        if set("six_counts_twice") {
            o.six_counts_twice = v.bool("six_counts_twice");
        }
        if set("doubles") {
            o.doubles = match v.get("doubles") {
                "ludii_doubled" => Doubles::LudiiDoubled,
                _ => Doubles::Standard,
            };
        }
        if set("own_landing") {
            o.own_landing = match v.get("own_landing") {
                "bump" => OwnLanding::Bump,
                _ => OwnLanding::Illegal,
            };
        }
        if set("forced_play") {
            o.forced_play = match v.get("forced_play") {
                "stepwise" => ForcedPlay::Stepwise,
                "free" => ForcedPlay::Free,
                _ => ForcedPlay::Max,
            };
        }
        if set("protection") {
            o.protection = match v.get("protection") {
                "last_pawn_only" => Protection::LastPawnOnly,
                "none" => Protection::None,
                _ => Protection::All,
            };
        }
        if set("between") {
            o.between = match v.get("between") {
                "nearest" => Between::Nearest,
                _ => Between::Track,
            };
        }
        if set("last_doubles") {
            o.last_doubles = match v.get("last_doubles") {
                "move11_66" => LastDoubles::Move11_66,
                _ => LastDoubles::Reroll,
            };
        }
        if set("ludii_first_turn") {
            o.ludii_first_turn = v.bool("ludii_first_turn");
        }
        if set("mutual_last_pawn_draw") {
            o.mutual_last_pawn_draw = v.bool("mutual_last_pawn_draw");
        }
        if set("ludii_literal") {
            o.ludii_literal = v.bool("ludii_literal");
        }
        o.last_pawn_normal_moves = o.ludii_literal;
        if set("last_pawn_normal_moves") {
            let on = v.bool("last_pawn_normal_moves");
            if !on && o.ludii_literal {
                return Err(Error::spec(
                    "`ludii_literal` turns on `last_pawn_normal_moves`: set `ludii_literal=false` too",
                ));
            }
            o.last_pawn_normal_moves = on;
        }
        if set("no_capture_roll_limit") {
            o.no_capture_roll_limit = v
                .int("no_capture_roll_limit")
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(300);
        }
        Ok(o)
    }
}

/// Largest accepted `no_capture_roll_limit`.
pub const MAX_ROLL_LIMIT: i64 = 100_000;

/// The option schema of spec §11 (keys and values exactly as there).
pub const DEFS: &[OptionDef] = &[
    OptionDef {
        key: "preset",
        kind: OptionKind::Choice(&["seed", "tablesites", "ludii"]),
        default: "seed",
        help: "rule set applied first: seed (default), tablesites (A+G+B), ludii (Ludii's game file)",
    },
    OptionDef {
        key: "first_player",
        kind: OptionKind::Choice(&["1", "2"]),
        default: "1",
        help: "who rolls first",
    },
    OptionDef {
        key: "nondouble_one_pawn",
        kind: OptionKind::Bool,
        default: "false",
        help: "all die values of a non-double are used by the same pawn",
    },
    OptionDef {
        key: "six_counts_twice",
        kind: OptionKind::Bool,
        default: "false",
        help: "each die showing 6 gives two 6-moves in a row",
    },
    OptionDef {
        key: "doubles",
        kind: OptionKind::Choice(&["standard", "ludii_doubled"]),
        default: "standard",
        help: "standard: n-n = [n,n], 6-6 = four 6s; ludii_doubled: 1-1 = [2,2], 6-6 = [12,12], others none",
    },
    OptionDef {
        key: "own_landing",
        kind: OptionKind::Choice(&["illegal", "bump"]),
        default: "illegal",
        help: "a step onto an own pawn is illegal, or runs on to the next empty cell",
    },
    OptionDef {
        key: "forced_play",
        kind: OptionKind::Choice(&["max", "stepwise", "free"]),
        default: "max",
        help: "max: use as many dice as possible; stepwise: any legal use; free: may pass after one use",
    },
    OptionDef {
        key: "protection",
        kind: OptionKind::Choice(&["all", "last_pawn_only", "none"]),
        default: "all",
        help: "which pawns a rune corner between two enemies protects",
    },
    OptionDef {
        key: "between",
        kind: OptionKind::Choice(&["track", "nearest"]),
        default: "track",
        help: "framing enemies: both track neighbours, or the nearest pawn on each side",
    },
    OptionDef {
        key: "last_doubles",
        kind: OptionKind::Choice(&["reroll", "move11_66"]),
        default: "reroll",
        help: "a last pawn only re-rolls on doubles, or also moves on 1-1 and 6-6",
    },
    OptionDef {
        key: "last_pawn_normal_moves",
        kind: OptionKind::Bool,
        default: "false",
        help: "a last pawn may also move cell by cell",
    },
    OptionDef {
        key: "ludii_first_turn",
        kind: OptionKind::Bool,
        default: "false",
        help: "in turn 1 every 6 moves a pawn from the mover's two rearmost start cells while one is there",
    },
    OptionDef {
        key: "mutual_last_pawn_draw",
        kind: OptionKind::Bool,
        default: "false",
        help: "the game is drawn as soon as both sides are down to one pawn",
    },
    OptionDef {
        key: "ludii_literal",
        kind: OptionKind::Bool,
        default: "false",
        help: "Ludii's file where it differs from its rules text (implies last_pawn_normal_moves)",
    },
    OptionDef {
        key: "no_capture_roll_limit",
        kind: OptionKind::Int {
            min: 0,
            max: MAX_ROLL_LIMIT,
        },
        default: "300",
        help: "completed rolls without a capture that draw the game (0 = no limit)",
    },
];

/// Evaluate `$body` with `$o` bound to `$game`'s options, as a constant
/// when they are exactly a preset: the rules code inlined in `$body` then
/// has its option checks folded away by the compiler (a playout runs far
/// fewer instructions and branches); other options run the same code with
/// their checks. `$game.preset` is `$game.opts.exact_preset()`, found once.
macro_rules! under_rules {
    ($game:expr, |$o:ident| $body:expr) => {{
        const SEED: Options = Options::preset(Preset::Seed);
        const TABLESITES: Options = Options::preset(Preset::TableSites);
        const LUDII: Options = Options::preset(Preset::Ludii);
        match $game.preset {
            Some(Preset::Ludii) => {
                let $o = &LUDII;
                $body
            }
            Some(Preset::Seed) => {
                let $o = &SEED;
                $body
            }
            Some(Preset::TableSites) => {
                let $o = &TABLESITES;
                $body
            }
            None => {
                let opts = $game.opts;
                let $o = &opts;
                $body
            }
        }
    }};
}
pub(crate) use under_rules;

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::RawSpec;

    fn opts(spec: &str) -> Result<Options, Error> {
        let raw = RawSpec::parse(spec)?;
        Options::from_values(&OptionValues::validate("stelpur", DEFS, &raw.pairs)?)
    }

    #[test]
    fn presets_apply_first_and_explicit_options_override() {
        assert_eq!(opts("stelpur").unwrap(), Options::default());
        let l = opts("stelpur(preset=Ludii)").unwrap();
        assert_eq!(l, Options::preset(Preset::Ludii));
        assert!(l.last_pawn_normal_moves && l.six_counts_twice);
        let l2 = opts("stelpur(protection=all,preset=ludii)").unwrap();
        assert_eq!(l2.protection, Protection::All);
        assert_eq!(l2.forced_play, ForcedPlay::Stepwise);
        let t = opts("stelpur(preset=TableSites, last_doubles=reroll)").unwrap();
        assert_eq!(t.own_landing, OwnLanding::Bump);
        assert_eq!(t.last_doubles, LastDoubles::Reroll);
        let e =
            opts("stelpur(doubles=LudiiDoubled,last_doubles=Move11_66,first_player=2)").unwrap();
        assert_eq!(e.doubles, Doubles::LudiiDoubled);
        assert_eq!(e.last_doubles, LastDoubles::Move11_66);
        assert_eq!(e.first_player, Player(1));
        assert_eq!(
            opts("stelpur(no_capture_roll_limit=0)")
                .unwrap()
                .no_capture_roll_limit,
            0
        );
    }

    #[test]
    fn literal_implies_normal_last_pawn_moves() {
        assert!(
            opts("stelpur(ludii_literal)")
                .unwrap()
                .last_pawn_normal_moves
        );
        assert!(opts("stelpur(preset=ludii,last_pawn_normal_moves=false)").is_err());
        let o =
            opts("stelpur(preset=ludii,ludii_literal=false,last_pawn_normal_moves=false)").unwrap();
        assert!(!o.last_pawn_normal_moves);
        assert!(opts("stelpur(preset=fiske)").is_err());
        assert!(opts("stelpur(first_player=3)").is_err());
    }
}
