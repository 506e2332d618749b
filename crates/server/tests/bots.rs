//! Bots: personal API tokens (shown once, stored hashed, revocable), bearer
//! requests on the game endpoints, the upgrade to a bot account, and the
//! bot API's streams, through the router as programs use it.

mod common;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use common::{
    api, poll, realtime, remove_db, seeded, seek, start, temp_db, test_registry, Browser, Call,
    Client, Server, ViewExt,
};
use http_body_util::BodyExt;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::time::Duration;
use tabula_server::bot::{BotEvent, GameEvent};
use tabula_server::protocol::{
    NewGame, NewSeek, NewTournament, StartTime, TournamentFormat, TurnInfo,
};
use tower::ServiceExt;

fn request(method: &str, path: &str, token: &str, body: &Value) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(path)
        .header("host", "tabula.test")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(common::json_body(body))
        .expect("request")
}

/// A program holding an API token: its requests are signed by the token
/// alone (no cookie, no Origin).
struct Bearer<'a> {
    srv: &'a Server,
    token: String,
}

impl<'a> Bearer<'a> {
    fn new(srv: &'a Server, token: &str) -> Self {
        let token = token.to_string();
        Bearer { srv, token }
    }
}

impl Client for &Bearer<'_> {
    async fn exchange(
        self,
        method: &str,
        path: &str,
        body: Value,
    ) -> (StatusCode, HeaderMap, Value) {
        let req = request(method, path, &self.token, &body);
        self.srv.respond(req).await
    }
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

    /// The next JSON line as `T` (keep-alive lines skipped), within 10 s.
    async fn next<T: DeserializeOwned>(&mut self) -> T {
        loop {
            if let Some((line, rest)) = self.buffer.split_once('\n') {
                let line = line.trim().to_string();
                self.buffer = rest.to_string();
                if line.is_empty() {
                    continue;
                }
                return serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("{e}: a line not of its type: {line}"));
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

    /// The first of the next 20 events that `pick` takes.
    async fn next_of<E: DeserializeOwned, T>(&mut self, mut pick: impl FnMut(E) -> Option<T>) -> T {
        for _ in 0..20 {
            if let Some(found) = pick(self.next().await) {
                return found;
            }
        }
        panic!("not among the next 20 events");
    }
}

/// Sign up `name` in a browser and make a token; the browser and token.
async fn with_token<'a>(srv: &'a Server, name: &str, n: u8) -> (Browser<'a>, String) {
    let mut b = Browser::signed_up(srv, n, name).await;
    let created = b.send(api::new_token(&format!("{name}'s program"))).await;
    (b, created.token)
}

/// A bot account `name` at address `n`: its browser and its program.
async fn bot<'a>(srv: &'a Server, name: &str, n: u8) -> (Browser<'a>, Bearer<'a>) {
    let (b, token) = with_token(srv, name, n).await;
    let program = Bearer::new(srv, &token);
    program.send(api::upgrade()).await;
    (b, program)
}

