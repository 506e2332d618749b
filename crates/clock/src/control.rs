//! Time controls: what a game's clock is, its wire form and its limits.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Milliseconds in a day.
pub const DAY_MS: u64 = 86_400_000;

/// The days per turn a correspondence game may have (as Lichess offers).
pub const CORRESPONDENCE_DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// A game's time control. A game without a clock has none (`Option::None`;
/// absent on the wire).
///
/// Wire form (JSON): `{"initial_s": 300, "increment_s": 3}` or `{"days": 2}`.
/// Deserializing validates, so a stored or received control is always within
/// the limits below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Wire", into = "Wire")]
pub enum TimeControl {
    /// Base time, plus `increment_s` added at the end of each turn (Fischer).
    Realtime { initial_s: u32, increment_s: u32 },
    /// Each turn has the full `days`, whatever the previous turns used.
    Correspondence { days: u32 },
}

impl TimeControl {
    /// Shortest base time: 15 s (Lichess's shortest is ¼ minute).
    pub const MIN_INITIAL_S: u32 = 15;
    /// Longest base time: 3 hours (as Lichess).
    pub const MAX_INITIAL_S: u32 = 3 * 3600;
    /// Largest increment: 3 minutes (as Lichess).
    pub const MAX_INCREMENT_S: u32 = 180;

    /// The offered presets, as `(minutes, increment seconds)`:
    /// 1+0, 3+2, 5+3, 10+5, 15+10, 30+20.
    pub const PRESETS: [(u32, u32); 6] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 20)];

    /// A real-time control, checked against the limits.
    pub fn realtime(initial_s: u32, increment_s: u32) -> Result<Self, TimeControlError> {
        if !(Self::MIN_INITIAL_S..=Self::MAX_INITIAL_S).contains(&initial_s) {
            return Err(TimeControlError::Initial(initial_s));
        }
        if increment_s > Self::MAX_INCREMENT_S {
            return Err(TimeControlError::Increment(increment_s));
        }
        Ok(TimeControl::Realtime {
            initial_s,
            increment_s,
        })
    }

    /// A correspondence control: `days` must be one of [`CORRESPONDENCE_DAYS`].
    pub fn correspondence(days: u32) -> Result<Self, TimeControlError> {
        if CORRESPONDENCE_DAYS.contains(&days) {
            Ok(TimeControl::Correspondence { days })
        } else {
            Err(TimeControlError::Days(days))
        }
    }

    /// The presets as controls, in the order of [`Self::PRESETS`].
    pub fn presets() -> Vec<TimeControl> {
        Self::PRESETS
            .iter()
            .map(|&(min, inc)| TimeControl::Realtime {
                initial_s: min * 60,
                increment_s: inc,
            })
            .collect()
    }

    pub fn is_correspondence(&self) -> bool {
        matches!(self, TimeControl::Correspondence { .. })
    }

    /// A seat's time when the game starts.
    pub fn initial_ms(&self) -> u64 {
        match *self {
            TimeControl::Realtime { initial_s, .. } => u64::from(initial_s) * 1000,
            TimeControl::Correspondence { days } => u64::from(days) * DAY_MS,
        }
    }

    /// A seat's time after a turn that left it `left_ms`: plus the
    /// increment, or the full days again in correspondence.
    pub fn after_turn_ms(&self, left_ms: u64) -> u64 {
        match *self {
            TimeControl::Realtime { increment_s, .. } => left_ms + u64::from(increment_s) * 1000,
            TimeControl::Correspondence { .. } => self.initial_ms(),
        }
    }
}

/// `5+3` (minutes + seconds; `0.5+0` for 30 s) or `2 days`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => {
                if initial_s % 60 == 0 {
                    write!(f, "{}+{increment_s}", initial_s / 60)
                } else {
                    write!(f, "{}+{increment_s}", f64::from(initial_s) / 60.0)
                }
            }
            TimeControl::Correspondence { days: 1 } => write!(f, "1 day"),
            TimeControl::Correspondence { days } => write!(f, "{days} days"),
        }
    }
}

