//! Load test on loopback: many concurrent games, each played by one client
//! over its WebSocket with random legal moves; reports moves/s and the
//! latency of a move (sent -> acknowledged, i.e. checked, stored in SQLite
//! with fsync and published).
//!
//! ```text
//! cargo run --release -p tabula-server --example load -- \
//!     [--games 1000] [--seconds 20] [--think-ms 1000] [--game stelpur] \
//!     [--db postgres://… --instances 2]
//! ```
//!
//! `--instances N` runs N server instances on the one database given by
//! `--db` (PostgreSQL: each instance loads the games it is asked about);
//! game `i` is created on instance `i mod N` and played on instance
//! `(i + 1) mod N`, which loads it from the database.
//!
//! `--split` gives every seat of a game its own player and WebSocket, seat
//! `s` of game `i` on instance `(i + s) mod N`: each player waits for the
//! others' moves to reach it, as in a real game between people on
//! different instances. It also reports the largest update a watcher got
//! for a single move.
//!
//! `--warmup S` leaves the moves sent in the first S seconds (while the
//! games are created and the connections opened, all at once) out of the
//! latencies; they are counted apart.
//!
//! `--think-ms` is the mean pause of a player between two moves (uniform in
//! 0..2x); 0 sends every move as soon as the last one is acknowledged (a
//! saturation test). The run is bounded: it stops after `--seconds`.

use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula_server::protocol::{NewGame, SeatRequest};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

struct Args {
    db: Option<String>,
    instances: usize,
    games: usize,
    seconds: u64,
    think_ms: u64,
    game: Option<String>,
    split: bool,
    warmup: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        db: None,
        instances: 1,
        games: 1000,
        seconds: 20,
        think_ms: 1000,
        game: None,
        split: false,
        warmup: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => a.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => a.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--think-ms" => {
                a.think_ms = value()?.parse().map_err(|e| format!("--think-ms: {e}"))?
            }
            "--game" => a.game = Some(value()?),
            "--split" => a.split = true,
            "--warmup" => a.warmup = value()?.parse().map_err(|e| format!("--warmup: {e}"))?,
            "--db" => a.db = Some(value()?),
            "--instances" => {
                a.instances = value()?.parse().map_err(|e| format!("--instances: {e}"))?
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(a)
}

#[derive(Default)]
struct Stats {
    latencies_us: Vec<u64>,
    /// Moves sent before the warm-up ended (not in the latencies).
    warmup_moves: u64,
    /// When the warm-up ends.
    measured_from: Option<Instant>,
    errors: u64,
    finished_games: u64,
    /// The largest update a player got for one move (bytes), and how many
    /// were over 4 KB.
    largest_update: usize,
    updates_over_4k: u64,
}

impl Stats {
    /// A move sent at `sent` was acknowledged now.
    fn acknowledged(&mut self, sent: Instant) {
        if self.measured_from.is_some_and(|t| sent < t) {
            self.warmup_moves += 1;
        } else {
            self.latencies_us.push(sent.elapsed().as_micros() as u64);
        }
    }

