//! `qipu index`: inputs → parsed and replayed games → segments, metadata and manifest.
//!
//! One thread streams the inputs (files are mapped, archives decompressed as streams) into a
//! bounded channel; the calling thread takes batches of record files from it, parses and replays
//! their games on all cores (rayon), then writes the results in input order. Memory is bounded by
//! the batch size and by [`BuildOptions::segment_games`], not by the corpus.
//!
//! Commit points: a segment is closed, the metadata committed and the manifest replaced at once,
//! every `segment_games` games and at the end. The manifest also records how many record files of
//! each input are in, so a run killed at any moment is finished by running it again, with no game
//! lost and none doubled.
//!
//! Inputs are known by canonical path, size, modification time and fingerprint (see
//! `inputs`, "Identity"). An input whose size, time or fingerprint changed is read again from
//! its start and its old games are removed; so are the games of an input once found in a
//! directory that is walked again, when the file no longer exists (one that merely could not be
//! examined is kept). Segments are immutable, so removed games are hidden: the manifest lists
//! them (`removed`), replaced atomically with the rest, and every answer leaves them out after
//! exact copies were expanded, so a copy of a removed original is still found. A removed game
//! is not "already seen" for duplicate detection: a file read again stores its games anew.
//! A stream (a pipe given as INPUT) has no stable identity: it is read on every run and never
//! recorded as read, so it can never make a later run skip content; what it repeats is stored
//! once, as exact copies.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;
use sgf::Records;

use crate::encode::game::{analyse_with_lines, Analysed};
use crate::encode::variations::{Limits, Variation};
use crate::store::layout;
use crate::store::manifest::{self, Manifest, SegmentInfo, SourceInfo, Totals};
use crate::store::{
    GameData, Segment, SegmentWriter, Spare, StoredOps, FLAG_SKELETON, FLAG_SYMMETRIC_COPY,
    MAX_SEGMENT_GAMES,
};
use crate::IndexError;
use inputs::{Record, Source};
use meta::MetaWriter;

/// The games of a segment unless told otherwise ([`BuildOptions::segment_games`]). A search
/// looks every hash up in every segment, and each look-up's first touch of a mapped page costs
/// a page fault in a fresh process, so fewer segments answer faster; the cost is the memory of
/// the open segment while building. The measurements behind the choice: DESIGN-index.md, "Why
/// a segment holds a million games", and BENCHMARKS.md, Indexing: segments of a million games.
pub const DEFAULT_SEGMENT_GAMES: u32 = 1_000_000;

/// How to build. One type for every caller: the library face (`qipu::BuildOptions`) re-exports
/// it. The fields a user sets are documented; the rest tune the build's memory and bounds for
/// tests and benchmarks, their defaults being what qipu runs with, so they are hidden from the
/// documentation.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Start over instead of adding to the existing index. The new index is written beside the
    /// old one, which stays searchable until the new one replaces it.
    pub rebuild: bool,
    /// Games per segment: bounds the memory of a run (about 1 KB per game; the position table
    /// of a segment is sorted in memory) and what a crash can lose. At most
    /// [`MAX_SEGMENT_GAMES`].
    pub segment_games: u32,
    /// A player alias file (one player a line, the names tab-separated, `#` comments) to record
    /// with the index, read and checked before anything is indexed (a bad one is
    /// [`IndexError::AliasFile`]); searches on a player's name then find all of that player's
    /// names. `None` keeps the index's list (a new index gets the built-in one,
    /// `data/aliases.tsv`); an empty file turns aliases off.
    pub aliases: Option<PathBuf>,
    /// Whether to index every variation line of each record as a line of its own, searchable
    /// like a game and marked as a variation of it ([`crate::encode::variations`]). `None` keeps the
    /// index's setting (a new index: no); a new index or a rebuild takes `Some`; an existing
    /// index refuses a setting other than its own ([`IndexError::Variations`]), since it would
    /// then hold lines for some records only. At most 200,000 lines and 2,000,000 nodes over
    /// all lines are taken per record ([`BuildOptions::line_limits`]); what is left is counted
    /// ([`Totals::variation_lines_left`]) and each such record named in the report.
    pub variations: Option<bool>,
    /// Record-file bytes parsed per parallel batch. A record file at least this large is not
    /// batched but handled alone, in chunks of [`BuildOptions::chunk_games`] games.
    #[doc(hidden)]
    pub batch_bytes: usize,
    /// Games of one large record file parsed, analysed and held at once; the open segment may
    /// be committed between chunks, so neither the games in flight nor a segment grow with the
    /// file, whose games would otherwise all be held at once (BENCHMARKS.md, Indexing: inputs
    /// read in chunks of games).
    #[doc(hidden)]
    pub chunk_games: usize,
    /// Largest record file taken once decompressed (a file, an archive member, a `.sgf.zst`);
    /// larger ones are refused as damage. Bounds what a zip or zstd bomb costs.
    #[doc(hidden)]
    pub max_record_bytes: u64,
    /// Memory for the metadata writer.
    #[doc(hidden)]
    pub meta_heap: usize,
    /// Bounds on the variation lines taken per record.
    #[doc(hidden)]
    pub line_limits: crate::encode::variations::Limits,
    /// Positions reached by at least this many table entries of a segment get pre-aggregated
    /// continuations ([`crate::encode::aggregate`]); tests set it low to aggregate small corpora.
    #[doc(hidden)]
    pub aggregate_min: u32,
    /// How the engine evaluations a record carries are read; the games it gives evaluations
    /// for keep them in the index ([`crate::evals`]). By default every program's property
    /// [`sgf::eval::read`] knows; `None` keeps none.
    pub evals: Option<crate::evals::EvalReader>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            rebuild: false,
            segment_games: DEFAULT_SEGMENT_GAMES,
            batch_bytes: 8 << 20,
            chunk_games: 16_384,
            max_record_bytes: inputs::MAX_RECORD_BYTES,
            meta_heap: 256 << 20,
            aliases: None,
            variations: None,
            line_limits: crate::encode::variations::Limits::default(),
            aggregate_min: crate::encode::aggregate::DEFAULT_MIN_ENTRIES,
            evals: Some(sgf::eval::read),
        }
    }
}

