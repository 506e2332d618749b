//! The spec options (§12) and the start positions they select (§3–§4).

use crate::pieces::Side;
use tabula_core::options::{OptionDef, OptionKind, OptionValues};
use tabula_core::Error;

/// Turn boundaries kept for the repetition rule. The no-capture limit is
/// capped here so the fixed-size history is always exact.
pub const MAX_NO_CAPTURE_TURNS: u16 = 128;

/// Starting layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Setup {
    /// P1: diagram 1 with the missing soldier (default).
    #[default]
    Lines,
    /// P2: diagram 3 completed to full material.
    Block,
    /// P3: diagram 2 made symmetric and completed.
    Corners,
    /// Diagram 2 made symmetric, 1/5/9/16 per side.
    CornersSym,
    /// Diagram 1 as drawn (19 soldiers a side).
    LinesDrawn,
    /// Diagram 3 as drawn (1/6/6/18).
    BlockDrawn,
    /// Diagram 2 as drawn (asymmetric, reduced material).
    CornersDrawn,
    /// Free placement: the start is given as a FEN (spec §4).
    Free,
}

const SETUP_NAMES: [&str; 8] = [
    "lines",
    "block",
    "corners",
    "corners-sym",
    "lines-drawn",
    "block-drawn",
    "corners-drawn",
    "free",
];

const SETUPS: [Setup; 8] = [
    Setup::Lines,
    Setup::Block,
    Setup::Corners,
    Setup::CornersSym,
    Setup::LinesDrawn,
    Setup::BlockDrawn,
    Setup::CornersDrawn,
    Setup::Free,
];

impl Setup {
    pub fn name(self) -> &'static str {
        SETUP_NAMES[SETUPS.iter().position(|&s| s == self).unwrap_or(0)]
    }

    /// The board field and side letter of the preset, South to move
    /// (`None` for free placement).
    pub fn board(self) -> Option<&'static str> {
        Some(match self {
            Setup::Lines => "18/8r9/6cccccc6/4aaaaaaaaaa4/s1s1s1s1s1s1s1s1ss/ss1s1s1s1s1s1s1s1s/18/18/18/18/18/18/S1S1S1S1S1S1S1S1SS/SS1S1S1S1S1S1S1S1S/4AAAAAAAAAA4/6CCCCCC6/18/8R9",
            Setup::Block => "18/8r9/6cccccc6/4aaaaaaaaaa4/6ssssss6/6ssssss6/5ssssssss5/18/18/18/18/5SSSSSSSS5/6SSSSSS6/6SSSSSS6/4AAAAAAAAAA4/6CCCCCC6/18/8R9",
            Setup::Corners => "10s2a1c2/11s1a1cr1/10s2a1ccc/11s1ac3/10ss1aaaaa/10ssa5/10sssss1s1/10ssss1s1s/18/18/S1S1SSSS10/1S1SSSSS10/5ASS10/AAAAA1SS10/3CA1S11/CCC1A2S10/2C1A1S11/R1C1A2S10",
            Setup::CornersSym => "10s2a1c2/11s1a1cr1/10s2a1ccc/11s1a4/10s2aaaaa/11s6/10sss1s1s1/10ss1s1s1s/18/18/S1S1S1SS10/1S1S1SSS10/6S11/AAAAA2S10/4A1S11/CCC1A2S10/2C1A1S11/R1C1A2S10",
            Setup::LinesDrawn => "18/8r9/6cccccc6/4aaaaaaaaaa4/s1s1s1s1s1s1s1s1s1/ss1s1s1s1s1s1s1ss1/18/18/18/18/18/18/S1S1S1S1S1S1S1S1S1/SS1S1S1S1S1S1S1SS1/4AAAAAAAAAA4/6CCCCCC6/18/8R9",
            Setup::BlockDrawn => "18/8r9/6cccccc6/6aaaaaa6/6ssssss6/6ssssss6/6ssssss6/18/18/18/18/6SSSSSS6/6SSSSSS6/6SSSSSS6/6AAAAAA6/6CCCCCC6/18/8R9",
            Setup::CornersDrawn => "10s2a1c2/11s1a1cr1/10s2a1cc1/11s1a4/10s2aaaa1/11s6/10sss1s1s1/10ss1s1ss1/18/18/S2S1S1SS9/1S2S1SSS9/7S10/AAAAA3S9/4A1S11/CCC1A2S10/2C1A1S11/R1C1A2S10",
            Setup::Free => return None,
        })
    }
}

