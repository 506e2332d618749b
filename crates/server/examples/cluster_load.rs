//! Load through a reverse proxy in front of several `tabula serve`
//! instances (issue 38; `scripts/cluster.sh` starts the cluster and runs
//! this): games are created over HTTP and played over WebSockets through
//! the proxy, while a watcher on every instance (its own address) follows
//! every game. At the end it checks, and exits 1 if any check fails:
//!
//! - every acknowledged move is stored, once, at its ply;
//! - every watcher on every instance saw every move of its game;
//! - every game against the AI, and every AI-only game, finished (the web
//!   instances compute no AI: `ai_done` is 0 in their metrics).
//!
//! ```text
//! cargo run -p tabula-server --example cluster_load -- --url http://127.0.0.1:8000 \
//!     --watch http://127.0.0.1:8081 --watch http://127.0.0.1:8082 \
//!     [--games 30] [--ai-games 6] [--demos 4] [--seconds 20] [--think-ms 50]
//! ```
//!
//! People's games are Phylde or Dragonchess, played with random legal
//! moves until time is up; games against the AI (level 1) and AI-only
//! games start from Ad Elta Stelpur puzzle positions, near a race's end, so
//! that they finish within seconds. Each game's clients connect from their
//! own loopback address (the proxy passes it in `X-Forwarded-For`), as
//! players come from theirs, so the per-address quotas count each apart.
//! The last line of stdout is `AI_PLIES=<n>`: the AI actions stored.

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

type Error = Box<dyn std::error::Error + Send + Sync>;

struct Args {
    url: SocketAddr,
    watch: Vec<SocketAddr>,
    games: usize,
    ai_games: usize,
    demos: usize,
    seconds: u64,
    think_ms: u64,
}

fn addr_of(url: &str) -> Result<SocketAddr, String> {
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .map_err(|e| format!("`{url}`: {e} (give http://IP:PORT)"))
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        url: addr_of("http://127.0.0.1:8080")?,
        watch: Vec::new(),
        games: 30,
        ai_games: 6,
        demos: 4,
        seconds: 20,
        think_ms: 50,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--url" => a.url = addr_of(&value()?)?,
            "--watch" => a.watch.push(addr_of(&value()?)?),
            "--games" => a.games = number(value()?)? as usize,
            "--ai-games" => a.ai_games = number(value()?)? as usize,
            "--demos" => a.demos = number(value()?)? as usize,
            "--seconds" => a.seconds = number(value()?)?,
            "--think-ms" => a.think_ms = number(value()?)?,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if a.watch.is_empty() {
        return Err("--watch: give every instance's address".into());
    }
    Ok(a)
}

/// What kind of game a client plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    People,
    AgainstAi,
    Demo,
}

/// One game as the load saw it.
struct Played {
    id: String,
    kind: Kind,
    /// (ply, action) of every acknowledged move.
    acked: Vec<(usize, String)>,
    /// Each watcher's history, by instance.
    watchers: Vec<Arc<Mutex<Vec<String>>>>,
    latencies_us: Vec<u64>,
}

/// The loopback address client `i` connects from.
fn local(i: usize) -> SocketAddr {
    SocketAddr::from(([127, 1 + (i / 250 % 250) as u8, 0, 1 + (i % 250) as u8], 0))
}

