//! Game analysis (issue 41): the engine's verdict on every position of a
//! game, and from them what each action cost its player.
//!
//! Modelled on lila's analysis (fishnet values every position once; an
//! action's loss is the value of the position before it less the value of
//! the position after it, for the player who acted) and on GNU
//! Backgammon's skill and luck with dice.
//!
//! **Scale.** Every value is a seat's *expected score* in `[0, 1]`, the
//! scale of hints ([`crate::Choice::value`]): 1 a sure win, 0 a sure loss,
//! a two-player draw 0.5; the seats' values sum to 1. Two players get two
//! values, Gildervaik three.
//!
//! **Positions.** [`verdict`] values one position: where a player is to
//! move, by one search (a fresh agent at a fixed budget, so the same
//! position always gets the same verdict); at a chance node (the dice), by
//! the expectation over the outcomes of their own verdicts; at the end,
//! by the points of the outcome.
//!
//! **Actions.** [`analyse`] turns the verdicts of positions `0..=n` of a
//! game of `n` actions into one [`PlyAnalysis`] per action, in order:
//! - a player's action: `best` is the engine's action in the position
//!   before it; `loss` is 0 when the action is `best`, otherwise the
//!   player's value before less their value after, never below 0;
//!   `class` by the game's [`Thresholds`];
//! - a chance action (a roll): `best` null, `loss` 0, `class` null, and
//!   `luck`, the value the roll gave the player it lets move: their value
//!   after the roll less their expected value before it (GNU Backgammon's
//!   luck).
//!
//! **Per player.** `accuracy` after Lichess (lila `AccuracyPercent`,
//! <https://lichess.org/page/accuracy>): each decision scores
//! `103.1668 * exp(-0.04354 * L) - 3.1669` (clamped to `[0, 100]`) where
//! `L` is its loss in percentage points of expected score, and a player's
//! accuracy is the mean over their decisions that had a choice (a forced
//! action says nothing of skill); `null` without any. With dice, `skill`
//! is minus the sum of the player's losses and `luck` the sum of the luck
//! of their rolls, as GNU Backgammon reports them.

use crate::{Choice, Limits};
use serde::{Deserialize, Serialize};
use tabula_core::{AnyGame, Error, GameType, Player, Turn};

/// Nodes of one alpha-beta search (Dragonchess, Phylde): the analysis's
/// default depth, measured in `docs/benchmarks.md` (a 200-ply Dragonchess
/// game within a minute on one thread).
pub const SEARCH_NODES: u64 = 150_000;
/// Nodes of one expectimax search (Ad Elta Stelpur); a roll is valued by
/// one search per outcome, so each is smaller.
pub const DICE_NODES: u64 = 3_000;
/// Playouts of one MCTS search (Gildervaik).
pub const PLAYOUTS: u64 = 4_000;

/// The budget of one search of the analysis: a fixed count on one thread,
/// so a verdict never depends on the machine or its load.
pub fn limits(ty: GameType) -> Limits {
    let iterations = if ty.chance {
        DICE_NODES
    } else if ty.players > 2 {
        PLAYOUTS
    } else {
        SEARCH_NODES
    };
    Limits {
        iterations: Some(iterations),
        threads: Some(1),
        multipv: Some(1),
        ..Limits::default()
    }
}

/// How bad a loss is, by the game's [`Thresholds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The smallest loss (in expected score) of each class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    pub inaccuracy: f32,
    pub mistake: f32,
    pub blunder: f32,
}

impl Thresholds {
    /// The thresholds of a kind of game (`docs/analysis.md` lists them by
    /// game):
    /// - with dice (Ad Elta Stelpur): GNU Backgammon's "doubtful", "bad"
    ///   and "very bad" (0.04, 0.08, 0.16 of equity in `[-1, 1]`), on our
    ///   scale of half its width: 0.02, 0.04, 0.08;
    /// - two players without dice (Dragonchess, Phylde): lila's advice
    ///   (0.1, 0.2, 0.3 of winning chances in `[-1, 1]`): 0.05, 0.10, 0.15;
    /// - three players (Gildervaik): 0.06, 0.12, 0.18, wider because the
    ///   search valuing them (MCTS) is noisier and a loss is shared
    ///   between two rivals.
    pub fn of(ty: GameType) -> Thresholds {
        let (inaccuracy, mistake, blunder) = if ty.chance {
            (0.02, 0.04, 0.08)
        } else if ty.players > 2 {
            (0.06, 0.12, 0.18)
        } else {
            (0.05, 0.10, 0.15)
        };
        Thresholds {
            inaccuracy,
            mistake,
            blunder,
        }
    }