/// What a build did: the caller's to show, log or act on (a library prints nothing). One type
/// for every caller: the library face re-exports it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BuildSummary {
    /// Input files found (each once).
    pub sources: usize,
    /// Of those, already in the index and unchanged.
    pub sources_skipped: usize,
    /// Of those, not in the index before (streams included).
    pub sources_new: usize,
    /// Of those, changed since they were read: their old games removed, read again.
    pub sources_changed: usize,
    /// Of those, begun by a run that did not finish (killed), part of their games in the
    /// index: read on from where it stopped. Each input counts once: one that run listed but
    /// had not begun counts as new, one it had read whole (its end not yet recorded) as
    /// unchanged.
    pub sources_resumed: usize,
    /// Inputs in the index that are gone from a folder walked again: their games removed.
    pub sources_removed: usize,
    /// Games hidden because their input changed or was deleted.
    pub games_removed: u64,
    /// Files and folders that could not be read, each as `path: OS error`; the run went on
    /// without them (and removed nothing for them), so the index is not complete.
    pub unreadable: Vec<String>,
    /// Files found in folders and not opened, each as `path: reason` (FIFOs, devices, files
    /// packed in a form that is not read: `x.sgf.gz`, `x.tar.xz`).
    pub skipped_files: Vec<String>,
    /// Inputs read only in part, each with what stopped it (a truncated or corrupt archive or
    /// compressed file, an I/O error part way): the games before the damage were indexed, and
    /// each is also in [`BuildSummary::report`].
    pub damaged: Vec<String>,
    /// What this run added: the manifest's totals after it, less those before.
    pub added: Totals,
    /// Input bytes read.
    pub bytes_read: u64,
    /// Wall time of the build.
    pub seconds: f64,
    /// Bytes of the index folder after it.
    pub index_bytes: u64,
    /// What the build did with the index's alias list. Serialized as `aliases_replaced`, a
    /// yes or no, which is what a user acts on ([`BuildSummary::aliases_replaced`]).
    #[serde(rename = "aliases_replaced", serialize_with = "replaced")]
    pub aliases: meta::AliasUpdate,
    /// The machine-readable list (JSON Lines) of rejected files and games, with reasons
    /// (`"rejected": true`), and of what files whose games were read say of themselves
    /// (`"rejected": false`: a kifu-line move file read without its index, a skipped line).
    pub report: PathBuf,
}

impl BuildSummary {
    /// Whether the alias list given replaced another one the index had (searches use the new
    /// one from now on; no rebuild is needed).
    pub fn aliases_replaced(&self) -> bool {
        self.aliases == meta::AliasUpdate::Changed
    }
}

fn replaced<S: serde::Serializer>(a: &meta::AliasUpdate, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(*a == meta::AliasUpdate::Changed)
}

/// How far a build is, handed to the progress callback as it goes (for a progress bar).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Games read so far.
    pub games: u64,
    /// Input bytes read so far.
    pub bytes_read: u64,
    /// Input bytes in all (grows while folders are still being walked).
    pub bytes_total: u64,
}

/// One rejected game or file, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct Rejection {
    pub file: String,
    pub game: Option<usize>,
    pub offset: usize,
    pub reason: String,
}

pub use crate::store::layout::REPORT;

/// Builds or extends the index in `dir` from `inputs`.
pub fn build(
    dir: &Path,
    inputs: &[PathBuf],
    opts: &BuildOptions,
    mut progress: impl FnMut(Progress),
) -> Result<BuildSummary, IndexError> {
    let start = Instant::now();
    // The caller's alias file is checked before anything is touched.
    let given_aliases = match &opts.aliases {
        Some(path) => Some(meta::Aliases::read(path).map_err(IndexError::AliasFile)?),
        None => None,
    };
    std::fs::create_dir_all(dir).map_err(|e| IndexError::io(dir, e))?;
    // Before anything else is touched: one writer at a time (see `lock`).
    let _lock = crate::store::lock::WriteLock::take(dir)?;
    let (mut manifest, previous_meta) = starting_manifest(dir, opts)?;
    let lines = manifest.variations.then_some(opts.line_limits);
    let evals = opts.evals;
    let mut meta = MetaWriter::open_or_create(&dir.join(manifest.meta_dir()), opts.meta_heap)?;
    // Metadata committed by a run that died before its manifest: drop it, it will be redone.
    meta.truncate(manifest.games)?;
    let aliases = meta::record_aliases(
        &dir.join(manifest.meta_dir()),
        given_aliases.as_ref(),
        previous_meta.as_deref(),
    )
    .map_err(meta::MetaError::from)?;

    let mut found = inputs::discover_all(inputs)?;
    for source in &mut found.sources {
        source.max_record_bytes = opts.max_record_bytes.min(inputs::MAX_RECORD_BYTES);
    }
    let mut summary = BuildSummary {
        sources: found.sources.len(),
        aliases,
        report: dir.join(REPORT),
        ..BuildSummary::default()
    };
    let todo = plan(&mut manifest, found, &mut summary);
    let bytes_total: u64 = todo.iter().map(|(s, _, _)| s.len).sum();
    let chunk_games = opts.chunk_games.max(1);

    let mut seen = Signatures::load(dir, &manifest)?;
    let before = manifest.totals;

    let mut state = Writer {
        dir,
        manifest: &mut manifest,
        meta: &mut meta,
        segment: None,
        spare: None,
        // A game rarely takes under 32 bytes of input, even compressed (the shared zstd
        // collections: 245 bytes a game, 237 in the smallest), so a small run asks for little
        // room; more games than this only grow the vectors as before.
        room: (bytes_total / 32).min(u64::from(opts.segment_games.min(MAX_SEGMENT_GAMES))) as usize,
        file: None,
        opts,
        publish: !opts.rebuild,
    };

    let (tx, rx) = sync_channel::<Item>(256);
    let in_flight = InFlight::new(IN_FLIGHT_BYTES.max(opts.batch_bytes.saturating_mul(2)));
    let in_flight = &in_flight;
    // Inputs counted as resumed that had nothing left to read: the run that died had read each
    // whole, and died before it recorded its end. Only reading finds that out (the number of
    // records of an archive is not kept), so the summary counts them as unchanged afterwards.
    let read_before = AtomicUsize::new(0);
    let read_before = &read_before;
    std::thread::scope(|scope| -> Result<(), IndexError> {
        let reader = scope.spawn(move || read_inputs(&todo, &tx, in_flight, read_before));
        // Parsing and replaying (on all cores) overlaps with writing: a processor thread turns
        // batches of record files into results while this thread writes the previous batch.
        // Up to four batches of results wait, so that the processor keeps both cores busy while
        // this thread closes a segment (with two, the cores idled a third of that time).
        let (done_tx, done_rx) = sync_channel::<(Vec<Processed>, u64)>(4);
        let batching = Batching {
            limit: opts.batch_bytes,
            chunk_games,
            lines,
            evals,
        };
        // However the processor ends (or if it never starts), the reader no longer waits for it.
        let closing = in_flight.closer();
        let processor = scope.spawn(move || {
            let _closing = closing;
            process_batches(&rx, &done_tx, in_flight, &batching);
        });
        // The results' channel is dropped when this returns, an error included, so that the
        // processor stops sending before it is joined.
        let written = write_results(
            done_rx,
            &mut state,
            &mut seen,
            &mut summary.damaged,
            &mut |games_added, bytes_read| {
                progress(Progress {
                    games: games_added - before.games,
                    bytes_read,
                    bytes_total,
                })
            },
        );
        let _ = processor.join();
        let _ = reader.join();
        written
    })?;
    let read_before = read_before.load(Ordering::Relaxed);
    summary.sources_resumed -= read_before;
    summary.sources_skipped += read_before;
    state.publish = true;
    state.commit()?;
    drop(state);
    tidy_after_commit(dir, &manifest, meta)?;
    summary.added = manifest.totals.since(&before);
    summary.bytes_read = bytes_total;
    summary.seconds = start.elapsed().as_secs_f64();
    summary.index_bytes = dir_size(dir);
    Ok(summary)
}

