//! Tournaments over HTTP: players sign up, join, and play the games the
//! scheduler starts for them from their own sessions; results come back
//! into the standings, rounds follow each other, and what is finished stays.

mod common;

use axum::http::StatusCode;
use common::{start, temp_db, test_registry, Browser, Server};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// Tournaments start an hour ahead; the tests then move the server's time
/// on, so that everyone has joined before the start whatever the machine.
const HOUR: i64 = 3_600_000;

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

async fn players<'a>(srv: &'a Server, prefix: &str, n: u8) -> Vec<Browser<'a>> {
    let mut out = Vec::new();
    for i in 0..n {
        let mut b = Browser::new(srv, i + 1);
        b.sign_up(&format!("{prefix}{i}")).await;
        out.push(b);
    }
    out
}

/// Wait until tournament `id` satisfies `done` (polling as a page does).
async fn wait_for(srv: &Server, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let what = format!("tournament {id}: {what}");
    common::poll(&what, Duration::from_millis(25), || async {
        let t = srv.get(&format!("/api/tournaments/{id}")).await;
        done(&t).then_some(t)
    })
    .await
}

/// Game `game`: published with its round, it is created just after.
async fn game_view(srv: &Server, game: &str) -> Value {
    let what = format!("game {game} created");
    common::poll(&what, Duration::from_millis(10), || async {
        let (status, v) = srv
            .call("GET", &format!("/api/games/{game}"), Value::Null)
            .await;
        if status != StatusCode::OK {
            assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
        }
        (status == StatusCode::OK).then_some(v)
    })
    .await
}

