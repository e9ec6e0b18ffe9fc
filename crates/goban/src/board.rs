//! The board: stones as row bit sets, moves with captures, suicide and simple ko, incremental hashes.
//!
//! Captures are found without per-point recursion: a group is grown from one stone by dilation over
//! the rows it spans (each pass ORs every row with its shifted self and its neighbour rows, masked by
//! the group's colour) until it stops growing or touches an empty point. The common case — a
//! neighbour group with a liberty right next to the stone — is settled by four bit tests before any
//! fill starts.

use std::fmt;

use sgf::{Color, Point};

use crate::bitboard::{row_mask, Bitboard, ROWS};
use crate::outcome::{MoveFlags, MoveOutcome, StoneList};
use crate::position::{check_size, write_diagram, BoardSizeError, Position};
use crate::symmetry::Symmetry;
use crate::zobrist::{oriented_table, Accumulators, OrientedKeys, GRID, POINT_KEYS};

/// A Go board of any size from 1×1 to 52×52, square or not, that executes moves as the oracle does and
/// keeps the Zobrist hashes of its position in all 8 orientations up to date.
#[derive(Clone)]
pub struct Board {
    pos: Position,
    /// The empty points of the board (guard rows and bits beyond the width are not empty: they are
    /// nothing), kept so that liberty tests are one AND.
    empty: Bitboard,
    /// Whether `zob` is maintained; see [`Board::set_hashing`].
    hashing: bool,
    /// Only its identity hash is; see [`Board::set_identity_hashing`].
    identity_only: bool,
    zob: Accumulators,
    /// This board size's oriented keys, indexed by `y * width + x`.
    keys: &'static [OrientedKeys],
    /// After a move that took a ko: the point, and the colour that would retake it next move.
    ko: Option<(Point, Color)>,
    /// Stones on the board, kept as they come and go (counting bits needs POPCNT, which the
    /// baseline x86-64 target lacks).
    stones: u32,
}

impl Board {
    /// An empty `width`×`height` board (each side 1..=52), hashing on.
    pub fn new(width: u8, height: u8) -> Result<Board, BoardSizeError> {
        check_size(width, height)?;
        Ok(Board {
            pos: Position::new(width, height)?,
            empty: Bitboard::full(width, height),
            hashing: true,
            identity_only: false,
            zob: Accumulators::empty(width, height),
            keys: oriented_table(width, height),
            ko: None,
            stones: 0,
        })
    }

    /// A board holding `position`, hashing on.
    pub fn from_position(position: &Position) -> Board {
        let mut board = Board {
            pos: position.clone(),
            empty: Bitboard::EMPTY,
            hashing: true,
            identity_only: false,
            zob: Accumulators::empty(position.width, position.height),
            keys: oriented_table(position.width, position.height),
            ko: None,
            stones: (position.stones[0].len() + position.stones[1].len()) as u32,
        };
        board.recompute();
        board
    }

    /// Rebuilds `empty` and the hash accumulators from the stones.
    fn recompute(&mut self) {
        let mask = row_mask(self.pos.width);
        for r in 0..ROWS {
            let on_board = r >= 1 && r <= self.pos.height as usize;
            let occupied = self.pos.stones[0].rows[r] | self.pos.stones[1].rows[r];
            self.empty.rows[r] = if on_board { mask & !occupied } else { 0 };
        }
        self.zob = Accumulators::empty(self.pos.width, self.pos.height);
        for c in 0..2 {
            for p in self.pos.stones[c].iter() {
                let k = &self.keys[p.y as usize * self.pos.width as usize + p.x as usize];
                self.zob.toggle(c, k);
            }
        }
        self.debug_check();
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> u8 {
        self.pos.width
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> u8 {
        self.pos.height
    }

    /// Whether `p` lies on the board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.pos.contains(p)
    }

    /// What stands on `p` (`None` also off the board).
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.pos.get(p)
    }

    /// The stones of one colour (iterate them with `.iter()`, count them with `.len()`).
    #[inline]
    pub fn stones(&self, color: Color) -> &Bitboard {
        self.pos.stones(color)
    }

    /// The empty points of the board.
    #[inline]
    pub fn empty_points(&self) -> &Bitboard {
        &self.empty
    }

