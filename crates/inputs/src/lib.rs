//! Reading the files that qipu is pointed at: files, folders, zip and tar archives and zstd
//! streams in, named record buffers out. It is the first stage of the data flow, before any
//! parsing (the job `ignore` does for ripgrep), so every command that reads records (`qipu index`
//! as well as `info`, `show`, `convert` and `derive`, which need no index) takes the same inputs
//! in the same way and names them the same.
//!
//! Game collections arrive in many shapes: a folder tree of one-game `.sgf` files, monthly
//! collections compressed with zstd, tarballs of a whole server's history, zips downloaded from a
//! website. Unpacking them to disk first would double the disk use and the time, so this crate
//! reads every shape as a stream and delivers each record's bytes to the caller, one [`Record`] at
//! a time, under a stable name.
//!
//! Work is split in two steps so the caller can parallelise and report progress:
//! [`discover`] (or [`discover_all`]) turns the command line's INPUTs into an ordered list of
//! [`Source`]s (one file on disk each, with its size), and [`read_source`] streams the records of
//! one source. Sources are independent, so they can be read on several threads.
//!
//! # Promises
//!
//! * **Nothing is skipped silently.** A file that is not taken is either not a record by its name
//!   (see "What is taken"), or listed in [`Discovery::skipped`] with why (a FIFO, a file packed in
//!   a form not read: `x.sgf.gz`, `x.tar.xz`, `x.7z`); an archive's member that is not read
//!   although its name says it holds records (an archive inside the archive, `x.sgf.gz`) is
//!   delivered empty with why ([`Record::unread`]); a folder or file that
//!   cannot be listed or examined is in [`Discovery::unreadable`]; a source that cannot be read,
//!   whole or in part, gives an [`InputError`] after whatever could be delivered.
//! * **Every failure names its path and its reason**: the file or folder, the archive member when
//!   known, and the OS's or the decoder's own words.
//! * **Memory is bounded** by one record at a time and [`MAX_RECORD_BYTES`] (or less, per
//!   [`Source::max_record_bytes`]), whatever a header or a compressed stream claims.
//! * **Bad input never panics**, and reading never prints: errors are values for the caller to
//!   report.
//!
//! # Modules
//!
//! Each module has one job, and they depend on each other one way, the readers on the plumbing
//! and the plumbing on the limits, never back: `walk` finds the sources ([`discover`]), choosing
//! files by name (`kind`, [`SourceKind`]); `identity` says what bookkeeping knows a file by
//! ([`path_key`], [`fingerprint`]) and `names` what a record is called ([`display_name`]);
//! `read` hands a source to the reader of its kind (`plain` for plain and zstd files,
//! `tar_reader`, `zip_reader`), which share `stream` (opening, counting, delivering),
//! `zstd_stream` (decoding) and `limits`; `kifu` pairs a kifu-line move file with its index.
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
//!   inside archives are not opened: they are delivered unread, with why ([`Record::unread`]).
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
//!   `kgs-6d.tar.zst/kgs-6d/KGS2002/2002-07-17-5.sgf`. A member named as an earlier member of
//!   the same archive (tar appends new versions of a file under its name) is `NAME (2)`,
//!   `NAME (3)`, …, so that every record of an archive has a name of its own; zip members
//!   sharing a name are read by their local headers, since the central directory's reader keeps
//!   one of each name.
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
//! system. Archive members come in archive order (central-directory order for zips; local-header
//! order for a zip whose members share a name, see "Names").
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
//! end-of-archive marker is reported as truncated, after its members were delivered; after the
//! marker the stream is read to its end, so that archives concatenated are all read and a
//! checksum failing at the end (gzip's, zstd's) or bytes that are no archive are reported. Corrupt input
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

#![warn(missing_docs)]

mod error;
mod identity;
mod kifu;
mod kind;
mod limits;
pub mod mapped;
mod names;
mod plain;
mod read;
mod source;
mod stream;
mod tar_reader;
mod walk;
mod watch;
mod zip_reader;
mod zstd_stream;

pub use error::InputError;
pub use identity::{fingerprint, path_key, path_of_key, Companions};
pub use kind::SourceKind;
pub use limits::MAX_RECORD_BYTES;
pub use names::display_name;
pub use read::read_source;
pub use source::{Record, RecordBytes, Source};
pub use walk::{discover, discover_all, Discovery, Skipped};
pub use watch::Watch;
