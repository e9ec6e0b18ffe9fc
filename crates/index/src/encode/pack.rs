//! Replay programs of boards up to 19×19 in 12 bits per op instead of 16.
//!
//! Such a program's ops name a kind (7 of them) and a point of the board or none (a pass, a
//! mark): 7 × 362 codes, which fit 12 bits. Two ops then take three bytes, a quarter less than
//! their `u16`s, and unpacking is one table lookup per op. A program with a point the code
//! cannot name (a move off a 19×19 board, a larger board) is stored as it is.

use std::sync::OnceLock;

use crate::store::layout::op::{
    KINDS, KIND_SHIFT, NO_POINT, PACKED_BITS, PACKED_SIDE as SIDE, PACKED_SLOTS as SLOTS,
    POINT_STRIDE,
};

/// The slot of "no point", after the points of the board.
const NO_SLOT: u16 = SLOTS - 1;
/// Codes of 12 bits.
const CODES: usize = 1 << PACKED_BITS;
const CODE_MASK: u32 = (1 << PACKED_BITS) - 1;

/// The 12-bit code of an op, if it has one.
#[inline]
fn code(v: u16) -> Option<u16> {
    let kind = v >> KIND_SHIFT;
    let slot = slots()[usize::from(v & NO_POINT)];
    // Computed only for a code: past the table's slots the sum would overflow.
    (kind < KINDS && slot != NO_CODE).then(|| kind * SLOTS + slot)
}

/// What [`slots`] gives a point the code cannot name.
const NO_CODE: u16 = u16::MAX;

/// The slot of each point field of an op (`v & NO_POINT`), or [`NO_CODE`]: a table read once
/// per op instead of a division and two comparisons, since every op of every game indexed is
/// coded.
fn slots() -> &'static [u16; NO_POINT as usize + 1] {
    static SLOTS_OF: OnceLock<[u16; NO_POINT as usize + 1]> = OnceLock::new();
    SLOTS_OF.get_or_init(|| {
        let mut t = [NO_CODE; NO_POINT as usize + 1];
        for (point, slot) in t.iter_mut().enumerate() {
            let point = point as u16;
            let (x, y) = (point % POINT_STRIDE, point / POINT_STRIDE);
            if point == NO_POINT {
                *slot = NO_SLOT;
            } else if x < SIDE && y < SIDE {
                *slot = y * SIDE + x;
            }
        }
        t
    })
}

/// The op of each code; codes no op has (only in a damaged file) read as kind 7, a mark.
fn table() -> &'static [u16; CODES] {
    static TABLE: OnceLock<[u16; CODES]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [KINDS << KIND_SHIFT | NO_POINT; CODES];
        for (c, op) in t.iter_mut().enumerate().take((KINDS * SLOTS) as usize) {
            let (kind, slot) = (c as u16 / SLOTS, c as u16 % SLOTS);
            let point = if slot == NO_SLOT {
                NO_POINT
            } else {
                (slot / SIDE) * POINT_STRIDE + slot % SIDE
            };
            *op = kind << KIND_SHIFT | point;
        }
        t
    })
}

/// Bytes of `n` packed ops.
pub fn packed_len(n: usize) -> usize {
    n / 2 * 3 + n % 2 * 2
}

/// Bytes of a stored program of `n` ops, packed or as `u16`s.
pub(crate) fn stored_len(n: usize, packed: bool) -> usize {
    if packed {
        packed_len(n)
    } else {
        n * 2
    }
}

/// Packs `ops` into `out` if every op has a code; returns whether it did (if not, `out` is as it
/// was). Every game indexed is packed, so the room is made once and filled in place, and each
/// op's slot comes from [`slots`] (BENCHMARKS.md, Indexing: program packing).
pub fn pack(ops: &[u16], out: &mut Vec<u8>) -> bool {
    let start = out.len();
    out.resize(start + packed_len(ops.len()), 0);
    let dst = &mut out[start..];
    let mut pairs = ops.chunks_exact(2);
    let mut ok = true;
    for (pair, d) in (&mut pairs).zip(dst.chunks_exact_mut(3)) {
        let (Some(a), Some(b)) = (code(pair[0]), code(pair[1])) else {
            ok = false;
            break;
        };
        d[0] = a as u8;
        d[1] = (a >> 8) as u8 | (b << 4) as u8;
        d[2] = (b >> 4) as u8;
    }
    if let (true, &[last]) = (ok, pairs.remainder()) {
        match code(last) {
            Some(a) => {
                let end = dst.len();
                dst[end - 2..].copy_from_slice(&a.to_le_bytes());
            }
            None => ok = false,
        }
    }
    if !ok {
        out.truncate(start);
    }
    ok
}

