//! The HTTP layers every request passes: safe response headers, a JSON
//! error body on every refusal (axum's own 404, 405 and 413 included),
//! JSON-only request bodies, and the client's address as rate limits
//! count it. `docs/security.md` lists them.

use crate::app::App;
use crate::error::ApiError;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::{header, request::Parts, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::sync::Arc;

/// The policy of every answer: scripts, styles and connections from this
/// site only, no inline script or style, never framed.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
form-action 'self'; frame-ancestors 'none'";

/// The largest WebSocket message a client may send (ours are far smaller).
pub const WS_MAX_MESSAGE: usize = 64 * 1024;

/// Wrap the API's router in the layers every request passes.
pub fn protect(router: Router, app: Arc<App>) -> Router {
    router
        .layer(middleware::from_fn(require_json))
        .layer(middleware::from_fn_with_state(app, find_client))
        .layer(middleware::from_fn(safe_answers))
}

/// Security headers on every answer, and a JSON body on every error
/// (axum's own 404, 405, 413 and rejections are plain text).
async fn safe_answers(req: Request, next: Next) -> Response {
    let asked = (req.method().clone(), req.uri().path().to_string());
    let res = next.run(req).await;
    let mut res = if is_error(&res) && !is_json(res.headers()) {
        as_json_error(res, &asked).await
    } else {
        res
    };
    let h = res.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
    ] {
        h.insert(name, HeaderValue::from_static(value));
    }
    res
}

fn is_error(res: &Response) -> bool {
    res.status().is_client_error() || res.status().is_server_error()
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// The largest request body (axum's `DefaultBodyLimit`), in MB.
pub const BODY_MAX_MB: usize = 2;

/// The same refusal as an [`ApiError`] (`{"error", "code"}`, its other
/// headers kept), saying what went wrong with the request `asked`
/// (method, path) where axum's words do not.
async fn as_json_error(res: Response, (method, path): &(Method, String)) -> Response {
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 16 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match parts.status {
        StatusCode::NOT_FOUND => format!("no such page: `{path}`"),
        StatusCode::METHOD_NOT_ALLOWED => format!("`{path}` does not take {method}"),
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request body is too large (at most {BODY_MAX_MB} MB)")
        }
        status if text.is_empty() => status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase(),
        _ => text,
    };
    let mut res = ApiError::new(parts.status, message).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            res.headers_mut().append(name, value.clone());
        }
    }
    res
}

/// A request that changes something and carries a body must say it is
/// JSON (415 otherwise). A body-less request passes: verbs like
/// `accept` or `DELETE /api/seeks/{id}` take none. This also keeps plain
/// HTML forms of other sites from posting to the API.
async fn require_json(req: Request, next: Next) -> Response {
    let changes = matches!(
        *req.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    let empty = axum::body::HttpBody::size_hint(req.body()).exact() == Some(0);
    if changes && !empty && !is_json(req.headers()) {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request body must be JSON (Content-Type: application/json)",
        )
        .into_response();
    }
    next.run(req).await
}

/// The client's address, as rate limits and quotas count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub String);

/// Find the client's address once per request: the socket's peer, or with
/// `trust_proxy` the last address of `X-Forwarded-For` (the one our proxy
/// added; earlier ones are the client's own word).
async fn find_client(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip().to_string());
    let forwarded = app
        .config
        .guard
        .trust_proxy
        .then(|| forwarded_for(req.headers()))
        .flatten();
    let addr = forwarded.or(peer).unwrap_or_else(|| "local".into());
    req.extensions_mut().insert(ClientAddr(addr));
    next.run(req).await
}

/// The last address of the (last) `X-Forwarded-For` header.
fn forwarded_for(headers: &HeaderMap) -> Option<String> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let text = last.to_str().ok()?;
    let addr = text.rsplit(',').next()?.trim();
    addr.parse::<std::net::IpAddr>().ok().map(|a| a.to_string())
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientAddr>()
            .cloned()
            .unwrap_or_else(|| ClientAddr("local".into())))
    }
}
