//! Finds the record files that `qipu index` is pointed at and hands over their bytes.
//!
//! Game collections arrive in many shapes: a folder tree of one-game `.sgf` files, monthly
//! collections compressed with zstd, tarballs of a whole server's history, zips downloaded from a
//! website. Unpacking them to disk first would double the disk use and the time, so this module
//! reads every shape as a stream and delivers each record's bytes to the caller, one [`Record`] at
//! a time, under a stable name.
//!
//! Work is split in two steps so the caller can parallelise and report progress:
//! [`discover`] turns the command line's INPUTs into an ordered list of [`Source`]s (one file on
//! disk each, with its size), and [`read_source`] streams the records of one source. Sources are
//! independent, so they can be read on several threads.
//!
//! # What is taken
//!
//! * An INPUT that is a directory is walked recursively, following symbolic links and skipping
//!   broken ones; each directory is walked once (by device and inode), so links that lead to
//!   one directory by many ways ("diamonds") or back up (loops) cost nothing. Inside it, files
//!   are taken by name, ignoring case: `.sgf`, `.wtf`, `.gib`, `.ngf`, `.ugf`, `.ugi`, `.kifu`
//!   (records, whose format is then recognised from the content); the same followed by `.zst`
//!   (a zstd-compressed record file, usually a collection);
//!   `.zip`, `.tar`, `.tar.gz`, `.tgz`, `.tar.zst`, `.tzst` (archives). Everything else is ignored.
//!   A taken name that is not a regular file (a FIFO, a socket, a device) is never opened (a
//!   FIFO would block): it is listed in [`Discovery::skipped`]. A folder or file that cannot be
//!   listed or examined is listed in [`Discovery::unreadable`] with the OS error, and the walk
//!   goes on.
//! * A file reached twice (the same INPUT twice, under two spellings, through a link) is taken
//!   once, the first time.
//! * An INPUT that is a file is always taken: as an archive or a compressed file if its name says
//!   so (any `.zst` counts as compressed), otherwise as a record file whatever its name. One
//!   that is not a regular file (`/dev/stdin`, `<(…)`, a FIFO) is read as a stream
//!   ([`Source::stream`]): never mapped nor sized by its metadata, read to its end (up to
//!   [`MAX_RECORD_BYTES`]).
//! * Inside archives, regular-file members with those record endings (any case, plain or
//!   `.zst`) are taken; directories, links and other members are skipped. Archives
//!   inside archives are not opened.
//!
//! # Names (game identity)
//!
//! A record's name is what search results print as its `file` (see the oracle's "Game
//! identity"), so it must not depend on where the data was mounted:
//!
//! * For a file found in an INPUT directory: its path relative to that directory, `/`-separated
//!   (`fox-pro/7p/1.sgf` when indexing `datasets/`).
//! * For a file given directly as INPUT: the path as given, lexically cleaned: `.` components and
//!   repeated separators dropped, `/` separators, `..` kept, an absolute path stays absolute
//!   (`./games//a.sgf` → `games/a.sgf`). Keeping the directories avoids collisions between
//!   `x/a.sgf` and `y/a.sgf` given together.
//! * For a `.sgf.zst` file: the compressed file's own name (`tygem-9d/2009-01.sgf.zst`).
//! * For an archive member: the archive's name, `/`, the member's path inside the archive, cleaned
//!   the same way (a leading `./` or `/` removed; zip `\` separators read as `/`):
//!   `kgs-6d.tar.zst/kgs-6d/KGS2002/2002-07-17-5.sgf`.
//!
//! A name that is not valid UTF-8 is written with each invalid byte as `\xHH` (upper-case hex)
//! and each `\` doubled ([`display_name`]), so two names that differ only in such bytes stay
//! apart. With several directory INPUTs two records may get the same name (`a/x.sgf` and
//! `b/x.sgf` indexed as `a` and `b`): names are for display, not for bookkeeping.
//!
//! # Identity (bookkeeping)
//!
//! What an index has read is known by each file's canonical path ([`Source::canonical`]:
//! absolute, links resolved, written as a string by [`path_key`], which always gives the path
//! back), with its size, modification time and [`fingerprint`], as a file indexer would: the
//! same file under another spelling is known, another file of the same name is not, and a file
//! whose size, time or fingerprint moved has changed. A stream has no stable identity: its
//! canonical path is the one given, and the caller does not record it as read.
//!
//! # Order
//!
//! Sources come in command-line order of the INPUTs; the sources found in one directory are
//! sorted by name (byte order of the UTF-8 string), so the order does not depend on the file
//! system. Archive members come in archive order (central-directory order for zips).
//!
//! # Damage
//!
//! Real archives are sometimes truncated or corrupt, and the members before the damage are still
//! worth indexing. [`read_source`] therefore first delivers everything it can, then returns the
//! error ([`InputError::Damaged`]) for the caller to report. A record whose own bytes were cut by
//! the damage (a truncated member or `.sgf.zst`, a zip member failing its CRC) is still delivered
//! with what was read, flagged [`Record::damaged`], since the games before the cut are intact.
//! Streams (tar, compressed files) cannot be resynchronised, so reading stops at the first damage;
//! zip members are independent, so a broken one is skipped and the rest are read (the error then
//! counts the further broken members). A zip whose central directory is missing (truncated
//! download) is read by its local headers as far as they go. A tar that ends without its
//! end-of-archive marker is reported as truncated, after its members were delivered. Corrupt input
//! never panics; a panic inside the zip library (none is known) is caught and reported as damage,
//! though the panic hook still prints it.
//!
//! # Memory
//!
//! Archives and compressed files are streamed; only one member is held at a time, read fully
//! into memory (records are small: a monthly collection is ~15 MB). No record may exceed
//! [`MAX_RECORD_BYTES`] once decompressed, which guards against decompression bombs. Large plain
//! files are memory-mapped rather than copied; like every memory map this assumes the file is
//! not truncated by another process while it is being read.

