//! Games found by spec string. The list itself is assembled by the crate that
//! knows every game (`tabula-games`); this type only looks entries up.

use crate::erased::{AnyGame, Erased};
use crate::error::Error;
use crate::game::{Game, GameType};
use crate::options::{OptionDef, OptionValues, RawSpec};

type Create = fn(&OptionValues, Option<&str>) -> Result<Box<dyn AnyGame>, Error>;

/// One game known to the registry.
#[derive(Clone, Copy)]
pub struct GameEntry {
    pub name: &'static str,
    /// Display title, e.g. `Ad Elta Stelpur`.
    pub title: &'static str,
    /// One or two sentences for menus and `tabula games`.
    pub description: &'static str,
    pub options: &'static [OptionDef],
    /// The option keys that define a rating pool (see `Game::RATING_POOL_OPTIONS`).
    pub pool_options: &'static [&'static str],
    create: Create,
}

impl GameEntry {
    pub fn of<G: Game>(title: &'static str, description: &'static str) -> Self {
        fn create<G: Game>(v: &OptionValues, pos: Option<&str>) -> Result<Box<dyn AnyGame>, Error> {
            Ok(Box::new(Erased::<G>::create(v, pos)?))
        }
        GameEntry {
            name: G::NAME,
            title,
            description,
            options: G::option_defs(),
            pool_options: G::RATING_POOL_OPTIONS,
            create: create::<G>,
        }
    }

    /// The game's declared facts under its default options, for catalogs
    /// (a spec with options may differ: ask the created game).
    pub fn game_type(&self) -> Result<GameType, Error> {
        let defaults = OptionValues::validate(self.name, self.options, &[])?;
        Ok((self.create)(&defaults, None)?.game_type())
    }
}

/// The games Tabula plays.
#[derive(Clone, Default)]
pub struct Registry {
    entries: Vec<GameEntry>,
}

impl Registry {
    pub fn new(entries: Vec<GameEntry>) -> Self {
        Registry { entries }
    }

    pub fn entries(&self) -> &[GameEntry] {
        &self.entries
    }

    pub fn entry(&self, name: &str) -> Result<&GameEntry, Error> {
        self.entries.iter().find(|e| e.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.entries.iter().map(|e| e.name).collect();
            Error::spec(format!(
                "unknown game `{name}` (valid: {})",
                names.join(", ")
            ))
        })
    }

    /// Validate a spec string and return the entry with the option values.
    pub fn resolve(&self, spec: &str) -> Result<(&GameEntry, OptionValues), Error> {
        let raw = RawSpec::parse(spec)?;
        let entry = self.entry(&raw.name)?;
        let values = OptionValues::validate(entry.name, entry.options, &raw.pairs)?;
        Ok((entry, values))
    }

    /// The rating pool of a game: its name and the pool options that differ
    /// from their defaults, in schema order (`gildervaik(mode=warrior)`),
    /// then `/correspondence` for a correspondence game. Spellings that
    /// differ only in other options give the same pool.
    pub fn pool_of(&self, spec: &str, correspondence: bool) -> Result<String, Error> {
        let (entry, values) = self.resolve(spec)?;
        let parts: Vec<String> = entry
            .options
            .iter()
            .filter(|d| entry.pool_options.contains(&d.key) && values.get(d.key) != d.default)
            .map(|d| format!("{}={}", d.key, values.get(d.key)))
            .collect();
        let mut pool = entry.name.to_string();
        if !parts.is_empty() {
            pool = format!("{pool}({})", parts.join(","));
        }
        if correspondence {
            pool.push_str("/correspondence");
        }
        Ok(pool)
    }

    /// A new game from a spec string, at the start or from a position string.
    pub fn create(&self, spec: &str, position: Option<&str>) -> Result<Box<dyn AnyGame>, Error> {
        let (entry, values) = self.resolve(spec)?;
        (entry.create)(&values, position)
    }
}
