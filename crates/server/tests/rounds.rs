//! The life of games behind the API: one finish path for every ending,
//! one owner per game under concurrent commands, AI turns, games leaving
//! memory when idle and coming back, and upgrading an older database.

mod common;

use axum::http::StatusCode;
use common::{remove_db, start, start_at, start_with, temp_db, test_registry, Browser, Server};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tabula_server::round::{EndReason, GameEnded};
use tokio::sync::broadcast;

/// The next ending announced, within a few seconds.
async fn next_end(rx: &mut broadcast::Receiver<Arc<GameEnded>>) -> Arc<GameEnded> {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("an ending within 10 s")
        .expect("the finisher is open")
}

/// No further ending is announced (within a short wait).
async fn no_more_ends(rx: &mut broadcast::Receiver<Arc<GameEnded>>) {
    let more = tokio::time::timeout(Duration::from_millis(200), rx.recv()).await;
    assert!(more.is_err(), "an extra ending: {more:?}");
}

/// Play `walk` for the human to move (after the AI) until the game ends.
async fn walk_to_the_end(srv: &Server, id: &str, tokens: &[String]) -> Value {
    for _ in 0..100 {
        let s = srv.settled(id).await;
        let Some(seat) = s["state"]["turn"]["seat"].as_u64() else {
            return s;
        };
        srv.post(
            &format!("/api/games/{id}/move"),
            json!({"token": tokens[seat as usize], "action": "walk"}),
        )
        .await;
    }
    panic!("the race never ended");
}

