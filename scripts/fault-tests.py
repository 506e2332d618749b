#!/usr/bin/env python3
"""Fault tests against a real `tabula serve` process (scripts/fault-tests.sh
runs them): what a stranger or a broken disk does to a running server, as
its memory, its answers, /healthz and its log show it. Python 3 standard
library only; every request goes to 127.0.0.0/8, every loop is bounded.

  signins   500 concurrent sign-ins and sign-ups from 100 loopback
            addresses: peak RSS under 300 MB, RSS back within 50 MB of the
            start 10 s later; refusals are 429 or 503 with Retry-After.
  diskfull  the SQLite file on a small tmpfs that fills up: writes answer
            503 with Retry-After and words a person understands, /healthz
            answers 503 with the cause, the log has one ERROR for it; once
            space is freed /healthz is 200 again and writes succeed.
  pgrestart PostgreSQL stopped under the server and started again: 503 with
            Retry-After meanwhile (not the driver's words), then 200.
  silent    1,000 WebSocket clients from one address that never read: at most
            100 are let in (the rest 429), the server's RSS and the host's TCP
            memory grow by under 100 MB, and an honest client on another
            address receives every move of a game played meanwhile.
"""

import argparse
import base64
import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time

PAGE = os.sysconf("SC_PAGE_SIZE")


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def rss_mb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


class Server:
    """`tabula serve` on a free loopback port; its log in `log`."""

    def __init__(self, binary, db, log, extra=()):
        self.log = log
        self.out = open(log, "w")
        self.proc = subprocess.Popen(
            [binary, "serve", "--addr", "127.0.0.1:0", "--db", db, *extra],
            stdout=self.out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "RUST_LOG": "info"},
        )
        deadline = time.time() + 60
        self.port = None
        while time.time() < deadline and self.port is None:
            if self.proc.poll() is not None:
                fail(f"the server stopped: {open(log).read()[-2000:]}")
            for line in open(log):
                if "http://127.0.0.1:" in line:
                    self.port = int(line.split("http://127.0.0.1:")[1].split()[0].strip("/"))
                    break
            time.sleep(0.1)
        if self.port is None:
            fail("the server did not start")

    def call(self, method, path, body=None, source="127.0.0.1", headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(source, 0))
        h = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{self.port}"}
        h.update(headers or {})
        conn.request(method, path, None if body is None else json.dumps(body), h)
        res = conn.getresponse()
        text = res.read()
        conn.close()
        try:
            value = json.loads(text or b"{}")
        except ValueError:
            value = {"raw": text.decode(errors="replace")}
        return res.status, dict(res.getheaders()), value

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.out.close()


def signins(args):
    srv = Server(args.bin, os.path.join(args.work, "signins.db"), os.path.join(args.work, "signins.log"))
    try:
        srv.call("POST", "/api/account", {"username": "owner", "password": "a good password"}, "127.0.0.2")
        start = rss_mb(srv.proc.pid)
        results = []
        lock = threading.Lock()

        def one(i):
            source = f"127.0.1.{1 + i % 100}"
            if i % 2:
                body = {"username": f"x{i}", "password": "wrong password"}
                path = "/api/login"
            else:
                body = {"username": f"new{i}", "password": "a good password"}
                path = "/api/account"
            try:
                st, headers, _ = srv.call("POST", path, body, source)
            except OSError as e:
                st, headers = f"error {e}", {}
            with lock:
                results.append((st, "Retry-After" in headers or "retry-after" in headers))

        peak = [start]
        done = threading.Event()

        def watch():
            while not done.is_set():
                peak[0] = max(peak[0], rss_mb(srv.proc.pid))
                time.sleep(0.02)

        watcher = threading.Thread(target=watch)
        watcher.start()
        threads = [threading.Thread(target=one, args=(i,)) for i in range(500)]
        t0 = time.time()
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        done.set()
        watcher.join()
        elapsed = time.time() - t0
        peak_hwm = rss_mb(srv.proc.pid, "VmHWM")
        time.sleep(10)
        after = rss_mb(srv.proc.pid)
        counts = {}
        for st, _ in results:
            counts[st] = counts.get(st, 0) + 1
        print(f"signins: 500 requests in {elapsed:.1f} s: {counts}; RSS start {start:.0f} MB, "
              f"peak {max(peak[0], peak_hwm):.0f} MB, 10 s later {after:.0f} MB")
        if len(results) != 500 or any(isinstance(st, str) for st, _ in results):
            fail(f"every request is answered: {counts}")
        if any(st >= 500 and st != 503 for st, _ in results):
            fail(f"no server errors: {counts}")
        if any(st in (429, 503) and not ra for st, ra in results):
            fail("every 429 and 503 says when to come back")
        if max(peak[0], peak_hwm) >= 300:
            fail(f"peak RSS {max(peak[0], peak_hwm):.0f} MB is not under 300 MB")
        if after - start > 50:
            fail(f"RSS {after:.0f} MB is not within 50 MB of {start:.0f} MB 10 s later")
        st, _, _ = srv.call("POST", "/api/login", {"username": "owner", "password": "a good password"}, "127.0.0.2")
        if st != 200:
            fail(f"the owner signs in afterwards: {st}")
    finally:
        srv.stop()


