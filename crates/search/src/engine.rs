//! Answering queries: which games hit, at which moves, and what was played next.
//!
//! Positions with few stones are looked up in the index's position table (every position with at
//! most [`index::MAX_INDEXED_STONES`] stones of every game is there); deeper positions and
//! patterns are found by filtering games on their occupancy bitmaps (a game can only contain a
//! shape if it ever had those stones) and replaying the survivors on the bitboard engine, on all
//! cores. Every answer follows the definitions of `shared/oracle/README.md`.

use std::collections::BTreeMap;

use goban::{Board, Color, Point, Position, Symmetry};
use index::ops::{Op, Replayer};
use index::{Index, MAX_INDEXED_STONES};
use rayon::prelude::*;

use crate::query::{Cell, PatternQuery, PositionQuery};

/// A game that hits, with the position numbers where it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub game: u32,
    /// Sorted, distinct k.
    pub moves: Vec<u32>,
}

/// One row of a continuation table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Continuation {
    pub color: Color,
    /// `None` for a pass.
    pub point: Option<Point>,
    pub count: u32,
    pub black_wins: u32,
    pub white_wins: u32,
}

/// The answer to a position or pattern query.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    pub hits: Vec<Hit>,
    pub continuations: Vec<Continuation>,
}

/// Which games to look at: all, or those a metadata query selected (sorted ids).
pub type Filter<'a> = Option<&'a [u32]>;

/// One orientation (and colouring) of the query.
#[derive(Clone, Copy, Debug)]
struct Image {
    sym: Symmetry,
    swapped: bool,
    hash: u64,
}

/// A hit position and the query images that match there.
type Found = ((u32, u32), Vec<Image>);

