//! A typed client: the API's calls as the protocol's own request and
//! answer types (`tabula_server::protocol`), so that tests read `view.state.ply`
//! rather than index JSON. Tests that send what no client would (bad JSON,
//! unknown fields) keep `Server::call` and `Browser::call`.

use super::{poll, Server};
use axum::http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_clock::TimeControl;
use tabula_core::EndReason;
use tabula_server::protocol::{
    ClockInfo, Created, GameView, NewGame, NewSeek, PlayerInfo, ResultInfo, SeatKind, SeatRequest,
    TurnInfo,
};

/// A request of the API and the type of the answer it gets.
pub struct Call<T> {
    pub method: &'static str,
    pub path: String,
    /// The JSON body; `Null` for none.
    pub body: Value,
    /// The status of success (201 for a new account, 200 otherwise).
    pub ok: StatusCode,
    answer: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Call<T> {
    pub fn new(method: &'static str, path: impl Into<String>, body: Value) -> Self {
        Call {
            method,
            path: path.into(),
            body,
            ok: StatusCode::OK,
            answer: PhantomData,
        }
    }

    pub fn get(path: impl Into<String>) -> Self {
        Call::new("GET", path, Value::Null)
    }

    /// A POST of `body` (as the server reads it: its serde form).
    pub fn post(path: impl Into<String>, body: &impl Serialize) -> Self {
        Call::new("POST", path, serde_json::to_value(body).expect("a body"))
    }

    /// A POST without a body.
    pub fn post_empty(path: impl Into<String>) -> Self {
        Call::new("POST", path, Value::Null)
    }

    /// Success is `status` rather than 200.
    pub fn succeeds_with(mut self, status: StatusCode) -> Self {
        self.ok = status;
        self
    }

    /// The answer `value` of status `status` to this call: a `T` on
    /// success, else the refusal (panics on any other body).
    pub fn read(&self, status: StatusCode, headers: HeaderMap, value: Value) -> Result<T, Refusal> {
        let what = format!("{} {}", self.method, self.path);
        if status == self.ok {
            return Ok(serde_json::from_value(value.clone())
                .unwrap_or_else(|e| panic!("{what}: {e} in the answer {value}")));
        }
        let body: tabula_server::protocol::ErrorBody = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{what}: {status}, not an error body ({e}): {value}"));
        Err(Refusal {
            what,
            status,
            error: body.error,
            code: body.code,
            vars: body.vars,
            headers: Box::new(headers),
        })
    }
}

/// A refused call: the status and the error body (`docs/api.md`).
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The call refused (`POST /api/games`), for messages.
    pub what: String,
    pub status: StatusCode,
    pub error: String,
    pub code: String,
    pub vars: BTreeMap<String, String>,
    /// The answer's headers (`retry-after`), boxed to keep `Result`s small.
    pub headers: Box<HeaderMap>,
}

impl Refusal {
    /// Its status and code, to compare at once.
    pub fn kind(&self) -> (StatusCode, &str) {
        (self.status, self.code.as_str())
    }
}

/// The status of an answer: 200 for a success.
pub fn status_of<T>(answer: &Result<T, Refusal>) -> StatusCode {
    answer
        .as_ref()
        .map_or_else(|r| r.status, |_| StatusCode::OK)
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, status, error, code) = (&self.what, self.status, &self.error, &self.code);
        write!(f, "{what}: {status} {code}: {error} {:?}", self.vars)
    }
}

/// The calls of the API (`docs/api.md`), one a function.
pub mod api {
    use super::Call;
    use tabula_server::protocol::*;
    use tabula_server::user::tokens::{NewToken, TokenCreated, TokenInfo};

    /// The password test accounts use.
    pub const PASSWORD: &str = "a good password";