#[tokio::test]
async fn every_ending_goes_through_the_finisher_once() {
    let db = temp_db("endings");
    let srv = start(test_registry(), &db).await;
    let mut ends = srv.app.rounds.finisher.subscribe();

    // On the board.
    let (id, t) = srv.create(json!({"spec": "race", "seed": 3})).await;
    let s = walk_to_the_end(&srv, &id, &t).await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.id.as_str(), e.ending.reason),
        (id.as_str(), EndReason::Board)
    );
    assert_eq!(s["state"]["result"]["reason"], "board");
    assert_eq!(e.ending.outcome.to_text(), s["state"]["result"]["text"]);

    // Resignation: the other side wins.
    let (id, t) = srv.create(json!({"spec": "race"})).await;
    srv.post(&format!("/api/games/{id}/resign"), json!({"token": t[0]}))
        .await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.ending.outcome.to_text()),
        (EndReason::Resign, "win 2".into())
    );

    // Agreement: every seat draws.
    let (id, t) = srv.create(json!({"spec": "race"})).await;
    for token in &t {
        srv.post(&format!("/api/games/{id}/draw"), json!({"token": token}))
            .await;
    }
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.ending.outcome.to_text()),
        (EndReason::Agreement, "draw 1,2".into())
    );

    // Leaving a two-player game ends it for the other side.
    let (id, t) = srv.create(json!({"spec": "race"})).await;
    srv.post(&format!("/api/games/{id}/leave"), json!({"token": t[1]}))
        .await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.ending.outcome.to_text()),
        (EndReason::Left, "win 1".into())
    );
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["state"]["result"]["reason"], "left");
    assert_eq!(s["state"]["turn"]["kind"], "over");
    // Exported and imported, its ending is only the record's claim (no
    // record proves a player left): the game goes on, and nothing is
    // announced.
    let (_, record) = srv
        .call("GET", &format!("/api/games/{id}/record"), Value::Null)
        .await;
    assert!(
        record.as_str().unwrap_or("").contains("end: left"),
        "{record}"
    );
    let imported = srv
        .post("/api/games/import", json!({"record": record}))
        .await;
    let s = srv
        .get(&format!(
            "/api/games/{}",
            imported["id"].as_str().expect("id")
        ))
        .await;
    assert_eq!(s["state"]["result"], Value::Null, "{s}");
    assert_eq!(s["state"]["claim"]["reason"], "left");
    assert_eq!(s["state"]["imported"], true);

    // In a game of three the leaver's seat plays on; the end says who left.
    let (id, t) = srv
        .create(json!({"spec": "race(players=3)", "seed": 5}))
        .await;
    srv.post(&format!("/api/games/{id}/leave"), json!({"token": t[0]}))
        .await;
    no_more_ends(&mut ends).await;
    walk_to_the_end(&srv, &id, &t).await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.left.clone()),
        (EndReason::Board, vec![0])
    );

    // Nothing more: a finished game refuses every ending.
    for verb in ["resign", "draw", "leave"] {
        let (st, _) = srv
            .call(
                "POST",
                &format!("/api/games/{id}/{verb}"),
                json!({"token": t[1]}),
            )
            .await;
        assert_eq!(st, StatusCode::CONFLICT, "{verb}");
    }
    no_more_ends(&mut ends).await;

    // Endings survive a restart, and are not announced again.
    drop(srv);
    let srv = start(test_registry(), &db).await;
    let mut ends = srv.app.rounds.finisher.subscribe();
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["state"]["result"]["reason"], "board");
    no_more_ends(&mut ends).await;
    let list = srv.get("/api/games").await;
    assert!(
        list.as_array()
            .expect("list")
            .iter()
            .all(|g| g["over"] == true || g["imported"] == true),
        "{list}"
    );
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_commands_on_one_game_lose_and_double_nothing() {
    let db = temp_db("concurrent");
    let srv = Arc::new(start(test_registry(), &db).await);
    let (id, t) = srv
        .create(json!({"spec": "race(players=3)", "seed": 11}))
        .await;
    let t = Arc::new(t);
    // Many clients at once, each playing for every seat with the ply it
    // saw: per ply exactly one wins, the others are told the board moved
    // or that it is not their turn.
    let mut tasks = Vec::new();
    for client in 0..24 {
        let (srv, id, t) = (Arc::clone(&srv), id.clone(), Arc::clone(&t));
        tasks.push(tokio::spawn(async move {
            let mut accepted = Vec::new();
            for _ in 0..40 {
                let s = srv.get(&format!("/api/games/{id}")).await;
                let Some(seat) = s["state"]["turn"]["seat"].as_u64() else {
                    break;
                };
                let ply = s["state"]["ply"].as_u64().unwrap_or(0);
                let action = if client % 2 == 0 { "walk" } else { "run" };
                let (st, v) = srv
                    .call(
                        "POST",
                        &format!("/api/games/{id}/move"),
                        json!({"token": t[seat as usize], "action": action, "ply": ply}),
                    )
                    .await;
                match st {
                    StatusCode::OK => accepted.push(ply),
                    StatusCode::CONFLICT | StatusCode::FORBIDDEN => {}
                    other => panic!("{other}: {v}"),
                }
            }
            accepted
        }));
    }
    let mut plies = Vec::new();
    for task in tasks {
        plies.extend(task.await.expect("client"));
    }
    let s = srv.get(&format!("/api/games/{id}")).await;
    let history = s["history"].as_array().expect("history").clone();
    let player_moves: Vec<u64> = history
        .iter()
        .enumerate()
        .filter(|(_, e)| !e["actor"].is_null())
        .map(|(i, _)| i as u64)
        .collect();
    plies.sort_unstable();
    assert_eq!(
        plies, player_moves,
        "one accepted move per ply, each in the history"
    );
    // The store holds exactly what was acknowledged.
    let app = Arc::clone(&srv.app);
    drop(srv);
    drop(app);
    let srv = start(test_registry(), &db).await;
    assert_eq!(
        srv.get(&format!("/api/games/{id}")).await["history"],
        json!(history)
    );
    remove_db(&db);
}

#[tokio::test]
async fn ai_seats_play_to_the_end_and_finish_once() {
    let db = temp_db("ai-end");
    let srv = start(test_registry(), &db).await;
    let mut ends = srv.app.rounds.finisher.subscribe();
    let ai = json!({"type": "ai", "level": "random"});
    // An AI-only game needs its creator's session, and plays while watched.
    let mut creator = Browser::new(&srv, 1);
    creator.guest().await;
    let created = creator
        .expect(
            StatusCode::OK,
            "POST",
            "/api/games",
            json!({"spec": "race(players=3)", "seats": [ai, ai, ai]}),
        )
        .await;
    assert_eq!(created["tokens"], json!([]), "AI seats hold no token");
    let id = created["id"].as_str().expect("id").to_string();
    let _watch = srv
        .app
        .rounds
        .watch(&id, &Default::default())
        .await
        .expect("watch");
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.id.as_str(), e.ending.reason),
        (id.as_str(), EndReason::Board)
    );
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["state"]["turn"]["kind"], "over");
    assert_eq!(s["state"]["thinking"], false);
    no_more_ends(&mut ends).await;
    remove_db(&db);
}