use std::cell::Cell;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::ops::Deref;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Component, Path, PathBuf};

use memmap2::Mmap;

/// Largest record (after decompression) that is read; larger ones are reported as damage.
pub const MAX_RECORD_BYTES: u64 = 1 << 30;

/// zstd window the decoders accept: the shared datasets are compressed with `--long=27`.
const ZSTD_WINDOW_LOG_MAX: u32 = 27;

/// Plain files at least this large are memory-mapped; smaller ones are cheaper to read.
const MMAP_MIN_BYTES: u64 = 256 * 1024;

/// Buffer between a decompressor and the archive reader (tar reads 512-byte blocks).
const STREAM_BUFFER_BYTES: usize = 256 * 1024;

/// How a source file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceKind {
    /// One record file, read as is.
    Plain,
    /// One zstd-compressed record file (`.sgf.zst`).
    Zstd,
    /// A zip archive.
    Zip,
    /// An uncompressed tar archive.
    Tar,
    /// A gzip-compressed tar archive (`.tar.gz`, `.tgz`).
    TarGz,
    /// A zstd-compressed tar archive (`.tar.zst`, `.tzst`).
    TarZst,
}

impl SourceKind {
    /// Whether the source holds many records (an archive) rather than one.
    pub fn is_archive(self) -> bool {
        matches!(self, Self::Zip | Self::Tar | Self::TarGz | Self::TarZst)
    }

    /// The kind of a file found while walking a directory, from its name; `None`: not taken.
    fn in_directory(name: &str) -> Option<Self> {
        let lower = name.to_ascii_lowercase();
        let kind = if lower.ends_with(".tar.zst") || lower.ends_with(".tzst") {
            Self::TarZst
        } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
            Self::TarGz
        } else if lower.ends_with(".tar") {
            Self::Tar
        } else if lower.ends_with(".zip") {
            Self::Zip
        } else {
            match MemberKind::of(&lower)? {
                MemberKind::Raw => Self::Plain,
                MemberKind::Zstd => Self::Zstd,
            }
        };
        Some(kind)
    }

    /// The kind of a file named on the command line: always taken.
    fn given(name: &str) -> Self {
        match Self::in_directory(name) {
            Some(kind) => kind,
            None if name.to_ascii_lowercase().ends_with(".zst") => Self::Zstd,
            None => Self::Plain,
        }
    }
}

/// One file on disk to read records from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Where the file is (as reached from the INPUT; for opening, not for display).
    pub path: PathBuf,
    /// Its name for game identity (see the module docs); records are named from it.
    pub name: String,
    /// How it is read.
    pub kind: SourceKind,
    /// Its size on disk in bytes, when discovered: the total for progress reporting (0 for a
    /// stream).
    pub len: u64,
    /// Its absolute path with every link resolved: what bookkeeping knows it by (see the
    /// module docs, "Identity").
    pub canonical: PathBuf,
    /// The canonical path of the INPUT directory it was found in; `None` when given directly.
    pub root: Option<PathBuf>,
    /// Its modification time (nanoseconds since the epoch), when discovered.
    pub modified: Option<u64>,
    /// Not a regular file (a pipe, `/dev/stdin`, a device) given directly: read as a stream,
    /// never mapped or sized, and without a stable identity.
    pub stream: bool,
    /// Largest record read from it once decompressed ([`MAX_RECORD_BYTES`] unless the caller
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
    /// A large plain file, memory-mapped.
    Mapped(Mmap),
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

impl AsRef<[u8]> for RecordBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// One record file (which may hold many games), as delivered by [`read_source`].
#[derive(Debug)]
pub struct Record {
    /// Its name for game identity (see the module docs).
    pub name: String,
    /// Its bytes, decompressed.
    pub bytes: RecordBytes,
    /// The bytes end early because reading failed (the error is returned by [`read_source`]
    /// after this record); what is there was read correctly up to the damage, except for a zip
    /// member failing its CRC, whose bytes are complete but not trustworthy.
    pub damaged: bool,
    /// Bytes of the source file consumed when this record was complete, for progress reports:
    /// non-decreasing within a source and at most its length. Decoders read ahead, so this runs
    /// slightly ahead of the record; once a source is done, count it as [`Source::len`].
    pub consumed: u64,
}

/// Why an INPUT could not be found or a source could not be (fully) read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// An INPUT named on the command line does not exist.
    #[error("{}: no such file or directory", .path.display())]
    Missing {
        /// The INPUT as given.
        path: PathBuf,
    },
    /// A file or directory could not be opened, listed or read; nothing of it was delivered.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// An archive is damaged: `delivered` records were handed over before (counting a damaged
    /// one), then this was found.
    #[error("{}: {}{source} (after {delivered} records{})", .path.display(), Member(.member), More(*.more))]
    Damaged {
        /// The archive.
        path: PathBuf,
        /// The member being read when the damage was found, if it is known.
        member: Option<String>,
        /// Records delivered from this source before the error was returned.
        delivered: usize,
        /// Further damaged members skipped after this one (zip only; streams stop at the first).
        more: usize,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

/// Formats an optional member name as a prefix of the cause.
struct Member<'a>(&'a Option<String>);

