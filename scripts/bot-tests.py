#!/usr/bin/env python3
"""The person's side of scripts/bot-tests.sh: against a running server, make
a person and a bot account, start scripts/tabula-bot.py with the bot's
token, challenge the bot, play the person's seat with its first legal action
(resigning after --moves of them), and check that both sides played and the
bot saw the game end. With --tournament the game is instead a rated one: the
person makes a one-round tournament that takes bots, both join, and the
game's ratings must change. Python 3 standard library only."""

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


def challenge(person, bot, bot_name, spec):
    """The person challenges the bot, which accepts: the game's id."""
    seek = person.ok("POST", "/api/seeks", {"spec": spec, "to": bot_name})["id"]
    for _ in range(200):
        game = person.ok("GET", f"/api/seeks/{seek}").get("game")
        if game:
            print(f"game {game} ({spec}): the bot accepted", file=sys.stderr)
            return game
        time.sleep(0.1)
    fail("the bot did not accept the challenge within 20 s")


def tournament_game(person, bot, bot_name, spec):
    """A rated one-round tournament that takes bots, starting now, joined by
    the person and (with its token) the bot: the id of their game."""
    body = {"name": "Bots welcome", "spec": spec, "format": "swiss", "rounds": 1,
            "clock": {"initial_s": 300, "increment_s": 0}, "starts": "now",
            "rated": True, "bots": True}
    tid = person.ok("POST", "/api/tournaments", body)["id"]
    person.ok("POST", f"/api/tournaments/{tid}/join")
    bot.ok("POST", f"/api/tournaments/{tid}/join")
    for _ in range(200):
        rounds = person.ok("GET", f"/api/tournaments/{tid}").get("rounds") or []
        if rounds and rounds[0].get("games"):
            game = rounds[0]["games"][0]["id"]
            print(f"game {game} ({spec}): tournament {tid} paired the person and {bot_name}",
                  file=sys.stderr)
            return game
        time.sleep(0.1)
    fail("the tournament did not pair its two players within 20 s")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--engine", required=True)
    p.add_argument("--spec", default="stelpur")
    p.add_argument("--moves", type=int, default=400, help="the person's actions before resigning")
    p.add_argument("--tournament", action="store_true",
                   help="a rated game in a tournament that takes bots, not a challenge")
    p.add_argument("--names", default="alice,robo", help="the person's and the bot's names")
    args = p.parse_args()
    started = time.time()

    person_name, bot_name = args.names.split(",")
    person = account(args.server, person_name)
    bot = account(args.server, bot_name)
    bot.ok("POST", "/api/bot/account/upgrade")
    if not person.ok("GET", f"/api/players/{bot_name}").get("bot"):
        fail("the bot's profile is marked bot")

    env = dict(os.environ, TABULA_TOKEN=bot.token)
    command = [sys.executable, os.path.join(HERE, "tabula-bot.py"), "--server", args.server,
               "--engine", args.engine, "--movetime", "30", "--level", "3", "--games", "1"]
    proc = subprocess.Popen(command, env=env)
    try:
        game = (tournament_game if args.tournament else challenge)(person, bot, bot_name, args.spec)

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
        if len(bots) != 1 or bots[0].get("user") != bot_name:
            fail(f"the bot's seat is marked bot: {view['state']['players']}")
        if args.tournament:
            if not view["state"].get("rated"):
                fail("the tournament game is rated")
            for _ in range(100):
                diff = person.ok("GET", f"/api/games/{game}")["state"].get("rating_diff")
                if diff:
                    break
                time.sleep(0.1)
            else:
                fail("the rated game's ratings did not change within 10 s")
            print(f"rated: rating changes {diff}", file=sys.stderr)
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
