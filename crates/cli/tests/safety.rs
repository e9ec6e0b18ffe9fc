//! What `qipu` promises about an index folder, as a user meets it: a second writer is refused
//! with one line, a rebuild killed at any moment leaves the old index answering as before, and
//! `qipu verify` names damaged files.

mod common;

use std::path::{Path, PathBuf};

use common::{qipu, samples, Scratch};
use serde_json::Value;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn verify_names_damaged_files_and_search_refuses_a_truncated_one() {
    let scratch = Scratch::new("safety-verify");
    let dir = scratch.path("index");
    let idx = dir.to_str().unwrap();
    let games = samples().join("games");
    assert!(
        qipu(&["index", "--index", idx, "-q", games.to_str().unwrap()])
            .status
            .success()
    );
    let out = qipu(&["verify", "--index", idx]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("sound"));

    let ops = dir.join("seg-000001/ops.bin");
    let bytes = std::fs::read(&ops).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 1;
    std::fs::write(&ops, &flipped).unwrap();
    let out = qipu(&["verify", "--index", idx]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    let damaged: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("damaged: "))
        .collect();
    assert_eq!(damaged.len(), 1, "{report}");
    assert!(damaged[0].contains(ops.to_str().unwrap()), "{report}");
    std::fs::write(&ops, bytes).unwrap();

    let games_bin = dir.join("seg-000001/games.bin");
    let bytes = std::fs::read(&games_bin).unwrap();
    std::fs::write(&games_bin, &bytes[..bytes.len() / 2]).unwrap();
    let out = qipu(&["search", "--index", idx, "--query", "size:19"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(games_bin.to_str().unwrap()), "{err}");
    assert!(
        text(&out.stdout).is_empty(),
        "no answer from a damaged index"
    );
    let out = qipu(&["verify", "--index", idx]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("games.bin"));
}

#[test]
fn a_second_writer_gets_one_line_and_exit_code_2() {
    let scratch = Scratch::new("safety-lock");
    let dir = scratch.path("index");
    std::fs::create_dir_all(&dir).unwrap();
    let idx = dir.to_str().unwrap();
    let games = samples().join("games");
    // This process is the first writer.
    let lock = index::lock::WriteLock::take(&dir).unwrap();
    let out = qipu(&["index", "--index", idx, "-q", games.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "another qipu is writing to {idx} (pid {})",
            std::process::id()
        )),
        "{err}"
    );
    assert!(!dir.join("qipu-index.json").exists(), "nothing was written");
    drop(lock);
    assert!(
        qipu(&["index", "--index", idx, "-q", games.to_str().unwrap()])
            .status
            .success()
    );
}

/// The summary line of a position search: games and positions found.
fn answer(index: &Path) -> (u64, u64) {
    let opening = samples().join("queries/opening.sgf");
    let out = qipu(&[
        "search",
        "--index",
        index.to_str().unwrap(),
        "--position",
        opening.to_str().unwrap(),
        "--json",
        "--limit",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let last = text(&out.stdout).lines().last().unwrap().to_string();
    let v: Value = serde_json::from_str(&last).unwrap();
    assert_eq!(v["type"], "summary");
    (
        v["games"].as_u64().unwrap(),
        v["positions"].as_u64().unwrap(),
    )
}

#[test]
fn a_killed_rebuild_leaves_the_old_index_answering_as_before() {
    let Some(data) = testdata::dataset("fox-pro") else {
        return;
    };
    let scratch = Scratch::new("safety-rebuild-kill");
    let dir = scratch.path("index");
    let idx = dir.to_str().unwrap();
    let args = [
        "index",
        "--index",
        idx,
        "-q",
        "--rebuild",
        "--segment-games",
        "500",
        data.to_str().unwrap(),
    ];
    let started = std::time::Instant::now();
    assert!(qipu(&args).status.success());
    let full = started.elapsed();
    let before = answer(&dir);
    assert!(before.0 > 0);
    for fraction in [0.1, 0.3, 0.5, 0.7, 0.9, 0.97] {
        let mut child = common::command().args(args).spawn().unwrap();
        std::thread::sleep(full.mul_f64(fraction));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // The old index or the new one, whole: the same games, the same answer.
        assert_eq!(answer(&dir), before, "killed at {fraction} of a run");
    }
    let out = qipu(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(answer(&dir), before);
    // Nothing is left of the killed runs: one metadata folder, the manifest's segments.
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("qipu-index.json")).unwrap()).unwrap();
    let segments = manifest["segments"].as_array().unwrap().len();
    let (mut metas, mut segs) = (0, 0);
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        metas += name.starts_with("meta") as usize;
        segs += name.starts_with("seg-") as usize;
    }
    assert_eq!((metas, segs), (1, segments));
}

/// The document store of an index's metadata (the games' names, dates, results as shown).
fn doc_store(idx: &Path) -> PathBuf {
    std::fs::read_dir(idx.join("meta"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "store"))
        .expect("a document store")
}

#[test]
fn a_search_refuses_a_damaged_metadata_file_naming_it_never_answering_blanks() {
    let scratch = Scratch::new("safety-meta-store");
    let dir = scratch.path("index");
    let idx = dir.to_str().unwrap();
    let games = samples().join("games");
    assert!(
        qipu(&["index", "--index", idx, "-q", games.to_str().unwrap()])
            .status
            .success()
    );
    let sound = qipu(&["search", "--index", idx, "--query", "size:19", "--json"]);
    assert_eq!(sound.status.code(), Some(0), "{}", text(&sound.stderr));
    let store = doc_store(&dir);
    let bytes = std::fs::read(&store).unwrap();
    // Bytes across the store, its compressed blocks and its index of them: each one flipped
    // either leaves the answer as it was or is refused naming the store; a game shown with
    // its names and dates missing or changed is neither.
    for k in 0..12 {
        let i = k * (bytes.len() - 1) / 11;
        let mut flipped = bytes.clone();
        flipped[i] ^= 0x41;
        std::fs::write(&store, &flipped).unwrap();
        let out = qipu(&["search", "--index", idx, "--query", "size:19", "--json"]);
        let err = text(&out.stderr);
        if out.status.code() == Some(0) {
            assert_eq!(text(&out.stdout), text(&sound.stdout), "byte {i}: {err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "byte {i}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "byte {i}: {err}");
        assert!(err.contains(store.to_str().unwrap()), "byte {i}: {err}");
        assert!(text(&out.stdout).is_empty(), "byte {i}: no answer");
    }
    std::fs::write(&store, &bytes).unwrap();
}
