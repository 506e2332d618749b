//! The `Game` and `State` classes, named and shaped like pyspiel's.

use crate::engine::{self, Engine};
use crate::{value_error, CHANCE, TERMINAL};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};
use tabula_core::{Player, Turn};

/// A game with its options, from `tabula.load(spec)`.
#[pyclass(name = "Game", module = "tabula", frozen)]
pub struct PyGame {
    /// The canonical spec string.
    spec: String,
    /// The start position, or why there is none (a spec such as
    /// `phylde(setup=free)` needs a position).
    start: Result<Box<dyn Engine>, String>,
    /// The start, or the game under its default options when there is no
    /// start: for the facts that do not depend on the options.
    reference: Box<dyn Engine>,
}

impl PyGame {
    pub fn load(spec: &str) -> PyResult<PyGame> {
        let registry = tabula_games::registry();
        let (entry, values) = registry.resolve(spec).map_err(value_error)?;
        let spec = values.spec_string(entry.name, entry.options);
        let start = engine::create(&spec, None).map_err(|e| e.to_string());
        let reference = match &start {
            Ok(start) => start.clone_box(),
            Err(_) => engine::create(entry.name, None).map_err(value_error)?,
        };
        Ok(PyGame {
            spec,
            start,
            reference,
        })
    }

    /// The start position (a `ValueError` when the spec has none).
    pub fn start(&self) -> PyResult<&dyn Engine> {
        self.start.as_deref().map_err(value_error)
    }
}

#[pymethods]
impl PyGame {
    /// A new state at the start, or at `position` (a position string as
    /// `tabula` and `State.position()` write it).
    #[pyo3(signature = (position=None))]
    fn new_initial_state(&self, position: Option<&str>) -> PyResult<PyState> {
        let engine = match position {
            None => self.start()?.clone_box(),
            Some(text) => engine::create(&self.spec, Some(text)).map_err(value_error)?,
        };
        Ok(PyState { engine })
    }
    /// The game's name, e.g. `phylde`.
    fn name(&self) -> &'static str {
        self.reference.any().name()
    }
    /// The canonical spec string: the name plus non-default options.
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn num_players(&self) -> usize {
        self.reference.any().num_players()
    }
    /// Whether chance nodes (dice) occur.
    fn has_chance(&self) -> bool {
        self.reference.any().game_type().chance
    }
    /// An upper bound on the number of actions (chance included) of a game
    /// from the start.
    fn max_game_length(&self) -> PyResult<u64> {
        Ok(self.start()?.any().max_game_actions())
    }
    /// The size of the space of `State.legal_action_keys()` (for a policy
    /// head of fixed size).
    fn action_key_space(&self) -> usize {
        self.reference.key_space()
    }
    /// The shape of `State.observation_tensor` (see python/README.md).
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.reference.observation_shape()
    }
    fn observation_tensor_size(&self) -> usize {
        self.reference.observation_shape().iter().product()
    }
    /// Display name of a seat, e.g. `Gold`.
    fn player_name(&self, player: i64) -> PyResult<&'static str> {
        let p = seat(self.reference.as_ref(), player)?;
        Ok(self.reference.any().player_name(p))
    }
    fn __str__(&self) -> String {
        self.spec()
    }
    fn __repr__(&self) -> String {
        format!("tabula.load({:?})", self.spec)
    }
}

/// One position of a game. Action ids index the legal actions of this
/// state (see python/README.md); their text is the stable name.
#[pyclass(name = "State", module = "tabula")]
pub struct PyState {
    engine: Box<dyn Engine>,
}

impl PyState {
    pub fn engine(&self) -> &dyn Engine {
        self.engine.as_ref()
    }
}

/// The seat `player`, checked against the game's players.
fn seat(engine: &dyn Engine, player: i64) -> PyResult<Player> {
    let n = engine.any().num_players();
    u8::try_from(player)
        .ok()
        .filter(|&p| usize::from(p) < n)
        .map(Player)
        .ok_or_else(|| value_error(format!("no player {player} (players are 0 to {})", n - 1)))
}

/// An action id given by Python (an `int` or a NumPy integer); ids out of
/// range are `ValueError`s like any illegal action.
fn action_id(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    action
        .extract::<usize>()
        .map_err(|_| value_error(format!("action id {action} is not legal here")))
}

