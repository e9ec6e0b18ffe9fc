//! The format of a segment's files: the fixed game record, its flags, the position-table entry
//! and the record-index entry, byte by byte, and the replay program as `ops.bin` holds it. Both
//! the writer and the reader of a segment take their layout from here, so they cannot disagree.

use super::check::Bytes;
use std::io::Write;

use crate::store::layout::op::{KIND_SHIFT, NO_POINT, POINT_MASK};
use crate::store::leb::{push_leb, read_leb};

/// Positions with at most this many stones are in the position table; deeper positions are found
/// by filtering games on occupancy and following them. 20 instead of 40 halves the table, and a
/// rare deeper position stays fast, because that many stones leave few games past the filter
/// (BENCHMARKS.md, Indexing: positions of at most 20 stones in the table).
pub const MAX_INDEXED_STONES: u32 = 20;

/// Positions after this move number are not in the position table (11 bits hold k); a game
/// with such positions is flagged [`FLAG_LONG`] and replayed by searches instead.
pub const MAX_TABLE_MOVE: u32 = (1 << 11) - 1;

/// Games per segment at most: position-table entries name games in 24 bits.
pub const MAX_SEGMENT_GAMES: u32 = (1 << 24) - 1;

/// Records per compressed block of `records.zst`.
pub(crate) const RECORDS_PER_BLOCK: usize = 64;

/// A game's year and winner as `years.bin` keeps them: `year << 2 | winner` in a little-endian
/// `u16`. The year is the facts' ([`crate::Facts::year`], 0 undated), which dates keep to 1–9999
/// (see `sgf::info::date`); a larger one, which only another reader's facts could hold, is
/// written as [`YearWinner::SEE_FACTS`], and the reader takes it from `facts.bin`. The winner is
/// [`GameRec::winner`] (0 none, 1 Black, 2 White).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YearWinner(pub u16);

impl YearWinner {
    /// Bytes of one game's entry.
    pub const SIZE: usize = 2;
    /// The year of a game whose year does not fit: read it from the facts.
    pub const SEE_FACTS: u16 = (1 << 14) - 1;

    /// The entry of a game of year `year` (0 undated) won by `winner`.
    pub fn new(year: u16, winner: u8) -> YearWinner {
        let year = if year < Self::SEE_FACTS {
            year
        } else {
            Self::SEE_FACTS
        };
        YearWinner(year << 2 | u16::from(winner & 3))
    }

    /// The year, [`YearWinner::SEE_FACTS`] when the facts must say it.
    #[inline]
    pub fn year(self) -> u16 {
        self.0 >> 2
    }

    /// The winner byte.
    #[inline]
    pub fn winner(self) -> u8 {
        (self.0 & 3) as u8
    }
}

/// Per-game fixed record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GameRec {
    /// Offset of the game's ops in `ops.bin`, in bytes.
    pub ops_start: u64,
    pub ops_len: u32,
    /// Main-line moves (passes included).
    pub moves: u32,
    pub width: u8,
    pub height: u8,
    /// 0 none, 1 Black won, 2 White won (as the oracle reads `RE`).
    pub winner: u8,
    pub flags: u8,
    /// The game this one is an exact copy of (`u32::MAX` when none); copies have no ops.
    pub duplicate_of: u32,
    /// Index into the segment's files.
    pub file: u32,
    /// Index of the game inside its file.
    pub game_in_file: u32,
}

/// `GameRec::flags`: the game's replay met irregular moves (occupied point, …).
pub const FLAG_IRREGULAR: u8 = 1;
/// `GameRec::flags`: a copy of another game up to symmetry (not necessarily exact).
pub const FLAG_SYMMETRIC_COPY: u8 = 2;
/// `GameRec::flags`: positions past move [`MAX_TABLE_MOVE`] are not in the position table:
/// replay the game.
pub const FLAG_LONG: u8 = 4;
/// `GameRec::flags`: the replay program is packed in 12 bits per op (see [`crate::encode::pack`]).
pub const FLAG_PACKED: u8 = 8;
/// `GameRec::flags`: the stored record is a skeleton, restored with the program when read (see
/// [`crate::encode::skeleton`]).
pub const FLAG_SKELETON: u8 = 16;

/// `GameRec::flags`: the replay program holds marks (setup beside a move, two moves in a node),
/// so some positions fall elsewhere than just before a move; a scan must place them with the
/// walker. Known when the game is analysed, so that a search need not look through the program.
pub const FLAG_MARKS: u8 = 32;

