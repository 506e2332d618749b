//! Game spec strings `name(key=value,...)` and option schemas.
//!
//! Each game declares its options as data (`OptionDef`); this module parses a
//! spec string, validates it against the schema with errors that list the
//! valid keys and values, and fills in defaults.

use crate::error::Error;
use std::collections::BTreeMap;

/// The values an option accepts.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Bool,
    /// An integer in `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// An integer in `min..=max`, or the word `none`.
    IntOrNone {
        min: i64,
        max: i64,
    },
    /// One of the listed words (lower case, canonical spelling).
    Choice(&'static [&'static str]),
}

/// One option of a game: key, accepted values, default (canonical text) and a
/// one-line description.
#[derive(Clone, Copy, Debug)]
pub struct OptionDef {
    pub key: &'static str,
    pub kind: OptionKind,
    pub default: &'static str,
    pub help: &'static str,
}

impl OptionDef {
    /// Human-readable list of accepted values.
    pub fn values_text(&self) -> String {
        match self.kind {
            OptionKind::Bool => "true|false".to_string(),
            OptionKind::Int { min, max } => format!("{min}..{max}"),
            OptionKind::IntOrNone { min, max } => format!("{min}..{max}|none"),
            OptionKind::Choice(words) => words.join("|"),
        }
    }

    /// Canonical form of `raw`, or an error naming the valid values.
    fn canonical(&self, raw: &str) -> Result<String, Error> {
        let v = raw.trim().to_ascii_lowercase();
        let bad = || {
            Error::spec(format!(
                "bad value `{raw}` for option `{}` (valid: {})",
                self.key,
                self.values_text()
            ))
        };
        match self.kind {
            OptionKind::Bool => match v.as_str() {
                "" | "true" | "on" | "yes" | "1" => Ok("true".into()),
                "false" | "off" | "no" | "0" => Ok("false".into()),
                _ => Err(bad()),
            },
            OptionKind::Int { min, max } => match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
                _ => Err(bad()),
            },
            OptionKind::IntOrNone { min, max } => {
                if v == "none" {
                    return Ok(v);
                }
                match v.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
                    _ => Err(bad()),
                }
            }
            OptionKind::Choice(words) => {
                // `_` and `-` are optional and interchangeable in choice words.
                let squash = |s: &str| s.replace(['_', '-'], "");
                words
                    .iter()
                    .find(|w| squash(w) == squash(&v))
                    .map(|w| w.to_string())
                    .ok_or_else(bad)
            }
        }
    }
}

/// A parsed spec string before validation: the game name and raw pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawSpec {
    pub name: String,
    pub pairs: Vec<(String, String)>,
}

impl RawSpec {
    /// Split `name(key=value,key,...)` into its parts.
    pub fn parse(text: &str) -> Result<RawSpec, Error> {
        let text = text.trim();
        let (name, inner) = match text.find('(') {
            None => (text, None),
            Some(i) => {
                let rest = &text[i + 1..];
                let inner = rest
                    .strip_suffix(')')
                    .ok_or_else(|| Error::spec(format!("`{text}`: missing `)` at the end")))?;
                (&text[..i], Some(inner))
            }
        };
        let name = name.trim().to_ascii_lowercase();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(Error::spec(format!(
                "`{text}`: expected a game name like `dragonchess`"
            )));
        }
        let mut pairs = Vec::new();
        if let Some(inner) = inner {
            for item in inner.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (k, v) = match item.split_once('=') {
                    Some((k, v)) => (k.trim(), v.trim()),
                    None => (item, ""),
                };
                if k.is_empty() {
                    return Err(Error::spec(format!("`{item}`: option without a key")));
                }
                pairs.push((k.to_ascii_lowercase(), v.to_string()));
            }
        }
        Ok(RawSpec { name, pairs })
    }
}

/// Validated option values: every key of the schema, in canonical text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionValues {
    values: BTreeMap<&'static str, String>,
    /// Keys the user set explicitly, in the order given (for canonical specs).
    explicit: Vec<&'static str>,
}

impl OptionValues {
    /// Validate `pairs` against `defs`; unknown keys list the valid ones.
    pub fn validate(
        game: &str,
        defs: &'static [OptionDef],
        pairs: &[(String, String)],
    ) -> Result<OptionValues, Error> {
        let mut values: BTreeMap<&'static str, String> = defs
            .iter()
            .map(|d| (d.key, d.default.to_string()))
            .collect();
        let mut explicit = Vec::new();
        for (k, v) in pairs {
            let key = k.replace('-', "_");
            let def = defs.iter().find(|d| d.key == key).ok_or_else(|| {
                let keys: Vec<&str> = defs.iter().map(|d| d.key).collect();
                if keys.is_empty() {
                    Error::spec(format!("unknown option `{k}`: {game} has no options"))
                } else {
                    Error::spec(format!(
                        "unknown option `{k}` for {game} (valid: {})",
                        keys.join(", ")
                    ))
                }
            })?;
            if explicit.contains(&def.key) {
                return Err(Error::spec(format!("option `{k}` given twice")));
            }
            values.insert(def.key, def.canonical(v)?);
            explicit.push(def.key);
        }
        Ok(OptionValues { values, explicit })
    }

