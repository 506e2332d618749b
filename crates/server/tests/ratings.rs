//! Rated games through the API: who may play them, the ratings after one,
//! shown on the game, the profiles and the leaderboard.

mod common;

use axum::http::StatusCode;
use common::{remove_db, start, temp_db, test_registry, Browser};
use serde_json::{json, Value};
use std::time::Duration;

#[tokio::test]
async fn a_rated_game_moves_both_ratings_once() {
    let db = temp_db("ratings");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("Ann").await;
    let mut bob = Browser::new(&srv, 2);
    bob.sign_up("Bob").await;
    let mut guest = Browser::new(&srv, 3);
    guest.guest().await;

    // Who may play rated.
    guest
        .expect(
            StatusCode::BAD_REQUEST,
            "POST",
            "/api/seeks",
            json!({"spec": "race", "rated": true}),
        )
        .await;
    ann.expect(
        StatusCode::BAD_REQUEST,
        "POST",
        "/api/seeks",
        json!({"spec": "race", "rated": true, "hints": true}),
    )
    .await;
    ann.expect(StatusCode::BAD_REQUEST, "POST", "/api/seeks",
        json!({"spec": "race(players=3)", "rated": true, "seats": [{"type": "me"}, {"type": "open"}, {"type": "ai"}]})).await;
    ann.expect(
        StatusCode::BAD_REQUEST,
        "POST",
        "/api/games",
        json!({"spec": "race", "rated": true}),
    )
    .await;
    let seek = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race", "rated": true}),
        )
        .await;
    let sid = seek["id"].as_str().expect("id").to_string();
    guest
        .expect(
            StatusCode::UNAUTHORIZED,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await;
    let game = bob
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await["game"]
        .as_str()
        .expect("game")
        .to_string();
    let g = format!("/api/games/{game}");
    let s = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await;
    assert_eq!(s["state"]["rated"], true);
    // No take-backs, no hints.
    ann.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/move"),
        json!({"action": "walk"}),
    )
    .await;
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        &format!("{g}/undo"),
        Value::Null,
    )
    .await;
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        &format!("{g}/hint"),
        Value::Null,
    )
    .await;
    // Bob resigns: Ann wins.
    bob.expect(StatusCode::OK, "POST", &format!("{g}/resign"), Value::Null)
        .await;
    let mut diff = Value::Null;
    for _ in 0..100 {
        let s = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await;
        if s["state"]["rating_diff"].is_array() {
            diff = s["state"]["rating_diff"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let up = diff[0].as_i64().expect("Ann's change");
    let down = diff[1].as_i64().expect("Bob's change");
    assert!(up > 0 && down < 0 && up == -down, "{diff}");
    let p = ann
        .expect(StatusCode::OK, "GET", "/api/players/ann", Value::Null)
        .await;
    let r = &p["ratings"]["race"];
    assert_eq!(r["rating"].as_i64(), Some(1500 + up), "{p}");
    assert_eq!(r["games"], 1);
    assert_eq!(r["provisional"], true);
    assert_eq!(r["history"].as_array().map(Vec::len), Some(1));
    let p = ann
        .expect(StatusCode::OK, "GET", "/api/players/bob", Value::Null)
        .await;
    assert_eq!(p["ratings"]["race"]["rating"].as_i64(), Some(1500 + down));
    // Provisional ratings are not on the leaderboard yet.
    let board = ann
        .expect(
            StatusCode::OK,
            "GET",
            "/api/leaderboard?pool=race",
            Value::Null,
        )
        .await;
    assert_eq!(board, json!([]));
    // Rated once: asking again changes nothing.
    let ended = tabula_server::round::GameEnded {
        id: game.clone(),
        spec: "race".into(),
        ending: tabula_core::Ending {
            outcome: tabula_core::Outcome::Win(tabula_core::Player(0)),
            reason: tabula_core::EndReason::Resign,
        },
        seats: serde_json::from_value(s["state"]["players"].clone()).expect("players"),
        left: vec![],
        places: vec![0, 1],
        absent: vec![],
        ply: 2,
        rated: true,
        correspondence: false,
    };
    tabula_server::rating::service::rate_game(&srv.app.ratings, &ended)
        .await
        .expect("rate");
    let p = ann
        .expect(StatusCode::OK, "GET", "/api/players/ann", Value::Null)
        .await;
    assert_eq!(p["ratings"]["race"]["games"], 1);
    drop(srv);
    remove_db(&db);
}

/// Sign up Ann and Bob, have Bob take Ann's rated seek, play one move and
/// resign: Ann wins; the game's path.
async fn rated_game_won_by_ann(srv: &common::Server) -> String {
    let mut ann = Browser::new(srv, 1);
    ann.sign_up("Ann").await;
    let mut bob = Browser::new(srv, 2);
    bob.sign_up("Bob").await;
    let sid = ann.post_seek(json!({"spec": "race", "rated": true})).await;
    let g = format!("/api/games/{}", bob.accept_seek(&sid).await);
    ann.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/move"),
        json!({"action": "walk"}),
    )
    .await;
    bob.expect(StatusCode::OK, "POST", &format!("{g}/resign"), Value::Null)
        .await;
    g
}

#[tokio::test]
async fn a_game_that_ended_before_a_crash_is_rated_at_the_next_start_exactly_once() {
    let db = temp_db("ratings-crash");
    // The instance that ends the game dies before rating it.
    let dying = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        rate_on_finish: false,
        rating_sweep: Duration::from_secs(3600),
        ..Default::default()
    };
    let srv = common::start_with(test_registry(), &db, dying).await;
    let g = rated_game_won_by_ann(&srv).await;
    let s = srv.get(&g).await;
    assert_eq!(s["state"]["turn"]["kind"], "over");
    assert!(!s["state"]["rating_diff"].is_array(), "not rated: {s}");
    drop(srv);

    // The next start rates it, once, however often its sweep runs.
    let restarted = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        rating_sweep: Duration::from_millis(20),
        rating_grace: Duration::ZERO,
        ..Default::default()
    };
    let srv = common::start_with(test_registry(), &db, restarted).await;
    let mut diff = Value::Null;
    for _ in 0..250 {
        let s = srv.get(&g).await;
        if s["state"]["rating_diff"].is_array() {
            diff = s["state"]["rating_diff"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let up = diff[0].as_i64().expect("rated after the restart");
    assert!(up > 0 && diff[1].as_i64() == Some(-up), "{diff}");
    // One game in each rating (rating a game again changes nothing: see
    // `a_rated_game_moves_both_ratings_once`).
    for player in ["ann", "bob"] {
        let p = srv.get(&format!("/api/players/{player}")).await;
        assert_eq!(p["ratings"]["race"]["games"], 1, "{player}: {p}");
    }
    let p = srv.get("/api/players/ann").await;
    assert_eq!(p["ratings"]["race"]["rating"].as_i64(), Some(1500 + up));
    drop(srv);
    remove_db(&db);
}