/// `GameRec::flags`: a variation line of a game, not a game (see [`crate::encode::variations`]): it
/// answers from its branch point on, counts apart in statistics, and has no record or metadata
/// of its own.
pub const FLAG_VARIATION: u8 = 64;

/// `PosEntry::next` of a final position: the one code shared with the search.
pub use model::{CornerEvent, NO_NEXT};

impl GameRec {
    /// Bytes of one record in `games.bin`.
    pub(crate) const SIZE: usize = 32;

    pub(crate) fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut b = [0u8; Self::SIZE];
        b[0..8].copy_from_slice(&self.ops_start.to_le_bytes());
        b[8..12].copy_from_slice(&self.ops_len.to_le_bytes());
        b[12..16].copy_from_slice(&self.moves.to_le_bytes());
        b[16] = self.width;
        b[17] = self.height;
        b[18] = self.winner;
        b[19] = self.flags;
        b[20..24].copy_from_slice(&self.duplicate_of.to_le_bytes());
        b[24..28].copy_from_slice(&self.file.to_le_bytes());
        b[28..32].copy_from_slice(&self.game_in_file.to_le_bytes());
        out.write_all(&b)
    }

    pub(crate) fn read(b: &[u8]) -> GameRec {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        GameRec {
            ops_start: u64::from_le_bytes(b[0..8].try_into().unwrap()),
            ops_len: u32_at(8),
            moves: u32_at(12),
            width: b[16],
            height: b[17],
            winner: b[18],
            flags: b[19],
            duplicate_of: u32_at(20),
            file: u32_at(24),
            game_in_file: u32_at(28),
        }
    }

    pub fn is_copy(&self) -> bool {
        self.duplicate_of != u32::MAX
    }

    /// Whether this is a variation line ([`FLAG_VARIATION`]).
    pub fn is_variation(&self) -> bool {
        self.flags & FLAG_VARIATION != 0
    }
}

/// One entry of the position table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PosEntry {
    pub hash: u64,
    pub game: u32,
    pub k: u16,
    /// The move played from this position, as an op ([`crate::encode::ops::Op`]), or [`NO_NEXT`].
    pub next: u16,
}

/// Bytes of a position-table entry in `positions.bin`.
pub(crate) const ENTRY_SIZE: usize = 6;

/// Bits of an entry's last three bytes that hold the next move ([`pack_next`]); the move number
/// k ([`MAX_TABLE_MOVE`]) is in the 11 bits above them.
const NEXT_BITS: u32 = 13;
/// The next move's colour bit, above its point.
const NEXT_COLOUR_BIT: u32 = NEXT_BITS - 1;
/// The next move's point bits.
const NEXT_POINT_MASK: u32 = (1 << NEXT_COLOUR_BIT) - 1;
/// The point of a pass (or a malformed point) in a packed next move.
const NEXT_PASS: u32 = NEXT_POINT_MASK - 1;
/// The point of "no next move" in a packed next move.
const NEXT_NONE: u32 = NEXT_POINT_MASK;

/// The 13 bits a table entry keeps of a next-move op (a move of either colour, a pass, or
/// [`NO_NEXT`]): the colour bit, then the point index (below 2,704 on boards up to 52×52),
/// 4094 for a pass (or malformed point) and 4095 for no next move.
pub fn pack_next(next: u16) -> u32 {
    if next == NO_NEXT {
        return 1 << NEXT_COLOUR_BIT | NEXT_NONE;
    }
    let colour = (next >> KIND_SHIFT) as u32 & 1;
    let point = (next & POINT_MASK) as u32;
    colour << NEXT_COLOUR_BIT | point.min(NEXT_PASS)
}

/// The op [`pack_next`] kept.
pub fn unpack_next(v: u32) -> u16 {
    let colour = ((v >> NEXT_COLOUR_BIT) & 1) as u16;
    match v & NEXT_POINT_MASK {
        NEXT_NONE => NO_NEXT,
        NEXT_PASS => colour << KIND_SHIFT | NO_POINT,
        point => colour << KIND_SHIFT | point as u16,
    }
}

/// The bytes of a position-table entry: the game within the segment (24 bits), then the move
/// number k (11 bits) and the move that followed ([`pack_next`], 13 bits), little-endian.
pub(crate) fn encode_entry(game: u32, k: u16, next: u16) -> [u8; ENTRY_SIZE] {
    let g = game.to_le_bytes();
    let tail = (u32::from(k) << NEXT_BITS | pack_next(next)).to_le_bytes();
    [g[0], g[1], g[2], tail[0], tail[1], tail[2]]
}

