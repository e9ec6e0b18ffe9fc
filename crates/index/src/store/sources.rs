//! Which input file (source) each game was read from, found by a binary search.
//!
//! The manifest keeps, for each source, the ranges of game ids it gave (its key order is the
//! sources' paths, not their games). Finding a game's source by scanning every source's ranges
//! costs a pass over all sources per game, and an answer prints a path for every hit: 4,146
//! hits × 10,348 sources on the fox-pro index. This table, made once from the manifest the
//! first time a game's source is asked for (opening an index does not pay for it), holds every
//! range sorted by its first id.
//!
//! Ids are given out once, so the ranges of different sources never overlap; the table still
//! checks it, and if a damaged or hand-edited manifest makes them overlap, it answers as the
//! scan did (the first source in key order whose ranges hold the id).
//!
//! Making the table still means parsing the manifest's inputs, most of the manifest and most of
//! a search that prints hits (BENCHMARKS.md, Opening an index and printing hits: the table of
//! sources). So every manifest written is
//! followed by the same table with each source's key and name in a file of its own
//! ([`StoredTable`]), which a search reads instead, when it belongs to the manifest it opened.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use crate::store::layout::SOURCES;
use crate::store::source::SourceInfo;

/// The inputs of an index by key ([`crate::Manifest::sources`]).
type Sources = BTreeMap<String, SourceInfo>;

/// Game-id ranges of every source, sorted, for [`SourceTable::find`].
#[derive(Debug, Default)]
pub(crate) struct SourceTable {
    /// `(first, end, source)`: ids `first..end` came from the source of ordinal `source` (its
    /// place in the manifest's key order), sorted by `first`.
    ranges: Vec<(u32, u32, u32)>,
    /// The sources' keys by ordinal, to find their entries again in the manifest.
    keys: Vec<String>,
    /// Whether two ranges overlap (only in a damaged manifest): then [`SourceTable::find`]
    /// scans, as the answer must stay the first source in key order.
    overlapping: bool,
}

impl SourceTable {
    pub(crate) fn new(sources: &Sources) -> SourceTable {
        let mut ranges = Vec::new();
        let mut keys = Vec::with_capacity(sources.len());
        for (ordinal, (key, info)) in sources.iter().enumerate() {
            keys.push(key.clone());
            ranges.extend(
                info.games
                    .iter()
                    .filter(|r| r[0] < r[1])
                    .map(|r| (r[0], r[1], ordinal as u32)),
            );
        }
        ranges.sort_unstable();
        let overlapping = ranges.windows(2).any(|w| w[1].0 < w[0].1);
        SourceTable {
            ranges,
            keys,
            overlapping,
        }
    }

    /// The key and entry of the source game `id` was read from, if any.
    pub(crate) fn find<'m>(
        &self,
        sources: &'m Sources,
        id: u32,
    ) -> Option<(&'m str, &'m SourceInfo)> {
        if self.overlapping {
            return scan(sources, id);
        }
        // The last range starting at or before `id`: the only one that can hold it.
        let i = self.ranges.partition_point(|r| r.0 <= id).checked_sub(1)?;
        let (_, end, ordinal) = self.ranges[i];
        if id >= end {
            return None;
        }
        let key = self.keys.get(ordinal as usize)?;
        sources
            .get_key_value(key.as_str())
            .map(|(k, info)| (k.as_str(), info))
    }
}

/// The definition the table answers by: the first source, in key order, whose ranges hold `id`.
pub(crate) fn scan(sources: &Sources, id: u32) -> Option<(&str, &SourceInfo)> {
    sources
        .iter()
        .find(|(_, info)| info.games.iter().any(|r| (r[0]..r[1]).contains(&id)))
        .map(|(k, info)| (k.as_str(), info))
}

// `SOURCES`, the file beside the manifest, holds [`SourceTable`]'s ranges with every source's
// key and name, so that a search printing hits' paths does not parse the manifest's inputs (most
// of the manifest, a few hundred bytes an input file). Written after the
// manifest, it names the manifest it was made from (length and CRC-32 of its bytes) and ends
// with its own CRC-32: a table of another manifest (a run that stopped between the two
// writes), a damaged one or none at all is not read, and the manifest is parsed as before.
// Little-endian: the head (below), the ranges `(first, end, ordinal)`, per source the offset and
// length of its key and of its name in the text that follows, the text, the CRC-32.

/// What a sources table starts with.
const TABLE_MAGIC: &[u8; 8] = b"QIPUSRC1";
/// Magic, the manifest's length and CRC, the counts of ranges and sources.
const TABLE_HEAD: usize = 8 + 8 + 4 + 4 + 4;
const RANGE_SIZE: usize = 12;
const ENTRY_SIZE: usize = 16;

