//! What the server's tests share: a server on an ephemeral loopback port over an index built
//! for the test, and a plain HTTP GET.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// An answer: status, content type, body.
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    pub bytes: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(120))
        .build()
}

/// GET `base` + `path` with `params` percent-encoded, accepting `accept`.
pub fn get(base: &str, path: &str, params: &[(&str, &str)], accept: &str) -> Reply {
    let mut req = agent().get(&format!("{base}{path}")).set("Accept", accept);
    for (k, v) in params {
        req = req.query(k, v);
    }
    reply(req.call())
}

/// GET a URL as written (for targets a client would not make).
pub fn get_raw(url: &str) -> Reply {
    reply(agent().get(url).call())
}

fn reply(r: Result<ureq::Response, ureq::Error>) -> Reply {
    let resp = match r {
        Ok(resp) => resp,
        Err(ureq::Error::Status(_, resp)) => resp,
        Err(e) => panic!("no answer: {e}"),
    };
    let status = resp.status();
    let content_type = resp.header("content-type").unwrap_or("").to_string();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut resp.into_reader(), &mut bytes).expect("a body");
    Reply {
        status,
        content_type,
        body: String::from_utf8_lossy(&bytes).into_owned(),
        bytes,
    }
}
