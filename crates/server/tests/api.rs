//! The API end to end: create, join, move, errors, AI seats, take-backs,
//! off-board endings, records, the live channel, and resuming after a
//! restart. Run over a tiny test game and over every registered game.

mod common;

use axum::http::StatusCode;
use common::{
    ai, api, human, remove_db, seated, seeded, start, temp_db, test_registry, Client, Live, ViewExt,
};
use serde_json::{json, Value};
use tabula_ai::AiLevel;
use tabula_server::protocol::{ClientMessage, NewGame, RequestId, ServerMessage, TurnInfo};
use tabula_server::round::EndReason;

#[tokio::test]
async fn create_join_move_and_every_error() {
    let db = temp_db("errors");
    let srv = start(test_registry(), &db).await;
    let (id, tokens) = srv.open(&seeded("race", 7)).await;
    assert_eq!(tokens.len(), 2);
    let g = format!("/api/games/{id}");
    let s = srv.view(&id).await;
    // The opening roll is made and recorded as a chance action.
    assert_eq!(s.history.len(), 1);
    assert_eq!(s.history[0].actor, None);
    assert_eq!(s.state.turn, TurnInfo::Player { seat: 0 });
    assert_eq!(s.state.legal, ["run", "walk"]);

    let joined = srv.send(api::join_as(&id, &tokens[1], "Bea")).await;
    assert_eq!(joined.seat, 1);
    assert_eq!(srv.view(&id).await.player(1).name, "Bea");

    let before = srv.view(&id).await;
    let cases = [
        (
            api::play(&id, &tokens[1], "run", None),
            StatusCode::FORBIDDEN,
            "not your turn",
            "not_your_turn",
        ),
        (
            api::play(&id, "nope", "run", None),
            StatusCode::FORBIDDEN,
            "no seat",
            "no_seat",
        ),
        (
            api::play(&id, &tokens[0], "fly", None),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not legal",
            "illegal_move",
        ),
        // Not a `MoveRequest`: no action.
        (
            common::Call::post(format!("{g}/move"), &json!({"token": tokens[0]})),
            StatusCode::BAD_REQUEST,
            "missing",
            "bad_request",
        ),
        (
            api::play(&id, &tokens[0], "run", 0),
            StatusCode::CONFLICT,
            "changed",
            "stale",
        ),
    ];
    for (call, status, words, code) in cases {
        let refused = srv.refusal(call).await;
        assert_eq!(refused.kind(), (status, code), "{refused}");
        assert!(refused.error.contains(words), "{refused}");
    }
    // A rules' refusal names its reason and the values it names.
    let refused = srv.refusal(api::play(&id, &tokens[0], "fly", None)).await;
    assert_eq!(
        (
            refused.vars["reason"].as_str(),
            refused.vars["action"].as_str()
        ),
        ("not_legal", "fly"),
        "{refused}"
    );
    let (st, v) = srv
        .call("POST", &format!("{g}/move"), Value::String("{oops".into()))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let refused = srv.refusal(api::game("nosuchgame")).await;
    assert_eq!(refused.kind(), (StatusCode::NOT_FOUND, "no_game"));
    assert_eq!(refused.vars["id"], "nosuchgame", "{refused}");
    let refused = srv
        .refusal(api::create(&NewGame::new("race(players=9)")))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.error.contains("2..3"), "{refused}");
    // Not a level: sent as JSON.
    let (st, _) = srv.call("POST", "/api/games", json!({"spec": "race", "seats": [{"type": "ai", "level": "level99"}, {"type": "human"}]})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    // Nothing changed.
    assert_eq!(srv.view(&id).await, before);

    let moved = srv.send(api::play(&id, &tokens[0], "walk", 1)).await;
    assert_eq!(moved.ply, 3, "the move and the next roll");
    // A history entry's exact shape on the wire.
    let s = srv.get(&g).await;
    assert_eq!(
        s["history"][1],
        json!({"actor": 0, "text": "walk", "pos": s["history"][1]["pos"], "capture": false, "check": false, "mate": false})
    );
    assert_eq!(s["state"]["turn"]["seat"], 1);
    drop(srv);
    remove_db(&db);
}

#[tokio::test]
async fn a_restarted_server_resumes_every_game_exactly() {
    let db = temp_db("restart");
    let srv = start(test_registry(), &db).await;
    let (a, ta) = srv.open(&NewGame::new("race(players=3)")).await;
    let (b, _) = srv
        .open(&seated("race", vec![human(), ai(AiLevel::Random)]))
        .await;
    for i in 0..6 {
        let seat = srv.view(&a).await.to_move().expect("seat");
        let action = if i % 2 == 0 { "run" } else { "walk" };
        srv.send(api::play(&a, &ta[seat], action, None)).await;
    }
    srv.send(api::join_as(&a, &ta[2], "Cy")).await;
    let sa = srv.view(&a).await;
    let sb = srv.settle(&b).await;
    assert_eq!(sa.state.ply, 13);
    drop(srv);

    let srv = start(test_registry(), &db).await;
    assert_eq!(srv.view(&a).await, sa);
    assert_eq!(srv.settle(&b).await, sb);
    let text = srv.send(api::record(&a)).await;
    assert!(
        text.starts_with("[Tabula record]\ngame: race(players=3)\n"),
        "{text}"
    );
    assert!(text.contains("player 3: Cy"), "{text}");
    remove_db(&db);
}

