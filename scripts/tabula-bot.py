#!/usr/bin/env python3
"""A sample bot: plays on a Tabula server through the bot API (docs/bots.md)
with the moves of a `tabula engine` process (docs/engine-protocol.md).

It streams the bot's events, accepts the challenges addressed to it (and,
with --accept-open, open seeks), streams each game in a thread of its own
with an engine process of its own, and on its turn sends the engine
`position SPEC START moves ...` and `go movetime N`, then posts the
`bestmove`. Python 3 standard library only.

  TABULA_TOKEN=tbl_... scripts/tabula-bot.py --server http://127.0.0.1:8080 \\
      --engine 'target/debug/tabula engine' --movetime 100

Exit status: 0 after --games games finished (runs until stopped without it),
1 on a fatal error (a bad token, an account that is not a bot), 2 on usage.
"""

import argparse
import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

# Seconds without a byte (keep-alive lines come every 7 s) before a stream
# counts as dead and is opened again.
STREAM_TIMEOUT = 30
# Times a request over the rate limit is sent again before giving up.
RATE_LIMIT_TRIES = 5


def log(*args):
    print(time.strftime("%H:%M:%S"), *args, file=sys.stderr, flush=True)


class Fatal(Exception):
    """Nothing this bot can do will help (401, 403)."""


class Api:
    def __init__(self, server, token):
        self.server = server.rstrip("/")
        self.token = token

    def request(self, method, path, timeout=30):
        req = urllib.request.Request(
            self.server + path,
            method=method,
            headers={"Authorization": f"Bearer {self.token}"},
        )
        return urllib.request.urlopen(req, timeout=timeout)

    def post(self, path, tries=RATE_LIMIT_TRIES):
        """POST without a body; the JSON answer, or None after an error. A
        request over the rate limit is sent again after `Retry-After`: no
        new event would come to prompt it (the game waits for this move)."""
        for _ in range(tries):
            try:
                with self.request("POST", path) as res:
                    return json.load(res)
            except urllib.error.HTTPError as e:
                body = e.read().decode(errors="replace")
                if e.code != 429:
                    log(f"POST {path}: {e.code} {body}")
                    return None
                wait = int(e.headers.get("Retry-After", "1"))
                log(f"rate limited on {path}: waiting {wait} s")
                time.sleep(wait)
        return None

    def stream(self, path):
        """The JSON values of an NDJSON stream (keep-alive lines skipped)."""
        try:
            res = self.request("GET", path, timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as e:
            body = e.read().decode(errors="replace")
            if e.code in (401, 403):
                raise Fatal(f"GET {path}: {e.code} {body}") from e
            raise
        with res:
            for line in res:
                line = line.strip()
                if line:
                    yield json.loads(line)


class Engine:
    """A `tabula engine` process."""

    def __init__(self, command, level):
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("ugi")
        self.wait_for("ugiok")
        if level:
            self.send(f"setoption name Level value {level}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word):
        """Lines until one starting with `word`; that line."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            line = line.strip()
            if line.startswith("info string error"):
                raise RuntimeError(line)
            if line.split(" ", 1)[0] == word:
                return line

    def best(self, spec, start, moves, movetime):
        position = f"position {spec} {start}"
        if moves:
            position += " moves " + " ".join(moves)
        self.send(position)
        self.send(f"go movetime {movetime}")
        return self.wait_for("bestmove").split(" ", 1)[1].strip()

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


class Bot:
    def __init__(self, args):
        self.api = Api(args.server, args.token)
        self.args = args
        self.playing = set()
        self.finished = 0
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.errors = queue.Queue()

    def run_events(self):
        backoff = 1
        while not self.done.is_set():
            try:
                for event in self.api.stream("/api/bot/stream/event"):
                    backoff = 1
                    self.on_event(event)
            except Fatal as e:
                self.errors.put(str(e))
                self.done.set()
                return
            except Exception as e:  # a dropped connection: open it again
                log(f"event stream: {e}")
            time.sleep(backoff)
            backoff = min(backoff * 2, 30)

    def on_event(self, event):
        kind = event.get("type")
        if kind == "challenge":
            seek = event["challenge"]
            direct = seek.get("to") is not None
            if direct or self.args.accept_open:
                log(f"accepting {seek['id']} ({seek['spec']}) from {seek['creator']}")
                self.api.post(f"/api/bot/challenge/{seek['id']}/accept")
            else:
                self.api.post(f"/api/bot/challenge/{seek['id']}/decline")
        elif kind == "gameStart":
            game = event["game"]
            with self.lock:
                if game["id"] in self.playing:
                    return
                self.playing.add(game["id"])
            log(f"game {game['id']} ({game['spec']}) starts")
            threading.Thread(target=self.play, args=(game["id"],), daemon=True).start()
        elif kind == "gameFinish":
            game = event["game"]
            log(f"game {game['id']} finished: {game.get('result')}")
            with self.lock:
                self.playing.discard(game["id"])
                self.finished += 1
                if self.args.games and self.finished >= self.args.games:
                    self.done.set()

    def play(self, game_id):
        engine = Engine(self.args.engine, self.args.level)
        try:
            self.play_with(game_id, engine)
        except Exception as e:
            log(f"game {game_id}: {e}")
        finally:
            engine.quit()

    def play_with(self, game_id, engine):
        spec = start = None
        moves, seats, answered = [], [], None
        for event in self.api.stream(f"/api/bot/game/stream/{game_id}"):
            if event["type"] not in ("gameFull", "gameState"):
                continue
            if event["type"] == "gameFull":
                spec, start, seats = event["spec"], event["start"], event.get("you", [])
            # Every action from ply `from` on, chance outcomes included.
            moves = moves[: event["from"]] + [h["text"] for h in event["history"]]
            state = event["state"]
            turn = state["turn"]
            mine = turn["kind"] == "player" and turn["seat"] in seats
            if not mine or not state["legal"] or answered == state["ply"]:
                continue
            answered = state["ply"]
            action = engine.best(spec, start, moves, self.args.movetime)
            quoted = urllib.parse.quote(action, safe="")
            if self.api.post(f"/api/bot/game/{game_id}/move/{quoted}") is None:
                answered = None  # refused: think again at the next state


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", default=os.environ.get("TABULA_SERVER", "http://127.0.0.1:8080"))
    p.add_argument("--engine", default=os.environ.get("TABULA_ENGINE", "tabula engine"))
    p.add_argument("--movetime", type=int, default=200, help="ms per action")
    p.add_argument("--level", type=int, default=0, help="the engine's Level option (1-8)")
    p.add_argument("--games", type=int, default=0, help="exit after this many games end")
    p.add_argument("--accept-open", action="store_true", help="accept open seeks too")
    args = p.parse_args()
    args.token = os.environ.get("TABULA_TOKEN", "")
    if not args.token:
        p.error("set TABULA_TOKEN to the bot account's personal API token")
    bot = Bot(args)
    threading.Thread(target=bot.run_events, daemon=True).start()
    bot.done.wait()
    if not bot.errors.empty():
        log(bot.errors.get())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
