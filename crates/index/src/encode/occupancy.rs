//! Which points ever held a black or a white stone, per game, and the filter built on it.
//!
//! A game can only contain a position or a pattern if it ever had the stones the query needs, so
//! searches that must follow games move by move first keep only the games whose occupancy
//! [covers](Occupancy::covers) the query's. The store keeps occupancy *by point*: for each colour
//! and each of the 361 points of a 19×19 board, one bit per game of the segment. A query needing
//! n stones then reads n such columns and ANDs them (a few hundred kilobytes for a million games),
//! instead of reading every game's 96 bytes (tens of megabytes). Other board sizes keep no
//! occupancy and are not filtered.

use crate::store::leb::{push_leb, read_leb};
use crate::store::Bytes;

/// Points of a 19×19 board.
const POINTS: usize = 361;

/// Points of a 19×19 board by colour, 361 bits each: for a game, every point that ever held a
/// black / a white stone; for a query, the stones it needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occupancy(pub [[u64; 6]; 2]);

impl Occupancy {
    /// Adds a stone; points off the 19×19 board are ignored.
    pub fn insert(&mut self, color: goban::Color, p: goban::Point) {
        if p.x < 19 && p.y < 19 {
            let bit = p.y as usize * 19 + p.x as usize;
            self.0[(color == goban::Color::White) as usize][bit / 64] |= 1 << (bit % 64);
        }
    }

    /// Whether every stone of `want` is in `self`, colour by colour.
    pub fn covers(&self, want: &Occupancy) -> bool {
        (0..2).all(|c| (0..6).all(|w| self.0[c][w] & want.0[c][w] == want.0[c][w]))
    }

    /// The (colour, point) columns of the stones: colour × 361 + point.
    fn columns(&self) -> impl Iterator<Item = usize> + '_ {
        (0..2).flat_map(move |c| {
            (0..6).flat_map(move |w| {
                let mut word = self.0[c][w];
                std::iter::from_fn(move || {
                    (word != 0).then(|| {
                        let b = word.trailing_zeros() as usize;
                        word &= word - 1;
                        c * POINTS + w * 64 + b
                    })
                })
            })
        })
    }
}

/// The points of a 19×19 game whose stone ever left or changed colour: captured, taken off by
/// setup, or overwritten. At any other point a stone, once put, stays to the end of the game, so
/// a search can tell that a shape which needs that point empty (or of the other colour) will
/// never be seen again after the stone came, and stop following the game (see the search's
/// pattern scan). Bit `y * 19 + x`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vacated(pub [u64; 6]);

/// A 19×19 program's [`Occupancy`] and [`Vacated`] points, from its ops with their removals
/// ([`crate::encode::ops::with_removals`]), in one pass with the board's stones as two bit sets (one pass
/// for each, one of them through a table of the 361 points cleared for every game, took more:
/// BENCHMARKS.md, Indexing: occupancy in one pass). A point held a stone of a colour when a move or
/// setup put one there; it is vacated when its stone left: taken off (a removal, setup that empties
/// it) or replaced by the other colour's. A setup without a point counts for the corner point's
/// occupancy, as [`crate::encode::ops::Op::decode`] reads it.
pub(crate) fn stones_of(ops: &[u16]) -> (Occupancy, Vacated) {
    use crate::encode::ops::{Raw, RawKind};
    use crate::store::layout::op::NO_POINT;
    // By colour: every point that ever held such a stone, and the points that hold one now.
    let (mut ever, mut now, mut vacated) = ([[0u64; 6]; 2], [[0u64; 6]; 2], [0u64; 6]);
    for &v in ops {
        let op = Raw::split(v);
        let p = Raw::point_at(op.point);
        let on_board = p.x < 19 && p.y < 19;
        let bit = p.y as usize * 19 + p.x as usize;
        let (w, b) = (bit / 64, 1u64 << (bit % 64));
        match op.kind {
            // A stone of colour `c`: the other colour's stone there, if any, left.
            RawKind::Move(c) | RawKind::Put(Some(c)) => {
                let c = c as usize;
                if on_board {
                    ever[c][w] |= b;
                    vacated[w] |= now[1 - c][w] & b;
                    now[1 - c][w] &= !b;
                    now[c][w] |= b;
                } else if matches!(op.kind, RawKind::Put(_)) && op.point == usize::from(NO_POINT) {
                    ever[c][0] |= 1;
                }
            }
            // Emptied (setup or a removal): whatever stone stood there left.
            RawKind::Put(None) if on_board => {
                vacated[w] |= (now[0][w] | now[1][w]) & b;
                now[0][w] &= !b;
                now[1][w] &= !b;
            }
            _ => {}
        }
    }
    (Occupancy(ever), Vacated(vacated))
}

