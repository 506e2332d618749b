//! Players: accounts and sessions, seats that belong to someone, the lobby,
//! chat, hints and profiles, through the API as browsers use it.

mod common;

use axum::http::StatusCode;
use common::{remove_db, start, temp_db, test_registry, Browser};
use serde_json::{json, Value};

fn error(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

#[tokio::test]
async fn accounts_sign_up_in_out_and_are_checked() {
    let db = temp_db("accounts");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.expect(StatusCode::UNAUTHORIZED, "GET", "/api/me", Value::Null)
        .await;
    let me = ann.sign_up("Ann_1").await;
    assert_eq!(me["username"], "Ann_1");
    assert!(ann.cookie.is_some());
    let me = ann
        .expect(StatusCode::OK, "GET", "/api/me", Value::Null)
        .await;
    assert_eq!(me["username"], "Ann_1");

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
        (
            json!({"username": "Bea"}),
            StatusCode::BAD_REQUEST,
            "password",
        ),
    ];
    for (body, status, words) in bad {
        let v = other
            .expect(status, "POST", "/api/account", body.clone())
            .await;
        assert!(error(&v).contains(words), "{body}: {v}");
    }

    // Wrong password, unknown name: the same answer.
    let wrong = json!({"username": "ann_1", "password": "not the password"});
    let v = other
        .expect(
            StatusCode::UNAUTHORIZED,
            "POST",
            "/api/login",
            wrong.clone(),
        )
        .await;
    assert_eq!(error(&v), "wrong user name or password");
    let v = other
        .expect(
            StatusCode::UNAUTHORIZED,
            "POST",
            "/api/login",
            json!({"username": "nobody", "password": "whatever1"}),
        )
        .await;
    assert_eq!(error(&v), "wrong user name or password");
    // Signing in works, case-insensitively, with a new cookie.
    let before = other.cookie.clone();
    let v = other
        .expect(
            StatusCode::OK,
            "POST",
            "/api/login",
            json!({"username": "ANN_1", "password": "a good password"}),
        )
        .await;
    assert_eq!(v["username"], "Ann_1");
    assert_ne!(other.cookie, before);
    // Out: a guest again.
    other
        .expect(StatusCode::OK, "POST", "/api/logout", Value::Null)
        .await;
    other
        .expect(StatusCode::UNAUTHORIZED, "GET", "/api/me", Value::Null)
        .await;

    // Five tries per name, then 429 with Retry-After, from any address.
    let mut tries = Vec::new();
    for n in 0..6u8 {
        let mut b = Browser::new(&srv, 100 + n);
        let (st, headers, _) = b.call_full("POST", "/api/login", wrong.clone()).await;
        tries.push((st, headers.get("retry-after").is_some()));
    }
    // (two tries above already counted for this name)
    assert_eq!(tries[2], (StatusCode::UNAUTHORIZED, false), "{tries:?}");
    assert_eq!(tries[3], (StatusCode::TOO_MANY_REQUESTS, true), "{tries:?}");
    assert_eq!(tries[5].0, StatusCode::TOO_MANY_REQUESTS);
    // Per address too: twenty tries from one address over several names.
    let mut flood = Browser::new(&srv, 200);
    let mut limited = 0;
    for n in 0..25 {
        let body = json!({"username": format!("someone{n}"), "password": "whatever1"});
        if flood.call("POST", "/api/login", body).await.0 == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    assert_eq!(limited, 5);

    // Password change, then delete (another account: the tries above
    // used up this name's sign-in attempts for a minute).
    let mut ann = Browser::new(&srv, 4);
    ann.sign_up("Ann_2").await;
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        "/api/account/password",
        json!({"old": "nope nope", "new": "another good one"}),
    )
    .await;
    ann.expect(
        StatusCode::OK,
        "POST",
        "/api/account/password",
        json!({"old": "a good password", "new": "another good one"}),
    )
    .await;
    let mut again = Browser::new(&srv, 3);
    again
        .expect(
            StatusCode::OK,
            "POST",
            "/api/login",
            json!({"username": "ann_2", "password": "another good one"}),
        )
        .await;
    ann.expect(StatusCode::OK, "GET", "/api/players/ann_2", Value::Null)
        .await;
    ann.expect(
        StatusCode::OK,
        "DELETE",
        "/api/account",
        json!({"password": "another good one"}),
    )
    .await;
    ann.expect(StatusCode::UNAUTHORIZED, "GET", "/api/me", Value::Null)
        .await;
    again
        .expect(StatusCode::UNAUTHORIZED, "GET", "/api/me", Value::Null)
        .await;
    let v = ann
        .expect(
            StatusCode::NOT_FOUND,
            "GET",
            "/api/players/ann_2",
            Value::Null,
        )
        .await;
    assert!(error(&v).contains("deleted"), "{v}");
    // The name stays taken.
    ann.expect(
        StatusCode::CONFLICT,
        "POST",
        "/api/account",
        json!({"username": "Ann_2", "password": "a good password"}),
    )
    .await;
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn the_cookie_needs_this_sites_origin() {
    let db = temp_db("origin");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("ann").await;
    let v = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/games",
            json!({"spec": "race", "seed": 2}),
        )
        .await;
    let id = v["id"].as_str().expect("id").to_string();
    let mv = format!("/api/games/{id}/move");
    // No Origin, or another site's: refused, nothing played.
    ann.origin = None;
    let v = ann
        .expect(
            StatusCode::FORBIDDEN,
            "POST",
            &mv,
            json!({"action": "walk"}),
        )
        .await;
    assert!(error(&v).contains("Origin"), "{v}");
    ann.origin = Some("http://evil.test".into());
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        &mv,
        json!({"action": "walk"}),
    )
    .await;
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        "/api/seeks",
        json!({"spec": "race"}),
    )
    .await;
    let s = ann
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/games/{id}"),
            Value::Null,
        )
        .await;
    assert_eq!(s["state"]["ply"], 1);
    // From the site itself, the cookie plays the account's seats: both
    // seats here (a game at one keyboard), the one to move first.
    ann.origin = Some("http://tabula.test".into());
    ann.expect(StatusCode::OK, "POST", &mv, json!({"action": "walk"}))
        .await;
    let s = ann
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/games/{id}"),
            Value::Null,
        )
        .await;
    assert_eq!(s["you"], json!([0, 1]));
    assert_eq!(s["state"]["players"][0]["user"], "ann");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn an_invite_is_claimed_once_and_tokens_are_stored_hashed() {
    let db = temp_db("invite");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.guest().await;
    let created = ann
        .expect(StatusCode::OK, "POST", "/api/games", json!({"spec": "race", "seed": 5, "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "invite": true}]}))
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let invite = created["tokens"][1]["token"]
        .as_str()
        .expect("token")
        .to_string();
    let g = format!("/api/games/{id}");

    let mut bea = Browser::new(&srv, 2);
    bea.guest().await;
    let joined = bea
        .expect(
            StatusCode::OK,
            "POST",
            &format!("{g}/join"),
            json!({"token": invite, "name": "Bea"}),
        )
        .await;
    assert_eq!(joined["seat"], 1);
    let fresh = joined["token"].as_str().expect("a new token").to_string();
    assert_ne!(fresh, invite);

    // The leaked link is worth nothing now: to a third browser, to a script,
    // and to the creator who still holds it.
    let mut cy = Browser::new(&srv, 3);
    cy.guest().await;
    let v = cy
        .expect(
            StatusCode::FORBIDDEN,
            "POST",
            &format!("{g}/join"),
            json!({"token": invite}),
        )
        .await;
    assert!(error(&v).contains("already used"), "{v}");
    srv.call("POST", &format!("{g}/resign"), json!({"token": invite}))
        .await;
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        &format!("{g}/resign"),
        json!({"token": invite}),
    )
    .await;
    let s = bea.expect(StatusCode::OK, "GET", &g, Value::Null).await;
    assert_eq!(s["state"]["result"], Value::Null);
    assert_eq!(s["you"], json!([1]));

    // Ann moves by her session, Bea by hers (no token), or by the new token.
    ann.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/move"),
        json!({"action": "walk"}),
    )
    .await;
    let v = ann
        .expect(
            StatusCode::FORBIDDEN,
            "POST",
            &format!("{g}/move"),
            json!({"action": "walk"}),
        )
        .await;
    assert!(error(&v).contains("not your turn"), "{v}");
    bea.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/move"),
        json!({"action": "run"}),
    )
    .await;
    let (st, _) = srv
        .call(
            "POST",
            &format!("{g}/move"),
            json!({"token": fresh, "action": "walk"}),
        )
        .await;
    assert_eq!(
        st,
        StatusCode::FORBIDDEN,
        "not Bea's turn: the token is hers"
    );
    // Two tabs of one browser: the same session plays.
    let mut ann_tab = Browser::new(&srv, 1);
    ann_tab.cookie = ann.cookie.clone();
    ann_tab
        .expect(
            StatusCode::OK,
            "POST",
            &format!("{g}/move"),
            json!({"action": "walk"}),
        )
        .await;

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
    let (id, t) = srv.create(json!({"spec": "race", "seed": 1})).await;
    let (st, v) = srv
        .call(
            "POST",
            &format!("/api/games/{id}/hint"),
            json!({"token": t[0]}),
        )
        .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert!(
        error(&v).contains("hints are for games against the AI"),
        "{v}"
    );
    assert_eq!(
        srv.get(&format!("/api/games/{id}")).await["state"]["hints"],
        false
    );
    let (id, t) = srv
        .create(json!({"spec": "race", "seed": 1, "hints": true}))
        .await;
    assert_eq!(
        srv.get(&format!("/api/games/{id}")).await["state"]["hints"],
        true
    );
    srv.post(&format!("/api/games/{id}/hint"), json!({"token": t[0]}))
        .await;
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn two_strangers_meet_in_the_lobby_play_chat_and_see_it_on_their_profiles() {
    let db = temp_db("lobby");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("Ann").await;
    let mut bob = Browser::new(&srv, 2);
    bob.sign_up("Bob").await;
    let mut spy = Browser::new(&srv, 3);

    // Without a session there is no one to seat.
    let v = spy
        .expect(
            StatusCode::UNAUTHORIZED,
            "POST",
            "/api/seeks",
            json!({"spec": "race"}),
        )
        .await;
    assert!(error(&v).contains("session"), "{v}");
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
    assert_eq!(
        ann.expect(StatusCode::OK, "GET", "/api/seeks", Value::Null)
            .await,
        json!([])
    );

    let seek = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race"}),
        )
        .await;
    let sid = seek["id"].as_str().expect("id").to_string();
    let listed = bob
        .expect(StatusCode::OK, "GET", "/api/seeks", Value::Null)
        .await;
    assert_eq!(listed[0]["id"], sid.as_str());
    assert_eq!(listed[0]["creator"], "Ann");
    assert_eq!(listed[0]["mine"], false);
    assert_eq!(listed[0]["seats"][1]["state"], "open");
    ann.expect(
        StatusCode::CONFLICT,
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        Value::Null,
    )
    .await;
    let accepted = bob
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await;
    let game = accepted["game"]
        .as_str()
        .expect("the game starts")
        .to_string();
    spy.guest().await;
    let v = spy
        .expect(
            StatusCode::CONFLICT,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await;
    assert!(error(&v).contains("taken"), "{v}");
    // Ann sees her seek with its game, and can no longer cancel it.
    let mine = ann
        .expect(StatusCode::OK, "GET", "/api/seeks", Value::Null)
        .await;
    assert_eq!(mine[0]["game"], game.as_str());
    ann.expect(
        StatusCode::CONFLICT,
        "DELETE",
        &format!("/api/seeks/{sid}"),
        Value::Null,
    )
    .await;

    let g = format!("/api/games/{game}");
    let s = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await;
    assert_eq!(s["you"], json!([0]));
    assert_eq!(s["state"]["players"][0]["name"], "Ann");
    assert_eq!(s["state"]["players"][1]["name"], "Bob");
    assert_eq!(s["state"]["players"][1]["user"], "bob");
    // Hints: never between people unless agreed.
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        &format!("{g}/hint"),
        Value::Null,
    )
    .await;
    // Bob's turn list is empty, Ann's has the game.
    let turn = ann
        .expect(StatusCode::OK, "GET", "/api/me/games", Value::Null)
        .await;
    assert_eq!(turn["your_turn"][0]["id"], game.as_str());
    let turn = bob
        .expect(StatusCode::OK, "GET", "/api/me/games", Value::Null)
        .await;
    assert_eq!(turn["your_turn"], json!([]));
    assert_eq!(turn["playing"][0]["id"], game.as_str());

    // Chat: players in theirs, the spectator in his; the players do not
    // read the spectators' room while the game is on.
    ann.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/chat"),
        json!({"room": "players", "text": "good luck!"}),
    )
    .await;
    bob.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/chat"),
        json!({"room": "players", "text": "you too"}),
    )
    .await;
    let v = spy
        .expect(
            StatusCode::FORBIDDEN,
            "POST",
            &format!("{g}/chat"),
            json!({"room": "players", "text": "hi"}),
        )
        .await;
    assert!(error(&v).contains("only the players"), "{v}");
    bob.expect(
        StatusCode::FORBIDDEN,
        "POST",
        &format!("{g}/chat"),
        json!({"room": "spectators", "text": "psst"}),
    )
    .await;
    spy.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/chat"),
        json!({"room": "spectators", "text": "play run!"}),
    )
    .await;
    let long = "x".repeat(141);
    spy.expect(
        StatusCode::BAD_REQUEST,
        "POST",
        &format!("{g}/chat"),
        json!({"room": "spectators", "text": long}),
    )
    .await;
    spy.expect(
        StatusCode::BAD_REQUEST,
        "POST",
        &format!("{g}/chat"),
        json!({"room": "spectators", "text": "  "}),
    )
    .await;
    let seen_by_ann = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await["chat"].clone();
    assert_eq!(
        seen_by_ann.as_array().map(Vec::len),
        Some(2),
        "{seen_by_ann}"
    );
    let seen_by_spy = spy.expect(StatusCode::OK, "GET", &g, Value::Null).await["chat"].clone();
    assert_eq!(
        seen_by_spy.as_array().map(Vec::len),
        Some(3),
        "{seen_by_spy}"
    );
    assert_eq!(seen_by_spy[2]["name"], "Guest");
    // Rate limited: five at once, then 429.
    let mut codes = Vec::new();
    for i in 0..6 {
        codes.push(
            spy.call(
                "POST",
                &format!("{g}/chat"),
                json!({"room": "spectators", "text": format!("{i}")}),
            )
            .await
            .0,
        );
    }
    assert!(codes.contains(&StatusCode::TOO_MANY_REQUESTS), "{codes:?}");

    // Play to the end by sessions only.
    for _ in 0..200 {
        let s = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await;
        if s["state"]["turn"]["kind"] == "over" {
            break;
        }
        let seat = s["state"]["turn"]["seat"].as_u64().expect("seat");
        let who = if seat == 0 { &mut ann } else { &mut bob };
        who.expect(
            StatusCode::OK,
            "POST",
            &format!("{g}/move"),
            json!({"action": "run"}),
        )
        .await;
    }
    let s = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await;
    assert_eq!(s["state"]["turn"]["kind"], "over");
    // Over: the players may read the spectators now; the export has it all.
    assert_eq!(
        s["chat"].as_array().map(Vec::len),
        Some(3 + codes.iter().filter(|c| c.is_success()).count())
    );
    let (_, record) = ann.call("GET", &format!("{g}/record"), Value::Null).await;
    let record = record.as_str().unwrap_or("").to_string();
    assert!(record.contains("# [players] Ann: good luck!"), "{record}");
    assert!(
        record.contains("# [spectators] Guest: play run!"),
        "{record}"
    );

    // Profiles: the game, and how it went, for each.
    let winner = s["state"]["result"]["winners"][0]
        .as_u64()
        .expect("a winner");
    for (name, seat) in [("ann", 0), ("Bob", 1)] {
        let p = ann
            .expect(
                StatusCode::OK,
                "GET",
                &format!("/api/players/{name}"),
                Value::Null,
            )
            .await;
        assert_eq!(p["finished"][0]["id"], game.as_str(), "{p}");
        let tally = &p["record"]["race"];
        let won = u64::from(seat == winner);
        assert_eq!(
            tally,
            &json!({"win": won, "draw": 0, "loss": 1 - won}),
            "{p}"
        );
    }
    let page = ann
        .expect(
            StatusCode::OK,
            "GET",
            "/api/players/bob/games?page=1",
            Value::Null,
        )
        .await;
    assert_eq!(page["games"], json!([]));
    assert_eq!(page["more"], false);
    ann.expect(
        StatusCode::NOT_FOUND,
        "GET",
        "/api/players/nobody",
        Value::Null,
    )
    .await;
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_seek_of_three_fills_in_order_and_can_be_cancelled() {
    let db = temp_db("seek3");
    let srv = start(test_registry(), &db).await;
    let mut a = Browser::new(&srv, 1);
    a.sign_up("Ann").await;
    let mut b = Browser::new(&srv, 2);
    b.guest().await;
    let mut c = Browser::new(&srv, 3);
    c.sign_up("Cy").await;
    // A direct challenge: only Cy sees and accepts it first.
    let seek = a
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race(players=3)", "to": "cy"}),
        )
        .await;
    let sid = seek["id"].as_str().expect("id").to_string();
    assert_eq!(
        b.expect(StatusCode::OK, "GET", "/api/seeks", Value::Null)
            .await,
        json!([])
    );
    b.expect(
        StatusCode::FORBIDDEN,
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        Value::Null,
    )
    .await;
    let first = c
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await;
    assert_eq!(first["game"], Value::Null, "one seat still open");
    let last = b
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await;
    let game = last["game"].as_str().expect("game").to_string();
    let s = c
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/games/{game}"),
            Value::Null,
        )
        .await;
    let names: Vec<_> = s["state"]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["name"].clone())
        .collect();
    assert_eq!(names, [json!("Ann"), json!("Cy"), json!("Guest")]);
    assert_eq!(s["you"], json!([1]));

    // Cancelling: the creator only.
    let seek = a
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race", "seats": [{"type": "open"}, {"type": "me"}]}),
        )
        .await;
    let sid = seek["id"].as_str().expect("id").to_string();
    b.expect(
        StatusCode::FORBIDDEN,
        "DELETE",
        &format!("/api/seeks/{sid}"),
        Value::Null,
    )
    .await;
    a.expect(
        StatusCode::OK,
        "DELETE",
        &format!("/api/seeks/{sid}"),
        Value::Null,
    )
    .await;
    b.expect(
        StatusCode::NOT_FOUND,
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        Value::Null,
    )
    .await;
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

