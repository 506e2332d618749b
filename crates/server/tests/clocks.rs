//! Clocks through the API, with the server's time moved forward by the
//! test (no sleeping through the time controls): the flag falls with
//! nobody connected, first moves that never come abort the game, a player
//! whose opponent went away claims the game, and a correspondence game
//! lives through a restart and a week of turns.

mod common;

use axum::http::StatusCode;
use common::{remove_db, start_with, temp_db, test_registry, Browser, Server};
use serde_json::{json, Value};
use std::time::Duration;

fn quick() -> tabula_server::RoundConfig {
    tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        // Games leave memory at once: the store's deadline must find them.
        idle: Duration::from_millis(50),
        // The tests run the clock sweep themselves, at the moments they
        // choose (`over`, `still_on`).
        clock_sweep: Duration::from_secs(3600),
        ..Default::default()
    }
}

/// Play the first legal action of the seat to move (by its token).
async fn play_first(srv: &Server, id: &str, tokens: &[String]) -> Value {
    let s = srv.get(&format!("/api/games/{id}")).await;
    let seat = s["state"]["turn"]["seat"].as_u64().expect("a seat to move") as usize;
    let action = s["state"]["legal"][0].as_str().expect("legal").to_string();
    srv.post(
        &format!("/api/games/{id}/move"),
        json!({"token": tokens[seat], "action": action}),
    )
    .await
}

/// Play whole turns (every action of the seat to move).
async fn play_turn(srv: &Server, id: &str, tokens: &[String]) {
    let s = srv.get(&format!("/api/games/{id}")).await;
    let seat = s["state"]["turn"]["seat"].clone();
    loop {
        play_first(srv, id, tokens).await;
        let s = srv.get(&format!("/api/games/{id}")).await;
        if s["state"]["turn"]["seat"] != seat || s["state"]["result"] != Value::Null {
            return;
        }
    }
}

/// Run the clock sweep now (the test's own sweeps never come by
/// themselves: see `quick`) and wait for game `id` to end, as the
/// finisher announces it.
async fn over(srv: &Server, id: &str) -> Value {
    let mut ends = srv.app.rounds.finisher.subscribe();
    let s = srv.get(&format!("/api/games/{id}")).await;
    if s["state"]["result"] != Value::Null {
        return s;
    }
    srv.app.rounds.wake_due_games().await.expect("sweep");
    let ended = async { while ends.recv().await.expect("finisher").id != id {} };
    tokio::time::timeout(Duration::from_secs(30), ended)
        .await
        .unwrap_or_else(|_| panic!("game {id} never ended"));
    srv.get(&format!("/api/games/{id}")).await
}

/// Run the clock sweep now and check that game `id` goes on: the sweep has
/// woken every game whose time is up, and each has answered a view since.
async fn still_on(srv: &Server, id: &str) -> Value {
    srv.app.rounds.wake_due_games().await.expect("sweep");
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["state"]["result"], Value::Null, "{s}");
    s
}