/// Finds a position.
pub fn find_position(index: &Index, q: &PositionQuery, filter: Filter<'_>) -> Answer {
    let (w, h) = (q.position.width(), q.position.height());
    let mut images = Vec::new();
    let syms: &[Symmetry] = if q.symmetry {
        Symmetry::of_board(w, h)
    } else {
        &[Symmetry::Identity]
    };
    for &sym in syms {
        let t = q.position.transformed(sym);
        images.push(Image {
            sym,
            swapped: false,
            hash: t.hash(),
        });
        if q.swap_colors {
            images.push(Image {
                sym,
                swapped: true,
                hash: t.color_swapped().hash(),
            });
        }
    }
    let stones = q.position.stones(Color::Black).len() + q.position.stones(Color::White).len();
    // (game, k) → images that match there.
    let mut found: BTreeMap<(u32, u32), Vec<Image>> = BTreeMap::new();
    if stones as u32 <= MAX_INDEXED_STONES {
        let mut hashes: Vec<u64> = images.iter().map(|i| i.hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        for hash in hashes {
            for e in index.positions(hash) {
                let matching: Vec<Image> =
                    images.iter().filter(|i| i.hash == hash).copied().collect();
                found.entry((e.game, e.k)).or_default().extend(matching);
            }
        }
    } else {
        let wanted: Vec<Occupancy> = images
            .iter()
            .map(|im| {
                let t = q.position.transformed(im.sym);
                let t = if im.swapped { t.color_swapped() } else { t };
                occupancy_of(&t)
            })
            .collect();
        let per_game: Vec<Vec<Found>> = candidates(index, w, h, filter)
            .into_par_iter()
            .filter(|&g| {
                (w, h) != (19, 19) || {
                    let occ = index.occupancy(g);
                    wanted.iter().any(|want| covers(&occ, want))
                }
            })
            .map(|g| {
                let ops = index.ops(g);
                let Ok(mut rep) = Replayer::new(&ops, w, h, true) else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                while let Some(step) = rep.next_position(|_| {}) {
                    let hash = rep.board().hash();
                    let m: Vec<Image> = images.iter().filter(|i| i.hash == hash).copied().collect();
                    if !m.is_empty() {
                        out.push(((g, step.k), m));
                    }
                }
                out
            })
            .collect();
        found.extend(per_game.into_iter().flatten());
    }
    // Only stored games are in the table: add their exact copies, then apply the filter.
    let mut with_copies: BTreeMap<(u32, u32), Vec<Image>> = BTreeMap::new();
    for ((g, k), ims) in found {
        for &c in index.copies(g) {
            with_copies.insert((c, k), ims.clone());
        }
        with_copies.insert((g, k), ims);
    }
    if let Some(f) = filter {
        with_copies.retain(|(g, _), _| f.binary_search(g).is_ok());
    }
    // Continuations (and the side-to-move restriction, which needs the next move).
    let mut table: BTreeMap<(Color, String), Continuation> = BTreeMap::new();
    let mut hits: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut ops_cache: Option<(u32, Vec<u16>)> = None;
    for ((g, k), ims) in with_copies {
        let rec = index.game(g);
        if ops_cache.as_ref().is_none_or(|c| c.0 != g) {
            ops_cache = Some((g, index.ops(g)));
        }
        let ops = &ops_cache.as_ref().expect("just set").1;
        let next = nth_move(ops, k);
        if let Some(want) = q.to_move {
            // The colour to move in the query's colours.
            let swapped = ims.iter().all(|i| i.swapped);
            match next {
                Some((c, _)) if (if swapped { c.opponent() } else { c }) == want => {}
                _ => continue,
            }
        }
        hits.entry(g).or_default().push(k);
        let Some((color, point)) = next else { continue };
        // Mapped back into the query's orientation; the smallest SGF string among all matches.
        let mut best: Option<(String, Color, Option<Point>)> = None;
        for im in &ims {
            let c = if im.swapped { color.opponent() } else { color };
            let p = point.map(|p| im.sym.inverse().apply(p, w, h));
            let key = p.map_or(String::new(), |p| p.sgf_string());
            if best.as_ref().is_none_or(|b| key < b.0) {
                best = Some((key, c, p));
            }
        }
        let (key, c, p) = best.expect("at least one image matched");
        let row = table.entry((c, key)).or_insert(Continuation {
            color: c,
            point: p,
            count: 0,
            black_wins: 0,
            white_wins: 0,
        });
        row.count += 1;
        row.black_wins += (rec.winner == 1) as u32;
        row.white_wins += (rec.winner == 2) as u32;
    }
    let mut continuations: Vec<Continuation> = table.into_values().collect();
    continuations.sort_by(|a, b| {
        b.count.cmp(&a.count).then_with(|| {
            (a.color, a.point.map(|p| p.sgf_string()))
                .cmp(&(b.color, b.point.map(|p| p.sgf_string())))
        })
    });
    Answer {
        hits: hits
            .into_iter()
            .map(|(game, mut moves)| {
                moves.sort_unstable();
                moves.dedup();
                Hit { game, moves }
            })
            .collect(),
        continuations,
    }
}

/// The (k+1)-th move of an op program.
fn nth_move(ops: &[u16], k: u32) -> Option<(Color, Option<Point>)> {
    ops.iter()
        .filter_map(|&v| match Op::decode(v) {
            Op::Move(c, p) => Some((c, p)),
            _ => None,
        })
        .nth(k as usize)
}

/// Stored games of the right board size to replay: all, or those behind the filter's games
/// (copies are answered through their originals).
fn candidates(index: &Index, w: u8, h: u8, filter: Filter<'_>) -> Vec<u32> {
    let all: Box<dyn Iterator<Item = u32>> = match filter {
        Some(f) => Box::new(f.iter().copied()),
        None => Box::new(0..index.len()),
    };
    let mut out: Vec<u32> = all
        .filter_map(|g| {
            let r = index.game(g);
            let owner = if r.is_copy() { r.duplicate_of } else { g };
            (r.width == w && r.height == h).then_some(owner)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

type Occupancy = [[u64; 6]; 2];

fn occupancy_of(p: &Position) -> Occupancy {
    let mut o = [[0u64; 6]; 2];
    if (p.width(), p.height()) == (19, 19) {
        for (c, color) in [Color::Black, Color::White].into_iter().enumerate() {
            for pt in p.stones(color).iter() {
                let bit = pt.y as usize * 19 + pt.x as usize;
                o[c][bit / 64] |= 1 << (bit % 64);
            }
        }
    }
    o
}

fn covers(have: &Occupancy, want: &Occupancy) -> bool {
    (0..2).all(|c| (0..6).all(|w| have[c][w] & want[c][w] == want[c][w]))
}

/// One placement of a pattern on the board: per-row masks.
#[derive(Clone, Debug)]
struct Placement {
    /// (row, black, white, empty, not white, not black)
    rows: Vec<(u8, u64, u64, u64, u64, u64)>,
    need: Occupancy,
}

impl Placement {
    fn new(width: u8, height: u8, cells: impl Iterator<Item = (Point, Cell)>) -> Placement {
        let mut rows: BTreeMap<u8, [u64; 5]> = BTreeMap::new();
        let mut need = [[0u64; 6]; 2];
        for (p, cell) in cells {
            let i = match cell {
                Cell::Black => 0,
                Cell::White => 1,
                Cell::Empty => 2,
                Cell::NotWhite => 3,
                Cell::NotBlack => 4,
                Cell::Any => continue,
            };
            rows.entry(p.y).or_default()[i] |= 1 << p.x;
            if i < 2 && (width, height) == (19, 19) {
                let bit = p.y as usize * 19 + p.x as usize;
                need[i][bit / 64] |= 1 << (bit % 64);
            }
        }
        Placement {
            rows: rows
                .into_iter()
                .map(|(y, m)| (y, m[0], m[1], m[2], m[3], m[4]))
                .collect(),
            need,
        }
    }

    fn matches(&self, b: &Board) -> bool {
        let (black, white) = (b.stones(Color::Black), b.stones(Color::White));
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
                            bw,
                            bh,
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
                    bw,
                    bh,
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

/// Finds where a pattern appears: game g hits at k when, for some placement, position k
/// satisfies it and position k−1 does not (or k = 0).
pub fn find_pattern(index: &Index, q: &PatternQuery, filter: Filter<'_>) -> Answer {
    let (bw, bh) = q.board;
    let placements = placements(q);
    let found: Vec<Hit> = candidates(index, bw, bh, filter)
        .into_par_iter()
        .filter(|&g| {
            (bw, bh) != (19, 19) || {
                let occ = index.occupancy(g);
                placements.iter().any(|p| covers(&occ, &p.need))
            }
        })
        .filter_map(|g| {
            let ops = index.ops(g);
            let mut rep = Replayer::new(&ops, bw, bh, false).ok()?;
            let mut before = vec![false; placements.len()];
            let mut moves = Vec::new();
            while let Some(step) = rep.next_position(|_| {}) {
                let mut appeared = false;
                for (i, p) in placements.iter().enumerate() {
                    let now = p.matches(rep.board());
                    appeared |= now && !before[i];
                    before[i] = now;
                }
                if appeared {
                    moves.push(step.k);
                }
            }
            (!moves.is_empty()).then_some(Hit { game: g, moves })
        })
        .collect();
    let mut hits = Vec::new();
    for hit in found {
        for &c in index.copies(hit.game) {
            hits.push(Hit {
                game: c,
                moves: hit.moves.clone(),
            });
        }
        hits.push(hit);
    }
    if let Some(f) = filter {
        hits.retain(|h| f.binary_search(&h.game).is_ok());
    }
    hits.sort_by_key(|h| h.game);
    Answer {
        hits,
        continuations: Vec::new(),
    }
}
