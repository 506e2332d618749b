//! Static evaluation for the AI: a win probability learned from self-play.
//!
//! Expectimax averages leaf values over the dice, which is only right when
//! a leaf's value is linear in its chance of winning. So the evaluation is a
//! logistic model of the mover's win probability over a few features
//! (the pawns on each side, exposure to the next roll, captures open to the
//! roll in progress, protection), with weights fitted to the outcomes of
//! self-play games (`scripts/tune-stelpur.sh`, Texel-style) and kept as data
//! in `data/eval-weights.txt`. The value handed to the search is the logit
//! times [`PAWNS_PER_LOGIT`], the scale on which the agents read pawns.
//!
//! Under the seed rules an n-tuple network ([`crate::ntuple`], weights in
//! `data/ntuple-weights.txt`) adds to that logit what the linear features
//! miss: how the pawns stand together along the track. It was fitted on
//! top of these linear weights, under the seed rules only, so the other
//! rule sets (other dice, protection, bumps) keep the linear model alone.
//!
//! Under the seed rules and before a roll (the positions expectimax's
//! leaves are), a neural network trained by self-play TD(λ) ([`crate::mlp`],
//! weights in `data/mlp-weights.txt`) now gives the evaluation (or adds to
//! the fitted models' logit, if its file says `base previous`). The
//! evaluation before it stays as [`Evaluate::evaluate_previous`], which the
//! `classic` agent plays; during a roll both are the fitted models.

use crate::board::{cells, single, Cell};
use crate::mlp;
use crate::movegen::{self, protected};
use crate::ntuple;
use crate::options::{Options, Preset};
use crate::state::{Action, Stelpur};
use std::sync::LazyLock;
use tabula_core::{Evaluate, Player};

/// Chance (in 36ths) that one pawn `d` cells behind lands on a target with
/// one roll under the standard dice: any 1 (11), any 6 or 3-3 (12), 6-1
/// (2), and the doubles that add up.
const HIT_BY_DISTANCE: [u8; 13] = [0, 11, 2, 1, 2, 1, 12, 2, 1, 0, 1, 0, 1];
/// The same for a last pawn, by corners ahead: a 1 (11), a 6 (11), 6-1 (2).
const HIT_BY_CORNERS: [u8; 4] = [0, 11, 11, 2];

/// The agents read an evaluation of 4 pawns as a 73 % win (a logit of 1):
/// `tabula_ai::value` maps pawns to win chances with this scale.
pub const PAWNS_PER_LOGIT: f32 = 4.0;

/// Pawns a side can have: 1 to 6 while the game goes on.
pub const PAWNS: usize = 6;
/// Features after the material table, by name (the weights file's keys).
const TERMS: [&str; 10] = [
    "roll_attack_us",
    "roll_attack_them",
    "mid_captures_now",
    "mid_values_left",
    "mid_attack_us",
    "mid_attack_them",
    "last_attack_us",
    "last_attack_them",
    "protected_us",
    "protected_them",
];
/// The material table's size: one feature per (our pawns, their pawns).
const MATERIAL: usize = PAWNS * PAWNS;
// Indices of [`TERMS`] in the feature vector, after the material table.
const ROLL_ATTACK_US: usize = MATERIAL;
const ROLL_ATTACK_THEM: usize = MATERIAL + 1;
const MID_CAPTURES_NOW: usize = MATERIAL + 2;
const MID_VALUES_LEFT: usize = MATERIAL + 3;
const MID_ATTACK_US: usize = MATERIAL + 4;
const MID_ATTACK_THEM: usize = MATERIAL + 5;
const LAST_ATTACK_US: usize = MATERIAL + 6;
const LAST_ATTACK_THEM: usize = MATERIAL + 7;
const PROTECTED_US: usize = MATERIAL + 8;
const PROTECTED_THEM: usize = MATERIAL + 9;
/// Distances along the track between two pawns: 1 to 23 cells.
const DISTANCES: usize = 23;
/// Where the pair tables start: our pawn `d` cells behind one of theirs
/// (we threaten it) while the mover waits for a roll, the same with a roll
/// in progress, then pairs of own pawns `d` cells apart (d = 1..12, the
/// shorter way round), ours then theirs.
const CHASE_ROLL: usize = MATERIAL + TERMS.len();
const CHASE_MID: usize = CHASE_ROLL + DISTANCES;
const OWN_US: usize = CHASE_MID + DISTANCES;
const OWN_THEM: usize = OWN_US + 12;
/// Number of features: one per (our pawns, their pawns) pair, [`TERMS`],
/// then the pair tables.
pub const FEATURES: usize = OWN_THEM + 12;

