//! The game store: per game a fixed record, its replay program, its occupancy bitmaps, its
//! position-table entries and its original record bytes, in segments of memory-mapped files.
//!
//! A segment is written whole by one indexing run (or one part of a long run) and never changed
//! afterwards; it becomes part of the index only when the manifest that names it is replaced
//! atomically. A crash therefore leaves at worst an unreferenced segment folder, removed by the next
//! run, and the last committed index stays searchable.
//!
//! Files of a segment (all little-endian):
//! - `games.bin`: one [`GameRec`] (32 bytes) per game;
//! - `ops.bin`: replay programs (`u16` ops, see [`crate::ops`]; 12 bits per op where they fit, see
//!   [`crate::pack`]);
//! - `occ.bin`: the points ever held by Black and by White, by point: 2 × 361 columns of one bit
//!   per game, then the number of games in each column (see [`crate::occupancy`]; 19×19 games
//!   only);
//! - the position table, every position with at most [`MAX_INDEXED_STONES`] stones of every
//!   stored (non-copy) game, grouped by hash (only about 2 in 5 entries have a hash of their own):
//!   - `positions.keys`: the distinct hashes, ascending (`u64` each);
//!   - `positions.starts`: for each key the index of its first entry, then the entry count
//!     (`u32` each);
//!   - `positions.bin`: 6-byte entries, by key then game: the game within the segment (24 bits),
//!     then the move number k (11 bits) and the move that followed (13 bits, see [`pack_next`]),
//!     so that continuation tables need no replay;
//! - `records.zst` and `records.idx`: the original records, zstd-compressed in blocks;
//! - `winners.bin`: each game's [`GameRec::winner`] byte again, packed together: continuation
//!   tables read it for every game holding a position (1.2 M games for the empty board of the
//!   derived corpus), and a byte apart they touch 32 times fewer pages than in `games.bin`;
//! - `copies.bin`: `(copy, original)` game-id pairs (`u32` each) of the segment's exact copies,
//!   and `long.bin`: the ids of its games flagged [`FLAG_LONG`], so that opening an index need
//!   not read every game's record;
//! - `files.jsonl`: the record files of the segment, one JSON string per line (read the first
//!   time a game's identity is asked for);
//! - `rejected.jsonl`: files and games of the segment's inputs that could not be read (gathered
//!   into the index folder's `rejected.jsonl` at the end of each run).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::mapped::Mapped;

use crate::manifest::{FileSum, SegmentInfo};
pub use crate::occupancy::Occupancy;
use crate::IndexError;

/// Positions with at most this many stones are in the position table; deeper positions are found
/// by filtering games on occupancy and following them. Measured with `scripts/bench` on 1.3 M
/// games (BENCHMARKS.md): 20 instead of 40 halves the table (659 → 334 B/game), and a rare deeper
/// position still takes 1.7 ms at p50, because thirty stones leave few games past the filter.
pub const MAX_INDEXED_STONES: u32 = 20;

/// Positions after this move number are not in the position table (11 bits hold k); a game
/// with such positions is flagged [`FLAG_LONG`] and replayed by searches instead.
pub const MAX_TABLE_MOVE: u32 = (1 << 11) - 1;

/// Games per segment at most: position-table entries name games in 24 bits.
pub const MAX_SEGMENT_GAMES: u32 = (1 << 24) - 1;

/// Records per compressed block of `records.zst`.
const RECORDS_PER_BLOCK: usize = 64;

/// Per-game fixed record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GameRec {
    /// Offset of the game's ops in `ops.bin`, in bytes.
    pub ops_start: u64,
    pub ops_len: u32,
    /// Main-line moves (passes included).
    pub moves: u32,
    pub width: u8,
    pub height: u8,
    /// 0 none, 1 Black won, 2 White won (as the oracle reads `RE`).
    pub winner: u8,
    pub flags: u8,
    /// The game this one is an exact copy of (`u32::MAX` when none); copies have no ops.
    pub duplicate_of: u32,
    /// Index into the segment's files.
    pub file: u32,
    /// Index of the game inside its file.
    pub game_in_file: u32,
}

