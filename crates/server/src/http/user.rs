//! The account endpoints: sign up, in and out, the session, password,
//! deletion, and the pages of players (`docs/api.md`).

use super::session::{self, Visitor};
use super::{body, client_address, visitor_for_change, Answer};
use crate::app::App;
use crate::common::PlayerId;
use crate::error::ApiError;
use crate::protocol::{
    AccountDeletion, Credentials, Done, GamePage, Me, MyGames, PasswordChange, Profile,
    SessionInfo, Summary, Tally,
};
use crate::round::Rebind;
use crate::store::{Doc, StoreError};
use crate::user::device::Device;
use crate::user::hasher::HashError;
use crate::user::revoke::Revoked;
use crate::user::{check_name, check_password, Account};
use axum::body::Bytes;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use std::sync::Arc;

/// Finished games per page of a profile.
pub const PAGE: usize = 20;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account", post(sign_up).delete(delete_account))
        .route("/api/account/password", post(change_password))
        .route("/api/login", post(sign_in))
        .route("/api/logout", post(sign_out))
        .route("/api/session", post(open_session))
        .route("/api/me", get(me))
        .route("/api/me/games", get(my_games))
        .route("/api/players/{name}", get(profile))
        .route("/api/players/{name}/games", get(finished_games))
        .route("/api/leaderboard", get(leaderboard))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// An answer that sets the session cookie.
fn with_cookie(
    status: StatusCode,
    cookie: &str,
    headers: &HeaderMap,
    body: impl serde::Serialize,
) -> Response {
    let mut res = (status, Json(body)).into_response();
    res.headers_mut()
        .insert(header::SET_COOKIE, session::set_cookie(cookie, headers));
    res
}

/// `res` with the device cookie set, when the browser has none yet.
fn with_device(mut res: Response, device: &Device, headers: &HeaderMap) -> Response {
    if let Some(set) = device.set_cookie(headers) {
        res.headers_mut().append(header::SET_COOKIE, set);
    }
    res
}

fn me_of(account: &Account) -> Me {
    Me {
        username: account.name.clone(),
        created: account.created,
    }
}

impl From<HashError> for ApiError {
    fn from(e: HashError) -> Self {
        match e {
            HashError::Busy => ApiError::unavailable(
                "the server is busy checking passwords: try again in a moment",
                1,
            ),
            HashError::Failed(e) => internal(e),
        }
    }
}

/// Hash a new password on the hashing pool (Argon2id is slow on purpose).
async fn hash(app: &App, password: String) -> Result<String, ApiError> {
    Ok(app.users.hasher.hash(password).await?)
}

async fn verify(app: &App, password: String, hash: String) -> Result<bool, ApiError> {
    Ok(app.users.hasher.verify(password, hash).await?)
}

/// A hash nobody's password matches, checked for unknown names so that
/// they take as long as known ones.
fn dummy_hash() -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| {
            crate::user::hasher::hash_with(&mut Vec::new(), &crate::common::random_token())
                .unwrap_or_default()
        })
        .clone()
}

/// Read a sign-up or sign-in body: at most 64 KB (413 beyond).
async fn credentials(req: Request) -> Result<Credentials, ApiError> {
    let bytes = axum::body::to_bytes(req.into_body(), CREDENTIALS_MAX)
        .await
        .map_err(|e| crate::error::body_error(e, CREDENTIALS_MAX))?;
    body(&bytes)
}

/// The largest sign-up or sign-in body.
const CREDENTIALS_MAX: usize = 64 * 1024;

/// Remember this browser in the account (it signed in with the right
/// password), saving the account if that changed it; a lost race only
/// means the browser is remembered next time.
async fn remember_device(
    app: &App,
    key: &str,
    version: u64,
    mut account: Account,
    device: &Device,
) {
    if device.remember_in(&mut account) {
        if let Err(e) = save_account(app, key, version, &account).await {
            tracing::warn!("remembering a browser of {key}: {e}");
        }
    }
}

