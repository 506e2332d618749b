#!/usr/bin/env python3
"""Depth and nodes a search reaches in a fixed time, over positions of records.

For every record given and every ply listed, sends the game's actions up to
that ply (on to the next player's decision where the dice are to roll) to a
`tabula engine` process (docs/engine-protocol.md), thinks for `--movetime` ms
or `--nodes` nodes with each `--threads` value in turn (a fresh AI player each
time), and prints the completed depth and the nodes; then the means. Used to
compare search changes and thread counts at equal time or equal nodes
(docs/benchmarks.md).

Python 3 standard library only.

Example:
  tabula arena dragonchess --agents alphabeta@0.01,alphabeta@0.01 --games 6 --records r
  scripts/search-depth.py --engine 'target/release/tabula engine' --movetime 300 r/*.txt
  scripts/search-depth.py --engine 'tabula engine' --nodes 300000 --plies 15,40,65 s/*.txt
"""

import argparse
import re
import shlex
import subprocess
import sys


def actions(path):
    """The game spec and the actions of a record file."""
    spec, moves = None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("game: "):
                spec = line[len("game: "):].strip()
            # A seat's action (`2 e5-e6`) or a chance outcome (`* 6-1`).
            m = re.match(r"^(?:\d+|\*) (\S+)", line)
            if m:
                moves.append(m.group(1))
    if spec is None:
        sys.exit(f"search-depth: {path}: no `game:` line")
    return spec, moves


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("records", nargs="+", help="record files (tabula arena --records)")
    p.add_argument("--engine", default="tabula engine", help="engine command")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--movetime", type=int, default=300, help="ms per search (default 300)")
    budget.add_argument("--nodes", type=int, help="nodes per search (the same on every machine)")
    p.add_argument("--threads", default="1", help="thread counts to compare, e.g. 1,2")
    p.add_argument("--plies", default="12,24,36,50,70", help="plies at which to search")
    a = p.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    plies = [int(k) for k in a.plies.split(",")]
    eng = subprocess.Popen(shlex.split(a.engine), stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    def ask(query):
        send(f"query {query}")
        while True:
            line = eng.stdout.readline()
            if not line:
                sys.exit("search-depth: the engine exited")
            if line.startswith("response"):
                return line.split(" ", 1)[1].strip() if " " in line else ""

    def go():
        send(f"go nodes {a.nodes}" if a.nodes else f"go movetime {a.movetime}")
        info = ""
        while True:
            line = eng.stdout.readline()
            if not line:
                sys.exit("search-depth: the engine exited")
            if line.startswith("info string error"):
                sys.exit(f"search-depth: {line.strip()}")
            if line.startswith("info "):
                info = line
            if line.startswith("bestmove"):
                depth = re.search(r"depth (\d+)", info)
                nodes = re.search(r"nodes (\d+)", info)
                return (int(depth.group(1)) if depth else 0, int(nodes.group(1)))

    totals = {t: [0, 0, 0] for t in threads}
    for path in a.records:
        spec, moves = actions(path)
        for k in plies:
            if k >= len(moves):
                continue
            # Past the dice (and a turn's automatic passes) to a decision.
            while True:
                send(f"position {spec} startpos moves " + " ".join(moves[:k]))
                decision = ask("turn") not in ("chance", "over")
                if decision or k >= len(moves):
                    break
                k += 1
            if not decision:
                continue
            row = []
            for t in threads:
                send(f"setoption name Threads value {t}")
                send(f"newgame {spec}")
                send(f"position {spec} startpos moves " + " ".join(moves[:k]))
                depth, nodes = go()
                totals[t][0] += depth
                totals[t][1] += nodes
                totals[t][2] += 1
                row.append(f"threads {t}: depth {depth} nodes {nodes}")
            print(f"{path} ply {k}: " + ", ".join(row), flush=True)
    send("quit")
    for t in threads:
        d, n, c = totals[t]
        if c:
            print(f"threads {t}: {c} positions, mean depth {d / c:.2f}, mean nodes {n / c:.0f}")


if __name__ == "__main__":
    main()
