//! What an explorer's answer costs beyond its hits: every oracle pattern and position probe of
//! `../shared/oracle` (fox-pro and diverse), and the 3-3 invasion as a move sequence, asked of
//! an index in one process; per query the search time, the part of it spent adding up the
//! continuation table and the date profile ([`qipu::Timings::tally_ms`]), and the rest: finding
//! the hits. Each query is asked once to warm up, then `ROUNDS` times; medians are printed.
//! Nothing here is a test: it reports numbers.
//!
//! `cargo run --release -p qipu --example tally -- INDEX_DIR [ROUNDS]`

use std::path::{Path, PathBuf};

use qipu::{Index, Query};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n => v[n / 2],
    }
}

/// The probes of one oracle file: (id, query).
fn probes(oracle: &Path, file: &str, read: impl Fn(&[u8]) -> Query) -> Vec<(String, Query)> {
    let Ok(text) = std::fs::read_to_string(oracle.join(file)) else {
        return Vec::new();
    };
    text.lines()
        .map(|line| {
            let p: serde_json::Value = serde_json::from_str(line).expect("an oracle line");
            let bytes = std::fs::read(oracle.join(p["query"].as_str().unwrap())).unwrap();
            let q = read(&bytes).symmetry(p["symmetry"].as_bool().unwrap());
            (p["id"].as_str().unwrap().to_string(), q)
        })
        .collect()
}

fn main() -> Result<(), qipu::Error> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("an index folder"));
    let rounds: usize = args
        .next()
        .map_or(5, |r| r.parse().expect("a number of rounds"));
    let index = Index::open(&dir)?;
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracle");
    let mut kinds: Vec<(&str, Vec<(String, Query)>)> = vec![
        ("pattern", Vec::new()),
        ("position", Vec::new()),
        ("sequence", Vec::new()),
    ];
    for set in ["fox-pro", "diverse"] {
        let oracle = shared.join(set);
        let pattern = |b: &[u8]| Query::pattern(&String::from_utf8_lossy(b)).unwrap();
        kinds[0]
            .1
            .extend(probes(&oracle, "patterns.jsonl", pattern));
        let position = |b: &[u8]| Query::from_record(b, None).unwrap();
        kinds[1]
            .1
            .extend(probes(&oracle, "positions.jsonl", position));
    }
    let invasion = Query::moves("B[pd] W[qc] B[qd] W[pc]", 19)?;
    kinds[2].1.push(("3-3 invasion".into(), invasion));
    let mut notes = Vec::new();
    println!("| kind | queries | hit games p50 | search p50 | tally p50 | tally ÷ hits p50 | p95 | max | above 2 |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (kind, queries) in &kinds {
        if queries.is_empty() {
            continue;
        }
        let (mut games, mut search, mut tally, mut ratio) = (vec![], vec![], vec![], vec![]);
        let mut above_two = Vec::new();
        for (id, q) in queries {
            let q = q.clone().limit(Some(10));
            index.search(&q)?;
            let (mut s, mut t) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                let a = index.search(&q)?;
                s.push(a.timings.search_ms);
                t.push(a.timings.tally_ms);
                games.push(a.summary.games as f64);
            }
            let (s, t) = (median(s), median(t));
            search.push(s);
            tally.push(t);
            ratio.push(t / (s - t).max(1e-3));
            if t > 2.0 * (s - t) {
                above_two.push(format!("{kind} {id}: search {s:.2} ms, tally {t:.2} ms"));
            }
        }
        let above = ratio.iter().filter(|&&r| r > 2.0).count();
        let mut sorted = ratio.clone();
        sorted.sort_by(f64::total_cmp);
        let p95 = sorted[(sorted.len() * 95 / 100).min(sorted.len() - 1)];
        println!(
            "| {kind} | {} | {:.0} | {:.2} ms | {:.2} ms | {:.2} | {:.2} | {:.2} | {above} |",
            queries.len(),
            median(games),
            median(search),
            median(tally),
            median(ratio),
            p95,
            sorted.last().copied().unwrap_or(f64::NAN),
        );
        notes.extend(above_two);
    }
    for note in notes {
        println!("- {note}");
    }
    Ok(())
}