    pub fn catalog() -> Call<Catalog> {
        Call::get("/api/catalog")
    }
    pub fn health() -> Call<Health> {
        Call::get("/healthz")
    }
    pub fn metrics() -> Call<Metrics> {
        Call::get("/api/metrics")
    }
    /// A rules page: `{game}`, `{game}/reference`, `reference`, with a
    /// query if any (`?lang=fr`).
    pub fn rules(page: &str) -> Call<RulesPage> {
        Call::get(format!("/api/rules/{page}"))
    }
    pub fn create(game: &NewGame) -> Call<Created> {
        Call::post("/api/games", game)
    }
    pub fn import(record: &str, seats: Vec<SeatRequest>) -> Call<Created> {
        let record = record.to_string();
        Call::post("/api/games/import", &ImportGame { record, seats })
    }
    pub fn games() -> Call<Vec<Summary>> {
        Call::get("/api/games")
    }
    pub fn game(id: &str) -> Call<GameView> {
        Call::get(format!("/api/games/{id}"))
    }
    /// A game's record file (text).
    pub fn record(id: &str) -> Call<String> {
        Call::get(format!("/api/games/{id}/record"))
    }
    /// Play `action` with the seat of `token`, on the board of `ply` if given.
    pub fn play(
        id: &str,
        token: &str,
        action: &str,
        ply: impl Into<Option<usize>>,
    ) -> Call<PlyAnswer> {
        let (token, action, ply) = (token.to_string(), action.to_string(), ply.into());
        Call::post(
            format!("/api/games/{id}/move"),
            &MoveRequest { token, action, ply },
        )
    }
    pub fn join(id: &str, token: &str) -> Call<SeatAnswer> {
        let token = token.to_string();
        Call::post(
            format!("/api/games/{id}/join"),
            &JoinRequest { token, name: None },
        )
    }
    /// Join under the name `name`.
    pub fn join_as(id: &str, token: &str, name: &str) -> Call<SeatAnswer> {
        let (token, name) = (token.to_string(), Some(name.to_string()));
        Call::post(
            format!("/api/games/{id}/join"),
            &JoinRequest { token, name },
        )
    }
    /// Offer or accept a draw (`accept`), or decline one.
    pub fn draw(id: &str, token: &str, accept: bool) -> Call<Done> {
        let token = token.to_string();
        Call::post(
            format!("/api/games/{id}/draw"),
            &DrawRequest { token, accept },
        )
    }
    pub fn claim(id: &str, claim: &ClaimRequest) -> Call<Done> {
        Call::post(format!("/api/games/{id}/claim"), claim)
    }
    pub fn chat(id: &str, line: &ChatRequest) -> Call<Done> {
        Call::post(format!("/api/games/{id}/chat"), line)
    }
    /// Stop an AI-only game (its creator).
    pub fn stop(id: &str) -> Call<Done> {
        Call::post_empty(format!("/api/games/{id}/stop"))
    }
    /// A verb that takes the seat's token only (`undo`, `resign`, `leave`,
    /// `rematch`, `hint`), answered by `T`.
    pub fn verb<T: serde::de::DeserializeOwned>(id: &str, verb: &str, token: &str) -> Call<T> {
        let token = token.to_string();
        Call::post(format!("/api/games/{id}/{verb}"), &TokenRequest { token })
    }
    pub fn undo(id: &str, token: &str) -> Call<PlyAnswer> {
        verb(id, "undo", token)
    }
    pub fn resign(id: &str, token: &str) -> Call<Done> {
        verb(id, "resign", token)
    }
    pub fn leave(id: &str, token: &str) -> Call<Done> {
        verb(id, "leave", token)
    }
    pub fn rematch(id: &str, token: &str) -> Call<GameId> {
        verb(id, "rematch", token)
    }
    pub fn hint(id: &str, token: &str) -> Call<Hint> {
        verb(id, "hint", token)
    }

