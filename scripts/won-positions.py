#!/usr/bin/env python3
"""Pick won Dragonchess positions out of game records, for the conversion
measurement of docs/benchmarks.md ("Converting won games").

For each record (as `tabula arena --records DIR` saves them) the game is
replayed through `tabula engine`; the first position where the side to move
leads by at least --lead Warriors of material is printed as a line of the
`won-<game>.txt` format that the test `ai_converts` reads:
`<turns> <position> -- <record> ply <n> lead <warriors>`.

Python 3 standard library only.

Example:
  scripts/won-positions.py --engine 'target/release/tabula engine' \\
      --lead 15 --turns 60 records/*.txt > /tmp/won.txt
"""

import argparse
import shlex
import subprocess
import sys

# Warriors per piece letter (crates/dragonchess/src/eval.rs), King 0.
VALUES = dict(zip("SGRWOUHTCMKPDBE", [1, 5, 8, 1, 5, 2.5, 4.5, 4, 9, 11, 0, 10, 2, 3, 4]))


def lead_of_mover(position):
    """Material of the side to move minus the other's, in Warriors."""
    placement, side = position.split()[:2]
    gold = sum(VALUES.get(c, 0) for c in placement if c.isupper())
    scarlet = sum(VALUES.get(c.upper(), 0) for c in placement if c.islower())
    return gold - scarlet if side == "g" else scarlet - gold


def actions(path):
    """The game spec and the action texts of a record."""
    spec, moves, body = None, [], False
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not body:
            if line.startswith("game:"):
                spec = line.split(":", 1)[1].strip()
            body = line == ""
        elif line and not line.startswith("#"):
            moves.append(line.split(None, 1)[1])
    return spec, moves


class Referee:
    def __init__(self, command):
        self.p = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line):
        self.p.stdin.write(line + "\nquery position\n")
        answer = self.p.stdout.readline().strip()
        if not answer.startswith("response "):
            sys.exit(f"engine: {answer}")
        return answer[len("response "):]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("records", nargs="+")
    p.add_argument("--engine", default="target/release/tabula engine")
    p.add_argument("--lead", type=float, default=15.0, help="least material lead (Warriors)")
    p.add_argument("--turns", type=int, default=60, help="turns allowed to win")
    a = p.parse_args()
    ref = Referee(a.engine)
    for path in a.records:
        spec, moves = actions(path)
        if spec != "dragonchess":
            continue
        pos = ref.ask("position dragonchess startpos")
        for n, m in enumerate(moves):
            pos = ref.ask(f"position dragonchess {pos} moves {m}")
            lead = lead_of_mover(pos)
            if lead >= a.lead:
                print(f"{a.turns} {pos} -- {path} ply {n + 1} lead {lead:g}")
                break


if __name__ == "__main__":
    main()
