//! What discovery hands over ([`Source`]: one file to read) and what reading delivers
//! ([`Record`]: one record file's name and bytes).

use std::ops::Deref;
use std::path::PathBuf;

use crate::mapped::Mapped;
use crate::watch::Watch;

use crate::kind::SourceKind;

/// One file on disk to read records from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Where the file is (as reached from the INPUT; for opening, not for display).
    pub path: PathBuf,
    /// Its name for game identity (see the crate docs); records are named from it.
    pub name: String,
    /// How it is read.
    pub kind: SourceKind,
    /// Its size on disk in bytes, when discovered: the total for progress reporting (0 for a
    /// stream).
    pub len: u64,
    /// Its absolute path with every link resolved: what bookkeeping knows it by (see the
    /// crate docs, "Identity").
    pub canonical: PathBuf,
    /// The canonical path of the INPUT directory it was found in; `None` when given directly.
    pub root: Option<PathBuf>,
    /// Its modification time (nanoseconds since the epoch), when discovered.
    pub modified: Option<u64>,
    /// Not a regular file (a pipe, `/dev/stdin`, a device) given directly: read as a stream,
    /// never mapped or sized, and without a stable identity.
    pub stream: bool,
    /// Largest record read from it once decompressed ([`MAX_RECORD_BYTES`](crate::MAX_RECORD_BYTES) unless the caller
    /// sets less): bounds what a decompression bomb costs before it is refused.
    pub max_record_bytes: u64,
}

impl Source {
    /// Whether the source holds many records (an archive) rather than one.
    pub fn is_archive(&self) -> bool {
        self.kind.is_archive()
    }
}

/// The bytes of one record file, decompressed.
#[derive(Debug)]
pub enum RecordBytes {
    /// A large plain file, memory-mapped (guarded: see [`crate::mapped`]).
    Mapped(Mapped),
    /// A small plain file, or anything decompressed or taken from an archive.
    Owned(Vec<u8>),
    /// An empty file (which cannot be mapped).
    Empty,
}

impl Deref for RecordBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Self::Mapped(map) => map,
            Self::Owned(bytes) => bytes,
            Self::Empty => &[],
        }
    }
}

impl RecordBytes {
    /// Whether the file was cut short by another program while it was mapped: the bytes past
    /// the cut read as zeros, so the games there are not the file's (see [`crate::mapped`]).
    /// Asked after the bytes were used; a file read into memory is never cut.
    pub fn cut_while_read(&self) -> bool {
        matches!(self, Self::Mapped(map) if map.is_damaged())
    }
}

impl AsRef<[u8]> for RecordBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// One record file (which may hold many games), as delivered by [`read_source`](crate::read_source).
#[derive(Debug)]
pub struct Record {
    /// Its name for game identity (see the crate docs).
    pub name: String,
    /// Its bytes, decompressed.
    pub bytes: RecordBytes,
    /// The bytes end early because reading failed (the error is returned by [`read_source`](crate::read_source)
    /// after this record); what is there was read correctly up to the damage, except for a zip
    /// member failing its CRC, whose bytes are complete but not trustworthy.
    pub damaged: bool,
    /// An archive's member that was not read although its name says it holds records, and
    /// why: an archive inside the archive, or a compressed form not read here (`x.sgf.gz`).
    /// Its `bytes` are empty; it is handed over so that it can be reported, never passed over.
    pub unread: Option<&'static str>,
    /// Bytes of the source file consumed when this record was complete, for progress reports:
    /// non-decreasing within a source and at most its length. Decoders read ahead, so this runs
    /// slightly ahead of the record; once a source is done, count it as [`Source::len`].
    pub consumed: u64,
    /// For a plain file, its size and modification time when its reading started, to tell
    /// whether it changed while it was read ([`Record::changed_while_read`]); `None` for a
    /// stream or an archive's member.
    pub watch: Option<Watch>,
}

impl Record {
    /// Whether the file was changed on disk (overwritten in place by another program?) since
    /// its reading started: its bytes may be partly the old file and partly the new, games torn
    /// in two that must not be taken for the file's. Asked after the bytes were used (a large
    /// file is mapped, and read as its games are parsed); a file that was cut short says so
    /// too, and also by [`RecordBytes::cut_while_read`].
    pub fn changed_while_read(&self) -> bool {
        self.watch.as_ref().is_some_and(Watch::changed)
    }
}

pub(crate) fn owned(bytes: Vec<u8>) -> RecordBytes {
    if bytes.is_empty() {
        RecordBytes::Empty
    } else {
        RecordBytes::Owned(bytes)
    }
}