/// Game `g` once `pred` holds for it (renames run in the background).
async fn once(b: &mut Browser<'_>, g: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let s = b.expect(StatusCode::OK, "GET", g, Value::Null).await;
        if pred(&s) {
            return s;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("{g} never changed as expected");
}

#[tokio::test]
async fn a_guests_games_follow_its_new_account_and_stay_when_it_is_deleted() {
    let db = temp_db("follow");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.guest().await;
    let created = ann
        .expect(StatusCode::OK, "POST", "/api/games", json!({"spec": "race", "seed": 5, "seats": [{"type": "human"}, {"type": "human", "invite": true}]}))
        .await;
    let id = created["id"].as_str().expect("id").to_string();
    let invite = created["tokens"][1]["token"].as_str().expect("token");
    let g = format!("/api/games/{id}");
    let mv = format!("{g}/move");
    let mut bob = Browser::new(&srv, 2);
    bob.sign_up("Bob").await;
    bob.expect(
        StatusCode::OK,
        "POST",
        &format!("{g}/join"),
        json!({"token": invite}),
    )
    .await;
    ann.expect(StatusCode::OK, "POST", &mv, json!({"action": "walk"}))
        .await;
    bob.expect(StatusCode::OK, "POST", &mv, json!({"action": "run"}))
        .await;

    // The guest makes an account: the game is on it, under its name.
    ann.sign_up("Ann").await;
    let mine = ann
        .expect(StatusCode::OK, "GET", "/api/me/games", Value::Null)
        .await;
    assert_eq!(mine["your_turn"][0]["id"], id.as_str(), "{mine}");
    let p = ann
        .expect(StatusCode::OK, "GET", "/api/players/ann", Value::Null)
        .await;
    assert_eq!(p["playing"][0]["id"], id.as_str(), "{p}");
    // The seat is the account's now: it links to the profile, and Ann
    // plays it from another browser.
    let s = once(&mut ann, &g, |s| s["state"]["players"][0]["user"] == "ann").await;
    assert_eq!(s["state"]["players"][0]["name"], "Ann");
    assert_eq!(s["you"], json!([0]));
    let mut elsewhere = Browser::new(&srv, 3);
    elsewhere.sign_in("Ann").await;
    let s = elsewhere
        .expect(StatusCode::OK, "GET", &g, Value::Null)
        .await;
    assert_eq!(s["you"], json!([0]), "{s}");
    ann.expect(StatusCode::OK, "POST", &mv, json!({"action": "walk"}))
        .await;

    // Deleted: the game is kept, the seat shows "deleted", nobody plays it
    // by the old session, and the opponent still has the game.
    let old = ann.cookie.clone();
    ann.expect(
        StatusCode::OK,
        "DELETE",
        "/api/account",
        json!({"password": "a good password"}),
    )
    .await;
    let s = once(&mut bob, &g, |s| {
        s["state"]["players"][0]["name"] == "deleted"
    })
    .await;
    assert_eq!(s["state"]["players"][0]["user"], Value::Null);
    assert_eq!(s["state"]["players"][1]["name"], "Bob");
    assert!(s["state"]["ply"].as_u64() >= Some(3), "{s}");
    let p = bob
        .expect(StatusCode::OK, "GET", "/api/players/bob", Value::Null)
        .await;
    assert_eq!(p["playing"][0]["id"], id.as_str(), "{p}");
    let mut stale = Browser::new(&srv, 1);
    stale.cookie = old;
    let s = stale.expect(StatusCode::OK, "GET", &g, Value::Null).await;
    assert!(s["you"].as_array().is_none_or(Vec::is_empty), "{s}");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_challenge_by_link_with_an_ai_seat_and_one_whose_creator_left() {
    use futures_util::StreamExt;
    use tabula_server::lobby::service::RENEW_EVERY;
    let db = temp_db("seeklink");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("Ann").await;
    let mut bob = Browser::new(&srv, 2);
    bob.guest().await;

    // By link, one seat to an AI: not listed, open to whoever has the link.
    let seek = ann
        .expect(StatusCode::OK, "POST", "/api/seeks", json!({"spec": "race(players=3)", "unlisted": true, "seats": [{"type": "me"}, {"type": "ai", "level": "random"}, {"type": "open"}]}))
        .await;
    let sid = seek["id"].as_str().expect("id").to_string();
    assert_eq!(
        bob.expect(StatusCode::OK, "GET", "/api/seeks", Value::Null)
            .await,
        json!([])
    );
    let one = bob
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/seeks/{sid}"),
            Value::Null,
        )
        .await;
    assert_eq!(one["unlisted"], true);
    assert_eq!(one["seats"][1], json!({"state": "ai", "level": "random"}));
    let accepted = bob
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/seeks/{sid}/accept"),
            Value::Null,
        )
        .await;
    let game = accepted["game"].as_str().expect("the last open seat");
    let s = bob
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/games/{game}"),
            Value::Null,
        )
        .await;
    assert_eq!(s["state"]["players"][1]["kind"], "ai");
    assert_eq!(s["you"], json!([2]));

    // Ann keeps the lobby open, posts a challenge, and leaves.
    let mut ws = common::live(
        &srv,
        ann.cookie.as_deref().expect("cookie"),
        "/api/lobby/ws",
    )
    .await;
    ws.next().await.expect("the seeks").expect("ok");
    let seek = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race"}),
        )
        .await;
    let sid = seek["id"].as_str().expect("id").to_string();
    let listed = bob
        .expect(StatusCode::OK, "GET", "/api/seeks", Value::Null)
        .await;
    let ids: Vec<_> = listed
        .as_array()
        .expect("seeks")
        .iter()
        .map(|x| x["id"].clone())
        .collect();
    assert!(ids.contains(&json!(sid)), "{listed}");
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
    let mut lapses = None;
    for _ in 0..200 {
        let doc = store.doc_get("seek", &sid).await.expect("read");
        lapses = doc.and_then(|d| d.expires);
        if lapses.is_some_and(|e| e <= now() + grace) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(
        lapses.is_some_and(|e| e <= now() + grace),
        "{lapses:?} after the page closed"
    );
    // Once lapsed (its time moved forward here), it is gone for everyone.
    store
        .doc_touch("seek", "u:ann", now() - 1)
        .await
        .expect("lapse");
    assert_eq!(
        bob.expect(StatusCode::OK, "GET", "/api/seeks", Value::Null)
            .await,
        json!([])
    );
    bob.expect(
        StatusCode::NOT_FOUND,
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        Value::Null,
    )
    .await;
    drop(srv);
    remove_db(&db);
}

