//! What the manifest records of each input read ([`SourceInfo`]) and the counts kept across
//! runs ([`Totals`]): apart from the manifest itself, so that the table of sources
//! (`super::sources`) reads them without depending on the file that writes it.

use serde::{Deserialize, Serialize};

/// One input file as it was when read: enough to tell whether it changed, to find it again, and
/// to take its games out.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SourceInfo {
    /// Its name in game identity (what hits print as their file, or its prefix for archives).
    pub name: String,
    /// The INPUT directory it was found in ([`inputs::path_key`]); `None`: given directly.
    pub root: Option<String>,
    /// Size of the input file when it was read.
    pub len: u64,
    /// Its modification time then, in nanoseconds since the epoch.
    pub modified: Option<u64>,
    /// [`inputs::fingerprint`] of its content then.
    pub fingerprint: u64,
    /// Record files of the source already in the index (all of them once `complete`).
    pub records_done: u64,
    /// Games of the record file after those already in the index: a commit can fall inside a
    /// large record file, read in chunks.
    #[serde(default)]
    pub games_in_record: u64,
    pub complete: bool,
    /// Ids of its games, as sorted ranges `[first, end)`.
    pub games: Vec<[u32; 2]>,
    /// What it added to the totals.
    pub totals: Totals,
}

impl SourceInfo {
    /// Notes game `id` as one of this source's (ids come in increasing order).
    pub fn add_game(&mut self, id: u32) {
        match self.games.last_mut() {
            Some(last) if last[1] == id => last[1] += 1,
            _ => self.games.push([id, id + 1]),
        }
    }
}

/// Counts kept up to date across runs, for `qipu stats`; what a build added is the same counts
/// ([`crate::BuildSummary::added`]), so one type serves both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Record files read.
    pub files: u64,
    /// Games indexed.
    pub games: u64,
    /// Exact copies of an earlier game (stored once).
    pub duplicates: u64,
    /// Copies of an earlier game up to rotation and reflection, exact copies included.
    pub symmetric_duplicates: u64,
    /// Games that could not be read (listed in the report, [`crate::BuildSummary::report`]).
    pub rejected: u64,
    /// Files in which no game was found.
    pub files_without_games: u64,
    /// Variation lines indexed (not games: `games` does not count them).
    #[serde(default)]
    pub variation_lines: u64,
    /// Variation lines left out by the bounds on lines per record.
    #[serde(default)]
    pub variation_lines_left: u64,
}

impl Totals {
    /// These totals less `other` (never below zero).
    pub fn minus(&self, other: &Totals) -> Totals {
        Totals {
            files: self.files.saturating_sub(other.files),
            games: self.games.saturating_sub(other.games),
            duplicates: self.duplicates.saturating_sub(other.duplicates),
            symmetric_duplicates: self
                .symmetric_duplicates
                .saturating_sub(other.symmetric_duplicates),
            rejected: self.rejected.saturating_sub(other.rejected),
            files_without_games: self
                .files_without_games
                .saturating_sub(other.files_without_games),
            variation_lines: self.variation_lines.saturating_sub(other.variation_lines),
            variation_lines_left: self
                .variation_lines_left
                .saturating_sub(other.variation_lines_left),
        }
    }

    /// What was added since `before`.
    pub fn since(&self, before: &Totals) -> Totals {
        Totals {
            files: self.files - before.files,
            games: self.games - before.games,
            duplicates: self.duplicates - before.duplicates,
            symmetric_duplicates: self.symmetric_duplicates - before.symmetric_duplicates,
            rejected: self.rejected - before.rejected,
            files_without_games: self.files_without_games - before.files_without_games,
            variation_lines: self.variation_lines - before.variation_lines,
            variation_lines_left: self.variation_lines_left - before.variation_lines_left,
        }
    }
}
