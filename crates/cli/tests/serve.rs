//! `qipu serve` end to end: the binary serves an index on a port it picks (`--bind
//! 127.0.0.1:0`, the address on its first line of output), and its API answers exactly what
//! `qipu search --json` prints for the same query (the elapsed time aside).

mod common;

use std::path::Path;

use common::{command as qipu, samples_index, Scratch, Serving};
use serde_json::Value;

/// A GET of `target` with `Accept: application/x-ndjson`: status and body.
fn get(addr: &str, target: &str) -> (u16, String) {
    let reply = common::get(addr, target, "application/x-ndjson");
    (reply.status(), reply.body)
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            let o = v.as_object_mut().unwrap();
            o.remove("elapsed_ms");
            // The record's path on this machine: the CLI's, which the server does not give out.
            o.remove("path");
            v
        })
        .collect()
}

fn search(index: &Path, args: &[&str]) -> Vec<Value> {
    let out = qipu()
        .args(["search", "--json", "--index"])
        .arg(index)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.code().unwrap() < 2,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines(&String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_api_answers_what_search_json_prints() {
    let tmp = Scratch::new("cli-serve");
    let index = samples_index();
    let corner = tmp.write("corner.txt", b"...\n...\n..X\n");

    let serving = Serving::start(&[index]);
    let addr = serving.addr.clone();

    let cases: [(&[&str], &str); 4] = [
        (
            &["--black", "pd", "--white", ""],
            "/api/position?black=pd&white=&limit=10000",
        ),
        (
            &[
                "--black",
                "pd",
                "--white",
                "",
                "--no-symmetry",
                "--query",
                "winner:W",
            ],
            "/api/position?black=pd&white=&symmetry=false&query=winner%3AW&limit=10000",
        ),
        (
            &["--query", "player:\"Lee Sedol\""],
            "/api/games?query=player%3A%22Lee%20Sedol%22&limit=10000",
        ),
        (
            &["--moves", "B[pd] W[dd]", "--any-order"],
            "/api/sequence?moves=B%5Bpd%5D%20W%5Bdd%5D&any_order=true&limit=10000",
        ),
    ];
    for (args, target) in cases {
        let (status, body) = get(&addr, target);
        assert_eq!(status, 200, "{target}: {body}");
        let want = search(index, args);
        assert!(want.len() > 1, "{args:?} finds something");
        assert_eq!(lines(&body), want, "{target}");
    }
    let pattern = search(index, &["--pattern", corner.to_str().unwrap()]);
    let (_, body) = get(&addr, "/api/pattern?diagram=...%2F...%2F..X&limit=10000");
    assert_eq!(lines(&body), pattern);
    // A mistake is said in the same words as the command line's, as JSON.
    let (status, body) = get(&addr, "/api/position?black=pd,zz&white=");
    assert_eq!(status, 400);
    let cli = qipu()
        .args(["search", "--index"])
        .arg(index)
        .args(["--black", "pd,zz"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&cli.stderr);
    let v: Value = serde_json::from_str(body.trim()).unwrap();
    assert!(
        said.contains(v["error"].as_str().unwrap()),
        "{said} / {body}"
    );
}
