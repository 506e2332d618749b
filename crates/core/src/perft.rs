//! Perft: count action sequences of an exact length (chess convention): every
//! player action and every chance outcome is one step; a sequence that ends
//! the game before its last step is not counted, one whose last step ends it
//! is (like a mating move at depth 1). Depth 0 is 1, even for a finished game,
//! so [`perft`] and the sum of [`divide`] always agree.

use crate::game::{Game, Turn};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Number of action sequences of length `depth` from `game`.
///
/// Leaves are counted in bulk: at depth 1 the answer is
/// [`Game::count_steps`], which a game may compute without listing.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut bufs = Buffers::<G>::new(depth);
    perft_inner(game, depth, &mut bufs.actions, &mut bufs.chances)
}

/// Perft split by first action: `(action text, count)` in generation order.
/// `progress` is called after each first action with (done, total).
pub fn divide<G: Game>(
    game: &G,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let firsts = game.actions_here();
    let total = firsts.len();
    let mut bufs = Buffers::<G>::new(depth);
    let mut out = Vec::with_capacity(total);
    for (i, a) in firsts.into_iter().enumerate() {
        let mut child = game.clone();
        child.apply(a);
        let n = perft_inner(&child, depth - 1, &mut bufs.actions, &mut bufs.chances);
        out.push((game.action_text(a), n));
        progress(i + 1, total);
    }
    out
}

/// [`divide`] on `threads` threads: each takes the next first action from a
/// shared counter, so a slow subtree does not hold the others back. The
/// rows are the same as [`divide`]'s, in the same order, and `progress`
/// is called as often, on the calling thread.
pub fn divide_parallel<G: Game>(
    game: &G,
    depth: u32,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(String, u64)> {
    if threads <= 1 || depth == 0 {
        return divide(game, depth, progress);
    }
    let firsts = game.actions_here();
    let total = firsts.len();
    let counts: Vec<AtomicU64> = (0..total).map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        for _ in 0..threads.min(total) {
            let done_tx = done_tx.clone();
            let (firsts, counts, next) = (&firsts, &counts, &next);
            s.spawn(move || {
                let mut bufs = Buffers::<G>::new(depth);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&a) = firsts.get(i) else { break };
                    let mut child = game.clone();
                    child.apply(a);
                    let n = perft_inner(&child, depth - 1, &mut bufs.actions, &mut bufs.chances);
                    counts[i].store(n, Ordering::Relaxed);
                    // The receiver outlives the workers (same scope).
                    let _ = done_tx.send(());
                }
            });
        }
        drop(done_tx);
        // Ends when every worker has dropped its sender.
        for done in 1..=total {
            if done_rx.recv().is_err() {
                break;
            }
            progress(done, total);
        }
    });
    firsts
        .iter()
        .zip(counts)
        .map(|(&a, n)| (game.action_text(a), n.into_inner()))
        .collect()
}

/// [`perft`] on `threads` threads, split at the first action.
pub fn perft_parallel<G: Game>(game: &G, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 1 {
        return perft(game, depth);
    }
    divide_parallel(game, depth, threads, |_, _| {})
        .iter()
        .map(|r| r.1)
        .sum()
}

/// One action buffer per ply so the recursion never allocates after warm-up.
struct Buffers<G: Game> {
    actions: Vec<Vec<G::Action>>,
    chances: Vec<Vec<(G::Action, f64)>>,
}

impl<G: Game> Buffers<G> {
    fn new(depth: u32) -> Self {
        let n = depth as usize + 1;
        Buffers {
            actions: (0..n).map(|_| Vec::with_capacity(256)).collect(),
            chances: (0..n).map(|_| Vec::with_capacity(32)).collect(),
        }
    }
}

fn perft_inner<G: Game>(
    game: &G,
    depth: u32,
    actions: &mut [Vec<G::Action>],
    chances: &mut [Vec<(G::Action, f64)>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        let (buf, cbuf) = (&mut actions[0], &mut chances[0]);
        return game.count_steps(buf, cbuf);
    }
    let (buf, rest_a) = actions.split_first_mut().expect("buffer per ply");
    let (cbuf, rest_c) = chances.split_first_mut().expect("buffer per ply");
    match game.turn() {
        Turn::Over => 0,
        Turn::Player(_) => {
            game.legal_actions(buf);
            let mut total = 0;
            for &a in buf.iter() {
                let mut child = game.clone();
                child.apply(a);
                total += perft_inner(&child, depth - 1, rest_a, rest_c);
            }
            total
        }
        Turn::Chance => {
            game.chance_outcomes(cbuf);
            let mut total = 0;
            for &(a, _) in cbuf.iter() {
                let mut child = game.clone();
                child.apply(a);
                total += perft_inner(&child, depth - 1, rest_a, rest_c);
            }
            total
        }
    }
}
