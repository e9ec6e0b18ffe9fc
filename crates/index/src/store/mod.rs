//! The game store: per game a fixed record, its replay program, its occupancy bitmaps, its
//! position-table entries and its original record bytes, in segments of memory-mapped files.
//!
//! A segment is written whole by one indexing run (or one part of a long run) and never changed
//! afterwards; it becomes part of the index only when the manifest that names it is replaced
//! atomically. A crash therefore leaves at worst an unreferenced segment folder, removed by the next
//! run, and the last committed index stays searchable.
//!
//! Files of a segment (all little-endian):
//! - `games.bin`: one [`GameRec`] (32 bytes) per game;
//! - `ops.bin`: replay programs (`u16` ops, see [`crate::encode::ops`]; 12 bits per op where they fit, see
//!   [`crate::encode::pack`]);
//! - `occ.bin`: the points ever held by Black and by White, by point: 2 × 361 columns of one bit
//!   per game, then the number of games in each column (see [`crate::encode::occupancy`]; 19×19 games
//!   only);
//! - the position table, every position with at most [`MAX_INDEXED_STONES`] stones of every
//!   stored (non-copy) game, grouped by hash (only about 2 in 5 entries have a hash of their own):
//!   - `positions.keys`: the distinct hashes, ascending (`u64` each);
//!   - `positions.starts`: for each key the index of its first entry, then the entry count
//!     (`u32` each);
//!   - `positions.bin`: 6-byte entries, by key then game: the game within the segment (24 bits),
//!     then the move number k (11 bits) and the move that followed (13 bits, see [`pack_next`]),
//!     so that continuation tables need no replay;
//! - `records.zst` and `records.idx`: the original records, zstd-compressed in blocks of 64;
//!   `records.idx` holds each game's end in its block once decompressed (`u32`), then each
//!   block's start in `records.zst` (`u64`) and length (`u32`);
//! - `years.bin`: each game's year and [`GameRec::winner`] again, in two bytes (see
//!   [`YearWinner`]), packed together: continuation tables read the winner for every game
//!   holding a position (1.2 M games for the empty board of the derived corpus), and a date
//!   profile both for every hit game (3.5 M for `winner:B` at 7 M games), touching 16 times
//!   fewer pages than `games.bin` and 4 times fewer than `facts.bin`;
//! - `facts.bin`: each game's [`crate::Facts`] (8 bytes: date month, ranks, handicap, komi,
//!   result class), read whole: statistics and filters read them for every game of an answer;
//! - `copies.bin`: `(copy, original)` game-id pairs (`u32` each) of the segment's exact copies,
//!   and `long.bin`: the ids of its games flagged [`FLAG_LONG`], so that opening an index need
//!   not read every game's record;
//! - `variations.bin`: the segment's variation lines (`qipu index --variations`), each with its
//!   game, branch point and path (LEB128, see [`crate::encode::variations`]); empty without them;
//! - `files.jsonl`: the record files of the segment, one JSON string per line (read the first
//!   time a game's identity is asked for);
//! - `rejected.jsonl`: files and games of the segment's inputs that could not be read (gathered
//!   into the index folder's `rejected.jsonl` at the end of each run);
//! - `sums.bin`: every other file's CRC-32 per 64 KiB block, which a search checks as it first
//!   reads each block (see `check`).
//!
//! The names of these files are in [`layout::segment`]. The format of their contents is
//! in `format` (record sizes, flags, bit layouts); `write` makes a segment and `read` maps one,
//! both through `format` and never through each other.
//!
//! The files of the index folder around the segments are here too: the manifest that names
//! them ([`manifest`]), every file and folder name ([`layout`]), the writer's lock ([`lock`]),
//! the stored table of games' sources (`sources`) and the LEB128 numbers of the variable
//! lists (`leb`).

mod check;
mod format;
pub mod layout;
pub(crate) mod leb;
pub mod lock;
pub mod manifest;
mod read;
mod source;
pub(crate) mod sources;
mod write;

