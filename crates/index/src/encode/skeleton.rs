//! Record skeletons: a game's original record with its main-line move coordinates taken out.
//!
//! The store keeps every record byte for byte, for export, and also keeps the main line as a
//! replay program. The coordinates are the one part of a record that zstd cannot squeeze (about
//! 90% of a compressed record on the shared collections), and the program already holds them. So
//! each main-line move value that is exactly the canonical two letters of the program's point
//! (`pd`) is replaced by one [`MARKER`] byte, and reading the record puts the letters back from
//! the program.
//!
//! A record is stripped all or nothing: every move of the program that has a point must have
//! its value in canonical form, the values must come in program order, and the record must not
//! hold the marker byte already. Anything else (a `[pd ]`, a `[ pd]`, a two-move node written
//! White first, a UTF-16 file full of zero bytes) keeps its record whole.
//!
//! Those checks are what make [`restore`] give back the record, byte for byte: the record holds no
//! marker, so the skeleton's markers are exactly the ones put in; each stands for the two letters
//! of the next played point of the program, in order; and there are as many markers as played
//! points. Restoring the skeleton once more to compare it with the record (as earlier builds did)
//! therefore could not fail, and it was a visible part of a build's CPU (BENCHMARKS.md, Indexing:
//! skeletons). The round trip of every game of the samples and of `diverse` is tested
//! (`crates/index/tests/records.rs`), and in debug builds each skeleton is still compared.

use goban::Point;

use crate::encode::ops::Op;

/// Stands for a taken-out move value in a skeleton. A control byte that text records do not
/// use; a record that contains it is not stripped.
pub const MARKER: u8 = 0x01;

/// The skeleton of `record`, or `None` when it cannot be stripped exactly.
///
/// `ops` is the game's program as [`crate::encode::ops::encode_main_line_at`] wrote it, `values` the
/// offsets it gave for each move op, and `start` the offset of the record in its file.
pub fn strip(record: &[u8], start: usize, ops: &[u16], values: &[usize]) -> Option<Vec<u8>> {
    if memchr::memchr(MARKER, record).is_some() {
        return None;
    }
    let mut moves = ops.iter().filter_map(|&v| match Op::decode(v) {
        Op::Move(_, p) => Some(p),
        _ => None,
    });
    let mut out = Vec::with_capacity(record.len());
    let mut copied = 0;
    let mut stripped = 0usize;
    for &at in values {
        let Some(point) = moves.next()? else {
            continue; // a pass keeps its value as written
        };
        let at = at.checked_sub(start)?;
        let end = at.checked_add(2)?;
        let letters = point.to_sgf();
        if at < copied || record.get(at..end)? != letters || record.get(end) != Some(&b']') {
            return None;
        }
        append(&mut out, record, copied, at);
        out.push(MARKER);
        copied = end;
        stripped += 1;
    }
    if moves.next().is_some() || stripped == 0 {
        return None;
    }
    out.extend_from_slice(&record[copied..]);
    #[cfg(debug_assertions)]
    assert!(
        restores_to(&out, ops, record),
        "a skeleton that does not restore"
    );
    Some(out)
}

/// Whether [`restore`] gives back `record`, checked piece by piece without building it.
#[cfg(any(test, debug_assertions))]
fn restores_to(skeleton: &[u8], ops: &[u16], record: &[u8]) -> bool {
    let (mut at, mut done) = (0, 0);
    for p in played_points(ops) {
        let Some(marker) = next_marker(&skeleton[at..]).map(|i| at + i) else {
            return false;
        };
        let text = &skeleton[at..marker];
        let Some(end) = (done + text.len()).checked_add(2) else {
            return false;
        };
        let letters = Point::to_sgf(p);
        if !record.get(done..end - 2).is_some_and(|r| same(r, text))
            || !record.get(end - 2..end).is_some_and(|r| same(r, &letters))
        {
            return false;
        }
        (at, done) = (marker + 1, end);
    }
    let rest = &skeleton[at..];
    memchr::memchr(MARKER, rest).is_none() && record.get(done..) == Some(rest)
}

/// Appends `src[from..to]` to `out`. Most runs are the few bytes between two moves (`];W[`):
/// those are copied as one 8-byte block and the excess cut off, instead of by a general copy
/// of unknown length.
#[inline(always)]
fn append(out: &mut Vec<u8>, src: &[u8], from: usize, to: usize) {
    if to - from <= 8 {
        if let Some(block) = src.get(from..from + 8) {
            let block: &[u8; 8] = block.try_into().expect("eight bytes");
            let len = out.len();
            out.extend_from_slice(block);
            out.truncate(len + (to - from));
            return;
        }
    }
    out.extend_from_slice(&src[from..to]);
}

/// Whether two slices are equal; the short runs between moves are compared byte by byte, not
/// by a comparison call, whose overhead is larger than such a run (BENCHMARKS.md, Indexing:
/// skeletons).
#[cfg(any(test, debug_assertions))]
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    a == b
}

/// The offset of the first [`MARKER`] in `bytes`: a plain look at the first few bytes (where
/// the next marker usually is) before a vectorised search.
#[inline(always)]
fn next_marker(bytes: &[u8]) -> Option<usize> {
    let head = &bytes[..bytes.len().min(8)];
    match head.iter().position(|&b| b == MARKER) {
        Some(i) => Some(i),
        None if bytes.len() > 8 => memchr::memchr(MARKER, &bytes[8..]).map(|i| i + 8),
        None => None,
    }
}

