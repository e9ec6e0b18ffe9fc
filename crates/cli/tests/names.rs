//! `qipu index --aliases FILE` as a user runs it: a mistake in the file stops the run before
//! anything is indexed, naming the line; a new list on an existing index is applied and said.

mod common;

use common::{json_lines, qipu, Scratch};

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
    json_lines(&out)
        .into_iter()
        .find(|v| v["type"] == "summary")
        .and_then(|v| v["games"].as_u64())
        .expect("a summary line")
}

#[test]
fn alias_files_from_the_command_line() {
    let scratch = Scratch::new("cli-names-run");
    let dir = &scratch.0;
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
}

#[test]
fn stats_count_a_player_with_several_names_once() {
    let scratch = Scratch::new("cli-names-top");
    let dir = &scratch.0;
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let pairs = [
        ("이세돌", "Alice"),
        ("Lee Sedol", "Bob"),
        ("Bob", "李世石"),
        ("Alice", "Bob"),
        ("Carol", "Dave"),
        ("CAROL", "Erin"),
        ("Carol", "Frank"),
        ("李世石", "Gina"),
    ];
    for (i, (b, w)) in pairs.iter().enumerate() {
        let moves = ["pd", "dp", "dd", "pp", "qc", "cq", "qq", "cc"][i];
        std::fs::write(
            games.join(format!("{i}.sgf")),
            format!("(;GM[1]SZ[19]CA[UTF-8]PB[{b}]PW[{w}];B[{moves}])"),
        )
        .unwrap();
    }
    let index = dir.join("index");
    let (idx, inp) = (index.to_str().unwrap(), games.to_str().unwrap());
    assert!(qipu(&["index", "--index", idx, "-q", inp]).status.success());
    let top = |idx: &str| -> Vec<(String, u64, Vec<String>)> {
        let out = qipu(&["stats", "--index", idx, "--json"]);
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["top_players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p[0].as_str().unwrap().to_string(),
                    p[1].as_u64().unwrap(),
                    p[2].as_array()
                        .unwrap()
                        .iter()
                        .map(|n| n.as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect()
    };
    let s = |names: &[&str]| -> Vec<String> { names.iter().map(|n| n.to_string()).collect() };
    // The built-in list makes 이세돌, 李世石 and Lee Sedol one player, under the list's first
    // name, the others beside it (most frequent first); Carol and CAROL differ only in case.
    let with_aliases = top(idx);
    assert_eq!(
        with_aliases[..4],
        [
            ("이세돌".to_string(), 4, s(&["李世石", "Lee Sedol"])),
            ("Bob".to_string(), 3, s(&[])),
            ("Carol".to_string(), 3, s(&["CAROL"])),
            ("Alice".to_string(), 2, s(&[])),
        ]
    );
    let total: u64 = with_aliases.iter().map(|p| p.1).sum();
    assert_eq!(total, 2 * pairs.len() as u64, "every side counted once");
    let human = qipu(&["stats", "--index", idx]);
    let human = String::from_utf8_lossy(&human.stdout);
    assert!(
        human.contains("4  이세돌 (also 李世石, Lee Sedol)"),
        "{human}"
    );

    // Without aliases, the three spellings are three players (folding still joins Carol).
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
    let without = top(idx);
    assert_eq!(
        without[..4],
        [
            ("Bob".to_string(), 3, s(&[])),
            ("Carol".to_string(), 3, s(&["CAROL"])),
            ("Alice".to_string(), 2, s(&[])),
            ("李世石".to_string(), 2, s(&[])),
        ]
    );
    assert!(without.iter().any(|p| p.0 == "이세돌" && p.1 == 1));
}
