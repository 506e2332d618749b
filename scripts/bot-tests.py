#!/usr/bin/env python3
"""The person's side of scripts/bot-tests.sh: against a running server, make
a person and a bot account, start scripts/tabula-bot.py with the bot's
token, challenge the bot, play the person's seat with its first legal action
(resigning after --moves of them), and check that both sides played and the
bot saw the game end. Python 3 standard library only."""

import argparse
import http.cookiejar
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


class Client:
    """One person's browser (a cookie jar, Origin set) or program (a token)."""

    def __init__(self, server):
        self.server = server
        self.token = None
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, method, path, body=None):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        else:
            headers["Origin"] = self.server
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.server + path, data, headers, method=method)
        try:
            with self.opener.open(req, timeout=10) as res:
                return res.status, json.load(res)
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def ok(self, method, path, body=None):
        status, answer = self.call(method, path, body)
        if status >= 300:
            fail(f"{method} {path}: {status} {answer}")
        return answer


def account(server, name):
    """A signed-up account using its own personal API token."""
    c = Client(server)
    c.ok("POST", "/api/account", {"username": name, "password": "a long password"})
    created = c.ok("POST", "/api/account/tokens", {"description": f"{name}'s test"})
    c.token = created["token"]
    if not c.token.startswith("tbl_"):
        fail(f"a token starts with tbl_: {c.token}")
    return c


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--engine", required=True)
    p.add_argument("--spec", default="stelpur")
    p.add_argument("--moves", type=int, default=400, help="the person's actions before resigning")
    args = p.parse_args()
    started = time.time()

    person = account(args.server, "alice")
    bot = account(args.server, "robo")
    bot.ok("POST", "/api/bot/account/upgrade")
    if not person.ok("GET", "/api/players/robo").get("bot"):
        fail("the bot's profile is marked bot")

    env = dict(os.environ, TABULA_TOKEN=bot.token)
    command = [sys.executable, os.path.join(HERE, "tabula-bot.py"), "--server", args.server,
               "--engine", args.engine, "--movetime", "30", "--level", "3", "--games", "1"]
    proc = subprocess.Popen(command, env=env)
    try:
        seek = person.ok("POST", "/api/seeks", {"spec": args.spec, "to": "robo"})["id"]
        game = None
        for _ in range(200):
            game = person.ok("GET", f"/api/seeks/{seek}").get("game")
            if game:
                break
            time.sleep(0.1)
        if not game:
            fail("the bot did not accept the challenge within 20 s")
        print(f"game {game} ({args.spec}): the bot accepted", file=sys.stderr)

        # The seek names its game a moment before the game is stored.
        for _ in range(50):
            if person.call("GET", f"/api/games/{game}")[0] == 200:
                break
            time.sleep(0.1)
        mine = 0
        while True:
            view = person.ok("GET", f"/api/games/{game}")
            state = view["state"]
            if state["turn"]["kind"] == "over":
                break
            me = view["you"]
            if state["turn"]["kind"] == "player" and state["turn"]["seat"] in me:
                if mine >= args.moves:
                    person.ok("POST", f"/api/games/{game}/resign", {})
                    continue
                person.call("POST", f"/api/games/{game}/move",
                            {"action": state["legal"][0], "ply": state["ply"]})
                mine += 1
            else:
                time.sleep(0.05)
            if time.time() - started > 70:
                fail("the game did not end within 70 s")

        view = person.ok("GET", f"/api/games/{game}")
        me = set(view["you"])
        actors = {h["actor"] for h in view["history"] if h["actor"] is not None}
        if not (actors & me) or not (actors - me):
            fail(f"both sides play: actors {actors}, the person's seats {me}")
        bots = [p for p in view["state"]["players"] if p.get("bot")]
        if len(bots) != 1 or bots[0].get("user") != "robo":
            fail(f"the bot's seat is marked bot: {view['state']['players']}")
        played = sum(1 for h in view["history"] if h["actor"] in actors - me)
        print(f"over after {len(view['history'])} actions ({played} by the bot): "
              f"{view['state']['result']['text']}", file=sys.stderr)
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            fail("the bot did not see the game end (gameFinish) within 20 s")
        if code != 0:
            fail(f"the bot exited with {code}")
    finally:
        if proc.poll() is None:
            proc.kill()
    print(f"ok: the sample bot played a game of {args.spec} in {time.time() - started:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
