//! Rated games through the API: who may play them, the ratings after one,
//! shown on the game, the profiles and the leaderboard.

mod common;

use axum::http::StatusCode;
use common::{
    api, met, remove_db, seek, start, temp_db, test_registry, Browser, Client, Server, ViewExt,
};
use serde_json::json;
use std::time::Duration;
use tabula_server::protocol::{NewGame, NewSeek, SeekSeatRequest};

/// A rated seek of race.
fn rated() -> NewSeek {
    NewSeek {
        rated: true,
        ..seek("race")
    }
}

/// Wait until game `id` is rated; each seat's rating change.
async fn rating_diff(srv: &Server, id: &str) -> Vec<Option<i32>> {
    let s = srv
        .view_when(id, "the game to be rated", |s| {
            !s.state.rating_diff.is_empty()
        })
        .await;
    s.state.rating_diff
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_once() {
    let db = temp_db("ratings");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::signed_up(&srv, 1, "Ann").await;
    let mut bob = Browser::signed_up(&srv, 2, "Bob").await;
    let mut guest = Browser::guest_at(&srv, 3).await;

    // Who may play rated: not a guest, not with hints, not with an AI seat,
    // not a game made outside the lobby.
    let refused = guest.refusal(api::seek(&rated())).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let hints = NewSeek {
        hints: true,
        ..rated()
    };
    let with_ai = NewSeek {
        seats: vec![
            SeekSeatRequest::Me,
            SeekSeatRequest::Open,
            SeekSeatRequest::Ai { level: None },
        ],
        ..NewSeek {
            spec: "race(players=3)".into(),
            ..rated()
        }
    };
    for bad in [hints, with_ai] {
        let refused = ann.refusal(api::seek(&bad)).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{bad:?}");
    }
    let game = NewGame {
        rated: true,
        ..NewGame::new("race")
    };
    assert_eq!(
        ann.refusal(api::create(&game)).await.status,
        StatusCode::BAD_REQUEST
    );
    let sid = ann.post_seek(&rated()).await;
    let refused = guest.refusal(api::accept(&sid)).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let game = bob.accept_seek(&sid).await;
    let s = ann.send(api::game(&game)).await;
    assert!(s.state.rated);
    // No take-backs, no hints.
    ann.send(api::play(&game, "", "walk", None)).await;
    assert_eq!(
        ann.refusal(api::undo(&game, "")).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        ann.refusal(api::hint(&game, "")).await.status,
        StatusCode::FORBIDDEN
    );
    // Bob resigns: Ann wins.
    bob.send(api::resign(&game, "")).await;
    let diff = rating_diff(&srv, &game).await;
    let up = diff[0].expect("Ann's change");
    let down = diff[1].expect("Bob's change");
    assert!(up > 0 && down < 0 && up == -down, "{diff:?}");
    let p = ann.send(api::profile("ann")).await;
    let r = &p.ratings["race"];
    assert_eq!(r.rating, 1500 + up, "{p:?}");
    assert_eq!(r.games, 1);
    assert!(r.provisional);
    assert_eq!(r.history.len(), 1);
    let p = ann.send(api::profile("bob")).await;
    assert_eq!(p.ratings["race"].rating, 1500 + down);
    // Provisional ratings are not on the leaderboard yet.
    assert!(ann.send(api::leaderboard("race")).await.is_empty());
    // Rated once: asking again changes nothing.
    let ended = tabula_server::round::GameEnded {
        id: game.clone(),
        spec: "race".into(),
        ending: tabula_core::Ending {
            outcome: tabula_core::Outcome::Win(tabula_core::Player(0)),
            reason: tabula_core::EndReason::Resign,
        },
        seats: serde_json::from_value(json!(s.state.players)).expect("players"),
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
    let p = ann.send(api::profile("ann")).await;
    assert_eq!(p.ratings["race"].games, 1);
    drop(srv);
    remove_db(&db);
}

/// Sign up Ann and Bob, have Bob take Ann's rated seek, play one move and
/// resign: Ann wins; the game's id.
async fn rated_game_won_by_ann(srv: &Server) -> String {
    let (mut ann, mut bob, game) = met(srv, &rated()).await;
    ann.send(api::play(&game, "", "walk", None)).await;
    bob.send(api::resign(&game, "")).await;
    game
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
    let game = rated_game_won_by_ann(&srv).await;
    let s = srv.view(&game).await;
    assert!(s.over());
    assert!(s.state.rating_diff.is_empty(), "not rated: {s:?}");
    drop(srv);

    // The next start rates it, once, however often its sweep runs.
    let restarted = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        rating_sweep: Duration::from_millis(20),
        rating_grace: Duration::ZERO,
        ..Default::default()
    };
    let srv = common::start_with(test_registry(), &db, restarted).await;
    let diff = rating_diff(&srv, &game).await;
    let up = diff[0].expect("rated after the restart");
    assert!(up > 0 && diff[1] == Some(-up), "{diff:?}");
    // One game in each rating (rating a game again changes nothing: see
    // `a_rated_game_moves_both_ratings_once`).
    for player in ["ann", "bob"] {
        let p = srv.send(api::profile(player)).await;
        assert_eq!(p.ratings["race"].games, 1, "{player}: {p:?}");
    }
    let p = srv.send(api::profile("ann")).await;
    assert_eq!(p.ratings["race"].rating, 1500 + up);
    drop(srv);
    remove_db(&db);
}
