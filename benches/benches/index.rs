//! Indexing speed: games per second from record files to a committed index (store, position
//! table, metadata), on one corpus (`qipu_benches::index_corpus`).
//!
//! `cargo bench -p qipu-benches --bench index`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use index::{build, BuildOptions};

fn bench(c: &mut Criterion) {
    let (name, input) = qipu_benches::index_corpus();
    let dir = std::env::temp_dir().join(format!("qipu-bench-index-{}", std::process::id()));
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    let games = build(&dir, std::slice::from_ref(&input), &opts, |_| {})
        .unwrap()
        .added
        .games;
    eprintln!("corpus: {name} ({games} games)");
    let mut g = c.benchmark_group("index");
    g.sample_size(10);
    g.throughput(Throughput::Elements(games));
    g.bench_function(format!("build {name}"), |b| {
        b.iter(|| {
            build(&dir, std::slice::from_ref(&input), &opts, |_| {})
                .unwrap()
                .added
                .games
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
