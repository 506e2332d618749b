//! Game analysis (`docs/api.md`, "Analysis"): a short game of each of the
//! four games imported, analysed on the AI pool, and every value, best
//! action, loss and class checked against the engine run directly; the
//! refusals and the sharing of a finished analysis.

mod common;

use axum::http::StatusCode;
use common::{api, human, remove_db, seated, start, temp_db, Client, Waiting};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::time::Duration;
use tabula_ai::analysis::{Severity, Thresholds};
use tabula_core::{AnyGame, Player, Record, Turn};

/// A record of `plies` actions of `spec` played at random from `seed`.
fn random_record(spec: &str, plies: usize, seed: u64) -> Record {
    let mut game = tabula_games::registry().create(spec, None).expect("game");
    let mut record = Record::new(spec, None);
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..plies {
        let (actor, action) = match game.turn() {
            Turn::Over => break,
            Turn::Chance => (None, game.sample_chance(&mut rng).expect("a roll")),
            Turn::Player(p) => {
                let legal = game.legal_actions();
                (Some(p), legal[rng.gen_range(0..legal.len())].clone())
            }
        };
        game.apply_text(&action).expect("legal");
        record.push(actor, action);
    }
    record
}

/// Import `record` with people in every seat: its id.
async fn import(srv: &common::Server, record: &Record, seats: usize) -> String {
    let call = api::import(&record.to_text(), vec![human(); seats]);
    srv.send(call).await.id
}

/// Ask for game `id`'s analysis and wait for it (the AI pool computes it
/// position by position).
async fn analysed(srv: &common::Server, id: &str) -> Value {
    let path = format!("/api/games/{id}/analysis");
    let (status, v) = srv.call("POST", &path, Value::Null).await;
    assert!(
        status == StatusCode::ACCEPTED || status == StatusCode::OK,
        "{status}: {v}"
    );
    // An analysis takes its time on a busy machine: five minutes at most.
    let what = format!("game {id} analysed");
    let mut waiting =
        Waiting::new(&what, Duration::from_millis(50)).within(Duration::from_secs(300));
    loop {
        let (status, v) = srv.call("GET", &path, Value::Null).await;
        match status {
            StatusCode::OK => return v,
            StatusCode::ACCEPTED => {
                assert!(["queued", "running"].contains(&v["status"].as_str().unwrap_or("")));
                waiting.tick().await;
            }
            other => panic!("{other}: {v}"),
        }
    }
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number") as f32)
        .collect()
}

/// Every seat's value of `game` by the engine itself: one search where a
/// player is to move, the expectation over the outcomes' searches at a
/// roll (a roll two rolls deep taken as even, as `docs/analysis.md`
/// says), the points at the end.
fn engine_values(game: &dyn AnyGame) -> (Vec<f32>, Option<String>) {
    values_within(game, 2)
}

fn values_within(game: &dyn AnyGame, rolls: usize) -> (Vec<f32>, Option<String>) {
    let n = game.num_players();
    match game.turn() {
        Turn::Chance if rolls == 0 => (vec![1.0 / n as f32; n], None),
        Turn::Over => {
            let outcome = game.outcome().expect("outcome");
            let v = (0..n).map(|p| outcome.score(Player(p as u8)) as f32);
            (v.collect(), None)
        }
        Turn::Chance => {
            let mut values = vec![0.0; n];
            for (roll, p) in game.chance_outcomes() {
                let mut child = game.clone_box();
                child.apply_text(&roll).expect("roll");
                let (v, _) = values_within(child.as_ref(), rolls - 1);
                for (slot, x) in values.iter_mut().zip(v) {
                    *slot += p as f32 * x;
                }
            }
            (values, None)
        }
        Turn::Player(me) => {
            let choice = tabula_games::analysis_search(game).expect("search");
            let values = if choice.values.len() == n {
                choice.values.clone()
            } else {
                assert_eq!(n, 2, "two players derive the other seat's value");
                let mut v = vec![1.0 - choice.value; 2];
                v[me.index()] = choice.value;
                v
            };
            assert!((values[me.index()] - choice.value).abs() < 1e-6);
            (values, Some(choice.action))
        }
    }
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
}

