//! Inputs as the index builder takes them: a large record file read in chunks with every game in
//! its place (and a run killed inside it finished by the next), and the record limit set by
//! configuration. The reading itself is tested in the `inputs` crate.

use std::fs;
use testdata::Scratch;

fn game(n: usize) -> Vec<u8> {
    format!("(;GM[1]SZ[19]PB[b{n}];B[pd];W[dp])").into_bytes()
}

/// A long game with pseudo-random moves, so that archives of it span many compressed blocks.
fn long_game(seed: usize, moves: usize) -> Vec<u8> {
    let mut out = format!("(;GM[1]SZ[19]PB[p{seed}]").into_bytes();
    let mut x = seed as u32 ^ 0x9e37_79b9;
    for m in 0..moves {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let (a, b) = (b'a' + (x >> 16) as u8 % 19, b'a' + (x >> 24) as u8 % 19);
        let colour = if m % 2 == 0 { 'B' } else { 'W' };
        out.extend(format!(";{colour}[{}{}]", a as char, b as char).bytes());
    }
    out.push(b')');
    out
}

fn zst(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

#[test]
fn a_large_record_file_is_indexed_in_chunks_with_every_game_in_place() {
    // Every record file counts as large (batch_bytes 1), three games a chunk, segments of four:
    // commits fall inside the file, and the run is stopped after the first to finish it later.
    let scratch = Scratch::new("build-inputs-chunks");
    let text: Vec<u8> = (0..10).flat_map(|n| long_game(n, 30)).collect();
    let file = scratch.write("d/many.sgf", &text);
    scratch.write("d/one.sgf", &long_game(99, 30));
    let dir = scratch.0.join("index");
    let opts = index::BuildOptions {
        batch_bytes: 1,
        chunk_games: 3,
        segment_games: 4,
        ..index::BuildOptions::default()
    };
    let summary = index::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    assert_eq!(summary.added.games, 11);
    assert_eq!(summary.added.files, 2);
    let idx = index::Index::open(&dir).unwrap();
    assert!(
        idx.manifest().segments.len() >= 3,
        "{:?}",
        idx.manifest().segments
    );
    let mut got: Vec<(String, u32, String)> = idx
        .search_meta("size:19")
        .unwrap()
        .into_iter()
        .map(|g| {
            let (file, n) = idx.identity(g);
            let black = idx
                .meta()
                .summary(g)
                .unwrap()
                .unwrap()
                .black
                .unwrap_or_default();
            (file.to_string(), n, black)
        })
        .collect();
    got.sort();
    let mut want: Vec<(String, u32, String)> = (0..10)
        .map(|n| ("many.sgf".to_string(), n, format!("p{n}")))
        .collect();
    want.push(("one.sgf".to_string(), 0, "p99".to_string()));
    assert_eq!(got, want);
    assert_eq!(
        idx.source_path("many.sgf"),
        Some(fs::canonicalize(&file).unwrap())
    );
    drop(idx);

    // A run that dies after a commit inside the file is finished by the next: nothing lost or
    // doubled, each game under its own index in the file.
    let dir2 = scratch.0.join("index2");
    let died = std::panic::catch_unwind(|| {
        index::build(&dir2, &[scratch.0.join("d")], &opts, |p| {
            assert!(p.games < 5, "stopped");
        })
    });
    assert!(died.is_err());
    let partial = index::Index::open(&dir2).unwrap().len();
    assert!((4..11).contains(&partial), "{partial} games committed");
    index::build(&dir2, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    let idx = index::Index::open(&dir2).unwrap();
    let mut again: Vec<(String, u32)> = idx
        .search_meta("size:19")
        .unwrap()
        .into_iter()
        .map(|g| (idx.identity(g).0.to_string(), idx.identity(g).1))
        .collect();
    again.sort();
    let want: Vec<(String, u32)> = want.into_iter().map(|(f, n, _)| (f, n)).collect();
    assert_eq!(again, want);
}

#[test]
fn the_largest_record_is_set_by_configuration() {
    // 8 MiB of zeros in a few hundred bytes: refused at 1 MiB, as damage, and the rest indexed.
    let scratch = Scratch::new("build-inputs-bomb");
    scratch.write("d/bomb.sgf.zst", &zst(&vec![0u8; 8 << 20]));
    scratch.write("d/a.sgf", &game(1));
    let dir = scratch.0.join("index");
    let opts = index::BuildOptions {
        max_record_bytes: 1 << 20,
        ..index::BuildOptions::default()
    };
    let summary = index::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
    assert_eq!(summary.added.games, 1);
    let report = fs::read_to_string(dir.join(index::build::REPORT)).unwrap();
    assert!(
        report.contains("bomb.sgf.zst") && report.contains("larger than 1048576 bytes"),
        "{report}"
    );
}
