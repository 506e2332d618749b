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

/// Returns estimated from static evaluations of a live position: a
/// softmax over the seats' evaluations (for two players, the logistic
/// win probability), so they sum to 1 like real game points.
pub fn eval_returns<G: Evaluate>(g: &G, n: usize) -> Returns {
    let mut r = [0.0; MAX_PLAYERS];
    if n == 2 {
        r[0] = win_probability(g.evaluate(Player(0)));
        r[1] = 1.0 - r[0];
        return r;
    }
    let mut total = 0.0;
    for (i, slot) in r.iter_mut().enumerate().take(n) {
        let e = compress(g.evaluate(Player(i as u8)));
        *slot = (e / PAWNS_PER_UNIT).exp();
        total += *slot;
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
