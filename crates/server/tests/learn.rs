//! The learning endpoints (`docs/api.md`, "Learning"): a position replayed,
//! a lesson's answer judged (refused with its reason, then done with its
//! stars), a puzzle solved and failed with the rating moving both ways,
//! and the refusals of bad or oversized input.

mod common;

use axum::http::StatusCode;
use common::{remove_db, start, temp_db, Call, Client};
use serde_json::{json, Value};
use tabula_learn::{PuzzleStatus, Replayed, Run, Status, Why};
use tabula_rating::Rating;
use tabula_server::learn::progress::Progress;
use tabula_server::learn::{
    LearnOverview, LessonCheck, PositionRequest, PuzzleAnswer, PuzzleCheck, PuzzleList,
};

/// `POST /api/position`.
fn position(req: &PositionRequest) -> Call<Replayed> {
    Call::post("/api/position", req)
}

/// `POST /api/learn/check` of `actions` in `lesson`.
fn check_lesson(lesson: &str, actions: &[&str]) -> Call<Run> {
    let lesson = lesson.to_string();
    let actions = actions.iter().map(|a| a.to_string()).collect();
    Call::post("/api/learn/check", &LessonCheck { lesson, actions })
}

/// `POST /api/puzzles/check`.
fn check_puzzle(check: &PuzzleCheck) -> Call<PuzzleAnswer> {
    Call::post("/api/puzzles/check", check)
}

/// A Gildervaik puzzle's check of `actions` by a solver rated `rating`.
fn puzzle(id: &str, actions: Vec<String>, rating: Option<Rating>) -> PuzzleCheck {
    let (game, id) = ("gildervaik".to_string(), id.to_string());
    PuzzleCheck {
        game,
        id,
        actions,
        rating,
    }
}

async fn server(name: &str) -> (common::Server, std::path::PathBuf) {
    let db = temp_db(name);
    (start(tabula_games::registry(), &db).await, db)
}

/// Bodies that every endpoint taking a position refuses, each with its
/// status and code: the same reading serves `/api/position` and the lines.
fn bad_positions() -> Vec<(Value, StatusCode, &'static str)> {
    vec![
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
            json!({"spec": "phylde", "position": "x".repeat(5000)}),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
        ),
    ]
}