/// `GameRec::flags`: the game's replay met irregular moves (occupied point, …).
pub const FLAG_IRREGULAR: u8 = 1;
/// `GameRec::flags`: a copy of another game up to symmetry (not necessarily exact).
pub const FLAG_SYMMETRIC_COPY: u8 = 2;
/// `GameRec::flags`: positions past move [`MAX_TABLE_MOVE`] are not in the position table:
/// replay the game.
pub const FLAG_LONG: u8 = 4;
/// `GameRec::flags`: the replay program is packed in 12 bits per op (see [`crate::pack`]).
pub const FLAG_PACKED: u8 = 8;
/// `GameRec::flags`: the stored record is a skeleton, restored with the program when read (see
/// [`crate::skeleton`]).
pub const FLAG_SKELETON: u8 = 16;

/// `PosEntry::next` of a final position.
pub const NO_NEXT: u16 = u16::MAX;

impl GameRec {
    const SIZE: usize = 32;

    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut b = [0u8; Self::SIZE];
        b[0..8].copy_from_slice(&self.ops_start.to_le_bytes());
        b[8..12].copy_from_slice(&self.ops_len.to_le_bytes());
        b[12..16].copy_from_slice(&self.moves.to_le_bytes());
        b[16] = self.width;
        b[17] = self.height;
        b[18] = self.winner;
        b[19] = self.flags;
        b[20..24].copy_from_slice(&self.duplicate_of.to_le_bytes());
        b[24..28].copy_from_slice(&self.file.to_le_bytes());
        b[28..32].copy_from_slice(&self.game_in_file.to_le_bytes());
        out.write_all(&b)
    }

    fn read(b: &[u8]) -> GameRec {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        GameRec {
            ops_start: u64::from_le_bytes(b[0..8].try_into().unwrap()),
            ops_len: u32_at(8),
            moves: u32_at(12),
            width: b[16],
            height: b[17],
            winner: b[18],
            flags: b[19],
            duplicate_of: u32_at(20),
            file: u32_at(24),
            game_in_file: u32_at(28),
        }
    }

    pub fn is_copy(&self) -> bool {
        self.duplicate_of != u32::MAX
    }
}

/// One entry of the position table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PosEntry {
    pub hash: u64,
    pub game: u32,
    pub k: u16,
    /// The move played from this position, as an op ([`crate::ops::Op`]), or [`NO_NEXT`].
    pub next: u16,
}

