//! Per-block checksums of the large tantivy files, so that a reader checks only what it reads.
//!
//! A reader checks each tantivy file against its footer CRC-32 the first time it opens it
//! (`directory.rs`), except a document store larger than [`STORE_CHECK_BYTES`]:
//! checking that whole cost a one-shot query a third more wall time, while a query reads a few
//! of its blocks. Without a check, a flipped byte that lz4 keeps as a literal changed a letter of
//! a name in the hits shown, silently. So once the writer has committed, each such store gets a
//! sidecar, [`PREFIX`] + `<segment>.store`: its length (`u64`), the CRC-32 (`u32`) of each
//! [`BLOCK`] of it, then a CRC-32 of those bytes (so a damaged sidecar is named, not trusted).
//! A reader opening a store with a sidecar hands tantivy a [`Summed`] file, which checks each
//! block the first time a read covers it and fails the read, naming the store, when it does not
//! match. A store without a sidecar (an index written before they existed, or a crash between a
//! commit and its sidecars: the next commit writes them) is read as before, unchecked.
//!
//! Sidecars are written with plain file calls, outside tantivy's managed list, so its garbage
//! collection never deletes them; [`write_missing`] deletes those whose store is gone (merged
//! away). A store is never rewritten (segment files are named after their segment's id), so a
//! sidecar stays right for as long as the file it describes exists.

use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use tantivy::directory::{FileHandle, OwnedBytes};
use tantivy::index::SegmentComponent;
use tantivy::{HasLen, Index};

use super::footer::footer_sound;
use super::MetaError;

/// A document store larger than this is not checked whole when a reader opens it (see
/// `directory::checked`); every other file is.
pub(crate) const STORE_CHECK_BYTES: u64 = 1 << 20;

/// Whether the tantivy file `path`, `len` bytes long, is checked by blocks rather than whole:
/// the files `directory::check_whole` leaves out, which the writer gives a sidecar of block sums
/// (this module's).
pub(crate) fn summed(path: &Path, len: u64) -> bool {
    path.extension() == Some(std::ffi::OsStr::new("store")) && len > STORE_CHECK_BYTES
}

/// Bytes per summed block: 64 KiB keeps a sidecar at 1/16,384 of its store (read whole when the
/// store is opened) while a block costs little to check the first time it is read. The index's
/// segment files are summed in blocks of the same size, by their own code.
const BLOCK: usize = 64 << 10;

/// What a sidecar's name puts before the name of the file it describes. A prefix, not a
/// suffix: a name that begins with a segment's id and a dot is taken for a file of that segment
/// (with a tantivy footer) by the checks of the folder, those of earlier qipu versions too.
pub(crate) const PREFIX: &str = "blocksums-";

/// Whether a file of this name is a sidecar.
pub(crate) fn is_sidecar(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// The sidecar of the file at `path`.
pub(crate) fn sidecar(path: &Path) -> PathBuf {
    let mut name = std::ffi::OsString::from(PREFIX);
    name.push(path.file_name().unwrap_or_default());
    path.with_file_name(name)
}

/// The sidecar's bytes for `bytes`, the whole file.
fn encode(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(12 + bytes.len().div_ceil(BLOCK) * 4);
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    for block in bytes.chunks(BLOCK) {
        out.extend_from_slice(&crc32fast::hash(block).to_le_bytes());
    }
    let own = crc32fast::hash(&out);
    out.extend_from_slice(&own.to_le_bytes());
    out
}

/// The block sums of the file at `path`, `len` bytes long, from its sidecar: `None` when it has
/// none; an error naming the sidecar when it is damaged or describes another length.
pub(crate) fn load(path: &Path, len: u64) -> io::Result<Option<Box<[u32]>>> {
    let side = sidecar(path);
    let bytes = match std::fs::read(&side) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let damaged = |why: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is damaged: {why}", side.display()),
        )
    };
    if bytes.len() < 12 || (bytes.len() - 12) % 4 != 0 {
        return Err(damaged("it is not a list of block checksums"));
    }
    let (body, own) = bytes.split_at(bytes.len() - 4);
    if crc32fast::hash(body) != u32::from_le_bytes(own.try_into().unwrap()) {
        return Err(damaged("its checksum fails"));
    }
    let described = u64::from_le_bytes(body[..8].try_into().unwrap());
    let sums: Box<[u32]> = body[8..]
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let blocks = usize::try_from(len).map_or(usize::MAX, |l| l.div_ceil(BLOCK));
    if described != len || sums.len() != blocks {
        return Err(damaged(&format!(
            "it describes {described} bytes, the file has {len}"
        )));
    }
    Ok(Some(sums))
}