#[tokio::test]
async fn idle_games_leave_memory_and_come_back_when_opened() {
    let db = temp_db("idle");
    let config = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        idle: Duration::from_millis(50),
        ..Default::default()
    };
    let srv = start_with(test_registry(), &db, config).await;
    let (id, t) = srv.create(json!({"spec": "race", "seed": 1})).await;
    let before = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(srv.app.rounds.live_games(), 1);
    let mut waited = 0;
    while srv.app.rounds.live_games() > 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        waited += 1;
        assert!(waited < 250, "the idle game never left memory");
    }
    // Listing reads the store, loading nothing.
    let list = srv.get("/api/games").await;
    assert_eq!(list[0]["id"], json!(id));
    assert_eq!(srv.app.rounds.live_games(), 0);
    // Opening it brings it back exactly; playing works at once.
    assert_eq!(srv.get(&format!("/api/games/{id}")).await, before);
    srv.post(
        &format!("/api/games/{id}/move"),
        json!({"token": t[0], "action": "walk", "ply": 1}),
    )
    .await;
    assert_eq!(srv.app.rounds.live_games(), 1);
    remove_db(&db);
}

#[tokio::test]
async fn a_database_of_the_previous_version_is_upgraded() {
    let db = temp_db("upgrade");
    {
        // The schema and rows as the previous version wrote them.
        let conn = rusqlite::Connection::open(&db).expect("open");
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created INTEGER NOT NULL, spec TEXT NOT NULL,
                 start TEXT, seed INTEGER NOT NULL, meta TEXT NOT NULL);
             CREATE TABLE actions (game TEXT NOT NULL, ply INTEGER NOT NULL, actor INTEGER,
                 text TEXT NOT NULL, PRIMARY KEY (game, ply)) WITHOUT ROWID;
             INSERT INTO games VALUES ('oldgame001', 1, 'race', NULL, 9,
                 '{\"seats\":[{\"kind\":\"human\",\"token\":\"aa\",\"name\":\"Ann\",\"joined\":true},
                              {\"kind\":\"ai\",\"level\":\"random\",\"token\":\"bb\",\"joined\":true}]}');
             INSERT INTO actions VALUES ('oldgame001', 0, NULL, 'roll2');
             INSERT INTO actions VALUES ('oldgame001', 1, 0, 'run');
             INSERT INTO actions VALUES ('oldgame001', 2, NULL, 'roll1');
             INSERT INTO games VALUES ('oldgame002', 2, 'race', NULL, 9,
                 '{\"seats\":[{\"kind\":\"human\",\"token\":\"cc\",\"joined\":true},
                              {\"kind\":\"human\",\"token\":\"dd\",\"joined\":true}],
                   \"end\":{\"result\":\"win 1\",\"reason\":\"resign\"}}');",
        )
        .expect("old schema");
    }
    let config = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    // A SQLite file, whatever store the other tests use.
    let srv = start_at(test_registry(), &db.to_string_lossy(), config).await;
    let list = srv.get("/api/games").await;
    assert_eq!(list[0]["id"], "oldgame002");
    assert_eq!(list[0]["result"], "win 1");
    assert_eq!(list[1]["players"][0]["name"], "Ann");
    assert_eq!(list[1]["ply"], 3);
    let s = srv.get("/api/games/oldgame002").await;
    assert_eq!(s["state"]["result"]["reason"], "resign");
    // The old game's AI was to move: resumed at start-up, it has played.
    let s = srv.settled("oldgame001").await;
    assert_eq!(s["history"][3]["actor"], 1, "{s}");
    srv.post(
        "/api/games/oldgame001/move",
        json!({"token": "aa", "action": "walk"}),
    )
    .await;
    remove_db(&db);
}

/// Two instances on one PostgreSQL: a game made on one is played on the
/// other, both sets of watchers see every move, and of two moves for the
/// same ply, one on each instance, exactly one is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_share_games_through_postgres() {
    let Some(db) = common::instances_database("two_instances").await else {
        return;
    };
    let config = || tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    let a = start_at(test_registry(), &db, config()).await;
    let b = start_at(test_registry(), &db, config()).await;
    let (id, t) = a.create(json!({"spec": "race", "seed": 4})).await;
    let (_, mut on_a) = a
        .app
        .rounds
        .watch(&id, &Default::default())
        .await
        .expect("watch on a");
    let (_, mut on_b) = b
        .app
        .rounds
        .watch(&id, &Default::default())
        .await
        .expect("watch on b");

    /// The next update a watcher gets that reaches `ply`.
    async fn sees(
        rx: &mut broadcast::Receiver<tabula_server::round::actor::Published>,
        ply: u64,
    ) -> Value {
        loop {
            let text = tokio::time::timeout(Duration::from_secs(5), rx.recv())
                .await
                .expect("an update within 5 s")
                .expect("open channel");
            let v: Value = serde_json::from_str(&text.text).expect("json");
            if v["state"]["ply"].as_u64() >= Some(ply) {
                return v;
            }
        }
    }

    // Made on a, played on b, seen on both.
    b.post(
        &format!("/api/games/{id}/move"),
        json!({"token": t[0], "action": "walk", "ply": 1}),
    )
    .await;
    assert_eq!(sees(&mut on_b, 3).await["state"]["turn"]["seat"], 1);
    let seen = sees(&mut on_a, 3).await;
    assert_eq!(seen["state"]["turn"]["seat"], 1, "{seen}");
    // And the other way round.
    a.post(
        &format!("/api/games/{id}/move"),
        json!({"token": t[1], "action": "run", "ply": 3}),
    )
    .await;
    sees(&mut on_b, 5).await;
    assert_eq!(
        b.get(&format!("/api/games/{id}")).await,
        a.get(&format!("/api/games/{id}")).await
    );

    // The same ply from both instances at once: one wins, one is refused.
    let body = json!({"token": t[0], "action": "walk", "ply": 5});
    let path = format!("/api/games/{id}/move");
    let (ra, rb) = tokio::join!(
        a.call("POST", &path, body.clone()),
        b.call("POST", &path, body)
    );
    let ok = [ra.0, rb.0]
        .iter()
        .filter(|s| **s == StatusCode::OK)
        .count();
    assert_eq!(ok, 1, "{ra:?} {rb:?}");
    let s = a.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["state"]["ply"], 7, "one move and its roll");
    sees(&mut on_b, 7).await;

    // How soon a move made on b reaches a's watchers (printed, not
    // asserted: numbers go to docs/benchmarks.md).
    let mut delays = Vec::new();
    let (mut id, mut t) = (String::new(), Vec::new());
    let mut watcher = None;
    while delays.len() < 200 {
        let s = match watcher {
            Some(_) => b.get(&format!("/api/games/{id}")).await,
            None => Value::Null,
        };
        let Some(seat) = s["state"]["turn"]["seat"].as_u64() else {
            // A new game once the last one is over.
            (id, t) = a.create(json!({"spec": "race(players=3)"})).await;
            watcher = Some(
                a.app
                    .rounds
                    .watch(&id, &Default::default())
                    .await
                    .expect("watch on a")
                    .1,
            );
            continue;
        };
        let ply = s["state"]["ply"].as_u64().expect("ply");
        let moved = b
            .post(
                &format!("/api/games/{id}/move"),
                json!({"token": t[seat as usize], "action": "walk", "ply": ply}),
            )
            .await;
        let acked = std::time::Instant::now();
        if let Some(rx) = watcher.as_mut() {
            sees(rx, moved["ply"].as_u64().expect("ply")).await;
        }
        delays.push(acked.elapsed().as_micros());
    }
    delays.sort_unstable();
    let pct = |p: f64| delays[((delays.len() as f64 * p) as usize).min(delays.len() - 1)];
    eprintln!(
        "two instances: a move acknowledged on one reaches the other's watchers in p50 {} us, p99 {} us ({} moves)",
        pct(0.5),
        pct(0.99),
        delays.len()
    );
}

