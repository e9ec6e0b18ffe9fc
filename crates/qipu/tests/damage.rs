//! A damaged byte in any file of a segment, or in the manifests beside them, never changes an
//! answer silently: a search asked through the library's face answers as the undamaged index
//! does, or refuses with an error that names the damaged file.
//!
//! One test in a binary of its own: each trial damages the index under it, and nothing else may
//! read that index meanwhile.

use std::path::{Path, PathBuf};

use qipu::{build, BuildOptions, Index, Query};

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games")
}

/// The queries asked of the index, reading between them every file a search reads: the
/// position table, the pre-aggregated cells, the corner and occupancy tables, the replay
/// programs, the games' records, facts, years and winners, copies, names of record files and
/// the manifest's inputs.
fn queries() -> Vec<(&'static str, Query)> {
    let record = std::fs::read(samples().join("maruyama-ito.sgf")).unwrap();
    let position = |at| Query::from_record(&record, Some(at)).unwrap();
    let corner = "X . . . .\n. . . . .\n. . . X .\n. . . . .\n. . . . .\n";
    vec![
        ("empty board", position(0)),
        ("opening", position(4)),
        ("middle game", position(20)),
        ("copies", position(20).with_copies(true)),
        ("by month", position(4).by_month(true)),
        ("since", position(0).since("2000").unwrap()),
        ("corner", Query::pattern(corner).unwrap()),
        (
            "anywhere",
            Query::pattern("X O\nO X\n").unwrap().anywhere(true),
        ),
        ("moves", Query::moves("B[pd] W[dp] B[pp]", 19).unwrap()),
        ("metadata", Query::metadata("result:W*").by_month(true)),
    ]
}

/// The board at the end of each game, as the web board asks it, from an index opened for it
/// alone (so that no other read checks the files first), then each game's moves.
fn boards(dir: &Path, lengths: &[usize]) -> Result<Vec<String>, qipu::Error> {
    let index = Index::open(dir)?;
    let mut out = Vec::new();
    for (g, &n) in lengths.iter().enumerate() {
        out.push(format!("{:?}", index.position_at(g as u32, n)?));
    }
    for g in 0..index.len() {
        out.push(format!("{:?}", index.main_line(g)?));
    }
    Ok(out)
}

/// How many moves each game has, as the replay programs number them.
fn lengths(dir: &Path) -> Vec<usize> {
    let index = Index::open(dir).unwrap();
    (0..index.len())
        .map(|g| (1..).find(|&k| index.position_at(g, k).is_err()).unwrap() - 1)
        .collect()
}

/// Everything the index says to the queries and of each game, as text; or the first error.
fn answers(dir: &Path, lengths: &[usize]) -> Result<Vec<String>, qipu::Error> {
    let mut out = boards(dir, lengths)?;
    let index = Index::open(dir)?;
    for (name, q) in queries() {
        let a = index.search(&q)?;
        out.push(format!(
            "{name}: {:?} {:?} {:?} {:?}",
            a.hits, a.continuations, a.profile, a.summary
        ));
        for h in &a.hits {
            out.push(format!("path {:?}", index.path(h.game)));
        }
    }
    for g in 0..index.len() {
        out.push(format!("{:?}", index.game(g)?));
        out.push(format!("{:?}", index.record(g)?));
    }
    Ok(out)
}

/// Every file of the index folder that this test damages: each segment's files and the
/// manifests (the metadata folder is tantivy's, tested on its own).
fn damageable(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("seg-") {
            for f in std::fs::read_dir(&path).unwrap() {
                out.push(f.unwrap().path());
            }
        } else if name.starts_with("qipu-index.") && name != "qipu-index.lock" {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn a_damaged_byte_gives_the_same_answer_or_an_error_naming_its_file() {
    let dir = std::env::temp_dir().join(format!("qipu-damage-test-{}", std::process::id()));
    let inputs = dir.join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    for f in std::fs::read_dir(samples()).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, inputs.join(f.file_name().unwrap())).unwrap();
    }
    // An exact copy, so that the segment lists one.
    std::fs::copy(
        samples().join("maruyama-ito.sgf"),
        inputs.join("maruyama-ito-again.sgf"),
    )
    .unwrap();
    let index = dir.join("index");
    let opts = BuildOptions {
        rebuild: true,
        // Two segments, and cells aggregated for every position reached twice.
        segment_games: 6,
        aggregate_min: 2,
        ..BuildOptions::default()
    };
    build(&index, &[inputs], &opts, |_| {}).unwrap();
    let lengths = lengths(&index);
    let want = answers(&index, &lengths).unwrap();
    assert!(want.iter().any(|a| a.contains("maruyama-ito-again.sgf")));

    let files = damageable(&index);
    let kinds: std::collections::BTreeSet<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    for kind in [
        "qipu-index.json",
        "qipu-index.sources",
        "files.jsonl",
        "games.bin",
        "years.bin",
        "facts.bin",
        "copies.bin",
        "positions.keys",
        "aggregates.bin",
        "sums.bin",
    ] {
        assert!(kinds.contains(kind), "{kind} among {kinds:?}");
    }
    let (mut trials, mut refused) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let n = bytes.len();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // The first, middle and last bytes, and some between.
        let mut places: Vec<usize> = [0, 1, n / 4, n / 2, n * 3 / 4, n.saturating_sub(2), n - 1]
            .into_iter()
            .filter(|&at| at < n)
            .collect();
        places.dedup();
        for at in places {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x04;
            std::fs::write(path, &damaged).unwrap();
            trials += 1;
            match answers(&index, &lengths) {
                Ok(got) => assert!(
                    got == want,
                    "byte {at} of {} changed the answer without an error",
                    path.display()
                ),
                Err(e) => {
                    refused += 1;
                    let text = e.to_string();
                    assert!(
                        text.contains(&name),
                        "byte {at} of {}: the error does not name the file: {text}",
                        path.display()
                    );
                }
            }
            std::fs::write(path, &bytes).unwrap();
        }
    }
    assert_eq!(answers(&index, &lengths).unwrap(), want);
    assert!(refused > trials / 2, "{refused} of {trials} refused");
    let _ = std::fs::remove_dir_all(&dir);
}
