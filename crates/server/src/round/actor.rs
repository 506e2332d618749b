//! The one owner of a live game (lila's `RoundAsyncActor`): a task that
//! holds the game's state and takes commands one at a time from its
//! channel. Each change is planned, stored, applied, then published, so
//! changes to one game are serial without a lock, and an acknowledged
//! action is on disk. The owner also runs the game's AI turns (and will run
//! its clock); it stops when nobody has used or watched the game for a
//! while, and the game is loaded again when someone opens it.

use super::state::{Caller, Change, Command, Plan, Rebind, Reply, Room, Round};
use super::RoundError;
use super::{has_human_seat, Rounds};
use crate::ai::{self, Class, Pick};
use crate::protocol::{GameView, ServerMessage};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

/// How many updates a slow watcher may fall behind before it is sent a
/// fresh snapshot instead.
const WATCH_BUFFER: usize = 64;

/// A message for a game's watchers: its JSON text, and whether the players
/// may not read it (a spectators' chat line during the game).
#[derive(Clone, Debug)]
pub struct Published {
    pub text: Arc<str>,
    pub hidden_from_players: bool,
}

/// What the owner of a game is asked.
pub(crate) enum Msg {
    /// A seat holder's command.
    Command {
        caller: Caller,
        command: Command,
        reply: oneshot::Sender<Result<Reply, RoundError>>,
    },
    /// The whole game as `caller` sees it.
    ViewFor {
        caller: Caller,
        reply: oneshot::Sender<GameView>,
    },
    /// A chat line.
    Chat {
        caller: Caller,
        room: Room,
        text: String,
        reply: oneshot::Sender<Result<(), RoundError>>,
    },
    /// Show `name` on the seats of `owners` and rebind them.
    Rename {
        owners: Vec<crate::common::PlayerId>,
        name: String,
        rebind: Rebind,
        reply: oneshot::Sender<Result<(), RoundError>>,
    },
    /// The game from ply `from` on.
    View {
        from: usize,
        reply: oneshot::Sender<GameView>,
    },
    /// The snapshot and the channel of later updates, taken together so no
    /// update falls between them.
    Watch {
        caller: Caller,
        reply: oneshot::Sender<(GameView, broadcast::Receiver<Published>)>,
    },
    /// The game was rated: each seat's rating change.
    Rated {
        diffs: Vec<Option<i32>>,
        reply: oneshot::Sender<Result<(), RoundError>>,
    },
    /// A live channel of these seats closed.
    Unwatch { seats: Vec<u8> },
    /// The game as a record file.
    Record {
        reply: oneshot::Sender<(String, String)>,
    },
    /// How the game ended, if it has (to rate a game whose ending was
    /// announced by an instance that died before rating it).
    Ended {
        reply: oneshot::Sender<Option<super::GameEnded>>,
    },
    /// The game was written at row `version`, maybe by another instance,
    /// changing its actions from ply `from` on (`version` 0 or `from`
    /// `None`: look at the whole game).
    Stored { version: u64, from: Option<usize> },
    /// Another instance stored a chat line.
    Chatted,
    /// Look whether an AI seat is to move (this instance claimed the turn).
    Wake,
    /// An instance without AI announced the AI turn at row `version`
    /// ([`Note::AiTurn`](crate::store::Note::AiTurn)): someone there wants
    /// it played, even in a game without a human seat watched nowhere here.
    AiWanted { version: u64 },
    /// End the game now, a draw for all (reason `abandoned`): its creator
    /// stops an AI-only game, or nobody touched it for too long.
    Stop {
        reply: oneshot::Sender<Result<(), RoundError>>,
    },
    /// An AI seat's answer, computed for `version`.
    AiMoved {
        version: u64,
        seat: u8,
        pick: Result<Pick, String>,
    },
}

pub(crate) struct Actor {
    rounds: Arc<Rounds>,
    round: Round,
    rx: mpsc::Receiver<Msg>,
    /// Our own address, for the AI's answers.
    me: mpsc::Sender<Msg>,
    updates: broadcast::Sender<Published>,
    /// Live channels open per seat on this instance.
    here: Vec<i32>,
    /// Another instance wrote the game and nobody here watches it: the
    /// write is read when the game is next used, not at once.
    behind: bool,
    /// Times in a row the AI's move could not be stored (the store was out
    /// of reach): the pause before the next try grows with it.
    ai_retries: u32,
    /// The row version whose AI turn another instance announced: played
    /// here even if nobody here watches an AI-only game.
    wanted: Option<u64>,
}

