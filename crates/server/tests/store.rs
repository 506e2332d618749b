//! The storage interface behaves the same on both engines: SQLite always,
//! PostgreSQL when the tests have one (`TABULA_TEST_PG`, started by
//! `scripts/test.sh`, which then requires it: `TABULA_REQUIRE_PG=1`).

mod common;

use tabula_server::store::{Status, Store, StoreError, StoredAction, StoredGame, Write};

fn game(id: &str, created: i64, actions: usize) -> StoredGame {
    StoredGame {
        id: id.into(),
        created,
        spec: "race".into(),
        start: None,
        seed: 7,
        meta: r#"{"seats":[]}"#.into(),
        actions: (0..actions)
            .map(|i| StoredAction {
                actor: (i % 2 == 1).then_some(0),
                text: format!("a{i}"),
            })
            .collect(),
        version: 0,
    }
}

fn texts(g: &StoredGame) -> Vec<&str> {
    g.actions.iter().map(|a| a.text.as_str()).collect()
}

async fn every_engine() -> Vec<(String, Store)> {
    let mut stores = Vec::new();
    let path = common::temp_db("store");
    let sqlite = Store::open(&path.to_string_lossy()).await.expect("sqlite");
    stores.push(("sqlite".to_string(), sqlite));
    if let Some(url) = common::postgres_or_skip("store tests") {
        let db = common::fresh_database(&url, &format!("{}", path.display())).await;
        stores.push((
            "postgres".to_string(),
            Store::open(&db).await.expect("postgres"),
        ));
    }
    stores
}

