"""The `tabula` Python module: the pyspiel-style API over every game."""

import math
import random
from pathlib import Path

import numpy as np
import pytest

import tabula

GAMES = ["dragonchess", "gildervaik", "phylde", "stelpur"]
# Specs played to the end: every game, plus variants that change how games end.
SPECS = GAMES + ["gildervaik(mode=warrior)", "phylde(setup=block)", "stelpur(preset=ludii)"]
CRATES = Path(__file__).resolve().parents[2] / "crates"
# Perft rows up to this many nodes (the deep ones are the Rust tests' job).
PERFT_MAX_NODES = 200_000


def random_action(state, rng):
    """A legal action: chance outcomes by their probabilities."""
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        return rng.choices(ids, probs)[0]
    return rng.choice(state.legal_actions())


def test_every_game_is_registered_and_loads():
    assert tabula.registered_names() == GAMES
    for name in GAMES:
        game = tabula.load(name)
        assert game.name() == name and game.spec() == name and str(game) == name
        assert game.num_players() == (3 if name == "gildervaik" else 2)
        assert game.has_chance() == (name == "stelpur")
        state = game.new_initial_state()
        assert not state.is_terminal()
        assert state.num_players() == game.num_players()
        assert state.get_game().spec() == name
        assert state.returns() == [0.0] * game.num_players()


def test_player_ids_are_pyspiels():
    assert (tabula.CHANCE, tabula.TERMINAL) == (-1, -4)


@pytest.mark.parametrize("spec", ["nope", "phylde(setup=nowhere)", "phylde(", "dragonchess(x=1)"])
def test_bad_spec_raises_value_error(spec):
    with pytest.raises(ValueError):
        tabula.load(spec)


def test_a_spec_without_start_needs_a_position():
    game = tabula.load("phylde(setup=free)")
    assert game.num_players() == 2 and game.spec() == "phylde(setup=free)"
    with pytest.raises(ValueError, match="position"):
        game.new_initial_state()
    with pytest.raises(ValueError):
        tabula.perft(game, 1)
    start = tabula.load("phylde").new_initial_state().position()
    assert game.new_initial_state(start).legal_actions()


def test_bad_position_raises_value_error():
    with pytest.raises(ValueError):
        tabula.load("phylde").new_initial_state("not a position")


@pytest.mark.parametrize("spec", SPECS)
def test_random_games_end_with_returns_summing_to_one(spec):
    rng = random.Random(7)
    game = tabula.load(spec)
    for _ in range(4):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            assert steps <= game.max_game_length()
            if state.is_chance_node():
                assert state.current_player() == tabula.CHANCE
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == state.legal_actions()
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
                assert all(p > 0 for _, p in outcomes)
            else:
                assert 0 <= state.current_player() < game.num_players()
                keys = state.legal_action_keys()
                assert len(set(keys)) == len(keys) == len(state.legal_actions())
                assert all(0 <= k < game.action_key_space() for k in keys)
                assert state.chance_outcomes() == []
                assert state.returns() == [0.0] * game.num_players()
            state.apply_action(random_action(state, rng))
            steps += 1
        returns = state.returns()
        assert math.isclose(sum(returns), 1.0)
        assert all(r in (0.0, 1.0) or 0 < r < 1 for r in returns)
        assert state.current_player() == tabula.TERMINAL
        assert state.legal_actions() == [] and state.chance_outcomes() == []


@pytest.mark.parametrize("spec", SPECS)
def test_action_text_round_trips(spec):
    rng = random.Random(3)
    state = tabula.load(spec).new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        texts = state.legal_action_strings()
        assert len(texts) == len(state.legal_actions())
        for action, text in zip(state.legal_actions(), texts):
            assert state.action_to_string(action) == text
            assert state.string_to_action(text) == action
        player = state.current_player()
        action = state.legal_actions()[-1]
        assert state.action_to_string(player, action) == texts[-1]
        assert state.string_to_action(player, texts[-1]) == action
        state.apply_action(random_action(state, rng))