/// Writes the sidecar of every committed document store of the index in `dir` that is larger
/// than a reader checks whole and has none yet, and deletes the sidecars whose file is gone.
/// Each is written to a temporary file and renamed, so a reader sees it whole or not at all.
pub(crate) fn write_missing(index: &Index, dir: &Path) -> Result<(), MetaError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MetaError::Io { path, source }
    };
    for segment in index.load_metas()?.segments {
        let path = dir.join(segment.relative_path(SegmentComponent::Store));
        let len = match std::fs::metadata(&path) {
            Ok(m) => m.len(),
            // A segment without stored documents has no store.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(io(&path)(e)),
        };
        let side = sidecar(&path);
        // A sound sidecar stays; a damaged one (which would make every read of a sound store
        // fail) is written again.
        if !summed(&path, len) || load(&path, len).is_ok_and(|s| s.is_some()) {
            continue;
        }
        let bytes = OwnedBytes::new(std::fs::read(&path).map_err(io(&path))?);
        // Sums are taken only of a store its own footer vouches for: sums of damaged bytes would
        // let readers, which then skip the footer, answer from them.
        footer_sound(&path, &bytes).map_err(io(&path))?;
        let mut tmp = side.clone().into_os_string();
        tmp.push(format!(".{}.tmp", std::process::id()));
        let tmp = PathBuf::from(tmp);
        let mut f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
        f.write_all(&encode(bytes.as_slice())).map_err(io(&tmp))?;
        f.sync_data().map_err(io(&tmp))?;
        std::fs::rename(&tmp, &side).map_err(io(&side))?;
    }
    for entry in std::fs::read_dir(dir).map_err(io(dir))?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(described) = name.strip_prefix(PREFIX) {
            if !dir.join(described).exists() {
                let p = entry.path();
                std::fs::remove_file(&p).map_err(io(&p))?;
            }
        }
    }
    Ok(())
}

/// The sidecars in `dir` that are damaged or describe a file of another length, by path (those
/// whose file is gone are not read).
pub(crate) fn damaged(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(described) = name.strip_prefix(PREFIX) else {
            continue;
        };
        // A sidecar whose store is gone (merged away, a crash before the commit that deletes
        // it) describes nothing anyone reads: left to the next commit, not damage.
        let Ok(m) = std::fs::metadata(dir.join(described)) else {
            continue;
        };
        let ok = load(&dir.join(described), m.len()).is_ok_and(|s| s.is_some());
        if !ok {
            bad.push(entry.path());
        }
    }
    Ok(bad)
}

/// A mapped tantivy file whose blocks are checked against its sidecar the first time a read
/// covers them, once per opening (a bitmap of the blocks found sound; a damaged block is checked
/// again at every read, so it fails every read).
pub(crate) struct Summed {
    bytes: OwnedBytes,
    path: PathBuf,
    sums: Box<[u32]>,
    sound: Box<[AtomicU64]>,
}

impl Summed {
    /// `bytes`, the file at `path`, checked against `sums` (one per [`BLOCK`], as [`load`]
    /// gives them).
    pub(crate) fn new(bytes: OwnedBytes, path: PathBuf, sums: Box<[u32]>) -> Summed {
        let words = sums.len().div_ceil(64);
        Summed {
            bytes,
            path,
            sums,
            sound: (0..words).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Checks block `b`, marking it sound; an error naming the file when it does not match.
    #[cold]
    fn check_block(&self, b: usize) -> io::Result<()> {
        let all = self.bytes.as_slice();
        let block = &all[b * BLOCK..((b + 1) * BLOCK).min(all.len())];
        if self.sums.get(b) != Some(&crc32fast::hash(block)) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} is damaged: bytes {} to {} do not match their checksum",
                    self.path.display(),
                    b * BLOCK,
                    b * BLOCK + block.len()
                ),
            ));
        }
        self.sound[b / 64].fetch_or(1 << (b % 64), Ordering::Relaxed);
        Ok(())
    }
}

impl std::fmt::Debug for Summed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Summed({})", self.path.display())
    }
}

impl HasLen for Summed {
    fn len(&self) -> usize {
        self.bytes.len()
    }
}

impl FileHandle for Summed {
    fn read_bytes(&self, range: Range<usize>) -> io::Result<OwnedBytes> {
        if range.start > range.end || range.end > self.bytes.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} is damaged: bytes {} to {} asked of {}",
                    self.path.display(),
                    range.start,
                    range.end,
                    self.bytes.len()
                ),
            ));
        }
        if range.start < range.end {
            for b in range.start / BLOCK..=(range.end - 1) / BLOCK {
                if self.sound[b / 64].load(Ordering::Relaxed) & (1 << (b % 64)) == 0 {
                    self.check_block(b)?;
                }
            }
        }
        Ok(self.bytes.slice(range))
    }
}
