//! Two `tabula serve` processes on one PostgreSQL: moves alternate between
//! them, one is killed with SIGKILL in the middle of the stream, the other
//! carries on, and no acknowledged move is lost or played twice. Needs
//! `TABULA_TEST_PG` (started by `scripts/test.sh`); skipped loudly without,
//! unless the run was promised it (`TABULA_REQUIRE_PG=1`): then it fails.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Instance {
    child: Child,
    addr: String,
}

impl Instance {
    fn start(db: &str) -> Instance {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["serve", "--addr", "127.0.0.1:0", "--ai-pause-ms", "0"])
            .env("TABULA_DB", db)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tabula serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("read");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .to_string();
        Instance { child, addr }
    }

    /// One HTTP request; `None` if the connection failed (a dead instance).
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Option<(u16, Value)> {
        let mut stream = TcpStream::connect(&self.addr).ok()?;
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .ok()?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).ok()?;
        let mut answer = String::new();
        stream.read_to_string(&mut answer).ok()?;
        let status = answer.split_whitespace().nth(1)?.parse().ok()?;
        let json = answer
            .split_once("\r\n\r\n")
            .and_then(|(_, b)| serde_json::from_str(b).ok())?;
        Some((status, json))
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_killed_instance_loses_no_acknowledged_move() {
    let Some(db) = std::env::var("TABULA_TEST_PG")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        // A run promised PostgreSQL (scripts/test.sh started it) fails.
        assert!(
            !std::env::var("TABULA_REQUIRE_PG").is_ok_and(|v| v == "1"),
            "TABULA_REQUIRE_PG=1 but TABULA_TEST_PG is not set: PostgreSQL was expected"
        );
        eprintln!("instances: no TABULA_TEST_PG, SKIPPED (scripts/test.sh starts PostgreSQL)");
        return;
    };
    let mut a = Instance::start(&db);
    let b = Instance::start(&db);
    let (st, created) = a
        .call(
            "POST",
            "/api/games",
            Some(json!({"spec": "dragonchess", "seed": 3})),
        )
        .expect("create");
    assert_eq!(st, 200, "{created}");
    let id = created["id"].as_str().expect("id").to_string();
    let tokens: Vec<String> = created["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|t| t["token"].as_str().expect("token").to_string())
        .collect();
    let game = format!("/api/games/{id}");

    // (ply, action) of every acknowledged move.
    let mut acked: Vec<(u64, String)> = Vec::new();
    let mut a_alive = true;
    for i in 0..40 {
        let on_a = a_alive && i % 2 == 0;
        let server = if on_a { &a } else { &b };
        // An instance shows another's move a few milliseconds after it is
        // made: a move on the board it saw before is refused (409) and the
        // client looks again, as the web client does.
        let mut tries = 0;
        loop {
            let (_, s) = server.call("GET", &game, None).expect("snapshot");
            let state = &s["state"];
            assert_eq!(state["turn"]["kind"], "player", "{s}");
            let ply = state["ply"].as_u64().expect("ply");
            let seat = state["turn"]["seat"].as_u64().expect("seat") as usize;
            let legal = state["legal"].as_array().expect("legal");
            let action = legal[(i * 7) % legal.len()]
                .as_str()
                .expect("text")
                .to_string();
            let body = json!({"token": tokens[seat], "action": action, "ply": ply});
            if on_a && i == 20 {
                // A move sent to A, which dies before or after it commits:
                // it may or may not count, but never twice.
                let mut stream = TcpStream::connect(&a.addr).expect("connect");
                let text = body.to_string();
                let request = format!(
                    "POST {game}/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
                    text.len()
                );
                stream.write_all(request.as_bytes()).expect("send");
                a.child.kill().expect("SIGKILL");
                let _ = a.child.wait();
                a_alive = false;
                break;
            }
            match server.call("POST", &format!("{game}/move"), Some(body)) {
                Some((200, answer)) => {
                    assert_eq!(answer["ply"].as_u64(), Some(ply + 1), "{answer}");
                    acked.push((ply, action));
                    break;
                }
                Some((409, _)) if tries < 50 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                other => panic!("move {i} refused: {other:?}"),
            }
        }
    }
    let (_, s) = b.call("GET", &game, None).expect("final snapshot");
    let history = s["history"].as_array().expect("history");
    for (ply, action) in &acked {
        assert_eq!(history[*ply as usize]["text"], json!(action), "ply {ply}");
    }
    // Every ply once: the acknowledged moves, and perhaps the one in flight.
    let extra = history.len() - acked.len();
    assert!(
        extra <= 1,
        "{} plies for {} acknowledged moves",
        history.len(),
        acked.len()
    );
    assert!(
        acked.len() >= 35,
        "the stream went on: {} moves",
        acked.len()
    );
}
