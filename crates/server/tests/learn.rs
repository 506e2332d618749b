//! The learning endpoints (`docs/api.md`, "Learning"): a position replayed,
//! a lesson's answer judged (refused with its reason, then done with its
//! stars), a puzzle solved and failed with the rating moving both ways,
//! and the refusals of bad or oversized input.

mod common;

use axum::http::StatusCode;
use common::{remove_db, start, temp_db};
use serde_json::{json, Value};

async fn server(name: &str) -> (common::Server, std::path::PathBuf) {
    let db = temp_db(name);
    (start(tabula_games::registry(), &db).await, db)
}

#[tokio::test]
async fn a_position_is_replayed_and_bad_input_refused_with_a_code() {
    let (srv, db) = server("learn-position").await;
    let v = srv
        .post(
            "/api/position",
            json!({"spec": "gildervaik(mode=warrior)", "position": "A:e5,e3 B:f6,j19 C:j1,j3 / A", "actions": ["e5xf7"]}),
        )
        .await;
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["steps"][0]["facts"]["capture"], true);
    assert!(!v["legal"].as_array().unwrap().is_empty());
    let refused = [
        (
            json!({"spec": "nogame"}),
            StatusCode::BAD_REQUEST,
            "bad_spec",
        ),
        (
            json!({"spec": "phylde", "position": "xx"}),
            StatusCode::BAD_REQUEST,
            "bad_position",
        ),
        (
            json!({"spec": "phylde", "actions": ["a1-a2"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            json!({"spec": "phylde", "actions": vec!["end"; 2000]}),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
        ),
        (
            json!({"spec": "phylde", "colour": "red"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ];
    for (body, status, code) in refused {
        let (got, v) = srv.call("POST", "/api/position", body.clone()).await;
        assert_eq!(
            (got, v["code"].as_str()),
            (status, Some(code)),
            "{body}: {v}"
        );
        assert!(v["error"].is_string());
    }
    remove_db(&db);
}

#[tokio::test]
async fn a_lesson_refuses_a_wrong_answer_with_its_reason_and_gives_stars_for_the_right_one() {
    let (srv, db) = server("learn-lesson").await;
    let overview = srv.get("/api/learn").await;
    assert!(overview["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["lessons"].as_u64() >= Some(8)));
    let list = srv.get("/api/learn/gildervaik").await;
    let first = &list["lessons"][0];
    assert!(
        first.get("answer").is_none(),
        "the answer stays on the server"
    );
    let lesson = "gildervaik/02-jump";
    let v = srv
        .post(
            "/api/learn/check",
            json!({"lesson": lesson, "actions": ["e5-e6"]}),
        )
        .await;
    assert_eq!(v["status"], "refused");
    assert_eq!(v["at"], 0);
    assert!(v["why"]["text"]["fr"]
        .as_str()
        .unwrap()
        .starts_with("Un pas"));
    assert_eq!(
        v["state"]["position"], "A:e5 B:f6,j19 C:j1 / A",
        "nothing was played"
    );
    let v = srv
        .post(
            "/api/learn/check",
            json!({"lesson": lesson, "actions": ["e5-f7"]}),
        )
        .await;
    assert_eq!(
        (v["status"].as_str(), v["stars"].as_u64()),
        (Some("done"), Some(3))
    );
    let (status, v) = srv
        .call(
            "POST",
            "/api/learn/check",
            json!({"lesson": lesson, "actions": ["e5-f7", "f7-f8"]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (status, _) = srv
        .call(
            "POST",
            "/api/learn/check",
            json!({"lesson": "gildervaik/99-none"}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, v) = srv.call("GET", "/api/learn/chess", Value::Null).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("no_game"))
    );
    remove_db(&db);
}

#[tokio::test]
async fn a_puzzle_solved_raises_the_rating_and_one_failed_lowers_it() {
    let (srv, db) = server("learn-puzzle").await;
    let list = srv.get("/api/puzzles/gildervaik").await;
    let id = list["puzzles"][0]["id"].as_str().unwrap().to_string();
    assert!(
        list["puzzles"][0].get("line").is_none(),
        "the solution stays on the server"
    );
    let me = json!({"rating": 1500.0, "rd": 350.0, "volatility": 0.06, "games": 0});
    let check =
        |actions: Value| json!({"game": "gildervaik", "id": id, "actions": actions, "rating": me});
    let failed = srv
        .post("/api/puzzles/check", check(json!(["no such move"])))
        .await;
    assert_eq!(failed["status"], "failed");
    assert!(failed["rating"]["rating"].as_f64().unwrap() < 1500.0);
    let line = failed["line"].clone();
    let solved = srv.post("/api/puzzles/check", check(line)).await;
    assert_eq!(solved["status"], "solved");
    assert!(solved["rating"]["rating"].as_f64().unwrap() > 1500.0);
    let going = srv
        .post(
            "/api/puzzles/check",
            json!({"game": "gildervaik", "id": id}),
        )
        .await;
    assert_eq!(going["status"], "going");
    assert!(going.get("line").is_none() && going.get("rating").is_none());
    remove_db(&db);
}

#[tokio::test]
async fn an_accounts_stars_and_puzzle_rating_are_kept_by_the_server_from_its_own_verdicts() {
    let (srv, db) = server("learn-account").await;
    let mut me = common::Browser::new(&srv, 7);
    let (_, guest) = me.call("GET", "/api/learn/progress", Value::Null).await;
    assert_eq!(guest["signed_in"], false);
    me.sign_up("learner").await;
    let (status, _) = me
        .call(
            "POST",
            "/api/learn/check",
            json!({"lesson": "gildervaik/02-jump", "actions": ["e5-f7"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let id = srv.get("/api/puzzles/gildervaik").await["puzzles"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The rating the browser claims does not count for an account.
    let claim = json!({"rating": 2900.0, "rd": 50.0, "volatility": 0.06, "games": 300});
    let (_, failed) = me
        .call(
            "POST",
            "/api/puzzles/check",
            json!({"game": "gildervaik", "id": id, "actions": ["nope"], "rating": claim}),
        )
        .await;
    let after = failed["rating"]["rating"].as_f64().unwrap();
    assert!(
        after < 1500.0,
        "rated from the stored 1500, not the claim: {after}"
    );
    // A second try of the same puzzle does not count again.
    let (_, again) = me
        .call(
            "POST",
            "/api/puzzles/check",
            json!({"game": "gildervaik", "id": id, "actions": failed["line"]}),
        )
        .await;
    assert_eq!(again["rating"]["rating"].as_f64(), Some(after));
    let (_, kept) = me.call("GET", "/api/learn/progress", Value::Null).await;
    assert_eq!(kept["signed_in"], true);
    assert_eq!(kept["lessons"]["gildervaik/02-jump"], 3);
    assert_eq!(kept["puzzles"]["gildervaik"]["done"][&id], 0);
    assert_eq!(
        kept["puzzles"]["gildervaik"]["rating"]["rating"].as_f64(),
        Some(after)
    );
    remove_db(&db);
}

/// Engine checks cost the server CPU: one address gets a burst of them,
/// then waits (429 with `Retry-After`), while another address does not.
#[tokio::test]
async fn engine_checks_are_limited_per_address() {
    let (srv, db) = server("learn-limit").await;
    let body = json!({"spec": "phylde"});
    let mut ann = common::Browser::new(&srv, 1);
    let mut refused = 0;
    for _ in 0..80 {
        let (st, v) = ann.call("POST", "/api/position", body.clone()).await;
        if st == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(v["code"], "too_many_requests", "{v}");
            refused += 1;
        } else {
            assert_eq!(st, StatusCode::OK, "{v}");
        }
    }
    assert!(refused >= 10, "a flood waits: {refused} of 80 refused");
    let mut bob = common::Browser::new(&srv, 2);
    let (st, v) = bob.call("POST", "/api/position", body).await;
    assert_eq!(st, StatusCode::OK, "another address is not held back: {v}");
    remove_db(&db);
}

/// The analysis board's lines: the engine's best moves valued for the
/// mover, the best with its line, in a two-player and a three-player game;
/// a Stelpur position waiting for its roll says so and has none until a
/// roll is played.
#[tokio::test]
async fn engine_lines_rank_moves_with_values_and_say_when_the_dice_are_to_roll() {
    let (srv, db) = server("learn-lines").await;
    let v = srv
        .post(
            "/api/position/lines",
            json!({"spec": "dragonchess", "lines": 2}),
        )
        .await;
    assert_eq!(
        (v["turn"].as_str(), v["to_move"].as_u64()),
        (Some("player"), Some(0))
    );
    assert_eq!(v["players"], 2);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{v}");
    let value = |l: &Value| l["value"].as_f64().unwrap();
    assert!(lines.iter().all(|l| (0.0..=1.0).contains(&value(l))), "{v}");
    assert!(value(&lines[0]) >= value(&lines[1]), "best first: {v}");
    assert_eq!(
        lines[0]["pv"][0], lines[0]["action"],
        "the best move's line starts with it"
    );
    let legal = srv
        .post("/api/position", json!({"spec": "dragonchess"}))
        .await["legal"]
        .clone();
    let legal = legal.as_array().unwrap();
    assert!(lines.iter().all(|l| legal.contains(&l["action"])), "{v}");

    // Gildervaik warrior, from a pasted position and an action played on it.
    let v = srv
        .post(
            "/api/position/lines",
            json!({"spec": "gildervaik(mode=warrior)", "position": "A:e5,e3 B:f6,j19 C:j1,j3 / A", "actions": ["e5xf7"]}),
        )
        .await;
    assert_eq!(
        (v["to_move"].as_u64(), v["players"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(v["lines"][0]["action"], "j19-j18", "B's only move: {v}");

    // Phylde: the first action of a turn of up to five.
    let v = srv
        .post("/api/position/lines", json!({"spec": "phylde", "lines": 1}))
        .await;
    assert_eq!(v["lines"].as_array().map(Vec::len), Some(1), "{v}");

    let v = srv
        .post("/api/position/lines", json!({"spec": "stelpur"}))
        .await;
    assert_eq!(v["turn"], "chance", "{v}");
    assert_eq!(v["lines"], json!([]));
    let roll = srv.post("/api/position", json!({"spec": "stelpur"})).await["chance"][0][0].clone();
    let v = srv
        .post(
            "/api/position/lines",
            json!({"spec": "stelpur", "actions": [roll]}),
        )
        .await;
    assert_eq!(v["turn"], "player", "{v}");
    assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    remove_db(&db);
}

/// Bad requests for lines are refused with a code the web app words, before
/// any search; an instance computing no AI says so instead of searching.
#[tokio::test]
async fn engine_lines_refuse_bad_input_with_a_code_and_an_instance_without_ai_says_so() {
    let (srv, db) = server("learn-lines-bad").await;
    let refused = [
        (
            json!({"spec": "phylde", "lines": 0}),
            StatusCode::BAD_REQUEST,
            "bad_lines",
        ),
        (
            json!({"spec": "phylde", "lines": 6}),
            StatusCode::BAD_REQUEST,
            "bad_lines",
        ),
        (
            json!({"spec": "nogame"}),
            StatusCode::BAD_REQUEST,
            "bad_spec",
        ),
        (
            json!({"spec": "phylde", "position": "xx"}),
            StatusCode::BAD_REQUEST,
            "bad_position",
        ),
        (
            json!({"spec": "phylde", "actions": ["a1-a2"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            json!({"spec": "phylde", "position": "x".repeat(5000)}),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
        ),
        (
            json!({"spec": "phylde", "depth": 40}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"spec": "phylde", "lines": -1}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ];
    for (body, status, code) in refused {
        let (got, v) = srv.call("POST", "/api/position/lines", body.clone()).await;
        assert_eq!(
            (got, v["code"].as_str()),
            (status, Some(code)),
            "{body}: {v}"
        );
    }
    let (_, v) = srv
        .call(
            "POST",
            "/api/position/lines",
            json!({"spec": "phylde", "lines": 9}),
        )
        .await;
    assert_eq!(v["vars"]["max"], "5", "the web app names the most: {v}");
    remove_db(&db);

    let db = temp_db("learn-lines-no-ai");
    let config = tabula_server::RoundConfig {
        guard: tabula_server::common::GuardConfig {
            ai_workers: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    let srv = common::start_with(tabula_games::registry(), &db, config).await;
    let (got, v) = srv
        .call("POST", "/api/position/lines", json!({"spec": "phylde"}))
        .await;
    assert_eq!(
        (got, v["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("no_engine")),
        "{v}"
    );
    remove_db(&db);
}

/// Lines search as long as a hint: an address gets a hint's burst of them,
/// then waits, while another address does not.
#[tokio::test]
async fn engine_lines_are_limited_per_address_as_hints() {
    let (srv, db) = server("learn-lines-limit").await;
    // A position waiting for its roll: counted, but nothing to search.
    let body = json!({"spec": "stelpur"});
    let mut ann = common::Browser::new(&srv, 1);
    let mut refused = 0;
    for _ in 0..45 {
        let (st, v) = ann.call("POST", "/api/position/lines", body.clone()).await;
        if st == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(v["code"], "too_many_requests", "{v}");
            refused += 1;
        } else {
            assert_eq!(st, StatusCode::OK, "{v}");
        }
    }
    assert!(refused >= 10, "a flood waits: {refused} of 45 refused");
    let mut bob = common::Browser::new(&srv, 2);
    let (st, v) = bob.call("POST", "/api/position/lines", body).await;
    assert_eq!(st, StatusCode::OK, "another address is not held back: {v}");
    remove_db(&db);
}
