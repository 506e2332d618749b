//! How the threads of one search share the work (Lazy SMP): which depths a
//! helper searches, what the helpers tell the main thread, when the main
//! thread stops, and whose answer is played.
//!
//! The main thread starts no iteration after [`SOFT_SHARE`] of its time,
//! since a new one rarely finishes. Alone, that is the whole rule. With
//! helpers it is not: a helper is usually partway through an iteration
//! deeper than the main thread's, and stopping the main thread stops it
//! too, throwing that work away (issue 39 counted it in half the 2-thread
//! searches, and the answer came from a helper in 1.7 %). So the main
//! thread goes on while a helper has a deeper iteration under way, and
//! stops as soon as a helper finishes one at least as deep as its own.
//!
//! Threads on the same iteration would otherwise walk the same first
//! children together and meet the table's entries only as each finishes.
//! So a node marks itself busy while it is searched, and its parent on
//! another thread searches its siblings first (ABDADA's deferral, without
//! its exclusive pass): on 48 Dragonchess positions two threads reached
//! depth 7 in 0.56-0.63 of one thread's time, against 0.75-0.80 without it.

use super::RootResult;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

/// Share of the time after which the main thread starts no iteration that
/// no helper is already ahead on.
pub(super) const SOFT_SHARE: f64 = 0.6;

/// Whether helper `helper` (from 0) skips the iteration of `depth`:
/// Stockfish 8's tables (`SkipSize`, `SkipPhase`), which spread the
/// helpers over the main thread's depth and the next ones.
pub(super) fn skips(helper: usize, depth: i32) -> bool {
    const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = helper % SIZE.len();
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}

/// Slots of [`Shared`]'s table of nodes under search: far more than the
/// nodes the threads' lines hold at once, so that two rarely share one.
const BUSY_SLOTS: usize = 1 << 10;

/// Nodes at least this deep (in actions left) mark themselves busy and
/// defer busy children: below, a node is searched faster than the marking costs.
pub(super) const DEFER_DEPTH: i32 = 3;

/// What the threads of one search share beyond the table: the helpers'
/// progress, for the main thread, and the nodes under search (ABDADA's
/// idea: a thread leaves a node another thread is searching for last,
/// and meanwhile searches its siblings, which the other is not).
#[derive(Debug)]
pub(super) struct Shared {
    /// Deepest iteration a helper has started.
    started: AtomicI32,
    /// Deepest iteration a helper has finished.
    finished: AtomicI32,
    /// Hashes of nodes being searched by some thread (0: a free slot).
    busy: Box<[AtomicU64]>,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            started: AtomicI32::new(0),
            finished: AtomicI32::new(0),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Shared {
    fn busy_slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key as usize) & (BUSY_SLOTS - 1)]
    }

    /// Mark the node `key` as under search; false if its slot is taken
    /// (by this node on another thread, or by another node).
    pub(super) fn enter(&self, key: u64) -> bool {
        key != 0
            && self
                .busy_slot(key)
                .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Unmark the node `key`, which [`Shared::enter`] marked.
    pub(super) fn leave(&self, key: u64) {
        let _ = self
            .busy_slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether another thread is searching the node `key`.
    pub(super) fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.busy_slot(key).load(Ordering::Relaxed) == key
    }

    /// A helper starts the iteration of `depth`.
    pub(super) fn start(&self, depth: i32) {
        self.started.fetch_max(depth, Ordering::Relaxed);
    }

    /// A helper finished the iteration of `depth`.
    pub(super) fn finish(&self, depth: i32) {
        self.finished.fetch_max(depth, Ordering::Relaxed);
    }

    /// Deepest iteration a helper has finished (0: none).
    pub(super) fn finished(&self) -> i32 {
        self.finished.load(Ordering::Relaxed)
    }

    /// Whether a helper has finished an iteration at least as deep as
    /// `depth`, the main thread's current one, which then cannot improve
    /// on the answer.
    pub(super) fn outruns(&self, depth: i32) -> bool {
        self.finished() >= depth
    }

    fn snapshot(&self) -> Helpers {
        Helpers {
            started: self.started.load(Ordering::Relaxed),
            finished: self.finished(),
        }
    }
}

