//! Corpora for the benchmarks: the shared datasets when present, the embedded samples otherwise.
//! Every bench prints which one it measured.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A corpus held in memory: its name and its decompressed bytes.
pub struct Corpus {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The first month of `big/tygem-9d` (a ~10,000-game SGF collection), decompressed; or the
/// embedded sample games concatenated into one collection when the shared data is absent.
/// `QIPU_BENCH_FILE` names another file to measure instead.
pub fn tygem_month() -> Corpus {
    if let Ok(p) = std::env::var("QIPU_BENCH_FILE") {
        return Corpus {
            bytes: read_maybe_zstd(Path::new(&p)),
            name: p,
        };
    }
    let dir = root().join("../shared/datasets/big/tygem-9d");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    if let Some(first) = files.first() {
        return Corpus {
            name: format!(
                "big/tygem-9d/{}",
                first.file_name().unwrap().to_string_lossy()
            ),
            bytes: read_maybe_zstd(first),
        };
    }
    let mut bytes = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(root().join("samples/games"))
        .expect("samples/games")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    names.sort();
    for p in names {
        bytes.extend(std::fs::read(p).unwrap());
        bytes.push(b'\n');
    }
    Corpus {
        name: "samples/games (shared datasets absent)".into(),
        bytes,
    }
}

/// Reads a file, decompressing it when it is zstd (window up to 2^27, as the shared data needs).
pub fn read_maybe_zstd(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if !raw.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return raw;
    }
    let mut dec = zstd::stream::read::Decoder::new(&raw[..]).expect("zstd");
    dec.window_log_max(27).expect("zstd window");
    let mut out = Vec::new();
    dec.read_to_end(&mut out).expect("zstd data");
    out
}

/// A game reduced to what replay needs: board size, setup stones and main-line moves.
pub struct MoveList {
    pub width: u8,
    pub height: u8,
    pub setup: Vec<(sgf::Color, sgf::Point)>,
    pub moves: Vec<(sgf::Color, Option<sgf::Point>)>,
}

/// Every game of a collection (or of many files) as move lists; games that do not parse or
/// carry malformed moves are skipped.
pub fn move_lists<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> Vec<MoveList> {
    let mut out = Vec::new();
    for bytes in files {
        let records = sgf::Records::read(bytes);
        for i in 0..records.len() {
            let Ok(tree) = records.game(i) else { continue };
            let Ok(moves) = tree.main_line_moves() else {
                continue;
            };
            let (width, height) = tree.board_size();
            let mut setup = Vec::new();
            let mut pts = Vec::new();
            for (content, raw) in tree.root().setup_values() {
                if let Some(color) = content {
                    pts.clear();
                    sgf::value::point_list(raw, &mut pts);
                    setup.extend(pts.iter().map(|&p| (color, p)));
                }
            }
            out.push(MoveList {
                width,
                height,
                setup,
                moves,
            });
        }
    }
    out
}

/// Every file under `dir` (recursively), read whole.
pub fn read_dir_files(dir: &Path) -> Vec<Vec<u8>> {
    let mut stack = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// The corpus the index and search benches build on: `fox-pro/` (10,348 professional games) when
/// the shared datasets are present, the embedded samples otherwise; `QIPU_BENCH_INPUT` names another.
pub fn index_corpus() -> (String, PathBuf) {
    if let Ok(p) = std::env::var("QIPU_BENCH_INPUT") {
        return (p.clone(), PathBuf::from(p));
    }
    let fox = root().join("../shared/datasets/fox-pro");
    if fox.is_dir() {
        return ("fox-pro".into(), fox);
    }
    (
        "samples/games (shared datasets absent)".into(),
        root().join("samples/games"),
    )
}