impl Vacated {
    /// Every point: what a game of another board, or a damaged file, reads as (no point is known
    /// to keep its stone).
    pub const ALL: Vacated = Vacated([u64::MAX; 6]);

    /// Appends this game's list to `vacated.bin`'s bytes: in LEB128 numbers, 0 for
    /// [`Vacated::ALL`], else one more than the number of points, then the points (bit numbers)
    /// ascending, the first as itself and each other as its gap from the one before. A game has
    /// a dozen such points on average, so this takes about 14 bytes where the 361 bits take 46.
    pub fn encode(&self, out: &mut Vec<u8>) {
        if *self == Vacated::ALL {
            out.push(0);
            return;
        }
        // The points' words, without the bits past the 361st; read a set bit at a time.
        let mut words = self.0;
        words[5] &= (1 << (POINTS - 320)) - 1;
        let count: u32 = words.iter().map(|w| w.count_ones()).sum();
        push_leb(count + 1, out);
        let mut last = 0;
        for (i, mut w) in words.into_iter().enumerate() {
            while w != 0 {
                let b = i * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                push_leb((b - last) as u32, out);
                last = b;
            }
        }
    }

    /// The set [`Vacated::encode`] wrote at the start of `bytes`, with the bits past the 361st
    /// set; `None` when the list is malformed (cut short, or a point past the board).
    pub fn decode(bytes: &[u8]) -> Option<Vacated> {
        let mut at = 0;
        let n = read_leb(bytes, &mut at)?;
        if n == 0 {
            return Some(Vacated::ALL);
        }
        let mut v = Vacated([0; 6]);
        let mut bit = 0usize;
        for i in 0..n - 1 {
            let gap = read_leb(bytes, &mut at)? as usize;
            // Ascending: every gap but the first is at least 1.
            if i > 0 && gap == 0 {
                return None;
            }
            bit = bit.checked_add(gap).filter(|&b| b < POINTS)?;
            v.0[bit / 64] |= 1 << (bit % 64);
        }
        v.0[5] |= !0u64 << (POINTS - 320);
        Some(v)
    }
}

/// Words of one column for `games` games.
fn words(games: usize) -> usize {
    games.div_ceil(64)
}

/// Whether game `game` of a column layout of `games` games ([`to_columns`]) ever had a stone of
/// `color` at `p`; `Some(false)` off the 19×19 board, `None` past a damaged file's end (then it
/// may have: a search must not give up on a game it cannot read).
pub fn had<B: Bytes + ?Sized>(
    columns: &B,
    games: usize,
    game: usize,
    color: goban::Color,
    p: goban::Point,
) -> Option<bool> {
    if p.x >= 19 || p.y >= 19 {
        return Some(false);
    }
    let column =
        (color == goban::Color::White) as usize * POINTS + p.y as usize * 19 + p.x as usize;
    let at = (column * words(games) + game / 64) * 8;
    columns
        .get(at..at + 8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()) >> (game % 64) & 1 == 1)
}

