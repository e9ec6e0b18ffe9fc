//! Several indexes searched as one ([`qipu::Shards`]) answer exactly as one index built from all
//! their inputs in the same order: the same hits (same game numbers, information and copy
//! marks), continuation tables (with their examples), profiles and counts — for every oracle
//! position and pattern probe of fox-pro, for sequences and game information, with filters,
//! sorts and pages, with copies counted once and each. One part holds exact copies of games of
//! another (with other players and dates), so that copies across indexes are exercised.

use std::path::{Path, PathBuf};

use qipu::{build, Answer, BuildOptions, Index, Query, Shards, Sort};
use testdata::{dataset, lines, shared, Scratch};

/// An answer without its timings, which differ from run to run.
fn without_time(mut a: Answer) -> Answer {
    a.timings = Default::default();
    a
}

/// Asserts two answers equal, naming the first part that differs (a whole answer is too long
/// to read in a failure).
fn same(got: &Answer, want: &Answer, what: &str) {
    assert_eq!(got.summary, want.summary, "{what}: summary");
    for (i, (g, w)) in got.hits.iter().zip(&want.hits).enumerate() {
        assert_eq!(g, w, "{what}: hit {i}");
    }
    assert_eq!(got.hits.len(), want.hits.len(), "{what}: hits");
    for (i, (g, w)) in got
        .continuations
        .iter()
        .zip(&want.continuations)
        .enumerate()
    {
        assert_eq!(g, w, "{what}: continuation {i}");
    }
    assert_eq!(
        got.continuations.len(),
        want.continuations.len(),
        "{what}: rows"
    );
    assert_eq!(got.profile, want.profile, "{what}: profile");
    assert_eq!(got, want, "{what}");
}

/// An index of `inputs`, keeping pre-aggregated continuations for positions reached twice in
/// a segment (not 2,000, so that the small parts, the copies' among them, have them too): a
/// part some of whose games count through another must not answer from them.
fn index(dir: &Path, inputs: &[PathBuf]) -> Index {
    let options = BuildOptions {
        aggregate_min: 2,
        ..BuildOptions::default()
    };
    build(dir, inputs, &options, |_| {}).unwrap();
    Index::open(dir).unwrap()
}

/// Exact copies of the first `n` records of `from` (main lines unchanged, other players and a
/// later date), written into `to`.
fn copies(from: &Path, to: &Path, n: usize) -> usize {
    std::fs::create_dir_all(to).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(from)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    let mut written = 0;
    for (i, f) in files.iter().take(n).enumerate() {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        // The root's own properties change; the moves stay as they were.
        let Some(at) = text.find("(;") else { continue };
        let copy = format!(
            "{}(;PB[Copy Black {i}]PW[Copy White {i}]DT[2031-0{}-01]{}",
            &text[..at],
            1 + i % 9,
            text[at + 2..].replace("DT[", "XD[")
        );
        std::fs::write(to.join(format!("copy-{i}.sgf")), copy).unwrap();
        written += 1;
    }
    written
}

