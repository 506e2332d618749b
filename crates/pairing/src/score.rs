//! Exact scores. Two-player games score halves, three-player tables share the
//! points of tied places (thirds and halves of integers) and Sonneborn–Berger
//! halves those again, so a score is an integer number of twelfths of a point:
//! sums and comparisons stay exact, which floating point would not promise.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A score in twelfths of a point; serialised as that integer (`12` is one point).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Score(pub i64);

impl Score {
    pub const ZERO: Score = Score(0);
    /// Twelfths in one point.
    pub const UNIT: i64 = 12;

    /// Whole points.
    pub const fn points(p: i64) -> Score {
        Score(p * Self::UNIT)
    }

    /// Half points (`Score::halves(1)` is a draw in chess scoring).
    pub const fn halves(h: i64) -> Score {
        Score(h * Self::UNIT / 2)
    }

    pub fn as_f64(self) -> f64 {
        self.0 as f64 / Self::UNIT as f64
    }

    /// The mean of `scores` (for tied places sharing their points); exact
    /// when there are at most three of them, as at a three-player table.
    pub fn mean(scores: &[Score]) -> Score {
        let len = scores.len().max(1) as i64;
        Score(scores.iter().map(|s| s.0).sum::<i64>() / len)
    }

    /// Half of this score (a shared place counts half in Sonneborn–Berger).
    pub fn half(self) -> Score {
        Score(self.0 / 2)
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.0 += other.0;
    }
}

impl Sub for Score {
    type Output = Score;
    fn sub(self, other: Score) -> Score {
        Score(self.0 - other.0)
    }
}

impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, Add::add)
    }
}

/// Points with up to two decimals: `1.5`, `4`, `1.33`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % Self::UNIT == 0 {
            write!(f, "{}", self.0 / Self::UNIT)
        } else {
            let text = format!("{:.2}", self.as_f64());
            write!(f, "{}", text.trim_end_matches('0'))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_mean() {
        assert_eq!(Score::halves(3).to_string(), "1.5");
        assert_eq!(Score::points(4).to_string(), "4");
        let shared = Score::mean(&[Score::points(3), Score::points(1), Score::ZERO]);
        assert_eq!(shared.to_string(), "1.33");
        assert_eq!(shared.0 * 3, Score::points(4).0, "exact third");
        assert_eq!(Score::halves(1), Score(6));
    }
}
