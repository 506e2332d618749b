//! The API end to end: create, join, move, errors, AI seats, take-backs,
//! off-board endings, records, the live channel, and resuming after a
//! restart. Run over a tiny test game and over every registered game.

mod common;

use axum::http::StatusCode;
use common::{ply, remove_db, start, temp_db, test_registry};
use serde_json::{json, Value};

#[tokio::test]
async fn create_join_move_and_every_error() {
    let db = temp_db("errors");
    let srv = start(test_registry(), &db).await;
    let (id, tokens) = srv.create(json!({"spec": "race", "seed": 7})).await;
    assert_eq!(tokens.len(), 2);
    let g = format!("/api/games/{id}");
    let s = srv.get(&g).await;
    // The opening roll is made and recorded as a chance action.
    assert_eq!(s["history"].as_array().map(Vec::len), Some(1));
    assert_eq!(s["history"][0]["actor"], Value::Null);
    assert_eq!(s["state"]["turn"], json!({"kind": "player", "seat": 0}));
    assert_eq!(s["state"]["legal"], json!(["run", "walk"]));

    let joined = srv
        .post(
            &format!("{g}/join"),
            json!({"token": tokens[1], "name": "Bea"}),
        )
        .await;
    assert_eq!(joined["seat"], 1);
    assert_eq!(srv.get(&g).await["state"]["players"][1]["name"], "Bea");

    let before = srv.get(&g).await;
    let cases = [
        (
            json!({"token": tokens[1], "action": "run"}),
            StatusCode::FORBIDDEN,
            "not your turn",
            "not_your_turn",
        ),
        (
            json!({"token": "nope", "action": "run"}),
            StatusCode::FORBIDDEN,
            "no seat",
            "no_seat",
        ),
        (
            json!({"token": tokens[0], "action": "fly"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not legal",
            "illegal_move",
        ),
        (
            json!({"token": tokens[0]}),
            StatusCode::BAD_REQUEST,
            "missing",
            "bad_request",
        ),
        (
            json!({"token": tokens[0], "action": "run", "ply": 0}),
            StatusCode::CONFLICT,
            "changed",
            "stale",
        ),
    ];
    for (body, status, words, code) in cases {
        let (st, v) = srv.call("POST", &format!("{g}/move"), body.clone()).await;
        assert_eq!(st, status, "{body}: {v}");
        assert_eq!(v["code"], code, "{body}: {v}");
        assert!(
            v["error"].as_str().unwrap_or("").contains(words),
            "{body}: {v}"
        );
    }
    // A rules' refusal names its reason and the values it names.
    let fly = json!({"token": tokens[0], "action": "fly"});
    let (_, v) = srv.call("POST", &format!("{g}/move"), fly).await;
    assert_eq!(
        (&v["vars"]["reason"], &v["vars"]["action"]),
        (&json!("not_legal"), &json!("fly")),
        "{v}"
    );
    let (st, v) = srv
        .call("POST", &format!("{g}/move"), Value::String("{oops".into()))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let (st, v) = srv.call("GET", "/api/games/nosuchgame", Value::Null).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(v["code"], "no_game", "{v}");
    assert_eq!(v["vars"]["id"], "nosuchgame", "{v}");
    let (st, v) = srv
        .call("POST", "/api/games", json!({"spec": "race(players=9)"}))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap_or("").contains("2..3"), "{v}");
    let (st, _) = srv.call("POST", "/api/games", json!({"spec": "race", "seats": [{"type": "ai", "level": "level99"}, {"type": "human"}]})).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    // Nothing changed.
    assert_eq!(srv.get(&g).await, before);

    let moved = srv
        .post(
            &format!("{g}/move"),
            json!({"token": tokens[0], "action": "walk", "ply": 1}),
        )
        .await;
    assert_eq!(moved["ply"], 3, "the move and the next roll");
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
    let (a, ta) = srv.create(json!({"spec": "race(players=3)"})).await;
    let (b, _) = srv.create(json!({"spec": "race", "seats": [{"type": "human"}, {"type": "ai", "level": "random"}]})).await;
    for i in 0..6 {
        let s = srv.get(&format!("/api/games/{a}")).await;
        let seat = s["state"]["turn"]["seat"].as_u64().expect("seat") as usize;
        let action = if i % 2 == 0 { "run" } else { "walk" };
        srv.post(
            &format!("/api/games/{a}/move"),
            json!({"token": ta[seat], "action": action}),
        )
        .await;
    }
    srv.post(
        &format!("/api/games/{a}/join"),
        json!({"token": ta[2], "name": "Cy"}),
    )
    .await;
    let sa = srv.get(&format!("/api/games/{a}")).await;
    let sb = srv.settled(&b).await;
    assert_eq!(ply(&sa), 13);
    drop(srv);

    let srv = start(test_registry(), &db).await;
    assert_eq!(srv.get(&format!("/api/games/{a}")).await, sa);
    assert_eq!(srv.settled(&b).await, sb);
    let record = srv
        .call("GET", &format!("/api/games/{a}/record"), Value::Null)
        .await
        .1;
    let text = record.as_str().expect("record text");
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
    let (id, t) = srv.create(json!({"spec": "race", "seats": [{"type": "human"}, {"type": "ai", "level": "level3"}]})).await;
    let g = format!("/api/games/{id}");
    let s0 = srv.settled(&id).await;
    srv.post(
        &format!("{g}/move"),
        json!({"token": t[0], "action": "run"}),
    )
    .await;
    let s1 = srv.settled(&id).await;
    assert_eq!(ply(&s1), ply(&s0) + 4, "move, roll, AI move, roll");
    assert_eq!(s1["history"][ply(&s0) as usize + 2]["actor"], 1);
    // Take back: the position before my move, with the same dice.
    let back = srv.post(&format!("{g}/undo"), json!({"token": t[0]})).await;
    assert_eq!(back["ply"], ply(&s0));
    let s2 = srv.settled(&id).await;
    assert_eq!(s2["history"], s0["history"]);
    let hint = srv.post(&format!("{g}/hint"), json!({"token": t[0]})).await;
    assert!(
        ["run", "walk"].contains(&hint["action"].as_str().unwrap_or("")),
        "{hint}"
    );
    let (st, _) = srv
        .call("POST", &format!("{g}/draw"), json!({"token": t[0]}))
        .await;
    assert_eq!(st, StatusCode::CONFLICT, "the AI declines draws");

    // Three players: leaving hands the seat to the AI, which plays on.
    let (id3, t3) = srv.create(json!({"spec": "race(players=3)"})).await;
    srv.post(&format!("/api/games/{id3}/leave"), json!({"token": t3[0]}))
        .await;
    let s = srv.settled(&id3).await;
    assert_eq!(s["state"]["players"][0]["kind"], "ai");
    assert_eq!(s["state"]["turn"]["seat"], 1, "the AI played seat 1's turn");
    let (st, _) = srv
        .call(
            "POST",
            &format!("/api/games/{id3}/move"),
            json!({"token": t3[0], "action": "run"}),
        )
        .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "the old token is void");
    let (st, _) = srv
        .call(
            "POST",
            &format!("/api/games/{id3}/resign"),
            json!({"token": t3[1]}),
        )
        .await;
    assert_eq!(st, StatusCode::CONFLICT, "resigning is for two players");
    remove_db(&db);
}

