//! The position and its rules of play: rolls, die-uses, the end of a roll,
//! extra rolls (R4), captures and the end of the game (§6).

use crate::board::{single, single_or_none, Cell};
use crate::dice::{Left, Roll};
use crate::movegen::{self, ends_game, Node, RollRules, Use, ValueUses};
use crate::options::{under_rules, ForcedPlay, Options, Preset};
use tabula_core::{Outcome, Player, PlayerSet, Turn};

/// One decision of a player or one roll of the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A chance outcome: the two dice.
    Roll(Roll),
    /// One die value moving one pawn.
    Use(Use),
    /// End the roll early (only under `forced_play=free`, after a use).
    Pass,
}

/// A position of Ad Elta Stelpur. Small and heap-free: cloning is a copy.
#[derive(Clone, Debug)]
pub struct Stelpur {
    /// Occupancy masks of player 1 and player 2 (bit c-1 = cell c).
    pub(crate) pawns: [u32; 2],
    pub(crate) to_move: u8,
    /// The roll being played; `None` while waiting for a roll (or at the end).
    pub(crate) roll: Option<Roll>,
    pub(crate) left: Left,
    pub(crate) pin: Option<Cell>,
    /// The roll in progress has captured (so it will not count for D1).
    pub(crate) captured: bool,
    /// Completed rolls since the last capture (D1).
    pub(crate) no_capture: u32,
    /// Turn number from 1, rising when the player to move changes.
    pub(crate) turn: u32,
    pub(crate) opts: Options,
    /// The preset `opts` is exactly, if any, for [`under_rules`].
    pub(crate) preset: Option<Preset>,
}

impl Stelpur {
    /// The start: P1 on 1-6, P2 on 13-18, the first player to roll.
    pub fn start(opts: &Options) -> Stelpur {
        Stelpur {
            pawns: [0x3F, 0x3F << 12],
            to_move: opts.first_player.0,
            roll: None,
            left: Left::EMPTY,
            pin: None,
            captured: false,
            no_capture: 0,
            turn: 1,
            opts: *opts,
            preset: opts.exact_preset(),
        }
    }

    /// The pawns of player `p` as a mask (bit c-1 = cell c).
    pub fn pawns(&self, p: Player) -> u32 {
        self.pawns[p.index()]
    }
    pub fn to_move(&self) -> Player {
        Player(self.to_move)
    }
    /// The roll in progress, with the values still to use.
    pub fn dice(&self) -> Option<(Roll, Left)> {
        self.roll.map(|r| (r, self.left))
    }
    /// Completed rolls since the last capture.
    pub fn rolls_without_capture(&self) -> u32 {
        self.no_capture
    }
    pub fn turn_number(&self) -> u32 {
        self.turn
    }

    pub(crate) fn mover(&self) -> usize {
        self.to_move as usize
    }

    pub(crate) fn node(&self) -> Node {
        let m = self.mover();
        Node {
            mine: self.pawns[m],
            theirs: self.pawns[1 - m],
            left: self.left,
            pin: self.pin,
        }
    }