    pub fn session() -> Call<SessionInfo> {
        Call::post_empty("/api/session")
    }
    pub fn credentials(name: &str, password: &str) -> Credentials {
        let (username, password) = (name.to_string(), password.to_string());
        Credentials { username, password }
    }
    /// Sign up (201).
    pub fn account(credentials: &Credentials) -> Call<Me> {
        Call::post("/api/account", credentials).succeeds_with(axum::http::StatusCode::CREATED)
    }
    pub fn login(credentials: &Credentials) -> Call<Me> {
        Call::post("/api/login", credentials)
    }
    /// Sign up as `name` with [`PASSWORD`].
    pub fn sign_up(name: &str) -> Call<Me> {
        account(&credentials(name, PASSWORD))
    }
    /// Sign in as `name` with [`PASSWORD`].
    pub fn sign_in(name: &str) -> Call<Me> {
        login(&credentials(name, PASSWORD))
    }
    pub fn change_password(old: &str, new: &str) -> Call<Done> {
        let (old, new) = (old.to_string(), new.to_string());
        Call::post("/api/account/password", &PasswordChange { old, new })
    }
    pub fn delete_account(password: &str) -> Call<Done> {
        let password = password.to_string();
        let body = serde_json::to_value(AccountDeletion { password }).expect("a body");
        Call::new("DELETE", "/api/account", body)
    }
    pub fn sign_out() -> Call<Done> {
        Call::post_empty("/api/logout")
    }
    pub fn me() -> Call<Me> {
        Call::get("/api/me")
    }
    pub fn my_games() -> Call<MyGames> {
        Call::get("/api/me/games")
    }
    pub fn profile(name: &str) -> Call<Profile> {
        Call::get(format!("/api/players/{name}"))
    }
    pub fn finished_games(name: &str, page: usize) -> Call<GamePage> {
        Call::get(format!("/api/players/{name}/games?page={page}"))
    }
    pub fn leaderboard(pool: &str) -> Call<Vec<Leader>> {
        Call::get(format!("/api/leaderboard?pool={pool}"))
    }

    pub fn seek(seek: &NewSeek) -> Call<SeekId> {
        Call::post("/api/seeks", seek)
    }
    pub fn seeks() -> Call<Vec<Seek>> {
        Call::get("/api/seeks")
    }
    pub fn seek_by_id(seek: &str) -> Call<Seek> {
        Call::get(format!("/api/seeks/{seek}"))
    }
    pub fn cancel(seek: &str) -> Call<Done> {
        Call::new(
            "DELETE",
            format!("/api/seeks/{seek}"),
            serde_json::Value::Null,
        )
    }
    pub fn accept(seek: &str) -> Call<Accepted> {
        Call::post_empty(format!("/api/seeks/{seek}/accept"))
    }

    /// A personal API token (201).
    pub fn new_token(description: &str) -> Call<TokenCreated> {
        let description = description.to_string();
        Call::post("/api/account/tokens", &NewToken { description })
            .succeeds_with(axum::http::StatusCode::CREATED)
    }
    pub fn tokens() -> Call<Vec<TokenInfo>> {
        Call::get("/api/account/tokens")
    }
    pub fn revoke_token(id: &str) -> Call<Done> {
        let path = format!("/api/account/tokens/{id}");
        Call::new("DELETE", path, serde_json::Value::Null)
    }
    /// Make the account a bot's (by its token).
    pub fn upgrade() -> Call<Done> {
        Call::post_empty("/api/bot/account/upgrade")
    }
    pub fn bot_accept(seek: &str) -> Call<Accepted> {
        Call::post_empty(format!("/api/bot/challenge/{seek}/accept"))
    }
    pub fn bot_decline(seek: &str) -> Call<Done> {
        Call::post_empty(format!("/api/bot/challenge/{seek}/decline"))
    }
    pub fn bot_play(id: &str, action: &str) -> Call<PlyAnswer> {
        Call::post_empty(format!("/api/bot/game/{id}/move/{action}"))
    }

