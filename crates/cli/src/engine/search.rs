//! One `go`: the agent's search within its budget, answered by one `info`
//! line and `bestmove`.
//!
//! The agents report once, when they finish: nodes (MCTS: playouts), the
//! value of the chosen action, a principal line and, for the searches that
//! deepen step by step, the deepest completed iteration. There is no
//! progress `info` during a search.

use super::session::{Job, ERROR};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use tabula_ai::{AnyAgent, Choice};

/// The answer when no action could be chosen (after an error line).
pub const NO_MOVE: &str = "bestmove (none)";

/// Run `job` until its budget runs out or `cancel` is set. Returns the
/// agent (`None` if the search panicked) and the lines to write.
pub fn run(job: Job, cancel: Arc<AtomicBool>) -> (Option<Box<dyn AnyAgent>>, Vec<String>) {
    let Job {
        game,
        mut agent,
        mut limits,
    } = job;
    limits.cancel = Some(cancel);
    let started = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| agent.choose(game.as_ref(), &limits)));
    let millis = started.elapsed().as_millis() as u64;
    match result {
        Ok(Ok(choice)) => (Some(agent), answer(&choice, millis)),
        Ok(Err(e)) => (
            Some(agent),
            vec![format!("{ERROR} search failed: {e}"), NO_MOVE.into()],
        ),
        Err(_) => (
            None,
            vec![
                format!("{ERROR} search failed: internal error"),
                NO_MOVE.into(),
            ],
        ),
    }
}

/// The `info` and `bestmove` lines of a finished search that took `millis`.
pub fn answer(choice: &Choice, millis: u64) -> Vec<String> {
    let nps = choice.nodes * 1000 / millis.max(1);
    let mut info = "info".to_string();
    if let Some(depth) = choice.depth {
        info += &format!(" depth {depth}");
    }
    info += &format!(
        " nodes {} nps {nps} time {millis} score {:.4}",
        choice.nodes, choice.value
    );
    if !choice.pv.is_empty() {
        info += " pv ";
        info += &choice.pv.join(" ");
    }
    vec![info, format!("bestmove {}", choice.action)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_ai::{AiLevel, Limits};

    #[test]
    fn the_answer_is_one_info_line_then_bestmove() {
        let choice = Choice {
            action: "a1-b2".into(),
            value: 0.625,
            pv: vec!["a1-b2".into(), "j13-j12".into()],
            nodes: 1500,
            depth: Some(3),
            ranked: vec![],
            exact: 0,
            values: vec![],
        };
        assert_eq!(
            answer(&choice, 500),
            vec![
                "info depth 3 nodes 1500 nps 3000 time 500 score 0.6250 pv a1-b2 j13-j12"
                    .to_string(),
                "bestmove a1-b2".to_string()
            ]
        );
        assert!(answer(&choice, 0)[0].contains(" nps 1500000 "));
        let mcts = Choice {
            depth: None,
            ..choice
        };
        assert!(answer(&mcts, 500)[0].starts_with("info nodes 1500 "));
    }

    fn job(spec: &str, position: Option<&str>, limits: Limits) -> Job {
        let game = crate::open_game(spec, position).expect("game");
        let level = AiLevel::from_number(8).expect("level");
        let agent = tabula_games::make_agent(game.as_ref(), level, 7).expect("agent");
        Job {
            game,
            agent,
            limits,
        }
    }

    #[test]
    fn a_search_answers_a_legal_action() {
        let j = job("gildervaik", None, Limits::iterations(200));
        let legal = j.game.legal_actions();
        let (agent, lines) = run(j, Arc::new(AtomicBool::new(false)));
        assert!(agent.is_some());
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("info nodes "),
            "MCTS has no depth: {lines:?}"
        );
        let best = lines[1].strip_prefix("bestmove ").expect("bestmove");
        assert!(legal.iter().any(|a| a == best), "{best}");
    }

    #[test]
    fn a_cancelled_search_still_answers() {
        let long = Limits::time(std::time::Duration::from_secs(600));
        let started = Instant::now();
        let (_, lines) = run(
            job("dragonchess", None, long),
            Arc::new(AtomicBool::new(true)),
        );
        assert!(started.elapsed().as_secs() < 60);
        assert!(lines[1].starts_with("bestmove "), "{lines:?}");
        assert_ne!(lines[1], NO_MOVE);
    }

    #[test]
    fn a_search_on_two_threads_answers_and_can_be_stopped() {
        for spec in ["dragonchess", "gildervaik"] {
            let two = |limits: Limits| Limits {
                threads: Some(2),
                ..limits
            };
            let j = job(
                spec,
                None,
                two(Limits::time(std::time::Duration::from_millis(150))),
            );
            let legal = j.game.legal_actions();
            let (agent, lines) = run(j, Arc::new(AtomicBool::new(false)));
            assert!(agent.is_some());
            let best = lines[1].strip_prefix("bestmove ").expect("bestmove");
            assert!(legal.iter().any(|a| a == best), "{spec}: {best}");

            let long = two(Limits::time(std::time::Duration::from_secs(600)));
            let started = Instant::now();
            let (_, lines) = run(job(spec, None, long), Arc::new(AtomicBool::new(true)));
            assert!(started.elapsed().as_secs() < 60, "{spec}");
            assert_ne!(lines[1], NO_MOVE, "{spec}");
        }
    }
}
