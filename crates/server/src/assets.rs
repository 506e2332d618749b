//! The browser UI (`web/`) and the rules pages (`docs/rules/`). Release
//! builds embed both, so the binary runs from anywhere; debug builds read
//! the files from the workspace, so edits show on reload.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use pulldown_cmark::{html, Options, Parser};
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

/// The rules of `game` as HTML, from `docs/rules/<game>.md`.
pub fn rules_html(game: &str) -> Option<String> {
    let file = Rules::get(&format!("{game}.md"))?;
    let text = String::from_utf8_lossy(&file.data);
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(&text, Options::ENABLE_TABLES));
    Some(out)
}
