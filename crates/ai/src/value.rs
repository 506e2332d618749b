//! The value scales shared by every agent.
//!
//! Tree searches use an integer score for player 0 (two-player zero-sum):
//! `±(WIN - ply)` for a decided game, so faster wins score higher, and a
//! static evaluation squashed into `±EVAL_SPAN` (strictly inside the win
//! scores) through a logistic curve. Squashing keeps every score inside the
//! known bounds `±WIN`, which is what lets expectimax prune at chance nodes
//! (Star1), and it makes averages over dice behave like win probabilities.
//! A small slowly saturating tail is added to the logistic so that a lead of
//! 40 pawns still scores above one of 39: a pure logistic is flat there, and
//! a search that cannot see progress shuffles a won game into a draw.
//!
//! Callers see expected scores in `[0, 1]` for the player to move.

use tabula_core::{Evaluate, Game, Outcome, Player};

/// Score of a won game at the root; a win `ply` actions deep is `WIN - ply`.
pub const WIN: i32 = 100_000;
/// Scores beyond this magnitude are decided games.
pub const DECIDED: i32 = WIN - 1_000;
/// Static evaluations map into `(-EVAL_SPAN, EVAL_SPAN)`: the logistic
/// part spans `LOGISTIC_SPAN`, the tail the rest.
const EVAL_SPAN: f32 = 90_000.0;
const LOGISTIC_SPAN: f32 = 72_000.0;
/// Lead (in pawns) at which the tail reaches half its span: around it a
/// pawn is still worth tens of score units.
const TAIL_PAWNS: f32 = 50.0;
/// Evaluation (in pawns) worth a 73 % expected score (logistic scale).
const PAWNS_PER_UNIT: f32 = 4.0;

/// Expected score implied by a static evaluation in pawns.
pub fn win_probability(eval: f32) -> f32 {
    1.0 / (1.0 + (-eval / PAWNS_PER_UNIT).exp())
}

/// Search score of player 0 for a static evaluation of player 0.
pub fn eval_score(eval_p0: f32) -> i32 {
    if eval_p0.is_nan() {
        return 0;
    }
    let logistic = LOGISTIC_SPAN * (2.0 * win_probability(eval_p0) - 1.0);
    let tail = (EVAL_SPAN - LOGISTIC_SPAN) * eval_p0 / (eval_p0.abs() + TAIL_PAWNS);
    (logistic + tail).round() as i32
}

/// Search score of player 0 of a finished two-player game reached `ply`
/// actions below the root.
pub fn outcome_score(outcome: Outcome, ply: usize) -> i32 {
    let diff = outcome.score(Player(0)) - outcome.score(Player(1));
    (diff * f64::from(WIN - ply as i32)).round() as i32
}

/// Static search score of player 0 of a live position.
pub fn static_score<G: Evaluate>(g: &G) -> i32 {
    eval_score(g.evaluate(Player(0)))
}

/// Expected score of `p` (0 or 1) from a search score of player 0; a
/// decided game is exactly 1 or 0.
pub fn expected(score_p0: i32, p: Player) -> f32 {
    let e0 = if score_p0.abs() >= DECIDED {
        if score_p0 > 0 {
            1.0
        } else {
            0.0
        }
    } else {
        ((score_p0 as f32 / WIN as f32 + 1.0) / 2.0).clamp(0.0, 1.0)
    };
    if p == Player(0) {
        e0
    } else {
        1.0 - e0
    }
}

/// Most seats any agent handles (a fixed size keeps returns off the heap).
pub const MAX_PLAYERS: usize = 4;

/// Points of every seat at the end of a playout (max^n returns).
pub type Returns = [f32; MAX_PLAYERS];

pub fn outcome_returns(outcome: Outcome, n: usize) -> Returns {
    let mut r = [0.0; MAX_PLAYERS];
    for (i, slot) in r.iter_mut().enumerate().take(n) {
        *slot = outcome.score(Player(i as u8)) as f32;
    }
    r
}

/// Lead (in pawns) a root keeps when [`Centre`] recentres the
/// evaluations of several players.
const CENTRE_KEEPS: f32 = 4.0;
/// How far (in pawns) a seat's evaluation may drift from the centre a
/// kept tree was searched with before the tree is searched afresh.
const CENTRE_DRIFT: f32 = 1.0;

/// Where the evaluations of a search with three or more players are
/// measured from: each seat's evaluation at the root, less
/// `CENTRE_KEEPS` pawns towards zero (nothing for a smaller lead). The
/// softmax returns of a big lead sit within a few thousandths of 1, where
/// a step of progress moves them by less than MCTS can tell from noise
/// (a won Gildervaik race: 0.0025 a step), so the leader shuffles. Seen
/// from the recentred root the same lead reads as `CENTRE_KEEPS` pawns,
/// where a step is worth a visible share (Go programs' "dynamic komi").
/// Two players keep the plain scale: their searches saturate differently
/// (`eval_score`'s tail) and gain nothing from it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Centre([f32; MAX_PLAYERS]);

impl Centre {
    pub fn of<G: Evaluate>(root: &G, n: usize) -> Self {
        Centre::from_evals(&evals(root, n), n)
    }

