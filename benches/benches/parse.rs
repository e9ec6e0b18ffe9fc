//! Parsing speed: splitting a collection into games, and splitting + building every game tree,
//! in MB/s of SGF, next to the `sgf-parse` crate on the same bytes.
//!
//! `cargo bench -p qipu-benches --bench parse`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sgf::{parse_game, split_games, Dialect};

fn parse(c: &mut Criterion) {
    let corpus = qipu_benches::tygem_month();
    let bytes = &corpus.bytes[..];
    let games = split_games(bytes);
    eprintln!(
        "corpus: {} ({:.1} MB, {} games)",
        corpus.name,
        bytes.len() as f64 / 1e6,
        games.len()
    );
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("qipu split", |b| b.iter(|| split_games(bytes).len()));
    g.bench_function("qipu split+tree", |b| {
        b.iter(|| {
            let mut nodes = 0;
            for span in split_games(bytes) {
                if let Ok(t) = parse_game(bytes, span, Dialect::Sgf) {
                    nodes += t.node_count();
                }
            }
            nodes
        })
    });
    if let Ok(text) = std::str::from_utf8(bytes) {
        g.bench_function("sgf-parse crate", |b| {
            b.iter(|| sgf_parse::parse(text).map(|v| v.len()).unwrap_or(0))
        });
    } else {
        eprintln!("sgf-parse skipped: corpus is not UTF-8");
    }
    g.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