    pub(crate) fn roll_rules(&self, roll: Roll) -> RollRules<'_> {
        self.rules_under(&self.opts, roll)
    }

    /// The rules of a roll under `o`, which is `self.opts` or a constant
    /// copy of it (see [`under_rules`]).
    #[inline(always)]
    fn rules_under<'a>(&self, o: &'a Options, roll: Roll) -> RollRules<'a> {
        let m = self.mover();
        RollRules::new(o, roll, self.pawns[m], m, self.turn)
    }

    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        let [a, b] = self.pawns;
        // Asked before every action: most often both sides have two pawns
        // or more and a roll is on (or the draw count is short).
        let limit = self.opts.no_capture_roll_limit;
        if !single_or_none(a)
            && !single_or_none(b)
            && (self.roll.is_some() || self.no_capture < limit || limit == 0)
        {
            return None;
        }
        if a == 0 || b == 0 {
            return Some(Outcome::Win(Player(u8::from(a == 0))));
        }
        let both = PlayerSet::all(2);
        if self.opts.mutual_last_pawn_draw && single(a) && single(b) {
            return Some(Outcome::Draw(both));
        }
        let limit = self.opts.no_capture_roll_limit;
        if self.roll.is_none() && limit > 0 && self.no_capture >= limit {
            return Some(Outcome::Draw(both));
        }
        None
    }

    pub fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else if self.roll.is_none() {
            Turn::Chance
        } else {
            Turn::Player(Player(self.to_move))
        }
    }

    /// The legal uses (and `pass`) of the roll in progress.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(roll) = self.roll else { return };
        let rules = self.roll_rules(roll);
        movegen::legal_uses(&self.node(), &rules, |u| out.push(Action::Use(u)));
        if self.opts.forced_play == ForcedPlay::Free && !out.is_empty() && self.has_used_a_value() {
            out.push(Action::Pass);
        }
    }

    /// Whether the roll in progress has used at least one value.
    fn has_used_a_value(&self) -> bool {
        self.roll.is_some_and(|r| {
            let last = single(self.pawns[self.mover()]);
            self.left.total() < r.values(last, &self.opts).total()
        })
    }

    /// Whether the roll in progress can go on (some use is R3-legal; under
    /// R5 a line of length >= 1 then exists too).
    pub(crate) fn can_use(&self, roll: Roll) -> bool {
        self.can_use_under(roll, &self.opts)
    }

    #[inline(always)]
    fn can_use_under(&self, roll: Roll, o: &Options) -> bool {
        !self.left.is_empty() && movegen::any_use(&self.value_uses(roll, o), o)
    }

    /// The uses of the roll in progress by value, under `o`.
    #[inline(always)]
    pub(crate) fn value_uses(&self, roll: Roll, o: &Options) -> [ValueUses; 2] {
        movegen::value_uses(&self.node(), &self.rules_under(o, roll))
    }

    pub fn apply(&mut self, action: Action) {
        under_rules!(self, |o| self.apply_under(action, o));
    }

    /// [`Stelpur::apply`] under `o`, `self.opts` or a constant copy of it.
    #[inline(always)]
    fn apply_under(&mut self, action: Action, o: &Options) {
        match action {
            Action::Roll(r) => {
                let last = single(self.pawns[self.mover()]);
                self.roll = Some(r);
                self.left = r.values(last, o);
                self.pin = None;
                self.captured = false;
                if !self.can_use_under(r, o) {
                    self.end_roll(r, o);
                }
            }
            Action::Use(u) => {
                let Some(roll) = self.roll else { return };
                let rules = self.rules_under(o, roll);
                let (next, captured) = movegen::apply_use(&self.node(), u, &rules);
                let m = self.mover();
                self.pawns[m] = next.mine;
                self.pawns[1 - m] = next.theirs;
                self.left = next.left;
                self.pin = next.pin;
                // Whether a use captures is unpredictable; ending the game is rare.
                self.no_capture *= u32::from(!captured);
                self.captured |= captured;
                if captured && ends_game(next.mine, next.theirs, o) {
                    self.clear_roll();
                    return;
                }
                if !self.can_use_under(roll, o) {
                    self.end_roll(roll, o);
                }
            }
            Action::Pass => {
                if let Some(roll) = self.roll {
                    self.end_roll(roll, o);
                }
            }
        }
    }

    fn clear_roll(&mut self) {
        self.roll = None;
        self.left = Left::EMPTY;
        self.pin = None;
        self.captured = false;
    }

    /// The roll is over: count it for D1, then the same player rolls again
    /// after a double (R4; under `ludii_literal` only if every value of a
    /// non-empty list was used), otherwise the opponent rolls.
    #[inline(always)]
    fn end_roll(&mut self, roll: Roll, o: &Options) {
        if !self.captured {
            self.no_capture = self.no_capture.saturating_add(1);
        }
        let again = roll.is_double()
            && (!o.ludii_literal || (self.left.is_empty() && self.gave_values(roll, o)));
        self.clear_roll();
        if !again {
            self.to_move ^= 1;
            self.turn = self.turn.saturating_add(1);
        }
    }

    fn gave_values(&self, roll: Roll, o: &Options) -> bool {
        let last = single(self.pawns[self.mover()]);
        !roll.values(last, o).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;
    use tabula_core::{random_playout, Game};

    /// Each preset is found, a changed option is not; and the rules code run
    /// with a preset's options as constants plays every game exactly as the
    /// same code reading them from the position (`preset: None`): same
    /// draws, same actions, same end, for 300 playouts a preset.
    #[test]
    fn constant_preset_rules_play_as_the_options_read_at_run_time() {
        for p in [Preset::Seed, Preset::TableSites, Preset::Ludii] {
            let opts = Options::preset(p);
            assert_eq!(opts.exact_preset(), Some(p));
            let changed = Options {
                no_capture_roll_limit: 15,
                ..opts
            };
            assert_eq!(changed.exact_preset(), None);
            let fast = Stelpur::start(&opts);
            let read = Stelpur {
                preset: None,
                ..fast.clone()
            };
            for seed in 0..300 {
                let (mut a, mut b) = (fast.clone(), read.clone());
                let sa = random_playout(&mut a, &mut SmallRng::seed_from_u64(seed), u64::MAX);
                let sb = random_playout(&mut b, &mut SmallRng::seed_from_u64(seed), u64::MAX);
                let stats = |s: tabula_core::PlayoutStats| (s.actions, s.decisions, s.outcome);
                assert_eq!(stats(sa), stats(sb), "{p:?}, seed {seed}");
                assert_eq!(a.position(), b.position(), "{p:?}, seed {seed}");
                assert_eq!(a.hash(), b.hash(), "{p:?}, seed {seed}");
            }
        }
    }
}