    pub fn classify(&self, loss: f32) -> Option<Severity> {
        if loss >= self.blunder {
            Some(Severity::Blunder)
        } else if loss >= self.mistake {
            Some(Severity::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Severity::Inaccuracy)
        } else {
            None
        }
    }
}

/// The engine's verdict on one position of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Every seat's expected score, in seat order.
    pub values: Vec<f32>,
    /// The seat to move; `None` at a chance node or the end.
    pub mover: Option<u8>,
    /// The engine's action when a player is to move.
    pub best: Option<String>,
    /// How many legal actions the mover had (0 at a chance node).
    pub choices: usize,
}

/// Chance nodes valued in a row by their outcomes: a roll that leaves
/// the roller no move leads to another roll (Ad Elta Stelpur passes), and
/// a roll two rolls deep is not searched but taken as even (every seat
/// `1 / n`), which bounds the work of a position at `21 * 21` searches.
const CHANCE_DEPTH: usize = 2;

/// The verdict on `game`'s position; `search` values a position where a
/// player is to move (a fresh agent at the analysis budget: see
/// `tabula_games::analysis_search`).
pub fn verdict(
    game: &dyn AnyGame,
    search: &mut dyn FnMut(&dyn AnyGame) -> Result<Choice, Error>,
) -> Result<Verdict, Error> {
    verdict_within(game, search, CHANCE_DEPTH)
}

fn verdict_within(
    game: &dyn AnyGame,
    search: &mut dyn FnMut(&dyn AnyGame) -> Result<Choice, Error>,
    chance_depth: usize,
) -> Result<Verdict, Error> {
    let n = game.num_players();
    match game.turn() {
        Turn::Over => {
            let outcome = game
                .outcome()
                .ok_or_else(|| Error::illegal("a game over has an outcome"))?;
            Ok(Verdict {
                values: (0..n)
                    .map(|p| outcome.score(Player(p as u8)) as f32)
                    .collect(),
                mover: None,
                best: None,
                choices: 0,
            })
        }
        Turn::Chance => {
            if chance_depth == 0 {
                return Ok(Verdict {
                    values: vec![1.0 / n as f32; n],
                    mover: None,
                    best: None,
                    choices: 0,
                });
            }
            let mut values = vec![0.0; n];
            for (outcome, p) in game.chance_outcomes() {
                let mut child = game.clone_box();
                child.apply_text(&outcome)?;
                let v = verdict_within(child.as_ref(), search, chance_depth - 1)?;
                for (slot, x) in values.iter_mut().zip(&v.values) {
                    *slot += p as f32 * x;
                }
            }
            Ok(Verdict {
                values,
                mover: None,
                best: None,
                choices: 0,
            })
        }
        Turn::Player(me) => {
            let choice = search(game)?;
            Ok(Verdict {
                values: seat_values(&choice, me.index(), n),
                mover: Some(me.0),
                best: Some(choice.action),
                choices: game.legal_actions().len(),
            })
        }
    }
}

/// Every seat's value from a search's answer: its own when it gives one
/// per seat, else the mover's value and the rest shared evenly by the
/// others.
fn seat_values(choice: &Choice, me: usize, n: usize) -> Vec<f32> {
    if choice.values.len() == n {
        return choice.values.clone();
    }
    let rest = (1.0 - choice.value) / (n.max(2) - 1) as f32;
    (0..n)
        .map(|p| if p == me { choice.value } else { rest })
        .collect()
}