/// The reading step of [`build`]'s stream: each input still to read, its record files from the
/// first one not yet in the index, sent in order, then its end (with the error that cut it
/// short). An input whose records were all read by a run that died before it recorded the end is
/// counted in `read_before`.
fn read_inputs(
    todo: &[(Source, Key, (u64, usize))],
    tx: &SyncSender<Item>,
    in_flight: &InFlight,
    read_before: &AtomicUsize,
) {
    for (source, key, (skip, skip_games)) in todo {
        let mut n = 0u64;
        let res = inputs::read_source(source, &mut |rec: Record| {
            n += 1;
            if n > *skip {
                let games_in = if n == skip + 1 { *skip_games } else { 0 };
                in_flight.add(rec.bytes.len());
                let _ = tx.send(Item::Record(key.clone(), n, rec, games_in));
            }
        });
        if *skip > 0 && *skip_games == 0 && n == *skip && res.is_ok() {
            read_before.fetch_add(1, Ordering::Relaxed);
        }
        let _ = tx.send(Item::SourceDone(
            key.clone(),
            source.len,
            n,
            res.err().map(|e| (source.name.clone(), e.to_string())),
        ));
    }
}

/// How [`process_batches`] cuts the stream: a batch is processed once it holds `limit` bytes
/// of records (see [`process`] for `chunk_games` and `lines`).
struct Batching {
    limit: usize,
    chunk_games: usize,
    lines: Option<Limits>,
    evals: Option<crate::evals::EvalReader>,
}

/// The parsing step of [`build`]'s stream: records gathered into batches, each parsed and
/// replayed on all cores, and the results sent on with how far into the inputs they reach
/// (bytes). Ends when the reader is done, or when the writer stops taking results (an error).
fn process_batches(
    rx: &Receiver<Item>,
    done_tx: &SyncSender<(Vec<Processed>, u64)>,
    in_flight: &InFlight,
    batching: &Batching,
) {
    let mut batch: Vec<Item> = Vec::new();
    let mut batch_bytes = 0usize;
    // Bytes of finished inputs, plus how far into the current one its reader is (an
    // archive is one input: without this its progress would jump from 0 to done).
    let mut bytes_done = 0u64;
    let mut bytes_current = 0u64;
    loop {
        // The channel closes when the reader is done and everything it sent was received.
        let item = rx.recv().ok();
        let done = item.is_none();
        match item {
            Some(Item::Record(name, n, rec, games_in)) => {
                batch_bytes += rec.bytes.len();
                bytes_current = rec.consumed;
                batch.push(Item::Record(name, n, rec, games_in));
            }
            Some(Item::SourceDone(name, len, n, err)) => {
                bytes_done += len;
                bytes_current = 0;
                batch.push(Item::SourceDone(name, len, n, err));
            }
            None => {}
        }
        if (done && !batch.is_empty()) || batch_bytes >= batching.limit {
            let taken = std::mem::replace(&mut batch_bytes, 0);
            let bytes = bytes_done + bytes_current;
            let mut send = |results| done_tx.send((results, bytes)).is_ok();
            let went_on = process(
                std::mem::take(&mut batch),
                batching.limit,
                batching.chunk_games,
                (batching.lines, batching.evals),
                &mut send,
            );
            in_flight.done(taken);
            if !went_on {
                break; // the writer stopped on an error
            }
        }
        if done {
            break;
        }
    }
}

