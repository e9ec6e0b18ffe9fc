//! What the command line does with input meant to hurt it and with a reader that goes away:
//! bad queries, endless query files, missing and unreadable files, closed pipes. Every case
//! ends with one line on stderr and exit code 2, or (a closed pipe) quietly with 0.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

use common::{qipu, sample_games as samples, samples_index, Scratch};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs qipu with its stdout a pipe that this side closes, before reading anything or after
/// the first line, and returns the exit code and stderr.
fn with_closed_stdout(args: &[&str], read_first_line: bool) -> (Option<i32>, String) {
    let mut child = common::command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qipu runs");
    let stdout = child.stdout.take().unwrap();
    if read_first_line {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "{args:?} printed nothing");
    } else {
        drop(stdout);
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let index = samples_index();
    let games = samples();
    let record = games.join("maruyama-ito.sgf");
    let commands: Vec<Vec<&str>> = vec![
        vec!["stats", "--index", s(index)],
        vec!["stats", "--index", s(index), "--json"],
        vec!["show", s(&games)],
        vec!["show", "--json", s(&games)],
        vec!["info", s(&games)],
        vec!["info", "--json", s(&games)],
        vec!["search", "--index", s(index), "--query", "lee"],
        vec!["search", "--index", s(index), "--black", "pd", "--json"],
        vec!["convert", s(&record)],
    ];
    for args in &commands {
        for read_first_line in [false, true] {
            let (code, stderr) = with_closed_stdout(args, read_first_line);
            assert_eq!(code, Some(0), "{args:?}: {stderr}");
            assert_eq!(stderr, "", "{args:?}");
        }
    }
}

/// One error line: `qipu: …`, exit code 2, no Debug dump, no panic, the OS error (if any)
/// said once. Returns the line.
fn one_error_line(args: &[&str]) -> String {
    let out = qipu(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("qipu: "), "{args:?}: {stderr}");
    for dump in ["Os {", "kind:", "panicked", "Error {", "Custom {"] {
        assert!(!stderr.contains(dump), "{args:?}: {stderr}");
    }
    assert!(
        stderr.matches("(os error").count() <= 1,
        "{args:?}: {stderr}"
    );
    stderr.trim_end().to_string()
}

#[test]
fn errors_are_one_line_with_the_os_error_once() {
    let tmp = Scratch::new("bounds-errors");
    let index = samples_index();
    let missing = tmp.0.join("missing");
    let a_file = samples().join("maruyama-ito.sgf");
    let enoent = std::io::Error::from_raw_os_error(2).to_string();
    let eisdir = std::io::Error::from_raw_os_error(21).to_string();
    let eexist = std::io::Error::from_raw_os_error(17).to_string();

    let e = one_error_line(&["search", "--index", s(&missing), "--query", "a"]);
    assert!(e.contains("no index in"), "{e}");
    let e = one_error_line(&["stats", "--index", s(&missing)]);
    assert!(e.contains("no index in"), "{e}");
    let e = one_error_line(&["info", s(&missing)]);
    assert_eq!(
        e.to_lowercase()
            .matches(&enoent.to_lowercase()[..20])
            .count(),
        1,
        "{e}"
    );
    let e = one_error_line(&["convert", s(&missing)]);
    assert_eq!(
        e.to_lowercase()
            .matches(&enoent.to_lowercase()[..20])
            .count(),
        1,
        "{e}"
    );
    let e = one_error_line(&["search", "--index", s(index), "--position", s(&missing)]);
    assert_eq!(e.matches(&enoent).count(), 1, "{e}");
    // A directory where a file is expected cannot be read, even by root.
    let e = one_error_line(&["search", "--index", s(index), "--pattern", s(&tmp.0)]);
    assert_eq!(e.matches(&eisdir).count(), 1, "{e}");
    // An index folder that is a file: the OS error used to come twice.
    let e = one_error_line(&["index", "-q", "--index", s(&a_file), s(&a_file)]);
    assert_eq!(e.matches(&eexist).count(), 1, "{e}");
    let e = one_error_line(&["search", "--index", s(index), "--query", "((("]);
    assert!(e.contains("bad query"), "{e}");
    let e = one_error_line(&["search", "--index", s(index), "--query", &"(".repeat(5000)]);
    assert!(e.contains("bad query"), "{e}");
    let e = one_error_line(&[
        "search",
        "--index",
        s(index),
        "--query",
        &"NOT ".repeat(900),
    ]);
    assert!(e.contains("bad query"), "{e}");
}

#[test]
fn typed_queries_refuse_what_they_cannot_read() {
    let tmp = Scratch::new("bounds-typed");
    let index = samples_index();
    let idx = s(index);
    let e = one_error_line(&["search", "--index", idx, "--black", "é"]);
    assert!(e.contains("point 1"), "{e}");
    let e = one_error_line(&[
        "search", "--index", idx, "--black", "pd", "--white", "dp,Q٣",
    ]);
    assert!(e.contains("point 2"), "{e}");
    // X[qq] used to be dropped without a word, and the search ran on B[pd] alone.
    let e = one_error_line(&["search", "--index", idx, "--moves", "B[pd] X[qq]"]);
    assert!(e.contains("move 2") && e.contains("column 7"), "{e}");
    let pattern = tmp.0.join("pattern.txt");
    std::fs::write(&pattern, "....\n.X Z.\n").unwrap();
    let e = one_error_line(&["search", "--index", idx, "--pattern", s(&pattern)]);
    assert!(e.contains("line 2, column 4"), "{e}");
}

/// `--pattern /dev/zero` read until memory ran out; every query file is now read with a cap.
#[cfg(unix)]
#[test]
fn endless_query_files_are_refused() {
    let index = samples_index();
    for flag in ["--pattern", "--position"] {
        let e = one_error_line(&["search", "--index", s(index), flag, "/dev/zero"]);
        assert!(e.contains("larger than") && e.contains("MiB"), "{e}");
    }
}