/// The order in which a node of a threaded search takes its actions:
/// theirs, except that an action whose position another thread is
/// searching is left for last, after all the others (ABDADA's deferral).
#[derive(Debug, Default)]
pub(super) struct Deferring {
    next: usize,
    taken: usize,
    later: Vec<usize>,
}

impl Deferring {
    /// Start again, for a new node.
    pub(super) fn clear(&mut self) {
        self.next = 0;
        self.taken = 0;
        self.later.clear();
    }

    /// The index of the next action to search among `n`, or `None` when
    /// all are done. `defer(i)` is asked once for each index, in order,
    /// the first time it comes up: true leaves that action for last.
    pub(super) fn next(&mut self, n: usize, mut defer: impl FnMut(usize) -> bool) -> Option<usize> {
        while self.next < n {
            let i = self.next;
            self.next += 1;
            if !defer(i) {
                return Some(i);
            }
            self.later.push(i);
        }
        let i = self.later.get(self.taken).copied();
        self.taken += usize::from(i.is_some());
        i
    }
}

/// What the main thread knows of its helpers when it decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Helpers {
    started: i32,
    finished: i32,
}

/// The main thread's next iteration after it finished (or was outrun on
/// the one after) the iteration of `done`, with `used` of its time gone;
/// `None` to stop. It never repeats an iteration a helper finished, and
/// after [`SOFT_SHARE`] of its time it goes on only while a helper is on
/// an iteration deeper than every one finished.
pub(super) fn next_depth(done: i32, used: Option<f64>, helpers: Option<&Shared>) -> Option<i32> {
    decide(
        done,
        used,
        helpers.map(Shared::snapshot).unwrap_or_default(),
    )
}

fn decide(done: i32, used: Option<f64>, helpers: Helpers) -> Option<i32> {
    let ahead = done.max(helpers.finished);
    let late = used.is_some_and(|t| t > SOFT_SHARE);
    (!late || helpers.started > ahead).then_some(ahead + 1)
}

/// The result of the thread that finished the deepest iteration, the main
/// thread's on a tie: a helper that started deeper and completed an
/// iteration the main thread did not reach knows more (Stockfish's best
/// thread, without the vote).
pub(super) fn deepest<A>(main: RootResult<A>, helpers: Vec<RootResult<A>>) -> RootResult<A> {
    helpers
        .into_iter()
        .fold(main, |best, h| if h.depth > best.depth { h } else { best })
}

#[cfg(test)]
mod tests {
    use super::{decide, deepest, next_depth, skips, Deferring, Helpers, RootResult, Shared};

    #[test]
    fn helpers_spread_over_the_next_depths() {
        let searched = |h: usize| -> Vec<i32> { (1..=8).filter(|&d| !skips(h, d)).collect() };
        assert_eq!(searched(0), [2, 4, 6, 8]);
        assert_eq!(searched(1), [1, 3, 5, 7]);
        assert_eq!(searched(2), [1, 4, 5, 8]);
        // Every helper searches half the depths.
        for h in 0..40 {
            let n = (1..=48).filter(|&d| !skips(h, d)).count();
            assert_eq!(n, 24, "helper {h}");
        }
    }

    #[test]
    fn alone_the_main_thread_stops_after_the_soft_share() {
        assert_eq!(next_depth(4, Some(0.3), None), Some(5));
        assert_eq!(next_depth(4, Some(0.61), None), None);
        // A search without a time limit deepens until its other limits.
        assert_eq!(next_depth(9, None, None), Some(10));
    }

