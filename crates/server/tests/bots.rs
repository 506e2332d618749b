//! Bots: personal API tokens (shown once, stored hashed, revocable), bearer
//! requests on the game endpoints, the upgrade to a bot account, and the
//! bot API's streams, through the router as programs use it.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{remove_db, start, temp_db, test_registry, Browser, Server};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

fn request(method: &str, path: &str, token: &str, body: &Value) -> Request<Body> {
    let body = if body.is_null() {
        Body::empty()
    } else {
        Body::from(body.to_string())
    };
    Request::builder()
        .method(method)
        .uri(path)
        .header("host", "tabula.test")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(body)
        .expect("request")
}

/// A request signed by `token` alone (no cookie, no Origin).
async fn bearer(
    srv: &Server,
    token: &str,
    method: &str,
    path: &str,
    body: Value,
) -> (StatusCode, Value) {
    let res = srv
        .router
        .clone()
        .oneshot(request(method, path, token, &body))
        .await
        .expect("response");
    let status = res.status();
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

/// An open NDJSON stream.
struct Stream {
    body: Body,
    buffer: String,
}

impl Stream {
    async fn open(srv: &Server, token: &str, path: &str) -> Stream {
        let res = srv
            .router
            .clone()
            .oneshot(request("GET", path, token, &Value::Null))
            .await
            .expect("response");
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let kind = res.headers().get("content-type").cloned();
        assert_eq!(
            kind.as_ref().and_then(|v| v.to_str().ok()),
            Some("application/x-ndjson")
        );
        Stream {
            body: res.into_body(),
            buffer: String::new(),
        }
    }

    /// The next JSON line (keep-alive lines skipped), within 10 s.
    async fn next(&mut self) -> Value {
        loop {
            if let Some((line, rest)) = self.buffer.split_once('\n') {
                let line = line.trim().to_string();
                self.buffer = rest.to_string();
                if line.is_empty() {
                    continue;
                }
                return serde_json::from_str(&line).expect("a JSON line");
            }
            let frame = tokio::time::timeout(Duration::from_secs(10), self.body.frame())
                .await
                .expect("a line within 10 s")
                .expect("the stream is open")
                .expect("a frame");
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }

    /// Whether the stream ends within `wait` (lines meanwhile skipped).
    async fn ended_within(&mut self, wait: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match tokio::time::timeout_at(deadline, self.body.frame()).await {
                Err(_) => return false,
                Ok(None) => return true,
                Ok(Some(_)) => continue,
            }
        }
    }

    /// The next line of type `kind`, skipping others.
    async fn next_of(&mut self, kind: &str) -> Value {
        for _ in 0..20 {
            let v = self.next().await;
            if v["type"] == kind {
                return v;
            }
        }
        panic!("no `{kind}` event");
    }
}

/// Sign up `name` in a browser and make a token; the browser and token.
async fn with_token<'a>(srv: &'a Server, name: &str, n: u8) -> (Browser<'a>, String) {
    let mut b = Browser::new(srv, n);
    b.sign_up(name).await;
    let v = b
        .expect(
            StatusCode::CREATED,
            "POST",
            "/api/account/tokens",
            json!({"description": format!("{name}'s program")}),
        )
        .await;
    let token = v["token"].as_str().expect("token").to_string();
    (b, token)
}

#[tokio::test]
async fn revoking_a_token_ends_the_streams_it_opened_within_a_second() {
    let db = temp_db("bot-revoke");
    let srv = start(test_registry(), &db).await;
    let (mut robo, token) = with_token(&srv, "Robo", 2).await;
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        "/api/bot/account/upgrade",
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let second = robo
        .expect(
            StatusCode::CREATED,
            "POST",
            "/api/account/tokens",
            json!({"description": "a second program"}),
        )
        .await;
    let other = second["token"].as_str().expect("token").to_string();
    let (game, _) = srv.create(json!({"spec": "race"})).await;
    let mut events = Stream::open(&srv, &token, "/api/bot/stream/event").await;
    let mut game_stream = Stream::open(&srv, &token, &format!("/api/bot/game/stream/{game}")).await;
    let mut kept = Stream::open(&srv, &other, "/api/bot/stream/event").await;
    game_stream.next_of("gameFull").await;
    let listed = robo
        .expect(StatusCode::OK, "GET", "/api/account/tokens", Value::Null)
        .await;
    let id = listed
        .as_array()
        .and_then(|l| l.iter().find(|t| t["description"] == "Robo's program"))
        .and_then(|t| t["id"].as_str())
        .expect("the first token")
        .to_string();
    robo.expect(
        StatusCode::OK,
        "DELETE",
        &format!("/api/account/tokens/{id}"),
        Value::Null,
    )
    .await;
    for stream in [&mut events, &mut game_stream] {
        assert!(stream.ended_within(Duration::from_secs(1)).await);
    }
    // The other token's stream is not touched.
    assert!(!kept.ended_within(Duration::from_millis(300)).await);
    remove_db(&db);
}

