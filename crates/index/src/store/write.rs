//! Writing one segment: games appended as the builder hands them over, the position table
//! sorted and every file synced at the end, each file's length and checksum taken on the way.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::check::{BlockSums, BLOCK};
use super::format::{
    encode_corner_events, encode_entry, CornerEvent, GameRec, PosEntry, RecordAt, StoredOps,
    YearWinner, FLAG_LONG, FLAG_PACKED, MAX_TABLE_MOVE, RECORDS_PER_BLOCK,
};
use crate::encode::occupancy::{Occupancy, Vacated};
use crate::store::layout::segment as file;
use crate::store::manifest::FileSum;
use crate::IndexError;
use rayon::slice::ParallelSliceMut;

/// Everything the builder knows about one game, ready to be written.
pub struct GameData {
    pub rec: GameRec,
    pub ops: StoredOps,
    pub occupancy: Occupancy,
    /// (hash, k, next) of the positions to index.
    pub positions: Vec<(u64, u16, u16)>,
    /// (key, event) of the corner contents the game came to hold (see [`goban::corner`]).
    pub corners: Vec<(u64, CornerEvent)>,
    /// On 19×19 boards, the points whose stone ever left (see [`Vacated`]); `None` stores
    /// [`Vacated::ALL`].
    pub vacated: Option<Vacated>,
    pub record: Vec<u8>,
    /// Exact and canonical main-line signatures (see [`crate::encode::game`]).
    pub signatures: (u64, u64),
    /// The game's own facts (a copy's are its own, not its original's).
    pub facts: crate::Facts,
    /// For a variation line ([`crate::store::FLAG_VARIATION`]): its game, branch point and path.
    pub variation: Option<crate::encode::variations::Variation>,
    /// The engine's evaluations of its main line, for an analysed game (see [`crate::evals`]).
    pub evals: Option<crate::evals::GameEvals>,
}

/// A segment file being written: its length and CRC-32 are taken as the bytes go out, so that
/// closing the segment records them in the manifest without reading the file again.
///
/// The bytes go out in whole chunks of [`CHUNK`] at offsets that are multiples of it (the last
/// excepted), never in pieces that straddle one. A file system that caches files in large
/// folios (ext4 and XFS on recent Linux) then keeps each chunk as one 2 MiB folio, which a
/// search maps into its address space with one page-table entry instead of 512: a search
/// process maps the pages it touches anew each time, and on a machine where mapping a page
/// costs a fraction of a microsecond, a pattern that touches most of the replay programs spent
/// as much time in the kernel as in its own code (BENCHMARKS.md, Indexing: segment files in
/// 2 MiB chunks).
/// Elsewhere this is just a buffer.
struct Summed {
    name: &'static str,
    file: File,
    hasher: crc32fast::Hasher,
    /// Each [`BLOCK`]'s CRC-32, for `sums.bin` (see `check`): a chunk is a whole number of
    /// blocks, so every block is summed in one piece.
    blocks: Vec<u32>,
    len: u64,
    /// Bytes of the chunk not yet whole.
    pending: Vec<u8>,
    /// (offset, length) of each write to the file, for the test of the chunks.
    #[cfg(test)]
    puts: Vec<(u64, usize)>,
}

/// The unit segment files are written in: the size of a huge page on x86-64 and of the large
/// folios a file system can cache such writes in.
const CHUNK: usize = 2 << 20;

/// The records block's buffer is kept from one block to the next up to this size (a block of
/// 64 ordinary records is a few hundred kilobytes); one grown by a huge record is let go.
const BLOCK_KEPT_BYTES: usize = 16 << 20;

// Checked when compiling: a chunk is a whole number of checked blocks.
const _: () = assert!(CHUNK.is_multiple_of(BLOCK));

