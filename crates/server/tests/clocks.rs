//! Clocks through the API, with the server's time moved forward by the
//! test (no sleeping through the time controls): the flag falls with
//! nobody connected, first moves that never come abort the game, a player
//! whose opponent went away claims the game, and a correspondence game
//! lives through a restart and a week of turns.

mod common;

use axum::http::StatusCode;
use common::{start_with, temp_db, test_registry, Browser, Server};
use serde_json::{json, Value};
use std::time::Duration;

fn quick() -> tabula_server::RoundConfig {
    tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        // Games leave memory at once: the store's deadline must find them.
        idle: Duration::from_millis(50),
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

/// Wait until game `id` is over (the sweep runs every second).
async fn over(srv: &Server, id: &str) -> Value {
    for _ in 0..60 {
        let s = srv.get(&format!("/api/games/{id}")).await;
        if s["state"]["result"] != Value::Null {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} never ended");
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
    tokio::time::sleep(Duration::from_millis(200)).await;
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
    let _ = std::fs::remove_file(&db);
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
    let _ = std::fs::remove_file(&db);
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let router = srv.router.clone();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        format!("ws://{addr}/api/games/{id}/ws"),
    )
    .expect("request");
    let cookie = format!("tabula_session={}", ann.cookie.clone().expect("cookie"));
    req.headers_mut()
        .insert("cookie", cookie.parse().expect("header"));
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().expect("header"));
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("connect");
    let snap = ws.next().await.expect("snapshot").expect("ok");
    assert!(
        snap.to_text().unwrap_or("").contains("\"you\":[0]"),
        "{snap:?}"
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
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
    let _ = std::fs::remove_file(&db);
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
    let _ = std::fs::remove_file(&db);
}
