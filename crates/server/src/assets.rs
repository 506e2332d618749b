//! The browser UI (`web/`) and the rules pages (`docs/rules/`). Release
//! builds embed both, so the binary runs from anywhere; debug builds read
//! the files from the workspace, so edits show on reload.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[exclude = "node_modules/*"]
struct Web;

#[derive(RustEmbed)]
#[folder = "../../docs/rules/"]
#[allow_missing = true]
struct Rules;

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// A file of the UI; other paths without a dot get the app page.
pub async fn web(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() || !path.contains('.') && !path.starts_with("api/") {
        "index.html"
    } else {
        path
    };
    match Web::get(path) {
        Some(file) => (
            [
                (header::CONTENT_TYPE, mime(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            file.data,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// A page of `docs/rules/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesPage<'a> {
    /// `<game>.md`, the players' page.
    Players(&'a str),
    /// `<lang>/<game>.md`, the players' page in another language than English.
    Translated(&'a str, &'a str),
    /// `reference/<game>.md`, the full spec.
    Reference(&'a str),
    /// `reference/README.md`, the conventions shared by every game.
    Conventions,
}

impl RulesPage<'_> {
    fn file(self) -> String {
        match self {
            RulesPage::Players(g) => format!("{g}.md"),
            RulesPage::Translated(g, lang) => format!("{lang}/{g}.md"),
            RulesPage::Reference(g) => format!("reference/{g}.md"),
            RulesPage::Conventions => "reference/README.md".to_string(),
        }
    }
}

/// A rules page as HTML. Links between the pages are relative Markdown
/// links (so they work in a clone of the repository); they become the web
/// app's routes here.
pub fn rules_html(page: RulesPage) -> Option<String> {
    let file = page.file();
    let data = Rules::get(&file)?;
    let text = String::from_utf8_lossy(&data.data);
    let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
    let events = Parser::new_ext(&text, Options::ENABLE_TABLES).map(|e| match e {
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest_url = app_route(dir, &dest_url).map_or(dest_url, CowStr::from);
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            })
        }
        e => e,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    Some(out)
}

/// The web app's route for a relative link `dest` found in folder `dir` of
/// `docs/rules/`, if it names a rules page: `<game>.md` -> `#/rules/<game>`,
/// `reference/<game>.md` -> `#/rules/<game>/reference`, `reference/README.md`
/// -> `#/rules/reference`. Other links are left alone.
fn app_route(dir: &str, dest: &str) -> Option<String> {
    let path = dest.split('#').next().unwrap_or("");
    if path.contains(':') || path.starts_with('/') || !path.ends_with(".md") {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    let safe = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    match parts.as_slice() {
        ["reference", "README.md"] => Some("#/rules/reference".to_string()),
        ["reference", f] => f
            .strip_suffix(".md")
            .filter(|g| safe(g))
            .map(|g| format!("#/rules/{g}/reference")),
        [f] => f
            .strip_suffix(".md")
            .filter(|g| safe(g))
            .map(|g| format!("#/rules/{g}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_between_rules_pages_become_app_routes() {
        assert_eq!(
            app_route("", "reference/stelpur.md").as_deref(),
            Some("#/rules/stelpur/reference")
        );
        assert_eq!(
            app_route("reference", "../phylde.md").as_deref(),
            Some("#/rules/phylde")
        );
        assert_eq!(
            app_route("reference", "stelpur.md#11-options").as_deref(),
            Some("#/rules/stelpur/reference")
        );
        assert_eq!(
            app_route("reference", "README.md").as_deref(),
            Some("#/rules/reference")
        );
        for other in [
            "https://x.org/a.md",
            "/etc/a.md",
            "../../a.md",
            "a.txt",
            "#x",
        ] {
            assert_eq!(app_route("", other), None, "{other}");
        }
    }

    #[test]
    fn every_rules_page_links_only_to_pages_that_exist() {
        for file in Rules::iter() {
            let text = String::from_utf8_lossy(&Rules::get(&file).expect("file").data).into_owned();
            let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
            for e in Parser::new_ext(&text, Options::ENABLE_TABLES) {
                if let Event::Start(Tag::Link { dest_url, .. }) = e {
                    if dest_url.contains("://") || dest_url.starts_with('#') {
                        continue;
                    }
                    let route = app_route(dir, &dest_url)
                        .unwrap_or_else(|| panic!("{file}: link `{dest_url}` leads nowhere"));
                    let page = match route.trim_start_matches("#/rules/").split_once('/') {
                        _ if route == "#/rules/reference" => RulesPage::Conventions,
                        Some((g, _)) => RulesPage::Reference(g),
                        None => RulesPage::Players(route.trim_start_matches("#/rules/")),
                    };
                    assert!(
                        rules_html(page).is_some(),
                        "{file}: `{dest_url}` is missing"
                    );
                }
            }
        }
    }
}