impl Summed {
    /// Writes `bytes` (whole chunks, or the last piece) to the file, summing them.
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        #[cfg(test)]
        self.puts.push((self.len, bytes.len()));
        self.file.write_all(bytes)?;
        debug_assert_eq!(self.len % BLOCK as u64, 0);
        // Each block is summed once; the whole file's sum is combined from the blocks'.
        for block in bytes.chunks(BLOCK) {
            let mut h = crc32fast::Hasher::new();
            h.update(block);
            self.hasher.combine(&h);
            self.blocks.push(h.finalize());
        }
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// Writes what is left and syncs the file to disk.
    fn finish(mut self) -> std::io::Result<Summed> {
        let rest = std::mem::take(&mut self.pending);
        self.put(&rest)?;
        self.file.sync_all()?;
        Ok(self)
    }
}

impl Write for Summed {
    fn write(&mut self, mut buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len();
        // The file's length is a multiple of CHUNK until `finish`: the pending bytes fill the
        // next chunk first, and only whole chunks are written.
        if !self.pending.is_empty() || buf.len() < CHUNK {
            let take = (CHUNK - self.pending.len()).min(buf.len());
            self.pending.extend_from_slice(&buf[..take]);
            buf = &buf[take..];
            if self.pending.len() == CHUNK {
                let full = std::mem::take(&mut self.pending);
                self.put(&full)?;
                self.pending = full;
                self.pending.clear();
            }
        }
        let whole = buf.len() / CHUNK * CHUNK;
        if whole > 0 {
            self.put(&buf[..whole])?;
        }
        self.pending.extend_from_slice(&buf[whole..]);
        Ok(n)
    }

    /// Nothing to do: a chunk is written as soon as it is whole, and [`Summed::finish`] writes
    /// the rest.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

type SegmentFile = Summed;

/// Creates a segment file, written in chunks and summed.
fn create_file(dir: &Path, name: &'static str) -> Result<SegmentFile, IndexError> {
    let p = dir.join(name);
    let file = File::create(&p).map_err(|e| IndexError::io(&p, e))?;
    Ok(Summed {
        name,
        file,
        hasher: crc32fast::Hasher::new(),
        blocks: Vec::new(),
        len: 0,
        pending: Vec::new(),
        #[cfg(test)]
        puts: Vec::new(),
    })
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
    vacated: SegmentFile,
    /// Each game's vacated points ([`Vacated::encode`]), and where each game's list starts.
    vacated_lists: Vec<u8>,
    vacated_starts: Vec<u32>,
    rejected: SegmentFile,
    winners: Vec<u8>,
    /// `years.bin`'s entries ([`YearWinner`]).
    years: Vec<u8>,
    facts: Vec<u8>,
    /// (copy, original) of the exact copies written so far.
    copies: Vec<(u32, u32)>,
    long: Vec<u32>,
    /// `variations.bin`'s entries so far ([`crate::encode::variations::encode`]).
    variations: Vec<u8>,
    /// A bit per game of the segment: whether it is a variation line (left out of the
    /// pre-aggregated cells, which count games played).
    line_bits: Vec<u64>,
    ops_len: u64,
    records_len: u64,
    positions: Vec<PosEntry>,
    /// (key, game within the segment) of the corner table.
    corners: Vec<(u64, CornerEvent)>,
    /// Room for `corners.bin`'s lists (see [`Spare`]).
    corner_lists: Vec<u8>,
    block: Vec<u8>,
    block_entries: Vec<(u32, u32)>,
    /// Each block's entry of `records.idx`, written after the games' ends.
    record_blocks: Vec<u8>,
    /// One compression context for every block (making one per block showed in profiles).
    compressor: zstd::bulk::Compressor<'static>,
    count: u32,
    file_count: u32,
    /// Positions with at least this many entries get pre-aggregated cells (see
    /// [`crate::encode::aggregate`]).
    aggregate_min: u32,
    /// The board of every game so far: `None` before the first, `Some(None)` once two differ.
    board: Option<Option<(u8, u8)>>,
    /// The analysed games' evaluations (`evals.bin`, `mistakes.bin`: only when there are some).
    evals: crate::evals::Writer,
}

/// A segment's largest working vectors, handed by a finished segment to the next one
/// ([`SegmentWriter::finish_keeping`], [`SegmentWriter::create_with`]): the first segment of a
/// build grows them and touches their memory; later ones write into memory already mapped.
/// Made anew for each segment, they were most of a large build's page faults (BENCHMARKS.md,
/// Indexing: segment vectors handed on).
#[derive(Default)]
pub struct Spare {
    positions: Vec<PosEntry>,
    corners: Vec<(u64, CornerEvent)>,
    occupancy: Vec<Occupancy>,
    /// `corners.bin`'s lists as [`write_corners`] encodes them.
    corner_lists: Vec<u8>,
}

impl Spare {
    /// Room for a segment of `games` games, asked of the allocator and not touched: the first
    /// segment's vectors then do not grow by doubling, which copies them and touches twice the
    /// memory they end with. Sized above what the shared datasets and the corpora derived from
    /// them need (up to 21.1 table entries and 20 corner events a game), since a vector that
    /// outgrows its room doubles once more. An allocator that refuses leaves them empty.
    pub fn with_room(games: usize) -> Spare {
        let mut spare = Spare::default();
        let _ = spare.positions.try_reserve_exact(games * 24);
        let _ = spare.corners.try_reserve_exact(games * 26);
        let _ = spare.occupancy.try_reserve_exact(games);
        spare
    }

