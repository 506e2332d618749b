//! The server's inner walls: which module may use which. Each module is a
//! room with a door; `round` uses none of the modules built on it, none
//! uses `app` (the composition root) or `http` (the edge), and no two
//! modules use each other, directly or in a loop. `docs/architecture.md`
//! draws the same graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules each module may use (besides itself).
const ALLOWED: &[(&str, &[&str])] = &[
    ("common", &[]),
    ("assets", &[]),
    ("store", &["common"]),
    ("protocol", &["common"]),
    ("ai", &["common"]),
    ("round", &["common", "store", "protocol", "ai"]),
    ("user", &["common", "store", "protocol", "round"]),
    ("guard", &["common", "store", "protocol", "round"]),
    ("rating", &["common", "store", "protocol", "round"]),
    ("lobby", &["common", "store", "protocol", "round", "user"]),
    (
        "bot",
        &["common", "store", "protocol", "round", "user", "lobby"],
    ),
    (
        "tournament",
        &[
            "common", "store", "protocol", "round", "user", "guard", "rating", "bot",
        ],
    ),
    ("learn", &["common", "store"]),
    ("analysis", &["common", "store", "round", "ai"]),
    // The edge's own: each module refuses in its terms, `error` maps
    // every one to HTTP, so it uses them all and none uses it.
    (
        "error",
        &[
            "common",
            "store",
            "protocol",
            "round",
            "user",
            "guard",
            "lobby",
            "bot",
            "tournament",
            "learn",
            "analysis",
        ],
    ),
    (
        "app",
        &[
            "common",
            "store",
            "protocol",
            "ai",
            "error",
            "round",
            "user",
            "guard",
            "rating",
            "lobby",
            "bot",
            "tournament",
            "analysis",
        ],
    ),
    (
        "http",
        &[
            "common",
            "assets",
            "store",
            "protocol",
            "ai",
            "error",
            "round",
            "user",
            "guard",
            "rating",
            "lobby",
            "bot",
            "tournament",
            "learn",
            "analysis",
            "app",
        ],
    ),
];

/// The top module a source file belongs to (`round/actor.rs` → `round`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

/// The modules a file's code names as `crate::x` (also inside
/// `crate::{x, y}`), comments left out; items re-exported at the crate's
/// root (`crate::ApiError`) are not modules.
fn uses(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if is_module(&name) {
                        found.insert(name);
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if is_module(&name) {
                    found.insert(name);
                }
            }
        }
    }
    found
}

fn is_module(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Which module uses which, read from the sources.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(&src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("read file");
        let entry = graph.entry(module.clone()).or_default();
        for used in uses(&text) {
            if used != module {
                entry.insert(used);
            }
        }
    }
    graph
}

#[test]
fn every_module_uses_only_the_modules_it_may() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut wrong = Vec::new();
    for (module, used) in graph() {
        let Some(may) = allowed.get(module.as_str()) else {
            wrong.push(format!(
                "`{module}` is a new module: give it a place in ALLOWED and in docs/architecture.md"
            ));
            continue;
        };
        for u in used.iter().filter(|u| !may.contains(&u.as_str())) {
            wrong.push(format!("`{module}` uses `{u}`"));
        }
    }
    assert!(wrong.is_empty(), "walls crossed:\n{}", wrong.join("\n"));
}

#[test]
fn the_allowed_directions_have_no_loop() {
    // Depth-first search over the allowed graph: a module met again while
    // its own uses are being walked closes a loop.
    fn visit<'a>(
        m: &'a str,
        allowed: &BTreeMap<&'a str, &'a [&'a str]>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if done.contains(m) {
            return;
        }
        assert!(!path.contains(&m), "loop: {} -> {m}", path.join(" -> "));
        path.push(m);
        for u in allowed.get(m).copied().unwrap_or(&[]) {
            visit(u, allowed, path, done);
        }
        path.pop();
        done.insert(m);
    }
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut done = BTreeSet::new();
    for m in allowed.keys() {
        visit(m, &allowed, &mut Vec::new(), &mut done);
    }
}

#[test]
fn the_reader_sees_grouped_and_nested_uses_and_skips_comments() {
    let text = "use crate::{round, user::session, ApiError};\n\
                let x = crate::lobby::service::f();\n\
                // crate::app is only named here\n";
    let found: Vec<String> = uses(text).into_iter().collect();
    assert_eq!(found, ["lobby", "round", "user"]);
}
