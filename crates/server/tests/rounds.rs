//! The life of games behind the API: one finish path for every ending,
//! one owner per game under concurrent commands, AI turns, games leaving
//! memory when idle and coming back, and upgrading an older database.

mod common;

use axum::http::StatusCode;
use common::{
    ai, api, human, poll, published_until, remove_db, seated, seeded, start, start_at, start_with,
    temp_db, test_registry, Browser, Client, Server, ViewExt, Watch,
};
use std::sync::Arc;
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_clock::TimeControl;
use tabula_server::protocol::{ClockInfo, GameView, NewGame, ServerMessage};
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

/// The configuration of most tests here: the AI moves at once.
fn quick() -> tabula_server::RoundConfig {
    tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    }
}

/// Two instances of `config` on a fresh PostgreSQL database named after
/// `what` (and its address); `None` without PostgreSQL.
async fn two_instances(
    what: &str,
    config: impl Fn() -> tabula_server::RoundConfig,
) -> Option<(String, Server, Server)> {
    let db = common::instances_database(what).await?;
    let a = start_at(test_registry(), &db, config()).await;
    let b = start_at(test_registry(), &db, config()).await;
    Some((db, a, b))
}

/// A game of race with only AI seats of level `random`.
fn ai_only(spec: &str, seats: usize) -> NewGame {
    seated(spec, vec![ai(AiLevel::Random); seats])
}

/// The next view a watcher gets that reaches `ply`.
async fn sees(rx: &mut Watch, ply: usize) -> GameView {
    published_until(rx, |m| match m {
        ServerMessage::Snapshot(v) | ServerMessage::Update(v) if v.state.ply >= ply => Some(v),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn every_ending_goes_through_the_finisher_once() {
    let db = temp_db("endings");
    let srv = start(test_registry(), &db).await;
    let mut ends = srv.app.rounds.finisher.subscribe();

    // On the board.
    let (id, t) = srv.open(&seeded("race", 3)).await;
    let s = srv.play_out(&id, &t, "walk", 100).await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.id.as_str(), e.ending.reason),
        (id.as_str(), EndReason::Board)
    );
    let result = s.state.result.expect("a result");
    assert_eq!(result.reason, EndReason::Board);
    assert_eq!(e.ending.outcome.to_text(), result.text);

    // Resignation: the other side wins.
    let (id, t) = srv.open(&NewGame::new("race")).await;
    srv.send(api::resign(&id, &t[0])).await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.ending.outcome.to_text()),
        (EndReason::Resign, "win 2".into())
    );

    // Agreement: every seat draws.
    let (id, t) = srv.open(&NewGame::new("race")).await;
    for token in &t {
        srv.send(api::draw(&id, token, true)).await;
    }
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.ending.outcome.to_text()),
        (EndReason::Agreement, "draw 1,2".into())
    );

    // Leaving a two-player game ends it for the other side.
    let (id, t) = srv.open(&NewGame::new("race")).await;
    srv.send(api::leave(&id, &t[1])).await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.ending.outcome.to_text()),
        (EndReason::Left, "win 1".into())
    );
    let s = srv.view(&id).await;
    assert_eq!(s.reason(), Some(EndReason::Left));
    assert!(s.over());
    // Exported and imported, its ending is only the record's claim (no
    // record proves a player left): the game goes on, and nothing is
    // announced.
    let record = srv.send(api::record(&id)).await;
    assert!(record.contains("end: left"), "{record}");
    let imported = srv.send(api::import(&record, Vec::new())).await;
    let s = srv.view(&imported.id).await;
    assert_eq!(s.state.result, None, "{s:?}");
    let claim = s.state.claim.as_ref().map(|c| c.reason);
    assert_eq!(claim, Some(EndReason::Left));
    assert!(s.state.imported);

    // In a game of three the leaver's seat plays on; the end says who left.
    let (id, t) = srv.open(&seeded("race(players=3)", 5)).await;
    srv.send(api::leave(&id, &t[0])).await;
    no_more_ends(&mut ends).await;
    srv.play_out(&id, &t, "walk", 100).await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.ending.reason, e.left.clone()),
        (EndReason::Board, vec![0])
    );

    // Nothing more: a finished game refuses every ending.
    let token = &t[1];
    for verb in [
        api::resign(&id, token),
        api::draw(&id, token, true),
        api::leave(&id, token),
    ] {
        let refused = srv.refusal(verb).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{refused}");
    }
    no_more_ends(&mut ends).await;

    // Endings survive a restart, and are not announced again.
    drop(srv);
    let srv = start(test_registry(), &db).await;
    let mut ends = srv.app.rounds.finisher.subscribe();
    assert_eq!(srv.view(&id).await.reason(), Some(EndReason::Board));
    no_more_ends(&mut ends).await;
    let list = srv.send(api::games()).await;
    assert!(list.iter().all(|g| g.over || g.imported), "{list:?}");
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_commands_on_one_game_lose_and_double_nothing() {
    let db = temp_db("concurrent");
    let srv = Arc::new(start(test_registry(), &db).await);
    let (id, t) = srv.open(&seeded("race(players=3)", 11)).await;
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
                let s = srv.view(&id).await;
                let Some(seat) = s.to_move() else {
                    break;
                };
                let ply = s.state.ply;
                let action = if client % 2 == 0 { "walk" } else { "run" };
                match srv.attempt(api::play(&id, &t[seat], action, ply)).await {
                    Ok(_) => accepted.push(ply),
                    Err(r) if [StatusCode::CONFLICT, StatusCode::FORBIDDEN].contains(&r.status) => {
                    }
                    Err(r) => panic!("{r}"),
                }
            }
            accepted
        }));
    }
    let mut plies = Vec::new();
    for task in tasks {
        plies.extend(task.await.expect("client"));
    }
    let history = srv.view(&id).await.history;
    let player_moves: Vec<usize> = history
        .iter()
        .enumerate()
        .filter(|(_, e)| e.actor.is_some())
        .map(|(i, _)| i)
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
    assert_eq!(srv.view(&id).await.history, history);
    remove_db(&db);
}