/// The writing step of [`build`]'s stream, on the calling thread: each batch's results written
/// in input order (a damaged input's error kept in `damaged`), then `progress` told the games
/// in the index and the bytes read so far.
fn write_results(
    done_rx: Receiver<(Vec<Processed>, u64)>,
    state: &mut Writer<'_>,
    seen: &mut Signatures,
    damaged: &mut Vec<String>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(), IndexError> {
    for (results, bytes_read) in done_rx {
        for r in results {
            if let Some(err) = state.write(r, seen)? {
                damaged.push(err);
            }
        }
        progress(state.manifest.totals.games, bytes_read);
    }
    Ok(())
}

/// What follows the last commit, when the new index is already the one searched: nothing
/// here can lose a game, so a crash part way only leaves work for the next run.
fn tidy_after_commit(dir: &Path, manifest: &Manifest, meta: MetaWriter) -> Result<(), IndexError> {
    // The old parts a rebuild replaced (a crash before this leaves them to the next run).
    clean_leftovers(dir, Some(manifest))?;
    // Merging is off while games come in; merge the metadata segments once, at the end.
    meta.finish()?;
    write_report(dir, manifest)
}

/// The manifest this run starts from, and the metadata folder of the index it replaces (a
/// rebuild's old one, whose alias list it carries over). Apart from the run that uses it, so
/// that deciding between adding to the index, finishing a dead run and starting anew reads in
/// one place: an unreadable index is removed only for a rebuild, the remains of a dead run are
/// cleaned, and an existing index keeps its setting of variation lines.
fn starting_manifest(
    dir: &Path,
    opts: &BuildOptions,
) -> Result<(Manifest, Option<PathBuf>), IndexError> {
    let current = match Manifest::load(dir) {
        Ok(m) => m,
        // An index this qipu cannot read (another format, a damaged manifest) cannot be kept
        // searchable while its replacement is built: a rebuild removes it first.
        Err(IndexError::Version { .. } | IndexError::Corrupt(_)) if opts.rebuild => {
            remove_index(dir)?;
            None
        }
        Err(e) => return Err(e),
    };
    // What no manifest names is the remains of a run that died: an unfinished rebuild's
    // segments and metadata folder, or a segment that was never committed.
    clean_leftovers(dir, current.as_ref())?;
    let previous_meta = current.as_ref().map(|m| dir.join(m.meta_dir()));
    let manifest = match current {
        Some(mut m) if !opts.rebuild => {
            if opts.variations.is_some_and(|v| v != m.variations) {
                return Err(IndexError::Variations {
                    dir: dir.to_path_buf(),
                    has: m.variations,
                });
            }
            // An older format this qipu reads (`OLDEST_READABLE_VERSION`) takes segments of
            // this one: the index is this format from now on, which an older qipu refuses.
            m.version = manifest::FORMAT_VERSION;
            m
        }
        // A rebuild writes under the names of a new generation, beside the index it replaces,
        // which stays whole and searchable until the new manifest replaces the old at the end.
        // It keeps the old index's setting of variation lines unless told otherwise.
        old => Manifest {
            version: manifest::FORMAT_VERSION,
            variations: opts
                .variations
                .unwrap_or(old.as_ref().is_some_and(|m| m.variations)),
            generation: old.map_or(0, |m| m.generation + 1),
            ..Manifest::default()
        },
    };
    Ok((manifest, previous_meta))
}

/// The key of a source in the manifest; `None` for a stream, which is not recorded.
type Key = Option<String>;

/// Decides what to read: compares what was found with what the manifest knows, takes out the
/// games of changed inputs and of inputs deleted from a directory walked again, and notes new
/// inputs. Returns each source to read with its key, how many of its record files are in
/// already and how many games of the next one (a run that died part-way through it).
fn plan(
    manifest: &mut Manifest,
    found: inputs::Discovery,
    summary: &mut BuildSummary,
) -> Vec<(Source, Key, (u64, usize))> {
    let inputs::Discovery {
        sources,
        roots,
        skipped,
        unreadable,
    } = found;
    summary.skipped_files = skipped
        .iter()
        .map(|s| format!("{}: {}", s.path.display(), s.reason))
        .collect();
    summary.unreadable = unreadable.iter().map(|e| e.to_string()).collect();
    // A plain file may be a kifu-line move file read with the index files near it: their
    // identity is part of its own.
    let companions = inputs::Companions::of(&sources);
    // Regular files are fingerprinted (two small reads each), in parallel.
    let fingerprints: Vec<std::io::Result<u64>> = sources
        .par_iter()
        .map(|s| match s.stream {
            true => Ok(0),
            false => inputs::fingerprint(&s.path, s.len).map(|f| companions.identity(s, f)),
        })
        .collect();
    let mut todo = Vec::new();
    let mut found_keys = std::collections::HashSet::new();
    for (source, fingerprint) in sources.into_iter().zip(fingerprints) {
        if source.stream {
            // No stable identity: read every time, never recorded (see the module docs).
            summary.sources_new += 1;
            todo.push((source, None, (0, 0)));
            continue;
        }
        let key = inputs::path_key(&source.canonical);
        found_keys.insert(key.clone());
        let fingerprint = match fingerprint {
            Ok(f) => f,
            Err(e) => {
                summary.unreadable.push(
                    inputs::InputError::Io {
                        path: source.path.clone(),
                        source: e,
                    }
                    .to_string(),
                );
                continue;
            }
        };
        let skip = match manifest.sources.get(&key) {
            Some(info)
                if info.len == source.len
                    && info.modified == source.modified
                    && info.fingerprint == fingerprint =>
            {
                if info.complete {
                    summary.sources_skipped += 1;
                    continue;
                }
                // A run lists every input in the manifest before it reads one, and a commit
                // saves them all: an input it never began holds nothing yet.
                if info.records_done == 0 && info.games_in_record == 0 {
                    summary.sources_new += 1;
                } else {
                    summary.sources_resumed += 1;
                }
                (info.records_done, info.games_in_record as usize)
            }
            known => {
                if known.is_some() {
                    summary.sources_changed += 1;
                    summary.games_removed += manifest.remove_source(&key);
                } else {
                    summary.sources_new += 1;
                }
                manifest.sources.insert(
                    key.clone(),
                    SourceInfo {
                        name: source.name.clone(),
                        root: source.root.as_deref().map(inputs::path_key),
                        len: source.len,
                        modified: source.modified,
                        fingerprint,
                        ..SourceInfo::default()
                    },
                );
                (0, 0)
            }
        };
        todo.push((source, Some(key), skip));
    }
    // Inputs once found in a directory walked now, and no longer there. One that cannot be
    // examined (an unreadable folder on its way) is kept: only a file that is gone is removed.
    let roots: std::collections::HashSet<String> =
        roots.iter().map(|r| inputs::path_key(r)).collect();
    let gone: Vec<String> = manifest
        .sources
        .iter()
        .filter(|(key, info)| {
            info.root.as_ref().is_some_and(|r| roots.contains(r))
                && !found_keys.contains(*key)
                && inputs::path_of_key(key).is_some_and(|p| {
                    matches!(std::fs::symlink_metadata(p), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
                })
        })
        .map(|(key, _)| key.clone())
        .collect();
    for key in gone {
        summary.sources_removed += 1;
        summary.games_removed += manifest.remove_source(&key);
    }
    todo
}

/// What the reader thread sends.
enum Item {
    /// A record file: its source's key, its number in the source (from 1), the record, and how
    /// many of its games are in the index already (a run that died inside it).
    Record(Key, u64, Record, usize),
    /// A source is fully read: key, size, record files in it, error that ended it early (with
    /// the source's name).
    SourceDone(Key, u64, u64, Option<(String, String)>),
}

/// A record file, parsed and analysed, or the end of a source.
enum Processed {
    /// The games `first..first + games.len()` of a record file (all of them, or one chunk).
    File {
        source: Key,
        record_no: u64,
        name: String,
        first: usize,
        games: Vec<Result<Analysed, Rejection>>,
        /// The file's last games are in this chunk.
        last: bool,
        file_problem: Option<Rejection>,
        /// What a file that holds games says of itself, for the report ([`file_notes`]).
        file_notes: Vec<Rejection>,
    },
    SourceDone(Key, u64, u64, Option<(String, String)>),
}

/// Record bytes the reader may hold ahead of the processor, at least: a few monthly
/// collections, a few batches of small files.
const IN_FLIGHT_BYTES: usize = 64 << 20;

/// The record bytes read and not yet analysed, bounded. The reader decodes a compressed collection
/// far faster than its games are analysed, so with only the channel's 256 records to stop it, it
/// held a folder's monthly collections in memory all at once (BENCHMARKS.md, Indexing: bytes read
/// ahead bounded). It now waits while the bound is reached (a record larger than the bound passes
/// when less is in flight, and alone fills it); the processor, which frees bytes a batch at a time,
/// never waits for the reader while they are (the bound is at least two batches, and a batch being
/// gathered is less than one), so neither waits on the other.
struct InFlight {
    /// Bytes in flight, and whether the processor has stopped (the reader then never waits).
    state: std::sync::Mutex<(usize, bool)>,
    freed: std::sync::Condvar,
    bound: usize,
}

impl InFlight {
    fn new(bound: usize) -> InFlight {
        InFlight {
            state: std::sync::Mutex::new((0, false)),
            freed: std::sync::Condvar::new(),
            bound,
        }
    }

    /// Waits until fewer than the bound's bytes are in flight (or the processor stopped), then
    /// counts `n` more.
    fn add(&self, n: usize) {
        let Ok(state) = self.state.lock() else {
            return;
        };
        let waited = self
            .freed
            .wait_while(state, |(bytes, stopped)| *bytes >= self.bound && !*stopped);
        if let Ok(mut state) = waited {
            state.0 += n;
        }
    }

    /// `n` bytes analysed.
    fn done(&self, n: usize) {
        if let Ok(mut state) = self.state.lock() {
            state.0 = state.0.saturating_sub(n);
        }
        self.freed.notify_all();
    }

    /// A guard that marks the processor stopped when dropped (at its end or on a panic).
    fn closer(&self) -> impl Drop + '_ {
        struct Closer<'a>(&'a InFlight);
        impl Drop for Closer<'_> {
            fn drop(&mut self) {
                if let Ok(mut state) = self.0.state.lock() {
                    state.1 = true;
                }
                self.0.freed.notify_all();
            }
        }
        Closer(self)
    }
}

