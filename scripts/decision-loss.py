#!/usr/bin/env python3
"""What each player's decisions cost them, judged by a stronger search.

For every decision with a choice in `tabula arena --records` games, a fixed-node
search of the position (`tabula hint --nodes N --multipv 256`) gives an exact
value to every legal action; the decision's loss is the best value less the
value of the action played, in expected score (0 to 1). One search judges all
the alternatives, so its errors of level cancel in the difference, and a loss
is never negative.

Summed over a game, a seat's losses are what a player who always chose as the
judge would have won back from that seat. Over many games, with the seats
swapped (as the arena plays them), agent A against agent B is then expected to
score about 0.5 + (mean loss of B - mean loss of A) per game, and a player
without errors (by the judge) against B about 0.5 + mean loss of B. The first
is checked against the games' results, which says how far the judge can be
trusted; the second bounds what any player as good as the judge can score
(GNU Backgammon's error rates, and why "luck" decides the rest).

Python 3 standard library only. Example:

  tabula arena stelpur --agents level8,uct --time 0.05 --games 100 --records r
  scripts/decision-loss.py --tabula target/release/tabula --nodes 1000000 --jobs 2 r/*.txt
"""

import argparse
import concurrent.futures
import json
import math
import statistics
import subprocess
import sys

from records import Engine, EngineError, read_record


def judge(tabula, spec, position, nodes):
    """Every legal action's exact value for the mover, by one search."""
    out = subprocess.run(
        [tabula, "hint", spec, "--position", position, "--nodes", str(nodes),
         "--multipv", "256", "--json"],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"`tabula hint` at `{position}`: {out.stderr.strip()}")
    answer = json.loads(out.stdout)
    return {r["action"]: r["value"] for r in answer["ranked"] if r["exact"]}


def game_losses(path, tabula, nodes, opening):
    rec = read_record(path)
    engine = Engine([tabula, "engine"])
    losses = {seat: [] for seat in rec.players}
    decisions = 0
    try:
        for ply, (seat, action) in enumerate(rec.actions):
            if seat is not None:
                decisions += 1
            if seat is not None and decisions > opening:
                legal = engine.ask(rec.position(ply), "query legal").split()
                if len(legal) > 1:
                    values = judge(tabula, rec.game, engine.ask("query position"), nodes)
                    if action not in values:
                        raise RuntimeError(
                            f"{path}: the judge did not value {action} exactly within "
                            f"{nodes} nodes (its first iteration did not finish): raise --nodes")
                    losses[seat].append(max(values.values()) - values[action])
    finally:
        engine.close()
    return path, rec.players, rec.points(), losses


def half_width(values):
    """Half the 95 % interval of the mean of `values` (0 for fewer than two)."""
    if len(values) < 2:
        return 0.0
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--tabula", default="tabula")
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--opening", type=int, default=2,
                    help="random player actions at the start of each game (arena's --opening)")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()

    games = []  # per game: (agent names, loss sums, decisions judged, points), each by seat
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(game_losses, r, args.tabula, args.nodes, args.opening)
                   for r in args.records]
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            path, names, points, losses = fut.result()
            sums = {s: sum(v) for s, v in losses.items()}
            counts = {s: len(v) for s, v in losses.items()}
            games.append((names, sums, counts, points))
            print(f"[{done}/{len(futures)}] {path}: "
                  + ", ".join(f"{names[s]} loss {sums[s]:.3f} over {counts[s]} "
                              f"decisions, {points[s]:g} points" for s in sorted(names)),
                  file=sys.stderr, flush=True)

    # name -> (loss sum, decisions judged, points), one row per game it played
    per_agent = {}
    for names, sums, counts, points in games:
        for s, name in names.items():
            per_agent.setdefault(name, []).append((sums[s], counts[s], points[s]))

    print(f"judge: level 8 at {args.nodes} nodes a decision; {len(games)} games")
    for name, rows in sorted(per_agent.items()):
        sums = [r[0] for r in rows]
        decisions = sum(r[1] for r in rows)
        per_decision = sum(sums) / decisions if decisions else 0.0
        print(f"{name}: mean loss {statistics.mean(sums):.4f} a game "
              f"(± {half_width(sums):.4f}), "
              f"{statistics.mean(r[1] for r in rows):.1f} decisions with a choice, "
              f"{per_decision:.5f} a decision, "
              f"score {statistics.mean(r[2] for r in rows):.3f}")
    agents = sorted(per_agent)
    if len(agents) == 2 and all(len(g[0]) == 2 for g in games):
        a, b = agents
        diffs, scores = [], []
        for names, sums, _, points in games:
            sa = next(s for s, n in names.items() if n == a)
            sb = next(s for s, n in names.items() if n == b)
            diffs.append(sums[sb] - sums[sa])
            scores.append(points[sa])
        print(f"{a} against {b}: predicted {0.5 + statistics.mean(diffs):.3f} "
              f"(± {half_width(diffs):.3f}), played {statistics.mean(scores):.3f}")
        for name in (a, b):
            rows = per_agent[name]
            print(f"a player without errors (by the judge) against {name}: "
                  f"{0.5 + statistics.mean(r[0] for r in rows):.3f}")


if __name__ == "__main__":
    try:
        main()
    except (EngineError, ValueError, RuntimeError) as e:
        sys.exit(f"decision-loss: {e}")