#[tokio::test]
async fn ai_seats_play_to_the_end_and_finish_once() {
    let db = temp_db("ai-end");
    let srv = start(test_registry(), &db).await;
    let mut ends = srv.app.rounds.finisher.subscribe();
    // An AI-only game needs its creator's session, and plays while watched.
    let mut creator = Browser::guest_at(&srv, 1).await;
    let created = creator
        .send(api::create(&ai_only("race(players=3)", 3)))
        .await;
    assert!(created.tokens.is_empty(), "AI seats hold no token");
    let id = created.id;
    let _watch = srv.watch(&id).await;
    let e = next_end(&mut ends).await;
    assert_eq!(
        (e.id.as_str(), e.ending.reason),
        (id.as_str(), EndReason::Board)
    );
    let s = srv.view(&id).await;
    assert!(s.over());
    assert!(!s.state.thinking);
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
    let (id, t) = srv.open(&seeded("race", 1)).await;
    let before = srv.view(&id).await;
    assert_eq!(srv.app.rounds.live_games(), 1);
    poll(
        "the idle game to leave memory",
        Duration::from_millis(20),
        || async { (srv.app.rounds.live_games() == 0).then_some(()) },
    )
    .await;
    // Listing reads the store, loading nothing.
    let list = srv.send(api::games()).await;
    assert_eq!(list[0].id, id);
    assert_eq!(srv.app.rounds.live_games(), 0);
    // Opening it brings it back exactly; playing works at once.
    assert_eq!(srv.view(&id).await, before);
    srv.send(api::play(&id, &t[0], "walk", 1)).await;
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
    let list = srv.send(api::games()).await;
    assert_eq!(list[0].id, "oldgame002");
    assert_eq!(list[0].result.as_deref(), Some("win 1"));
    assert_eq!(list[1].players[0].name, "Ann");
    assert_eq!(list[1].ply, 3);
    let s = srv.view("oldgame002").await;
    assert_eq!(s.reason(), Some(EndReason::Resign));
    // The old game's AI was to move: resumed at start-up, it has played.
    let s = srv.settle("oldgame001").await;
    assert_eq!(s.history[3].actor, Some(1), "{s:?}");
    srv.send(api::play("oldgame001", "aa", "walk", None)).await;
    remove_db(&db);
}

