//! Pre-aggregated continuations must not change an answer: every position query answered from
//! the index's cells (continuation table, date profile, summary, hits) equals the same query
//! answered by scanning its occurrences (`Query::force_scan`), whole and a page at a time (a
//! page in game order reads only its hits), on every oracle position probe and
//! on random positions cut from random games, with each filter the cells apply and without, with
//! and without copies counted; and after an incremental run that changed a file (hiding its old
//! games), whose segment must then answer from its entries.
//!
//! The index is built with a low aggregation threshold, so that the small corpora of the tests
//! have cells for most of their positions, in several segments.

use std::path::{Path, PathBuf};

use qipu::{build, BuildOptions, Handicap, Index, Query};
use testdata::{dataset, lines, shared, Rng, Scratch};

fn options(segment_games: u32) -> BuildOptions {
    BuildOptions {
        rebuild: true,
        segment_games,
        aggregate_min: 2,
        ..BuildOptions::default()
    }
}

/// Every record file under `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "sgf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The record with its date replaced (or given), so that a copy of it falls in another cell.
fn redated(record: &[u8], date: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(record).into_owned();
    let out = match text.find("DT[") {
        Some(at) => {
            let end = at + text[at..].find(']').unwrap();
            format!("{}DT[{date}{}", &text[..at], &text[end..])
        }
        None => text.replacen("(;", &format!("(;DT[{date}]"), 1),
    };
    out.into_bytes()
}