    /// Emptied, keeping the memory.
    fn cleared(mut self) -> Spare {
        self.positions.clear();
        self.corners.clear();
        self.occupancy.clear();
        self.corner_lists.clear();
        self
    }
}

impl SegmentWriter {
    /// A new segment in `dir` whose first game is `first_game`; positions reached by at least
    /// `aggregate_min` entries of its table are pre-aggregated.
    pub fn create(
        dir: &Path,
        first_game: u32,
        aggregate_min: u32,
    ) -> Result<SegmentWriter, IndexError> {
        SegmentWriter::create_with(dir, first_game, aggregate_min, Spare::default())
    }

    /// [`SegmentWriter::create`], writing into the vectors a finished segment left.
    pub fn create_with(
        dir: &Path,
        first_game: u32,
        aggregate_min: u32,
        spare: Spare,
    ) -> Result<SegmentWriter, IndexError> {
        let Spare {
            positions,
            corners,
            occupancy,
            corner_lists,
        } = spare.cleared();
        std::fs::create_dir_all(dir).map_err(|e| IndexError::io(dir, e))?;
        let open = |name: &'static str| create_file(dir, name);
        Ok(SegmentWriter {
            dir: dir.to_path_buf(),
            first_game,
            games: open(file::GAMES)?,
            ops: open(file::OPS)?,
            occupancy,
            records: open(file::RECORDS)?,
            records_idx: open(file::RECORDS_INDEX)?,
            files: open(file::FILES)?,
            sigs: open(file::SIGNATURES)?,
            vacated: open(file::VACATED)?,
            vacated_lists: Vec::new(),
            vacated_starts: Vec::new(),
            rejected: open(file::REJECTED)?,
            winners: Vec::new(),
            years: Vec::new(),
            facts: Vec::new(),
            copies: Vec::new(),
            long: Vec::new(),
            variations: Vec::new(),
            line_bits: Vec::new(),
            ops_len: 0,
            records_len: 0,
            positions,
            corners,
            corner_lists,
            block: Vec::new(),
            block_entries: Vec::new(),
            record_blocks: Vec::new(),
            // Level 1, not 3: skeletons are already small, so level 3 saves little room for
            // its CPU (BENCHMARKS.md, Indexing: records at zstd level 1).
            compressor: zstd::bulk::Compressor::new(1).map_err(|e| IndexError::io(dir, e))?,
            count: 0,
            file_count: 0,
            aggregate_min: aggregate_min.max(1),
            board: None,
            evals: crate::evals::Writer::default(),
        })
    }

    /// Whether its evaluations fill what one segment's `evals.bin` can address: the segment
    /// must close before its next game, whatever its number of games.
    pub fn evals_full(&self) -> bool {
        self.evals.is_full()
    }

    /// Games written so far.
    pub fn len(&self) -> u32 {
        self.count
    }

