//! The endpoints of lessons, puzzles and `POST /api/position`
//! (`docs/api.md`, "Learning"). Each answer is replayed from the file's
//! position on every request; an account's progress is recorded from the
//! engine's own verdicts (`crate::learn::progress`).

use super::{body, visitor_for_change, Answer, ClientAddr};
use crate::ai::{self, Class, Full};
use crate::app::App;
use crate::error::ApiError;
use crate::learn::progress::{self, Progress};
use crate::learn::{
    LearnGame, LearnOverview, LessonCheck, LessonList, Line, Lines, LinesRequest, PositionRequest,
    PuzzleAnswer, PuzzleCheck, PuzzleList, PuzzleView,
};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;
use std::time::Duration;
use tabula_core::{Error, ErrorKind};
use tabula_learn::data::library;
use tabula_learn::{PuzzleStatus, Replayed, Run};

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/position", post(position))
        .route("/api/position/lines", post(lines))
        .route("/api/learn", get(overview))
        .route("/api/learn/check", post(check_lesson))
        .route("/api/learn/progress", get(my_progress))
        .route("/api/learn/{game}", get(lessons))
        .route("/api/puzzles/check", post(check_puzzle))
        .route("/api/puzzles/{game}", get(puzzles))
}

/// The account of a request, if signed in. A request that writes
/// (`writes`) counts as a guest's unless its cookie comes with the page's
/// own Origin, as every state change must.
async fn account(app: &App, headers: &HeaderMap, writes: bool) -> Option<String> {
    let visitor = if writes {
        visitor_for_change(app, headers).await.ok()?
    } else {
        app.users.visitor(headers).await.ok()?
    };
    visitor.account.map(|(key, _)| key)
}

/// An engine refusal as an API error with the codes of `docs/api.md`.
fn refusal(e: Error) -> ApiError {
    let (status, code) = match e.kind {
        ErrorKind::Spec => (StatusCode::BAD_REQUEST, "bad_spec"),
        ErrorKind::Position => (StatusCode::BAD_REQUEST, "bad_position"),
        ErrorKind::Notation => (StatusCode::UNPROCESSABLE_ENTITY, "bad_notation"),
        ErrorKind::Illegal => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
        ErrorKind::Record => (StatusCode::BAD_REQUEST, "bad_request"),
    };
    ApiError {
        code,
        vars: crate::error::rules_vars(&e),
        ..ApiError::new(status, e.message)
    }
}

/// Input beyond the documented sizes: 413 `too_large`, before any work.
fn bounded(spec: &str, position: Option<&str>, actions: &[String]) -> Result<(), ApiError> {
    tabula_learn::replay::check_bounds(spec, position, actions)
        .map_err(|e| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, e.message))
}

/// Engine work of a client at `addr`, counted against its limit and run
/// on the AI pool's threads (a check may search a little): queued behind
/// the games' AI moves, fair between addresses, and refused with 429 when
/// too much waits, so no stranger makes the server spend more.
async fn blocking<T: Send + 'static>(
    app: &App,
    addr: &str,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    app.limits.engine_address.count(addr)?;
    let (_, answer) = app
        .rounds
        .ai
        .run(Class::Hint, addr, work)
        .map_err(|Full| ApiError::too_many("engine checks waiting", Duration::from_secs(1)))?;
    answer.await.map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the engine's worker stopped",
        )
    })?
}

async fn position(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    bytes: Bytes,
) -> Answer<Replayed> {
    let req: PositionRequest = body(&bytes)?;
    bounded(&req.spec, req.position.as_deref(), &req.actions)?;
    let registry = app.rounds.registry.clone();
    let replayed = blocking(&app, &addr, move || {
        tabula_learn::replay(&registry, &req.spec, req.position.as_deref(), &req.actions)
            .map_err(refusal)
    })
    .await?;
    Ok(Json(replayed))
}