/// The index of the first of `n` ascending keys that is at least `key` (`n` if none).
///
/// The keys are Zobrist hashes, spread evenly over the `u64`s, so the answer's place is first
/// guessed by interpolation, then bracketed by steps doubling away from the guess, then found by
/// binary search inside the bracket. A search of a memory-mapped table thus touches a few pages
/// near the answer instead of one page per halving (about 20 for a million-game segment),
/// and in a fresh process each page touched is a page fault. Any key order is still answered
/// exactly; only the speed depends on the spread.
fn lower_bound(n: usize, key_at: impl Fn(usize) -> u64, key: u64) -> usize {
    if n == 0 || key <= key_at(0) {
        return 0;
    }
    let (first, last) = (key_at(0), key_at(n - 1));
    if key > last {
        return n;
    }
    // first < key <= last: the guess is in [0, n - 1].
    let guess = ((key - first) as u128 * (n - 1) as u128 / (last - first) as u128) as usize;
    // Invariant from here on: keys before `lo` are below `key`; the key at `hi` (if any) is not.
    let (mut lo, mut hi);
    let mut step = 1;
    if key_at(guess) < key {
        lo = guess + 1;
        hi = n;
        while guess + step < n {
            if key_at(guess + step) >= key {
                hi = guess + step;
                break;
            }
            lo = guess + step + 1;
            step *= 2;
        }
    } else {
        lo = 0;
        hi = guess;
        while step <= guess {
            if key_at(guess - step) < key {
                lo = guess - step + 1;
                break;
            }
            hi = guess - step;
            step *= 2;
        }
    }
    while lo < hi {
        let mid = (lo + hi) / 2;
        if key_at(mid) < key {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Bytes of a position-table entry in `positions.bin`.
const ENTRY_SIZE: usize = 6;

/// The 13 bits a table entry keeps of a next-move op (a move of either colour, a pass, or
/// [`NO_NEXT`]): the colour bit, then the point index (below 2,704 on boards up to 52×52),
/// 4094 for a pass (or malformed point) and 4095 for no next move.
pub fn pack_next(next: u16) -> u32 {
    if next == NO_NEXT {
        return 0x1fff;
    }
    let colour = (next >> 13) as u32 & 1;
    let point = (next & 0x1fff) as u32;
    colour << 12 | point.min(4094)
}

/// The op [`pack_next`] kept.
pub fn unpack_next(v: u32) -> u16 {
    let colour = ((v >> 12) & 1) as u16;
    match v & 0xfff {
        4095 => NO_NEXT,
        4094 => colour << 13 | 0x1fff,
        point => colour << 13 | point as u16,
    }
}

/// Everything the builder knows about one game, ready to be written.
pub struct GameData {
    pub rec: GameRec,
    pub ops: StoredOps,
    pub occupancy: Occupancy,
    /// (hash, k, next) of the positions to index.
    pub positions: Vec<(u64, u16, u16)>,
    pub record: Vec<u8>,
    /// Exact and canonical main-line signatures (see [`crate::game`]).
    pub signatures: (u64, u64),
}

/// A replay program as `ops.bin` holds it: packed in 12 bits per op where it fits (see
/// [`crate::pack`]), else as `u16`s. Built where games are analysed, on all cores, so that the one
/// writer thread only copies bytes.
#[derive(Clone, Debug, Default)]
pub struct StoredOps {
    pub bytes: Vec<u8>,
    pub count: u32,
    pub packed: bool,
}

impl StoredOps {
    pub fn new(ops: &[u16]) -> StoredOps {
        let mut bytes = Vec::with_capacity(ops.len() * 2);
        let packed = crate::pack::pack(ops, &mut bytes);
        if !packed {
            bytes.clear();
            bytes.extend(ops.iter().flat_map(|op| op.to_le_bytes()));
        }
        StoredOps {
            bytes,
            count: ops.len() as u32,
            packed,
        }
    }

    /// The ops back.
    pub fn decode(&self) -> Vec<u16> {
        let mut out = Vec::new();
        decode_ops(&self.bytes, self.count as usize, self.packed, &mut out);
        out
    }
}

/// Reads `n` ops from the bytes of a program, packed or not; a program cut short reads as
/// empty.
fn decode_ops(bytes: &[u8], n: usize, packed: bool, out: &mut Vec<u16>) {
    out.clear();
    let len = if packed {
        crate::pack::packed_len(n)
    } else {
        n * 2
    };
    let Some(bytes) = bytes.get(..len) else {
        return;
    };
    if packed {
        crate::pack::unpack(bytes, n, out);
    } else {
        out.extend(
            bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]])),
        );
    }
}

/// A segment file being written: its length and CRC-32 are taken as the bytes go out, so that
/// closing the segment records them in the manifest without reading the file again.
struct Summed {
    name: &'static str,
    file: File,
    hasher: crc32fast::Hasher,
    len: u64,
}

impl Write for Summed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

type SegmentFile = BufWriter<Summed>;

/// Creates a segment file, buffered and summed.
fn create_file(dir: &Path, name: &'static str) -> Result<SegmentFile, IndexError> {
    let p = dir.join(name);
    let file = File::create(&p).map_err(|e| IndexError::io(&p, e))?;
    Ok(BufWriter::with_capacity(
        1 << 20,
        Summed {
            name,
            file,
            hasher: crc32fast::Hasher::new(),
            len: 0,
        },
    ))
}

/// The CRC-32 of a whole file, read in pieces (for verification).
pub(crate) fn file_crc(path: &Path) -> std::io::Result<(u64, u32)> {
    let mut f = File::open(path)?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        let n = match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buf[..n]);
        len += n as u64;
    }
    Ok((len, hasher.finalize()))
}

/// Writes one segment.
pub struct SegmentWriter {
    dir: PathBuf,
    first_game: u32,
    games: SegmentFile,
    ops: SegmentFile,
    occupancy: Vec<Occupancy>,
    records: SegmentFile,
    records_idx: SegmentFile,
    files: SegmentFile,
    sigs: SegmentFile,
    rejected: SegmentFile,
    winners: Vec<u8>,
    /// (copy, original) of the exact copies written so far.
    copies: Vec<(u32, u32)>,
    long: Vec<u32>,
    ops_len: u64,
    records_len: u64,
    positions: Vec<PosEntry>,
    block: Vec<u8>,
    block_entries: Vec<(u32, u32)>,
    /// One compression context for every block (making one per block showed in profiles).
    compressor: zstd::bulk::Compressor<'static>,
    count: u32,
    file_count: u32,
}

