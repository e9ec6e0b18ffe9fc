//! Reading a segment: its files mapped (or, for the small ones, read whole) after their lengths
//! are checked against the manifest, and every lookup of a damaged file answered without panic.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use inputs::mapped::Mapped;

use super::check::{BlockSums, Checked, DamageLog};
use super::format::{
    decode_corner_events, decode_corner_games, decode_entry, decode_ops, CornerEvent, GameRec,
    PosEntry, RecordAt, YearWinner, ENTRY_SIZE, FLAG_PACKED, FLAG_SKELETON,
};
use crate::encode::occupancy::{Occupancy, Vacated};
use crate::store::layout::segment as file;
use crate::store::manifest::{FileSum, SegmentInfo};
use crate::{Facts, IndexError};
use model::Occurrence;

/// A read-only, memory-mapped segment.
pub struct Segment {
    pub first_game: u32,
    games: Checked,
    ops: Checked,
    occ: Checked,
    keys: Checked,
    starts: Checked,
    positions: Checked,
    corner_keys: Checked,
    corner_starts: Checked,
    corners: Checked,
    aggregate_keys: Checked,
    aggregate_starts: Checked,
    aggregates: Checked,
    records: Checked,
    records_idx: Checked,
    sigs: Checked,
    vacated: Checked,
    years: Checked,
    facts: Checked,
    /// The board every game is played on, when the manifest says they all are on one.
    board: Option<(u8, u8)>,
    copies: Map,
    long: Map,
    variations: Map,
    dir: PathBuf,
    /// Read from `files.jsonl` when first needed: most searches name few games.
    files: std::sync::OnceLock<Files>,
    /// `files.jsonl`'s checksum in the manifest, checked when it is read.
    files_crc: Option<u32>,
    /// The damaged files found while reading (see `check`): no answer is given from them.
    log: Arc<DamageLog>,
    /// The analysed games' evaluations and mistakes lists, in a segment that has any.
    evals: Option<crate::evals::Stored>,
}

/// The names of a segment's record files, one JSON string a line (`files.jsonl`), each decoded
/// when first asked: an answer names ten games, and decoding a segment's tens of thousands of
/// names whole cost more than the rest of describing them.
struct Files {
    text: String,
    /// Where each line starts, and the text's end.
    starts: Vec<usize>,
    /// Names with escapes in their JSON, decoded once.
    decoded: Vec<std::sync::OnceLock<String>>,
}