#[tokio::test]
async fn tokens_are_shown_once_stored_hashed_and_revocable() {
    let db = temp_db("bot-tokens");
    let srv = start(test_registry(), &db).await;
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("Ann").await;
    let created = ann
        .expect(
            StatusCode::CREATED,
            "POST",
            "/api/account/tokens",
            json!({"description": " my bot "}),
        )
        .await;
    let token = created["token"].as_str().expect("token").to_string();
    assert!(token.starts_with("tbl_") && token.len() == 68, "{token}");
    assert_eq!(created["description"], "my bot");
    let id = created["id"].as_str().expect("id").to_string();

    // Bad requests change nothing.
    for body in [json!({"description": ""}), json!({"name": "x"})] {
        ann.expect(StatusCode::BAD_REQUEST, "POST", "/api/account/tokens", body)
            .await;
    }
    // A cookie from another site may not make one.
    ann.origin = Some("https://evil.test".into());
    ann.expect(
        StatusCode::FORBIDDEN,
        "POST",
        "/api/account/tokens",
        json!({"description": "x"}),
    )
    .await;
    ann.origin = Some("http://tabula.test".into());

    // The list never shows the secret.
    let list = ann
        .expect(StatusCode::OK, "GET", "/api/account/tokens", Value::Null)
        .await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["id"], id.as_str());
    assert!(list[0]["last_used"].is_null());
    assert!(!list.to_string().contains(&token[4..]), "{list}");

    // The token signs requests as Ann, without Origin.
    let (st, me) = bearer(&srv, &token, "GET", "/api/me", Value::Null).await;
    assert_eq!((st, me["username"].clone()), (StatusCode::OK, json!("Ann")));
    let list = ann
        .expect(StatusCode::OK, "GET", "/api/account/tokens", Value::Null)
        .await;
    assert!(list[0]["last_used"].as_i64().is_some(), "{list}");

    // Unknown tokens are refused, even where a guest may read.
    for bad in ["tbl_0000", "nonsense", ""] {
        let (st, _) = bearer(&srv, bad, "GET", "/api/me", Value::Null).await;
        assert_eq!(st, StatusCode::UNAUTHORIZED, "{bad}");
    }
    let (st, _) = bearer(&srv, "tbl_x", "GET", "/api/seeks", Value::Null).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);

    // Revoked: 401 from then on.
    ann.expect(
        StatusCode::NOT_FOUND,
        "DELETE",
        "/api/account/tokens/nope",
        Value::Null,
    )
    .await;
    ann.expect(
        StatusCode::OK,
        "DELETE",
        &format!("/api/account/tokens/{id}"),
        Value::Null,
    )
    .await;
    let (st, _) = bearer(&srv, &token, "GET", "/api/me", Value::Null).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);

    // Stored as a SHA-256 only.
    let (_, second) = {
        let v = ann
            .expect(
                StatusCode::CREATED,
                "POST",
                "/api/account/tokens",
                json!({"description": "again"}),
            )
            .await;
        ((), v["token"].as_str().expect("token").to_string())
    };
    drop(ann);
    drop(srv);
    if db.exists() {
        let mut bytes = std::fs::read(&db).unwrap_or_default();
        bytes.extend(std::fs::read(format!("{}-wal", db.display())).unwrap_or_default());
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(&second[4..]),
            "a token is stored in the clear"
        );
        let conn = rusqlite::Connection::open(&db).expect("open");
        let ids: Vec<String> = conn
            .prepare("SELECT id FROM docs WHERE kind = 'api_token'")
            .expect("query")
            .query_map([], |r| r.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("ids");
        use sha2::Digest;
        let hash: String = sha2::Sha256::digest(second.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(ids, vec![hash]);
        remove_db(&db);
    }
}