impl SegmentWriter {
    pub fn create(dir: &Path, first_game: u32) -> Result<SegmentWriter, IndexError> {
        std::fs::create_dir_all(dir).map_err(|e| IndexError::io(dir, e))?;
        let open = |name: &'static str| create_file(dir, name);
        Ok(SegmentWriter {
            dir: dir.to_path_buf(),
            first_game,
            games: open("games.bin")?,
            ops: open("ops.bin")?,
            occupancy: Vec::new(),
            records: open("records.zst")?,
            records_idx: open("records.idx")?,
            files: open("files.jsonl")?,
            sigs: open("sigs.bin")?,
            rejected: open(crate::build::REPORT)?,
            winners: Vec::new(),
            copies: Vec::new(),
            long: Vec::new(),
            ops_len: 0,
            records_len: 0,
            positions: Vec::new(),
            block: Vec::new(),
            block_entries: Vec::new(),
            // Level 1, not 3: skeletons are already small (20.8 → 21.2 MB for all shared games)
            // and a build's CPU time fell 14.14 → 13.74 s (`scripts/ab 3`, medians).
            compressor: zstd::bulk::Compressor::new(1).map_err(|e| IndexError::io(dir, e))?,
            count: 0,
            file_count: 0,
        })
    }

    /// Games written so far.
    pub fn len(&self) -> u32 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Registers a record file; returns its index for [`GameRec::file`].
    pub fn add_file(&mut self, name: &str) -> Result<u32, IndexError> {
        let line = serde_json::to_string(name).unwrap_or_default();
        writeln!(self.files, "{line}").map_err(|e| IndexError::io(&self.dir, e))?;
        self.file_count += 1;
        Ok(self.file_count - 1)
    }

    /// Records a rejected file or game (one JSON line) with this segment.
    pub fn add_rejection(&mut self, line: &str) -> Result<(), IndexError> {
        writeln!(self.rejected, "{line}").map_err(|e| IndexError::io(&self.dir, e))
    }

    /// Appends a game; returns its global id.
    pub fn add_game(&mut self, mut g: GameData) -> Result<u32, IndexError> {
        let id = self.first_game + self.count;
        let err = |e| IndexError::io(&self.dir, e);
        g.rec.ops_start = self.ops_len;
        g.rec.ops_len = g.ops.count;
        if g.ops.packed {
            g.rec.flags |= FLAG_PACKED;
        }
        self.winners.push(g.rec.winner);
        if g.rec.is_copy() {
            self.copies.push((id, g.rec.duplicate_of));
        } else if g.rec.flags & FLAG_LONG != 0 {
            self.long.push(id);
        }
        g.rec.write(&mut self.games).map_err(err)?;
        self.ops.write_all(&g.ops.bytes).map_err(err)?;
        self.ops_len += g.ops.bytes.len() as u64;
        self.occupancy.push(g.occupancy);
        self.sigs
            .write_all(&g.signatures.0.to_le_bytes())
            .map_err(err)?;
        self.sigs
            .write_all(&g.signatures.1.to_le_bytes())
            .map_err(err)?;
        self.positions
            .extend(g.positions.iter().map(|&(hash, k, next)| PosEntry {
                hash,
                game: id,
                k,
                next,
            }));
        self.block_entries
            .push((self.block.len() as u32, g.record.len() as u32));
        self.block.extend_from_slice(&g.record);
        self.count += 1;
        if self.block_entries.len() == RECORDS_PER_BLOCK {
            self.flush_block()?;
        }
        Ok(id)
    }

    fn flush_block(&mut self) -> Result<(), IndexError> {
        if self.block_entries.is_empty() {
            return Ok(());
        }
        let dir = self.dir.clone();
        let err = |e| IndexError::io(&dir, e);
        let compressed = self.compressor.compress(&self.block).map_err(err)?;
        self.records.write_all(&compressed).map_err(err)?;
        for &(off, len) in &self.block_entries {
            self.records_idx
                .write_all(&self.records_len.to_le_bytes())
                .map_err(err)?;
            self.records_idx
                .write_all(&(compressed.len() as u32).to_le_bytes())
                .map_err(err)?;
            self.records_idx
                .write_all(&off.to_le_bytes())
                .map_err(err)?;
            self.records_idx
                .write_all(&len.to_le_bytes())
                .map_err(err)?;
        }
        self.records_len += compressed.len() as u64;
        self.block.clear();
        self.block_entries.clear();
        Ok(())
    }

