//! The manifest: which segments make up the index and which inputs are already in it.
//!
//! It is the index's single point of truth and is only ever replaced whole (write a temporary
//! file, sync it, rename it over the old one), so a reader or a crashed writer sees either the
//! previous state or the next one, never a mix.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::IndexError;

pub const MANIFEST: &str = "qipu-index.json";

/// The layout of the index files this build reads and writes. Version 2 stores the stones each
/// move removes in the replay programs; version 3 stores occupancy by point; version 4 keeps
/// positions of at most 20 stones in the position table (40 before); version 5 indexes the months
/// of each game's date; version 6 packs replay programs of boards up to 19×19 in 12 bits per op;
/// version 7 stores records without their main-line coordinates (see `skeleton`); version 8
/// groups the position table by hash, with 6-byte entries; version 9 lists each segment's copies
/// and long games in files of their own; version 10 keeps the winners in a file of their own;
/// version 11 ends the occupancy columns with how many games each holds; version 12 indexes
/// repeating values (names, events, results, …) as exact terms beside a dictionary of their
/// tokens (see `meta/values.rs`); version 13 signs a game up to symmetry by the least image of
/// its main line (copies found by an older build would not match); version 14 records each
/// segment file's length and checksum, and a generation naming the metadata folder and the
/// segments of the current build (a rebuild writes beside the old index, see [`Manifest::meta_dir`]).
pub const FORMAT_VERSION: u32 = 14;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    /// Which build this is: 0 for the first, one more for each `--rebuild`. A rebuild writes its
    /// metadata folder and segments under names of its own generation, beside the old index,
    /// which stays whole and searchable until the new manifest replaces the old one.
    pub generation: u32,
    /// Games in all segments (ids are 0..games).
    pub games: u32,
    pub segments: Vec<SegmentInfo>,
    /// Inputs read so far, by name.
    pub sources: BTreeMap<String, SourceInfo>,
    pub totals: Totals,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SegmentInfo {
    pub dir: String,
    pub first_game: u32,
    pub games: u32,
    /// Every file of the segment as it was closed: opening an index compares the lengths (a
    /// truncated file would otherwise answer with fewer games), `qipu verify` the checksums.
    pub files: Vec<FileSum>,
}

/// The length and checksum of one file, taken as it was written.
///
/// The checksum is CRC-32 (`crc32fast`): tantivy already builds that crate for its own file
/// footers, so it costs no build time, it runs at several GB/s with the processor's carry-less
/// multiply, and it is computed while the file is written (no second pass). It is there to find
/// damage from disks, copies and stray writes, not from an adversary; 32 bits miss one damaged
/// file in four billion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSum {
    pub name: String,
    pub len: u64,
    pub crc32: u32,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SourceInfo {
    /// Size of the input file when it was read.
    pub len: u64,
    /// Record files of the source already in the index (all of them once `complete`).
    pub records_done: u64,
    pub complete: bool,
}

/// Counts kept up to date across runs, for `qipu stats`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Totals {
    pub files: u64,
    pub games: u64,
    /// Exact copies of an earlier game (stored once).
    pub duplicates: u64,
    /// Copies of an earlier game up to rotation/reflection, exact copies included.
    pub symmetric_duplicates: u64,
    pub rejected: u64,
    pub files_without_games: u64,
}

impl Totals {
    /// What was added since `before`.
    pub fn since(&self, before: &Totals) -> Totals {
        Totals {
            files: self.files - before.files,
            games: self.games - before.games,
            duplicates: self.duplicates - before.duplicates,
            symmetric_duplicates: self.symmetric_duplicates - before.symmetric_duplicates,
            rejected: self.rejected - before.rejected,
            files_without_games: self.files_without_games - before.files_without_games,
        }
    }
}

impl Manifest {
    /// The metadata folder of this generation (`meta` for the first build).
    pub fn meta_dir(&self) -> String {
        match self.generation {
            0 => "meta".to_string(),
            g => format!("meta-{g}"),
        }
    }

    /// The folder of this generation's `n`-th segment (`seg-000001` … for the first build).
    pub fn segment_dir(&self, n: usize) -> String {
        match self.generation {
            0 => format!("seg-{n:06}"),
            g => format!("seg-{g}-{n:06}"),
        }
    }

    pub fn load(dir: &Path) -> Result<Option<Manifest>, IndexError> {
        let p = dir.join(MANIFEST);
        match std::fs::read(&p) {
            Ok(b) => {
                let m: Manifest = serde_json::from_slice(&b)
                    .map_err(|e| IndexError::Corrupt(format!("{}: {e}", p.display())))?;
                if m.version != FORMAT_VERSION {
                    return Err(IndexError::Version {
                        dir: dir.to_path_buf(),
                        found: m.version,
                    });
                }
                Ok(Some(m))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(IndexError::io(&p, e)),
        }
    }

    /// Replaces the manifest atomically.
    pub fn save(&self, dir: &Path) -> Result<(), IndexError> {
        let tmp = dir.join(format!("{MANIFEST}.tmp"));
        let data = serde_json::to_vec_pretty(self).expect("manifest serialises");
        let mut f = File::create(&tmp).map_err(|e| IndexError::io(&tmp, e))?;
        f.write_all(&data).map_err(|e| IndexError::io(&tmp, e))?;
        f.sync_all().map_err(|e| IndexError::io(&tmp, e))?;
        std::fs::rename(&tmp, dir.join(MANIFEST)).map_err(|e| IndexError::io(&tmp, e))?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_of_another_format_is_refused_with_advice() {
        let dir = std::env::temp_dir().join(format!("qipu-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut m = Manifest {
            version: FORMAT_VERSION,
            ..Manifest::default()
        };
        m.save(&dir).unwrap();
        assert!(Manifest::load(&dir).unwrap().is_some());
        m.version = 1;
        m.save(&dir).unwrap();
        let err = Manifest::load(&dir).unwrap_err().to_string();
        assert!(
            err.contains("format version 1") && err.contains("--rebuild"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