/// Lines a request gets when it names no number: a hint's three.
const DEFAULT_LINES: usize = 3;

/// `POST /api/position/lines`: the analysis board's engine lines. Bounded
/// as every engine check (per address, on the AI pool in the hints' class)
/// and counted as a hint of its address too, since it searches as long.
/// An instance without AI threads (`serve --ai-workers 0`) refuses with 503
/// `no_engine`: its one pool thread serves replays, not searches, and the
/// workers' hint queue is keyed by a stored game, which a pasted position
/// is not.
async fn lines(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    bytes: Bytes,
) -> Answer<Lines> {
    let req: LinesRequest = body(&bytes)?;
    bounded(&req.spec, req.position.as_deref(), &req.actions)?;
    let wanted = req.lines.unwrap_or(DEFAULT_LINES);
    if !(1..=ai::MAX_LINES).contains(&wanted) {
        return Err(ApiError {
            code: "bad_lines",
            vars: vec![("max", ai::MAX_LINES.to_string())],
            ..ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("`lines` is 1 to {}", ai::MAX_LINES),
            )
        });
    }
    if !app.rounds.computes_ai() {
        return Err(ApiError {
            code: "no_engine",
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "this server computes no engine lines",
            )
        });
    }
    app.limits.hints_address.count(&addr)?;
    let registry = app.rounds.registry.clone();
    let answer = blocking(&app, &addr, move || {
        let (game, _) = tabula_learn::replay::reach(
            &registry,
            &req.spec,
            req.position.as_deref(),
            &req.actions,
        )
        .map_err(refusal)?;
        let game = game.as_ref();
        let now = tabula_learn::replay::describe(game, Vec::new());
        let mut answer = Lines {
            position: now.position,
            turn: now.turn,
            to_move: now.to_move,
            players: game.num_players(),
            lines: Vec::new(),
            depth: None,
        };
        if answer.to_move.is_some() {
            let choice = ai::lines(game, LINES_SEED, wanted).map_err(refusal)?;
            let mut pv = choice.pv;
            answer.depth = choice.depth;
            answer.lines = choice
                .ranked
                .into_iter()
                .map(|(action, value)| {
                    let pv = if pv.first() == Some(&action) {
                        std::mem::take(&mut pv)
                    } else {
                        Vec::new()
                    };
                    Line { action, value, pv }
                })
                .collect();
        }
        Ok(answer)
    })
    .await?;
    Ok(Json(answer))
}

/// One seed for every line search: the same position, the same answer
/// (as near as a timed search gives).
const LINES_SEED: u64 = 41;

async fn overview() -> Json<LearnOverview> {
    let lib = library();
    let games = tabula_learn::GAMES
        .iter()
        .map(|g| LearnGame {
            game: g.to_string(),
            lessons: lib.lessons.get(*g).map_or(0, Vec::len),
            puzzles: lib.puzzles.get(*g).map_or(0, Vec::len),
        })
        .collect();
    Json(LearnOverview { games })
}

fn known_game(game: &str) -> Result<(), ApiError> {
    if tabula_learn::GAMES.contains(&game) {
        Ok(())
    } else {
        Err(ApiError {
            code: "no_game",
            ..ApiError::not_found(format!("no lessons for `{game}`"))
        })
    }
}

async fn lessons(Path(game): Path<String>) -> Answer<LessonList> {
    known_game(&game)?;
    let lessons = library().lessons.get(&game).cloned().unwrap_or_default();
    Ok(Json(LessonList { game, lessons }))
}

