//! The abuse test (`docs/security.md`, numbers in `docs/benchmarks.md`):
//! one address floods the server with AI-only games, hints and game
//! creations while a real player plays a level-8 AI. Every excess request
//! gets 429, the player's AI moves never queue behind the flood (at most the
//! jobs already running), and every catalog read is answered. The times are
//! printed for `docs/benchmarks.md`, never asserted: they measure the
//! machine as much as the server. In-process (loopback only), about 20 s.

mod common;

use axum::http::StatusCode;
use common::{
    ai, api, human, remove_db, seated, start_with, temp_db, Browser, Call, Client, Refusal, Server,
    ViewExt,
};
use serde::de::DeserializeOwned;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula_ai::AiLevel;
use tabula_server::protocol::{Created, NewGame, ServerMessage};
use tabula_server::RoundConfig;

/// The player's moves against the AI.
const PLAYER_MOVES: usize = 4;

/// What a flood stream saw: answers by status, and how long it ran.
#[derive(Default, Debug)]
struct Tally {
    ok: usize,
    too_many: usize,
    other: Vec<String>,
    secs: f64,
}

impl Tally {
    fn count<T>(&mut self, answer: &Result<T, Refusal>) {
        match answer {
            Ok(_) => self.ok += 1,
            Err(r) if r.status == StatusCode::TOO_MANY_REQUESTS => self.too_many += 1,
            Err(r) => self.other.push(r.to_string()),
        }
    }
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

/// The game an answer names.
fn game(created: &Created) -> Option<&str> {
    Some(&created.id)
}

/// One flood stream from the attacker's address and session: `requests`
/// sent one every `pace`; the games it gets (`game` of an answer) are
/// watched (an AI-only game's AI thinks only while watched), the watchers
/// held to the end.
async fn flood<T: DeserializeOwned>(
    srv: Arc<Server>,
    cookie: Option<String>,
    requests: Vec<Call<T>>,
    pace: Duration,
    game: fn(&T) -> Option<&str>,
) -> Tally {
    let mut b = Browser::new(&srv, 66);
    b.cookie = cookie;
    let mut tally = Tally::default();
    let mut watchers = Vec::new();
    let start = Instant::now();
    for call in requests {
        let answer = b.attempt(call).await;
        tally.count(&answer);
        if let Some(id) = answer.as_ref().ok().and_then(game) {
            watchers.push(srv.watch(id).await);
        }
        tokio::time::sleep(pace).await;
    }
    tally.secs = start.elapsed().as_secs_f64();
    tally
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_from_one_address_does_not_slow_a_real_player() {
    let db = temp_db("abuse");
    let config = RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    let srv = Arc::new(start_with(tabula_games::registry(), &db, config).await);
    let rss_before = rss_mb();

    // The attacker: a guest session, and a game of its own to ask hints in.
    let mut attacker = Browser::guest_at(&srv, 66).await;
    let own = NewGame {
        hints: true,
        ..NewGame::new("stelpur")
    };
    let (own_id, own_tokens) = attacker.open(&own).await;
    let seat = srv.view(&own_id).await.to_move().unwrap_or(0);
    let level8 = ai(AiLevel::Level8);
    let ai_only = seated("dragonchess", vec![level8.clone(), level8.clone()]);
    let ai_only = (0..500).map(|_| api::create(&ai_only)).collect();
    let hints = (0..200)
        .map(|_| api::hint(&own_id, &own_tokens[seat]))
        .collect();
    let creations = (0..1000)
        .map(|_| api::create(&NewGame::new("stelpur")))
        .collect();

    // The player: a level-8 AI opponent in Dragonchess.
    let mut player = Browser::guest_at(&srv, 1).await;
    let (id, tokens) = player
        .open(&seated("dragonchess", vec![human(), level8]))
        .await;
    // What the player's page hears: the server says when its AI waits.
    let mut heard = srv.watch(&id).await;

    let started = Instant::now();
    let cookie = attacker.cookie.clone();
    // Each stream lasts about 5 s, while the player's game goes on.
    let [ai_only, creations] = [
        (ai_only, Duration::from_millis(10)),
        (creations, Duration::from_millis(5)),
    ]
    .map(|(reqs, pace)| tokio::spawn(flood(Arc::clone(&srv), cookie.clone(), reqs, pace, game)));
    let hints = tokio::spawn(flood(
        Arc::clone(&srv),
        cookie.clone(),
        hints,
        Duration::from_millis(25),
        |_| None,
    ));

    // Someone else reads the catalog meanwhile.
    let reader = {
        let srv = Arc::clone(&srv);
        tokio::spawn(async move {
            let mut times = Vec::new();
            while times.len() < 300 {
                let t = Instant::now();
                // `send` fails the test on any refusal.
                let catalog = srv.send(api::catalog()).await;
                assert!(!catalog.games.is_empty(), "an empty catalog");
                times.push(t.elapsed());
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            times
        })
    };

    let mut ai_times = Vec::new();
    for _ in 0..PLAYER_MOVES {
        let s = srv.settle(&id).await;
        let call = api::play(&id, &tokens[0], &s.state.legal[0], s.state.ply);
        let sent = Instant::now();
        player.send(call).await;
        srv.settle(&id).await;
        ai_times.push(sent.elapsed());
    }

    let mut tallies = Vec::new();
    for f in [ai_only, hints, creations] {
        tallies.push(f.await.expect("flood"));
    }
    let mut catalog = reader.await.expect("reader");
    let elapsed = started.elapsed();
    let rss_after = rss_mb();
    catalog.sort_unstable();
    let metrics = srv.send(api::metrics()).await;

    println!(
        "abuse: {:.1} s; AI moves {:?}; catalog p50 {:?} p99 {:?}; RSS {rss_before:.0} -> {rss_after:.0} MB; \
         AI-only {:?}; hints {:?}; creations {:?}; metrics {metrics:?}",
        elapsed.as_secs_f64(),
        ai_times,
        percentile(&catalog, 50),
        percentile(&catalog, 99),
        tallies[0],
        tallies[1],
        tallies[2],
    );

    for t in &tallies {
        assert!(t.other.is_empty(), "only 200 or 429: {:?}", t.other);
    }
    let secs = elapsed.as_secs_f64();
    // What the limits let through (burst + refill), counted for all the
    // attacker's creations together (one identity, one address).
    let created = tallies[0].ok + tallies[2].ok;
    let allowed = 20 + (secs / 6.0).ceil() as usize;
    assert!(
        created <= allowed,
        "{created} games created, {allowed} allowed"
    );
    assert!(tallies[0].too_many + tallies[2].too_many >= 1500 - allowed);
    let hinted = tallies[1].ok;
    let allowed = 10 + (secs / 3.0).ceil() as usize;
    assert!(hinted <= allowed, "{hinted} hints, {allowed} allowed");
    // The player's AI moves went first: when no worker was free, only the
    // jobs already running were ahead (in the flood's class, the flood's
    // queue would be ahead too).
    let workers = metrics.ai_workers;
    let mut waits = Vec::new();
    loop {
        match heard.try_recv() {
            Ok(p) => {
                if let Ok(ServerMessage::Queue { ahead }) = serde_json::from_str(&p.text) {
                    waits.push(ahead);
                }
            }
            // A skipped message might be a wait: the check would not see it.
            Err(tokio::sync::broadcast::error::TryRecvError::Lagged(n)) => {
                panic!("the player's page missed {n} messages")
            }
            Err(_) => break,
        }
    }
    println!("the player's AI moves waited behind {waits:?} jobs ({workers} workers)");
    assert!(
        waits.iter().all(|&ahead| ahead <= workers),
        "the player's AI queued behind {waits:?} jobs with {workers} workers"
    );
    assert!(
        rss_after - rss_before < 300.0,
        "RSS grew from {rss_before:.0} to {rss_after:.0} MB"
    );
    remove_db(&db);
}