#[tokio::test]
async fn a_token_plays_the_accounts_seats_on_the_game_endpoints() {
    let db = temp_db("bot-bearer");
    let srv = start(test_registry(), &db).await;
    let (_, token) = with_token(&srv, "Ann", 1).await;
    let (st, created) = bearer(
        &srv,
        &token,
        "POST",
        "/api/games",
        json!({"spec": "race", "seed": 3}),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{created}");
    let id = created["id"].as_str().expect("id");
    let (_, view) = bearer(
        &srv,
        &token,
        "GET",
        &format!("/api/games/{id}"),
        Value::Null,
    )
    .await;
    assert_eq!(view["you"], json!([0, 1]), "{view}");
    assert_eq!(view["state"]["players"][0]["user"], "ann");
    assert!(view["state"]["players"][0].get("bot").is_none(), "a person");
    // No seat token, no cookie: the account's seats.
    let (st, v) = bearer(
        &srv,
        &token,
        "POST",
        &format!("/api/games/{id}/move"),
        json!({"action": "walk"}),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // Someone else's token is nobody there.
    let (_, other) = with_token(&srv, "Bob", 2).await;
    let (st, _) = bearer(
        &srv,
        &other,
        "POST",
        &format!("/api/games/{id}/move"),
        json!({"action": "walk"}),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // The bot API is for bot accounts.
    let (st, v) = bearer(&srv, &token, "GET", "/api/bot/stream/event", Value::Null).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    let mut b = Browser::new(&srv, 3);
    b.guest().await;
    let (st, _) = b.call("GET", "/api/bot/stream/event", Value::Null).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
    remove_db(&db);
}

#[tokio::test]
async fn only_an_account_that_never_played_becomes_a_bot() {
    let db = temp_db("bot-upgrade");
    let srv = start(test_registry(), &db).await;
    let (mut ann, ann_token) = with_token(&srv, "Ann", 1).await;
    ann.expect(
        StatusCode::OK,
        "POST",
        "/api/games",
        json!({"spec": "race"}),
    )
    .await;
    let (st, v) = bearer(
        &srv,
        &ann_token,
        "POST",
        "/api/bot/account/upgrade",
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");

    let (mut robo, token) = with_token(&srv, "Robo", 2).await;
    robo.origin = None;
    robo.expect(
        StatusCode::FORBIDDEN,
        "POST",
        "/api/bot/account/upgrade",
        Value::Null,
    )
    .await;
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        "/api/bot/account/upgrade",
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let profile = ann
        .expect(StatusCode::OK, "GET", "/api/players/robo", Value::Null)
        .await;
    assert_eq!(profile["bot"], true);
    let profile = ann
        .expect(StatusCode::OK, "GET", "/api/players/ann", Value::Null)
        .await;
    assert!(profile.get("bot").is_none(), "{profile}");

    // A bot does not use the people's lobby.
    let (st, v) = bearer(&srv, &token, "POST", "/api/seeks", json!({"spec": "race"})).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    let sid = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race"}),
        )
        .await["id"]
        .as_str()
        .expect("id")
        .to_string();
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    remove_db(&db);
}

#[tokio::test]
async fn a_bot_is_challenged_accepts_and_plays_through_its_streams() {
    let db = temp_db("bot-streams");
    let srv = start(test_registry(), &db).await;
    let (mut ann, _) = with_token(&srv, "Ann", 1).await;
    let (_, token) = with_token(&srv, "Robo", 2).await;
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        "/api/bot/account/upgrade",
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::OK);

    let mut events = Stream::open(&srv, &token, "/api/bot/stream/event").await;
    // A direct challenge, declined: withdrawn from the lobby.
    let declined = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race", "to": "robo"}),
        )
        .await["id"]
        .as_str()
        .expect("id")
        .to_string();
    let ev = events.next_of("challenge").await;
    assert_eq!(ev["challenge"]["id"], declined.as_str());
    assert_eq!(ev["challenge"]["to"], "robo");
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        &format!("/api/bot/challenge/{declined}/decline"),
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    ann.expect(
        StatusCode::NOT_FOUND,
        "GET",
        &format!("/api/seeks/{declined}"),
        Value::Null,
    )
    .await;
    let ev = events.next_of("challengeCanceled").await;
    assert_eq!(ev["challenge"]["id"], declined.as_str());

    // Another, accepted: the game starts.
    let sid = ann
        .expect(
            StatusCode::OK,
            "POST",
            "/api/seeks",
            json!({"spec": "race", "to": "Robo"}),
        )
        .await["id"]
        .as_str()
        .expect("id")
        .to_string();
    let ev = events.next_of("challenge").await;
    assert_eq!(ev["challenge"]["id"], sid.as_str());
    let (st, accepted) = bearer(
        &srv,
        &token,
        "POST",
        &format!("/api/bot/challenge/{sid}/accept"),
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{accepted}");
    let game = accepted["game"].as_str().expect("game").to_string();
    let ev = events.next_of("gameStart").await;
    assert_eq!(ev["game"]["id"], game.as_str());
    let seek = ann
        .expect(
            StatusCode::OK,
            "GET",
            &format!("/api/seeks/{sid}"),
            Value::Null,
        )
        .await;
    assert_eq!(seek["seats"][1]["bot"], true, "{seek}");

    // The game's stream: the whole game, then every change.
    let mut stream = Stream::open(&srv, &token, &format!("/api/bot/game/stream/{game}")).await;
    let full = stream.next().await;
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["you"], json!([1]));
    let players = &full["state"]["players"];
    assert_eq!(
        (players[1]["bot"].clone(), players[1]["user"].clone()),
        (json!(true), json!("robo"))
    );
    assert!(players[0].get("bot").is_none());

    // Ann (seat 0) and the bot (seat 1) take turns until the race ends.
    let g = format!("/api/games/{game}");
    let mut state = full["state"].clone();
    let mut bot_moves = 0;
    while state["turn"]["kind"] == "player" {
        if state["turn"]["seat"] == 0 {
            ann.expect(
                StatusCode::OK,
                "POST",
                &format!("{g}/move"),
                json!({"action": "run"}),
            )
            .await;
        } else {
            let (st, v) = bearer(
                &srv,
                &token,
                "POST",
                &format!("/api/bot/game/{game}/move/run"),
                Value::Null,
            )
            .await;
            assert_eq!(st, StatusCode::OK, "{v}");
            bot_moves += 1;
        }
        let before = state["ply"].as_u64();
        while state["ply"].as_u64() == before {
            state = stream.next_of("gameState").await["state"].clone();
        }
    }
    assert!(bot_moves > 0);
    assert_eq!(state["turn"]["kind"], "over");
    let ev = events.next_of("gameFinish").await;
    assert_eq!(ev["game"]["id"], game.as_str());
    assert!(ev["game"]["result"].is_string(), "{ev}");

    // Not its turn, not its game: refused.
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        &format!("/api/bot/game/{game}/move/run"),
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT);
    remove_db(&db);
}

