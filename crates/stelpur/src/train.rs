//! Self-play training of the network of [`crate::mlp`] by TD(λ), the way
//! TD-Gammon learned backgammon: the network plays both sides one roll
//! ahead (every distinct position a roll can end in is valued, the best
//! taken: no search, so a game costs milliseconds), and after each game
//! every position before a roll learns its λ-return: `1 - λ` of the next
//! such position's value under the weights that played, plus `λ` of the
//! next position's own return, down to the result. The evaluation learned
//! is the whole logit (the linear model and n-tuple network of
//! [`crate::eval`] plus this network), so training starts from level 8's
//! evaluation as it was and learns what it gets wrong.

use crate::mlp::{log_loss, sigmoid, Net};
use crate::options::Options;
use crate::state::{Action, Stelpur};
use crate::ROLLS;
use std::collections::HashSet;
use tabula_core::{Player, Turn};

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// λ of the TD(λ) returns (1: the game's result alone).
    pub lambda: f32,
    /// Learning rate of the gradient steps.
    pub rate: f32,
    /// Seed of the dice; game `i` of a run rolls from `seed + i`, so a
    /// resumed run goes on with new dice.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            lambda: 0.7,
            rate: 0.01,
            seed: 1,
        }
    }
}

/// What one training game did.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameStats {
    /// Positions before a roll that learned.
    pub positions: u64,
    /// Sum of their log-losses against their targets, before learning.
    pub loss: f64,
    /// The same for the previous evaluation alone (what the network adds
    /// is the difference).
    pub base_loss: f64,
    /// Player 0's score.
    pub score: f32,
}

/// A 64-bit generator for the dice (SplitMix64): training needs nothing
/// more, and the game crate no random-number dependency.
pub fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A roll of the two dice, by its share in 36ths.
fn roll_dice(s: &mut u64) -> Action {
    let mut x = (splitmix(s) % 36) as u8;
    for &(roll, share) in &ROLLS {
        if x < share {
            return Action::Roll(roll);
        }
        x -= share;
    }
    Action::Roll(ROLLS[0].0)
}

/// The logit under `net` of the mover's win before `net` adds its own:
/// the previous evaluation's, or zero for a network alone.
fn base_logit(g: &Stelpur, net: &Net) -> f32 {
    if net.alone {
        0.0
    } else {
        g.previous_logit()
    }
}

/// The whole logit of the mover's win under `net` (the built-in linear
/// model and n-tuple network, plus `net`), for a position before a roll.
pub fn logit(g: &Stelpur, net: &Net) -> f32 {
    let m = g.mover();
    base_logit(g, net) + net.logit(g.pawns[m], g.pawns[1 - m])
}

/// Player 0's expected score in a position before a roll (or at the end).
fn value_p0(g: &Stelpur, net: Option<&Net>) -> f32 {
    if let Some(o) = g.outcome() {
        return o.score(Player(0)) as f32;
    }
    let l = match net {
        Some(net) => logit(g, net),
        None => g.previous_logit(),
    };
    let v = sigmoid(l);
    if g.mover() == 0 {
        v
    } else {
        1.0 - v
    }
}

/// Every distinct position (by hash) the roll in progress of `g` can end
/// in, the game's end included, appended to `out`.
pub fn roll_ends(g: &Stelpur, out: &mut Vec<Stelpur>) {
    fn walk(g: &Stelpur, seen: &mut HashSet<u64>, out: &mut Vec<Stelpur>) {
        use tabula_core::Game;
        if !seen.insert(g.hash()) {
            return;
        }
        if g.turn() != Turn::Player(g.to_move()) {
            out.push(g.clone());
            return;
        }
        let mut actions = Vec::new();
        g.legal_actions_into(&mut actions);
        for a in actions {
            let mut c = g.clone();
            c.apply(a);
            walk(&c, seen, out);
        }
    }
    walk(g, &mut HashSet::new(), out);
}

/// The position a roll ends in that is best for the player who rolled,
/// by one roll's look-ahead with `net` (`None`: the built-in evaluation
/// alone), with its value for player 0.
pub fn best_end(g: &Stelpur, net: Option<&Net>, ends: &mut Vec<Stelpur>) -> (Stelpur, f32) {
    ends.clear();
    roll_ends(g, ends);
    let me = g.mover();
    let mut best = (g.clone(), f32::NEG_INFINITY, 0.0);
    for e in ends.iter() {
        let v0 = value_p0(e, net);
        let mine = if me == 0 { v0 } else { 1.0 - v0 };
        if mine > best.1 {
            best = (e.clone(), mine, v0);
        }
    }
    (best.0, best.2)
}

