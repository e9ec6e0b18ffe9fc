//! Game information in tantivy: one document per game, searched with tantivy's query language
//! over friendly field names.
//!
//! A crate of its own because it is one job with its own dependency (tantivy) and its own build
//! script (the Han folding table), and it is usable alone: it knows nothing of positions,
//! segments or manifests. It owns one folder, an index's `meta/`: the schema, the name
//! tokenizer, the value dictionary, the player aliases recorded there, the query language, and
//! the checks of what a reader opens (footer checksums, block sums of a large document store).
//! It does not assign game ids, decide which games are shown (a caller passes the hidden ones
//! in) or know where its folder sits: `qipu-index` does. Its face is small: [`MetaWriter`] to
//! write, [`MetaIndex`] to search and read a game's information back, [`Aliases`], and
//! [`MetaError`].
//!
//! Metadata queries (`black:"Lee Sedol" AND date:[2005 TO 2010] AND winner:B`) filter games
//! before or beside position searches, so they must return *every* matching game, quickly, as
//! game ids. Each document therefore carries its game id in a `game` fast field, and searches
//! run a collector that reads that column for every hit: no scoring, no top-N.
//!
//! - **Schema** (`schema.rs`): names, teams, event, round, place, rules, source, annotator
//!   and raw result as one exact term each, their words in the value dictionary; game name and
//!   comment as text; keyword fields for winner, how and file; numbers (indexed and fast, so
//!   ranges work) for komi, margin, handicap, size, moves, rank orders, the date's first and last
//!   day; a `duplicate` flag.
//! - **Value dictionary** (`values.rs`): one document per distinct value of the repeating
//!   fields, tokenized; a query on such a field finds the matching values there, then the games
//!   holding them.
//! - **Text** (`tokenizer.rs`): CJK n-grams and folded Latin words, so 李世石 finds
//!   李世石九段 and `"Lee Sedol"` finds `Lee Sedol 9p`; Han characters folded to simplified
//!   forms, so 一力遼 finds 一力辽.
//! - **Aliases** (`aliases.rs`): a player's names in several scripts, recorded with the
//!   index; a query on one of them asks for all (`player:이세돌` finds 李世石 and `Lee Sedol`).
//! - **Queries** (`query.rs`): tantivy's syntax (`AND`, `OR`, `NOT`, `-`, quotes,
//!   parentheses, `[a TO b]`, `>=n`) over the names in [`field_names`]; words with no field
//!   search black, white, event, name, place and comment, and words are ANDed by default.
//!   `player` means black or white. Dates, ranks, winners are rewritten into what the index
//!   holds; a game matches a date query when its own date range overlaps the query's
//!   (`date:2005`, `date:[2005-03 TO 2005-06-30]`). Errors are one line and say where.
//! - **Writing**: one [`MetaWriter`] per build. Merging is off while documents come in (an
//!   explicit merge racing tantivy's background merges fails and wastes the work, as measured
//!   for this project), and [`MetaWriter::finish`] only merges small neighbours past
//!   [`MAX_SEGMENTS`] segments: a full merge cost a tenth of a build, and searches do not need
//!   it. Each
//!   [`MetaWriter::commit`] is a durable point: after a crash the index opens at the last one,
//!   and its payload (see [`MetaWriter::commit_with_payload`]) tells the caller where that was.
//!
//! The index is append-only by design (game ids are assigned by the caller, dense from 0);
//! [`MetaWriter::truncate`] exists only to roll back games past a crash point.

mod aliases;
mod blocksums;
mod directory;
mod footer;
mod limits;
mod query;
mod ranges;
mod schema;
mod stored;
mod tokenizer;
mod values;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sgf::info::Date;
use sgf::GameInfo;
use tantivy::collector::{Collector, Count, SegmentCollector};
use tantivy::columnar::ColumnValues;
use tantivy::directory::MmapDirectory;

use directory::QipuDirectory;
use tantivy::merge_policy::NoMergePolicy;
use tantivy::query::{Query, QueryParser, RangeQuery};
use tantivy::query_grammar::{UserInputAst, UserInputLeaf};
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::{
    DocId, Index, IndexReader, IndexWriter, ReloadPolicy, Score, Searcher, SegmentOrdinal,
    SegmentReader, TantivyDocument, Term,
};

pub use aliases::{
    record_for_build as record_aliases, AliasError, AliasUpdate, Aliases, FILE as ALIASES_FILE,
};
pub use query::field_names;
use tokenizer::{name_key, TOKENIZER};

use schema::Fields;
use values::{Values, ValuesWriter};

/// The value dictionary's directory inside the metadata index's.
const VALUES_DIR: &str = "values";

/// What can go wrong with the metadata index.
#[derive(Debug, thiserror::Error)]
pub enum MetaError {
    /// A query that makes no sense. `at` says where: a field, a value, a position.
    #[error("bad query{}: {message}", at.as_ref().map(|a| format!(" at {a}")).unwrap_or_default())]
    Query { at: Option<String>, message: String },
    /// The directory holds no metadata index, or one that cannot be used.
    #[error("metadata index {}: {message}", path.display())]
    Index { path: PathBuf, message: String },
    #[error("metadata index: {}", one_line(.0))]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("metadata index {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The alias list given, or the copy recorded with the index, cannot be used.
    #[error("aliases: {0}")]
    Aliases(#[from] AliasError),
    /// Files of the index whose checksums fail, found after a read of them failed or before
    /// one was answered from (see [`guarded`]); `message` is what failed.
    #[error("damaged index file{} {} ({}); rebuild the index (`qipu index --rebuild`)",
        if files.len() == 1 { "" } else { "s" },
        files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "),
        message.split_whitespace().collect::<Vec<_>>().join(" "))]
    Damaged {
        files: Vec<PathBuf>,
        message: String,
    },
}

/// tantivy's message on one line (some hold line breaks, and a damaged file's bytes).
fn one_line(e: &tantivy::TantivyError) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

impl From<tantivy::query::QueryParserError> for MetaError {
    fn from(e: tantivy::query::QueryParserError) -> Self {
        use tantivy::query::QueryParserError as E;
        let message = match e {
            E::FieldDoesNotExist(f) => format!("unknown field {f:?}"),
            E::AllButQueryForbidden => "a query cannot only exclude".to_string(),
            E::ExpectedFloat(e) => format!("expected a number: {e}"),
            other => other.to_string(),
        };
        MetaError::Query {
            at: None,
            message: query::one_line(message),
        }
    }
}

/// The tantivy directory in `dir`, opened as it is (nothing is created); `read_only` for
/// searches (see [`directory::QipuDirectory`]). tantivy's own messages repeat the path and show
/// an OS error as a Debug dump (`IoError 'Os { code: 13, … }'`), so each case is said here, the
/// path once (by [`MetaError::Index`]), the OS error as its text.
fn mmap(dir: &Path, read_only: bool) -> Result<QipuDirectory, MetaError> {
    use tantivy::directory::error::OpenDirectoryError as E;
    let inner = MmapDirectory::open(dir).map_err(|e| {
        let message = match e {
            E::DoesNotExist(_) => "no such directory".to_string(),
            E::NotADirectory(_) => "not a directory".to_string(),
            E::FailedToCreateTempDir(io) => format!("cannot create a temporary directory: {io}"),
            E::IoError { io_error, .. } => io_error.to_string(),
        };
        MetaError::Index {
            path: dir.to_path_buf(),
            message,
        }
    })?;
    Ok(QipuDirectory::new(inner, dir, read_only))
}

