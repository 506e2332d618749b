//! The AI seats and hints: the one place that asks an agent for a move.
//! Called on a blocking thread (an agent thinks for up to its level's
//! budget).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;
use tabula_ai::{AiLevel, Limits};
use tabula_core::{AnyGame, Error};

/// Hints come from the strongest level, which never blunders on purpose
/// (lower levels do, in dice games at every level but the top), given
/// less time than a level 8 move.
const HINT_TIME: Duration = Duration::from_millis(400);
/// Moves a hint values exactly: the play page names the best and two
/// others, which must be the next best, not moves cut off by the search.
const HINT_LINES: usize = 3;

/// An agent's answer: its move and its ranking of the moves it considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub action: String,
    /// Moves with their expected score for the mover, best first: only
    /// those the agent valued (alpha-beta's cut-off moves have bounds).
    pub ranked: Vec<(String, f32)>,
}

/// The move of the agent `level` in `game`. A game without an AI (one
/// outside `tabula_games`, as in tests), or whose agent fails, gets a
/// uniformly random move: an AI seat never leaves a game stuck.
pub fn choose(game: &dyn AnyGame, level: AiLevel, seed: u64) -> Result<Pick, Error> {
    choose_within(game, level, seed, &Limits::default())
}

/// The best moves for the player to move, for a hint.
pub fn hint(game: &dyn AnyGame, seed: u64) -> Result<Pick, Error> {
    choose_within(game, AiLevel::STRONGEST, seed, &hint_limits(HINT_LINES))
}

/// A hint's search valuing `lines` moves exactly.
fn hint_limits(lines: usize) -> Limits {
    Limits {
        multipv: Some(lines),
        ..Limits::time(HINT_TIME)
    }
}

/// Most lines the analysis board may ask for (`POST /api/position/lines`):
/// each one more valued exactly slows the search down.
pub const MAX_LINES: usize = 5;

/// The engine's best `lines` moves (at most [`MAX_LINES`]) for the player
/// to move, with the principal line of the best: a hint's search (same
/// level and time), whose agent errors are the caller's to say, not
/// hidden behind a random move as a seat's would be.
pub fn lines(game: &dyn AnyGame, seed: u64, lines: usize) -> Result<tabula_ai::Choice, Error> {
    let lines = lines.clamp(1, MAX_LINES);
    let mut agent = tabula_games::make_agent(game, AiLevel::STRONGEST, seed)?;
    let mut choice = agent.choose(game, &hint_limits(lines))?;
    choice.ranked.truncate(choice.exact.clamp(1, lines));
    Ok(choice)
}

fn choose_within(
    game: &dyn AnyGame,
    level: AiLevel,
    seed: u64,
    limits: &Limits,
) -> Result<Pick, Error> {
    let chosen = tabula_games::make_agent(game, level, seed)
        .and_then(|mut agent| agent.choose(game, limits));
    match chosen {
        Ok(mut c) => {
            c.ranked.truncate(c.exact.max(1));
            Ok(Pick {
                action: c.action,
                ranked: c.ranked,
            })
        }
        Err(e) => {
            if !e.message.starts_with("no AI player") {
                tracing::warn!("AI {level} failed ({e}); playing a random move");
            }
            random_pick(game, seed)
        }
    }
}

/// The outcome of the chance node `game` is at, drawn with `seed`.
pub fn roll(game: &dyn AnyGame, seed: u64) -> Option<String> {
    game.sample_chance(&mut SmallRng::seed_from_u64(seed))
}

fn random_pick(game: &dyn AnyGame, seed: u64) -> Result<Pick, Error> {
    let legal = game.legal_actions();
    if legal.is_empty() {
        return Err(Error::illegal("no legal action to choose from"));
    }
    let action = legal[SmallRng::seed_from_u64(seed).gen_range(0..legal.len())].clone();
    Ok(Pick {
        ranked: vec![(action.clone(), 0.5)],
        action,
    })
}

/// What an AI job is for, in the order they are served: a move in a game
/// with a person comes before any hint, both before a position of a game
/// analysis, and all before the moves of games without a person (demos,
/// which never take every worker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// An AI seat's move in a game with a human seat (keyed by game).
    Move,
    /// A hint for a player (keyed by requester).
    Hint,
    /// An AI seat's move in a game without a human seat (keyed by game).
    Demo,
    /// One position of a game analysis (keyed by game): short jobs, so a
    /// live move waits for at most one of them (`crate::analysis`).
    Analysis,
}