pub use crate::encode::occupancy::{Occupancy, Vacated};
pub(crate) use check::{Bytes, Checked};
pub use format::{
    pack_next, unpack_next, CornerEvent, GameRec, PosEntry, StoredOps, YearWinner, FLAG_IRREGULAR,
    FLAG_LONG, FLAG_MARKS, FLAG_PACKED, FLAG_SKELETON, FLAG_SYMMETRIC_COPY, FLAG_VARIATION,
    MAX_INDEXED_STONES, MAX_SEGMENT_GAMES, MAX_TABLE_MOVE, NO_NEXT,
};
pub(crate) use read::file_crc;
pub use read::Segment;
pub use write::{GameData, SegmentWriter, Spare};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ops::Op;
    use crate::store::manifest::SegmentInfo;
    use goban::{Color, Point};

    #[test]
    fn the_position_table_reads_back_by_hash() {
        let dir = std::env::temp_dir().join(format!("qipu-table-{}", std::process::id()));
        let mut w = SegmentWriter::create(&dir, 1000, 2).unwrap();
        let black = |x, y| Op::Move(Color::Black, Some(Point::new(x, y))).encode();
        let games: [&[(u64, u16, u16)]; 3] = [
            &[(0, 0, black(3, 3)), (7, 1, NO_NEXT)],
            &[(7, 2047, black(18, 0)), (u64::MAX, 5, NO_NEXT)],
            &[
                (0, 0, Op::Move(Color::White, None).encode()),
                (7, 9, NO_NEXT),
            ],
        ];
        // (key, k, corner) of each game's corner events; the next move is k's.
        let corners: [&[(u64, u32, u8)]; 3] = [
            &[(9, 1, 0), (5, 2, 1), (9, 7, 3)],
            &[(9, 0, 2)],
            &[(1, 3, 0), (5, 3, 1), (9, 4, 2), (u64::MAX, 900, 3)],
        ];
        let event = |game, k, corner| CornerEvent {
            game,
            k,
            corner,
            transposed: k % 2 == 1,
            next: if k == 900 {
                NO_NEXT
            } else {
                black(k as u8 % 19, 4)
            },
        };
        // Years and winners: undated, the last year a two-byte entry holds, and one it does not
        // (only another reader's facts could hold it), which is read from the facts.
        let years = [0, YearWinner::SEE_FACTS - 1, 20_000];
        for (g, (positions, corners)) in games.into_iter().zip(corners).enumerate() {
            w.add_game(GameData {
                rec: GameRec {
                    winner: g as u8,
                    ..GameRec::default()
                },
                ops: StoredOps::default(),
                occupancy: Occupancy::default(),
                positions: positions.to_vec(),
                corners: corners
                    .iter()
                    .map(|&(key, k, c)| (key, event(0, k, c)))
                    .collect(),
                vacated: None,
                record: Vec::new(),
                signatures: (0, 0),
                facts: crate::Facts {
                    year: years[g],
                    ..crate::Facts::default()
                },
                variation: None,
                evals: None,
            })
            .unwrap();
        }
        assert_eq!(w.board(), Some((0, 0)));
        let files = w.finish().unwrap();
        let info = SegmentInfo {
            dir: String::new(),
            first_game: 1000,
            games: 3,
            files,
            board: None,
        };
        let seg = Segment::open(&dir, &info).unwrap();
        let got = |h| -> Vec<(u32, u32, u16)> {
            let v: Vec<_> = seg.positions(h).map(|e| (e.game, e.k, e.next)).collect();
            assert_eq!(v.len(), seg.count_positions(h));
            v
        };
        assert_eq!(
            got(0),
            [
                (1000, 0, black(3, 3)),
                (1002, 0, Op::Move(Color::White, None).encode())
            ]
        );
        assert_eq!(
            got(7),
            [
                (1000, 1, NO_NEXT),
                (1001, 2047, black(18, 0)),
                (1002, 9, NO_NEXT)
            ]
        );
        assert_eq!(got(u64::MAX), [(1001, 5, NO_NEXT)]);
        assert_eq!(got(3), []);
        assert_eq!(got(8), []);
        let corner = |key| seg.corner_events(key).collect::<Vec<CornerEvent>>();
        assert_eq!(
            corner(9),
            [
                event(1000, 1, 0),
                event(1000, 7, 3),
                event(1001, 0, 2),
                event(1002, 4, 2)
            ]
        );
        assert_eq!(corner(5), [event(1000, 2, 1), event(1002, 3, 1)]);
        assert_eq!(corner(1), [event(1002, 3, 0)]);
        assert_eq!(corner(u64::MAX), [event(1002, 900, 3)]);
        assert!(corner(0).is_empty());
        assert!(corner(7).is_empty());
        for (i, &year) in years.iter().enumerate() {
            assert_eq!(seg.year_and_winner(i as u32), (year, i as u8));
            assert_eq!(seg.winner(i as u32), i as u8);
            assert_eq!(seg.facts(i as u32).year, year);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
