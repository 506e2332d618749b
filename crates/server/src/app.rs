//! The composition root: opens the store, builds each module's service
//! around the one clock and the shared limits, starts their background
//! work, and routes the other instances' notes to the module they concern.
//! Modules never use this file; the HTTP edge (`http`) does.

use crate::analysis::Analyses;
use crate::bot::Bots;
use crate::common::limits::Limits;
use crate::common::{Clock, RoundConfig};
use crate::guard::{Creations, SocketCounts};
use crate::lobby::Lobby;
use crate::rating::Ratings;
use crate::round::Rounds;
use crate::store::{Note, Store};
use crate::tournament::Tournaments;
use crate::user::revoke::Revoked;
use crate::user::Users;
use std::sync::Arc;
use tabula_core::Registry;

/// Every module's service, as the HTTP edge calls them.
pub struct App {
    /// Games: live, stored, their AI turns and clocks.
    pub rounds: Arc<Rounds>,
    pub users: Arc<Users>,
    pub(crate) lobby: Arc<Lobby>,
    pub ratings: Arc<Ratings>,
    pub tournaments: Arc<Tournaments>,
    pub(crate) bots: Arc<Bots>,
    /// Game analyses: the queue, the results, this process's worker.
    pub analyses: Arc<Analyses>,
    /// Who created which game in progress (quotas, stopping demos).
    pub(crate) creations: Arc<Creations>,
    /// Live channels open per client address.
    pub(crate) sockets: Arc<SocketCounts>,
    pub(crate) limits: Arc<Limits>,
    pub(crate) store: Store,
    pub(crate) config: RoundConfig,
    clock: Arc<Clock>,
}

impl App {
    /// Open (or create, or upgrade) the database at `db` (a SQLite file or
    /// a `postgres://` URL) and start every module. Games stay in the store
    /// until someone opens them.
    pub async fn open(
        registry: Registry,
        db: &str,
        config: RoundConfig,
    ) -> Result<Arc<App>, String> {
        let store = Store::open(db).await?;
        let clock = Arc::new(Clock::default());
        let limits = Arc::new(Limits::default());
        let rounds = Arc::new(Rounds::new(
            registry,
            store.clone(),
            config.clone(),
            Arc::clone(&clock),
        ));
        let users = Arc::new(Users::new(store.clone(), Arc::clone(&clock), &config.guard));
        let lobby = Arc::new(Lobby::new(Arc::clone(&rounds), Arc::clone(&limits)));
        let ratings = Arc::new(Ratings::new(Arc::clone(&rounds)));
        let tournaments = Arc::new(Tournaments::new(
            Arc::clone(&rounds),
            Arc::clone(&ratings),
            Arc::clone(&limits),
        ));
        let bots = Arc::new(Bots::new(
            Arc::clone(&rounds),
            Arc::clone(&lobby),
            Arc::clone(&users),
        ));
        let analyses = Arc::new(Analyses::new(Arc::clone(&rounds)));
        let creations = Arc::new(Creations::new(Arc::clone(&rounds), Arc::clone(&limits)));
        let app = Arc::new(App {
            rounds,
            users,
            lobby,
            ratings,
            tournaments,
            bots,
            analyses,
            creations,
            sockets: Default::default(),
            limits,
            store,
            config,
            clock,
        });
        app.rounds.start().await?;
        if let Some(notes) = app.store.listen().await? {
            tokio::spawn(follow_other_instances(Arc::downgrade(&app), notes));
        }
        app.lobby.start();
        app.ratings.start();
        app.tournaments.start();
        app.creations.start();
        // An instance that leaves AI work to `tabula worker` processes
        // leaves them the analyses too.
        if app.rounds.computes_ai() {
            app.analyses.start();
        }
        Ok(app)
    }

    /// The server's time (ms since 1970): the clocks' time.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Move the server's time forward by `ms`, for every module at once
    /// (tests of clocks and expiries, without sleeping).
    pub fn advance_clock(&self, ms: i64) {
        self.clock.advance(ms);
    }

    /// Close every live channel (the server is stopping).
    pub fn close_channels(&self) {
        self.rounds.close_channels();
    }
}

/// Route the other instances' notes to the module they concern: writes to
/// games, seeks that changed, revoked credentials; until the app is gone.
async fn follow_other_instances(
    app: std::sync::Weak<App>,
    mut notes: tokio::sync::mpsc::Receiver<Note>,
) {
    while let Some(note) = notes.recv().await {
        let Some(app) = app.upgrade() else { return };
        match note {
            Note::Game { id, version, from } => {
                app.rounds.stored_elsewhere(Some(&id), version, from)
            }
            Note::Chat(id) => app.rounds.chatted_elsewhere(&id),
            Note::Lobby => app.lobby.ring(),
            Note::Revoked(text) => {
                if let Some(r) = Revoked::from_note(&text) {
                    app.users.revoked_elsewhere(r);
                }
            }
            // An instance without AI left a turn to those that compute it.
            Note::AiTurn(id, version) => app.rounds.ai_turn_elsewhere(&id, version),
            // A hint or an analysis was queued for the instances that
            // compute AI.
            Note::WorkQueued => {
                app.rounds.hint_wanted_elsewhere();
                app.analyses.queued_elsewhere();
            }
            // Notes may have been missed: every live game and the lobby look.
            Note::Missed => {
                app.lobby.ring();
                app.rounds.stored_elsewhere(None, 0, None);
            }
        }
    }
}
