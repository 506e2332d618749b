//! The games Tabula plays. A new game plugs in here with one line.

use tabula_core::{GameEntry, Registry};

/// Every game, in menu order.
pub fn registry() -> Registry {
    Registry::new(vec![
        // GAMES: one `GameEntry::of::<Type>(TITLE, DESCRIPTION)` line per game crate.
    ])
}
