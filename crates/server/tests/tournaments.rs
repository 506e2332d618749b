//! Tournaments over HTTP: players sign up, join, and play the games the
//! scheduler starts for them from their own sessions; results come back
//! into the standings, rounds follow each other, and what is finished stays.

mod common;

use axum::http::StatusCode;
use common::{
    api, poll, realtime, start, status_of, temp_db, test_registry, Browser, Client, Server,
    ViewExt, Waiting,
};
use pairing::standings::TieBreak;
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tabula_server::protocol::{
    GameView, NewTournament, SeatKind, StartTime, TournamentFormat, TournamentGame,
    TournamentStatus, TournamentView,
};

/// Tournaments start an hour ahead; the tests then move the server's time
/// on, so that everyone has joined before the start whatever the machine.
const HOUR: i64 = 3_600_000;

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A tournament `name` of `spec` in `format`, an hour from now, with
/// `initial_s` seconds a player and `rounds` (or, with `None`, `minutes`
/// of arena).
fn tournament(
    name: &str,
    spec: &str,
    format: TournamentFormat,
    initial_s: u32,
    rounds: Option<u32>,
) -> NewTournament {
    NewTournament {
        name: name.to_string(),
        spec: spec.to_string(),
        format,
        clock: realtime(initial_s, 0),
        starts: StartTime::At(now_ms() + HOUR),
        rounds,
        minutes: None,
        leftover: None,
        points: None,
        rated: true,
        bots: false,
    }
}

async fn players<'a>(srv: &'a Server, prefix: &str, n: u8) -> Vec<Browser<'a>> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(Browser::signed_up(srv, i + 1, &format!("{prefix}{i}")).await);
    }
    out
}

/// Wait until tournament `id` satisfies `done` (polling as a page does).
async fn wait_for(
    srv: &Server,
    id: &str,
    what: &str,
    done: impl Fn(&TournamentView) -> bool,
) -> TournamentView {
    let what = format!("tournament {id}: {what}");
    poll(&what, Duration::from_millis(25), || async {
        let t = srv.send(api::tournament(id)).await;
        done(&t).then_some(t)
    })
    .await
}

/// Game `game`: published with its round, it is created just after.
async fn game_view(srv: &Server, game: &str) -> GameView {
    let what = format!("game {game} created");
    poll(&what, Duration::from_millis(10), || async {
        match srv.attempt(api::game(game)).await {
            Ok(view) => Some(view),
            Err(r) => {
                assert_eq!(r.status, StatusCode::NOT_FOUND, "{r}");
                None
            }
        }
    })
    .await
}

/// Play one move of game `game` if one of `browsers` is to move (by name);
/// whether the game is over.
async fn play_one(srv: &Server, browsers: &mut HashMap<String, Browser<'_>>, game: &str) -> bool {
    let s = game_view(srv, game).await;
    if s.over() {
        return true;
    }
    let Some(seat) = s.to_move() else {
        return false;
    };
    let name = &s.player(seat).name;
    let Some(b) = browsers.get_mut(name) else {
        return false; // an AI seat
    };
    let answer = b.attempt(api::play(game, "", "run", s.state.ply)).await;
    // A stale ply (the dice rolled meanwhile) is simply tried again.
    assert!(
        [StatusCode::OK, StatusCode::CONFLICT].contains(&status_of(&answer)),
        "{name} in {game}: {answer:?}"
    );
    false
}

async fn play_to_end(srv: &Server, browsers: &mut HashMap<String, Browser<'_>>, game: &str) {
    let what = format!("game {game} to end");
    let mut waiting = Waiting::new(&what, Duration::from_millis(2));
    while !play_one(srv, browsers, game).await {
        waiting.tick().await;
    }
}