    fn update_seen(&mut self, len: usize) {
        self.largest_update = self.largest_update.max(len);
        self.updates_over_4k += u64::from(len > 4096);
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = args()?;
    let registry = tabula_games::registry();
    let names: Vec<String> = match &args.game {
        Some(g) => vec![registry.entry(g)?.name.to_string()],
        None => registry
            .entries()
            .iter()
            .map(|e| e.name.to_string())
            .collect(),
    };
    if names.is_empty() {
        return Err("no game is registered".into());
    }
    let temp = std::env::temp_dir().join(format!("tabula-load-{}.db", std::process::id()));
    let db = args
        .db
        .clone()
        .unwrap_or_else(|| temp.to_string_lossy().into_owned());
    let config = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    let mut instances = Vec::new();
    for _ in 0..args.instances.max(1) {
        let (router, app) = tabula_server::build(registry.clone(), &db, config.clone()).await?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = tokio::net::TcpListener::local_addr(&listener)?;
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let service = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
        tokio::spawn(async move { axum::serve(listener, service).await });
        instances.push((app, addr));
    }

    let started = Instant::now();
    let stats = Arc::new(Mutex::new(Stats {
        measured_from: Some(started + Duration::from_secs(args.warmup)),
        ..Stats::default()
    }));
    let deadline = started + Duration::from_secs(args.seconds);
    let mut clients = Vec::new();
    for i in 0..args.games {
        let n = instances.len();
        let app = instances[i % n].0.clone();
        let addr = instances[(i + 1) % n].1;
        let (stats, name) = (stats.clone(), names[i % names.len()].clone());
        let think = args.think_ms;
        if args.split {
            let addrs: Vec<_> = instances.iter().map(|x| x.1).collect();
            clients.push(tokio::spawn(async move {
                let mut rng = SmallRng::seed_from_u64(i as u64);
                while Instant::now() < deadline {
                    let game = Game {
                        app: &app,
                        addrs: &addrs,
                        index: i,
                        name: &name,
                    };
                    if let Err(e) = game.play_split(think, &mut rng, deadline, &stats).await {
                        eprintln!("game {i}: {e}");
                        stats.lock().await.errors += 1;
                        return;
                    }
                }
            }));
            continue;
        }
        clients.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(i as u64);
            while Instant::now() < deadline {
                if let Err(e) = play_one(
                    &app,
                    route(addr, i),
                    &name,
                    think,
                    &mut rng,
                    deadline,
                    &stats,
                )
                .await
                {
                    eprintln!("client {i}: {e}");
                    stats.lock().await.errors += 1;
                    return;
                }
            }
        }));
    }
    for c in clients {
        let _ = c.await;
    }
    let elapsed = started.elapsed().as_secs_f64() - args.warmup as f64;
    let mut s = stats.lock().await;
    s.latencies_us.sort_unstable();
    let n = s.latencies_us.len();
    let pct = |p: f64| {
        s.latencies_us
            .get(((n as f64 * p) as usize).min(n.saturating_sub(1)))
            .map_or(0.0, |&us| us as f64 / 1000.0)
    };
    println!(
        "{} instance(s) on {}{}; games {} ({}), think {} ms, {:.1} s: {} moves, {:.0} moves/s, latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} games finished, {} errors; largest update {} bytes, {} over 4 KB; {} moves in the first {} s not counted",
        args.instances.max(1),
        if args.db.is_some() { "the given database" } else { "a temporary SQLite file" },
        if args.split { ", seats split" } else { "" },
        args.games,
        names.join(","),
        args.think_ms,
        elapsed,
        n,
        n as f64 / elapsed,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0),
        s.finished_games,
        s.errors,
        s.largest_update,
        s.updates_over_4k,
        s.warmup_moves,
        args.warmup
    );
    let _ = std::fs::remove_file(&temp);
    let _ = std::fs::remove_file(temp.with_extension("db-wal"));
    let _ = std::fs::remove_file(temp.with_extension("db-shm"));
    Ok(())
}

/// The server's address, and the loopback address client `i` connects
/// from: each its own, as players come from theirs, so the per-address
/// rate limits count each apart.
fn route(server: std::net::SocketAddr, i: usize) -> (std::net::SocketAddr, std::net::SocketAddr) {
    let local = [127, 1 + (i / 250 % 250) as u8, 0, 1 + (i % 250) as u8];
    (server, std::net::SocketAddr::from((local, 0)))
}

