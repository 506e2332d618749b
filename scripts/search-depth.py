#!/usr/bin/env python3
"""Depth and nodes a search reaches in a fixed time, over positions of records.

For every record given and every ply listed, sends the game's actions up to
that ply (on to the next player's decision where the dice are to roll) to a
`tabula engine` process (docs/engine-protocol.md), thinks for `--movetime` ms
or `--nodes` nodes with each `--threads` value in turn (a fresh AI player each
time), and prints the completed depth and the nodes; then the means. Used to
compare search changes and thread counts at equal time or equal nodes
(docs/benchmarks.md). With `--depth D` it measures time to depth instead, the
usual measure of threads: each search stops once any thread has finished the
iteration of depth D, and the script prints its time, then per thread count
the total time and the geometric mean of the time against the first count.

Python 3 standard library only.

Example:
  tabula arena dragonchess --agents alphabeta@0.01,alphabeta@0.01 --games 6 --records r
  scripts/search-depth.py --engine 'target/release/tabula engine' --movetime 300 r/*.txt
  scripts/search-depth.py --engine 'tabula engine' --nodes 300000 --plies 15,40,65 s/*.txt
"""

import argparse
import math
import re
import sys

from records import Engine, EngineError, read_record


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("records", nargs="+", help="record files (tabula arena --records)")
    p.add_argument("--engine", default="tabula engine", help="engine command")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--movetime", type=int, default=300, help="ms per search (default 300)")
    budget.add_argument("--nodes", type=int, help="nodes per search (the same on every machine)")
    budget.add_argument("--depth", type=int, help="search to this depth: time to depth")
    p.add_argument("--threads", default="1", help="thread counts to compare, e.g. 1,2")
    p.add_argument("--hash", type=int, help="transposition table in MB (default: the engine's)")
    p.add_argument("--plies", default="12,24,36,50,70", help="plies at which to search")
    a = p.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    plies = [int(k) for k in a.plies.split(",")]
    eng = Engine(a.engine)

    def go():
        if a.depth:
            command = f"go depth {a.depth}"
        elif a.nodes:
            command = f"go nodes {a.nodes}"
        else:
            command = f"go movetime {a.movetime}"
        _, info = eng.go(command)
        depth = re.search(r"depth (\d+)", info)
        nodes = re.search(r"nodes (\d+)", info)
        ms = re.search(r"time (\d+)", info)
        return (int(depth.group(1)) if depth else 0, int(nodes.group(1)), int(ms.group(1)))

    totals = {t: [0, 0, 0] for t in threads}
    # Time to depth: total ms and the sum of log(time / first count's time).
    timing = {t: [0, 0.0] for t in threads}
    for path in a.records:
        rec = read_record(path)
        for k in plies:
            if k >= len(rec.actions):
                continue
            # Past the dice (and a turn's automatic passes) to a decision.
            while True:
                decision = eng.ask(rec.position(k), "query turn") not in ("chance", "over")
                if decision or k >= len(rec.actions):
                    break
                k += 1
            if not decision:
                continue
            row = []
            first_ms = None
            for t in threads:
                options = [f"setoption name Threads value {t}"]
                if a.hash:
                    options.append(f"setoption name Hash value {a.hash}")
                eng.send(*options, f"newgame {rec.game}", rec.position(k))
                depth, nodes, ms = go()
                totals[t][0] += depth
                totals[t][1] += nodes
                totals[t][2] += 1
                ms = max(ms, 1)
                first_ms = first_ms or ms
                timing[t][0] += ms
                timing[t][1] += math.log(ms / first_ms)
                shown = f" time {ms} ms" if a.depth else ""
                row.append(f"threads {t}: depth {depth} nodes {nodes}{shown}")
            print(f"{path} ply {k}: " + ", ".join(row), flush=True)
    eng.close()
    for t in threads:
        d, n, c = totals[t]
        if c:
            print(f"threads {t}: {c} positions, mean depth {d / c:.2f}, mean nodes {n / c:.0f}")
            if a.depth:
                total, logs = timing[t]
                print(f"  time to depth {a.depth}: {total / 1000:.2f} s in all, "
                      f"geometric mean {math.exp(logs / c):.3f} of {threads[0]} thread(s)")


if __name__ == "__main__":
    try:
        main()
    except (EngineError, ValueError) as e:
        sys.exit(f"search-depth: {e}")