async fn connect(server: SocketAddr, from: SocketAddr) -> Result<tokio::net::TcpStream, Error> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(from)?;
    let tcp = socket.connect(server).await?;
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// One HTTP/1.1 request (`Connection: close`); the status and JSON body.
async fn http(
    server: SocketAddr,
    from: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Result<(u16, Value), Error> {
    let (status, json, _) = http_session(server, from, method, path, body, None).await?;
    Ok((status, json))
}

/// One HTTP/1.1 request with the session cookie `session` (and the page's
/// Origin) if given; the status, the JSON body and the session cookie set.
async fn http_session(
    server: SocketAddr,
    from: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
    session: Option<&str>,
) -> Result<(u16, Value, Option<String>), Error> {
    let mut tcp = connect(server, from).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let cookie = session
        .map(|c| format!("Cookie: {c}\r\nOrigin: http://{server}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {server}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut answer)).await??;
    let answer = String::from_utf8_lossy(&answer);
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no HTTP status")?;
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let json = serde_json::from_str(body).unwrap_or(Value::Null);
    let set = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("set-cookie")
            .then(|| value.trim().split(';').next().unwrap_or("").to_string())
    });
    Ok((status, json, set))
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// How long a client waits for a message it expects.
const PATIENCE: Duration = Duration::from_secs(30);

/// The next JSON message of game `id`'s channel, within [`PATIENCE`].
async fn next_json(ws: &mut Socket, id: &str) -> Result<Value, Error> {
    // One deadline for the message, however many pings come meanwhile.
    let until = tokio::time::Instant::now() + PATIENCE;
    loop {
        match tokio::time::timeout_at(until, ws.next()).await {
            Err(_) => return Err(format!("game {id}: no message for {PATIENCE:?}").into()),
            Ok(Some(Ok(Message::Text(t)))) => return Ok(serde_json::from_str(&t)?),
            Ok(Some(Ok(_))) => {}
            Ok(other) => return Err(format!("game {id}: the channel closed: {other:?}").into()),
        }
    }
}

async fn open_ws(server: SocketAddr, from: SocketAddr, id: &str) -> Result<Socket, Error> {
    let tcp = connect(server, from).await?;
    let url = format!("ws://{server}/api/games/{id}/ws");
    let (ws, _) = tokio_tungstenite::client_async(url, tcp).await?;
    Ok(ws)
}

/// Take a snapshot or update into `history`: its entries replace those
/// from its `from` on.
fn take_in(history: &mut Vec<String>, view: &Value) {
    let from = view["from"].as_u64().unwrap_or(0) as usize;
    history.truncate(from);
    if let Some(entries) = view["history"].as_array() {
        history.extend(entries.iter().map(entry_text));
    }
}

/// A history entry as compared: actor and action.
fn entry_text(e: &Value) -> String {
    format!("{} {}", e["actor"], e["text"].as_str().unwrap_or(""))
}

/// Follow game `id` on one instance until `stop`, keeping its history.
async fn watch(
    server: SocketAddr,
    from: SocketAddr,
    id: String,
    seen: Arc<Mutex<Vec<String>>>,
    stop: tokio::sync::watch::Receiver<bool>,
) -> Result<(), Error> {
    let mut ws = open_ws(server, from, &id).await?;
    let mut stop = stop;
    loop {
        tokio::select! {
            msg = ws.next() => match msg {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t)?;
                    if v["type"] == "snapshot" || v["type"] == "update" {
                        let mut h = seen.lock().map_err(|_| "lock")?;
                        take_in(&mut h, &v);
                    }
                }
                Some(Ok(_)) => {}
                _ => return Err(format!("watcher of {id} on {server}: closed").into()),
            },
            _ = stop.changed() => return Ok(()),
        }
    }
}

/// A game to create: spec, position, seats.
fn new_game(kind: Kind, i: usize, rng: &mut SmallRng) -> Value {
    let stelpur: Vec<&str> = include_str!("../../../learn/puzzles/stelpur.jsonl")
        .lines()
        .collect();
    let near_end = || -> Value {
        let puzzle: Value = serde_json::from_str(stelpur[i % stelpur.len()]).unwrap_or(Value::Null);
        puzzle["position"].clone()
    };
    let ai = json!({"type": "ai", "level": "level1"});
    match kind {
        Kind::People => {
            let spec = if i.is_multiple_of(2) {
                "phylde"
            } else {
                "dragonchess"
            };
            json!({"spec": spec, "seed": rng.gen::<u32>(), "seats": [{"type": "human"}, {"type": "human"}]})
        }
        Kind::AgainstAi => {
            json!({"spec": "stelpur", "position": near_end(), "seed": rng.gen::<u32>(),
                                  "seats": [{"type": "human"}, ai]})
        }
        Kind::Demo => json!({"spec": "stelpur", "position": near_end(), "seed": rng.gen::<u32>(),
                             "seats": [ai, ai]}),
    }
}