/// Two instances on one PostgreSQL: a game made on one is played on the
/// other, both sets of watchers see every move, and of two moves for the
/// same ply, one on each instance, exactly one is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_share_games_through_postgres() {
    let Some((_, a, b)) = two_instances("two_instances", quick).await else {
        return;
    };
    let (id, t) = a.open(&seeded("race", 4)).await;
    let mut on_a = a.watch(&id).await;
    let mut on_b = b.watch(&id).await;

    // Made on a, played on b, seen on both.
    b.send(api::play(&id, &t[0], "walk", 1)).await;
    assert_eq!(sees(&mut on_b, 3).await.to_move(), Some(1));
    let seen = sees(&mut on_a, 3).await;
    assert_eq!(seen.to_move(), Some(1), "{seen:?}");
    // And the other way round.
    a.send(api::play(&id, &t[1], "run", 3)).await;
    sees(&mut on_b, 5).await;
    assert_eq!(b.view(&id).await, a.view(&id).await);

    // The same ply from both instances at once: one wins, one is refused.
    let (ra, rb) = tokio::join!(
        a.attempt(api::play(&id, &t[0], "walk", 5)),
        b.attempt(api::play(&id, &t[0], "walk", 5))
    );
    assert_eq!(
        [ra.is_ok(), rb.is_ok()].iter().filter(|ok| **ok).count(),
        1,
        "{ra:?} {rb:?}"
    );
    assert_eq!(a.view(&id).await.state.ply, 7, "one move and its roll");
    sees(&mut on_b, 7).await;

    // How soon a move made on b reaches a's watchers (printed, not
    // asserted: numbers go to docs/benchmarks.md).
    let mut delays = Vec::new();
    let (mut id, mut t) = (String::new(), Vec::new());
    let mut watcher = None;
    while delays.len() < 200 {
        let s = match watcher {
            Some(_) => Some(b.view(&id).await),
            None => None,
        };
        let Some((seat, ply)) = s.and_then(|s| Some((s.to_move()?, s.state.ply))) else {
            // A new game once the last one is over.
            (id, t) = a.open(&NewGame::new("race(players=3)")).await;
            watcher = Some(a.watch(&id).await);
            continue;
        };
        let moved = b.send(api::play(&id, &t[seat], "walk", ply)).await;
        let acked = std::time::Instant::now();
        if let Some(rx) = watcher.as_mut() {
            sees(rx, moved.ply).await;
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
    let Some((_, a, b)) = two_instances("deltas", quick).await else {
        return;
    };
    /// The next update that `pick`s, as sent and as read.
    async fn update(rx: &mut Watch, pick: impl Fn(&GameView) -> bool) -> (String, GameView) {
        loop {
            let p = tokio::time::timeout(Duration::from_secs(5), rx.recv())
                .await
                .expect("an update within 5 s")
                .expect("open channel");
            if let ServerMessage::Update(v) = serde_json::from_str(&p.text).expect("a message") {
                if pick(&v) {
                    return (p.text.to_string(), v);
                }
            }
        }
    }
    let reaches = |ply: usize| move |v: &GameView| v.state.ply >= ply;

    let (id, t) = a.open(&seeded("race", 9)).await;
    let (mut on_a, mut on_b) = (a.watch(&id).await, b.watch(&id).await);
    let mut moves = 0;
    loop {
        let s = a.view(&id).await;
        let Some(seat) = s.to_move() else {
            break;
        };
        let ply = s.state.ply;
        // Each player on their own instance.
        let (mover, action) = if seat == 0 { (&a, "walk") } else { (&b, "run") };
        let after = mover.send(api::play(&id, &t[seat], action, ply)).await.ply;
        let (here, _) = update(&mut on_a, reaches(after)).await;
        let (there, v) = update(&mut on_b, reaches(after)).await;
        assert_eq!(here, there, "both instances' watchers get the same update");
        assert_eq!(v.from, ply, "only what the move added: {v:?}");
        moves += 1;
    }
    assert!(moves >= 8, "a whole game: {moves} moves");
    assert_eq!(a.view(&id).await, b.view(&id).await);

    // A take-back on b, of a game held on a: a drops the taken-back plies.
    let game = NewGame {
        seed: Some(3),
        ..seated("race", vec![human(), ai(AiLevel::Random)])
    };
    let (id, t) = a.open(&game).await;
    let (mut on_a, mut on_b) = (a.watch(&id).await, b.watch(&id).await);
    let s = a.play_moves(&id, &t, &["walk", "walk"]).await;
    update(&mut on_b, reaches(s.state.ply)).await;
    let keep = b.send(api::undo(&id, &t[0])).await.ply;
    assert!(keep < s.state.ply, "{keep}");
    // Not a reload of the whole game (which would come `from` 0).
    update(&mut on_a, |v| v.state.ply == keep && v.from == keep).await;
    assert_eq!(a.view(&id).await, b.view(&id).await);
    drop(on_b);
}

/// With two instances holding the same AI game, each AI move is computed
/// by one of them only; and an AI turn claimed by an instance that died is
/// taken over once its claim runs out.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_instance_drives_each_ai_turn_and_another_takes_over() {
    use tabula_server::store::{Status, Store, StoredAction, StoredGame};
    // The sweep runs only when the test calls it (`resume_ai`): a timed one
    // could claim the orphan below between its insert and the dead
    // instance's claim (it did, under load).
    let config = || tabula_server::RoundConfig {
        ai_sweep: Duration::from_secs(3600),
        ..quick()
    };
    let Some((db, a, b)) = two_instances("AI claims", config).await else {
        return;
    };
    let (mut ends_a, mut ends_b) = (
        a.app.rounds.finisher.subscribe(),
        b.app.rounds.finisher.subscribe(),
    );
    let mut creator = Browser::guest_at(&a, 1).await;
    let (id, _) = creator.open(&ai_only("race(players=3)", 3)).await;
    // b holds the game too, and would think for it if it could.
    let _watch = b.watch(&id).await;
    // The instance that plays the last move announces the end.
    let e = tokio::select! {
        e = next_end(&mut ends_a) => e,
        e = next_end(&mut ends_b) => e,
    };
    assert_eq!(e.id, id);
    // The instance that did not play the last move shows it a moment later.
    let s = poll(
        "both instances to show the end",
        Duration::from_millis(10),
        || async {
            let s = a.view(&id).await;
            (s.over() && b.view(&id).await == s).then_some(s)
        },
    )
    .await;
    let ai_moves = s.history.iter().filter(|e| e.actor.is_some()).count() as u64;
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
    let s = b.view("orphan0001").await;
    assert_eq!(s.state.ply, 1, "the dead instance's claim still runs");
    b.app.advance_clock(1_501);
    b.app.rounds.resume_ai().await.expect("AI sweep");
    let s = b.settle("orphan0001").await;
    assert_eq!(
        s.history[1].actor,
        Some(0),
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
    let mut creator = Browser::guest_at(&web, 1).await;

    // A person against the AI, which moves first.
    let game = seated("race", vec![ai(AiLevel::Random), human()]);
    let (id, t) = creator.open(&game).await;
    for _ in 0..3 {
        let s = web.settle(&id).await;
        if s.over() {
            break;
        }
        assert_eq!(s.to_move(), Some(1), "{s:?}");
        // A hint asked of the web instance, computed by the worker.
        let hint = creator.send(api::hint(&id, &t[0])).await;
        assert!(s.state.legal.contains(&hint.action), "{hint:?}");
        creator
            .send(api::play(&id, &t[0], "walk", s.state.ply))
            .await;
    }
    assert!(worker.app.rounds.ai_jobs() >= 3);

    // An AI-only game, watched only on the web instance.
    let (id, _) = creator.open(&ai_only("race", 2)).await;
    let _watch = web.watch(&id).await;
    poll(
        "the AI-only game to end",
        Duration::from_millis(5),
        || async { web.view(&id).await.over().then_some(()) },
    )
    .await;
    assert_eq!(
        web.app.rounds.ai_jobs(),
        0,
        "the web instance thought for nothing"
    );

    // An analysis asked of the web instance is taken by the worker (the
    // test game has no engine to analyse it: the worker's refusal comes
    // back; `crates/cli/tests/workers.rs` analyses a real game).
    let path = format!("/api/games/{id}/analysis");
    let (status, v) = creator.call("POST", &path, serde_json::Value::Null).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let (status, v) = poll(
        "the worker's analysis",
        Duration::from_millis(20),
        || async {
            let (status, v) = web.call("GET", &path, serde_json::Value::Null).await;
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
    let Some((_, a, b)) = two_instances("flag on two instances", quick).await else {
        return;
    };
    let (mut ends_a, mut ends_b) = (
        a.app.rounds.finisher.subscribe(),
        b.app.rounds.finisher.subscribe(),
    );
    let game = NewGame {
        clock: Some(TimeControl::Realtime {
            initial_s: 60,
            increment_s: 0,
        }),
        ..seeded("race", 3)
    };
    let (id, t) = a.open(&game).await;
    // The first moves (free), one on each instance; both hold the game.
    for (srv, token) in [(&a, &t[0]), (&b, &t[1])] {
        srv.send(api::play(&id, token, "walk", None)).await;
    }
    let _on_a = a.watch(&id).await;
    let _on_b = b.watch(&id).await;
    // (Each sees the other's move a moment later.)
    for srv in [&a, &b] {
        poll(
            "seat 0's clock to run on both",
            Duration::from_millis(10),
            || async {
                let clock = srv.view(&id).await.state.clock;
                clock.and_then(|c: ClockInfo| c.running.filter(|seat| *seat == 0))
            },
        )
        .await;
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
        srv.view(&id).await;
    }
    for ends in [&mut ends_a, &mut ends_b] {
        let more = ends.try_recv();
        assert!(
            matches!(more, Err(broadcast::error::TryRecvError::Empty)),
            "an extra ending: {more:?}"
        );
    }
    for srv in [&a, &b] {
        let s = srv.view(&id).await;
        let result = s.state.result.as_ref().expect("a result");
        assert_eq!(result.reason, EndReason::Time, "{s:?}");
        assert_eq!(result.winners, vec![1]);
    }
}