/// Play one game (every seat) until it ends or time is up.
async fn play_one(
    app: &Arc<tabula_server::App>,
    (addr, local): (std::net::SocketAddr, std::net::SocketAddr),
    name: &str,
    think_ms: u64,
    rng: &mut SmallRng,
    deadline: Instant,
    stats: &Mutex<Stats>,
) -> Result<(), Error> {
    let game = app.rounds.registry.create(name, None)?;
    let seats = (0..game.num_players())
        .map(|_| SeatRequest::human())
        .collect();
    let created = app
        .rounds
        .create(
            NewGame {
                seats,
                seed: Some(rng.gen()),
                ..NewGame::new(name)
            },
            &Default::default(),
        )
        .await
        .map_err(|e| e.to_string())?;
    let tokens: Vec<String> = created.tokens.into_iter().map(|t| t.token).collect();
    let url = format!("ws://{addr}/api/games/{}/ws", created.id);
    let mut ws = connect((addr, local), &url).await?;
    let mut state = Value::Null;
    let mut rid = 0u64;
    let mut want = 0u64;
    loop {
        // The latest state: the snapshot, or the update after our last move.
        while state.is_null() || state["state"]["ply"].as_u64().unwrap_or(0) < want {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t)?;
                    if v["type"] == "snapshot" || v["type"] == "update" {
                        state = v;
                    }
                }
                Some(Ok(_)) => {}
                _ => return Err("connection closed".into()),
            }
        }
        let st = &state["state"];
        if st["turn"]["kind"] != "player" {
            stats.lock().await.finished_games += 1;
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Ok(());
        }
        if think_ms > 0 {
            tokio::time::sleep(Duration::from_millis(rng.gen_range(0..2 * think_ms))).await;
        }
        let seat = st["turn"]["seat"].as_u64().unwrap_or(0) as usize;
        let legal = st["legal"].as_array().ok_or("no legal list")?;
        let action = legal[rng.gen_range(0..legal.len())].clone();
        rid += 1;
        let msg = json!({"type": "move", "token": tokens[seat], "action": action, "ply": st["ply"], "rid": rid});
        let sent = Instant::now();
        ws.send(Message::Text(msg.to_string().into())).await?;
        // Wait for the acknowledgement; updates seen meanwhile are kept.
        let ply = loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t)?;
                    match v["type"].as_str() {
                        Some("ack") if v["rid"] == rid => break v["ply"].as_u64().unwrap_or(0),
                        Some("error") => return Err(format!("move refused: {}", v["error"]).into()),
                        Some("update") => state = v,
                        _ => {}
                    }
                }
                Some(Ok(_)) => {}
                _ => return Err("connection closed".into()),
            }
        };
        stats.lock().await.acknowledged(sent);
        want = ply;
    }
}

type Error = Box<dyn std::error::Error + Send + Sync>;
type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// One game of `--split`: created on one instance, each seat played from
/// its own.
struct Game<'a> {
    app: &'a Arc<tabula_server::App>,
    addrs: &'a [std::net::SocketAddr],
    index: usize,
    name: &'a str,
}

impl Game<'_> {
    /// Create the game, then play every seat from its own connection until
    /// the game ends or time is up.
    async fn play_split(
        &self,
        think_ms: u64,
        rng: &mut SmallRng,
        deadline: Instant,
        stats: &Mutex<Stats>,
    ) -> Result<(), Error> {
        let game = self.app.rounds.registry.create(self.name, None)?;
        let seats = (0..game.num_players())
            .map(|_| SeatRequest::human())
            .collect();
        let created = self
            .app
            .rounds
            .create(
                NewGame {
                    seats,
                    seed: Some(rng.gen()),
                    ..NewGame::new(self.name)
                },
                &Default::default(),
            )
            .await
            .map_err(|e| e.to_string())?;
        let players = created.tokens.into_iter().enumerate().map(|(seat, t)| {
            let addr = self.addrs[(self.index + seat) % self.addrs.len()];
            let route = route(addr, self.index * 3 + seat);
            let url = format!("ws://{addr}/api/games/{}/ws", created.id);
            let seed = rng.gen();
            async move {
                let ws = connect(route, &url).await?;
                let player = Player {
                    seat: seat as u64,
                    token: t.token,
                    rng: SmallRng::seed_from_u64(seed),
                };
                player.play(ws, think_ms, deadline, stats).await
            }
        });
        let done = futures_util::future::try_join_all(players).await?;
        if done.iter().any(|&over| over) {
            stats.lock().await.finished_games += 1;
        }
        Ok(())
    }
}

