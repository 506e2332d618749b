//! What protects the server and its players from a client who asks for a
//! lot or comes from another site: safe response headers, JSON errors
//! everywhere, JSON-only request bodies, the client's address, quotas on
//! new games, the metrics endpoint, and the expiry of abandoned games.
//! `docs/security.md` lists every limit and how to change it.

use crate::api::Answer;
use crate::app::App;
use crate::error::ApiError;
use crate::protocol::{Done, Metrics, NewGame, SeatRequest};
use crate::round::{Caller, SeatKind};
use crate::store::Doc;
use crate::user::session::Visitor;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Request, State};
use axum::http::{header, request::Parts, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use std::sync::Arc;
use std::time::Duration;

/// The policy of every answer: scripts, styles and connections from this
/// site only, no inline script or style, never framed.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// The largest WebSocket message a client may send (ours are far smaller).
pub const WS_MAX_MESSAGE: usize = 64 * 1024;

/// A game with no stored action for this long and no clock is ended.
pub const EXPIRY: Duration = Duration::from_secs(30 * 86_400);

/// Live channels one address may hold open: a club of a dozen people on
/// one Wi-Fi, each with a few pages open, stays well under it.
pub const SOCKETS_PER_ADDRESS: usize = 100;

/// The live channels open per client address.
#[derive(Default)]
pub struct SocketCounts(std::sync::Mutex<std::collections::HashMap<String, usize>>);

/// One open live channel of an address: the count goes down when it drops.
pub struct SocketSlot {
    counts: Arc<SocketCounts>,
    addr: String,
}

impl SocketCounts {
    /// Count one more channel of `addr`, unless it holds `max` already.
    pub fn open(self: &Arc<Self>, addr: &str, max: usize) -> Result<SocketSlot, ApiError> {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(addr.to_string()).or_default();
        if *n >= max {
            return Err(ApiError {
                retry_after: Some(10),
                ..ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "too many live channels from your address (at most {max}): close a page"
                    ),
                )
            });
        }
        *n += 1;
        Ok(SocketSlot {
            counts: Arc::clone(self),
            addr: addr.to_string(),
        })
    }

    /// Channels open now, over every address.
    pub fn total(&self) -> usize {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .sum()
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.addr) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&self.addr);
            }
        }
    }
}

/// Password checks that may wait for a hashing thread: with two threads
/// at ~30 ms a check, the last waits about half a second.
pub const HASH_QUEUE: usize = 32;

/// How the server defends itself (`tabula serve` flags).
#[derive(Clone, Debug)]
pub struct GuardConfig {
    /// Origins besides the server's own whose pages may use the session
    /// cookie (`--allowed-origin`), e.g. `https://play.example.org`.
    pub allowed_origins: Vec<String>,
    /// Take the client's address from `X-Forwarded-For` (behind a reverse
    /// proxy that sets it; `--trust-proxy`).
    pub trust_proxy: bool,
    /// Threads that think for AI seats and hints (`--ai-workers`).
    pub ai_workers: usize,
    /// Games in progress one guest, account or address may hold.
    pub games_in_progress: usize,
    /// Live channels (game and lobby WebSockets) open at once per client
    /// address (`--trust-proxy` aware); more get 429.
    pub sockets_per_address: usize,
    /// A live channel whose client has not read for this long (a send
    /// stays blocked, or a ping goes unanswered) is closed.
    pub socket_stall: Duration,
    /// Threads that check passwords (Argon2id, 19 MiB each).
    pub hash_workers: usize,
    /// Password checks that may wait for one (more get 503).
    pub hash_queue: usize,
    /// Unfinished games untouched for this long are ended.
    pub expiry: Duration,
    /// How often to look for them.
    pub expiry_sweep: Duration,
}

impl Default for GuardConfig {
    fn default() -> Self {
        GuardConfig {
            allowed_origins: Vec::new(),
            trust_proxy: false,
            ai_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            games_in_progress: 50,
            sockets_per_address: SOCKETS_PER_ADDRESS,
            socket_stall: Duration::from_secs(30),
            hash_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            hash_queue: HASH_QUEUE,
            expiry: EXPIRY,
            expiry_sweep: Duration::from_secs(3600),
        }
    }
}

