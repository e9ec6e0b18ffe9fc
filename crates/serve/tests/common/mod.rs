//! What the server's tests share: a server on an ephemeral loopback port over an index built
//! for the test, and a plain HTTP GET.

#![allow(dead_code)]

pub mod http;

use std::path::{Path, PathBuf};

use serve::{Config, Server};

/// A running server: its base URL (`http://127.0.0.1:PORT`). It runs until the test process
/// ends.
pub struct Running {
    pub base: String,
}

/// Starts a server over the index in `dir` on 127.0.0.1:0 with `config` (its `bind` ignored).
pub fn start(dir: &Path, config: Config) -> Running {
    let index = qipu::Index::open(dir).expect("an index");
    let config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        ..config
    };
    let server = Server::bind(index, &config).expect("a server");
    let base = format!("http://{}", server.local_addr());
    std::thread::spawn(move || server.run());
    Running { base }
}

/// Builds an index of `inputs` in `dir`.
pub fn build(dir: &Path, inputs: &[PathBuf]) {
    let opts = qipu::BuildOptions {
        rebuild: true,
        ..qipu::BuildOptions::default()
    };
    qipu::build(dir, inputs, &opts, |_| {}).expect("an index built");
}

pub use http::{Client, Reply};

/// GET `base` + `path` with `params` percent-encoded, accepting `accept`.
pub fn get(base: &str, path: &str, params: &[(&str, &str)], accept: &str) -> Reply {
    Client::new(base)
        .send(
            "GET",
            &http::target(path, params),
            &[("Accept", accept)],
            b"",
        )
        .unwrap_or_else(|e| panic!("no answer to {path}: {e}"))
}

/// GET a URL as written (for targets a client would not make).
pub fn get_raw(url: &str) -> Reply {
    let rest = url.trim_start_matches("http://");
    let at = rest.find('/').unwrap_or(rest.len());
    Client::new(&rest[..at])
        .send("GET", &rest[at..], &[], b"")
        .unwrap_or_else(|e| panic!("no answer to {url}: {e}"))
}
