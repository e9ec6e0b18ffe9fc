//! The web board: one HTML page, its script, its style sheet and its icon (a black stone), embedded in the binary when it
//! is built (no build step, nothing fetched from elsewhere, so the board works offline).

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

const PAGE: &str = include_str!("../assets/index.html");
const SCRIPT: &str = include_str!("../assets/board.js");
const STYLE: &str = include_str!("../assets/board.css");
const ICON: &str = include_str!("../assets/favicon.svg");

fn file(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, kind),
            // The files change only with the binary; a reload after an upgrade must see them.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// The board's files, whatever state the routes they are merged into share (they need none).
pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route(
            "/",
            get(|| async { file("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/board.js",
            get(|| async { file("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/board.css",
            get(|| async { file("text/css; charset=utf-8", STYLE) }),
        )
        // Browsers ask for `/favicon.ico` of every site whatever its pages name; the same SVG
        // answers there (they read an image by its content type, not its name).
        .route(
            "/favicon.svg",
            get(|| async { file("image/svg+xml", ICON) }),
        )
        .route(
            "/favicon.ico",
            get(|| async { file("image/svg+xml", ICON) }),
        )
}
