#!/usr/bin/env python3
"""Run a list of engine-protocol commands against an engine and print the
transcript: `> command` for each line sent, `< answer` for each line the
engine wrote in reply. This is how the example sessions of
docs/engine-protocol.md are made.

Commands come from stdin, one a line. `{N}` in a command stands for the N-th
`bestmove` of the session so far (from 1), so that a session can play on
from the engine's own choices. A `go` line ending in ` &` is sent without the
`&` and not waited for: until the `stop` that ends it, each command is taken
to answer one line. The elapsed time goes to stderr.

Python 3 standard library only.

Example:
  printf 'ugi\\nnewgame phylde\\ngo movetime 100\\nquit\\n' | \\
      scripts/engine-session.py 'target/release/tabula engine'
"""

import re
import shlex
import subprocess
import sys
import time

# Answers to collect for a command before the next one is sent: a search
# ends with `bestmove`, the handshake with `ugiok`; every other command is
# followed by an `isready` of our own whose `readyok` is not shown.
ENDS = {"go": ("bestmove", "info string error"), "ugi": ("ugiok",), "isready": ("readyok",),
        "stop": ("bestmove",)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    engine = subprocess.Popen(shlex.split(sys.argv[1]), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
    best = []
    searching = False
    started = time.monotonic()

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(prefix, show=True):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("engine-session: the engine exited")
            line = line.rstrip("\n")
            if line.startswith("bestmove "):
                best.append(line.split()[1])
            if show or not line.startswith(prefix):
                print(f"< {line}")
            if line.startswith(prefix):
                return line

    for raw in sys.stdin:
        command = re.sub(r"\{(\d+)\}", lambda m: best[int(m.group(1)) - 1], raw.strip())
        if not command:
            continue
        background = command.endswith(" &")
        command = command.removesuffix(" &")
        print(f"> {command}")
        send(command)
        word = command.split()[0]
        if word == "quit":
            break
        if background:
            searching = True
            continue
        end = ENDS.get(word)
        if word == "stop" and not searching:
            end = None
        if end:
            if read_until(end).startswith("bestmove"):
                searching = False
        elif searching:
            print(f"< {engine.stdout.readline().rstrip()}")
        else:
            send("isready")
            read_until(("readyok",), show=False)
    engine.stdin.close()
    engine.wait()
    print(f"engine-session: {time.monotonic() - started:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