    /// The board (columns, rows) every game written so far is played on, when they all are on
    /// one (see [`crate::store::manifest::SegmentInfo::board`]).
    pub fn board(&self) -> Option<(u8, u8)> {
        self.board.flatten()
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
        let board = (g.rec.width, g.rec.height);
        self.board = match self.board {
            None => Some(Some(board)),
            Some(Some(b)) if b != board => Some(None),
            same => same,
        };
        self.winners.push(g.rec.winner);
        self.years
            .extend_from_slice(&YearWinner::new(g.facts.year, g.rec.winner).0.to_le_bytes());
        self.facts
            .extend_from_slice(&crate::encode::facts::to_bytes(&g.facts));
        if g.rec.is_copy() {
            self.copies.push((id, g.rec.duplicate_of));
        } else if g.rec.flags & FLAG_LONG != 0 {
            self.long.push(id);
        }
        if let Some(v) = &g.variation {
            crate::encode::variations::encode(self.count, v, self.first_game, &mut self.variations);
            let i = self.count as usize;
            if self.line_bits.len() <= i / 64 {
                self.line_bits.resize(i / 64 + 1, 0);
            }
            self.line_bits[i / 64] |= 1 << (i % 64);
        }
        if let Some(e) = &g.evals {
            self.evals.add(self.count, id, e);
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
        self.vacated_starts.push(self.vacated_lists.len() as u32);
        g.vacated
            .unwrap_or(Vacated::ALL)
            .encode(&mut self.vacated_lists);
        let game = self.count;
        self.corners.extend(
            g.corners
                .iter()
                .map(|&(key, e)| (key, CornerEvent { game, ..e })),
        );
        self.block_entries
            .push((self.block.len() as u32, g.record.len() as u32));
        if self.block.is_empty() && g.record.len() > self.block.capacity() {
            // A record larger than the block's buffer becomes the buffer: a record near the size
            // limit (1 GiB) is not copied a second time (BENCHMARKS.md, Indexing: a record at the
            // size limit).
            self.block = std::mem::take(&mut g.record);
        } else {
            self.block.extend_from_slice(&g.record);
        }
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
        // Each game's end in the block now; the block's place after the last game's.
        for &(offset, len) in &self.block_entries {
            self.records_idx
                .write_all(&(offset + len).to_le_bytes())
                .map_err(err)?;
        }
        self.record_blocks
            .extend_from_slice(&RecordAt::encode_block(
                self.records_len,
                compressed.len() as u32,
            ));
        self.records_len += compressed.len() as u64;
        if self.block.capacity() > BLOCK_KEPT_BYTES {
            // One huge record's buffer is not held for the rest of the run.
            self.block = Vec::new();
        } else {
            self.block.clear();
        }
        self.block_entries.clear();
        Ok(())
    }

    /// Sorts the position table, writes everything and syncs it to disk; returns each file's
    /// length and checksum, for the manifest.
    ///
    /// The position table (with its pre-aggregated continuations) and the corner table (with
    /// the occupancy columns) are written side by side: they are most of a segment's end, and at
    /// the last segment's end only the metadata's commit runs beside them, so one core would
    /// otherwise wait (BENCHMARKS.md, Indexing: a segment's end on both cores).
    pub fn finish(self) -> Result<Vec<FileSum>, IndexError> {
        self.finish_keeping().map(|(files, _)| files)
    }

    /// [`SegmentWriter::finish`], and the segment's largest vectors for the next one.
    pub fn finish_keeping(mut self) -> Result<(Vec<FileSum>, Spare), IndexError> {
        self.flush_block()?;
        let dir = self.dir.clone();
        let err = |e| IndexError::io(&dir, e);
        self.records_idx
            .write_all(&self.record_blocks)
            .map_err(err)?;
        let create = |name: &'static str| create_file(&dir, name);
        let mut years = create(file::YEARS)?;
        years.write_all(&self.years).map_err(err)?;
        // `vacated.bin`: where each game's list starts (one u32 a game, and one where the last
        // ends), then the lists.
        self.vacated_starts.push(self.vacated_lists.len() as u32);
        for start in &self.vacated_starts {
            self.vacated.write_all(&start.to_le_bytes()).map_err(err)?;
        }
        self.vacated.write_all(&self.vacated_lists).map_err(err)?;
        let mut facts = create(file::FACTS)?;
        facts.write_all(&self.facts).map_err(err)?;
        let mut lists = create(file::COPIES)?;
        for (copy, original) in &self.copies {
            lists.write_all(&copy.to_le_bytes()).map_err(err)?;
            lists.write_all(&original.to_le_bytes()).map_err(err)?;
        }
        let mut variations = create(file::VARIATIONS)?;
        variations.write_all(&self.variations).map_err(err)?;
        let mut long = create(file::LONG)?;
        for id in &self.long {
            long.write_all(&id.to_le_bytes()).map_err(err)?;
        }
        // Evaluations only where some game has them: other segments pay no byte.
        let mut analysed = Vec::new();
        if !self.evals.is_empty() {
            let (evals, mistakes) = std::mem::take(&mut self.evals).finish();
            for (name, bytes) in [(file::EVALS, evals), (file::MISTAKES, mistakes)] {
                let mut f = create(name)?;
                f.write_all(&bytes).map_err(err)?;
                analysed.push(f);
            }
        }
        let aggregating = Aggregating {
            first_game: self.first_game,
            facts: &self.facts,
            winners: &self.winners,
            line_bits: &self.line_bits,
            aggregate_min: self.aggregate_min,
        };
        let done = [
            years,
            facts,
            lists,
            variations,
            long,
            self.games,
            self.ops,
            self.records,
            self.records_idx,
            self.files,
            self.sigs,
            self.vacated,
            self.rejected,
        ];
        let (positions, corners) = (&mut self.positions, &mut self.corners);
        let corner_lists = &mut self.corner_lists;
        let (first_game, occupancy) = (self.first_game, &self.occupancy);
        let sums = std::thread::scope(|scope| {
            // The files already whole are synced to disk (hundreds of megabytes of replay
            // programs and records) on a thread that waits for the disk, not on the pool's.
            let syncing = scope.spawn(|| sum_all(&dir, done));
            let (table, corner) = rayon::join(
                || -> Result<_, IndexError> {
                    positions.sort_unstable();
                    let mut table = sum_all(&dir, write_positions(&dir, positions, first_game)?)?;
                    table.extend(sum_all(&dir, aggregating.write(&dir, positions)?)?);
                    Ok(table)
                },
                || -> Result<_, IndexError> {
                    let mut corner = sum_all(&dir, write_corners(&dir, corners, corner_lists)?)?;
                    let mut occ = create_file(&dir, file::OCCUPANCY)?;
                    occ.write_all(&crate::encode::occupancy::to_columns(occupancy))
                        .map_err(|e| IndexError::io(&dir, e))?;
                    corner.extend(sum_all(&dir, [occ])?);
                    Ok(corner)
                },
            );
            let synced = syncing
                .join()
                .unwrap_or_else(|_| Err(IndexError::Corrupt("syncing a segment panicked".into())));
            let mut sums = synced?;
            sums.extend(sum_all(&dir, analysed)?);
            sums.extend(table?);
            sums.extend(corner?);
            Ok::<_, IndexError>(sums)
        })?;
        let sums = write_block_sums(&dir, sums)?;
        let spare = Spare {
            positions: self.positions,
            corners: self.corners,
            occupancy: self.occupancy,
            corner_lists: self.corner_lists,
        };
        Ok((sums, spare))
    }
}

/// Writes what is left of each file and syncs it to disk: each one's length and checksum, and
/// its blocks' checksums.
fn sum_all(
    dir: &Path,
    files: impl IntoIterator<Item = SegmentFile>,
) -> Result<Vec<(FileSum, Vec<u32>)>, IndexError> {
    files
        .into_iter()
        .map(|w| {
            let summed = w.finish().map_err(|e| IndexError::io(dir, e))?;
            Ok((
                FileSum {
                    name: summed.name.to_string(),
                    len: summed.len,
                    crc32: summed.hasher.finalize(),
                },
                summed.blocks,
            ))
        })
        .collect()
}

/// Writes `sums.bin`, every block checksum of the segment's other files (see `check`), and
/// gives the length and checksum of every file, itself included, sorted by name.
fn write_block_sums(
    dir: &Path,
    files: Vec<(FileSum, Vec<u32>)>,
) -> Result<Vec<FileSum>, IndexError> {
    let mut out = create_file(dir, file::BLOCK_SUMS)?;
    let bytes = BlockSums::encode(
        files
            .iter()
            .map(|(f, blocks)| (f.name.as_str(), f.len, blocks.as_slice())),
    );
    out.write_all(&bytes).map_err(|e| IndexError::io(dir, e))?;
    let mut sums: Vec<FileSum> = files.into_iter().map(|(f, _)| f).collect();
    sums.extend(sum_all(dir, [out])?.into_iter().map(|(f, _)| f));
    sums.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(sums)
}

/// Three files of a table grouped by key: the distinct keys, where each one's list starts, and
/// the lists.
type KeyedFiles = [SegmentFile; 3];

/// Writes the (sorted) position table: the distinct hashes, where each one's entries start (4
/// bytes, and one past the last), and the entries.
fn write_positions(
    dir: &Path,
    positions: &[PosEntry],
    first_game: u32,
) -> Result<KeyedFiles, IndexError> {
    let err = |e| IndexError::io(dir, e);
    let create = |name: &'static str| create_file(dir, name);
    let (mut keys, mut starts, mut pos) = (
        create(file::POSITION_KEYS)?,
        create(file::POSITION_STARTS)?,
        create(file::POSITIONS)?,
    );
    let mut last = None;
    for (i, e) in positions.iter().enumerate() {
        if last != Some(e.hash) {
            last = Some(e.hash);
            keys.write_all(&e.hash.to_le_bytes()).map_err(err)?;
            starts.write_all(&(i as u32).to_le_bytes()).map_err(err)?;
        }
        debug_assert!(u32::from(e.k) <= MAX_TABLE_MOVE);
        let game = e.game - first_game;
        pos.write_all(&encode_entry(game, e.k, e.next))
            .map_err(err)?;
    }
    starts
        .write_all(&(positions.len() as u32).to_le_bytes())
        .map_err(err)?;
    Ok([keys, starts, pos])
}

/// What the pre-aggregated continuations are made from, besides the position table.
struct Aggregating<'a> {
    first_game: u32,
    facts: &'a [u8],
    winners: &'a [u8],
    line_bits: &'a [u64],
    aggregate_min: u32,
}

impl Aggregating<'_> {
    /// Writes the pre-aggregated continuations ([`crate::encode::aggregate`]) of every hash of the
    /// (sorted) position table with at least `aggregate_min` entries: the hashes, where each
    /// one's cells start in `aggregates.bin` (bytes, 4 each, and one where the last ends), and
    /// the cells. The hashes are summed on all cores.
    fn write(&self, dir: &Path, positions: &[PosEntry]) -> Result<KeyedFiles, IndexError> {
        use rayon::prelude::*;
        let err = |e| IndexError::io(dir, e);
        let facts: Vec<crate::Facts> = self
            .facts
            .chunks_exact(crate::encode::facts::SIZE)
            .map(|b| crate::encode::facts::from_bytes(b.try_into().expect("chunks of SIZE")))
            .collect();
        let mover = |code: u16| match crate::encode::ops::Op::decode(code) {
            crate::encode::ops::Op::Move(c, _) => Some(c),
            _ => None,
        };
        let groups: Vec<&[PosEntry]> = positions
            .chunk_by(|a, b| a.hash == b.hash)
            .filter(|g| g.len() >= self.aggregate_min as usize)
            .collect();
        let encoded: Vec<(u64, Vec<u8>)> = groups
            .par_iter()
            .map(|g| {
                let is_line = |i: usize| {
                    self.line_bits
                        .get(i / 64)
                        .is_some_and(|w| w >> (i % 64) & 1 != 0)
                };
                let cells = crate::encode::aggregate::cells_of(
                    g,
                    self.first_game,
                    &facts,
                    self.winners,
                    mover,
                    is_line,
                );
                let mut bytes = Vec::new();
                crate::encode::aggregate::encode(&cells, self.first_game, &mut bytes);
                (g[0].hash, bytes)
            })
            .collect();
        let create = |name: &'static str| create_file(dir, name);
        let (mut keys, mut starts, mut cells) = (
            create(file::AGGREGATE_KEYS)?,
            create(file::AGGREGATE_STARTS)?,
            create(file::AGGREGATES)?,
        );
        let mut at: u64 = 0;
        let start = |n: u64| {
            u32::try_from(n).map(u32::to_le_bytes).map_err(|_| {
                IndexError::Corrupt("aggregated continuations over 4 GB in one segment".into())
            })
        };
        for (hash, bytes) in &encoded {
            keys.write_all(&hash.to_le_bytes()).map_err(err)?;
            starts.write_all(&start(at)?).map_err(err)?;
            cells.write_all(bytes).map_err(err)?;
            at += bytes.len() as u64;
        }
        starts.write_all(&start(at)?).map_err(err)?;
        Ok([keys, starts, cells])
    }
}