/// The filters cells apply, each alone and some together.
/// A named way to narrow a query.
type Narrowing = (&'static str, fn(Query) -> Query);

fn narrowed() -> Vec<Narrowing> {
    vec![
        ("none", |q| q),
        ("since", |q| q.since("2017-03").unwrap()),
        ("until", |q| q.until("2017").unwrap()),
        ("since-until", |q| {
            q.since("2016-11").unwrap().until("2018-02").unwrap()
        }),
        ("min-rank", |q| q.min_rank("9d").unwrap()),
        ("even", |q| q.handicap(Handicap::Even)),
        ("handicap", |q| q.handicap(Handicap::Handicap)),
        ("all", |q| {
            q.since("2015")
                .unwrap()
                .min_rank("5d")
                .unwrap()
                .handicap(Handicap::Even)
        }),
    ]
}

/// Asks `q` both ways, with every filter and copies either way; a description of each
/// difference goes into `failures`.
fn compare(index: &Index, name: &str, q: &Query, failures: &mut Vec<String>) {
    for (filter, narrow) in narrowed() {
        for with_copies in [false, true] {
            let q = narrow(q.clone()).with_copies(with_copies).by_month(true);
            let fast = index.search(&q).unwrap();
            let slow = index.search(&q.clone().force_scan(true)).unwrap();
            let what = format!("{name} ({filter}, with copies {with_copies})");
            if fast.continuations != slow.continuations {
                let a: Vec<_> = fast
                    .continuations
                    .iter()
                    .filter(|c| !slow.continuations.contains(c))
                    .take(2)
                    .collect();
                let b: Vec<_> = slow
                    .continuations
                    .iter()
                    .filter(|c| !fast.continuations.contains(c))
                    .take(2)
                    .collect();
                failures.push(format!("{what}: tables differ: cells {a:?}, scan {b:?}"));
            }
            if fast.profile != slow.profile {
                failures.push(format!(
                    "{what}: profiles differ: cells {:?}, scan {:?}",
                    fast.profile, slow.profile
                ));
            }
            if fast.summary != slow.summary || fast.hits != slow.hits {
                failures.push(format!(
                    "{what}: hits differ: {:?} against {:?}",
                    fast.summary, slow.summary
                ));
            }
            // A page of hits in game order is read without the others: the same page, the
            // same counts.
            for (offset, limit) in [(0, 0), (0, 20), (13, 5), (1_000_000, 3)] {
                let q = q.clone().offset(offset).limit(Some(limit));
                let fast = index.search(&q).unwrap();
                let slow = index.search(&q.clone().force_scan(true)).unwrap();
                if fast.summary != slow.summary
                    || fast.hits != slow.hits
                    || fast.continuations != slow.continuations
                    || fast.profile != slow.profile
                {
                    failures.push(format!(
                        "{what}, offset {offset} limit {limit}: answers differ: {:?} against {:?}",
                        fast.summary, slow.summary
                    ));
                }
            }
        }
    }
}

/// Positions cut from `n` random games of `records` at a random move (most within the
/// position table's reach, a few past it).
fn random_positions(records: &[PathBuf], n: usize, dice: &mut Rng) -> Vec<(String, Query)> {
    let mut out = Vec::new();
    while out.len() < n {
        let file = &records[dice.below(records.len() as u64) as usize];
        let at = dice.below(24) as usize;
        let bytes = std::fs::read(file).unwrap();
        let Ok(q) = Query::from_record(&bytes, Some(at)) else {
            continue;
        };
        let name = format!("{}@{at}", file.display());
        // Some with colours swapped too, some in one orientation only.
        let q = match out.len() % 5 {
            0 => q.swap_colors(true),
            1 => q.symmetry(false),
            _ => q,
        };
        out.push((name, q));
    }
    out
}

fn aggregated_bytes(index: &Index) -> u64 {
    index
        .stats(0)
        .unwrap()
        .parts
        .iter()
        .find(|(name, _)| name == "aggregates")
        .map_or(0, |p| p.1)
}

#[test]
fn cells_answer_as_the_scan_does_on_every_oracle_probe_and_random_positions() {
    let (Some(shared), Some(fox)) = (shared(), dataset("fox-pro")) else {
        return;
    };
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
    let records = files(&fox);
    // Copies of fox-pro games: exact, and with other dates (so that a set of copies spans
    // cells and filters keep some of its games only).
    let copies = Scratch::new("aggregates-copies");
    for (i, file) in records.iter().step_by(997).enumerate() {
        let bytes = std::fs::read(file).unwrap();
        copies.write(&format!("same-{i}.sgf"), &bytes);
        copies.write(&format!("older-{i}.sgf"), &redated(&bytes, "2014-06-02"));
        copies.write(&format!("undated-{i}.sgf"), &redated(&bytes, "?"));
    }
    // Games reaching two images of one position (a 4-4 stone, then another 4-4 stone instead
    // of it, by setup in the node of the next move): each one hit game, counted once. Two of
    // them, so that both images have cells in their segment.
    for (i, last) in ["dp", "cq"].iter().enumerate() {
        copies.write(
            &format!("images-{i}.sgf"),
            format!(
                "(;SZ[19]DT[2017-05-01]BR[9d]WR[9d]RE[B+R];B[dd];AE[dd]AB[pd]W[];B[qq];W[{last}])"
            )
            .as_bytes(),
        );
    }
    let dir = Scratch::new("aggregates-index");
    build(
        &dir.0,
        &[fox.clone(), samples, copies.0.clone()],
        &options(4_000),
        |_| {},
    )
    .unwrap();
    let index = Index::open(&dir.0).unwrap();
    assert!(aggregated_bytes(&index) > 0, "the index keeps cells");

    let mut failures = Vec::new();
    let mut asked = 0;
    let oracle = shared.join("oracle").join("fox-pro");
    for probe in lines(&oracle.join("positions.jsonl")) {
        let id = probe["id"].as_str().unwrap();
        let bytes = std::fs::read(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        let q = Query::from_record(&bytes, None)
            .unwrap()
            .symmetry(probe["symmetry"].as_bool().unwrap());
        compare(&index, id, &q, &mut failures);
        asked += 1;
    }
    let empty = Query::points(19, "", "").unwrap();
    compare(&index, "the empty board", &empty, &mut failures);
    let star = Query::points(19, "dd", "").unwrap();
    compare(&index, "a 4-4 stone", &star, &mut failures);
    compare(
        &index,
        "a 4-4 stone, any colour",
        &star.swap_colors(true),
        &mut failures,
    );
    for (name, q) in random_positions(&records, 40, &mut Rng::new(21)) {
        compare(&index, &name, &q, &mut failures);
        asked += 1;
    }
    assert!(asked >= 100);
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_changed_file_leaves_answers_equal_to_the_scan_and_to_a_fresh_index() {
    let Some(fox) = dataset("fox-pro") else {
        return;
    };
    let records = files(&fox);
    let inputs = Scratch::new("aggregates-incremental-inputs");
    let chosen: Vec<&PathBuf> = records.iter().step_by(25).collect();
    for (i, file) in chosen.iter().enumerate() {
        inputs.write(&format!("g{i:03}.sgf"), &std::fs::read(file).unwrap());
    }
    // An exact copy, read after it, so that the changed game is a stored original whose
    // positions serve the copy once it is hidden.
    inputs.write("z-copy.sgf", &std::fs::read(chosen[3]).unwrap());
    let dir = Scratch::new("aggregates-incremental");
    build(
        &dir.0,
        std::slice::from_ref(&inputs.0),
        &options(150),
        |_| {},
    )
    .unwrap();
    // The file changes (another date): an incremental run hides its old game and reads it
    // again into a new segment.
    let changed = inputs.0.join("g003.sgf");
    let bytes = std::fs::read(&changed).unwrap();
    std::fs::write(&changed, redated(&bytes, "2001-01-01")).unwrap();
    let again = BuildOptions {
        rebuild: false,
        ..options(150)
    };
    let summary = build(&dir.0, std::slice::from_ref(&inputs.0), &again, |_| {}).unwrap();
    assert_eq!(summary.added.games, 1, "the changed file is read again");
    let index = Index::open(&dir.0).unwrap();
    assert!(aggregated_bytes(&index) > 0);
    let fresh_dir = Scratch::new("aggregates-incremental-fresh");
    build(
        &fresh_dir.0,
        std::slice::from_ref(&inputs.0),
        &options(150),
        |_| {},
    )
    .unwrap();
    let fresh = Index::open(&fresh_dir.0).unwrap();

    let mut failures = Vec::new();
    let mut queries = vec![(
        "the empty board".to_string(),
        Query::points(19, "", "").unwrap(),
    )];
    let changed_game = std::fs::read(&changed).unwrap();
    for at in [0, 1, 2, 3, 5, 8] {
        queries.push((
            format!("the changed game at {at}"),
            Query::from_record(&changed_game, Some(at)).unwrap(),
        ));
    }
    queries.extend(random_positions(&records, 10, &mut Rng::new(5)));
    for (name, q) in &queries {
        compare(&index, name, q, &mut failures);
        // Each copy counted: which of a set of copies counts once depends on the order the
        // games were read in, which the two indexes do not share.
        for (filter, narrow) in narrowed() {
            let q = narrow(q.clone()).by_month(true).with_copies(true);
            let (a, b) = (index.search(&q).unwrap(), fresh.search(&q).unwrap());
            if a.continuations != b.continuations || a.profile != b.profile {
                failures.push(format!(
                    "{name} ({filter}): the fresh index answers otherwise"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn variation_lines_stay_out_of_the_cells() {
    let (Some(fox), Some(diverse)) = (dataset("fox-pro"), dataset("diverse")) else {
        return;
    };
    let records = files(&fox);
    // Kogo's joseki dictionary (7,720 variation lines of one record, reaching the common
    // corner positions thousands of times) beside games played that reach them too.
    let inputs = Scratch::new("aggregates-lines-inputs");
    for (i, file) in records.iter().step_by(40).enumerate() {
        inputs.write(&format!("g{i:04}.sgf"), &std::fs::read(file).unwrap());
    }
    let kogo = diverse.join("torture/kogo_joseki_dictionary_gosei");
    let dir = Scratch::new("aggregates-lines");
    let with_lines = BuildOptions {
        variations: Some(true),
        ..options(3_000)
    };
    build(&dir.0, &[inputs.0.clone(), kogo], &with_lines, |_| {}).unwrap();
    let index = Index::open(&dir.0).unwrap();
    assert!(aggregated_bytes(&index) > 0);

    let mut failures = Vec::new();
    let mut queries = vec![
        (
            "the empty board".to_string(),
            Query::points(19, "", "").unwrap(),
        ),
        (
            "a 4-4 stone".to_string(),
            Query::points(19, "pd", "").unwrap(),
        ),
        (
            "4-4, low approach".to_string(),
            Query::points(19, "pd", "qf").unwrap(),
        ),
        (
            "3-4, high approach".to_string(),
            Query::points(19, "qd", "pe").unwrap(),
        ),
    ];
    queries.extend(random_positions(&records, 20, &mut Rng::new(9)));
    let mut lines_seen = 0;
    for (name, q) in &queries {
        compare(&index, name, q, &mut failures);
        let a = index.search(q).unwrap();
        lines_seen += a.continuations.iter().map(|c| c.variations).sum::<u32>();
    }
    // The dictionary's lines were counted (apart from the games played), so the comparison
    // covered them.
    assert!(lines_seen > 20, "{lines_seen} variation positions");
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