/// The feature of the material table for `us` pawns against `them`
/// (each 1..=PAWNS).
pub const fn material_feature(us: usize, them: usize) -> usize {
    (us - 1) * PAWNS + them - 1
}

/// The tuned weights, as `scripts/tune-stelpur.sh` writes them.
const WEIGHTS_FILE: &str = include_str!("../data/eval-weights.txt");

static WEIGHTS: LazyLock<[f32; FEATURES]> = LazyLock::new(|| {
    // The file is part of the source: a test parses it, so this cannot fail
    // in a build whose tests pass.
    parse_weights(WEIGHTS_FILE).unwrap_or_else(|e| panic!("data/eval-weights.txt: {e}"))
});

/// The n-tuple network's weights, as `scripts/train-stelpur-ntuple.sh`
/// writes them.
const NTUPLE_FILE: &str = include_str!("../data/ntuple-weights.txt");

static NTUPLE: LazyLock<Vec<f32>> = LazyLock::new(|| {
    // As for the linear weights, a test parses the file.
    ntuple::parse_weights(NTUPLE_FILE).unwrap_or_else(|e| panic!("data/ntuple-weights.txt: {e}"))
});

/// The TD-trained network's weights, as `tabula train stelpur` writes them.
const MLP_FILE: &str = include_str!("../data/mlp-weights.txt");

static MLP: LazyLock<mlp::Net> = LazyLock::new(|| {
    // As for the linear weights, a test parses the file.
    mlp::Net::parse(MLP_FILE).unwrap_or_else(|e| panic!("data/mlp-weights.txt: {e}"))
});

/// Whether the rules of play are the seed's (the network's training
/// rules): only who starts and the draw limit may differ.
fn seed_rules(o: &Options) -> bool {
    let seed = Options::preset(Preset::Seed);
    Options {
        first_player: seed.first_player,
        no_capture_roll_limit: seed.no_capture_roll_limit,
        ..*o
    } == seed
}

/// The name of feature `i` in the weights file.
pub fn feature_name(i: usize) -> String {
    match i {
        _ if i < MATERIAL => format!("material_{}_{}", i / PAWNS + 1, i % PAWNS + 1),
        _ if i < CHASE_ROLL => TERMS[i - MATERIAL].to_string(),
        _ if i < CHASE_MID => format!("roll_chase_{}", i - CHASE_ROLL + 1),
        _ if i < OWN_US => format!("mid_chase_{}", i - CHASE_MID + 1),
        _ if i < OWN_THEM => format!("own_us_{}", i - OWN_US + 1),
        _ => format!("own_them_{}", i - OWN_THEM + 1),
    }
}

/// Read a weights file: `name value` per line, `#` comments, every feature
/// exactly once.
pub fn parse_weights(text: &str) -> Result<[f32; FEATURES], String> {
    let names: Vec<String> = (0..FEATURES).map(feature_name).collect();
    let mut w = [f32::NAN; FEATURES];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("line {}: expected `name value`", n + 1));
        };
        let i = names
            .iter()
            .position(|x| x == name)
            .ok_or_else(|| format!("line {}: unknown feature `{name}`", n + 1))?;
        let v: f32 = value
            .parse()
            .ok()
            .filter(|v: &f32| v.is_finite())
            .ok_or_else(|| format!("line {}: `{value}` is not a number", n + 1))?;
        if !w[i].is_nan() {
            return Err(format!("line {}: `{name}` given twice", n + 1));
        }
        w[i] = v;
    }
    match w.iter().position(|v| v.is_nan()) {
        Some(i) => Err(format!("`{}` missing", names[i])),
        None => Ok(w),
    }
}

/// Write weights in the file's format.
pub fn format_weights(w: &[f32; FEATURES]) -> String {
    (0..FEATURES)
        .map(|i| format!("{} {:.4}\n", feature_name(i), w[i]))
        .collect()
}

/// Expected pawns of `target` lost to `attacker`'s next roll (each pawn's
/// chance capped at 1).
fn exposure(attacker: u32, target: u32, o: &Options) -> f32 {
    let safe = protected(target, attacker, o);
    let last = single(attacker);
    cells(target & !safe)
        .map(|t| {
            let hits: u32 = cells(attacker).map(|a| hit_chance(a, t, last)).sum();
            (hits as f32 / 36.0).min(1.0)
        })
        .sum()
}

fn hit_chance(from: Cell, to: Cell, last: bool) -> u32 {
    if last {
        let mut c = from;
        for &hit in &HIT_BY_CORNERS[1..] {
            c = c.corner_ahead(1);
            if c == to {
                return u32::from(hit);
            }
        }
        return 0;
    }
    let d = (to.index() + 24 - from.index()) % 24;
    HIT_BY_DISTANCE.get(d as usize).map_or(0, |&h| u32::from(h))
}