#[tokio::test]
async fn bot_requests_are_limited_per_token() {
    let db = temp_db("bot-limits");
    let srv = start(test_registry(), &db).await;
    let (mut robo, token) = with_token(&srv, "Robo", 1).await;
    let second = robo
        .expect(
            StatusCode::CREATED,
            "POST",
            "/api/account/tokens",
            json!({"description": "another"}),
        )
        .await["token"]
        .as_str()
        .expect("token")
        .to_string();
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        "/api/bot/account/upgrade",
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let path = "/api/bot/challenge/nope/decline";
    for _ in 0..60 {
        let (st, _) = bearer(&srv, &token, "POST", path, Value::Null).await;
        assert_eq!(st, StatusCode::NOT_FOUND);
    }
    let res = srv
        .router
        .clone()
        .oneshot(request("POST", path, &token, &Value::Null))
        .await
        .expect("response");
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok());
    assert_eq!(wait, Some("1"));
    // The account's other token has a limit of its own.
    let (st, _) = bearer(&srv, &second, "POST", path, Value::Null).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    remove_db(&db);
}

/// The tournament `body` made by `person`; its id.
async fn tournament(person: &mut Browser<'_>, body: Value) -> String {
    let created = person
        .expect(StatusCode::OK, "POST", "/api/tournaments", body)
        .await;
    created["id"].as_str().expect("id").to_string()
}

