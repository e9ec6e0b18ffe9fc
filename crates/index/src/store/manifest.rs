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

pub use crate::store::layout::{FORMAT_VERSION, MANIFEST, OLDEST_READABLE_VERSION};
pub use crate::store::source::{SourceInfo, Totals};

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
    /// Inputs read so far, by canonical path (as [`inputs::path_key`] writes it).
    pub sources: BTreeMap<String, SourceInfo>,
    /// Games hidden from every answer, as sorted, disjoint ranges `[first, end)` of ids: those of
    /// inputs that changed (and were read again) or were deleted. Segments are immutable, so a
    /// game is hidden rather than removed; an exact copy stored elsewhere still finds its moves
    /// in a hidden original.
    #[serde(default)]
    pub removed: Vec<[u32; 2]>,
    /// Counts of the games not removed.
    pub totals: Totals,
    /// Whether the index takes in the variation lines of its records (`qipu index
    /// --variations`): chosen when the index is made, kept by every later run (see
    /// [`crate::encode::variations`]).
    #[serde(default)]
    pub variations: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SegmentInfo {
    pub dir: String,
    pub first_game: u32,
    pub games: u32,
    /// Every file of the segment as it was closed: opening an index compares the lengths (a
    /// truncated file would otherwise answer with fewer games), `qipu verify` the checksums.
    pub files: Vec<FileSum>,
    /// The board (columns, rows) every game of the segment is played on, when they all are on
    /// one: a search that must keep the games of one board (the corner table's keys name a
    /// corner's content, not the board) then reads no game's record for it. Absent for a
    /// segment of mixed boards, and in manifests written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<(u8, u8)>,
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

impl Manifest {
    /// The metadata folder of this generation (`meta` for the first build).
    pub fn meta_dir(&self) -> String {
        crate::store::layout::meta_dir(self.generation)
    }

    /// The folder of this generation's `n`-th segment (`seg-000001` … for the first build).
    pub fn segment_dir(&self, n: usize) -> String {
        crate::store::layout::segment_dir(self.generation, n)
    }

    /// Takes the source `key` out: its games are hidden and its counts leave the totals.
    /// Returns how many games were hidden (none if the source is not known).
    pub fn remove_source(&mut self, key: &str) -> u64 {
        let Some(info) = self.sources.remove(key) else {
            return 0;
        };
        self.totals = self.totals.minus(&info.totals);
        let mut hidden = 0;
        for range in &info.games {
            hidden += u64::from(range[1] - range[0]);
            self.removed.push(*range);
        }
        self.removed.sort_unstable();
        let mut merged: Vec<[u32; 2]> = Vec::with_capacity(self.removed.len());
        for r in self.removed.drain(..) {
            match merged.last_mut() {
                Some(last) if r[0] <= last[1] => last[1] = last[1].max(r[1]),
                _ => merged.push(r),
            }
        }
        self.removed = merged;
        hidden
    }

    /// The removed games as a bitmap over ids `0..games` (64 per word).
    pub fn removed_bitmap(&self) -> Vec<u64> {
        let mut bits = vec![0u64; self.games as usize / 64 + 1];
        for &[first, end] in &self.removed {
            for g in first..end.min(self.games) {
                bits[g as usize / 64] |= 1 << (g % 64);
            }
        }
        bits
    }

    pub fn load(dir: &Path) -> Result<Option<Manifest>, IndexError> {
        Ok(read_as::<Manifest>(dir, |m| m.version)?.map(|(m, _)| m))
    }

    /// The manifest in `dir` without its inputs ([`Manifest::sources`] left empty), and its
    /// bytes, from which [`Manifest::sources_of`] reads them when they are wanted. A search
    /// needs the segments and counts only; the inputs are most of the file (some 500 bytes a
    /// file read), and building their map was most of what a search process paid to open an
    /// index (BENCHMARKS.md, Opening an index and printing hits: the table of sources).
    pub fn load_without_sources(dir: &Path) -> Result<Option<(Manifest, Vec<u8>)>, IndexError> {
        /// The manifest's fields but its inputs, which the parser skips over.
        #[derive(Deserialize)]
        struct Head {
            version: u32,
            generation: u32,
            games: u32,
            segments: Vec<SegmentInfo>,
            #[serde(default)]
            removed: Vec<[u32; 2]>,
            totals: Totals,
            #[serde(default)]
            variations: bool,
        }
        let Some((h, bytes)) = read_as::<Head>(dir, |h| h.version)? else {
            return Ok(None);
        };
        let m = Manifest {
            version: h.version,
            generation: h.generation,
            games: h.games,
            segments: h.segments,
            sources: BTreeMap::new(),
            removed: h.removed,
            totals: h.totals,
            variations: h.variations,
        };
        Ok(Some((m, bytes)))
    }

    /// The inputs ([`Manifest::sources`]) of a manifest's bytes, as
    /// [`Manifest::load_without_sources`] returned them.
    pub fn sources_of(bytes: &[u8]) -> Result<BTreeMap<String, SourceInfo>, IndexError> {
        #[derive(Deserialize)]
        struct Sources {
            sources: BTreeMap<String, SourceInfo>,
        }
        serde_json::from_slice::<Sources>(bytes)
            .map(|s| s.sources)
            .map_err(|e| IndexError::Corrupt(format!("{MANIFEST}: {e}")))
    }

    /// Replaces the manifest atomically. Written compact, not pretty: the inputs are most of
    /// it, and a search that cannot use the table of sources parses them (BENCHMARKS.md,
    /// Opening an index and printing hits: the table of sources, measures both layouts).
    pub fn save(&self, dir: &Path) -> Result<(), IndexError> {
        let tmp = dir.join(format!("{MANIFEST}.tmp"));
        let data = with_checksum(serde_json::to_vec(self).expect("manifest serialises"));
        let mut f = File::create(&tmp).map_err(|e| IndexError::io(&tmp, e))?;
        f.write_all(&data).map_err(|e| IndexError::io(&tmp, e))?;
        f.sync_all().map_err(|e| IndexError::io(&tmp, e))?;
        std::fs::rename(&tmp, dir.join(MANIFEST)).map_err(|e| IndexError::io(&tmp, e))?;
        // Then the table of its inputs (see `sources`): a speed-up only, read when it names
        // this manifest, so one that could not be written leaves an index that answers the
        // same, parsing the manifest's inputs for hits' paths.
        if crate::store::sources::write_table(dir, &self.sources, &data).is_err() {
            // Not even a stale table is left to be checked and refused.
            let _ = std::fs::remove_file(dir.join(crate::store::layout::SOURCES));
        }
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// The manifest in `dir` read as `T` (all of it, or the fields `T` names), with its bytes;
/// `None` when there is none. A manifest of a format `version` this qipu does not read is
/// refused.
fn read_as<T: serde::de::DeserializeOwned>(
    dir: &Path,
    version: impl Fn(&T) -> u32,
) -> Result<Option<(T, Vec<u8>)>, IndexError> {
    let p = dir.join(MANIFEST);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(IndexError::io(&p, e)),
    };
    let checked =
        check_sum(&bytes).map_err(|why| IndexError::Corrupt(format!("{} {why}", p.display())))?;
    let t: T = serde_json::from_slice(&bytes)
        .map_err(|e| IndexError::Corrupt(format!("{}: {e}", p.display())))?;
    if !(OLDEST_READABLE_VERSION..=FORMAT_VERSION).contains(&version(&t)) {
        return Err(IndexError::Version {
            dir: dir.to_path_buf(),
            found: version(&t),
        });
    }
    if !checked && version(&t) >= CHECKSUM_VERSION {
        return Err(IndexError::Corrupt(format!(
            "{} has no checksum of its own, which its format version {} has",
            p.display(),
            version(&t)
        )));
    }
    Ok(Some((t, bytes)))
}

/// The first format whose manifest carries a checksum of its own body.
const CHECKSUM_VERSION: u32 = 24;

/// The field the manifest ends with: the CRC-32 of every byte before it.
const CHECKSUM_FIELD: &[u8] = b",\"checksum\":";

/// A manifest's JSON (an object) with its checksum added as its last field: the CRC-32 of the
/// bytes before the field. A damaged byte inside a string value still parses as JSON; with the
/// checksum it is refused, naming the file. The field is last so that it can be found and
/// checked before the JSON is parsed, and older readers ignore it.
fn with_checksum(mut json: Vec<u8>) -> Vec<u8> {
    debug_assert_eq!(json.last(), Some(&b'}'));
    json.pop();
    let crc = crc32fast::hash(&json);
    json.extend_from_slice(CHECKSUM_FIELD);
    json.extend_from_slice(format!("{crc}}}").as_bytes());
    json
}

/// Checks a manifest's own checksum ([`with_checksum`]): `Ok(true)` when it matches,
/// `Ok(false)` when there is none (a manifest of an older format), and what is wrong otherwise.
fn check_sum(bytes: &[u8]) -> Result<bool, String> {
    let Some(at) = memchr::memmem::rfind(bytes, CHECKSUM_FIELD) else {
        return Ok(false);
    };
    let value = &bytes[at + CHECKSUM_FIELD.len()..];
    let want = value
        .strip_suffix(b"}")
        .and_then(|v| std::str::from_utf8(v).ok())
        .and_then(|v| v.parse::<u32>().ok())
        .ok_or("ends with a checksum that does not read as one")?;
    if crc32fast::hash(&bytes[..at]) == want {
        Ok(true)
    } else {
        Err("does not match its own checksum".to_string())
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
        // The older formats this qipu reads are read; one before them and one after are not.
        m.version = OLDEST_READABLE_VERSION;
        m.save(&dir).unwrap();
        assert_eq!(Manifest::load(&dir).unwrap().unwrap().version, m.version);
        for v in [OLDEST_READABLE_VERSION - 1, FORMAT_VERSION + 1] {
            m.version = v;
            m.save(&dir).unwrap();
            assert!(Manifest::load(&dir).is_err(), "{v}");
        }
        m.version = 1;
        m.save(&dir).unwrap();
        let err = Manifest::load(&dir).unwrap_err().to_string();
        assert!(
            err.contains("format version 1") && err.contains("--rebuild"),
            "{err}"
        );
        let err = Manifest::load_without_sources(&dir)
            .unwrap_err()
            .to_string();
        assert!(err.contains("format version 1"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_manifest_without_its_inputs_then_its_inputs_are_the_whole_manifest() {
        let dir = std::env::temp_dir().join(format!("qipu-manifest-head-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut m = Manifest {
            version: FORMAT_VERSION,
            generation: 3,
            games: 12,
            removed: vec![[2, 4]],
            variations: true,
            ..Manifest::default()
        };
        m.totals.games = 10;
        for (key, first) in [("/b.sgf", 0), ("/a.sgf", 6)] {
            let mut info = SourceInfo {
                name: key[1..].to_string(),
                fingerprint: 99,
                ..SourceInfo::default()
            };
            (first..first + 6).for_each(|g| info.add_game(g));
            m.sources.insert(key.to_string(), info);
        }
        m.save(&dir).unwrap();
        let (head, bytes) = Manifest::load_without_sources(&dir).unwrap().unwrap();
        assert!(head.sources.is_empty());
        let sources = Manifest::sources_of(&bytes).unwrap();
        let whole = Manifest { sources, ..head };
        assert_eq!(
            serde_json::to_string(&whole).unwrap(),
            serde_json::to_string(&m).unwrap()
        );
        assert!(Manifest::sources_of(b"{}").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(Manifest::load_without_sources(&dir).unwrap().is_none());
    }
}