/// The tantivy directory in `dir`, created if missing, for writing.
fn directory(dir: &Path) -> Result<QipuDirectory, MetaError> {
    std::fs::create_dir_all(dir).map_err(|source| MetaError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    mmap(dir, false)
}

/// Whether `dir` holds a tantivy index (`false` also when it cannot be opened).
fn exists(dir: &Path) -> bool {
    mmap(dir, true).is_ok_and(|d| Index::exists(&d).unwrap_or(false))
}

/// Runs `f`, which calls into tantivy over files that may be damaged: tantivy trusts its files
/// and some damage makes it panic (an index out of bounds while decoding), which would otherwise
/// kill the whole search. The panic becomes an error, and its message is kept from standard
/// error ([`quiet`]): it is said once, in the error. A panic, or an error that damage may explain,
/// is then followed by the checksums of the folder's files ([`named_damage`]), so that the error
/// names the damaged file rather than only the folder.
pub(crate) fn guarded<T>(
    dir: &Path,
    f: impl FnOnce() -> Result<T, MetaError>,
) -> Result<T, MetaError> {
    let out = quiet(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    match out {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(named_damage(dir, e)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "tantivy failed".to_string());
            Err(named_damage(
                dir,
                MetaError::Index {
                    path: dir.to_path_buf(),
                    message: format!("damaged files ({what}); `qipu verify` names them"),
                },
            ))
        }
    }
}

thread_local! {
    /// How many [`quiet`] calls this thread is inside.
    static QUIET: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs `f` with the panic hook silenced on this thread: a panic inside it is caught by the
/// caller and reported as an error, so the hook (which prints by default) must not say it too —
/// a library never prints. The hook is wrapped once per process, and the wrapper passes every
/// panic outside a `quiet` call to the hook it replaced; work that `f` hands to other threads
/// (rayon) calls `quiet` again there.
pub(crate) fn quiet<T>(f: impl FnOnce() -> T) -> T {
    static WRAPPED: std::sync::Once = std::sync::Once::new();
    WRAPPED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| q.get()) == 0 {
                previous(info);
            }
        }));
    });
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            QUIET.with(|q| q.set(q.get().saturating_sub(1)));
        }
    }
    QUIET.with(|q| q.set(q.get() + 1));
    let _leave = Leave;
    f()
}

/// `e` as an error naming the damaged files when the checksums of the metadata folder `dir`
/// (and its value dictionary) find any, else `e` as it is. Only errors that damage can cause are
/// checked: a mistake in a query is the user's, and an error already naming files is not
/// checked twice. Reading every checksum costs a read of the folder, paid only when something
/// already failed.
fn named_damage(dir: &Path, e: MetaError) -> MetaError {
    match &e {
        MetaError::Query { .. } | MetaError::Damaged { .. } | MetaError::Aliases(_) => return e,
        MetaError::Tantivy(tantivy::TantivyError::SchemaError(_)) => return e,
        _ => {}
    }
    let mut dirs = vec![dir.to_path_buf()];
    if dir.file_name() != Some(std::ffi::OsStr::new(VALUES_DIR)) {
        dirs.push(dir.join(VALUES_DIR));
    }
    let mut files = Vec::new();
    for d in dirs.iter().filter(|d| d.is_dir()) {
        // Opened without `guarded` (whose errors come back here): a folder that cannot even
        // be opened names no file.
        let checked = quiet(|| {
            std::panic::catch_unwind(|| {
                let index = Index::open(mmap(d, true)?)?;
                segment_files_damaged(&index, d)
            })
        });
        if let Ok(Ok(bad)) = checked {
            files.extend(bad);
        }
    }
    if files.is_empty() {
        return e;
    }
    let message = match e {
        MetaError::Index { message, .. } => message,
        other => other.to_string(),
    };
    MetaError::Damaged { files, message }
}

fn open_index_with(dir: &Path, read_only: bool) -> Result<Index, MetaError> {
    let directory = mmap(dir, read_only)?;
    if !Index::exists(&directory).unwrap_or(false) {
        return Err(MetaError::Index {
            path: dir.to_path_buf(),
            message: "no metadata index here".to_string(),
        });
    }
    let index = guarded(dir, || Ok(Index::open(directory)?))?;
    tokenizer::register_index(index.tokenizers());
    Ok(index)
}

/// The index in `dir`, for reading only: nothing in `dir` is created, changed or locked.
fn open_index(dir: &Path) -> Result<Index, MetaError> {
    open_index_with(dir, true)
}

/// The index in `dir`, created with `schema` (and the directory with it) if there is none.
fn open_or_create_index(dir: &Path, schema: tantivy::schema::Schema) -> Result<Index, MetaError> {
    let directory = directory(dir)?;
    if Index::exists(&directory).unwrap_or(false) {
        return open_index_with(dir, false);
    }
    let index = Index::create(directory, schema, Default::default())?;
    tokenizer::register_index(index.tokenizers());
    Ok(index)
}

/// Whether `path` is a sidecar of block sums of a large document store (see `blocksums.rs`),
/// whose damage [`damaged_files`] reports beside that of the tantivy files.
pub fn is_block_sums(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| blocksums::is_sidecar(&n.to_string_lossy()))
}

/// tantivy's own checksums (each file's footer) over the files the index in `dir` uses, and the
/// sidecars of block sums: the damaged files, by path, or an error when the index cannot even
/// be opened.
pub fn damaged_files(dir: &Path) -> Result<Vec<PathBuf>, MetaError> {
    let mut out = Vec::new();
    for d in [dir.to_path_buf(), dir.join(VALUES_DIR)] {
        let index = open_index(&d)?;
        let bad = guarded(&d, || segment_files_damaged(&index, &d))?;
        out.extend(bad);
    }
    Ok(out)
}