/// The points of the program's moves, passes left out: one per marker of a skeleton.
fn played_points(ops: &[u16]) -> impl Iterator<Item = Point> + '_ {
    ops.iter().filter_map(|&v| match Op::decode(v) {
        Op::Move(_, Some(p)) => Some(p),
        _ => None,
    })
}

/// The record a skeleton was made from, given the game's program; `None` if they disagree.
pub fn restore(skeleton: &[u8], ops: &[u16]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(skeleton.len() + 2 * ops.len());
    let mut at = 0;
    for p in played_points(ops) {
        let marker = at + next_marker(&skeleton[at..])?;
        append(&mut out, skeleton, at, marker);
        out.extend_from_slice(&Point::to_sgf(p));
        at = marker + 1;
    }
    let rest = &skeleton[at..];
    if memchr::memchr(MARKER, rest).is_some() {
        return None;
    }
    out.extend_from_slice(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ops::encode_main_line_at;
    use sgf::Records;

    /// The skeleton of the first game of `src`, checked to restore exactly.
    fn skeleton(src: &[u8]) -> Option<Vec<u8>> {
        let r = Records::read(src);
        let t = r.game(0).unwrap();
        let (mut ops, mut values) = (Vec::new(), Vec::new());
        encode_main_line_at(&t, &mut ops, &mut values);
        let span = t.span();
        let record = &r.bytes()[span.start..span.end];
        let s = strip(record, span.start, &ops, &values)?;
        assert_eq!(restore(&s, &ops).as_deref(), Some(record));
        Some(s)
    }

    #[test]
    fn main_line_coordinates_come_out_and_go_back() {
        let s = skeleton(b"(;SZ[19]C[pd];B[pd];W[dp](;B[pp];W[]C[x])(;B[qq]))").unwrap();
        assert_eq!(
            s,
            b"(;SZ[19]C[pd];B[\x01];W[\x01](;B[\x01];W[]C[x])(;B[qq]))".to_vec()
        );
    }

    #[test]
    fn setup_two_move_nodes_and_later_games_of_a_file() {
        let s = skeleton(b"(;AB[aa][bb];B[cc]W[dd];AW[ee]B[ff])").unwrap();
        assert_eq!(s, b"(;AB[aa][bb];B[\x01]W[\x01];AW[ee]B[\x01])".to_vec());
        // Offsets are taken relative to the game, not its file.
        let src = b"(;B[aa])\n(;B[bb];W[tt];B[cc])";
        let r = Records::read(src);
        let t = r.game(1).unwrap();
        let (mut ops, mut values) = (Vec::new(), Vec::new());
        encode_main_line_at(&t, &mut ops, &mut values);
        let span = t.span();
        let record = &src[span.start..span.end];
        let s = strip(record, span.start, &ops, &values).unwrap();
        assert_eq!(s, b"(;B[\x01];W[tt];B[\x01])".to_vec());
        assert_eq!(restore(&s, &ops).unwrap(), record);
    }

    #[test]
    fn anything_not_canonical_keeps_the_record_whole() {
        for src in [
            &b"(;B[pd ];W[dp])"[..],
            b"(;B[ pd];W[dp])",
            b"(;W[dp]B[pd])",
            b"(;C[\x01];B[pd])",
            b"(;B[tt];W[])",
            b"(;GM[1])",
        ] {
            assert_eq!(
                skeleton(src),
                None,
                "{}",
                String::from_utf8_lossy(src).escape_debug()
            );
        }
    }

    #[test]
    fn the_check_agrees_with_restoring() {
        let ops = [
            Op::Move(goban::Color::Black, Some(Point::new(3, 3))).encode(),
            Op::Move(goban::Color::White, None).encode(),
            Op::Move(goban::Color::Black, Some(Point::new(15, 3))).encode(),
        ];
        let skeleton = b"(;B[\x01];W[];B[\x01])";
        let record = restore(skeleton, &ops).unwrap();
        assert_eq!(record, b"(;B[dd];W[];B[pd])".to_vec());
        assert!(restores_to(skeleton, &ops, &record));
        for wrong in [
            &b"(;B[dd];W[];B[pd]) "[..],
            b"(;B[dd];W[];B[pd]",
            b"(;B[dd];W[];B[pe])",
            b"(;B[dd]W[];B[pd])",
            b"",
        ] {
            assert!(!restores_to(skeleton, &ops, wrong));
        }
        assert!(!restores_to(b"(;B[\x01];W[])", &ops, &record));
        assert!(!restores_to(b"(;B[\x01];W[\x01];B[\x01])", &ops, &record));
    }

    #[test]
    fn a_skeleton_that_disagrees_with_its_program_is_refused() {
        let ops = [Op::Move(goban::Color::Black, Some(Point::new(3, 3))).encode()];
        assert_eq!(restore(b"(;B[\x01])", &ops).unwrap(), b"(;B[dd])".to_vec());
        assert_eq!(restore(b"(;B[\x01];W[\x01])", &ops), None);
        assert_eq!(restore(b"(;B[dd])", &ops), None);
    }
}
