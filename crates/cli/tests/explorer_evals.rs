//! `qipu search` of a position on an index of analysed games: its JSON continuation rows are
//! the library's, engine means included, the table adds the engine's columns; on an index
//! without analysed games the fields are there, 0 and null, and the columns are not.

mod common;

use common::{json_lines, qipu, samples_index, stderr, stdout, Scratch};
use serde_json::Value;
use testdata::analysed;
use testdata::Rng;

fn rows(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["type"] == "continuation")
        .cloned()
        .collect()
}

const FIELDS: [&str; 5] = [
    "analysed",
    "black_win_after",
    "black_lead_after",
    "win_loss",
    "points_loss",
];

#[test]
fn position_rows_carry_the_engine_means_of_the_library() {
    let scratch = Scratch::new("cli-explorer-evals");
    let games = analysed::games(60, &mut Rng::new(5353));
    for (g, game) in games.iter().enumerate() {
        scratch.write(&format!("d/g{g:03}.sgf"), game.sgf.as_bytes());
    }
    let dir = scratch.0.join("index");
    let opts = qipu::BuildOptions {
        evals: Some(common::comment_evals),
        ..qipu::BuildOptions::default()
    };
    qipu::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    let library = qipu::Index::open(&dir).unwrap();
    // The position after the first move of a game analysed before and after its second move.
    let g = (0..games.len())
        .find(|&g| {
            games[g]
                .evals
                .get(1..3)
                .is_some_and(|e| e.iter().all(Option::is_some))
        })
        .unwrap();
    let record = scratch.0.join(format!("d/g{g:03}.sgf"));
    let (dir, record) = (dir.to_str().unwrap(), record.to_str().unwrap());
    let args = ["search", "--index", dir, "--position", record, "--at", "1"];
    let out = qipu(&[&args[..], &["--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let got = rows(&json_lines(&out));
    let q = qipu::Query::from_record(&std::fs::read(record).unwrap(), Some(1)).unwrap();
    let want: Vec<Value> = library
        .search(&q)
        .unwrap()
        .continuations
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    assert_eq!(got.len(), want.len());
    for (got, want) in got.iter().zip(&want) {
        for field in FIELDS.iter().chain(&["color", "point", "count"]) {
            assert_eq!(got[field], want[field], "{field}: {got}");
        }
    }
    assert!(
        got.iter().any(|r| r["analysed"].as_u64() > Some(0)),
        "{got:?}"
    );
    let table = stdout(&qipu(&args));
    assert!(
        table.contains("analysed") && table.contains("B after"),
        "{table}"
    );
}

#[test]
fn without_analysed_games_the_fields_are_null_and_the_columns_absent() {
    let index = samples_index().to_str().unwrap();
    let args = ["search", "--index", index, "--black", "pd", "--white", "dp"];
    let out = qipu(&[&args[..], &["--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let got = rows(&json_lines(&out));
    assert!(!got.is_empty());
    for r in &got {
        assert_eq!(r["analysed"], 0, "{r}");
        for field in &FIELDS[1..] {
            assert!(r[field].is_null(), "{field}: {r}");
        }
    }
    let table = stdout(&qipu(&args));
    assert!(
        !table.contains("analysed") && !table.contains("B after"),
        "{table}"
    );
}