/// The files of the index's committed segments whose footer checksum fails, or that cannot be
/// read, and the sidecars of block sums that are damaged, sorted. tantivy's own `validate_checksum` checks only the files its `.managed.json`
/// lists, so with that list lost or emptied it checks nothing; here every file named after a
/// committed segment is checked, and a lost list is itself reported.
fn segment_files_damaged(index: &Index, dir: &Path) -> Result<Vec<PathBuf>, MetaError> {
    let metas = index.load_metas()?;
    let ids: Vec<String> = metas
        .segments
        .iter()
        .map(|s| s.id().uuid_string())
        .collect();
    let mut bad = Vec::new();
    if !dir.join(".managed.json").is_file() {
        bad.push(dir.join(".managed.json"));
    }
    let entries = std::fs::read_dir(dir).map_err(|source| MetaError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut seen = vec![0usize; ids.len()];
    for entry in entries {
        let entry = entry.map_err(|source| MetaError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // A sidecar of block sums has no footer: it is checked below, against its own sum.
        if blocksums::is_sidecar(&name) {
            continue;
        }
        let Some(i) = ids.iter().position(|id| {
            name.strip_prefix(id.as_str())
                .is_some_and(|r| r.starts_with('.'))
        }) else {
            continue;
        };
        seen[i] += 1;
        let path = dir.join(&name);
        let ok = if entry
            .metadata()
            .is_ok_and(|m| blocksums::summed(&path, m.len()))
        {
            // Read whole here: a reader's handle of it depends on its sidecar, checked below.
            std::fs::read(&path).is_ok_and(|b| {
                footer::footer_sound(&path, &tantivy::directory::OwnedBytes::new(b)).is_ok()
            })
        } else {
            index
                .directory()
                .validate_checksum(Path::new(&name))
                .unwrap_or(false)
        };
        if !ok {
            bad.push(dir.join(&name));
        }
    }
    bad.extend(blocksums::damaged(dir).map_err(|source| MetaError::Io {
        path: dir.to_path_buf(),
        source,
    })?);
    // A segment whose files are all gone cannot be checked by its files: the folder is named.
    for (i, n) in seen.iter().enumerate() {
        if *n == 0 {
            bad.push(dir.join(format!("{}.*", ids[i])));
        }
    }
    // A file that is missing (every component but the deletes is written) shows when the
    // segments are opened.
    if let Err(e) = index.reader() {
        let e = MetaError::Tantivy(e);
        if bad.is_empty() {
            return Err(e);
        }
    }
    bad.sort();
    Ok(bad)
}

/// Adds games to the metadata index.
pub struct MetaWriter {
    index: Index,
    writer: IndexWriter<TantivyDocument>,
    fields: Fields,
    values: ValuesWriter,
    /// The folder of the index, where the block sums of its large stores are written.
    dir: PathBuf,
}

impl MetaWriter {
    /// Creates a new, empty index in `dir` (created if missing; an existing index there is an
    /// error). `heap_bytes` bounds the memory tantivy buffers before flushing a segment (128–256
    /// MB suits bulk builds; at least 15 MB per indexing thread).
    pub fn create(dir: &Path, heap_bytes: usize) -> Result<MetaWriter, MetaError> {
        if exists(dir) {
            return Err(MetaError::Index {
                path: dir.to_path_buf(),
                message: "an index already exists here".to_string(),
            });
        }
        MetaWriter::open_or_create(dir, heap_bytes)
    }

    /// Opens the index in `dir` to add more games (incremental indexing).
    pub fn open(dir: &Path, heap_bytes: usize) -> Result<MetaWriter, MetaError> {
        MetaWriter::with_index(open_index_with(dir, false)?, dir, heap_bytes)
    }

    /// Opens the index in `dir`, or creates it if there is none.
    pub fn open_or_create(dir: &Path, heap_bytes: usize) -> Result<MetaWriter, MetaError> {
        let index = open_or_create_index(dir, schema::build())?;
        MetaWriter::with_index(index, dir, heap_bytes)
    }

    fn with_index(index: Index, dir: &Path, heap_bytes: usize) -> Result<MetaWriter, MetaError> {
        let fields = Fields::new(&index.schema())?;
        // One indexing thread: each segment then holds consecutive games in order, so a game's
        // document is found without a map (see `Lookup`). Two threads were not measurably
        // faster (BENCHMARKS.md, Indexing: metadata segments not merged, one indexing thread).
        let writer = index.writer_with_num_threads(1, heap_bytes.max(15_000_000))?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        Ok(MetaWriter {
            index,
            writer,
            fields,
            values: ValuesWriter::open_or_create(&dir.join(VALUES_DIR))?,
            dir: dir.to_path_buf(),
        })
    }

    /// Adds one game: its id (dense from 0, assigned by the caller), its information, the
    /// number of moves in its main line, the game it copies if it is a duplicate, and its file
    /// (the identity the caller reports). Visible to searches after the next commit. Games are
    /// added in id order, one writer and one indexing thread, so that each segment holds a run
    /// of consecutive games (what searches rely on to find a game's document and to read ids,
    /// and check: see [`Lookup`]).
    pub fn add(
        &mut self,
        game: u32,
        info: &GameInfo,
        moves: u32,
        duplicate_of: Option<u32>,
        file: &str,
    ) -> Result<(), MetaError> {
        let values = schema::values(info);
        let doc = self
            .fields
            .document(game, info, &values, moves, duplicate_of, file);
        self.writer.add_document(doc)?;
        for (&(_, kind, _), value) in schema::VALUE_FIELDS.iter().zip(values) {
            if let Some(v) = value {
                self.values.add(kind, v)?;
            }
        }
        Ok(())
    }

    /// Keeps only games with ids below `games`, deleting (and committing the deletion of) any
    /// other: rolls the index back to the point the caller's own store committed, after a
    /// crash between the two commits. Costs one term-range count when there is nothing to do.
    pub fn truncate(&mut self, games: u32) -> Result<(), MetaError> {
        let query = RangeQuery::new(
            std::ops::Bound::Included(Term::from_field_u64(self.fields.game, u64::from(games))),
            std::ops::Bound::Unbounded,
        );
        let reader: IndexReader = self
            .index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        if reader.searcher().search(&query, &Count)? == 0 {
            return Ok(());
        }
        self.writer.delete_query(Box::new(query))?;
        self.writer.commit()?;
        self.sum_blocks()
    }

    /// Makes everything added so far durable and searchable.
    pub fn commit(&mut self) -> Result<(), MetaError> {
        // Values first: a committed game's values must be in the dictionary.
        self.values.commit()?;
        self.writer.commit()?;
        self.sum_blocks()
    }

    /// Writes the block sums of the large document stores just committed, and deletes those of
    /// stores merged away (see [`blocksums`]).
    fn sum_blocks(&self) -> Result<(), MetaError> {
        blocksums::write_missing(&self.index, &self.dir)?;
        blocksums::write_missing(self.values.index(), &self.dir.join(VALUES_DIR))
    }

    /// Like [`MetaWriter::commit`], recording `payload` with the commit (read it back with
    /// [`MetaWriter::payload`] or [`MetaIndex::payload`]), e.g. how many games are in.
    pub fn commit_with_payload(&mut self, payload: &str) -> Result<(), MetaError> {
        self.values.commit()?;
        let mut prepared = self.writer.prepare_commit()?;
        prepared.set_payload(payload);
        prepared.commit()?;
        self.sum_blocks()
    }

    /// The payload of the last commit, if it had one.
    pub fn payload(&self) -> Result<Option<String>, MetaError> {
        Ok(self.index.load_metas()?.payload)
    }

    /// Commits and bounds the number of segments: the end of a build.
    ///
    /// Segments are not merged into one: that merge ran alone on one core at a build's end
    /// (BENCHMARKS.md, Indexing: metadata segments not merged, one indexing thread), and
    /// searches do not need it (a document is found in any
    /// segment that holds its games in order, see `Lookup`). Only past [`MAX_SEGMENTS`] are the
    /// two neighbouring segments (in game order) with the fewest documents merged, again and
    /// again, so each merge stays small and the result keeps game order.
    pub fn finish(mut self) -> Result<(), MetaError> {
        self.commit()?;
        loop {
            let mut segments: Vec<(u64, u32, tantivy::index::SegmentId)> = Vec::new();
            for meta in self.index.searchable_segment_metas()? {
                let segment = self.index.segment(meta.clone());
                let first = first_game(&SegmentReader::open(&segment)?)?.0;
                segments.push((first.unwrap_or(u64::MAX), meta.num_docs(), meta.id()));
            }
            if segments.len() <= MAX_SEGMENTS {
                break;
            }
            segments.sort_unstable_by_key(|s| s.0);
            let smallest = (0..segments.len() - 1)
                .min_by_key(|&i| segments[i].1 + segments[i + 1].1)
                .unwrap_or(0);
            let pair = [segments[smallest].2, segments[smallest + 1].2];
            self.writer.merge(&pair).wait()?;
        }
        self.writer.wait_merging_threads()?;
        // The merges wrote new stores and deleted the old ones (with the index's garbage
        // collection, which does not know the sidecars).
        blocksums::write_missing(&self.index, &self.dir)?;
        blocksums::write_missing(self.values.index(), &self.dir.join(VALUES_DIR))
    }
}

/// Segments a finished build leaves at most (see [`MetaWriter::finish`]).
const MAX_SEGMENTS: usize = 8;

/// What a listing shows about a game, from the stored fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSummary {
    pub game: u32,
    pub black: Option<String>,
    pub white: Option<String>,
    /// Ranks as written.
    pub black_rank: Option<String>,
    pub white_rank: Option<String>,
    /// The date as written.
    pub date: Option<String>,
    /// The date as understood: first and last day.
    pub date_range: Option<(Date, Date)>,
    pub event: Option<String>,
    pub round: Option<String>,
    /// The result as written.
    pub result: Option<String>,
    /// `B`, `W`, `draw`, `void` or `unknown`.
    pub winner: String,
    pub komi: Option<f64>,
    pub handicap: Option<u64>,
    /// Columns and rows.
    pub size: (u64, u64),
    pub moves: u64,
    pub duplicate_of: Option<u32>,
    pub file: Option<String>,
}

/// One of the most frequent players ([`MetaIndex::top_players_hiding`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopPlayer {
    /// The name it is shown under: its alias line's first name, else its most frequent
    /// spelling.
    pub name: String,
    /// Games it played (once per side its names hold).
    pub games: u64,
    /// Its other spellings in the index, most frequent first.
    pub also: Vec<String>,
}

