//! Clocks through the API, with the server's time moved forward by the
//! test (no sleeping through the time controls): the flag falls with
//! nobody connected, first moves that never come abort the game, a player
//! whose opponent went away claims the game, and a correspondence game
//! lives through a restart and a week of turns.

mod common;

use axum::http::StatusCode;
use common::{
    ai, api, days, human, invite, met, realtime, remove_db, seated, seek, start_with, temp_db,
    test_registry, Browser, Client, Live, Server, ViewExt,
};
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_server::protocol::{ClaimRequest, GameView, NewGame, NewSeek, ServerMessage};
use tabula_server::round::EndReason;

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

/// A game of `spec` under `clock`, its dice seeded by `seed`.
fn timed(spec: &str, seed: Option<u64>, clock: tabula_clock::TimeControl) -> NewGame {
    NewGame {
        seed,
        clock: Some(clock),
        ..NewGame::new(spec)
    }
}

/// Play the first legal action of the seat to move (by its token).
async fn play_first(srv: &Server, id: &str, tokens: &[String]) {
    let s = srv.view(id).await;
    let seat = s.to_move().expect("a seat to move");
    srv.send(api::play(id, &tokens[seat], &s.state.legal[0], None))
        .await;
}

/// Play whole turns (every action of the seat to move).
async fn play_turn(srv: &Server, id: &str, tokens: &[String]) {
    let seat = srv.view(id).await.to_move();
    loop {
        play_first(srv, id, tokens).await;
        let s = srv.view(id).await;
        if s.to_move() != seat || s.state.result.is_some() {
            return;
        }
    }
}

/// Run the clock sweep now (the test's own sweeps never come by
/// themselves: see `quick`) and wait for game `id` to end, as the
/// finisher announces it.
async fn over(srv: &Server, id: &str) -> GameView {
    let mut ends = srv.app.rounds.finisher.subscribe();
    let s = srv.view(id).await;
    if s.state.result.is_some() {
        return s;
    }
    srv.app.rounds.wake_due_games().await.expect("sweep");
    let ended = async { while ends.recv().await.expect("finisher").id != id {} };
    tokio::time::timeout(Duration::from_secs(30), ended)
        .await
        .unwrap_or_else(|_| panic!("game {id} never ended"));
    srv.view(id).await
}

/// Run the clock sweep now and check that game `id` goes on: the sweep has
/// woken every game whose time is up, and each has answered a view since.
async fn still_on(srv: &Server, id: &str) -> GameView {
    srv.app.rounds.wake_due_games().await.expect("sweep");
    let s = srv.view(id).await;
    assert_eq!(s.state.result, None, "{s:?}");
    s
}

