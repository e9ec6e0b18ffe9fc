//! Pattern search: where a shape appears in a game.
//!
//! A pattern is tried in each of its placements (orientations, colourings and, with `anywhere`,
//! translations). A game can only contain a placement if it ever had the placement's stones
//! ([`Store::covering`]); the survivors are scanned move by move. The scan follows only the points
//! some placement constrains — the store's changes ([`Store::changes`]) include the stones a
//! move took off, so no rules engine is needed and every other change costs one table lookup —
//! and tests a placement again only after one of its points changed.

use std::collections::BTreeMap;

use goban::{Bitboard, Color, Point, Symmetry};
use rayon::prelude::*;

use crate::engine::{candidates, with_copies, Answer, Filter, Hit, Moves};
use crate::query::{Cell, PatternQuery};
use crate::store::{index_point, point_index, Store, Walk};

/// Finds where a pattern appears: game g hits at k when, for some placement, position k
/// satisfies it and position k−1 does not (or k = 0).
pub fn find_pattern<S: Store>(index: &S, q: &PatternQuery, filter: Filter<'_>) -> Answer {
    let (bw, bh) = q.board;
    if !(1..=52).contains(&bw) || !(1..=52).contains(&bh) {
        return Answer::default();
    }
    let mut placements = placements(q);
    // A placement reaching off the board can never be seen on it.
    placements.retain(|p| p.cells.iter().all(|(pt, _)| pt.x < bw && pt.y < bh));
    let touch = Touch::new(&placements, bh);
    let needs: Vec<Vec<(Color, Point)>> = placements.iter().map(|p| p.need.clone()).collect();
    let found: Vec<Hit> = candidates(index, bw, bh, filter, &needs)
        .into_par_iter()
        .map_init(
            || (Vec::new(), Scan::new(placements.len())),
            |(ops, scan), g| {
                if index.stopped() {
                    return None;
                }
                index.load(g, ops);
                let moves = scan.run(index, ops, bw, bh, &placements, &touch);
                (!moves.is_empty()).then_some(Hit { game: g, moves })
            },
        )
        .flatten()
        .collect();
    Answer {
        hits: with_copies(index, found, filter),
        continuations: Vec::new(),
    }
}

/// Content of a point as a table index.
#[inline(always)]
fn slot(content: Option<Color>) -> usize {
    content.map_or(2, |c| c as usize)
}

/// For each point (by [`point_index`]), the placements that constrain it, by the content that
/// satisfies their constraint there. A placement that did not match can only come to match
/// through a change that satisfies one of its constraints; one that matched must be tested
/// after any change to its points. Everything else keeps its answer untested.
enum Touch {
    /// Up to 64 placements: one bit each, for black, white and empty.
    Bits(Vec<[u64; 3]>),
    /// More (patterns placed anywhere): per point, (placement, which contents satisfy it).
    Lists(Vec<Vec<(u32, [bool; 3])>>),
}

impl Touch {
    fn new(placements: &[Placement], height: u8) -> Touch {
        let n = height as usize * 52;
        let allows = |cell: Cell| {
            [Some(Color::Black), Some(Color::White), None].map(|content| match cell {
                Cell::Black => content == Some(Color::Black),
                Cell::White => content == Some(Color::White),
                Cell::Empty => content.is_none(),
                Cell::NotWhite => content != Some(Color::White),
                Cell::NotBlack => content != Some(Color::Black),
                Cell::Any => true,
            })
        };
        if placements.len() <= 64 {
            let mut bits = vec![[0u64; 3]; n];
            for (i, pl) in placements.iter().enumerate() {
                for &(p, cell) in &pl.cells {
                    for (slot, ok) in allows(cell).into_iter().enumerate() {
                        bits[point_index(p)][slot] |= (ok as u64) << i;
                    }
                }
            }
            Touch::Bits(bits)
        } else {
            let mut lists = vec![Vec::new(); n];
            for (i, pl) in placements.iter().enumerate() {
                for &(p, cell) in &pl.cells {
                    lists[point_index(p)].push((i as u32, allows(cell)));
                }
            }
            Touch::Lists(lists)
        }
    }

    /// Whether some placement constrains the point.
    #[inline(always)]
    fn watched(&self, i: usize) -> bool {
        match self {
            Touch::Bits(bits) => bits.get(i).is_some_and(|b| b[0] | b[1] | b[2] != 0),
            Touch::Lists(lists) => lists.get(i).is_some_and(|l| !l.is_empty()),
        }
    }