impl fmt::Display for Member<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(member) => write!(f, "{member}: "),
            None => Ok(()),
        }
    }
}

/// Formats the count of further damaged members, if any.
struct More(usize);

impl fmt::Display for More {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => Ok(()),
            1 => f.write_str("; 1 more damaged member skipped"),
            n => write!(f, "; {n} more damaged members skipped"),
        }
    }
}

/// What [`discover_all`] found: the sources, the directories it walked, and what it could not
/// take.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Sources in command-line order, each directory's sorted by name; each file once.
    pub sources: Vec<Source>,
    /// Canonical paths of the INPUT directories walked, completely or not.
    pub roots: Vec<PathBuf>,
    /// Files found while walking that were not opened (FIFOs, sockets, devices), with why.
    pub skipped: Vec<Skipped>,
    /// Directories and files that could not be listed or examined: the walk went on without
    /// them. A caller must not take their absence for a deletion.
    pub unreadable: Vec<InputError>,
}

/// A file found while walking a directory and left unopened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub reason: &'static str,
}

/// Lists the sources of the given INPUTs (directories, record files, compressed files,
/// archives), in command-line order, each directory's sources sorted by name, each file once.
///
/// A missing INPUT is an [`InputError::Missing`] naming it; an unreadable directory on the way is
/// an [`InputError::Io`]. Nothing is opened or read beyond directory listings and file sizes.
/// For a walk that goes past unreadable parts, see [`discover_all`].
pub fn discover(inputs: &[PathBuf]) -> Result<Vec<Source>, InputError> {
    let mut found = discover_all(inputs)?;
    match found.unreadable.is_empty() {
        true => Ok(found.sources),
        false => Err(found.unreadable.swap_remove(0)),
    }
}

/// Like [`discover`], but an unreadable directory or file below an INPUT is reported in
/// [`Discovery::unreadable`] and the walk goes on. Only an INPUT itself that is missing or
/// cannot be examined is an error.
///
/// Each directory is walked once, by device and inode, however many links lead to it (so link
/// "diamonds" cost nothing and loops end); each file is taken once, by canonical path, however
/// many INPUTs or links reach it (the first reach names it).
pub fn discover_all(inputs: &[PathBuf]) -> Result<Discovery, InputError> {
    let mut walker = Walker::default();
    for input in inputs {
        let input_err = |source: io::Error| {
            if source.kind() == io::ErrorKind::NotFound {
                InputError::Missing {
                    path: input.clone(),
                }
            } else {
                InputError::Io {
                    path: input.clone(),
                    source,
                }
            }
        };
        let meta = fs::metadata(input).map_err(input_err)?;
        let canonical = match fs::canonicalize(input) {
            Ok(canonical) => canonical,
            // `/dev/stdin` of a pipe resolves to `pipe:[…]`, which is no path: a stream is
            // known by the path given.
            Err(_) if !meta.is_dir() && !meta.is_file() => input.clone(),
            Err(source) => return Err(input_err(source)),
        };
        if meta.is_dir() {
            let mut found = Vec::new();
            if walker.first_visit(&meta) {
                walker.walk(input, &canonical, "", &mut found);
            }
            found.sort_by(|a, b| a.name.cmp(&b.name));
            walker.found.roots.push(canonical);
            walker.found.sources.extend(found);
        } else {
            if !walker.files.insert(canonical.clone()) {
                continue;
            }
            let name = clean_path(input);
            let kind = SourceKind::given(&name);
            let stream = !meta.is_file();
            walker.found.sources.push(Source {
                path: input.clone(),
                name,
                kind,
                len: if stream { 0 } else { meta.len() },
                canonical,
                root: None,
                modified: modified_ns(&meta),
                stream,
                max_record_bytes: MAX_RECORD_BYTES,
            });
        }
    }
    Ok(walker.found)
}

/// The state of one discovery: what was found, and what was already seen.
#[derive(Default)]
struct Walker {
    found: Discovery,
    /// Directories walked, by (device, inode).
    dirs: std::collections::HashSet<(u64, u64)>,
    /// Files taken, by canonical path.
    files: std::collections::HashSet<PathBuf>,
    /// The canonical path of the INPUT directory being walked.
    root: PathBuf,
}

impl Walker {
    /// Whether the directory of `meta` is seen for the first time (and marks it seen).
    fn first_visit(&mut self, meta: &fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        self.dirs.insert((meta.dev(), meta.ino()))
    }