#[tokio::test]
async fn the_flag_falls_with_nobody_connected() {
    let db = temp_db("flag");
    let srv = start_with(test_registry(), &db, quick()).await;
    let (id, t) = srv
        .create(json!({"spec": "race", "seed": 3, "clock": {"initial_s": 60, "increment_s": 0}}))
        .await;
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        s["state"]["clock"]["control"],
        json!({"initial_s": 60, "increment_s": 0})
    );
    assert_eq!(s["state"]["clock"]["remaining_ms"], json!([60000, 60000]));
    // First turns are free; then seat 0's clock runs.
    play_first(&srv, &id, &t).await;
    play_first(&srv, &id, &t).await;
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["state"]["clock"]["running"], 0);
    srv.app.advance_clock(59_000);
    let s = srv.get(&format!("/api/games/{id}")).await;
    let left = s["state"]["clock"]["remaining_ms"][0].as_u64().expect("ms");
    assert!((900..=1000).contains(&left), "{left}");
    srv.app.advance_clock(1_001);
    // Nobody watches, the game is not even in memory: the sweep ends it.
    let s = over(&srv, &id).await;
    assert_eq!(s["state"]["result"]["reason"], "time");
    assert_eq!(s["state"]["result"]["winners"], json!([1]));
    // A move after the flag changes nothing.
    let action = "run";
    let (st, _) = srv
        .call(
            "POST",
            &format!("/api/games/{id}/move"),
            json!({"token": t[0], "action": action}),
        )
        .await;
    assert_eq!(st, StatusCode::CONFLICT);
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_game_whose_first_move_never_comes_is_aborted() {
    let db = temp_db("abort");
    let srv = start_with(test_registry(), &db, quick()).await;
    let (id, _) = srv
        .create(json!({"spec": "race", "clock": {"initial_s": 180, "increment_s": 2}}))
        .await;
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert!(
        s["state"]["clock"]["first_move_by"].as_i64().is_some(),
        "{s}"
    );
    srv.app.advance_clock(30_000);
    let s = over(&srv, &id).await;
    assert_eq!(s["state"]["result"]["reason"], "aborted");
    let (_, record) = srv
        .call("GET", &format!("/api/games/{id}/record"), Value::Null)
        .await;
    assert!(
        record.as_str().unwrap_or("").contains("end: aborted"),
        "{record}"
    );
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_player_whose_opponent_went_away_claims_the_game() {
    use futures_util::StreamExt;
    let db = temp_db("claim");
    let srv = start_with(test_registry(), &db, quick()).await;
    let mut ann = Browser::new(&srv, 1);
    ann.guest().await;
    let created = ann
        .expect(StatusCode::OK, "POST", "/api/games", json!({"spec": "race", "seats": [{"type": "human"}, {"type": "human", "invite": true}]}))
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let claim = format!("/api/games/{id}/claim");
    // Ann keeps the game open (a live channel); her friend never came.
    let cookie = ann.cookie.clone().expect("cookie");
    let mut ws = common::live(&srv, &cookie, &format!("/api/games/{id}/ws")).await;
    let snap = ws.next().await.expect("snapshot").expect("ok");
    assert!(
        snap.to_text().unwrap_or("").contains("\"you\":[0]"),
        "{snap:?}"
    );
    let v = ann
        .expect(StatusCode::CONFLICT, "POST", &claim, json!({}))
        .await;
    assert!(
        v["error"]
            .as_str()
            .unwrap_or("")
            .contains("nothing to claim"),
        "{v}"
    );
    srv.app.advance_clock(120_000);
    ann.expect(StatusCode::OK, "POST", &claim, json!({})).await;
    let s = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["state"]["result"]["reason"], "abandoned");
    assert_eq!(s["state"]["result"]["winners"], json!([0]));
    drop(ws);
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_two_day_phylde_game_lives_through_a_restart_and_a_week_of_turns() {
    let db = temp_db("corr");
    let day = 86_400_000i64;
    let mut sim = 0i64;
    let srv = start_with(tabula_games::registry(), &db, quick()).await;
    let (id, t) = srv
        .create(json!({"spec": "phylde", "seed": 9, "clock": {"days": 2}}))
        .await;
    let mut srv = srv;
    for turn in 0..14 {
        if turn == 7 {
            // The server restarts; its clock is the same wall time.
            drop(srv);
            srv = start_with(tabula_games::registry(), &db, quick()).await;
            srv.app.advance_clock(sim);
        }
        let s = srv.get(&format!("/api/games/{id}")).await;
        if s["state"]["result"] != Value::Null {
            break;
        }
        srv.app.advance_clock(day / 2);
        sim += day / 2;
        play_turn(&srv, &id, &t).await;
        let s = srv.get(&format!("/api/games/{id}")).await;
        if s["state"]["result"] != Value::Null {
            break;
        }
        let seat = s["state"]["turn"]["seat"].as_u64().expect("seat") as usize;
        // The full two days again (less the real milliseconds since the move).
        let left = s["state"]["clock"]["remaining_ms"][seat]
            .as_i64()
            .expect("ms");
        assert!(
            (2 * day - 1000..=2 * day).contains(&left),
            "turn {turn}: {left}"
        );
    }
    assert_eq!(sim, 7 * day, "a week of turns");
    let s = srv.get(&format!("/api/games/{id}")).await;
    if s["state"]["result"] == Value::Null {
        // Two days of silence: the flag falls.
        srv.app.advance_clock(2 * day);
        let s = over(&srv, &id).await;
        assert_eq!(s["state"]["result"]["reason"], "time");
    }
    drop(srv);
    remove_db(&db);
}

/// As browser `b`, play the first legal action of game `g`; the game after.
async fn play_as(b: &mut Browser<'_>, g: &str) -> Value {
    let s = b.expect(StatusCode::OK, "GET", g, Value::Null).await;
    let action = s["state"]["legal"][0].as_str().expect("legal").to_string();
    b.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/move"),
        json!({"action": action}),
    )
    .await;
    b.expect(StatusCode::OK, "GET", g, Value::Null).await
}

