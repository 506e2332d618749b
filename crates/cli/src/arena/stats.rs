//! Match statistics: Elo differences with a 95 % interval, and the SPRT.

/// Elo difference implied by a mean score `s` against `opponents` equal
/// opponents per game (Luce model: with one opponent, the usual logistic
/// formula). `None` at 0 or 1, where it is infinite.
pub fn elo(s: f64, opponents: usize) -> Option<f64> {
    if s <= 0.0 || s >= 1.0 {
        return None;
    }
    Some(400.0 * (s * opponents as f64 / (1.0 - s)).log10())
}

/// Mean and the half-width of its 95 % interval over game scores, taken
/// as independent (pairing only makes the true interval narrower).
pub fn mean_interval(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return (mean, f64::INFINITY);
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// A sequential probability ratio test of H0 "elo = elo0" against H1
/// "elo = elo1" for two players, with a normal approximation of the game
/// scores (GSPRT), error rates alpha = beta = 0.05.
#[derive(Clone, Copy, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Accept H1: the first agent is at least `elo1` stronger.
    H1,
    /// Accept H0.
    H0,
    Continue,
}

const ALPHA: f64 = 0.05;
/// Per-game score variance assumed at least (decisive games give 0.25).
const MIN_VARIANCE: f64 = 0.1;
const BETA: f64 = 0.05;

impl Sprt {
    /// Parse `ELO0,ELO1`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let bad = || format!("bad --sprt `{text}` (expected ELO0,ELO1, e.g. 0,50)");
        let (a, b) = text.split_once(',').ok_or_else(bad)?;
        let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
        let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
        if !(elo0 < elo1 && elo0.abs() < 2000.0 && elo1.abs() < 2000.0) {
            return Err(bad());
        }
        Ok(Sprt { elo0, elo1 })
    }

    fn score(elo: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf(-elo / 400.0))
    }

    /// Log-likelihood ratio of the first agent's game scores.
    pub fn llr(&self, scores: &[f64]) -> f64 {
        let n = scores.len() as f64;
        if scores.len() < 2 {
            return 0.0;
        }
        let mean = scores.iter().sum::<f64>() / n;
        // A floor keeps a perfect run (zero variance) from never deciding.
        let var = (scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).max(MIN_VARIANCE);
        let (s0, s1) = (Self::score(self.elo0), Self::score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, scores: &[f64]) -> Verdict {
        let llr = self.llr(scores);
        if llr >= ((1.0 - BETA) / ALPHA).ln() {
            Verdict::H1
        } else if llr <= (BETA / (1.0 - ALPHA)).ln() {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_matches_the_usual_formula() {
        assert_eq!(elo(0.5, 1), Some(0.0));
        let e = elo(0.75, 1).unwrap();
        assert!((e - 190.85).abs() < 0.01, "{e}");
        // A fair share among three is 1/3: no difference.
        assert!(elo(1.0 / 3.0, 2).unwrap().abs() < 1e-9);
        assert_eq!(elo(1.0, 1), None);
    }

    #[test]
    fn interval_shrinks_with_samples() {
        let (m, h) = mean_interval(&[0.0, 1.0, 0.5, 0.5]);
        assert_eq!(m, 0.5);
        assert!((h - 1.96 * (1.0f64 / 6.0 / 4.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let s = Sprt::parse("0,50").unwrap();
        let strong: Vec<f64> = (0..200)
            .map(|i| if i % 10 < 8 { 1.0 } else { 0.0 })
            .collect();
        assert_eq!(s.verdict(&strong), Verdict::H1);
        let even: Vec<f64> = (0..600).map(|i| f64::from(i % 2)).collect();
        assert_eq!(s.verdict(&even), Verdict::H0);
        assert_eq!(s.verdict(&strong[..4]), Verdict::Continue);
        assert_eq!(s.verdict(&[1.0; 12]), Verdict::H1, "a perfect run decides");
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("x").is_err());
    }
}
