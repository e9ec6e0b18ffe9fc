//! Query latency per kind on an index of one corpus (`qipu_benches::index_corpus`): the empty
//! board with its continuation table, a common opening, a rare deep position (found by replay), a
//! corner pattern, a move sequence and a metadata query; and the cost of following every game's
//! stones, with the stored captures and with the rules engine.
//!
//! `cargo bench -p qipu-benches --bench search`

use criterion::{criterion_group, criterion_main, Criterion};
use goban::{Color, Point};
use index::{build, BuildOptions, Index};
use search::query::{parse_pattern, position_from_points};
use search::{
    find_pattern, find_position, find_sequence, PatternQuery, PositionQuery, SequenceQuery,
};

fn pt(s: &str) -> Point {
    Point::parse_sgf(s.as_bytes()).unwrap()
}

fn bench(c: &mut Criterion) {
    let (name, input) = qipu_benches::index_corpus();
    let dir = std::env::temp_dir().join(format!("qipu-bench-search-{}", std::process::id()));
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir, &[input], &opts, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    eprintln!("corpus: {name} ({} games)", index.len());
    let position = |b: &[&str], w: &[&str]| PositionQuery {
        position: position_from_points(
            19,
            19,
            &b.iter().map(|s| pt(s)).collect::<Vec<_>>(),
            &w.iter().map(|s| pt(s)).collect::<Vec<_>>(),
        )
        .unwrap(),
        symmetry: true,
        swap_colors: false,
        to_move: None,
    };
    let empty = position(&[], &[]);
    let opening = position(&["pd", "dp"], &["dd", "pp"]);
    // A deep position of a real game: the final position of the first game in the index.
    let deep = {
        let ops = index.ops(0);
        let (w, h) = (index.game(0).width, index.game(0).height);
        let mut rep = index::ops::Replayer::new(&ops, w, h, false).unwrap();
        while rep.next_position(|_| {}).is_some() {}
        PositionQuery {
            position: rep.board().position().clone(),
            symmetry: true,
            swap_colors: false,
            to_move: None,
        }
    };
    let (pw, ph, cells) =
        parse_pattern(".......\n.......\n.......\n...X...\n.....O.\n.......\n.......\n").unwrap();
    let pattern = PatternQuery {
        width: pw,
        height: ph,
        cells,
        offset: (0, 0),
        board: (19, 19),
        symmetry: true,
        swap_colors: false,
        anywhere: false,
    };
    let sequence = SequenceQuery {
        board: (19, 19),
        moves: vec![
            (Color::Black, pt("pd")),
            (Color::White, pt("qf")),
            (Color::Black, pt("nc")),
        ],
        in_order: true,
        symmetry: true,
        swap_colors: false,
        anywhere: false,
    };
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("empty board + continuations", |b| {
        b.iter(|| find_position(&index, &empty, None).hits.len())
    });
    g.bench_function("common opening + continuations", |b| {
        b.iter(|| find_position(&index, &opening, None).hits.len())
    });
    g.bench_function("deep position (replay)", |b| {
        b.iter(|| find_position(&index, &deep, None).hits.len())
    });
    g.bench_function("corner pattern", |b| {
        b.iter(|| find_pattern(&index, &pattern, None).hits.len())
    });
    g.bench_function("move sequence", |b| {
        b.iter(|| find_sequence(&index, &sequence, None).hits.len())
    });
    g.bench_function("metadata", |b| {
        b.iter(|| {
            index
                .meta()
                .search("winner:W AND date:[2015 TO 2017]")
                .unwrap()
                .len()
        })
    });
    g.finish();
    // What a pattern or deep-position scan pays per game: following every stored program.
    let mut g = c.benchmark_group("follow every game");
    g.sample_size(10);
    let games: Vec<(Vec<u16>, u8, u8)> = (0..index.len())
        .map(|i| (index.ops(i), index.game(i).width, index.game(i).height))
        .collect();
    let positions = |walk: bool| {
        let mut n = 0u64;
        for (ops, w, h) in &games {
            if walk {
                let mut wk = index::ops::Walker::new(ops, *w, *h, false).unwrap();
                while wk.next_position(|_| {}).is_some() {
                    n += 1;
                }
            } else {
                let mut rep = index::ops::Replayer::new(ops, *w, *h, false).unwrap();
                while rep.next_position(|_| {}).is_some() {
                    n += 1;
                }
            }
        }
        n
    };
    eprintln!("{} positions in all", positions(true));
    g.bench_function("stones only (Walker, stored captures)", |b| {
        b.iter(|| positions(true))
    });
    g.bench_function("rules engine (Replayer)", |b| b.iter(|| positions(false)));
    g.finish();
    drop(index);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