/// Counts the pairs of pawns of `mask` by their distance (the shorter way
/// round, 1..=12) into `out[d - 1]`.
fn own_pairs(mask: u32, out: &mut [f32]) {
    for a in cells(mask) {
        for b in cells(mask & !((a.bit() << 1) - 1)) {
            let d = b.index() - a.index();
            out[usize::from(d.min(24 - d)) - 1] += 1.0;
        }
    }
}

impl Stelpur {
    /// The evaluation's features, seen from the player to move. Meant for
    /// positions still in play (both sides have pawns).
    pub fn features(&self) -> [f32; FEATURES] {
        let mut f = [0.0; FEATURES];
        let m = self.mover();
        let (us, them) = (self.pawns[m], self.pawns[1 - m]);
        let o = &self.opts;
        let n = |mask: u32| (mask.count_ones() as usize).clamp(1, PAWNS);
        f[material_feature(n(us), n(them))] = 1.0;
        let attack_us = exposure(us, them, o);
        let attack_them = exposure(them, us, o);
        if let Some(roll) = self.roll {
            let rules = self.roll_rules(roll);
            let mut hit = 0u32;
            movegen::legal_uses(&self.node(), &rules, |u| hit |= u.to.bit() & them);
            f[MID_CAPTURES_NOW] = hit.count_ones() as f32;
            f[MID_VALUES_LEFT] = f32::from(self.left.total());
            f[MID_ATTACK_US] = attack_us;
            f[MID_ATTACK_THEM] = attack_them;
        } else {
            f[ROLL_ATTACK_US] = attack_us;
            f[ROLL_ATTACK_THEM] = attack_them;
        }
        if single(them) {
            f[LAST_ATTACK_US] = attack_us;
        }
        if single(us) {
            f[LAST_ATTACK_THEM] = attack_them;
        }
        let chase = if self.roll.is_some() {
            CHASE_MID
        } else {
            CHASE_ROLL
        };
        for a in cells(us) {
            for t in cells(them) {
                let d = (t.index() + 24 - a.index()) % 24;
                f[chase + usize::from(d) - 1] += 1.0;
            }
        }
        own_pairs(us, &mut f[OWN_US..OWN_US + 12]);
        own_pairs(them, &mut f[OWN_THEM..OWN_THEM + 12]);
        f[PROTECTED_US] = protected(us, them, o).count_ones() as f32;
        f[PROTECTED_THEM] = protected(them, us, o).count_ones() as f32;
        f
    }

    /// The logit of the mover's win probability under the linear model
    /// alone, with the built-in weights.
    pub fn linear_logit(&self) -> f32 {
        self.win_logit(&WEIGHTS)
    }

    /// The evaluation's logit of the mover's win probability: under the
    /// seed rules and before a roll, the TD-trained network's (alone, or
    /// added to the previous evaluation's); otherwise the previous one.
    pub fn eval_logit(&self) -> f32 {
        let m = self.mover();
        if self.roll.is_none() && seed_rules(&self.opts) {
            let net = MLP.logit(self.pawns[m], self.pawns[1 - m]);
            if MLP.alone {
                net
            } else {
                self.linear_logit() + ntuple::logit(self.pawns[m], self.pawns[1 - m], &NTUPLE) + net
            }
        } else {
            self.previous_logit()
        }
    }

    /// The previous evaluation's logit (`classic`): the linear model plus,
    /// under the seed rules, the n-tuple network.
    pub fn previous_logit(&self) -> f32 {
        let linear = self.linear_logit();
        if seed_rules(&self.opts) {
            let m = self.mover();
            linear + ntuple::logit(self.pawns[m], self.pawns[1 - m], &NTUPLE)
        } else {
            linear
        }
    }

    /// The logit of the mover's win probability under `weights`.
    pub fn win_logit(&self, weights: &[f32; FEATURES]) -> f32 {
        self.features()
            .iter()
            .zip(weights)
            .map(|(f, w)| f * w)
            .sum()
    }
}

impl Stelpur {
    /// A logit of the mover's win as the evaluation for player `p`.
    fn pawns_for(&self, p: Player, logit: f32) -> f32 {
        let for_mover = PAWNS_PER_LOGIT * logit;
        if p.0 == self.to_move {
            for_mover
        } else {
            -for_mover
        }
    }
}

impl Evaluate for Stelpur {
    fn evaluate(&self, p: Player) -> f32 {
        self.pawns_for(p, self.eval_logit())
    }

