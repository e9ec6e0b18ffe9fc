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

/// A record with one variation: the main line B pd, W dd, B pq, W dp; at White's move the
/// line B jj, W pp, B qq, whose position after four moves no main line reaches.
pub const WITH_A_VARIATION: &str =
    "(;GM[1]FF[4]SZ[19]PB[Kuro]PW[Shiro];B[pd];W[dd](;B[pq];W[dp])(;B[jj];W[pp];B[qq]))";

/// Builds an index of `inputs` in `dir`.
pub fn build(dir: &Path, inputs: &[PathBuf]) {
    build_with(dir, inputs, false);
}

/// Builds an index of `inputs` in `dir`, with every variation line of the records when
/// `variations`.
pub fn build_with(dir: &Path, inputs: &[PathBuf], variations: bool) {
    let opts = qipu::BuildOptions {
        rebuild: true,
        variations: Some(variations),
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

/// The tests' evaluation property: each main-line node's comment `WIN LEAD`, Black's win in
/// 1/10,000 and his lead in tenths (`-` for none), as `testdata::analysed` writes it; a test
/// gives it to the build as its evaluation reader (`BuildOptions::evals`).
pub fn comment_evals(tree: &sgf::GameTree<'_>) -> Option<sgf::Evals> {
    let positions: Vec<Option<sgf::Eval>> = tree
        .main_line()
        .map(|node| {
            let text = node.get(sgf::ids::C)?.text().to_string();
            let mut words = text.split(' ');
            let win: i32 = words.next()?.parse().ok()?;
            let lead = words.next()?.parse::<i32>().ok();
            Some(sgf::Eval {
                win: win as f32 / 10_000.0,
                lead: lead.map(|l| l as f32 / 10.0),
                visits: None,
            })
        })
        .collect();
    positions.iter().any(Option::is_some).then_some(sgf::Evals {
        positions,
        program: "test",
        engine: None,
    })
}
