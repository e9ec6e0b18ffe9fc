//! `qipu index` as a user runs it: incremental runs, and a run killed with SIGKILL at any moment
//! leaves a searchable index that the next run completes with no game lost or doubled.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Output};

use common::{qipu, samples, Scratch};
use serde_json::Value;

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
    let samples = common::sample_games();
    let scratch = Scratch::new("incremental");
    let dir = scratch.path("index");
    let inputs = scratch.path("inputs");
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
}

#[test]
fn a_killed_run_is_finished_by_the_next_with_nothing_lost_or_doubled() {
    let Some(data) = testdata::dataset("fox-pro") else {
        return;
    };
    let scratch = Scratch::new("crash");
    let dir = scratch.path("index");
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
        let mut child = common::command().args(args).spawn().unwrap();
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
    // Every input is counted once: new, unchanged (done before the kill) or resumed (begun).
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("inputs: ")).unwrap();
    let count = |what: &str| -> u64 {
        line.split([',', ';'])
            .find_map(|part| {
                part.trim()
                    .trim_start_matches("inputs: ")
                    .strip_suffix(what)
            })
            .map_or(0, |n| n.trim().parse().unwrap())
    };
    let counted = count(" new")
        + count(" unchanged")
        + count(" resumed (begun by a run that did not finish)");
    assert_eq!(counted, 10_348, "{line}");
    let s = stats(&dir);
    assert_eq!(s["games"], 10_348);
    assert_eq!(identities(&dir).len(), 10_348);
}

#[test]
fn search_exports_hits_and_rejects_nonsense_with_exit_code_2() {
    let samples = samples();
    let scratch = Scratch::new("export");
    let dir = scratch.path("index");
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
}

// ---- An index equals what its inputs hold (issue 14) ----

/// Where a test's index goes in its scratch folder.
fn index_in(s: &Scratch) -> String {
    s.path("index").to_str().unwrap().to_string()
}

/// A game by `player` whose moves depend on `seed` (games of different seeds are no copies of
/// each other; of the same seed, exact copies whoever plays).
fn game_of(seed: u32, player: &str) -> String {
    let mut rng = testdata::Rng::new(u64::from(seed) + 1);
    let mut out = format!("(;GM[1]SZ[19]PB[{player}]PW[w{seed}]");
    for m in 0..40 {
        let (a, b) = (b'a' + rng.below(19) as u8, b'a' + rng.below(19) as u8);
        let colour = if m % 2 == 0 { 'B' } else { 'W' };
        out.push_str(&format!(";{colour}[{}{}]", a as char, b as char));
    }
    out.push(')');
    out
}

/// Runs `qipu index -q` on `inputs` (from `cwd` when given); its output.
fn index_run(index: &str, inputs: &[&Path], cwd: Option<&Path>) -> Output {
    let mut cmd = common::command();
    cmd.args(["index", "--index", index, "-q"]).args(inputs);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    cmd.output().expect("qipu runs")
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The hit lines of a `search --json`, whose exit code must be 0 if there are any and 1 if
/// there are none (as grep's).
fn searched(out: Output) -> Vec<Value> {
    let code = out.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let hits: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "hit")
        .collect();
    assert_eq!(code == Some(0), !hits.is_empty(), "{text}");
    hits
}