/// Writes the corner table, grouped by key as the position table is: the distinct keys, where
/// each one's list starts in `corners.bin` (in bytes, 4 each, and last where the last ends), and
/// the lists ([`encode_corner_events`]).
/// `bytes` is room for the lists, emptied first.
fn write_corners(
    dir: &Path,
    corners: &mut [(u64, CornerEvent)],
    bytes: &mut Vec<u8>,
) -> Result<KeyedFiles, IndexError> {
    let err = |e| IndexError::io(dir, e);
    // By key, then game and position; sorted on all cores, as it is most of this segment's
    // end.
    corners.par_sort_unstable();
    let create = |name: &'static str| create_file(dir, name);
    let (mut keys, mut starts, mut games) = (
        create(file::CORNER_KEYS)?,
        create(file::CORNER_STARTS)?,
        create(file::CORNERS)?,
    );
    bytes.clear();
    // A segment's lists stay far below 4 GB (a few dozen events a game, of 3 to 12 bytes).
    let start = |n: usize| {
        u32::try_from(n)
            .map(u32::to_le_bytes)
            .map_err(|_| IndexError::Corrupt("corner table over 4 GB in one segment".into()))
    };
    for group in corners.chunk_by(|a, b| a.0 == b.0) {
        keys.write_all(&group[0].0.to_le_bytes()).map_err(err)?;
        starts.write_all(&start(bytes.len())?).map_err(err)?;
        encode_corner_events(group.iter().map(|e| e.1), bytes);
    }
    starts.write_all(&start(bytes.len())?).map_err(err)?;
    games.write_all(bytes).map_err(err)?;
    Ok([keys, starts, games])
}

