//! Trust under attack: guesses from elsewhere never lock an owner out of a
//! browser they signed in from, a club on one address signs up and plays
//! while a flood from that address is still held back, and revoking what
//! signed a live channel closes it.

mod common;

use axum::http::StatusCode;
use common::api::{self, credentials, PASSWORD};
use common::{
    ai, human, live, poll, realtime, remove_db, seated, start, temp_db, test_registry, Browser,
    Client,
};
use futures_util::StreamExt;
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_server::protocol::{
    Credentials, NewGame, NewTournament, ServerMessage, StartTime, TournamentFormat,
};
use tokio_tungstenite::tungstenite::Message;

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn wrong(name: &str) -> Credentials {
    credentials(name, "not the password")
}

#[tokio::test]
async fn a_known_browser_signs_in_while_strangers_keep_guessing() {
    let db = temp_db("trust-device");
    let srv = start(test_registry(), &db).await;
    let mut owner = Browser::signed_up(&srv, 1, "Owner").await;
    assert!(owner.device.is_some(), "signing up remembers the browser");
    owner.send(api::sign_out()).await;

    // Twenty addresses guess, three times each.
    let mut refused = 0;
    for n in 0..20u8 {
        let mut attacker = Browser::new(&srv, 100 + n);
        for _ in 0..3 {
            let st = attacker.refusal(api::login(&wrong("owner"))).await.status;
            refused += usize::from(st == StatusCode::TOO_MANY_REQUESTS);
        }
    }
    assert!(refused >= 50, "the attacker is held back: {refused} of 60");

    // The owner's own browser is not: it signs in at once.
    owner.sign_in("Owner").await;
    // A browser the account does not know, even with the right password
    // and on the owner's address, waits like the attacker.
    let mut new_browser = Browser::new(&srv, 1);
    let refused = new_browser.refusal(api::sign_in("owner")).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    // A stolen device cookie is limited on its own: ten tries (the owner's
    // sign-in was one), then 429.
    let mut thief = Browser::new(&srv, 150);
    thief.device = owner.device.clone();
    let mut statuses = Vec::new();
    for _ in 0..11 {
        statuses.push(thief.refusal(api::login(&wrong("owner"))).await.status);
    }
    assert_eq!(statuses[..9], [StatusCode::UNAUTHORIZED; 9]);
    assert_eq!(statuses[9..], [StatusCode::TOO_MANY_REQUESTS; 2]);
    remove_db(&db);
}

#[tokio::test]
async fn nine_players_on_one_address_sign_up_and_join_while_a_flood_is_refused() {
    let db = temp_db("trust-club");
    let srv = start(test_registry(), &db).await;
    let mut club: Vec<Browser> = (0..9).map(|_| Browser::new(&srv, 7)).collect();
    // Someone takes Ana first (elsewhere): names already taken do not count
    // against the café's address.
    Browser::new(&srv, 8).sign_up("Ana").await;
    for b in club.iter_mut() {
        let refused = b.refusal(api::sign_up("ana")).await;
        assert_eq!(refused.status, StatusCode::CONFLICT);
    }
    for (i, b) in club.iter_mut().enumerate() {
        b.sign_up(&format!("club{i}")).await;
        b.send(api::sign_out()).await;
    }
    // Three of them mistype their password first.
    for b in club.iter_mut().take(3) {
        let refused = b.refusal(api::login(&wrong("club0"))).await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    }
    for (i, b) in club.iter_mut().enumerate() {
        b.sign_in(&format!("club{i}")).await;
    }
    let cafe = NewTournament {
        name: "Café".into(),
        spec: "race(players=3)".into(),
        format: TournamentFormat::Tables,
        clock: realtime(120, 2),
        starts: StartTime::At(now_ms() + 3_600_000),
        rounds: Some(3),
        minutes: None,
        leftover: None,
        points: None,
        rated: true,
        bots: false,
    };
    let id = club[0].send(api::new_tournament(&cafe)).await.id;
    for b in club.iter_mut() {
        b.send(api::enter(&id)).await;
    }

    // A flood from the same address: new accounts and guesses are refused.
    let mut flood = Browser::new(&srv, 7);
    let mut refused = (0, 0);
    for n in 0..20 {
        let name = format!("spam{n}");
        if common::status_of(&flood.attempt(api::sign_up(&name)).await)
            == StatusCode::TOO_MANY_REQUESTS
        {
            refused.0 += 1;
        }
        flood.cookie = None;
        flood.device = None;
    }
    for n in 0..30 {
        let creds = wrong(&format!("club{}", n % 9));
        let st = flood.refusal(api::login(&creds)).await.status;
        refused.1 += usize::from(st == StatusCode::TOO_MANY_REQUESTS);
    }
    assert!(refused.0 >= 15, "sign-ups: {refused:?}");
    assert!(refused.1 >= 10, "sign-ins: {refused:?}");
    // The club's own browsers still sign in.
    for (i, b) in club.iter_mut().enumerate() {
        b.sign_in(&format!("club{i}")).await;
    }
    remove_db(&db);
}

