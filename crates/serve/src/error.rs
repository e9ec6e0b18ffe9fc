//! An answer other than success, as the API gives it: a status and a one-line JSON body that
//! says what is wrong and where; the library's errors mapped to their statuses.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use qipu::{ErrorKind, QueryPart};
use serde::Serialize;

/// An answer other than success: a status and a one-line JSON body
/// `{"error": "…", "param": "…", "part": "…"}` (the last two when known) that says what is wrong
/// and where.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

#[derive(Debug, Serialize)]
struct ErrorBody {
    error: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    param: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<QueryPart>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                error: message.into(),
                param: None,
                part: None,
            },
        }
    }

    /// A 400 about one parameter.
    pub(crate) fn param(name: &str, message: impl Into<String>) -> ApiError {
        let mut e = ApiError::new(StatusCode::BAD_REQUEST, message);
        e.body.param = Some(name.to_string());
        e
    }

    /// The status it answers with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Says which parameter a query error came from, when the library's part does not.
    pub(crate) fn in_param(mut self, name: &str) -> ApiError {
        if self.status == StatusCode::BAD_REQUEST {
            self.body.param = Some(name.to_string());
        }
        self
    }
}

impl From<qipu::Error> for ApiError {
    fn from(e: qipu::Error) -> ApiError {
        let status = match e.kind() {
            ErrorKind::BadQuery | ErrorKind::BadInput => StatusCode::BAD_REQUEST,
            ErrorKind::Stopped | ErrorKind::Busy | ErrorKind::NoIndex | ErrorKind::OldIndex => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let mut out = ApiError::new(status, e.to_string());
        if let Some(q) = e.query() {
            out.body.part = Some(q.part());
            out.body.param = match q.part() {
                QueryPart::Board => Some("size"),
                QueryPart::Pattern => Some("diagram"),
                QueryPart::Moves => Some("moves"),
                QueryPart::Metadata => Some("query"),
                QueryPart::Position => Some("at"),
                QueryPart::Then => Some("then"),
                _ => None,
            }
            .map(str::to_string);
        }
        out
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_response(self.status, &self.body)
    }
}

/// `body` as one line of JSON with `status`.
pub(crate) fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    match serde_json::to_vec(body) {
        Ok(mut bytes) => {
            bytes.push(b'\n');
            (
                status,
                [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
                bytes,
            )
                .into_response()
        }
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}