#[tokio::test]
async fn revoking_a_token_ends_the_streams_it_opened_within_a_second() {
    let db = temp_db("bot-revoke");
    let srv = start(test_registry(), &db).await;
    let (mut robo, program) = bot(&srv, "Robo", 2).await;
    let token = &program.token;
    let other = robo.send(api::new_token("a second program")).await.token;
    let (game, _) = srv.open(&NewGame::new("race")).await;
    let mut events = Stream::open(&srv, token, "/api/bot/stream/event").await;
    let mut game_stream = Stream::open(&srv, token, &format!("/api/bot/game/stream/{game}")).await;
    let mut kept = Stream::open(&srv, &other, "/api/bot/stream/event").await;
    game_stream
        .next_of(|e| matches!(e, GameEvent::GameFull(_)).then_some(()))
        .await;
    let listed = robo.send(api::tokens()).await;
    let first = listed.iter().find(|t| t.description == "Robo's program");
    let id = first.expect("the first token").id.clone();
    robo.send(api::revoke_token(&id)).await;
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
    let mut ann = Browser::signed_up(&srv, 1, "Ann").await;
    let created = ann.send(api::new_token(" my bot ")).await;
    let token = created.token;
    assert!(token.starts_with("tbl_") && token.len() == 68, "{token}");
    assert_eq!(created.description, "my bot");
    let id = created.id;

    // Bad requests change nothing (the second not even a `NewToken`).
    for body in [json!({"description": ""}), json!({"name": "x"})] {
        ann.expect(StatusCode::BAD_REQUEST, "POST", "/api/account/tokens", body)
            .await;
    }
    // A cookie from another site may not make one.
    ann.origin = Some("https://evil.test".into());
    let refused = ann.refusal(api::new_token("x")).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    ann.origin = Some("http://tabula.test".into());

    // The list never shows the secret (read as sent: no field of it).
    let raw = ann
        .expect(StatusCode::OK, "GET", "/api/account/tokens", Value::Null)
        .await;
    assert!(!raw.to_string().contains(&token[4..]), "{raw}");
    let list = ann.send(api::tokens()).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0].id, id);
    assert!(list[0].last_used.is_none());

    // The token signs requests as Ann, without Origin.
    let program = Bearer::new(&srv, &token);
    assert_eq!(program.send(api::me()).await.username, "Ann");
    let list = ann.send(api::tokens()).await;
    assert!(list[0].last_used.is_some(), "{list:?}");

    // Unknown tokens are refused, even where a guest may read.
    for bad in ["tbl_0000", "nonsense", ""] {
        let refused = Bearer::new(&srv, bad).refusal(api::me()).await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{bad}");
    }
    let refused = Bearer::new(&srv, "tbl_x").refusal(api::seeks()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);

    // Revoked: 401 from then on.
    let refused = ann.refusal(api::revoke_token("nope")).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    ann.send(api::revoke_token(&id)).await;
    let refused = program.refusal(api::me()).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);

    // Stored as a SHA-256 only.
    let second = ann.send(api::new_token("again")).await.token;
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
    let program = Bearer::new(&srv, &token);
    let (id, _) = program.open(&seeded("race", 3)).await;
    let view = program.send(api::game(&id)).await;
    assert_eq!(view.you, [0, 1], "{view:?}");
    assert_eq!(view.player(0).user.as_deref(), Some("ann"));
    assert!(!view.player(0).bot, "a person");
    // No seat token, no cookie: the account's seats.
    program.send(api::play(&id, "", "walk", None)).await;
    // Someone else's token is nobody there.
    let (_, other) = with_token(&srv, "Bob", 2).await;
    let refused = Bearer::new(&srv, &other)
        .refusal(api::play(&id, "", "walk", None))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    // The bot API is for bot accounts.
    let events = || Call::<Value>::get("/api/bot/stream/event");
    let refused = program.refusal(events()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused}");
    let mut b = Browser::guest_at(&srv, 3).await;
    assert_eq!(b.refusal(events()).await.status, StatusCode::UNAUTHORIZED);
    remove_db(&db);
}

#[tokio::test]
async fn only_an_account_that_never_played_becomes_a_bot() {
    let db = temp_db("bot-upgrade");
    let srv = start(test_registry(), &db).await;
    let (mut ann, ann_token) = with_token(&srv, "Ann", 1).await;
    ann.send(api::create(&NewGame::new("race"))).await;
    let refused = Bearer::new(&srv, &ann_token).refusal(api::upgrade()).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{refused}");

    let (mut robo, token) = with_token(&srv, "Robo", 2).await;
    robo.origin = None;
    assert_eq!(
        robo.refusal(api::upgrade()).await.status,
        StatusCode::FORBIDDEN
    );
    let program = Bearer::new(&srv, &token);
    program.send(api::upgrade()).await;
    assert!(ann.send(api::profile("robo")).await.bot);
    let profile = ann.send(api::profile("ann")).await;
    assert!(!profile.bot, "{profile:?}");

    // A bot does not use the people's lobby.
    let refused = program.refusal(api::seek(&seek("race"))).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused}");
    let sid = ann.send(api::seek(&seek("race"))).await.id;
    let refused = program.refusal(api::accept(&sid)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    remove_db(&db);
}

