//! An engine that misbehaves (exits, writes garbage, stops answering) ends the run with an
//! error naming the game it was analysing, never a hang; and the records it finished before
//! stay. Stand-in engines are shell scripts: no KataGo needed.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use analyse::{analyse, AnalyseError, Observer, Options, Problem, Progress};
use testdata::Scratch;

struct Quiet;

impl Observer for Quiet {
    fn progress(&mut self, _: &Progress) {}
    fn problem(&mut self, _: &Problem) {}
}

/// Runs a stand-in engine whose script is `body` over one short game; the error it ends with.
fn run_with(name: &str, body: &str) -> AnalyseError {
    let dir = Scratch::new(name);
    let script = dir.write("engine.sh", format!("#!/bin/sh\n{body}\n").as_bytes());
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = dir.write("analysis.cfg", b"");
    dir.write("in/game.sgf", b"(;GM[1]SZ[9];B[ee];W[gc])");
    let mut opts = Options::new(script, PathBuf::from("net.bin.gz"), dir.path("out"));
    opts.config = Some(config);
    opts.timeout = Duration::from_secs(2);
    let started = Instant::now();
    let err = analyse(&[dir.path("in")], &opts, &mut Quiet).expect_err("a failed run");
    // Bounded: the timeout and a little, never the script's own sleep.
    assert!(started.elapsed() < Duration::from_secs(20), "{err}");
    assert!(
        !dir.path("out/game.sgf").exists(),
        "no copy of an unanalysed record"
    );
    err
}

#[test]
fn an_engine_that_exits_is_an_error_naming_the_game_and_its_last_words() {
    let err = run_with("engine-exits", "echo 'cannot load the model' >&2; exit 3").to_string();
    assert!(
        err.contains("KataGo ended") && err.contains("game.sgf#0"),
        "{err}"
    );
    assert!(err.contains("cannot load the model"), "{err}");
}

#[test]
fn an_engine_that_writes_garbage_is_an_error_naming_the_game() {
    let err = run_with(
        "engine-garbage",
        "read q; echo 'Segmentation fault'; sleep 30",
    )
    .to_string();
    assert!(
        err.contains("not JSON") && err.contains("game.sgf#0"),
        "{err}"
    );
}

#[test]
fn an_engine_that_stops_answering_times_out() {
    let err = run_with("engine-silent", "exec sleep 30").to_string();
    assert!(
        err.contains("gave no answer for 2 s") && err.contains("game.sgf#0"),
        "{err}"
    );
}

#[test]
fn an_answer_for_a_query_never_asked_is_an_error() {
    let err = run_with(
        "engine-stranger",
        r#"read q; echo '{"id":"7:0","isDuringSearch":false,"turnNumber":0,"rootInfo":{"winrate":0.5,"scoreLead":0,"visits":1,"currentPlayer":"B"}}'; sleep 30"#,
    )
    .to_string();
    assert!(err.contains("not asked"), "{err}");
}