/// Unpacks `n` ops from `bytes` (as [`pack`] wrote them), appending them to `out`. Searches
/// unpack every candidate game, so this is written for speed: one 24-bit load and two table
/// lookups per pair, into room made once.
pub fn unpack(bytes: &[u8], n: usize, out: &mut Vec<u16>) {
    let t = table();
    let pairs = (n / 2).min(bytes.len() / 3);
    let start = out.len();
    out.resize(start + pairs * 2, 0);
    for (o, b) in out[start..].chunks_exact_mut(2).zip(bytes.chunks_exact(3)) {
        let v = u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16;
        o[0] = t[(v & CODE_MASK) as usize];
        o[1] = t[(v >> PACKED_BITS & CODE_MASK) as usize];
    }
    if n % 2 == 1 && pairs == n / 2 {
        if let Some(b) = bytes.get(pairs * 3..pairs * 3 + 2) {
            out.push(t[(b[0] as usize | (b[1] as usize) << 8) & CODE_MASK as usize]);
        }
    }
}

/// The ops of a stored program, unpacked one at a time as they are read: a scan that stops
/// after a few dozen ops of a program of hundreds reads no further, and needs no buffer. The
/// `i`-th op of a packed program is the low 12 bits of bytes `3i/2`, `3i/2 + 1` (even `i`) or
/// the high 12 bits of the next two (odd `i`), so each op is one 16-bit load, a shift and one
/// table lookup. A program cut short (a damaged file) reads as empty, as [`unpack`]'s caller
/// does.
#[derive(Clone, Debug)]
pub struct Ops<'a> {
    bytes: &'a [u8],
    next: usize,
    n: usize,
    packed: bool,
    table: &'static [u16; CODES],
}

impl<'a> Ops<'a> {
    /// The `n` ops stored in `bytes`, packed by [`pack`] or as little-endian `u16`s.
    pub fn new(bytes: &'a [u8], n: usize, packed: bool) -> Ops<'a> {
        let len = stored_len(n, packed);
        let (bytes, n) = match bytes.get(..len) {
            Some(b) => (b, n),
            None => (&[][..], 0),
        };
        Ops {
            bytes,
            next: 0,
            n,
            packed,
            table: table(),
        }
    }
}

impl Iterator for Ops<'_> {
    type Item = u16;