/// Wrap the API's router in the layers every request passes.
pub fn protect(router: Router, app: Arc<App>) -> Router {
    router
        .layer(middleware::from_fn(require_json))
        .layer(middleware::from_fn_with_state(app, find_client))
        .layer(middleware::from_fn(safe_answers))
}

/// Security headers on every answer, and a JSON body on every error
/// (axum's own 404, 405, 413 and rejections are plain text).
async fn safe_answers(req: Request, next: Next) -> Response {
    let asked = (req.method().clone(), req.uri().path().to_string());
    let res = next.run(req).await;
    let mut res = if is_error(&res) && !is_json(res.headers()) {
        as_json_error(res, &asked).await
    } else {
        res
    };
    let h = res.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
    ] {
        h.insert(name, HeaderValue::from_static(value));
    }
    res
}

fn is_error(res: &Response) -> bool {
    res.status().is_client_error() || res.status().is_server_error()
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// The largest request body (axum's `DefaultBodyLimit`), in MB.
pub const BODY_MAX_MB: usize = 2;

/// The same refusal as an [`ApiError`] (`{"error", "code"}`, its other
/// headers kept), saying what went wrong with the request `asked`
/// (method, path) where axum's words do not.
async fn as_json_error(res: Response, (method, path): &(Method, String)) -> Response {
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 16 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match parts.status {
        StatusCode::NOT_FOUND => format!("no such page: `{path}`"),
        StatusCode::METHOD_NOT_ALLOWED => format!("`{path}` does not take {method}"),
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request body is too large (at most {BODY_MAX_MB} MB)")
        }
        status if text.is_empty() => status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase(),
        _ => text,
    };
    let mut res = ApiError::new(parts.status, message).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            res.headers_mut().append(name, value.clone());
        }
    }
    res
}

/// A request that changes something and carries a body must say it is
/// JSON (415 otherwise). A body-less request passes: verbs like
/// `accept` or `DELETE /api/seeks/{id}` take none. This also keeps plain
/// HTML forms of other sites from posting to the API.
async fn require_json(req: Request, next: Next) -> Response {
    let changes = matches!(
        *req.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    let empty = axum::body::HttpBody::size_hint(req.body()).exact() == Some(0);
    if changes && !empty && !is_json(req.headers()) {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request body must be JSON (Content-Type: application/json)",
        )
        .into_response();
    }
    next.run(req).await
}

/// The client's address, as rate limits and quotas count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub String);

/// Find the client's address once per request: the socket's peer, or with
/// `trust_proxy` the last address of `X-Forwarded-For` (the one our proxy
/// added; earlier ones are the client's own word).
async fn find_client(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip().to_string());
    let forwarded = app
        .config
        .guard
        .trust_proxy
        .then(|| forwarded_for(req.headers()))
        .flatten();
    let addr = forwarded.or(peer).unwrap_or_else(|| "local".into());
    req.extensions_mut().insert(ClientAddr(addr));
    next.run(req).await
}

/// The last address of the (last) `X-Forwarded-For` header.
fn forwarded_for(headers: &HeaderMap) -> Option<String> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let text = last.to_str().ok()?;
    let addr = text.rsplit(',').next()?.trim();
    addr.parse::<std::net::IpAddr>().ok().map(|a| a.to_string())
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientAddr>()
            .cloned()
            .unwrap_or_else(|| ClientAddr("local".into())))
    }
}

/// Whether `origin` is one of the extra origins allowed to use the session.
pub fn origin_allowed(allowed: &[String], origin: &str) -> bool {
    allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
}

/// Count one request against a limit keyed by `key`.
pub(crate) fn count(limit: &crate::user::limits::Limit, key: &str) -> Result<(), ApiError> {
    limit
        .check(key)
        .map_err(|wait| ApiError::too_many(limit.what(), wait))
}