/// Parses and analyses a batch on all cores and hands the results to `send`, in order (`send`
/// says whether to go on). Record files of at least `big` bytes are done alone, `chunk_games`
/// games at a time, each chunk sent as soon as it is done: the games in flight are bounded by
/// configuration, not by the file. Returns false if `send` said to stop.
fn process(
    batch: Vec<Item>,
    big: usize,
    chunk_games: usize,
    lines: Reading,
    send: &mut dyn FnMut(Vec<Processed>) -> bool,
) -> bool {
    let mut small: Vec<Item> = Vec::new();
    for item in batch {
        match item {
            Item::Record(key, record_no, rec, games_in) if rec.bytes.len() >= big => {
                if !small.is_empty() && !send(process_small(std::mem::take(&mut small), lines)) {
                    return false;
                }
                let records = Records::read(&rec.bytes);
                let problem = file_problem(&records, &rec.name);
                let total = records.len();
                let mut first = games_in.min(total);
                // Said with the file's first chunk, not again by a run that resumes it.
                let mut notes = match first {
                    0 => file_notes(&records, &rec.name),
                    _ => Vec::new(),
                };
                let mut changed = false;
                loop {
                    let end = (first + chunk_games).min(total);
                    let mut games = match changed {
                        true => Vec::new(),
                        false => analyse_games(&records, &rec.name, first..end, lines),
                    };
                    // Asked once the chunk's bytes were read: a change before then is seen.
                    changed = changed || rec.changed_while_read();
                    if changed {
                        games = changed_while_read(&rec.name, first..end);
                    } else if end == total && rec.bytes.cut_while_read() {
                        games.push(Err(cut_while_read(&rec.name)));
                    }
                    let chunk = Processed::File {
                        source: key.clone(),
                        record_no,
                        name: rec.name.clone(),
                        first,
                        games,
                        last: end == total,
                        file_problem: if first == 0 { problem.clone() } else { None },
                        // The first chunk takes them; the others find none left.
                        file_notes: std::mem::take(&mut notes),
                    };
                    if !send(vec![chunk]) {
                        return false;
                    }
                    if end == total {
                        break;
                    }
                    first = end;
                }
            }
            item => small.push(item),
        }
    }
    small.is_empty() || send(process_small(small, lines))
}

/// Parses and analyses small record files, all at once on all cores.
fn process_small(batch: Vec<Item>, lines: Reading) -> Vec<Processed> {
    batch
        .into_par_iter()
        .map(|item| match item {
            Item::SourceDone(a, b, c, d) => Processed::SourceDone(a, b, c, d),
            Item::Record(source, record_no, rec, games_in) => {
                let records = Records::read(&rec.bytes);
                let first = games_in.min(records.len());
                let mut games = analyse_games(&records, &rec.name, first..records.len(), lines);
                if rec.changed_while_read() {
                    games = changed_while_read(&rec.name, first..records.len());
                } else if rec.bytes.cut_while_read() {
                    games.push(Err(cut_while_read(&rec.name)));
                }
                Processed::File {
                    source,
                    record_no,
                    file_problem: match rec.unread {
                        Some(reason) => Some(Rejection {
                            file: rec.name.clone(),
                            game: None,
                            offset: 0,
                            reason: format!("not read: {reason}"),
                        }),
                        None if first == 0 => file_problem(&records, &rec.name),
                        None => None,
                    },
                    file_notes: match first {
                        0 => file_notes(&records, &rec.name),
                        _ => Vec::new(),
                    },
                    games,
                    first,
                    last: true,
                    name: rec.name,
                }
            }
        })
        .collect()
}

/// The games of a record file that another program changed while it was read (overwrote in
/// place?), each refused: its bytes may be torn between the old file and the new, and a torn
/// game parses as a short or wrong one. The next run sees the file's new identity and reads it
/// again.
fn changed_while_read(
    name: &str,
    games: std::ops::Range<usize>,
) -> Vec<Result<Analysed, Rejection>> {
    games
        .map(|i| {
            Err(Rejection {
                file: name.to_string(),
                game: Some(i),
                offset: 0,
                reason: "the file changed while it was read (rewritten by another program?): \
                         this game may be torn between its old and new bytes and is not \
                         indexed; index the file again"
                    .to_string(),
            })
        })
        .collect()
}

/// A record file cut short by another program while it was mapped and read: its games past the
/// cut read as zeros (and are rejected or missing); the next run sees its new size and reads it
/// again.
fn cut_while_read(name: &str) -> Rejection {
    Rejection {
        file: name.to_string(),
        game: None,
        offset: 0,
        reason: "the file was cut short while it was read (by another program?): its games \
                 past the cut are not indexed; index it again"
            .to_string(),
    }
}

/// At most this many of a file's own problems are listed in the report; a count says how many
/// more there were.
const FILE_NOTES_LISTED: usize = 100;

/// What a record file that holds games says of itself, for the report: the problems of the file
/// rather than of one game (a kifu-line move file read without its index, a line of a server
/// format skipped), which would otherwise be seen only by `qipu info`.
fn file_notes(records: &Records<'_>, name: &str) -> Vec<Rejection> {
    if records.is_empty() {
        return Vec::new();
    }
    let all = records.diagnostics();
    let mut notes: Vec<Rejection> = all
        .iter()
        .take(FILE_NOTES_LISTED)
        .map(|d| Rejection {
            file: name.to_string(),
            game: None,
            offset: d.offset,
            reason: d.problem.to_string(),
        })
        .collect();
    if all.len() > FILE_NOTES_LISTED {
        notes.push(Rejection {
            file: name.to_string(),
            game: None,
            offset: 0,
            reason: format!(
                "{} more problems of this file are not listed (qipu info lists them all)",
                all.len() - FILE_NOTES_LISTED
            ),
        });
    }
    notes
}

