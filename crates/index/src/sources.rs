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

use std::collections::BTreeMap;

use crate::manifest::SourceInfo;

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

    #[test]
    fn finds_what_the_scan_finds() {
        // Sources whose key order is not their games' order, a source of several ranges, an
        // empty range, gaps (games of a stream, not recorded) and ids past every range.
        let m = manifest(&[
            ("/a", &[[10, 12], [20, 25]]),
            ("/b", &[[0, 3]]),
            ("/c", &[[5, 5], [12, 20]]),
            ("/d", &[]),
            ("/e", &[[3, 4], [30, 31]]),
        ]);
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
}