    /// The centre of a root whose seats evaluate to `e`.
    fn from_evals(e: &[f32; MAX_PLAYERS], n: usize) -> Self {
        let mut c = [0.0; MAX_PLAYERS];
        if n > 2 {
            for (slot, e) in c.iter_mut().zip(e).take(n) {
                if e.is_finite() {
                    *slot = e.signum() * (e.abs() - CENTRE_KEEPS).max(0.0);
                }
            }
        }
        Centre(c)
    }

    /// Whether a tree searched from `self` still serves a root centred at
    /// `other`.
    pub fn near(&self, other: &Centre) -> bool {
        self.0
            .iter()
            .zip(other.0)
            .all(|(a, b)| (a - b).abs() <= CENTRE_DRIFT)
    }
}

/// Returns estimated from static evaluations of a live position: a
/// softmax over the seats' evaluations measured from `centre` (for two
/// players, the logistic win probability), so they sum to 1 like real
/// game points.
pub fn eval_returns<G: Evaluate>(g: &G, n: usize, centre: &Centre) -> Returns {
    if n == 2 {
        let mut r = [0.0; MAX_PLAYERS];
        r[0] = win_probability(g.evaluate(Player(0)));
        r[1] = 1.0 - r[0];
        return r;
    }
    softmax_returns(&evals(g, n), n, centre)
}

/// Every seat's evaluation of `g`.
fn evals<G: Evaluate>(g: &G, n: usize) -> [f32; MAX_PLAYERS] {
    let mut e = [0.0; MAX_PLAYERS];
    for (i, slot) in e.iter_mut().enumerate().take(n) {
        *slot = g.evaluate(Player(i as u8));
    }
    e
}

/// Returns of `n` seats evaluated to `e`, measured from `centre`.
fn softmax_returns(e: &[f32; MAX_PLAYERS], n: usize, centre: &Centre) -> Returns {
    let mut r = [0.0; MAX_PLAYERS];
    let mut total = 0.0;
    for i in 0..n {
        r[i] = (compress(e[i] - centre.0[i]) / PAWNS_PER_UNIT).exp();
        total += r[i];
    }
    for slot in r.iter_mut().take(n) {
        *slot /= total;
    }
    r
}

/// Evaluations beyond this many pawns are compressed (logarithmically).
const COMPRESS_FROM: f32 = 8.0;

/// An evaluation with large leads compressed, keeping the order: with
/// several opponents a big lead (rivals about to be eliminated, say) would
/// otherwise push every return to within 0.001 of 1, where MCTS can no
/// longer tell a safe move from one that loses the lead.
fn compress(e: f32) -> f32 {
    let k = COMPRESS_FROM;
    if e.is_nan() {
        0.0
    } else {
        e.signum() * k * (e.abs() / k).ln_1p()
    }
}

/// Whether the game has seats this crate can handle.
pub fn check_players<G: Game>(g: &G) -> Result<usize, tabula_core::Error> {
    let n = g.num_players();
    if (1..=MAX_PLAYERS).contains(&n) {
        Ok(n)
    } else {
        Err(tabula_core::Error::spec(format!(
            "the AI handles at most {MAX_PLAYERS} players, this game has {n}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_lead_of_three_players_is_recentred_and_progress_shows() {
        // A won race: the leader +18 pawns, the rivals -9 each; a step of
        // progress adds half a pawn to the leader (and takes a quarter
        // from each rival).
        let root = [18.0, -9.0, -9.0, 0.0];
        let step = [18.5, -9.25, -9.25, 0.0];
        let centre = Centre::from_evals(&root, 3);
        assert_eq!(centre, Centre([14.0, -5.0, -5.0, 0.0]));
        let gain = |c: &Centre| softmax_returns(&step, 3, c)[0] - softmax_returns(&root, 3, c)[0];
        let plain = gain(&Centre::default());
        let centred = gain(&centre);
        assert!(plain < 0.003, "{plain}");
        // 0.0025 a step plainly, 0.024 from the centre.
        assert!(centred > 8.0 * plain, "{centred} against {plain}");
        // Seen from the centre, the root reads as the kept lead.
        let kept = [CENTRE_KEEPS, -CENTRE_KEEPS, -CENTRE_KEEPS, 0.0];
        let r = softmax_returns(&root, 3, &centre)[0];
        assert!((r - softmax_returns(&kept, 3, &Centre::default())[0]).abs() < 1e-6);
        // A small lead and two players are left alone.
        assert_eq!(
            Centre::from_evals(&[3.0, -1.5, -1.5, 0.0], 3),
            Centre::default()
        );
        assert_eq!(Centre::from_evals(&root, 2), Centre::default());
        // A tree searched from one centre serves a root a pawn away.
        assert!(centre.near(&Centre([14.5, -5.5, -4.0, 0.0])));
        assert!(!centre.near(&Centre([15.5, -5.0, -5.0, 0.0])));
    }

    #[test]
    fn eval_scores_keep_telling_big_leads_apart_within_the_span() {
        let mut last = eval_score(0.0);
        assert_eq!(last, 0);
        for pawns in 1..=200 {
            let s = eval_score(pawns as f32);
            assert!(s > last, "{pawns} pawns: {s} not above {last}");
            assert!(s < EVAL_SPAN as i32 && s < DECIDED);
            assert_eq!(eval_score(-(pawns as f32)), -s);
            last = s;
        }
    }
}