/// Create game `i`, start its watchers, and play its people's seats until
/// it ends or time is up.
async fn run_game(
    args: Arc<Args>,
    i: usize,
    kind: Kind,
    deadline: Instant,
    stop: tokio::sync::watch::Receiver<bool>,
) -> Result<Played, Error> {
    let mut rng = SmallRng::seed_from_u64(i as u64);
    let from = local(i);
    // An AI-only game is created from a session (its creator may stop it).
    let session = if kind == Kind::Demo {
        let (status, v, cookie) =
            http_session(args.url, from, "POST", "/api/session", None, None).await?;
        if status != 200 {
            return Err(format!("no session for game {i}: {status} {v}").into());
        }
        Some(cookie.ok_or("no session cookie")?)
    } else {
        None
    };
    let (status, created, _) = http_session(
        args.url,
        from,
        "POST",
        "/api/games",
        Some(new_game(kind, i, &mut rng)),
        session.as_deref(),
    )
    .await?;
    if status != 200 {
        return Err(format!("game {i} not created: {status} {created}").into());
    }
    let id = created["id"].as_str().ok_or("no id")?.to_string();
    let tokens: Vec<String> = created["tokens"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["token"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut played = Played {
        id: id.clone(),
        kind,
        acked: Vec::new(),
        watchers: Vec::new(),
        latencies_us: Vec::new(),
    };
    for &server in &args.watch {
        let seen = Arc::new(Mutex::new(Vec::new()));
        played.watchers.push(Arc::clone(&seen));
        let (id, stop) = (id.clone(), stop.clone());
        tokio::spawn(async move {
            if let Err(e) = watch(server, from, id, seen, stop).await {
                eprintln!("{e}");
            }
        });
    }
    if kind == Kind::Demo {
        return Ok(played);
    }
    let mut ws = open_ws(args.url, from, &id).await?;
    let mut state = Value::Null;
    let mut rid = 0u64;
    loop {
        // Wait for a state where one of our seats is to move, or the end.
        let mine = |s: &Value| {
            let st = &s["state"];
            st["turn"]["kind"] == "over"
                || (st["turn"]["kind"] == "player"
                    && (st["turn"]["seat"].as_u64().unwrap_or(9) as usize) < tokens.len()
                    && s["state"]["thinking"] != true)
        };
        while state.is_null() || !mine(&state) {
            let v = next_json(&mut ws, &id).await?;
            if v["type"] == "snapshot" || v["type"] == "update" {
                state = v;
            }
        }
        let st = &state["state"];
        // People's games stop with the time; a game against the AI is
        // played to its end (it starts near it).
        if st["turn"]["kind"] == "over" || (kind == Kind::People && Instant::now() >= deadline) {
            return Ok(played);
        }
        if args.think_ms > 0 {
            tokio::time::sleep(Duration::from_millis(rng.gen_range(0..2 * args.think_ms))).await;
        }
        let seat = st["turn"]["seat"].as_u64().unwrap_or(0) as usize;
        let legal = st["legal"].as_array().ok_or("no legal list")?;
        if legal.is_empty() {
            return Err(format!("game {id}: nothing legal at {st}").into());
        }
        let action = legal[rng.gen_range(0..legal.len())].clone();
        let ply = st["ply"].as_u64().unwrap_or(0);
        rid += 1;
        let msg = json!({"type": "move", "token": tokens[seat], "action": action, "ply": ply, "rid": rid});
        let sent = Instant::now();
        ws.send(Message::Text(msg.to_string().into())).await?;
        loop {
            let v = next_json(&mut ws, &id).await?;
            match v["type"].as_str() {
                Some("ack") if v["rid"] == rid => break,
                Some("error") => return Err(format!("game {id}: move refused: {v}").into()),
                Some("update") => state = v,
                _ => {}
            }
        }
        played.latencies_us.push(sent.elapsed().as_micros() as u64);
        played.acked.push((
            ply as usize,
            format!("{seat} {}", action.as_str().unwrap_or("")),
        ));
        // The acknowledgement comes before the update: wait for a state
        // past this move.
        while state["state"]["ply"].as_u64().unwrap_or(0) <= ply {
            let v = next_json(&mut ws, &id).await?;
            if v["type"] == "update" {
                state = v;
            }
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let args = Arc::new(args()?);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let mut clients = Vec::new();
    let kinds = std::iter::repeat_n(Kind::People, args.games)
        .chain(std::iter::repeat_n(Kind::AgainstAi, args.ai_games))
        .chain(std::iter::repeat_n(Kind::Demo, args.demos));
    for (i, kind) in kinds.enumerate() {
        let (args, stop) = (Arc::clone(&args), stop_rx.clone());
        clients.push(tokio::spawn(run_game(args, i, kind, deadline, stop)));
    }
    let mut games = Vec::new();
    let mut failures = Vec::new();
    for c in clients {
        match c.await {
            Ok(Ok(p)) => games.push(p),
            Ok(Err(e)) => {
                eprintln!("client: {e}");
                failures.push(format!("client: {e}"));
            }
            Err(e) => failures.push(format!("client task: {e}")),
        }
    }
    let played_for = started.elapsed().as_secs_f64();

    // The games against the AI and the AI-only ones finish.
    let finish_by = Instant::now() + Duration::from_secs(60);
    let mut finals = Vec::new();
    for g in &games {
        loop {
            let (status, s) = http(
                args.url,
                local(0),
                "GET",
                &format!("/api/games/{}", g.id),
                None,
            )
            .await?;
            let over = s["state"]["turn"]["kind"] == "over";
            if status == 200 && (g.kind == Kind::People || over) {
                finals.push(s);
                break;
            }
            if Instant::now() > finish_by {
                failures.push(format!(
                    "{:?} game {} did not finish: {status} {s}",
                    g.kind, g.id
                ));
                finals.push(s);
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // Every acknowledged move stored once, at its ply.
    let (mut acked, mut ai_plies) = (0, 0);
    for (g, s) in games.iter().zip(&finals) {
        let history: Vec<String> = s["history"]
            .as_array()
            .map(|h| h.iter().map(entry_text).collect())
            .unwrap_or_default();
        for (ply, action) in &g.acked {
            if history.get(*ply) != Some(action) {
                failures.push(format!(
                    "game {}: ply {ply} is {:?}, {action} was acknowledged",
                    g.id,
                    history.get(*ply)
                ));
            }
        }
        acked += g.acked.len();
        let people_plies = s["history"]
            .as_array()
            .map(|h| {
                h.iter()
                    .filter(|e| match e["actor"].as_u64() {
                        Some(seat) => {
                            g.kind == Kind::People || (g.kind == Kind::AgainstAi && seat == 0)
                        }
                        None => false,
                    })
                    .count()
            })
            .unwrap_or(0);
        if people_plies != g.acked.len() {
            failures.push(format!(
                "game {}: {people_plies} people's actions stored, {} acknowledged",
                g.id,
                g.acked.len()
            ));
        }
        ai_plies += s["history"]
            .as_array()
            .map(|h| {
                h.iter()
                    .filter(|e| {
                        e["actor"].as_u64().is_some_and(|seat| {
                            g.kind == Kind::Demo || (g.kind == Kind::AgainstAi && seat == 1)
                        })
                    })
                    .count()
            })
            .unwrap_or(0);
    }

    // Every watcher on every instance saw every move.
    let see_by = Instant::now() + Duration::from_secs(10);
    let mut watchers_ok = 0;
    for (g, s) in games.iter().zip(&finals) {
        let history: Vec<String> = s["history"]
            .as_array()
            .map(|h| h.iter().map(entry_text).collect())
            .unwrap_or_default();
        for (w, seen) in g.watchers.iter().enumerate() {
            loop {
                let same = seen.lock().map(|h| *h == history).unwrap_or(false);
                if same {
                    watchers_ok += 1;
                    break;
                }
                if Instant::now() > see_by {
                    let got = seen.lock().map(|h| h.len()).unwrap_or(0);
                    failures.push(format!(
                        "game {}: the watcher on {} saw {got} of {} actions",
                        g.id,
                        args.watch[w],
                        history.len()
                    ));
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
    let _ = stop_tx.send(true);

    // The web instances computed no AI.
    for &server in &args.watch {
        let (_, m) = http(server, local(0), "GET", "/api/metrics", None).await?;
        if m["ai_done"].as_u64() != Some(0) {
            failures.push(format!("{server} computed AI: {m}"));
        }
    }

    let mut lat: Vec<u64> = games
        .iter()
        .flat_map(|g| g.latencies_us.iter().copied())
        .collect();
    lat.sort_unstable();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .map_or(0.0, |&us| us as f64 / 1000.0)
    };
    let finished = finals
        .iter()
        .filter(|s| s["state"]["turn"]["kind"] == "over")
        .count();
    println!(
        "{} games ({} people's, {} against the AI, {} AI-only) through {} to {} instances, {:.1} s: \
         {acked} acknowledged moves, {:.0} moves/s, latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
         {ai_plies} AI actions; {finished} games finished; {watchers_ok} watchers saw every move",
        games.len(),
        args.games,
        args.ai_games,
        args.demos,
        args.url,
        args.watch.len(),
        played_for,
        acked as f64 / played_for,
        pct(0.5),
        pct(0.99),
        pct(1.0),
    );
    for f in &failures {
        eprintln!("FAILED: {f}");
    }
    println!("AI_PLIES={ai_plies}");
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} checks failed", failures.len()).into())
    }
}