    /// Sorts the position table, writes everything and syncs it to disk; returns each file's
    /// length and checksum, for the manifest.
    pub fn finish(mut self) -> Result<Vec<FileSum>, IndexError> {
        self.flush_block()?;
        let dir = self.dir.clone();
        let err = |e| IndexError::io(&dir, e);
        self.positions.sort_unstable();
        let create = |name: &'static str| create_file(&dir, name);
        let mut winners = create("winners.bin")?;
        winners.write_all(&self.winners).map_err(err)?;
        let mut lists = create("copies.bin")?;
        for (copy, original) in &self.copies {
            lists.write_all(&copy.to_le_bytes()).map_err(err)?;
            lists.write_all(&original.to_le_bytes()).map_err(err)?;
        }
        let mut long = create("long.bin")?;
        for id in &self.long {
            long.write_all(&id.to_le_bytes()).map_err(err)?;
        }
        let (mut keys, mut starts, mut pos) = (
            create("positions.keys")?,
            create("positions.starts")?,
            create("positions.bin")?,
        );
        let mut last = None;
        for (i, e) in self.positions.iter().enumerate() {
            if last != Some(e.hash) {
                last = Some(e.hash);
                keys.write_all(&e.hash.to_le_bytes()).map_err(err)?;
                starts.write_all(&(i as u32).to_le_bytes()).map_err(err)?;
            }
            debug_assert!(u32::from(e.k) <= MAX_TABLE_MOVE);
            let game = e.game - self.first_game;
            let tail = (e.k as u32) << 13 | pack_next(e.next);
            pos.write_all(&game.to_le_bytes()[..3]).map_err(err)?;
            pos.write_all(&tail.to_le_bytes()[..3]).map_err(err)?;
        }
        starts
            .write_all(&(self.positions.len() as u32).to_le_bytes())
            .map_err(err)?;
        let mut sums = Vec::new();
        let mut occ = create("occ.bin")?;
        occ.write_all(&crate::occupancy::to_columns(&self.occupancy))
            .map_err(err)?;
        for w in [
            winners,
            lists,
            long,
            keys,
            starts,
            pos,
            occ,
            self.games,
            self.ops,
            self.records,
            self.records_idx,
            self.files,
            self.sigs,
            self.rejected,
        ] {
            let summed = w.into_inner().map_err(|e| err(e.into_error()))?;
            summed.file.sync_all().map_err(err)?;
            sums.push(FileSum {
                name: summed.name.to_string(),
                len: summed.len,
                crc32: summed.hasher.finalize(),
            });
        }
        sums.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(sums)
    }
}

/// A read-only, memory-mapped segment.
pub struct Segment {
    pub first_game: u32,
    games: Map,
    ops: Map,
    occ: Map,
    keys: Map,
    starts: Map,
    positions: Map,
    records: Map,
    records_idx: Map,
    sigs: Map,
    winners: Map,
    copies: Map,
    long: Map,
    dir: PathBuf,
    /// Parsed from `files.jsonl` when first needed: most searches name few games.
    files: std::sync::OnceLock<Vec<String>>,
}

/// A segment file's bytes: mapped, or read whole (see [`read`]).
enum Map {
    Mapped(Mapped),
    Read(Vec<u8>),
}

impl std::ops::Deref for Map {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Map::Mapped(m) => m,
            Map::Read(v) => v,
        }
    }
}

/// Maps a segment file (an empty one is read: empty files cannot be mapped).
fn map(path: &Path) -> Result<Map, IndexError> {
    let f = File::open(path).map_err(|e| IndexError::io(path, e))?;
    let len = f.metadata().map_err(|e| IndexError::io(path, e))?.len();
    if len == 0 {
        return Ok(Map::Read(Vec::new()));
    }
    // qipu never changes a segment file after closing it (a rebuild writes new ones and deletes
    // the old, which leaves their mappings valid). Another program truncating the file in place
    // is caught by the guard (`mapped`): the search that read it reports the file as damaged.
    let m = Mapped::map(&f, path).map_err(|e| IndexError::io(path, e))?;
    Ok(Map::Mapped(m))
}