    pub fn new_tournament(t: &NewTournament) -> Call<TournamentId> {
        Call::post("/api/tournaments", t)
    }
    pub fn tournaments() -> Call<TournamentList> {
        Call::get("/api/tournaments")
    }
    pub fn tournament(id: &str) -> Call<TournamentView> {
        Call::get(format!("/api/tournaments/{id}"))
    }
    pub fn enter(id: &str) -> Call<Done> {
        Call::post_empty(format!("/api/tournaments/{id}/join"))
    }
    pub fn withdraw(id: &str) -> Call<Done> {
        Call::post_empty(format!("/api/tournaments/{id}/withdraw"))
    }
}

/// A human seat.
pub fn human() -> SeatRequest {
    SeatRequest::human()
}

/// An AI seat of `level`.
pub fn ai(level: AiLevel) -> SeatRequest {
    SeatRequest {
        kind: SeatKind::Ai,
        level: Some(level),
        ..SeatRequest::human()
    }
}

/// A seat for a friend, joined by its invite link.
pub fn invite() -> SeatRequest {
    SeatRequest {
        invite: true,
        ..SeatRequest::human()
    }
}

/// A game of `spec` with these seats.
pub fn seated(spec: &str, seats: Vec<SeatRequest>) -> NewGame {
    NewGame {
        seats,
        ..NewGame::new(spec)
    }
}

/// A game of `spec` whose dice are seeded with `seed`.
pub fn seeded(spec: &str, seed: u64) -> NewGame {
    NewGame {
        seed: Some(seed),
        ..NewGame::new(spec)
    }
}

/// A seek of `spec` with nothing else asked (the creator, then open seats).
pub fn seek(spec: &str) -> NewSeek {
    NewSeek {
        spec: spec.to_string(),
        clock: None,
        rated: false,
        seats: Vec::new(),
        hints: false,
        to: None,
        unlisted: false,
    }
}

/// A real-time control.
pub fn realtime(initial_s: u32, increment_s: u32) -> TimeControl {
    TimeControl::Realtime {
        initial_s,
        increment_s,
    }
}

/// A correspondence control of `days` a turn.
pub fn days(days: u32) -> TimeControl {
    TimeControl::Correspondence { days }
}

/// A created game's id and its seats' tokens, in seat order.
pub fn id_and_tokens(created: Created) -> (String, Vec<String>) {
    let tokens = created.tokens.into_iter().map(|t| t.token).collect();
    (created.id, tokens)
}

/// What tests ask of a game's view.
pub trait ViewExt {
    /// The seat to move, if a player is.
    fn to_move(&self) -> Option<usize>;
    fn over(&self) -> bool;
    /// How it ended, once over.
    fn reason(&self) -> Option<EndReason>;
    /// The seat of `seat`.
    fn player(&self, seat: usize) -> &PlayerInfo;
    /// The result of a game that is over.
    fn result(&self) -> &ResultInfo;
    /// The clocks of a timed game.
    fn clock(&self) -> &ClockInfo;
}

impl ViewExt for GameView {
    fn to_move(&self) -> Option<usize> {
        match self.state.turn {
            TurnInfo::Player { seat } => Some(seat.into()),
            _ => None,
        }
    }
    fn over(&self) -> bool {
        self.state.turn == TurnInfo::Over
    }
    fn reason(&self) -> Option<EndReason> {
        self.state.result.as_ref().map(|r| r.reason)
    }
    fn player(&self, seat: usize) -> &PlayerInfo {
        &self.state.players[seat]
    }
    fn result(&self) -> &ResultInfo {
        let result = self.state.result.as_ref();
        result.unwrap_or_else(|| panic!("no result: {self:?}"))
    }
    fn clock(&self) -> &ClockInfo {
        let clock = self.state.clock.as_ref();
        clock.unwrap_or_else(|| panic!("no clock: {self:?}"))
    }
}