    /// Collects the sources under `dir` (canonically `canonical`), whose name relative to the
    /// INPUT is `prefix`; entries are visited in name order, so which of several links to one
    /// directory names its files does not depend on the file system.
    fn walk(&mut self, dir: &Path, canonical: &Path, prefix: &str, found: &mut Vec<Source>) {
        if prefix.is_empty() {
            self.root = canonical.to_path_buf();
        }
        let mut entries = Vec::new();
        match fs::read_dir(dir) {
            Ok(listing) => {
                for entry in listing {
                    match entry {
                        Ok(entry) => entries.push(entry),
                        Err(source) => self.unreadable(dir, source),
                    }
                }
            }
            Err(source) => return self.unreadable(dir, source),
        }
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let file_name = display_name(&entry.file_name());
            let name = if prefix.is_empty() {
                file_name.clone()
            } else {
                format!("{prefix}/{file_name}")
            };
            let file_type = match entry.file_type() {
                Ok(t) => t,
                Err(source) => {
                    self.unreadable(&path, source);
                    continue;
                }
            };
            let meta = if file_type.is_symlink() {
                match fs::metadata(&path) {
                    Ok(meta) => meta,
                    Err(_) => continue, // a broken link is not a file
                }
            } else {
                match entry.metadata() {
                    Ok(meta) => meta,
                    Err(source) => {
                        self.unreadable(&path, source);
                        continue;
                    }
                }
            };
            // Not a link: its canonical path is its parent's plus its name (no system call).
            let canonical_of = |path: &Path| match file_type.is_symlink() {
                true => fs::canonicalize(path),
                false => Ok(canonical.join(entry.file_name())),
            };
            if meta.is_dir() {
                if !self.first_visit(&meta) {
                    continue; // a loop, or another way to a directory already walked
                }
                match canonical_of(&path) {
                    Ok(sub) => self.walk(&path, &sub, &name, found),
                    Err(source) => self.unreadable(&path, source),
                }
            } else if let Some(kind) = SourceKind::in_directory(&file_name) {
                if !meta.is_file() {
                    // A FIFO would block the walk when opened, a device never ends.
                    self.found.skipped.push(Skipped {
                        path,
                        reason: "not a regular file",
                    });
                    continue;
                }
                let canonical = match canonical_of(&path) {
                    Ok(c) => c,
                    Err(source) => {
                        self.unreadable(&path, source);
                        continue;
                    }
                };
                if !self.files.insert(canonical.clone()) {
                    continue;
                }
                found.push(Source {
                    path,
                    name,
                    kind,
                    len: meta.len(),
                    canonical,
                    root: Some(self.root.clone()),
                    modified: modified_ns(&meta),
                    stream: false,
                    max_record_bytes: MAX_RECORD_BYTES,
                });
            }
        }
    }

    fn unreadable(&mut self, path: &Path, source: io::Error) {
        self.found.unreadable.push(InputError::Io {
            path: path.to_path_buf(),
            source,
        });
    }
}

/// A file's modification time in nanoseconds since the epoch, if the system has one.
fn modified_ns(meta: &fs::Metadata) -> Option<u64> {
    let since = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    u64::try_from(since.as_nanos()).ok()
}

/// A file name for display and game identity: itself when it is valid UTF-8; otherwise each
/// byte that is not part of valid UTF-8 written `\xHH` (upper-case hex) and each `\` doubled, so
/// that two names differing only in such bytes stay apart (a lossy conversion would print both
/// with U+FFFD). A valid name that spells `\xHH` literally can still equal an escaped one;
/// bookkeeping does not rely on display names (see [`path_key`]).
pub fn display_name(name: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    match name.to_str() {
        Some(text) => text.to_string(),
        None => escape_bytes(name.as_bytes()),
    }
}

/// Bytes of a name as [`display_name`] shows them.
fn display_bytes(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => escape_bytes(bytes),
    }
}

/// `bytes` with invalid UTF-8 written `\xHH` and `\` doubled.
fn escape_bytes(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(&text.replace('\\', "\\\\"));
                return out;
            }
            Err(err) => {
                let (good, rest) = bytes.split_at(err.valid_up_to());
                let good = std::str::from_utf8(good).expect("checked valid");
                out.push_str(&good.replace('\\', "\\\\"));
                let bad = err.error_len().unwrap_or(rest.len());
                for b in &rest[..bad] {
                    out.push_str(&format!("\\x{b:02X}"));
                }
                bytes = &rest[bad..];
            }
        }
    }
}

/// The key a path is known by in bookkeeping: its bytes, with invalid UTF-8 written `\xHH` and
/// `\` always doubled, so that distinct paths always get distinct keys and
/// [`path_of_key`] gives the path back.
pub fn path_key(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    match std::str::from_utf8(bytes) {
        Ok(text) => text.replace('\\', "\\\\"),
        Err(_) => escape_bytes(bytes),
    }
}

/// The path a [`path_key`] was made from (`None` if `key` is not one).
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

/// The path as given, lexically cleaned, with `/` separators (see the module docs).
fn clean_path(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut absolute = false;
    for component in path.components() {
        match component {
            Component::Prefix(prefix) => parts.push(prefix.as_os_str().to_string_lossy().into()),
            Component::RootDir => absolute = true,
            Component::CurDir => {}
            Component::ParentDir => parts.push("..".into()),
            Component::Normal(part) => parts.push(display_name(part)),
        }
    }
    let joined = parts.join("/");
    if absolute && !matches!(path.components().next(), Some(Component::Prefix(_))) {
        format!("/{joined}")
    } else {
        joined
    }
}

/// A member's path inside an archive, cleaned: no leading `./` or `/`, no empty or `.` parts.
fn clean_member(name: &str) -> String {
    name.split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect::<Vec<_>>()
        .join("/")
}

/// How a taken archive member (or directory file) holds its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MemberKind {
    /// The record itself.
    Raw,
    /// The record compressed with zstd.
    Zstd,
}

impl MemberKind {
    /// Whether a name is taken as a record, and how; `lower` is already lower-case.
    fn of(lower: &str) -> Option<Self> {
        let record = |name: &str| RECORD_ENDINGS.iter().any(|e| name.ends_with(e));
        if record(lower) {
            Some(Self::Raw)
        } else if lower.strip_suffix(".zst").is_some_and(record) {
            Some(Self::Zstd)
        } else {
            None
        }
    }
}

