//! The JSON API. Every error is `{"error": "..."}` with a 4xx status and
//! changes nothing.
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /api/catalog` | | games (name, title, description, sides, options, start), AI levels |
//! | `GET /api/rules/{game}` | | `{game, title, html}` from `docs/rules/<game>.md` (`reference`: the shared conventions, `docs/rules/reference/README.md`) |
//! | `GET /api/rules/{game}/reference` | | the same from `docs/rules/reference/<game>.md`, the full spec |
//! | `GET /api/games` | | recent games, newest first |
//! | `POST /api/games` | `{spec, position?, seats: [{type: human\|ai, level?, name?, invite?}], seed?}` | `{id, tokens: [{seat, token}]}` |
//! | `POST /api/games/import` | `{record, seats}` | as above; the record's actions are replayed and checked |
//! | `GET /api/games/{id}` | | snapshot: history (actor, text, position after), state |
//! | `GET /api/games/{id}/record` | | the record file (text) |
//! | `GET /api/games/{id}/ws` | | WebSocket: snapshot, then updates; accepts `{type: move, ...}` |
//! | `POST /api/games/{id}/move` | `{token, action, ply?}` | `{ply}` |
//! | `POST /api/games/{id}/join` | `{token, name?}` | `{seat}` |
//! | `POST /api/games/{id}/undo` | `{token}` | `{ply}` |
//! | `POST /api/games/{id}/resign` / `leave` | `{token}` | `{}` |
//! | `POST /api/games/{id}/draw` | `{token, accept?}` | `{}` (offer, accept, or decline with `accept: false`) |
//! | `POST /api/games/{id}/rematch` | `{token}` | `{id}` |
//! | `POST /api/games/{id}/hint` | `{token}` | `{action, ranked: [[action, value]]}` |

use crate::app::{App, Created, NewGame, SeatRequest};
use crate::assets::RulesPage;
use crate::error::ApiError;
use crate::{assets, ws};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/catalog", get(catalog))
        .route("/api/rules/{game}", get(rules))
        .route("/api/rules/{game}/reference", get(reference))
        .route("/api/games", get(list).post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(snapshot))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/games/{id}/{verb}", post(act))
        .fallback(assets::web)
        .with_state(app)
}

/// Read a JSON body, with a clear error for a malformed one.
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let text = if bytes.is_empty() { &b"{}"[..] } else { bytes };
    serde_json::from_slice(text)
        .map_err(|e| ApiError::bad_request(format!("bad request body: {e}")))
}

type ApiResult = Result<Json<Value>, ApiError>;

async fn catalog(State(app): State<Arc<App>>) -> Json<Value> {
    Json(app.catalog())
}

/// A game's rules page; `reference` names the conventions every game shares.
async fn rules(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult {
    if game == "reference" {
        let html = assets::rules_html(RulesPage::Conventions)
            .ok_or_else(|| ApiError::not_found("the rules reference is missing"))?;
        return Ok(Json(
            json!({"game": null, "title": "The rules Tabula plays", "html": html}),
        ));
    }
    let entry = app.registry.entry(&game)?;
    let html = assets::rules_html(RulesPage::Players(entry.name)).unwrap_or_else(|| {
        format!(
            "<p>The rules of {} are not written up yet.</p>",
            entry.title
        )
    });
    Ok(Json(
        json!({"game": entry.name, "title": entry.title, "html": html}),
    ))
}

/// A game's full rules reference (the spec the engine implements).
async fn reference(State(app): State<Arc<App>>, Path(game): Path<String>) -> ApiResult {
    let entry = app.registry.entry(&game)?;
    let html = assets::rules_html(RulesPage::Reference(entry.name))
        .ok_or_else(|| ApiError::not_found(format!("no rules reference for {}", entry.title)))?;
    Ok(Json(
        json!({"game": entry.name, "title": entry.title, "html": html}),
    ))
}

async fn list(State(app): State<Arc<App>>) -> Json<Value> {
    Json(app.list().await)
}

fn created_json(c: Created) -> Json<Value> {
    let tokens: Vec<Value> = c
        .tokens
        .into_iter()
        .map(|(seat, token)| json!({"seat": seat, "token": token}))
        .collect();
    Json(json!({"id": c.id, "tokens": tokens}))
}

async fn create(State(app): State<Arc<App>>, bytes: Bytes) -> ApiResult {
    let req: NewGame = body(&bytes)?;
    Ok(created_json(app.create(req).await?))
}

#[derive(Deserialize)]
struct ImportRequest {
    record: String,
    #[serde(default)]
    seats: Vec<SeatRequest>,
}

async fn import(State(app): State<Arc<App>>, bytes: Bytes) -> ApiResult {
    let req: ImportRequest = body(&bytes)?;
    Ok(created_json(app.import(&req.record, &req.seats).await?))
}

async fn snapshot(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    let h = app.handle(&id)?;
    let s = h.session.lock().await;
    Ok(Json(s.snapshot()))
}

async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let h = app.handle(&id)?;
    let s = h.session.lock().await;
    let text = s.record().to_text();
    let disposition = format!(
        "attachment; filename=\"tabula-{}-{}.txt\"",
        s.game.name(),
        s.id
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// The body of every seat action.
#[derive(Deserialize)]
struct SeatAction {
    #[serde(default)]
    token: String,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    accept: Option<bool>,
}

async fn act(
    State(app): State<Arc<App>>,
    Path((id, verb)): Path<(String, String)>,
    bytes: Bytes,
) -> ApiResult {
    let req: SeatAction = body(&bytes)?;
    let t = req.token.as_str();
    let out = match verb.as_str() {
        "move" => {
            let action = req
                .action
                .as_deref()
                .ok_or_else(|| ApiError::bad_request("missing `action`"))?;
            json!({"ply": app.play(&id, t, action, req.ply).await?})
        }
        "join" => json!({"seat": app.join(&id, t, req.name.as_deref()).await?}),
        "undo" => json!({"ply": app.undo(&id, t).await?}),
        "resign" => {
            app.resign(&id, t).await?;
            json!({})
        }
        "draw" => {
            app.draw(&id, t, req.accept.unwrap_or(true)).await?;
            json!({})
        }
        "leave" => {
            app.leave(&id, t).await?;
            json!({})
        }
        "rematch" => json!({"id": app.rematch(&id, t).await?}),
        "hint" => {
            let pick = app.hint(&id, t).await?;
            json!({"action": pick.action, "ranked": pick.ranked})
        }
        other => {
            return Err(ApiError::not_found(format!(
                "unknown request `{other}` (valid: move, join, undo, resign, draw, leave, rematch, hint)"
            )))
        }
    };
    Ok(Json(out))
}