/// The pool refused a job: too many of its class wait already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

/// Hints that may wait at once; more are refused ("the AI is busy").
/// Moves are never refused: each game has at most one waiting.
pub const HINTS_QUEUED: usize = 64;
/// Analysis positions that may wait at once (each running analysis has
/// one waiting at a time).
pub const ANALYSIS_QUEUED: usize = 16;

/// How many recent waits the metrics summarise.
const WAITS_KEPT: usize = 256;

type Task = Box<dyn FnOnce() + Send>;

struct Job {
    task: Task,
    queued: std::time::Instant,
    class: Class,
}

/// Jobs of one class served round robin across keys (games, or people
/// asking for hints): one busy key cannot starve the others.
#[derive(Default)]
struct Fair {
    /// Keys in serving order, each with its jobs in arrival order.
    keys: std::collections::VecDeque<(String, std::collections::VecDeque<Job>)>,
    len: usize,
}

impl Fair {
    fn push(&mut self, key: &str, job: Job) {
        self.len += 1;
        match self.keys.iter_mut().find(|(k, _)| k == key) {
            Some((_, jobs)) => jobs.push_back(job),
            None => self
                .keys
                .push_back((key.to_string(), std::iter::once(job).collect())),
        }
    }

    /// The next key's first job; that key goes to the back of the line.
    fn pop(&mut self) -> Option<Job> {
        let (key, mut jobs) = self.keys.pop_front()?;
        let job = jobs.pop_front()?;
        self.len -= 1;
        if !jobs.is_empty() {
            self.keys.push_back((key, jobs));
        }
        Some(job)
    }
}

#[derive(Default)]
struct Queue {
    moves: Fair,
    hints: Fair,
    analysis: Fair,
    demos: Fair,
    /// Demo moves being computed: at most `workers - 1` (one worker is
    /// always free for the games with people).
    running_demos: usize,
    closed: bool,
    /// Recent waits in the queue, in ms, newest last.
    waits: std::collections::VecDeque<u64>,
    done: u64,
    running: usize,
}

struct Shared {
    queue: std::sync::Mutex<Queue>,
    ready: std::sync::Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The one pool of threads that thinks for AI seats and hints: at most
/// `workers` agents think at once, whatever is asked, so a flood of AI
/// games cannot take the machine from the real players' games.
pub struct AiPool {
    shared: std::sync::Arc<Shared>,
    workers: usize,
}

impl Queue {
    /// The next job to run, in class order.
    fn next(&mut self, demo_slots: usize) -> Option<Job> {
        let job = self
            .moves
            .pop()
            .or_else(|| self.hints.pop())
            .or_else(|| self.analysis.pop());
        if job.is_some() || self.running_demos >= demo_slots {
            return job;
        }
        let job = self.demos.pop()?;
        self.running_demos += 1;
        Some(job)
    }
}

/// What the pool is doing, for `GET /api/metrics`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoolStats {
    pub workers: usize,
    pub running: usize,
    pub queued_moves: usize,
    pub queued_hints: usize,
    pub queued_demos: usize,
    pub queued_analysis: usize,
    pub done: u64,
    /// Median, 99th percentile and longest of the recent waits, in ms.
    pub wait_p50_ms: u64,
    pub wait_p99_ms: u64,
    pub wait_max_ms: u64,
}

