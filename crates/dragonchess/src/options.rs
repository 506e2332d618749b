//! The rule options of spec §11.

use tabula_core::options::{OptionDef, OptionKind, OptionValues};
use tabula_core::Error;

/// Rule variants; the defaults are the spec's default rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The Hero changes level straight up/down instead of along a space diagonal.
    pub hero_vertical: bool,
    /// A King standing over an enemy Basilisk counts as in check.
    pub basilisk_freeze_is_check: bool,
    /// The Elemental may climb to the Ground without capturing.
    pub elemental_climb_quiet: bool,
    /// Plies without a capture or Warrior move that make a draw.
    pub no_capture_plies: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hero_vertical: false,
            basilisk_freeze_is_check: false,
            elemental_climb_quiet: false,
            no_capture_plies: 100,
        }
    }
}

pub const OPTION_DEFS: &[OptionDef] = &[
    OptionDef {
        key: "hero_vertical",
        kind: OptionKind::Bool,
        default: "false",
        help: "the Hero changes level straight up or down, not diagonally",
    },
    OptionDef {
        key: "basilisk_freeze_is_check",
        kind: OptionKind::Bool,
        default: "false",
        help: "a King frozen by a Basilisk is in check",
    },
    OptionDef {
        key: "elemental_climb_quiet",
        kind: OptionKind::Bool,
        default: "false",
        help: "the Elemental may climb to the Ground without capturing",
    },
    OptionDef {
        key: "no_capture_plies",
        kind: OptionKind::Int {
            min: 1,
            max: 1_000_000,
        },
        default: "100",
        help: "plies without capture or Warrior move before a draw",
    },
];

impl Options {
    pub fn from_values(v: &OptionValues) -> Result<Options, Error> {
        let plies = v
            .int("no_capture_plies")
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| Error::spec("no_capture_plies must be a positive number"))?;
        Ok(Options {
            hero_vertical: v.bool("hero_vertical"),
            basilisk_freeze_is_check: v.bool("basilisk_freeze_is_check"),
            elemental_climb_quiet: v.bool("elemental_climb_quiet"),
            no_capture_plies: plies,
        })
    }
}
