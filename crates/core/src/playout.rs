//! Seeded random playouts: the workhorse of benchmarks and of MCTS.

use crate::game::{Game, Outcome, Turn};
use rand::Rng;

/// Statistics of one playout.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutStats {
    /// Actions played, chance outcomes included.
    pub actions: u64,
    /// Player actions only.
    pub decisions: u64,
    pub outcome: Option<Outcome>,
}

/// The chance outcome where the uniform number `x` in `[0, 1)` falls when
/// the outcomes' probabilities are laid end to end in their order; the last
/// outcome when rounding leaves `x` past the end. `None` without outcomes.
///
/// This is Tabula's one way to roll dice: stored games replay their dice
/// from seeds through it, so it must never change.
pub fn pick_chance<A: Copy>(outcomes: &[(A, f64)], x: f64) -> Option<A> {
    chance_index(outcomes, x).map(|i| outcomes[i].0)
}

/// The position in `outcomes` of [`pick_chance`]'s outcome for `x`.
fn chance_index<A>(outcomes: &[(A, f64)], x: f64) -> Option<usize> {
    let mut x = x;
    for (i, &(_, p)) in outcomes.iter().enumerate() {
        if x < p {
            return Some(i);
        }
        x -= p;
    }
    outcomes.len().checked_sub(1)
}

/// Pick a chance outcome according to its probability, with one uniform
/// draw `rng.gen::<f64>()` (see [`pick_chance`]).
pub fn sample_chance<G: Game, R: Rng + ?Sized>(
    outcomes: &[(G::Action, f64)],
    rng: &mut R,
) -> G::Action {
    pick_chance(outcomes, rng.gen()).expect("a chance node has outcomes")
}

/// The uniform number in `[0, 1)` that `rng.gen::<f64>()` makes of the
/// generator's next 64 bits (rand's method: the top 53 bits times 2^-53).
#[inline]
pub fn unit_from_bits(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// [`pick_chance`] for a list of outcomes that never changes (a game's dice),
/// as the points of `[0, 1)` where each outcome's share starts.
///
/// The same answer as [`pick_chance`] for every `x`, to the last bit: its
/// chain of rounded subtractions is monotone in `x`, so each outcome owns an
/// interval, whose start is found once by bisection over the bit patterns of
/// `[0, 1)`. Picking then starts from the outcome at the start of `x`'s
/// 1/256 slice of `[0, 1)` and steps over the starts at or below `x` (rarely
/// one): no chain of subtractions, which was most of a dice game's playouts.
///
/// A playout's draw is read from its 64 random bits ([`ChanceTable::pick_bits`]):
/// the starts are then integers, and the roll is found without floating
/// point. What follows a roll branches on it unpredictably, and each
/// misprediction waits for the roll to be known: through conversions to
/// and from floating point, longer (and longer on some processors than others).
#[derive(Clone, Debug)]
pub struct ChanceTable<A> {
    outcomes: Vec<(A, f64)>,
    /// `starts[i]`: the least `x` in `[0, 1)` that picks an outcome after
    /// `i` (1.0 when none does).
    starts: Vec<f64>,
    /// `slices[b]`: the outcome picked at `b / SLICES`.
    slices: Vec<usize>,
    /// `bit_starts[i]`: `starts[i]` times 2^53, rounded up: the least top 53
    /// bits of a draw that pick an outcome after `i`; then `u64::MAX`.
    bit_starts: Vec<u64>,
}

/// Slices of `[0, 1)` in a [`ChanceTable`]: a power of two, so `x * SLICES`
/// is exact.
const SLICES: usize = 256;

impl<A: Copy> ChanceTable<A> {
    pub fn new(outcomes: &[(A, f64)]) -> ChanceTable<A> {
        let index = |x: f64| chance_index(outcomes, x).unwrap_or(0);
        let one = 1.0f64.to_bits();
        let starts: Vec<f64> = (0..outcomes.len().saturating_sub(1))
            .map(|i| {
                // Least bit pattern in [0, one) whose index exceeds i, or one.
                let (mut lo, mut hi) = (0u64, one);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if index(f64::from_bits(mid)) > i {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                f64::from_bits(lo)
            })
            .collect();
        let slices = (0..SLICES)
            .map(|b| index(b as f64 / SLICES as f64))
            .collect();
        // A draw m / 2^53 reaches a start s exactly when m >= s * 2^53 (exact:
        // a power of two), that is when m reaches its ceiling.
        let bit_starts = starts
            .iter()
            .map(|&s| (s * (1u64 << 53) as f64).ceil() as u64)
            .chain([u64::MAX])
            .collect();
        ChanceTable {
            outcomes: outcomes.to_vec(),
            starts,
            slices,
            bit_starts,
        }
    }

    pub fn outcomes(&self) -> &[(A, f64)] {
        &self.outcomes
    }

    /// What [`pick_chance`] gives for `x` on these outcomes.
    #[inline]
    pub fn pick(&self, x: f64) -> Option<A> {
        if !(0.0..1.0).contains(&x) {
            return pick_chance(&self.outcomes, x);
        }
        let mut i = self.slices[(x * SLICES as f64) as usize % SLICES];
        while self.starts.get(i).is_some_and(|&s| s <= x) {
            i += 1;
        }
        self.outcomes.get(i).map(|o| o.0)
    }

    /// What [`ChanceTable::pick`] gives for [`unit_from_bits`]`(bits)`, in
    /// integers only.
    #[inline]
    pub fn pick_bits(&self, bits: u64) -> Option<A> {
        let m = bits >> 11;
        // The top 8 of `m`'s 53 bits are its slice (`SLICES` is 2^8).
        let mut i = self.slices[(m >> 45) as usize % SLICES];
        // `bit_starts` ends with u64::MAX: the scan stops at the last outcome.
        while self.bit_starts.get(i).is_some_and(|&s| s <= m) {
            i += 1;
        }
        self.outcomes.get(i).map(|o| o.0)
    }
}

/// A uniformly random legal action of the player to move, listed into
/// `buf`: `buf[rng.gen_range(0..buf.len())]`, or `None` (and no draw) when
/// there is none. The reference for [`Game::random_action`].
pub fn pick_uniform<G: Game, R: Rng + ?Sized>(
    game: &G,
    rng: &mut R,
    buf: &mut Vec<G::Action>,
) -> Option<G::Action> {
    game.legal_actions(buf);
    if buf.is_empty() {
        return None;
    }
    Some(buf[rng.gen_range(0..buf.len())])
}

/// Play uniformly random legal actions (chance by its probabilities) until
/// the game ends or `max_actions` have been played.
pub fn random_playout<G: Game, R: Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    max_actions: u64,
) -> PlayoutStats {
    let mut actions = Vec::with_capacity(256);
    let mut chances = Vec::with_capacity(32);
    let mut stats = PlayoutStats {
        actions: 0,
        decisions: 0,
        outcome: None,
    };
    while stats.actions < max_actions {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                // The draw of `rng.gen::<f64>()`, as its bits.
                let a = game
                    .pick_chance_bits(rng.next_u64(), &mut chances)
                    .expect("a chance node has outcomes");
                game.apply(a);
            }
            Turn::Player(_) => {
                let a = game
                    .random_action(rng, &mut actions)
                    .expect("a player to move has an action");
                game.apply(a);
                stats.decisions += 1;
            }
        }
        stats.actions += 1;
    }
    stats.outcome = game.outcome();
    stats
}