#[tokio::test]
async fn both_engines_store_read_and_refuse_alike() {
    for (engine, store) in every_engine().await {
        let ai = Status {
            result: None,
            ai_turn: true,
            ..Default::default()
        };
        store
            .insert(game("g1", 10, 3), ai.clone())
            .await
            .expect(&engine);
        store
            .insert(game("g2", 20, 0), Status::default())
            .await
            .expect(&engine);
        // The same id twice is refused, and changes nothing.
        assert!(
            store
                .insert(game("g1", 30, 1), Status::default())
                .await
                .is_err(),
            "{engine}"
        );
        let g1 = store.load("g1").await.expect(&engine).expect("g1");
        assert_eq!(g1, game("g1", 10, 3), "{engine}");
        assert_eq!(store.load("nope").await, Ok(None), "{engine}");

        // A write names the version it was planned on and raises it.
        let write = |version, keep, truncate, n: usize| Write {
            game: "g1".into(),
            version,
            keep,
            truncate,
            actions: (0..n)
                .map(|i| StoredAction {
                    actor: None,
                    text: format!("b{i}"),
                })
                .collect(),
            meta: Some(format!(r#"{{"v":{version}}}"#)),
            status: Status {
                result: (version == 1).then(|| "win 1".to_string()),
                ai_turn: false,
                ..Default::default()
            },
        };
        assert_eq!(store.write(write(0, 3, false, 2)).await, Ok(1), "{engine}");
        // A second writer planned on version 0 loses, and changes nothing.
        assert_eq!(
            store.write(write(0, 3, false, 1)).await,
            Err(StoreError::Conflict),
            "{engine}"
        );
        let g1 = store.load("g1").await.expect(&engine).expect("g1");
        assert_eq!(texts(&g1), ["a0", "a1", "a2", "b0", "b1"], "{engine}");
        assert_eq!(
            (g1.version, g1.meta.as_str()),
            (1, r#"{"v":0}"#),
            "{engine}"
        );
        // A take-back: drop from ply 2 on, append there.
        assert_eq!(store.write(write(1, 2, true, 1)).await, Ok(2), "{engine}");
        let g1 = store.load("g1").await.expect(&engine).expect("g1");
        assert_eq!(texts(&g1), ["a0", "a1", "b0"], "{engine}");
        // What a write left from a ply on, read in one go by another instance.
        let tail = store.load_tail("g1", 2).await.expect(&engine).expect("g1");
        let tail_texts: Vec<&str> = tail.actions.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(
            (tail.version, tail.meta.as_str(), tail_texts),
            (2, r#"{"v":1}"#, vec!["b0"]),
            "{engine}"
        );
        let tail = store.load_tail("g1", 3).await.expect(&engine).expect("g1");
        assert!(tail.actions.is_empty() && tail.version == 2, "{engine}");
        assert_eq!(store.load_tail("nope", 0).await, Ok(None), "{engine}");
        let missing = Write {
            game: "nope".into(),
            ..write(0, 0, false, 0)
        };
        assert_eq!(
            store.write(missing).await,
            Err(StoreError::Missing),
            "{engine}"
        );

        // Queries that load no game.
        let recent = store.recent(10).await.expect(&engine);
        let ids: Vec<&str> = recent.iter().map(|h| h.id.as_str()).collect();
        assert_eq!(ids, ["g2", "g1"], "{engine}: newest first");
        assert_eq!(
            (recent[1].plies, recent[1].result.as_deref()),
            (3, Some("win 1")),
            "{engine}"
        );
        assert_eq!(store.recent(1).await.expect(&engine).len(), 1, "{engine}");
        assert_eq!(
            store.ids_with_ai_turn(Some(true)).await,
            Ok(vec![]),
            "{engine}"
        );
        assert_eq!(
            store.ids_with_ai_turn(Some(false)).await.map(|v| v.len()),
            Ok(2),
            "{engine}"
        );
        assert_eq!(store.count().await, Ok(2), "{engine}");
    }
}

/// Many writes at once (which PostgreSQL commits in groups): each keeps
/// its own outcome. Of two writers of a game planned on the same version
/// exactly one wins; a write that fails by itself (its actions clash with
/// stored ones) fails alone and changes nothing; the others are stored once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writes_keep_their_own_outcomes_on_both_engines() {
    for (engine, store) in every_engine().await {
        let games = 40;
        for i in 0..games {
            let g = game(&format!("c{i:02}"), i, 2);
            store.insert(g, Status::default()).await.expect(&engine);
        }
        let write = |i: i64, keep: usize, text: &str| Write {
            game: format!("c{i:02}"),
            version: 0,
            keep,
            truncate: false,
            actions: vec![StoredAction {
                actor: Some(0),
                text: text.into(),
            }],
            meta: None,
            status: Status::default(),
        };
        let mut tasks = Vec::new();
        for i in 0..games {
            for (writer, keep) in [("x", 2), ("y", 2), ("clash", 1)] {
                // The clash appends at a ply already stored: refused.
                let (store, w) = (store.clone(), write(i, keep, writer));
                if writer == "clash" && i % 4 != 0 {
                    continue;
                }
                tasks.push(tokio::spawn(async move {
                    (w.game.clone(), writer, store.write(w).await)
                }));
            }
        }
        let mut won = std::collections::HashMap::new();
        for t in tasks {
            let (game, writer, outcome) = t.await.expect("task");
            match (writer, outcome) {
                ("clash", Ok(_)) => panic!("{engine}: {game}: a clashing write was stored"),
                ("clash", Err(_)) => {}
                (_, Ok(1)) => assert!(
                    won.insert(game.clone(), writer).is_none(),
                    "{engine}: {game} won twice"
                ),
                (_, Err(StoreError::Conflict)) => {}
                (_, other) => panic!("{engine}: {game} {writer}: {other:?}"),
            }
        }
        for i in 0..games {
            let id = format!("c{i:02}");
            let g = store.load(&id).await.expect(&engine).expect("game");
            let Some(winner) = won.get(&id) else {
                // Only a clash can have beaten both writers to version 1;
                // it cannot: it was refused.
                panic!("{engine}: nobody won {id}");
            };
            assert_eq!(texts(&g), ["a0", "a1", *winner], "{engine}: {id}");
            assert_eq!(g.version, 1, "{engine}: {id}");
        }
    }
}

/// The clock sweep's query, as both engines run it each second.
const DUE_SQLITE: &str =
    "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= 5 AND result IS NULL LIMIT 100";

#[tokio::test]
async fn the_clock_sweep_reads_only_the_due_index_on_both_engines() {
    // 20,000 unfinished games without a deadline (correspondence games,
    // games against the AI), 10 with one.
    let path = common::temp_db("store-plan");
    let _ = Store::open(&path.to_string_lossy()).await.expect("sqlite");
    let conn = rusqlite::Connection::open(&path).expect("open");
    conn.execute_batch(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20010)
         INSERT INTO games (id, created, spec, seed, meta, deadline)
         SELECT 'g' || i, i, 'race', 0, '{}', CASE WHEN i > 20000 THEN i ELSE NULL END FROM n;
         ANALYZE;",
    )
    .expect("fill");
    let plan: Vec<String> = conn
        .prepare(&format!("EXPLAIN QUERY PLAN {DUE_SQLITE}"))
        .expect("explain")
        .query_map([], |r| r.get::<_, String>(3))
        .expect("plan")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert!(
        plan.iter().any(|p| p.contains("games_due")),
        "sqlite: {plan:?}"
    );
    common::remove_db(&path);

    let Some(url) = common::postgres_or_skip("plan test") else {
        return;
    };
    let db = common::fresh_database(&url, &format!("{}", path.display())).await;
    let _ = Store::open(&db).await.expect("postgres");
    let (client, connection) = tokio_postgres::connect(&db, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(connection);
    client
        .batch_execute(
            "INSERT INTO games (id, created, spec, seed, meta, deadline)
             SELECT 'g' || i, i, 'race', 0, '{}', CASE WHEN i > 20000 THEN i ELSE NULL END
             FROM generate_series(1, 20010) AS i;
             ANALYZE games;",
        )
        .await
        .expect("fill");
    let rows = client
        .query(
            "EXPLAIN SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= 5 \
             AND result IS NULL LIMIT 100",
            &[],
        )
        .await
        .expect("explain");
    let plan: Vec<String> = rows.iter().map(|r| r.get::<_, String>(0)).collect();
    assert!(
        plan.iter().any(|p| p.contains("games_due")),
        "postgres: {plan:?}"
    );
}

/// A run promised PostgreSQL (`TABULA_REQUIRE_PG=1`) that finds none fails:
/// this test runs the engine test above again in a child process of its
/// own (environment variables are the whole process's) without
/// `TABULA_TEST_PG`.
#[test]
fn a_run_promised_postgresql_fails_without_it() {
    let run = |require: &str| {
        std::process::Command::new(std::env::current_exe().expect("this test binary"))
            .args([
                "--exact",
                "both_engines_store_read_and_refuse_alike",
                "--nocapture",
            ])
            .env_remove("TABULA_TEST_PG")
            .env("TABULA_REQUIRE_PG", require)
            .output()
            .expect("run the test binary")
    };
    let promised = run("1");
    let said = String::from_utf8_lossy(&promised.stderr);
    assert!(
        !promised.status.success(),
        "passed without PostgreSQL: {said}"
    );
    assert!(said.contains("PostgreSQL was expected"), "{said}");
    // Not promised: SQLite only, said on stderr, and it passes.
    let skipped = run("");
    assert!(skipped.status.success(), "{skipped:?}");
    let err = String::from_utf8_lossy(&skipped.stderr);
    assert!(err.contains("PostgreSQL NOT TESTED"), "{err}");
}