#[cfg(test)]
mod tests {
    use super::{create_file, GameData, SegmentWriter, CHUNK};
    use crate::store::{CornerEvent, GameRec, Occupancy, StoredOps, NO_NEXT};
    use std::io::Write;

    /// `n` games of random positions, corner events and occupancy.
    fn random_games(n: usize, seed: u64) -> Vec<GameData> {
        let mut draw = testdata::xorshift(seed);
        (0..n)
            .map(|_| {
                let positions = (0..draw() % 40)
                    .map(|k| (draw() % 50, k as u16, (draw() % 700) as u16))
                    .collect();
                let corners = (0..draw() % 12)
                    .map(|k| {
                        let event = CornerEvent {
                            game: 0,
                            k: k as u32,
                            corner: (draw() % 4) as u8,
                            transposed: draw() % 2 == 1,
                            next: if draw().is_multiple_of(9) {
                                NO_NEXT
                            } else {
                                (draw() % 700) as u16
                            },
                        };
                        (draw() % 30, event)
                    })
                    .collect();
                let mut occupancy = Occupancy::default();
                // Bits for the 361 points only.
                for colour in &mut occupancy.0 {
                    for (i, word) in colour.iter_mut().enumerate() {
                        let points = (361 - 64 * i).min(64);
                        *word = draw() & draw() & (u64::MAX >> (64 - points));
                    }
                }
                GameData {
                    rec: GameRec {
                        winner: (draw() % 3) as u8,
                        ..GameRec::default()
                    },
                    ops: StoredOps::default(),
                    occupancy,
                    positions,
                    corners,
                    vacated: None,
                    record: Vec::new(),
                    signatures: (draw(), draw()),
                    facts: crate::Facts::default(),
                    variation: None,
                    evals: None,
                }
            })
            .collect()
    }