/// Why a time control was refused; the message states the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    Initial(u32),
    Increment(u32),
    Days(u32),
    /// Both `days` and a real-time field, or neither.
    Shape,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::Initial(s) => write!(
                f,
                "initial_s {s} out of range: {}..={} seconds",
                TimeControl::MIN_INITIAL_S,
                TimeControl::MAX_INITIAL_S
            ),
            TimeControlError::Increment(s) => write!(
                f,
                "increment_s {s} out of range: 0..={} seconds",
                TimeControl::MAX_INCREMENT_S
            ),
            TimeControlError::Days(d) => {
                let days: Vec<String> = CORRESPONDENCE_DAYS.iter().map(u32::to_string).collect();
                write!(f, "days {d} not offered: one of {}", days.join(", "))
            }
            TimeControlError::Shape => write!(
                f,
                "a time control is {{\"initial_s\": N, \"increment_s\": N}} or {{\"days\": N}}"
            ),
        }
    }
}

impl std::error::Error for TimeControlError {}

/// The JSON object both forms share; `increment_s` defaults to 0.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial_s: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    increment_s: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    days: Option<u32>,
}

impl TryFrom<Wire> for TimeControl {
    type Error = TimeControlError;
    fn try_from(w: Wire) -> Result<Self, TimeControlError> {
        match (w.initial_s, w.increment_s, w.days) {
            (Some(initial), inc, None) => TimeControl::realtime(initial, inc.unwrap_or(0)),
            (None, None, Some(days)) => TimeControl::correspondence(days),
            _ => Err(TimeControlError::Shape),
        }
    }
}

impl From<TimeControl> for Wire {
    fn from(c: TimeControl) -> Wire {
        match c {
            TimeControl::Realtime {
                initial_s,
                increment_s,
            } => Wire {
                initial_s: Some(initial_s),
                increment_s: Some(increment_s),
                days: None,
            },
            TimeControl::Correspondence { days } => Wire {
                initial_s: None,
                increment_s: None,
                days: Some(days),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<TimeControl, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn wire_forms_round_trip() {
        let rt = parse(r#"{"initial_s": 300, "increment_s": 3}"#).unwrap();
        assert_eq!(rt, TimeControl::realtime(300, 3).unwrap());
        assert_eq!(
            serde_json::to_string(&rt).unwrap(),
            r#"{"initial_s":300,"increment_s":3}"#
        );
        let corr = parse(r#"{"days": 2}"#).unwrap();
        assert_eq!(corr, TimeControl::Correspondence { days: 2 });
        assert_eq!(serde_json::to_string(&corr).unwrap(), r#"{"days":2}"#);
        assert_eq!(
            parse(r#"{"initial_s": 60}"#).unwrap(),
            TimeControl::Realtime {
                initial_s: 60,
                increment_s: 0
            }
        );
        // Absent means no clock.
        let none: Option<TimeControl> = serde_json::from_str("null").unwrap();
        assert_eq!(none, None);
    }

    #[test]
    fn limits_give_clear_errors() {
        let err = |json| parse(json).unwrap_err();
        assert!(err(r#"{"initial_s": 14}"#).contains("15..=10800"));
        assert!(err(r#"{"initial_s": 10801}"#).contains("15..=10800"));
        assert!(err(r#"{"initial_s": 60, "increment_s": 181}"#).contains("0..=180"));
        assert!(err(r#"{"days": 4}"#).contains("one of 1, 2, 3, 5, 7, 14"));
        assert!(err(r#"{"days": 2, "initial_s": 60}"#).contains("or {\"days\": N}"));
        assert!(err(r#"{"increment_s": 2}"#).contains("or {\"days\": N}"));
        assert!(err(r#"{}"#).contains("or {\"days\": N}"));
        assert!(err(r#"{"minutes": 5}"#).contains("unknown field"));
        assert!(err(r#"{"initial_s": -5}"#).contains("invalid value"));
        // The bounds themselves are allowed.
        assert!(TimeControl::realtime(15, 0).is_ok());
        assert!(TimeControl::realtime(10_800, 180).is_ok());
        for days in CORRESPONDENCE_DAYS {
            assert!(TimeControl::correspondence(days).is_ok());
        }
    }

    #[test]
    fn presets_and_display() {
        let names: Vec<String> = TimeControl::presets()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(names, ["1+0", "3+2", "5+3", "10+5", "15+10", "30+20"]);
        for c in TimeControl::presets() {
            let TimeControl::Realtime {
                initial_s,
                increment_s,
            } = c
            else {
                panic!("a preset is real time")
            };
            assert_eq!(TimeControl::realtime(initial_s, increment_s), Ok(c));
        }
        assert_eq!(TimeControl::realtime(30, 0).unwrap().to_string(), "0.5+0");
        assert_eq!(TimeControl::Correspondence { days: 1 }.to_string(), "1 day");
        assert_eq!(
            TimeControl::Correspondence { days: 7 }.to_string(),
            "7 days"
        );
    }
}
