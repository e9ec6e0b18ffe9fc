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
