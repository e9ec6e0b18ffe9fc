//! Replay speed on 19×19: synthetic games of random legal moves (fixed seed), replayed with hashing
//! off, with the 8-way incremental hashes, and with a canonical key read after every move (what an
//! indexer does). Throughput is in moves.
//!
//! `cargo bench -p qipu-goban --bench replay`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use goban::{Board, Color, MoveFlags, Point};

/// A small deterministic generator (PCG-style LCG output), enough for synthetic games.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// `count` games of `len` moves on a `size`×`size` board, alternating colours, each move a random empty
/// point that is neither suicide nor a ko retake (a pass when none is found quickly).
fn games(count: usize, len: usize, size: u8) -> Vec<Vec<(Color, Option<Point>)>> {
    let mut rng = Lcg(0x5eed);
    (0..count)
        .map(|_| {
            let mut board = Board::new(size, size).unwrap();
            board.set_hashing(false);
            let mut moves: Vec<(Color, Option<Point>)> = Vec::with_capacity(len);
            for i in 0..len {
                let color = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let empty: Vec<Point> = board.empty_points().iter().collect();
                let mut chosen = None;
                for _ in 0..10 {
                    if empty.is_empty() {
                        break;
                    }
                    // Mostly near the previous move, so that fights and captures happen as in
                    // real games; sometimes anywhere.
                    let p = match moves.last() {
                        Some(&(_, Some(last))) if rng.below(4) != 0 => {
                            let mut near = |v: u8| {
                                (v as usize + rng.below(5))
                                    .saturating_sub(2)
                                    .min(size as usize - 1) as u8
                            };
                            let p = Point::new(near(last.x), near(last.y));
                            if board.get(p).is_some() {
                                continue;
                            }
                            p
                        }
                        _ => empty[rng.below(empty.len())],
                    };
                    let mut trial = board.clone();
                    let out = trial.play(color, Some(p));
                    if !out.flags.contains(MoveFlags::SUICIDE)
                        && !out.flags.contains(MoveFlags::KO_RETAKE)
                    {
                        chosen = Some(p);
                        break;
                    }
                }
                board.play(color, chosen);
                moves.push((color, chosen));
            }
            moves
        })
        .collect()
}

fn replay(c: &mut Criterion) {
    let games = games(200, 210, 19);
    let total: usize = games.iter().map(Vec::len).sum();
    let captures: usize = games
        .iter()
        .map(|g| {
            let mut b = Board::new(19, 19).unwrap();
            g.iter()
                .map(|&(c, p)| b.play(c, p).removed.len())
                .sum::<usize>()
        })
        .sum();
    eprintln!(
        "{} games, {total} moves, {captures} stones captured",
        games.len()
    );

    let mut group = c.benchmark_group("replay_19x19");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("no_hash", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for g in &games {
                let mut board = Board::new(19, 19).unwrap();
                board.set_hashing(false);
                for &(color, p) in g {
                    acc += board.play(color, p).removed.len();
                }
            }
            black_box(acc)
        })
    });
    group.bench_function("hash_8way", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for g in &games {
                let mut board = Board::new(19, 19).unwrap();
                for &(color, p) in g {
                    black_box(board.play(color, p));
                }
                acc ^= board.hash();
            }
            black_box(acc)
        })
    });
    group.bench_function("hash_8way_key_every_move", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for g in &games {
                let mut board = Board::new(19, 19).unwrap();
                for &(color, p) in g {
                    board.play(color, p);
                    acc ^= board.canonical_key_any_color();
                }
            }
            black_box(acc)
        })
    });
    group.finish();
}

criterion_group!(benches, replay);
criterion_main!(benches);