    /// Level 8's evaluation before the TD-trained network.
    fn evaluate_previous(&self, p: Player) -> f32 {
        self.pawns_for(p, self.previous_logit())
    }

    fn is_tactical(&self, action: Action) -> bool {
        matches!(action, Action::Use(u) if self.captures(u))
    }

    fn playout_weight(&self, action: Action) -> f32 {
        if self.is_tactical(action) {
            4.0
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_file_parses_and_round_trips() {
        let w = parse_weights(WEIGHTS_FILE).expect("weights");
        assert_eq!(parse_weights(&format_weights(&w)), Ok(w));
    }

    #[test]
    fn bad_weights_files_are_refused() {
        let good = format_weights(&[0.5; FEATURES]);
        assert!(parse_weights(&good).is_ok());
        let missing = good.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert!(parse_weights(&missing).unwrap_err().contains("missing"));
        let twice = format!("{good}material_1_1 2\n");
        assert!(parse_weights(&twice).unwrap_err().contains("twice"));
        assert!(parse_weights(&format!("{good}x 1\n")).is_err());
        assert!(parse_weights(&good.replace("0.5000", "NaN")).is_err());
        assert!(parse_weights("material_1_1").is_err());
    }

    /// More pawns of one's own, or fewer of the opponent's, never lowers
    /// the material part of the evaluation.
    #[test]
    fn material_is_monotone() {
        let w = &*WEIGHTS;
        let m = |u: usize, t: usize| w[material_feature(u, t)];
        for u in 1..=PAWNS {
            for t in 1..=PAWNS {
                if u < PAWNS {
                    assert!(m(u + 1, t) >= m(u, t), "{u} against {t}");
                }
                if t < PAWNS {
                    assert!(m(u, t + 1) <= m(u, t), "{u} against {t}");
                }
            }
        }
    }

    #[test]
    fn the_network_file_parses() {
        let w = ntuple::parse_weights(NTUPLE_FILE).expect("n-tuple weights");
        assert_eq!(w.len(), ntuple::WEIGHTS);
        mlp::Net::parse(MLP_FILE).expect("TD network weights");
    }

    /// The same position seen by the other player (colours swapped, the
    /// board turned by a quarter or a half) gets the same value for the
    /// mover, before a roll and during one.
    #[test]
    fn the_evaluation_is_the_same_from_either_side() {
        use crate::board::forward;
        use crate::Roll;
        let mut g = Stelpur::start(&Options::default());
        g.pawns = [0b1000_0000_0101_0000_0010_0011, 0b0001_0100_0010_0000_1100];
        for roll in [None, Roll::new(6, 1)] {
            let mut g = g.clone();
            if let Some(r) = roll {
                g.apply(Action::Roll(r));
            }
            for turn in [6, 12] {
                let mut h = g.clone();
                h.pawns = [forward(g.pawns[1], turn), forward(g.pawns[0], turn)];
                h.to_move ^= 1;
                let (a, b) = (g.evaluate(g.to_move()), h.evaluate(h.to_move()));
                assert!((a - b).abs() < 1e-4, "{a} against {b}");
                assert!((g.eval_logit() - h.eval_logit()).abs() < 1e-5);
                assert!((g.previous_logit() - h.previous_logit()).abs() < 1e-5);
            }
        }
    }

    /// Other rule sets keep the linear model: the network was fitted under
    /// the seed rules.
    #[test]
    fn the_network_applies_under_the_seed_rules_only() {
        let seed = Options::default();
        assert!(seed_rules(&seed));
        let other_start = Options {
            first_player: Player(1),
            ..seed
        };
        assert!(seed_rules(&other_start));
        let ludii = Options::preset(Preset::Ludii);
        assert!(!seed_rules(&ludii));
        let g = Stelpur::start(&ludii);
        assert_eq!(g.eval_logit(), g.linear_logit());
        assert_eq!(g.previous_logit(), g.linear_logit());
    }

    /// The TD network only values positions before a roll: during one the
    /// evaluation is the previous one.
    #[test]
    fn the_td_network_applies_before_a_roll_only() {
        let mut g = Stelpur::start(&Options::default());
        g.apply(Action::Roll(crate::Roll::new(6, 1).expect("roll")));
        assert_eq!(g.eval_logit(), g.previous_logit());
        assert_eq!(g.evaluate(Player(0)), g.evaluate_previous(Player(0)));
    }

    #[test]
    fn the_evaluation_is_zero_sum_and_favours_the_side_ahead() {
        let mut g = Stelpur::start(&Options::default());
        assert_eq!(g.evaluate(Player(0)), -g.evaluate(Player(1)));
        g.pawns[1] &= !(1 << 12);
        assert!(g.evaluate(Player(0)) > 1.0);
    }
}
