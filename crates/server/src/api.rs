//! The JSON API: thin handlers that read a typed request, send the game's
//! owner a command and write a typed answer. Every error is
//! `{"error": "..."}` with a 4xx (or 5xx) status and changes nothing.
//! `docs/api.md` documents every endpoint with an example.

use crate::app::App;
use crate::assets::RulesPage as Doc;
use crate::error::ApiError;
use crate::guard::ClientAddr;
use crate::protocol::{
    Catalog, ChatRequest, Created, Done, DrawRequest, GameId, GameView, Health, Hint, ImportGame,
    JoinRequest, MoveRequest, NewGame, PlyAnswer, RulesPage, SeatAnswer, Summary, TokenRequest,
};
use crate::round::{Caller, Command, Reply};
use crate::user::session::{self, Visitor};
use crate::{assets, ws};
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// The seat verbs, for the error on an unknown one.
const VERBS: &str = "move, join, undo, resign, draw, leave, rematch, hint, claim, chat, stop";

pub fn router(app: Arc<App>) -> Router {
    let router = Router::new()
        .route("/healthz", get(health))
        .route("/api/catalog", get(catalog))
        .route("/api/rules/{game}", get(rules))
        .route("/api/rules/{game}/reference", get(reference))
        .route("/api/games", get(list).post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(snapshot))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/chat", post(chat))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/stop", post(crate::guard::stop))
        .route("/api/metrics", get(crate::guard::metrics))
        .route("/api/games/{id}/{verb}", post(token_verb))
        .merge(crate::user::api::routes())
        .merge(crate::lobby::api::routes())
        .merge(crate::bot::api::routes())
        .merge(crate::tournament::api::routes())
        .merge(crate::learn::api::routes())
        .fallback(assets::web)
        .with_state(Arc::clone(&app));
    crate::guard::protect(router, app)
}

/// The client's address, for rate limits (see `guard::ClientAddr`).
pub(crate) fn client_address(req: &Request) -> String {
    if let Some(ClientAddr(a)) = req.extensions().get::<ClientAddr>() {
        return a.clone();
    }
    req.extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map_or_else(|| "local".to_string(), |c| c.0.ip().to_string())
}

/// The visitor of a request that changes something: when it carries the
/// session cookie it must come from this site's pages (`Origin`).
pub(crate) async fn visitor_for_change(
    app: &App,
    headers: &HeaderMap,
) -> Result<Visitor, ApiError> {
    if session::bearer(headers).is_some() {
        return session::visitor(&app.store, headers).await;
    }
    if session::cookie(headers).is_none() {
        return Ok(Visitor::default());
    }
    session::check_origin(headers, &app.config.guard.allowed_origins)?;
    session::visitor(&app.store, headers).await
}

/// Who sends a game command: the seat token of the body, and the session's
/// identities when the cookie may be used. With a token, a cookie from
/// another site is ignored; without one, it is refused.
async fn caller(app: &App, headers: &HeaderMap, token: &str) -> Result<Caller, ApiError> {
    if session::bearer(headers).is_some() {
        return Ok(session::visitor(&app.store, headers).await?.caller(token));
    }
    if session::cookie(headers).is_none() {
        return Ok(Caller::token(token));
    }
    match session::check_origin(headers, &app.config.guard.allowed_origins) {
        Ok(()) => Ok(session::visitor(&app.store, headers).await?.caller(token)),
        Err(e) if token.is_empty() => Err(e),
        Err(_) => Ok(Caller::token(token)),
    }
}

/// Read a JSON body, with a clear error for a malformed one; an empty body
/// is `{}`.
pub(crate) fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let text = if bytes.is_empty() { &b"{}"[..] } else { bytes };
    serde_json::from_slice(text)
        .map_err(|e| ApiError::bad_request(format!("bad request body: {e}")))
}

pub(crate) type Answer<T> = Result<Json<T>, ApiError>;

