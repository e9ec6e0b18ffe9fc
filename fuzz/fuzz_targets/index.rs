//! The index readers against damaged files: one file of a copy of the sample index is changed
//! (bytes flipped in place, the whole file replaced, or the file cut short), then the index is
//! opened and everything a search reads is read. Nothing may panic; a file whose length no
//! longer matches the manifest must be refused at open, naming it; and `verify` must find every
//! change to a file it checks (segment files, and the bodies of tantivy's).
//!
//! Input: byte 0 chooses the file, byte 1 the kind of damage, bytes 2..6 an offset, the rest
//! the bytes to flip with (or the new content).
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

mod common;

/// A copy of the sample index, made once, and its files (lock files left out).
fn work() -> &'static (PathBuf, Vec<PathBuf>) {
    static WORK: OnceLock<(PathBuf, Vec<PathBuf>)> = OnceLock::new();
    WORK.get_or_init(|| {
        // libfuzzer-sys's hook aborts at every panic, even one caught: the index catches
        // tantivy's panics over damaged files (turning them into errors naming the folder), and
        // those are allowed. A panic that escapes still fails the input (libfuzzer-sys catches
        // it at the top and aborts), with its message printed here.
        std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
        let from = common::sample_index_dir();
        let to = std::env::temp_dir().join(format!("qipu-fuzz-damaged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&to);
        let mut files = Vec::new();
        copy(from, &to, from, &mut files);
        files.sort();
        (to, files)
    })
}

fn copy(root: &Path, to: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let rel = p.strip_prefix(root).unwrap();
        let target = to.join(rel);
        if p.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy(root, to, &p, files);
        } else if p
            .file_name()
            .is_some_and(|n| !n.to_string_lossy().ends_with(".lock"))
        {
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(&p, &target).unwrap();
            files.push(target);
        }
    }
}

/// Everything a search can read; errors are fine, panics are not.
fn read_everything(dir: &Path) -> Result<(), index::IndexError> {
    let index = index::Index::open(dir)?;
    for g in 0..index.len() {
        let rec = index.game(g);
        let _ = rec.is_copy();
        let ops = index.ops(g);
        assert!(ops.len() <= 1 << 20);
        let _ = index.winner(g);
        let _ = index.identity(g);
        let _ = index.source_of(g);
        let _ = index.record(g);
        let _ = index.copies(g);
        let _ = index.meta().summary(g);
        let _ = index.vacated(g);
        let _ = index.had(g, goban::Color::White, goban::Point::new(3, 3));
    }
    for g in 0..index.len().min(3) {
        // The hashes the index holds are those of positions of its games; any u64 is a key.
        for e in index.positions(u64::from(g).wrapping_mul(0x9e37_79b9_7f4a_7c15)) {
            assert!(e.game < index.len());
        }
    }
    // Any u64 is a corner key too; the lists of a damaged table end, never overrun.
    for key in [0, 1, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
        for g in index.corner_games(&[key]) {
            assert!(g < index.len());
        }
    }
    for g in index.covering(&[index::Occupancy::default()]) {
        assert!(g < index.len());
    }
    let _ = index.long_games();
    let _ = index.part_sizes();
    for q in ["size:[1 TO 52]", "Maruyama", "black:\"Ito\" AND date:[1900 TO 2030]"] {
        if let Ok(ids) = index.search_meta(q) {
            assert!(ids.iter().all(|&g| g < index.len()));
        }
    }
    let _ = index.top("player", 10);
    let _ = index.date_range();
    index.check_intact()
}

/// Whether every changed byte lies in a tantivy file's footer (its JSON, which names the
/// tantivy version and holds the checksum, then its length and magic number): tantivy's
/// checksum covers the body only, so a changed version digit there is not a damaged body.
fn in_footer(pristine: &[u8], damaged: &[u8]) -> bool {
    let n = pristine.len();
    if damaged.len() != n || n < 8 {
        return false;
    }
    let footer = u32::from_le_bytes(pristine[n - 8..n - 4].try_into().unwrap()) as usize;
    let Some(start) = n.checked_sub(8 + footer) else {
        return false;
    };
    (0..start).all(|i| pristine[i] == damaged[i])
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let (dir, files) = work();
    let file = &files[data[0] as usize % files.len()];
    let pristine = std::fs::read(file).unwrap();
    let at = u32::from_le_bytes([data[2], data[3], data[4], data[5]]) as usize;
    let rest = &data[6..];
    let damaged = match data[1] % 3 {
        0 if !pristine.is_empty() && !rest.is_empty() => {
            let mut d = pristine.clone();
            for (i, b) in rest.iter().enumerate() {
                let j = (at + i) % d.len();
                d[j] ^= b;
            }
            d
        }
        1 => rest.to_vec(),
        _ => pristine[..at % (pristine.len() + 1)].to_vec(),
    };
    std::fs::write(file, &damaged).unwrap();
    let opened = read_everything(dir);
    let rel = file.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
    let checked = rel.starts_with("seg-") || rel.starts_with("meta");
    if damaged != pristine && checked && !rel.ends_with(".json") && !in_footer(&pristine, &damaged) {
        // Every change to a checked file is found by `verify` (or makes it fail outright).
        if let Ok(report) = index::Index::verify(dir) {
            assert!(!report.is_empty(), "{rel}: a change verify did not find");
        }
        if damaged.len() != pristine.len() && rel.starts_with("seg-") {
            // A segment file of the wrong length is refused at open.
            assert!(opened.is_err(), "{rel}: opened with a file of the wrong length");
        }
    }
    std::fs::write(file, &pristine).unwrap();
});