#[test]
fn shards_answer_as_one_index_of_all_their_games() {
    let (Some(shared), Some(fox)) = (shared(), dataset("fox-pro")) else {
        return;
    };
    let oracle = shared.join("oracle/fox-pro");
    let scratch = Scratch::new("shards");
    let copied = copies(&fox.join("1p"), &scratch.0.join("copies"), 40);
    assert!(copied > 30, "copies written: {copied}");
    let ranks = |r: std::ops::RangeInclusive<u32>| -> Vec<PathBuf> {
        r.map(|p| fox.join(format!("{p}p"))).collect()
    };
    let (first, second, third) = (ranks(1..=5), ranks(6..=9), vec![scratch.0.join("copies")]);
    let all: Vec<PathBuf> = [first.clone(), second.clone(), third.clone()].concat();
    let one = index(&scratch.0.join("one"), &all);
    let set = Shards::of(vec![
        index(&scratch.0.join("a"), &first),
        index(&scratch.0.join("b"), &second),
        index(&scratch.0.join("c"), &third),
    ])
    .unwrap();
    assert_eq!(set.len(), one.len());
    for g in [0, set.indexes()[0].len(), one.len() - 1] {
        assert_eq!(set.game(g).unwrap(), one.game(g).unwrap(), "game {g}");
        assert_eq!(set.record(g).unwrap(), one.record(g).unwrap(), "game {g}");
    }
    let (a, b) = (set.stats(10).unwrap(), one.stats(10).unwrap());
    assert_eq!(
        (a.games, a.distinct, a.duplicates, a.files, a.rejected),
        (b.games, b.distinct, b.duplicates, b.files, b.rejected)
    );
    assert!(a.duplicates >= copied as u64);
    assert_eq!(a.date_range, b.date_range);
    assert_eq!(a.top_players, b.top_players);
    assert_eq!(a.top_events, b.top_events);
    // The copies are copies in the one index, and in the set across its indexes.
    let last = one.len() - 1;
    assert!(one.game(last).unwrap().copy && set.game(last).unwrap().copy);

    let mut queries: Vec<(String, Query)> = Vec::new();
    for probe in lines(&oracle.join("positions.jsonl")) {
        let bytes = std::fs::read(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        let q = Query::from_record(&bytes, None)
            .unwrap()
            .symmetry(probe["symmetry"].as_bool().unwrap());
        queries.push((probe["id"].as_str().unwrap().to_string(), q));
    }
    for probe in lines(&oracle.join("patterns.jsonl")) {
        let text = std::fs::read_to_string(oracle.join(probe["query"].as_str().unwrap())).unwrap();
        let q = Query::pattern(&text)
            .unwrap()
            .symmetry(probe["symmetry"].as_bool().unwrap());
        queries.push((probe["id"].as_str().unwrap().to_string(), q));
    }
    let empty = Query::points(19, "", "").unwrap();
    queries.extend([
        ("empty board".into(), empty.clone()),
        ("empty board by month".into(), empty.clone().by_month(true)),
        (
            "empty board since 2016, newest, a page".into(),
            empty
                .clone()
                .since("2016")
                .unwrap()
                .sort(Sort::Newest)
                .offset(7)
                .limit(Some(30)),
        ),
        (
            "empty board, strongest".into(),
            empty.clone().sort(Sort::Strongest).limit(Some(50)),
        ),
        (
            "empty board, Black won".into(),
            empty.clone().filter("winner:B"),
        ),
        (
            "3-3 invasion".into(),
            Query::moves("B[pd] W[qc] B[qd] W[pc]", 19).unwrap(),
        ),
        (
            "3-3 invasion, any gap".into(),
            Query::moves("B[pd] W[qc] B[qd] W[pc]", 19)
                .unwrap()
                .any_gap(true),
        ),
        (
            "games of 2031".into(),
            Query::metadata("date:2031").sort(Sort::Longest),
        ),
        (
            "games within a set".into(),
            Query::points(19, "pd", "")
                .unwrap()
                .within((0..one.len()).step_by(3)),
        ),
    ]);
    let mut checked = 0;
    for (id, q) in &queries {
        for with_copies in [false, true] {
            let q = q.clone().with_copies(with_copies);
            let want = without_time(one.search(&q).unwrap());
            let got = without_time(set.search(&q).unwrap());
            same(&got, &want, &format!("{id}, with copies {with_copies}"));
            checked += 1;
        }
    }
    // Copies of games of the first part are in the answer and counted once by default.
    let q = Query::points(19, "", "").unwrap();
    let once = set.search(&q).unwrap();
    let each = set.search(&q.with_copies(true)).unwrap();
    let sum = |a: &Answer| a.continuations.iter().map(|c| c.count).sum::<u32>();
    assert!(
        sum(&once) + copied as u32 <= sum(&each),
        "copies counted once"
    );
    assert!(checked > 200, "{checked} queries compared");
}

#[test]
fn a_set_refuses_no_index_and_the_same_index_twice() {
    let scratch = Scratch::new("shards-refusals");
    let games = scratch.write("g/a.sgf", b"(;SZ[19];B[pd];W[dp])");
    let dir = scratch.0.join("ix");
    build(&dir, &[games], &BuildOptions::default(), |_| {}).unwrap();
    let e = Shards::open(Vec::<PathBuf>::new()).err().unwrap();
    assert_eq!(e.kind(), qipu::ErrorKind::BadQuery);
    let e = Shards::open([&dir, &dir]).err().unwrap();
    assert!(e.to_string().contains("given twice"), "{e}");
    let e = Shards::open([dir.clone(), scratch.0.join("nowhere")])
        .err()
        .unwrap();
    assert_eq!(e.kind(), qipu::ErrorKind::NoIndex);
    let set = Shards::open([&dir]).unwrap();
    assert_eq!(set.len(), 1);
    assert!(set.game(1).is_err());
    assert_eq!(set.locate(0), Some((0, 0)));
    assert_eq!(set.locate(1), None);
}

/// A page of hits in game order is read from the table without the other hits (the cells give
/// the counts), in each index of a set as in one index; and a part whose first segments keep
/// cells while a later one holds copies of an earlier index's games (counted there, not here)
/// profiles its hits as one index does.
#[test]
fn a_set_pages_and_profiles_as_one_index_with_copies_counted_in_another() {
    let Some(fox) = dataset("fox-pro") else {
        return;
    };
    let scratch = Scratch::new("shards-pages");
    let copied = copies(&fox.join("1p"), &scratch.0.join("copies"), 40);
    assert!(copied > 30, "copies written: {copied}");
    let first = vec![fox.join("1p"), fox.join("2p")];
    let second = vec![fox.join("6p"), scratch.0.join("copies")];
    let one = index(
        &scratch.0.join("one"),
        &[first.clone(), second.clone()].concat(),
    );
    // The second part in segments of 100 games: its last ones hold the copies, read last;
    // those before keep cells.
    let small = BuildOptions {
        aggregate_min: 2,
        segment_games: 100,
        ..BuildOptions::default()
    };
    build(scratch.0.join("b"), &second, &small, |_| {}).unwrap();
    let set = Shards::of(vec![
        index(&scratch.0.join("a"), &first),
        Index::open(scratch.0.join("b")).unwrap(),
    ])
    .unwrap();
    let boundary = set.indexes()[0].len() as usize;
    let empty = Query::points(19, "", "").unwrap();
    let star = Query::points(19, "pd", "").unwrap();
    let queries = [
        ("empty board", empty.clone()),
        ("empty board, first page", empty.clone().limit(Some(20))),
        (
            "empty board, a page across the indexes",
            empty.clone().offset(boundary - 10).limit(Some(25)),
        ),
        (
            "empty board since 2017, a page",
            empty
                .clone()
                .since("2017")
                .unwrap()
                .offset(3)
                .limit(Some(9)),
        ),
        (
            "a 4-4 stone, a page",
            star.clone().offset(40).limit(Some(10)),
        ),
        (
            "a 4-4 stone, any colour, even games",
            star.swap_colors(true)
                .handicap(qipu::Handicap::Even)
                .limit(Some(15)),
        ),
        ("past the last hit", empty.offset(1_000_000).limit(Some(5))),
        (
            "games of 2017 on, a page across the indexes",
            Query::metadata("date:[2017 TO 2030]")
                .offset(boundary - 10)
                .limit(Some(25)),
        ),
        (
            "long games, first page",
            Query::metadata("moves:[200 TO 400]").limit(Some(10)),
        ),
    ];
    for (name, q) in &queries {
        for with_copies in [false, true] {
            let q = q.clone().with_copies(with_copies).by_month(true);
            let want = without_time(one.search(&q).unwrap());
            let got = without_time(set.search(&q).unwrap());
            same(&got, &want, &format!("{name}, with copies {with_copies}"));
        }
    }
    // A metadata answer lists a page but counts and profiles every game it selects.
    let answer = |in_set: bool, q: &Query| {
        without_time(if in_set { set.search(q) } else { one.search(q) }.unwrap())
    };
    for in_set in [false, true] {
        let q = Query::metadata("moves:[150 TO 300] OR winner:W").by_month(true);
        let all = answer(in_set, &q.clone().limit(None));
        let page = answer(in_set, &q.offset(5).limit(Some(10)));
        assert!(all.summary.games > 100, "{} games", all.summary.games);
        assert_eq!(page.summary.games, all.summary.games);
        assert_eq!(page.profile, all.profile);
        assert_eq!(page.hits, all.hits[5..15]);
    }
}
