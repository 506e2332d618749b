//! The lesson and puzzle files of `learn/`, built into the binary (as the
//! web app is), read once and kept.

use crate::lesson::Lesson;
use crate::puzzle::Puzzle;
use crate::GAMES;
use rust_embed::RustEmbed;
use std::collections::BTreeMap;
use std::sync::OnceLock;

#[derive(RustEmbed)]
#[folder = "../../learn/"]
#[include = "*.json"]
#[include = "*.jsonl"]
struct Files;

/// Every lesson and puzzle, by game.
#[derive(Debug, Default)]
pub struct Library {
    /// Each game's lessons in file-name order.
    pub lessons: BTreeMap<String, Vec<Lesson>>,
    /// Each game's puzzles in file order.
    pub puzzles: BTreeMap<String, Vec<Puzzle>>,
    /// Files that did not read, with why (a test asserts there are none).
    pub broken: Vec<String>,
}

impl Library {
    /// One lesson by game and id (`<nn>-<slug>`, or the full `<game>/<...>`).
    pub fn lesson(&self, game: &str, id: &str) -> Option<&Lesson> {
        let full = if id.contains('/') {
            id.to_string()
        } else {
            format!("{game}/{id}")
        };
        self.lessons.get(game)?.iter().find(|l| l.id == full)
    }

    /// One puzzle by game and id.
    pub fn puzzle(&self, game: &str, id: &str) -> Option<&Puzzle> {
        self.puzzles.get(game)?.iter().find(|p| p.id == id)
    }
}

/// Read one lesson file's text; `path` is `lessons/<game>/<name>.json`.
pub fn read_lesson(path: &str, text: &str) -> Result<Lesson, String> {
    let mut lesson: Lesson = serde_json::from_str(text).map_err(|e| format!("{path}: {e}"))?;
    let id = path
        .trim_start_matches("lessons/")
        .trim_end_matches(".json")
        .to_string();
    lesson.id = id;
    Ok(lesson)
}

/// Read one game's puzzle file `puzzles/<game>.jsonl` (one JSON object a line).
pub fn read_puzzles(path: &str, text: &str) -> Result<Vec<Puzzle>, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("{path}:{}: {e}", i + 1)))
        .collect()
}

fn load() -> Library {
    let mut lib = Library::default();
    let mut names: Vec<String> = Files::iter().map(|f| f.to_string()).collect();
    names.sort();
    for path in names {
        let Some(file) = Files::get(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&file.data);
        let parts: Vec<&str> = path.split('/').collect();
        match parts.as_slice() {
            ["lessons", game, _] if GAMES.contains(game) => match read_lesson(&path, &text) {
                Ok(l) => lib.lessons.entry(game.to_string()).or_default().push(l),
                Err(e) => lib.broken.push(e),
            },
            ["puzzles", name] => {
                let game = name.trim_end_matches(".jsonl");
                match read_puzzles(&path, &text) {
                    Ok(p) => {
                        lib.puzzles.insert(game.to_string(), p);
                    }
                    Err(e) => lib.broken.push(e),
                }
            }
            _ => lib
                .broken
                .push(format!("{path}: not a lesson or puzzle file")),
        }
    }
    lib
}

/// The library, read on first use.
pub fn library() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(load)
}
