//! What watchers cost: N WebSocket watchers of one game on one instance
//! (loopback). Reports the server's RSS before and with the watchers
//! (so the memory of one idle live channel), and the time a move takes to
//! reach every watcher (p50/p99 over all watchers and moves, and of the
//! last watcher of each move).
//!
//! ```text
//! cargo run --release -p tabula-server --example watchers -- [--watchers 10000] [--moves 20]
//! ```
//!
//! The server runs in this process; the watchers run in a child process
//! (this program again, with `--client`), so the RSS measured is the
//! server's alone.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula_server::protocol::{NewGame, SeatRequest};
use tokio::sync::{mpsc, Semaphore};
use tokio_tungstenite::tungstenite::Message;

type Error = Box<dyn std::error::Error + Send + Sync>;

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Runtime::new()?;
    if args.first().map(String::as_str) == Some("--client") {
        return runtime.block_on(client(&args[1..]));
    }
    let flag = |name: &str, default: usize| -> usize {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    runtime.block_on(server(flag("--watchers", 10_000), flag("--moves", 20)))
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

async fn server(watchers: usize, moves: usize) -> Result<(), Error> {
    let db = std::env::temp_dir().join(format!("tabula-watchers-{}.db", std::process::id()));
    let config = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    let (router, app) =
        tabula_server::build(tabula_games::registry(), &db.to_string_lossy(), config).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let service = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, service).await });
    let created = app
        .rounds
        .create(
            NewGame {
                seats: vec![SeatRequest::human(), SeatRequest::human()],
                seed: Some(1),
                ..NewGame::new("dragonchess")
            },
            &Default::default(),
        )
        .await
        .map_err(|e| e.to_string())?;
    let tokens: Vec<String> = created.tokens.into_iter().map(|t| t.token).collect();
    // Warm up: one watcher and one move's worth of allocations.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = rss_mb();
    let mut child = std::process::Command::new(std::env::current_exe()?)
        .args(["--client", &addr.to_string(), &created.id])
        .args([watchers.to_string(), moves.to_string()])
        .args(&tokens)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    let mut to_child = child.stdin.take().ok_or("no stdin")?;
    let from_child = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let (tx, mut lines) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in from_child.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    while let Some(line) = lines.recv().await {
        if line == "connected" {
            // Let the server settle, then weigh it.
            tokio::time::sleep(Duration::from_secs(2)).await;
            let with = rss_mb();
            println!(
                "{watchers} idle watchers: server RSS {before:.1} MB -> {with:.1} MB, {:.1} KB per watcher; {} games live",
                (with - before) * 1024.0 / watchers as f64,
                app.rounds.live_games()
            );
            writeln!(to_child, "go")?;
        } else {
            println!("{line}");
        }
    }
    println!("after the moves: server RSS {:.1} MB", rss_mb());
    let _ = child.wait();
    for ext in ["db", "db-wal", "db-shm"] {
        let _ = std::fs::remove_file(db.with_extension(ext));
    }
    Ok(())
}

/// The watchers and the player, in the child process.
async fn client(args: &[String]) -> Result<(), Error> {
    let [addr, id, watchers, moves, tokens @ ..] = args else {
        return Err("usage: --client ADDR ID WATCHERS MOVES TOKEN...".into());
    };
    let (watchers, moves): (usize, usize) = (watchers.parse()?, moves.parse()?);
    let url = format!("ws://{addr}/api/games/{id}/ws");
    let (ready_tx, mut ready) = mpsc::unbounded_channel::<()>();
    // (move number, when it arrived) from every watcher.
    let (seen_tx, mut seen) = mpsc::unbounded_channel::<(usize, Instant)>();
    let connecting = Arc::new(Semaphore::new(200));
    for _ in 0..watchers {
        let (url, ready_tx, seen_tx) = (url.clone(), ready_tx.clone(), seen_tx.clone());
        let connecting = Arc::clone(&connecting);
        tokio::spawn(async move {
            let permit = connecting.acquire_owned().await;
            let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&url).await else {
                eprintln!("a watcher could not connect");
                return;
            };
            let _ = ws.next().await; // the snapshot
            drop(permit);
            let _ = ready_tx.send(());
            let mut updates = 0;
            while let Some(Ok(msg)) = ws.next().await {
                if let Message::Text(t) = msg {
                    if t.contains(r#""type":"update""#) {
                        let _ = seen_tx.send((updates, Instant::now()));
                        updates += 1;
                    }
                }
            }
        });
    }
    drop(ready_tx);
    let start = Instant::now();
    for _ in 0..watchers {
        ready.recv().await.ok_or("watchers failed")?;
    }
    eprintln!(
        "{watchers} watchers connected in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    println!("connected");
    let go = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).map(|_| line)
    });
    go.await??;

    let (mut player, _) = tokio_tungstenite::connect_async(&url).await?;
    let mut state = match player.next().await {
        Some(Ok(Message::Text(t))) => serde_json::from_str::<Value>(&t)?,
        _ => return Err("no snapshot".into()),
    };
    let mut all = Vec::new();
    let mut last = Vec::new();
    for m in 0..moves {
        let st = &state["state"];
        let seat = st["turn"]["seat"].as_u64().ok_or("nobody to move")? as usize;
        let action = st["legal"][0].clone();
        let msg = json!({"type": "move", "token": tokens[seat], "action": action, "ply": st["ply"], "rid": m});
        let sent = Instant::now();
        player.send(Message::Text(msg.to_string().into())).await?;
        let mut arrived = 0;
        let mut slowest = Duration::ZERO;
        while arrived < watchers {
            let (n, at) = seen.recv().await.ok_or("watchers gone")?;
            if n == m {
                arrived += 1;
                let took = at.duration_since(sent);
                slowest = slowest.max(took);
                all.push(took);
            }
        }
        last.push(slowest);
        // The player's own update: the state for the next move.
        loop {
            match player.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t)?;
                    if v["type"] == "update" {
                        state = v;
                        break;
                    }
                    if v["type"] == "error" {
                        return Err(format!("move refused: {v}").into());
                    }
                }
                _ => return Err("the player's channel closed".into()),
            }
        }
    }
    all.sort_unstable();
    last.sort_unstable();
    let pct = |v: &[Duration], p: usize| {
        v.get((v.len() * p / 100).min(v.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{moves} moves to {watchers} watchers: per watcher p50 {:.1} ms, p99 {:.1} ms; last watcher of a move p50 {:.1} ms, p99 {:.1} ms",
        pct(&all, 50),
        pct(&all, 99),
        pct(&last, 50),
        pct(&last, 99)
    );
    Ok(())
}