/// Validated options of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub setup: Setup,
    /// Who moves first from a preset (a FEN names its own side to move).
    pub first_player: Side,
    /// Rule (iii): both sides below 4 non-King pieces is a draw.
    pub material_draw: bool,
    /// Rule (ii): turns without a capture that draw (1..=128).
    pub no_capture_turns: u16,
    /// Rule (i): occurrences of a turn-boundary position that draw (>= 2).
    pub repetition: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            setup: Setup::Lines,
            first_player: Side::South,
            material_draw: true,
            no_capture_turns: 100,
            repetition: 3,
        }
    }
}

/// The option schema of spec §12.
pub static OPTION_DEFS: [OptionDef; 5] = [
    OptionDef {
        key: "setup",
        kind: OptionKind::Choice(&SETUP_NAMES),
        default: "lines",
        help: "start layout: a preset, a literal diagram (`-drawn`), or `free` (start from a FEN)",
    },
    OptionDef {
        key: "first_player",
        kind: OptionKind::Choice(&["s", "n"]),
        default: "s",
        help: "who moves first from a preset: S (South) or N (North)",
    },
    OptionDef {
        key: "material_draw",
        kind: OptionKind::Bool,
        default: "true",
        help: "draw when both sides have fewer than 4 non-King pieces",
    },
    OptionDef {
        key: "no_capture_turns",
        kind: OptionKind::Int {
            min: 1,
            max: MAX_NO_CAPTURE_TURNS as i64,
        },
        default: "100",
        help: "draw after this many consecutive turns without a capture",
    },
    OptionDef {
        key: "repetition",
        kind: OptionKind::Int { min: 2, max: 100 },
        default: "3",
        help: "draw when a turn-boundary position occurs this many times",
    },
];

/// Typed options from validated values.
pub fn options_from(values: &OptionValues) -> Result<Options, Error> {
    let setup = SETUP_NAMES
        .iter()
        .position(|&n| n == values.get("setup"))
        .map(|i| SETUPS[i])
        .ok_or_else(|| Error::spec(format!("unknown setup `{}`", values.get("setup"))))?;
    let int = |key: &str| {
        values
            .int(key)
            .ok_or_else(|| Error::spec(format!("option `{key}` needs a number")))
    };
    Ok(Options {
        setup,
        first_player: if values.get("first_player") == "n" {
            Side::North
        } else {
            Side::South
        },
        material_draw: values.bool("material_draw"),
        no_capture_turns: int("no_capture_turns")? as u16,
        repetition: int("repetition")? as u8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::RawSpec;

    fn parse(spec: &str) -> Result<Options, Error> {
        let raw = RawSpec::parse(spec)?;
        options_from(&OptionValues::validate("phylde", &OPTION_DEFS, &raw.pairs)?)
    }

    #[test]
    fn defaults_and_every_setup_name() {
        assert_eq!(parse("phylde").unwrap(), Options::default());
        for (name, setup) in SETUP_NAMES.iter().zip(SETUPS) {
            assert_eq!(
                parse(&format!("phylde(setup={name})")).unwrap().setup,
                setup
            );
            assert_eq!(setup.name(), *name);
        }
        let o = parse("phylde(setup=Corners_Sym,first_player=N,material_draw=off,no_capture_turns=40,repetition=2)")
            .unwrap();
        assert_eq!(o.setup, Setup::CornersSym);
        assert_eq!(o.first_player, Side::North);
        assert!(!o.material_draw);
        assert_eq!((o.no_capture_turns, o.repetition), (40, 2));
    }

    #[test]
    fn bad_values_list_the_valid_ones() {
        let e = parse("phylde(setup=spiral)").unwrap_err();
        assert!(e.message.contains("lines|block|corners|corners-sym"), "{e}");
        assert!(parse("phylde(first_player=west)").is_err());
        assert!(parse("phylde(no_capture_turns=0)").is_err());
        assert!(parse("phylde(no_capture_turns=129)").is_err());
        assert!(parse("phylde(repetition=1)").is_err());
    }
}
