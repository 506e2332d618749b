//! Search budgets: time, iterations and cancellation, checked cheaply.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Share of the time budget searched: the rest is left for what follows
/// the search (building the answer, freeing the tree), so the whole
/// decision stays within the budget.
const DEADLINE_SHARE: f64 = 0.95;

/// What a caller allows one decision. A `None` field means "the agent's own
/// default"; `Limits::default()` leaves everything to the agent.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub time: Option<Duration>,
    /// Playouts for MCTS, nodes for tree searches.
    pub iterations: Option<u64>,
    /// Set to `true` to make the agent return its best action so far.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Multiplies the agent's own time when `time` is not given: a
    /// ladder of levels can be played at a fraction of their budgets.
    pub time_scale: Option<f64>,
    /// Threads searching one decision; `None` is 1. With 1 a search is
    /// exactly as before threads existed (reproducible at fixed nodes).
    pub threads: Option<usize>,
    /// Size of the alpha-beta/expectimax transposition table in MB
    /// (rounded down to a power of two of entries); `None` is the
    /// built-in 8 MB. A new size starts a new table.
    pub hash_mb: Option<usize>,
    /// Root actions whose values alpha-beta and expectimax make exact
    /// (multi-PV, at most [`crate::MAX_MULTIPV`] asked by the front
    /// ends); `None` is 1. The others' values are only bounds (see
    /// `Choice::exact`). Hints ask for a few; each one more costs a
    /// full-window search at the root.
    pub multipv: Option<usize>,
    /// Stop a tree search (alpha-beta, expectimax) once an iteration of
    /// this depth is done: time to depth, the usual measure of threads.
    /// Given alone it sets no time limit. MCTS has no depth and refuses it.
    pub depth: Option<u32>,
}

impl Limits {
    pub fn time(time: Duration) -> Self {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    pub fn iterations(n: u64) -> Self {
        Limits {
            iterations: Some(n),
            ..Limits::default()
        }
    }
}

/// Sets its flag when dropped: the main thread of a search stops its
/// helpers however it ends, even by a panic.
pub(crate) struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The budget of one running search.
///
/// Time is the hard limit: agents poll [`Budget::exhausted`] often enough
/// (at least every millisecond or so) to stay well within 10 % of it.
/// When the caller gives only iterations, the agent's own time limit does
/// not apply, so a fixed iteration count gives reproducible play.
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    deadline: Option<Instant>,
    iterations: Option<u64>,
    cancel: Option<Arc<AtomicBool>>,
    /// Set when the main thread of a search is done: helpers stop.
    stop: Option<Arc<AtomicBool>>,
    threads: usize,
    hash_mb: Option<usize>,
    multipv: usize,
    depth: Option<u32>,
}

impl Budget {
    pub fn new(limits: &Limits, defaults: &Limits) -> Self {
        let start = Instant::now();
        let (time, iterations) = match (limits.time, limits.iterations) {
            (None, None) if limits.depth.is_none() => {
                let scale = limits.time_scale.unwrap_or(1.0);
                (defaults.time.map(|t| t.mul_f64(scale)), defaults.iterations)
            }
            given => given,
        };
        Budget {
            start,
            deadline: time.map(|t| start + t.mul_f64(DEADLINE_SHARE)),
            iterations,
            cancel: limits.cancel.clone().or_else(|| defaults.cancel.clone()),
            stop: None,
            threads: limits.threads.or(defaults.threads).unwrap_or(1).max(1),
            hash_mb: limits.hash_mb.or(defaults.hash_mb),
            multipv: limits.multipv.or(defaults.multipv).unwrap_or(1).max(1),
            depth: limits.depth.or(defaults.depth),
        }
    }

    /// The budget of a helper thread: the same deadline and cancel flag, no
    /// iteration limit of its own (nodes are counted by the main thread),
    /// and `stop`, which the main thread sets when it is done.
    pub fn helper(&self, stop: Arc<AtomicBool>) -> Budget {
        Budget {
            iterations: None,
            stop: Some(stop),
            threads: 1,
            ..self.clone()
        }
    }

    /// Threads this decision may use (at least 1).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The transposition table size asked for, in MB.
    pub fn hash_mb(&self) -> Option<usize> {
        self.hash_mb
    }

    /// Root actions to value exactly (at least 1).
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// The deepest iteration a tree search may finish, if limited.
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// No limit at all: for searches bounded otherwise (fixed depth).
    pub fn unlimited() -> Self {
        Budget::new(&Limits::default(), &Limits::default())
    }

    /// Whether the search must stop after `done` iterations.
    pub fn exhausted(&self, done: u64) -> bool {
        self.iterations.is_some_and(|n| done >= n)
            || self.cancelled()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    pub fn cancelled(&self) -> bool {
        [&self.cancel, &self.stop]
            .into_iter()
            .flatten()
            .any(|c| c.load(Ordering::Relaxed))
    }

    /// Fraction of the time budget used, when there is one.
    pub fn time_used(&self) -> Option<f64> {
        let d = self.deadline?;
        let total = d.duration_since(self.start).as_secs_f64();
        Some(if total <= 0.0 {
            1.0
        } else {
            self.start.elapsed().as_secs_f64() / total
        })
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn iterations(&self) -> Option<u64> {
        self.iterations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searched(limits: &Limits, defaults: &Limits) -> Option<Duration> {
        let b = Budget::new(limits, defaults);
        b.deadline.map(|d| d.duration_since(b.start))
    }

    #[test]
    fn the_caller_overrides_and_scales_the_agents_time() {
        let own = Limits::time(Duration::from_millis(400));
        let share = |ms: u64| Some(Duration::from_millis(ms).mul_f64(DEADLINE_SHARE));
        assert_eq!(searched(&Limits::default(), &own), share(400));
        let scaled = Limits {
            time_scale: Some(0.25),
            ..Limits::default()
        };
        assert_eq!(searched(&scaled, &own), share(100));
        let given = Limits {
            time: Some(Duration::from_millis(30)),
            ..scaled
        };
        assert_eq!(searched(&given, &own), share(30));
        // Iterations alone drop the agent's own time, and so does a depth.
        assert_eq!(searched(&Limits::iterations(10), &own), None);
        let depth = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        assert_eq!(searched(&depth, &own), None);
        assert_eq!(Budget::new(&depth, &own).depth(), Some(4));
    }
}