#[tokio::test]
async fn ai_seats_take_backs_and_leaving() {
    let db = temp_db("ai");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv
        .open(&seated("race", vec![human(), ai(AiLevel::Level3)]))
        .await;
    let s0 = srv.settle(&id).await;
    srv.send(api::play(&id, &t[0], "run", None)).await;
    let s1 = srv.settle(&id).await;
    let ply0 = s0.state.ply;
    assert_eq!(s1.state.ply, ply0 + 4, "move, roll, AI move, roll");
    assert_eq!(s1.history[ply0 + 2].actor, Some(1));
    // Take back: the position before my move, with the same dice.
    let back = srv.send(api::undo(&id, &t[0])).await;
    assert_eq!(back.ply, ply0);
    let s2 = srv.settle(&id).await;
    assert_eq!(s2.history, s0.history);
    let hint = srv.send(api::hint(&id, &t[0])).await;
    assert!(["run", "walk"].contains(&hint.action.as_str()), "{hint:?}");
    let refused = srv.refusal(api::draw(&id, &t[0], true)).await;
    assert_eq!(
        refused.status,
        StatusCode::CONFLICT,
        "the AI declines draws"
    );

    // Three players: leaving hands the seat to the AI, which plays on.
    let (id3, t3) = srv.open(&NewGame::new("race(players=3)")).await;
    srv.send(api::leave(&id3, &t3[0])).await;
    let s = srv.settle(&id3).await;
    assert_eq!(s.player(0).kind, tabula_server::protocol::SeatKind::Ai);
    assert_eq!(s.to_move(), Some(1), "the AI played seat 1's turn");
    let refused = srv.refusal(api::play(&id3, &t3[0], "run", None)).await;
    assert_eq!(
        refused.status,
        StatusCode::FORBIDDEN,
        "the old token is void"
    );
    let refused = srv.refusal(api::resign(&id3, &t3[1])).await;
    assert_eq!(
        refused.status,
        StatusCode::CONFLICT,
        "resigning is for two players"
    );
    remove_db(&db);
}

#[tokio::test]
async fn resign_draw_rematch_and_import() {
    let db = temp_db("end");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv.open(&NewGame::new("race")).await;
    srv.send(api::play(&id, &t[0], "run", None)).await;
    srv.send(api::draw(&id, &t[1], true)).await;
    assert_eq!(srv.view(&id).await.state.draw_offer, [1]);
    srv.send(api::draw(&id, &t[0], true)).await;
    let s = srv.view(&id).await;
    let result = s.state.result.clone().expect("a result");
    assert_eq!(result.text, "draw 1,2");
    assert_eq!(result.reason, EndReason::Agreement);
    // An agreed draw exports and imports with its ending.
    let rec = srv.send(api::record(&id)).await;
    let drawn = srv.send(api::import(&rec, Vec::new())).await;
    let drawn = srv.view(&drawn.id).await;
    assert_eq!(drawn.state.result, s.state.result);
    let refused = srv.refusal(api::play(&id, &t[1], "run", None)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);

    let r = srv.send(api::rematch(&id, &t[1])).await;
    let r2 = srv.send(api::rematch(&id, &t[0])).await;
    assert_eq!(r, r2, "one rematch per game");
    let rid = r.id;
    // Seats move round: my token now holds the other seat.
    let seat = srv.send(api::join(&rid, &t[0])).await;
    assert_eq!(seat.seat, 1);
    srv.send(api::resign(&rid, &t[1])).await;
    let s = srv.view(&rid).await;
    let result = s.state.result.as_ref().expect("a result");
    assert_eq!(result.text, "win 2");

    // Export, then import: the same actions, playable on.
    let rec = srv.send(api::record(&rid)).await;
    let imported = srv.send(api::import(&rec, Vec::new())).await;
    let back = srv.view(&imported.id).await;
    assert_eq!(back.history, s.history);
    assert_eq!(back.state.result, s.state.result, "the resignation too");
    let refused = srv
        .refusal(api::import(
            "[Tabula record]\ngame: race\n\n1 fly\n",
            Vec::new(),
        ))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(refused.error.contains("line 4"), "{refused}");
    assert_eq!(srv.send(api::games()).await.len(), 4);
    remove_db(&db);
}