#[tokio::test]
async fn resign_draw_rematch_and_import() {
    let db = temp_db("end");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv.create(json!({"spec": "race"})).await;
    let g = format!("/api/games/{id}");
    srv.post(
        &format!("{g}/move"),
        json!({"token": t[0], "action": "run"}),
    )
    .await;
    srv.post(&format!("{g}/draw"), json!({"token": t[1]})).await;
    assert_eq!(srv.get(&g).await["state"]["draw_offer"], json!([1]));
    srv.post(&format!("{g}/draw"), json!({"token": t[0]})).await;
    let s = srv.get(&g).await;
    assert_eq!(s["state"]["result"]["text"], "draw 1,2");
    assert_eq!(s["state"]["result"]["reason"], "agreement");
    // An agreed draw exports and imports with its ending.
    let (_, rec) = srv.call("GET", &format!("{g}/record"), Value::Null).await;
    let drawn = srv.post("/api/games/import", json!({"record": rec})).await;
    let drawn = srv
        .get(&format!("/api/games/{}", drawn["id"].as_str().expect("id")))
        .await;
    assert_eq!(drawn["state"]["result"], s["state"]["result"]);
    let (st, _) = srv
        .call(
            "POST",
            &format!("{g}/move"),
            json!({"token": t[1], "action": "run"}),
        )
        .await;
    assert_eq!(st, StatusCode::CONFLICT);

    let r = srv
        .post(&format!("{g}/rematch"), json!({"token": t[1]}))
        .await;
    let r2 = srv
        .post(&format!("{g}/rematch"), json!({"token": t[0]}))
        .await;
    assert_eq!(r, r2, "one rematch per game");
    let rid = r["id"].as_str().expect("id");
    // Seats move round: my token now holds the other seat.
    let seat = srv
        .post(&format!("/api/games/{rid}/join"), json!({"token": t[0]}))
        .await;
    assert_eq!(seat["seat"], 1);
    srv.post(&format!("/api/games/{rid}/resign"), json!({"token": t[1]}))
        .await;
    let s = srv.get(&format!("/api/games/{rid}")).await;
    assert_eq!(s["state"]["result"]["text"], "win 2");

    // Export, then import: the same actions, playable on.
    let (_, rec) = srv
        .call("GET", &format!("/api/games/{rid}/record"), Value::Null)
        .await;
    let imported = srv.post("/api/games/import", json!({"record": rec})).await;
    let iid = imported["id"].as_str().expect("id");
    let back = srv.get(&format!("/api/games/{iid}")).await;
    assert_eq!(back["history"], s["history"]);
    assert_eq!(
        back["state"]["result"], s["state"]["result"],
        "the resignation too"
    );
    let (st, v) = srv
        .call(
            "POST",
            "/api/games/import",
            json!({"record": "[Tabula record]\ngame: race\n\n1 fly\n"}),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap_or("").contains("line 4"), "{v}");
    let list = srv.get("/api/games").await;
    assert_eq!(list.as_array().map(Vec::len), Some(4));
    remove_db(&db);
}