    /// The stones of `color` as SGF strings in string order, as the oracle lists final positions.
    pub fn sgf_points(&self, color: Color) -> Vec<String> {
        self.pos.sgf_points(color)
    }

    /// The current position (size and stones).
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The point the player of the returned colour would retake a ko on with their next move, if the
    /// last move took a ko.
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
    }

    /// Turns incremental hashing on or off. Off, moves skip the hash updates (for replays that only
    /// need stones) and the hash accessors compute from scratch; on again, the hashes are rebuilt.
    pub fn set_hashing(&mut self, on: bool) {
        if on && (!self.hashing || self.identity_only) {
            self.hashing = true;
            self.identity_only = false;
            self.recompute();
        }
        self.hashing = on;
    }

    /// Keeps only the identity hash up to date: one XOR per stone that comes or goes instead of
    /// sixteen, for replays that need [`Board::hash`] and nothing else (an index build). The
    /// other orientations and colourings are then computed from scratch, as with hashing off.
    pub fn set_identity_hashing(&mut self) {
        if !self.hashing {
            self.hashing = true;
            self.recompute();
        }
        self.identity_only = true;
    }

    /// Whether incremental hashing is on.
    pub fn is_hashing(&self) -> bool {
        self.hashing
    }

    /// `hashes()[s.index()]` is the Zobrist hash of `s(P)`, the current position `P` under symmetry
    /// `s`, equal to `self.position().transformed(s).hash()`. On a rectangle the axis-swapping four
    /// are hashes of the transposed (`height`×`width`) board. With hashing off this is computed from
    /// scratch (slow).
    #[inline]
    pub fn hashes(&self) -> [u64; 8] {
        if self.hashing && !self.identity_only {
            *self.zob.hashes()
        } else {
            *self.scratch_accumulators().hashes()
        }
    }

    /// Like [`Board::hashes`] for the position with colours exchanged.
    #[inline]
    pub fn swapped_hashes(&self) -> [u64; 8] {
        if self.hashing && !self.identity_only {
            *self.zob.swapped_hashes()
        } else {
            *self.scratch_accumulators().swapped_hashes()
        }
    }

    /// The hashes rebuilt from the stones, for when hashing is off.
    #[cold]
    fn scratch_accumulators(&self) -> Accumulators {
        Board::from_position(&self.pos).zob
    }

    /// The hash of the position as it stands (identity orientation).
    #[inline]
    pub fn hash(&self) -> u64 {
        if self.hashing {
            self.zob.hashes()[0]
        } else {
            self.hashes()[0]
        }
    }

    /// Whether all 8 orientations are symmetries of this board (square), or only the first 4.
    #[inline]
    fn is_square(&self) -> bool {
        self.pos.width == self.pos.height
    }

    /// The symmetry-free key: the least of the hashes over [`Symmetry::of_board`], so every image of a
    /// position under a symmetry of its board has the same key.
    #[inline]
    pub fn canonical_key(&self) -> u64 {
        min_key(&self.hashes(), self.is_square())
    }

    /// [`Board::canonical_key`] and the first symmetry `s` (in [`Symmetry::ALL`] order) with
    /// `hash(s(P))` equal to it: `s` maps this position onto its canonical orientation. (A symmetric
    /// position has several such `s`; compare [`Board::hashes`] to find them all.)
    pub fn canonical(&self) -> (u64, Symmetry) {
        let h = self.hashes();
        let mut best = (h[0], Symmetry::Identity);
        for s in &Symmetry::of_board(self.pos.width, self.pos.height)[1..] {
            if h[s.index()] < best.0 {
                best = (h[s.index()], *s);
            }
        }
        best
    }

    /// The key of "this position in any orientation, with either colouring": the least of the hashes
    /// and swapped hashes over [`Symmetry::of_board`].
    #[inline]
    pub fn canonical_key_any_color(&self) -> u64 {
        let (h, g) = (self.hashes(), self.swapped_hashes());
        min_key(&std::array::from_fn(|i| h[i].min(g[i])), self.is_square())
    }

    /// Number of stones on the board, both colours.
    #[inline]
    pub fn stone_count(&self) -> u32 {
        debug_assert_eq!(
            self.stones as usize,
            self.pos.stones[0].len() + self.pos.stones[1].len()
        );
        self.stones
    }

    /// Setup (`AB`, `AW`, `AE`): puts `content` on `p`, or empties it for `None`, whatever stood there.
    /// Captures nothing, even a group left without liberties. Forgets any ko. Returns `false`, changing
    /// nothing else, when `p` is off the board.
    pub fn setup(&mut self, content: Option<Color>, p: Point) -> bool {
        self.ko = None;
        if !self.contains(p) {
            return false;
        }
        let (r, bit) = (p.y as usize + 1, 1u64 << p.x);
        for c in 0..2 {
            if self.pos.stones[c].rows[r] & bit != 0 {
                self.remove_stone(c, r, bit);
            }
        }
        if let Some(color) = content {
            self.add_stone(color as usize, r, bit);
        }
        self.debug_check();
        true
    }

    /// Executes a move of `color` at `point` (`None` passes), as the oracle does: put the stone, remove
    /// the opponent's groups left without liberties, then remove the mover's own group if it has none.
    ///
    /// Moves the rules forbid are executed and flagged in the outcome: [`MoveFlags::SUICIDE`], and
    /// [`MoveFlags::KO_RETAKE`] for a move that retakes a simple ko, i.e. recreates the position before
    /// the opponent's previous move: that move (by the other colour, on an empty point) took exactly
    /// one stone with a lone stone left with one liberty, and this move plays on that liberty, taking
    /// that stone back. For moves onto empty points this is exactly "recreates the position before
    /// the opponent's previous move" (a pass, setup or off-board move in between forgets the ko).
    ///
    /// Irregular input never panics:
    /// - **Off the board** ([`MoveFlags::OFF_BOARD`]): nothing is placed and nothing changes, as for a
    ///   pass. Nothing else is defensible: the point has no neighbours to capture.
    /// - **Occupied point** ([`MoveFlags::OCCUPIED`]): the new stone replaces whatever stood there
    ///   (recorded in [`MoveOutcome::replaced`]), then captures and suicide are resolved as for any move.
    ///   This is what SGF editors such as Sabaki do when replaying such a record, keeps the record's
    ///   later moves meaningful, and leaves the board exactly as if the point had been emptied by setup
    ///   and then played. (The oracle excludes such games, so no answer depends on it.)
    pub fn play(&mut self, color: Color, point: Option<Point>) -> MoveOutcome {
        let ko = self.ko.take();
        let mut out = MoveOutcome {
            color,
            point,
            flags: MoveFlags::NONE,
            replaced: None,
            removed: StoneList::new(),
        };
        let Some(p) = point else {
            return out;
        };
        if !self.contains(p) {
            out.flags = MoveFlags::OFF_BOARD;
            return out;
        }
        let (c, o) = (color as usize, color.opponent() as usize);
        let (r, bit) = (p.y as usize + 1, 1u64 << p.x);

        // Put the stone.
        if self.empty.rows[r] & bit == 0 {
            out.flags |= MoveFlags::OCCUPIED;
            if self.pos.stones[o].rows[r] & bit != 0 {
                out.replaced = Some(color.opponent());
                self.remove_stone(o, r, bit);
                self.add_stone(c, r, bit);
            } else {
                out.replaced = Some(color);
            }
        } else {
            self.add_stone(c, r, bit);
        }

        // Remove the opponent's neighbour groups left without liberties. Distinct opponent groups are
        // never adjacent, so removing one cannot change another's liberties: order does not matter.
        for (nr, nbit) in [(r - 1, bit), (r + 1, bit), (r, bit >> 1), (r, bit << 1)] {
            if self.pos.stones[o].rows[nr] & nbit != 0 && !self.has_adjacent_liberty(nr, nbit) {
                self.remove_if_dead(o, nr, nbit, &mut out.removed);
            }
        }

        if out.removed.is_empty() {
            // Suicide: only possible when nothing was captured.
            if !self.has_adjacent_liberty(r, bit) {
                self.remove_if_dead(c, r, bit, &mut out.removed);
                if !out.removed.is_empty() {
                    out.flags |= MoveFlags::SUICIDE;
                }
            }
        } else if out.removed.len() == 1 {
            let taken = out.removed[0];
            if ko == Some((p, color)) {
                out.flags |= MoveFlags::KO_RETAKE;
            }
            // A ko: one stone taken by a lone stone whose only liberty is the point just emptied.
            let own = &self.pos.stones[c].rows;
            let lone = (own[r - 1] | own[r + 1]) & bit | own[r] & (bit << 1 | bit >> 1) == 0;
            // Not after an overwrite: then the move did not start from the position before it
            // plus one stone, and a retake could not recreate that position.
            let clean = !out.flags.contains(MoveFlags::OCCUPIED);
            if clean && lone && self.liberty_count_of_point(r, bit) == 1 {
                self.ko = Some((taken, color.opponent()));
            }
        }
        self.debug_check();
        out
    }

    /// Puts a stone of colour index `c` on the empty point (`r`, `bit`).
    #[inline(always)]
    fn add_stone(&mut self, c: usize, r: usize, bit: u64) {
        self.stones += 1;
        self.pos.stones[c].rows[r] |= bit;
        self.empty.rows[r] &= !bit;
        self.toggle_hash(c, r, bit);
    }

    /// Takes the stone of colour index `c` off (`r`, `bit`).
    #[inline(always)]
    fn remove_stone(&mut self, c: usize, r: usize, bit: u64) {
        self.stones -= 1;
        self.pos.stones[c].rows[r] &= !bit;
        self.empty.rows[r] |= bit;
        self.toggle_hash(c, r, bit);
    }

    #[inline(always)]
    fn toggle_hash(&mut self, c: usize, r: usize, bit: u64) {
        self.toggle_key(c, r - 1, bit.trailing_zeros() as usize);
    }

    /// Updates the hashes kept (all, the identity one, or none) for a stone of colour index `c`
    /// coming or going at point (`x`, `y`).
    ///
    /// The identity key is read from the 52×52 grid of point keys, not from this size's table
    /// of oriented keys: a 19×19 board touches 3 KB of the grid against 23 KB of the table,
    /// and that load showed in `play`'s profile (BENCHMARKS.md, Replay: identity key from
    /// the point grid).
    #[inline(always)]
    fn toggle_key(&mut self, c: usize, y: usize, x: usize) {
        if !self.hashing {
            return;
        }
        if self.identity_only {
            self.zob.toggle_identity(c, POINT_KEYS[y * GRID + x]);
        } else {
            self.zob
                .toggle(c, &self.keys[y * self.pos.width as usize + x]);
        }
    }

    /// Whether one of the four neighbours of (`r`, `bit`) is empty.
    #[inline(always)]
    fn has_adjacent_liberty(&self, r: usize, bit: u64) -> bool {
        let e = &self.empty.rows;
        (e[r - 1] | e[r + 1]) & bit | e[r] & (bit << 1 | bit >> 1) != 0
    }

    /// Number of empty neighbours of (`r`, `bit`).
    #[inline]
    fn liberty_count_of_point(&self, r: usize, bit: u64) -> u32 {
        let e = &self.empty.rows;
        (e[r - 1] & bit).count_ones()
            + (e[r + 1] & bit).count_ones()
            + (e[r] & (bit << 1 | bit >> 1)).count_ones()
    }

    /// If the group of colour index `c` through (`r`, `bit`) has no liberty, removes it and lists its
    /// stones in `removed`.
    #[inline(never)]
    fn remove_if_dead(&mut self, c: usize, r: usize, bit: u64, removed: &mut StoneList) {
        // The group's rows, with a guard row on each side: on boards up to 19 lines, room for
        // those rows only, since zeroing room for the largest board at every call was a
        // visible part of a build's profile (BENCHMARKS.md, Replay: dead-group test clears
        // the board's rows only).
        if self.pos.height <= 19 {
            self.remove_in(c, r, bit, &mut [0u64; 21], removed);
        } else {
            self.remove_in(c, r, bit, &mut [0u64; ROWS], removed);
        }
    }

    /// [`Board::remove_if_dead`] with `group`, zeroed, for rows 0 to the board's height + 1.
    #[inline(always)]
    fn remove_in<const N: usize>(
        &mut self,
        c: usize,
        r: usize,
        bit: u64,
        group: &mut [u64; N],
        removed: &mut StoneList,
    ) {
        let Some((lo, hi)) = self.dead_group(c, r, bit, group) else {
            return;
        };
        for (y, &g) in group.iter().enumerate().take(hi + 1).skip(lo) {
            if g == 0 {
                continue;
            }
            self.pos.stones[c].rows[y] &= !g;
            self.empty.rows[y] |= g;
            self.stones -= g.count_ones();
            let mut bits = g;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                removed.push(Point::new(x as u8, (y - 1) as u8));
                self.toggle_key(c, y - 1, x);
            }
        }
    }

    /// Grows the group of colour index `c` from the stone at (`r`, `bit`) into `group` (all zero on
    /// entry, a row for each of rows 0 to the board's height + 1). Returns `None` as soon as it
    /// touches an empty point, else the range of rows it spans.
    ///
    /// Each pass dilates the group over its rows and the rows next to them, in place (a row sees the
    /// row above already grown, so growth downwards is fast) and fills each row's runs of own stones
    /// at once. The loop ends because the group only grows, within a finite board.
    #[inline(always)]
    fn dead_group<const N: usize>(
        &self,
        c: usize,
        r: usize,
        bit: u64,
        group: &mut [u64; N],
    ) -> Option<(usize, usize)> {
        let own = &self.pos.stones[c].rows;
        let empty = &self.empty.rows;
        let last = self.pos.height as usize;
        group[r] = bit;
        let (mut lo, mut hi) = (r, r);
        loop {
            let a = if lo > 1 { lo - 1 } else { 1 };
            let b = if hi < last { hi + 1 } else { last };
            let mut grew = false;
            for y in a..=b {
                let cur = group[y];
                let reach = cur | cur << 1 | cur >> 1 | group[y - 1] | group[y + 1];
                if reach & empty[y] != 0 {
                    return None;
                }
                let mut g = reach & own[y];
                loop {
                    let wider = (g | g << 1 | g >> 1) & own[y];
                    if wider == g {
                        break;
                    }
                    g = wider;
                }
                if g != cur {
                    group[y] = g;
                    grew = true;
                }
            }
            if !grew {
                // In this last pass every row next to the group was checked for liberties.
                return Some((lo, hi));
            }
            if group[a] != 0 {
                lo = a;
            }
            if group[b] != 0 {
                hi = b;
            }
        }
    }

    /// Invariants, checked in debug builds after every change.
    #[inline]
    fn debug_check(&self) {
        #[cfg(debug_assertions)]
        {
            let (w, h) = (self.pos.width, self.pos.height);
            let mask = row_mask(w);
            for r in 0..ROWS {
                let (b, wh, e) = (
                    self.pos.stones[0].rows[r],
                    self.pos.stones[1].rows[r],
                    self.empty.rows[r],
                );
                debug_assert_eq!(b & wh, 0, "black and white overlap on row {r}");
                let expected = if r >= 1 && r <= h as usize { mask } else { 0 };
                debug_assert_eq!(b | wh | e, expected, "row {r} not partitioned");
                debug_assert_eq!((b | wh) & e, 0);
            }
            debug_assert!(self.pos.stones[0].fits(w, h) && self.pos.stones[1].fits(w, h));
        }
    }
}

/// The least of `h[0..8]` (square) or `h[0..4]`, as a tree so the comparisons run in parallel.
#[inline]
fn min_key(h: &[u64; 8], square: bool) -> u64 {
    let a = h[0].min(h[1]).min(h[2].min(h[3]));
    if square {
        a.min(h[4].min(h[5]).min(h[6].min(h[7])))
    } else {
        a
    }
}

impl PartialEq for Board {
    /// Boards are equal when their positions are (hashing mode and ko state aside).
    fn eq(&self, other: &Board) -> bool {
        self.pos == other.pos
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}x{} ko={:?}",
            self.width(),
            self.height(),
            self.ko
        )?;
        write_diagram(f, self.width(), self.height(), |p| self.get(p))
    }
}

impl fmt::Display for Board {
    /// One line per row: `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_diagram(f, self.width(), self.height(), |p| self.get(p))
    }
}