def test_legal_actions_of_another_player_are_empty():
    state = tabula.load("phylde").new_initial_state()
    assert state.legal_actions(0) == state.legal_actions()
    assert state.legal_actions(1) == []


def test_illegal_actions_raise_and_change_nothing():
    state = tabula.load("phylde(setup=block)").new_initial_state()
    before = state.position()
    n = len(state.legal_actions())
    for bad in [n, -1, 10**30, 1.5, "g3-e1"]:
        with pytest.raises(ValueError):
            state.apply_action(bad)
    for text in ["zz", "a1-a2", ""]:
        with pytest.raises(ValueError):
            state.string_to_action(text)
    with pytest.raises(ValueError):
        state.action_to_string(n)
    assert state.position() == before
    assert len(state.legal_actions()) == n


def test_numpy_integers_are_accepted():
    state = tabula.load("gildervaik").new_initial_state()
    action = np.random.default_rng(1).choice(state.legal_actions())
    text = state.action_to_string(action)
    state.apply_action(action)
    assert state.current_player() == 1 and text


def test_clone_is_independent():
    rng = random.Random(5)
    for name in GAMES:
        state = tabula.load(name).new_initial_state()
        for _ in range(5):
            state.apply_action(random_action(state, rng))
        position, actions = state.position(), state.legal_action_strings()
        copy = state.clone()
        assert copy.position() == position
        while not copy.is_terminal():
            copy.apply_action(random_action(copy, rng))
        assert state.position() == position
        assert state.legal_action_strings() == actions
        assert not state.is_terminal()


def test_position_round_trips():
    rng = random.Random(11)
    for name in GAMES:
        game = tabula.load(name)
        state = game.new_initial_state()
        for _ in range(7):
            state.apply_action(random_action(state, rng))
        again = game.new_initial_state(state.position())
        assert again.position() == state.position()
        assert again.legal_action_strings() == state.legal_action_strings()


def perft_rows():
    """(file, spec, position or None, depth, nodes) of the perft data files."""
    rows = []
    for path in sorted(CRATES.glob("*/tests/data/*.perft")):
        for line in path.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, spec, position, counts = (f.strip() for f in line.split(";"))
            for count in counts.split():
                depth, nodes = map(int, count.split(":"))
                if nodes <= PERFT_MAX_NODES:
                    pos = None if position == "start" else position
                    rows.append(pytest.param(spec, pos, depth, nodes, id=f"{name}-{depth}"))
    return rows


PERFT_ROWS = perft_rows()


def test_perft_data_files_are_found():
    games = {p.values[0].split("(")[0] for p in PERFT_ROWS}
    assert games == set(GAMES)


@pytest.mark.parametrize("spec,position,depth,nodes", PERFT_ROWS)
def test_perft_matches_the_data_files(spec, position, depth, nodes):
    game = tabula.load(spec)
    state = game.new_initial_state(position)
    assert tabula.perft(state, depth) == nodes
    if position is None:
        assert tabula.perft(game, depth) == nodes


def test_perft_counts_the_legal_actions_at_depth_one():
    for name in GAMES:
        state = tabula.load(name).new_initial_state()
        assert tabula.perft(state, 1) == len(state.legal_actions())
        assert tabula.perft(state, 0) == 1
    with pytest.raises(ValueError):
        tabula.perft("phylde", 1)


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor_has_the_documented_shape(name):
    game = tabula.load(name)
    state = game.new_initial_state()
    shape = tuple(game.observation_tensor_shape())
    for player in range(game.num_players()):
        tensor = state.observation_tensor(player)
        assert isinstance(tensor, np.ndarray) and tensor.dtype == np.float32
        assert tensor.shape == shape and tensor.size == game.observation_tensor_size()
    with pytest.raises(ValueError):
        state.observation_tensor(game.num_players())
    with pytest.raises(ValueError):
        state.observation_tensor(-1)