#[cfg(test)]
mod tests {
    use super::{pick_chance, unit_from_bits, ChanceTable};

    #[test]
    fn outcomes_are_laid_end_to_end_in_order() {
        let outs = [('a', 0.25), ('b', 0.5), ('c', 0.25)];
        assert_eq!(pick_chance(&outs, 0.0), Some('a'));
        assert_eq!(pick_chance(&outs, 0.249), Some('a'));
        assert_eq!(pick_chance(&outs, 0.25), Some('b'));
        assert_eq!(pick_chance(&outs, 0.75), Some('c'));
        assert_eq!(pick_chance(&outs, 0.999_999), Some('c'));
        // Rounding past the end gives the last outcome; no outcome, none.
        assert_eq!(pick_chance(&[('a', 0.3), ('b', 0.3)], 0.9), Some('b'));
        assert_eq!(pick_chance::<char>(&[], 0.5), None);
    }

    /// Two dice's 21 rolls (k/36 each), uneven shares and zero ones: the
    /// table answers as `pick_chance` at random points and around every
    /// start, where rounding decides.
    #[test]
    fn a_chance_table_answers_as_pick_chance_to_the_last_bit() {
        let dice: Vec<(usize, f64)> = (0..21)
            .map(|i| (i, if i < 6 { 1.0 } else { 2.0 } / 36.0))
            .collect();
        let lists = [
            dice,
            vec![(0, 0.1), (1, 0.2), (2, 0.3), (3, 0.4)],
            vec![(0, 0.0), (1, 0.5), (2, 0.0), (3, 0.5)],
            vec![(0, 1.0 / 3.0), (1, 1.0 / 3.0), (2, 1.0 / 3.0)],
            vec![(0, 1.0)],
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for outs in &lists {
            let table = ChanceTable::new(outs);
            let mut probes: Vec<f64> = (0..20_000)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed >> 11) as f64 / (1u64 << 53) as f64
                })
                .collect();
            for &s in &table.starts {
                let b = s.to_bits();
                probes.extend((b.saturating_sub(4)..b + 4).map(f64::from_bits));
            }
            probes.extend([0.0, -0.5, 1.0, 2.0, f64::NAN, 1.0 - f64::EPSILON / 2.0]);
            for x in probes {
                assert_eq!(table.pick(x), pick_chance(outs, x), "x = {x:e}");
            }
            // From the bits: random draws, then every top 53 bits near each start.
            let mut draws: Vec<u64> = (0..20_000)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed
                })
                .collect();
            for &s in &table.bit_starts {
                let m = s.min((1 << 53) - 3);
                draws.extend((m.saturating_sub(3)..m + 3).map(|m| m << 11 | (seed & 0x7FF)));
            }
            draws.extend([0, u64::MAX]);
            for bits in draws {
                let x = unit_from_bits(bits);
                assert_eq!(
                    table.pick_bits(bits),
                    pick_chance(outs, x),
                    "bits = {bits:#x}"
                );
            }
        }
    }

    /// `rng.gen::<f64>()` is `unit_from_bits` of the same draw's `next_u64`.
    #[test]
    fn unit_from_bits_is_the_generators_uniform_draw() {
        use rand::{rngs::SmallRng, Rng, RngCore, SeedableRng};
        let (mut a, mut b) = (SmallRng::seed_from_u64(3), SmallRng::seed_from_u64(3));
        for _ in 0..10_000 {
            let x = unit_from_bits(b.next_u64());
            assert_eq!(a.gen::<f64>().to_bits(), x.to_bits());
        }
    }
}