/// A read-only view of the metadata index at its last commit (see [`MetaIndex::reload`]).
pub struct MetaIndex {
    dir: PathBuf,
    index: Index,
    reader: IndexReader,
    parser: QueryParser,
    fields: Fields,
    values: Values,
    /// The alias list recorded with the index (see [`aliases`]).
    aliases: Aliases,
    /// The schema ranges answered from their postings make their weights with (see
    /// [`ranges`]).
    by_postings: tantivy::schema::Schema,
    /// How to find a game's document, for the searcher generation it was made for.
    lookup: std::sync::Mutex<Option<std::sync::Arc<Lookup>>>,
}

/// How to find a game's document in one searcher generation.
///
/// A build adds documents in game order with one indexing thread, so each segment holds a run
/// of consecutive games: document `d` of a segment whose first game is `f` is game `f + d`,
/// which one value of the `game` column confirms. When that check fails (an index damaged, or
/// one whose documents were deleted past a crash point and then added again) a map from game to
/// document is built once from the whole column, which on a large index costs more than the
/// rest of a command-line query.
struct Lookup {
    generation: u64,
    /// Per segment, in order of first game: its first game, ordinal and `game` column.
    runs: Vec<(u64, SegmentOrdinal, tantivy::columnar::Column<u64>)>,
    /// Game → document address (segment ordinal in the high half, document in the low), built
    /// the first time a game is not where its segment's run puts it.
    map: std::sync::OnceLock<Vec<u64>>,
    /// Each segment's document store (by ordinal), opened at the first [`MetaIndex::summary`]
    /// and kept with its cache of decompressed blocks: an answer asks for the summaries of
    /// thousands of hits, mostly in game order, and a store opened per summary decompressed a
    /// whole block for each (on fox-pro's 4,146 hits of the empty board, most of the answer's
    /// time in the clients).
    stores: std::sync::OnceLock<Vec<tantivy::store::StoreReader>>,
}

/// Decompressed blocks each kept document store holds (a block holds tens of documents).
const STORE_CACHE_BLOCKS: usize = 4;

/// No document for this game.
const NO_ADDRESS: u64 = u64::MAX;

impl MetaIndex {
    /// Opens the index in `dir`.
    pub fn open(dir: &Path) -> Result<MetaIndex, MetaError> {
        guarded(dir, || MetaIndex::open_unguarded(dir))
    }

    fn open_unguarded(dir: &Path) -> Result<MetaIndex, MetaError> {
        let index = open_index(dir)?;
        let schema = index.schema();
        let fields = Fields::new(&schema)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let default_fields = schema::DEFAULT_FIELDS
            .iter()
            .map(|name| schema.get_field(name))
            .collect::<Result<Vec<_>, _>>()?;
        let by_postings = ranges::without_columns(&schema);
        let mut parser = QueryParser::new(schema, default_fields, tokenizer::query_manager());
        parser.set_conjunction_by_default();
        Ok(MetaIndex {
            dir: dir.to_path_buf(),
            index,
            reader,
            parser,
            fields,
            values: Values::open(&dir.join(VALUES_DIR))?,
            aliases: Aliases::recorded(dir)?,
            by_postings,
            lookup: std::sync::Mutex::new(None),
        })
    }

    /// The alias list this index was given (see [`aliases`]).
    pub fn aliases(&self) -> &Aliases {
        &self.aliases
    }

    /// Sees the latest commit.
    pub fn reload(&self) -> Result<(), MetaError> {
        self.values.reload()?;
        self.reader.reload()?;
        Ok(())
    }

    /// Parses a query into a tantivy query (the language: see the module documentation and
    /// `query.rs`).
    pub fn parse(&self, query: &str) -> Result<Box<dyn Query>, MetaError> {
        guarded(&self.dir, || {
            if query.trim().is_empty() {
                return Err(MetaError::Query {
                    at: None,
                    message: "the query is empty".to_string(),
                });
            }
            let ast = self.expand(query::parse(query)?, &mut HashMap::new())?;
            Ok(self.parser.build_query_from_user_input_ast(ast)?)
        })
    }

