//! `qipu index` as a user runs it: incremental runs, and a run killed with SIGKILL at any moment
//! leaves a searchable index that the next run completes with no game lost or doubled.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn qipu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qipu"))
        .args(args)
        .output()
        .expect("qipu runs")
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qipu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn stats(index: &Path) -> Value {
    let out = qipu(&["stats", "--index", index.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// (file, game) of every game in the index, checking that none appears twice.
fn identities(index: &Path) -> HashSet<(String, u64)> {
    let out = qipu(&[
        "search",
        "--index",
        index.to_str().unwrap(),
        "--query",
        "size:[1 TO 52]",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut seen = HashSet::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] == "hit" {
            let id = (
                v["file"].as_str().unwrap().to_string(),
                v["game"].as_u64().unwrap(),
            );
            assert!(seen.insert(id.clone()), "{id:?} is in the index twice");
        }
    }
    seen
}

#[test]
fn running_again_adds_only_what_is_new() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
    let dir = temp("incremental");
    let inputs = temp("incremental-inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    for f in ["maruyama-ito.sgf", "melkisheva-shikshina.sgf"] {
        std::fs::copy(samples.join(f), inputs.join(f)).unwrap();
    }
    let idx = dir.to_str().unwrap();
    let inp = inputs.to_str().unwrap();
    assert!(qipu(&["index", "--index", idx, "-q", inp]).status.success());
    assert_eq!(stats(&dir)["games"], 2);
    // Same inputs again: nothing new.
    let out = qipu(&["index", "--index", idx, "-q", inp]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("indexed 0 games"));
    assert_eq!(stats(&dir)["games"], 2);
    // A new file in the folder: only it is added.
    std::fs::copy(
        samples.join("kitani-go-seigen-utf8bom.sgf"),
        inputs.join("kitani.sgf"),
    )
    .unwrap();
    let out = qipu(&["index", "--index", idx, "-q", inp]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("indexed 1 games"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(stats(&dir)["games"], 3);
    assert_eq!(identities(&dir).len(), 3);
    // A copy of a game already indexed is a duplicate, stored once and still found.
    std::fs::copy(samples.join("maruyama-ito.sgf"), inputs.join("zz-copy.sgf")).unwrap();
    assert!(qipu(&["index", "--index", idx, "-q", inp]).status.success());
    let s = stats(&dir);
    assert_eq!(
        (
            s["games"].as_u64(),
            s["duplicates"].as_u64(),
            s["distinct"].as_u64()
        ),
        (Some(4), Some(1), Some(3))
    );
    let out = qipu(&[
        "search",
        "--index",
        idx,
        "--position",
        samples.join("maruyama-ito.sgf").to_str().unwrap(),
        "--at",
        "50",
        "--json",
    ]);
    let hits: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v["type"] == "hit")
        .collect();
    assert_eq!(hits.len(), 2, "the original and its copy");
    assert_eq!(hits.iter().filter(|h| h["copy"] == true).count(), 1);
    // --rebuild starts over.
    assert!(qipu(&["index", "--index", idx, "-q", "--rebuild", inp])
        .status
        .success());
    assert_eq!(stats(&dir)["games"], 4);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&inputs);
}

#[test]
fn a_killed_run_is_finished_by_the_next_with_nothing_lost_or_doubled() {
    let Some(data) = testdata::dataset("fox-pro") else {
        return;
    };
    let dir = temp("crash");
    let idx = dir.to_str().unwrap();
    let args = [
        "index",
        "--index",
        idx,
        "-q",
        "--segment-games",
        "500",
        data.to_str().unwrap(),
    ];
    // How long a whole run takes here, to kill the next runs part-way through.
    let started = std::time::Instant::now();
    assert!(qipu(&args).status.success());
    let full = started.elapsed();
    std::fs::remove_dir_all(&dir).unwrap();
    let mut interrupted_with_games = 0;
    for fraction in [0.3, 0.5, 0.6, 0.7, 0.8, 0.9] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qipu"))
            .args(args)
            .spawn()
            .unwrap();
        std::thread::sleep(full.mul_f64(fraction));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // Whatever was committed is searchable, each game once.
        if dir.join("qipu-index.json").exists() {
            let games = stats(&dir)["games"].as_u64().unwrap();
            assert_eq!(identities(&dir).len() as u64, games);
            interrupted_with_games += (games > 0 && games < 10_348) as u32;
        }
    }
    eprintln!("{interrupted_with_games} kills left a partial index");
    let out = qipu(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = stats(&dir);
    assert_eq!(s["games"], 10_348);
    assert_eq!(identities(&dir).len(), 10_348);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn search_exports_hits_and_rejects_nonsense_with_exit_code_2() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let dir = temp("export");
    let idx = dir.to_str().unwrap();
    let games = samples.join("games");
    assert!(
        qipu(&["index", "--index", idx, "-q", games.to_str().unwrap()])
            .status
            .success()
    );
    let export = dir.join("hits.sgf");
    let opening = samples.join("queries/opening.sgf");
    let out = qipu(&[
        "search",
        "--index",
        idx,
        "--position",
        opening.to_str().unwrap(),
        "--export",
        export.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&export).unwrap();
    assert_eq!(text.matches("(;QH[6]").count(), 2, "{text}");
    let records = sgf::Records::read(text.as_bytes());
    assert_eq!(records.len(), 2);
    for i in 0..2 {
        assert!(records.game(i).unwrap().main_line().count() > 100);
    }
    // Queries that make no sense: one line on stderr, exit code 2.
    let bad_pattern = dir.join("bad.txt");
    std::fs::write(&bad_pattern, "X.\nX.Z\n").unwrap();
    let opening_pattern = dir.join("corner.txt");
    std::fs::write(&opening_pattern, "...\n.X.\n...\n").unwrap();
    for args in [
        vec!["--pattern", bad_pattern.to_str().unwrap()],
        vec!["--query", "nosuchfield:1"],
        vec!["--black", "zz"],
        vec!["--black", "pd", "--white", "pd"],
        vec!["--position", opening.to_str().unwrap(), "--at", "7"],
        vec![
            "--pattern",
            opening_pattern.to_str().unwrap(),
            "--size",
            "53",
        ],
        vec![],
    ] {
        let mut all = vec!["search", "--index", idx];
        all.extend(&args);
        let out = qipu(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
