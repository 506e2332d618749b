//! Players: accounts and sessions, seats that belong to someone, the lobby,
//! chat, hints and profiles, through the API as browsers use it.

mod common;

use axum::http::StatusCode;
use common::api::{self, credentials, PASSWORD};
use common::{
    human, invite, poll, remove_db, seated, seeded, seek, start, temp_db, test_registry, Browser,
    Client, Live, ViewExt,
};
use serde_json::{json, Value};
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_server::protocol::{
    ChatRequest, Created, LobbyMessage, NewGame, NewSeek, Room, SeatKind, SeatRequest,
    SeekSeatRequest, Tally,
};
use tabula_server::round::EndReason;

/// A chat line for `room`, without a token.
fn line(room: Room, text: &str) -> ChatRequest {
    let (token, text) = (String::new(), text.to_string());
    ChatRequest { token, room, text }
}

/// The tally of one win, draw or loss.
fn tally(win: u64, draw: u64, loss: u64) -> Tally {
    Tally { win, draw, loss }
}

#[tokio::test]
async fn accounts_sign_up_in_out_and_are_checked() {
    let db = temp_db("accounts");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    let refused = ann.refusal(api::me()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let me = ann.sign_up("Ann_1").await;
    assert_eq!(me.username, "Ann_1");
    assert!(ann.cookie.is_some());
    assert_eq!(ann.send(api::me()).await.username, "Ann_1");

    let mut other = Browser::new(&srv, 2);
    let bad = [
        (
            json!({"username": "ANN_1", "password": "a good password"}),
            StatusCode::CONFLICT,
            "taken",
        ),
        (
            json!({"username": "a", "password": "a good password"}),
            StatusCode::BAD_REQUEST,
            "2 to 20",
        ),
        (
            json!({"username": "bad name", "password": "a good password"}),
            StatusCode::BAD_REQUEST,
            "letters",
        ),
        (
            json!({"username": "deleted", "password": "a good password"}),
            StatusCode::BAD_REQUEST,
            "reserved",
        ),
        (
            json!({"username": "Bea", "password": "short"}),
            StatusCode::BAD_REQUEST,
            "8 to 128",
        ),
        // Not a `Credentials`: sent as JSON.
        (
            json!({"username": "Bea"}),
            StatusCode::BAD_REQUEST,
            "password",
        ),
    ];
    for (body, status, words) in bad {
        let call = common::Call::<tabula_server::protocol::Me>::post("/api/account", &body);
        let refused = other.refusal(call.succeeds_with(StatusCode::CREATED)).await;
        assert_eq!(refused.status, status, "{body}: {refused}");
        assert!(refused.error.contains(words), "{body}: {refused}");
    }

    // Wrong password, unknown name: the same answer.
    let wrong = credentials("ann_1", "not the password");
    for creds in [&wrong, &credentials("nobody", "whatever1")] {
        let refused = other.refusal(api::login(creds)).await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
        assert_eq!(refused.error, "wrong user name or password");
    }
    // Signing in works, case-insensitively, with a new cookie.
    let before = other.cookie.clone();
    assert_eq!(other.sign_in("ANN_1").await.username, "Ann_1");
    assert_ne!(other.cookie, before);
    // Out: a guest again.
    other.send(api::sign_out()).await;
    let refused = other.refusal(api::me()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);

    // Five tries per name, then 429 with Retry-After, from any address.
    let mut tries = Vec::new();
    for n in 0..6u8 {
        let mut b = Browser::new(&srv, 100 + n);
        let refused = b.refusal(api::login(&wrong)).await;
        tries.push((refused.status, refused.headers.get("retry-after").is_some()));
    }
    // (two tries above already counted for this name)
    assert_eq!(tries[2], (StatusCode::UNAUTHORIZED, false), "{tries:?}");
    assert_eq!(tries[3], (StatusCode::TOO_MANY_REQUESTS, true), "{tries:?}");
    assert_eq!(tries[5].0, StatusCode::TOO_MANY_REQUESTS);
    // Per address too: twenty tries from one address over several names.
    let mut flood = Browser::new(&srv, 200);
    let mut limited = 0;
    for n in 0..25 {
        let creds = credentials(&format!("someone{n}"), "whatever1");
        if flood.refusal(api::login(&creds)).await.status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    assert_eq!(limited, 5);

    // Password change, then delete (another account: the tries above
    // used up this name's sign-in attempts for a minute).
    let mut ann = Browser::new(&srv, 4);
    ann.sign_up("Ann_2").await;
    let refused = ann
        .refusal(api::change_password("nope nope", "another good one"))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    ann.send(api::change_password(PASSWORD, "another good one"))
        .await;
    let mut again = Browser::new(&srv, 3);
    again
        .send(api::login(&credentials("ann_2", "another good one")))
        .await;
    ann.send(api::profile("ann_2")).await;
    ann.send(api::delete_account("another good one")).await;
    assert_eq!(
        ann.refusal(api::me()).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        again.refusal(api::me()).await.status,
        StatusCode::UNAUTHORIZED
    );
    let refused = ann.refusal(api::profile("ann_2")).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    assert!(refused.error.contains("deleted"), "{refused}");
    // The name stays taken.
    let refused = ann.refusal(api::sign_up("Ann_2")).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn the_cookie_needs_this_sites_origin() {
    let db = temp_db("origin");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::signed_up(&srv, 1, "ann").await;
    let (id, _) = ann.open(&seeded("race", 2)).await;
    let walk = || api::play(&id, "", "walk", None);
    // No Origin, or another site's: refused, nothing played.
    ann.origin = None;
    let refused = ann.refusal(walk()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.error.contains("Origin"), "{refused}");
    ann.origin = Some("http://evil.test".into());
    assert_eq!(ann.refusal(walk()).await.status, StatusCode::FORBIDDEN);
    let refused = ann.refusal(api::seek(&seek("race"))).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(ann.send(api::game(&id)).await.state.ply, 1);
    // From the site itself, the cookie plays the account's seats: both
    // seats here (a game at one keyboard), the one to move first.
    ann.origin = Some("http://tabula.test".into());
    ann.send(walk()).await;
    let s = ann.send(api::game(&id)).await;
    assert_eq!(s.you, [0, 1]);
    assert_eq!(s.player(0).user.as_deref(), Some("ann"));
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn an_invite_is_claimed_once_and_tokens_are_stored_hashed() {
    let db = temp_db("invite");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::guest_at(&srv, 1).await;
    let named = SeatRequest {
        name: Some("Ann".into()),
        ..human()
    };
    let game = NewGame {
        seed: Some(5),
        ..seated("race", vec![named, invite()])
    };
    let (id, tokens) = ann.open(&game).await;
    let invite = tokens[1].clone();

    let mut bea = Browser::guest_at(&srv, 2).await;
    let joined = bea.send(api::join_as(&id, &invite, "Bea")).await;
    assert_eq!(joined.seat, 1);
    let fresh = joined.token.expect("a new token");
    assert_ne!(fresh, invite);

    // The leaked link is worth nothing now: to a third browser, to a script,
    // and to the creator who still holds it.
    let mut cy = Browser::guest_at(&srv, 3).await;
    let refused = cy.refusal(api::join(&id, &invite)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.error.contains("already used"), "{refused}");
    let _ = srv.attempt(api::resign(&id, &invite)).await;
    let refused = ann.refusal(api::resign(&id, &invite)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let s = bea.send(api::game(&id)).await;
    assert_eq!(s.state.result, None);
    assert_eq!(s.you, [1]);

    // Ann moves by her session, Bea by hers (no token), or by the new token.
    ann.send(api::play(&id, "", "walk", None)).await;
    let refused = ann.refusal(api::play(&id, "", "walk", None)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.error.contains("not your turn"), "{refused}");
    bea.send(api::play(&id, "", "run", None)).await;
    let refused = srv.refusal(api::play(&id, &fresh, "walk", None)).await;
    assert_eq!(
        refused.status,
        StatusCode::FORBIDDEN,
        "not Bea's turn: the token is hers"
    );
    // Two tabs of one browser: the same session plays.
    let mut ann_tab = Browser::new(&srv, 1);
    ann_tab.cookie = ann.cookie.clone();
    ann_tab.send(api::play(&id, "", "walk", None)).await;

    // No token is stored in the clear.
    drop(srv);
    let conn = rusqlite_free_scan(&db);
    for token in [&invite, &fresh] {
        assert!(
            !conn.contains(token.as_str()),
            "a token is stored in the clear"
        );
    }
    remove_db(&db);
}

/// The database file's bytes as text (with its write-ahead log).
fn rusqlite_free_scan(db: &std::path::Path) -> String {
    let mut bytes = std::fs::read(db).unwrap_or_default();
    let wal = format!("{}-wal", db.display());
    bytes.extend(std::fs::read(wal).unwrap_or_default());
    String::from_utf8_lossy(&bytes).into_owned()
}

#[tokio::test]
async fn hints_are_for_games_against_the_ai_or_agreed() {
    let db = temp_db("hints");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv.open(&seeded("race", 1)).await;
    let refused = srv.refusal(api::hint(&id, &t[0])).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused}");
    assert!(
        refused.error.contains("hints are for games against the AI"),
        "{refused}"
    );
    assert!(!srv.view(&id).await.state.hints);
    let agreed = NewGame {
        hints: true,
        ..seeded("race", 1)
    };
    let (id, t) = srv.open(&agreed).await;
    assert!(srv.view(&id).await.state.hints);
    srv.send(api::hint(&id, &t[0])).await;
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn two_strangers_meet_in_the_lobby_play_chat_and_see_it_on_their_profiles() {
    let db = temp_db("lobby");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::signed_up(&srv, 1, "Ann").await;
    let mut bob = Browser::signed_up(&srv, 2, "Bob").await;
    let mut spy = Browser::new(&srv, 3);

    // Without a session there is no one to seat.
    let refused = spy.refusal(api::seek(&seek("race"))).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert!(refused.error.contains("session"), "{refused}");
    // Bad seeks (some not even a `NewSeek`: sent as JSON).
    let bad = [
        json!({"spec": "race", "rated": true, "hints": true}),
        json!({"spec": "race", "clock": {"initial_s": 5}}),
        json!({"spec": "race", "clock": {"days": 4}}),
        json!({"spec": "race", "seats": [{"type": "me"}, {"type": "me"}]}),
        json!({"spec": "nosuchgame"}),
    ];
    for body in bad {
        let (st, v) = ann.call("POST", "/api/seeks", body.clone()).await;
        assert!(st.is_client_error(), "{body}: {v}");
    }
    assert!(ann.send(api::seeks()).await.is_empty());

    let sid = ann.send(api::seek(&seek("race"))).await.id;
    let listed = bob.send(api::seeks()).await;
    assert_eq!(listed[0].id, sid);
    assert_eq!(listed[0].creator, "Ann");
    assert!(!listed[0].mine);
    assert_eq!(listed[0].seats[1].state, "open");
    let refused = ann.refusal(api::accept(&sid)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let game = bob.accept_seek(&sid).await;
    spy.guest().await;
    let refused = spy.refusal(api::accept(&sid)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.error.contains("taken"), "{refused}");
    // Ann sees her seek with its game, and can no longer cancel it.
    let mine = ann.send(api::seeks()).await;
    assert_eq!(mine[0].game.as_deref(), Some(game.as_str()));
    assert_eq!(
        ann.refusal(api::cancel(&sid)).await.status,
        StatusCode::CONFLICT
    );

    let s = ann.send(api::game(&game)).await;
    assert_eq!(s.you, [0]);
    assert_eq!(s.player(0).name, "Ann");
    assert_eq!(s.player(1).name, "Bob");
    assert_eq!(s.player(1).user.as_deref(), Some("bob"));
    // Hints: never between people unless agreed.
    let refused = ann.refusal(api::hint(&game, "")).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    // Bob's turn list is empty, Ann's has the game.
    let turn = ann.send(api::my_games()).await;
    assert_eq!(turn.your_turn[0].id, game);
    let turn = bob.send(api::my_games()).await;
    assert!(turn.your_turn.is_empty(), "{turn:?}");
    assert_eq!(turn.playing[0].id, game);

    // Chat: players in theirs, the spectator in his; the players do not
    // read the spectators' room while the game is on.
    ann.send(api::chat(&game, &line(Room::Players, "good luck!")))
        .await;
    bob.send(api::chat(&game, &line(Room::Players, "you too")))
        .await;
    let refused = spy
        .refusal(api::chat(&game, &line(Room::Players, "hi")))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.error.contains("only the players"), "{refused}");
    let refused = bob
        .refusal(api::chat(&game, &line(Room::Spectators, "psst")))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    spy.send(api::chat(&game, &line(Room::Spectators, "play run!")))
        .await;
    for text in ["x".repeat(141), "  ".to_string()] {
        let refused = spy
            .refusal(api::chat(&game, &line(Room::Spectators, &text)))
            .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    }
    let seen_by_ann = ann.send(api::game(&game)).await.chat;
    assert_eq!(seen_by_ann.len(), 2, "{seen_by_ann:?}");
    let seen_by_spy = spy.send(api::game(&game)).await.chat;
    assert_eq!(seen_by_spy.len(), 3, "{seen_by_spy:?}");
    assert_eq!(seen_by_spy[2].name, "Guest");
    // Rate limited: five at once, then 429.
    let mut codes = Vec::new();
    for i in 0..6 {
        let said = line(Room::Spectators, &format!("{i}"));
        codes.push(common::status_of(
            &spy.attempt(api::chat(&game, &said)).await,
        ));
    }
    assert!(codes.contains(&StatusCode::TOO_MANY_REQUESTS), "{codes:?}");

    // Play to the end by sessions only.
    for _ in 0..200 {
        let s = ann.send(api::game(&game)).await;
        let Some(seat) = s.to_move() else {
            break;
        };
        let who = if seat == 0 { &mut ann } else { &mut bob };
        who.send(api::play(&game, "", "run", None)).await;
    }
    let s = ann.send(api::game(&game)).await;
    assert!(s.over());
    // Over: the players may read the spectators now; the export has it all.
    let posted = codes.iter().filter(|c| c.is_success()).count();
    assert_eq!(s.chat.len(), 3 + posted);
    let record = ann.send(api::record(&game)).await;
    assert!(record.contains("# [players] Ann: good luck!"), "{record}");
    assert!(
        record.contains("# [spectators] Guest: play run!"),
        "{record}"
    );

    // Profiles: the game, and how it went, for each.
    let winner = s.state.result.as_ref().expect("a result").winners[0];
    for (name, seat) in [("ann", 0), ("Bob", 1)] {
        let p = ann.send(api::profile(name)).await;
        assert_eq!(p.finished[0].id, game, "{p:?}");
        let won = u64::from(seat == winner);
        assert_eq!(p.record["race"], tally(won, 0, 1 - won), "{p:?}");
    }
    let page = ann.send(api::finished_games("bob", 1)).await;
    assert!(page.games.is_empty());
    assert!(!page.more);
    let refused = ann.refusal(api::profile("nobody")).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_seek_of_three_fills_in_order_and_can_be_cancelled() {
    let db = temp_db("seek3");
    let srv = start(test_registry(), &db).await;
    let mut a = Browser::signed_up(&srv, 1, "Ann").await;
    let mut b = Browser::guest_at(&srv, 2).await;
    let mut c = Browser::signed_up(&srv, 3, "Cy").await;
    // A direct challenge: only Cy sees and accepts it first.
    let direct = NewSeek {
        to: Some("cy".into()),
        ..seek("race(players=3)")
    };
    let sid = a.send(api::seek(&direct)).await.id;
    assert!(b.send(api::seeks()).await.is_empty());
    assert_eq!(
        b.refusal(api::accept(&sid)).await.status,
        StatusCode::FORBIDDEN
    );
    let first = c.send(api::accept(&sid)).await;
    assert_eq!(first.game, None, "one seat still open");
    let game = b.accept_seek(&sid).await;
    let s = c.send(api::game(&game)).await;
    let names: Vec<_> = s.state.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Cy", "Guest"]);
    assert_eq!(s.you, [1]);

    // Cancelling: the creator only.
    let second = NewSeek {
        seats: vec![SeekSeatRequest::Open, SeekSeatRequest::Me],
        ..seek("race")
    };
    let sid = a.send(api::seek(&second)).await.id;
    assert_eq!(
        b.refusal(api::cancel(&sid)).await.status,
        StatusCode::FORBIDDEN
    );
    a.send(api::cancel(&sid)).await;
    assert_eq!(
        b.refusal(api::accept(&sid)).await.status,
        StatusCode::NOT_FOUND
    );
    drop(srv);
    remove_db(&db);
}

/// The `Set-Cookie` of an answer.
fn set_cookie(headers: &axum::http::HeaderMap) -> String {
    headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

#[tokio::test]
async fn the_session_cookie_is_httponly_lax_and_secure_over_https() {
    let db = temp_db("cookie");
    let srv = start(test_registry(), &db).await;
    let creds = json!({"username": "Ann", "password": "a good password"});
    let mut plain = Browser::new(&srv, 1);
    let (st, headers, v) = plain.call_full("POST", "/api/account", creds).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let cookie = set_cookie(&headers);
    assert!(cookie.starts_with("tabula_session="), "{cookie}");
    assert!(cookie.contains("; HttpOnly"), "{cookie}");
    assert!(cookie.contains("; SameSite=Lax"), "{cookie}");
    assert!(
        !cookie.contains("Secure"),
        "a page over plain HTTP: {cookie}"
    );
    // A page served over HTTPS gets a Secure cookie, signing in or as a guest.
    let mut tls = Browser::new(&srv, 2);
    tls.origin = Some("https://tabula.test".into());
    let (st, headers, v) = tls
        .call_full(
            "POST",
            "/api/login",
            json!({"username": "ann", "password": "a good password"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let cookie = set_cookie(&headers);
    assert!(
        cookie.contains("; HttpOnly")
            && cookie.contains("; SameSite=Lax")
            && cookie.contains("; Secure"),
        "{cookie}"
    );
    let mut guest = Browser::new(&srv, 3);
    guest.origin = Some("https://tabula.test".into());
    let (_, headers, _) = guest.call_full("POST", "/api/session", Value::Null).await;
    assert!(set_cookie(&headers).contains("; Secure"));
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_guests_games_follow_its_new_account_and_stay_when_it_is_deleted() {
    let db = temp_db("follow");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::guest_at(&srv, 1).await;
    let game = NewGame {
        seed: Some(5),
        ..seated("race", vec![human(), invite()])
    };
    let (id, tokens) = ann.open(&game).await;
    let mut bob = Browser::signed_up(&srv, 2, "Bob").await;
    bob.join(&id, &tokens[1]).await;
    ann.send(api::play(&id, "", "walk", None)).await;
    bob.send(api::play(&id, "", "run", None)).await;

    // The guest makes an account: the game is on it, under its name.
    ann.sign_up("Ann").await;
    let mine = ann.send(api::my_games()).await;
    assert_eq!(mine.your_turn[0].id, id, "{mine:?}");
    let p = ann.send(api::profile("ann")).await;
    assert_eq!(p.playing[0].id, id, "{p:?}");
    // The seat is the account's now (renames run in the background): it
    // links to the profile, and Ann plays it from another browser.
    srv.view_when(&id, "the seat to be Ann's", |s| {
        s.player(0).user.as_deref() == Some("ann")
    })
    .await;
    let s = ann.send(api::game(&id)).await;
    assert_eq!(s.player(0).name, "Ann");
    assert_eq!(s.you, [0]);
    let mut elsewhere = Browser::new(&srv, 3);
    elsewhere.sign_in("Ann").await;
    let s = elsewhere.send(api::game(&id)).await;
    assert_eq!(s.you, [0], "{s:?}");
    ann.send(api::play(&id, "", "walk", None)).await;

    // Deleted: the game is kept, the seat shows "deleted", nobody plays it
    // by the old session, and the opponent still has the game.
    let old = ann.cookie.clone();
    ann.send(api::delete_account(PASSWORD)).await;
    let s = srv
        .view_when(&id, "the seat to show `deleted`", |s| {
            s.player(0).name == "deleted"
        })
        .await;
    assert_eq!(s.player(0).user, None);
    assert_eq!(s.player(1).name, "Bob");
    assert!(s.state.ply >= 3, "{s:?}");
    let p = bob.send(api::profile("bob")).await;
    assert_eq!(p.playing[0].id, id, "{p:?}");
    let mut stale = Browser::new(&srv, 1);
    stale.cookie = old;
    let s = stale.send(api::game(&id)).await;
    assert!(s.you.is_empty(), "{s:?}");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_challenge_by_link_with_an_ai_seat_and_one_whose_creator_left() {
    use tabula_server::lobby::service::RENEW_EVERY;
    let db = temp_db("seeklink");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::signed_up(&srv, 1, "Ann").await;
    let mut bob = Browser::guest_at(&srv, 2).await;

    // By link, one seat to an AI: not listed, open to whoever has the link.
    let by_link = NewSeek {
        unlisted: true,
        seats: vec![
            SeekSeatRequest::Me,
            SeekSeatRequest::Ai {
                level: Some(AiLevel::Random),
            },
            SeekSeatRequest::Open,
        ],
        ..seek("race(players=3)")
    };
    let sid = ann.send(api::seek(&by_link)).await.id;
    assert!(bob.send(api::seeks()).await.is_empty());
    let one = bob.send(api::seek_by_id(&sid)).await;
    assert!(one.unlisted);
    let ai_seat = &one.seats[1];
    assert_eq!(
        (
            ai_seat.state.as_str(),
            ai_seat.level,
            &ai_seat.name,
            ai_seat.bot
        ),
        ("ai", Some(AiLevel::Random), &None, false)
    );
    let game = bob.accept_seek(&sid).await;
    let s = bob.send(api::game(&game)).await;
    assert_eq!(s.player(1).kind, SeatKind::Ai);
    assert_eq!(s.you, [2]);

    // Ann keeps the lobby open, posts a challenge, and leaves.
    let mut ws = common::live(
        &srv,
        ann.cookie.as_deref().expect("cookie"),
        "/api/lobby/ws",
    )
    .await;
    let LobbyMessage::Seeks { .. } = ws.read().await;
    let sid = ann.send(api::seek(&seek("race"))).await.id;
    let listed = bob.send(api::seeks()).await;
    assert!(listed.iter().any(|s| s.id == sid), "{listed:?}");
    drop(ws);
    // Its page closed, the seek lapses soon (a reload would keep it).
    let store = tabula_server::store::Store::open(&common::address(&db).await)
        .await
        .expect("store");
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    };
    let grace = 2 * RENEW_EVERY.as_millis() as i64;
    poll(
        "the seek to lapse after the page closed",
        Duration::from_millis(10),
        || async {
            let doc = store.doc_get("seek", &sid).await.expect("read");
            doc.and_then(|d| d.expires).filter(|e| *e <= now() + grace)
        },
    )
    .await;
    // Once lapsed (its time moved forward here), it is gone for everyone.
    store
        .doc_touch("seek", "u:ann", now() - 1)
        .await
        .expect("lapse");
    assert!(bob.send(api::seeks()).await.is_empty());
    assert_eq!(
        bob.refusal(api::accept(&sid)).await.status,
        StatusCode::NOT_FOUND
    );
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_leaver_loses_on_the_profile_though_the_stand_in_won() {
    let db = temp_db("leaver");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::signed_up(&srv, 1, "Ann").await;
    let mut bob = Browser::signed_up(&srv, 2, "Bob").await;
    let mut cid = Browser::signed_up(&srv, 3, "Cid").await;
    // Ann (Red) is one step from the goal; Blue is to move.
    let game = NewGame {
        position: Some("9,0,0 2 -".into()),
        ..seated("race(players=3)", vec![human(), invite(), invite()])
    };
    let (id, tokens) = ann.open(&game).await;
    for (b, seat) in [(&mut bob, 1), (&mut cid, 2)] {
        b.join(&id, &tokens[seat]).await;
    }
    ann.send(api::leave(&id, "")).await;
    for b in [&mut bob, &mut cid] {
        b.send(api::play(&id, "", "walk", None)).await;
    }
    // The AI stand-in walks Red home: the seat wins, Ann does not.
    let s = srv.ended(&id).await;
    let winners = &s.state.result.as_ref().expect("a result").winners;
    assert_eq!(winners, &[0], "{s:?}");
    let p = ann.send(api::profile("ann")).await;
    assert_eq!(p.record["race"], tally(0, 0, 1), "{p:?}");
    // Listed on her profile as the game she left.
    let listed = &p.finished[0];
    assert_eq!(
        (listed.left.as_slice(), listed.players[0].user.as_deref()),
        (&[0][..], Some("ann"))
    );
    let p = bob.send(api::profile("bob")).await;
    assert_eq!(p.record["race"], tally(0, 0, 1), "{p:?}");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn imports_count_nowhere_claim_what_no_record_proves_and_keep_their_seed() {
    let db = temp_db("forged");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::signed_up(&srv, 1, "Ann").await;
    let record = |end: &str, seed: &str| {
        format!(
            "[Tabula record]\ngame: race\nseed: {seed}\nresult: win 1\nend: {end}\n\n* roll2\n1 run\n"
        )
    };
    let mine = || vec![human(), invite()];
    // What no record can prove stays a claim: the game goes on.
    for (end, reason) in [
        ("time", EndReason::Time),
        ("left", EndReason::Left),
        ("abandoned", EndReason::Abandoned),
    ] {
        let Created { id, tokens } = ann.send(api::import(&record(end, "7"), mine())).await;
        let s = ann.send(api::game(&id)).await;
        assert_eq!(s.state.result, None, "{end}: {s:?}");
        let claim = s.state.claim.as_ref().expect("a claim");
        assert_eq!((claim.reason, claim.winners.as_slice()), (reason, &[0][..]));
        assert!(s.state.imported);
        assert!(!s.over());
        // Played on to its end, it still counts for nobody.
        ann.send(api::resign(&id, &tokens[1].token)).await;
    }
    // A resignation is the record's own word: the game is over by it.
    let created = ann.send(api::import(&record("resign", "7"), mine())).await;
    let s = ann.send(api::game(&created.id)).await;
    assert_eq!(s.reason(), Some(EndReason::Resign));
    let p = ann.send(api::profile("ann")).await;
    assert!(p.record.is_empty(), "imports count on no profile: {p:?}");
    assert_eq!(p.finished.len(), 4, "{p:?}");
    assert!(p.finished.iter().all(|g| g.imported), "{p:?}");
    // A bad seed is refused, not replaced: nothing is stored.
    let before = srv.send(api::games()).await;
    for seed in ["forty-two", "-1", "18446744073709551616"] {
        let refused = ann
            .refusal(api::import(&record("resign", seed), Vec::new()))
            .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert!(
            refused.error.contains(&format!("seed `{seed}`")),
            "{refused}"
        );
    }
    assert_eq!(srv.send(api::games()).await, before);
    drop(srv);
    remove_db(&db);
}
