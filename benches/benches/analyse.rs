//! The analysis stage of indexing, one core: from a record file's bytes to what the index stores
//! about each game (parse, game information, replay with captures and hashes, skeleton,
//! signatures), stage by stage, on one corpus (`qipu_benches::tygem_month`). What a build adds
//! on top is writing (store, tantivy) and reading the inputs.
//!
//! `cargo bench -p qipu-benches --bench analyse`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sgf::{GameInfo, Records};

fn bench(c: &mut Criterion) {
    let corpus = qipu_benches::tygem_month();
    let bytes = &corpus.bytes[..];
    let games = Records::read(bytes).len();
    eprintln!("corpus: {} ({games} games)", corpus.name);
    let mut g = c.benchmark_group("analyse");
    g.sample_size(10);
    g.throughput(Throughput::Elements(games as u64));
    g.bench_function("split + parse", |b| {
        b.iter(|| {
            let records = Records::read(bytes);
            (0..records.len())
                .filter_map(|i| records.game(i).ok())
                .map(|t| t.node_count())
                .sum::<usize>()
        })
    });
    g.bench_function("split + parse + game information", |b| {
        b.iter(|| {
            let records = Records::read(bytes);
            (0..records.len())
                .filter_map(|i| records.game(i).ok())
                .map(|t| GameInfo::read(&t).black.map_or(0, |s| s.len()))
                .sum::<usize>()
        })
    });
    g.bench_function("split + parse + analyse", |b| {
        b.iter(|| {
            let records = Records::read(bytes);
            (0..records.len())
                .filter_map(|i| records.game(i).ok())
                .map(|t| {
                    let span = t.span();
                    index::game::analyse(&t, &records.bytes()[span.start..span.end])
                        .positions
                        .len()
                })
                .sum::<usize>()
        })
    });
    // The metadata index's share of a build: every game's document added, then committed.
    let infos: Vec<(GameInfo, u32)> = {
        let records = Records::read(bytes);
        (0..records.len())
            .filter_map(|i| records.game(i).ok())
            .map(|t| {
                let span = t.span();
                let a = index::game::analyse(&t, &records.bytes()[span.start..span.end]);
                (a.info, a.rec.moves)
            })
            .collect()
    };
    let dir = std::env::temp_dir().join(format!("qipu-bench-meta-{}", std::process::id()));
    g.bench_function("metadata documents (tantivy)", |b| {
        b.iter(|| {
            let _ = std::fs::remove_dir_all(&dir);
            let mut w = meta::MetaWriter::create(&dir, 256 << 20).unwrap();
            for (i, (info, moves)) in infos.iter().enumerate() {
                w.add(i as u32, info, *moves, None, &corpus.name).unwrap();
            }
            w.commit().unwrap();
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