/// The endings of record files taken in folders and archives: SGF, WTF, and the server formats
/// `sgf` reads (GIB, NGF, UGF/UGI, kifu-line move files). The format itself is recognised from
/// the content; the ending only decides what a walk opens. A kifu-line index (`.index`) is not
/// taken: it holds no game of its own.
const RECORD_ENDINGS: [&str; 7] = [".sgf", ".wtf", ".gib", ".ngf", ".ugf", ".ugi", ".kifu"];

#[cfg(test)]
mod record_endings {
    #[test]
    fn every_format_is_taken_plain_or_compressed() {
        use super::MemberKind::{self, Raw, Zstd};
        for e in super::RECORD_ENDINGS {
            assert_eq!(MemberKind::of(&format!("x{e}")), Some(Raw), "{e}");
            assert_eq!(MemberKind::of(&format!("x{e}.zst")), Some(Zstd), "{e}");
        }
        assert_eq!(MemberKind::of("kifu.index"), None);
    }
}

/// Streams every record of `source` to `sink`: one for a plain or compressed file, one per taken
/// member for an archive, in archive order.
///
/// On damage, the records before it (and the damaged one, flagged) are delivered first and the
/// error is returned afterwards; see the module docs. Never panics on corrupt input.
pub fn read_source(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    match source.kind {
        SourceKind::Plain => read_plain(source, sink),
        SourceKind::Zstd => read_zstd_file(source, sink),
        SourceKind::Zip => read_zip(source, sink),
        SourceKind::Tar | SourceKind::TarGz | SourceKind::TarZst => read_tar(source, sink),
    }
}

/// Bytes taken from each end of a file for its [`fingerprint`].
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

fn open(source: &Source) -> Result<File, InputError> {
    File::open(&source.path).map_err(|err| io_error(source, err))
}

fn io_error(source: &Source, err: io::Error) -> InputError {
    InputError::Io {
        path: source.path.clone(),
        source: err,
    }
}

fn read_plain(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    let mut file = open(source)?;
    if source.stream {
        // A pipe says it is empty and cannot be mapped: read what comes, up to the limit.
        let (bytes, err) = read_limited(&mut file, 0, source.max_record_bytes);
        // Its length is not known beforehand (0): progress cannot count it.
        return deliver_one(source, sink, bytes, err, 0);
    }
    let len = file.metadata().map_err(|err| io_error(source, err))?.len();
    let bytes = if len == 0 {
        RecordBytes::Empty
    } else if len >= MMAP_MIN_BYTES {
        // SAFETY: the map is only read. As with any file map, another process truncating the
        // file meanwhile would fault; record files being indexed are not expected to change.
        let map = unsafe { Mmap::map(&file) }.map_err(|err| io_error(source, err))?;
        RecordBytes::Mapped(map)
    } else {
        let mut bytes = Vec::with_capacity(len as usize);
        file.read_to_end(&mut bytes)
            .map_err(|err| io_error(source, err))?;
        RecordBytes::Owned(bytes)
    };
    let bytes = with_kifu_index(source, bytes);
    sink(Record {
        name: source.name.clone(),
        bytes,
        damaged: false,
        consumed: len.min(source.len),
    });
    Ok(())
}

