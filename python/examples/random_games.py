"""Random games of every Tabula game from Python: checks that each ends with
returns summing to 1 and prints random playouts per second.

    python python/examples/random_games.py --games 200
    python python/examples/random_games.py --seconds 10 --pyspiel backgammon,checkers

The loop only uses calls that pyspiel has too, so with `--pyspiel` it also
times OpenSpiel's games (needs `pip install open_spiel`) with the same code.
"""

import argparse
import math
import random
import time

import tabula


def play(state, rng):
    """Play uniformly random actions (chance outcomes by their probabilities)
    to the end; returns the final state and the number of actions."""
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, probs)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions += 1
    return state, actions


def run(game, games, seconds, rng, check_returns):
    """Play `games` games, or as many as fit in `seconds`; returns
    (games, actions, wall seconds)."""
    played = actions = 0
    start = time.perf_counter()
    while played < games if seconds is None else time.perf_counter() - start < seconds:
        state, n = play(game.new_initial_state(), rng)
        if check_returns:
            returns = state.returns()
            assert math.isclose(sum(returns), 1.0), (str(game), returns)
        played += 1
        actions += n
    return played, actions, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per spec")
    parser.add_argument("--seconds", type=float, help="time per spec instead of --games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--specs", help="comma-separated Tabula specs (default: every game)")
    parser.add_argument("--pyspiel", help="comma-separated OpenSpiel games to time too")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    specs = args.specs.split(",") if args.specs else tabula.registered_names()
    games = [(spec, tabula.load(spec), True) for spec in specs]
    if args.pyspiel:
        import pyspiel

        games += [(f"pyspiel {n}", pyspiel.load_game(n), False) for n in args.pyspiel.split(",")]

    print(f"{'game':<28} {'games':>7} {'playouts/s':>11} {'actions/s':>11} {'actions/game':>13}")
    for name, game, check in games:
        played, actions, secs = run(game, args.games, args.seconds, rng, check)
        print(
            f"{name:<28} {played:>7} {played / secs:>11,.0f} {actions / secs:>11,.0f}"
            f" {actions / played:>13,.1f}"
        )
    print("every Tabula game ended with returns summing to 1")


if __name__ == "__main__":
    main()