/// Every position of a game: `start`, then the position after each of
/// `actions` (what [`analyse`] needs verdicts on), each with its history.
pub fn positions(start: &dyn AnyGame, actions: &[String]) -> Result<Vec<Box<dyn AnyGame>>, Error> {
    let mut all = Vec::with_capacity(actions.len() + 1);
    let mut game = start.clone_box();
    for action in actions {
        let next = {
            let mut g = game.clone_box();
            g.apply_text(action)?;
            g
        };
        all.push(std::mem::replace(&mut game, next));
    }
    all.push(game);
    Ok(all)
}

/// The analysis of one action of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// Every seat's value of the position before the action.
    pub values: Vec<f32>,
    /// The engine's action there; `None` for a roll.
    pub best: Option<String>,
    /// The value the action cost its player (0 for a roll).
    pub loss: f32,
    /// How bad the loss is; `None` below an inaccuracy and for a roll.
    pub class: Option<Severity>,
    /// For a roll: what it gave the seat it lets move (negative: took).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<f32>,
}

/// The analysis of a whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// One entry per action of the game, in order.
    pub plies: Vec<PlyAnalysis>,
    /// Every seat's value of the final position.
    pub end: Vec<f32>,
    /// Every seat's accuracy in `[0, 100]`; `None` for a seat that never
    /// had a choice.
    pub accuracy: Vec<Option<f32>>,
    /// With dice: minus the sum of each seat's losses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<Vec<f32>>,
    /// With dice: the sum of the luck of each seat's rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<Vec<f32>>,
}

impl PlyAnalysis {
    /// The analysis of this action as a record comment: the seats' values
    /// before it, then its class, loss and the engine's action, or the
    /// luck of a roll.
    pub fn comment(&self) -> String {
        let values: Vec<String> = self.values.iter().map(|v| format!("{v:.3}")).collect();
        let mut text = format!("values {}", values.join("/"));
        if let Some(luck) = self.luck {
            text += &format!("; luck {luck:+.3}");
        }
        if let Some(best) = &self.best {
            if self.loss > 0.0 {
                text += &format!("; loss {:.3}", self.loss);
            }
            if let Some(class) = self.class {
                text += &format!(" ({})", format!("{class:?}").to_lowercase());
            }
            text += &format!("; best {best}");
        }
        text
    }
}

/// Lichess's accuracy of one decision that lost `loss` of expected score.
pub fn move_accuracy(loss: f32) -> f32 {
    let points = f64::from(loss.max(0.0)) * 100.0;
    let a =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * points).exp() - 3.166_924_740_191_411;
    a.clamp(0.0, 100.0) as f32
}