/// A move made on one instance reaches the other's watchers as the very
/// update its own watchers get: the new actions and the state, not the
/// whole game (the other instance reads only what the write added). A
/// take-back made on one instance is taken in by the other the same way.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn moves_cross_instances_as_deltas() {
    type Watch = broadcast::Receiver<tabula_server::round::actor::Published>;
    let Some(db) = common::instances_database("deltas").await else {
        return;
    };
    let config = || tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    let a = start_at(test_registry(), &db, config()).await;
    let b = start_at(test_registry(), &db, config()).await;
    /// The next update that reaches `ply`, as sent.
    async fn update(rx: &mut Watch, ply: u64) -> String {
        loop {
            let p = tokio::time::timeout(Duration::from_secs(5), rx.recv())
                .await
                .expect("an update within 5 s")
                .expect("open channel");
            let v: Value = serde_json::from_str(&p.text).expect("json");
            if v["type"] == "update" && v["state"]["ply"].as_u64() >= Some(ply) {
                return p.text.to_string();
            }
        }
    }
    async fn watch(s: &Server, id: &str) -> Watch {
        s.app
            .rounds
            .watch(id, &Default::default())
            .await
            .expect("watch")
            .1
    }

    let (id, t) = a.create(json!({"spec": "race", "seed": 9})).await;
    let (mut on_a, mut on_b) = (watch(&a, &id).await, watch(&b, &id).await);
    let path = format!("/api/games/{id}");
    let mut moves = 0;
    loop {
        let s = a.get(&path).await;
        let Some(seat) = s["state"]["turn"]["seat"].as_u64() else {
            break;
        };
        let ply = common::ply(&s);
        // Each player on their own instance.
        let (mover, action) = if seat == 0 { (&a, "walk") } else { (&b, "run") };
        let moved = mover
            .post(
                &format!("{path}/move"),
                json!({"token": t[seat as usize], "action": action, "ply": ply}),
            )
            .await;
        let after = moved["ply"].as_u64().expect("ply");
        let (here, there) = (
            update(&mut on_a, after).await,
            update(&mut on_b, after).await,
        );
        assert_eq!(here, there, "both instances' watchers get the same update");
        let v: Value = serde_json::from_str(&there).expect("json");
        assert_eq!(v["from"], ply, "only what the move added: {v}");
        moves += 1;
    }
    assert!(moves >= 8, "a whole game: {moves} moves");
    assert_eq!(a.get(&path).await, b.get(&path).await);

    // A take-back on b, of a game held on a: a drops the taken-back plies.
    let ai = json!({"type": "ai", "level": "random"});
    let (id, t) = a
        .create(json!({"spec": "race", "seed": 3, "seats": [{"type": "human"}, ai]}))
        .await;
    let path = format!("/api/games/{id}");
    let (mut on_a, mut on_b) = (watch(&a, &id).await, watch(&b, &id).await);
    for _ in 0..2 {
        let s = a.settled(&id).await;
        a.post(
            &format!("{path}/move"),
            json!({"token": t[0], "action": "walk", "ply": common::ply(&s)}),
        )
        .await;
    }
    let s = a.settled(&id).await;
    update(&mut on_b, common::ply(&s)).await;
    let back = b
        .post(&format!("{path}/undo"), json!({"token": t[0]}))
        .await;
    let keep = back["ply"].as_u64().expect("ply");
    assert!(keep < common::ply(&s), "{back}");
    loop {
        let text = tokio::time::timeout(Duration::from_secs(5), on_a.recv())
            .await
            .expect("the take-back within 5 s")
            .expect("open channel");
        // Not a reload of the whole game (which would come `from` 0).
        let v: Value = serde_json::from_str(&text.text).expect("json");
        if v["type"] == "update" && v["state"]["ply"] == keep && v["from"] == keep {
            break;
        }
    }
    assert_eq!(a.get(&path).await, b.get(&path).await);
    drop(on_b);
}