/// `(game within the segment, k, next)` of an entry's bytes (`b` holds at least
/// [`ENTRY_SIZE`]).
pub(crate) fn decode_entry(b: &[u8]) -> (u32, u16, u16) {
    let game = u32::from_le_bytes([b[0], b[1], b[2], 0]);
    let tail = u32::from_le_bytes([b[3], b[4], b[5], 0]);
    let next = unpack_next(tail & ((1 << NEXT_BITS) - 1));
    (game, (tail >> NEXT_BITS) as u16, next)
}

/// Appends a corner-table list to `corners.bin`'s bytes: the events of one key (games within
/// the segment), in (game, k) order, each as the game's gap from the previous event's (the first
/// as itself; 0 for another event of the same game) and k, both in LEB128, then two bytes
/// (little-endian) holding the next move ([`pack_next`], 13 bits) above the corner (2 bits)
/// and the orientation (1 bit). The common contents (a 4-4 stone alone) are in most games, so
/// their gaps take one byte, and k takes one up to move 127: four bytes an event, which is what
/// lets a corner pattern be answered without a replay (DESIGN-index.md has the sizes).
// The next move and the corner fill an event's two fixed bytes.
const _: () = assert!(NEXT_BITS + 3 <= 16);

pub(crate) fn encode_corner_events(events: impl Iterator<Item = CornerEvent>, out: &mut Vec<u8>) {
    let mut last = None;
    for e in events {
        push_leb(last.map_or(e.game, |l| e.game - l), out);
        last = Some(e.game);
        push_leb(e.k, out);
        let tail = pack_next(e.next) << 3 | u32::from(e.corner & 3) << 1 | u32::from(e.transposed);
        out.extend_from_slice(&(tail as u16).to_le_bytes());
    }
}

/// The events of a list [`encode_corner_events`] wrote. A damaged list ends at its first
/// malformed number (one running past the bytes or over 32 bits).
pub(crate) fn decode_corner_events(bytes: &[u8]) -> impl Iterator<Item = CornerEvent> + '_ {
    let mut at = 0;
    let mut last: Option<u32> = None;
    std::iter::from_fn(move || {
        let event = (|| {
            let gap = read_leb(bytes, &mut at)?;
            let game = match last {
                None => gap,
                Some(l) => l.checked_add(gap)?,
            };
            let k = read_leb(bytes, &mut at)?;
            let tail = bytes.get(at..at + 2)?;
            at += 2;
            let tail = u32::from(u16::from_le_bytes([tail[0], tail[1]]));
            Some(CornerEvent {
                game,
                k,
                corner: (tail >> 1 & 3) as u8,
                transposed: tail & 1 == 1,
                next: unpack_next(tail >> 3),
            })
        })();
        match event {
            Some(e) => {
                last = Some(e.game);
                Some(e)
            }
            None => {
                at = bytes.len();
                None
            }
        }
    })
}

/// The games of a list [`encode_corner_events`] wrote, each once, ascending: [`decode_corner_events`]
/// without building the events, for a search that only intersects games (its moves and corners
/// skipped, two bytes and a number each). A damaged list ends as it does there.
pub(crate) fn decode_corner_games(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let mut at = 0;
    let mut last: Option<u32> = None;
    std::iter::from_fn(move || loop {
        let game = (|| {
            let gap = read_leb(bytes, &mut at)?;
            let game = match last {
                None => gap,
                Some(l) => l.checked_add(gap)?,
            };
            read_leb(bytes, &mut at)?;
            bytes.get(at..at + 2)?;
            at += 2;
            Some(game)
        })();
        match game {
            // Another event of the same game.
            Some(g) if last == Some(g) => continue,
            Some(g) => {
                last = Some(g);
                return Some(g);
            }
            None => {
                at = bytes.len();
                return None;
            }
        }
    })
}

/// Bytes of a game's entry in `records.idx`: where its record ends in its block, once
/// decompressed (it starts where the block's previous game's ends, or at 0).
pub(crate) const RECORD_END_SIZE: usize = 4;
/// Bytes of a block's entry in `records.idx`, after the games' ends: where the compressed block
/// starts in `records.zst` (`u64`) and its length (`u32`).
pub(crate) const RECORD_BLOCK_SIZE: usize = 12;