/// Wait until player `name` has `games` rated games in `pool`; the rating.
async fn rated(srv: &Server, name: &str, pool: &str, games: u32) -> i32 {
    let what = format!("{name}'s {games} rated games");
    poll(&what, Duration::from_millis(10), || async {
        let p = srv.send(api::profile(name)).await;
        let r = p.ratings.get(pool).filter(|r| r.games == games)?;
        Some(r.rating)
    })
    .await
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

/// `people[0]` creates the tournament `t` and everyone joins it; its id.
async fn create_and_join(people: &mut [Browser<'_>], t: &NewTournament) -> String {
    let id = people[0].send(api::new_tournament(t)).await.id;
    for b in people.iter_mut() {
        b.send(api::enter(&id)).await;
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

fn names_of(game: &TournamentGame) -> Vec<String> {
    game.seats.iter().filter_map(|s| s.name.clone()).collect()
}

/// Every game of every round of `t`.
fn games_of(t: &TournamentView) -> impl Iterator<Item = &TournamentGame> {
    t.rounds.iter().flat_map(|r| &r.games)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tavern_evening_of_nine_at_tables_of_three() {
    let srv = start(test_registry(), &temp_db("tourney-tables")).await;
    let mut people = players(&srv, "Bard", 9).await;
    let host = &mut people[0];
    let base = NewTournament {
        clock: realtime(120, 2),
        ..tournament(
            "Tavern night",
            "race(players=3)",
            TournamentFormat::Tables,
            120,
            Some(3),
        )
    };
    // Checked before anything is stored (some not even a `NewTournament`:
    // sent as JSON).
    for (field, value) in [
        ("format", json!("swiss")),
        ("rounds", json!(0)),
        ("clock", json!({"days": 2})),
        ("points", json!([1, 3, 0])),
        ("leftover", json!({"ai": {"level": 12}})),
    ] {
        let mut bad = serde_json::to_value(&base).expect("json");
        bad[field] = value;
        let call =
            common::Call::<tabula_server::protocol::TournamentId>::post("/api/tournaments", &bad);
        assert_eq!(
            host.refusal(call).await.status,
            StatusCode::BAD_REQUEST,
            "{field}"
        );
    }
    let mut anonymous = Browser::new(&srv, 99);
    let refused = anonymous.refusal(api::new_tournament(&base)).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let id = host.send(api::new_tournament(&base)).await.id;
    let list = srv.send(api::tournaments()).await;
    assert_eq!(list.upcoming[0].id, id);
    for b in people.iter_mut() {
        b.send(api::enter(&id)).await;
    }
    srv.app.advance_clock(HOUR);
    let mut by_name = named(people, "Bard");
    let mut met: HashSet<(String, String)> = HashSet::new();
    for round in 1..=3usize {
        let t = wait_for(&srv, &id, "paired", |t| t.rounds.len() == round).await;
        assert_eq!(t.summary.status, TournamentStatus::Running);
        let games = &t.rounds[round - 1].games;
        assert_eq!(games.len(), 3, "three tables of three");
        for g in games {
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
            let view = game_view(&srv, &g.id).await;
            assert_eq!(view.player(0).name, names[0]);
            assert!(view.state.clock.is_some(), "{view:?}");
        }
        // Each player finds his game on the page.
        let mine = by_name.get_mut("Bard4").expect("Bard4");
        let seen = mine.send(api::tournament(&id)).await;
        assert!(seen.joined && seen.my_game.is_some(), "{seen:?}");
        for g in games {
            play_to_end(&srv, &mut by_name, &g.id).await;
        }
    }
    let t = wait_for(&srv, &id, "finished", |t| {
        t.summary.status == TournamentStatus::Finished
    })
    .await;
    let standings = &t.standings;
    assert_eq!(standings.len(), 9);
    let total: f64 = standings.iter().map(|s| s.score).sum();
    // Each table gives 3 to its winner and shares 1 + 0 between the others.
    assert!((total - 36.0).abs() < 1e-9, "{total}");
    assert!(standings.iter().all(|s| s.played == 3));
    assert_eq!(
        t.tiebreaks,
        [
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger
        ]
    );
    let scores: Vec<f64> = standings.iter().map(|s| s.score).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // Nobody had a rating: all seeded at 1500. Every table (no AI seat) was
    // rated, so everybody's rating moved three times.
    assert!(standings.iter().all(|s| s.rating == 1500), "{standings:?}");
    assert!(t.summary.rated);
    let pool = test_registry()
        .pool_of("race(players=3)", false)
        .expect("pool");
    for i in 0..9 {
        rated(&srv, &format!("Bard{i}"), &pool, 3).await;
    }
    // Finished and kept: listed, its results unchanged, no more joining.
    let list = srv.send(api::tournaments()).await;
    assert_eq!(list.finished[0].id, id);
    let again = srv.send(api::tournament(&id)).await;
    assert_eq!(again.standings, t.standings);
    let late = by_name.get_mut("Bard1").expect("Bard1");
    assert_eq!(
        late.refusal(api::enter(&id)).await.status,
        StatusCode::CONFLICT
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_eight_pairs_free_players_until_its_end() {
    let srv = start(test_registry(), &temp_db("tourney-arena")).await;
    let mut people = players(&srv, "Knight", 8).await;
    let arena = NewTournament {
        minutes: Some(5),
        ..tournament("Blitz arena", "race", TournamentFormat::Arena, 600, None)
    };
    let id = create_and_join(&mut people, &arena).await;
    // Knight7 leaves before the start: never paired.
    people[7].send(api::withdraw(&id)).await;
    let refused = people[7].refusal(api::withdraw(&id)).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    people[7].send(api::enter(&id)).await;
    srv.app.advance_clock(HOUR);
    // Knight6 leaves after the start: his games stay, he is not paired again.
    let t = wait_for(&srv, &id, "started", |t| {
        t.summary.status == TournamentStatus::Running
    })
    .await;
    assert_eq!(t.rounds[0].games.len(), 4);
    people[6].send(api::withdraw(&id)).await;
    let mut by_name = named(people, "Knight");
    // Scripted clients: each plays his current game, as long as there is one.
    let mut waiting = Waiting::new("16 games played", Duration::from_millis(5));
    loop {
        let t = srv.send(api::tournament(&id)).await;
        let (done, pending): (Vec<_>, Vec<_>) = games_of(&t).partition(|g| g.places.is_some());
        for g in pending {
            play_one(&srv, &mut by_name, &g.id).await;
        }
        if done.len() >= 16 {
            break;
        }
        waiting.tick().await;
    }
    // The end comes: no new pairings, the games in progress still count.
    srv.app.advance_clock(5 * 60_000);
    let t = wait_for(&srv, &id, "past its end", |t| {
        t.summary.status == TournamentStatus::Finished || games_of(t).any(|g| g.places.is_none())
    })
    .await;
    let last_round = t.rounds.len();
    for g in games_of(&t).filter(|g| g.places.is_none()) {
        play_to_end(&srv, &mut by_name, &g.id).await;
    }
    let t = wait_for(&srv, &id, "finished", |t| {
        t.summary.status == TournamentStatus::Finished
    })
    .await;
    assert_eq!(t.rounds.len(), last_round, "paired after the end");
    let games: Vec<&TournamentGame> = games_of(&t).collect();
    assert!(
        games.iter().all(|g| g.places.is_some()),
        "every game counted"
    );
    // Knight6 played nothing after he left; nobody plays two games at once.
    let rounds = &t.rounds;
    let left_at = rounds
        .iter()
        .position(|r| r.started > rounds[0].started)
        .unwrap_or(rounds.len());
    for r in &rounds[left_at..] {
        for g in &r.games {
            assert!(!names_of(g).contains(&"Knight6".to_string()), "{g:?}");
        }
    }
    let standings = &t.standings;
    assert_eq!(standings.len(), 8);
    let played: u32 = standings.iter().map(|s| s.played).sum();
    assert_eq!(played as usize, 2 * games.len());
    let six = standings
        .iter()
        .find(|s| s.name == "Knight6")
        .expect("Knight6");
    assert!(six.withdrawn);
    assert_eq!(six.played, 1);
    let scores: Vec<f64> = standings.iter().map(|s| s.score).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    // Each game gives 2 or 4 (on fire) to its winner: scores are even.
    assert!(scores.iter().all(|s| (s % 2.0).abs() < 1e-9), "{scores:?}");
    let list = srv.send(api::tournaments()).await;
    assert_eq!(list.finished[0].id, id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_five_gives_byes_and_never_repeats() {
    let srv = start(test_registry(), &temp_db("tourney-swiss")).await;
    let mut people = players(&srv, "Rook", 5).await;
    let swiss = tournament("Swiss", "race", TournamentFormat::Swiss, 300, Some(4));
    let id = create_and_join(&mut people, &swiss).await;
    srv.app.advance_clock(HOUR);
    let mut by_name = named(people, "Rook");
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    for round in 1..=4usize {
        let t = wait_for(&srv, &id, "paired", |t| t.rounds.len() == round).await;
        let r = &t.rounds[round - 1];
        let bye = r.byes.first().expect("a bye with five").clone();
        if !byes.insert(bye.clone()) {
            // FIDE's C.1 (no repeat) comes before C.2 (one bye each): a
            // second bye only when no fresh bye leaves a repeat-free round.
            let all: Vec<String> = by_name.keys().cloned().collect();
            assert!(
                !fresh_bye_possible(&all, &met, &byes),
                "{bye} had two byes though a fresh bye was possible"
            );
        }
        for g in &r.games {
            let mut names = names_of(g);
            names.sort();
            assert!(met.insert(names.clone()), "{names:?} met twice");
            play_to_end(&srv, &mut by_name, &g.id).await;
        }
    }
    let t = wait_for(&srv, &id, "finished", |t| {
        t.summary.status == TournamentStatus::Finished
    })
    .await;
    let total: f64 = t.standings.iter().map(|s| s.score).sum();
    // Two games and a bye worth a point in each of four rounds.
    assert!((total - 12.0).abs() < 1e-9, "{total}");
    assert!(t.standings.iter().all(|s| s.tiebreaks.len() == 3));
}

/// Two instances on one database both run the scheduler: each round is
/// paired once and its games created once, whichever instance acts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_pair_each_round_once() {
    let db = common::address(&temp_db("tourney-two")).await;
    let a = common::start_at(test_registry(), &db, Default::default()).await;
    let b = common::start_at(test_registry(), &db, Default::default()).await;
    let mut people = players(&a, "Pawn", 4).await;
    let twin = tournament("Twin", "race", TournamentFormat::Swiss, 300, Some(2));
    let id = create_and_join(&mut people, &twin).await;
    a.app.advance_clock(HOUR);
    b.app.advance_clock(HOUR);
    let mut by_name = named(people, "Pawn");
    for round in 1..=2usize {
        let t = wait_for(&b, &id, "paired", |t| t.rounds.len() == round).await;
        // Both schedulers act on this round at once: it is paired once.
        tokio::join!(a.app.tournaments.tick(), b.app.tournaments.tick());
        let again = b.send(api::tournament(&id)).await;
        assert_eq!(again.rounds, t.rounds, "paired twice");
        for g in &t.rounds[round - 1].games {
            play_to_end(&a, &mut by_name, &g.id).await;
        }
    }
    let t = wait_for(&a, &id, "finished", |t| {
        t.summary.status == TournamentStatus::Finished
    })
    .await;
    assert_eq!(t.rounds.len(), 2);
    let games = a.send(api::games()).await;
    assert_eq!(games.len(), 4, "{games:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_creates_five_tournaments_an_hour() {
    let srv = start(test_registry(), &temp_db("tourney-limit")).await;
    let mut people = players(&srv, "Host", 1).await;
    let many = tournament("Many", "race", TournamentFormat::Swiss, 300, Some(1));
    // A refused request does not count.
    let bad = NewTournament {
        rounds: Some(0),
        ..many.clone()
    };
    let refused = people[0].refusal(api::new_tournament(&bad)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    for _ in 0..5 {
        people[0].send(api::new_tournament(&many)).await;
    }
    let refused = people[0].refusal(api::new_tournament(&many)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    let list = srv.send(api::tournaments()).await;
    assert_eq!(list.upcoming.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_a_table_ranks_last_in_ratings_and_points() {
    let srv = start(test_registry(), &temp_db("tourney-leaver")).await;
    let mut people = players(&srv, "Quit", 3).await;
    let night = tournament(
        "Short night",
        "race(players=3)",
        TournamentFormat::Tables,
        600,
        Some(1),
    );
    let id = create_and_join(&mut people, &night).await;
    srv.app.advance_clock(HOUR);
    let t = wait_for(&srv, &id, "started", |t| {
        t.rounds.first().is_some_and(|r| !r.games.is_empty())
    })
    .await;
    let table = &t.rounds[0].games[0];
    let game = table.id.clone();
    let leaver = names_of(table)[0].clone();
    let mut by_name = named(people, "Quit");
    game_view(&srv, &game).await;
    let b = by_name.get_mut(&leaver).expect("the leaver");
    b.send(api::leave(&game, "")).await;
    // The AI stand-in plays on without a clock.
    let s = game_view(&srv, &game).await;
    assert_eq!(s.player(0).kind, SeatKind::Ai);
    let left = s.state.clock.as_ref().and_then(|c| c.remaining_ms[0]);
    assert_eq!(left, None, "{s:?}");
    play_to_end(&srv, &mut by_name, &game).await;
    let t = wait_for(&srv, &id, "finished", |t| {
        t.summary.status == TournamentStatus::Finished
    })
    .await;
    // Whoever the stand-in's moves beat, the leaver scores the last place's
    // points and ranks below both others.
    let score = |name: &str| {
        let s = t.standings.iter().find(|s| s.name == name);
        s.expect("standing").score
    };
    assert_eq!(score(&leaver), 0.0, "{t:?}");
    let pool = test_registry()
        .pool_of("race(players=3)", false)
        .expect("pool");
    let mut ratings = HashMap::new();
    for name in by_name.keys() {
        ratings.insert(name.clone(), rated(&srv, name, &pool, 1).await);
        assert!(score(name) > 0.0 || *name == leaver, "{t:?}");
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
    let early = tournament("Early", "race", TournamentFormat::Swiss, 300, Some(1));
    let id = create_and_join(&mut people, &early).await;
    srv.app.advance_clock(HOUR);
    wait_for(&srv, &id, "paired", |t| t.rounds.len() == 1).await;
    // Her game is named once it exists, a moment after the pairing.
    let mut waiting = Waiting::new("her game", Duration::from_millis(10));
    let game = loop {
        if let Some(game) = people[0].send(api::tournament(&id)).await.my_game {
            break game;
        }
        waiting.tick().await;
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
    let refused = srv.refusal(api::game(missing)).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    let mine = people[0].send(api::tournament(&id)).await;
    assert_eq!(mine.my_game, None, "{mine:?}");
}
