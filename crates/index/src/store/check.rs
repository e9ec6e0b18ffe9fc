//! Checking what a search reads of a segment against the checksums taken when it was written.
//!
//! The manifest records each segment file's whole-file CRC-32, but checking whole files when an
//! index is opened would read every byte of it (gigabytes) for a query that touches a few pages.
//! So each file is cut into blocks of [`BLOCK`] bytes, the writer records every block's CRC-32
//! in the segment's `sums.bin` ([`crate::store::layout::segment::BLOCK_SUMS`], itself checked whole
//! against the manifest when the segment is opened), and a [`Checked`] file verifies a block the
//! first time anything in it is read, once per process (a bitmap of verified blocks). A block
//! that does not match is noted in the segment's [`DamageLog`]; the bytes are still handed out
//! (the readers stay infallible and never panic on any bytes), and the answer computed from them
//! is refused by [`crate::Index::check_intact`], which names the file.
//!
//! Segments written before `sums.bin` existed (format 23 and older) have no block sums: their
//! mapped files are read unchecked, as they always were, and only the files read whole
//! (`copies.bin`, `long.bin`, `variations.bin`, `files.jsonl`) are checked against the
//! manifest's whole-file checksum. `qipu verify` checks every file of every format.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::read::Map;
use crate::IndexError;

/// Bytes per checked block. 64 KiB keeps the sums at 1/16,384 of the data (read whole at every
/// opening) while a block costs a few microseconds to check the first time it is touched.
pub const BLOCK: usize = 64 << 10;

/// The damaged files a segment found while it was read: (file, what is wrong), each file once.
#[derive(Debug, Default)]
pub struct DamageLog(Mutex<Vec<(PathBuf, String)>>);

impl DamageLog {
    /// Notes that `path` is damaged (the first problem found in it is kept).
    pub(crate) fn note(&self, path: &Path, problem: String) {
        let mut list = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !list.iter().any(|(p, _)| p == path) {
            list.push((path.to_path_buf(), problem));
        }
    }

    /// The damaged files found so far.
    pub fn list(&self) -> Vec<(PathBuf, String)> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// A segment file whose blocks are checked as they are first read (see the module docs).
pub(crate) struct Checked {
    map: Map,
    path: PathBuf,
    /// Each block's CRC-32 as written; `None` for a segment without block sums.
    sums: Option<Box<[u32]>>,
    /// One bit per block: checked already.
    verified: Box<[AtomicU64]>,
    log: Arc<DamageLog>,
}

impl Checked {
    /// `map`, the file at `path`, checked against `sums` (one per [`BLOCK`]), noting damage in
    /// `log`. Sums of another count than the file's blocks are damage of the sums' file, which
    /// [`BlockSums::parse`] already refused.
    pub(crate) fn new(
        map: Map,
        path: PathBuf,
        sums: Option<Box<[u32]>>,
        log: Arc<DamageLog>,
    ) -> Checked {
        let blocks = map.len().div_ceil(BLOCK);
        let words = if sums.is_some() {
            blocks.div_ceil(64)
        } else {
            0
        };
        Checked {
            map,
            path,
            sums,
            verified: (0..words).map(|_| AtomicU64::new(0)).collect(),
            log,
        }
    }

    /// The file's length in bytes (nothing is read).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// The bytes of `range`, after checking the blocks they lie in; `None` past the file's end.
    #[inline]
    pub(crate) fn get(&self, range: Range<usize>) -> Option<&[u8]> {
        let bytes = self.map.get(range.clone())?;
        self.check(range.start, range.end);
        Some(bytes)
    }

    /// The bytes without any check: for prefetch hints, which read nothing.
    #[inline]
    pub(crate) fn unchecked(&self) -> &[u8] {
        &self.map
    }

    /// Checks the blocks holding bytes `from..to` that are not checked yet.
    #[inline]
    fn check(&self, from: usize, to: usize) {
        if self.sums.is_none() || from >= to {
            return;
        }
        for b in from / BLOCK..=(to - 1) / BLOCK {
            let bit = 1u64 << (b % 64);
            if self.verified[b / 64].load(Ordering::Acquire) & bit == 0 {
                self.check_block(b);
            }
        }
    }

    /// Checks block `b` and marks it checked (a damaged one too: it is noted once).
    #[cold]
    fn check_block(&self, b: usize) {
        let Some(sums) = &self.sums else { return };
        let bytes = &self.map[b * BLOCK..((b + 1) * BLOCK).min(self.map.len())];
        let crc = crc32fast::hash(bytes);
        if sums.get(b) != Some(&crc) {
            self.log.note(
                &self.path,
                format!(
                    "bytes {} to {} do not match their checksum",
                    b * BLOCK,
                    b * BLOCK + bytes.len()
                ),
            );
        }
        self.verified[b / 64].fetch_or(1 << (b % 64), Ordering::Release);
    }
}

/// The block sums of a segment's files, by file name, as `sums.bin` holds them: for each file,
/// its name's length (`u16`) and name, its length (`u64`), then one CRC-32 (`u32`) a block.
#[derive(Debug, Default)]
pub(crate) struct BlockSums(HashMap<String, Box<[u32]>>);

impl BlockSums {
    /// `sums.bin` for `files`: (name, length, each block's CRC-32).
    pub(crate) fn encode<'a>(
        files: impl IntoIterator<Item = (&'a str, u64, &'a [u32])>,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, len, sums) in files {
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(&len.to_le_bytes());
            for s in sums {
                out.extend_from_slice(&s.to_le_bytes());
            }
        }
        out
    }

    /// The sums `bytes` hold; an error naming `path` when they are not such a list (each file
    /// with as many sums as it has blocks).
    pub(crate) fn parse(bytes: &[u8], path: &Path) -> Result<BlockSums, IndexError> {
        let bad = || {
            IndexError::Corrupt(format!(
                "{} is not a list of block checksums",
                path.display()
            ))
        };
        let mut map = HashMap::new();
        let mut at = 0usize;
        while at < bytes.len() {
            let field = |from: usize, n: usize| bytes.get(from..from + n).ok_or_else(bad);
            let name_len = u16::from_le_bytes(field(at, 2)?.try_into().unwrap()) as usize;
            let name = std::str::from_utf8(field(at + 2, name_len)?).map_err(|_| bad())?;
            at += 2 + name_len;
            let len = u64::from_le_bytes(field(at, 8)?.try_into().unwrap());
            at += 8;
            let blocks = usize::try_from(len).map_err(|_| bad())?.div_ceil(BLOCK);
            let sums = field(at, blocks.checked_mul(4).ok_or_else(bad)?)?
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
                .collect();
            at += blocks * 4;
            map.insert(name.to_string(), sums);
        }
        Ok(BlockSums(map))
    }

    /// The sums of file `name`, taken out.
    pub(crate) fn take(&mut self, name: &str) -> Option<Box<[u32]>> {
        self.0.remove(name)
    }
}

/// Bytes read by range: a plain slice, or a [`Checked`] file that checks what is read. The
/// readers of a table (occupancy columns, the records index) take either.
pub(crate) trait Bytes {
    /// The bytes of `range`; `None` past the end.
    fn get(&self, range: Range<usize>) -> Option<&[u8]>;
}

impl Bytes for [u8] {
    #[inline]
    fn get(&self, range: Range<usize>) -> Option<&[u8]> {
        <[u8]>::get(self, range)
    }
}

impl Bytes for Checked {
    #[inline]
    fn get(&self, range: Range<usize>) -> Option<&[u8]> {
        Checked::get(self, range)
    }
}