/// The column layout of the occupancy of `games` (in order): 722 columns of
/// ⌈games / 64⌉ little-endian `u64` words, then how many games each column holds (722
/// little-endian `u32`s), so that a filter can AND the emptiest columns first.
pub fn to_columns(games: &[Occupancy]) -> Vec<u8> {
    let w = words(games.len());
    let mut cols = vec![0u64; 2 * POINTS * w];
    let mut counts = [0u32; 2 * POINTS];
    // The games are taken 64 at a time, their bits gathered per column in a small block, and
    // each column's word written once: setting bit by bit straight in the columns touched a
    // cache line of a 20 MB array per stone (BENCHMARKS.md, Indexing: occupancy in one pass).
    let mut block = [0u64; 2 * POINTS];
    for (b, chunk) in games.chunks(64).enumerate() {
        block.fill(0);
        for (i, occ) in chunk.iter().enumerate() {
            for col in occ.columns() {
                block[col] |= 1 << i;
            }
        }
        for (col, &bits) in block.iter().enumerate() {
            cols[col * w + b] = bits;
            counts[col] += bits.count_ones();
        }
    }
    let mut out = Vec::with_capacity(cols.len() * 8 + counts.len() * 4);
    for v in &cols {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for c in &counts {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out
}

/// The columns of `need`, those holding the fewest games first: a block of the AND then
/// empties after fewer columns (a first-line point is held in few games, a 4-4 point in most).
fn rarest_first<B: Bytes + ?Sized>(columns: &B, w: usize, need: &Occupancy) -> Vec<usize> {
    let mut cols: Vec<usize> = need.columns().collect();
    let at = 2 * POINTS * w * 8;
    if let Some(counts) = columns.get(at..at + 2 * POINTS * 4) {
        let count = |c: usize| u32::from_le_bytes(counts[c * 4..c * 4 + 4].try_into().unwrap());
        cols.sort_by_key(|&c| count(c));
    }
    cols
}

/// Over the column layout of `games` games: the games whose occupancy covers at least one of
/// `needs`, as a bitmap of ⌈games / 64⌉ words.
pub fn covering<B: Bytes + ?Sized>(columns: &B, games: usize, needs: &[Occupancy]) -> Vec<u64> {
    let w = words(games);
    let needs: Vec<Vec<usize>> = needs.iter().map(|n| rarest_first(columns, w, n)).collect();
    // Each word of the answer is written once, block by block, and never read first: a fresh
    // allocation read before it is written maps the kernel's zero page, and the write then
    // costs a second fault that flushes the other cores' TLBs (12% of a side pattern's time
    // at 3.4 M games, where each placement's bitmap was ORed into a zeroed one). One block of
    // the AND is reused for every need: a pattern placed anywhere has thousands.
    let mut out = Vec::with_capacity(w);
    let (mut acc, mut block) = ([0u64; BLOCK], [0u64; BLOCK]);
    for start in (0..w).step_by(BLOCK) {
        let n = BLOCK.min(w - start);
        block[..n].fill(0);
        for cols in &needs {
            and_block(columns, games, start, cols, &mut acc[..n]);
            for (o, a) in block[..n].iter_mut().zip(&acc[..n]) {
                *o |= a;
            }
        }
        out.extend_from_slice(&block[..n]);
    }
    out
}

/// How many words of the columns [`and_block`] ANDs at a time (4,096 games).
const BLOCK: usize = 64;

/// Over the column layout of `games` games: into `acc`, the words from `start` on of the games
/// that have every column of `cols` (rarest first).
///
/// A block stops as soon as no game in it is left: a need of thirty stones usually costs a few
/// columns per block.
#[inline]
fn and_block<B: Bytes + ?Sized>(
    columns: &B,
    games: usize,
    start: usize,
    cols: &[usize],
    acc: &mut [u64],
) {
    let (w, n) = (words(games), acc.len());
    acc.fill(u64::MAX);
    if start + n == w && !games.is_multiple_of(64) {
        acc[n - 1] = (1 << (games % 64)) - 1;
    }
    for &c in cols {
        let at = (c * w + start) * 8;
        // A damaged (short) file reads as no stones: fewer candidates, never a panic.
        let Some(bytes) = columns.get(at..at + n * 8) else {
            acc.fill(0);
            return;
        };
        let mut any = 0;
        for (a, b) in acc.iter_mut().zip(bytes.chunks_exact(8)) {
            *a &= u64::from_le_bytes(b.try_into().unwrap());
            any |= *a;
        }
        if any == 0 {
            return;
        }
    }
}

/// Over the column layout of `games` games: of the games `among`, those whose occupancy covers
/// at least one of `needs`, in the order given. Each game is looked up bit by bit, rarest
/// column first, and a need is given up at its first missing stone: for a few thousand
/// candidates (a corner table's answer) a few words each, where [`covering`] reads every game's
/// bits. A game past a damaged (short) file's end is kept: it may have the stones.
pub fn covering_among<B: Bytes + ?Sized>(
    columns: &B,
    games: usize,
    among: &[u32],
    needs: &[Occupancy],
) -> Vec<u32> {
    let w = words(games);
    let cols: Vec<Vec<usize>> = needs.iter().map(|n| rarest_first(columns, w, n)).collect();
    let bit = |c: usize, g: usize| {
        let at = (c * w + g / 64) * 8;
        columns
            .get(at..at + 8)
            .is_none_or(|b| u64::from_le_bytes(b.try_into().unwrap()) >> (g % 64) & 1 == 1)
    };
    among
        .iter()
        .copied()
        .filter(|&g| {
            (g as usize) < games
                && cols
                    .iter()
                    .any(|need| need.iter().all(|&c| bit(c, g as usize)))
        })
        .collect()
}

/// Over the column layout of `games` games: the games (ascending) whose occupancy covers at
/// least one of `needs` (the first 64), each with the needs it covers (bit i = need i).
pub fn covering_each<B: Bytes + ?Sized>(
    columns: &B,
    games: usize,
    needs: &[Occupancy],
) -> Vec<(u32, u64)> {
    let w = words(games);
    let needs: Vec<Vec<usize>> = needs[..needs.len().min(64)]
        .iter()
        .map(|n| rarest_first(columns, w, n))
        .collect();
    // Every need is done on a block before the next block, so that each game's needs are
    // gathered while the block's words are in the cache, and no bitmap is made per need.
    let mut acc = vec![[0u64; BLOCK]; needs.len()];
    let mut out = Vec::new();
    for start in (0..w).step_by(BLOCK) {
        let n = BLOCK.min(w - start);
        for (acc, cols) in acc.iter_mut().zip(&needs) {
            and_block(columns, games, start, cols, &mut acc[..n]);
        }
        for j in 0..n {
            let mut any = acc.iter().fold(0, |a, w| a | w[j]);
            while any != 0 {
                let b = any.trailing_zeros();
                any &= any - 1;
                let mask = acc
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (i, w)| m | (w[j] >> b & 1) << i);
                out.push((((start + j) * 64) as u32 + b, mask));
            }
        }
    }
    out
}

#[cfg(test)]
mod vacated_tests {
    use super::*;
    use crate::encode::ops::Op;
    use goban::{Color, Point};

    #[test]
    fn points_that_lost_a_stone_are_vacated_and_read_back() {
        let at = |x, y| Some(Point::new(x, y));
        let ops = [
            Op::Move(Color::Black, at(3, 3)).encode(),
            Op::Move(Color::White, at(4, 3)).encode(),
            Op::Remove(Point::new(3, 3)).encode(),
            // Overwritten (an irregular move onto a stone) and put again by setup.
            Op::Move(Color::Black, at(4, 3)).encode(),
            Op::Setup(Some(Color::Black), Point::new(18, 18)).encode(),
            Op::Setup(Some(Color::Black), Point::new(18, 18)).encode(),
            Op::Move(Color::White, None).encode(),
        ];
        let v = stones_of(&ops).1;
        let bit = |x: usize, y: usize| v.0[(y * 19 + x) / 64] >> ((y * 19 + x) % 64) & 1;
        assert_eq!(bit(3, 3), 1);
        assert_eq!(bit(4, 3), 1);
        assert_eq!(bit(18, 18), 0, "the same stone put twice stays");
        assert_eq!(v.0.iter().map(|w| w.count_ones()).sum::<u32>(), 2);
        let mut bytes = Vec::new();
        v.encode(&mut bytes);
        assert_eq!(bytes.len(), 3, "a count and two points");
        let low = |v: &Vacated| (v.0[..5].to_vec(), v.0[5] & ((1 << (361 - 320)) - 1));
        assert_eq!(low(&Vacated::decode(&bytes).unwrap()), low(&v));
        for v in [
            Vacated::ALL,
            Vacated::default(),
            Vacated([u64::MAX, 0, 1, 0, 0, 1 << 40]),
        ] {
            let mut bytes = Vec::new();
            v.encode(&mut bytes);
            let back = Vacated::decode(&bytes).unwrap();
            assert_eq!(low(&back), low(&v));
            assert_eq!(
                back.0[5] >> (361 - 320),
                !0u64 >> (361 - 320),
                "past the board: set"
            );
            // Cut short: no set, never a panic.
            for cut in 0..bytes.len() {
                assert_eq!(Vacated::decode(&bytes[..cut]), None, "{v:?} cut at {cut}");
            }
        }
        // Points past the board, or out of order.
        assert_eq!(Vacated::decode(&[2, 0xe9, 0x02]), None);
        assert_eq!(Vacated::decode(&[3, 5, 0]), None);
    }
}

#[cfg(test)]
mod stones_tests {
    use super::*;
    use crate::encode::ops::{Op, Raw, RawKind};
    use crate::store::layout::op::{KIND_SHIFT, NO_POINT, POINT_MASK, POINT_STRIDE};

    /// Occupancy as the ops decode: a move's or a setup's stone.
    fn occupancy_by_ops(ops: &[u16]) -> Occupancy {
        let mut occupancy = Occupancy::default();
        for &v in ops {
            if let Op::Move(c, Some(p)) | Op::Setup(Some(c), p) = Op::decode(v) {
                occupancy.insert(c, p);
            }
        }
        occupancy
    }

    /// Vacated points as a table of each point's content says: a content that is not empty
    /// replaced by another.
    fn vacated_by_content(ops: &[u16]) -> Vacated {
        let mut content = [0u8; POINTS];
        let mut v = Vacated::default();
        for &op in ops {
            let op = Raw::split(op);
            let new = match op.kind {
                RawKind::Move(c) | RawKind::Put(Some(c)) => c as u8 + 1,
                RawKind::Put(None) => 0,
                RawKind::Mark => continue,
            };
            let p = Raw::point_at(op.point);
            if p.x >= 19 || p.y >= 19 {
                continue;
            }
            let bit = p.y as usize * 19 + p.x as usize;
            let old = std::mem::replace(&mut content[bit], new);
            if old != 0 && old != new {
                v.0[bit / 64] |= 1 << (bit % 64);
            }
        }
        v
    }

    /// The one pass gives what the two plain readings give, on random programs: every kind of
    /// op (marks and ops without a point among them), points on and off the 19×19 board,
    /// stones put on stones, removals of empty points.
    #[test]
    fn one_pass_gives_occupancy_and_vacated_points() {
        let mut next = testdata::xorshift(0x853c_49e6_748f_ea9b);
        let mut draw = |n: u64| next() % n;
        for _ in 0..500 {
            let len = draw(300) as usize;
            let ops: Vec<u16> = (0..len)
                .map(|_| {
                    let kind = draw(8) as u16;
                    let raw = match draw(10) {
                        0 => NO_POINT,
                        1 => draw(u64::from(POINT_MASK)) as u16,
                        // Mostly a small corner, so that points are reused.
                        _ => (draw(5) * u64::from(POINT_STRIDE) + draw(5)) as u16,
                    };
                    kind << KIND_SHIFT | raw
                })
                .collect();
            let (occupancy, vacated) = stones_of(&ops);
            assert_eq!(occupancy, occupancy_by_ops(&ops), "{ops:?}");
            assert_eq!(vacated, vacated_by_content(&ops), "{ops:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goban::{Color, Point};

    fn occ(stones: &[(Color, u8, u8)]) -> Occupancy {
        let mut o = Occupancy::default();
        for &(c, x, y) in stones {
            o.insert(c, Point::new(x, y));
        }
        o
    }

    #[test]
    fn columns_answer_as_rows_do() {
        let (b, w) = (Color::Black, Color::White);
        // More than one block of words, the last word partial.
        let games: Vec<Occupancy> = (0..4200u32)
            .map(|i| {
                let i = i as u8;
                occ(&[(b, i % 19, 3), (w, 18, i % 7), (b, 0, 0)])
            })
            .collect();
        let cols = to_columns(&games);
        let counts_at = 2 * POINTS * words(games.len()) * 8;
        assert_eq!(cols.len(), counts_at + 2 * POINTS * 4);
        for col in 0..2 * POINTS {
            let want = games
                .iter()
                .filter(|o| o.columns().any(|c| c == col))
                .count();
            let got = &cols[counts_at + col * 4..counts_at + col * 4 + 4];
            assert_eq!(
                u32::from_le_bytes(got.try_into().unwrap()) as usize,
                want,
                "{col}"
            );
        }
        for needs in [
            vec![occ(&[(b, 4, 3)])],
            vec![occ(&[(b, 4, 3), (w, 18, 2)]), occ(&[(w, 18, 6)])],
            vec![occ(&[(w, 0, 0)])],
            vec![Occupancy::default()],
            vec![],
        ] {
            let bits = covering(cols.as_slice(), games.len(), &needs);
            let mut each = covering_each(cols.as_slice(), games.len(), &needs).into_iter();
            for (g, o) in games.iter().enumerate() {
                let want = needs.iter().any(|n| o.covers(n));
                assert_eq!(
                    bits[g / 64] >> (g % 64) & 1 == 1,
                    want,
                    "game {g}, {needs:?}"
                );
                // The games covering some need, in order, each with the needs it covers.
                let mask = needs
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (i, n)| m | (o.covers(n) as u64) << i);
                if mask != 0 {
                    assert_eq!(each.next(), Some((g as u32, mask)), "{needs:?}");
                }
            }
            assert_eq!(each.next(), None, "{needs:?}");
            // Game by game, for some of them: the same games.
            let among: Vec<u32> = (0..games.len() as u32).step_by(7).collect();
            let want: Vec<u32> = among
                .iter()
                .copied()
                .filter(|&g| needs.iter().any(|n| games[g as usize].covers(n)))
                .collect();
            assert_eq!(
                covering_among(cols.as_slice(), games.len(), &among, &needs),
                want,
                "{needs:?}"
            );
        }
    }
}