/// Check the analysis `v` of game `view` (its actions: the record's, and
/// the rolls the server made after it) against the engine run directly on
/// every position; the classes it found.
fn check(view: &Value, v: &Value) -> Vec<Option<Severity>> {
    let actions: Vec<String> = view["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|h| h["text"].as_str().expect("text").to_string())
        .collect();
    let mut game = tabula_games::registry()
        .create(view["spec"].as_str().expect("spec"), None)
        .expect("game");
    let ty = game.game_type();
    let thresholds = Thresholds::of(ty);
    let plies = v["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), actions.len(), "one entry per action");
    let mut before = engine_values(game.as_ref());
    let mut classes = Vec::new();
    for (i, (ply, action)) in plies.iter().zip(&actions).enumerate() {
        let values = floats(&ply["values"]);
        assert_eq!(values.len(), ty.players, "ply {i}: one value per seat");
        assert!(close(&values, &before.0), "ply {i}: {values:?} {before:?}");
        let mover = game.turn();
        game.apply_text(action).expect("replay");
        let after = engine_values(game.as_ref());
        let class: Option<Severity> =
            serde_json::from_value(ply["class"].clone()).expect("a class or null");
        match mover {
            Turn::Player(p) => {
                assert_eq!(ply["best"].as_str(), before.1.as_deref(), "ply {i}");
                let loss = if before.1.as_deref() == Some(action.as_str()) {
                    0.0
                } else {
                    (before.0[p.index()] - after.0[p.index()]).max(0.0)
                };
                let got = ply["loss"].as_f64().expect("loss") as f32;
                assert!((got - loss).abs() < 1e-4, "ply {i}: loss {got} not {loss}");
                assert_eq!(class, thresholds.classify(loss), "ply {i}");
            }
            _ => {
                assert_eq!(ply["best"], Value::Null, "ply {i}: a roll has no best");
                assert_eq!(ply["loss"].as_f64(), Some(0.0));
                assert_eq!(class, None);
                if let Turn::Player(r) = game.turn() {
                    let luck = after.0[r.index()] - before.0[r.index()];
                    let got = ply["luck"].as_f64().expect("luck") as f32;
                    assert!((got - luck).abs() < 1e-4, "ply {i}: luck {got} not {luck}");
                }
            }
        }
        classes.push(class);
        before = after;
    }
    let accuracy = v["accuracy"].as_array().expect("accuracy");
    assert_eq!(accuracy.len(), ty.players);
    for a in accuracy.iter().filter_map(Value::as_f64) {
        assert!((0.0..=100.0).contains(&a), "{a}");
    }
    assert_eq!(v["skill"].is_array(), ty.chance, "skill and luck with dice");
    classes
}

#[tokio::test]
async fn a_short_game_of_each_game_is_analysed_as_the_engine_values_it() {
    let db = temp_db("analysis-four");
    let srv = start(tabula_games::registry(), &db).await;
    let games = [
        ("dragonchess", 2, 14),
        ("phylde", 2, 14),
        ("gildervaik(mode=warrior)", 3, 9),
        ("stelpur", 2, 10),
    ];
    let mut classes = Vec::new();
    for (spec, seats, plies) in games {
        let record = random_record(spec, plies, 7);
        let id = import(&srv, &record, seats).await;
        let v = analysed(&srv, &id).await;
        assert_eq!(v["status"], "done");
        let view = srv.get(&format!("/api/games/{id}")).await;
        classes.extend(check(&view, &v));
    }
    // Random play errs: some of it is classified.
    assert!(classes.iter().any(Option::is_some), "{classes:?}");
    remove_db(&db);
}

#[tokio::test]
async fn refusals_and_a_shared_analysis() {
    let db = temp_db("analysis-refusals");
    let srv = start(tabula_games::registry(), &db).await;
    // Nobody asked yet.
    let (status, v) = srv
        .call("GET", "/api/games/nosuchgame/analysis", Value::Null)
        .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("no_analysis"))
    );
    // A game that goes on is not analysed.
    let (id, _) = srv.open(&seated("phylde", vec![human(), human()])).await;
    let path = format!("/api/games/{id}/analysis");
    let (status, v) = srv.call("POST", &path, Value::Null).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("analysis_not_over"))
    );
    let (status, _) = srv.call("GET", &path, Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a refusal queues nothing");
    // A person has at most two analyses pending: the third is refused
    // (the games are long enough to be still waiting).
    let mut ids = Vec::new();
    for seed in 0..3 {
        ids.push(import(&srv, &random_record("dragonchess", 120, seed), 2).await);
    }
    for id in &ids[..2] {
        let (status, v) = srv
            .call("POST", &format!("/api/games/{id}/analysis"), Value::Null)
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        assert_eq!(v["total"], 121);
    }
    let third = format!("/api/games/{}/analysis", ids[2]);
    let (status, v) = srv.call("POST", &third, Value::Null).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("analysis_quota")),
        "{v}"
    );
    let (status, _) = srv.call("GET", &third, Value::Null).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the refused one is not queued"
    );
    // Asking again for a queued one counts nothing and answers where it is.
    let (status, _) = srv
        .call(
            "POST",
            &format!("/api/games/{}/analysis", ids[0]),
            Value::Null,
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    // Once done, it is the same analysis for everyone, at once.
    let first = analysed(&srv, &ids[0]).await;
    let (status, again) = srv
        .call(
            "POST",
            &format!("/api/games/{}/analysis", ids[0]),
            Value::Null,
        )
        .await;
    assert_eq!((status, &again), (StatusCode::OK, &first));
    // Its record carries the verdicts as comments, and imports as before.
    let (status, text) = srv
        .call("GET", &format!("/api/games/{}/record", ids[0]), Value::Null)
        .await;
    assert_eq!(status, StatusCode::OK);
    let text = text.as_str().expect("text");
    let comments = text.lines().filter(|l| l.starts_with("# values ")).count();
    assert_eq!(comments, 120, "one comment per action");
    let back = Record::parse(text).expect("a record");
    assert_eq!(back.actions.len(), 120);
    remove_db(&db);
}