/// With two instances holding the same AI game, each AI move is computed
/// by one of them only; and an AI turn claimed by an instance that died is
/// taken over once its claim runs out.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_instance_drives_each_ai_turn_and_another_takes_over() {
    use tabula_server::store::{Status, Store, StoredAction, StoredGame};
    let Some(db) = common::instances_database("AI claims").await else {
        return;
    };
    let config = || tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ai_sweep: Duration::from_millis(100),
        ..Default::default()
    };
    let a = start_at(test_registry(), &db, config()).await;
    let b = start_at(test_registry(), &db, config()).await;
    let (mut ends_a, mut ends_b) = (
        a.app.rounds.finisher.subscribe(),
        b.app.rounds.finisher.subscribe(),
    );
    let ai = json!({"type": "ai", "level": "random"});
    let mut creator = Browser::new(&a, 1);
    creator.guest().await;
    let created = creator
        .expect(
            StatusCode::OK,
            "POST",
            "/api/games",
            json!({"spec": "race(players=3)", "seats": [ai, ai, ai]}),
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    // b holds the game too, and would think for it if it could.
    let (_, _watch) = b
        .app
        .rounds
        .watch(&id, &Default::default())
        .await
        .expect("watch on b");
    // The instance that plays the last move announces the end.
    let e = tokio::select! {
        e = next_end(&mut ends_a) => e,
        e = next_end(&mut ends_b) => e,
    };
    assert_eq!(e.id, id);
    // The instance that did not play the last move shows it a moment later.
    let path = format!("/api/games/{id}");
    let mut s = a.get(&path).await;
    for _ in 0..200 {
        if s["state"]["turn"]["kind"] == "over" && b.get(&path).await == s {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        s = a.get(&path).await;
    }
    assert_eq!(b.get(&path).await, s, "both instances show the end");
    let ai_moves = s["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter(|e| !e["actor"].is_null())
        .count() as u64;
    let jobs = a.app.rounds.ai_jobs() + b.app.rounds.ai_jobs();
    assert_eq!(
        jobs, ai_moves,
        "each AI move computed once across both instances"
    );

    // A game whose AI turn an instance claimed before dying.
    let store = Store::open(&db).await.expect("store");
    let meta = r#"{"seats":[{"kind":"ai","level":"random","token":"x","joined":true},
                            {"kind":"human","token":"h","joined":true}]}"#;
    let game = StoredGame {
        id: "orphan0001".into(),
        created: 1,
        spec: "race".into(),
        start: None,
        seed: 1,
        meta: meta.into(),
        actions: vec![StoredAction {
            actor: None,
            text: "roll2".into(),
        }],
        version: 0,
    };
    let status = Status {
        result: None,
        ai_turn: true,
        ..Default::default()
    };
    store.insert(game, status).await.expect("insert");
    let now = tabula_server::common::Clock::default().now();
    assert_eq!(
        store
            .claim_ai("orphan0001", 0, "ghost", now, now + 1500)
            .await,
        Ok(true)
    );
    // While the claim runs nobody else moves; then the sweep takes over.
    b.app.rounds.resume_ai().await.expect("AI sweep");
    let s = b.get("/api/games/orphan0001").await;
    assert_eq!(s["state"]["ply"], 1, "the dead instance's claim still runs");
    b.app.advance_clock(1_501);
    b.app.rounds.resume_ai().await.expect("AI sweep");
    let s = b.settled("orphan0001").await;
    assert_eq!(
        s["history"][1]["actor"], 0,
        "the AI moved after the claim ran out"
    );
}

