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
    tabula_server::rating::service::rate_game(&srv.app, &ended)
        .await
        .expect("rate");
    let p = ann
        .expect(StatusCode::OK, "GET", "/api/players/ann", Value::Null)
        .await;
    assert_eq!(p["ratings"]["race"]["games"], 1);
    drop(srv);
    remove_db(&db);
}