/// Why a record file has no game, if it has none.
fn file_problem(records: &Records<'_>, name: &str) -> Option<Rejection> {
    records.is_empty().then(|| Rejection {
        file: name.to_string(),
        game: None,
        offset: records.diagnostics().first().map_or(0, |d| d.offset),
        reason: records
            .diagnostics()
            .first()
            .map_or("no game found".to_string(), |d| d.problem.to_string()),
    })
}

/// What is read of each game beyond its main line: its variation lines within these bounds, and
/// its evaluations with this reader.
type Reading = (Option<Limits>, Option<crate::evals::EvalReader>);

/// Parses and analyses the games `range` of a record file, on all cores.
fn analyse_games(
    records: &Records<'_>,
    name: &str,
    range: std::ops::Range<usize>,
    (lines, evals): Reading,
) -> Vec<Result<Analysed, Rejection>> {
    range
        .into_par_iter()
        .map(|i| match records.game(i) {
            Ok(tree) => {
                let span = tree.span();
                let mut a =
                    analyse_with_lines(&tree, &records.bytes()[span.start..span.end], lines);
                a.evals = evals.and_then(|read| read(&tree));
                Ok(a)
            }
            Err(d) => Err(Rejection {
                file: name.to_string(),
                game: Some(i),
                offset: d.offset,
                reason: d.problem.to_string(),
            }),
        })
        .collect()
}

/// Signatures of the games already in the index, to find copies.
struct Signatures {
    exact: ahash::AHashMap<u64, u32>,
    canonical: ahash::AHashMap<u64, u32>,
}

impl Signatures {
    fn load(dir: &Path, manifest: &Manifest) -> Result<Signatures, IndexError> {
        let mut s = Signatures {
            exact: ahash::AHashMap::new(),
            canonical: ahash::AHashMap::new(),
        };
        // A removed game is not "seen": its file's new content is stored anew, not linked to
        // a hidden game. Copies are skipped too, so that an exact signature always names a
        // game that stores its moves (a removed original's copies would be next in line).
        let removed = manifest.removed_bitmap();
        let is_removed = |g: u32| removed[g as usize / 64] >> (g % 64) & 1 != 0;
        for seg in &manifest.segments {
            let segment = Segment::open(&dir.join(&seg.dir), seg)?;
            for i in 0..segment.len() {
                let id = seg.first_game + i;
                let rec = segment.game(i);
                // Variation lines are not games: they have no signatures.
                if is_removed(id) || rec.is_variation() {
                    continue;
                }
                let (e, c) = segment.signatures(i);
                if !rec.is_copy() {
                    s.exact.entry(e).or_insert(id);
                }
                s.canonical.entry(c).or_insert(id);
            }
        }
        Ok(s)
    }
}

struct Writer<'a> {
    dir: &'a Path,
    manifest: &'a mut Manifest,
    meta: &'a mut MetaWriter,
    segment: Option<(String, SegmentWriter)>,
    /// The last finished segment's vectors, for the next one.
    spare: Option<Spare>,
    /// The games the first segment asks room for ([`Spare::with_room`]), when it opens: a run
    /// with nothing to write asks for none.
    room: usize,
    /// The open segment's file-table entry of the record file being written, and that file's
    /// name.
    file: Option<(u32, String)>,
    opts: &'a BuildOptions,
    /// Whether a commit replaces the manifest. A rebuild commits its segments and metadata as
    /// it goes (bounding its memory) but replaces the manifest only once, at the end: until
    /// then searches see the old index, and a crash leaves it whole (the next run removes the
    /// unfinished parts; a killed rebuild starts over).
    publish: bool,
}

