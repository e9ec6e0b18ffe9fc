//! What bookkeeping knows a file by, so that a later run can tell a file already read from a
//! changed or a new one: its canonical path as a reversible string key, its modification time
//! and a cheap fingerprint of its content (see the crate docs, "Identity").

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use crate::kifu::{companion_folder, own_index_files};
use crate::names::escape_bytes;
use crate::source::Source;
use crate::watch::modified_ns;

/// The key a path is known by in bookkeeping: its bytes, with invalid UTF-8 written `\xHH` and
/// `\` always doubled, so that distinct paths always get distinct keys and
/// [`path_of_key`](crate::path_of_key) gives the path back.
pub fn path_key(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    match std::str::from_utf8(bytes) {
        Ok(text) => text.replace('\\', "\\\\"),
        Err(_) => escape_bytes(bytes),
    }
}

/// The path a [`path_key`](crate::path_key) was made from (`None` if `key` is not one).
pub fn path_of_key(key: &str) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let mut out = Vec::with_capacity(key.len());
    let mut rest = key.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b != b'\\' {
            out.push(b);
            rest = tail;
            continue;
        }
        match tail {
            [b'\\', more @ ..] => {
                out.push(b'\\');
                rest = more;
            }
            [b'x', h, l, more @ ..] => {
                let hex = std::str::from_utf8(&[*h, *l]).ok()?.to_string();
                out.push(u8::from_str_radix(&hex, 16).ok()?);
                rest = more;
            }
            _ => return None,
        }
    }
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

/// Bytes taken from each end of a file for its [`fingerprint`](crate::fingerprint).
const FINGERPRINT_END_BYTES: u64 = 64 * 1024;

/// A cheap fingerprint of a regular file's content: the XXH3 hash of its size, its first and its
/// last 64 KiB. It tells a changed file from an unchanged one when a change keeps the size and
/// the modification time (a copy with `cp -p`, a clock set back, a file system with coarse
/// times), for any file up to 128 KiB and for changes near either end of a larger one; reading
/// the whole of every file on every run to be sure of the middle too would cost as much as
/// indexing it again. XXH3 because its output is fixed by its specification (the std hasher's
/// may change with the compiler, which would make every file look changed) and it hashes at
/// memory speed.
pub fn fingerprint(path: &Path, len: u64) -> io::Result<u64> {
    let file = File::open(path)?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&len.to_le_bytes());
    let mut buf = vec![0u8; FINGERPRINT_END_BYTES.min(len) as usize];
    let mut read_at = |offset: u64, buf: &mut [u8]| -> io::Result<()> {
        let n = fill_at(&file, buf, offset)?;
        hasher.update(&buf[..n]);
        Ok(())
    };
    read_at(0, &mut buf)?;
    if len > FINGERPRINT_END_BYTES {
        let tail = len
            .saturating_sub(FINGERPRINT_END_BYTES)
            .max(FINGERPRINT_END_BYTES);
        let mut end = vec![0u8; (len - tail) as usize];
        read_at(tail, &mut end)?;
    }
    Ok(hasher.digest())
}

/// What besides its own bytes a source's games are read from, for its identity: a plain file
/// may be a kifu-line move file, read with the index files of its folder and of the folder above
/// (see `kifu`). An index file changed, added or removed changes the players, dates and results
/// of a move file's games, not the move file, so a source's identity is its own fingerprint
/// joined with theirs ([`Companions::identity`]).
pub struct Companions(HashMap<PathBuf, Option<u64>>);

impl Companions {
    /// The index files near each of `sources`, each folder listed once however many folders
    /// below it list it as their parent.
    pub fn of(sources: &[Source]) -> Companions {
        let folders: HashSet<PathBuf> = sources.iter().filter_map(companion_folder).collect();
        let mut own: HashMap<&Path, Vec<PathBuf>> = HashMap::new();
        for d in &folders {
            for f in std::iter::once(d.as_path()).chain(d.parent()) {
                own.entry(f).or_insert_with(|| own_index_files(f));
            }
        }
        let near = folders
            .iter()
            .map(|d| {
                let mut files = own[d.as_path()].clone();
                if let Some(parent) = d.parent() {
                    files.extend(own[parent].iter().cloned());
                }
                (d.clone(), companions_fingerprint(&files))
            })
            .collect();
        Companions(near)
    }

    /// The identity of `source` whose own [`fingerprint`] is `fingerprint`: that fingerprint
    /// itself when no index file is near (so that those sources keep their identity), otherwise
    /// joined with the index files' paths, sizes, modification times and fingerprints.
    pub fn identity(&self, source: &Source, fingerprint: u64) -> u64 {
        let near = companion_folder(source).and_then(|d| self.0.get(&d).copied().flatten());
        match near {
            None => fingerprint,
            Some(c) => {
                let mut hasher = xxhash_rust::xxh3::Xxh3::new();
                hasher.update(&fingerprint.to_le_bytes());
                hasher.update(&c.to_le_bytes());
                hasher.update(&COMPANION_READING.to_le_bytes());
                hasher.digest()
            }
        }
    }
}

/// How the games of a source with index files near it are read from them, as a number: a source
/// indexed under another way is read again. 2: the move file's own index first, then the others
/// in order (1 took an id from whichever index file was read last).
const COMPANION_READING: u32 = 2;

/// A fingerprint of index files: their paths, sizes, modification times and contents'
/// [`fingerprint`]s; `None` when there are none.
fn companions_fingerprint(files: &[PathBuf]) -> Option<u64> {
    if files.is_empty() {
        return None;
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    for f in files {
        hasher.update(f.as_os_str().as_encoded_bytes());
        hasher.update(&[0]);
        match fs::metadata(f) {
            Ok(meta) => {
                hasher.update(&meta.len().to_le_bytes());
                hasher.update(&modified_ns(&meta).unwrap_or(0).to_le_bytes());
                let content = fingerprint(f, meta.len()).unwrap_or(0);
                hasher.update(&content.to_le_bytes());
            }
            // Unreadable now: a later run that can read it sees a change.
            Err(_) => hasher.update(b"unreadable"),
        }
    }
    Some(hasher.digest())
}

/// Reads into `buf` from `offset` until it is full or the file ends; how many bytes came.
fn fill_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut got = 0;
    while got < buf.len() {
        match file.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(got)
}