impl Files {
    fn new(text: String) -> Files {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
        if starts.last() != Some(&text.len()) {
            starts.push(text.len());
        }
        let lines = starts.len() - 1;
        Files {
            text,
            starts,
            decoded: (0..lines).map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// Name `i`; "" past the end or for a line that is no JSON string.
    fn get(&self, i: usize) -> &str {
        let (Some(&start), Some(&end)) = (self.starts.get(i), self.starts.get(i + 1)) else {
            return "";
        };
        let line = self.text[start..end].trim_end_matches(['\n', '\r']);
        // A name without escapes is the text between its quotes (a JSON string holds no bare
        // quote or control character).
        if let Some(plain) = line
            .strip_prefix('"')
            .and_then(|l| l.strip_suffix('"'))
            .filter(|l| !l.contains(['\\', '"']))
        {
            return plain;
        }
        self.decoded[i].get_or_init(|| serde_json::from_str(line).unwrap_or_default())
    }
}

/// A segment file's bytes: mapped, or read whole (see [`read`]).
pub(crate) enum Map {
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
    // Searches touch much of the programs, occupancy and tables: pages read back from disk
    // should come as huge folios, as writing left them (`store::write::Summed`).
    m.advise_huge_pages();
    Ok(Map::Mapped(m))
}

/// Reads a small segment file whole: a few bytes per copy, long game or variation line, read
/// entirely by every open anyway, so a copy costs nothing and no later truncation of the file
/// can touch the process.
fn read(path: &Path) -> Result<Map, IndexError> {
    std::fs::read(path)
        .map(Map::Read)
        .map_err(|e| IndexError::io(path, e))
}

/// Refuses a file read whole whose bytes do not match the manifest's checksum `crc` (none
/// recorded: nothing to check), naming it.
fn check_whole(path: &Path, bytes: &[u8], crc: Option<u32>) -> Result<(), IndexError> {
    match crc {
        Some(want) if crc32fast::hash(bytes) != want => Err(IndexError::Corrupt(format!(
            "{} does not match its checksum in the manifest (`qipu verify` checks every file; \
             `qipu index --rebuild` makes the index anew)",
            path.display()
        ))),
        _ => Ok(()),
    }
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
    /// Opens the segment the manifest describes in `info`, in the folder `dir`. The files read
    /// whole here, and the block sums, are checked against the manifest's checksums now; the
    /// mapped files block by block as they are read (see `check`).
    pub fn open(dir: &Path, info: &SegmentInfo) -> Result<Segment, IndexError> {
        check_sizes(dir, &info.files)?;
        let fp = dir.join(file::FILES);
        std::fs::metadata(&fp).map_err(|e| IndexError::io(&fp, e))?;
        let crc_of = |name: &str| info.files.iter().find(|f| f.name == name).map(|f| f.crc32);
        // Read whole and checked whole: a few bytes per copy, long game or variation line.
        let whole = |name: &str| -> Result<Map, IndexError> {
            let path = dir.join(name);
            let map = read(&path)?;
            check_whole(&path, &map, crc_of(name))?;
            Ok(map)
        };
        let mut sums = match crc_of(file::BLOCK_SUMS) {
            Some(_) => {
                let path = dir.join(file::BLOCK_SUMS);
                let bytes = whole(file::BLOCK_SUMS)?;
                Some(BlockSums::parse(&bytes, &path)?)
            }
            // A segment written before block sums: its mapped files are read unchecked.
            None => None,
        };
        let log = Arc::new(DamageLog::default());
        let mut checked = |name: &str| -> Result<Checked, IndexError> {
            let path = dir.join(name);
            let map = map(&path)?;
            let blocks = match &mut sums {
                Some(sums) => {
                    let blocks = sums.take(name).ok_or_else(|| {
                        IndexError::Corrupt(format!(
                            "{} has no block checksums for {name}",
                            dir.join(file::BLOCK_SUMS).display()
                        ))
                    })?;
                    if blocks.len() != map.len().div_ceil(super::check::BLOCK) {
                        return Err(IndexError::Corrupt(format!(
                            "{} has {} block checksums for {} bytes of {name}",
                            dir.join(file::BLOCK_SUMS).display(),
                            blocks.len(),
                            map.len()
                        )));
                    }
                    Some(blocks)
                }
                None => None,
            };
            Ok(Checked::new(map, path, blocks, log.clone()))
        };
        let segment = Segment {
            first_game: info.first_game,
            games: checked(file::GAMES)?,
            ops: checked(file::OPS)?,
            occ: checked(file::OCCUPANCY)?,
            keys: checked(file::POSITION_KEYS)?,
            starts: checked(file::POSITION_STARTS)?,
            positions: checked(file::POSITIONS)?,
            corner_keys: checked(file::CORNER_KEYS)?,
            corner_starts: checked(file::CORNER_STARTS)?,
            corners: checked(file::CORNERS)?,
            aggregate_keys: checked(file::AGGREGATE_KEYS)?,
            aggregate_starts: checked(file::AGGREGATE_STARTS)?,
            aggregates: checked(file::AGGREGATES)?,
            records: checked(file::RECORDS)?,
            records_idx: checked(file::RECORDS_INDEX)?,
            sigs: checked(file::SIGNATURES)?,
            vacated: checked(file::VACATED)?,
            // Mapped, not read: 10 bytes a game that an answer reads for its hits only, and that
            // a whole read made every opening pay for (70 MB at 7 M games).
            years: checked(file::YEARS)?,
            facts: checked(file::FACTS)?,
            board: info.board,
            copies: whole(file::COPIES)?,
            long: whole(file::LONG)?,
            variations: whole(file::VARIATIONS)?,
            dir: dir.to_path_buf(),
            files: std::sync::OnceLock::new(),
            files_crc: crc_of(file::FILES),
            evals: match crc_of(file::EVALS) {
                Some(_) => Some(crate::evals::Stored::open(
                    dir,
                    checked(file::EVALS)?,
                    checked(file::MISTAKES)?,
                )?),
                None => None,
            },
            log,
        };
        // Facts, years and winners are read by game number: a file of another length is
        // another layout's.
        for (name, map, size) in [
            (file::FACTS, &segment.facts, crate::encode::facts::SIZE),
            (file::YEARS, &segment.years, YearWinner::SIZE),
        ] {
            if map.len() != segment.len() as usize * size {
                return Err(IndexError::Corrupt(format!(
                    "{} holds {} bytes for {} games of {size} bytes",
                    dir.join(name).display(),
                    map.len(),
                    segment.len(),
                )));
            }
        }
        // So is the records index: its blocks' entries are found past the games'.
        let games = segment.len() as usize;
        let idx_len = RecordAt::index_len(games);
        if segment.records_idx.len() != idx_len {
            return Err(IndexError::Corrupt(format!(
                "{} holds {} bytes for {} games, not {}",
                dir.join(file::RECORDS_INDEX).display(),
                segment.records_idx.len(),
                games,
                idx_len
            )));
        }
        Ok(segment)
    }

    /// The analysed games' evaluations (see [`crate::evals`]); `None` when none is analysed.
    pub(crate) fn evals(&self) -> Option<&crate::evals::Stored> {
        self.evals.as_ref()
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
        let bytes = self.program_bytes(rec);
        decode_ops(
            bytes,
            rec.ops_len as usize,
            rec.flags & FLAG_PACKED != 0,
            out,
        );
    }

    /// The replay program of a game record, read op by op from the mapped file (see
    /// [`crate::encode::pack::Ops`]); a damaged record reads as an empty program.
    pub fn op_stream(&self, rec: &GameRec) -> crate::encode::pack::Ops<'_> {
        let bytes = self.program_bytes(rec);
        crate::encode::pack::Ops::new(bytes, rec.ops_len as usize, rec.flags & FLAG_PACKED != 0)
    }

    /// The stored bytes of a game record's program; none for a damaged record pointing past the
    /// file (which reads as an empty program).
    fn program_bytes(&self, rec: &GameRec) -> &[u8] {
        let start = rec.ops_start as usize;
        let len =
            crate::encode::pack::stored_len(rec.ops_len as usize, rec.flags & FLAG_PACKED != 0);
        self.ops
            .get(start..start.saturating_add(len))
            .unwrap_or_default()
    }

    /// Games of the segment (as a bitmap over 0-based ids) whose occupancy covers one of `needs`.
    pub fn covering(&self, needs: &[Occupancy]) -> Vec<u64> {
        crate::encode::occupancy::covering(&self.occ, self.len() as usize, needs)
    }

    /// Of the segment's games `among` (0-based ids), those whose occupancy covers one of
    /// `needs`, in the order given.
    pub fn covering_among(&self, among: &[u32], needs: &[Occupancy]) -> Vec<u32> {
        crate::encode::occupancy::covering_among(&self.occ, self.len() as usize, among, needs)
    }

    /// Games of the segment (0-based ids, ascending) whose occupancy covers one of `needs` (up
    /// to 64), each with the needs it covers (bit i = need i).
    pub fn covering_each(&self, needs: &[Occupancy]) -> Vec<(u32, u64)> {
        crate::encode::occupancy::covering_each(&self.occ, self.len() as usize, needs)
    }

    /// The bytes of the position-table entries with this hash.
    fn entries(&self, hash: u64) -> &[u8] {
        let n = self.keys.len() / 8;
        let key_at = |i: usize| u64_at(&self.keys, i);
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

    /// The times a corner of the segment's games came to hold the content with this key
    /// ([`goban::corner`]), in (game, k) order, games as global ids.
    pub fn corner_events(&self, key: u64) -> impl Iterator<Item = CornerEvent> + '_ {
        let (first_game, games) = (self.first_game, self.len());
        decode_corner_events(self.corner_bytes(key))
            // Only a damaged table names a game past the segment's end.
            .take_while(move |e| e.game < games)
            .map(move |e| CornerEvent {
                game: first_game + e.game,
                ..e
            })
    }

    /// The games (global ids, ascending, each once) of [`Segment::corner_events`], read without
    /// building the events.
    pub fn corner_games(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let (first_game, games) = (self.first_game, self.len());
        decode_corner_games(self.corner_bytes(key))
            .take_while(move |&g| g < games)
            .map(move |g| first_game + g)
    }

    /// The bytes of the corner events with this key: about four an event.
    pub fn corner_events_size(&self, key: u64) -> usize {
        self.corner_bytes(key).len()
    }

    /// The encoded corner events with this key; none for a key not in the table.
    fn corner_bytes(&self, key: u64) -> &[u8] {
        let n = self.corner_keys.len() / 8;
        let key_at = |i: usize| u64_at(&self.corner_keys, i);
        let start_at = |i: usize| {
            self.corner_starts
                .get(i * 4..i * 4 + 4)
                .map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()) as usize)
        };
        let lo = lower_bound(n, key_at, key);
        // Damaged starts read as an empty list.
        if lo < n && key_at(lo) == key {
            self.corners
                .get(start_at(lo)..start_at(lo + 1))
                .unwrap_or_default()
        } else {
            &[]
        }
    }

    /// The pre-aggregated continuations of this hash ([`crate::encode::aggregate`]), games as global
    /// ids; `None` when the segment does not aggregate it (then its entries are all there is),
    /// or when its cells are damaged (then the entries answer, as they would have).
    pub fn aggregates(&self, hash: u64) -> Option<crate::encode::aggregate::Cells> {
        let n = self.aggregate_keys.len() / 8;
        let key_at = |i: usize| u64_at(&self.aggregate_keys, i);
        let start_at = |i: usize| {
            self.aggregate_starts
                .get(i * 4..i * 4 + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize)
        };
        let lo = lower_bound(n, key_at, hash);
        if lo == n || key_at(lo) != hash {
            return None;
        }
        let bytes = self.aggregates.get(start_at(lo)?..start_at(lo + 1)?)?;
        crate::encode::aggregate::decode(bytes, self.first_game, self.len())
    }

    /// How many position-table entries have this hash.
    pub fn count_positions(&self, hash: u64) -> usize {
        self.entries(hash).len() / ENTRY_SIZE
    }

    /// Every position-table entry of the segment, by hash ascending and then by game: the whole
    /// table in its stored order, for an export that streams it (nothing is collected).
    pub fn all_positions(&self) -> impl Iterator<Item = PosEntry> + '_ {
        let (first_game, games) = (self.first_game, self.len());
        let n = self.keys.len() / 8;
        let start_at = |i: usize| {
            self.starts
                .get(i * 4..i * 4 + 4)
                .map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()) as usize)
        };
        (0..n).flat_map(move |i| {
            let hash = u64_at(&self.keys, i);
            // Damaged starts read as no entries, as in `entries`.
            let (from, to) = (start_at(i), start_at(i + 1));
            self.positions
                .get(from.saturating_mul(ENTRY_SIZE)..to.saturating_mul(ENTRY_SIZE))
                .unwrap_or_default()
                .chunks_exact(ENTRY_SIZE)
                .filter_map(move |b| {
                    let (game, k, next) = decode_entry(b);
                    (game < games).then(|| PosEntry {
                        hash,
                        game: first_game + game,
                        k,
                        next,
                    })
                })
        })
    }

    /// Position-table entries with this hash, by game.
    pub fn positions(&self, hash: u64) -> impl Iterator<Item = Occurrence> + '_ {
        let (first_game, games) = (self.first_game, self.len());
        self.entries(hash)
            .chunks_exact(ENTRY_SIZE)
            .filter_map(move |b| {
                let (game, k, next) = decode_entry(b);
                // Only a damaged table names a game past the segment's end.
                (game < games).then(|| Occurrence {
                    game: first_game + game,
                    k: u32::from(k),
                    next,
                })
            })
    }

    /// Position-table entries with this hash of the games `games` (global ids), by game: found
    /// by binary search, so that one game's entries, or a few games', cost a look-up rather than
    /// a pass over every game reaching the position.
    pub fn positions_of(
        &self,
        hash: u64,
        games: std::ops::Range<u32>,
    ) -> impl Iterator<Item = Occurrence> + '_ {
        let (first_game, len) = (self.first_game, self.len());
        let entries = self.entries(hash);
        let from = games.start.saturating_sub(first_game);
        let to = games.end.saturating_sub(first_game).min(len);
        // The first entry of a game at or past `from`, then entries up to `to`.
        let lo = first_entry_of(entries, 0, from);
        entries[lo * ENTRY_SIZE..]
            .chunks_exact(ENTRY_SIZE)
            .map(decode_entry)
            // An entry naming a game past the segment (damage) is passed over, as `positions`
            // does, rather than taken for the end of the range.
            .take_while(move |&(game, _, _)| game < to || game >= len)
            .filter(move |&(game, _, _)| game < to)
            .map(move |(game, k, next)| Occurrence {
                game: first_game + game,
                k: u32::from(k),
                next,
            })
    }

    /// Position-table entries with this hash of each of `games` (global ids, ascending; those
    /// of other segments are passed over), by game, appended to `out`: the hash is looked up
    /// once, then each game by binary search from where the previous one was found.
    pub fn positions_of_games(&self, hash: u64, games: &[u32], out: &mut Vec<Occurrence>) {
        let (first_game, len) = (self.first_game, self.len());
        let entries = self.entries(hash);
        if entries.is_empty() {
            return;
        }
        let n = entries.len() / ENTRY_SIZE;
        let mut lo = 0;
        for &g in games {
            let Some(local) = g.checked_sub(first_game).filter(|&l| l < len) else {
                continue;
            };
            lo = first_entry_of(entries, lo, local);
            while lo < n {
                let (game, k, next) = decode_entry(&entries[lo * ENTRY_SIZE..]);
                if game != local {
                    break;
                }
                out.push(Occurrence {
                    game: g,
                    k: u32::from(k),
                    next,
                });
                lo += 1;
            }
        }
    }

    /// The vacated points of game `i` (see [`Vacated`]); every point for a game of another board
    /// or past a damaged file's end.
    pub fn vacated(&self, i: u32) -> Vacated {
        let i = i as usize;
        match (self.vacated_start(i), self.vacated_start(i + 1)) {
            (Some(from), Some(to)) => self
                .vacated
                .get(from..to)
                .and_then(Vacated::decode)
                .unwrap_or(Vacated::ALL),
            _ => Vacated::ALL,
        }
    }

    /// Where game `i`'s list of vacated points starts in `vacated.bin`, which holds where each
    /// list starts (after these starts), then the lists; `None` past a damaged file's end.
    #[inline]
    fn vacated_start(&self, i: usize) -> Option<usize> {
        let lists = (self.len() as usize + 1) * 4;
        self.vacated
            .get(i * 4..i * 4 + 4)
            .map(|b| lists + u32::from_le_bytes(b.try_into().unwrap()) as usize)
    }

    /// Whether game `i` ever had a stone of `color` at `p` (19×19 games; see [`Occupancy`]);
    /// `None` when the file cannot tell (damaged).
    pub fn had(&self, i: u32, color: goban::Color, p: goban::Point) -> Option<bool> {
        crate::encode::occupancy::had(&self.occ, self.len() as usize, i as usize, color, p)
    }

    /// The board (columns, rows) of game `i`: without reading its record when the segment's
    /// games are all on one board.
    #[inline]
    pub fn board(&self, i: u32) -> (u8, u8) {
        self.board.unwrap_or_else(|| {
            let r = self.game(i);
            (r.width, r.height)
        })
    }

    /// The winner byte of game `i` (see [`GameRec::winner`]), read alone.
    #[inline]
    pub fn winner(&self, i: u32) -> u8 {
        self.year_winner(i).winner()
    }

    /// Game `i`'s year (0 undated; the facts' when [`YearWinner`] could not hold it) and
    /// winner byte, from two bytes a game: what a date profile reads of each hit game.
    #[inline]
    pub fn year_and_winner(&self, i: u32) -> (u16, u8) {
        let e = self.year_winner(i);
        match e.year() {
            YearWinner::SEE_FACTS => (self.facts(i).year, e.winner()),
            year => (year, e.winner()),
        }
    }

    /// Game `i`'s entry of `years.bin`; none known past a damaged file's end.
    #[inline]
    fn year_winner(&self, i: u32) -> YearWinner {
        let at = i as usize * YearWinner::SIZE;
        match self.years.get(at..at + YearWinner::SIZE) {
            Some(b) => YearWinner(u16::from_le_bytes([b[0], b[1]])),
            None => YearWinner(0),
        }
    }

    /// Asks the processor to fetch game `i`'s year and winner into its cache (a hint; nothing
    /// past the file's end).
    #[inline]
    pub fn prefetch_year(&self, i: u32) {
        prefetch(self.years.unchecked().get(i as usize * YearWinner::SIZE));
    }

    /// Asks the processor to fetch the start of game `i`'s program and of its vacated points
    /// into its cache (a hint; nothing past a file's end): a scan over many games reads each
    /// from its first op, at a place the one before does not tell.
    #[inline]
    pub fn prefetch_program(&self, i: u32) {
        let rec = self.game(i);
        let at = rec.ops_start as usize;
        let len =
            crate::encode::pack::stored_len(rec.ops_len as usize, rec.flags & FLAG_PACKED != 0);
        // Its first lines: a scan reads on from its first op, and the processor's own
        // prefetcher sees no pattern in a few hundred bytes here and there. Asking for the
        // whole program gained one probe what it cost others (BENCHMARKS.md, Patterns:
        // prefetching programs).
        let lines = (at % 64 + len).div_ceil(64).min(PREFETCH_LINES);
        for line in 0..lines {
            prefetch(self.ops.unchecked().get(at - at % 64 + line * 64));
        }
        if let Some(at) = self.vacated_start(i as usize) {
            prefetch(self.vacated.unchecked().get(at));
        }
    }

    /// Asks the processor to fetch game `i`'s record and where its vacated points start (a
    /// hint, given further ahead than [`Segment::prefetch_program`], which reads them to know
    /// where the program is).
    #[inline]
    pub fn prefetch_record(&self, i: u32) {
        prefetch(self.games.unchecked().get(i as usize * GameRec::SIZE));
        prefetch(self.vacated.unchecked().get(i as usize * 4));
    }

    /// Asks the processor to fetch game `i`'s facts into its cache (a hint; nothing past the
    /// file's end).
    #[inline]
    pub fn prefetch_facts(&self, i: u32) {
        prefetch(
            self.facts
                .unchecked()
                .get(i as usize * crate::encode::facts::SIZE),
        );
    }

    /// The facts of game `i` (see [`Facts`]); all unknown past a damaged file's end.
    #[inline]
    pub fn facts(&self, i: u32) -> Facts {
        let at = i as usize * crate::encode::facts::SIZE;
        match self.facts.get(at..at + crate::encode::facts::SIZE) {
            Some(b) => crate::encode::facts::from_bytes(b.try_into().unwrap()),
            None => Facts {
                komi_quarters: Facts::NO_KOMI,
                ..Facts::default()
            },
        }
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
        crate::encode::skeleton::restore(&stored, &ops).ok_or_else(|| {
            IndexError::Corrupt(format!(
                "record of game {i} in {} disagrees with its moves in {}",
                self.dir.join(file::RECORDS).display(),
                self.dir.join(file::OPS).display()
            ))
        })
    }

    /// The record bytes of game `i` as stored (a skeleton or the record).
    fn stored_record(&self, i: u32) -> Result<Vec<u8>, IndexError> {
        let RecordAt {
            block_start,
            block_len,
            offset,
            len,
        } = RecordAt::find(&self.records_idx, self.len() as usize, i as usize)
            .ok_or_else(|| self.records_damaged(i, file::RECORDS_INDEX, "has no entry"))?;
        let (block_start, block_len) = (block_start as usize, block_len as usize);
        let (off, len) = (offset as usize, len as usize);
        let block = self
            .records
            .get(block_start..block_start.saturating_add(block_len))
            .ok_or_else(|| self.records_damaged(i, file::RECORDS, "ends before its block"))?;
        let block = zstd::stream::decode_all(block).map_err(|e| {
            self.records_damaged(i, file::RECORDS, &format!("has a bad block: {e}"))
        })?;
        block
            .get(off..off.saturating_add(len))
            .map(<[u8]>::to_vec)
            .ok_or_else(|| self.records_damaged(i, file::RECORDS, "has a block too short"))
    }

    /// The error of a record that cannot be read: `name`, a file of the segment, `why`.
    fn records_damaged(&self, i: u32, name: &str, why: &str) -> IndexError {
        IndexError::Corrupt(format!(
            "{} {why} for game {i}",
            self.dir.join(name).display()
        ))
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

    /// The name of the segment's record file `i`; "" when `files.jsonl` cannot be read any
    /// more or does not match its checksum, which is then noted as damage (see
    /// [`Segment::damaged`]): no answer is given with names read from it.
    pub fn file(&self, i: usize) -> &str {
        self.files
            .get_or_init(|| {
                let path = self.dir.join(file::FILES);
                let text = match std::fs::read(&path) {
                    Ok(bytes) => match check_whole(&path, &bytes, self.files_crc) {
                        Ok(()) => String::from_utf8(bytes).map_err(|_| "is not UTF-8".to_string()),
                        Err(_) => Err("does not match its checksum in the manifest".to_string()),
                    },
                    Err(e) => Err(e.to_string()),
                };
                Files::new(text.unwrap_or_else(|problem| {
                    self.log.note(&path, problem);
                    String::new()
                }))
            })
            .get(i)
    }

    /// The damaged files of the segment found while reading it, with what is wrong: an answer
    /// read from them is not to be given ([`crate::Index::check_intact`]).
    pub fn damaged(&self) -> Vec<(PathBuf, String)> {
        self.log.list()
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

    /// The segment's variation lines as (line id, variation), in id order; an error when the
    /// file is not such a list.
    pub fn variations(
        &self,
    ) -> Result<Vec<(u32, crate::encode::variations::Variation)>, IndexError> {
        crate::encode::variations::decode(&self.variations, self.first_game).ok_or_else(|| {
            IndexError::Corrupt(format!(
                "{} is not a list of variation lines",
                self.dir.join(file::VARIATIONS).display()
            ))
        })
    }

    /// Ids of the segment's games flagged [`FLAG_LONG`], in order.
    pub fn long_games(&self) -> impl Iterator<Item = u32> + '_ {
        self.long
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    }

    /// Bytes of each part of the segment (for statistics).
    pub fn part_sizes(&self) -> [(&'static str, u64); 15] {
        [
            ("games", self.games.len() as u64),
            ("moves", self.ops.len() as u64),
            ("occupancy", self.occ.len() as u64),
            (
                "positions",
                (self.keys.len() + self.starts.len() + self.positions.len()) as u64,
            ),
            (
                "corners",
                (self.corner_keys.len() + self.corner_starts.len() + self.corners.len()) as u64,
            ),
            (
                "aggregates",
                (self.aggregate_keys.len() + self.aggregate_starts.len() + self.aggregates.len())
                    as u64,
            ),
            ("records", self.records.len() as u64),
            ("records index", self.records_idx.len() as u64),
            ("signatures", self.sigs.len() as u64),
            ("vacated points", self.vacated.len() as u64),
            ("years and winners", self.years.len() as u64),
            ("facts", self.facts.len() as u64),
            ("variations", self.variations.len() as u64),
            (
                "evaluations",
                self.evals.as_ref().map_or(0, |e| e.evals_len()) as u64,
            ),
            (
                "mistakes",
                self.evals.as_ref().map_or(0, |e| e.mistakes_len()) as u64,
            ),
        ]
    }
}

/// The `i`-th `u64` of a table of keys (0 past its end, which only a damaged table reaches).
#[inline]
fn u64_at(table: &Checked, i: usize) -> u64 {
    table
        .get(i * 8..i * 8 + 8)
        .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap()))
}

