//! `qipu index --aliases FILE` as a user runs it: a mistake in the file stops the run before
//! anything is indexed, naming the line; a new list on an existing index is applied and said.

use std::path::PathBuf;
use std::process::{Command, Output};

fn qipu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qipu"))
        .args(args)
        .output()
        .expect("qipu runs")
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-cli-names-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// How many games `query` finds.
fn count(index: &str, query: &str) -> u64 {
    let out = qipu(&[
        "search", "--index", index, "--query", query, "--json", "--limit", "0",
    ]);
    assert!(
        out.status.success(),
        "{query}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["type"] == "summary")
        .and_then(|v| v["games"].as_u64())
        .expect("a summary line")
}

#[test]
fn alias_files_from_the_command_line() {
    let dir = temp("run");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(
        games.join("a.sgf"),
        "(;GM[1]SZ[19]CA[UTF-8]PB[이세돌]PW[Alice];B[pd])",
    )
    .unwrap();
    std::fs::write(
        games.join("b.sgf"),
        "(;GM[1]SZ[19]CA[UTF-8]PB[Bob]PW[李世石 九段];B[dp])",
    )
    .unwrap();
    let index = dir.join("index");
    let (idx, inp) = (index.to_str().unwrap(), games.to_str().unwrap());

    // A bad list: the run stops with the file and line, and no index is made.
    let bad = dir.join("bad.tsv");
    std::fs::write(&bad, "# mine\nAlice\tアリス\nBob\n").unwrap();
    let out = qipu(&[
        "index",
        "--index",
        idx,
        "-q",
        "--aliases",
        bad.to_str().unwrap(),
        inp,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.tsv:3:"), "{err}");
    assert!(err.contains("two names or more"), "{err}");
    assert!(!index.join("qipu-index.json").exists());
    let missing = dir.join("missing.tsv");
    let out = qipu(&[
        "index",
        "--index",
        idx,
        "-q",
        "--aliases",
        missing.to_str().unwrap(),
        inp,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.tsv"));

    // The built-in list: one player in two scripts.
    assert!(qipu(&["index", "--index", idx, "-q", inp]).status.success());
    assert_eq!(count(idx, "player:이세돌"), 2);
    assert_eq!(count(idx, "player:\"Lee Sedol\""), 2);

    // An empty list turns aliases off, on the same index, without a rebuild; the run says so.
    let empty = dir.join("empty.tsv");
    std::fs::write(&empty, "# no aliases\n").unwrap();
    let out = qipu(&[
        "index",
        "--index",
        idx,
        "-q",
        "--aliases",
        empty.to_str().unwrap(),
        inp,
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("aliases were replaced"));
    assert_eq!(count(idx, "player:이세돌"), 1);
    let stats = qipu(&["stats", "--index", idx, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(v["alias_players"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}
