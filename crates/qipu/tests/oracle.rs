//! Every position and pattern probe of the oracle, answered from a freshly built index through
//! the library's face, must give exactly the oracle's hits and continuation tables (games the
//! oracle excluded aside).
//!
//! The oracle and datasets live outside the repository (`../shared`, found by `testdata::shared`).
//! Without them these tests say so and pass, unless `QIPU_REQUIRE_DATASETS=1` (as in CI), where their absence is a failure.

use qipu::{build, BuildOptions, Index, Query};
use serde_json::Value;
use testdata::oracle::{self, Hits, Table, Tenuki};
use testdata::{lines, shared};

/// Our table of an answer, as [`oracle::table`] reads the oracle's.
fn table_of(answer: &qipu::Answer) -> Table {
    answer
        .continuations
        .iter()
        .map(|c| {
            (
                c.color.letter().to_string(),
                c.point.map_or(String::new(), |p| p.sgf_string()),
                c.count as u64,
                c.tenuki as u64,
                c.black_wins as u64,
                c.white_wins as u64,
            )
        })
        .collect()
}

/// Compares a probe's continuation table with the oracle's.
fn compare_tables(id: &str, table: &Table, want: &Table, failures: &mut Vec<String>) {
    if table != want {
        let a: Vec<_> = table.difference(want).take(3).collect();
        let b: Vec<_> = want.difference(table).take(3).collect();
        failures.push(format!(
            "{id}: continuations differ; ours {a:?}; oracle {b:?}"
        ));
    }
}

/// Compares hit games (and, where the oracle lists them, the hits themselves) with a probe's.
fn compare_hits(id: &str, hits: &Hits, probe: &Value, failures: &mut Vec<String>) {
    if hits.len() as u64 != probe["hit_games"].as_u64().unwrap() {
        failures.push(format!(
            "{id}: {} hit games, oracle {}",
            hits.len(),
            probe["hit_games"]
        ));
    }
    if let Some(want) = probe["hits"].as_array().map(oracle::hits) {
        if *hits != want {
            let extra: Vec<_> = hits
                .iter()
                .filter(|h| want.get(h.0) != Some(h.1))
                .take(3)
                .collect();
            let missing: Vec<_> = want
                .iter()
                .filter(|h| hits.get(h.0) != Some(h.1))
                .take(3)
                .collect();
            failures.push(format!(
                "{id}: hits differ; ours not oracle's {extra:?}; oracle's not ours {missing:?}"
            ));
        }
    }
}

fn check(dataset: &str) {
    let Some(shared) = shared() else { return };
    let oracle = shared.join("oracle").join(dataset);
    let data = shared.join("datasets").join(dataset);
    let dir = std::env::temp_dir().join(format!("qipu-oracle-{dataset}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir, &[data], &opts, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    paths_agree_with_a_scan(&dir, &index);

    // The games the oracle replayed (excluded games and files it could not read neither hit nor
    // count; qipu reads some of those, e.g. UTF-16 files and files missing their `(`).
    let universe = oracle::universe(&oracle);
    let mut allowed = Vec::new();
    for g in 0..index.len() {
        let info = index.game(g).unwrap();
        if universe.contains(&(info.file, info.game_in_file as u64)) {
            allowed.push(g);
        }
    }
    // Hits by the oracle's game identity.
    let hits_of = |answer: &qipu::Answer| -> Hits {
        answer
            .hits
            .iter()
            .map(|h| {
                (
                    (h.info.file.clone(), h.info.game_in_file as u64),
                    h.moves.iter().map(|&m| m as u64).collect(),
                )
            })
            .collect()
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for probe in lines(&oracle.join("positions.jsonl")) {
        let id = probe["id"].as_str().unwrap();
        let bytes = std::fs::read(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        // The oracle counts every hit position in its tables, exact copies included: qipu
        // counts a copy once unless asked.
        let q = Query::from_record(&bytes, None)
            .unwrap()
            .symmetry(probe["symmetry"].as_bool().unwrap())
            .with_copies(true)
            .within(allowed.iter().copied());
        let answer = index.search(&q).unwrap();
        assert_eq!(
            answer.hits.len(),
            answer.summary.games,
            "no limit: every hit"
        );
        let hits = hits_of(&answer);
        checked += 1;
        compare_hits(id, &hits, &probe, &mut failures);
        compare_tables(
            id,
            &table_of(&answer),
            &oracle::probe_table(&probe, Tenuki::None),
            &mut failures,
        );
    }
    for probe in lines(&oracle.join("patterns.jsonl")) {
        let id = probe["id"].as_str().unwrap();
        let text = std::fs::read_to_string(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        // Every oracle diagram is a whole 19×19 board: the default board, anchored at 0,0.
        let q = Query::pattern(&text)
            .unwrap()
            .symmetry(probe["symmetry"].as_bool().unwrap())
            .with_copies(true)
            .within(allowed.iter().copied());
        let answer = index.search(&q).unwrap();
        let hits = hits_of(&answer);
        checked += 1;
        compare_hits(id, &hits, &probe, &mut failures);
        compare_tables(
            id,
            &table_of(&answer),
            &oracle::probe_table(&probe, Tenuki::Given),
            &mut failures,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{dataset}: {checked} probes checked, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} probes differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every game's [`Index::path`] (found by a binary search in a table of game ranges) is the
/// path the definition gives, taken here from the manifest file itself by brute force: the
/// first source in key order whose ranges hold the game, its file on disk, joined with the
/// member's path for a game of an archive.
fn paths_agree_with_a_scan(dir: &std::path::Path, index: &Index) {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("qipu-index.json")).unwrap()).unwrap();
    let sources: Vec<(&str, &Value)> = manifest["sources"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    let mut with_a_path = 0;
    for id in 0..index.len() {
        let holds = |info: &Value| {
            info["games"].as_array().unwrap().iter().any(|r| {
                let (a, b) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
                (a..b).contains(&u64::from(id))
            })
        };
        let want = sources
            .iter()
            .find(|(_, info)| holds(info))
            .and_then(|(key, info)| {
                let base = inputs::path_of_key(key)?;
                let (name, _) = index.identity(id).unwrap();
                let source_name = info["name"].as_str().unwrap();
                Some(
                    match name
                        .strip_prefix(source_name)
                        .and_then(|rest| rest.strip_prefix('/'))
                    {
                        Some(member) if !member.is_empty() => base.join(member),
                        _ => base,
                    },
                )
            });
        with_a_path += usize::from(want.is_some());
        assert_eq!(index.path(id), want, "game {id}");
    }
    assert!(with_a_path > 0, "games of files have paths");
    assert_eq!(index.path(index.len()), None, "past the last game");
}

#[test]
fn fox_pro_probes_match_the_oracle() {
    check("fox-pro");
}

#[test]
fn diverse_probes_match_the_oracle() {
    check("diverse");
}