    /// Replaces each word, phrase, set or range on a field of repeating values (see
    /// [`values`]) by the set of that field's values it matches in the dictionary. `matched`
    /// keeps each (kind, leaf) looked up: `player:lee` asks the same of black and of white.
    fn expand(
        &self,
        ast: UserInputAst,
        matched: &mut HashMap<(&'static str, UserInputLeaf), Vec<String>>,
    ) -> Result<UserInputAst, MetaError> {
        Ok(match ast {
            UserInputAst::Clause(clauses) => UserInputAst::Clause(
                clauses
                    .into_iter()
                    .map(|(occur, ast)| Ok((occur, self.expand(ast, matched)?)))
                    .collect::<Result<_, MetaError>>()?,
            ),
            UserInputAst::Boost(ast, boost) => {
                UserInputAst::Boost(Box::new(self.expand(*ast, matched)?), boost)
            }
            UserInputAst::Leaf(leaf) => {
                let field = query::field_of(&leaf).map(str::to_string);
                let Some((field, kind)) =
                    field.and_then(|f| schema::value_kind(&f).map(|k| (f, k)))
                else {
                    return Ok(UserInputAst::Leaf(leaf));
                };
                let mut elements = Vec::new();
                for on_text in self.alternatives(kind, &leaf) {
                    match matched.get(&(kind, on_text.clone())) {
                        Some(values) => elements.extend_from_slice(values),
                        None => {
                            let values = self.values.matching(kind, &on_text)?;
                            elements.extend_from_slice(&values);
                            matched.insert((kind, on_text), values);
                        }
                    }
                }
                elements.sort_unstable();
                elements.dedup();
                UserInputAst::Leaf(Box::new(UserInputLeaf::Set {
                    field: Some(field),
                    elements,
                }))
            }
        })
    }

    /// What a leaf on a field of `kind` asks the value dictionary: the leaf itself, and when it
    /// is a player's whole name in the alias list (a word or phrase, not a prefix), each of that
    /// player's names as a phrase.
    fn alternatives(&self, kind: &str, leaf: &UserInputLeaf) -> Vec<UserInputLeaf> {
        let own = query::with_field(leaf, values::TEXT);
        let names = match leaf {
            UserInputLeaf::Literal(lit) if kind == "player" && !lit.prefix => {
                self.aliases.names_of(&lit.phrase)
            }
            _ => None,
        };
        let mut out = vec![own];
        for name in names.unwrap_or_default() {
            let alternative = UserInputLeaf::Literal(tantivy::query_grammar::UserInputLiteral {
                field_name: Some(values::TEXT.to_string()),
                phrase: name.clone(),
                delimiter: tantivy::query_grammar::Delimiter::DoubleQuotes,
                slop: 0,
                prefix: false,
            });
            if !out.contains(&alternative) {
                out.push(alternative);
            }
        }
        out
    }

    /// Every game matching `query`, by id, ascending.
    pub fn search(&self, query: &str) -> Result<Vec<u32>, MetaError> {
        guarded(&self.dir, || {
            let query = self.parse(query)?;
            self.search_query(query.as_ref())
        })
    }

    /// Every game matching an already parsed query, by id, ascending. The segments are
    /// searched in parallel on the caller's rayon pool: an answer of half a million games out
    /// of millions spends most of its time here, one segment after the other.
    pub fn search_query(&self, query: &dyn Query) -> Result<Vec<u32>, MetaError> {
        use rayon::prelude::*;
        guarded(&self.dir, || {
            let searcher = self.reader.searcher();
            let rewritten = self.ranges_by_postings(query);
            let query = rewritten.as_deref().unwrap_or(query);
            let weight = query.weight(tantivy::query::EnableScoring::disabled_from_searcher(
                &searcher,
            ))?;
            let fruits = searcher
                .segment_readers()
                .par_iter()
                .enumerate()
                .map(|(ord, segment)| {
                    // A panic here reaches the caller through rayon: said there, not here.
                    quiet(|| {
                        GameIds.collect_segment(weight.as_ref(), ord as SegmentOrdinal, segment)
                    })
                })
                .collect::<tantivy::Result<Vec<_>>>()?;
            Ok(ascending(GameIds.merge_fruits(fruits)?))
        })
    }

    /// `query` with its numeric ranges answered from their postings, or `None` when it has
    /// none to rewrite (see [`ranges`]).
    fn ranges_by_postings(&self, query: &dyn Query) -> Option<Box<dyn Query>> {
        ranges::by_postings(query, &self.index.schema(), &self.by_postings)
    }

    /// The number of games matching `query`.
    pub fn count(&self, query: &str) -> Result<usize, MetaError> {
        guarded(&self.dir, || {
            let query = self.parse(query)?;
            let rewritten = self.ranges_by_postings(query.as_ref());
            let query = rewritten.as_deref().unwrap_or(query.as_ref());
            Ok(self.reader.searcher().search(query, &Count)?)
        })
    }

    /// The number of games in the index (copies included).
    pub fn num_games(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// The payload of the commit this view shows, if it had one.
    pub fn payload(&self) -> Result<Option<String>, MetaError> {
        Ok(self.index.load_metas()?.payload)
    }

    /// The `n` most frequent whole values of `field` (`player` or `event`), most frequent first
    /// (ties by value), with the number of games holding each. Only games with ids below `games`
    /// count (see [`MetaIndex::visible`]).
    pub fn top(&self, field: &str, n: usize, games: u32) -> Result<Vec<(String, u64)>, MetaError> {
        self.top_hiding(field, n, games, &|_| false)
    }

    /// [`MetaIndex::top`] without the games `hidden` names (removed games, see
    /// the index's removed games).
    pub fn top_hiding(
        &self,
        field: &str,
        n: usize,
        games: u32,
        hidden: &dyn Fn(u32) -> bool,
    ) -> Result<Vec<(String, u64)>, MetaError> {
        let mut top: Vec<(String, u64)> = self
            .counts_hiding(field, games, hidden)?
            .into_iter()
            .collect();
        top.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        top.truncate(n);
        Ok(top)
    }

    /// The `n` most frequent players among the games shown (as [`MetaIndex::top_hiding`]
    /// counts `player`), each player counted once under all its names: the names of one line
    /// of the alias list ([`aliases`]) are one player, shown under the line's first name, and
    /// so are names with the same [`name_key`] (`一力遼` and `一力辽`, `LEE SEDOL` and `Lee
    /// Sedol`), shown under the most frequent spelling. Each with its game count (a game
    /// counts once per side the player's names hold) and the other spellings found, most
    /// frequent first. Every name is keyed, not only the most frequent ones: a player whose
    /// games are split over many spellings may lead though none of them alone would.
    pub fn top_players_hiding(
        &self,
        n: usize,
        games: u32,
        hidden: &dyn Fn(u32) -> bool,
    ) -> Result<Vec<TopPlayer>, MetaError> {
        let counts = self.counts_hiding("player", games, hidden)?;
        Ok(self.group_players(counts, n))
    }

    /// How many visible games (not those `hidden` names) each spelling of a player's name
    /// holds, once per side: what [`MetaIndex::top_players_hiding`] groups. Counts of several
    /// indexes searched as one are summed spelling by spelling, then grouped once
    /// ([`MetaIndex::group_players`]).
    pub fn player_counts_hiding(
        &self,
        games: u32,
        hidden: &dyn Fn(u32) -> bool,
    ) -> Result<HashMap<String, u64>, MetaError> {
        self.counts_hiding("player", games, hidden)
    }

    /// The `n` players with the most games, from the game counts of their spellings: the
    /// names of one line of this index's alias list are one player, and so are names equal
    /// once folded (see [`MetaIndex::top_players_hiding`]).
    pub fn group_players(&self, counts: HashMap<String, u64>, n: usize) -> Vec<TopPlayer> {
        // A player's main name from the alias list, if any, and its spellings with their
        // counts.
        type Group = (Option<String>, Vec<(String, u64)>);
        let mut groups: HashMap<String, Group> = HashMap::new();
        for (name, count) in counts {
            let key = name_key(&name);
            let (group, main) = match self.aliases.names_of_key(&key) {
                // The alias line's first name stands for the line (keyed: never a name's key).
                Some(names) => (format!("\u{1}{}", names[0]), Some(names[0].clone())),
                None if key.is_empty() => (format!("\u{2}{name}"), None),
                None => (key, None),
            };
            let entry = groups.entry(group).or_insert((main, Vec::new()));
            entry.1.push((name, count));
        }
        let mut top: Vec<TopPlayer> = groups
            .into_values()
            .map(|(main, mut names)| {
                names.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                let games = names.iter().map(|(_, c)| c).sum();
                let name = main.unwrap_or_else(|| names[0].0.clone());
                let also = names
                    .into_iter()
                    .map(|(spelling, _)| spelling)
                    .filter(|spelling| *spelling != name)
                    .collect();
                TopPlayer { name, games, also }
            })
            .collect();
        top.sort_unstable_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
        top.truncate(n);
        top
    }

    /// How many visible games hold each whole value of `field` (a statistics field: see
    /// [`schema::STATISTICS`]), summed over the field's columns.
    fn counts_hiding(
        &self,
        field: &str,
        games: u32,
        hidden: &dyn Fn(u32) -> bool,
    ) -> Result<HashMap<String, u64>, MetaError> {
        guarded(&self.dir, || {
            let Some(&(_, names)) = schema::STATISTICS.iter().find(|(f, _)| *f == field) else {
                return Err(MetaError::Query {
                    at: Some(format!("field {field:?}")),
                    message: format!(
                        "no statistics for {field:?}; fields with statistics: {}",
                        schema::STATISTICS
                            .iter()
                            .map(|(f, _)| *f)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            };
            let exact: Vec<tantivy::schema::Field> = names
                .iter()
                .map(|name| self.index.schema().get_field(name))
                .collect::<Result<_, _>>()?;
            let searcher = self.reader.searcher();
            let every_doc_counts =
                searcher.num_docs() == u64::from(games) && !any_hidden(games, hidden);
            let mut counts: HashMap<String, u64> = HashMap::new();
            for segment in searcher.segment_readers() {
                let visible = self.visible(segment, games, hidden)?;
                for &exact in &exact {
                    self.count_terms(segment, exact, every_doc_counts, &visible, &mut counts)?;
                }
            }
            Ok(counts)
        })
    }

    /// Adds to `counts` how many visible documents of `segment` hold each term of `field`.
    fn count_terms(
        &self,
        segment: &SegmentReader,
        field: tantivy::schema::Field,
        every_doc_counts: bool,
        visible: &dyn Fn(DocId) -> bool,
        counts: &mut HashMap<String, u64>,
    ) -> Result<(), MetaError> {
        let inverted = segment.inverted_index(field)?;
        let mut stream = inverted.terms().stream().map_err(|e| self.io(e))?;
        while stream.advance() {
            let Ok(term) = std::str::from_utf8(stream.key()) else {
                continue;
            };
            let count = if every_doc_counts && segment.alive_bitset().is_none() {
                u64::from(stream.value().doc_freq)
            } else {
                let mut postings = inverted
                    .read_postings_from_terminfo(stream.value(), IndexRecordOption::Basic)
                    .map_err(|e| self.io(e))?;
                let mut seen = 0;
                let mut doc = tantivy::DocSet::doc(&postings);
                while doc != tantivy::TERMINATED {
                    seen += u64::from(visible(doc));
                    doc = tantivy::DocSet::advance(&mut postings);
                }
                seen
            };
            if count > 0 {
                *counts.entry(term.to_string()).or_default() += count;
            }
        }
        Ok(())
    }

    /// The earliest first day and the latest last day of the dated games with ids below `games`
    /// (see [`MetaIndex::visible`]).
    pub fn date_range(&self, games: u32) -> Result<Option<(Date, Date)>, MetaError> {
        self.date_range_hiding(games, &|_| false)
    }

    /// [`MetaIndex::date_range`] without the games `hidden` names.
    pub fn date_range_hiding(
        &self,
        games: u32,
        hidden: &dyn Fn(u32) -> bool,
    ) -> Result<Option<(Date, Date)>, MetaError> {
        guarded(&self.dir, || {
            let searcher = self.reader.searcher();
            let every_doc_counts =
                searcher.num_docs() == u64::from(games) && !any_hidden(games, hidden);
            let mut range: Option<(i64, i64)> = None;
            let mut widen = |lo: i64, hi: i64| {
                range = Some(match range {
                    None => (lo, hi),
                    Some((a, b)) => (a.min(lo), b.max(hi)),
                });
            };
            for segment in searcher.segment_readers() {
                let fast = segment.fast_fields();
                let (Some(start), Some(end)) = (
                    fast.column_opt::<i64>("date_start")?,
                    fast.column_opt::<i64>("date_end")?,
                ) else {
                    continue;
                };
                if start.num_docs() == 0 || start.values.num_vals() == 0 {
                    continue;
                }
                if every_doc_counts && segment.alive_bitset().is_none() {
                    widen(start.min_value(), end.max_value());
                    continue;
                }
                // Documents a reader must not see: look at each game that counts.
                let visible = self.visible(segment, games, hidden)?;
                for doc in (0..segment.max_doc()).filter(|&d| visible(d)) {
                    if let (Some(lo), Some(hi)) = (start.first(doc), end.first(doc)) {
                        widen(lo, hi);
                    }
                }
            }
            Ok(range.map(|(a, b)| (date_from_days(a), date_from_days(b))))
        })
    }

    /// Whether a document of `segment` counts: alive, and of a game with an id below `games`.
    /// Statistics must not count documents that a run killed between its metadata commit and
    /// its manifest left behind (the next run deletes them; searches already skip them).
    /// Nor the documents of games `hidden` names.
    fn visible<'s>(
        &self,
        segment: &'s tantivy::SegmentReader,
        games: u32,
        hidden: &'s dyn Fn(u32) -> bool,
    ) -> Result<impl Fn(tantivy::DocId) -> bool + 's, MetaError> {
        let game = segment.fast_fields().u64("game")?;
        let alive = segment.alive_bitset();
        Ok(move |doc| {
            alive.is_none_or(|a| a.is_alive(doc))
                && game
                    .first(doc)
                    .is_some_and(|g| g < u64::from(games) && !hidden(g as u32))
        })
    }

    /// The lookup for the searcher's generation, made once per generation.
    fn lookup(&self, searcher: &Searcher) -> Result<std::sync::Arc<Lookup>, MetaError> {
        let generation = searcher.generation().generation_id();
        let mut cached = self.lookup.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(lookup) = cached.as_ref().filter(|l| l.generation == generation) {
            return Ok(lookup.clone());
        }
        let mut runs = Vec::new();
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            if let (Some(first), column) = first_game(segment)? {
                runs.push((first, ord as SegmentOrdinal, column));
            }
        }
        runs.sort_unstable_by_key(|r| r.0);
        let lookup = std::sync::Arc::new(Lookup {
            generation,
            runs,
            map: std::sync::OnceLock::new(),
            stores: std::sync::OnceLock::new(),
        });
        *cached = Some(lookup.clone());
        Ok(lookup)
    }

    /// Where the document of `game` is, if the index holds it.
    fn address(
        &self,
        searcher: &Searcher,
        game: u32,
    ) -> Result<Option<tantivy::DocAddress>, MetaError> {
        let lookup = self.lookup(searcher)?;
        let run = lookup.runs.partition_point(|r| r.0 <= u64::from(game));
        if let Some((first, ord, column)) = run.checked_sub(1).map(|i| &lookup.runs[i]) {
            let segment = searcher.segment_reader(*ord);
            let doc = u64::from(game) - first;
            if let Ok(doc) = DocId::try_from(doc) {
                if doc < segment.max_doc()
                    && segment.alive_bitset().is_none_or(|b| b.is_alive(doc))
                    && column.first(doc) == Some(u64::from(game))
                {
                    return Ok(Some(tantivy::DocAddress::new(*ord, doc)));
                }
            }
        }
        let map = match lookup.map.get() {
            Some(map) => map,
            None => {
                let map = address_map(searcher)?;
                lookup.map.get_or_init(|| map)
            }
        };
        let a = map.get(game as usize).copied().unwrap_or(NO_ADDRESS);
        Ok((a != NO_ADDRESS).then(|| tantivy::DocAddress::new((a >> 32) as u32, a as u32)))
    }

    /// The stored information of one game, if the index holds it.
    pub fn summary(&self, game: u32) -> Result<Option<GameSummary>, MetaError> {
        guarded(&self.dir, || {
            let searcher = self.reader.searcher();
            let Some(address) = self.address(&searcher, game)? else {
                return Ok(None);
            };
            // A damaged length in the document would make tantivy abort (see `stored`).
            let io = |source| MetaError::Io {
                path: self.dir.clone(),
                source,
            };
            let lookup = self.lookup(&searcher)?;
            let stores = match lookup.stores.get() {
                Some(stores) => stores,
                None => {
                    let stores = searcher
                        .segment_readers()
                        .iter()
                        .map(|s| s.get_store_reader(STORE_CACHE_BLOCKS))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(io)?;
                    lookup.stores.get_or_init(|| stores)
                }
            };
            let store = stores
                .get(address.segment_ord as usize)
                .ok_or_else(|| io(std::io::Error::other("no such segment")))?;
            let bytes = store
                .get_document_bytes(address.doc_id)
                .map_err(|e| io(std::io::Error::other(e)))?;
            if !stored::plausible(&bytes) {
                return Err(MetaError::Index {
                    path: self.dir.clone(),
                    message: format!(
                        "the stored information of game {game} is damaged; `qipu verify` names the file"
                    ),
                });
            }
            let doc: TantivyDocument = store.get(address.doc_id)?;
            let f = &self.fields;
            let text = |field| {
                doc.get_first(field)
                    .and_then(|v| v.as_str().map(str::to_string))
            };
            let u64_of = |field| doc.get_first(field).and_then(|v| v.as_u64());
            let i64_of = |field| doc.get_first(field).and_then(|v| v.as_i64());
            let text_named = |name: &str| {
                let i = schema::VALUE_FIELDS
                    .iter()
                    .position(|(n, _, stored)| *n == name && *stored)
                    .expect("a stored value field");
                text(f.values[i])
            };
            let sizes: Vec<u64> = doc.get_all(f.size).filter_map(|v| v.as_u64()).collect();
            let cols = sizes.first().copied().unwrap_or(19);
            let rows = sizes.get(1).copied().unwrap_or(cols);
            Ok(Some(GameSummary {
                game,
                black: text_named("black"),
                white: text_named("white"),
                black_rank: text(f.black_rank_text),
                white_rank: text(f.white_rank_text),
                date: text(f.date_text),
                date_range: i64_of(f.date_start)
                    .zip(i64_of(f.date_end))
                    .map(|(a, b)| (date_from_days(a), date_from_days(b))),
                event: text_named("event"),
                round: text_named("round"),
                result: text_named("result"),
                winner: text(f.winner).unwrap_or_else(|| "unknown".to_string()),
                komi: doc.get_first(f.komi).and_then(|v| v.as_f64()),
                handicap: u64_of(f.handicap),
                size: (cols, rows),
                moves: u64_of(f.moves).unwrap_or(0),
                duplicate_of: u64_of(f.duplicate_of).map(|g| g as u32),
                file: text(f.file),
            }))
        })
    }

    /// The directory the index lives in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn io(&self, source: std::io::Error) -> MetaError {
        MetaError::Io {
            path: self.dir.clone(),
            source,
        }
    }
}

/// The day `days` after 1970-01-01 (before it if negative), proleptic Gregorian: the inverse of
/// [`Date::days_since_epoch`].
fn date_from_days(days: i64) -> Date {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
    Date { year, month, day }
}

/// Whether `hidden` names any game below `games` (then no count can be taken whole from an
/// index's statistics).
fn any_hidden(games: u32, hidden: &dyn Fn(u32) -> bool) -> bool {
    (0..games).any(hidden)
}

/// Sorts game ids (and drops repeats). Segments interleave ids (two indexing threads, merges),
/// so hits come out of order; a large answer is sorted through a bitmap over the dense ids,
/// which is linear, a small one by sorting.
fn ascending(mut games: Vec<u32>) -> Vec<u32> {
    if games.is_sorted_by(|a, b| a < b) {
        return games;
    }
    let max = games.iter().copied().max().unwrap_or(0) as usize;
    if games.len() < 4096 || games.len() < max / 32 {
        games.sort_unstable();
        games.dedup();
        return games;
    }
    let mut bits = vec![0u64; max / 64 + 1];
    for &g in &games {
        bits[g as usize / 64] |= 1 << (g % 64);
    }
    games.clear();
    for (i, &word) in bits.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            games.push((i * 64) as u32 + w.trailing_zeros());
            w &= w - 1;
        }
    }
    games
}