/// A bot enters only a tournament that takes bots; there its seat is
/// marked as a bot's, and its game against a person is rated.
#[tokio::test]
async fn a_tournament_that_takes_bots_rates_them_against_people() {
    const HOUR: i64 = 3_600_000;
    let db = temp_db("bot-tournament");
    let srv = start(test_registry(), &db).await;
    let (mut ann, ann_token) = with_token(&srv, "Ann", 1).await;
    let (_, token) = with_token(&srv, "Robo", 2).await;
    let (st, _) = bearer(
        &srv,
        &token,
        "POST",
        "/api/bot/account/upgrade",
        Value::Null,
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let starts = srv.app.now() + HOUR;
    let body = |bots: bool| {
        json!({"name": "Cup", "spec": "race", "format": "swiss", "rounds": 1, "bots": bots,
               "clock": {"initial_s": 300, "increment_s": 0}, "starts": starts})
    };

    let people_only = tournament(&mut ann, body(false)).await;
    let join = |id: &str| format!("/api/tournaments/{id}/join");
    let (st, v) = bearer(&srv, &token, "POST", &join(&people_only), Value::Null).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert!(
        v["error"].as_str().is_some_and(|e| e.contains("bots")),
        "{v}"
    );

    let id = tournament(&mut ann, body(true)).await;
    ann.expect(StatusCode::OK, "POST", &join(&id), Value::Null)
        .await;
    let (st, v) = bearer(&srv, &token, "POST", &join(&id), Value::Null).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        srv.get(&format!("/api/tournaments/{id}")).await["bots"],
        true
    );
    srv.app.advance_clock(HOUR);
    let mut game = None;
    for _ in 0..400 {
        let t = srv.get(&format!("/api/tournaments/{id}")).await;
        if let Some(g) = t["rounds"][0]["games"][0]["id"].as_str() {
            game = Some(g.to_string());
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let game = game.expect("the tournament paired Ann and Robo");
    let path = format!("/api/games/{game}");
    let mut view = Value::Null;
    for _ in 0..200 {
        let (st, v) = bearer(&srv, &ann_token, "GET", &path, Value::Null).await;
        if st == StatusCode::OK {
            view = v;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let players = view["state"]["players"]
        .as_array()
        .expect("players")
        .clone();
    let robo = players.iter().find(|p| p["user"] == "robo").expect("robo");
    let ann_seat = players.iter().find(|p| p["user"] == "ann").expect("ann");
    assert_eq!(robo["bot"], true, "the bot's seat is marked: {view}");
    assert!(ann_seat.get("bot").is_none(), "{view}");
    assert_eq!(view["state"]["rated"], true, "{view}");

    // Each plays once, then Ann resigns: the game is rated.
    for _ in 0..2 {
        let (_, v) = bearer(&srv, &ann_token, "GET", &path, Value::Null).await;
        let seat = &v["state"]["turn"]["seat"];
        let mover = players.iter().find(|p| p["seat"] == *seat).expect("mover");
        let who = if mover["user"] == "robo" {
            &token
        } else {
            &ann_token
        };
        let action = v["state"]["legal"][0].clone();
        let (st, v) = bearer(
            &srv,
            who,
            "POST",
            &format!("{path}/move"),
            json!({"action": action}),
        )
        .await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    let (st, v) = bearer(
        &srv,
        &ann_token,
        "POST",
        &format!("{path}/resign"),
        json!({}),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let mut diff = Value::Null;
    for _ in 0..400 {
        let (_, v) = bearer(&srv, &ann_token, "GET", &path, Value::Null).await;
        if v["state"]["rating_diff"].is_array() {
            diff = v["state"]["rating_diff"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(diff.as_array().map(Vec::len), Some(2), "rated: {diff}");
    remove_db(&db);
}