/// Trains a network by self-play.
pub struct Trainer {
    pub net: Net,
    pub config: Config,
    ends: Vec<Stelpur>,
}

impl Trainer {
    pub fn new(net: Net, config: Config) -> Trainer {
        Trainer {
            net,
            config,
            ends: Vec::new(),
        }
    }

    /// Play one game against itself under the seed rules and learn from it.
    pub fn play_game(&mut self) -> GameStats {
        let mut dice = self
            .config
            .seed
            .wrapping_add(self.net.games.wrapping_mul(0x1_0001));
        let mut g = Stelpur::start(&Options::default());
        // Positions before a roll and player 0's value of each, as played.
        let mut seen: Vec<(Stelpur, f32)> = Vec::new();
        let mut v0 = value_p0(&g, Some(&self.net));
        while g.outcome().is_none() {
            seen.push((g.clone(), v0));
            g.apply(roll_dice(&mut dice));
            if g.turn() != Turn::Chance && g.outcome().is_none() {
                let (end, v) = best_end(&g, Some(&self.net), &mut self.ends);
                g = end;
                v0 = v;
            } else {
                v0 = value_p0(&g, Some(&self.net));
            }
        }
        let score = g.outcome().map_or(0.5, |o| o.score(Player(0)) as f32);
        // λ-returns, from the end back; each position's target is for its mover.
        let lambda = self.config.lambda;
        let mut ret = score;
        let mut stats = GameStats {
            score,
            ..GameStats::default()
        };
        for (pos, value) in seen.iter().rev() {
            let target0 = ret;
            let m = pos.mover();
            let target = if m == 0 { target0 } else { 1.0 - target0 };
            let base = base_logit(pos, &self.net);
            stats.base_loss += f64::from(log_loss(sigmoid(pos.previous_logit()), target));
            stats.loss += f64::from(self.net.learn(
                pos.pawns[m],
                pos.pawns[1 - m],
                base,
                target,
                self.config.rate,
            ));
            stats.positions += 1;
            // The return of the position before this one.
            ret = (1.0 - lambda) * value + lambda * ret;
        }
        self.net.games += 1;
        stats
    }
}

/// Player 0's score in a game where player 0 picks its rolls' ends with
/// `a` and player 1 with `b` (`None`: the built-in evaluation), dice from
/// `seed`: for measuring a network against the evaluation it started from.
pub fn duel(a: Option<&Net>, b: Option<&Net>, seed: u64) -> f32 {
    let mut dice = seed;
    let mut g = Stelpur::start(&Options::default());
    let mut ends = Vec::new();
    while g.outcome().is_none() {
        g.apply(roll_dice(&mut dice));
        if g.turn() != Turn::Chance && g.outcome().is_none() {
            let net = if g.mover() == 0 { a } else { b };
            g = best_end(&g, net, &mut ends).0;
        }
    }
    g.outcome().map_or(0.5, |o| o.score(Player(0)) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dice_follow_their_shares() {
        let mut s = 5;
        let mut doubles = 0;
        for _ in 0..36_000 {
            if let Action::Roll(r) = roll_dice(&mut s) {
                doubles += u32::from(r.is_double());
            }
        }
        // 6 of 36 rolls are doubles.
        assert!((5_500..6_500).contains(&doubles), "{doubles}");
    }

    #[test]
    fn a_roll_ends_in_distinct_positions_after_the_roll() {
        use tabula_core::Game;
        let mut g = Stelpur::start(&Options::default());
        g.apply(Action::Roll(crate::Roll::new(6, 6).expect("roll")));
        let mut ends = Vec::new();
        roll_ends(&g, &mut ends);
        assert!(ends.len() > 1);
        let hashes: HashSet<u64> = ends.iter().map(|e| e.hash()).collect();
        assert_eq!(hashes.len(), ends.len());
        assert!(ends.iter().all(|e| e.turn() != Turn::Player(e.to_move())));
    }

    #[test]
    fn training_games_end_and_learn() {
        let mut t = Trainer::new(Net::new(3), Config::default());
        let before = t.net.clone();
        for _ in 0..3 {
            let s = t.play_game();
            assert!(s.positions > 0 && s.loss.is_finite());
        }
        assert_eq!(t.net.games, 3);
        assert_ne!(t.net, before);
    }
}