/// The next message of `ws` within a second: its close frame's code, or
/// `None` for any other message.
async fn closed_within_a_second(ws: &mut common::Ws) -> Option<u16> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(1), ws.next())
            .await
            .expect("the channel closes within 1 s");
        match msg {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => continue,
            None | Some(Err(_)) => return None,
        }
    }
}

#[tokio::test]
async fn a_password_change_signs_out_other_browsers_and_closes_their_channels() {
    let db = temp_db("trust-revoke");
    let srv = start(test_registry(), &db).await;
    let mut here = Browser::signed_up(&srv, 1, "Ann").await;
    let mut there = Browser::new(&srv, 2);
    there.sign_in("Ann").await;
    let (game, _) = srv.open(&NewGame::new("race")).await;
    let path = format!("/api/games/{game}/ws");
    let mut here_ws = live(&srv, here.cookie.as_deref().unwrap_or(""), &path).await;
    let mut there_ws = live(&srv, there.cookie.as_deref().unwrap_or(""), &path).await;
    let mut there_lobby = live(&srv, there.cookie.as_deref().unwrap_or(""), "/api/lobby/ws").await;
    // Both channels are open: each has its snapshot.
    for ws in [&mut here_ws, &mut there_ws, &mut there_lobby] {
        assert!(ws.next().await.is_some());
    }
    here.send(api::change_password(PASSWORD, "another good one"))
        .await;
    assert_eq!(closed_within_a_second(&mut there_ws).await, Some(1008));
    assert_eq!(closed_within_a_second(&mut there_lobby).await, Some(1008));
    assert_eq!(
        there.refusal(api::me()).await.status,
        StatusCode::UNAUTHORIZED
    );
    // The browser that changed it stays signed in, its channel open.
    here.send(api::me()).await;
    let quiet = tokio::time::timeout(Duration::from_millis(300), here_ws.next()).await;
    assert!(quiet.is_err(), "nothing came: {quiet:?}");

    // Deleting the account closes the rest.
    here.send(api::delete_account("another good one")).await;
    assert_eq!(closed_within_a_second(&mut here_ws).await, Some(1008));
    remove_db(&db);
}

#[tokio::test]
async fn a_seek_names_its_game_only_once_the_game_exists_and_a_race_leaves_one_game() {
    let db = temp_db("trust-seek");
    let srv = start(test_registry(), &db).await;
    for round in 0..5 {
        let mut ann = Browser::guest_at(&srv, 1).await;
        let sid = ann.post_seek(&common::seek("race")).await;
        let mut takers = Vec::new();
        for n in 0..6 {
            takers.push(Browser::guest_at(&srv, 10 + n).await);
        }
        let accepts =
            futures_util::future::join_all(takers.iter_mut().map(|b| b.attempt(api::accept(&sid))));
        // Meanwhile, whoever looks at the seek and sees a game finds it.
        let watch = async {
            let mut seen = 0;
            for _ in 0..200 {
                let seek = srv.send(api::seek_by_id(&sid)).await;
                if let Some(game) = seek.game {
                    let view = srv.attempt(api::game(&game)).await;
                    assert!(
                        view.is_ok(),
                        "round {round}: the seek names a game that is missing"
                    );
                    seen += 1;
                    if seen > 3 {
                        break;
                    }
                }
                tokio::task::yield_now().await;
            }
        };
        let (answers, ()) = tokio::join!(accepts, watch);
        let games: Vec<&String> = answers
            .iter()
            .filter_map(|a| a.as_ref().ok()?.game.as_ref())
            .collect();
        assert_eq!(games.len(), 1, "round {round}: {answers:?}");
        let settled = [StatusCode::OK, StatusCode::CONFLICT];
        assert!(answers
            .iter()
            .all(|a| settled.contains(&common::status_of(a))));
    }
    // Five seeks, five games: the losers of each race left no game behind.
    assert_eq!(srv.send(api::games()).await.len(), 5);
    remove_db(&db);
}

#[tokio::test]
async fn live_channels_are_capped_per_address_and_clients_that_never_read_are_closed() {
    let db = temp_db("trust-sockets");
    let mut config = tabula_server::RoundConfig {
        ai_pause: Duration::ZERO,
        ..Default::default()
    };
    config.guard.sockets_per_address = 3;
    config.guard.socket_stall = Duration::from_millis(150);
    let srv = common::start_with(test_registry(), &db, config).await;
    let (game, tokens) = srv.open(&NewGame::new("race")).await;
    let addr = common::serve(&srv).await;
    let url = format!("ws://{addr}/api/games/{game}/ws");
    // An honest client reads (and so answers pings) in the background.
    let (honest, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("honest");
    let (seen_tx, mut seen) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let (_, mut read) = honest.split();
        while let Some(Ok(msg)) = read.next().await {
            if let Message::Text(t) = msg {
                let _ = seen_tx.send(t.to_string());
            }
        }
    });
    // Two that never read fill the address's three channels.
    let mut silent = Vec::new();
    for _ in 0..2 {
        silent.push(
            tokio_tungstenite::connect_async(&url)
                .await
                .expect("silent")
                .0,
        );
    }
    match tokio_tungstenite::connect_async(&url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
            assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS)
        }
        other => panic!("a fourth channel from one address: {:?}", other.map(|_| ())),
    }
    // The silent ones are closed after two stalls; their places free up.
    let _reopened = poll(
        "the silent channels to be closed",
        Duration::from_millis(20),
        || async { tokio_tungstenite::connect_async(&url).await.ok() },
    )
    .await;
    // The honest client still gets every move.
    srv.send(api::play(&game, &tokens[0], "walk", None)).await;
    let mut got_update = false;
    while let Ok(Some(text)) = tokio::time::timeout(Duration::from_secs(2), seen.recv()).await {
        if let Ok(ServerMessage::Update(_)) = serde_json::from_str(&text) {
            got_update = true;
            break;
        }
    }
    assert!(got_update, "the honest client saw the move");
    drop(silent);
    remove_db(&db);
}