/// The first pause before storing an AI move again after a store fault;
/// it doubles each time, up to [`AI_RETRY_MAX`].
const AI_RETRY_FIRST: Duration = Duration::from_millis(250);
/// The longest pause between two tries (so a game resumes within about
/// 2 s of the store answering again, not when the turn's 30 s claim lapses).
const AI_RETRY_MAX: Duration = Duration::from_secs(2);

/// The pause before try `n` (1, 2, ...) to store an AI move again.
fn ai_retry_pause(n: u32) -> Duration {
    AI_RETRY_FIRST
        .saturating_mul(1 << n.saturating_sub(1).min(8))
        .min(AI_RETRY_MAX)
}

/// Start the owner of `round`, unless the game already has one; returns
/// the owner's address.
pub(crate) fn start(rounds: &Arc<Rounds>, round: Round) -> super::RoundHandle {
    let (tx, rx) = mpsc::channel(super::INBOX);
    let handle = super::RoundHandle { tx: tx.clone() };
    let id = round.id.clone();
    let (owner, mine) = rounds.live().claim(&id, handle);
    if mine {
        let actor = Actor {
            rounds: Arc::clone(rounds),
            round,
            rx,
            me: tx,
            updates: broadcast::channel(WATCH_BUFFER).0,
            here: Vec::new(),
            ai_retries: 0,
            wanted: None,
            behind: false,
        };
        tokio::spawn(actor.run());
    }
    owner
}

impl Actor {
    async fn run(mut self) {
        self.round.now = self.rounds.now();
        self.on_time().await;
        self.kick_ai().await;
        let idle = self.rounds.config.idle;
        let mut deadline = Instant::now() + idle;
        loop {
            let timer = self.time_left();
            tokio::select! {
                msg = self.rx.recv() => {
                    let Some(msg) = msg else { break };
                    self.round.now = self.rounds.now();
                    self.handle(msg).await;
                    deadline = Instant::now() + idle;
                }
                _ = tokio::time::sleep(timer), if self.round.deadline().is_some() => {
                    self.round.now = self.rounds.now();
                    self.on_time().await;
                }
                _ = tokio::time::sleep_until(deadline) => {
                    if self.retire() {
                        break;
                    }
                    deadline = Instant::now() + idle;
                }
            }
        }
        // Whatever was sent before the door closed is still answered.
        while let Some(msg) = self.rx.recv().await {
            self.handle(msg).await;
        }
        if self.round.ai_to_move().is_some() {
            // A command drained above woke the AI: a new owner takes over.
            self.rounds.live().forget_closed(&self.round.id);
            let _ = self.rounds.handle(&self.round.id).await;
        }
    }

    /// How long until the game's next deadline (a flag, a first move).
    fn time_left(&self) -> Duration {
        let now = self.rounds.now();
        match self.round.deadline() {
            Some(d) => Duration::from_millis(d.saturating_sub(now).max(0) as u64),
            None => Duration::from_secs(3600),
        }
    }

    /// End the game if its time is up (stored first, as every change).
    async fn on_time(&mut self) {
        let Some(change) = self.round.timeout() else {
            return;
        };
        match self.commit(change).await {
            Ok(_) => self.kick_ai().await,
            // Another instance ended it first: take its state in.
            Err(RoundError::Busy) => {
                self.catch_up(0, None).await;
            }
            Err(e) => tracing::error!(game = %self.round.id, "time: {e}"),
        }
    }

    /// A live channel of `seats` opened (`delta` 1) or closed (-1): the
    /// first to open and the last to close change the seats' presence.
    async fn presence(&mut self, seats: &[u8], delta: i32) {
        for &seat in seats {
            let i = seat as usize;
            if self.here.len() <= i {
                self.here.resize(i + 1, 0);
            }
            let before = self.here[i];
            self.here[i] = (before + delta).max(0);
            let changed = (before == 0) != (self.here[i] == 0);
            if !changed {
                continue;
            }
            if let Some(change) = self.round.presence_change(seat, self.here[i] > 0) {
                if let Err(e) = self.commit(change).await {
                    tracing::debug!(game = %self.round.id, "presence not stored: {e}");
                }
            }
        }
    }

