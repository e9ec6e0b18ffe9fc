//! The on-disk layout of an index, named in one place: the index folder's files and folders, the
//! files of a segment, the format version, and the bit layout of a replay-program op.
//!
//! Every module that reads or writes the index takes its names and constants from here, so a
//! file can never be written under one spelling and looked for under another, and a change of
//! layout is seen (and bumps [`FORMAT_VERSION`]) where it is made. What each file holds is
//! described where it is written: the manifest in `manifest`, a segment's files in `store`.

/// The layout of the index files this build writes: version 25, whose segments may keep engine
/// evaluations (`evals.bin`, `mistakes.bin`, see `evals`); since 24 the manifest ends with a
/// checksum of its own body and segments carry their block checksums (`sums.bin`, see
/// `store::check`), which a search checks as it first reads each block. Any change to what a
/// file holds or how it is named bumps it; CHANGELOG.md at the top of the repository lists
/// what each version changed.
pub const FORMAT_VERSION: u32 = 25;

/// The oldest format this qipu still reads: version 22 differs only in never setting the
/// quarter bit (its quarters were rounded to half points), so it is read as it is; versions 22
/// and 23 have no block checksums and no manifest checksum, so their mapped segment files are
/// read unchecked (`qipu verify` still checks them whole); a run that adds to such an index
/// writes version 24, and block checksums for its new segments.
pub const OLDEST_READABLE_VERSION: u32 = 22;

/// The manifest in the index folder (replaced atomically through `MANIFEST.tmp`).
pub const MANIFEST: &str = "qipu-index.json";

/// Beside the manifest, each input's key and name by game range (see `sources`): what a
/// search needs of the manifest's inputs to print hits' paths, without parsing them. A speed-up
/// only, checked against the manifest it was made from; outside the format version (an index
/// without it, or with one of another manifest, answers the same).
pub const SOURCES: &str = "qipu-index.sources";

/// The writer's lock file in the index folder.
pub const LOCK: &str = "qipu-index.lock";

/// The machine-readable report of rejected files and games (JSON Lines): one per segment, and
/// the index folder's, gathered from them at the end of each run.
pub const REPORT: &str = "rejected.jsonl";

/// The first generation's metadata folder; later generations add `-G`.
const META_DIR: &str = "meta";

/// What every segment folder's name starts with.
const SEGMENT_PREFIX: &str = "seg-";

/// The metadata folder of build generation `generation` (`meta`, then `meta-G`).
pub fn meta_dir(generation: u32) -> String {
    match generation {
        0 => META_DIR.to_string(),
        g => format!("{META_DIR}-{g}"),
    }
}

/// The folder of generation `generation`'s `n`-th segment (`seg-000001` …, then
/// `seg-G-000001` …).
pub fn segment_dir(generation: u32, n: usize) -> String {
    match generation {
        0 => format!("{SEGMENT_PREFIX}{n:06}"),
        g => format!("{SEGMENT_PREFIX}{g}-{n:06}"),
    }
}

/// Whether a name in the index folder is a segment folder of some generation.
pub fn is_segment_dir(name: &str) -> bool {
    name.starts_with(SEGMENT_PREFIX)
}

/// Whether a name in the index folder is a metadata folder of some generation.
pub fn is_meta_dir(name: &str) -> bool {
    name == META_DIR
        || name
            .strip_prefix(META_DIR)
            .is_some_and(|rest| rest.starts_with('-'))
}

