//! Replay speed on real games: moves per second with and without the 8-way Zobrist hashing,
//! over `fox-pro/` (10k professional games, many captures) and one month of `big/tygem-9d`.
//! Parsing is done before measuring; only the engine is timed.
//!
//! `cargo bench -p qipu-benches --bench replay`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use goban::Board;
use qipu_benches::{move_lists, read_dir_files, root, tygem_month, MoveList};

fn replay_all(games: &[MoveList], hashing: bool) -> u64 {
    let mut acc = 0u64;
    for g in games {
        let Ok(mut b) = Board::new(g.width, g.height) else {
            continue;
        };
        b.set_hashing(hashing);
        for &(c, p) in &g.setup {
            b.setup(Some(c), p);
        }
        for &(c, p) in &g.moves {
            acc += b.play(c, p).captured().len() as u64;
        }
        if hashing {
            acc ^= b.canonical_key();
        }
    }
    acc
}

fn bench(c: &mut Criterion) {
    let mut corpora = Vec::new();
    let fox = root().join("../shared/datasets/fox-pro");
    if fox.is_dir() {
        let files = read_dir_files(&fox);
        corpora.push((
            "fox-pro".to_string(),
            move_lists(files.iter().map(|f| &f[..])),
        ));
    }
    let month = tygem_month();
    corpora.push((month.name.clone(), move_lists([&month.bytes[..]])));
    let mut g = c.benchmark_group("replay");
    g.sample_size(10);
    for (name, games) in &corpora {
        let moves: usize = games.iter().map(|g| g.moves.len()).sum();
        eprintln!("corpus: {name}: {} games, {moves} moves", games.len());
        g.throughput(Throughput::Elements(moves as u64));
        for hashing in [false, true] {
            let id = BenchmarkId::new(
                if hashing {
                    "8-way hashing"
                } else {
                    "no hashing"
                },
                name,
            );
            g.bench_with_input(id, games, |b, games| b.iter(|| replay_all(games, hashing)));
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