    /// A segment written into the vectors a larger one left holds exactly what a segment
    /// written from nothing does: nothing of the first is left in them.
    #[test]
    fn a_segment_in_a_spare_writes_what_a_new_one_does() {
        let scratch = testdata::Scratch::new("spare-segments");
        let write = |w: &mut SegmentWriter, games: Vec<GameData>| {
            for g in games {
                w.add_game(g).unwrap();
            }
        };
        let mut first = SegmentWriter::create(&scratch.0.join("first"), 0, 2).unwrap();
        write(&mut first, random_games(500, 7));
        let (_, spare) = first.finish_keeping().unwrap();
        let mut fresh = SegmentWriter::create(&scratch.0.join("fresh"), 500, 2).unwrap();
        write(&mut fresh, random_games(120, 11));
        let mut reused =
            SegmentWriter::create_with(&scratch.0.join("reused"), 500, 2, spare).unwrap();
        write(&mut reused, random_games(120, 11));
        let (fresh, reused) = (fresh.finish().unwrap(), reused.finish().unwrap());
        assert!(fresh
            .iter()
            .any(|f| f.name == super::file::POSITIONS && f.len > 0));
        assert_eq!(fresh, reused);
    }

    /// A huge record is not copied into the records block (its buffer becomes the block), and
    /// the block does not keep its size once written.
    #[test]
    fn a_huge_record_is_not_copied_nor_its_buffer_kept() {
        let scratch = testdata::Scratch::new("huge-record");
        let mut w = SegmentWriter::create(&scratch.0.join("s"), 0, 2).unwrap();
        let mut games = random_games(super::RECORDS_PER_BLOCK, 3);
        games[0].record = vec![b'('; super::BLOCK_KEPT_BYTES + 1];
        let huge = games[0].record.as_ptr();
        let mut games = games.into_iter();
        w.add_game(games.next().unwrap()).unwrap();
        assert_eq!(w.block.as_ptr(), huge);
        for g in games {
            w.add_game(g).unwrap();
        }
        assert!(w.block.is_empty() && w.block.capacity() <= super::BLOCK_KEPT_BYTES);
        w.finish().unwrap();
    }

