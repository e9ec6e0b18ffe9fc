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
    let report = fs::read_to_string(dir.join(index::layout::REPORT)).unwrap();
    assert!(
        report.contains("bomb.sgf.zst") && report.contains("larger than 1048576 bytes"),
        "{report}"
    );
}

/// After a run stopped at any point, the next one counts each input once, as the index it
/// found holds it: whole (unchanged), in part (resumed) or not at all (new), counted here from
/// the games of each file the stopped run left searchable.
#[test]
fn after_a_stopped_run_each_input_is_counted_once_as_the_index_holds_it() {
    let scratch = Scratch::new("build-inputs-resumed");
    // Files of 4, 5, 3, 4, 2 games; chunks of two games and segments of four put commits at the
    // end of a file and inside one.
    let sizes = [4usize, 5, 3, 4, 2];
    let mut n = 0;
    for (f, &size) in sizes.iter().enumerate() {
        let text: Vec<u8> = (0..size)
            .flat_map(|_| {
                n += 1;
                game(n)
            })
            .collect();
        scratch.write(&format!("d/{f}.sgf"), &text);
    }
    let total: u64 = sizes.iter().sum::<usize>() as u64;
    let opts = index::BuildOptions {
        batch_bytes: 1,
        chunk_games: 2,
        segment_games: 4,
        ..index::BuildOptions::default()
    };
    let (mut saw_whole, mut saw_part, mut saw_none) = (false, false, false);
    for stop_at in 1..total {
        let dir = scratch.0.join(format!("index-{stop_at}"));
        let died = std::panic::catch_unwind(|| {
            index::build(&dir, &[scratch.0.join("d")], &opts, |p| {
                assert!(p.games < stop_at, "stopped");
            })
        });
        assert!(died.is_err(), "stopped at {stop_at}");
        // Games of each file the stopped run left.
        let mut held = [0usize; 5];
        if let Ok(idx) = index::Index::open(&dir) {
            for g in idx.search_meta("size:19").unwrap() {
                let (file, _) = idx.identity(g);
                let stem = std::path::Path::new(file).file_stem().unwrap();
                let f: usize = stem.to_str().unwrap().parse().unwrap();
                held[f] += 1;
            }
        }
        let whole = (0..5).filter(|&f| held[f] == sizes[f]).count();
        let none = (0..5).filter(|&f| held[f] == 0).count();
        let part = 5 - whole - none;
        saw_whole |= whole > 0;
        saw_part |= part > 0;
        saw_none |= none > 0 && none < 5;

        let s = index::build(&dir, &[scratch.0.join("d")], &opts, |_| {}).unwrap();
        let counted = (s.sources_skipped, s.sources_resumed, s.sources_new);
        assert_eq!(
            counted,
            (whole, part, none),
            "stopped at {stop_at}: {held:?}"
        );
        assert_eq!(s.sources, 5);
        assert_eq!(
            index::Index::open(&dir).unwrap().len() as u64,
            total,
            "stopped at {stop_at}: nothing lost or doubled"
        );
    }
    assert!(saw_whole && saw_part && saw_none, "every case met");
}

/// An input read only in part (a compressed file cut short) is handed back in the summary,
/// naming the file, for the caller to show: the library prints nothing. The other inputs are
/// indexed whole.
#[test]
fn an_input_read_in_part_is_reported_in_the_summary() {
    let scratch = Scratch::new("build-inputs-damaged");
    let text: Vec<u8> = (0..40).flat_map(|n| long_game(n, 60)).collect();
    let packed = zst(&text);
    scratch.write("d/cut.sgf.zst", &packed[..packed.len() / 2]);
    scratch.write("d/whole.sgf", &game(1000));
    let dir = scratch.0.join("index");
    let summary = index::build(
        &dir,
        &[scratch.0.join("d")],
        &index::BuildOptions::default(),
        |_| {},
    )
    .unwrap();
    assert_eq!(summary.damaged.len(), 1, "{:?}", summary.damaged);
    assert!(
        summary.damaged[0].contains("cut.sgf.zst"),
        "{:?}",
        summary.damaged
    );
    assert!(summary.unreadable.is_empty(), "{:?}", summary.unreadable);
    assert!(summary.added.games >= 1, "{}", summary.added.games);
    // A run with nothing damaged reports nothing.
    let again = index::build(
        &scratch.0.join("index2"),
        &[scratch.0.join("d/whole.sgf")],
        &index::BuildOptions::default(),
        |_| {},
    )
    .unwrap();
    assert!(again.damaged.is_empty(), "{:?}", again.damaged);
}
