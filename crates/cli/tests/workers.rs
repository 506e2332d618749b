//! AI work on its own processes (issue 38): one `tabula serve --ai-workers
//! 0` and two `tabula worker` processes on one PostgreSQL. The workers play
//! the AI's moves and compute the hints (the web instance computes none); a
//! worker killed with SIGKILL while it thinks hands its turn to the other
//! once its short claim runs out; a worker stops cleanly on SIGTERM, and
//! waits for a database it cannot reach. Needs `TABULA_TEST_PG` (started by
//! `scripts/test.sh`); skipped loudly without, unless the run was promised
//! it (`TABULA_REQUIRE_PG=1`): then it fails.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A worker's claim on an AI turn in this test, in seconds.
const CLAIM_SECS: f64 = 1.5;
/// How often a worker sweeps for turns nobody drives, in ms.
const POLL_MS: u64 = 200;

/// A `tabula` process whose stderr lines are kept.
struct Proc {
    child: Child,
    /// The first line of stdout (the address, or the worker's greeting).
    greeting: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Proc {
    fn start(args: &[&str], db: &str) -> Proc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(args)
            .env("TABULA_DB", db)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tabula");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("stderr");
        let kept = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                kept.lock().expect("log").push(line);
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let mut greeting = String::new();
        BufReader::new(stdout)
            .read_line(&mut greeting)
            .expect("read stdout");
        assert!(
            !greeting.is_empty(),
            "{args:?} said nothing: {:?}",
            log.lock().expect("log")
        );
        Proc {
            child,
            greeting,
            log,
        }
    }

    fn addr(&self) -> String {
        self.greeting
            .split("http://")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in `{}`", self.greeting))
            .to_string()
    }

    /// Log lines containing every one of `words`.
    fn lines_with(&self, words: &[&str]) -> Vec<String> {
        self.log
            .lock()
            .expect("log")
            .iter()
            .filter(|l| words.iter().all(|w| l.contains(w)))
            .cloned()
            .collect()
    }

    fn signal(&self, sig: i32) {
        // SAFETY: kill(2) on our own child's pid.
        let r = unsafe { libc::kill(self.child.id() as i32, sig) };
        assert_eq!(r, 0, "kill");
    }

