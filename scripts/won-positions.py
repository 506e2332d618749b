#!/usr/bin/env python3
"""Pick won positions out of game records, for the conversion measurement
of docs/benchmarks.md ("Converting won games").

For each record (as `tabula arena --records DIR` saves them) of the chosen
game the game is replayed through `tabula engine`; the first position where
the side to move leads by at least --lead is printed as a line of the
`won-<game>.txt` format that the test `ai_converts` reads:
`<turns> <position> -- <record> ply <n> lead <lead>`.

The lead is counted per game:
- dragonchess: material of the side to move minus the other's, in Warriors;
- gildervaik (conquest): the race, in steps. A player's race is the fewest
  steps (sum over his pawns of the distance to the zone, blockers ignored)
  that bring all his pawns into one opposing zone; the lead is the nearest
  rival's race minus the mover's. --within also asks that the mover's race
  be at most that many steps (a race nearly run, not an early lead). A
  race where a rival's own shortest race ends in the mover's zone is
  marked "contested" in the comment (--uncontested leaves it out): that
  rival may fill the zone before the mover does (spec D12: seven of his
  pawns and nine of the mover's fill its sixteen cells, and neither can
  win).

Python 3 standard library only.

Examples:
  scripts/won-positions.py --engine 'target/release/tabula engine' \\
      --lead 15 --turns 60 records/*.txt > /tmp/won.txt
  scripts/won-positions.py --game gildervaik --lead 25 --within 8 --turns 12 \\
      records/*.txt > /tmp/won-gildervaik.txt
"""

import argparse
import sys
from collections import deque

from records import Engine, EngineError, read_record

# Warriors per piece letter (crates/dragonchess/src/eval.rs), King 0.
VALUES = dict(zip("SGRWOUHTCMKPDBE", [1, 5, 8, 1, 5, 2.5, 4.5, 4, 9, 11, 0, 10, 2, 3, 4]))


def dragonchess_lead(position):
    """Material of the side to move minus the other's, in Warriors."""
    placement, side = position.split()[:2]
    gold = sum(VALUES.get(c, 0) for c in placement if c.isupper())
    scarlet = sum(VALUES.get(c.upper(), 0) for c in placement if c.islower())
    return gold - scarlet if side == "g" else scarlet - gold


# Gildervaik: a triangle of 10 rows, row r (a..j) has cells c = 0..2r,
# named by row letter and c+1; a cell is up when c is even.
GV_CELLS = [(r, c) for r in range(10) for c in range(2 * r + 1)]
GV_ZONES = {  # the home zone of each seat
    "A": lambda r, c: r <= 3,
    "B": lambda r, c: c >= 12,
    "C": lambda r, c: r >= 6 and c <= 2 * (r - 6),
}


def gv_neighbours(r, c):
    near = [(r, c - 1), (r, c + 1), (r + 1, c + 1) if c % 2 == 0 else (r - 1, c - 1)]
    return [(y, x) for y, x in near if 0 <= y < 10 and 0 <= x <= 2 * y]


def gv_distances(in_zone):
    """Steps from every cell to the nearest cell of a zone."""
    dist = {cell: 0 for cell in GV_CELLS if in_zone(*cell)}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        for n in gv_neighbours(*cell):
            if n not in dist:
                dist[n] = dist[cell] + 1
                queue.append(n)
    return dist


GV_DISTANCES = {seat: gv_distances(test) for seat, test in GV_ZONES.items()}


def gv_cell(name):
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def gv_race(seat, pawns):
    """(fewest steps that bring all of `pawns` into one zone opposing
    `seat`, that zone)."""
    return min((sum(GV_DISTANCES[z][p] for p in pawns), z) for z in GV_ZONES if z != seat)


def gildervaik_pawns(position):
    """Pawns per seat and the seat to move of a position string."""
    board, _, rest = position.partition("/")
    pawns = {}
    for part in board.split():
        seat, cells = part.split(":")
        pawns[seat] = [gv_cell(x) for x in cells.split(",")]
    return pawns, rest.split()[0]


def gildervaik_race(position):
    """(the mover's race lead over the nearest rival, the mover's race,
    whether a rival's shortest race ends in the mover's zone)."""
    pawns, mover = gildervaik_pawns(position)
    if mover not in pawns:
        return float("-inf"), float("inf"), True
    mine, zone = gv_race(mover, pawns[mover])
    rivals = [gv_race(s, p) for s, p in pawns.items() if s != mover]
    lead = min((r for r, _ in rivals), default=float("inf")) - mine
    return lead, mine, any(z == zone for _, z in rivals)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("records", nargs="+")
    p.add_argument("--engine", default="target/release/tabula engine")
    p.add_argument("--game", choices=["dragonchess", "gildervaik"], default="dragonchess")
    p.add_argument("--lead", type=float, default=15.0,
                   help="least lead (Warriors; Gildervaik: race steps)")
    p.add_argument("--within", type=float, default=float("inf"),
                   help="Gildervaik: the mover's race is at most this many steps")
    p.add_argument("--uncontested", action="store_true",
                   help="Gildervaik: no rival races for the mover's zone")
    p.add_argument("--turns", type=int, default=60, help="turns allowed to win")
    a = p.parse_args()
    ref = Engine(a.engine)
    for path in a.records:
        rec = read_record(path)
        if rec.game != a.game:
            continue
        spec = rec.game
        pos = ref.ask(rec.position(0), "query position")
        for n, (_, m) in enumerate(rec.actions):
            pos = ref.ask(f"position {spec} {pos} moves {m}", "query position")
            contested = False
            if spec == "dragonchess":
                lead, near = dragonchess_lead(pos), True
            else:
                lead, race, contested = gildervaik_race(pos)
                near = race <= a.within and not (a.uncontested and contested)
            if lead >= a.lead and near:
                mark = " contested" if contested else ""
                print(f"{a.turns} {pos} -- {path} ply {n + 1} lead {lead:g}{mark}")
                break
    ref.close()


if __name__ == "__main__":
    try:
        main()
    except (EngineError, ValueError) as e:
        sys.exit(f"won-positions: {e}")