/// An instance without AI threads (`--ai-workers 0`) leaves its AI turns
/// to one that computes them (a `tabula worker`): the note of the turn
/// sets the worker off (both sweeps are an hour away), an AI-only game
/// watched on the web instance is played to its end too, hints and an
/// analysis asked of the web instance are computed by the worker, and the
/// web instance thinks for nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_instance_without_ai_leaves_its_turns_to_a_worker() {
    let Some(db) = common::instances_database("AI workers").await else {
        return;
    };
    let config = |threads| {
        let mut c = tabula_server::RoundConfig {
            ai_pause: Duration::ZERO,
            ai_sweep: Duration::from_secs(3600),
            ..Default::default()
        };
        c.guard.ai_workers = threads;
        c
    };
    let web = start_at(test_registry(), &db, config(0)).await;
    let worker = start_at(test_registry(), &db, config(1)).await;
    let ai = json!({"type": "ai", "level": "random"});
    let mut creator = Browser::new(&web, 1);
    creator.guest().await;

    // A person against the AI, which moves first.
    let created = creator
        .expect(
            StatusCode::OK,
            "POST",
            "/api/games",
            json!({"spec": "race", "seats": [ai, {"type": "human"}]}),
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let token = created["tokens"][0]["token"].as_str().expect("token");
    for _ in 0..3 {
        let s = web.settled(&id).await;
        if s["state"]["turn"]["kind"] == "over" {
            break;
        }
        assert_eq!(s["state"]["turn"]["seat"], 1, "{s}");
        // A hint asked of the web instance, computed by the worker.
        let hint = creator
            .expect(
                StatusCode::OK,
                "POST",
                &format!("/api/games/{id}/hint"),
                json!({"token": token}),
            )
            .await;
        let legal = s["state"]["legal"].as_array().expect("legal");
        assert!(legal.contains(&hint["action"]), "{hint}");
        creator
            .expect(
                StatusCode::OK,
                "POST",
                &format!("/api/games/{id}/move"),
                json!({"token": token, "action": "walk", "ply": common::ply(&s)}),
            )
            .await;
    }
    assert!(worker.app.rounds.ai_jobs() >= 3);

    // An AI-only game, watched only on the web instance.
    let created = creator
        .expect(
            StatusCode::OK,
            "POST",
            "/api/games",
            json!({"spec": "race", "seats": [ai, ai]}),
        )
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let (_, _watch) = web
        .app
        .rounds
        .watch(&id, &Default::default())
        .await
        .expect("watch");
    let path = format!("/api/games/{id}");
    for _ in 0..1000 {
        if web.get(&path).await["state"]["turn"]["kind"] == "over" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(web.get(&path).await["state"]["turn"]["kind"], "over");
    assert_eq!(
        web.app.rounds.ai_jobs(),
        0,
        "the web instance thought for nothing"
    );

    // An analysis asked of the web instance is taken by the worker (the
    // test game has no engine to analyse it: the worker's refusal comes
    // back; `crates/cli/tests/workers.rs` analyses a real game).
    let path = format!("{path}/analysis");
    let (status, v) = creator.call("POST", &path, Value::Null).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let (status, v) = common::poll(
        "the worker's analysis",
        Duration::from_millis(20),
        || async {
            let (status, v) = web.call("GET", &path, Value::Null).await;
            (status != StatusCode::ACCEPTED).then_some((status, v))
        },
    )
    .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("analysis_failed")),
        "{v}"
    );
}

