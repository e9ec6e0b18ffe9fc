//! Replay programs of boards up to 19×19 in 12 bits per op instead of 16.
//!
//! Such a program's ops name a kind (7 of them) and a point of the board or none (a pass, a
//! mark): 7 × 362 codes, which fit 12 bits. Two ops then take three bytes, a quarter less than
//! their `u16`s, and unpacking is one table lookup per op. A program with a point the code
//! cannot name (a move off a 19×19 board, a larger board) is stored as it is.

use std::sync::OnceLock;

use crate::layout::op::{
    KINDS, KIND_SHIFT, NO_POINT, PACKED_BITS, PACKED_SIDE as SIDE, PACKED_SLOTS as SLOTS,
    POINT_STRIDE,
};

/// The slot of "no point", after the points of the board.
const NO_SLOT: u16 = SLOTS - 1;
/// Codes of 12 bits.
const CODES: usize = 1 << PACKED_BITS;
const CODE_MASK: u32 = (1 << PACKED_BITS) - 1;

/// The 12-bit code of an op, if it has one.
fn code(v: u16) -> Option<u16> {
    let (kind, point) = (v >> KIND_SHIFT, v & NO_POINT);
    let slot = if point == NO_POINT {
        NO_SLOT
    } else {
        let (x, y) = (point % POINT_STRIDE, point / POINT_STRIDE);
        if x >= SIDE || y >= SIDE {
            return None;
        }
        y * SIDE + x
    };
    (kind < KINDS).then_some(kind * SLOTS + slot)
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

/// Packs `ops` into `out` if every op has a code; returns whether it did (if not, `out` is as it
/// was).
pub fn pack(ops: &[u16], out: &mut Vec<u8>) -> bool {
    let start = out.len();
    out.reserve(packed_len(ops.len()));
    let mut pairs = ops.chunks_exact(2);
    for pair in &mut pairs {
        let (Some(a), Some(b)) = (code(pair[0]), code(pair[1])) else {
            out.truncate(start);
            return false;
        };
        out.extend_from_slice(&[a as u8, (a >> 8) as u8 | (b << 4) as u8, (b >> 4) as u8]);
    }
    if let [last] = *pairs.remainder() {
        let Some(a) = code(last) else {
            out.truncate(start);
            return false;
        };
        out.extend_from_slice(&a.to_le_bytes());
    }
    true
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
        let len = if packed { packed_len(n) } else { n * 2 };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Op;
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

    #[test]
    fn damaged_bytes_unpack_without_panic() {
        let mut out = Vec::new();
        unpack(&[0xff; 7], 9, &mut out);
        assert_eq!(out.len(), 4);
    }
}
