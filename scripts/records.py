"""Tabula records and `tabula engine` processes, for the measuring scripts.

`read_record` reads the record format of `crates/core/src/record.rs`: header
`key: value` lines, a blank line, then one action a line (`<seat> <action>`,
or `* <outcome>` for the dice), `#` lines being comments. `Engine` drives one
engine process (docs/engine-protocol.md) a question at a time.

The scripts beside this file import it (Python puts a script's own directory
first on `sys.path`). Python 3 standard library only.
"""

import shlex
import subprocess
from dataclasses import dataclass


@dataclass
class Record:
    """One game: its spec, start, players, result and actions."""

    game: str
    # The start position string, or None for the game's own start.
    start: str | None
    # Agent or player names by seat (1-based).
    players: dict
    # The `result:` words (`win 1`, `draw 1,2`), or "" for an unfinished game.
    result: str
    # (seat, action text), the seat None for a chance outcome.
    actions: list

    def position(self, plies=None):
        """The engine's `position` command after the first `plies` actions
        (all of them by default)."""
        moves = " ".join(text for _, text in self.actions[:plies])
        start = self.start or "startpos"
        return f"position {self.game} {start} moves {moves}".rstrip()

    def points(self):
        """Each seat's share of the game's point: 1 for a win, split among
        the drawn seats for a draw."""
        words = self.result.split()
        if words[:1] == ["win"]:
            return {s: float(s == int(words[1])) for s in self.players}
        drawn = {int(s) for s in words[1].split(",")} if len(words) > 1 else set(self.players)
        return {s: (1.0 / len(drawn) if s in drawn else 0.0) for s in self.players}


def read_record(path):
    """The record in the file `path`; ValueError names the bad line."""
    header, actions, players = {}, [], {}
    body = False
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("#") or line == "[Tabula record]":
            continue
        if not line:
            body = body or bool(header)
            continue
        if not body:
            key, colon, value = line.partition(":")
            if not colon:
                raise ValueError(f"{path}: line {n}: expected `key: value`, got `{line}`")
            key, value = key.strip().lower(), value.strip()
            header[key] = value
            if key.startswith("player "):
                players[int(key.split()[1])] = value
            continue
        who, _, text = line.partition(" ")
        if who != "*" and not who.isdigit():
            raise ValueError(f"{path}: line {n}: expected `<seat> <action>`, got `{line}`")
        actions.append((None if who == "*" else int(who), text.strip()))
    if "game" not in header:
        raise ValueError(f"{path}: no `game:` line")
    return Record(header["game"], header.get("start"), players, header.get("result", ""), actions)


class EngineError(Exception):
    """The engine answered an error line or stopped."""


class Engine:
    """One `tabula engine` process (or any engine of the protocol), asked
    one thing at a time."""

    def __init__(self, command):
        args = shlex.split(command) if isinstance(command, str) else list(command)
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, *commands):
        """Send commands that answer nothing unless they fail (`position`,
        `setoption`, `newgame`): a failure shows at the next read."""
        for c in commands:
            self.p.stdin.write(c + "\n")
        self.p.stdin.flush()

    def _line(self):
        line = self.p.stdout.readline()
        if not line:
            raise EngineError("the engine stopped")
        if line.startswith("info string error"):
            raise EngineError(line.strip())
        return line

    def ask(self, *commands):
        """Send `commands`, the last a `query`; the words of its `response`."""
        self.send(*commands)
        while True:
            line = self._line()
            if line.startswith("response"):
                return line[len("response"):].strip()

    def go(self, command):
        """Send a `go` command; its best action and its last `info` line."""
        self.send(command)
        info = ""
        while True:
            line = self._line()
            if line.startswith("info "):
                info = line.strip()
            elif line.startswith("bestmove"):
                return line.split()[1], info

    def close(self):
        try:
            self.send("quit")
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()