#[tokio::test]
async fn the_flag_falls_with_nobody_connected() {
    let db = temp_db("flag");
    let srv = start_with(test_registry(), &db, quick()).await;
    let (id, t) = srv.open(&timed("race", Some(3), realtime(60, 0))).await;
    let s = srv.view(&id).await;
    assert_eq!(s.clock().control, realtime(60, 0));
    assert_eq!(s.clock().remaining_ms, [Some(60000), Some(60000)]);
    // First turns are free; then seat 0's clock runs.
    play_first(&srv, &id, &t).await;
    play_first(&srv, &id, &t).await;
    assert_eq!(srv.view(&id).await.clock().running, Some(0));
    srv.app.advance_clock(59_000);
    let s = srv.view(&id).await;
    let left = s.clock().remaining_ms[0].expect("ms");
    assert!((900..=1000).contains(&left), "{left}");
    srv.app.advance_clock(1_001);
    // Nobody watches, the game is not even in memory: the sweep ends it.
    let s = over(&srv, &id).await;
    assert_eq!(s.result().reason, EndReason::Time);
    assert_eq!(s.result().winners, [1]);
    // A move after the flag changes nothing.
    let refused = srv.refusal(api::play(&id, &t[0], "run", None)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_game_whose_first_move_never_comes_is_aborted() {
    let db = temp_db("abort");
    let srv = start_with(test_registry(), &db, quick()).await;
    let (id, _) = srv.open(&timed("race", None, realtime(180, 2))).await;
    let s = srv.view(&id).await;
    assert!(s.clock().first_move_by.is_some(), "{s:?}");
    srv.app.advance_clock(30_000);
    let s = over(&srv, &id).await;
    assert_eq!(s.result().reason, EndReason::Aborted);
    let record = srv.send(api::record(&id)).await;
    assert!(record.contains("end: aborted"), "{record}");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_player_whose_opponent_went_away_claims_the_game() {
    let db = temp_db("claim");
    let srv = start_with(test_registry(), &db, quick()).await;
    let mut ann = Browser::guest_at(&srv, 1).await;
    let (id, _) = ann.open(&seated("race", vec![human(), invite()])).await;
    let claim = || api::claim(&id, &ClaimRequest::default());
    // Ann keeps the game open (a live channel); her friend never came.
    let cookie = ann.cookie.clone().expect("cookie");
    let mut ws = common::live(&srv, &cookie, &format!("/api/games/{id}/ws")).await;
    match ws.message().await {
        ServerMessage::Snapshot(snap) => assert_eq!(snap.you, [0]),
        other => panic!("not a snapshot: {other:?}"),
    }
    let refused = ann.refusal(claim()).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.error.contains("nothing to claim"), "{refused}");
    srv.app.advance_clock(120_000);
    ann.send(claim()).await;
    let s = srv.view(&id).await;
    assert_eq!(s.result().reason, EndReason::Abandoned);
    assert_eq!(s.result().winners, [0]);
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
    let (id, t) = srv.open(&timed("phylde", Some(9), days(2))).await;
    let mut srv = srv;
    for turn in 0..14 {
        if turn == 7 {
            // The server restarts; its clock is the same wall time.
            drop(srv);
            srv = start_with(tabula_games::registry(), &db, quick()).await;
            srv.app.advance_clock(sim);
        }
        if srv.view(&id).await.state.result.is_some() {
            break;
        }
        srv.app.advance_clock(day / 2);
        sim += day / 2;
        play_turn(&srv, &id, &t).await;
        let s = srv.view(&id).await;
        if s.state.result.is_some() {
            break;
        }
        let seat = s.to_move().expect("seat");
        // The full two days again (less the real milliseconds since the move).
        let left = s.clock().remaining_ms[seat].expect("ms") as i64;
        assert!(
            (2 * day - 1000..=2 * day).contains(&left),
            "turn {turn}: {left}"
        );
    }
    assert_eq!(sim, 7 * day, "a week of turns");
    if srv.view(&id).await.state.result.is_none() {
        // Two days of silence: the flag falls.
        srv.app.advance_clock(2 * day);
        let s = over(&srv, &id).await;
        assert_eq!(s.result().reason, EndReason::Time);
    }
    drop(srv);
    remove_db(&db);
}

/// As browser `b`, play the first legal action of game `id`; the game after.
async fn play_as(b: &mut Browser<'_>, id: &str) -> GameView {
    let s = b.send(api::game(id)).await;
    b.send(api::play(id, "", &s.state.legal[0], None)).await;
    b.send(api::game(id)).await
}

/// A seek of `spec` under `clock`.
fn timed_seek(spec: &str, clock: tabula_clock::TimeControl) -> NewSeek {
    NewSeek {
        clock: Some(clock),
        ..seek(spec)
    }
}

#[tokio::test]
async fn a_3_2_dragonchess_game_between_two_browsers_ends_on_time() {
    let db = temp_db("blitz");
    let srv = start_with(tabula_games::registry(), &db, quick()).await;
    let clock = realtime(180, 2);
    let (mut ann, mut bob, id) = met(&srv, &timed_seek("dragonchess", clock)).await;
    let s = ann.send(api::game(&id)).await;
    assert_eq!(s.clock().control, clock);
    assert_eq!(s.to_move(), Some(0));
    // First moves are free; then Ann thinks 10 s and earns 2.
    play_as(&mut ann, &id).await;
    play_as(&mut bob, &id).await;
    srv.app.advance_clock(10_000);
    let s = play_as(&mut ann, &id).await;
    let left = s.clock().remaining_ms[0].expect("ms");
    assert!((171_000..=172_000).contains(&left), "{left}");
    assert_eq!(s.clock().running, Some(1));
    // Bob stops moving; nobody watches: his three minutes run out.
    srv.app.advance_clock(180_000);
    let s = over(&srv, &id).await;
    assert_eq!(s.result().reason, EndReason::Time);
    assert_eq!(s.result().winners, [0]);
    let refused = bob.refusal(api::play(&id, "", "a1", None)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    for (name, win) in [("ann", 1), ("bob", 0)] {
        let p = ann.send(api::profile(name)).await;
        assert_eq!(p.finished[0].id, id, "{p:?}");
        assert_eq!(p.record["dragonchess"].win, win, "{p:?}");
    }
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_rated_game_whose_second_side_never_moves_is_aborted_unrated() {
    let db = temp_db("abort2");
    let srv = start_with(test_registry(), &db, quick()).await;
    let rated = NewSeek {
        rated: true,
        ..timed_seek("race", realtime(60, 0))
    };
    let (mut ann, _bob, id) = met(&srv, &rated).await;
    let s = play_as(&mut ann, &id).await;
    assert_eq!(s.to_move(), Some(1), "{s:?}");
    // Bob's first move has its own 30 s: at 29 s a sweep leaves it be.
    srv.app.advance_clock(29_000);
    still_on(&srv, &id).await;
    srv.app.advance_clock(1_001);
    let s = over(&srv, &id).await;
    assert_eq!(s.result().reason, EndReason::Aborted);
    for name in ["ann", "bob"] {
        let p = ann.send(api::profile(name)).await;
        assert!(p.record.is_empty(), "not counted: {p:?}");
        assert!(p.ratings.is_empty(), "not rated: {p:?}");
    }
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_correspondence_player_silent_for_the_days_lets_the_other_claim_a_draw() {
    let db = temp_db("corrclaim");
    let hour = 3_600_000i64;
    let srv = start_with(test_registry(), &db, quick()).await;
    let mut ann = Browser::guest_at(&srv, 1).await;
    let game = NewGame {
        seats: vec![human(), invite()],
        ..timed("race", Some(2), days(1))
    };
    let (id, tokens) = ann.open(&game).await;
    let draw = || {
        let claim = ClaimRequest {
            draw: true,
            ..Default::default()
        };
        api::claim(&id, &claim)
    };
    let cookie = ann.cookie.clone().expect("cookie");
    let _ws = common::live(&srv, &cookie, &format!("/api/games/{id}/ws")).await;
    // Bob plays his first move by his session, then goes quiet.
    let mut bob = Browser::guest_at(&srv, 2).await;
    bob.join(&id, &tokens[1]).await;
    play_as(&mut ann, &id).await;
    play_as(&mut bob, &id).await;
    srv.app.advance_clock(20 * hour);
    play_as(&mut ann, &id).await;
    assert_eq!(ann.refusal(draw()).await.status, StatusCode::CONFLICT);
    // A day since Bob was last heard from (his flag has hours left).
    srv.app.advance_clock(4 * hour + 1_000);
    ann.send(draw()).await;
    let s = bob.send(api::game(&id)).await;
    assert_eq!(s.result().reason, EndReason::Abandoned);
    assert!(s.result().draw, "{s:?}");
    assert_eq!(s.result().winners, [0, 1], "{s:?}");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn an_ai_seat_has_no_clock_while_the_humans_runs() {
    let db = temp_db("aiclock");
    let srv = start_with(test_registry(), &db, quick()).await;
    let game = NewGame {
        seats: vec![human(), ai(AiLevel::Random)],
        ..timed("race", Some(4), realtime(60, 0))
    };
    let (id, t) = srv.open(&game).await;
    let s = srv.settle(&id).await;
    assert_eq!(s.clock().remaining_ms, [Some(60000), None]);
    // The first moves are free; then only the human's time goes down.
    for _ in 0..2 {
        play_first(&srv, &id, &t).await;
        srv.settle(&id).await;
    }
    srv.app.advance_clock(5_000);
    let s = srv.settle(&id).await;
    assert_eq!(s.clock().running, Some(0), "{s:?}");
    let left = s.clock().remaining_ms[0].expect("ms");
    assert!((54_000..=55_000).contains(&left), "{left}");
    assert_eq!(s.clock().remaining_ms[1], None);
    drop(srv);
    remove_db(&db);
}