/// The key that names a command's sender in the limits: their first
/// identity, else their seat token's hash.
pub(crate) fn sender_key(caller: &Caller) -> String {
    caller
        .ids
        .first()
        .cloned()
        .unwrap_or_else(|| crate::round::state::hash_token(&caller.token))
}

/// Count a move of `caller` from `addr`.
pub(crate) fn allow_move(app: &App, addr: &str, caller: &Caller) -> Result<(), ApiError> {
    count(&app.limits.moves_address, addr)?;
    count(&app.limits.moves, &sender_key(caller))
}

/// Count a chat line of `caller` from `addr`.
pub(crate) fn allow_chat(app: &App, addr: &str, caller: &Caller) -> Result<(), ApiError> {
    count(&app.limits.chat_address, addr)?;
    count(&app.limits.chat, &sender_key(caller))
}

/// Count a hint asked by `caller` from `addr`.
pub(crate) fn allow_hint(app: &App, addr: &str, caller: &Caller) -> Result<(), ApiError> {
    count(&app.limits.hints_address, addr)?;
    count(&app.limits.hints, &sender_key(caller))
}

/// The documents that remember who created each game in progress (its
/// owner is the creator's address): the per-address quota counts them.
const CREATED: &str = "created";

/// Who created a game: its document in `CREATED`.
#[derive(serde::Serialize, serde::Deserialize)]
struct Creator {
    /// The creator's first identity, if they had a session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    by: Option<String>,
    /// No seat is a person's.
    #[serde(default)]
    ai_only: bool,
}

/// Whether a person plays one of `seats` (else the game is a demo: AI
/// against AI, which thinks only while watched).
pub(crate) fn has_human_seat(seats: &[crate::round::Seat]) -> bool {
    seats.iter().any(|s| s.kind == SeatKind::Human)
}

/// Whether no seat asked for is a person's.
fn ai_only(seats: &[SeatRequest]) -> bool {
    !seats.is_empty() && seats.iter().all(|s| s.kind == SeatKind::Ai)
}

/// May `visitor` at `addr` create a game with `seats`? Counts the creation
/// against the rate limits; refuses an AI-only game without a session and
/// a creator over their quota of games in progress.
pub(crate) async fn allow_create(
    app: &App,
    addr: &str,
    visitor: &Visitor,
    seats: &[SeatRequest],
) -> Result<(), ApiError> {
    if ai_only(seats) && visitor.session.is_none() {
        return Err(ApiError::forbidden(
            "a game without a human seat needs a session (POST /api/session): \
             its creator is the one who can stop it",
        ));
    }
    count(&app.limits.create_address, addr)?;
    let ids = visitor.ids();
    if let Some(id) = ids.first() {
        count(&app.limits.create, id)?;
    }
    let cap = app.config.guard.games_in_progress;
    let held = if ids.is_empty() {
        app.store
            .doc_list(CREATED, Some(addr), app.now(), cap)
            .await
            .map_err(ApiError::from)?
            .len()
    } else {
        app.store
            .player_games(&ids, false, cap, 0)
            .await
            .map_err(ApiError::from)?
            .len()
    };
    if held >= cap {
        return Err(ApiError {
            retry_after: Some(60),
            ..ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many games in progress ({cap}): finish or resign some first"),
            )
        });
    }
    Ok(())
}

/// Remember who created game `id` (for the per-address quota and to know
/// who may stop an AI-only game). Forgotten when the game ends or expires.
pub(crate) async fn remember_creator(
    app: &App,
    id: &str,
    addr: &str,
    visitor: &Visitor,
    seats: &[SeatRequest],
) -> Result<(), ApiError> {
    let creator = Creator {
        by: visitor.ids().first().cloned(),
        ai_only: ai_only(seats),
    };
    let now = app.now();
    let doc = Doc {
        kind: CREATED,
        id: id.to_string(),
        owner: Some(addr.to_string()),
        body: serde_json::to_string(&creator).unwrap_or_default(),
        version: 0,
        created: now,
        expires: Some(now + app.config.guard.expiry.as_millis() as i64),
    };
    app.store.doc_insert(doc).await.map_err(ApiError::from)
}