/// A kifu-line move file travels with its index: the `*.index` files of its folder and of the
/// folder above (Tom's dataset keeps `Tom/Kifu.index` beside `Tom/kifu/2003-09`), packed with it
/// by [`sgf::pack_kifu_pair`] so that its games get their players, date, komi and result. Any
/// other record, or a move file with no index near it (then read alone, and said so by the
/// reader), is returned as it is.
fn with_kifu_index(source: &Source, bytes: RecordBytes) -> RecordBytes {
    if !sgf::is_kifu_moves(&bytes) {
        return bytes;
    }
    let dir = match source.path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut index = Vec::new();
    for d in std::iter::once(dir.as_path()).chain(dir.parent()) {
        let Ok(entries) = fs::read_dir(d) else {
            continue;
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
        for f in files {
            // All the index files together stay within the record limit.
            let room = source.max_record_bytes.saturating_sub(index.len() as u64);
            if f.metadata().is_ok_and(|m| m.len() > room) {
                continue;
            }
            if let Ok(b) = fs::read(&f) {
                index.extend_from_slice(&b);
                index.push(b'\n');
            }
        }
    }
    if index.is_empty() {
        return bytes;
    }
    RecordBytes::Owned(sgf::pack_kifu_pair(&index, &bytes))
}

fn read_zstd_file(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    let count = Cell::new(0);
    let file = Counting {
        inner: open(source)?,
        count: &count,
    };
    let (bytes, err) = decode_zstd(file, source.max_record_bytes);
    let consumed = count.get().min(source.len);
    deliver_one(source, sink, bytes, err, consumed)
}

/// Delivers the one record of a plain stream or a compressed file, then its reading error, if
/// any, as damage after it.
fn deliver_one(
    source: &Source,
    sink: &mut dyn FnMut(Record),
    bytes: Vec<u8>,
    err: Option<io::Error>,
    consumed: u64,
) -> Result<(), InputError> {
    let delivered = deliver(sink, source.name.clone(), bytes, err.as_ref(), consumed);
    match err {
        None => Ok(()),
        Some(err) => Err(InputError::Damaged {
            path: source.path.clone(),
            member: None,
            delivered,
            more: 0,
            source: err,
        }),
    }
}

fn owned(bytes: Vec<u8>) -> RecordBytes {
    if bytes.is_empty() {
        RecordBytes::Empty
    } else {
        RecordBytes::Owned(bytes)
    }
}

/// Reads everything `reader` yields, up to [`MAX_RECORD_BYTES`]: the bytes read and, if reading
/// stopped early, why (the bytes are then a prefix; none if the record was too large).
fn read_limited<R: Read + ?Sized>(
    reader: &mut R,
    size_hint: u64,
    max: u64,
) -> (Vec<u8>, Option<io::Error>) {
    // The hint comes from a header: trust it only for a modest preallocation.
    let mut bytes = Vec::with_capacity(size_hint.min(64 << 20) as usize);
    match Read::take(reader, max + 1).read_to_end(&mut bytes) {
        Err(err) => (bytes, Some(err)),
        Ok(_) if bytes.len() as u64 > max => (Vec::new(), Some(too_large(max))),
        Ok(_) => (bytes, None),
    }
}

/// Decompresses a zstd stream (frames concatenated), accepting the datasets' large window.
///
/// The first frame's header usually says how large it is decompressed: the output is sized from
/// it, instead of growing by doubling (copying each time, and touching fresh memory twice). The
/// decoder writes straight into the output's spare capacity: through `Read::read_to_end`, each
/// stretch of it was zero-filled first: 1.7% of the samples of `perf record --call-graph dwarf
/// qipu index --rebuild … ../shared/datasets`, and a build's CPU time 13.30 → 13.14 s without it
/// (`scripts/ab 3`, medians).
/// On an error, what decoded before it is returned with the error.
fn decode_zstd<R: Read>(reader: R, max: u64) -> (Vec<u8>, Option<io::Error>) {
    use zstd::zstd_safe::{DCtx, DParameter, InBuffer, OutBuffer};
    let mut reader = BufReader::with_capacity(DCtx::in_size(), reader);
    let size_hint = match reader.fill_buf() {
        Ok(head) => zstd::zstd_safe::get_frame_content_size(head)
            .ok()
            .flatten()
            .unwrap_or(0),
        Err(err) => return (Vec::new(), Some(err)),
    };
    let mut dctx = DCtx::create();
    if let Err(code) = dctx.set_parameter(DParameter::WindowLogMax(ZSTD_WINDOW_LOG_MAX)) {
        return (Vec::new(), Some(zstd_error(code)));
    }
    // The hint comes from a header: trust it only for a modest preallocation.
    let mut out: Vec<u8> = Vec::with_capacity(size_hint.min(64 << 20) as usize);
    // A frame has begun and not ended.
    let mut in_frame = false;
    loop {
        let input = match reader.fill_buf() {
            Ok(input) => input,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return (out, Some(err)),
        };
        if input.is_empty() {
            break;
        }
        let mut source = InBuffer::around(input);
        loop {
            if out.len() == out.capacity() {
                // Grown by doubling, but never past the limit: a few kilobytes of zstd can
                // stand for any amount of output.
                let limit = max as usize + 1;
                if out.len() >= limit {
                    return (Vec::new(), Some(too_large(max)));
                }
                out.reserve_exact(out.capacity().max(1 << 16).min(limit - out.len()));
            }
            let filled = out.len();
            let mut sink = OutBuffer::around_pos(&mut out, filled);
            match dctx.decompress_stream(&mut sink, &mut source) {
                Ok(hint) => in_frame = hint != 0,
                Err(code) => return (out, Some(zstd_error(code))),
            }
            // All input taken, and the frame ended or room left over: the decoder holds
            // nothing back. (Called again after a frame's end, it would await the next one.)
            if source.pos() == input.len() && (!in_frame || out.len() < out.capacity()) {
                break;
            }
        }
        let used = source.pos();
        reader.consume(used);
    }
    if in_frame {
        return (
            out,
            Some(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "incomplete zstd frame",
            )),
        );
    }
    if out.len() as u64 > max {
        return (Vec::new(), Some(too_large(max)));
    }
    (out, None)
}

/// A zstd error code as an I/O error, with zstd's own words.
fn zstd_error(code: usize) -> io::Error {
    io::Error::other(zstd::zstd_safe::get_error_name(code))
}

/// The error of a record past `max` bytes.
fn too_large(max: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("record larger than {max} bytes"),
    )
}

/// Reads one taken member fully (`size` as its header says) and decompresses it if needed.
fn read_member<R: Read + ?Sized>(
    reader: &mut R,
    size: u64,
    kind: MemberKind,
    max: u64,
) -> (Vec<u8>, Option<io::Error>) {
    let (bytes, mut err) = read_limited(reader, size, max);
    if err.is_none() && (bytes.len() as u64) < size {
        err = Some(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("member ends after {} of {size} bytes", bytes.len()),
        ));
    }
    match kind {
        MemberKind::Raw => (bytes, err),
        MemberKind::Zstd => {
            let (decoded, decode_err) = decode_zstd(&bytes[..], max);
            // A cut in the compressed bytes shows as a decoding error too; report the cut.
            (decoded, err.or(decode_err))
        }
    }
}