/// Where one game's record is: its compressed block in `records.zst`, and its span in the block
/// once decompressed. Game `i` of a segment is in block `i / RECORDS_PER_BLOCK` (every block
/// but the last is full), so `records.idx` keeps only each game's end in its block, then each
/// block's place: 4 bytes a game instead of the 20 of the whole span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RecordAt {
    pub block_start: u64,
    pub block_len: u32,
    pub offset: u32,
    pub len: u32,
}

impl RecordAt {
    /// Game `i`'s span, from `records.idx` of a segment of `games` games; `None` where a damaged
    /// file cannot tell.
    pub(crate) fn find<B: Bytes + ?Sized>(idx: &B, games: usize, i: usize) -> Option<RecordAt> {
        let u32_at = |at: usize| {
            idx.get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        };
        let end = u32_at(i * RECORD_END_SIZE)?;
        let offset = if i.is_multiple_of(RECORDS_PER_BLOCK) {
            0
        } else {
            u32_at((i - 1) * RECORD_END_SIZE)?
        };
        let block = games * RECORD_END_SIZE + i / RECORDS_PER_BLOCK * RECORD_BLOCK_SIZE;
        let block_start = u64::from_le_bytes(idx.get(block..block + 8)?.try_into().unwrap());
        Some(RecordAt {
            block_start,
            block_len: u32_at(block + 8)?,
            offset,
            len: end.checked_sub(offset)?,
        })
    }

    /// Bytes of `records.idx` for a segment of `games` games.
    pub(crate) fn index_len(games: usize) -> usize {
        games * RECORD_END_SIZE + games.div_ceil(RECORDS_PER_BLOCK) * RECORD_BLOCK_SIZE
    }

    /// A block's entry in `records.idx`.
    pub(crate) fn encode_block(start: u64, len: u32) -> [u8; RECORD_BLOCK_SIZE] {
        let mut b = [0u8; RECORD_BLOCK_SIZE];
        b[0..8].copy_from_slice(&start.to_le_bytes());
        b[8..12].copy_from_slice(&len.to_le_bytes());
        b
    }
}

/// A replay program as `ops.bin` holds it: packed in 12 bits per op where it fits (see
/// [`crate::encode::pack`]), else as `u16`s. Built where games are analysed, on all cores, so that the one
/// writer thread only copies bytes.
#[derive(Clone, Debug, Default)]
pub struct StoredOps {
    pub bytes: Vec<u8>,
    pub count: u32,
    pub packed: bool,
}

impl StoredOps {
    pub fn new(ops: &[u16]) -> StoredOps {
        let mut bytes = Vec::with_capacity(ops.len() * 2);
        let packed = crate::encode::pack::pack(ops, &mut bytes);
        if !packed {
            bytes.clear();
            bytes.extend(ops.iter().flat_map(|op| op.to_le_bytes()));
        }
        StoredOps {
            bytes,
            count: ops.len() as u32,
            packed,
        }
    }

    /// The ops back.
    pub fn decode(&self) -> Vec<u16> {
        let mut out = Vec::new();
        decode_ops(&self.bytes, self.count as usize, self.packed, &mut out);
        out
    }
}

