//! Query latency per kind on an index of one corpus (`qipu_benches::index_corpus`): the empty
//! board with its continuation table, a common opening, a rare deep position (found by replay), a
//! corner pattern, a move sequence and a metadata query; and the cost of following every game's
//! stones, with the stored captures and with the rules engine.
//!
//! `cargo bench -p qipu-benches --bench search`

use criterion::{criterion_group, criterion_main, Criterion};
use index::{build, BuildOptions, Index};
use qipu::Query;

fn bench(c: &mut Criterion) {
    let (name, input) = qipu_benches::index_corpus();
    let dir = std::env::temp_dir().join(format!("qipu-bench-search-{}", std::process::id()));
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    build(&dir, &[input], &opts, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    // Queries go through the library's face, as every client's do; `limit(Some(0))` leaves out
    // looking up the hit games' information, which is not search work.
    let face = qipu::Index::open(&dir).unwrap();
    eprintln!("corpus: {name} ({} games)", index.len());
    let ask = |q: &Query| face.search(q).unwrap().summary.games;
    let empty = Query::points(19, "", "").unwrap().limit(Some(0));
    let opening = Query::points(19, "pd dp", "dd pp").unwrap().limit(Some(0));
    // A deep position of a real game: the final position of the first game in the index.
    let deep = Query::from_record(&face.record(0).unwrap(), None)
        .unwrap()
        .limit(Some(0));
    let pattern = Query::pattern(".......\n.......\n.......\n...X...\n.....O.\n.......\n.......\n")
        .unwrap()
        .limit(Some(0));
    let sequence = Query::moves("B[pd] W[qf] B[nc]", 19)
        .unwrap()
        .limit(Some(0));
    let metadata = Query::metadata("winner:W AND date:[2015 TO 2017]").limit(Some(0));
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("empty board + continuations", |b| b.iter(|| ask(&empty)));
    g.bench_function("common opening + continuations", |b| {
        b.iter(|| ask(&opening))
    });
    g.bench_function("deep position (replay)", |b| b.iter(|| ask(&deep)));
    g.bench_function("corner pattern", |b| b.iter(|| ask(&pattern)));
    g.bench_function("move sequence", |b| b.iter(|| ask(&sequence)));
    g.bench_function("metadata", |b| b.iter(|| ask(&metadata)));
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
    drop((index, face));
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