/// Two signed-in browsers in the game of a seek of `body`: Ann (its
/// creator, seat 0) and Bob; the game's id.
async fn met<'a>(srv: &'a Server, body: Value) -> (Browser<'a>, Browser<'a>, String) {
    let mut ann = Browser::new(srv, 1);
    ann.sign_up("Ann").await;
    let mut bob = Browser::new(srv, 2);
    bob.sign_up("Bob").await;
    let seek = ann.expect(StatusCode::OK, "POST", "/api/seeks", body).await;
    let sid = seek["id"].as_str().expect("id");
    let accepted = bob
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await;
    let game = accepted["game"].as_str().expect("game").to_string();
    (ann, bob, game)
}

#[tokio::test]
async fn a_3_2_dragonchess_game_between_two_browsers_ends_on_time() {
    let db = temp_db("blitz");
    let srv = start_with(tabula_games::registry(), &db, quick()).await;
    let clock = json!({"initial_s": 180, "increment_s": 2});
    let (mut ann, mut bob, id) =
        met(&srv, json!({"spec": "dragonchess", "clock": clock.clone()})).await;
    let g = format!("/api/games/{id}");
    let s = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await;
    assert_eq!(s["state"]["clock"]["control"], clock);
    assert_eq!(s["state"]["turn"]["seat"], 0);
    // First moves are free; then Ann thinks 10 s and earns 2.
    play_as(&mut ann, &g).await;
    play_as(&mut bob, &g).await;
    srv.app.advance_clock(10_000);
    let s = play_as(&mut ann, &g).await;
    let left = s["state"]["clock"]["remaining_ms"][0].as_i64().expect("ms");
    assert!((171_000..=172_000).contains(&left), "{left}");
    assert_eq!(s["state"]["clock"]["running"], 1);
    // Bob stops moving; nobody watches: his three minutes run out.
    srv.app.advance_clock(180_000);
    let s = over(&srv, &id).await;
    assert_eq!(s["state"]["result"]["reason"], "time");
    assert_eq!(s["state"]["result"]["winners"], json!([0]));
    let v = bob
        .expect(
            StatusCode::CONFLICT,
            "POST",
            &format!("{g}/move"),
            json!({"action": "a1"}),
        )
        .await;
    assert!(v["error"].is_string(), "{v}");
    for (name, win) in [("ann", 1), ("bob", 0)] {
        let p = ann
            .expect(
                StatusCode::OK,
                "GET",
                &format!("/api/players/{name}"),
                Value::Null,
            )
            .await;
        assert_eq!(p["finished"][0]["id"], id.as_str(), "{p}");
        assert_eq!(p["record"]["dragonchess"]["win"], win, "{p}");
    }
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_rated_game_whose_second_side_never_moves_is_aborted_unrated() {
    let db = temp_db("abort2");
    let srv = start_with(test_registry(), &db, quick()).await;
    let body = json!({"spec": "race", "rated": true, "clock": {"initial_s": 60, "increment_s": 0}});
    let (mut ann, _bob, id) = met(&srv, body).await;
    let g = format!("/api/games/{id}");
    let s = play_as(&mut ann, &g).await;
    assert_eq!(s["state"]["turn"]["seat"], 1, "{s}");
    // Bob's first move has its own 30 s: at 29 s a sweep leaves it be.
    srv.app.advance_clock(29_000);
    still_on(&srv, &id).await;
    srv.app.advance_clock(1_001);
    let s = over(&srv, &id).await;
    assert_eq!(s["state"]["result"]["reason"], "aborted");
    for name in ["ann", "bob"] {
        let p = ann
            .expect(
                StatusCode::OK,
                "GET",
                &format!("/api/players/{name}"),
                Value::Null,
            )
            .await;
        assert_eq!(p["record"], json!({}), "not counted: {p}");
        assert_eq!(p["ratings"], json!({}), "not rated: {p}");
    }
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_correspondence_player_silent_for_the_days_lets_the_other_claim_a_draw() {
    let db = temp_db("corrclaim");
    let hour = 3_600_000i64;
    let srv = start_with(test_registry(), &db, quick()).await;
    let mut ann = Browser::new(&srv, 1);
    ann.guest().await;
    let created = ann
        .expect(StatusCode::OK, "POST", "/api/games", json!({"spec": "race", "seed": 2, "clock": {"days": 1}, "seats": [{"type": "human"}, {"type": "human", "invite": true}]}))
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let invite = created["tokens"][1]["token"].as_str().expect("token");
    let g = format!("/api/games/{id}");
    let claim = format!("{g}/claim");
    let cookie = ann.cookie.clone().expect("cookie");
    let _ws = common::live(&srv, &cookie, &format!("{g}/ws")).await;
    // Bob plays his first move by his session, then goes quiet.
    let mut bob = Browser::new(&srv, 2);
    bob.guest().await;
    bob.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/join"),
        json!({"token": invite}),
    )
    .await;
    play_as(&mut ann, &g).await;
    play_as(&mut bob, &g).await;
    srv.app.advance_clock(20 * hour);
    play_as(&mut ann, &g).await;
    ann.expect(StatusCode::CONFLICT, "POST", &claim, json!({"draw": true}))
        .await;
    // A day since Bob was last heard from (his flag has hours left).
    srv.app.advance_clock(4 * hour + 1_000);
    ann.expect(StatusCode::OK, "POST", &claim, json!({"draw": true}))
        .await;
    let s = bob.expect(StatusCode::OK, "GET", &g, Value::Null).await;
    assert_eq!(s["state"]["result"]["reason"], "abandoned");
    assert_eq!(s["state"]["result"]["draw"], true, "{s}");
    assert_eq!(s["state"]["result"]["winners"], json!([0, 1]), "{s}");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn an_ai_seat_has_no_clock_while_the_humans_runs() {
    let db = temp_db("aiclock");
    let srv = start_with(test_registry(), &db, quick()).await;
    let (id, t) = srv
        .create(json!({"spec": "race", "seed": 4, "clock": {"initial_s": 60, "increment_s": 0}, "seats": [{"type": "human"}, {"type": "ai", "level": "random"}]}))
        .await;
    let s = srv.settled(&id).await;
    assert_eq!(s["state"]["clock"]["remaining_ms"], json!([60000, null]));
    // The first moves are free; then only the human's time goes down.
    for _ in 0..2 {
        play_first(&srv, &id, &t).await;
        srv.settled(&id).await;
    }
    srv.app.advance_clock(5_000);
    let s = srv.settled(&id).await;
    assert_eq!(s["state"]["clock"]["running"], 0, "{s}");
    let left = s["state"]["clock"]["remaining_ms"][0].as_i64().expect("ms");
    assert!((54_000..=55_000).contains(&left), "{left}");
    assert_eq!(s["state"]["clock"]["remaining_ms"][1], Value::Null);
    drop(srv);
    remove_db(&db);
}