    #[inline(always)]
    fn next(&mut self) -> Option<u16> {
        let i = self.next;
        if i >= self.n {
            return None;
        }
        self.next = i + 1;
        if self.packed {
            let at = i / 2 * 3 + (i & 1);
            // In bounds: the last op of a program of odd length has two bytes.
            let v = u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]]);
            let code = (v >> ((i & 1) * 4)) & CODE_MASK as u16;
            Some(self.table[usize::from(code)])
        } else {
            Some(u16::from_le_bytes([
                self.bytes[2 * i],
                self.bytes[2 * i + 1],
            ]))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.n - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Ops<'_> {}

/// The ops a scan must read one by one: those on the points it follows. A pattern scan follows
/// a few dozen points and reads a hundred ops a game, most of them elsewhere; for those it only
/// counts the moves ([`Ops::next_watched`]), which a table over the 12-bit codes tells in one
/// look-up per op, without unpacking it.
#[derive(Clone, Debug)]
pub struct Watch {
    /// Per 12-bit code: [`MOVE`] if the op is a move, [`WATCHED`] if its point is followed.
    codes: Box<[u8; CODES]>,
    /// Per point index (`y * 52 + x`, below 8192): whether it is followed, for programs stored
    /// unpacked.
    points: Box<[u64; 128]>,
}

/// [`Watch::codes`]' flag of a move op.
const MOVE: u8 = 1;
/// [`Watch::codes`]' flag of an op on a followed point.
const WATCHED: u8 = 2;

impl Watch {
    /// Follows the points (by index `y * 52 + x`) for which `followed` holds. "No point" (a
    /// pass, a mark) is never followed.
    pub fn new(followed: impl Fn(usize) -> bool) -> Watch {
        let mut points = Box::new([0u64; 128]);
        for i in 0..usize::from(NO_POINT) {
            if followed(i) {
                points[i / 64] |= 1 << (i % 64);
            }
        }
        let mut codes = Box::new([0u8; CODES]);
        for (flags, &op) in codes.iter_mut().zip(table().iter()) {
            *flags = Watch::flags(&points, op);
        }
        Watch { codes, points }
    }

    /// Whether the point of index `point` (`y * 52 + x`) is followed.
    #[inline]
    pub fn follows(&self, point: usize) -> bool {
        Watch::holds(&self.points, point)
    }

    /// Whether `points` holds the point of index `point`; never "no point".
    #[inline(always)]
    fn holds(points: &[u64; 128], point: usize) -> bool {
        point < usize::from(NO_POINT) && points[point / 64] >> (point % 64) & 1 == 1
    }

    /// The flags of an unpacked op.
    #[inline(always)]
    fn flags(points: &[u64; 128], op: u16) -> u8 {
        let watched = Watch::holds(points, usize::from(op & NO_POINT));
        (u8::from(op >> KIND_SHIFT < 2) * MOVE) | (u8::from(watched) * WATCHED)
    }
}

impl Ops<'_> {
    /// Passes over the ops on points `watch` does not follow, and takes the next op on one it
    /// does: returns how many moves were passed, and that op (`None` at the end). Packed
    /// programs are read two ops (three bytes) at a time, each op one look-up in the watch's
    /// table.
    #[inline]
    pub fn next_watched(&mut self, watch: &Watch) -> (u32, Option<u16>) {
        let mut moves = 0u32;
        if !self.packed {
            while self.next < self.n {
                let i = self.next;
                let op = u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]]);
                self.next = i + 1;
                let flags = Watch::flags(&watch.points, op);
                if flags & WATCHED != 0 {
                    return (moves, Some(op));
                }
                moves += u32::from(flags & MOVE);
            }
            return (moves, None);
        }
        loop {
            let i = self.next;
            if i >= self.n {
                return (moves, None);
            }
            let at = i / 2 * 3;
            if i & 1 == 0 && i + 2 <= self.n {
                // Both ops of the pair: in bounds, as `packed_len` counts three bytes a pair.
                let b = &self.bytes[at..at + 3];
                let v = u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16;
                let (first, second) = (
                    watch.codes[(v & CODE_MASK) as usize],
                    watch.codes[(v >> PACKED_BITS & CODE_MASK) as usize],
                );
                if (first | second) & WATCHED == 0 {
                    moves += u32::from(first & MOVE) + u32::from(second & MOVE);
                    self.next = i + 2;
                    continue;
                }
            }
            // One op: the pair holds a followed one, or this is a pair's second or the last.
            let v = u16::from_le_bytes([self.bytes[at + (i & 1)], self.bytes[at + (i & 1) + 1]]);
            let code = usize::from((v >> ((i & 1) * 4)) & CODE_MASK as u16);
            self.next = i + 1;
            let flags = watch.codes[code];
            if flags & WATCHED != 0 {
                return (moves, Some(self.table[code]));
            }
            moves += u32::from(flags & MOVE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ops::Op;
    use goban::{Color, Point};

    #[test]
    fn every_op_of_a_19x19_board_round_trips() {
        let mut ops = Vec::new();
        for y in 0..19 {
            for x in 0..19 {
                let p = Point::new(x, y);
                ops.extend([
                    Op::Move(Color::Black, Some(p)),
                    Op::Move(Color::White, Some(p)),
                    Op::Setup(Some(Color::Black), p),
                    Op::Setup(Some(Color::White), p),
                    Op::Setup(None, p),
                    Op::Remove(p),
                ]);
            }
        }
        ops.extend([
            Op::Move(Color::Black, None),
            Op::Mark,
            Op::Move(Color::White, None),
        ]);
        for n in [0, 1, 2, 3, ops.len()] {
            let raw: Vec<u16> = ops[..n].iter().map(|o| o.encode()).collect();
            let mut bytes = Vec::new();
            assert!(pack(&raw, &mut bytes));
            assert_eq!(bytes.len(), packed_len(n));
            let mut back = Vec::new();
            unpack(&bytes, n, &mut back);
            assert_eq!(back, raw);
            // One at a time, as a scan reads them, packed and not.
            assert_eq!(Ops::new(&bytes, n, true).collect::<Vec<_>>(), raw);
            assert_eq!(Ops::new(&bytes, n, true).len(), n);
            let wide: Vec<u8> = raw.iter().flat_map(|v| v.to_le_bytes()).collect();
            assert_eq!(Ops::new(&wide, n, false).collect::<Vec<_>>(), raw);
        }
        // A program cut short reads as empty, packed or not.
        assert_eq!(Ops::new(&[0xff; 4], 3, true).count(), 0);
        assert_eq!(Ops::new(&[0xff; 5], 3, false).count(), 0);
    }

    #[test]
    fn points_off_a_19x19_board_are_not_packed() {
        let off = Op::Move(Color::Black, Some(Point::new(19, 3))).encode();
        assert!(!pack(&[off], &mut Vec::new()));
        // Of every kind and on either side of the board.
        for p in [Point::new(19, 3), Point::new(3, 19), Point::new(51, 51)] {
            for op in [
                Op::Move(Color::White, Some(p)),
                Op::Setup(Some(Color::Black), p),
                Op::Setup(Some(Color::White), p),
                Op::Setup(None, p),
                Op::Remove(p),
            ] {
                assert!(!pack(&[op.encode()], &mut Vec::new()), "{op:?}");
            }
        }
        // Anywhere in the program, first or second of a pair: the output is left as it was.
        let good = Op::Move(Color::Black, Some(Point::new(3, 3))).encode();
        for ops in [
            vec![good, good, off],
            vec![good, off, good],
            vec![off, good, good, good],
        ] {
            let mut out = vec![9u8];
            assert!(!pack(&ops, &mut out));
            assert_eq!(out, [9]);
        }
    }

    /// [`Ops::next_watched`] taken to the end, as (moves passed, op) pairs, against the same
    /// read one op at a time.
    fn watched_steps(mut ops: Ops<'_>, watch: &Watch) -> Vec<(u32, Option<u16>)> {
        let mut steps = Vec::new();
        loop {
            let step = ops.next_watched(watch);
            steps.push(step);
            if step.1.is_none() {
                return steps;
            }
        }
    }

    fn watched_steps_one_by_one(
        ops: &[u16],
        followed: &dyn Fn(usize) -> bool,
    ) -> Vec<(u32, Option<u16>)> {
        let mut steps = Vec::new();
        let mut moves = 0;
        for &op in ops {
            let point = usize::from(op & NO_POINT);
            if point != usize::from(NO_POINT) && followed(point) {
                steps.push((moves, Some(op)));
                moves = 0;
            } else if matches!(Op::decode(op), Op::Move(..)) {
                moves += 1;
            }
        }
        steps.push((moves, None));
        steps
    }

    #[test]
    fn watched_ops_are_found_as_one_by_one_packed_or_not() {
        // A pseudo-random program of every kind on a 19×19 board, passes and marks included.
        let mut next = testdata::xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..200 {
            let n = (next() % 300) as usize;
            let ops: Vec<u16> = (0..n)
                .map(|_| {
                    let r = next();
                    let p = Point::new((r % 19) as u8, (r / 19 % 19) as u8);
                    let c = if r >> 20 & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    match (r >> 24) % 16 {
                        0 => Op::Move(c, None),
                        1 => Op::Mark,
                        2 => Op::Setup(Some(c), p),
                        3 => Op::Setup(None, p),
                        4 | 5 => Op::Remove(p),
                        _ => Op::Move(c, Some(p)),
                    }
                    .encode()
                })
                .collect();
            // From no point followed to about half of them.
            let salt = next();
            let share = round % 5;
            let followed = move |i: usize| (i as u64 ^ salt).wrapping_mul(0x2545_f491) % 8 < share;
            let watch = Watch::new(followed);
            let expected = watched_steps_one_by_one(&ops, &followed);
            let mut bytes = Vec::new();
            assert!(pack(&ops, &mut bytes));
            assert_eq!(watched_steps(Ops::new(&bytes, n, true), &watch), expected);
            let wide: Vec<u8> = ops.iter().flat_map(|v| v.to_le_bytes()).collect();
            assert_eq!(watched_steps(Ops::new(&wide, n, false), &watch), expected);
            // Read one op first, so that the packed reader starts at a pair's second op.
            if n > 0 {
                let mut from_one = Ops::new(&bytes, n, true);
                from_one.next();
                assert_eq!(
                    watched_steps(from_one, &watch),
                    watched_steps_one_by_one(&ops[1..], &followed)
                );
            }
            // `follows` says what the table says.
            for i in 0..8192 {
                assert_eq!(watch.follows(i), i < 8191 && followed(i), "{i}");
            }
        }
        // A program cut short reads as empty.
        assert_eq!(
            watched_steps(Ops::new(&[0xff; 4], 3, true), &Watch::new(|_| true)),
            [(0, None)]
        );
    }

    #[test]
    fn damaged_bytes_unpack_without_panic() {
        let mut out = Vec::new();
        unpack(&[0xff; 7], 9, &mut out);
        assert_eq!(out.len(), 4);
    }
}
