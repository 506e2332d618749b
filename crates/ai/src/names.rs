//! The names of the AI players, typed: the levels offered to people and
//! every agent the arena can seat. The names are API values (URLs, JSON,
//! records, command lines) and never change; parsing ignores case and
//! surrounding space.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use tabula_core::Error;

/// A strength offered to people, weakest first: `random`, then `level1`
/// (a beginner can win) to `level8` (about 2 s a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AiLevel {
    Random,
    Level1,
    Level2,
    Level3,
    Level4,
    Level5,
    Level6,
    Level7,
    Level8,
}

impl AiLevel {
    /// Every level, weakest first.
    pub const ALL: [AiLevel; 9] = [
        AiLevel::Random,
        AiLevel::Level1,
        AiLevel::Level2,
        AiLevel::Level3,
        AiLevel::Level4,
        AiLevel::Level5,
        AiLevel::Level6,
        AiLevel::Level7,
        AiLevel::Level8,
    ];
    /// The strongest level, which never blunders on purpose (for hints).
    pub const STRONGEST: AiLevel = AiLevel::Level8;

    pub fn name(self) -> &'static str {
        const NAMES: [&str; 9] = [
            "random", "level1", "level2", "level3", "level4", "level5", "level6", "level7",
            "level8",
        ];
        NAMES[self as usize]
    }

    /// The number of a numbered level (1 to 8); `None` for `random`.
    pub fn number(self) -> Option<u8> {
        (self != AiLevel::Random).then_some(self as u8)
    }

    /// Numbered level `n`, with an error naming the valid range.
    pub fn from_number(n: u8) -> Result<AiLevel, Error> {
        AiLevel::ALL
            .into_iter()
            .find(|l| l.number() == Some(n))
            .ok_or_else(|| {
                Error::spec(format!(
                    "no level {n} (levels are 1 to {})",
                    AiLevel::STRONGEST as u8
                ))
            })
    }
}

/// Every agent the arena and `tabula hint --agent` can seat: the search
/// algorithms by name, and the levels (which pick an algorithm per game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    Greedy,
    Uct,
    Mcts,
    AlphaBeta,
    Expectimax,
    /// A level, `random` included.
    Level(AiLevel),
    /// Level 8 with the game's previous evaluation, to measure a new one
    /// against (`Evaluate::evaluate_previous`).
    Classic,
}

impl AgentKind {
    /// Every agent, in the order of the help texts.
    pub const ALL: [AgentKind; 15] = [
        AgentKind::Level(AiLevel::Random),
        AgentKind::Greedy,
        AgentKind::Uct,
        AgentKind::Mcts,
        AgentKind::AlphaBeta,
        AgentKind::Expectimax,
        AgentKind::Level(AiLevel::Level1),
        AgentKind::Level(AiLevel::Level2),
        AgentKind::Level(AiLevel::Level3),
        AgentKind::Level(AiLevel::Level4),
        AgentKind::Level(AiLevel::Level5),
        AgentKind::Level(AiLevel::Level6),
        AgentKind::Level(AiLevel::Level7),
        AgentKind::Level(AiLevel::Level8),
        AgentKind::Classic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Greedy => "greedy",
            AgentKind::Uct => "uct",
            AgentKind::Mcts => "mcts",
            AgentKind::AlphaBeta => "alphabeta",
            AgentKind::Expectimax => "expectimax",
            AgentKind::Level(level) => level.name(),
            AgentKind::Classic => "classic",
        }
    }
}

impl From<AiLevel> for AgentKind {
    fn from(level: AiLevel) -> Self {
        AgentKind::Level(level)
    }
}

/// Find `text` among `all` by name, or say what the valid names are.
fn parse_name<T: Copy>(
    text: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    what: &str,
) -> Result<T, Error> {
    let wanted = text.trim();
    all.iter()
        .copied()
        .find(|&x| name(x).eq_ignore_ascii_case(wanted))
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&x| name(x)).collect();
            Error::spec(format!(
                "unknown {what} `{wanted}` (valid: {})",
                names.join(", ")
            ))
        })
}

/// `Display`, `FromStr` and serde as the name, for a name enum.
macro_rules! named {
    ($t:ty, $what:literal) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $t {
            type Err = Error;
            fn from_str(text: &str) -> Result<Self, Error> {
                parse_name(text, &<$t>::ALL, <$t>::name, $what)
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                text.parse()
                    .map_err(|e: Error| serde::de::Error::custom(e.message))
            }
        }
    };
}

named!(AiLevel, "AI level");
named!(AgentKind, "agent");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_api_values() {
        let names: Vec<String> = AiLevel::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "random", "level1", "level2", "level3", "level4", "level5", "level6", "level7",
                "level8"
            ]
        );
        for (i, level) in AiLevel::ALL.into_iter().enumerate() {
            assert_eq!(level.number(), (i > 0).then_some(i as u8));
            assert_eq!(level.name().parse::<AiLevel>().unwrap(), level);
            if let Some(n) = level.number() {
                assert_eq!(AiLevel::from_number(n).unwrap(), level);
            }
        }
        assert!(
            AiLevel::ALL.windows(2).all(|w| w[0] < w[1]),
            "weakest first"
        );
        for kind in AgentKind::ALL {
            assert_eq!(kind.to_string().parse::<AgentKind>().unwrap(), kind);
        }
    }

    #[test]
    fn bad_names_list_the_valid_ones() {
        let e = "level9".parse::<AiLevel>().unwrap_err();
        assert_eq!(
            e.message,
            "unknown AI level `level9` (valid: random, level1, level2, level3, level4, level5, \
             level6, level7, level8)"
        );
        assert!("greedy".parse::<AiLevel>().is_err(), "not a level");
        let e = "deepblue".parse::<AgentKind>().unwrap_err();
        assert!(
            e.message
                .contains("valid: random, greedy, uct, mcts, alphabeta"),
            "{e}"
        );
        assert_eq!(" Level3 ".parse::<AiLevel>().unwrap(), AiLevel::Level3);
        assert_eq!(
            AiLevel::from_number(0).unwrap_err().message,
            "no level 0 (levels are 1 to 8)"
        );
        assert!(AiLevel::from_number(9).is_err());
    }

    #[test]
    fn serde_uses_the_names() {
        let json = serde_json::to_string(&AiLevel::ALL).unwrap();
        assert_eq!(
            json,
            r#"["random","level1","level2","level3","level4","level5","level6","level7","level8"]"#
        );
        let back: Vec<AiLevel> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, AiLevel::ALL);
        let kind: AgentKind = serde_json::from_str(r#""alphabeta""#).unwrap();
        assert_eq!(kind, AgentKind::AlphaBeta);
        let e = serde_json::from_str::<AiLevel>(r#""level0""#).unwrap_err();
        assert!(e.to_string().contains("unknown AI level `level0`"), "{e}");
    }
}