/// Writes [`SOURCES`] for `sources`, the inputs of the manifest whose bytes are `manifest`
/// (atomically: a temporary file renamed).
pub(crate) fn write_table(dir: &Path, sources: &Sources, manifest: &[u8]) -> std::io::Result<()> {
    let table = SourceTable::new(sources);
    // Offsets and counts are 32-bit: past that (some 20 M inputs) no table is written, and
    // searches parse the manifest's inputs, rather than read offsets that wrapped around.
    let too_big = || std::io::Error::other("the sources table would pass 4 GiB");
    let mut blob = Vec::new();
    let mut entries = Vec::with_capacity(sources.len() * ENTRY_SIZE);
    for (key, info) in sources {
        for s in [key.as_str(), info.name.as_str()] {
            let at = u32::try_from(blob.len()).map_err(|_| too_big())?;
            let len = u32::try_from(s.len()).map_err(|_| too_big())?;
            entries.extend_from_slice(&at.to_le_bytes());
            entries.extend_from_slice(&len.to_le_bytes());
            blob.extend_from_slice(s.as_bytes());
        }
    }
    u32::try_from(blob.len()).map_err(|_| too_big())?;
    let ranges = u32::try_from(table.ranges.len()).map_err(|_| too_big())?;
    let count = u32::try_from(sources.len()).map_err(|_| too_big())?;
    let mut out = Vec::with_capacity(
        TABLE_HEAD + table.ranges.len() * RANGE_SIZE + entries.len() + blob.len() + 4,
    );
    out.extend_from_slice(TABLE_MAGIC);
    out.extend_from_slice(&(manifest.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(manifest).to_le_bytes());
    out.extend_from_slice(&ranges.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    for &(first, end, ordinal) in &table.ranges {
        for v in [first, end, ordinal] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&entries);
    out.extend_from_slice(&blob);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    let tmp = dir.join(format!("{SOURCES}.tmp"));
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&out)?;
    f.sync_all()?;
    std::fs::rename(&tmp, dir.join(SOURCES))
}

/// [`SOURCES`] as read: game ranges sorted by their first id, each source's key and name.
#[derive(Debug)]
pub(crate) struct StoredTable {
    bytes: Vec<u8>,
    ranges: usize,
    sources: usize,
}

impl StoredTable {
    /// The table in `dir` when it was made from the manifest whose bytes are `manifest`, is
    /// whole (its CRC) and consistent (ranges sorted without overlap, names within it);
    /// otherwise `None`, and the caller reads the manifest's inputs instead.
    pub(crate) fn load(dir: &Path, manifest: &[u8]) -> Option<StoredTable> {
        let bytes = std::fs::read(dir.join(SOURCES)).ok()?;
        let (body, crc) = bytes.split_at_checked(bytes.len().checked_sub(4)?)?;
        if body.len() < TABLE_HEAD
            || &body[..8] != TABLE_MAGIC
            || u32_at(crc, 0)? != crc32fast::hash(body)
            || u64::from_le_bytes(body[8..16].try_into().ok()?) != manifest.len() as u64
            || u32_at(body, 16)? != crc32fast::hash(manifest)
        {
            return None;
        }
        let ranges = u32_at(body, 20)? as usize;
        let sources = u32_at(body, 24)? as usize;
        let blob_at = TABLE_HEAD
            .checked_add(ranges.checked_mul(RANGE_SIZE)?)?
            .checked_add(sources.checked_mul(ENTRY_SIZE)?)?;
        if blob_at > body.len() {
            return None;
        }
        let t = StoredTable {
            ranges,
            sources,
            bytes,
        };
        let mut last_end = 0;
        for i in 0..ranges {
            let (first, end, ordinal) = t.range(i)?;
            if first < last_end || end <= first || ordinal as usize >= sources {
                return None;
            }
            last_end = end;
        }
        (0..sources).all(|s| t.strings(s).is_some()).then_some(t)
    }

    fn range(&self, i: usize) -> Option<(u32, u32, u32)> {
        let at = TABLE_HEAD + i * RANGE_SIZE;
        Some((
            u32_at(&self.bytes, at)?,
            u32_at(&self.bytes, at + 4)?,
            u32_at(&self.bytes, at + 8)?,
        ))
    }

    /// Source `s`'s key and name.
    fn strings(&self, s: usize) -> Option<(&str, &str)> {
        let blob_at = TABLE_HEAD + self.ranges * RANGE_SIZE + self.sources * ENTRY_SIZE;
        let blob = self.bytes.get(blob_at..self.bytes.len() - 4)?;
        let at = TABLE_HEAD + self.ranges * RANGE_SIZE + s * ENTRY_SIZE;
        let text = |i: usize| {
            let off = u32_at(&self.bytes, at + 8 * i)? as usize;
            let len = u32_at(&self.bytes, at + 8 * i + 4)? as usize;
            std::str::from_utf8(blob.get(off..off.checked_add(len)?)?).ok()
        };
        Some((text(0)?, text(1)?))
    }

    /// The key and name of the source game `id` was read from, as [`SourceTable::find`] gives
    /// them.
    pub(crate) fn find(&self, id: u32) -> Option<(&str, &str)> {
        let mut lo = 0;
        let mut hi = self.ranges;
        // The last range starting at or before `id`.
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.range(mid)?.0 <= id {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let (_, end, ordinal) = self.range(lo.checked_sub(1)?)?;
        if id >= end {
            return None;
        }
        self.strings(ordinal as usize)
    }
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(sources: &[(&str, &[[u32; 2]])]) -> Sources {
        let mut m = Sources::new();
        for (key, games) in sources {
            m.insert(
                key.to_string(),
                SourceInfo {
                    name: key.to_string(),
                    games: games.to_vec(),
                    ..SourceInfo::default()
                },
            );
        }
        m
    }

    fn agrees(m: &Sources, upto: u32) {
        let table = SourceTable::new(m);
        for id in 0..upto {
            assert_eq!(
                table.find(m, id).map(|(k, _)| k),
                scan(m, id).map(|(k, _)| k),
                "game {id}"
            );
        }
    }

    /// Sources whose key order is not their games' order, a source of several ranges, an empty
    /// range, gaps (games of a stream, not recorded) and ids past every range (up to 40); a key
    /// beyond ASCII.
    fn mixed() -> Sources {
        manifest(&[
            ("/a", &[[10, 12], [20, 25]]),
            ("/b", &[[0, 3]]),
            ("/c", &[[5, 5], [12, 20]]),
            ("/d", &[]),
            ("/e 名前", &[[3, 4], [30, 31]]),
        ])
    }

    #[test]
    fn finds_what_the_scan_finds() {
        let m = mixed();
        agrees(&m, 40);
        let t = SourceTable::new(&m);
        assert!(!t.overlapping);
        assert_eq!(t.find(&m, 22).map(|(k, _)| k), Some("/a"));
        assert_eq!(t.find(&m, 12).map(|(k, _)| k), Some("/c"));
        assert!(t.find(&m, 4).is_none());
        assert!(t.find(&m, 31).is_none());
        agrees(&Sources::new(), 3);
    }

    #[test]
    fn overlapping_ranges_answer_as_the_scan() {
        let m = manifest(&[("/x", &[[5, 10]]), ("/a", &[[0, 8]]), ("/b", &[[7, 9]])]);
        assert!(SourceTable::new(&m).overlapping);
        agrees(&m, 12);
    }

    /// The stored table answers as the table made from the manifest, for every id; one made
    /// from another manifest, a damaged one, or one with overlapping ranges is not read.
    #[test]
    fn the_stored_table_answers_as_the_manifest_and_only_for_its_manifest() {
        let m = mixed();
        let dir = std::env::temp_dir().join(format!("qipu-sources-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bytes = b"the manifest's bytes".to_vec();
        write_table(&dir, &m, &bytes).unwrap();
        let stored = StoredTable::load(&dir, &bytes).expect("the table is read");
        let table = SourceTable::new(&m);
        for id in 0..40 {
            assert_eq!(
                stored.find(id),
                table.find(&m, id).map(|(k, info)| (k, info.name.as_str())),
                "game {id}"
            );
        }
        assert_eq!(stored.find(30), Some(("/e 名前", "/e 名前")));
        // Another manifest: a run that stopped after the manifest, before the table.
        assert!(StoredTable::load(&dir, b"the manifest's bytez").is_none());
        assert!(StoredTable::load(&dir, b"").is_none());
        // Any byte changed, or the file cut.
        let path = dir.join(SOURCES);
        let good = std::fs::read(&path).unwrap();
        for at in [
            0,
            9,
            17,
            21,
            30,
            good.len() / 2,
            good.len() - 5,
            good.len() - 1,
        ] {
            let mut bad = good.clone();
            bad[at] ^= 0x20;
            std::fs::write(&path, &bad).unwrap();
            assert!(StoredTable::load(&dir, &bytes).is_none(), "byte {at}");
        }
        std::fs::write(&path, &good[..good.len() - 3]).unwrap();
        assert!(StoredTable::load(&dir, &bytes).is_none());
        // Overlapping ranges (a damaged manifest): the scan's answer is kept by not reading it.
        let overlap = manifest(&[("/x", &[[5, 10]]), ("/a", &[[0, 8]])]);
        write_table(&dir, &overlap, &bytes).unwrap();
        assert!(StoredTable::load(&dir, &bytes).is_none());
        std::fs::remove_file(dir.join(SOURCES)).unwrap();
        assert!(StoredTable::load(&dir, &bytes).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