    #[test]
    fn the_main_thread_waits_for_a_deeper_helper_iteration_when_late() {
        let h = |started, finished| Helpers { started, finished };
        // Late, a helper on depth 6 while main finished 4: go on, to 5.
        assert_eq!(decide(4, Some(0.7), h(6, 4)), Some(5));
        // Late, the helper's iteration is no deeper than main's: stop.
        assert_eq!(decide(4, Some(0.7), h(4, 2)), None);
        // Late, the helper finished 6 and started nothing deeper: stop.
        assert_eq!(decide(4, Some(0.7), h(6, 6)), None);
        // Late, the helper finished 6 and is on 8: go on above 6.
        assert_eq!(decide(4, Some(0.7), h(8, 6)), Some(7));
        // Early: never repeat a depth a helper finished.
        assert_eq!(decide(3, Some(0.2), h(6, 4)), Some(5));
        assert_eq!(decide(5, Some(0.2), h(6, 4)), Some(6));
    }

    #[test]
    fn the_helpers_progress_only_grows() {
        let p = Shared::default();
        p.start(2);
        p.finish(2);
        p.start(4);
        p.start(1);
        p.finish(1);
        assert_eq!(
            p.snapshot(),
            Helpers {
                started: 4,
                finished: 2
            }
        );
        assert!(p.outruns(2) && !p.outruns(3));
        assert_eq!(next_depth(3, Some(0.9), Some(&p)), Some(4));
        p.finish(4);
        assert_eq!(next_depth(3, Some(0.9), Some(&p)), None);
    }

    #[test]
    fn a_node_under_search_is_busy_until_left_and_never_by_another_key() {
        let s = Shared::default();
        let (a, b) = (0x1234_5678_9abc_def0_u64, 0x77);
        assert!(!s.is_busy(a));
        assert!(s.enter(a) && s.is_busy(a));
        // A second thread entering the same node does not own it.
        assert!(!s.enter(a));
        // Another key on the same slot is neither busy nor markable.
        let clash = a.wrapping_add(super::BUSY_SLOTS as u64);
        assert!(!s.is_busy(clash) && !s.enter(clash));
        // Leaving with another key changes nothing; with its own, frees it.
        s.leave(clash);
        assert!(s.is_busy(a));
        s.leave(a);
        assert!(!s.is_busy(a) && s.enter(clash) && !s.is_busy(a));
        // Key 0 marks a free slot: it is never busy.
        assert!(!s.enter(0) && !s.is_busy(0) && s.enter(b));
    }

    #[test]
    fn deferred_actions_come_last_in_their_order_each_once() {
        let mut order = Deferring::default();
        let mut asked = Vec::new();
        let mut seen = Vec::new();
        while let Some(i) = order.next(6, |i| {
            asked.push(i);
            i == 1 || i == 4
        }) {
            seen.push(i);
        }
        assert_eq!(seen, [0, 2, 3, 5, 1, 4]);
        assert_eq!(asked, [0, 1, 2, 3, 4, 5]);
        // Cleared, it starts again; nothing deferred is the plain order.
        order.clear();
        let plain: Vec<usize> = std::iter::from_fn(|| order.next(3, |_| false)).collect();
        assert_eq!(plain, [0, 1, 2]);
        assert_eq!(order.next(3, |_| true), None);
    }

    fn result(action: u8, depth: u32) -> RootResult<u8> {
        RootResult {
            ranked: vec![(action, 0)],
            exact: 1,
            pv: vec![action],
            nodes: 0,
            depth,
        }
    }

    #[test]
    fn the_deepest_thread_decides_and_the_main_one_wins_ties() {
        let pick = |helpers: Vec<RootResult<u8>>| deepest(result(0, 4), helpers).ranked[0].0;
        assert_eq!(pick(vec![]), 0);
        assert_eq!(
            pick(vec![result(1, 4), result(2, 3)]),
            0,
            "a tie keeps main"
        );
        assert_eq!(pick(vec![result(1, 4), result(2, 5)]), 2);
        assert_eq!(pick(vec![result(1, 6), result(2, 5)]), 1);
    }
}