/// Reads `n` ops from the bytes of a program, packed or not; a program cut short reads as
/// empty.
pub(crate) fn decode_ops(bytes: &[u8], n: usize, packed: bool, out: &mut Vec<u16>) {
    out.clear();
    let Some(bytes) = bytes.get(..crate::encode::pack::stored_len(n, packed)) else {
        return;
    };
    if packed {
        crate::encode::pack::unpack(bytes, n, out);
    } else {
        out.extend(
            bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]])),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ops::Op;
    use goban::{Color, Point};

    #[test]
    fn next_moves_survive_the_13_bit_packing() {
        let mut ops = vec![NO_NEXT];
        for c in [Color::Black, Color::White] {
            ops.push(Op::Move(c, None).encode());
            for (x, y) in [(0, 0), (18, 18), (3, 15), (51, 51), (51, 0), (0, 51)] {
                ops.push(Op::Move(c, Some(Point::new(x, y))).encode());
            }
        }
        for op in ops {
            let packed = pack_next(op);
            assert!(packed < 1 << 13);
            assert_eq!(unpack_next(packed), op, "{:?}", Op::decode(op));
            for (game, k) in [(0, 0), ((1 << 24) - 1, MAX_TABLE_MOVE as u16), (4242, 17)] {
                assert_eq!(decode_entry(&encode_entry(game, k, op)), (game, k, op));
            }
        }
    }

    #[test]
    fn corner_lists_read_back_and_damage_ends_them() {
        let event = |game, k, corner, transposed, next| CornerEvent {
            game,
            k,
            corner,
            transposed,
            next,
        };
        let white_pass = 1 << KIND_SHIFT | NO_POINT;
        for events in [
            vec![],
            vec![event(0, 0, 0, false, NO_NEXT)],
            vec![
                event(0, 3, 1, true, 60),
                event(0, 9, 3, false, white_pass),
                event(1, 2, 2, false, 1 << KIND_SHIFT | 72),
                event(200, 1000, 0, true, NO_NEXT),
                event(16_000, 5, 1, false, 0),
                event(MAX_SEGMENT_GAMES, 1 << 20, 3, true, 2703),
            ],
            (0..1000)
                .map(|i| event(i * 37, i % 300, (i % 4) as u8, i % 3 == 0, i as u16))
                .collect(),
        ] {
            let mut bytes = Vec::new();
            encode_corner_events(events.iter().copied(), &mut bytes);
            assert_eq!(decode_corner_events(&bytes).collect::<Vec<_>>(), events);
            // The games alone: the same, each once.
            let mut games: Vec<u32> = events.iter().map(|e| e.game).collect();
            games.dedup();
            assert_eq!(decode_corner_games(&bytes).collect::<Vec<_>>(), games);
            // Cut anywhere: a prefix of the list, never a panic.
            for cut in 0..bytes.len() {
                let got: Vec<_> = decode_corner_events(&bytes[..cut]).collect();
                assert!(events.starts_with(&got));
                let mut first: Vec<u32> = got.iter().map(|e| e.game).collect();
                first.dedup();
                assert_eq!(
                    decode_corner_games(&bytes[..cut]).collect::<Vec<_>>(),
                    first
                );
            }
        }
        // Too many continuation bytes, or a number cut short: the list ends.
        assert_eq!(decode_corner_events(&[0xff; 12]).count(), 0);
        assert_eq!(
            decode_corner_events(&[5, 8, 1, 0, 0xff, 0xff, 0xff, 0xff, 0x7f]).count(),
            1
        );
        assert_eq!(decode_corner_events(&[5, 8, 0x80]).count(), 0);
        assert_eq!(decode_corner_games(&[0xff; 12]).count(), 0);
        assert_eq!(decode_corner_games(&[5, 8, 0x80]).count(), 0);
    }

    #[test]
    fn record_spans_read_back_and_damage_reads_as_none() {
        // 130 games: two full blocks and one of two games; game g's record is g + 1 bytes.
        let games = 2 * RECORDS_PER_BLOCK + 2;
        let mut idx = Vec::new();
        let mut blocks = Vec::new();
        let mut end = 0u32;
        for g in 0..games {
            if g % RECORDS_PER_BLOCK == 0 {
                end = 0;
                blocks.push(RecordAt::encode_block(1000 * g as u64, 77 + g as u32));
            }
            end += g as u32 + 1;
            idx.extend_from_slice(&end.to_le_bytes());
        }
        idx.extend(blocks.concat());
        assert_eq!(idx.len(), RecordAt::index_len(games));
        for g in 0..games {
            let at = RecordAt::find(idx.as_slice(), games, g).unwrap();
            let first = g - g % RECORDS_PER_BLOCK;
            assert_eq!(at.block_start, 1000 * first as u64);
            assert_eq!(at.block_len, 77 + first as u32);
            assert_eq!(at.len, g as u32 + 1);
            let before: u32 = (first..g).map(|h| h as u32 + 1).sum();
            assert_eq!(at.offset, before);
        }
        // Cut short: the games whose block entry is gone read as None, never a panic.
        let cut = &idx[..idx.len() - 1];
        assert!(RecordAt::find(cut, games, games - 1).is_none());
        assert!(RecordAt::find(cut, games, 0).is_some());
        assert!(RecordAt::find(&[][..], games, 0).is_none());
        // An end before its start (a damaged end) reads as None too.
        let mut bad = idx.clone();
        bad[4..8].copy_from_slice(&0u32.to_le_bytes());
        assert!(RecordAt::find(bad.as_slice(), games, 1).is_none());
    }
}
