//! The reader: an [`Index`] opened for searching (its segments mapped, its copies, lines and
//! hidden games known as bitmaps, its sources read at the first question), and `verify`,
//! which checks every file against its checksum.

mod bits;
mod sources;
pub(crate) mod verify;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::encode::pack::Ops;
use crate::encode::{aggregate, variations};
use crate::store::{self, manifest, CornerEvent, GameRec, Occupancy, PosEntry, Vacated};
use crate::{Facts, IndexError, Manifest, Occurrence};
use bits::GameBits;
use sources::Sources;
use verify::Damage;

/// An index opened for searching.
pub struct Index {
    manifest: Manifest,
    pub(crate) segments: Vec<store::Segment>,
    meta: meta::MetaIndex,
    /// Exact copies by original; most games have none, which `has_copies` says in one bit.
    copies: ahash::AHashMap<u32, Vec<u32>>,
    /// The keys of `copies`, ascending.
    copied: Vec<u32>,
    has_copies: GameBits,
    /// The exact copies of an earlier game.
    is_copy: GameBits,
    long: Vec<u32>,
    /// The games hidden, their input changed or deleted (see [`Manifest::removed`]).
    removed: GameBits,
    any_removed: bool,
    /// Per segment: whether it holds a hidden game (then its pre-aggregated cells, which
    /// count every game of it, are not read; see [`Index::aggregates`]).
    hides_games: Vec<bool>,
    /// The manifest's inputs, read at the first question that needs them.
    sources: Sources,
    /// The variation lines (see [`variations`]), by id; empty for an index without them.
    lines: Vec<(u32, variations::Variation)>,
    /// The ids that are variation lines.
    is_line: GameBits,
    /// Each game's year and month ([`Index::months`]), read at the first question that needs
    /// them.
    months: std::sync::OnceLock<Vec<u16>>,
}

/// How many games ahead [`Index::each_facts`] and [`Index::each_year_and_winner`] ask for what
/// they will read.
const PREFETCH_AHEAD: usize = 16;

impl Index {
    /// Whether every mapped file read since the index was opened is still whole. A file truncated
    /// by another program under a running search reads as zeros (instead of killing the process:
    /// see [`inputs::mapped`]), so an answer is only to be given once this says `Ok`; the error names the
    /// files.
    ///
    /// A file read since that does not match its checksums (see `store::check`) is refused
    /// too, naming it.
    pub fn check_intact(&self) -> Result<(), IndexError> {
        let files = inputs::mapped::damaged();
        if !files.is_empty() {
            return Err(IndexError::Changed { files });
        }
        let mut damaged: Vec<(PathBuf, String)> =
            self.segments.iter().flat_map(|s| s.damaged()).collect();
        damaged.extend(self.sources.damage());
        if damaged.is_empty() {
            Ok(())
        } else {
            Err(IndexError::Damaged { files: damaged })
        }
    }

