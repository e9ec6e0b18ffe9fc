//! `qipu index --variations` and how `qipu search` and `qipu stats` show variation lines, on a
//! record written here: marked hits with their paths, the `variations` column, the exit code
//! of an answer made of lines only, and a later run that asks another setting, refused.

mod common;

use common::{qipu, Scratch};
use serde_json::Value;

/// Main line B[pd] W[dp] B[pp]; at W[dp] (depth 2) a second child B[qp] W[qq].
const RECORD: &str =
    "(;GM[1]FF[4]SZ[19]PB[Black]PW[White]RE[B+R];B[pd];W[dp](;B[pp])(;B[qp];W[qq]))";

#[test]
fn variation_lines_are_indexed_marked_and_counted_apart() {
    let s = Scratch::new("cli-variations");
    s.write("games/v.sgf", RECORD.as_bytes());
    let index = s.0.join("index").display().to_string();
    let games = s.0.join("games").display().to_string();
    let out = qipu(&[
        "index",
        "--quiet",
        "--variations",
        "--index",
        &index,
        &games,
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("variations: 1 lines indexed"));

    // After B[pd] W[dp]: the game and its line, each with its next move.
    let out = qipu(&[
        "search", "--index", &index, "--black", "pd", "--white", "dp",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("1 games (1 positions), 1 variation lines"),
        "{text}"
    );
    assert!(text.contains("v.sgf#0 (variation 2:1)"), "{text}");
    assert!(text.contains("variations"), "{text}");

    // After B[pd] W[dp] B[qp]: the line only, found (exit code 0), in JSON with its path.
    let out = qipu(&[
        "search",
        "--index",
        &index,
        "--json",
        "--no-symmetry",
        "--black",
        "pd,qp",
        "--white",
        "dp",
    ]);
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "hit");
    assert_eq!(lines[0]["variation"]["path"], "2:1");
    assert_eq!(lines[0]["variation"]["from"], 2);
    assert_eq!(lines[1]["point"], "qq");
    assert_eq!(
        (lines[1]["count"].as_u64(), lines[1]["variations"].as_u64()),
        (Some(0), Some(1))
    );
    let summary = lines.last().unwrap();
    assert_eq!(
        (summary["games"].as_u64(), summary["variations"].as_u64()),
        (Some(0), Some(1))
    );

    let out = qipu(&["stats", "--index", &index, "--json"]);
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (stats["games"].as_u64(), stats["variation_lines"].as_u64()),
        (Some(1), Some(1))
    );

    // The index keeps its setting: asking otherwise is refused, with what to do.
    let out = qipu(&[
        "index",
        "--quiet",
        "--no-variations",
        "--index",
        &index,
        &games,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--rebuild"));
    let out = qipu(&[
        "index",
        "--variations",
        "--no-variations",
        "--index",
        &index,
        &games,
    ]);
    assert_eq!(out.status.code(), Some(2));
}