#[tokio::test]
async fn live_channel_sends_snapshot_updates_and_acks() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let db = temp_db("ws");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv.create(json!({"spec": "race"})).await;
    let addr = common::serve(&srv).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .expect("connect");
    let snap = match ws.next().await {
        Some(Ok(Message::Text(t))) => serde_json::from_str::<Value>(&t).expect("json"),
        other => panic!("unexpected {other:?}"),
    };
    assert_eq!(snap["type"], "snapshot");
    assert_eq!(snap["from"], 0);
    ws.send(Message::Text(
        json!({"type": "move", "token": t[1], "action": "run", "rid": 1})
            .to_string()
            .into(),
    ))
    .await
    .expect("send");
    ws.send(Message::Text(
        json!({"type": "move", "token": t[0], "action": "run", "rid": 2})
            .to_string()
            .into(),
    ))
    .await
    .expect("send");
    let mut seen = Vec::new();
    while seen.len() < 3 {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                seen.push(serde_json::from_str::<Value>(&t).expect("json"))
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    let by_type = |k: &str| {
        seen.iter()
            .filter(|m| m["type"] == k)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(by_type("error").len(), 1, "{seen:?}");
    assert_eq!(by_type("error")[0]["rid"], 1);
    assert_eq!(by_type("ack")[0]["ply"], 3);
    let update = &by_type("update")[0];
    assert_eq!(update["from"], 1);
    assert_eq!(update["history"].as_array().map(Vec::len), Some(2));
    // A server shutting down closes its live channels with a reason.
    srv.app.close_channels();
    match ws.next().await {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(u16::from(frame.code), 1012),
        other => panic!("expected a close frame, got {other:?}"),
    }
    remove_db(&db);
}

/// Send `text` on the live channel `ws` and read up to its refusal.
async fn refusal(ws: &mut common::Ws, text: String) -> Value {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    ws.send(Message::Text(text.into())).await.expect("send");
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                let msg: Value = serde_json::from_str(&t).expect("json");
                if msg["type"] == "error" {
                    return msg;
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// A refusal on the live channel is the HTTP one: the same `code` and
/// `vars` (so a client translates both alike), line and status.
#[tokio::test]
async fn live_channel_refusals_carry_the_http_code_and_vars() {
    let db = temp_db("ws-codes");
    let srv = start(test_registry(), &db).await;
    let (id, t) = srv.create(json!({"spec": "race"})).await;
    let mv = json!({"token": t[1], "action": "run"});
    let (status, http) = srv.call("POST", &format!("/api/games/{id}/move"), mv).await;
    assert_eq!(http["code"], "not_your_turn", "{http}");
    let addr = common::serve(&srv).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .expect("connect");
    let request = json!({"type": "move", "token": t[1], "action": "run", "rid": 4});
    let refused = refusal(&mut ws, request.to_string()).await;
    assert_eq!(refused["rid"], 4);
    assert_eq!(refused["status"], status.as_u16());
    for key in ["error", "code", "vars"] {
        assert_eq!(refused[key], http[key], "{key}: {refused} vs {http}");
    }
    // It reads as the protocol's type, and a message that is not one has
    // its status's code.
    let typed: tabula_server::protocol::ServerMessage =
        serde_json::from_value(refused).expect("a ServerMessage");
    assert!(matches!(
        typed,
        tabula_server::protocol::ServerMessage::Error { .. }
    ));
    let fly = refusal(&mut ws, r#"{"type": "fly"}"#.into()).await;
    assert_eq!(fly["code"], "bad_request", "{fly}");
    remove_db(&db);
}

#[tokio::test]
async fn health_answers_with_the_store() {
    let db = temp_db("health");
    let srv = start(test_registry(), &db).await;
    srv.create(json!({"spec": "race"})).await;
    let h = srv.get("/healthz").await;
    assert_eq!(h["status"], "ok");
    assert_eq!(h["games"], 1);
    assert!(
        ["sqlite", "postgres"].contains(&h["store"].as_str().unwrap_or("")),
        "{h}"
    );
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
        let cat = srv.get("/api/catalog").await;
        let info = cat["games"]
            .as_array()
            .and_then(|g| g.iter().find(|g| g["name"] == entry.name))
            .cloned()
            .expect("in catalog");
        let n = info["players"].as_u64().expect("players") as usize;
        let mut seats = vec![json!({"type": "human"})];
        seats.extend((1..n).map(|_| json!({"type": "ai", "level": "random"})));
        let (id, t) = srv
            .create(json!({"spec": entry.name, "seats": seats}))
            .await;
        let g = format!("/api/games/{id}");
        let (st, v) = srv
            .call(
                "POST",
                &format!("{g}/move"),
                json!({"token": t[0], "action": "zz99-zz98"}),
            )
            .await;
        assert!(st.is_client_error(), "{}: {v}", entry.name);
        for _ in 0..6 {
            let s = srv.settled(&id).await;
            if s["state"]["turn"]["kind"] != "player" {
                break;
            }
            let legal = s["state"]["legal"].as_array().expect("legal").clone();
            assert!(!legal.is_empty(), "{}: no legal action", entry.name);
            let action = legal[legal.len() / 2].as_str().expect("text");
            srv.post(
                &format!("{g}/move"),
                json!({"token": t[0], "action": action, "ply": ply(&s)}),
            )
            .await;
        }
        let before = srv.settled(&id).await;
        drop(srv);
        let srv = start(registry.clone(), &db).await;
        assert_eq!(srv.settled(&id).await, before, "{} resumes", entry.name);
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
    let (id, t) = srv.create(json!({"spec": "dragonchess"})).await;
    let g = format!("/api/games/{id}");
    let before = srv.get(&g).await;
    for action in ["S😀", "W2e2-2é3", "W2e2-2e😀", "é"] {
        let (st, v) = srv
            .call(
                "POST",
                &format!("{g}/move"),
                json!({"token": t[0], "action": action}),
            )
            .await;
        assert!(st.is_client_error(), "{action}: {st} {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    assert_eq!(srv.get(&g).await, before, "the game is unchanged");
    for record in [
        "[Tabula record]\ngame: dragonchess\n\n1 S😀\n",
        "[Tabula record]\ngame: dragonchess\n\n1 W2e2-2é3\n",
        "[Tabula record]\ngame: dragonchess\nresult: win 1\n\n",
        "[Tabula record]\ngame: dragonchess\nresult: draw 1,2\nend: resign\n\n",
    ] {
        let (st, v) = srv
            .call("POST", "/api/games/import", json!({"record": record}))
            .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{record}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    assert_eq!(
        srv.get("/api/games").await.as_array().map(Vec::len),
        Some(1)
    );
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
        let rules = srv.get(&format!("/api/rules/{}", entry.name)).await;
        assert!(
            rules["html"].as_str().unwrap_or("").starts_with('<'),
            "{}",
            entry.name
        );
    }
    // The full reference of each game, and the conventions they share; the
    // players' pages link to them as app routes, never outside the repository.
    for entry in tabula_games::registry().entries() {
        let page = srv.get(&format!("/api/rules/{}", entry.name)).await;
        let html = page["html"].as_str().unwrap_or("");
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
            .get(&format!("/api/rules/{}/reference", entry.name))
            .await;
        assert!(
            reference["html"].as_str().unwrap_or("").contains("<h2"),
            "{}",
            entry.name
        );
    }
    // Every players' page in French too: its own text, its links still app routes.
    for entry in tabula_games::registry().entries() {
        let en = srv.get(&format!("/api/rules/{}", entry.name)).await;
        let fr = srv.get(&format!("/api/rules/{}?lang=fr", entry.name)).await;
        let html = fr["html"].as_str().unwrap_or("");
        assert!(
            html.starts_with('<') && fr != en,
            "{}: no French page",
            entry.name
        );
        let route = format!("href=\"#/rules/{}/reference\"", entry.name);
        assert!(
            html.contains(&route),
            "{}: French page without its reference link",
            entry.name
        );
        // A language without pages gets English.
        assert_eq!(
            srv.get(&format!("/api/rules/{}?lang=de", entry.name)).await,
            en
        );
    }
    let (st, _) = srv
        .call("GET", "/api/rules/phylde?lang=../x", Value::Null)
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let conventions = srv.get("/api/rules/reference").await;
    assert!(conventions["html"].as_str().unwrap_or("").contains("Perft"));
    let (st, _) = srv
        .call("GET", "/api/rules/chess/reference", Value::Null)
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, _) = srv.call("GET", "/api/rules/chess", Value::Null).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    remove_db(&db);
}
