//! Kifu-line move files travel with their index: the one reading step that looks inside a record
//! (only to ask whether it is such a move file), so that every caller gets the pair as one
//! record, with its players, date, komi and result, without knowing about the format.

use std::fs;
use std::path::{Path, PathBuf};

use crate::kind::SourceKind;
use crate::limits::MAX_RECORD_BYTES;
use crate::source::{RecordBytes, Source};

/// A kifu-line move file travels with its index: the `*.index` files of its folder and of the
/// folder above (Tom's dataset keeps `Tom/Kifu.index` beside `Tom/kifu/2003-09`), packed with it
/// by [`sgf::pack_kifu_indexes`] with their names, so that its games get their players, date,
/// komi and result and a diagnostic can say which index file it speaks of. The move file's own
/// index (the one of the same name stem, [`by_kinship`]) comes first: an id it has is taken from
/// it, whatever another month's index gives for that id. Any other record, or a move file with
/// no index near it (then read alone, and said so by the reader), is returned as it is.
pub(crate) fn with_kifu_index(source: &Source, bytes: RecordBytes) -> RecordBytes {
    if !sgf::is_kifu_moves(&bytes) {
        return bytes;
    }
    let dir = folder(&source.path);
    let mut files = index_files(&dir);
    by_kinship(&source.path, &mut files);
    let mut read: Vec<(String, Vec<u8>)> = Vec::new();
    let mut total = 0u64;
    for f in files {
        // All the index files together stay within the record limit.
        let room = source.max_record_bytes.saturating_sub(total);
        if f.metadata().is_ok_and(|m| m.len() > room) {
            continue;
        }
        if let Ok(b) = fs::read(&f) {
            total += b.len() as u64 + 1;
            read.push((index_name(&dir, &f), b));
        }
    }
    if read.is_empty() {
        return bytes;
    }
    let indexes: Vec<sgf::KifuIndexFile<'_>> = read
        .iter()
        .map(|(name, b)| sgf::KifuIndexFile { name, bytes: b })
        .collect();
    RecordBytes::Owned(sgf::pack_kifu_indexes(&indexes, &bytes))
}

/// Puts the index files of `move_file`'s own name stem (`2010-01.index` for `2010-01.x` or
/// `2010-01`) first, its folder's before the folder above's; the others keep their order.
fn by_kinship(move_file: &Path, files: &mut [PathBuf]) {
    let stem = move_file.file_stem();
    files.sort_by_key(|f| f.file_stem() != stem);
}

/// An index file's name as diagnostics give it: its file name when it is in the move file's
/// folder `dir`, its path from `dir` otherwise (`../Kifu.index`).
fn index_name(dir: &Path, file: &Path) -> String {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if file.parent() == Some(dir) {
        name
    } else {
        format!("../{name}")
    }
}

/// The folder whose kifu-line index files ([`index_files`]) a source's games may be read with,
/// were it a move file: a plain file's (not a stream's); see
/// [`Companions`](crate::Companions).
pub(crate) fn companion_folder(source: &Source) -> Option<PathBuf> {
    (source.kind == SourceKind::Plain && !source.stream).then(|| folder(&source.path))
}

/// The folder a file is in.
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The `*.index` files of `dir` and of the folder above, each folder's sorted, that a move file
/// in `dir` may take in (each within [`MAX_RECORD_BYTES`]).
pub(crate) fn index_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = own_index_files(dir);
    if let Some(parent) = dir.parent() {
        out.extend(own_index_files(parent));
    }
    out
}

/// The `*.index` files of `dir` itself, sorted (each within [`MAX_RECORD_BYTES`]): half of what
/// [`index_files`] gives, for a caller that lists each folder once for many.
pub(crate) fn own_index_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("index"))
                && p.metadata()
                    .is_ok_and(|m| m.is_file() && m.len() <= MAX_RECORD_BYTES)
        })
        .collect();
    files.sort();
    files
}