/// `POST /api/games`, guarded: limits, quota, then the game.
pub(crate) async fn create(
    app: &Arc<App>,
    addr: &str,
    headers: &HeaderMap,
    req: NewGame,
) -> Result<crate::protocol::Created, ApiError> {
    let visitor = crate::api::visitor_for_change(app, headers).await?;
    allow_create(app, addr, &visitor, &req.seats).await?;
    let seats = req.seats.clone();
    let created = app.create(req, &visitor).await?;
    remember_creator(app, &created.id, addr, &visitor, &seats).await?;
    Ok(created)
}

/// `POST /api/games/{id}/stop`: the creator of an AI-only game ends it
/// (a draw, reason `abandoned`).
pub(crate) async fn stop(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer<Done> {
    let visitor = crate::api::visitor_for_change(&app, &headers).await?;
    let doc = app
        .store
        .doc_get(CREATED, &id)
        .await
        .map_err(ApiError::from)?;
    let creator = doc.and_then(|d| serde_json::from_str::<Creator>(&d.body).ok());
    let Some(creator) = creator.filter(|c| c.ai_only) else {
        // Its creator is forgotten once it ends.
        if app.view(&id, usize::MAX).await?.state.result.is_some() {
            return Err(crate::round::RoundError::Over.into());
        }
        return Err(ApiError::forbidden(
            "only a game without a human seat is stopped this way (players resign or leave)",
        ));
    };
    if !creator.by.is_some_and(|by| visitor.ids().contains(&by)) {
        return Err(ApiError::forbidden("only the game's creator may stop it"));
    }
    app.stop(&id).await?;
    Ok(Json(Done {}))
}

/// `GET /api/metrics`: what the AI pool and the live games are doing.
pub(crate) async fn metrics(State(app): State<Arc<App>>) -> Json<Metrics> {
    let ai = app.ai.stats();
    Json(Metrics {
        live_games: app.live_games(),
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

/// Forget the creator of every game that ends here (the quota counts games
/// in progress), until the app is gone.
pub(crate) async fn forget_finished(app: std::sync::Weak<App>) {
    let Some(mut ends) = app.upgrade().map(|a| a.finisher.subscribe()) else {
        return;
    };
    loop {
        let ended = match ends.recv().await {
            Ok(e) => e,
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
            Err(_) => return,
        };
        let Some(app) = app.upgrade() else { return };
        let _ = app.store.doc_delete(CREATED, &ended.id).await;
    }
}

/// Every `expiry_sweep`, end the unfinished games nobody touched for
/// `expiry`, until the app is gone.
pub(crate) async fn expire(app: std::sync::Weak<App>) {
    loop {
        let Some(period) = app.upgrade().map(|a| a.config.guard.expiry_sweep) else {
            return;
        };
        tokio::time::sleep(period).await;
        let Some(app) = app.upgrade() else { return };
        match app.expire_games().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} abandoned games ended"),
            Err(e) => tracing::warn!("expiry sweep: {e}"),
        }
        let _ = app.store.doc_purge(CREATED, app.now()).await;
    }
}

impl App {
    /// End game `id` now (a draw for all, reason `abandoned`).
    pub async fn stop(self: &Arc<Self>, id: &str) -> Result<(), crate::round::RoundError> {
        self.ask(id, |reply| crate::round::actor::Msg::Stop { reply })
            .await?
    }

    /// End the unfinished games nobody wrote to for `expiry`; how many.
    pub async fn expire_games(self: &Arc<Self>) -> Result<usize, crate::round::RoundError> {
        const BATCH: usize = 100;
        let before = self.now() - self.config.guard.expiry.as_millis() as i64;
        let mut ended = 0;
        loop {
            let ids = self
                .store
                .stale_games(before, BATCH)
                .await
                .map_err(crate::app::store_error)?;
            let mut progress = false;
            for id in &ids {
                match self.stop(id).await {
                    Ok(()) => {
                        ended += 1;
                        progress = true;
                    }
                    Err(e) => tracing::warn!(game = %id, "not expired: {e}"),
                }
            }
            if ids.len() < BATCH || !progress {
                return Ok(ended);
            }
        }
    }
}