def test_observation_planes():
    dragonchess = tabula.load("dragonchess").new_initial_state()
    t = dragonchess.observation_tensor(0)
    assert t[:15].sum() == 42 and t[15:30].sum() == 42
    assert t[32].min() == 1 and dragonchess.observation_tensor(1)[32].max() == 0
    assert t[10, 1].sum() == 1 and t[10, 1, 0, 6] == 1  # Gold's King on 2g1

    phylde = tabula.load("phylde(setup=block)").new_initial_state()
    t = phylde.observation_tensor(0)
    assert t[3].sum() == 4 and t[7].sum() == 4  # the Kings' quads
    assert t[0, 4, 6] == 1 and t[4, 13, 6] == 1  # soldiers on g5 / g14
    phylde.apply_action(phylde.string_to_action("g7-g8"))  # a soldier: 1 of 5
    assert phylde.current_player() == 0
    t = phylde.observation_tensor(0)
    assert t[8].sum() == 1 and t[8, 7, 6] == 1 and math.isclose(t[9].max(), 1 / 5, rel_tol=1e-6)

    gildervaik = tabula.load("gildervaik").new_initial_state()
    t = gildervaik.observation_tensor(1)
    assert t[:3].sum() == 30 and t[3].sum() == 100
    assert t[6].min() == 1  # seat 0 is two seats after observer 1

    # Stelpur: both players see the same picture of the start from their
    # side, as the circuit is symmetric by half a lap.
    stelpur = tabula.load("stelpur").new_initial_state()
    t0, t1 = stelpur.observation_tensor(0), stelpur.observation_tensor(1)
    assert (t0[:48] == t1[:48]).all() and t0[:6].sum() == 6 and t0[61] == 1
    stelpur.apply_action(stelpur.string_to_action("6-6"))
    assert stelpur.observation_tensor(0)[48 + 5] > 0


def test_chance_nodes_are_like_pyspiels():
    state = tabula.load("stelpur").new_initial_state()
    assert state.is_chance_node() and state.current_player() == tabula.CHANCE
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 21
    assert math.isclose(outcomes[state.string_to_action("6-1")], 2 / 36)
    assert math.isclose(outcomes[state.string_to_action("6-6")], 1 / 36)
    with pytest.raises(ValueError):
        tabula.hint(state)


def test_hint_gives_a_legal_action_and_values():
    state = tabula.load("phylde(setup=block)").new_initial_state()
    advice = tabula.hint(state, level=1)
    assert advice["action"] in state.legal_actions()
    assert advice["text"] == state.action_to_string(advice["action"])
    assert 0.0 <= advice["value"] <= 1.0
    ids = [a for a, _, _ in advice["ranked"]]
    assert advice["action"] == ids[0] and set(ids) <= set(state.legal_actions())
    advice = tabula.hint(state, agent="greedy", seed=2)
    assert advice["action"] in state.legal_actions()
    # Alpha-beta values the best two exactly, then only bounds them.
    advice = tabula.hint(state, agent="alphabeta", time=0.2, multipv=2)
    assert 2 <= advice["exact"] < len(advice["ranked"])
    for bad in [dict(level=0), dict(level=9), dict(agent="nobody"), dict(time=-1.0), dict(multipv=0)]:
        with pytest.raises(ValueError):
            tabula.hint(state, **bad)


def test_hint_at_the_end_raises():
    rng = random.Random(1)
    state = tabula.load("gildervaik(mode=warrior)").new_initial_state()
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
    with pytest.raises(ValueError):
        tabula.hint(state, level=1)


def test_returns_split_a_shared_draw_evenly():
    rng = random.Random(2)
    game = tabula.load("gildervaik(mode=warrior)")
    seen = set()
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))
        returns = state.returns()
        sharing = [r for r in returns if r > 0]
        assert all(math.isclose(r, 1 / len(sharing)) for r in sharing)
        seen.add(len(sharing))
    assert seen >= {1, 3}  # wins and three-way draws both happen at random