    /// The canonical text of `key` (panics on a key outside the schema: a bug).
    pub fn get(&self, key: &str) -> &str {
        match self.values.get(key) {
            Some(v) => v,
            None => panic!("option `{key}` is not in the schema"),
        }
    }
    pub fn bool(&self, key: &str) -> bool {
        self.get(key) == "true"
    }
    /// Integer value; `None` for the word `none`.
    pub fn int(&self, key: &str) -> Option<i64> {
        self.get(key).parse().ok()
    }
    /// Whether the user set `key` in the spec (used by presets: explicit
    /// options override the preset).
    pub fn is_explicit(&self, key: &str) -> bool {
        self.explicit.contains(&key)
    }

    /// The canonical spec string: explicit options whose value differs from
    /// the default, in schema order.
    pub fn spec_string(&self, game: &str, defs: &[OptionDef]) -> String {
        let parts: Vec<String> = defs
            .iter()
            .filter(|d| self.explicit.contains(&d.key) && self.values[d.key] != d.default)
            .map(|d| format!("{}={}", d.key, self.values[d.key]))
            .collect();
        if parts.is_empty() {
            game.to_string()
        } else {
            format!("{game}({})", parts.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFS: &[OptionDef] = &[
        OptionDef {
            key: "mode",
            kind: OptionKind::Choice(&["conquest", "warrior"]),
            default: "conquest",
            help: "",
        },
        OptionDef {
            key: "fast",
            kind: OptionKind::Bool,
            default: "false",
            help: "",
        },
        OptionDef {
            key: "limit",
            kind: OptionKind::Int { min: 1, max: 1000 },
            default: "100",
            help: "",
        },
        OptionDef {
            key: "turn",
            kind: OptionKind::IntOrNone { min: 1, max: 1000 },
            default: "60",
            help: "",
        },
        OptionDef {
            key: "landing",
            kind: OptionKind::Choice(&["illegal", "last_pawn_only"]),
            default: "illegal",
            help: "",
        },
    ];

    fn values(spec: &str) -> Result<OptionValues, Error> {
        let raw = RawSpec::parse(spec)?;
        OptionValues::validate(&raw.name, DEFS, &raw.pairs)
    }

    #[test]
    fn parses_names_pairs_and_bare_booleans() {
        let raw = RawSpec::parse(" Game(Mode=Warrior, fast) ").unwrap();
        assert_eq!(raw.name, "game");
        assert_eq!(
            raw.pairs,
            vec![
                ("mode".into(), "Warrior".into()),
                ("fast".into(), "".into())
            ]
        );
        let v = values("game(mode=WARRIOR,fast,limit=7,turn=none,landing=LastPawnOnly)").unwrap();
        assert_eq!(v.get("mode"), "warrior");
        assert!(v.bool("fast"));
        assert_eq!(v.int("limit"), Some(7));
        assert_eq!(v.int("turn"), None);
        assert_eq!(v.get("landing"), "last_pawn_only");
        assert_eq!(
            v.spec_string("game", DEFS),
            "game(mode=warrior,fast=true,limit=7,turn=none,landing=last_pawn_only)"
        );
    }

    #[test]
    fn defaults_fill_and_canonical_spec_drops_defaults() {
        let v = values("game(mode=conquest,fast=off)").unwrap();
        assert_eq!(v.get("limit"), "100");
        assert_eq!(v.spec_string("game", DEFS), "game");
    }

    #[test]
    fn errors_list_valid_keys_and_values() {
        let e = values("game(speed=3)").unwrap_err();
        assert!(
            e.message.contains("mode, fast, limit, turn, landing"),
            "{e}"
        );
        let e = values("game(mode=peace)").unwrap_err();
        assert!(e.message.contains("conquest|warrior"), "{e}");
        assert!(values("game(limit=0)").is_err());
        assert!(values("game(fast=maybe)").is_err());
        assert!(values("game(mode=warrior,mode=warrior)").is_err());
        assert!(RawSpec::parse("game(mode=warrior").is_err());
        assert!(RawSpec::parse("").is_err());
        assert!(RawSpec::parse("ga me").is_err());
        assert!(RawSpec::parse("game(=3)").is_err());
    }
}