/// What sends the API's calls: a server without a session (`&Server`), a
/// browser (`&mut Browser`), a bot's token (`&Bearer`). Each call takes
/// the client by value: a shared or a fresh mutable borrow.
#[allow(async_fn_in_trait)]
pub trait Client: Sized {
    /// Send a request (`body` JSON, `Null` for none): the status, the
    /// headers and the body (a string where it is not JSON).
    async fn exchange(
        self,
        method: &str,
        path: &str,
        body: Value,
    ) -> (StatusCode, HeaderMap, Value);

    /// Send `call`: its answer, or the refusal.
    async fn attempt<T: DeserializeOwned>(self, call: Call<T>) -> Result<T, Refusal> {
        let (status, headers, value) = self
            .exchange(call.method, &call.path, call.body.clone())
            .await;
        call.read(status, headers, value)
    }

    /// Send `call`, which must succeed.
    async fn send<T: DeserializeOwned>(self, call: Call<T>) -> T {
        self.attempt(call).await.unwrap_or_else(|r| panic!("{r}"))
    }

    /// Send `call`, which must be refused.
    async fn refusal<T: DeserializeOwned + std::fmt::Debug>(self, call: Call<T>) -> Refusal {
        let what = format!("{} {}", call.method, call.path);
        match self.attempt(call).await {
            Ok(answer) => panic!("{what} was accepted: {answer:?}"),
            Err(refusal) => refusal,
        }
    }

    /// Create `game`; its id and tokens.
    async fn open(self, game: &NewGame) -> (String, Vec<String>) {
        id_and_tokens(self.send(api::create(game)).await)
    }
}

impl Client for &Server {
    async fn exchange(
        self,
        method: &str,
        path: &str,
        body: Value,
    ) -> (StatusCode, HeaderMap, Value) {
        self.call_full(method, path, body).await
    }
}

impl Server {
    /// The view of game `id`.
    pub async fn view(&self, id: &str) -> GameView {
        self.send(api::game(id)).await
    }

    /// The view of game `id` once `ready` holds for it, for what the
    /// server does in its own time (`what`, if it never does).
    pub async fn view_when(
        &self,
        id: &str,
        what: &str,
        ready: impl Fn(&GameView) -> bool,
    ) -> GameView {
        poll(what, Duration::from_millis(5), || async {
            let view = self.view(id).await;
            ready(&view).then_some(view)
        })
        .await
    }

    /// Wait until the AI has played and a human (or nobody) is to move.
    pub async fn settle(&self, id: &str) -> GameView {
        let what = format!("the AI to move in {id}");
        self.view_when(id, &what, |view| {
            let ai_turn = view
                .to_move()
                .is_some_and(|seat| view.player(seat).kind == SeatKind::Ai);
            !ai_turn && !view.state.thinking
        })
        .await
    }

    /// Wait until game `id` is over.
    pub async fn ended(&self, id: &str) -> GameView {
        self.view_when(id, &format!("{id} to end"), GameView::over)
            .await
    }

    /// Play `actions` in turn, each by the seat to move once the AI has
    /// played (with the ply it saw); the view after the last.
    pub async fn play_moves(&self, id: &str, tokens: &[String], actions: &[&str]) -> GameView {
        for action in actions {
            let view = self.settle(id).await;
            let seat = view
                .to_move()
                .unwrap_or_else(|| panic!("nobody to move: {view:?}"));
            self.send(api::play(id, &tokens[seat], action, view.state.ply))
                .await;
        }
        self.settle(id).await
    }

    /// Play `action` for whoever is to move (after the AI) until the game
    /// ends, at most `limit` times; the final view.
    pub async fn play_out(
        &self,
        id: &str,
        tokens: &[String],
        action: &str,
        limit: usize,
    ) -> GameView {
        for _ in 0..limit {
            let view = self.settle(id).await;
            let Some(seat) = view.to_move() else {
                return view;
            };
            self.send(api::play(id, &tokens[seat], action, None)).await;
        }
        panic!("{id} did not end within {limit} moves");
    }
}