/// Reads a small segment file whole: at most a byte per game, and read entirely by every open
/// anyway, so a copy costs nothing and no later truncation of the file can touch the process.
fn read(path: &Path) -> Result<Map, IndexError> {
    std::fs::read(path)
        .map(Map::Read)
        .map_err(|e| IndexError::io(path, e))
}

/// Compares the segment's files with the lengths the manifest recorded when it was closed: a
/// file cut short (or grown) is refused, naming it, before anything reads it.
fn check_sizes(dir: &Path, files: &[FileSum]) -> Result<(), IndexError> {
    for f in files {
        let p = dir.join(&f.name);
        let len = std::fs::metadata(&p)
            .map_err(|e| IndexError::io(&p, e))?
            .len();
        if len != f.len {
            return Err(IndexError::Corrupt(format!(
                "{} has {len} bytes, the manifest says {} (`qipu verify` checks every file; \
                 `qipu index --rebuild` makes the index anew)",
                p.display(),
                f.len
            )));
        }
    }
    Ok(())
}

impl Segment {
    /// Opens the segment the manifest describes in `info`, in the folder `dir`.
    pub fn open(dir: &Path, info: &SegmentInfo) -> Result<Segment, IndexError> {
        check_sizes(dir, &info.files)?;
        let fp = dir.join("files.jsonl");
        std::fs::metadata(&fp).map_err(|e| IndexError::io(&fp, e))?;
        Ok(Segment {
            first_game: info.first_game,
            games: map(&dir.join("games.bin"))?,
            ops: map(&dir.join("ops.bin"))?,
            occ: map(&dir.join("occ.bin"))?,
            keys: map(&dir.join("positions.keys"))?,
            starts: map(&dir.join("positions.starts"))?,
            positions: map(&dir.join("positions.bin"))?,
            records: map(&dir.join("records.zst"))?,
            records_idx: map(&dir.join("records.idx"))?,
            sigs: map(&dir.join("sigs.bin"))?,
            winners: read(&dir.join("winners.bin"))?,
            copies: read(&dir.join("copies.bin"))?,
            long: read(&dir.join("long.bin"))?,
            dir: dir.to_path_buf(),
            files: std::sync::OnceLock::new(),
        })
    }

