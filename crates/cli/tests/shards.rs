//! `qipu search` and `qipu serve` with `--index` given several times: the indexes answer as one
//! index built from all their inputs in that order would (`--json` lines equal, the record paths
//! aside), an exact copy across indexes marked and counted once.

mod common;

use std::path::{Path, PathBuf};

use common::{json_lines, qipu, Scratch, Serving};
use serde_json::Value;

const FIRST: [(&str, &str); 3] = [
    (
        "a.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Ke Jie]BR[9p]PW[Shin Jinseo]WR[9p]DT[2015-05-01]RE[B+R];B[pd];W[dd];B[pp])",
    ),
    (
        "b.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Amateur A]BR[3d]PW[Amateur B]WR[5d]DT[2016-02-10]RE[W+2.5];B[dd];W[pd];B[pp];W[dp];B[qq])",
    ),
    (
        "c.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]BR[9p]PW[Gu Li]WR[9p]DT[2014-01-19]RE[W+R];B[pd];W[dp];B[pp];W[dd])",
    ),
];

/// The second part: an exact copy of a.sgf under other players and a later date (a copy across
/// indexes), and two games of its own.
const SECOND: [(&str, &str); 3] = [
    (
        "d.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Copy B]PW[Copy W]DT[2019-03-03]RE[W+R];B[pd];W[dd];B[pp])",
    ),
    (
        "e.sgf",
        "(;GM[1]FF[4]SZ[19]PB[Shin Jinseo]BR[9p]PW[Ke Jie]WR[9p]DT[2020-01-01]RE[B+R];B[pd];W[dd];B[dp])",
    ),
    ("f.sgf", "(;GM[1]FF[4]SZ[19]RE[Void];B[qd];W[dd])"),
];

/// The two parts' record folders, written into `s`: `one/` and `two/`.
fn parts(s: &Scratch) -> (PathBuf, PathBuf) {
    for (name, text) in FIRST {
        s.write(&format!("one/{name}"), text.as_bytes());
    }
    for (name, text) in SECOND {
        s.write(&format!("two/{name}"), text.as_bytes());
    }
    (s.0.join("one"), s.0.join("two"))
}

/// `qipu search --json` over the indexes given, without timings and machine paths.
fn search(indexes: &[&Path], args: &[&str]) -> Vec<Value> {
    let mut all = vec!["search", "--json"];
    for i in indexes {
        all.extend(["--index", i.to_str().unwrap()]);
    }
    all.extend_from_slice(args);
    let out = qipu(&all);
    assert!(
        out.status.code().unwrap() < 2,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json_lines(&out)
        .into_iter()
        .map(|mut v| {
            let o = v.as_object_mut().unwrap();
            o.remove("elapsed_ms");
            o.remove("path");
            v
        })
        .collect()
}

#[test]
fn several_indexes_answer_as_one() {
    let s = Scratch::new("cli-shards");
    let (one, two) = parts(&s);
    let (a, b, all) = (s.0.join("ia"), s.0.join("ib"), s.0.join("iall"));
    common::build(&a, &[&one]);
    common::build(&b, &[&two]);
    common::build(&all, &[&one, &two]);
    let queries: [&[&str]; 7] = [
        &["--black", "pd"],
        &["--black", "pd", "--with-copies"],
        &["--black", "pd", "--white", "dd", "--sort", "date"],
        &["--moves", "B[pd] W[dd]"],
        &["--query", "date:[2015 TO 2020]", "--sort", "oldest"],
        &[
            "--black", "pd", "--since", "2016", "--offset", "1", "--limit", "2",
        ],
        &["--black", "pd", "--by-month"],
    ];
    for q in queries {
        let set = search(&[&a, &b], q);
        assert_eq!(set, search(&[&all], q), "{q:?}");
        assert!(set.len() > 2, "{q:?}: {set:?}");
    }
    // d.sgf is a copy of a.sgf across the indexes: a hit marked as a copy, counted once.
    let lines = search(&[&a, &b], &["--black", "pd"]);
    let copy = lines
        .iter()
        .find(|l| l["type"] == "hit" && l["file"] == "d.sgf")
        .expect("d.sgf hits");
    assert_eq!(copy["copy"], true);
    let counted = |lines: &[Value]| -> u64 {
        lines
            .iter()
            .filter(|l| l["type"] == "continuation")
            .map(|l| l["count"].as_u64().unwrap())
            .sum()
    };
    let each = search(&[&a, &b], &["--black", "pd", "--with-copies"]);
    assert_eq!(counted(&each), counted(&lines) + 1);
    // The same folder twice would count its games twice: refused.
    let out = qipu(&[
        "search",
        "--index",
        a.to_str().unwrap(),
        "--index",
        a.to_str().unwrap(),
        "--black",
        "pd",
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("given twice"));
}

/// The body of a GET of `target` accepting JSON, whose answer must be 200.
fn get(addr: &str, target: &str) -> String {
    let reply = common::get(addr, target, "application/json");
    assert!(
        reply.head.starts_with("HTTP/1.1 200"),
        "{target}: {}",
        reply.head
    );
    reply.body
}

#[test]
fn the_server_serves_several_indexes_as_one() {
    let s = Scratch::new("cli-shards-serve");
    let (one, two) = parts(&s);
    let (a, b) = (s.0.join("ia"), s.0.join("ib"));
    common::build(&a, &[&one]);
    common::build(&b, &[&two]);
    let serving = Serving::start(&[&a, &b]);
    let first = &serving.first_line;
    assert!(first.contains("6 games"), "{first}");
    let addr = serving.addr.clone();
    let stats: Value = serde_json::from_str(&get(&addr, "/api/stats")).unwrap();
    assert_eq!(stats["games"], 6);
    assert_eq!(stats["duplicates"], 1, "{stats}");
    // Games of the second index, asked for by name: d.sgf a copy across the indexes.
    let game = get(&addr, "/api/game/e.sgf/0");
    assert!(game.contains("Shin Jinseo"), "{game}");
    let copy = get(&addr, "/api/game/d.sgf/0");
    assert!(copy.contains("\"copy\":true"), "{copy}");
    let original = get(&addr, "/api/game/a.sgf/0");
    assert!(original.contains("\"copy\":false"), "{original}");
}