/// The most cache lines of a program [`Segment::prefetch_program`] asks for.
const PREFETCH_LINES: usize = 2;

/// Asks the processor to fetch the cache line holding `byte` (a hint, x86-64 only).
#[inline]
fn prefetch(byte: Option<&u8>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(b) = byte {
        // SAFETY: a prefetch reads nothing and cannot fault; the address is in the map.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                (b as *const u8).cast(),
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = byte;
}

/// The first of `entries` (a hash's, by game) from index `lo` on whose game (within the
/// segment) is `game` or later, by binary search: entries.len() / ENTRY_SIZE when none is. A
/// damaged table out of order gives some place in it, never one past its end.
fn first_entry_of(entries: &[u8], mut lo: usize, game: u32) -> usize {
    let mut hi = entries.len() / ENTRY_SIZE;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if decode_entry(&entries[mid * ENTRY_SIZE..]).0 < game {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_bound_agrees_with_a_plain_search_on_any_spread() {
        let mut next = testdata::xorshift(0x9e37_79b9_7f4a_7c15);
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

    /// A segment file is mapped with huge pages asked for, so that what is read back from disk
    /// comes as 2 MiB folios: the kernel shows the request as `hg` among the map's flags.
    #[cfg(target_os = "linux")]
    #[test]
    fn segment_files_are_mapped_with_huge_pages_asked_for() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return; // A kernel without transparent huge pages: nothing to ask.
        }
        let scratch = testdata::Scratch::new("huge-map");
        let path = scratch.write("ops.bin", &vec![7u8; 4 << 20]);
        let Map::Mapped(m) = super::map(&path).unwrap() else {
            panic!("a file of 4 MiB is mapped, not read");
        };
        let start = format!("{:x}-", m.as_ptr() as usize);
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        // Each map's entry ends with its flags: the first after its header line are its own.
        let entry = smaps
            .lines()
            .skip_while(|l| !l.starts_with(&start))
            .find(|l| l.starts_with("VmFlags:"))
            .expect("the map's entry in /proc/self/smaps");
        assert!(entry.split_whitespace().any(|f| f == "hg"), "{entry}");
    }
}
