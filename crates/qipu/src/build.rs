//! Building an index, or adding to one, from record files, folders and archives. Progress and
//! everything that was not read go back to the caller; nothing is printed.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::Error;

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Start over instead of adding to the existing index. The new index is written beside the
    /// old one, which stays searchable until the new one replaces it.
    pub rebuild: bool,
    /// Games per segment: bounds the memory of a run (about 1 KB per game) and what a crash can
    /// lose.
    pub segment_games: u32,
    /// A player alias file (one player a line, the names tab-separated, `#` comments) to record
    /// with the index, read and checked before anything is indexed; searches on a player's name
    /// then find all of that player's names. `None` keeps the index's list (a new index gets
    /// the built-in one, `data/aliases.tsv`); an empty file turns aliases off.
    pub aliases: Option<PathBuf>,
    /// Whether to index every variation line of each record as a line of its own, searchable
    /// like a game and marked as a variation of it ([`crate::Variation`]). `None` keeps the
    /// index's setting (a new index: no); a new index or a rebuild takes `Some`; an existing
    /// index refuses a setting other than its own ([`crate::ErrorKind::BadInput`]), since it
    /// would then hold lines for some records only. At most 200,000 lines and 2,000,000 nodes
    /// over all lines are taken per record; what is left is counted
    /// ([`Totals::variation_lines_left`]) and each such record named in the report.
    pub variations: Option<bool>,
    /// Positions reached by at least this many table entries of a segment get pre-aggregated
    /// continuations; tests set it low to exercise them on small corpora.
    #[doc(hidden)]
    pub aggregate_min: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        let d = index::BuildOptions::default();
        BuildOptions {
            rebuild: d.rebuild,
            segment_games: d.segment_games,
            aliases: None,
            variations: None,
            aggregate_min: d.aggregate_min,
        }
    }
}

/// How far a build is, handed to the progress callback as it goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Games read so far.
    pub games: u64,
    /// Input bytes read so far.
    pub bytes_read: u64,
    /// Input bytes in all (grows while folders are still being walked).
    pub bytes_total: u64,
}

/// Counts of what a build added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Record files read.
    pub files: u64,
    /// Games indexed.
    pub games: u64,
    /// Exact copies of an earlier game (stored once).
    pub duplicates: u64,
    /// Copies of an earlier game up to rotation and reflection, exact copies included.
    pub symmetric_duplicates: u64,
    /// Games that could not be read (listed in [`BuildSummary::report`]).
    pub rejected: u64,
    /// Files in which no game was found.
    pub files_without_games: u64,
    /// Variation lines indexed ([`BuildOptions::variations`]; not games).
    pub variation_lines: u64,
    /// Variation lines left out by the bounds per record.
    pub variation_lines_left: u64,
}

/// What a build did: the caller's to show, log or act on.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BuildSummary {
    /// Input files found (each once).
    pub sources: usize,
    /// Of those, already in the index and unchanged.
    pub sources_skipped: usize,
    /// Of those, not in the index before.
    pub sources_new: usize,
    /// Of those, changed since they were read: their old games removed, read again.
    pub sources_changed: usize,
    /// Of those, begun by a build that did not finish (killed): read on from where it stopped.
    pub sources_resumed: usize,
    /// Inputs in the index gone from a folder walked again: their games removed.
    pub sources_removed: usize,
    /// Games hidden because their input changed or was deleted.
    pub games_removed: u64,
    /// Files and folders that could not be read, each as `path: OS error`; the build went on
    /// without them, so the index is not complete.
    pub unreadable: Vec<String>,
    /// Files found in folders and not opened, each as `path: reason` (FIFOs, devices, files
    /// packed in a form that is not read: `x.sgf.gz`, `x.tar.xz`).
    pub skipped_files: Vec<String>,
    /// Inputs read only in part, each with what stopped it (a truncated or corrupt archive or
    /// compressed file, an I/O error part way); the games before the damage were indexed. Each
    /// is also in [`BuildSummary::report`].
    pub damaged: Vec<String>,
    /// What this build added.
    pub added: Totals,
    /// Input bytes read.
    pub bytes_read: u64,
    /// Wall time of the build.
    pub seconds: f64,
    /// Bytes of the index folder after it.
    pub index_bytes: u64,
    /// Whether the alias list given replaced another one the index had (searches use the new
    /// one from now on; no rebuild is needed).
    pub aliases_replaced: bool,
    /// The machine-readable list (JSON Lines) of rejected files and games, with reasons
    /// (`"rejected": true`), and of what files whose games were read say of themselves
    /// (`"rejected": false`: a kifu-line move file read without its index, a skipped line).
    pub report: PathBuf,
}

/// Builds the index in `dir` from `inputs` (record files, folders searched recursively,
/// archives: `.zip`, `.tar`, `.tar.gz`, `.tar.zst`, `.sgf.zst`), or adds to it: inputs already
/// indexed and unchanged are skipped, changed ones read again. `progress` is called as the build
/// goes. One writer at a time: a second is [`crate::ErrorKind::Busy`]. A run killed at any
/// moment leaves the index as it was committed; the next run finishes the work.
///
/// The parsing runs on rayon's global pool, beside two threads of the build's own.
pub fn build(
    dir: impl AsRef<Path>,
    inputs: &[PathBuf],
    options: &BuildOptions,
    mut progress: impl FnMut(Progress),
) -> Result<BuildSummary, Error> {
    let dir = dir.as_ref();
    let aliases =
        match &options.aliases {
            Some(path) => Some(meta::Aliases::read(path).map_err(|e| {
                Error::bad_input(index::IndexError::Meta(meta::MetaError::Aliases(e)))
            })?),
            None => None,
        };
    let opts = index::BuildOptions {
        rebuild: options.rebuild,
        segment_games: options.segment_games,
        aliases,
        variations: options.variations,
        aggregate_min: options.aggregate_min,
        ..index::BuildOptions::default()
    };
    let s = index::build(dir, inputs, &opts, |p| {
        progress(Progress {
            games: p.games,
            bytes_read: p.bytes_read,
            bytes_total: p.bytes_total,
        })
    })?;
    let a = &s.added;
    Ok(BuildSummary {
        sources: s.sources,
        sources_skipped: s.sources_skipped,
        sources_new: s.sources_new,
        sources_changed: s.sources_changed,
        sources_resumed: s.sources_resumed,
        sources_removed: s.sources_removed,
        games_removed: s.games_removed,
        unreadable: s.unreadable,
        skipped_files: s.skipped_files,
        damaged: s.damaged,
        added: Totals {
            files: a.files,
            games: a.games,
            duplicates: a.duplicates,
            symmetric_duplicates: a.symmetric_duplicates,
            rejected: a.rejected,
            files_without_games: a.files_without_games,
            variation_lines: a.variation_lines,
            variation_lines_left: a.variation_lines_left,
        },
        bytes_read: s.bytes_read,
        seconds: s.seconds,
        index_bytes: s.index_bytes,
        report: dir.join(index::build::REPORT),
        aliases_replaced: s.aliases == meta::AliasUpdate::Changed,
    })
}