    /// Point `i` now holds `content`: marks the placements to test again.
    #[inline(always)]
    fn mark(&self, i: usize, content: Option<Color>, scan: &mut Scan) {
        match self {
            Touch::Bits(bits) => {
                let b = &bits[i];
                let all = b[0] | b[1] | b[2];
                scan.dirty_bits |= b[slot(content)] | all & scan.matched_bits;
            }
            Touch::Lists(lists) => {
                for &(j, ok) in &lists[i] {
                    if (ok[slot(content)] || scan.before[j as usize])
                        && !std::mem::replace(&mut scan.pending[j as usize], true)
                    {
                        scan.dirty_list.push(j);
                    }
                }
            }
        }
    }

    /// Marks every placement to be tested.
    fn mark_all(&self, scan: &mut Scan) {
        let n = scan.pending.len();
        match self {
            Touch::Bits(_) => scan.dirty_bits = u64::MAX.checked_shr(64 - n as u32).unwrap_or(0),
            Touch::Lists(_) => {
                scan.dirty_list.clear();
                scan.dirty_list.extend(0..n as u32);
                scan.pending.iter_mut().for_each(|p| *p = true);
            }
        }
    }
}

/// The state of one game's scan, reused from game to game by a worker.
struct Scan {
    stones: [Bitboard; 2],
    /// Which placements matched at the previous position: bits (up to 64 placements) or flags.
    matched_bits: u64,
    before: Vec<bool>,
    dirty_bits: u64,
    pending: Vec<bool>,
    dirty_list: Vec<u32>,
    hits: Vec<u32>,
}

impl Scan {
    fn new(n: usize) -> Scan {
        Scan {
            stones: [Bitboard::EMPTY, Bitboard::EMPTY],
            matched_bits: 0,
            before: vec![false; n],
            dirty_bits: 0,
            pending: vec![false; n],
            dirty_list: Vec::new(),
            hits: Vec::new(),
        }
    }

    /// The positions of the loaded program `ops` where some placement appears.
    fn run<S: Store>(
        &mut self,
        store: &S,
        ops: &[u16],
        bw: u8,
        bh: u8,
        pls: &[Placement],
        touch: &Touch,
    ) -> Moves {
        self.stones = [Bitboard::EMPTY, Bitboard::EMPTY];
        self.matched_bits = 0;
        self.before.iter_mut().for_each(|b| *b = false);
        self.hits.clear();
        // Position 0 tests every placement.
        touch.mark_all(self);
        if let Some(changes) = store.changes(ops) {
            // Position k falls just before the (k+1)-th move, and after the end.
            let mut k = 0;
            for change in changes {
                if change.mover.is_some() {
                    self.report(k, pls);
                    k += 1;
                }
                if touch.watched(change.point) {
                    let p = index_point(change.point);
                    self.stones[0].remove(p);
                    self.stones[1].remove(p);
                    if let Some(c) = change.content {
                        self.stones[c as usize].insert(p);
                    }
                    touch.mark(change.point, change.content, self);
                }
            }
            self.report(k, pls);
        } else {
            // Positions elsewhere (setup beside a move, two moves in a node) are rare: the walk
            // knows where they fall.
            let Some(mut walk) = store.walk(ops, bw, bh, false) else {
                return Moves::new();
            };
            loop {
                let mut changed = Vec::new();
                let Some(step) = walk.next_position(|p| changed.push(p)) else {
                    break;
                };
                self.stones = [
                    walk.stones(Color::Black).clone(),
                    walk.stones(Color::White).clone(),
                ];
                for p in changed {
                    let content = self.stones.iter().position(|b| b.contains(p));
                    let content = content.map(|c| [Color::Black, Color::White][c]);
                    touch.mark(point_index(p), content, self);
                }
                self.report(step.k, pls);
            }
        }
        Moves::from_slice(&self.hits)
    }

    /// Tests the placements marked since the last position; records `k` if one of them appeared.
    #[inline(always)]
    fn report(&mut self, k: u32, pls: &[Placement]) {
        if self.dirty_bits == 0 && self.dirty_list.is_empty() {
            return;
        }
        let [black, white] = &self.stones;
        let mut appeared = false;
        while self.dirty_bits != 0 {
            let i = self.dirty_bits.trailing_zeros();
            self.dirty_bits &= self.dirty_bits - 1;
            let now = pls[i as usize].matches(black, white);
            let bit = 1u64 << i;
            appeared |= now && self.matched_bits & bit == 0;
            self.matched_bits = self.matched_bits & !bit | (now as u64) << i;
        }
        for j in self.dirty_list.drain(..) {
            let j = j as usize;
            self.pending[j] = false;
            let now = pls[j].matches(black, white);
            appeared |= now && !self.before[j];
            self.before[j] = now;
        }
        if appeared {
            self.hits.push(k);
        }
    }
}