    /// Stop owning the game if nobody needs it: no watcher, no AI at work,
    /// no command waiting.
    fn retire(&mut self) -> bool {
        let busy = self.round.thinking || self.updates.receiver_count() > 0;
        if busy {
            return false;
        }
        let rx = &self.rx;
        let retired = self
            .rounds
            .live()
            .retire(&self.round.id, &self.me, || rx.is_empty());
        if retired {
            self.rx.close();
        }
        retired
    }

    async fn handle(&mut self, msg: Msg) {
        let looks = !matches!(msg, Msg::Stored { .. } | Msg::Chatted);
        if self.behind && looks {
            self.behind = !self.catch_up(0, None).await;
        }
        match msg {
            Msg::Command {
                caller,
                command,
                reply,
            } => {
                let wakes = command.may_change_turn();
                self.command(&caller, command, reply).await;
                if wakes {
                    self.kick_ai().await;
                }
            }
            Msg::View { from, reply } => {
                let _ = reply.send(self.round.view(from));
            }
            Msg::ViewFor { caller, reply } => {
                let _ = reply.send(self.round.view_for(&caller));
            }
            Msg::Watch { caller, reply } => {
                let view = self.round.view_for(&caller);
                let seats = view.you.clone();
                let _ = reply.send((view, self.updates.subscribe()));
                self.presence(&seats, 1).await;
                // An AI-only game paused for want of watchers goes on.
                self.kick_ai().await;
            }
            Msg::Unwatch { seats } => self.presence(&seats, -1).await,
            Msg::Rated { diffs, reply } => {
                let mut meta = self.round.meta.clone();
                meta.rating_diff = diffs;
                let change = self.round.meta_change(meta, super::Reply::Done);
                let _ = reply.send(self.commit(change).await.map(|_| ()));
            }
            Msg::Chat {
                caller,
                room,
                text,
                reply,
            } => {
                let _ = reply.send(self.chat(&caller, room, &text).await);
            }
            Msg::Rename {
                owners,
                name,
                rebind,
                reply,
            } => {
                let result = match self.round.rename(&owners, &name, &rebind) {
                    Some(change) => self.commit(change).await.map(|_| ()),
                    None => Ok(()),
                };
                let _ = reply.send(result);
            }
            Msg::Ended { reply } => {
                let _ = reply.send(self.round.ended_now());
            }
            Msg::Record { reply } => {
                let name = format!("tabula-{}-{}.txt", self.round.game.name(), self.round.id);
                let _ = reply.send((name, self.round.export()));
            }
            Msg::AiMoved {
                version,
                seat,
                pick,
            } => self.ai_moved(version, seat, pick).await,
            Msg::Stored { version, from } => {
                let newer = version == 0 || version > self.round.stored;
                if newer && self.updates.receiver_count() == 0 && !self.round.thinking {
                    // Nobody to show it to: read it when it is needed.
                    self.behind = true;
                } else if newer {
                    self.catch_up(version, from).await;
                    // Without AI here, the writer announced a game with a
                    // person; an AI-only game is announced by whoever
                    // watches it.
                    if self.rounds.computes_ai() || !has_human_seat(&self.round.meta.seats) {
                        self.kick_ai().await;
                    }
                }
                if version == 0 {
                    // Notes were missed: chat lines too, maybe.
                    self.reload_chat().await;
                }
            }
            Msg::AiWanted { version } => {
                if version > self.round.stored {
                    self.catch_up(version, None).await;
                }
                if version == self.round.stored {
                    self.wanted = Some(version);
                    self.kick_ai().await;
                }
            }
            Msg::Chatted => self.reload_chat().await,
            Msg::Wake => {
                self.on_time().await;
                self.kick_ai().await;
            }
            Msg::Stop { reply } => {
                let _ = reply.send(self.stop().await);
            }
        }
    }