impl Writer<'_> {
    /// Writes one processed item; returns a read error to report, if the item carried one.
    fn write(&mut self, p: Processed, seen: &mut Signatures) -> Result<Option<String>, IndexError> {
        match p {
            Processed::SourceDone(key, _len, records, err) => {
                if let Some(info) = key.and_then(|k| self.manifest.sources.get_mut(&k)) {
                    info.records_done = info.records_done.max(records);
                    info.complete = err.is_none();
                }
                if let Some((name, e)) = &err {
                    self.reject(&Rejection {
                        file: name.clone(),
                        game: None,
                        offset: 0,
                        reason: e.clone(),
                    })?;
                }
                Ok(err.map(|(_, e)| e))
            }
            Processed::File {
                source,
                record_no,
                name,
                first,
                games,
                last,
                file_problem,
                file_notes,
            } => {
                // How far the source is, should a commit come before this chunk: a commit may
                // fall inside a file, and the next run then goes on from the game after it.
                if let Some(info) = source
                    .as_ref()
                    .and_then(|k| self.manifest.sources.get_mut(k))
                {
                    info.games_in_record = first as u64;
                }
                // Table entries name games in 24 bits: a chunk that would overfill the open
                // segment starts a new one.
                // Variation lines take ids too.
                let ids: usize = games
                    .iter()
                    .map(|g| 1 + g.as_ref().map_or(0, |a| a.lines.len()))
                    .sum();
                if self
                    .segment
                    .as_ref()
                    .is_some_and(|s| s.1.len() as usize + ids > MAX_SEGMENT_GAMES as usize)
                {
                    self.commit()?;
                }
                if first == 0 {
                    self.tally(&source, |t| t.files += 1);
                }
                if let Some(r) = file_problem {
                    self.tally(&source, |t| t.files_without_games += 1);
                    self.reject(&r)?;
                }
                for r in &file_notes {
                    self.report(r, false)?;
                }
                // A file's chunks share its entry in the segment's file table; a new segment
                // (after a commit inside the file) gets an entry of its own.
                // The entry is reused only for the same record file: after a resumed run, the
                // first chunk of a file cut by the last commit must not take the entry of the
                // file written just before it.
                let file_id = match &self.file {
                    Some((id, of)) if first > 0 && *of == name => *id,
                    _ => self.segment()?.1.add_file(&name)?,
                };
                self.file = Some((file_id, name.clone()));
                let count = games.len();
                for (i, g) in games.into_iter().enumerate() {
                    let i = first + i;
                    // Only a single file of more games than a segment holds (far more than
                    // any real file) can fill one: the rest of it is refused.
                    let lines = g.as_ref().map_or(0, |a| a.lines.len() as u64);
                    let full = u64::from(self.segment()?.1.len()) + 1 + lines
                        > u64::from(MAX_SEGMENT_GAMES);
                    let g = g.and_then(|a| match full {
                        false => Ok(a),
                        true => Err(Rejection {
                            file: name.clone(),
                            game: Some(i),
                            offset: 0,
                            reason: format!("more than {MAX_SEGMENT_GAMES} games in one file"),
                        }),
                    });
                    let mut a = match g {
                        Ok(a) => a,
                        Err(r) => {
                            self.tally(&source, |t| t.rejected += 1);
                            self.reject(&r)?;
                            continue;
                        }
                    };
                    let notes = std::mem::take(&mut a.notes);
                    self.add_game(a, file_id, i as u32, &name, &source, seen)?;
                    self.report_moves(&notes, &name, i)?;
                }
                if let Some(info) = source.and_then(|k| self.manifest.sources.get_mut(&k)) {
                    if last {
                        info.records_done = info.records_done.max(record_no);
                        info.games_in_record = 0;
                    } else {
                        info.games_in_record = (first + count) as u64;
                    }
                }
                if self.segment.as_ref().is_some_and(|s| {
                    s.1.len() >= self.opts.segment_games.min(MAX_SEGMENT_GAMES) || s.1.evals_full()
                }) {
                    self.commit()?;
                }
                Ok(None)
            }
        }
    }

    fn add_game(
        &mut self,
        a: Analysed,
        file: u32,
        game_in_file: u32,
        file_name: &str,
        source: &Key,
        seen: &mut Signatures,
    ) -> Result<(), IndexError> {
        let next_id = self.manifest.games + self.segment.as_ref().map_or(0, |s| s.1.len());
        let mut rec = a.rec;
        rec.file = file;
        rec.game_in_file = game_in_file;
        let copy_of = seen.exact.get(&a.exact_signature).copied();
        let symmetric = seen.canonical.get(&a.canonical_signature).copied();
        if symmetric.is_some() {
            self.tally(source, |t| t.symmetric_duplicates += 1);
            rec.flags |= FLAG_SYMMETRIC_COPY;
        }
        let mut record = a.record;
        let lines = a.lines;
        let lines_left = a.lines_left;
        let facts = crate::encode::facts::of(&a.info);
        // Who played each move, from the program before a copy drops it.
        let evals = a.evals.as_ref().map(|e| {
            crate::evals::GameEvals::new(
                e,
                crate::encode::ops::moves(&a.ops.decode()).map(|(c, _)| c),
            )
        });
        let (ops, positions, corners) = match copy_of {
            Some(original) => {
                self.tally(source, |t| t.duplicates += 1);
                rec.duplicate_of = original;
                // A copy stores no program, so it keeps its whole record.
                if rec.flags & FLAG_SKELETON != 0 {
                    record = crate::encode::skeleton::restore(&record, &a.ops.decode())
                        .ok_or_else(|| IndexError::Corrupt("a skeleton lost its moves".into()))?;
                    rec.flags &= !FLAG_SKELETON;
                }
                (StoredOps::default(), Vec::new(), Vec::new())
            }
            None => {
                seen.exact.insert(a.exact_signature, next_id);
                (a.ops, a.positions, a.corners)
            }
        };
        seen.canonical
            .entry(a.canonical_signature)
            .or_insert(next_id);
        self.meta
            .add(next_id, &a.info, rec.moves, copy_of, file_name)?;
        self.segment()?.1.add_game(GameData {
            rec,
            ops,
            occupancy: a.occupancy,
            positions,
            corners,
            vacated: if copy_of.is_some() { None } else { a.vacated },
            record,
            signatures: (a.exact_signature, a.canonical_signature),
            facts,
            variation: None,
            evals,
        })?;
        self.tally(source, |t| t.games += 1);
        if let Some(info) = source
            .as_ref()
            .and_then(|k| self.manifest.sources.get_mut(k))
        {
            info.add_game(next_id);
        }
        self.add_lines(next_id, lines, facts, file, game_in_file, source)?;
        if lines_left > 0 {
            self.tally(source, |t| t.variation_lines_left += lines_left);
            let limits = self.opts.line_limits;
            self.reject(&Rejection {
                file: file_name.to_string(),
                game: Some(game_in_file as usize),
                offset: 0,
                reason: format!(
                    "variation lines: {lines_left} left out (at most {} lines and {} nodes over \
                     all lines are indexed per record)",
                    limits.lines, limits.nodes
                ),
            })?;
        }
        Ok(())
    }

    /// Stores game `game`'s variation lines right after it (see [`crate::encode::variations`]): no
    /// metadata document, no record, no signatures; the game's facts, file and place, and
    /// the same source (so that they leave with it).
    fn add_lines(
        &mut self,
        game: u32,
        lines: Vec<crate::encode::game::AnalysedLine>,
        facts: crate::Facts,
        file: u32,
        game_in_file: u32,
        source: &Key,
    ) -> Result<(), IndexError> {
        for line in lines {
            let mut rec = line.rec;
            rec.file = file;
            rec.game_in_file = game_in_file;
            let id = self.segment()?.1.add_game(GameData {
                rec,
                ops: line.ops,
                occupancy: line.occupancy,
                positions: line.positions,
                corners: line.corners,
                vacated: line.vacated,
                record: Vec::new(),
                signatures: (0, 0),
                facts,
                variation: Some(Variation {
                    game,
                    from: line.from,
                    path: line.path,
                }),
                evals: None,
            })?;
            self.tally(source, |t| t.variation_lines += 1);
            if let Some(info) = source
                .as_ref()
                .and_then(|k| self.manifest.sources.get_mut(k))
            {
                info.add_game(id);
            }
        }
        Ok(())
    }

    /// Counts something in the totals and in the source's own.
    fn tally(&mut self, source: &Key, count: impl Fn(&mut Totals)) {
        count(&mut self.manifest.totals);
        if let Some(info) = source
            .as_ref()
            .and_then(|k| self.manifest.sources.get_mut(k))
        {
            count(&mut info.totals);
        }
    }

    /// Lists in the report what of a kept game's moves cannot be played as written (its
    /// replay's notes, [`crate::encode::game::Analysed::notes`]), as `qipu info` and `qipu show` say
    /// them: at most [`FILE_NOTES_LISTED`], then how many more.
    fn report_moves(
        &mut self,
        notes: &[goban::Note],
        file: &str,
        game: usize,
    ) -> Result<(), IndexError> {
        let line = |offset, reason| Rejection {
            file: file.to_string(),
            game: Some(game),
            offset,
            reason,
        };
        for n in notes.iter().take(FILE_NOTES_LISTED) {
            self.report(&line(n.offset, n.to_string()), false)?;
        }
        if notes.len() > FILE_NOTES_LISTED {
            let more = notes.len() - FILE_NOTES_LISTED;
            let reason = format!(
                "{more} more moves that cannot be played as written are not listed (qipu show \
                 says each)"
            );
            self.report(&line(0, reason), false)?;
        }
        Ok(())
    }

    /// Records a rejection in the open segment, so that it is committed (or lost) with it.
    fn reject(&mut self, r: &Rejection) -> Result<(), IndexError> {
        self.report(r, true)
    }

    /// Writes a line of the report: a file or game left out (`rejected`), or what a file whose
    /// games were indexed says of itself.
    fn report(&mut self, r: &Rejection, rejected: bool) -> Result<(), IndexError> {
        #[derive(Serialize)]
        struct Line<'a> {
            #[serde(flatten)]
            r: &'a Rejection,
            rejected: bool,
        }
        let line = serde_json::to_string(&Line { r, rejected }).unwrap_or_default();
        self.segment()?.1.add_rejection(&line)
    }

    fn segment(&mut self) -> Result<&mut (String, SegmentWriter), IndexError> {
        if self.segment.is_none() {
            let name = self.manifest.segment_dir(self.manifest.segments.len() + 1);
            let w = SegmentWriter::create_with(
                &self.dir.join(&name),
                self.manifest.games,
                self.opts.aggregate_min,
                self.spare
                    .take()
                    .unwrap_or_else(|| Spare::with_room(self.room)),
            )?;
            self.segment = Some((name, w));
        }
        Ok(self.segment.as_mut().expect("just made"))
    }

    /// Closes the open segment and commits the metadata, side by side (each takes about half a
    /// second per 250,000 games, mostly on one core), then commits the manifest.
    fn commit(&mut self) -> Result<(), IndexError> {
        self.file = None;
        let meta = &mut *self.meta;
        let (finished, committed) = match self.segment.take() {
            Some((name, seg)) => std::thread::scope(|scope| {
                let (games, board) = (seg.len(), seg.board());
                let finishing = scope.spawn(move || {
                    seg.finish_keeping()
                        .map(|(files, spare)| (name, games, board, files, spare))
                });
                let committed = meta.commit();
                let finished = finishing.join().unwrap_or_else(|_| {
                    Err(IndexError::Corrupt("closing a segment panicked".into()))
                });
                (Some(finished), committed)
            }),
            None => (None, meta.commit()),
        };
        if let Some(finished) = finished {
            let (name, games, board, files, spare) = finished?;
            self.spare = Some(spare);
            self.manifest.segments.push(SegmentInfo {
                dir: name,
                first_game: self.manifest.games,
                games,
                files,
                board,
            });
            self.manifest.games += games;
        }
        committed?;
        if !self.publish {
            return Ok(());
        }
        self.manifest.save(self.dir)
    }
}