/// (file, game, black player) of every hit of a metadata query.
fn meta_hits(index: &str, query: &str) -> Vec<(String, u64, String)> {
    let hits = searched(qipu(&[
        "search", "--index", index, "--query", query, "--json",
    ]));
    hits.iter()
        .map(|v| {
            (
                v["file"].as_str().unwrap().to_string(),
                v["game"].as_u64().unwrap(),
                v["black"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn every_game(index: &str) -> Vec<(String, u64, String)> {
    meta_hits(index, "size:[1 TO 52]")
}

/// Files of the hits of the position after the first `moves` moves of `game` (as a file).
fn position_hits(index: &str, game: &Path, moves: usize) -> Vec<String> {
    searched(qipu(&[
        "search",
        "--index",
        index,
        "--position",
        game.to_str().unwrap(),
        "--at",
        &moves.to_string(),
        "--json",
    ]))
    .iter()
    .map(|v| v["file"].as_str().unwrap().to_string())
    .collect()
}

#[test]
fn a_second_folder_whose_file_names_repeat_the_first_is_indexed_too() {
    let s = Scratch::new("inputs-same-names");
    s.write("tygem-9d/2009-01.sgf", game_of(1, "tygem").as_bytes());
    s.write("tom-9d/2009-01.sgf", game_of(2, "tom").as_bytes());
    let idx = index_in(&s);
    ok(index_run(&idx, &[&s.path("tygem-9d")], None));
    let out = ok(index_run(&idx, &[&s.path("tom-9d")], None));
    assert!(out.contains("indexed 1 games"), "{out}");
    let mut players: Vec<String> = every_game(&idx).into_iter().map(|h| h.2).collect();
    players.sort();
    assert_eq!(players, ["tom", "tygem"]);
    // Each hit's own file on disk stays known (hits print the same name for both).
    assert_eq!(stats(Path::new(&idx))["games"], 2);
}

#[test]
fn a_changed_or_grown_file_is_read_again_and_its_old_games_leave() {
    let s = Scratch::new("inputs-changed");
    let f = s.write("d/a.sgf", game_of(1, "first").as_bytes());
    s.write("d/other.sgf", game_of(9, "other").as_bytes());
    let idx = index_in(&s);
    ok(index_run(&idx, &[&s.path("d")], None));
    // Changed in place, same size and modification time: only the fingerprint tells.
    let mtime = std::fs::metadata(&f).unwrap().modified().unwrap();
    let changed = game_of(2, "secnd");
    assert_eq!(changed.len(), game_of(1, "first").len());
    std::fs::write(&f, &changed).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&f)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let out = ok(index_run(&idx, &[&s.path("d")], None));
    assert!(out.contains("1 changed"), "{out}");
    assert!(out.contains("1 games removed"), "{out}");
    let mut players: Vec<String> = every_game(&idx).into_iter().map(|h| h.2).collect();
    players.sort();
    assert_eq!(players, ["other", "secnd"]);
    assert!(position_hits(&idx, &s.write("q1.sgf", game_of(1, "q").as_bytes()), 30).is_empty());
    assert_eq!(
        position_hits(&idx, &s.write("q2.sgf", game_of(2, "q").as_bytes()), 30),
        ["a.sgf"]
    );
    // Grown: a game appended; the file is read again whole, nothing doubled.
    std::fs::write(&f, format!("{changed}\n{}", game_of(3, "third"))).unwrap();
    ok(index_run(&idx, &[&s.path("d")], None));
    let mut got: Vec<(String, u64, String)> = every_game(&idx);
    got.sort();
    assert_eq!(
        got,
        [
            ("a.sgf".to_string(), 0, "secnd".to_string()),
            ("a.sgf".to_string(), 1, "third".to_string()),
            ("other.sgf".to_string(), 0, "other".to_string()),
        ]
    );
    let st = stats(Path::new(&idx));
    assert_eq!(
        (st["games"].as_u64(), st["files"].as_u64()),
        (Some(3), Some(2))
    );
    let players: Vec<&str> = st["top_players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[0].as_str().unwrap())
        .collect();
    assert!(!players.contains(&"first"), "{players:?}");
}

#[test]
fn a_deleted_file_leaves_when_its_folder_is_indexed_again() {
    let s = Scratch::new("inputs-deleted");
    let gone = s.write("d/sub/gone.sgf", game_of(1, "gone").as_bytes());
    s.write("d/kept.sgf", game_of(2, "kept").as_bytes());
    let idx = index_in(&s);
    ok(index_run(&idx, &[&s.path("d")], None));
    assert_eq!(every_game(&idx).len(), 2);
    std::fs::remove_file(&gone).unwrap();
    let out = ok(index_run(&idx, &[&s.path("d")], None));
    assert!(out.contains("1 deleted"), "{out}");
    let players: Vec<String> = every_game(&idx).into_iter().map(|h| h.2).collect();
    assert_eq!(players, ["kept"]);
    let q = s.write("q.sgf", game_of(1, "q").as_bytes());
    assert!(position_hits(&idx, &q, 20).is_empty());
    assert!(meta_hits(&idx, "black:gone").is_empty());
    assert_eq!(stats(Path::new(&idx))["games"], 1);
}

#[test]
fn a_copy_is_still_found_when_its_original_is_removed() {
    let s = Scratch::new("inputs-copy-of-removed");
    let original = s.write("a/orig.sgf", game_of(1, "orig").as_bytes());
    s.write("b/copy.sgf", game_of(1, "copy").as_bytes());
    let idx = index_in(&s);
    ok(index_run(&idx, &[&s.path("a")], None));
    ok(index_run(&idx, &[&s.path("b")], None));
    let q = s.write("q.sgf", game_of(1, "q").as_bytes());
    let mut both = position_hits(&idx, &q, 30);
    both.sort();
    assert_eq!(both, ["copy.sgf", "orig.sgf"]);
    assert_eq!(stats(Path::new(&idx))["duplicates"], 1);
    // The original goes; the copy's moves live in it, and it is still found.
    std::fs::remove_file(&original).unwrap();
    ok(index_run(&idx, &[&s.path("a")], None));
    assert_eq!(position_hits(&idx, &q, 30), ["copy.sgf"]);
    assert_eq!(meta_hits(&idx, "black:copy").len(), 1);
    assert!(meta_hits(&idx, "black:orig").is_empty());
    // The same game comes back under the original's name: stored anew (a removed game is not
    // "already seen"), and found with the copy.
    std::fs::write(&original, game_of(1, "back")).unwrap();
    ok(index_run(&idx, &[&s.path("a")], None));
    let mut again = position_hits(&idx, &q, 30);
    again.sort();
    assert_eq!(again, ["copy.sgf", "orig.sgf"]);
    let st = stats(Path::new(&idx));
    assert_eq!(
        (st["games"].as_u64(), st["duplicates"].as_u64()),
        (Some(2), Some(1))
    );
}

#[test]
fn the_same_input_under_two_spellings_or_twice_is_indexed_once() {
    let s = Scratch::new("inputs-spellings");
    let archive = s.write(
        "data/games.sgf",
        format!("{}{}", game_of(1, "a"), game_of(2, "b")).as_bytes(),
    );
    let idx = index_in(&s);
    ok(index_run(&idx, &[&archive], None));
    // Relative, from its folder: the same file.
    let out = ok(index_run(
        &idx,
        &[Path::new("games.sgf")],
        Some(&s.path("data")),
    ));
    assert!(out.contains("indexed 0 games"), "{out}");
    assert_eq!(stats(Path::new(&idx))["games"], 2);
    // One folder twice in one command, and once more through `.`.
    let s2 = Scratch::new("inputs-twice");
    s2.write("d/x.sgf", game_of(3, "x").as_bytes());
    let idx2 = index_in(&s2);
    let d = s2.path("d");
    ok(index_run(&idx2, &[&d, &d, &s2.path("d/.")], None));
    assert_eq!(stats(Path::new(&idx2))["games"], 1);
}

#[test]
fn names_that_are_not_utf8_do_not_collide() {
    use std::os::unix::ffi::OsStrExt;
    let s = Scratch::new("inputs-not-utf8");
    for (byte, seed) in [(0xFEu8, 1), (0xFF, 2)] {
        let bytes = [b'a', byte, b'.', b's', b'g', b'f'];
        let name = std::ffi::OsStr::from_bytes(&bytes);
        std::fs::create_dir_all(s.path("d")).unwrap();
        std::fs::write(s.path("d").join(name), game_of(seed, "p")).unwrap();
    }
    let idx = index_in(&s);
    ok(index_run(&idx, &[&s.path("d")], None));
    let mut files: Vec<String> = every_game(&idx).into_iter().map(|h| h.0).collect();
    files.sort();
    assert_eq!(files, ["a\\xFE.sgf", "a\\xFF.sgf"]);
}

#[test]
fn a_pipe_is_read_as_a_stream_and_never_marks_content_as_done() {
    use std::io::Write;
    let s = Scratch::new("inputs-pipe");
    let idx = index_in(&s);
    let run = |text: String| {
        let mut child = common::command()
            .args(["index", "--index", &idx, "-q", "/dev/stdin"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        ok(child.wait_with_output().unwrap())
    };
    run(format!("{}{}", game_of(1, "one"), game_of(2, "two")));
    assert_eq!(stats(Path::new(&idx))["games"], 2);
    // Other content through the same name next time is read too.
    run(game_of(3, "three"));
    let mut players: Vec<String> = every_game(&idx).into_iter().map(|h| h.2).collect();
    players.sort();
    assert_eq!(players, ["one", "three", "two"]);
}

#[test]
fn a_fifo_in_a_folder_is_skipped_with_a_reason() {
    let s = Scratch::new("inputs-fifo");
    s.write("d/a.sgf", game_of(1, "a").as_bytes());
    let fifo = s.path("d/pipe.sgf");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let idx = index_in(&s);
    let out = index_run(&idx, &[&s.path("d")], None);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.contains("pipe.sgf") && err.contains("not a regular file"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 files skipped"));
    assert!(out.status.success());
    assert_eq!(stats(Path::new(&idx))["games"], 1);
}

#[test]
fn broken_links_in_a_folder_are_said_with_a_reason() {
    let s = Scratch::new("inputs-broken-links");
    s.write("d/a.sgf", game_of(1, "a").as_bytes());
    std::os::unix::fs::symlink(s.path("d/gone.sgf"), s.path("d/dangling.sgf")).unwrap();
    std::os::unix::fs::symlink(s.path("d/loop.sgf"), s.path("d/loop.sgf")).unwrap();
    let idx = index_in(&s);
    let out = index_run(&idx, &[&s.path("d")], None);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.contains("dangling.sgf: a symbolic link to nothing")
            && err.contains("loop.sgf: a symbolic link in a loop"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 files skipped"));
    assert!(out.status.success());
    assert_eq!(stats(Path::new(&idx))["games"], 1);
}

/// An input read only in part (here a compressed file whose frame is garbage) comes back from
/// the library in the build summary, and the CLI says it, naming the file; the other inputs are
/// indexed.
#[test]
fn an_input_read_in_part_is_said_by_the_cli() {
    let s = Scratch::new("read-in-part");
    s.write("d/a.sgf", game_of(1, "a").as_bytes());
    let mut cut = vec![0x28, 0xb5, 0x2f, 0xfd];
    cut.extend((0..200u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    s.write("d/cut.sgf.zst", &cut);
    let idx = index_in(&s);
    let out = index_run(&idx, &[&s.path("d")], None);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.lines()
            .any(|l| l.starts_with("qipu: ") && l.contains("cut.sgf.zst")),
        "{err}"
    );
    assert_eq!(stats(Path::new(&idx))["games"], 1);
}

#[test]
fn link_diamonds_are_walked_once() {
    let s = Scratch::new("inputs-diamond");
    let depth = 10;
    for level in 0..depth {
        let dir = s.path(&format!("l{level}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("g.sgf"), game_of(level, "p")).unwrap();
        for side in ["left", "right"] {
            std::os::unix::fs::symlink(s.path(&format!("l{}", level + 1)), dir.join(side)).unwrap();
        }
    }
    std::fs::create_dir_all(s.path(&format!("l{depth}"))).unwrap();
    let idx = index_in(&s);
    ok(index_run(&idx, &[&s.path("l0")], None));
    let st = stats(Path::new(&idx));
    assert_eq!(
        (st["games"].as_u64(), st["files"].as_u64()),
        (Some(depth as u64), Some(depth as u64))
    );
}

#[test]
fn an_unreadable_subfolder_is_reported_and_the_rest_indexed() {
    let s = Scratch::new("inputs-unreadable");
    s.write("d/a.sgf", game_of(1, "a").as_bytes());
    s.write("d/z/b.sgf", game_of(2, "b").as_bytes());
    // A folder deeper than PATH_MAX cannot be listed by its path, even by root (bash: dash
    // refuses a working directory that long).
    let part = "d".repeat(250);
    std::fs::create_dir_all(s.path("d/m")).unwrap();
    let script = format!(
        "cd '{}' && for i in $(seq 18); do mkdir {part} && cd {part}; done && echo '(;B[aa])' > deep.sgf",
        s.path("d/m").display()
    );
    assert!(Command::new("bash")
        .arg("-c")
        .arg(&script)
        .status()
        .unwrap()
        .success());
    let idx = index_in(&s);
    let out = index_run(&idx, &[&s.path("d")], None);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.contains("not read") && err.contains("too long"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("could not be read"));
    assert_eq!(out.status.code(), Some(1), "something was not read");
    assert_eq!(stats(Path::new(&idx))["games"], 2);
    // Nothing of it is taken for deleted on the next run.
    let again = index_run(&idx, &[&s.path("d")], None);
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 deleted"));
}

#[test]
fn a_folder_of_the_other_formats_is_indexed_and_searchable() {
    let Some(diverse) = testdata::dataset("diverse") else {
        return;
    };
    let scratch = Scratch::new("other-formats");
    let root = &scratch.0;
    let idx = root.join("idx");
    let idx = idx.to_str().unwrap();
    // GIB, NGF, UGF/UGI and a kifu-line move file (its index, `.index`, is not taken alone).
    let out = index_run(
        idx,
        &[
            &diverse.join("other_formats"),
            &diverse.join("kifu_line_format"),
        ],
        None,
    );
    let text = ok(out);
    assert!(text.contains("indexed 23 games from 14 files"), "{text}");
    let hits = meta_hits(idx, "black:石下之臣");
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(
        hits[0].0.ends_with("sabaki_app__test__gib__gb2312.gib"),
        "{hits:?}"
    );
    assert_eq!(meta_hits(idx, "white:LQC AND black:CYY").len(), 1);
    // The kifu-line move file is read with the index beside it: Tom's games have their players.
    assert_eq!(meta_hits(idx, "black:楚阳春").len(), 2);
    assert_eq!(meta_hits(idx, "white:楚阳春").len(), 4);
}

#[test]
fn a_kifu_move_file_is_read_again_when_its_index_changes() {
    let Some(diverse) = testdata::dataset("diverse") else {
        return;
    };
    let scratch = Scratch::new("kifu-index-changes");
    let root = &scratch.0;
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let from = diverse.join("kifu_line_format");
    let kifu = std::fs::read_dir(&from)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "kifu"))
        .unwrap();
    let index_file = kifu.with_extension("index");
    std::fs::copy(&kifu, data.join(kifu.file_name().unwrap())).unwrap();
    let idx = root.join("idx");
    let idx = idx.to_str().unwrap();
    // The move file alone: games without players, and the report says why.
    ok(index_run(idx, &[&data], None));
    assert_eq!(meta_hits(idx, "black:楚阳春").len(), 0);
    let report = std::fs::read_to_string(Path::new(idx).join("rejected.jsonl")).unwrap();
    assert!(report.contains("read without its index"), "{report}");
    assert!(
        report.contains("\"rejected\":false"),
        "a note, not a rejection: {report}"
    );
    let info = qipu(&["info", "--json", data.to_str().unwrap()]);
    let rows: Vec<Value> = String::from_utf8_lossy(&info.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["game"], Value::Null, "{rows:?}");
    assert_eq!(rows[0]["rejected"], false);
    assert!(rows[0]["diagnostics"][0]
        .as_str()
        .unwrap()
        .contains("read without its index"));
    assert!(rows[1..].iter().all(|r| r["game"].is_u64()));
    // Its index comes: the move file is read again, with it.
    let copied = data.join(index_file.file_name().unwrap());
    std::fs::copy(&index_file, &copied).unwrap();
    let text = ok(index_run(idx, &[&data], None));
    assert!(text.contains("1 changed"), "{text}");
    assert_eq!(meta_hits(idx, "black:楚阳春").len(), 2);
    // A name in the index changes: so do the games'.
    let renamed = std::fs::read_to_string(&copied)
        .unwrap()
        .replace("楚阳春", "楚阳夏");
    std::fs::write(&copied, renamed).unwrap();
    let text = ok(index_run(idx, &[&data], None));
    assert!(text.contains("1 changed"), "{text}");
    assert_eq!(meta_hits(idx, "black:楚阳春").len(), 0);
    assert_eq!(meta_hits(idx, "black:楚阳夏").len(), 2);
    // Nothing changes: nothing is read.
    let text = ok(index_run(idx, &[&data], None));
    assert!(
        text.contains("0 changed") && text.contains("1 unchanged"),
        "{text}"
    );
}

#[test]
fn a_kifu_game_two_month_indexes_give_differently_keeps_its_own_month_and_is_said() {
    let Some(diverse) = testdata::dataset("diverse") else {
        return;
    };
    // The shared Tom lines, edited into two months: game 354460 is in both indexes, February's
    // with other players and komi; game 355131 is only in February's.
    let from = diverse.join("kifu_line_format");
    let moves = std::fs::read_to_string(from.join("tom_2003-09.kifu")).unwrap();
    let index = std::fs::read_to_string(from.join("tom_2003-09.index")).unwrap();
    let line = |text: &str, id: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{id}\t")))
            .unwrap()
            .to_string()
    };
    let scratch = Scratch::new("kifu-two-months");
    let root = &scratch.0;
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let january = data.join("2010-01.kifu");
    let january_moves = format!("{}\n{}\n", line(&moves, "354460"), line(&moves, "355131"));
    std::fs::write(&january, january_moves).unwrap();
    let own = line(&index, "354460").replace("2003.09", "2010.01");
    std::fs::write(data.join("2010-01.index"), format!("{own}\n")).unwrap();
    let other = line(&index, "354460")
        .replace("2003.09", "2010.02")
        .replace("忧郁的孤影\t楚阳春\t6.5", "江城子\tkanyin111\t0.5");
    let only = line(&index, "355131").replace("2003.09", "2010.02");
    std::fs::write(data.join("2010-02.index"), format!("{other}\n{only}\n")).unwrap();
    let said = "game 354460 is in 2010-01.index and in 2010-02.index, with different players \
                and komi: those of 2010-01.index are taken";

    let idx = root.join("idx");
    let idx = idx.to_str().unwrap();
    ok(index_run(idx, &[&data], None));
    assert_eq!(meta_hits(idx, "white:忧郁的孤影").len(), 1);
    assert_eq!(meta_hits(idx, "black:kanyin111").len(), 0);
    assert_eq!(meta_hits(idx, "white:江城子 AND black:楚阳春").len(), 1);
    let report = std::fs::read_to_string(Path::new(idx).join("rejected.jsonl")).unwrap();
    let note: Value = report
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r.to_string().contains(said))
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(note["rejected"], false, "{note}");

    let info = qipu(&["info", "--json", january.to_str().unwrap()]);
    let rows: Vec<Value> = String::from_utf8_lossy(&info.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        rows[0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d.as_str().unwrap().contains(said)),
        "{rows:?}"
    );
}

#[test]
fn a_packed_file_that_is_not_read_is_said_by_index_and_info() {
    let scratch = Scratch::new("packed");
    let root = &scratch.0;
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("a.sgf"), game_of(1, "Ana")).unwrap();
    std::fs::write(data.join("b.sgf.gz"), b"\x1f\x8b not read").unwrap();
    let idx = root.join("idx");
    let out = index_run(idx.to_str().unwrap(), &[&data], None);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        stderr.contains("b.sgf.gz") && stderr.contains("not read"),
        "{stderr}"
    );
    let info = qipu(&["info", "--json", data.to_str().unwrap()]);
    let rows: Vec<Value> = String::from_utf8_lossy(&info.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let packed = rows
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with("b.sgf.gz"))
        .unwrap_or_else(|| panic!("{rows:?}"));
    assert!(packed["diagnostics"][0]
        .as_str()
        .unwrap()
        .contains("not read"));
}

#[test]
fn inputs_that_give_no_game_say_so_and_fail() {
    let scratch = Scratch::new("no-game");
    let root = &scratch.0;
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("notes.txt"), "not a record").unwrap();
    std::fs::write(data.join("broken.gib"), "not a game record").unwrap();
    std::fs::write(data.join("empty.sgf"), "nothing here").unwrap();
    let idx = root.join("idx");
    let out = index_run(idx.to_str().unwrap(), &[&data], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no game found"), "{stderr}");
}

/// What of a kept game's moves cannot be played as written — a move off the board, a point
/// that cannot be read, a move onto a stone — is listed in the report, as `qipu show` says it:
/// a line naming the file, the game and the move, not a rejection.
#[test]
fn the_report_lists_the_moves_that_cannot_be_played_as_written() {
    let scratch = Scratch::new("replay-notes");
    let root = &scratch.0;
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("odd.sgf"),
        "(;SZ[9];B[cc];W[dd])(;SZ[9];B[ee];W[zz];B[c!];W[ee];B[ff])",
    )
    .unwrap();
    let idx = root.join("idx");
    let idx = idx.to_str().unwrap();
    ok(index_run(idx, &[&data], None));
    let report = std::fs::read_to_string(Path::new(idx).join("rejected.jsonl")).unwrap();
    let lines: Vec<Value> = report
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let said: Vec<(&str, u64, &str, bool)> = lines
        .iter()
        .map(|l| {
            (
                l["file"].as_str().unwrap(),
                l["game"].as_u64().unwrap(),
                l["reason"].as_str().unwrap(),
                l["rejected"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            (
                "odd.sgf",
                1,
                "move 2 W[zz]: off the board: nothing placed",
                false
            ),
            (
                "odd.sgf",
                1,
                "move 3 B[c!]: malformed point, played as a pass",
                false
            ),
            (
                "odd.sgf",
                1,
                "move 4 W[ee]: on a point that held a stone, which it replaced",
                false
            ),
        ],
        "{report}"
    );
    // Each names where its move is in the file.
    let text = std::fs::read(data.join("odd.sgf")).unwrap();
    for (l, at) in lines.iter().zip(["zz]", ";B[c!]", "ee];B[ff]"]) {
        let offset = l["offset"].as_u64().unwrap() as usize;
        assert!(text[offset..].starts_with(at.as_bytes()), "{l} at {at}");
    }
    // Both games are kept.
    assert_eq!(stats(Path::new(idx))["games"], 2);
}