#[pymethods]
impl PyState {
    /// The seat to move, `tabula.CHANCE` at a chance node or
    /// `tabula.TERMINAL` once the game is over.
    fn current_player(&self) -> i64 {
        match self.engine.any().turn() {
            Turn::Player(p) => i64::from(p.0),
            Turn::Chance => CHANCE,
            Turn::Over => TERMINAL,
        }
    }
    fn is_terminal(&self) -> bool {
        self.engine.any().turn() == Turn::Over
    }
    fn is_chance_node(&self) -> bool {
        self.engine.any().turn() == Turn::Chance
    }
    fn is_player_node(&self) -> bool {
        matches!(self.engine.any().turn(), Turn::Player(_))
    }
    fn num_players(&self) -> usize {
        self.engine.any().num_players()
    }
    /// The ids of the legal actions (of the chance outcomes at a chance
    /// node): `0..n`. With `player`, empty unless that seat is to move.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> Vec<usize> {
        if player.is_some_and(|p| p != self.current_player()) {
            return Vec::new();
        }
        (0..self.engine.num_legal()).collect()
    }
    /// The legal actions (or chance outcomes) in notation, by id.
    fn legal_action_strings(&self) -> Vec<String> {
        (0..self.engine.num_legal())
            .filter_map(|id| self.engine.action_text(id))
            .collect()
    }
    /// A position-independent integer for each legal action, by id, below
    /// `Game.action_key_space()`; two legal actions can share a key in a few
    /// cases (see python/README.md), so ids stay the way to play.
    fn legal_action_keys(&self) -> Vec<usize> {
        self.engine.action_keys()
    }
    /// `(id, probability)` of each chance outcome; empty unless a chance
    /// node. The probabilities sum to 1.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.engine
            .chance_probabilities()
            .iter()
            .copied()
            .enumerate()
            .collect()
    }
    /// The notation of a legal action id: `action_to_string(a)` or, as in
    /// pyspiel, `action_to_string(player, a)`.
    #[pyo3(signature = (a, b=None))]
    fn action_to_string(
        &self,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        // With two arguments the first is the player, which pyspiel ignores too.
        let id = action_id(b.unwrap_or(a))?;
        self.engine
            .action_text(id)
            .ok_or_else(|| value_error(format!("action id {id} is not legal here")))
    }
    /// The id of an action written in notation: `string_to_action(s)` or
    /// `string_to_action(player, s)`.
    #[pyo3(signature = (a, b=None))]
    fn string_to_action(&self, a: &Bound<'_, PyAny>, b: Option<&str>) -> PyResult<usize> {
        let text: String = match b {
            Some(text) => text.to_string(),
            None => a.extract()?,
        };
        self.engine.action_id(&text).map_err(value_error)
    }
    /// Play a legal action (or chance outcome) by id; an illegal id raises
    /// `ValueError` and changes nothing.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = action_id(action)?;
        self.engine.apply(id).map_err(value_error)
    }
    /// Points of each seat once the game is over: 1 for a win, 0 for a
    /// loss, a draw split evenly among the players sharing it (they sum to
    /// 1). All 0 before the end.
    fn returns(&self) -> Vec<f64> {
        let game = self.engine.any();
        let n = game.num_players();
        match game.outcome() {
            Some(outcome) => (0..n).map(|p| outcome.score(Player(p as u8))).collect(),
            None => vec![0.0; n],
        }
    }
    /// The position string (as `tabula` reads and writes it).
    fn position(&self) -> String {
        self.engine.any().position()
    }
    /// A text picture of the board (pyspiel's name).
    #[pyo3(name = "to_string")]
    fn render(&self) -> String {
        self.engine.any().render()
    }
    fn clone(&self) -> PyState {
        PyState {
            engine: self.engine.clone_box(),
        }
    }
    /// The game this state belongs to (loaded again from its spec).
    fn get_game(&self) -> PyResult<PyGame> {
        PyGame::load(self.engine.any().spec())
    }
    /// The observation tensor of `player` (default: the player to move) as a
    /// float32 NumPy array of `Game.observation_tensor_shape()`.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = match (player, self.engine.any().turn()) {
            (Some(p), _) => p,
            (None, Turn::Player(p)) => i64::from(p.0),
            (None, _) => return Err(value_error("nobody is to move: give the observing player")),
        };
        let observer = seat(self.engine.as_ref(), player)?;
        let values = self.engine.observation(observer);
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let buffer = PyByteArray::new(py, &bytes);
        let shape = PyTuple::new(py, self.engine.observation_shape())?;
        py.import("numpy")?
            .call_method1("frombuffer", (buffer, "float32"))?
            .call_method1("reshape", (shape,))
    }
    fn __str__(&self) -> String {
        self.render()
    }
    fn __repr__(&self) -> String {
        format!(
            "<tabula.State {} {:?}>",
            self.engine.any().spec(),
            self.position()
        )
    }
    fn __copy__(&self) -> PyState {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }
}