/// Whether the server and its database answer, and its writes succeed
/// (for load balancers and monitors).
async fn health(State(app): State<Arc<App>>) -> Response {
    let (games, reason) = match app.stored_games().await {
        Ok(n) => (
            n,
            app.failing_writes()
                .await
                .map(|e| format!("writes fail: {e}")),
        ),
        Err(e) => {
            tracing::error!("health check: {e}");
            (0, Some(format!("the database does not answer: {e}")))
        }
    };
    let status = if reason.is_none() {
        axum::http::StatusCode::OK
    } else {
        axum::http::StatusCode::SERVICE_UNAVAILABLE
    };
    let body = Health {
        status: if reason.is_none() {
            "ok"
        } else {
            "unavailable"
        }
        .into(),
        store: app.store_engine().into(),
        games,
        live: app.live_games(),
        reason,
    };
    (status, Json(body)).into_response()
}

async fn catalog(State(app): State<Arc<App>>) -> Json<Catalog> {
    Json(app.catalog())
}

/// `?lang=fr`: the language wanted for a players' rules page.
#[derive(serde::Deserialize)]
struct Lang {
    lang: Option<String>,
}

/// A game's rules page for players, in `lang` when it is translated (else
/// in English); `reference` names the conventions every game shares.
async fn rules(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    Query(Lang { lang }): Query<Lang>,
) -> Answer<RulesPage> {
    let lang = lang.unwrap_or_default();
    if !lang.chars().all(|c| c.is_ascii_lowercase()) || lang.len() > 3 {
        return Err(ApiError::bad_request(format!(
            "lang `{lang}`: a language code such as `fr`"
        )));
    }
    if game == "reference" {
        let html = assets::rules_html(Doc::Conventions)
            .ok_or_else(|| ApiError::not_found("the rules reference is missing"))?;
        return Ok(Json(RulesPage {
            game: None,
            title: "The rules Tabula plays".into(),
            html,
        }));
    }
    let entry = app.registry.entry(&game)?;
    let translated = (!lang.is_empty() && lang != "en")
        .then(|| assets::rules_html(Doc::Translated(entry.name, &lang)))
        .flatten();
    let html = translated.or_else(|| assets::rules_html(Doc::Players(entry.name)));
    let html = html.unwrap_or_else(|| {
        format!(
            "<p>The rules of {} are not written up yet.</p>",
            entry.title
        )
    });
    Ok(Json(RulesPage {
        game: Some(entry.name.to_string()),
        title: entry.title.to_string(),
        html,
    }))
}

/// A game's full rules reference (the spec the engine implements).
async fn reference(State(app): State<Arc<App>>, Path(game): Path<String>) -> Answer<RulesPage> {
    let entry = app.registry.entry(&game)?;
    let html = assets::rules_html(Doc::Reference(entry.name))
        .ok_or_else(|| ApiError::not_found(format!("no rules reference for {}", entry.title)))?;
    Ok(Json(RulesPage {
        game: Some(entry.name.to_string()),
        title: entry.title.to_string(),
        html,
    }))
}

async fn list(State(app): State<Arc<App>>) -> Answer<Vec<Summary>> {
    Ok(Json(app.list().await?))
}