#[tokio::test]
async fn an_ai_move_the_store_refused_is_stored_again_within_seconds() {
    let db = temp_db("trust-ai-retry");
    let config = tabula_server::RoundConfig {
        ai_pause: Duration::from_millis(100),
        ..Default::default()
    };
    let srv = common::start_with(test_registry(), &db, config).await;
    let (game, tokens) = srv
        .open(&seated("race", vec![human(), ai(AiLevel::Random)]))
        .await;
    srv.send(api::play(&game, &tokens[0], "walk", None)).await;
    // The AI thinks for 100 ms; meanwhile the database fails two writes
    // (its move's first tries): the game must not wait for the turn's
    // 30 s claim to lapse.
    srv.app.rounds.inject_store_faults(2);
    let started = std::time::Instant::now();
    let s = srv.settle(&game).await;
    let ai_moved = s.history.iter().any(|e| e.actor == Some(1));
    assert!(ai_moved, "{s:?}");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "the AI moved after {took:?}");
    remove_db(&db);
}

/// A signed-in request reads its session and account from the store once
/// in a while, not every time; a revocation (here a password changed from
/// another browser) is honoured at once all the same.
#[tokio::test]
async fn sessions_are_remembered_briefly_and_forgotten_when_revoked() {
    let db = temp_db("trust-session-cache");
    let srv = start(test_registry(), &db).await;
    let mut home = Browser::signed_up(&srv, 1, "Cached").await;
    let mut phone = Browser::new(&srv, 2);
    phone.sign_in("Cached").await;
    home.send(api::me()).await;
    // The session's document goes from the store behind the server's back:
    // the visitor it remembers still answers, without reading it.
    let store = tabula_server::store::Store::open(&db.display().to_string())
        .await
        .expect("store");
    let cookie = home.cookie.clone().expect("cookie");
    let id = tabula_server::common::hash_token(&cookie);
    assert_eq!(store.doc_delete("session", &id).await, Ok(true));
    home.send(api::me()).await;
    // Five seconds later it is read again: the session is gone.
    srv.app
        .advance_clock(tabula_server::user::service::VISITOR_CACHE_MS);
    assert_eq!(
        home.refusal(api::me()).await.status,
        StatusCode::UNAUTHORIZED
    );

    // Another browser, remembered; the password changes on the phone:
    // the other sessions are revoked and forgotten at once.
    let mut laptop = Browser::new(&srv, 3);
    laptop.sign_in("Cached").await;
    laptop.send(api::me()).await;
    phone
        .send(api::change_password(PASSWORD, "another good one"))
        .await;
    let refused = laptop.refusal(api::me()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    phone.send(api::me()).await;
    remove_db(&db);
}

#[tokio::test]
async fn the_test_clock_exists_only_on_a_server_started_with_it() {
    let db = temp_db("trust-test-clock");
    let srv = start(test_registry(), &db).await;
    let advance =
        serde_json::to_value(tabula_server::protocol::ClockAdvance { advance_ms: 60_000 })
            .expect("a body");
    let (status, _) = srv.call("POST", "/api/test/clock", advance.clone()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "not without --test-clock");
    remove_db(&db);

    let db = temp_db("trust-test-clock-on");
    let mut config = tabula_server::RoundConfig::default();
    config.guard.test_clock = true;
    let srv = common::start_with(test_registry(), &db, config).await;
    let before = srv.app.now();
    let (status, body) = srv.call("POST", "/api/test/clock", advance).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let now = body["now"].as_i64().unwrap_or_default();
    assert!(now >= before + 60_000, "{before} then {now}");
    // Bad bodies on purpose: no move, a move back, none at all.
    use serde_json::json;
    for bad in [
        json!({"advance_ms": 0}),
        json!({"advance_ms": -5}),
        json!({}),
    ] {
        let (status, body) = srv.call("POST", "/api/test/clock", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
    }
    assert!(
        srv.app.now() < now + 30_000,
        "a refused move changes nothing"
    );
    remove_db(&db);
}