impl AiPool {
    /// A pool of `workers` threads (at least one).
    pub fn new(workers: usize) -> AiPool {
        let workers = workers.max(1);
        let shared = std::sync::Arc::new(Shared {
            queue: Default::default(),
            ready: std::sync::Condvar::new(),
        });
        let demo_slots = (workers - 1).max(1);
        for i in 0..workers {
            let shared = std::sync::Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("tabula-ai-{i}"))
                .spawn(move || work(&shared, demo_slots));
            if let Err(e) = spawned {
                tracing::error!("cannot start AI worker {i}: {e}");
            }
        }
        AiPool { shared, workers }
    }

    /// Queue `task` under `key`; how many jobs it waits for (those queued
    /// before it and those running, 0 when a worker is free). Hints are
    /// refused when too many wait.
    pub fn spawn(
        &self,
        class: Class,
        key: &str,
        task: impl FnOnce() + Send + 'static,
    ) -> Result<usize, Full> {
        let mut q = self.shared.lock();
        let job = Job {
            task: Box::new(task),
            queued: std::time::Instant::now(),
            class,
        };
        let queued = match class {
            Class::Move => {
                let before = q.moves.len;
                q.moves.push(key, job);
                before
            }
            Class::Demo => {
                let before = q.moves.len + q.hints.len + q.analysis.len + q.demos.len;
                q.demos.push(key, job);
                before
            }
            Class::Analysis if q.analysis.len >= ANALYSIS_QUEUED => return Err(Full),
            Class::Analysis => {
                let before = q.moves.len + q.hints.len + q.analysis.len;
                q.analysis.push(key, job);
                before
            }
            Class::Hint if q.hints.len >= HINTS_QUEUED => return Err(Full),
            Class::Hint => {
                let before = q.moves.len + q.hints.len;
                q.hints.push(key, job);
                before
            }
        };
        // Ahead: what is queued before it, and what holds every worker.
        let waits = queued > 0 || q.running >= self.workers;
        let ahead = if waits { queued + q.running } else { 0 };
        drop(q);
        self.shared.ready.notify_one();
        Ok(ahead)
    }

    /// Compute `f` on the pool; how many jobs wait ahead, and the answer
    /// to await.
    pub fn run<T: Send + 'static>(
        &self,
        class: Class,
        key: &str,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<(usize, tokio::sync::oneshot::Receiver<T>), Full> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let ahead = self.spawn(class, key, move || {
            let _ = tx.send(f());
        })?;
        Ok((ahead, rx))
    }

    pub fn stats(&self) -> PoolStats {
        let q = self.shared.lock();
        let mut waits: Vec<u64> = q.waits.iter().copied().collect();
        waits.sort_unstable();
        let at = |p: usize| {
            waits
                .get((waits.len() * p / 100).min(waits.len().saturating_sub(1)))
                .copied()
                .unwrap_or(0)
        };
        PoolStats {
            workers: self.workers,
            running: q.running,
            queued_moves: q.moves.len,
            queued_hints: q.hints.len,
            queued_demos: q.demos.len,
            queued_analysis: q.analysis.len,
            done: q.done,
            wait_p50_ms: at(50),
            wait_p99_ms: at(99),
            wait_max_ms: waits.last().copied().unwrap_or(0),
        }
    }
}