/// Collects the `game` fast field of every hit: all matches, unscored.
struct GameIds;

struct SegmentGameIds {
    column: std::sync::Arc<dyn ColumnValues<u64>>,
    /// The segment's first game when its documents are a run of consecutive games (see
    /// [`run_start`]): document `d` is then game `first + d`, read without the column.
    first: Option<u32>,
    games: Vec<u32>,
    buffer: Vec<u64>,
}

/// Documents sampled along a segment's `game` column by [`run_start`].
const RUN_SAMPLES: u32 = 64;

/// The first game of `segment` when its documents hold consecutive games in document order, as
/// a build adds them (see [`Lookup`]): no deleted document, the column's least and greatest
/// values as far apart as the documents (as when each game of the run is there once), and the
/// first, the last and [`RUN_SAMPLES`] documents between where the run puts them — checks of
/// what a build guarantees, as [`MetaIndex::summary`]'s look-up checks one value. Then no
/// game id is read from the column per hit, a large part of a large answer's time.
fn run_start(segment: &SegmentReader, column: &dyn ColumnValues<u64>) -> Option<u32> {
    let docs = segment.max_doc();
    if docs == 0 || segment.alive_bitset().is_some() || column.num_vals() != docs {
        return None;
    }
    let (min, max) = (column.min_value(), column.max_value());
    if max.checked_sub(min) != Some(u64::from(docs - 1)) || max > u64::from(u32::MAX) {
        return None;
    }
    let step = (docs / RUN_SAMPLES).max(1);
    let mut sampled = (0..docs).step_by(step as usize).chain([docs - 1]);
    sampled
        .all(|d| column.get_val(d) == min + u64::from(d))
        .then_some(min as u32)
}

