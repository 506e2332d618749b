#!/usr/bin/env python3
"""Time a game analysis on a running server, and the AI's live moves meanwhile.

    tabula serve --ai-workers 1 --db /tmp/bench.db --addr 127.0.0.1:8090 &
    scripts/analysis-bench.py http://127.0.0.1:8090 RECORD [--plies 200] [--level level6]

Imports RECORD (cut to its first --plies actions), asks for its analysis, and
while it runs plays a Dragonchess game against the AI at --level: random legal
moves for the person, and for every AI reply the time from the person's move to
the AI's answer. Prints the analysis time and the replies' latencies
(docs/benchmarks.md, "Game analysis").
"""

import argparse
import json
import random
import statistics
import time
import urllib.error
import urllib.request


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("content-type", "application/json")
    req.add_header("origin", base)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def cut(text, plies):
    head, _, body = text.partition("\n\n")
    head = "\n".join(l for l in head.splitlines() if not l.startswith(("result:", "end:")))
    actions = [l for l in body.splitlines() if l.strip() and not l.startswith("#")]
    return head + "\n\n" + "\n".join(actions[:plies]) + "\n"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("base")
    p.add_argument("record")
    p.add_argument("--plies", type=int, default=200)
    p.add_argument("--level", default="level6")
    a = p.parse_args()
    with open(a.record) as f:
        record = cut(f.read(), a.plies)
    status, game = call(a.base, "POST", "/api/games/import",
                        {"record": record, "seats": [{"type": "human"}, {"type": "human"}]})
    assert status == 200, game
    gid = game["id"]
    status, live = call(a.base, "POST", "/api/games",
                        {"spec": "dragonchess", "seats": [{"type": "human"}, {"type": "ai", "level": a.level}]})
    assert status == 200, live
    lid, token = live["id"], live["tokens"][0]["token"]
    rng = random.Random(1)
    started = time.monotonic()
    status, v = call(a.base, "POST", f"/api/games/{gid}/analysis")
    assert status in (200, 202), v
    latencies = []
    done = None
    while done is None:
        _, view = call(a.base, "GET", f"/api/games/{lid}")
        st = view["state"]
        if st["turn"].get("kind") != "player" or st["turn"].get("seat") != 0:
            print(f"the live game stopped at ply {st['ply']} ({st['turn']}) after "
                  f"{time.monotonic() - started:.1f} s")
            break
        action = rng.choice(st["legal"])
        ply = st["ply"]
        sent = time.monotonic()
        status, v = call(a.base, "POST", f"/api/games/{lid}/move",
                         {"token": token, "action": action, "ply": ply})
        assert status == 200, v
        while True:
            _, view = call(a.base, "GET", f"/api/games/{lid}")
            st = view["state"]
            if st["ply"] >= ply + 2 or st["turn"].get("kind") == "over":
                break
            time.sleep(0.01)
        latencies.append(time.monotonic() - sent)
        status, v = call(a.base, "GET", f"/api/games/{gid}/analysis")
        if status == 200:
            done = time.monotonic() - started
    while done is None:
        status, v = call(a.base, "GET", f"/api/games/{gid}/analysis")
        if status == 200:
            done = time.monotonic() - started
        time.sleep(0.1)
    print(f"analysis of {len(v['plies'])} actions: {done:.1f} s")
    if latencies:
        print(f"AI replies ({a.level}) meanwhile: {len(latencies)}, median "
              f"{statistics.median(latencies):.2f} s, max {max(latencies):.2f} s")


if __name__ == "__main__":
    main()