/// Play one move of game `game` if one of `browsers` is to move (by name);
/// whether the game is over.
async fn play_one(srv: &Server, browsers: &mut HashMap<String, Browser<'_>>, game: &str) -> bool {
    let s = game_view(srv, game).await;
    let st = &s["state"];
    if st["turn"]["kind"] == "over" {
        return true;
    }
    if st["turn"]["kind"] != "player" {
        return false;
    }
    let seat = st["turn"]["seat"].as_u64().expect("seat") as usize;
    let name = st["players"][seat]["name"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let Some(b) = browsers.get_mut(&name) else {
        return false; // an AI seat
    };
    let (status, v) = b
        .call(
            "POST",
            &format!("/api/games/{game}/move"),
            json!({"action": "run", "ply": st["ply"]}),
        )
        .await;
    // A stale ply (the dice rolled meanwhile) is simply tried again.
    assert!(
        status == StatusCode::OK || status == StatusCode::CONFLICT,
        "{name} in {game}: {v}"
    );
    false
}

async fn play_to_end(srv: &Server, browsers: &mut HashMap<String, Browser<'_>>, game: &str) {
    for _ in 0..500 {
        if play_one(srv, browsers, game).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    panic!("game {game} never ended");
}

/// Whether some player without a bye can sit out while the others pair
/// up without meeting again (brute force: fine for a handful of players).
fn fresh_bye_possible(all: &[String], met: &HashSet<Vec<String>>, byes: &HashSet<String>) -> bool {
    fn pairable(rest: &[String], met: &HashSet<Vec<String>>) -> bool {
        let Some((first, others)) = rest.split_first() else {
            return true;
        };
        others.iter().enumerate().any(|(i, o)| {
            let mut pair = vec![first.clone(), o.clone()];
            pair.sort();
            let mut left = others.to_vec();
            left.remove(i);
            !met.contains(&pair) && pairable(&left, met)
        })
    }
    all.iter().filter(|p| !byes.contains(*p)).any(|p| {
        let rest: Vec<String> = all.iter().filter(|q| *q != p).cloned().collect();
        pairable(&rest, met)
    })
}

/// `people[0]` creates the tournament `body` and everyone joins it; its id.
async fn create_and_join(people: &mut [Browser<'_>], body: Value) -> String {
    let created = people[0]
        .expect(StatusCode::OK, "POST", "/api/tournaments", body)
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    for b in people.iter_mut() {
        b.expect(
            StatusCode::OK,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Value::Null,
        )
        .await;
    }
    id
}

/// The players by name (`players` names them `<prefix><i>`).
fn named<'a>(people: Vec<Browser<'a>>, prefix: &str) -> HashMap<String, Browser<'a>> {
    people
        .into_iter()
        .enumerate()
        .map(|(i, b)| (format!("{prefix}{i}"), b))
        .collect()
}

fn names_of(game: &Value) -> Vec<String> {
    game["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|s| s["name"].as_str().map(String::from))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tavern_evening_of_nine_at_tables_of_three() {
    let srv = start(test_registry(), &temp_db("tourney-tables")).await;
    let mut people = players(&srv, "Bard", 9).await;
    let host = &mut people[0];
    // Checked before anything is stored.
    let base = json!({"name": "Tavern night", "spec": "race(players=3)", "format": "tables",
        "clock": {"initial_s": 120, "increment_s": 2}, "starts": now_ms() + HOUR, "rounds": 3});
    for (field, value) in [
        ("format", json!("swiss")),
        ("rounds", json!(0)),
        ("clock", json!({"days": 2})),
        ("points", json!([1, 3, 0])),
        ("leftover", json!({"ai": {"level": 12}})),
    ] {
        let mut bad = base.clone();
        bad[field] = value;
        host.expect(StatusCode::BAD_REQUEST, "POST", "/api/tournaments", bad)
            .await;
    }
    let mut anonymous = Browser::new(&srv, 99);
    anonymous
        .expect(
            StatusCode::UNAUTHORIZED,
            "POST",
            "/api/tournaments",
            base.clone(),
        )
        .await;
    let created = host
        .expect(StatusCode::OK, "POST", "/api/tournaments", base)
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let list = srv.get("/api/tournaments").await;
    assert_eq!(list["upcoming"][0]["id"], id.as_str());
    for b in people.iter_mut() {
        b.expect(
            StatusCode::OK,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Value::Null,
        )
        .await;
    }
    srv.app.advance_clock(HOUR);
    let mut by_name = named(people, "Bard");
    let mut met: HashSet<(String, String)> = HashSet::new();
    for round in 1..=3usize {
        let t = wait_for(&srv, &id, "paired", |t| {
            t["rounds"].as_array().map_or(0, Vec::len) == round
        })
        .await;
        assert_eq!(t["status"], "running");
        let games = t["rounds"][round - 1]["games"]
            .as_array()
            .expect("games")
            .clone();
        assert_eq!(games.len(), 3, "three tables of three");
        for g in &games {
            let names = names_of(g);
            assert_eq!(names.len(), 3);
            for a in 0..3 {
                for b in a + 1..3 {
                    let mut pair = [names[a].clone(), names[b].clone()];
                    pair.sort();
                    let [x, y] = pair;
                    assert!(met.insert((x.clone(), y.clone())), "{x} met {y} twice");
                }
            }
            // The game is bound to the players' accounts, with the clock.
            let gid = g["id"].as_str().expect("game id");
            let view = game_view(&srv, gid).await;
            assert_eq!(view["state"]["players"][0]["name"], names[0].as_str());
            assert!(view["state"]["clock"].is_object(), "{view}");
        }
        // Each player finds his game on the page.
        let mine = by_name.get_mut("Bard4").expect("Bard4");
        let seen = mine
            .expect(
                StatusCode::OK,
                "GET",
                &format!("/api/tournaments/{id}"),
                Value::Null,
            )
            .await;
        assert!(
            seen["joined"] == true && seen["my_game"].is_string(),
            "{seen}"
        );
        for g in &games {
            play_to_end(&srv, &mut by_name, g["id"].as_str().expect("id")).await;
        }
    }
    let t = wait_for(&srv, &id, "finished", |t| t["status"] == "finished").await;
    let standings = t["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 9);
    let total: f64 = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap_or(0.0))
        .sum();
    // Each table gives 3 to its winner and shares 1 + 0 between the others.
    assert!((total - 36.0).abs() < 1e-9, "{total}");
    assert!(standings.iter().all(|s| s["played"] == 3));
    assert_eq!(
        t["tiebreaks"],
        json!(["buchholz_cut1", "buchholz", "sonneborn_berger"])
    );
    let scores: Vec<f64> = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap_or(0.0))
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // Nobody had a rating: all seeded at 1500. Every table (no AI seat) was
    // rated, so everybody's rating moved three times.
    assert!(
        standings.iter().all(|s| s["rating"] == 1500),
        "{standings:?}"
    );
    assert_eq!(t["rated"], true);
    let pool = test_registry()
        .pool_of("race(players=3)", false)
        .expect("pool");
    for i in 0..9 {
        let mut rated = Value::Null;
        for _ in 0..200 {
            rated = srv.get(&format!("/api/players/Bard{i}")).await;
            if rated["ratings"][&pool]["games"] == 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(rated["ratings"][&pool]["games"], 3, "{rated}");
    }
    // Finished and kept: listed, its results unchanged, no more joining.
    let list = srv.get("/api/tournaments").await;
    assert_eq!(list["finished"][0]["id"], id.as_str());
    let again = srv.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(again["standings"], t["standings"]);
    let late = by_name.get_mut("Bard1").expect("Bard1");
    late.expect(
        StatusCode::CONFLICT,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        Value::Null,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_eight_pairs_free_players_until_its_end() {
    let srv = start(test_registry(), &temp_db("tourney-arena")).await;
    let mut people = players(&srv, "Knight", 8).await;
    let id = create_and_join(
        &mut people,
        json!({"name": "Blitz arena", "spec": "race", "format": "arena",
                "clock": {"initial_s": 600, "increment_s": 0}, "starts": now_ms() + HOUR,
                "minutes": 5}),
    )
    .await;
    // Knight7 leaves before the start: never paired.
    people[7]
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/tournaments/{id}/withdraw"),
            Value::Null,
        )
        .await;
    people[7]
        .expect(
            StatusCode::NOT_FOUND,
            "POST",
            &format!("/api/tournaments/{id}/withdraw"),
            Value::Null,
        )
        .await;
    people[7]
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Value::Null,
        )
        .await;
    srv.app.advance_clock(HOUR);
    // Knight6 leaves after the start: his games stay, he is not paired again.
    let t = wait_for(&srv, &id, "started", |t| t["status"] == "running").await;
    assert_eq!(t["rounds"][0]["games"].as_array().map(Vec::len), Some(4));
    people[6]
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/tournaments/{id}/withdraw"),
            Value::Null,
        )
        .await;
    let mut by_name = named(people, "Knight");
    // Scripted clients: each plays his current game, as long as there is one.
    let mut finished = 0;
    while finished < 16 {
        let t = srv.get(&format!("/api/tournaments/{id}")).await;
        let pending: Vec<String> = t["rounds"]
            .as_array()
            .expect("rounds")
            .iter()
            .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
            .filter(|g| g["places"].is_null())
            .filter_map(|g| g["id"].as_str().map(String::from))
            .collect();
        finished = t["rounds"]
            .as_array()
            .expect("rounds")
            .iter()
            .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
            .filter(|g| !g["places"].is_null())
            .count();
        for g in &pending {
            play_one(&srv, &mut by_name, g).await;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The end comes: no new pairings, the games in progress still count.
    srv.app.advance_clock(5 * 60_000);
    let t = wait_for(&srv, &id, "past its end", |t| {
        let games: Vec<&Value> = t["rounds"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|r| r["games"].as_array().into_iter().flatten())
            .collect();
        let pending: Vec<&Value> = games
            .iter()
            .copied()
            .filter(|g| g["places"].is_null())
            .collect();
        t["status"] == "finished" || !pending.is_empty()
    })
    .await;
    let last_round = t["rounds"].as_array().map_or(0, Vec::len);
    for r in t["rounds"].as_array().into_iter().flatten() {
        for g in r["games"].as_array().into_iter().flatten() {
            if g["places"].is_null() {
                play_to_end(&srv, &mut by_name, g["id"].as_str().expect("id")).await;
            }
        }
    }
    let t = wait_for(&srv, &id, "finished", |t| t["status"] == "finished").await;
    assert_eq!(
        t["rounds"].as_array().map_or(0, Vec::len),
        last_round,
        "paired after the end"
    );
    let rounds = t["rounds"].as_array().expect("rounds");
    let games: Vec<&Value> = rounds
        .iter()
        .flat_map(|r| r["games"].as_array().into_iter().flatten())
        .collect();
    assert!(
        games.iter().all(|g| !g["places"].is_null()),
        "every game counted"
    );
    // Knight6 played nothing after he left; nobody plays two games at once.
    let left_at = rounds
        .iter()
        .position(|r| r["started"].as_i64() > t["rounds"][0]["started"].as_i64())
        .unwrap_or(rounds.len());
    for r in &rounds[left_at..] {
        for g in r["games"].as_array().into_iter().flatten() {
            assert!(!names_of(g).contains(&"Knight6".to_string()), "{g}");
        }
    }
    let standings = t["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 8);
    let played: u64 = standings
        .iter()
        .map(|s| s["played"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(played as usize, 2 * games.len());
    let six = standings
        .iter()
        .find(|s| s["name"] == "Knight6")
        .expect("Knight6");
    assert_eq!(six["withdrawn"], true);
    assert_eq!(six["played"], 1);
    let scores: Vec<f64> = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap_or(0.0))
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // Each game gives 2 or 4 (on fire) to its winner: scores are even.
    assert!(scores.iter().all(|s| (s % 2.0).abs() < 1e-9), "{scores:?}");
    let list = srv.get("/api/tournaments").await;
    assert_eq!(list["finished"][0]["id"], id.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_five_gives_byes_and_never_repeats() {
    let srv = start(test_registry(), &temp_db("tourney-swiss")).await;
    let mut people = players(&srv, "Rook", 5).await;
    let id = create_and_join(
        &mut people,
        json!({"name": "Swiss", "spec": "race", "format": "swiss",
                "clock": {"initial_s": 300, "increment_s": 0}, "starts": now_ms() + HOUR,
                "rounds": 4}),
    )
    .await;
    srv.app.advance_clock(HOUR);
    let mut by_name = named(people, "Rook");
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    for round in 1..=4usize {
        let t = wait_for(&srv, &id, "paired", |t| {
            t["rounds"].as_array().map_or(0, Vec::len) == round
        })
        .await;
        let r = &t["rounds"][round - 1];
        let bye = r["byes"][0].as_str().expect("a bye with five").to_string();
        if !byes.insert(bye.clone()) {
            // FIDE's C.1 (no repeat) comes before C.2 (one bye each): a
            // second bye only when no fresh bye leaves a repeat-free round.
            let all: Vec<String> = by_name.keys().cloned().collect();
            assert!(
                !fresh_bye_possible(&all, &met, &byes),
                "{bye} had two byes though a fresh bye was possible"
            );
        }
        for g in r["games"].as_array().expect("games") {
            let mut names = names_of(g);
            names.sort();
            assert!(met.insert(names.clone()), "{names:?} met twice");
            play_to_end(&srv, &mut by_name, g["id"].as_str().expect("id")).await;
        }
    }
    let t = wait_for(&srv, &id, "finished", |t| t["status"] == "finished").await;
    let standings = t["standings"].as_array().expect("standings");
    let total: f64 = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap_or(0.0))
        .sum();
    // Two games and a bye worth a point in each of four rounds.
    assert!((total - 12.0).abs() < 1e-9, "{total}");
    assert!(standings
        .iter()
        .all(|s| s["tiebreaks"].as_array().map(Vec::len) == Some(3)));
}

/// Two instances on one database both run the scheduler: each round is
/// paired once and its games created once, whichever instance acts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_pair_each_round_once() {
    let db = common::address(&temp_db("tourney-two")).await;
    let a = common::start_at(test_registry(), &db, Default::default()).await;
    let b = common::start_at(test_registry(), &db, Default::default()).await;
    let mut people = players(&a, "Pawn", 4).await;
    let id = create_and_join(
        &mut people,
        json!({"name": "Twin", "spec": "race", "format": "swiss",
                "clock": {"initial_s": 300, "increment_s": 0}, "starts": now_ms() + HOUR,
                "rounds": 2}),
    )
    .await;
    a.app.advance_clock(HOUR);
    b.app.advance_clock(HOUR);
    let mut by_name = named(people, "Pawn");
    for round in 1..=2usize {
        let t = wait_for(&b, &id, "paired", |t| {
            t["rounds"].as_array().map_or(0, Vec::len) == round
        })
        .await;
        // Both schedulers act on this round at once: it is paired once.
        tokio::join!(a.app.tournaments.tick(), b.app.tournaments.tick());
        let again = b.get(&format!("/api/tournaments/{id}")).await;
        assert_eq!(again["rounds"], t["rounds"], "paired twice");
        for g in t["rounds"][round - 1]["games"].as_array().expect("games") {
            play_to_end(&a, &mut by_name, g["id"].as_str().expect("id")).await;
        }
    }
    let t = wait_for(&a, &id, "finished", |t| t["status"] == "finished").await;
    assert_eq!(t["rounds"].as_array().map(Vec::len), Some(2));
    let games = a.get("/api/games").await;
    assert_eq!(games.as_array().map(Vec::len), Some(4), "{games}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_creates_five_tournaments_an_hour() {
    let srv = start(test_registry(), &temp_db("tourney-limit")).await;
    let mut people = players(&srv, "Host", 1).await;
    let body = json!({"name": "Many", "spec": "race", "format": "swiss",
        "clock": {"initial_s": 300, "increment_s": 0}, "starts": now_ms() + HOUR, "rounds": 1});
    // A refused request does not count.
    let mut bad = body.clone();
    bad["rounds"] = json!(0);
    people[0]
        .expect(StatusCode::BAD_REQUEST, "POST", "/api/tournaments", bad)
        .await;
    for _ in 0..5 {
        people[0]
            .expect(StatusCode::OK, "POST", "/api/tournaments", body.clone())
            .await;
    }
    let (status, v) = people[0].call("POST", "/api/tournaments", body).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let list = srv.get("/api/tournaments").await;
    assert_eq!(list["upcoming"].as_array().map(Vec::len), Some(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_a_table_ranks_last_in_ratings_and_points() {
    let srv = start(test_registry(), &temp_db("tourney-leaver")).await;
    let mut people = players(&srv, "Quit", 3).await;
    let id = create_and_join(
        &mut people,
        json!({"name": "Short night", "spec": "race(players=3)", "format": "tables",
                "clock": {"initial_s": 600, "increment_s": 0}, "starts": now_ms() + HOUR,
                "rounds": 1}),
    )
    .await;
    srv.app.advance_clock(HOUR);
    let t = wait_for(&srv, &id, "started", |t| {
        t["rounds"][0]["games"][0]["id"].is_string()
    })
    .await;
    let table = &t["rounds"][0]["games"][0];
    let game = table["id"].as_str().expect("game").to_string();
    let leaver = names_of(table)[0].clone();
    let mut by_name = named(people, "Quit");
    game_view(&srv, &game).await;
    by_name
        .get_mut(&leaver)
        .expect("the leaver")
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/games/{game}/leave"),
            Value::Null,
        )
        .await;
    // The AI stand-in plays on without a clock.
    let s = game_view(&srv, &game).await;
    assert_eq!(s["state"]["players"][0]["kind"], "ai");
    assert_eq!(s["state"]["clock"]["remaining_ms"][0], Value::Null, "{s}");
    play_to_end(&srv, &mut by_name, &game).await;
    let t = wait_for(&srv, &id, "finished", |t| t["status"] == "finished").await;
    // Whoever the stand-in's moves beat, the leaver scores the last place's
    // points and ranks below both others.
    let score = |name: &str| {
        t["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["score"].as_f64().expect("score"))
            .expect("standing")
    };
    assert_eq!(score(&leaver), 0.0, "{t}");
    let pool = test_registry()
        .pool_of("race(players=3)", false)
        .expect("pool");
    let mut ratings = HashMap::new();
    for name in by_name.keys() {
        let mut p = Value::Null;
        for _ in 0..200 {
            p = srv.get(&format!("/api/players/{name}")).await;
            if p["ratings"][&pool]["games"] == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let rating = p["ratings"][&pool]["rating"].as_i64();
        ratings.insert(
            name.clone(),
            rating.unwrap_or_else(|| panic!("{name}: {p}")),
        );
        assert!(score(name) > 0.0 || *name == leaver, "{t}");
    }
    for (name, r) in &ratings {
        if *name != leaver {
            assert!(ratings[&leaver] < *r, "{ratings:?}");
        }
    }
}

/// A wave is stored before its games are: until a player's game exists,
/// the tournament does not name it as theirs (bots polling it got 404s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_not_created_yet_is_not_named_as_a_players_game() {
    // On SQLite whatever TABULA_TEST_STORE says: the test edits the file.
    let db = temp_db("tourney-not-yet");
    let config = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    let srv = common::start_at(test_registry(), &db.to_string_lossy(), config).await;
    let mut people = players(&srv, "Early", 2).await;
    let id = create_and_join(
        &mut people,
        json!({"name": "Early", "spec": "race", "format": "swiss",
                "clock": {"initial_s": 300, "increment_s": 0}, "starts": now_ms() + HOUR,
                "rounds": 1}),
    )
    .await;
    srv.app.advance_clock(HOUR);
    wait_for(&srv, &id, "paired", |t| {
        t["rounds"].as_array().map_or(0, Vec::len) == 1
    })
    .await;
    // Her game is named once it exists, a moment after the pairing.
    let until = std::time::Instant::now() + common::POLL_LIMIT;
    let game = loop {
        let mine = people[0]
            .expect(
                StatusCode::OK,
                "GET",
                &format!("/api/tournaments/{id}"),
                Value::Null,
            )
            .await;
        if let Some(game) = mine["my_game"].as_str() {
            break game.to_string();
        }
        assert!(std::time::Instant::now() < until, "her game: {mine}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    game_view(&srv, &game).await;
    // The moment between the wave's write and its games': the wave names
    // a game the store does not have yet.
    let missing = "notcreatedyet";
    let sql = rusqlite::Connection::open(&db).expect("open");
    let changed = sql
        .execute(
            "UPDATE docs SET body = replace(body, ?1, ?2) WHERE kind = 'tournament' AND id = ?3",
            (&game, missing, &id),
        )
        .expect("update");
    assert_eq!(changed, 1);
    let (status, _) = srv
        .call("GET", &format!("/api/games/{missing}"), Value::Null)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let mine = people[0]
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/tournaments/{id}"),
            Value::Null,
        )
        .await;
    assert_eq!(mine["my_game"], Value::Null, "{mine}");
}