/// Replace the visitor's session by one for `user` (a new cookie, so a
/// cookie known before signing in is worth nothing after).
async fn restart_session(
    app: &App,
    visitor: &Visitor,
    user: Option<String>,
) -> Result<String, ApiError> {
    if let Some(id) = &visitor.session {
        app.users.end_session(id).await?;
    }
    Ok(session::start(&app.store, app.now(), visitor.guest.clone(), user).await?)
}

async fn sign_up(State(app): State<Arc<App>>, req: Request) -> Result<Response, ApiError> {
    let address = client_address(&req);
    let headers = req.headers().clone();
    let creds = credentials(req).await?;
    let key = check_name(&creds.username).map_err(ApiError::bad_request)?;
    check_password(&creds.password).map_err(ApiError::bad_request)?;
    let visitor = visitor_for_change(&app, &headers).await?;
    let taken = || ApiError {
        code: "name_taken",
        vars: vec![("name", creds.username.clone())],
        ..ApiError::new(
            StatusCode::CONFLICT,
            format!("the name `{}` is taken", creds.username),
        )
    };
    // Only a sign-up that would make an account counts against the
    // address: a club whose members try taken names is not held back.
    if session::load_account(&app.store, &key).await?.is_some() {
        return Err(taken());
    }
    app.limits.signup_address.count(&address)?;
    let device = Device::of(&headers);
    let mut account = Account {
        name: creds.username.clone(),
        password: hash(&app, creds.password).await?,
        created: app.now(),
        guest: visitor.guest.clone(),
        ..Account::default()
    };
    device.remember_in(&mut account);
    let doc = Doc {
        kind: "user",
        id: key.clone(),
        owner: None,
        body: serde_json::to_string(&account).map_err(internal)?,
        version: 0,
        created: account.created,
        expires: None,
    };
    match app.store.doc_insert(doc).await {
        Ok(()) => {}
        Err(StoreError::Conflict) => return Err(taken()),
        Err(e) => return Err(internal(e)),
    }
    let cookie = restart_session(&app, &visitor, Some(key.clone())).await?;
    if let Some(guest) = visitor.guest {
        // The guest's games follow the account: show its name on them.
        let app = Arc::clone(&app);
        let name = account.name.clone();
        let rebind = Rebind::To(PlayerId::account(&key));
        tokio::spawn(async move { rename_everywhere(&app, &[guest], &name, &rebind).await });
    }
    let res = with_cookie(StatusCode::CREATED, &cookie, &headers, me_of(&account));
    Ok(with_device(res, &device, &headers))
}

/// Show `name` on every seat of `owners` in every game, and rebind them.
async fn rename_everywhere(app: &Arc<App>, owners: &[PlayerId], name: &str, rebind: &Rebind) {
    for over in [false, true] {
        let games = match app.store.player_games(owners, over, 10_000, 0).await {
            Ok(g) => g,
            Err(e) => {
                tracing::error!("renaming {name}: {e}");
                return;
            }
        };
        for g in games {
            if let Err(e) = app.rounds.rename(&g.id, owners, name, rebind).await {
                tracing::warn!(game = %g.id, "renaming {name}: {e}");
            }
        }
    }
}

async fn sign_in(State(app): State<Arc<App>>, req: Request) -> Result<Response, ApiError> {
    let address = client_address(&req);
    let headers = req.headers().clone();
    let creds = credentials(req).await?;
    let visitor = visitor_for_change(&app, &headers).await?;
    let key = creds.username.to_ascii_lowercase();
    let stored = session::load_account(&app.store, &key)
        .await?
        .filter(|(_, a)| !a.deleted);
    let device = Device::of(&headers);
    // A browser the account knows is limited on its own; others per
    // address and per name, so guesses from elsewhere never lock the
    // owner out (OWASP's device cookies).
    let checks = if stored.as_ref().is_some_and(|(_, a)| device.known_to(a)) {
        vec![(&app.limits.login_device, device.id())]
    } else {
        vec![
            (&app.limits.login_address, address),
            (&app.limits.login_name, key.clone()),
        ]
    };
    for (limit, k) in checks {
        limit.count(&k)?;
    }
    let hash = stored
        .as_ref()
        .map_or_else(dummy_hash, |(_, a)| a.password.clone());
    let matches = verify(&app, creds.password, hash).await?;
    let Some((version, account)) = stored.filter(|_| matches) else {
        return Err(ApiError::unauthorized("wrong user name or password"));
    };
    let cookie = restart_session(&app, &visitor, Some(key.clone())).await?;
    let me = me_of(&account);
    remember_device(&app, &key, version, account, &device).await;
    let res = with_cookie(StatusCode::OK, &cookie, &headers, me);
    Ok(with_device(res, &device, &headers))
}

