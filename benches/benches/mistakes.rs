//! Mistakes search over many analysed games: p50 and p95 of `Index::mistakes` (through the
//! library's face, the 20 hits of a page described) for thresholds over and under the lists'
//! floors, with a player, dates and a sort by date, and from a pattern and a move sequence.
//!
//! The evaluations are synthesised at build time by a deterministic generator (this file's
//! [`synthesised`]), seeded by each game's main line, so that a corpus derived from the shared
//! games (`qipu derive`) is analysed whole and the same every run: a random walk of Black's win
//! probability (most moves within ±2%, one in eight up to ±8%, one in thirty up to ±30%), a lead
//! following it (40 points from 0% to 100%) within ±0.3 points, visits 100 to 1,100, one position in fifty unevaluated.
//!
//! `QIPU_MISTAKES_CORPUS=DIR [QIPU_MISTAKES_INDEX=IDX] [QIPU_MISTAKES_REPEAT=N]
//! cargo bench -p qipu-benches --bench mistakes`: builds IDX from DIR (unless IDX holds an
//! index already), then asks each query N times (default 9) after one unmeasured run.

use std::path::PathBuf;
use std::time::Instant;

use qipu::{Index, LossThreshold, Mistakes, Query, Sort};

/// A deterministic number stream seeded by `seed` (xorshift64*).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in -1.0..1.0.
    fn signed(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// Evaluations for every position of `tree`'s main line, drawn from a seed its moves make.
fn synthesised(tree: &sgf::GameTree<'_>) -> Option<sgf::Evals> {
    let mut seed = 0xcbf2_9ce4_8422_2325u64;
    for node in tree.main_line() {
        if let Some((_, p)) = node.lone_move() {
            for &b in p.raw() {
                seed = (seed ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    let mut draw = Draw(seed | 1);
    let mut win = 0.5f32;
    let positions = tree
        .main_line()
        .map(|_| {
            let swing = match draw.next() % 240 {
                0..=7 => 0.30,
                8..=37 => 0.08,
                _ => 0.02,
            };
            win = (win + swing * draw.signed()).clamp(0.0, 1.0);
            (!draw.next().is_multiple_of(50)).then(|| sgf::Eval {
                win,
                lead: Some((win - 0.5) * 40.0 + 0.3 * draw.signed()),
                visits: Some(100 + (draw.next() % 1000) as u32),
            })
        })
        .collect();
    Some(sgf::Evals {
        positions,
        program: "synthesised",
        engine: None,
    })
}

/// A 4-4 stone approached at the knight's move, its corner empty otherwise.
const APPROACHED: &str = ".......\n.......\n.......\n...X...\n.......\n..O....\n.......";

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the arguments.
    let Some(corpus) = std::env::var_os("QIPU_MISTAKES_CORPUS").map(PathBuf::from) else {
        eprintln!("set QIPU_MISTAKES_CORPUS to a folder of records (e.g. from `qipu derive`)");
        return;
    };
    let dir = std::env::var_os("QIPU_MISTAKES_INDEX").map_or_else(
        || std::env::temp_dir().join("qipu-bench-mistakes"),
        PathBuf::from,
    );
    let repeat: usize = std::env::var("QIPU_MISTAKES_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(9);
    if Index::open(&dir).is_err() {
        let started = Instant::now();
        let opts = qipu::BuildOptions {
            rebuild: true,
            evals: Some(synthesised),
            ..qipu::BuildOptions::default()
        };
        let summary = qipu::build(&dir, &[corpus], &opts, |_| {}).expect("the corpus indexes");
        eprintln!(
            "built {} games in {:.1} s",
            summary.added.games,
            started.elapsed().as_secs_f64()
        );
    }
    let index = Index::open(&dir).expect("the index opens");
    let stats = index.stats(1).expect("stats");
    let part = |name: &str| {
        stats
            .parts
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, b)| *b)
            .sum::<u64>()
    };
    let analysed = index
        .mistakes(&Query::mistakes(
            Mistakes::new("100%".parse().unwrap()).unwrap(),
        ))
        .unwrap()
        .analysed_games;
    println!(
        "{} games, {analysed} analysed; evals.bin {} B ({:.0} B/analysed game), mistakes.bin {} B \
         ({:.0} B/analysed game); top player {:?}",
        index.len(),
        part("evaluations"),
        part("evaluations") as f64 / analysed.max(1) as f64,
        part("mistakes"),
        part("mistakes") as f64 / analysed.max(1) as f64,
        stats.top_players.first().map(|p| &p.0),
    );
    let loss = |w: &str| -> LossThreshold { w.parse().unwrap() };
    let player = stats
        .top_players
        .first()
        .map(|p| p.0.clone())
        .unwrap_or_default();
    let m = |w: &str| Mistakes::new(loss(w)).unwrap();
    let queries: Vec<(String, Query)> = vec![
        ("10%".into(), Query::mistakes(m("10%"))),
        ("20%".into(), Query::mistakes(m("20%"))),
        ("5pt".into(), Query::mistakes(m("5pt"))),
        ("10%,3pt".into(), Query::mistakes(m("10%,3pt"))),
        (
            format!("10% by {player}"),
            Query::mistakes(m("10%").by(player.as_str())),
        ),
        (
            "10% since 2015".into(),
            Query::mistakes(m("10%")).since("2015").unwrap(),
        ),
        (
            "10% newest".into(),
            Query::mistakes(m("10%")).sort(Sort::Newest),
        ),
        ("1% (under the floor)".into(), Query::mistakes(m("1%"))),
        // The moves the rows of a corner shape and of a joseki count.
        (
            "3pt from the 4-4 approached (pattern)".into(),
            Query::pattern(APPROACHED).unwrap().and_mistakes(m("3pt")),
        ),
        (
            "10% after B[pd] W[qc] (sequence)".into(),
            Query::moves("B[pd] W[qc]", 19)
                .unwrap()
                .and_mistakes(m("10%")),
        ),
    ];
    println!("| query | hits | p50 ms | p95 ms |");
    println!("|---|---|---|---|");
    for (name, q) in queries {
        let q = q.limit(Some(20));
        let total = index.mistakes(&q).unwrap().total;
        let mut times: Vec<f64> = (0..repeat)
            .map(|_| {
                let t = Instant::now();
                let a = index.mistakes(&q).unwrap();
                assert_eq!(a.total, total);
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let at = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
        println!("| {name} | {total} | {:.1} | {:.1} |", at(0.5), at(0.95));
    }
}