    /// Carry out a command and answer it. If another writer changed the
    /// game meanwhile (another instance), take its state in and try once
    /// more on it.
    async fn command(
        &mut self,
        caller: &Caller,
        command: Command,
        reply: oneshot::Sender<Result<Reply, RoundError>>,
    ) {
        let mut reply = Some(reply);
        for attempt in 0..2 {
            let result = match self.round.plan(caller, command.clone()) {
                Err(e) => Err(e),
                Ok(Plan::Change(change)) => self.commit(*change).await,
                Ok(Plan::Answer(answer)) => Ok(answer),
                Ok(Plan::Rematch(next)) => self.rematch(*next).await,
                Ok(Plan::Hint { seed, .. }) if !self.rounds.computes_ai() => {
                    // Asked of the workers, while this task goes on
                    // serving the game.
                    let Some(reply) = reply.take() else { return };
                    let (rounds, caller) = (Arc::clone(&self.rounds), caller.clone());
                    let (id, version) = (self.round.id.clone(), self.round.stored);
                    tokio::spawn(async move {
                        let answer = rounds.hint_from_worker(&id, version, seed, &caller).await;
                        let _ = reply.send(answer);
                    });
                    return;
                }
                Ok(Plan::Hint { game, seed }) => {
                    // Computed by the AI pool, while this task goes on
                    // serving the game; queued behind the games' moves.
                    let reply = reply.take();
                    let key = super::sender_key(caller);
                    let job = self.rounds.ai.run(Class::Hint, &key, move || {
                        ai::hint(game.as_ref(), seed)
                            .map(Reply::Hint)
                            .map_err(RoundError::from)
                    });
                    let Some(reply) = reply else { return };
                    match job {
                        Ok((_, answer)) => {
                            tokio::spawn(async move {
                                let answer = answer.await.unwrap_or_else(|_| {
                                    Err(RoundError::Internal("the AI worker stopped".into()))
                                });
                                let _ = reply.send(answer);
                            });
                        }
                        Err(ai::Full) => {
                            let _ = reply.send(Err(RoundError::AiBusy));
                        }
                    }
                    return;
                }
            };
            if result == Err(RoundError::Busy) && attempt == 0 && self.catch_up(0, None).await {
                continue;
            }
            if let Some(reply) = reply.take() {
                let _ = reply.send(result);
            }
            return;
        }
    }

    /// Store a chat line, keep it and show it to the watchers.
    async fn chat(&mut self, caller: &Caller, room: Room, text: &str) -> Result<(), RoundError> {
        let line = self
            .round
            .chat_line(caller, room, text, self.rounds.now())?;
        self.rounds
            .store_chat(&self.round.id, self.round.chat.len(), &line)
            .await?;
        self.round.chat.push(line);
        self.publish_chat(self.round.chat.len() - 1);
        Ok(())
    }

    /// Send the watchers chat lines from number `from` on.
    fn publish_chat(&self, from: usize) {
        for line in self.round.chat.iter().skip(from) {
            let text = ServerMessage::Chat(line.clone()).to_json();
            let _ = self.updates.send(Published {
                text: Arc::from(text),
                hidden_from_players: self.round.hidden_from_players(line),
            });
        }
    }

    /// Take in what other writers stored since the version held: a note
    /// of row `version` that changed the actions from ply `from` on, or
    /// (`version` 0, `from` `None`) anything. Only the actions past those
    /// held (or from `from`) are read, and the watchers get the same small
    /// update a local move sends. The tail is exact when no write since the
    /// version held dropped actions, or when the only write since is the
    /// note's own take-back; otherwise the whole game is read.
    async fn catch_up(&mut self, version: u64, from: Option<usize>) -> bool {
        let held = self.round.stored;
        let start = from.map_or(self.round.history.len(), |f| {
            f.min(self.round.history.len())
        });
        let (tail, meta) = match self.rounds.load_tail(&self.round.id, start).await {
            Ok(Some(read)) => read,
            Ok(None) => return self.reload().await,
            Err(e) => {
                tracing::warn!(game = %self.round.id, "cannot be read: {e}");
                return false;
            }
        };
        if tail.version <= held {
            // Nothing new: our own write, or an old note.
            return true;
        }
        let exact =
            tail.cut <= held || (from.is_some() && version == held + 1 && tail.cut == version);
        if exact {
            match self.round.take_in(start, meta, &tail.actions) {
                Ok(()) => {
                    self.round.stored = tail.version;
                    self.publish(start);
                    return true;
                }
                Err(e) => tracing::warn!(game = %self.round.id, "delta: {e}"),
            }
        }
        self.reload().await
    }

    /// Take in the chat lines another instance stored.
    async fn reload_chat(&mut self) {
        match self.rounds.load_chat(&self.round.id).await {
            Ok(lines) => {
                let said = self.round.chat.len();
                if lines.len() > said {
                    self.round.chat = lines;
                    self.publish_chat(said);
                }
            }
            Err(e) => tracing::warn!(game = %self.round.id, "chat not read: {e}"),
        }
    }

