//! `qipu serve`: an HTTP API and a web board over a qipu index, standing on the library face
//! (`qipu`) only.
//!
//! [`router`] turns an opened [`qipu::Index`] and a [`Config`] into an axum [`Router`]: the JSON
//! API under `/api/` and the web board at `/` (HTML, JS and CSS embedded in the binary, nothing
//! fetched from elsewhere). [`Server`] binds it to an address (loopback unless told otherwise)
//! and runs it on a small tokio runtime of its own, so a synchronous program (the CLI) needs no
//! async code.
//!
//! How the server stays up whatever it is sent:
//! - every search runs on one bounded rayon pool ([`Config::threads`]), at most
//!   [`Config::max_concurrent`] at a time; the others wait their turn in a queue (a semaphore),
//!   never a thread each;
//! - each request has a time budget ([`Config::timeout`]), the wait in the queue included; a
//!   search over it is stopped ([`qipu::Stop`]: it stops using the CPU within one game's replay)
//!   and answered 503, as is a search whose client went away;
//! - a connection that does not send a whole request head within [`Config::header_timeout`]
//!   (a client sending a byte at a time, or an idle kept-alive connection) is closed, so that
//!   slow or silent clients cannot hold the server's sockets;
//! - a request target or body over [`Config::max_request_bytes`] is refused 413 before anything
//!   reads it, a query the library refuses is 400 with its one-line message and the parameter it
//!   came from, an unknown path 404;
//! - no part of a request reaches the file system: games are named by the record file and place
//!   the index recorded, looked up in a table built from the index when the server starts;
//! - a panic in a search is caught and answered 500, the server goes on.
//!
//! Answers have the shapes `qipu search --json` prints (`qipu::lines`), so the two say the same.

#![warn(missing_docs)]

mod api;
mod assets;
mod error;
mod params;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;

pub use error::ApiError;

/// How a server runs. `Default` binds `127.0.0.1:8080` with a 5 s budget per request.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen. Loopback by default: another address only when asked, since the API
    /// has no authentication.
    pub bind: SocketAddr,
    /// The time budget of one request, its wait for a turn included; over it, the search is
    /// stopped and the answer is 503.
    pub timeout: Duration,
    /// Searches running at once; more wait in a queue.
    pub max_concurrent: usize,
    /// Threads of the search pool (0: one per core).
    pub threads: usize,
    /// The most hit games one answer returns (`limit` above it is refused).
    pub max_limit: usize,
    /// The longest request target (path and query) and body accepted, in bytes; longer is 413.
    pub max_request_bytes: usize,
    /// The time a connection has to send a request's head (its line and headers), from when it
    /// opens or its last answer went out; then it is closed.
    pub header_timeout: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            timeout: Duration::from_secs(5),
            max_concurrent: 4,
            threads: 0,
            max_limit: 10_000,
            // A whole 19×19 diagram or position percent-encoded is under 2 KiB, the longest
            // metadata query (4 KiB) encoded under 12 KiB.
            max_request_bytes: 32 * 1024,
            header_timeout: Duration::from_secs(10),
        }
    }
}

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The configuration cannot work (a zero that must not be).
    #[error("{0}")]
    Config(String),
    /// The address could not be bound (in use, not ours).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The runtime or the search pool could not be made, or serving failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
    /// The index could not be read while preparing (its statistics, its game names).
    #[error("{0}")]
    Index(#[from] qipu::Error),
}

/// The HTTP API and the web board over `index` — one [`qipu::Index`], or several searched as
/// one ([`qipu::Shards`]: games numbered across them, answers merged) — as an axum router (to
/// serve it with axum directly, or nest it in a larger application). Builds the search pool,
/// the table of game names and the index's statistics first.
pub fn router(index: impl Into<qipu::Shards>, config: &Config) -> Result<Router, ServeError> {
    Ok(api::routes(Arc::new(api::State::new(
        index.into(),
        config,
    )?)))
}

/// A server bound to its address, ready to run.
pub struct Server {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    app: Router,
    header_timeout: Duration,
}

impl Server {
    /// Prepares the router (see [`router`]) and binds `config.bind` (port 0: any free port;
    /// [`Server::local_addr`] says which).
    pub fn bind(index: impl Into<qipu::Shards>, config: &Config) -> Result<Server, ServeError> {
        let app = router(index, config)?;
        // The runtime only moves bytes: the searches run on the rayon pool, so two threads
        // suffice for many connections.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("qipu-http")
            .enable_io()
            .enable_time()
            .build()?;
        let addr = config.bind;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(addr))
            .map_err(|source| ServeError::Bind { addr, source })?;
        Ok(Server {
            runtime,
            listener,
            app,
            header_timeout: config.header_timeout,
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        // A bound listener knows its address; the fallback is never reached.
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// Serves until the process ends.
    pub fn run(self) -> Result<(), ServeError> {
        let Server {
            runtime,
            listener,
            app,
            header_timeout,
        } = self;
        runtime.block_on(serve(listener, app, header_timeout))
    }
}

/// Takes connections and serves each on a task of its own, over HTTP/1.1 with keep-alive, each
/// closed when a request's head does not come whole within `header_timeout`.
async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    header_timeout: Duration,
) -> Result<(), ServeError> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // A connection reset before it was taken, or no file descriptor left: the next
            // one may do, after a pause that keeps the loop from spinning.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            // A connection that fails (reset, timed out, malformed) only ends itself.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