    /// Opens the index in `dir` for searching. Nothing in `dir` is created, changed or locked, so
    /// an index can be searched by users who cannot write to it, and while a writer works on it
    /// (a search sees the last committed state). Each segment file's length is compared with the
    /// manifest's first: a file cut short is refused, naming it, rather than answering for part
    /// of the games.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        let (manifest, manifest_bytes) = Manifest::load_without_sources(dir)?
            .ok_or_else(|| IndexError::Missing(dir.to_path_buf()))?;
        let segments = manifest
            .segments
            .iter()
            .map(|s| store::Segment::open(&dir.join(&s.dir), s))
            .collect::<Result<Vec<_>, _>>()?;
        let meta = meta::MetaIndex::open(&dir.join(manifest.meta_dir()))?;
        let mut copies: ahash::AHashMap<u32, Vec<u32>> = ahash::AHashMap::new();
        let mut long = Vec::new();
        let mut lines = Vec::new();
        // Ids past the manifest's games can only come from a damaged file: ignored.
        let games = manifest.games;
        for seg in &segments {
            for (copy, original) in seg.copies() {
                if copy < games && original < copy {
                    copies.entry(original).or_default().push(copy);
                }
            }
            long.extend(seg.long_games().filter(|&g| g < games));
            // A line names a game before it, in the index: anything else is damage.
            for (id, v) in seg.variations()? {
                if id >= games || v.game >= id {
                    return Err(IndexError::Corrupt(format!(
                        "variation line {id} of game {} is not in the index",
                        v.game
                    )));
                }
                lines.push((id, v));
            }
        }
        let has_copies = GameBits::of(games, copies.keys().copied());
        let mut copied: Vec<u32> = copies.keys().copied().collect();
        copied.sort_unstable();
        let is_copy = GameBits::of(games, copies.values().flatten().copied());
        let removed = GameBits::from_words(manifest.removed_bitmap());
        let any_removed = removed.any();
        let hides_games = segments
            .iter()
            .map(|s| any_removed && (s.first_game..s.first_game + s.len()).any(|g| removed.has(g)))
            .collect();
        let is_line = match lines.is_empty() {
            true => GameBits::default(),
            false => GameBits::of(games, lines.iter().map(|(id, _)| *id)),
        };
        Ok(Index {
            lines,
            is_line,
            removed,
            any_removed,
            hides_games,
            manifest,
            segments,
            meta,
            copies,
            copied,
            has_copies,
            is_copy,
            long,
            sources: Sources::new(dir, manifest_bytes),
            months: std::sync::OnceLock::new(),
        })
    }

    /// Checks every file of the index in `dir` against its checksum: the segment files against
    /// the manifest's, the metadata's with tantivy's own footers. Returns the damaged files (none
    /// when the index is sound); an error only when there is no manifest to check against.
    pub fn verify(dir: &Path) -> Result<Vec<Damage>, IndexError> {
        verify::verify(dir)
    }

    /// Whether game `id` is a variation line (see [`variations`]), not a game.
    #[inline]
    pub fn is_line(&self, id: u32) -> bool {
        self.is_line.has(id)
    }

    /// Whether the index holds any variation line.
    pub fn has_lines(&self) -> bool {
        !self.lines.is_empty()
    }

    /// Variation lines in the index (not removed ones only: every id).
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// What the index knows of variation line `id`: its game, branch point and path; `None`
    /// for a game.
    pub fn variation(&self, id: u32) -> Option<&variations::Variation> {
        if !self.is_line(id) {
            return None;
        }
        self.lines
            .binary_search_by_key(&id, |(i, _)| *i)
            .ok()
            .map(|i| &self.lines[i].1)
    }

    /// The game whose information answers for `id`: the game itself, or a line's game.
    #[inline]
    pub fn game_of(&self, id: u32) -> u32 {
        self.variation(id).map_or(id, |v| v.game)
    }

    /// `games` (ascending) with the variation lines of each added after it: what a selection
    /// of games by their information (a metadata query, a list of ids) selects of an index
    /// with lines, since lines have no information of their own. The lines of a game follow
    /// it in id order, so the result is ascending too.
    pub fn with_lines(&self, games: Vec<u32>) -> Vec<u32> {
        if self.lines.is_empty() {
            return games;
        }
        let mut out = Vec::with_capacity(games.len());
        for g in games {
            out.push(g);
            let mut at = self.lines.partition_point(|(id, _)| *id <= g);
            while let Some((id, v)) = self.lines.get(at) {
                if v.game != g {
                    break;
                }
                out.push(*id);
                at += 1;
            }
        }
        out
    }

    /// Each game's year and month as one number, `year * 16 + month` (month 0 when the date
    /// names none; 0 undated; years past 4,095 as 4,095), by id: two bytes a game, read from
    /// the facts once, at the first question that needs them. A sort by date of millions of
    /// hits (mistakes) compares their games' months; read from the facts, each comparison
    /// cost two random reads.
    pub fn months(&self) -> &[u16] {
        self.months.get_or_init(|| {
            let mut out = Vec::with_capacity(self.len() as usize);
            for seg in &self.segments {
                out.extend((0..seg.len()).map(|i| {
                    let f = seg.facts(i);
                    match f.year {
                        0 => 0,
                        y => y.min(4095) * 16 + u16::from(f.month.min(15)),
                    }
                }));
            }
            out
        })
    }

    /// Number of games (copies included).
    pub fn len(&self) -> u32 {
        self.manifest.games
    }

    pub fn is_empty(&self) -> bool {
        self.manifest.games == 0
    }

    /// The manifest, without its inputs: [`Manifest::sources`] is empty here, and
    /// [`Index::sources`] gives them.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The inputs read into the index, by canonical path ([`Manifest::sources`]), read from the
    /// manifest at the first call (opening does not pay for them). A manifest whose inputs do
    /// not read (damage its segments and counts did not show) gives none here: games' source
    /// paths are then unknown, as for games read from a stream; `qipu verify` and the next
    /// `qipu index`, which read the whole manifest, refuse it, naming the file.
    pub fn sources(&self) -> &BTreeMap<String, manifest::SourceInfo> {
        self.sources.map()
    }

    pub fn meta(&self) -> &meta::MetaIndex {
        &self.meta
    }

    /// Games matching a metadata query, sorted. Only games the manifest holds are returned: a run
    /// killed between its metadata commit and its manifest leaves documents for games that are not
    /// in the index yet (the next run removes them), and a reader must not see them.
    /// Removed games are not returned either.
    pub fn search_meta(&self, query: &str) -> Result<Vec<u32>, IndexError> {
        let mut ids = self.meta.search(query)?;
        ids.truncate(ids.partition_point(|&g| g < self.len()));
        if self.any_removed {
            ids.retain(|&g| !self.is_removed(g));
        }
        Ok(ids)
    }

    /// Whether game `id` is hidden: its input changed or was deleted after it was read. Every
    /// answer leaves such games out; their stored moves still serve their exact copies.
    pub fn is_removed(&self, id: u32) -> bool {
        self.any_removed && self.removed.has(id)
    }

    /// Whether any game is hidden (see [`Index::is_removed`]).
    pub fn has_removed(&self) -> bool {
        self.any_removed
    }

    /// The `n` most frequent values of `field` among the games shown (see [`meta::MetaIndex::top`]).
    pub fn top(&self, field: &str, n: usize) -> Result<Vec<(String, u64)>, IndexError> {
        let hidden = |g: u32| self.is_removed(g);
        Ok(self.meta.top_hiding(field, n, self.len(), &hidden)?)
    }

    /// The `n` most frequent players among the games shown, each counted once under all its
    /// names (see [`meta::MetaIndex::top_players_hiding`]).
    pub fn top_players(&self, n: usize) -> Result<Vec<meta::TopPlayer>, IndexError> {
        let hidden = |g: u32| self.is_removed(g);
        Ok(self.meta.top_players_hiding(n, self.len(), &hidden)?)
    }

    /// How many games shown each spelling of a player's name holds (see
    /// [`meta::MetaIndex::player_counts_hiding`]).
    pub fn player_counts(&self) -> Result<std::collections::HashMap<String, u64>, IndexError> {
        let hidden = |g: u32| self.is_removed(g);
        Ok(self.meta.player_counts_hiding(self.len(), &hidden)?)
    }

    /// The date range of the games shown (see [`meta::MetaIndex::date_range`]).
    pub fn date_range(&self) -> Result<Option<(sgf::info::Date, sgf::info::Date)>, IndexError> {
        let hidden = |g: u32| self.is_removed(g);
        Ok(self.meta.date_range_hiding(self.len(), &hidden)?)
    }

    /// Where the record file named `file` in a hit is on disk: the file itself, or for an
    /// archive member (`archive/member`) the archive. When several inputs share a name (two
    /// directories indexed one after the other, each naming files relative to itself), the
    /// first one known is given; [`Index::source_of`] tells a game's own.
    pub fn source_path(&self, file: &str) -> Option<PathBuf> {
        self.sources()
            .iter()
            .find(|(_, info)| {
                file == info.name
                    || file
                        .strip_prefix(info.name.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .and_then(|(key, _)| inputs::path_of_key(key))
    }

    /// The input file on disk that game `id` was read from (`None` for a stream, which is not
    /// recorded).
    pub fn source_of(&self, id: u32) -> Option<PathBuf> {
        self.source_key_and_name(id)
            .and_then(|(key, _)| inputs::path_of_key(key))
    }

    /// The key and name ([`manifest::SourceInfo::name`]) of the source game `id` was read from,
    /// as [`Index::source_entry`] gives them: from the stored table beside the manifest when it
    /// is this manifest's, without parsing the manifest's inputs.
    pub fn source_key_and_name(&self, id: u32) -> Option<(&str, &str)> {
        self.sources.key_and_name(id)
    }

    /// The manifest's key and entry of the source game `id` was read from (`None` for a game of
    /// a stream): the first source, in key order, whose game ranges hold `id`, found by a binary
    /// search in a table made at the first call.
    pub fn source_entry(&self, id: u32) -> Option<(&str, &manifest::SourceInfo)> {
        self.sources.entry(id)
    }

    fn locate(&self, id: u32) -> (&store::Segment, u32) {
        let i = self
            .segments
            .partition_point(|s| s.first_game <= id)
            .saturating_sub(1);
        let seg = &self.segments[i];
        (seg, id - seg.first_game)
    }

    /// The fixed record of game `id`.
    pub fn game(&self, id: u32) -> GameRec {
        let (seg, i) = self.locate(id);
        seg.game(i)
    }

    /// The board (columns, rows) of game `id`, as its record says; for most segments without
    /// reading it (see [`manifest::SegmentInfo::board`]).
    #[inline]
    pub fn board(&self, id: u32) -> (u8, u8) {
        let (seg, i) = self.locate(id);
        seg.board(i)
    }

    /// Who won game `id`, as [`GameRec::winner`] says, without reading the rest of the record.
    pub fn winner(&self, id: u32) -> u8 {
        let (seg, i) = self.locate(id);
        seg.winner(i)
    }

    /// The facts of game `id` (its own, a copy's too: see [`Facts`]), from `facts.bin`.
    #[inline]
    pub fn facts(&self, id: u32) -> Facts {
        let (seg, i) = self.locate(id);
        seg.facts(i)
    }

    /// Calls `f` with each item of `items` and the facts ([`Index::facts`]) of its game,
    /// `game(item)`, in ascending order: segment by segment, what a profile of millions of hits
    /// reads at the cost of a slice index per game, not a search of the segments.
    pub fn each_facts<T>(&self, items: &[T], game: impl Fn(&T) -> u32, f: impl FnMut(&T, Facts)) {
        self.each_of(
            items,
            game,
            store::Segment::prefetch_facts,
            store::Segment::facts,
            f,
        )
    }

    /// [`Index::each_facts`] for each game's year (0 undated) and winner byte
    /// ([`Index::winner`]) alone: two bytes a game where the facts are eight, what a date
    /// profile by year needs.
    pub fn each_year_and_winner<T>(
        &self,
        items: &[T],
        game: impl Fn(&T) -> u32,
        f: impl FnMut(&T, (u16, u8)),
    ) {
        self.each_of(
            items,
            game,
            store::Segment::prefetch_year,
            store::Segment::year_and_winner,
            f,
        )
    }

    /// Calls `f` with each item of `items` (ascending by `game(item)`) and what `read` reads of
    /// its game in its segment, asking `prefetch` for the game [`PREFETCH_AHEAD`] items on.
    fn each_of<T, V>(
        &self,
        items: &[T],
        game: impl Fn(&T) -> u32,
        prefetch: impl Fn(&store::Segment, u32),
        read: impl Fn(&store::Segment, u32) -> V,
        mut f: impl FnMut(&T, V),
    ) {
        let mut rest = items;
        while let Some(first) = rest.first() {
            let (seg, _) = self.locate(game(first));
            let end = seg.first_game.saturating_add(seg.len());
            let n = rest.partition_point(|h| game(h) < end).max(1);
            let ahead = &rest[..n];
            for (k, h) in ahead.iter().enumerate() {
                if let Some(later) = ahead.get(k + PREFETCH_AHEAD) {
                    prefetch(seg, game(later).wrapping_sub(seg.first_game));
                }
                let g = game(h);
                // Out of order (not as asked), a game is found the slow way.
                let value = match g.checked_sub(seg.first_game) {
                    Some(i) if g < end => read(seg, i),
                    _ => {
                        let (other, i) = self.locate(g);
                        read(other, i)
                    }
                };
                f(h, value);
            }
            rest = &rest[n..];
        }
    }

    /// The points of game `id` whose stone ever left ([`Vacated`]; every point for a copy, whose
    /// moves are its original's, and for a game of a board other than 19×19).
    pub fn vacated(&self, id: u32) -> Vacated {
        let (seg, i) = self.locate(id);
        seg.vacated(i)
    }

    /// Asks the processor to fetch the start of game `id`'s program and vacated points (a hint,
    /// for a scan that reads them a few games later; see [`store::Segment::prefetch_program`]).
    #[inline]
    pub fn prefetch_program(&self, id: u32) {
        let (seg, i) = self.locate(id);
        seg.prefetch_program(i)
    }

    /// Asks the processor to fetch game `id`'s record, ahead of [`Index::prefetch_program`]
    /// (a hint; see [`store::Segment::prefetch_record`]).
    #[inline]
    pub fn prefetch_record(&self, id: u32) {
        let (seg, i) = self.locate(id);
        seg.prefetch_record(i)
    }

    /// Whether game `id` (of a 19×19 board) ever had a stone of `color` at `p`; `None` when a
    /// damaged file cannot tell.
    pub fn had(&self, id: u32, color: goban::Color, p: goban::Point) -> Option<bool> {
        let (seg, i) = self.locate(id);
        seg.had(i, color, p)
    }

    /// The replay program of game `id` (a copy's is its original's).
    pub fn ops(&self, id: u32) -> Vec<u16> {
        let mut out = Vec::new();
        self.ops_into(id, &mut out);
        out
    }

    /// [`Index::ops`] into a buffer the caller reuses.
    pub fn ops_into(&self, id: u32, out: &mut Vec<u16>) {
        let rec = self.game(id);
        let owner = if rec.is_copy() { rec.duplicate_of } else { id };
        let (seg, i) = self.locate(owner);
        seg.ops_into(&seg.game(i), out)
    }

    /// Game `id`'s replay program (a copy's is its original's) read op by op, with its
    /// original's record (whose flags say whether the program has marks): a scan that usually
    /// ends early unpacks no more than it reads, into no buffer.
    pub fn op_stream(&self, id: u32) -> (GameRec, Ops<'_>) {
        let rec = self.game(id);
        let owner = if rec.is_copy() { rec.duplicate_of } else { id };
        let (seg, i) = self.locate(owner);
        let rec = seg.game(i);
        (rec, seg.op_stream(&rec))
    }

    /// Games whose occupancy covers at least one of `needs`, copies included, ascending: those
    /// that ever had every stone of one of them. Only 19×19 games have occupancy, so a need with
    /// stones selects 19×19 games only; an empty need selects every game of every size.
    pub fn covering(&self, needs: &[Occupancy]) -> Vec<u32> {
        use rayon::prelude::*;
        // Each segment's columns are ANDed on a core of its own: at millions of games this is
        // most of a rare position's answer, one pass over every game's occupancy.
        let per_segment: Vec<Vec<u32>> = self
            .segments
            .par_iter()
            .map(|seg| {
                let mut out = Vec::new();
                for (w, &word) in seg.covering(needs).iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        out.push(seg.first_game + (w * 64) as u32 + word.trailing_zeros());
                        word &= word - 1;
                    }
                }
                out
            })
            .collect();
        per_segment.concat()
    }

    /// Of the games `among` (ascending), those whose occupancy covers at least one of `needs`,
    /// looked up game by game, rarest column first: for a few candidates, a few
    /// words each instead of [`Index::covering`]'s pass over every game's bits.
    pub fn covering_among(&self, among: &[u32], needs: &[Occupancy]) -> Vec<u32> {
        let mut out = Vec::with_capacity(among.len());
        let mut rest = among;
        let mut local = Vec::new();
        while let Some(&first) = rest.first() {
            let (seg, _) = self.locate(first);
            let end = seg.first_game.saturating_add(seg.len());
            let n = rest.partition_point(|&g| g < end).max(1);
            local.clear();
            local.extend(rest[..n].iter().map(|&g| g - seg.first_game));
            out.extend(
                seg.covering_among(&local, needs)
                    .into_iter()
                    .map(|i| seg.first_game + i),
            );
            rest = &rest[n..];
        }
        out
    }

    /// [`Index::covering`] with, for each game, which of `needs` (up to 64: bit i = need i) it
    /// covers.
    pub fn covering_each(&self, needs: &[Occupancy]) -> Vec<(u32, u64)> {
        use rayon::prelude::*;
        let per_segment: Vec<Vec<(u32, u64)>> = self
            .segments
            .par_iter()
            .map(|seg| {
                seg.covering_each(needs)
                    .into_iter()
                    .map(|(i, mask)| (seg.first_game + i, mask))
                    .collect()
            })
            .collect();
        per_segment.concat()
    }

    /// The record file game `id` comes from, and its index in that file.
    pub fn identity(&self, id: u32) -> (&str, u32) {
        let (seg, i) = self.locate(id);
        let rec = seg.game(i);
        (seg.file(rec.file as usize), rec.game_in_file)
    }

    /// The original record text of game `id` (of a variation line, its game's).
    pub fn record(&self, id: u32) -> Result<Vec<u8>, IndexError> {
        let (seg, i) = self.locate(self.game_of(id));
        seg.record(i)
    }

    /// Game `id`'s exact signature: a hash of its setup and main-line moves, equal for two
    /// games exactly when one is an exact copy of the other (up to a 64-bit collision), in
    /// this index or in another.
    pub fn exact_signature(&self, id: u32) -> u64 {
        let (seg, i) = self.locate(id);
        seg.signatures(i).0
    }

    /// Whether game `id` is an exact copy of an earlier game (and is answered through it).
    pub fn is_copy(&self, id: u32) -> bool {
        self.is_copy.has(id)
    }

    /// Exact copies of game `id` (games whose main line is identical), in id order.
    pub fn copies(&self, id: u32) -> &[u32] {
        if !self.has_copies.has(id) {
            return &[];
        }
        self.copies.get(&id).map_or(&[], Vec::as_slice)
    }

    /// Stored games too long for the position table to hold all their positions.
    pub fn long_games(&self) -> &[u32] {
        &self.long
    }

    /// Position-table entries with `hash`, over all segments.
    pub fn positions(&self, hash: u64) -> impl Iterator<Item = Occurrence> + '_ {
        self.segments.iter().flat_map(move |s| s.positions(hash))
    }

    /// The whole position table, segment after segment (each by hash, then game): what an
    /// export streams out.
    pub fn all_positions(&self) -> impl Iterator<Item = PosEntry> + '_ {
        self.segments.iter().flat_map(|s| s.all_positions())
    }

    /// The whole position table in hash order (then game order), merged from the segments'
    /// sorted runs as it is read: one entry per segment is held, whatever the table's size.
    /// What an export that aggregates per position streams out.
    pub fn positions_by_hash(&self) -> impl Iterator<Item = PosEntry> + '_ {
        let mut runs: Vec<_> = self.segments.iter().map(|s| s.all_positions()).collect();
        let mut heads = std::collections::BinaryHeap::new();
        for (i, run) in runs.iter_mut().enumerate() {
            if let Some(e) = run.next() {
                heads.push(std::cmp::Reverse((e.hash, i, e)));
            }
        }
        // Ties on a hash go to the earlier segment, whose games come first: within a hash the
        // entries stay in game order.
        std::iter::from_fn(move || {
            let std::cmp::Reverse((_, i, e)) = heads.pop()?;
            if let Some(next) = runs[i].next() {
                heads.push(std::cmp::Reverse((next.hash, i, next)));
            }
            Some(e)
        })
    }

    /// (key, event) of every time a corner came to hold the content of one of `keys`
    /// ([`goban::corner`]), in (game, k) order; originals only (a copy's corners are its
    /// original's), and only games on boards with corners ([`goban::corner::has_corners`]).
    pub fn corner_events(&self, keys: &[u64]) -> Vec<(u64, CornerEvent)> {
        let mut out = Vec::new();
        for seg in &self.segments {
            let from = out.len();
            for &key in keys {
                out.extend(seg.corner_events(key).map(|e| (key, e)));
            }
            // Segments are in id order: sorting each one's part sorts the whole.
            out[from..].sort_unstable_by_key(|&(key, e)| (e, key));
        }
        out
    }

    /// The games whose corner ever came to hold the content with `key`, ascending, each once:
    /// [`Index::corner_events`]' games without their events, for a search that intersects the
    /// games of several keys. Games of every board (a key names a content, whatever the board).
    pub fn corner_games(&self, key: u64) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.corner_events_size(key) / 4);
        for seg in &self.segments {
            out.extend(seg.corner_games(key));
        }
        out
    }

    /// The bytes of the corner events with `key` over all segments ([`Index::corner_events`]):
    /// about four an event, what reading them costs.
    pub fn corner_events_size(&self, key: u64) -> usize {
        self.segments
            .iter()
            .map(|s| s.corner_events_size(key))
            .sum()
    }

    /// The pre-aggregated continuations of `hash` in each segment that has them and none of
    /// whose games is hidden ([`Index::is_removed`]: cells cannot leave a game out), with the
    /// segment's game ids. A segment not named answers from its entries.
    pub fn aggregates(&self, hash: u64) -> Vec<(std::ops::Range<u32>, aggregate::Cells)> {
        self.segments
            .iter()
            .zip(&self.hides_games)
            .filter(|(_, &hides)| !hides)
            .filter_map(|(s, _)| {
                s.aggregates(hash)
                    .map(|c| (s.first_game..s.first_game + s.len(), c))
            })
            .collect()
    }

    /// Position-table entries with `hash` of the games `games`, by game: the segments holding
    /// them are read, each by binary search.
    pub fn positions_of(
        &self,
        hash: u64,
        games: std::ops::Range<u32>,
    ) -> impl Iterator<Item = Occurrence> + '_ {
        self.segments
            .iter()
            .filter(move |s| s.first_game < games.end && games.start < s.first_game + s.len())
            .flat_map(move |s| s.positions_of(hash, games.clone()))
    }

    /// Position-table entries with `hash` of each of `games` (ascending), by game: the hash
    /// looked up once per segment holding some of them, each game by binary search.
    pub fn positions_of_games(&self, hash: u64, games: &[u32]) -> Vec<Occurrence> {
        let mut out = Vec::new();
        for s in &self.segments {
            let from = games.partition_point(|&g| g < s.first_game);
            let to = games.partition_point(|&g| g < s.first_game + s.len());
            if from < to {
                s.positions_of_games(hash, &games[from..to], &mut out);
            }
        }
        out
    }

    /// The games that have exact copies, ascending (each one's copies: [`Index::copies`]).
    pub fn copied(&self) -> &[u32] {
        &self.copied
    }

    /// How many position-table entries have `hash`.
    pub fn count_positions(&self, hash: u64) -> usize {
        self.segments.iter().map(|s| s.count_positions(hash)).sum()
    }

    /// Bytes of each part of the store, summed over segments.
    pub fn part_sizes(&self) -> Vec<(&'static str, u64)> {
        let mut out: Vec<(&'static str, u64)> = Vec::new();
        for seg in &self.segments {
            for (name, n) in seg.part_sizes() {
                match out.iter_mut().find(|(k, _)| *k == name) {
                    Some(e) => e.1 += n,
                    None => out.push((name, n)),
                }
            }
        }
        out
    }
}