    /// Take in the game as stored now (another writer changed it) and
    /// show it to the watchers.
    async fn reload(&mut self) -> bool {
        match self.rounds.load(&self.round.id).await {
            Ok(mut fresh) => {
                // Pending AI answers were computed for an older state.
                fresh.version = self.round.version + 1;
                fresh.thinking = self.round.thinking;
                let said = self.round.chat.len();
                self.round = fresh;
                self.publish(0);
                self.publish_chat(said);
                true
            }
            Err(e) => {
                tracing::error!(game = %self.round.id, "cannot be reloaded: {e}");
                false
            }
        }
    }

    /// Store a change, then take it in and tell the watchers; the game's end
    /// goes to the finisher.
    async fn commit(&mut self, change: Change) -> Result<Reply, RoundError> {
        let from = change.keep;
        let stored = self
            .rounds
            .store_change(&self.round, &change)
            .await
            .map_err(super::service::store_error)?;
        let reply = change.reply.clone();
        let ended = self.round.apply(change);
        self.round.stored = stored;
        self.publish(from);
        if let Some(ended) = ended {
            self.rounds.finisher.announce(ended);
        }
        Ok(reply)
    }

    async fn rematch(&mut self, next: Round) -> Result<Reply, RoundError> {
        let created = self.rounds.insert(next, Vec::new()).await?;
        let mut meta = self.round.meta.clone();
        meta.rematch = Some(created.id.clone());
        let change = Change {
            keep: self.round.history.len(),
            truncate: false,
            entries: Vec::new(),
            game: None,
            meta: Some(meta),
            reply: Reply::Game(created.id),
        };
        self.commit(change).await
    }

    /// Send the watchers what changed from ply `from` on.
    fn publish(&self, from: usize) {
        if self.updates.receiver_count() == 0 {
            return;
        }
        let text = ServerMessage::Update(self.round.view(from)).to_json();
        let _ = self.updates.send(Published {
            text: Arc::from(text),
            hidden_from_players: false,
        });
    }

    /// Let the AI think if an AI seat is to move and this instance holds
    /// the turn's claim (another instance may drive it); an instance
    /// without AI announces the turn to those that compute it.
    async fn kick_ai(&mut self) {
        if self.round.thinking {
            return;
        }
        let Some((seat, level)) = self.round.ai_to_move() else {
            return;
        };
        if self.paused() {
            return;
        }
        let stored = self.round.stored;
        if !self.rounds.computes_ai() {
            // Left to the instances that compute AI (`tabula worker`).
            self.rounds.announce_ai_turn(&self.round.id, stored).await;
            return;
        }
        if self.rounds.is_closing() || !self.rounds.claim_ai(&self.round.id, stored).await {
            return;
        }
        self.rounds.ai_turn_held(true);
        tracing::info!(game = %self.round.id, ply = self.round.history.len(), %level, "AI thinking");
        self.rounds.ai_job_started();
        self.round.thinking = true;
        self.publish(self.round.history.len());
        let game = self.round.game.clone();
        let seed = self.round.seed ^ (self.round.history.len() as u64).rotate_left(29);
        let version = self.round.version;
        let pause = self.rounds.config.ai_pause;
        let me = self.me.clone();
        let class = if has_human_seat(&self.round.meta.seats) {
            Class::Move
        } else {
            Class::Demo
        };
        let rounds = Arc::clone(&self.rounds);
        let id = self.round.id.clone();
        let updates = self.updates.clone();
        tokio::spawn(async move {
            let think = async {
                if pause > Duration::ZERO {
                    tokio::time::sleep(pause).await;
                }
                let job = rounds
                    .ai
                    .run(class, &id, move || ai::choose(game.as_ref(), level, seed));
                match job {
                    Ok((ahead, answer)) => {
                        if ahead > 0 {
                            // Tell the players why the AI takes longer.
                            let text = ServerMessage::Queue { ahead }.to_json();
                            let _ = updates.send(Published {
                                text: Arc::from(text),
                                hidden_from_players: false,
                            });
                        }
                        answer
                            .await
                            .map_err(|_| "the AI worker stopped".to_string())
                            .and_then(|r| r.map_err(|e| e.to_string()))
                    }
                    Err(ai::Full) => Err("the AI is busy".to_string()),
                }
            };
            // The claim is renewed while the AI waits and thinks, so it
            // can be short: another instance takes the turn soon after
            // this one dies.
            let pick = tokio::select! {
                pick = think => pick,
                never = keep_claim(&rounds, &id, stored) => match never {},
            };
            let _ = me
                .send(Msg::AiMoved {
                    version,
                    seat,
                    pick,
                })
                .await;
        });
    }