/// A WebSocket to `url` from the loopback address of `route`.
async fn connect(
    (addr, local): (std::net::SocketAddr, std::net::SocketAddr),
    url: &str,
) -> Result<Socket, Error> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(local)?;
    let tcp = socket.connect(addr).await?;
    tcp.set_nodelay(true)?;
    Ok(tokio_tungstenite::client_async(url, tcp).await?.0)
}

/// The player of one seat in `--split`.
struct Player {
    seat: u64,
    token: String,
    rng: SmallRng,
}

impl Player {
    /// Play this seat's moves as the game reaches them; whether the game
    /// ended (rather than time running out).
    async fn play(
        mut self,
        mut ws: Socket,
        think_ms: u64,
        deadline: Instant,
        stats: &Mutex<Stats>,
    ) -> Result<bool, Error> {
        let mut state = Value::Null;
        let mut rid = 0u64;
        loop {
            let st = &state["state"];
            let over = !state.is_null() && st["turn"]["kind"] != "player";
            if over || Instant::now() >= deadline {
                return Ok(over);
            }
            if state.is_null() || st["turn"]["seat"] != self.seat {
                // Another seat's turn: wait for its move to reach us.
                let Some(v) = next_message(&mut ws, deadline, stats).await? else {
                    return Ok(false);
                };
                if v["type"] == "snapshot" || v["type"] == "update" {
                    state = v;
                }
                continue;
            }
            if think_ms > 0 {
                let pause = self.rng.gen_range(0..2 * think_ms);
                tokio::time::sleep(Duration::from_millis(pause)).await;
            }
            let legal = st["legal"].as_array().ok_or("no legal list")?;
            let action = legal[self.rng.gen_range(0..legal.len())].clone();
            rid += 1;
            let msg = json!({"type": "move", "token": self.token, "action": action, "ply": st["ply"], "rid": rid});
            let sent = Instant::now();
            ws.send(Message::Text(msg.to_string().into())).await?;
            let want = loop {
                let Some(v) =
                    next_message(&mut ws, deadline + Duration::from_secs(5), stats).await?
                else {
                    return Err("no acknowledgement".into());
                };
                match v["type"].as_str() {
                    Some("ack") if v["rid"] == rid => break v["ply"].as_u64().unwrap_or(0),
                    Some("error") => return Err(format!("move refused: {}", v["error"]).into()),
                    Some("update") => state = v,
                    _ => {}
                }
            };
            stats.lock().await.acknowledged(sent);
            // Our own move's update, before we look at the turn again.
            while state["state"]["ply"].as_u64().unwrap_or(0) < want {
                let Some(v) =
                    next_message(&mut ws, deadline + Duration::from_secs(5), stats).await?
                else {
                    return Err("our move never showed".into());
                };
                if v["type"] == "update" {
                    state = v;
                }
            }
        }
    }
}

/// The next text message (its size noted when it is an update), or `None`
/// once `until` has passed.
async fn next_message(
    ws: &mut Socket,
    until: Instant,
    stats: &Mutex<Stats>,
) -> Result<Option<Value>, Error> {
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let Ok(message) = tokio::time::timeout(left, ws.next()).await else {
            return Ok(None);
        };
        match message {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t)?;
                if v["type"] == "update" {
                    if t.len() > 4096 && std::env::var_os("LOAD_SHOW_LARGE").is_some() {
                        eprintln!(
                            "large update: {} bytes, {} from ply {} to {}, {} legal",
                            t.len(),
                            v["game"],
                            v["from"],
                            v["state"]["ply"],
                            v["state"]["legal"].as_array().map_or(0, Vec::len)
                        );
                    }
                    stats.lock().await.update_seen(t.len());
                }
                return Ok(Some(v));
            }
            Some(Ok(_)) => {}
            _ => return Err("connection closed".into()),
        }
    }
}