/// Each body posted to `path` is refused with its status and code.
async fn assert_refused(
    srv: &common::Server,
    path: &str,
    cases: Vec<(Value, StatusCode, &'static str)>,
) {
    for (body, status, code) in cases {
        let (got, v) = srv.call("POST", path, body.clone()).await;
        assert_eq!(
            (got, v["code"].as_str()),
            (status, Some(code)),
            "{path} {body}: {v}"
        );
    }
}

#[tokio::test]
async fn a_position_is_replayed_and_bad_input_refused_with_a_code() {
    let (srv, db) = server("learn-position").await;
    let req = PositionRequest {
        spec: "gildervaik(mode=warrior)".into(),
        position: Some("A:e5,e3 B:f6,j19 C:j1,j3 / A".into()),
        actions: vec!["e5xf7".into()],
    };
    let v = srv.send(position(&req)).await;
    assert_eq!(v.to_move, Some(1));
    assert!(v.steps[0].facts.capture);
    assert!(!v.legal.is_empty());
    // Not even a `PositionRequest` on purpose: sent as JSON.
    let mut refused = bad_positions();
    refused.push((
        json!({"spec": "phylde", "colour": "red"}),
        StatusCode::BAD_REQUEST,
        "bad_request",
    ));
    assert_refused(&srv, "/api/position", refused).await;
    remove_db(&db);
}

#[tokio::test]
async fn a_lesson_refuses_a_wrong_answer_with_its_reason_and_gives_stars_for_the_right_one() {
    let (srv, db) = server("learn-lesson").await;
    let overview: LearnOverview = srv.send(Call::get("/api/learn")).await;
    assert!(overview.games.iter().all(|g| g.lessons >= 8));
    let list = srv.get("/api/learn/gildervaik").await;
    let first = &list["lessons"][0];
    assert!(
        first.get("answer").is_none(),
        "the answer stays on the server"
    );
    let lesson = "gildervaik/02-jump";
    let v = srv.send(check_lesson(lesson, &["e5-e6"])).await;
    match &v.status {
        Status::Refused {
            at: 0,
            why: Why::Text(why),
        } => assert!(why.fr.starts_with("Un pas"), "{why:?}"),
        other => panic!("not refused at 0 with a text: {other:?}"),
    }
    assert_eq!(
        v.state.position, "A:e5 B:f6,j19 C:j1 / A",
        "nothing was played"
    );
    let v = srv.send(check_lesson(lesson, &["e5-f7"])).await;
    assert_eq!(v.status, Status::Done { stars: 3 });
    let refused = srv.refusal(check_lesson(lesson, &["e5-f7", "f7-f8"])).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{refused}"
    );
    let refused = srv.refusal(check_lesson("gildervaik/99-none", &[])).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    let refused = srv.refusal(Call::<Value>::get("/api/learn/chess")).await;
    assert_eq!(refused.kind(), (StatusCode::NOT_FOUND, "no_game"));
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
    let me = Rating {
        rating: 1500.0,
        rd: 350.0,
        volatility: 0.06,
        games: 0,
    };
    let check = |actions: Vec<String>| check_puzzle(&puzzle(&id, actions, Some(me)));
    let failed = srv.send(check(vec!["no such move".into()])).await;
    assert!(matches!(failed.run.status, PuzzleStatus::Failed { .. }));
    assert!(failed.rating.expect("a rating").rating < 1500.0);
    let line = failed.line.expect("the solution");
    let solved = srv.send(check(line)).await;
    assert_eq!(solved.run.status, PuzzleStatus::Solved);
    assert!(solved.rating.expect("a rating").rating > 1500.0);
    // Going on: neither its solution nor a rating on the wire.
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

/// A mate in 2 or 3: each right move is answered by the line's defence,
/// played by the server, and the solver goes on from there.
#[tokio::test]
async fn a_longer_puzzle_plays_the_defence_after_each_right_move() {
    let (srv, db) = server("learn-mate2").await;
    for game in ["dragonchess", "phylde"] {
        let p = tabula_learn::data::library().puzzles[game]
            .iter()
            .find(|p| p.theme == "mate2" || p.theme == "mate3")
            .unwrap_or_else(|| panic!("{game}: no mate in 2 or 3"));
        let check =
            |n: usize| json!({"game": game, "id": p.id, "actions": p.line[..n], "rating": null});
        let going = srv.post("/api/puzzles/check", check(1)).await;
        assert_eq!(going["status"], "going", "{}", p.id);
        let start = going["state"]["steps"][0]["seat"].clone();
        // Dragonchess: the defence was played; Phylde: the same turn goes on.
        let played = going["state"]["steps"].as_array().unwrap().len();
        assert_eq!(
            played,
            if game == "dragonchess" { 2 } else { 1 },
            "{}",
            p.id
        );
        assert_eq!(going["state"]["to_move"], start, "{}", p.id);
        let solver = p.solver_actions(&tabula_games::registry()).unwrap();
        let solved = srv
            .post(
                "/api/puzzles/check",
                json!({"game": game, "id": p.id, "actions": solver}),
            )
            .await;
        assert_eq!(solved["status"], "solved", "{}", p.id);
    }
    remove_db(&db);
}

#[tokio::test]
async fn an_accounts_stars_and_puzzle_rating_are_kept_by_the_server_from_its_own_verdicts() {
    let (srv, db) = server("learn-account").await;
    let mut me = common::Browser::new(&srv, 7);
    let progress = || Call::<Progress>::get("/api/learn/progress");
    assert!(!me.send(progress()).await.signed_in);
    me.sign_up("learner").await;
    me.send(check_lesson("gildervaik/02-jump", &["e5-f7"]))
        .await;
    let list: PuzzleList = srv.send(Call::get("/api/puzzles/gildervaik")).await;
    let id = list.puzzles[0].id.clone();
    // The rating the browser claims does not count for an account.
    let claim = Rating {
        rating: 2900.0,
        rd: 50.0,
        volatility: 0.06,
        games: 300,
    };
    let nope = puzzle(&id, vec!["nope".into()], Some(claim));
    let failed = me.send(check_puzzle(&nope)).await;
    let after = failed.rating.expect("a rating").rating;
    assert!(
        after < 1500.0,
        "rated from the stored 1500, not the claim: {after}"
    );
    // A second try of the same puzzle does not count again.
    let line = failed.line.expect("the solution");
    let again = me.send(check_puzzle(&puzzle(&id, line, None))).await;
    assert_eq!(again.rating.map(|r| r.rating), Some(after));
    let kept = me.send(progress()).await;
    assert!(kept.signed_in);
    assert_eq!(kept.lessons["gildervaik/02-jump"], 3);
    let puzzles = &kept.puzzles["gildervaik"];
    assert_eq!(puzzles.done[&id], 0);
    assert_eq!(puzzles.rating.rating, after);
    remove_db(&db);
}

/// A puzzle's own rating moves with the first try of each signed-in
/// solver: down when one solves it, up when another fails it, not again
/// on a second try; a guest's try leaves it alone.
#[tokio::test]
async fn a_puzzles_rating_moves_with_signed_in_solvers_once_each() {
    let (srv, db) = server("learn-puzzle-rating").await;
    let rating = |list: &Value, id: &str| {
        list["puzzles"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap()["rating"]
            .as_f64()
            .unwrap()
    };
    let list = srv.get("/api/puzzles/gildervaik").await;
    let id = list["puzzles"][0]["id"].as_str().unwrap().to_string();
    let made = rating(&list, &id);
    let try_it = |actions: Value| json!({"game": "gildervaik", "id": id, "actions": actions});
    let line = srv
        .post("/api/puzzles/check", try_it(json!(["nope"])))
        .await["line"]
        .clone();
    assert_eq!(
        rating(&srv.get("/api/puzzles/gildervaik").await, &id),
        made,
        "a guest's try"
    );
    let mut ann = common::Browser::new(&srv, 11);
    ann.sign_up("solver").await;
    ann.call("POST", "/api/puzzles/check", try_it(line.clone()))
        .await;
    let easier = rating(&srv.get("/api/puzzles/gildervaik").await, &id);
    assert!(easier < made, "solved: {easier} after {made}");
    ann.call("POST", "/api/puzzles/check", try_it(json!(["nope"])))
        .await;
    assert_eq!(
        rating(&srv.get("/api/puzzles/gildervaik").await, &id),
        easier,
        "a second try"
    );
    let mut bob = common::Browser::new(&srv, 12);
    bob.sign_up("failer").await;
    bob.call("POST", "/api/puzzles/check", try_it(json!(["nope"])))
        .await;
    let harder = rating(&srv.get("/api/puzzles/gildervaik").await, &id);
    assert!(harder > easier, "failed: {harder} after {easier}");
    remove_db(&db);
}

/// Engine checks cost the server CPU: one address gets a burst of them,
/// then waits (429 with `Retry-After`), while another address does not.
#[tokio::test]
async fn engine_checks_are_limited_per_address() {
    let (srv, db) = server("learn-limit").await;
    let phylde = PositionRequest {
        spec: "phylde".into(),
        position: None,
        actions: Vec::new(),
    };
    let mut ann = common::Browser::new(&srv, 1);
    let mut refused = 0;
    for _ in 0..80 {
        if let Err(r) = ann.attempt(position(&phylde)).await {
            assert_eq!(
                r.kind(),
                (StatusCode::TOO_MANY_REQUESTS, "too_many_requests"),
                "{r}"
            );
            refused += 1;
        }
    }
    assert!(refused >= 10, "a flood waits: {refused} of 80 refused");
    let mut bob = common::Browser::new(&srv, 2);
    bob.send(position(&phylde)).await;
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
    let mut refused = bad_positions();
    refused.extend([
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
            json!({"spec": "phylde", "depth": 40}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"spec": "phylde", "lines": -1}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ]);
    assert_refused(&srv, "/api/position/lines", refused).await;
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