    /// Whatever the sizes written, the file holds the bytes in order with their length and
    /// checksum, and every write to it but the last is of whole chunks at a chunk's offset.
    #[test]
    fn segment_files_are_written_in_whole_aligned_chunks() {
        let scratch = testdata::Scratch::new("chunked-writes");
        let mut draw = testdata::xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = |n: usize| (draw() % n as u64) as usize;
        let sizes: Vec<Vec<usize>> = vec![
            vec![],
            vec![0, 1, 0],
            vec![CHUNK],
            vec![CHUNK - 1, 1, 1, CHUNK + 1],
            vec![3 * CHUNK + 5, 7, 2 * CHUNK],
            (0..3000).map(|_| next(4000)).collect(),
            (0..40).map(|_| next(3 * CHUNK)).collect(),
        ];
        for (i, sizes) in sizes.iter().enumerate() {
            let mut w = create_file(&scratch.0, ["a", "b", "c", "d", "e", "f", "g"][i]).unwrap();
            let mut want = Vec::new();
            for &n in sizes {
                let piece: Vec<u8> = (0..n).map(|j| (want.len() + j) as u8 ^ i as u8).collect();
                w.write_all(&piece).unwrap();
                want.extend(piece);
            }
            let done = w.finish().unwrap();
            let path = scratch.0.join(done.name);
            assert_eq!(std::fs::read(&path).unwrap(), want, "sizes {i}");
            assert_eq!(done.len, want.len() as u64);
            assert_eq!(done.hasher.finalize(), crc32fast::hash(&want));
            let (last, whole) = done.puts.split_last().unwrap();
            for &(at, n) in whole {
                assert!(
                    at % CHUNK as u64 == 0 && n % CHUNK == 0,
                    "sizes {i}: {n} at {at}"
                );
            }
            assert_eq!(last.0 % CHUNK as u64, 0);
        }
    }
}