impl Collector for GameIds {
    type Fruit = Vec<u32>;
    type Child = SegmentGameIds;

    fn for_segment(
        &self,
        _: SegmentOrdinal,
        segment: &SegmentReader,
    ) -> tantivy::Result<SegmentGameIds> {
        let column = segment
            .fast_fields()
            .column_first_or_default::<u64>("game")?;
        Ok(SegmentGameIds {
            first: run_start(segment, column.as_ref()),
            column,
            games: Vec::new(),
            buffer: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    /// As tantivy collects a segment unscored, with room made first for as many games as the
    /// scorer says it may give (an answer of half a million games grew each segment's list by
    /// doubling, every step fresh memory to fault in).
    fn collect_segment(
        &self,
        weight: &dyn tantivy::query::Weight,
        ord: SegmentOrdinal,
        segment: &SegmentReader,
    ) -> tantivy::Result<Vec<u32>> {
        use tantivy::DocSet;
        let mut child = self.for_segment(ord, segment)?;
        let mut scorer = weight.scorer(segment, 1.0)?;
        let alive = segment.alive_bitset();
        let hint = (scorer.size_hint() as usize).min(segment.max_doc() as usize);
        child.games.reserve(hint);
        let mut buffer = [0; tantivy::COLLECT_BLOCK_BUFFER_LEN];
        loop {
            let n = scorer.fill_buffer(&mut buffer);
            if n == 0 {
                break;
            }
            match alive {
                None => child.collect_block(&buffer[..n]),
                Some(alive) => {
                    for &doc in buffer[..n].iter().filter(|&&d| alive.is_alive(d)) {
                        child.collect(doc, 0.0);
                    }
                }
            }
        }
        Ok(child.harvest())
    }

    /// The segments' games, the segments in order of their first game: merges leave
    /// tantivy's segments in no particular order, and each holds a run of games, so this is
    /// usually the ascending order [`ascending`] would otherwise sort into.
    fn merge_fruits(&self, mut fruits: Vec<Vec<u32>>) -> tantivy::Result<Vec<u32>> {
        fruits.retain(|f| !f.is_empty());
        fruits.sort_unstable_by_key(|f| f[0]);
        Ok(fruits.concat())
    }
}

impl SegmentCollector for SegmentGameIds {
    type Fruit = Vec<u32>;

    fn collect(&mut self, doc: DocId, _: Score) {
        self.games.push(match self.first {
            Some(first) => first + doc,
            None => self.column.get_val(doc) as u32,
        });
    }

    fn collect_block(&mut self, docs: &[DocId]) {
        if let Some(first) = self.first {
            self.games.extend(docs.iter().map(|&d| first + d));
            return;
        }
        self.buffer.resize(docs.len(), 0);
        self.column.get_vals(docs, &mut self.buffer);
        self.games.extend(self.buffer.iter().map(|&g| g as u32));
    }

    fn harvest(self) -> Vec<u32> {
        self.games
    }
}

/// The game of a segment's first document (`None` for an empty segment), and its `game`
/// column: a build adds documents in game order, so this is where the segment's run of games
/// starts.
fn first_game(
    segment: &SegmentReader,
) -> Result<(Option<u64>, tantivy::columnar::Column<u64>), MetaError> {
    let column = segment.fast_fields().u64("game")?;
    Ok((column.first(0), column))
}

/// Game → document address of every live document (see [`Lookup::map`]).
fn address_map(searcher: &Searcher) -> Result<Vec<u64>, MetaError> {
    let mut map: Vec<u64> = Vec::new();
    // Every game has one document, so a larger id can only come from a damaged column.
    let docs: usize = searcher
        .segment_readers()
        .iter()
        .map(|s| s.max_doc() as usize)
        .sum();
    for (ord, segment) in searcher.segment_readers().iter().enumerate() {
        let column = segment.fast_fields().u64("game")?;
        for doc in 0..segment.max_doc() {
            if segment.alive_bitset().is_some_and(|b| !b.is_alive(doc)) {
                continue;
            }
            let Some(game) = column.first(doc) else {
                continue;
            };
            let game = game as usize;
            if game >= docs {
                continue;
            }
            if map.len() <= game {
                map.resize(game + 1, NO_ADDRESS);
            }
            map[game] = (ord as u64) << 32 | u64::from(doc);
        }
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip() {
        for days in [-719_162, -1, 0, 1, 59, 60, 365, 10_957, 11_016, 2_932_896] {
            assert_eq!(date_from_days(days).days_since_epoch(), days, "{days}");
        }
        assert_eq!(date_from_days(0).to_string(), "1970-01-01");
        assert_eq!(date_from_days(11_016).to_string(), "2000-02-29");
    }

    /// Adds games `0..n` to a new index in `dir`, committing after each game in `commits`, and
    /// finishes the build.
    fn build(dir: &Path, n: u32, commits: &[u32]) {
        let records = sgf::Records::read(b"(;PB[Alice]PW[Bob]RE[B+R])");
        let info = GameInfo::read(&records.game(0).unwrap());
        let mut w = MetaWriter::create(dir, 50_000_000).unwrap();
        for g in 0..n {
            w.add(g, &info, g, None, "f.sgf").unwrap();
            if commits.contains(&g) {
                w.commit().unwrap();
            }
        }
        w.finish().unwrap();
    }

    /// Every game's document is found through its segment's run of games, none past the end.
    fn assert_found_without_map(dir: &Path, n: u32) {
        let m = MetaIndex::open(dir).unwrap();
        let searcher = m.reader.searcher();
        for g in 0..n {
            let a = m.address(&searcher, g).unwrap().expect("a document");
            let column = searcher
                .segment_reader(a.segment_ord)
                .fast_fields()
                .u64("game");
            assert_eq!(column.unwrap().first(a.doc_id), Some(u64::from(g)));
        }
        assert_eq!(m.summary(n - 1).unwrap().unwrap().moves, u64::from(n - 1));
        // Summaries in any order, across segments, through the stores kept with their caches.
        for g in (0..n).rev().chain((0..n).step_by(7)) {
            let s = m.summary(g).unwrap().unwrap();
            assert_eq!((s.game, s.moves), (g, u64::from(g)));
            assert_eq!(s.black.as_deref(), Some("Alice"));
        }
        assert!(
            m.lookup(&searcher).unwrap().map.get().is_none(),
            "no map was built"
        );
        assert_eq!(m.address(&searcher, n).unwrap(), None);
        assert!(m.summary(n).unwrap().is_none());
    }

    #[test]
    fn a_finished_build_finds_documents_without_the_map() {
        let dir = std::env::temp_dir().join(format!("qipu-meta-direct-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Two commits leave two segments, each a run of games.
        build(&dir, 300, &[150]);
        let m = MetaIndex::open(&dir).unwrap();
        assert_eq!(m.reader.searcher().segment_readers().len(), 2);
        assert_found_without_map(&dir, 300);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn many_segments_are_merged_in_game_order() {
        let dir = std::env::temp_dir().join(format!("qipu-meta-merge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Segments of uneven sizes: the smallest neighbours are merged until few enough remain.
        let commits: Vec<u32> = (0..20).map(|i| i * i * 3 + 5).collect();
        build(&dir, 1300, &commits);
        let m = MetaIndex::open(&dir).unwrap();
        let segments = m.reader.searcher().segment_readers().len();
        assert!(
            (2..=MAX_SEGMENTS).contains(&segments),
            "{segments} segments"
        );
        assert_found_without_map(&dir, 1300);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn ascending_ids() {
        assert_eq!(ascending(vec![3, 1, 2, 2]), [1, 2, 3]);
        let many: Vec<u32> = (0..10_000u32).rev().collect();
        assert_eq!(ascending(many), (0..10_000).collect::<Vec<_>>());
    }
}