async fn create(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Created> {
    let req: NewGame = body(&bytes)?;
    Ok(Json(
        crate::guard::create(&app, &addr, &headers, req).await?,
    ))
}

async fn import(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Created> {
    let req: ImportGame = body(&bytes)?;
    let visitor = visitor_for_change(&app, &headers).await?;
    crate::guard::allow_create(&app, &addr, &visitor, &req.seats).await?;
    let seats = req.seats.clone();
    let created = app.import(req, &visitor).await?;
    crate::guard::remember_creator(&app, &created.id, &addr, &visitor, &seats).await?;
    Ok(Json(created))
}

/// The game as the asker sees it: their seats (`you`) and the chat they
/// may read. Reading needs no `Origin`: another site cannot read answers.
async fn snapshot(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<GameView> {
    let visitor = session::visitor(&app.store, &headers).await?;
    Ok(Json(app.view_for(&id, &visitor.caller("")).await?))
}

/// Claim a game the other player abandoned (the win, or a draw).
async fn claim(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Done> {
    let req: crate::protocol::ClaimRequest = body(&bytes)?;
    let command = Command::Claim { draw: req.draw };
    run(&app, &id, &headers, &req.token, command).await?;
    Ok(Json(Done {}))
}

async fn chat(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Done> {
    let req: ChatRequest = body(&bytes)?;
    let caller = caller(&app, &headers, &req.token).await?;
    crate::guard::allow_chat(&app, &addr, &caller)?;
    app.chat(&id, &caller, req.room, &req.text).await?;
    Ok(Json(Done {}))
}

async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (name, text) = app.record(&id).await?;
    let disposition = format!("attachment; filename=\"{name}\"");
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

/// Run a command of the request's sender.
async fn run(
    app: &Arc<App>,
    id: &str,
    headers: &HeaderMap,
    token: &str,
    command: Command,
) -> Result<Reply, ApiError> {
    let caller = caller(app, headers, token).await?;
    Ok(app.command(id, &caller, command).await?)
}

fn unexpected(reply: Reply) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        format!("unexpected answer {reply:?}"),
    )
}

async fn play(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<PlyAnswer> {
    let req: MoveRequest = body(&bytes)?;
    let caller = caller(&app, &headers, &req.token).await?;
    crate::guard::allow_move(&app, &addr, &caller)?;
    let command = Command::Play {
        action: req.action,
        ply: req.ply,
    };
    match app.command(&id, &caller, command).await? {
        Reply::Ply(ply) => Ok(Json(PlyAnswer { ply })),
        other => Err(unexpected(other)),
    }
}

async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<SeatAnswer> {
    let req: JoinRequest = body(&bytes)?;
    match run(
        &app,
        &id,
        &headers,
        &req.token,
        Command::Join { name: req.name },
    )
    .await?
    {
        Reply::Seat(seat, token) => Ok(Json(SeatAnswer { seat, token })),
        other => Err(unexpected(other)),
    }
}

async fn draw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Done> {
    let req: DrawRequest = body(&bytes)?;
    let command = Command::Draw { accept: req.accept };
    run(&app, &id, &headers, &req.token, command).await?;
    Ok(Json(Done {}))
}

async fn hint(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Hint> {
    let req: TokenRequest = body(&bytes)?;
    let caller = caller(&app, &headers, &req.token).await?;
    crate::guard::allow_hint(&app, &addr, &caller)?;
    match app.command(&id, &caller, Command::Hint).await? {
        Reply::Hint(pick) => Ok(Json(Hint {
            action: pick.action,
            ranked: pick.ranked,
        })),
        other => Err(unexpected(other)),
    }
}

async fn rematch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<GameId> {
    let req: TokenRequest = body(&bytes)?;
    match run(&app, &id, &headers, &req.token, Command::Rematch).await? {
        Reply::Game(id) => Ok(Json(GameId { id })),
        other => Err(unexpected(other)),
    }
}

/// `undo` (answers the ply), `resign` and `leave` (answer `{}`).
async fn token_verb(
    State(app): State<Arc<App>>,
    Path((id, verb)): Path<(String, String)>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let command = match verb.as_str() {
        "undo" => Command::Undo,
        "resign" => Command::Resign,
        "leave" => Command::Leave,
        other => {
            return Err(ApiError::not_found(format!(
                "unknown request `{other}` (valid: {VERBS})"
            )))
        }
    };
    let req: TokenRequest = body(&bytes)?;
    Ok(match run(&app, &id, &headers, &req.token, command).await? {
        Reply::Ply(ply) => Json(PlyAnswer { ply }).into_response(),
        _ => Json(Done {}).into_response(),
    })
}