async fn sign_out(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let visitor = visitor_for_change(&app, &headers).await?;
    if visitor.session.is_none() {
        return Ok(Json(Done {}).into_response());
    }
    // The browser stays the same guest.
    let cookie = restart_session(&app, &visitor, None).await?;
    Ok(with_cookie(StatusCode::OK, &cookie, &headers, Done {}))
}

async fn open_session(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let visitor = visitor_for_change(&app, &headers).await?;
    let info = SessionInfo {
        username: visitor.name(),
    };
    if visitor.session.is_some() {
        return Ok(Json(info).into_response());
    }
    let cookie = session::start(&app.store, app.now(), None, None).await?;
    Ok(with_cookie(StatusCode::OK, &cookie, &headers, info))
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer<Me> {
    let visitor = app.users.visitor(&headers).await?;
    match &visitor.account {
        Some((_, a)) => Ok(Json(me_of(a))),
        None => Err(ApiError::unauthorized("not signed in")),
    }
}

/// The signed-in account of a state-changing request.
pub(crate) async fn signed_in(
    app: &App,
    headers: &HeaderMap,
) -> Result<(Visitor, String, u64, Account), ApiError> {
    let visitor = visitor_for_change(app, headers).await?;
    let Some((key, _)) = visitor.account.clone() else {
        return Err(ApiError::unauthorized("not signed in"));
    };
    let (version, account) = session::load_account(&app.store, &key)
        .await?
        .ok_or_else(|| ApiError::unauthorized("not signed in"))?;
    Ok((visitor, key, version, account))
}

pub(crate) async fn save_account(
    app: &App,
    key: &str,
    version: u64,
    account: &Account,
) -> Result<(), ApiError> {
    let doc = Doc {
        kind: "user",
        id: key.to_string(),
        owner: None,
        body: serde_json::to_string(account).map_err(internal)?,
        version,
        created: account.created,
        expires: None,
    };
    let saved = app.store.doc_update(&doc).await;
    app.users.forget_account(key);
    match saved {
        Ok(_) => Ok(()),
        Err(StoreError::Conflict) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "the account changed at the same moment: try again",
        )),
        Err(e) => Err(internal(e)),
    }
}