    /// Games in the segment.
    pub fn len(&self) -> u32 {
        (self.games.len() / GameRec::SIZE) as u32
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The record of game `i` of this segment (0-based within the segment).
    pub fn game(&self, i: u32) -> GameRec {
        let at = i as usize * GameRec::SIZE;
        // Only a damaged table can name a game past the end: it reads as an empty game.
        match self.games.get(at..at + GameRec::SIZE) {
            Some(b) => GameRec::read(b),
            None => GameRec {
                duplicate_of: u32::MAX,
                ..GameRec::default()
            },
        }
    }

    /// The ops of a game record of this segment.
    pub fn ops_into(&self, rec: &GameRec, out: &mut Vec<u16>) {
        // A damaged record pointing past the file reads as an empty program.
        let bytes = self.ops.get(rec.ops_start as usize..).unwrap_or_default();
        decode_ops(
            bytes,
            rec.ops_len as usize,
            rec.flags & FLAG_PACKED != 0,
            out,
        );
    }

    /// Games of the segment (as a bitmap over 0-based ids) whose occupancy covers one of `needs`.
    pub fn covering(&self, needs: &[Occupancy]) -> Vec<u64> {
        crate::occupancy::covering(&self.occ, self.len() as usize, needs)
    }

    /// The bytes of the position-table entries with this hash.
    fn entries(&self, hash: u64) -> &[u8] {
        let n = self.keys.len() / 8;
        let key_at = |i: usize| u64::from_le_bytes(self.keys[i * 8..i * 8 + 8].try_into().unwrap());
        let start_at = |i: usize| {
            self.starts
                .get(i * 4..i * 4 + 4)
                .map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()) as usize)
        };
        let lo = lower_bound(n, key_at, hash);
        if lo == n || key_at(lo) != hash {
            return &[];
        }
        // Damaged starts read as no entries.
        let (from, to) = (start_at(lo), start_at(lo + 1));
        self.positions
            .get(from.saturating_mul(ENTRY_SIZE)..to.saturating_mul(ENTRY_SIZE))
            .unwrap_or_default()
    }

    /// How many position-table entries have this hash.
    pub fn count_positions(&self, hash: u64) -> usize {
        self.entries(hash).len() / ENTRY_SIZE
    }

    /// Position-table entries with this hash, by game.
    pub fn positions(&self, hash: u64) -> impl Iterator<Item = PosEntry> + '_ {
        let (first_game, games) = (self.first_game, self.len());
        self.entries(hash)
            .chunks_exact(ENTRY_SIZE)
            .filter_map(move |b| {
                let game = u32::from_le_bytes([b[0], b[1], b[2], 0]);
                let tail = u32::from_le_bytes([b[3], b[4], b[5], 0]);
                // Only a damaged table names a game past the segment's end.
                (game < games).then(|| PosEntry {
                    hash,
                    game: first_game + game,
                    k: (tail >> 13) as u16,
                    next: unpack_next(tail & 0x1fff),
                })
            })
    }

    /// The winner byte of game `i` (see [`GameRec::winner`]), read alone.
    pub fn winner(&self, i: u32) -> u8 {
        self.winners.get(i as usize).copied().unwrap_or(0)
    }

    /// The original record bytes of game `i` (0-based within the segment).
    pub fn record(&self, i: u32) -> Result<Vec<u8>, IndexError> {
        let stored = self.stored_record(i)?;
        let rec = self.game(i);
        if rec.flags & FLAG_SKELETON == 0 {
            return Ok(stored);
        }
        let mut ops = Vec::new();
        self.ops_into(&rec, &mut ops);
        crate::skeleton::restore(&stored, &ops).ok_or_else(|| {
            IndexError::Corrupt(format!("record of game {i} disagrees with its moves"))
        })
    }

    /// The record bytes of game `i` as stored (a skeleton or the record).
    fn stored_record(&self, i: u32) -> Result<Vec<u8>, IndexError> {
        let at = i as usize * 20;
        let idx = self
            .records_idx
            .get(at..at + 20)
            .ok_or_else(|| IndexError::Corrupt(format!("no record index for game {i}")))?;
        let block_start = u64::from_le_bytes(idx[0..8].try_into().unwrap()) as usize;
        let block_len = u32::from_le_bytes(idx[8..12].try_into().unwrap()) as usize;
        let off = u32::from_le_bytes(idx[12..16].try_into().unwrap()) as usize;
        let len = u32::from_le_bytes(idx[16..20].try_into().unwrap()) as usize;
        let block = self
            .records
            .get(block_start..block_start.saturating_add(block_len))
            .ok_or_else(|| {
                IndexError::Corrupt(format!("record block of game {i} out of the file"))
            })?;
        let block = zstd::stream::decode_all(block)
            .map_err(|e| IndexError::Corrupt(format!("record block of game {i}: {e}")))?;
        block
            .get(off..off + len)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| IndexError::Corrupt(format!("record of game {i} out of its block")))
    }

    /// Exact and canonical signatures of game `i` (0-based within the segment).
    pub fn signatures(&self, i: u32) -> (u64, u64) {
        let at = i as usize * 16;
        let Some(s) = self.sigs.get(at..at + 16) else {
            return (0, 0);
        };
        (
            u64::from_le_bytes(s[0..8].try_into().unwrap()),
            u64::from_le_bytes(s[8..16].try_into().unwrap()),
        )
    }

    /// File names of the segment (none if `files.jsonl` cannot be read any more).
    pub fn files(&self) -> &[String] {
        self.files.get_or_init(|| {
            let mut text = String::new();
            let _ = File::open(self.dir.join("files.jsonl"))
                .and_then(|mut f| f.read_to_string(&mut text));
            text.lines()
                .map(|l| serde_json::from_str(l).unwrap_or_default())
                .collect()
        })
    }

    /// `(copy, original)` ids of the segment's exact copies, in id order.
    pub fn copies(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.copies.chunks_exact(8).map(|b| {
            (
                u32::from_le_bytes(b[0..4].try_into().unwrap()),
                u32::from_le_bytes(b[4..8].try_into().unwrap()),
            )
        })
    }

    /// Ids of the segment's games flagged [`FLAG_LONG`], in order.
    pub fn long_games(&self) -> impl Iterator<Item = u32> + '_ {
        self.long
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    }

    /// Bytes of each part of the segment (for statistics).
    pub fn part_sizes(&self) -> [(&'static str, u64); 8] {
        [
            ("games", self.games.len() as u64),
            ("moves", self.ops.len() as u64),
            ("occupancy", self.occ.len() as u64),
            (
                "positions",
                (self.keys.len() + self.starts.len() + self.positions.len()) as u64,
            ),
            ("records", self.records.len() as u64),
            ("records index", self.records_idx.len() as u64),
            ("signatures", self.sigs.len() as u64),
            ("winners", self.winners.len() as u64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Op;
    use goban::{Color, Point};

    #[test]
    fn next_moves_survive_the_13_bit_packing() {
        let mut ops = vec![NO_NEXT];
        for c in [Color::Black, Color::White] {
            ops.push(Op::Move(c, None).encode());
            for (x, y) in [(0, 0), (18, 18), (3, 15), (51, 51), (51, 0), (0, 51)] {
                ops.push(Op::Move(c, Some(Point::new(x, y))).encode());
            }
        }
        for op in ops {
            let packed = pack_next(op);
            assert!(packed < 1 << 13);
            assert_eq!(unpack_next(packed), op, "{:?}", Op::decode(op));
        }
    }

    #[test]
    fn lower_bound_agrees_with_a_plain_search_on_any_spread() {
        // A small generator, so that the test needs no dependency.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut sets: Vec<Vec<u64>> = vec![
            Vec::new(),
            vec![5],
            vec![0, u64::MAX],
            (0..1000).map(|_| next()).collect(),
            // Clustered and repeated keys: interpolation guesses badly, the answer must not care.
            (0..1000)
                .map(|i| if i < 990 { i } else { u64::MAX - i })
                .collect(),
            (0..500).map(|i| i / 7).collect(),
        ];
        for set in &mut sets {
            set.sort_unstable();
        }
        for keys in &sets {
            let mut probes: Vec<u64> = keys
                .iter()
                .flat_map(|&k| [k, k.wrapping_add(1), k.wrapping_sub(1)])
                .collect();
            probes.extend([0, 1, u64::MAX, u64::MAX - 1]);
            probes.extend((0..200).map(|_| next()));
            for key in probes {
                assert_eq!(
                    lower_bound(keys.len(), |i| keys[i], key),
                    keys.partition_point(|&k| k < key),
                    "{key} in {} keys",
                    keys.len()
                );
            }
        }
    }

    #[test]
    fn the_position_table_reads_back_by_hash() {
        let dir = std::env::temp_dir().join(format!("qipu-table-{}", std::process::id()));
        let mut w = SegmentWriter::create(&dir, 1000).unwrap();
        let black = |x, y| Op::Move(Color::Black, Some(Point::new(x, y))).encode();
        let games: [&[(u64, u16, u16)]; 3] = [
            &[(0, 0, black(3, 3)), (7, 1, NO_NEXT)],
            &[(7, 2047, black(18, 0)), (u64::MAX, 5, NO_NEXT)],
            &[
                (0, 0, Op::Move(Color::White, None).encode()),
                (7, 9, NO_NEXT),
            ],
        ];
        for positions in games {
            w.add_game(GameData {
                rec: GameRec::default(),
                ops: StoredOps::default(),
                occupancy: Occupancy::default(),
                positions: positions.to_vec(),
                record: Vec::new(),
                signatures: (0, 0),
            })
            .unwrap();
        }
        let files = w.finish().unwrap();
        let info = SegmentInfo {
            dir: String::new(),
            first_game: 1000,
            games: 3,
            files,
        };
        let seg = Segment::open(&dir, &info).unwrap();
        let got = |h| -> Vec<(u32, u16, u16)> {
            let v: Vec<_> = seg.positions(h).map(|e| (e.game, e.k, e.next)).collect();
            assert_eq!(v.len(), seg.count_positions(h));
            v
        };
        assert_eq!(
            got(0),
            [
                (1000, 0, black(3, 3)),
                (1002, 0, Op::Move(Color::White, None).encode())
            ]
        );
        assert_eq!(
            got(7),
            [
                (1000, 1, NO_NEXT),
                (1001, 2047, black(18, 0)),
                (1002, 9, NO_NEXT)
            ]
        );
        assert_eq!(got(u64::MAX), [(1001, 5, NO_NEXT)]);
        assert_eq!(got(3), []);
        assert_eq!(got(8), []);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