/// A seek of race addressed to `to`.
fn challenge(to: &str) -> NewSeek {
    NewSeek {
        to: Some(to.to_string()),
        ..seek("race")
    }
}

#[tokio::test]
async fn a_bot_is_challenged_accepts_and_plays_through_its_streams() {
    let db = temp_db("bot-streams");
    let srv = start(test_registry(), &db).await;
    let (mut ann, _) = with_token(&srv, "Ann", 1).await;
    let (_, robo) = bot(&srv, "Robo", 2).await;

    let mut events = Stream::open(&srv, &robo.token, "/api/bot/stream/event").await;
    let challenged = |e| match e {
        BotEvent::Challenge { challenge } => Some(challenge),
        _ => None,
    };
    // A direct challenge, declined: withdrawn from the lobby.
    let declined = ann.send(api::seek(&challenge("robo"))).await.id;
    let seen = events.next_of(challenged).await;
    assert_eq!(seen.id, declined);
    assert_eq!(seen.to.as_deref(), Some("robo"));
    robo.send(api::bot_decline(&declined)).await;
    let refused = ann.refusal(api::seek_by_id(&declined)).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    let canceled = events
        .next_of(|e| match e {
            BotEvent::ChallengeCanceled { challenge } => Some(challenge),
            _ => None,
        })
        .await;
    assert_eq!(canceled.id, declined);

    // Another, accepted: the game starts.
    let sid = ann.send(api::seek(&challenge("Robo"))).await.id;
    assert_eq!(events.next_of(challenged).await.id, sid);
    let accepted = robo.send(api::bot_accept(&sid)).await;
    let game = accepted.game.expect("game");
    let started = events
        .next_of(|e| match e {
            BotEvent::GameStart { game } => Some(game),
            _ => None,
        })
        .await;
    assert_eq!(started.id, game);
    let seek = ann.send(api::seek_by_id(&sid)).await;
    assert!(seek.seats[1].bot, "{seek:?}");

    // The game's stream: the whole game, then every change.
    let mut stream = Stream::open(&srv, &robo.token, &format!("/api/bot/game/stream/{game}")).await;
    let full = match stream.next().await {
        GameEvent::GameFull(full) => full,
        other => panic!("not the whole game: {other:?}"),
    };
    assert_eq!(full.you, [1]);
    let (person, machine) = (full.player(0), full.player(1));
    assert_eq!((machine.bot, machine.user.as_deref()), (true, Some("robo")));
    assert!(!person.bot);

    // Ann (seat 0) and the bot (seat 1) take turns until the race ends.
    let mut state = full.state;
    let mut bot_moves = 0;
    while let TurnInfo::Player { seat } = state.turn {
        if seat == 0 {
            ann.send(api::play(&game, "", "run", None)).await;
        } else {
            robo.send(api::bot_play(&game, "run")).await;
            bot_moves += 1;
        }
        let before = state.ply;
        while state.ply == before {
            state = stream
                .next_of(|e| match e {
                    GameEvent::GameState(v) => Some(v.state),
                    _ => None,
                })
                .await;
        }
    }
    assert!(bot_moves > 0);
    assert_eq!(state.turn, TurnInfo::Over);
    let finished = events
        .next_of(|e| match e {
            BotEvent::GameFinish { game } => Some(game),
            _ => None,
        })
        .await;
    assert_eq!(finished.id, game);
    assert!(finished.result.is_some(), "{finished:?}");

    // Not its turn, not its game: refused.
    let refused = robo.refusal(api::bot_play(&game, "run")).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    remove_db(&db);
}

