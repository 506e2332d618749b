//! The server's defences (`docs/security.md`): headers, JSON errors and
//! bodies, rate limits and quotas, AI-only games, origins, expiry, the
//! live channel's caps.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{
    ai, api, human, poll, published_until, remove_db, seated, seeded, start, start_with, status_of,
    temp_db, test_registry, Browser, Client, Live, Server, ViewExt,
};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_server::common::GuardConfig;
use tabula_server::protocol::{
    ChatRequest, ClientMessage, NewGame, RequestId, Room, ServerMessage,
};
use tabula_server::round::EndReason;
use tabula_server::RoundConfig;
use tower::ServiceExt;

/// A server over `db` with the defences `guard` (the AI moves at once).
async fn guarded(db: &std::path::Path, guard: GuardConfig) -> Server {
    let config = RoundConfig {
        ai_pause: Duration::ZERO,
        guard,
        ..Default::default()
    };
    start_with(test_registry(), db, config).await
}

/// Send a raw request; status, headers and body text.
async fn raw(srv: &Server, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, String) {
    let res = srv.router.clone().oneshot(req).await.expect("response");
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.expect("body").to_bytes();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

fn error_of(text: &str) -> String {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {text}"))
        .to_string()
}

#[tokio::test]
async fn every_answer_has_the_security_headers() {
    let db = temp_db("headers");
    let srv = start(test_registry(), &db).await;
    for path in ["/api/catalog", "/", "/api/nothing-here"] {
        let req = Request::get(path).body(Body::empty()).expect("request");
        let (_, h, _) = raw(&srv, req).await;
        let csp = h["content-security-policy"].to_str().expect("csp");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
    }
    remove_db(&db);
}

#[tokio::test]
async fn every_error_is_json() {
    let db = temp_db("json-errors");
    let srv = start(test_registry(), &db).await;
    // axum's own 404 and 405.
    let req = Request::get("/api/nothing-here")
        .body(Body::empty())
        .expect("request");
    let (st, h, text) = raw(&srv, req).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(h["content-type"], "application/json");
    error_of(&text);
    let req = Request::delete("/api/catalog")
        .body(Body::empty())
        .expect("request");
    let (st, _, text) = raw(&srv, req).await;
    assert_eq!(st, StatusCode::METHOD_NOT_ALLOWED);
    error_of(&text);
    // A body over the limit: 413.
    let big = format!(r#"{{"spec": "{}"}}"#, "x".repeat(3 << 20));
    let req = Request::post("/api/games")
        .header("content-type", "application/json")
        .body(Body::from(big))
        .expect("request");
    let (st, _, text) = raw(&srv, req).await;
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE);
    error_of(&text);
    // Malformed JSON.
    let req = Request::post("/api/games")
        .header("content-type", "application/json")
        .body(Body::from("{not json"))
        .expect("request");
    let (st, _, text) = raw(&srv, req).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(error_of(&text).contains("bad request body"), "{text}");
    remove_db(&db);
}

#[tokio::test]
async fn a_body_must_be_json_but_may_be_empty() {
    let db = temp_db("content-type");
    let srv = start(test_registry(), &db).await;
    for ct in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut req = Request::post("/api/games");
        if let Some(ct) = ct {
            req = req.header("content-type", ct);
        }
        let req = req
            .body(Body::from(r#"{"spec": "race"}"#))
            .expect("request");
        let (st, _, text) = raw(&srv, req).await;
        assert_eq!(st, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct:?}");
        assert!(error_of(&text).contains("application/json"), "{text}");
    }
    let games = srv.send(api::games()).await;
    assert!(games.is_empty(), "nothing was created: {games:?}");
    // With a charset it is still JSON.
    let req = Request::post("/api/games")
        .header("content-type", "application/json; charset=utf-8")
        .body(Body::from(r#"{"spec": "race"}"#))
        .expect("request");
    assert_eq!(raw(&srv, req).await.0, StatusCode::OK);
    // A verb without a body needs no Content-Type.
    let req = Request::post("/api/session")
        .body(Body::empty())
        .expect("request");
    assert_eq!(raw(&srv, req).await.0, StatusCode::OK);
    remove_db(&db);
}

#[tokio::test]
async fn game_creation_is_rate_limited_per_address() {
    let db = temp_db("create-limit");
    let srv = start(test_registry(), &db).await;
    let mut flood = Browser::new(&srv, 1);
    flood.origin = None;
    let race = NewGame::new("race");
    let mut created = 0;
    let mut refused = None;
    for _ in 0..60 {
        match flood.attempt(api::create(&race)).await {
            Ok(_) => created += 1,
            Err(r) if r.status == StatusCode::TOO_MANY_REQUESTS => {
                refused = Some(r);
                break;
            }
            Err(r) => panic!("{r}"),
        }
    }
    assert_eq!(created, 30, "the burst passes");
    let refused = refused.expect("the flood is refused");
    assert!(refused.headers.contains_key("retry-after"), "{refused:?}");
    assert!(refused.error.contains("new games"), "{refused}");
    // Another address is not affected.
    let mut other = Browser::new(&srv, 2);
    other.origin = None;
    other.send(api::create(&race)).await;
    remove_db(&db);
}

/// Chat lines are limited per address as well as per sender: fresh guest
/// sessions from one address, each within its own five, are refused past
/// the address's burst of 20; another address still chats.
#[tokio::test]
async fn chat_is_rate_limited_per_address() {
    let db = temp_db("chat-limit");
    let srv = start(test_registry(), &db).await;
    let mut host = Browser::guest_at(&srv, 1).await;
    let (id, _) = host.open(&NewGame::new("race")).await;
    let line = ChatRequest {
        token: String::new(),
        room: Room::Spectators,
        text: "hello".into(),
    };
    let (mut posted, mut refused) = (0, Vec::new());
    for _ in 0..8 {
        let mut guest = Browser::guest_at(&srv, 2).await;
        for _ in 0..5 {
            match guest.attempt(api::chat(&id, &line)).await {
                Ok(_) => posted += 1,
                Err(r) if r.status == StatusCode::TOO_MANY_REQUESTS => refused.push(r),
                Err(r) => panic!("{r}"),
            }
        }
    }
    // The burst, and at most the refill of the second or two this took.
    assert!((20..=22).contains(&posted), "{posted} lines posted");
    let refusal = refused.first().expect("the address is refused");
    assert!(refusal.headers.contains_key("retry-after"), "{refusal:?}");
    assert!(refusal.error.contains("chat"), "{refusal}");
    let mut other = Browser::guest_at(&srv, 3).await;
    other.send(api::chat(&id, &line)).await;
    remove_db(&db);
}

#[tokio::test]
async fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
    for trust in [false, true] {
        let db = temp_db("proxy");
        let srv = guarded(
            &db,
            GuardConfig {
                trust_proxy: trust,
                ..Default::default()
            },
        )
        .await;
        let post = |xff: &'static str| {
            Request::post("/api/games")
                .header("content-type", "application/json")
                .header("x-forwarded-for", xff)
                .body(Body::from(r#"{"spec": "race"}"#))
                .expect("request")
        };
        // One client's burst, from behind the proxy (no ConnectInfo: the
        // same peer for every request).
        for _ in 0..30 {
            assert_eq!(raw(&srv, post("6.6.6.6, 10.1.1.1")).await.0, StatusCode::OK);
        }
        assert_eq!(
            raw(&srv, post("6.6.6.6, 10.1.1.1")).await.0,
            StatusCode::TOO_MANY_REQUESTS
        );
        // The last address is what the proxy saw; the first is the client's
        // own word and never counts.
        let other = raw(&srv, post("6.6.6.6, 10.2.2.2")).await.0;
        let expected = if trust {
            StatusCode::OK
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(other, expected, "trust_proxy = {trust}");
        remove_db(&db);
    }
}

#[tokio::test]
async fn games_in_progress_are_capped_per_identity_and_per_address() {
    let db = temp_db("quota");
    let srv = guarded(
        &db,
        GuardConfig {
            games_in_progress: 3,
            ..Default::default()
        },
    )
    .await;
    // A guest.
    let mut ann = Browser::guest_at(&srv, 1).await;
    let race = NewGame::new("race");
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(ann.open(&race).await);
    }
    let refused = ann.refusal(api::create(&race)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.error.contains("in progress"), "{refused}");
    // Finishing one frees a place.
    let (id, tokens) = &games[0];
    ann.send(api::resign(id, &tokens[0])).await;
    ann.send(api::create(&race)).await;
    // A script without a session is counted by its address.
    let mut bot = Browser::new(&srv, 2);
    bot.origin = None;
    for _ in 0..3 {
        bot.send(api::create(&race)).await;
    }
    let refused = bot.refusal(api::create(&race)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    remove_db(&db);
}

#[tokio::test]
async fn an_ai_only_game_needs_a_session_waits_for_a_watcher_and_its_creator_stops_it() {
    let db = temp_db("ai-only");
    let srv = start(test_registry(), &db).await;
    let ai_only = seated("race", vec![ai(AiLevel::Random); 2]);
    let mut bot = Browser::new(&srv, 1);
    bot.origin = None;
    let refused = bot.refusal(api::create(&ai_only)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.error.contains("session"), "{refused}");
    let mut ann = Browser::guest_at(&srv, 2).await;
    let (id, _) = ann.open(&ai_only).await;
    // Nobody watches: the AI does not think, even when the sweep that
    // resumes AI turns comes by (a view goes through the game's owner, so
    // it answers after the owner has decided whether to think).
    srv.app.rounds.resume_ai().await.expect("AI sweep");
    let s = srv.view(&id).await;
    assert!(s.state.ply <= 1, "only the opening roll: {s:?}");
    assert_eq!(srv.app.rounds.ai_jobs(), 0);
    // A watcher comes: it plays.
    let watch = srv.watch(&id).await;
    poll(
        "the AI to think once watched",
        Duration::from_millis(5),
        || async { (srv.app.rounds.ai_jobs() > 0).then_some(()) },
    )
    .await;
    drop(watch);
    // Another one, never watched: another visitor may not stop it; the
    // creator may.
    let (id, _) = ann.open(&ai_only).await;
    let mut bob = Browser::guest_at(&srv, 3).await;
    assert_eq!(
        bob.refusal(api::stop(&id)).await.status,
        StatusCode::FORBIDDEN
    );
    ann.send(api::stop(&id)).await;
    let s = srv.view(&id).await;
    assert!(s.over(), "{s:?}");
    assert_eq!(s.reason(), Some(EndReason::Abandoned), "{s:?}");
    assert_eq!(
        ann.refusal(api::stop(&id)).await.status,
        StatusCode::CONFLICT
    );
    // A game with a person is not stopped this way.
    let (human, _) = ann.open(&NewGame::new("race")).await;
    assert_eq!(
        ann.refusal(api::stop(&human)).await.status,
        StatusCode::FORBIDDEN
    );
    remove_db(&db);
}

/// An AI-only game stops when its last watcher leaves, and a server that
/// starts on its database (sweeping for AI turns every 20 ms) leaves it
/// paused: only a watcher wakes it.
#[tokio::test]
async fn an_ai_only_game_pauses_unwatched_and_is_not_resumed_at_start() {
    let db = temp_db("ai-only-pause");
    let paced = || RoundConfig {
        ai_pause: Duration::from_millis(100),
        ai_sweep: Duration::from_millis(20),
        ..Default::default()
    };
    let srv = start_with(test_registry(), &db, paced()).await;
    let mut ann = Browser::guest_at(&srv, 1).await;
    let (id, _) = ann
        .open(&seated("race", vec![ai(AiLevel::Random); 2]))
        .await;
    let first = srv.view(&id).await.state.ply;
    let watch = srv.watch(&id).await;
    poll(
        "it plays while watched",
        Duration::from_millis(10),
        || async { (srv.view(&id).await.state.ply >= first + 2).then_some(()) },
    )
    .await;
    drop(watch);
    // A move already under way may still land: wait until no AI turn is
    // held here (claimed and not yet stored) and none started across a
    // view, which the game's owner answers after whatever it was doing (a
    // claim it was making when the watcher left included).
    let settled = async {
        loop {
            let jobs = srv.app.rounds.ai_jobs();
            srv.view(&id).await;
            if srv.app.rounds.ai_turns_held() == 0 && srv.app.rounds.ai_jobs() == jobs {
                return jobs;
            }
            tokio::task::yield_now().await;
        }
    };
    let started = tokio::time::timeout(Duration::from_secs(30), settled)
        .await
        .expect("the AI settles");
    let s = srv.view(&id).await;
    assert!(!s.over(), "{s:?}");
    let paused = s.state.ply;
    // Nothing restarts it: not the AI sweep, not a look at the game.
    srv.app.rounds.resume_ai().await.expect("AI sweep");
    assert_eq!(srv.view(&id).await.state.ply, paused, "it pauses unwatched");
    assert_eq!(srv.app.rounds.ai_jobs(), started);
    let again = start_with(test_registry(), &db, paced()).await;
    again.app.rounds.resume_ai().await.expect("AI sweep");
    let ply = again.view(&id).await.state.ply;
    assert_eq!(ply, paused, "not resumed at start");
    assert_eq!(again.app.rounds.ai_jobs(), 0);
    let ply = again.view(&id).await.state.ply;
    assert_eq!(ply, paused, "not resumed at start");
    remove_db(&db);
}

#[tokio::test]
async fn another_origin_uses_the_session_only_when_allowed() {
    for allowed in [false, true] {
        let db = temp_db("origins");
        let origins = if allowed {
            vec!["https://play.example.org".to_string()]
        } else {
            Vec::new()
        };
        let srv = guarded(
            &db,
            GuardConfig {
                allowed_origins: origins,
                ..Default::default()
            },
        )
        .await;
        let mut ann = Browser::guest_at(&srv, 1).await;
        ann.origin = Some("https://play.example.org".into());
        let expected = if allowed {
            StatusCode::OK
        } else {
            StatusCode::FORBIDDEN
        };
        let answer = ann.attempt(api::create(&NewGame::new("race"))).await;
        assert_eq!(status_of(&answer), expected);
        remove_db(&db);
    }
}

/// The seats a live channel of game `id` opened with `cookie` from a page
/// of `origin` plays (its snapshot's `you`).
async fn live_seats(addr: std::net::SocketAddr, id: &str, cookie: &str, origin: &str) -> Vec<u8> {
    let mut ws = common::connect(addr, &format!("/api/games/{id}/ws"), cookie, origin).await;
    match ws.message().await {
        ServerMessage::Snapshot(view) => view.you,
        other => panic!("not a snapshot: {other:?}"),
    }
}

/// A live channel opened by another site's page with the player's cookie
/// gets no session (it only watches), unless that origin is allowed; from
/// the server's own origin it is the player's.
#[tokio::test]
async fn a_live_channel_from_another_origin_gets_the_session_only_when_allowed() {
    for allowed in [false, true] {
        let db = temp_db("ws-origin");
        let origins = if allowed {
            vec!["https://play.example.org".to_string()]
        } else {
            Vec::new()
        };
        let guard = GuardConfig {
            allowed_origins: origins,
            ..Default::default()
        };
        let srv = guarded(&db, guard).await;
        let mut ann = Browser::guest_at(&srv, 1).await;
        let (id, _) = ann.open(&NewGame::new("race")).await;
        let cookie = ann.cookie.clone().expect("a session");
        let addr = common::serve(&srv).await;
        let own = live_seats(addr, &id, &cookie, &format!("http://{addr}")).await;
        assert!(!own.is_empty(), "{own:?}");
        let other = live_seats(addr, &id, &cookie, "https://play.example.org").await;
        if allowed {
            assert_eq!(other, own);
        } else {
            assert!(other.is_empty(), "{other:?}");
        }
        remove_db(&db);
    }
}

#[tokio::test]
async fn untouched_games_expire_and_finished_ones_stay() {
    let db = temp_db("expiry");
    let srv = guarded(
        &db,
        GuardConfig {
            expiry: Duration::from_secs(3600),
            ..Default::default()
        },
    )
    .await;
    let (old, _) = srv.open(&seeded("race", 1)).await;
    let (done, t) = srv.open(&seeded("race", 2)).await;
    srv.send(api::resign(&done, &t[0])).await;
    // An hour passes on the server's clock, not the test's.
    assert_eq!(srv.app.rounds.expire_games().await, Ok(0));
    srv.app.advance_clock(3_601_000);
    let (fresh, _) = srv.open(&seeded("race", 3)).await;
    assert_eq!(srv.app.rounds.expire_games().await, Ok(1));
    let s = srv.view(&old).await;
    assert!(s.over(), "{s:?}");
    assert_eq!(s.reason(), Some(EndReason::Abandoned));
    assert_eq!(srv.view(&done).await.reason(), Some(EndReason::Resign));
    assert!(!srv.view(&fresh).await.over());
    // Nothing left to expire.
    assert_eq!(srv.app.rounds.expire_games().await, Ok(0));
    remove_db(&db);
}

#[tokio::test]
async fn metrics_show_the_ai_pool() {
    let db = temp_db("metrics");
    let srv = guarded(
        &db,
        GuardConfig {
            ai_workers: 3,
            ..Default::default()
        },
    )
    .await;
    // Read as `Metrics`: every field is there, a count.
    let m = srv.send(api::metrics()).await;
    assert_eq!(m.ai_workers, 3, "{m:?}");
    remove_db(&db);
}

#[tokio::test]
async fn the_live_channel_refuses_binary_and_oversized_messages() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let db = temp_db("ws-caps");
    let srv = start(test_registry(), &db).await;
    let (id, _) = srv.open(&NewGame::new("race")).await;
    let mut ws = common::spectate(&srv, &id).await;
    assert!(matches!(ws.message().await, ServerMessage::Snapshot(_)));
    ws.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .expect("send");
    match ws.message().await {
        ServerMessage::Error { refusal, .. } => {
            assert!(refusal.error.contains("binary"), "{refusal:?}")
        }
        other => panic!("not an error: {other:?}"),
    }
    // Still open: a ping is answered.
    let rid = Some(RequestId::Number(7));
    ws.say(&ClientMessage::Ping { rid }).await;
    assert!(matches!(ws.message().await, ServerMessage::Pong { .. }));
    // Over 64 KB: the server closes the channel.
    let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(70 * 1024));
    let _ = ws.send(Message::Text(big.into())).await;
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the channel closes");
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_is_told_when_the_ai_waits_for_a_worker() {
    let db = temp_db("ai-queue");
    let srv = start_with(
        tabula_games::registry(),
        &db,
        RoundConfig {
            ai_pause: Duration::from_millis(200),
            guard: GuardConfig {
                ai_workers: 1,
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .await;
    let level8 = ai(AiLevel::Level8);
    // A watched demo holds the only worker (a level-8 move: 1.9 s).
    let mut ann = Browser::guest_at(&srv, 1).await;
    let (demo_id, _) = ann
        .open(&seated("dragonchess", vec![level8.clone(), level8.clone()]))
        .await;
    let _demo_watch = srv.watch(&demo_id).await;
    poll(
        "the demo's AI to think",
        Duration::from_millis(5),
        || async { (srv.send(api::metrics()).await.ai_running == 1).then_some(()) },
    )
    .await;
    // A game with a person, the AI to move first: its move must wait.
    let (id, _) = ann
        .open(&seated("dragonchess", vec![level8, human()]))
        .await;
    let mut updates = srv.watch(&id).await;
    let ahead = published_until(&mut updates, |m| match m {
        ServerMessage::Queue { ahead } => Some(ahead),
        _ => None,
    })
    .await;
    assert_eq!(ahead, 1);
    remove_db(&db);
}

#[tokio::test]
async fn every_refusal_has_a_code_and_quotes_little_of_the_input() {
    let db = temp_db("codes");
    let srv = start(test_registry(), &db).await;
    let body_of = |text: &str| -> Value {
        serde_json::from_str(text).unwrap_or_else(|_| panic!("not JSON: {text}"))
    };
    let json_post = |path: &str, body: String| {
        Request::post(path)
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("request")
    };
    let cases = [
        (
            Request::get("/api/nothing-here")
                .body(Body::empty())
                .expect("request"),
            StatusCode::NOT_FOUND,
            "not_found",
            "no such page: `/api/nothing-here`",
        ),
        (
            Request::delete("/api/catalog")
                .body(Body::empty())
                .expect("request"),
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "`/api/catalog` does not take DELETE",
        ),
        (
            json_post(
                "/api/games",
                format!(r#"{{"spec": "{}"}}"#, "x".repeat(3 << 20)),
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "the request body is too large (at most 2 MB)",
        ),
        (
            Request::post("/api/games")
                .header("content-type", "text/plain")
                .body(Body::from("{}"))
                .expect("request"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "not_json",
            "a request body must be JSON (Content-Type: application/json)",
        ),
        // Sign-in and sign-up bodies are capped at 64 KB.
        (
            json_post(
                "/api/login",
                json!({"username": "x".repeat(100_000), "password": "p"}).to_string(),
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "the request body is too large (at most 64 KB)",
        ),
        (
            json_post(
                "/api/account",
                json!({"username": "x".repeat(100_000), "password": "p"}).to_string(),
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "the request body is too large (at most 64 KB)",
        ),
        (
            Request::get("/api/me")
                .body(Body::empty())
                .expect("request"),
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "",
        ),
    ];
    for (req, status, code, error) in cases {
        let what = format!("{} {}", req.method(), req.uri());
        let (st, h, text) = raw(&srv, req).await;
        let v = body_of(&text);
        assert_eq!(
            (st, v["code"].as_str()),
            (status, Some(code)),
            "{what}: {text}"
        );
        assert_eq!(h["content-type"], "application/json", "{what}");
        if !error.is_empty() {
            assert_eq!(v["error"], error, "{what}");
        }
    }
    // A refusal quotes at most 200 characters of what it was sent.
    let long = "Q".repeat(5000);
    let move_path = format!("/api/games/{long}/move");
    for (path, body) in [
        ("/api/games", json!({"spec": long})),
        (
            "/api/games",
            json!({"spec": "race", "seats": [{"type": long}]}),
        ),
        (
            "/api/games/import",
            json!({"record": format!("[Tabula record]\ngame: race\nseed: {long}\n\n")}),
        ),
        (move_path.as_str(), json!({"action": "run"})),
    ] {
        let (st, v) = srv.call("POST", path, body).await;
        assert!(st.is_client_error(), "{v}");
        assert!(
            v["error"]
                .as_str()
                .is_some_and(|e| e.to_lowercase().contains("qq")),
            "{v}"
        );
        // In its line and in each value it names.
        let vars = v["vars"].as_object().into_iter().flat_map(|o| o.values());
        for text in std::iter::once(&v["error"]).chain(vars) {
            let quoted = text
                .as_str()
                .unwrap_or("")
                .split(|c: char| !c.eq_ignore_ascii_case(&'q'))
                .map(str::len)
                .max();
            let quoted = quoted.unwrap_or(0);
            assert!(quoted <= 200, "{quoted} in {v}");
        }
    }
    // A taken name says so, with a code of its own.
    let mut ann = Browser::new(&srv, 1);
    ann.sign_up("ana").await;
    let mut other = Browser::new(&srv, 2);
    let v = other
        .expect(
            StatusCode::CONFLICT,
            "POST",
            "/api/account",
            json!({"username": "ana", "password": "a good password"}),
        )
        .await;
    assert_eq!(
        v,
        json!({"error": "the name `ana` is taken", "code": "name_taken", "vars": {"name": "ana"}})
    );
    remove_db(&db);
}