/// The analysis of a game of `actions` (in notation) from the verdicts on
/// its positions: `verdicts[i]` is the position before `actions[i]`, the
/// last one the position after the last action.
pub fn analyse(ty: GameType, actions: &[String], verdicts: &[Verdict]) -> Result<Analysis, Error> {
    if verdicts.len() != actions.len() + 1 {
        return Err(Error::bad_record(format!(
            "{} actions need {} verdicts, not {}",
            actions.len(),
            actions.len() + 1,
            verdicts.len()
        )));
    }
    let n = ty.players;
    if verdicts.iter().any(|v| v.values.len() != n) {
        return Err(Error::bad_record(format!("a verdict without {n} values")));
    }
    let thresholds = Thresholds::of(ty);
    let mut skill = vec![0.0f32; n];
    let mut luck = vec![0.0f32; n];
    let mut scores: Vec<Vec<f32>> = vec![Vec::new(); n];
    let mut plies = Vec::with_capacity(actions.len());
    for (i, action) in actions.iter().enumerate() {
        let (before, after) = (&verdicts[i], &verdicts[i + 1]);
        let ply = match before.mover {
            Some(me) => {
                let me = usize::from(me);
                let loss = if before.best.as_deref() == Some(action.as_str()) {
                    0.0
                } else {
                    (before.values[me] - after.values[me]).max(0.0)
                };
                skill[me] -= loss;
                if before.choices > 1 {
                    scores[me].push(move_accuracy(loss));
                }
                PlyAnalysis {
                    values: before.values.clone(),
                    best: before.best.clone(),
                    loss,
                    class: thresholds.classify(loss),
                    luck: None,
                }
            }
            None => {
                // The roll's luck goes to the seat it lets move.
                let gained = after.mover.map(|r| {
                    let r = usize::from(r);
                    let g = after.values[r] - before.values[r];
                    luck[r] += g;
                    g
                });
                PlyAnalysis {
                    values: before.values.clone(),
                    best: None,
                    loss: 0.0,
                    class: None,
                    luck: Some(gained.unwrap_or(0.0)),
                }
            }
        };
        plies.push(ply);
    }
    let accuracy = scores
        .iter()
        .map(|s| (!s.is_empty()).then(|| s.iter().sum::<f32>() / s.len() as f32))
        .collect();
    Ok(Analysis {
        plies,
        end: verdicts[actions.len()].values.clone(),
        accuracy,
        skill: ty.chance.then_some(skill),
        luck: ty.chance.then_some(luck),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(players: usize, chance: bool) -> GameType {
        GameType {
            players,
            chance,
            multi_action_turns: chance,
        }
    }

    fn mover(me: u8, values: &[f32], best: &str) -> Verdict {
        Verdict {
            values: values.to_vec(),
            mover: Some(me),
            best: Some(best.to_string()),
            choices: 20,
        }
    }

    fn roll(values: &[f32]) -> Verdict {
        Verdict {
            values: values.to_vec(),
            mover: None,
            best: None,
            choices: 0,
        }
    }

    #[test]
    fn lichess_accuracy_reference_values() {
        // lila's formula: no loss is 99.9999, a loss of 10 points 63.58,
        // 30 points 24.77, 100 points 0 (clamped).
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.001);
        assert!(
            (move_accuracy(0.10) - 63.58).abs() < 0.01,
            "{}",
            move_accuracy(0.10)
        );
        assert!(
            (move_accuracy(0.30) - 24.77).abs() < 0.01,
            "{}",
            move_accuracy(0.30)
        );
        assert_eq!(move_accuracy(1.0), 0.0);
    }

    #[test]
    fn thresholds_by_kind_of_game() {
        let chess = Thresholds::of(ty(2, false));
        assert_eq!(chess.classify(0.049), None);
        assert_eq!(chess.classify(0.05), Some(Severity::Inaccuracy));
        assert_eq!(chess.classify(0.12), Some(Severity::Mistake));
        assert_eq!(chess.classify(0.4), Some(Severity::Blunder));
        let dice = Thresholds::of(ty(2, true));
        assert_eq!(dice.classify(0.03), Some(Severity::Inaccuracy));
        assert_eq!(dice.classify(0.08), Some(Severity::Blunder));
        let three = Thresholds::of(ty(3, false));
        assert_eq!(three.classify(0.15), Some(Severity::Mistake));
    }

    /// A two-player game: white plays the best action, then black loses
    /// 0.35 (a blunder), then white loses 0.07 (an inaccuracy).
    #[test]
    fn losses_classes_and_accuracy_of_a_short_game() {
        let actions = ["e2", "f7", "d1"].map(String::from);
        let verdicts = [
            mover(0, &[0.5, 0.5], "e2"),
            mover(1, &[0.48, 0.52], "e7"),
            mover(0, &[0.87, 0.13], "h5"),
            roll(&[0.80, 0.20]),
        ];
        let a = analyse(ty(2, false), &actions, &verdicts).expect("analysis");
        let losses: Vec<f32> = a.plies.iter().map(|p| p.loss).collect();
        assert_eq!(losses[0], 0.0, "the best action loses nothing");
        assert!((losses[1] - 0.39).abs() < 1e-6, "{losses:?}");
        assert!((losses[2] - 0.07).abs() < 1e-6, "{losses:?}");
        let classes: Vec<_> = a.plies.iter().map(|p| p.class).collect();
        assert_eq!(
            classes,
            [None, Some(Severity::Blunder), Some(Severity::Inaccuracy)]
        );
        assert_eq!(a.plies[1].best.as_deref(), Some("e7"));
        assert_eq!(a.plies[2].values, [0.87, 0.13]);
        assert_eq!(a.end, [0.80, 0.20]);
        let white = (100.0 + move_accuracy(0.07)) / 2.0;
        assert!((a.accuracy[0].expect("white") - white).abs() < 1e-4);
        assert!((a.accuracy[1].expect("black") - move_accuracy(0.39)).abs() < 1e-4);
        assert_eq!((a.skill, a.luck), (None, None), "no dice, no luck");
    }

    /// A gain after an action (the search saw further the second time)
    /// is no negative loss; a forced action counts in no accuracy.
    #[test]
    fn gains_are_no_loss_and_forced_actions_are_not_scored() {
        let actions = ["a".to_string()];
        let mut forced = mover(0, &[0.4, 0.6], "b");
        forced.choices = 1;
        let a = analyse(
            ty(2, false),
            &actions,
            &[forced, mover(1, &[0.5, 0.5], "c")],
        )
        .expect("analysis");
        assert_eq!(a.plies[0].loss, 0.0);
        assert_eq!(a.accuracy, [None, None]);
    }

    /// GNU Backgammon's split: a roll's luck is the roller's value after
    /// it less the expectation before it; skill the losses.
    #[test]
    fn dice_split_skill_and_luck() {
        let actions = ["3-5", "a", "2-2"].map(String::from);
        let verdicts = [
            roll(&[0.5, 0.5]),
            mover(0, &[0.6, 0.4], "b"),
            roll(&[0.55, 0.45]),
            mover(1, &[0.3, 0.7], "x"),
        ];
        let a = analyse(ty(2, true), &actions, &verdicts).expect("analysis");
        assert_eq!(a.plies[0].best, None);
        assert_eq!(a.plies[0].class, None);
        assert!((a.plies[0].luck.expect("luck") - 0.1).abs() < 1e-6);
        assert!((a.plies[1].loss - 0.05).abs() < 1e-6);
        assert_eq!(a.plies[1].class, Some(Severity::Mistake));
        assert!((a.plies[2].luck.expect("luck") - 0.25).abs() < 1e-6);
        let skill = a.skill.expect("skill");
        let luck = a.luck.expect("luck");
        assert!((skill[0] + 0.05).abs() < 1e-6 && skill[1] == 0.0);
        assert!((luck[0] - 0.1).abs() < 1e-6 && (luck[1] - 0.25).abs() < 1e-6);
    }

    #[test]
    fn a_ply_as_a_record_comment() {
        let actions = ["3-5", "a"].map(String::from);
        let verdicts = [
            roll(&[0.5, 0.5]),
            mover(0, &[0.6, 0.4], "b"),
            roll(&[0.4, 0.6]),
        ];
        let a = analyse(ty(2, true), &actions, &verdicts).expect("analysis");
        assert_eq!(a.plies[0].comment(), "values 0.500/0.500; luck +0.100");
        assert_eq!(
            a.plies[1].comment(),
            "values 0.600/0.400; loss 0.200 (blunder); best b"
        );
    }

    #[test]
    fn verdicts_must_match_the_actions() {
        let actions = ["a".to_string()];
        let err = analyse(ty(2, false), &actions, &[roll(&[0.5, 0.5])]).expect_err("short");
        assert!(err.message.contains("2 verdicts"), "{}", err.message);
        let bad = [roll(&[1.0]), roll(&[0.5, 0.5])];
        assert!(analyse(ty(2, false), &actions, &bad).is_err());
    }

    #[test]
    fn three_seats_without_their_own_values_share_the_rest() {
        let choice = Choice {
            action: "a".into(),
            value: 0.4,
            pv: vec![],
            nodes: 0,
            depth: None,
            ranked: vec![],
            exact: 0,
            values: vec![],
        };
        assert_eq!(seat_values(&choice, 1, 3), [0.3, 0.4, 0.3]);
        let own = Choice {
            values: vec![0.2, 0.5, 0.3],
            ..choice
        };
        assert_eq!(seat_values(&own, 1, 3), [0.2, 0.5, 0.3]);
    }
}