#[tokio::test]
async fn bot_requests_are_limited_per_token() {
    let db = temp_db("bot-limits");
    let srv = start(test_registry(), &db).await;
    let (mut robo, program) = bot(&srv, "Robo", 1).await;
    let second = robo.send(api::new_token("another")).await.token;
    for _ in 0..60 {
        let refused = program.refusal(api::bot_decline("nope")).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND);
    }
    let refused = program.refusal(api::bot_decline("nope")).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    let wait = refused
        .headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok());
    assert_eq!(wait, Some("1"));
    // The account's other token has a limit of its own.
    let refused = Bearer::new(&srv, &second)
        .refusal(api::bot_decline("nope"))
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    remove_db(&db);
}

/// A bot enters only a tournament that takes bots; there its seat is
/// marked as a bot's, and its game against a person is rated.
#[tokio::test]
async fn a_tournament_that_takes_bots_rates_them_against_people() {
    const HOUR: i64 = 3_600_000;
    let db = temp_db("bot-tournament");
    let srv = start(test_registry(), &db).await;
    let (mut ann, ann_token) = with_token(&srv, "Ann", 1).await;
    let (_, robo) = bot(&srv, "Robo", 2).await;
    let starts = srv.app.now() + HOUR;
    let cup = |bots: bool| NewTournament {
        name: "Cup".into(),
        spec: "race".into(),
        format: TournamentFormat::Swiss,
        clock: realtime(300, 0),
        starts: StartTime::At(starts),
        rounds: Some(1),
        minutes: None,
        leftover: None,
        points: None,
        rated: true,
        bots,
    };

    let people_only = ann.send(api::new_tournament(&cup(false))).await.id;
    let refused = robo.refusal(api::enter(&people_only)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused}");
    assert!(refused.error.contains("bots"), "{refused}");

    let id = ann.send(api::new_tournament(&cup(true))).await.id;
    ann.send(api::enter(&id)).await;
    robo.send(api::enter(&id)).await;
    assert!(srv.send(api::tournament(&id)).await.summary.bots);
    srv.app.advance_clock(HOUR);
    let game = poll(
        "the tournament to pair Ann and Robo",
        Duration::from_millis(25),
        || async {
            let t = srv.send(api::tournament(&id)).await;
            Some(t.rounds.first()?.games.first()?.id.clone())
        },
    )
    .await;
    let person = Bearer::new(&srv, &ann_token);
    let view = poll("the game", Duration::from_millis(10), || async {
        person.attempt(api::game(&game)).await.ok()
    })
    .await;
    let players = &view.state.players;
    let robo_seat = players.iter().find(|p| p.user.as_deref() == Some("robo"));
    let ann_seat = players.iter().find(|p| p.user.as_deref() == Some("ann"));
    assert!(
        robo_seat.expect("robo").bot,
        "the bot's seat is marked: {view:?}"
    );
    assert!(!ann_seat.expect("ann").bot, "{view:?}");
    assert!(view.state.rated, "{view:?}");

    // Each plays once, then Ann resigns: the game is rated.
    for _ in 0..2 {
        let v = person.send(api::game(&game)).await;
        let seat = v.to_move().expect("a seat to move");
        let mover = players.iter().find(|p| usize::from(p.seat) == seat);
        let who = if mover.expect("mover").user.as_deref() == Some("robo") {
            &robo
        } else {
            &person
        };
        who.send(api::play(&game, "", &v.state.legal[0], None))
            .await;
    }
    person.send(api::resign(&game, "")).await;
    let diff = poll("the game rated", Duration::from_millis(25), || async {
        let v = person.send(api::game(&game)).await;
        (!v.state.rating_diff.is_empty()).then_some(v.state.rating_diff)
    })
    .await;
    assert_eq!(diff.len(), 2, "rated: {diff:?}");
    remove_db(&db);
}