def diskfull(args):
    mnt = os.path.join(args.work, "small")
    os.makedirs(mnt, exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", mnt], capture_output=True).returncode:
        print("diskfull: SKIPPED (a tmpfs cannot be mounted here: not root?)")
        return
    srv = None
    try:
        log = os.path.join(args.work, "diskfull.log")
        srv = Server(args.bin, os.path.join(mnt, "tabula.db"), log)
        st, _, health = srv.call("GET", "/healthz")
        if st != 200:
            fail(f"healthz before: {st} {health}")
        # Fill the disk, leaving nothing for the database to grow into.
        filler = os.path.join(mnt, "filler")
        with open(filler, "wb") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        refused = None
        for i in range(200):
            source = f"127.0.2.{1 + i % 200}"
            st, headers, body = srv.call("POST", "/api/games", {"spec": "dragonchess"}, source)
            if st == 503:
                refused = (headers, body)
                break
            if st != 200:
                fail(f"a write on a full disk: {st} {body}")
        if refused is None:
            fail("no write failed on a full disk")
        headers, body = refused
        if body.get("code") != "unavailable" or "database" not in body.get("error", ""):
            fail(f"the refusal is clear: {body}")
        if not any(k.lower() == "retry-after" for k in headers):
            fail("the refusal says when to come back")
        for i in range(5):
            srv.call("POST", "/api/games", {"spec": "dragonchess"}, f"127.0.3.{i + 1}")
        st, _, health = srv.call("GET", "/healthz")
        if st != 503 or "full" not in (health.get("reason") or ""):
            fail(f"healthz while writes fail: {st} {health}")
        errors = [l for l in open(log) if "ERROR" in l and "database writes fail" in l]
        if len(errors) != 1:
            fail(f"one ERROR line for the cause, not one per request: {len(errors)}")
        os.remove(filler)
        st, _, health = srv.call("GET", "/healthz")
        if st != 200:
            fail(f"healthz after space is freed: {st} {health}")
        st, _, body = srv.call("POST", "/api/games", {"spec": "dragonchess"}, "127.0.4.1")
        if st != 200:
            fail(f"a write after space is freed: {st} {body}")
        print(f"diskfull: 503 {refused[1]['error']!r}; healthz 503 then 200; 1 ERROR line")
    finally:
        if srv:
            srv.stop()
        subprocess.run(["umount", mnt], capture_output=True)


def pgrestart(args):
    url, pgdir = os.environ.get("TABULA_TEST_PG"), os.environ.get("TABULA_PG_DIR")
    if not url or not pgdir:
        print("pgrestart: SKIPPED (no test PostgreSQL)")
        return
    base = url.rsplit("/", 1)[0]
    name = f"tabula_fault_{os.getpid()}"
    subprocess.run(["psql", url, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    srv = Server(args.bin, f"{base}/{name}", os.path.join(args.work, "pgrestart.log"))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "postgres.sh")
    try:
        st, _, _ = srv.call("POST", "/api/games", {"spec": "phylde"})
        if st != 200:
            fail(f"a game before the restart: {st}")
        subprocess.run(["bash", script, "pause", pgdir], check=True)
        try:
            st, headers, body = srv.call("POST", "/api/games", {"spec": "phylde"}, "127.0.5.1")
            if st != 503 or body.get("code") != "unavailable":
                fail(f"while PostgreSQL is down: {st} {body}")
            if "db error" in body.get("error", "") or "object" in body.get("error", ""):
                fail(f"the driver's words reach the player: {body}")
            if not any(k.lower() == "retry-after" for k in headers):
                fail("the refusal says when to come back")
            st, _, health = srv.call("GET", "/healthz")
            if st != 503:
                fail(f"healthz while PostgreSQL is down: {st} {health}")
        finally:
            subprocess.run(["bash", script, "resume", pgdir], check=True)
        ok = False
        for _ in range(100):
            st, _, _ = srv.call("POST", "/api/games", {"spec": "phylde"}, "127.0.5.2")
            if st == 200:
                ok = True
                break
            time.sleep(0.1)
        if not ok:
            fail("writes do not succeed after PostgreSQL is back")
        st, _, health = srv.call("GET", "/healthz")
        if st != 200:
            fail(f"healthz after the restart: {st} {health}")
        print("pgrestart: 503 unavailable with Retry-After while down; 200 after")
    finally:
        srv.stop()


def ws_open(port, path, source):
    """A WebSocket handshake from `source`; the socket and the status."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
         f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return sock, status


def ws_frames(sock):
    """The text frames of a server's WebSocket (unmasked), answering pings."""
    buf = b""
    while True:
        while len(buf) < 2 or len(buf) < header_len(buf) + payload_len(buf):
            chunk = sock.recv(65536)
            if not chunk:
                return
            buf += chunk
        h, n = header_len(buf), payload_len(buf)
        opcode, payload, buf = buf[0] & 0x0F, buf[h:h + n], buf[h + n:]
        if opcode == 0x9:  # ping: answer with a masked pong
            mask = os.urandom(4)
            sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask
                         + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        elif opcode == 0x8:
            return
        elif opcode == 0x1:
            yield payload.decode()


def header_len(buf):
    n = buf[1] & 0x7F
    return 2 + (2 if n == 126 else 8 if n == 127 else 0)


def payload_len(buf):
    n = buf[1] & 0x7F
    if n == 126:
        return int.from_bytes(buf[2:4], "big") if len(buf) >= 4 else 1 << 30
    if n == 127:
        return int.from_bytes(buf[2:10], "big") if len(buf) >= 10 else 1 << 30
    return n


def tcp_mem_mb():
    with open("/proc/net/sockstat") as f:
        for line in f:
            if line.startswith("TCP:"):
                words = line.split()
                return int(words[words.index("mem") + 1]) * PAGE / 2**20
    return 0.0


def silent(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    srv = Server(args.bin, os.path.join(args.work, "silent.db"), os.path.join(args.work, "silent.log"))
    clients = []
    try:
        st, _, created = srv.call("POST", "/api/games", {"spec": "dragonchess"}, "127.0.6.1")
        if st != 200:
            fail(f"a game: {st} {created}")
        game, tokens = created["id"], [t["token"] for t in created["tokens"]]
        path = f"/api/games/{game}/ws"
        honest, status = ws_open(srv.port, path, "127.0.6.2")
        if status != 101:
            fail(f"the honest client's channel: {status}")
        seen = []
        reader = threading.Thread(target=lambda: seen.extend(ws_frames(honest)), daemon=True)
        reader.start()
        rss0, mem0 = rss_mb(srv.proc.pid), tcp_mem_mb()
        statuses = {}
        for _ in range(1000):
            sock, status = ws_open(srv.port, path, "127.0.6.3")
            statuses[status] = statuses.get(status, 0) + 1
            clients.append(sock)
        # Moves meanwhile: each goes to every channel, the silent ones' too.
        moves = 0
        for _ in range(30):
            st, _, view = srv.call("GET", f"/api/games/{game}")
            seat = view["state"]["turn"].get("seat")
            legal = view["state"]["legal"]
            if st != 200 or seat is None or not legal:
                break
            st, _, body = srv.call("POST", f"/api/games/{game}/move",
                                   {"action": legal[0], "token": tokens[seat]}, "127.0.6.4")
            if st != 200:
                fail(f"a move: {st} {body}")
            moves += 1
        time.sleep(1)
        rss1, mem1 = rss_mb(srv.proc.pid), tcp_mem_mb()
        updates = sum(1 for text in seen if '"type":"update"' in text)
        print(f"silent: 1,000 channels from one address: {statuses}; server RSS {rss0:.0f} -> {rss1:.0f} MB, "
              f"host TCP memory {mem0:.1f} -> {mem1:.1f} MB; the honest client saw {updates} of {moves} moves")
        if statuses.get(101, 0) > 100 or statuses.get(429, 0) < 900:
            fail(f"one address holds at most 100 channels: {statuses}")
        if (rss1 - rss0) + (mem1 - mem0) >= 100:
            fail("the silent clients cost the host 100 MB or more")
        if updates < moves:
            fail(f"the honest client missed moves: {updates} of {moves}")
    finally:
        for c in clients:
            c.close()
        srv.stop()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("tests", nargs="*", default=["signins", "diskfull", "pgrestart", "silent"])
    args = p.parse_args()
    for name in args.tests:
        {"signins": signins, "diskfull": diskfull, "pgrestart": pgrestart, "silent": silent}[name](args)
    print(f"fault tests: all {len(args.tests)} done")


if __name__ == "__main__":
    main()
