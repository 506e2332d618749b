//! The `tabula` Python module: Tabula's games with the shape of OpenSpiel's
//! `pyspiel` (`load`, `Game`, `State`), plus `perft` and the AI's `hint`.
//! Every error is a Python `ValueError`; nothing here panics on input.

mod engine;
mod observe;
mod state;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use state::{PyGame, PyState};
use std::time::Duration;
use tabula_ai::{AgentKind, AiLevel, Limits, MAX_MULTIPV};
use tabula_core::Turn;

/// `current_player()` at a chance node (as `pyspiel.PlayerId.CHANCE`).
pub const CHANCE: i64 = -1;
/// `current_player()` once the game is over (as `pyspiel.PlayerId.TERMINAL`).
pub const TERMINAL: i64 = -4;

/// A Tabula error as a Python `ValueError`.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The game of a spec string such as `phylde(setup=block)`.
#[pyfunction]
fn load(spec: &str) -> PyResult<PyGame> {
    PyGame::load(spec)
}

/// The names of the games, in menu order.
#[pyfunction]
fn registered_names() -> Vec<&'static str> {
    tabula_games::registry()
        .entries()
        .iter()
        .map(|e| e.name)
        .collect()
}

/// Number of action sequences of length `depth` (chance outcomes count as
/// actions) from a state, or from a game's start.
#[pyfunction]
fn perft(py: Python<'_>, game_or_state: &Bound<'_, PyAny>, depth: u32) -> PyResult<u64> {
    let engine = if let Ok(state) = game_or_state.extract::<PyRef<PyState>>() {
        state.engine().clone_box()
    } else if let Ok(game) = game_or_state.extract::<PyRef<PyGame>>() {
        game.start()?.clone_box()
    } else {
        return Err(value_error("perft needs a tabula.Game or a tabula.State"));
    };
    Ok(py.detach(|| engine.any().perft(depth)))
}

/// The AI's advice for the player to move: a dict with `action` (its id),
/// `text`, `value` (expected score of the mover, 0 to 1), `ranked` (a list
/// of `(id, text, value)`, best first), `exact` (how many of `ranked`
/// have exact values: after them alpha-beta's values are upper bounds),
/// `pv` (the expected line, as text), `nodes` and `agent`. `level` is 1
/// to 8 (8 thinks about 2 s); `agent` names an agent instead (`mcts`,
/// `alphabeta`, ...); `time` in seconds overrides the level's own;
/// `multipv` is how many actions alpha-beta and expectimax value exactly.
#[pyfunction]
#[pyo3(signature = (state, level=8, time=None, seed=1, agent=None, multipv=3))]
fn hint<'py>(
    py: Python<'py>,
    state: PyRef<'py, PyState>,
    level: u8,
    time: Option<f64>,
    seed: u64,
    agent: Option<&str>,
    multipv: usize,
) -> PyResult<Bound<'py, PyDict>> {
    // A copy, so that the state stays usable by other threads meanwhile.
    let engine = state.engine().clone_box();
    drop(state);
    let game = engine.any();
    if game.turn() == Turn::Chance {
        return Err(value_error(
            "the state waits for a chance outcome: a hint needs a player to move",
        ));
    }
    let kind = match agent {
        Some(name) => name.parse::<AgentKind>().map_err(value_error)?,
        None => AgentKind::Level(AiLevel::from_number(level).map_err(value_error)?),
    };
    let time = match time {
        None => None,
        Some(s) if s > 0.0 && s <= 3600.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(value_error(format!("time must be 0 to 3600 s, got {s}"))),
    };
    if !(1..=MAX_MULTIPV).contains(&multipv) {
        return Err(value_error(format!(
            "multipv must be 1 to {MAX_MULTIPV}, got {multipv}"
        )));
    }
    let mut player = tabula_games::make_agent(game, kind, seed).map_err(value_error)?;
    let limits = Limits {
        time,
        multipv: Some(multipv),
        ..Limits::default()
    };
    let choice = py
        .detach(|| player.choose(game, &limits))
        .map_err(value_error)?;
    let id = |text: &str| engine.action_id(text).map_err(value_error);
    let ranked = choice
        .ranked
        .iter()
        .map(|(text, value)| Ok((id(text)?, text.clone(), *value)))
        .collect::<PyResult<Vec<_>>>()?;
    let out = PyDict::new(py);
    out.set_item("action", id(&choice.action)?)?;
    out.set_item("text", &choice.action)?;
    out.set_item("value", choice.value)?;
    out.set_item("ranked", ranked)?;
    out.set_item("exact", choice.exact)?;
    out.set_item("pv", &choice.pv)?;
    out.set_item("nodes", choice.nodes)?;
    out.set_item("agent", player.name())?;
    Ok(out)
}

#[pymodule]
fn tabula(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CHANCE", CHANCE)?;
    m.add("TERMINAL", TERMINAL)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(registered_names, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    Ok(())
}
