//! `tabula engine` end to end: sessions piped through the binary, bad
//! lines included, checking every answer and that the engine never dies.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A running engine with a reader thread, so that reads can time out.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run tabula engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).expect("write");
        self.stdin.write_all(b"\n").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn read(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer within 30 s")
    }

    /// Send `line` and read the one line that answers it.
    fn ask(&mut self, line: &str) -> String {
        self.send(line.as_bytes());
        self.read()
    }

    /// Nothing more has been written (checked with a round trip).
    fn silent_after(&mut self, line: &str) {
        self.send(line.as_bytes());
        assert_eq!(self.ask("isready"), "readyok", "after `{line}`");
    }

    fn go(&mut self, line: &str) -> (String, String) {
        self.send(line.as_bytes());
        let info = self.read();
        let best = self.read();
        (info, best)
    }

    fn quit(mut self) {
        self.send(b"quit");
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "{status}");
    }
}

fn is_error(line: &str) -> bool {
    line.starts_with("info string error ")
}

#[test]
fn a_whole_session_with_bad_lines_in_between() {
    let mut e = Engine::start();
    e.send(b"ugi");
    let mut handshake = Vec::new();
    loop {
        let l = e.read();
        if l == "ugiok" {
            break;
        }
        handshake.push(l);
    }
    assert!(handshake[0].starts_with("id name Tabula"), "{handshake:?}");
    assert!(handshake
        .iter()
        .any(|l| l == "option name Level type spin default 8 min 1 max 8"));
    assert_eq!(e.ask("isready"), "readyok");
    assert!(is_error(&e.ask("go movetime 10")), "no game yet");
    e.silent_after("setoption name Level value 4");
    e.silent_after("setoption name Seed value 5");
    e.silent_after("newgame gildervaik");
    assert_eq!(e.ask("query seats"), "response 3");
    assert_eq!(e.ask("query turn"), "response 1");

    e.silent_after("position gildervaik startpos moves a1-b2");
    let position = e.ask("query position");
    for bad in [
        &b"position gildervaik startpos moves a1-b2 a1-b2"[..],
        b"position gildervaik startpos moves zz",
        b"position nosuchgame startpos",
        b"newgame",
        b"go time4 1000",
        b"go movetime banana",
        b"setoption name Level value 99",
        b"query p9turn",
        b"frobnicate",
        b"\xff\xfe not utf-8",
        b"ugi ugi",
    ] {
        e.send(bad);
        let answer = e.read();
        assert!(is_error(&answer), "{answer}");
        assert_eq!(e.ask("query position"), position, "state kept");
    }
    assert_eq!(e.ask("query turn"), "response 2");

    let (info, best) = e.go("go time1 5000 time2 5000 time3 5000 inc2 100");
    assert!(info.starts_with("info nodes "), "{info}");
    assert!(info.contains(" score 0."), "{info}");
    let best = best
        .strip_prefix("bestmove ")
        .expect("bestmove")
        .to_string();
    let legal = e.ask("query legal");
    assert!(
        legal.split_whitespace().skip(1).any(|a| a == best),
        "{best}"
    );
    e.silent_after(&format!("position gildervaik startpos moves a1-b2 {best}"));
    assert_eq!(e.ask("query p3turn"), "response true");
    e.quit();
}

#[test]
fn the_same_seed_gives_the_same_answers() {
    let play = || {
        let mut e = Engine::start();
        e.silent_after("setoption name Seed value 11");
        e.silent_after("position stelpur startpos moves 6-1");
        let (_, first) = e.go("go nodes 3000");
        e.silent_after("position phylde startpos");
        let (_, second) = e.go("go nodes 2000");
        e.quit();
        (first, second)
    };
    assert_eq!(play(), play());
}

#[test]
fn stop_ends_a_long_search_and_queries_are_answered_meanwhile() {
    let mut e = Engine::start();
    e.silent_after("newgame dragonchess");
    let started = Instant::now();
    e.send(b"go movetime 600000");
    assert_eq!(e.ask("isready"), "readyok");
    assert_eq!(e.ask("query turn"), "response 1");
    assert!(is_error(&e.ask("position dragonchess startpos")), "busy");
    e.send(b"stop");
    assert!(e.read().starts_with("info depth "));
    assert!(e.read().starts_with("bestmove "));
    assert!(started.elapsed() < Duration::from_secs(30));
    e.silent_after("position dragonchess startpos");
    e.quit();
}

#[test]
fn the_end_of_input_waits_for_the_answer() {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(b"position phylde startpos\ngo movetime 100\n")?;
            child.wait_with_output()
        })
        .expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("");
    assert!(last.starts_with("bestmove "), "{text}");
}

/// The `> command` / `< answer` transcripts of `docs/engine-protocol.md`.
fn doc_sessions() -> Vec<Vec<(String, Vec<String>)>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/engine-protocol.md");
    let doc = std::fs::read_to_string(path).expect("docs/engine-protocol.md");
    let mut sessions = Vec::new();
    let mut current: Option<Vec<(String, Vec<String>)>> = None;
    for line in doc.lines() {
        match (line, &mut current) {
            ("```text", None) => current = Some(Vec::new()),
            ("```", Some(_)) => sessions.extend(current.take().filter(|s| !s.is_empty())),
            (l, Some(s)) => {
                if let Some(cmd) = l.strip_prefix("> ") {
                    s.push((cmd.to_string(), Vec::new()));
                } else if let (Some(answer), Some(last)) = (l.strip_prefix("< "), s.last_mut()) {
                    last.1.push(answer.to_string());
                }
            }
            _ => {}
        }
    }
    sessions
}

/// Whether `got` answers as `documented` does: search results and the
/// version by their shape, every other line exactly.
fn same_answer(got: &str, documented: &str) -> bool {
    let keys = |l: &str| -> Vec<String> {
        let words: Vec<&str> = l.split_whitespace().collect();
        let end = words.iter().position(|w| *w == "pv").unwrap_or(words.len());
        words[1..end]
            .iter()
            .step_by(2)
            .map(|w| w.to_string())
            .collect()
    };
    if documented.starts_with("info depth ") || documented.starts_with("info nodes ") {
        got.starts_with("info ") && keys(got) == keys(documented)
    } else if documented.starts_with("bestmove ") {
        got.starts_with("bestmove ") && got != "bestmove (none)"
    } else if documented.starts_with("id name ") {
        got.starts_with("id name Tabula ")
    } else {
        got == documented
    }
}

#[test]
fn the_documented_sessions_replay() {
    let sessions = doc_sessions();
    assert_eq!(sessions.len(), 4, "one example session per game");
    for session in sessions {
        let mut e = Engine::start();
        for (cmd, answers) in &session {
            e.send(cmd.as_bytes());
            for documented in answers {
                let got = e.read();
                assert!(
                    same_answer(&got, documented),
                    "`{cmd}`: got `{got}`, documented `{documented}`"
                );
            }
        }
        assert_eq!(session.last().map(|s| s.0.as_str()), Some("quit"));
        let status = e.child.wait().expect("wait");
        assert!(status.success());
        let rest: Vec<String> = e.lines.try_iter().collect();
        assert!(rest.is_empty(), "undocumented answers: {rest:?}");
    }
}