/// Two instances holding the same timed game, both past its flag with
/// nobody connected: exactly one of them ends it, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_end_a_game_on_time_exactly_once() {
    let Some(db) = common::instances_database("flag on two instances").await else {
        return;
    };
    let config = || tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    let a = start_at(test_registry(), &db, config()).await;
    let b = start_at(test_registry(), &db, config()).await;
    let (mut ends_a, mut ends_b) = (
        a.app.rounds.finisher.subscribe(),
        b.app.rounds.finisher.subscribe(),
    );
    let (id, t) = a
        .create(json!({"spec": "race", "seed": 3, "clock": {"initial_s": 60, "increment_s": 0}}))
        .await;
    let path = format!("/api/games/{id}");
    // The first moves (free), one on each instance; both hold the game.
    for (srv, token) in [(&a, &t[0]), (&b, &t[1])] {
        srv.post(
            &format!("{path}/move"),
            json!({"token": token, "action": "walk"}),
        )
        .await;
    }
    let (_, _on_a) = a
        .app
        .rounds
        .watch(&id, &Default::default())
        .await
        .expect("a");
    let (_, _on_b) = b
        .app
        .rounds
        .watch(&id, &Default::default())
        .await
        .expect("b");
    // (Each sees the other's move a moment later.)
    for srv in [&a, &b] {
        let mut running = Value::Null;
        for _ in 0..500 {
            running = srv.get(&path).await["state"]["clock"]["running"].clone();
            if running == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(running, 0, "seat 0's clock runs on both");
    }
    // Past the flag on both; both look at once (and their sweeps too).
    a.app.advance_clock(60_001);
    b.app.advance_clock(60_001);
    let (wa, wb) = tokio::join!(a.app.rounds.wake_due_games(), b.app.rounds.wake_due_games());
    assert!(wa.is_ok() && wb.is_ok(), "{wa:?} {wb:?}");
    let e = tokio::select! {
        e = next_end(&mut ends_a) => e,
        e = next_end(&mut ends_b) => e,
    };
    assert_eq!(
        (e.id.as_str(), e.ending.reason),
        (id.as_str(), EndReason::Time)
    );
    // Both sweep again: neither ends it a second time (a view goes through
    // each instance's owner of the game, after any ending it announces).
    let (wa, wb) = tokio::join!(a.app.rounds.wake_due_games(), b.app.rounds.wake_due_games());
    assert!(wa.is_ok() && wb.is_ok(), "{wa:?} {wb:?}");
    for srv in [&a, &b] {
        srv.get(&path).await;
    }
    for ends in [&mut ends_a, &mut ends_b] {
        let more = ends.try_recv();
        assert!(
            matches!(more, Err(broadcast::error::TryRecvError::Empty)),
            "an extra ending: {more:?}"
        );
    }
    for srv in [&a, &b] {
        let s = srv.get(&path).await;
        assert_eq!(s["state"]["result"]["reason"], "time", "{s}");
        assert_eq!(s["state"]["result"]["winners"], json!([1]));
    }
}