/// One placement of a pattern on the board: per-row masks.
#[derive(Clone, Debug)]
struct Placement {
    /// (row, black, white, empty, not white, not black)
    rows: Vec<(u8, u64, u64, u64, u64, u64)>,
    /// The stones it demands, for [`Store::covering`].
    need: Vec<(Color, Point)>,
    /// The points it constrains, with their constraint: only a change on one of them can make
    /// it appear.
    cells: Vec<(Point, Cell)>,
}

impl Placement {
    fn new(diagram: impl Iterator<Item = (Point, Cell)>) -> Placement {
        let mut rows: BTreeMap<u8, [u64; 5]> = BTreeMap::new();
        let mut need = Vec::new();
        let mut cells = Vec::new();
        for (p, cell) in diagram {
            let i = match cell {
                Cell::Black => 0,
                Cell::White => 1,
                Cell::Empty => 2,
                Cell::NotWhite => 3,
                Cell::NotBlack => 4,
                Cell::Any => continue,
            };
            rows.entry(p.y).or_default()[i] |= 1 << p.x;
            cells.push((p, cell));
            match cell {
                Cell::Black => need.push((Color::Black, p)),
                Cell::White => need.push((Color::White, p)),
                _ => {}
            }
        }
        let mut rows: Vec<_> = rows
            .into_iter()
            .map(|(y, m)| (y, m[0], m[1], m[2], m[3], m[4]))
            .collect();
        // Rows that demand stones fail most often: test them first.
        rows.sort_by_key(|r| std::cmp::Reverse((r.1 | r.2).count_ones()));
        Placement { rows, need, cells }
    }

    fn matches(&self, black: &Bitboard, white: &Bitboard) -> bool {
        self.rows.iter().all(|&(y, mb, mw, me, nw, nb)| {
            let (rb, rw) = (black.row(y), white.row(y));
            rb & mb == mb && rw & mw == mw && (rb | rw) & me == 0 && rw & nw == 0 && rb & nb == 0
        })
    }
}

fn swap(c: Cell) -> Cell {
    match c {
        Cell::Black => Cell::White,
        Cell::White => Cell::Black,
        Cell::NotWhite => Cell::NotBlack,
        Cell::NotBlack => Cell::NotWhite,
        other => other,
    }
}

/// All placements of a pattern: its orientations (and colourings), and with `anywhere` every
/// translation that keeps it on the board.
fn placements(q: &PatternQuery) -> Vec<Placement> {
    let (bw, bh) = q.board;
    let syms: &[Symmetry] = if q.symmetry {
        Symmetry::of_board(bw, bh)
    } else {
        &[Symmetry::Identity]
    };
    let colourings: &[bool] = if q.swap_colors {
        &[false, true]
    } else {
        &[false]
    };
    let mut out = Vec::new();
    for &swapped in colourings {
        let cells = |p: Point, c: Cell| (p, if swapped { swap(c) } else { c });
        if q.anywhere {
            // Transform the diagram on its own, then slide it over the board.
            let syms: &[Symmetry] = if q.symmetry {
                &Symmetry::ALL
            } else {
                &[Symmetry::Identity]
            };
            for &s in syms {
                let (tw, th) = s.image_size(q.width, q.height);
                if tw > bw || th > bh {
                    continue;
                }
                let local: Vec<(Point, Cell)> = (0..q.height)
                    .flat_map(|y| (0..q.width).map(move |x| Point::new(x, y)))
                    .map(|p| {
                        let c = q.cells[p.y as usize * q.width as usize + p.x as usize];
                        cells(s.apply(p, q.width, q.height), c)
                    })
                    .collect();
                for oy in 0..=(bh - th) {
                    for ox in 0..=(bw - tw) {
                        out.push(Placement::new(
                            local
                                .iter()
                                .map(|&(p, c)| (Point::new(p.x + ox, p.y + oy), c)),
                        ));
                    }
                }
            }
        } else {
            for &s in syms {
                out.push(Placement::new(
                    (0..q.height)
                        .flat_map(|y| (0..q.width).map(move |x| Point::new(x, y)))
                        .map(|p| {
                            let c = q.cells[p.y as usize * q.width as usize + p.x as usize];
                            let on_board = Point::new(p.x + q.offset.0, p.y + q.offset.1);
                            cells(s.apply(on_board, bw, bh), c)
                        }),
                ));
            }
        }
    }
    out
}