/// A move on the live channel.
fn play(token: &str, action: &str, rid: i64) -> ClientMessage {
    ClientMessage::Move {
        token: token.to_string(),
        action: action.to_string(),
        ply: None,
        rid: Some(RequestId::Number(rid)),
    }
}

#[tokio::test]
async fn live_channel_sends_snapshot_updates_and_acks() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let db = temp_db("ws");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv.open(&NewGame::new("race")).await;
    let mut ws = common::spectate(&srv, &id).await;
    match ws.message().await {
        ServerMessage::Snapshot(snap) => assert_eq!(snap.from, 0),
        other => panic!("not a snapshot: {other:?}"),
    }
    ws.say(&play(&t[1], "run", 1)).await;
    ws.say(&play(&t[0], "run", 2)).await;
    let (mut errors, mut acks, mut updates) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..3 {
        match ws.message().await {
            ServerMessage::Error { rid, .. } => errors.push(rid),
            ServerMessage::Ack { ply, .. } => acks.push(ply),
            ServerMessage::Update(view) => updates.push(view),
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(errors, [Some(RequestId::Number(1))]);
    assert_eq!(acks[0], 3);
    assert_eq!(updates[0].from, 1);
    assert_eq!(updates[0].history.len(), 2);
    // A server shutting down closes its live channels with a reason.
    srv.app.close_channels();
    match ws.next().await {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(u16::from(frame.code), 1012),
        other => panic!("expected a close frame, got {other:?}"),
    }
    remove_db(&db);
}

/// Send `text` on the live channel `ws` and read up to its refusal, as
/// sent (the wire's own JSON).
async fn refusal(ws: &mut common::Ws, text: String) -> Value {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    ws.send(Message::Text(text.into())).await.expect("send");
    loop {
        let msg: Value = ws.read().await;
        if msg["type"] == "error" {
            return msg;
        }
    }
}

/// A refusal on the live channel is the HTTP one: the same `code` and
/// `vars` (so a client translates both alike), line and status. Compared
/// as JSON: both must be the same on the wire.
#[tokio::test]
async fn live_channel_refusals_carry_the_http_code_and_vars() {
    let db = temp_db("ws-codes");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv.open(&NewGame::new("race")).await;
    let mv = json!({"token": t[1], "action": "run"});
    let (status, http) = srv.call("POST", &format!("/api/games/{id}/move"), mv).await;
    assert_eq!(http["code"], "not_your_turn", "{http}");
    let mut ws = common::spectate(&srv, &id).await;
    let request = json!({"type": "move", "token": t[1], "action": "run", "rid": 4});
    let refused = refusal(&mut ws, request.to_string()).await;
    assert_eq!(refused["rid"], 4);
    assert_eq!(refused["status"], status.as_u16());
    for key in ["error", "code", "vars"] {
        assert_eq!(refused[key], http[key], "{key}: {refused} vs {http}");
    }
    // It reads as the protocol's type, and a message that is not one has
    // its status's code.
    let typed: ServerMessage = serde_json::from_value(refused).expect("a ServerMessage");
    assert!(matches!(typed, ServerMessage::Error { .. }));
    let fly = refusal(&mut ws, r#"{"type": "fly"}"#.into()).await;
    assert_eq!(fly["code"], "bad_request", "{fly}");
    remove_db(&db);
}

#[tokio::test]
async fn health_answers_with_the_store() {
    let db = temp_db("health");
    let srv = start(test_registry(), &db).await;
    srv.open(&NewGame::new("race")).await;
    let h = srv.send(api::health()).await;
    assert_eq!(h.status, "ok");
    assert_eq!(h.games, 1);
    assert!(["sqlite", "postgres"].contains(&h.store.as_str()), "{h:?}");
    remove_db(&db);
}

/// Every registered game: create against the AI, play legal moves, reject
/// an illegal one, and resume after a restart.
#[tokio::test]
async fn every_registered_game_plays_and_resumes() {
    let registry = tabula_games::registry();
    for entry in registry.entries() {
        let db = temp_db(entry.name);
        let srv = start(registry.clone(), &db).await;
        let catalog = srv.send(api::catalog()).await;
        let info = catalog
            .games
            .iter()
            .find(|g| g.name == entry.name)
            .expect("in catalog");
        let mut seats = vec![human()];
        seats.extend((1..info.players).map(|_| ai(AiLevel::Random)));
        let (id, t) = srv.open(&seated(entry.name, seats)).await;
        let refused = srv.refusal(api::play(&id, &t[0], "zz99-zz98", None)).await;
        assert!(
            refused.status.is_client_error(),
            "{}: {refused}",
            entry.name
        );
        for _ in 0..6 {
            let s = srv.settle(&id).await;
            if s.to_move().is_none() {
                break;
            }
            let legal = &s.state.legal;
            assert!(!legal.is_empty(), "{}: no legal action", entry.name);
            let action = &legal[legal.len() / 2];
            srv.send(api::play(&id, &t[0], action, s.state.ply)).await;
        }
        let before = srv.settle(&id).await;
        drop(srv);
        let srv = start(registry.clone(), &db).await;
        assert_eq!(srv.settle(&id).await, before, "{} resumes", entry.name);
        remove_db(&db);
    }
}

/// Non-ASCII move text and records that claim a result the moves do not
/// reach get a 4xx JSON error and change nothing (they once killed the
/// request with a panic, or were taken as they were).
#[tokio::test]
async fn bad_text_and_false_results_are_refused_cleanly() {
    let db = temp_db("badtext");
    let srv = start(tabula_games::registry(), &db).await;
    let (id, t) = srv.open(&NewGame::new("dragonchess")).await;
    let before = srv.view(&id).await;
    for action in ["S😀", "W2e2-2é3", "W2e2-2e😀", "é"] {
        let refused = srv.refusal(api::play(&id, &t[0], action, None)).await;
        assert!(refused.status.is_client_error(), "{action}: {refused}");
        assert!(!refused.error.is_empty(), "{refused}");
    }
    assert_eq!(srv.view(&id).await, before, "the game is unchanged");
    for record in [
        "[Tabula record]\ngame: dragonchess\n\n1 S😀\n",
        "[Tabula record]\ngame: dragonchess\n\n1 W2e2-2é3\n",
        "[Tabula record]\ngame: dragonchess\nresult: win 1\n\n",
        "[Tabula record]\ngame: dragonchess\nresult: draw 1,2\nend: resign\n\n",
    ] {
        let refused = srv.refusal(api::import(record, Vec::new())).await;
        assert_eq!(
            refused.status,
            StatusCode::BAD_REQUEST,
            "{record}: {refused}"
        );
        assert!(!refused.error.is_empty(), "{refused}");
    }
    assert_eq!(srv.send(api::games()).await.len(), 1);
    remove_db(&db);
}

#[tokio::test]
async fn serves_the_ui_and_the_rules() {
    let db = temp_db("assets");
    let srv = start(tabula_games::registry(), &db).await;
    for path in ["/", "/js/app.js", "/style.css", "/game/anything"] {
        let (st, body) = srv.call("GET", path, Value::Null).await;
        assert_eq!(st, StatusCode::OK, "{path}");
        assert!(!body.as_str().unwrap_or("").is_empty(), "{path}");
    }
    let (st, _) = srv.call("GET", "/nope.js", Value::Null).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    for entry in tabula_games::registry().entries() {
        let rules = srv.send(api::rules(entry.name)).await;
        assert!(rules.html.starts_with('<'), "{}", entry.name);
    }
    // The full reference of each game, and the conventions they share; the
    // players' pages link to them as app routes, never outside the repository.
    for entry in tabula_games::registry().entries() {
        let html = srv.send(api::rules(entry.name)).await.html;
        let route = format!("href=\"#/rules/{}/reference\"", entry.name);
        assert!(
            html.contains(&route),
            "{}: no link to its reference",
            entry.name
        );
        // Every link is an app route or a web address: nothing outside the repository.
        for href in html.split("href=\"").skip(1) {
            assert!(
                href.starts_with("#/") || href.starts_with("https://"),
                "{}: link {}",
                entry.name,
                &href[..href.find('"').unwrap_or(href.len())]
            );
        }
        let reference = srv
            .send(api::rules(&format!("{}/reference", entry.name)))
            .await;
        assert!(reference.html.contains("<h2"), "{}", entry.name);
    }
    // Every players' page in French too: its own text, its links still app routes.
    for entry in tabula_games::registry().entries() {
        let en = srv.send(api::rules(entry.name)).await;
        let fr = srv
            .send(api::rules(&format!("{}?lang=fr", entry.name)))
            .await;
        assert!(
            fr.html.starts_with('<') && fr != en,
            "{}: no French page",
            entry.name
        );
        let route = format!("href=\"#/rules/{}/reference\"", entry.name);
        assert!(
            fr.html.contains(&route),
            "{}: French page without its reference link",
            entry.name
        );
        // A language without pages gets English.
        let de = srv
            .send(api::rules(&format!("{}?lang=de", entry.name)))
            .await;
        assert_eq!(de, en);
    }
    let refused = srv.refusal(api::rules("phylde?lang=../x")).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let conventions = srv.send(api::rules("reference")).await;
    assert!(conventions.html.contains("Perft"));
    for page in ["chess/reference", "chess"] {
        let refused = srv.refusal(api::rules(page)).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    }
    remove_db(&db);
}