impl Drop for AiPool {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

/// A worker: moves first, then hints, then analyses, then demos, until
/// the pool is dropped.
fn work(shared: &Shared, demo_slots: usize) {
    loop {
        let job = {
            let mut q = shared.lock();
            loop {
                if q.closed {
                    return;
                }
                if let Some(job) = q.next(demo_slots) {
                    let waited = job.queued.elapsed().as_millis() as u64;
                    if q.waits.len() == WAITS_KEPT {
                        q.waits.pop_front();
                    }
                    q.waits.push_back(waited);
                    q.running += 1;
                    break job;
                }
                q = shared.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let class = job.class;
        // A panicking agent must not take the worker with it.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job.task));
        let mut q = shared.lock();
        q.running -= 1;
        q.done += 1;
        if class == Class::Demo {
            q.running_demos -= 1;
            // A demo slot is free: a waiting demo may start.
            shared.ready.notify_one();
        }
    }
}

#[cfg(test)]
mod pool_tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// The order in which jobs ran, by name.
    type Order = Arc<Mutex<Vec<&'static str>>>;

    /// A pool of one worker held busy until the sender is used, and the
    /// log of the jobs that ran after.
    fn busy_pool() -> (AiPool, std::sync::mpsc::Sender<()>, Order) {
        let pool = AiPool::new(1);
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        pool.spawn(Class::Move, "busy", move || {
            let _ = hold_rx.recv();
        })
        .expect("queued");
        // Let the worker take the blocking job.
        while pool.stats().running == 0 {
            std::thread::yield_now();
        }
        (pool, hold_tx, Order::default())
    }

    /// A job that writes `name` in `order`.
    fn logs(order: &Order, name: &'static str) -> impl FnOnce() + Send + 'static {
        let order = Arc::clone(order);
        move || order.lock().expect("lock").push(name)
    }

    /// With the only worker busy, a game's move overtakes earlier hints,
    /// and hints alternate between people.
    #[test]
    fn moves_first_then_hints_round_robin() {
        let (pool, hold_tx, order) = busy_pool();
        let log = |name| logs(&order, name);
        pool.spawn(Class::Hint, "ann", log("ann1")).expect("queued");
        pool.spawn(Class::Hint, "ann", log("ann2")).expect("queued");
        pool.spawn(Class::Hint, "bob", log("bob1")).expect("queued");
        let ahead = pool.spawn(Class::Move, "g1", log("g1")).expect("queued");
        assert_eq!(ahead, 1, "only the running job is ahead of g1");
        let ahead = pool.spawn(Class::Move, "g2", log("g2")).expect("queued");
        assert_eq!(ahead, 2, "the running job and g1");
        assert_eq!(pool.stats().queued_hints, 3);
        hold_tx.send(()).expect("release");
        while pool.stats().done < 6 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(
            *order.lock().expect("lock"),
            vec!["g1", "g2", "ann1", "bob1", "ann2"]
        );
    }

    /// An analysis position waits for the moves and hints queued before
    /// and after it, and goes before demos.
    #[test]
    fn analysis_after_moves_and_hints_before_demos() {
        let (pool, hold_tx, order) = busy_pool();
        let log = |name| logs(&order, name);
        pool.spawn(Class::Demo, "d", log("demo")).expect("queued");
        pool.spawn(Class::Analysis, "g", log("analysis"))
            .expect("queued");
        pool.spawn(Class::Hint, "ann", log("hint")).expect("queued");
        let ahead = pool.spawn(Class::Move, "g1", log("move")).expect("queued");
        assert_eq!(ahead, 1, "only the running job is ahead of a move");
        assert_eq!(pool.stats().queued_analysis, 1);
        hold_tx.send(()).expect("release");
        while pool.stats().done < 5 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(
            *order.lock().expect("lock"),
            vec!["move", "hint", "analysis", "demo"]
        );
    }

    /// Demos never take the last free worker: a game with a person still
    /// finds one.
    #[test]
    fn demos_leave_a_worker_for_the_games_with_people() {
        let pool = AiPool::new(2);
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        let hold_rx = Arc::new(Mutex::new(hold_rx));
        for i in 0..3 {
            let hold_rx = Arc::clone(&hold_rx);
            pool.spawn(Class::Demo, &format!("demo{i}"), move || {
                let _ = hold_rx.lock().expect("lock").recv();
            })
            .expect("queued");
        }
        std::thread::sleep(Duration::from_millis(50));
        let s = pool.stats();
        assert_eq!((s.running, s.queued_demos), (1, 2), "{s:?}");
        let (tx, rx) = std::sync::mpsc::channel();
        pool.spawn(Class::Move, "game", move || {
            let _ = tx.send(());
        })
        .expect("queued");
        rx.recv_timeout(Duration::from_secs(5))
            .expect("the move ran beside the demo");
        for _ in 0..3 {
            hold_tx.send(()).expect("release");
        }
    }

    #[test]
    fn too_many_hints_are_refused() {
        let pool = AiPool::new(1);
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        pool.spawn(Class::Move, "busy", move || {
            let _ = hold_rx.recv();
        })
        .expect("queued");
        while pool.stats().running == 0 {
            std::thread::yield_now();
        }
        for _ in 0..HINTS_QUEUED {
            pool.spawn(Class::Hint, "x", || {}).expect("queued");
        }
        assert_eq!(pool.spawn(Class::Hint, "y", || {}), Err(Full));
        // Moves are never refused.
        assert!(pool.spawn(Class::Move, "g", || {}).is_ok());
        hold_tx.send(()).expect("release");
    }
}

#[cfg(test)]
mod hint_tests {
    use super::*;

    /// A hint names its move and the next best with exact values, and
    /// none of the moves alpha-beta only bounded.
    #[test]
    fn a_hint_ranks_only_valued_moves() {
        let game = tabula_games::registry()
            .create("dragonchess", None)
            .expect("game");
        let pick = hint(game.as_ref(), 1).expect("hint");
        assert_eq!(pick.ranked[0].0, pick.action);
        assert!(pick.ranked.len() >= HINT_LINES, "{:?}", pick.ranked);
        assert!(pick.ranked.len() < game.legal_actions().len() / 2);
    }
}
