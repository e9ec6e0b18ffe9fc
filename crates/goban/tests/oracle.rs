//! Final positions against the oracle: every game an independent implementation (sgfmill) replayed
//! must end, under qipu, on exactly the same stones, with the same board size and move count.
//!
//! The oracle and datasets live outside the repository (`../shared`, found by `testdata::shared`).
//! Without them these tests say so and pass, unless `QIPU_REQUIRE_DATASETS=1` (as in CI), where their absence is a failure.

use std::collections::{BTreeMap, HashSet};

use goban::{replay_main_line, Color};
use serde_json::Value;
use sgf::Records;
use testdata::{lines, shared};

fn check(dataset: &str) {
    let Some(shared) = shared() else { return };
    let oracle = shared.join("oracle").join(dataset);
    let data = shared.join("datasets").join(dataset);
    let excluded: HashSet<(String, Option<u64>)> = lines(&oracle.join("excluded.jsonl"))
        .iter()
        .map(|v| (v["file"].as_str().unwrap().to_string(), v["game"].as_u64()))
        .collect();
    let mut by_file: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for v in lines(&oracle.join("universe.jsonl")) {
        by_file
            .entry(v["file"].as_str().unwrap().to_string())
            .or_default()
            .push(v);
    }
    let (mut checked, mut failures) = (0usize, Vec::new());
    for (file, games) in &by_file {
        let bytes = std::fs::read(data.join(file)).unwrap();
        let records = Records::read(&bytes);
        for g in games {
            let index = g["game"].as_u64().unwrap();
            if excluded.contains(&(file.clone(), Some(index))) {
                continue;
            }
            let tree = match records.game(index as usize) {
                Ok(t) => t,
                Err(d) => {
                    failures.push(format!("{file} game {index}: not read: {d}"));
                    continue;
                }
            };
            let r = match replay_main_line(&tree, None, true, |_, _| {}) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{file} game {index}: {e}"));
                    continue;
                }
            };
            checked += 1;
            let strings = |k: &str| -> Vec<String> {
                g[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect()
            };
            let got = (
                r.board.width() as u64,
                r.moves as u64,
                r.board.sgf_points(Color::Black),
                r.board.sgf_points(Color::White),
            );
            let want = (
                g["size"].as_u64().unwrap(),
                g["moves"].as_u64().unwrap(),
                strings("final_black"),
                strings("final_white"),
            );
            if got != want {
                failures.push(format!("{file} game {index}: got {got:?}, oracle {want:?}"));
            }
        }
    }
    eprintln!(
        "{dataset}: {checked} games checked, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} games differ from the oracle; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(checked > 0);
}

#[test]
fn fox_pro_final_positions_match_the_oracle() {
    check("fox-pro");
}

#[test]
fn diverse_final_positions_match_the_oracle() {
    check("diverse");
}