async fn change_password(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer<Done> {
    let req: PasswordChange = body(&bytes)?;
    let (visitor, key, version, mut account) = signed_in(&app, &headers).await?;
    check_password_limit(&app, &key)?;
    if !verify(&app, req.old, account.password.clone()).await? {
        return Err(ApiError::forbidden("the current password is wrong"));
    }
    check_password(&req.new).map_err(ApiError::bad_request)?;
    account.password = hash(&app, req.new).await?;
    save_account(&app, &key, version, &account).await?;
    // Whoever knew the old password is signed out everywhere else, and
    // their live channels close.
    session::end_all(&app.store, &key, visitor.session.as_deref()).await?;
    let keep = visitor.session;
    app.users.revoke(Revoked::Account { key, keep }).await;
    Ok(Json(Done {}))
}

/// Password checks of a signed-in account are limited per account.
fn check_password_limit(app: &App, key: &str) -> Result<(), ApiError> {
    Ok(app.limits.password.count(key)?)
}

async fn delete_account(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let req: AccountDeletion = body(&bytes)?;
    let (_, key, version, mut account) = signed_in(&app, &headers).await?;
    check_password_limit(&app, &key)?;
    if !verify(&app, req.password, account.password.clone()).await? {
        return Err(ApiError::forbidden("the password is wrong"));
    }
    let owners = account.identities();
    account.deleted = true;
    account.password.clear();
    save_account(&app, &key, version, &account).await?;
    session::end_all(&app.store, &key, None).await?;
    app.users.revoke(Revoked::Account { key, keep: None }).await;
    let app2 = Arc::clone(&app);
    tokio::spawn(
        async move { rename_everywhere(&app2, &owners, "deleted", &Rebind::Release).await },
    );
    let mut res = Json(Done {}).into_response();
    res.headers_mut()
        .insert(header::SET_COOKIE, session::clear_cookie());
    Ok(res)
}

async fn my_games(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer<MyGames> {
    let visitor = app.users.visitor(&headers).await?;
    let ids = visitor.ids();
    if ids.is_empty() {
        return Ok(Json(MyGames {
            your_turn: Vec::new(),
            playing: Vec::new(),
        }));
    }
    let your_turn = app.store.your_turn(&ids).await.map_err(ApiError::from)?;
    let playing = app
        .store
        .player_games(&ids, false, 100, 0)
        .await
        .map_err(ApiError::from)?;
    Ok(Json(MyGames {
        your_turn: summaries(&app, &your_turn),
        playing: summaries(&app, &playing),
    }))
}

fn summaries(app: &App, heads: &[crate::store::GameHead]) -> Vec<Summary> {
    heads.iter().filter_map(|h| app.rounds.summary(h)).collect()
}

/// An account that exists and is not deleted.
async fn player(app: &App, name: &str) -> Result<Account, ApiError> {
    let key = name.to_ascii_lowercase();
    match session::load_account(&app.store, &key).await? {
        Some((_, a)) if !a.deleted => Ok(a),
        Some(_) => Err(ApiError::not_found(format!(
            "the account `{name}` was deleted"
        ))),
        None => Err(ApiError::not_found(format!("no player `{name}`"))),
    }
}

async fn profile(State(app): State<Arc<App>>, Path(name): Path<String>) -> Answer<Profile> {
    let account = player(&app, &name).await?;
    let ids = account.identities();
    let mut record = std::collections::BTreeMap::<String, Tally>::new();
    for (spec, outcome, n) in app
        .store
        .player_record(&ids)
        .await
        .map_err(ApiError::from)?
    {
        let game = spec.split('(').next().unwrap_or(&spec).to_string();
        let t = record.entry(game).or_default();
        match outcome.as_str() {
            "win" => t.win += n,
            "draw" => t.draw += n,
            _ => t.loss += n,
        }
    }
    let playing = app
        .store
        .player_games(&ids, false, 100, 0)
        .await
        .map_err(ApiError::from)?;
    let finished = app
        .store
        .player_games(&ids, true, PAGE, 0)
        .await
        .map_err(ApiError::from)?;
    let ratings = app
        .ratings
        .ratings_of(&account.name.to_ascii_lowercase())
        .await
        .map_err(internal)?;
    Ok(Json(Profile {
        bot: account.bot,
        username: account.name,
        created: account.created,
        record,
        ratings,
        playing: summaries(&app, &playing),
        finished: summaries(&app, &finished),
    }))
}

#[derive(serde::Deserialize)]
struct PageQuery {
    #[serde(default)]
    page: usize,
}

async fn finished_games(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    Query(q): Query<PageQuery>,
) -> Answer<GamePage> {
    let account = player(&app, &name).await?;
    let page = q.page.min(10_000);
    let mut heads = app
        .store
        .player_games(&account.identities(), true, PAGE + 1, page * PAGE)
        .await
        .map_err(ApiError::from)?;
    let more = heads.len() > PAGE;
    heads.truncate(PAGE);
    Ok(Json(GamePage {
        page,
        games: summaries(&app, &heads),
        more,
    }))
}

#[derive(serde::Deserialize)]
struct PoolQuery {
    pool: String,
}

/// The best established ratings of a pool.
async fn leaderboard(
    State(app): State<Arc<App>>,
    Query(q): Query<PoolQuery>,
) -> Answer<Vec<crate::protocol::Leader>> {
    Ok(Json(
        app.ratings.leaderboard(&q.pool).await.map_err(internal)?,
    ))
}
