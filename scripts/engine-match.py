#!/usr/bin/env python3
"""Play one game between engine processes that speak Tabula's engine protocol
(docs/engine-protocol.md), with the dice rolled here.

One engine process per seat (two, or three for Gildervaik) plus a referee
process that holds the position: the driver asks the referee whose turn it is
(`query turn`), rolls the dice itself from the outcomes the referee lists
(`query chance`) with its own seeded random generator, asks the seat's engine
for an action (`position` then `go`), and checks the action against the
referee's `query legal` before playing it.

The game goes to stdout as a Tabula record (`tabula replay` reads it); a
summary goes to stderr. Exit status: 0 for a finished game, 1 for a protocol
violation (a missing or malformed answer, an error line, an illegal action, a
timeout, a dead engine), 2 for a usage error.

Python 3 standard library only.

Example:
  scripts/engine-match.py stelpur --engine 'target/release/tabula engine' \\
      --level 8,3 --movetime 100 --seed 7
"""

import argparse
import queue
import random
import shlex
import subprocess
import sys
import threading
import time

# Seconds an answer that needs no search may take.
QUICK = 10.0
# Seconds granted past a search's own budget before it counts as a timeout.
GRACE = 10.0


class Violation(Exception):
    """The engine broke the protocol."""


class Engine:
    """One engine process, read by a thread so that reads can time out."""

    def __init__(self, name, command):
        self.name = name
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise Violation(f"{name}: cannot start `{command}`: {e}") from e
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise Violation(f"{self.name}: cannot write `{line}`: {e}") from e

    def read(self, timeout, after):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Violation(f"{self.name}: no answer to `{after}` within {timeout:.0f} s")
        if line is None:
            raise Violation(f"{self.name}: the engine exited after `{after}`")
        if line.startswith("info string error"):
            raise Violation(f"{self.name}: `{after}` answered `{line}`")
        return line

    def expect(self, line, answer, timeout=QUICK):
        got = self.read(timeout, line)
        if got != answer:
            raise Violation(f"{self.name}: `{line}` answered `{got}`, expected `{answer}`")

    def silent(self, line):
        """Send a command that has no answer, and check that none came (an
        error line would arrive before `readyok`)."""
        self.send(line)
        self.send("isready")
        self.expect(line, "readyok")

    def query(self, what):
        line = f"query {what}"
        self.send(line)
        got = self.read(QUICK, line)
        if got != "response" and not got.startswith("response "):
            raise Violation(f"{self.name}: `{line}` answered `{got}`")
        return got[len("response "):]

    def handshake(self):
        self.send("ugi")
        while True:
            line = self.read(QUICK, "ugi")
            if line == "ugiok":
                break
            if not (line.startswith("id ") or line.startswith("option ")):
                raise Violation(f"{self.name}: unexpected `{line}` in the handshake")
        self.send("isready")
        self.expect("isready", "readyok")

    def go(self, command, budget_seconds):
        """Send `go`; return the best action and the `info` lines."""
        self.send(command)
        infos = []
        deadline = time.monotonic() + budget_seconds + GRACE
        while True:
            left = max(0.0, deadline - time.monotonic())
            line = self.read(left, command)
            if line.startswith("bestmove "):
                best = line[len("bestmove "):].strip()
                if not best or " " in best or best == "(none)":
                    raise Violation(f"{self.name}: bad `{line}`")
                return best, infos
            if not line.startswith("info"):
                raise Violation(f"{self.name}: unexpected `{line}` during `{command}`")
            infos.append(line)

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=QUICK)
        except (Violation, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def per_seat(text, seats, what):
    """`a` or `a,b,c`: one value for every seat, or one per seat."""
    items = text.split(",") if text else []
    if len(items) == 1:
        return items * seats
    if len(items) != seats:
        raise SystemExit(f"engine-match: --{what} gives {len(items)} values for {seats} seats")
    return items


def sample(outcomes, rng):
    """One chance outcome from `A=p B=q ...`, drawn with `rng`."""
    pairs = []
    for item in outcomes.split():
        name, sep, p = item.rpartition("=")
        try:
            prob = float(p)
        except ValueError:
            prob = -1.0
        if not sep or not name or not prob > 0.0:
            raise Violation(f"referee: bad chance outcome `{item}`")
        pairs.append((name, prob))
    if not pairs:
        raise Violation("referee: a chance node without outcomes")
    total = sum(p for _, p in pairs)
    if abs(total - 1.0) > 1e-6:
        raise Violation(f"referee: chance probabilities sum to {total}")
    r = rng.random() * total
    for name, p in pairs:
        r -= p
        if r < 0.0:
            return name
    return pairs[-1][0]


class Clocks:
    """Every seat's remaining time when the game is played on clocks."""

    def __init__(self, seats, millis, inc):
        self.left = [millis] * seats
        self.inc = inc

    def go(self, seat):
        times = " ".join(f"time{i + 1} {max(t, 0)}" for i, t in enumerate(self.left))
        incs = " ".join(f"inc{i + 1} {self.inc}" for i in range(len(self.left)))
        return f"go {times} {incs}", max(self.left[seat], 0) / 1000.0

    def spend(self, seat, seconds):
        """Charge a decision; True when the seat's clock ran out."""
        self.left[seat] -= int(seconds * 1000)
        out = self.left[seat] < 0
        self.left[seat] += self.inc
        return out


def play(args):
    rng = random.Random(args.seed)
    referee = Engine("referee", args.referee or args.engine[0])
    referee.handshake()
    referee.silent(f"newgame {args.spec}")
    seats = int(referee.query("seats"))
    commands = args.engine * seats if len(args.engine) == 1 else args.engine
    if len(commands) != seats:
        raise SystemExit(f"engine-match: {len(commands)} engines for {seats} seats")
    levels = per_seat(args.level, seats, "level")
    engines = []
    try:
        for i in range(seats):
            e = Engine(f"seat {i + 1}", commands[i])
            engines.append(e)
            e.handshake()
            e.silent(f"setoption name Level value {levels[i]}")
            e.silent(f"setoption name Seed value {args.seed + i + 1}")
            e.silent(f"newgame {args.spec}")
        clocks = Clocks(seats, args.clock, args.inc) if args.clock else None
        moves, record, late = [], [], []
        started = time.monotonic()
        while True:
            position = f"position {args.spec} startpos" + (
                " moves " + " ".join(moves) if moves else "")
            referee.silent(position)
            turn = referee.query("turn")
            if turn == "over":
                result = referee.query("result")
                break
            if len(moves) >= args.max_actions:
                raise Violation(f"no end after {len(moves)} actions (--max-actions)")
            if turn == "chance":
                roll = sample(referee.query("chance"), rng)
                if roll not in referee.query("legal").split():
                    raise Violation(f"referee: chance outcome `{roll}` is not legal")
                moves.append(roll)
                record.append(f"* {roll}")
                continue
            try:
                seat = int(turn) - 1
            except ValueError:
                raise Violation(f"referee: `query turn` answered `{turn}`")
            if not 0 <= seat < seats:
                raise Violation(f"referee: seat {turn} does not exist")
            engine = engines[seat]
            engine.silent(position)
            if clocks:
                command, budget = clocks.go(seat)
            elif args.nodes:
                command, budget = f"go nodes {args.nodes}", 60.0
            else:
                command, budget = f"go movetime {args.movetime}", args.movetime / 1000.0
            asked = time.monotonic()
            best, infos = engine.go(command, budget)
            spent = time.monotonic() - asked
            if clocks and clocks.spend(seat, spent):
                late.append(f"seat {seat + 1} over its clock at action {len(moves) + 1}")
            if best not in referee.query("legal").split():
                raise Violation(f"seat {seat + 1}: `bestmove {best}` is not legal")
            if args.verbose:
                print(f"{len(moves) + 1:>4} seat {seat + 1}: {best}   {infos[-1] if infos else ''}",
                      file=sys.stderr)
            moves.append(best)
            record.append(f"{seat + 1} {best}")
        seconds = time.monotonic() - started
    finally:
        for e in engines:
            e.close()
        referee.close()

    header = ["[Tabula record]", f"game: {args.spec}", f"seed: {args.seed}"]
    for i in range(seats):
        header.append(f"player {i + 1}: {commands[i]} (level {levels[i]})")
    if result != "none":
        header.append(f"result: {result}")
    print("\n".join(header + [""] + record))
    for note in late:
        print(f"engine-match: note: {note}", file=sys.stderr)
    print(f"engine-match: {args.spec}: {result} after {len(moves)} actions "
          f"in {seconds:.1f} s", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(
        description="Play one game between engines speaking Tabula's engine protocol.")
    p.add_argument("spec", help="game spec, e.g. dragonchess or 'gildervaik(mode=warrior)'")
    p.add_argument("--engine", action="append", required=True,
                   help="engine command (repeat once per seat, or give one for all seats)")
    p.add_argument("--referee", help="engine command of the referee (default: the first engine)")
    p.add_argument("--level", default="8", help="Level option: one, or one per seat (1,5,8)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--movetime", type=int, default=100, help="ms per decision (default 100)")
    budget.add_argument("--nodes", type=int, help="nodes/playouts per decision (reproducible)")
    budget.add_argument("--clock", type=int, help="ms on every seat's clock (overruns are noted)")
    p.add_argument("--inc", type=int, default=0, help="ms added to a clock per decision")
    p.add_argument("--seed", type=int, default=1, help="dice and engine seeds (default 1)")
    p.add_argument("--max-actions", type=int, default=20000,
                   help="give up (as a violation) after this many actions")
    p.add_argument("--verbose", action="store_true", help="each action and its info on stderr")
    args = p.parse_args()
    if (args.movetime is not None and args.movetime < 1) or (args.nodes is not None and args.nodes < 1):
        p.error("--movetime and --nodes must be at least 1")
    try:
        play(args)
    except Violation as e:
        print(f"engine-match: protocol violation: {e}", file=sys.stderr)
        sys.exit(1)
    except BrokenPipeError:
        print("engine-match: protocol violation: an engine closed its input", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