/// The files of a segment folder (what each holds: see `store`).
pub mod segment {
    /// One fixed game record per game.
    pub const GAMES: &str = "games.bin";
    /// Replay programs.
    pub const OPS: &str = "ops.bin";
    /// Occupancy columns.
    pub const OCCUPANCY: &str = "occ.bin";
    /// The position table's distinct hashes.
    pub const POSITION_KEYS: &str = "positions.keys";
    /// The position table's first entry of each hash.
    pub const POSITION_STARTS: &str = "positions.starts";
    /// The position table's entries.
    pub const POSITIONS: &str = "positions.bin";
    /// The aggregated positions' hashes (see `aggregate`).
    pub const AGGREGATE_KEYS: &str = "aggregates.keys";
    /// Where each aggregated position's cells start.
    pub const AGGREGATE_STARTS: &str = "aggregates.starts";
    /// The aggregated positions' cells.
    pub const AGGREGATES: &str = "aggregates.bin";
    /// The corner table's distinct keys ([`goban::corner`]).
    pub const CORNER_KEYS: &str = "corners.keys";
    /// The corner table's first entry of each key.
    pub const CORNER_STARTS: &str = "corners.starts";
    /// The corner table's entries: games.
    pub const CORNERS: &str = "corners.bin";
    /// Each game's vacated points (`occupancy::Vacated`).
    pub const VACATED: &str = "vacated.bin";
    /// The original records, compressed in blocks.
    pub const RECORDS: &str = "records.zst";
    /// Where each record is in `records.zst`.
    pub const RECORDS_INDEX: &str = "records.idx";
    /// The segment's record file names.
    pub const FILES: &str = "files.jsonl";
    /// Each game's main-line signatures.
    pub const SIGNATURES: &str = "sigs.bin";
    /// Each game's facts (`facts::Facts`), 8 bytes a game.
    pub const FACTS: &str = "facts.bin";
    /// Each game's year and winner, 2 bytes a game (see `store::YearWinner`).
    pub const YEARS: &str = "years.bin";
    /// The segment's exact copies.
    pub const COPIES: &str = "copies.bin";
    /// The segment's long games.
    pub const LONG: &str = "long.bin";
    /// The segment's variation lines: game, branch point, path.
    pub const VARIATIONS: &str = "variations.bin";
    /// The segment's rejected files and games.
    pub const REJECTED: &str = super::REPORT;
    /// The analysed games' evaluations (see `evals`); only in a segment that has some.
    pub const EVALS: &str = "evals.bin";
    /// The moves that lost at least a floor, by win and by points lost (see `evals`); beside
    /// `evals.bin` only.
    pub const MISTAKES: &str = "mistakes.bin";
    /// Every other file's checksum per block, checked as a search first reads each block
    /// (see `store::check`).
    pub const BLOCK_SUMS: &str = "sums.bin";
}

/// The bit layout of one replay-program op (a `u16`, see `ops`), and of the 12-bit code that
/// packs the ops of boards up to 19×19 (see `pack`).
pub mod op {
    /// The kind is in the bits from here up (3 bits: kinds 0 to 7).
    pub const KIND_SHIFT: u16 = 13;
    /// The point index is in the bits below [`KIND_SHIFT`].
    pub const POINT_MASK: u16 = (1 << KIND_SHIFT) - 1;
    /// The point index of "no point": a pass, a mark, or a malformed point.
    pub const NO_POINT: u16 = POINT_MASK;
    /// Point `(x, y)` has index `y * POINT_STRIDE + x`: boards up to 52×52.
    pub const POINT_STRIDE: u16 = 52;
    /// Kinds of op that exist (0 to 6; kind 7 is read as a mark).
    pub const KINDS: u16 = 7;
    /// Largest board side whose ops have a 12-bit code.
    pub const PACKED_SIDE: u16 = 19;
    /// Codes per kind in the 12-bit code: each point of a 19×19 board, then "no point".
    pub const PACKED_SLOTS: u16 = PACKED_SIDE * PACKED_SIDE + 1;
    /// Bits of one packed op.
    pub const PACKED_BITS: u32 = 12;

    // Checked when compiling: every kind and slot has a 12-bit code, and a packed board fits
    // the point stride.
    const _: () = assert!(KINDS * PACKED_SLOTS <= 1 << PACKED_BITS);
    const _: () = assert!(PACKED_SIDE <= POINT_STRIDE);

    /// The index of point `(x, y)`.
    #[inline]
    pub fn point_index(x: u8, y: u8) -> u16 {
        u16::from(y) * POINT_STRIDE + u16::from(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_are_recognised_as_they_are_made() {
        for g in [0, 1, 12] {
            assert!(is_meta_dir(&meta_dir(g)));
            assert!(is_segment_dir(&segment_dir(g, 1)));
            assert!(!is_segment_dir(&meta_dir(g)));
            assert!(!is_meta_dir(&segment_dir(g, 3)));
        }
        assert_eq!(meta_dir(0), "meta");
        assert_eq!(meta_dir(3), "meta-3");
        assert_eq!(segment_dir(0, 7), "seg-000007");
        assert_eq!(segment_dir(2, 7), "seg-2-000007");
        assert!(!is_meta_dir("metadata"));
        assert!(!is_meta_dir(MANIFEST));
    }

    #[test]
    fn point_indices_stay_below_no_point() {
        assert_eq!(op::point_index(51, 51), 51 * 52 + 51);
        assert!(op::point_index(51, 51) < op::NO_POINT);
    }
}