fn read_tar(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    let count = Cell::new(0);
    let file = Counting {
        inner: open(source)?,
        count: &count,
    };
    let damaged = |member: Option<String>, delivered: usize, err: io::Error| InputError::Damaged {
        path: source.path.clone(),
        member,
        delivered,
        more: 0,
        source: err,
    };
    let decoded: Box<dyn Read + '_> = match source.kind {
        SourceKind::TarGz => Box::new(flate2::read::MultiGzDecoder::new(BufReader::with_capacity(
            STREAM_BUFFER_BYTES,
            file,
        ))),
        SourceKind::TarZst => {
            let mut decoder =
                zstd::stream::read::Decoder::new(file).map_err(|err| damaged(None, 0, err))?;
            decoder
                .window_log_max(ZSTD_WINDOW_LOG_MAX)
                .map_err(|err| damaged(None, 0, err))?;
            Box::new(decoder)
        }
        _ => Box::new(file),
    };
    // Set when the tar reader asks for bytes past the end: it only does so when the archive
    // ends without its end-of-archive marker, i.e. most likely truncated between members.
    let hit_end = Cell::new(false);
    let stream = EndFlag {
        inner: BufReader::with_capacity(STREAM_BUFFER_BYTES, decoded),
        hit_end: &hit_end,
    };
    let mut archive = tar::Archive::new(stream);
    let entries = archive.entries().map_err(|err| damaged(None, 0, err))?;
    let mut delivered = 0;
    for entry in entries {
        let mut entry = entry.map_err(|err| damaged(None, delivered, err))?;
        let entry_type = entry.header().entry_type();
        if !matches!(
            entry_type,
            tar::EntryType::Regular | tar::EntryType::Continuous
        ) {
            continue;
        }
        let member = clean_member(&display_bytes(&entry.path_bytes()));
        let Some(kind) = MemberKind::of(&member.to_ascii_lowercase()) else {
            continue;
        };
        let size = entry.size();
        let (bytes, err) = read_member(&mut entry, size, kind, source.max_record_bytes);
        let name = format!("{}/{member}", source.name);
        delivered += deliver(sink, name, bytes, err.as_ref(), count.get());
        if let Some(err) = err {
            return Err(damaged(Some(member), delivered, err));
        }
    }
    if hit_end.get() {
        return Err(damaged(
            None,
            delivered,
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "archive ends without its end-of-archive marker (truncated?)",
            ),
        ));
    }
    Ok(())
}

/// Hands what was read of one record file to `sink`, unless reading failed before any byte came
/// (a damaged file still gives what it had); returns how many records that was (0 or 1).
fn deliver(
    sink: &mut dyn FnMut(Record),
    name: String,
    bytes: Vec<u8>,
    err: Option<&io::Error>,
    consumed: u64,
) -> usize {
    if err.is_some() && bytes.is_empty() {
        return 0;
    }
    sink(Record {
        name,
        bytes: owned(bytes),
        damaged: err.is_some(),
        consumed,
    });
    1
}

/// Runs a call into the zip library, turning a panic on corrupt input into an error.
fn guarded<T>(call: impl FnOnce() -> zip::result::ZipResult<T>) -> io::Result<T> {
    match panic::catch_unwind(AssertUnwindSafe(call)) {
        Ok(result) => result.map_err(io::Error::from),
        Err(_) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the zip reader failed on corrupt data",
        )),
    }
}

/// What was read of one zip member: its cleaned name, and its bytes and error as by
/// [`read_member`]; `None` if the member is not taken.
type ZipMember = Option<(String, Vec<u8>, Option<io::Error>)>;

fn take_zip_member<R: Read>(file: &mut zip::read::ZipFile<'_, R>, max: u64) -> ZipMember {
    if !file.is_file() {
        return None;
    }
    let member = clean_member(&file.name().replace('\\', "/"));
    let kind = MemberKind::of(&member.to_ascii_lowercase())?;
    let size = file.size();
    let (bytes, err) = read_member(file, size, kind, max);
    Some((member, bytes, err))
}

fn read_zip(source: &Source, sink: &mut dyn FnMut(Record)) -> Result<(), InputError> {
    let count = Cell::new(0);
    let reader = BufReader::new(Counting {
        inner: open(source)?,
        count: &count,
    });
    let mut archive = match guarded(|| zip::ZipArchive::new(reader)) {
        Ok(archive) => archive,
        Err(central) => return read_zip_stream(source, sink, central),
    };
    let mut delivered = 0;
    let mut first_err: Option<(Option<String>, io::Error)> = None;
    let mut more = 0;
    for index in 0..archive.len() {
        let read = guarded(|| {
            let mut file = archive.by_index(index)?;
            Ok(take_zip_member(&mut file, source.max_record_bytes))
        });
        let (member, err) = match read {
            Ok(None) => continue,
            Ok(Some((member, bytes, err))) => {
                let name = format!("{}/{member}", source.name);
                let consumed = count.get().min(source.len);
                delivered += deliver(sink, name, bytes, err.as_ref(), consumed);
                match err {
                    None => continue,
                    Some(err) => (Some(member), err),
                }
            }
            Err(err) => (archive.name_for_index(index).map(clean_member), err),
        };
        match first_err {
            None => first_err = Some((member, err)),
            Some(_) => more += 1,
        }
    }
    match first_err {
        None => Ok(()),
        Some((member, err)) => Err(InputError::Damaged {
            path: source.path.clone(),
            member,
            delivered,
            more,
            source: err,
        }),
    }
}

