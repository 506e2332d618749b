//! The games' endpoints: thin handlers that read a typed request, send the
//! game's owner a command (through `round::Rounds`) and write a typed
//! answer.

use super::{body, caller, visitor_for_change, Answer, ClientAddr};
use crate::app::App;
use crate::assets;
use crate::assets::RulesPage as Doc;
use crate::error::ApiError;
use crate::protocol::{
    Catalog, ChatRequest, Created, Done, DrawRequest, GameId, GameView, Health, Hint, ImportGame,
    JoinRequest, Metrics, MoveRequest, NewGame, PlyAnswer, RulesPage, SeatAnswer, SeatRequest,
    Summary, TokenRequest,
};
use crate::round::{Command, Creator, Reply, RoundError};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

/// The seat verbs, for the error on an unknown one.
const VERBS: &str = "move, join, undo, resign, draw, leave, rematch, hint, claim, chat, stop";

/// Whether the server and its database answer, and its writes succeed
/// (for load balancers and monitors).
pub(crate) async fn health(State(app): State<Arc<App>>) -> Response {
    let (games, reason) = match app.rounds.stored_games().await {
        Ok(n) => (
            n,
            app.rounds
                .failing_writes()
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
        store: app.rounds.store_engine().into(),
        games,
        live: app.rounds.live_games(),
        reason,
    };
    (status, Json(body)).into_response()
}

pub(crate) async fn catalog(State(app): State<Arc<App>>) -> Json<Catalog> {
    Json(app.rounds.catalog())
}

/// `?lang=fr`: the language wanted for a players' rules page.
#[derive(serde::Deserialize)]
pub(crate) struct Lang {
    lang: Option<String>,
}

/// A game's rules page for players, in `lang` when it is translated (else
/// in English); `reference` names the conventions every game shares.
pub(crate) async fn rules(
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
    let entry = app.rounds.registry.entry(&game)?;
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
pub(crate) async fn reference(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
) -> Answer<RulesPage> {
    let entry = app.rounds.registry.entry(&game)?;
    let html = assets::rules_html(Doc::Reference(entry.name))
        .ok_or_else(|| ApiError::not_found(format!("no rules reference for {}", entry.title)))?;
    Ok(Json(RulesPage {
        game: Some(entry.name.to_string()),
        title: entry.title.to_string(),
        html,
    }))
}

pub(crate) async fn list(State(app): State<Arc<App>>) -> Answer<Vec<Summary>> {
    Ok(Json(app.rounds.list().await?))
}

pub(crate) async fn create(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Created> {
    let req: NewGame = body(&bytes)?;
    let seats = req.seats.clone();
    let rounds = &app.rounds;
    within_quota(&app, &addr, &headers, &seats, |c| async move {
        rounds.create(req, &c).await
    })
    .await
}

pub(crate) async fn import(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Created> {
    let req: ImportGame = body(&bytes)?;
    let seats = req.seats.clone();
    let rounds = &app.rounds;
    within_quota(&app, &addr, &headers, &seats, |c| async move {
        rounds.import(req, &c).await
    })
    .await
}

/// Make a game with `seats` for the request's visitor at `addr` (`make`
/// creates or imports it) within their quotas, and remember who made it.
async fn within_quota<F, Fut>(
    app: &App,
    addr: &str,
    headers: &HeaderMap,
    seats: &[SeatRequest],
    make: F,
) -> Answer<Created>
where
    F: FnOnce(Creator) -> Fut,
    Fut: std::future::Future<Output = Result<Created, RoundError>>,
{
    let visitor = visitor_for_change(app, headers).await?;
    let ids = visitor.ids();
    let creations = &app.creations;
    creations
        .allow(addr, &ids, visitor.session.is_some(), seats)
        .await?;
    let created = make(visitor.creator()).await?;
    creations
        .remember(&created.id, addr, ids.first().cloned(), seats)
        .await?;
    Ok(Json(created))
}

/// The game as the asker sees it: their seats (`you`) and the chat they
/// may read. Reading needs no `Origin`: another site cannot read answers.
pub(crate) async fn snapshot(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<GameView> {
    let visitor = app.users.visitor(&headers).await?;
    Ok(Json(app.rounds.view_for(&id, &visitor.caller("")).await?))
}

/// Claim a game the other player abandoned (the win, or a draw).
pub(crate) async fn claim(
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

pub(crate) async fn chat(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Done> {
    let req: ChatRequest = body(&bytes)?;
    let caller = caller(&app, &headers, &req.token).await?;
    crate::guard::allow_chat(&app.limits, &addr, &caller)?;
    app.rounds.chat(&id, &caller, req.room, &req.text).await?;
    Ok(Json(Done {}))
}

pub(crate) async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (name, text) = app.rounds.record(&id).await?;
    let text = app.analyses.annotate(&id, text).await?;
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
    Ok(app.rounds.command(id, &caller, command).await?)
}

fn unexpected(reply: Reply) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        format!("unexpected answer {reply:?}"),
    )
}

pub(crate) async fn play(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<PlyAnswer> {
    let req: MoveRequest = body(&bytes)?;
    let caller = caller(&app, &headers, &req.token).await?;
    crate::guard::allow_move(&app.limits, &addr, &caller)?;
    let command = Command::Play {
        action: req.action,
        ply: req.ply,
    };
    match app.rounds.command(&id, &caller, command).await? {
        Reply::Ply(ply) => Ok(Json(PlyAnswer { ply })),
        other => Err(unexpected(other)),
    }
}

pub(crate) async fn join(
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

pub(crate) async fn draw(
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

pub(crate) async fn hint(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Hint> {
    let req: TokenRequest = body(&bytes)?;
    let caller = caller(&app, &headers, &req.token).await?;
    crate::guard::allow_hint(&app.limits, &addr, &caller)?;
    match app.rounds.command(&id, &caller, Command::Hint).await? {
        Reply::Hint(pick) => Ok(Json(Hint {
            action: pick.action,
            ranked: pick.ranked,
        })),
        other => Err(unexpected(other)),
    }
}

pub(crate) async fn rematch(
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
pub(crate) async fn token_verb(
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

/// `POST /api/games/{id}/stop`: the creator of an AI-only game ends it
/// (a draw, reason `abandoned`).
pub(crate) async fn stop(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Done> {
    let visitor = visitor_for_change(&app, &headers).await?;
    app.creations.stop(&id, &visitor.ids()).await?;
    Ok(Json(Done {}))
}

/// `GET /api/metrics`: what the AI pool and the live games are doing.
pub(crate) async fn metrics(State(app): State<Arc<App>>) -> Json<Metrics> {
    let ai = app.rounds.ai.stats();
    Json(Metrics {
        live_games: app.rounds.live_games(),
        ai_workers: ai.workers,
        ai_running: ai.running,
        ai_queued_moves: ai.queued_moves,
        ai_queued_hints: ai.queued_hints,
        ai_queued_demos: ai.queued_demos,
        ai_done: ai.done,
        ai_wait_p50_ms: ai.wait_p50_ms,
        ai_wait_p99_ms: ai.wait_p99_ms,
        ai_wait_max_ms: ai.wait_max_ms,
    })
}