/// Gathers the rejections of every committed segment into one report file.
fn write_report(dir: &Path, manifest: &Manifest) -> Result<(), IndexError> {
    let mut all = Vec::new();
    for seg in &manifest.segments {
        match std::fs::read(dir.join(&seg.dir).join(REPORT)) {
            Ok(b) => all.extend(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(IndexError::io(&dir.join(&seg.dir), e)),
        }
    }
    let p = dir.join(REPORT);
    std::fs::write(&p, all).map_err(|e| IndexError::io(&p, e))
}

/// Removes what qipu wrote in `dir` (and nothing else).
fn remove_index(dir: &Path) -> Result<(), IndexError> {
    for entry in std::fs::read_dir(dir)
        .map_err(|e| IndexError::io(dir, e))?
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let p = entry.path();
        let ours = layout::is_segment_dir(&name)
            || layout::is_meta_dir(&name)
            || name.starts_with(layout::MANIFEST)
            || name.starts_with(layout::SOURCES)
            || name == REPORT;
        if !ours {
            continue;
        }
        let res = if p.is_dir() {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
        res.map_err(|e| IndexError::io(&p, e))?;
    }
    Ok(())
}

/// Removes segment and metadata folders that `manifest` (the one on disk, if any) does not
/// name: the remains of a run that died, or the parts a rebuild replaced. With no manifest, the
/// first generation's metadata folder stays (its games past the manifest are dropped by
/// [`MetaWriter::truncate`]).
fn clean_leftovers(dir: &Path, manifest: Option<&Manifest>) -> Result<(), IndexError> {
    let meta_dir = manifest.map_or_else(|| Manifest::default().meta_dir(), Manifest::meta_dir);
    for entry in std::fs::read_dir(dir)
        .map_err(|e| IndexError::io(dir, e))?
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let segment = layout::is_segment_dir(&name)
            && !manifest.is_some_and(|m| m.segments.iter().any(|s| s.dir == name));
        let meta = layout::is_meta_dir(&name) && name != meta_dir;
        if (segment || meta) && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let p = entry.path();
            std::fs::remove_dir_all(&p).map_err(|e| IndexError::io(&p, e))?;
        }
    }
    Ok(())
}

/// Bytes on disk under `dir`.
pub fn dir_size(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                Ok(m) => total += m.len(),
                Err(_) => {}
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::InFlight;
    use std::sync::mpsc::{channel, RecvTimeoutError};
    use std::time::Duration;

    /// Adds a byte on another thread, as the reader does, checks that it waits, then calls
    /// `release` and checks that it goes on.
    fn waits_until(in_flight: &InFlight, release: impl FnOnce()) {
        std::thread::scope(|scope| {
            let (tx, rx) = channel();
            scope.spawn(move || {
                in_flight.add(1);
                tx.send(()).unwrap();
            });
            // A reader that did not wait would be through at once.
            assert_eq!(
                rx.recv_timeout(Duration::from_millis(200)),
                Err(RecvTimeoutError::Timeout)
            );
            release();
            rx.recv().unwrap();
        });
    }

    /// The reader passes below the bound, waits at it until the processor frees bytes, and
    /// never waits once the processor has stopped.
    #[test]
    fn the_reader_waits_at_the_bound_until_bytes_are_freed_or_the_processor_stops() {
        let in_flight = &InFlight::new(10);
        // Below the bound, whatever the size: a record larger than the bound passes alone.
        in_flight.add(6);
        in_flight.add(30);
        // At the bound; 6 < 10 once 30 are freed.
        waits_until(in_flight, || in_flight.done(30));
        assert_eq!(in_flight.state.lock().unwrap().0, 7);

        in_flight.add(5);
        // The processor stops without freeing anything: the reader goes on.
        let closer = in_flight.closer();
        waits_until(in_flight, || drop(closer));
        // And never waits again.
        in_flight.add(100);
    }
}