/// Reads a zip whose central directory is unreadable by its local headers, from the start:
/// this saves the members of a truncated download. The archive is damaged either way, so an
/// error is always returned (with `central`, the central directory's).
fn read_zip_stream(
    source: &Source,
    sink: &mut dyn FnMut(Record),
    central: io::Error,
) -> Result<(), InputError> {
    let count = Cell::new(0);
    let mut reader = BufReader::new(Counting {
        inner: open(source)?,
        count: &count,
    });
    let mut delivered = 0;
    let stopped = loop {
        let read = guarded(|| {
            Ok(zip::read::read_zipfile_from_stream(&mut reader)?
                .map(|mut file| take_zip_member(&mut file, source.max_record_bytes)))
        });
        match read {
            Ok(None) => break None,
            Ok(Some(None)) => continue,
            Ok(Some(Some((member, bytes, err)))) => {
                let name = format!("{}/{member}", source.name);
                let consumed = count.get().min(source.len);
                delivered += deliver(sink, name, bytes, err.as_ref(), consumed);
                if let Some(err) = err {
                    break Some((Some(member), err));
                }
            }
            Err(err) => break Some((None, err)),
        }
    };
    let (member, err) = match stopped {
        None => (None, central),
        Some((member, err)) => (
            member,
            io::Error::new(
                err.kind(),
                format!("{central}; read by local headers until: {err}"),
            ),
        ),
    };
    Err(InputError::Damaged {
        path: source.path.clone(),
        member,
        delivered,
        more: 0,
        source: err,
    })
}

/// Counts the bytes read from the source file, for progress reports.
struct Counting<'a, R> {
    inner: R,
    count: &'a Cell<u64>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<'_, R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Notes whether a reader was asked for bytes after it had none left.
struct EndFlag<'a, R> {
    inner: R,
    hit_end: &'a Cell<bool>,
}

impl<R: Read> Read for EndFlag<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.hit_end.set(true);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zstd_frames_decode_whole_or_up_to_the_damage() {
        let text = |n: usize| -> Vec<u8> { (0..n).map(|i| b"(;B[pd];W[dp])\n"[i % 15]).collect() };
        let (a, b) = (text(300_000), text(70_001));
        // Two frames: the first declares its size (the output is sized to it), then grows.
        let mut two = zstd::bulk::compress(&a, 3).unwrap();
        two.extend(zstd::bulk::compress(&b, 3).unwrap());
        let (got, err) = decode_zstd(&two[..], MAX_RECORD_BYTES);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(got, [a.clone(), b].concat());
        // Without declared sizes, through the streaming encoder.
        let streamed = zstd::stream::encode_all(&a[..], 1).unwrap();
        let (got, err) = decode_zstd(&streamed[..], MAX_RECORD_BYTES);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(got, a);
        // Cut: a prefix of the text, with an error.
        let (got, err) = decode_zstd(&two[..two.len() / 3], MAX_RECORD_BYTES);
        assert!(err.is_some());
        assert!(a.starts_with(&got));
        // Garbage and nothing.
        assert!(decode_zstd(&b"not zstd at all"[..], MAX_RECORD_BYTES)
            .1
            .is_some());
        let (got, err) = decode_zstd(&b""[..], MAX_RECORD_BYTES);
        assert!(got.is_empty() && err.is_none());
    }

    #[test]
    fn a_zstd_stream_past_the_record_limit_is_refused_without_panic() {
        // A few hundred kilobytes that stand for just over MAX_RECORD_BYTES of zeros, with and
        // without the size in the frame header (1 GiB of memory, briefly).
        let size = MAX_RECORD_BYTES + 1;
        for declared in [false, true] {
            let mut encoder = zstd::stream::Encoder::new(Vec::new(), 1).unwrap();
            if declared {
                encoder.set_pledged_src_size(Some(size)).unwrap();
            }
            io::copy(&mut io::repeat(0).take(size), &mut encoder).unwrap();
            let bomb = encoder.finish().unwrap();
            let (got, err) = decode_zstd(&bomb[..], MAX_RECORD_BYTES);
            assert!(got.is_empty(), "declared {declared}");
            let err = err.expect("an error");
            assert!(err.to_string().contains("larger than"), "{err}");
        }
    }

    #[test]
    fn kinds_from_names() {
        use SourceKind::*;
        let cases = [
            ("a.sgf", Some(Plain)),
            ("A.SGF", Some(Plain)),
            ("b.Wtf", Some(Plain)),
            ("c.sgf.zst", Some(Zstd)),
            ("c.WTF.ZST", Some(Zstd)),
            ("d.zip", Some(Zip)),
            ("e.tar", Some(Tar)),
            ("f.tar.gz", Some(TarGz)),
            ("f.TGZ", Some(TarGz)),
            ("g.tar.zst", Some(TarZst)),
            ("g.tzst", Some(TarZst)),
            ("h.zst", None),
            ("i.gz", None),
            ("j.txt", None),
            ("sgf", None),
        ];
        for (name, kind) in cases {
            assert_eq!(SourceKind::in_directory(name), kind, "{name}");
        }
        assert_eq!(SourceKind::given("notes.txt"), Plain);
        assert_eq!(SourceKind::given("x.zst"), Zstd);
        assert_eq!(SourceKind::given("x.tgz"), TarGz);
    }

    #[test]
    fn cleans_paths_and_members() {
        assert_eq!(clean_path(Path::new("./games//a.sgf")), "games/a.sgf");
        assert_eq!(clean_path(Path::new("a/./b/../c.sgf")), "a/b/../c.sgf");
        assert_eq!(clean_path(Path::new("/x/./y.sgf")), "/x/y.sgf");
        assert_eq!(clean_member("./kgs/2001/a.sgf"), "kgs/2001/a.sgf");
        assert_eq!(clean_member("/abs//b.sgf"), "abs/b.sgf");
    }
}