/// Wait until game `g` is over (its AI seats have played); its state.
async fn finished(b: &mut Browser<'_>, g: &str) -> Value {
    for _ in 0..500 {
        let s = b.expect(StatusCode::OK, "GET", g, Value::Null).await;
        if s["state"]["turn"]["kind"] == "over" {
            return s;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("{g} never ended");
}

#[tokio::test]
async fn a_leaver_loses_on_the_profile_though_the_stand_in_won() {
    let db = temp_db("leaver");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("Ann").await;
    let mut bob = Browser::new(&srv, 2);
    bob.sign_up("Bob").await;
    let mut cid = Browser::new(&srv, 3);
    cid.sign_up("Cid").await;
    // Ann (Red) is one step from the goal; Blue is to move.
    let created = ann
        .expect(StatusCode::OK, "POST", "/api/games", json!({"spec": "race(players=3)",
            "position": "9,0,0 2 -",
            "seats": [{"type": "human"}, {"type": "human", "invite": true}, {"type": "human", "invite": true}]}))
        .await;
    let id = created["id"].as_str().expect("id");
    let g = format!("/api/games/{id}");
    for (b, seat) in [(&mut bob, 1), (&mut cid, 2)] {
        let token = created["tokens"][seat]["token"].clone();
        b.expect(
            StatusCode::OK,
            "POST",
            &format!("{g}/join"),
            json!({"token": token}),
        )
        .await;
    }
    ann.expect(StatusCode::OK, "POST", &format!("{g}/leave"), Value::Null)
        .await;
    for b in [&mut bob, &mut cid] {
        b.expect(
            StatusCode::OK,
            "POST",
            &format!("{g}/move"),
            json!({"action": "walk"}),
        )
        .await;
    }
    // The AI stand-in walks Red home: the seat wins, Ann does not.
    let s = finished(&mut ann, &g).await;
    assert_eq!(s["state"]["result"]["winners"], json!([0]), "{s}");
    let tally = |p: &Value| p["record"]["race"].clone();
    let p = ann
        .expect(StatusCode::OK, "GET", "/api/players/ann", Value::Null)
        .await;
    assert_eq!(tally(&p), json!({"win": 0, "draw": 0, "loss": 1}), "{p}");
    // Listed on her profile as the game she left.
    let listed = &p["finished"][0];
    assert_eq!(
        (&listed["left"], &listed["players"][0]["user"]),
        (&json!([0]), &json!("ann"))
    );
    let p = bob
        .expect(StatusCode::OK, "GET", "/api/players/bob", Value::Null)
        .await;
    assert_eq!(tally(&p), json!({"win": 0, "draw": 0, "loss": 1}), "{p}");
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn imports_count_nowhere_claim_what_no_record_proves_and_keep_their_seed() {
    let db = temp_db("forged");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("Ann").await;
    let record = |end: &str, seed: &str| {
        format!(
            "[Tabula record]\ngame: race\nseed: {seed}\nresult: win 1\nend: {end}\n\n* roll2\n1 run\n"
        )
    };
    let mine = json!([{"type": "human"}, {"type": "human", "invite": true}]);
    // What no record can prove stays a claim: the game goes on.
    for end in ["time", "left", "abandoned"] {
        let created = ann
            .expect(
                StatusCode::OK,
                "POST",
                "/api/games/import",
                json!({"record": record(end, "7"), "seats": mine}),
            )
            .await;
        let g = format!("/api/games/{}", created["id"].as_str().expect("id"));
        let s = ann.expect(StatusCode::OK, "GET", &g, Value::Null).await;
        assert_eq!(s["state"]["result"], Value::Null, "{end}: {s}");
        assert_eq!(s["state"]["claim"]["reason"], end, "{s}");
        assert_eq!(s["state"]["claim"]["winners"], json!([0]), "{s}");
        assert_eq!(s["state"]["imported"], true);
        assert_ne!(s["state"]["turn"]["kind"], "over");
        // Played on to its end, it still counts for nobody.
        ann.expect(
            StatusCode::OK,
            "POST",
            &format!("{g}/resign"),
            json!({"token": created["tokens"][1]["token"]}),
        )
        .await;
    }
    // A resignation is the record's own word: the game is over by it.
    let created = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/games/import",
            json!({"record": record("resign", "7"), "seats": mine}),
        )
        .await;
    let s = ann
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/games/{}", created["id"].as_str().expect("id")),
            Value::Null,
        )
        .await;
    assert_eq!(s["state"]["result"]["reason"], "resign");
    let p = ann
        .expect(StatusCode::OK, "GET", "/api/players/ann", Value::Null)
        .await;
    assert_eq!(p["record"], json!({}), "imports count on no profile: {p}");
    let finished = p["finished"].as_array().expect("finished");
    assert_eq!(finished.len(), 4, "{p}");
    assert!(finished.iter().all(|g| g["imported"] == true), "{p}");
    // A bad seed is refused, not replaced: nothing is stored.
    let before = srv.get("/api/games").await;
    for seed in ["forty-two", "-1", "18446744073709551616"] {
        let v = ann
            .expect(
                StatusCode::BAD_REQUEST,
                "POST",
                "/api/games/import",
                json!({"record": record("resign", seed)}),
            )
            .await;
        assert!(error(&v).contains(&format!("seed `{seed}`")), "{v}");
    }
    assert_eq!(srv.get("/api/games").await, before);
    drop(srv);
    remove_db(&db);
}
