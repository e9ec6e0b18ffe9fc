//! Parsing speed: splitting a collection into games, and splitting + building every game tree,
//! in MB/s of SGF, next to the `sgf-parse` crate on the same bytes.
//!
//! Also the other formats (GIB, NGF, UGF/UGI, kifu-line pairs): every real file of `diverse/`
//! read and its games parsed, in MB/s and games/s of the original bytes.
//!
//! `cargo bench -p qipu-benches --bench parse`; `-- "split\+tree"` for the trees with and
//! without reading the engine evaluations.

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
    // What reading engine evaluations adds for games that carry none (the index asks every
    // game): beside "split+tree", the same with `sgf::eval::read` on each tree.
    g.bench_function("qipu split+tree+evals", |b| {
        b.iter(|| {
            let mut nodes = 0;
            for span in split_games(bytes) {
                if let Ok(t) = parse_game(bytes, span, Dialect::Sgf) {
                    nodes += t.node_count() + sgf::eval::read(&t).map_or(0, |e| e.count());
                }
            }
            nodes
        })
    });
    // The same reading alone, on trees parsed beforehand: its cost per game.
    let trees: Vec<_> = split_games(bytes)
        .into_iter()
        .filter_map(|span| parse_game(bytes, span, Dialect::Sgf).ok())
        .collect();
    g.bench_function("evals read alone", |b| {
        b.iter(|| {
            trees
                .iter()
                .map(|t| sgf::eval::read(t).map_or(0, |e| e.count()))
                .sum::<usize>()
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

/// Reads every game of `files` as `qipu index` would: recognise, convert, split, parse.
fn read_games(files: &[Vec<u8>]) -> usize {
    let mut nodes = 0;
    for f in files {
        let records = sgf::Records::read(f);
        for i in 0..records.len() {
            if let Ok(t) = records.game(i) {
                nodes += t.node_count();
            }
        }
    }
    nodes
}

fn formats(c: &mut Criterion) {
    let root = qipu_benches::root().join("../shared/datasets/diverse");
    let mut g = c.benchmark_group("formats");
    g.sample_size(20);
    for (name, dir) in [
        ("gib", "other_formats/gib"),
        ("ngf", "other_formats/ngf"),
        ("ugf", "other_formats/ugf_ugi"),
    ] {
        let files = qipu_benches::read_dir_files(&root.join(dir));
        if files.is_empty() {
            eprintln!("{name}: no files in {}", root.join(dir).display());
            continue;
        }
        let bytes: usize = files.iter().map(Vec::len).sum();
        let games: usize = files.iter().map(|f| sgf::Records::read(f).len()).sum();
        eprintln!(
            "{name}: {} files, {games} games, {bytes} bytes",
            files.len()
        );
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function(name, |b| b.iter(|| read_games(&files)));
    }
    let kifu = root.join("kifu_line_format");
    if let (Ok(index), Ok(moves)) = (
        std::fs::read(kifu.join("tom_2003-09.index")),
        std::fs::read(kifu.join("tom_2003-09.kifu")),
    ) {
        g.throughput(Throughput::Bytes((index.len() + moves.len()) as u64));
        g.bench_function("kifu-line pair", |b| {
            b.iter(|| {
                let r = sgf::Records::read_kifu_pair(&index, &moves);
                (0..r.len()).filter_map(|i| r.game(i).ok()).count()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, parse, formats);
criterion_main!(benches);
