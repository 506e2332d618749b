//! The Rust version the README asks for is the workspace's `rust-version`
//! (which cargo checks), and no locked dependency needs a newer one.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `1.92` as `(1, 92)`.
fn version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.trim().split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// The `rust-version = "..."` line of a manifest, if any.
fn rust_version(manifest: &str) -> Option<(u32, u32)> {
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("rust-version") && l.contains('"'))?;
    version(line.split('"').nth(1)?)
}

/// Where cargo unpacked the registry's sources.
fn registry_sources() -> Vec<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry/src")) else {
        return Vec::new();
    };
    std::fs::read_dir(src)
        .map(|dirs| dirs.filter_map(|d| d.ok().map(|d| d.path())).collect())
        .unwrap_or_default()
}

#[test]
fn the_readme_asks_for_the_rust_version_the_lock_file_needs() {
    let read = |p: &str| std::fs::read_to_string(root().join(p)).expect(p);
    let ours = rust_version(&read("Cargo.toml")).expect("the workspace's rust-version");
    let (major, minor) = ours;
    assert!(
        read("README.md").contains(&format!("{major}.{minor} or newer")),
        "the README names {major}.{minor}"
    );
    // Every locked registry package whose sources are here (they are once
    // built): none needs a newer Rust than ours.
    let lock = read("Cargo.lock");
    let sources = registry_sources();
    let mut needs = Vec::new();
    for block in lock
        .split("[[package]]")
        .filter(|b| b.contains("source = \"registry"))
    {
        let field = |key: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = \"")))
                .map(|v| v.trim_end_matches('"').to_string())
        };
        let (Some(name), Some(v)) = (field("name"), field("version")) else {
            continue;
        };
        let manifest = sources
            .iter()
            .find_map(|s| std::fs::read_to_string(s.join(format!("{name}-{v}/Cargo.toml"))).ok());
        if let Some(need) = manifest.as_deref().and_then(rust_version) {
            needs.push((need, name));
        }
    }
    let newest = needs.iter().max();
    assert!(!needs.is_empty(), "no locked package's sources were found");
    assert!(
        newest.is_some_and(|(need, _)| *need <= ours),
        "{newest:?} needs more than {major}.{minor}"
    );
    // And the workspace's crates all inherit it, so cargo checks it.
    for dir in std::fs::read_dir(root().join("crates")).expect("crates") {
        let manifest = dir.expect("crate").path().join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).expect("manifest");
        assert!(
            text.contains("rust-version.workspace = true"),
            "{} inherits rust-version",
            manifest.display()
        );
    }
}