    /// Wait for the process to exit; its status code.
    fn exit_within(&mut self, limit: Duration) -> Option<i32> {
        let until = Instant::now() + limit;
        while Instant::now() < until {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("still running after {limit:?}");
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP request to `addr`.
fn call(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let json = answer
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null);
    (status, json)
}

/// A database of its own on the test server, so that the workers find no
/// other test's games.
fn fresh_database(url: &str) -> String {
    let name = format!("tabula_workers_{}", std::process::id());
    let out = Command::new("psql")
        .args([url, "-q", "-c", &format!("CREATE DATABASE {name}")])
        .output()
        .expect("psql (Debian's postgresql-client)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let base = url.rsplit_once('/').map_or(url, |(base, _)| base);
    format!("{base}/{name}")
}

fn postgres() -> Option<String> {
    let url = std::env::var("TABULA_TEST_PG")
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() {
        assert!(
            !std::env::var("TABULA_REQUIRE_PG").is_ok_and(|v| v == "1"),
            "TABULA_REQUIRE_PG=1 but TABULA_TEST_PG is not set: PostgreSQL was expected"
        );
        eprintln!("workers: no TABULA_TEST_PG, SKIPPED (scripts/test.sh starts PostgreSQL)");
    }
    url
}

fn worker(db: &str) -> Proc {
    let claim = CLAIM_SECS.to_string();
    let poll = POLL_MS.to_string();
    let w = Proc::start(
        &[
            "worker",
            "--threads",
            "1",
            "--claim-secs",
            &claim,
            "--poll-ms",
            &poll,
            "--ai-pause-ms",
            "0",
        ],
        db,
    );
    assert!(w.greeting.contains("AI worker"), "{}", w.greeting);
    w
}

/// Poll game `id` on `addr` until `done` holds (a real process: no event
/// to wait on), at most `limit`.
fn wait_for(addr: &str, id: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + limit;
    loop {
        let (_, s) = call(addr, "GET", &format!("/api/games/{id}"), None);
        if done(&s) {
            return s;
        }
        assert!(Instant::now() < until, "not within {limit:?}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn ply(s: &Value) -> u64 {
    s["state"]["ply"].as_u64().unwrap_or(0)
}

/// A game of a person (seat 0) against the AI `level`; its id and token.
fn game_against(addr: &str, level: &str, seed: u64) -> (String, String) {
    let seats = json!([{"type": "human"}, {"type": "ai", "level": level}]);
    let (st, created) = call(
        addr,
        "POST",
        "/api/games",
        Some(json!({"spec": "dragonchess", "seed": seed, "seats": seats})),
    );
    assert_eq!(st, 200, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let token = created["tokens"][0]["token"]
        .as_str()
        .expect("token")
        .to_string();
    (id, token)
}

/// Play the person's move at ply `at` (the first legal one).
fn play(addr: &str, id: &str, token: &str, s: &Value) {
    let action = s["state"]["legal"][0].as_str().expect("a legal action");
    let body = json!({"token": token, "action": action, "ply": ply(s)});
    let (st, answer) = call(addr, "POST", &format!("/api/games/{id}/move"), Some(body));
    assert_eq!(st, 200, "{answer}");
}

#[test]
fn workers_play_the_ai_and_a_killed_one_hands_its_turn_over() {
    let Some(url) = postgres() else { return };
    let db = fresh_database(&url);
    let web = Proc::start(
        &[
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--ai-workers",
            "0",
            "--ai-pause-ms",
            "0",
        ],
        &db,
    );
    let addr = web.addr();
    let mut workers = [worker(&db), worker(&db)];

    // The AI answers each move, played by a worker; a hint asked of the
    // web instance is computed by a worker too.
    let (id, token) = game_against(&addr, "level1", 5);
    let mut s = wait_for(&addr, &id, Duration::from_secs(5), |_| true);
    let (st, hint) = call(
        &addr,
        "POST",
        &format!("/api/games/{id}/hint"),
        Some(json!({"token": token})),
    );
    assert_eq!(st, 200, "{hint}");
    let legal = s["state"]["legal"].as_array().expect("legal");
    assert!(legal.contains(&hint["action"]), "{hint} not in {legal:?}");
    for _ in 0..5 {
        let before = ply(&s);
        play(&addr, &id, &token, &s);
        // The AI's answer arrives through the note, long before a sweep.
        s = wait_for(&addr, &id, Duration::from_secs(10), |s| {
            ply(s) == before + 2 && s["state"]["turn"]["seat"] == 0
        });
    }
    let stored: usize = workers
        .iter()
        .map(|w| w.lines_with(&["AI move stored", &id]).len())
        .sum();
    assert_eq!(stored, 5, "every AI move stored once, by a worker");
    let (_, m) = call(&addr, "GET", "/api/metrics", None);
    assert_eq!(
        m["ai_done"].as_u64(),
        Some(0),
        "the web instance computed no AI: {m}"
    );

    // Its analysis, asked of the web instance, is computed by a worker:
    // one entry per action.
    let body = json!({"token": token});
    let (st, v) = call(
        &addr,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(body),
    );
    assert_eq!(st, 200, "{v}");
    let path = format!("/api/games/{id}/analysis");
    let (st, v) = call(&addr, "POST", &path, None);
    assert_eq!(st, 202, "{v}");
    let until = Instant::now() + Duration::from_secs(60);
    let analysis = loop {
        let (st, v) = call(&addr, "GET", &path, None);
        if st != 202 {
            assert_eq!(st, 200, "{v}");
            break v;
        }
        assert!(Instant::now() < until, "no analysis within 60 s: {v}");
        std::thread::sleep(Duration::from_millis(100));
    };
    let (_, game) = call(&addr, "GET", &format!("/api/games/{id}"), None);
    let plies = game["history"].as_array().map_or(0, Vec::len);
    assert_eq!(
        analysis["plies"].as_array().map_or(0, Vec::len),
        plies,
        "{analysis}"
    );

    // A level-8 think (1.9 s) outlasts the claim (1.5 s): renewed while
    // the AI thinks, it keeps the other worker's sweep off the turn.
    let (id, token) = game_against(&addr, "level8", 7);
    let s = wait_for(&addr, &id, Duration::from_secs(5), |_| true);
    play(&addr, &id, &token, &s);
    wait_for(&addr, &id, Duration::from_secs(10), |s| ply(s) == 2);
    let thinks: usize = workers
        .iter()
        .map(|w| w.lines_with(&["AI thinking", &id]).len())
        .sum();
    assert_eq!(thinks, 1, "the turn was computed once");

    // A worker killed in the middle of a level-8 think (1.9 s): the other
    // takes the turn once the claim runs out.
    let (id, token) = game_against(&addr, "level8", 9);
    let s = wait_for(&addr, &id, Duration::from_secs(5), |_| true);
    play(&addr, &id, &token, &s);
    let until = Instant::now() + Duration::from_secs(10);
    let thinker = loop {
        if let Some(i) = (0..2).find(|&i| !workers[i].lines_with(&["AI thinking", &id]).is_empty())
        {
            break i;
        }
        assert!(Instant::now() < until, "no worker took the AI's turn");
        std::thread::sleep(Duration::from_millis(5));
    };
    let killed = Instant::now();
    workers[thinker].child.kill().expect("SIGKILL");
    let _ = workers[thinker].child.wait();
    let s = wait_for(&addr, &id, Duration::from_secs(20), |s| ply(s) == 2);
    let takeover = killed.elapsed();
    let other = &workers[1 - thinker];
    assert_eq!(
        other.lines_with(&["AI move stored", &id]).len(),
        1,
        "the other worker played the turn"
    );
    assert_eq!(s["history"].as_array().map(Vec::len), Some(2));
    eprintln!("workers: the turn of a killed worker was played {takeover:?} after the kill");
    // The claim (1.5 s) held the turn for the dead worker; then a sweep
    // (0.2 s) found it and the other thought 1.9 s.
    assert!(
        takeover >= Duration::from_millis(1500) && takeover < Duration::from_secs(8),
        "{takeover:?}"
    );

    // SIGTERM: a clean stop.
    other.signal(libc::SIGTERM);
    let code = workers[1 - thinker].exit_within(Duration::from_secs(15));
    assert_eq!(code, Some(0));
    assert!(!workers[1 - thinker].lines_with(&["stopped"]).is_empty());
}

#[test]
fn a_worker_waits_for_an_unreachable_database_and_stops_on_sigterm() {
    // A port nobody listens on (the test needs no PostgreSQL).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let db = format!("postgres://tabula@127.0.0.1:{port}/none");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["worker", "--threads", "1"])
        .env("TABULA_DB", &db)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabula worker");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("a log line");
    assert!(line.contains("cannot use the database"), "{line}");
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let until = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < until, "the worker did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");

    // SQLite is one process's: a worker refuses it (and creates nothing).
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["worker", "--db", "x.db"])
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("postgres://"));
    // Nor does a web instance leave its AI turns to workers on SQLite.
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--ai-workers", "0", "--db", "x.db"])
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("tabula worker"));
    assert!(!std::path::Path::new("x.db").exists());
}