async fn check_lesson(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Run> {
    let req: LessonCheck = body(&bytes)?;
    let (game, _) = req.lesson.split_once('/').unwrap_or(("", ""));
    let lesson = library()
        .lesson(game, &req.lesson)
        .ok_or_else(|| ApiError::not_found(format!("no lesson `{}`", quoted(&req.lesson))))?;
    bounded(&lesson.spec, None, &req.actions)?;
    let registry = app.rounds.registry.clone();
    let run = blocking(&app, &addr, move || {
        lesson.check(&registry, &req.actions).map_err(refusal)
    })
    .await?;
    if let tabula_learn::Status::Done { stars } = run.status {
        if let Some(key) = account(&app, &headers, true).await {
            progress::change(&app.store, app.now(), &key, |p| {
                let best = p.lessons.entry(lesson.id.clone()).or_default();
                *best = (*best).max(stars);
            })
            .await?;
        }
    }
    Ok(Json(run))
}

/// An id as sent, cut short for an error line.
fn quoted(text: &str) -> String {
    text.chars().take(80).collect()
}

async fn puzzles(State(app): State<Arc<App>>, Path(game): Path<String>) -> Answer<PuzzleList> {
    known_game(&game)?;
    let live = progress::puzzle_ratings(&app.store, &game).await?;
    let puzzles = library()
        .puzzles
        .get(&game)
        .into_iter()
        .flatten()
        .map(|p| PuzzleView {
            id: p.id.clone(),
            spec: p.spec.clone(),
            position: p.position.clone(),
            theme: p.theme.clone(),
            rating: progress::live_rating(&live, p).rating,
        })
        .collect();
    Ok(Json(PuzzleList { game, puzzles }))
}

async fn check_puzzle(
    State(app): State<Arc<App>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<PuzzleAnswer> {
    let req: PuzzleCheck = body(&bytes)?;
    let req_game = req.game.clone();
    let puzzle = library()
        .puzzle(&req.game, &req.id)
        .ok_or_else(|| ApiError::not_found(format!("no puzzle `{}`", quoted(&req.id))))?;
    bounded(&puzzle.spec, None, &req.actions)?;
    let registry = app.rounds.registry.clone();
    let mut answer = blocking(&app, &addr, move || {
        let run = puzzle.check(&registry, &req.actions).map_err(refusal)?;
        Ok(PuzzleAnswer {
            line: solved(&run.status).map(|_| puzzle.line.clone()),
            rating: None,
            run,
        })
    })
    .await?;
    let Some(solved) = solved(&answer.run.status) else {
        return Ok(Json(answer));
    };
    let live = progress::live_rating(
        &progress::puzzle_ratings(&app.store, &req_game).await?,
        puzzle,
    );
    answer.rating = req.rating.map(|r| puzzle.rate(&r, &live, solved));
    // An account's rating is the server's, whatever the request said; a
    // puzzle counts once, at its first decided try, which moves the
    // puzzle's own rating too.
    if let Some(key) = account(&app, &headers, true).await {
        let (rated, first) = progress::change(&app.store, app.now(), &key, |p| {
            let mine = p.puzzles.entry(req_game.clone()).or_default();
            let before = mine.rating;
            let first = !mine.done.contains_key(&puzzle.id);
            if first {
                mine.rating = puzzle.rate(&before, &live, solved);
                mine.done.insert(puzzle.id.clone(), u8::from(solved));
            }
            (mine.rating, first.then_some(before))
        })
        .await?;
        if let Some(before) = first {
            progress::rerate(&app.store, app.now(), &req_game, puzzle, &before, solved).await?;
        }
        answer.rating = Some(rated);
    }
    Ok(Json(answer))
}

/// Whether a puzzle attempt is decided: solved (`true`) or failed.
fn solved(status: &PuzzleStatus) -> Option<bool> {
    match status {
        PuzzleStatus::Going => None,
        PuzzleStatus::Solved => Some(true),
        PuzzleStatus::Failed { .. } => Some(false),
    }
}

/// `GET /api/learn/progress`: the signed-in player's stars and puzzle
/// ratings; a guest's is empty (`signed_in: false`).
async fn my_progress(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer<Progress> {
    match account(&app, &headers, false).await {
        Some(key) => Ok(Json(progress::load(&app.store, &key).await?)),
        None => Ok(Json(Progress::default())),
    }
}