    /// An AI-only game waits for a watcher (here, or announced by another
    /// instance): nobody would see its moves.
    fn paused(&self) -> bool {
        self.updates.receiver_count() == 0
            && !has_human_seat(&self.round.meta.seats)
            && self.wanted != Some(self.round.stored)
    }

    /// End the game now: a draw for every seat, reason `abandoned`.
    async fn stop(&mut self) -> Result<(), RoundError> {
        if self.round.is_over() {
            return Err(RoundError::Over);
        }
        let n = self.round.game.num_players();
        let change = self.round.finish(
            tabula_core::Outcome::Draw(tabula_core::PlayerSet::all(n)),
            tabula_core::EndReason::Abandoned,
        );
        self.commit(change).await.map(|_| ())
    }

    /// The AI's answer for the turn claimed at `version`: stored (or
    /// voided), then the turn is no longer held here.
    async fn ai_moved(&mut self, version: u64, seat: u8, pick: Result<Pick, String>) {
        self.play_ai_move(version, seat, pick).await;
        self.rounds.ai_turn_held(false);
    }

    async fn play_ai_move(&mut self, version: u64, seat: u8, pick: Result<Pick, String>) {
        self.round.thinking = false;
        let current =
            self.round.version == version && self.round.ai_to_move().map(|a| a.0) == Some(seat);
        let again = pick.clone();
        let committed = match pick {
            Ok(p) if current => {
                let command = Command::Play {
                    action: p.action,
                    ply: None,
                };
                let planned = self.round.plan_for(seat, command);
                match planned {
                    Ok(Plan::Change(change)) => self.commit(*change).await.map(|_| true),
                    Ok(_) => Ok(false),
                    Err(e) => Err(e),
                }
            }
            // The game moved on (a take-back, a resignation, the seat
            // changed hands): look again.
            Ok(_) => Ok(false),
            Err(e) => Err(RoundError::Internal(e)),
        };
        match committed {
            Ok(true) => {
                self.ai_retries = 0;
                let ply = self.round.history.len();
                tracing::info!(game = %self.round.id, ply, "AI move stored");
            }
            Ok(false) => self.publish(self.round.history.len()),
            Err(RoundError::Unavailable) => {
                // The store is out of reach: store the same move again
                // shortly rather than when the turn's claim lapses.
                self.ai_retries += 1;
                let pause = ai_retry_pause(self.ai_retries);
                tracing::warn!(game = %self.round.id, "AI move not stored: trying again in {pause:?}");
                self.round.thinking = true;
                self.rounds.ai_turn_held(true);
                let me = self.me.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(pause).await;
                    let retry = Msg::AiMoved {
                        version,
                        seat,
                        pick: again,
                    };
                    let _ = me.send(retry).await;
                });
                return;
            }
            Err(RoundError::Busy) => {
                // Someone else moved first: look again at the game as it is.
                if !self.catch_up(0, None).await {
                    return;
                }
            }
            Err(e) => {
                tracing::error!(game = %self.round.id, "AI move failed: {e}");
                self.publish(self.round.history.len());
                return;
            }
        }
        self.kick_ai().await;
    }
}

/// Renew this instance's claim on game `id`'s AI turn at row `stored`
/// every third of the claim's length, for as long as it is awaited (the
/// AI thinks). A renewal that fails changes nothing: the move's write is
/// checked against the row version in any case.
async fn keep_claim(rounds: &Rounds, id: &str, stored: u64) -> std::convert::Infallible {
    let period = (rounds.config.ai_claim / 3).max(Duration::from_millis(50));
    loop {
        tokio::time::sleep(period).await;
        if !rounds.claim_ai(id, stored).await {
            tracing::debug!(game = %id, "AI claim not renewed (the game moved on)");
        }
    }
}

#[cfg(test)]
mod retry_tests {
    use super::*;

    #[test]
    fn the_pause_before_storing_an_ai_move_again_doubles_up_to_two_seconds() {
        let pauses: Vec<u64> = (1..=6)
            .map(|n| ai_retry_pause(n).as_millis() as u64)
            .collect();
        assert_eq!(pauses, [250, 500, 1000, 2000, 2000, 2000]);
        assert_eq!(ai_retry_pause(u32::MAX), AI_RETRY_MAX);
    }
}
