//! Move sequence search: where a sequence of moves (a joseki, an opening) was played, and what
//! was played once it was complete.
//!
//! **What a sequence means.** By default, as a player reads a joseki: its moves are played in
//! that order, in one place, one after another. Precisely, game g hits at k when its k-th move
//! completes the sequence (for some orientation, colouring and, with `anywhere`, translation of
//! it) and
//! - no other move of the game between the sequence's first and last move lies in the
//!   sequence's **area**: the smallest rectangle holding its points, grown by
//!   [`AREA_MARGIN`] lines on every side and clipped to the board. A stone within two lines of
//!   the shape touches it or stands a jump from one of its stones, so it changes the local
//!   fight and the moves were not that joseki; a move three lines off (a distant pincer, an
//!   extension, the rest of the board) leaves it alone, and tenuki is always allowed;
//! - the sequence's moves from its second on are played within [`span`] moves of the game
//!   (`2 × length + 10`): room for every move of the sequence to be met by a tenuki and its
//!   answer, plus one longer exchange elsewhere (a ladder, a few forcing moves) before the
//!   corner is taken up again. A corner left for longer and finished later is a later
//!   continuation, not the joseki. The clock starts at the second move because the first is
//!   often a stone that waited alone in its area (a 4-4 stone of the opening, approached forty
//!   moves later): with nothing else played in the area meanwhile, the joseki still starts
//!   from it.
//!
//! Options loosen it: `in_order: false` takes the moves as a set (any order, same area and
//! span); `any_gap` drops the area and the span (the moves anywhere later in the game, with
//! any moves between: how qipu read sequences before, and what a search for an opening's
//! moves played in any corner order wants). A point played twice (after a capture) is two
//! moves, so captures need nothing special.
//!
//! **Continuations.** As for patterns ([`crate::region`]), a hit's continuation is what was
//! played next *there*: for a hit (g, k), the first move of g from the (k+1)-th on that lies in
//! the sequence's area (the area of the orientation, colouring and placement that completed it;
//! with `any_gap` too, although there the area bounds nothing between), mapped back into the
//! query's orientation and colours through the orientations that completed the sequence there
//! (the smallest SGF point among them, as for positions). It came after tenuki when it is not
//! the (k+1)-th move (a pass is a move elsewhere); a hit after which nothing was ever played in
//! the area has none and is counted apart ([`crate::Answer::no_continuation`]). Orientations
//! completing the sequence at the same move in different areas (a symmetric sequence, two
//! corners) give one continuation each, as a pattern does per region. The moves were read to
//! find the hits, so this costs no second read.
//!
//! A sequence translated `anywhere` answers in its **own coordinates**: those `variants()`
//! gives it (relative to the top-left of its points' rectangle, in the query's orientation),
//! moved [`AREA_MARGIN`] lines right and down, so that the rectangle's top-left is at `cc` and
//! every point of the area around it has a place (a continuation two lines above or left of the
//! shape would otherwise be off the frame). A translated placement whose area the board clips
//! answers only points of the board, in the same frame.

use goban::{Color, Point, Symmetry};
use rayon::prelude::*;

use crate::answer::{ms_since, Answer, Hit};
use crate::back::Back;
use crate::engine::{continued_with_copies, covering_each, own_positions, with_copies};
use crate::query::Filter;
use crate::region::{first_inside, Region};
use crate::store::Store;
use crate::tally::{continuation_rows, Continuation, Followed};

/// A sequence of moves to find (e.g. a joseki); see the module's documentation for what a hit
/// is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceQuery {
    pub board: (u8, u8),
    pub moves: Vec<(Color, Point)>,
    /// The moves in this order; otherwise as a set, in any order.
    pub in_order: bool,
    /// Other moves anywhere between the sequence's, and the sequence spread over any number of
    /// moves; otherwise only outside its area and within [`span`] moves.
    pub any_gap: bool,
    pub symmetry: bool,
    pub swap_colors: bool,
    /// The sequence may also be translated anywhere on the board.
    pub anywhere: bool,
    /// Whether the answer lists the moves its continuation rows count
    /// ([`crate::Answer::continued`]) instead of adding up the rows: a search for the mistakes
    /// played from it asks, and needs those moves, not the table (the answer's
    /// `continuations` are then empty and its `no_continuation` 0).
    pub continued: bool,
}

/// Lines the sequence's area reaches past the rectangle of its points (see the module's
/// documentation).
pub const AREA_MARGIN: u8 = 2;

/// The most moves of a game that a sequence of `n` moves may spread over from its second move
/// to its last, both included, unless `any_gap`: `2 n + 10` (see the module's documentation).
pub const fn span(n: usize) -> usize {
    2 * n + 10
}

/// One orientation (and colouring) of the sequence, with every transformation that gives it
/// (a symmetric sequence is its own image under several).
struct Variant {
    moves: Vec<(Color, Point)>,
    images: Vec<(Symmetry, bool)>,
}

/// What a hit contributes to the continuation table, once per area the sequence completed in
/// at its k-th move: which variants completed it there (bit i: variant i) and the first move
/// played later in that area (for `anywhere`, in the frame of [`Origin`]).
type Next = Followed<u32>;

/// A hit game's continuations ([`Next`]), in order of position, with the move number (k) each
/// belongs to: one per area the sequence completed in at that move.
#[derive(Default)]
struct Nexts {
    at: Vec<u32>,
    follows: Vec<Next>,
}

/// Where the own frame of a placement begins on the board: (0, 0) for an anchored sequence
/// (its frame is the board); for one translated `anywhere`, [`AREA_MARGIN`] lines above and
/// left of its points' rectangle (see the module's documentation). Signed: near the board's
/// edge the frame begins off it.
type Origin = (i16, i16);

/// One way the sequence completed at a move: the variant, the area it lies in, and where its
/// frame begins.
#[derive(Clone, Copy)]
struct Completed {
    k: u32,
    bit: u32,
    area: Region,
    origin: Origin,
}

/// Finds games where a sequence of moves was played (see the module's documentation): each hit
/// game with the moves that complete the sequence in it, and the continuation table.
pub fn find_sequence<S: Store>(index: &S, q: &SequenceQuery, filter: Filter<'_>) -> Answer {
    let (bw, bh) = q.board;
    if q.moves.is_empty() || !(1..=52).contains(&bw) || !(1..=52).contains(&bh) {
        return Answer::nothing_there();
    }
    let variants = variants(q);
    // Translated anywhere, the moves' points say nothing of the game's.
    let needs: Vec<Vec<(Color, Point)>> = if q.anywhere {
        Vec::new()
    } else {
        variants.iter().map(|v| v.moves.clone()).collect()
    };
    let rules = Rules {
        in_order: q.in_order,
        any_gap: q.any_gap,
        board: q.board,
    };
    // Which variants' stones each candidate ever had, when the store can tell: a game is tried
    // only in those (a 4-4 approach is in a game's one or two corners, not its eight
    // orientations).
    let (games, covers) = covering_each(index, q.board, filter, &needs);
    let every = u64::MAX >> (64 - variants.len().clamp(1, 64));
    // Each variant made ready once (a translated one, per placement, below).
    let prepared: Vec<Prepared> = match q.anywhere {
        true => Vec::new(),
        false => variants
            .iter()
            .map(|v| Prepared::of(&v.moves, q.in_order))
            .collect(),
    };
    // Each anchored variant's area, once.
    let areas: Vec<Region> = variants
        .iter()
        .map(|v| Area::of(&v.moves, q.board).region())
        .collect();
    let mut found: Vec<(Hit, Nexts)> = games
        .par_iter()
        .enumerate()
        .map_init(
            || (Vec::new(), Vec::new(), Played::new()),
            |(ops, moves, played), (c, &g)| {
                if index.stopped() {
                    return None;
                }
                let covered = covers.as_ref().map_or(every, |m| m[c]);
                index.load(g, ops);
                moves.clear();
                moves.extend(index.moves(ops));
                let moves: &[(Color, Option<Point>)] = moves;
                if q.anywhere {
                    played.read(moves, q.board);
                }
                let mut ks: Vec<Completed> = Vec::new();
                for (i, v) in variants.iter().enumerate() {
                    if covered >> i & 1 == 0 {
                        continue;
                    }
                    let bit = 1u32 << i;
                    if q.anywhere {
                        for placed in translations(moves, &v.moves, q.board, played) {
                            let prepared = Prepared::of(&placed, q.in_order);
                            let found = rules.completions_with(moves, &placed, &prepared);
                            if found.is_empty() {
                                continue;
                            }
                            let area = Area::of(&placed, q.board).region();
                            let origin = own_origin(&placed);
                            ks.extend(found.into_iter().map(|k| Completed {
                                k,
                                bit,
                                area,
                                origin,
                            }));
                        }
                    } else {
                        let found = rules.completions_with(moves, &v.moves, &prepared[i]);
                        ks.extend(found.into_iter().map(|k| Completed {
                            k,
                            bit,
                            area: areas[i],
                            origin: (0, 0),
                        }));
                    }
                }
                if ks.is_empty() {
                    return None;
                }
                ks.sort_by_key(|c| c.k);
                Some(followed(g, moves, &ks))
            },
        )
        .flatten()
        .collect();
    own_positions(index, &mut found, |nexts, _, from| {
        let cut = nexts.at.partition_point(|&k| k < from);
        nexts.at.drain(..cut);
        nexts.follows.drain(..cut);
    });
    let started = std::time::Instant::now();
    let (continuations, no_continuation) = match q.continued {
        true => (Vec::new(), 0),
        false => continuations(index, &found, &variants, filter, q),
    };
    let tally_ms = ms_since(started);
    let continued = match q.continued {
        true => continued_with_copies(
            index,
            found
                .iter()
                .flat_map(|(hit, nexts)| {
                    let g = hit.game;
                    nexts
                        .follows
                        .iter()
                        .filter(|f| f.next.is_some())
                        .map(move |f| (g, f.from))
                })
                .collect(),
            filter,
        ),
        false => Vec::new(),
    };
    Answer {
        hits: with_copies(index, found.into_iter().map(|f| f.0).collect(), filter),
        continuations,
        profile: None,
        counts: None,
        no_continuation: Some(no_continuation),
        continued,
        tally_ms,
    }
}

/// A hit game from the ways the sequence completed in it (ascending by move): its positions,
/// and per position and distinct area (and frame) the first later move played in that area
/// ([`crate::region`]), from the moves the scan read.
fn followed(game: u32, moves: &[(Color, Option<Point>)], ks: &[Completed]) -> (Hit, Nexts) {
    let mut hit = Hit {
        game,
        moves: Default::default(),
    };
    let mut nexts = Nexts::default();
    // The areas (and frames) of this position's continuations so far, by index into `nexts`.
    let mut here: Vec<(Region, Origin, usize)> = Vec::new();
    for c in ks {
        if hit.moves.last() != Some(&c.k) {
            hit.moves.push(c.k);
            here.clear();
        }
        if let Some(&(_, _, i)) = here.iter().find(|&&(a, o, _)| a == c.area && o == c.origin) {
            nexts.follows[i].key |= c.bit;
            continue;
        }
        // Move k (1-based) completed it: the (k+1)-th is `moves[k]`.
        let from = c.k as usize;
        let at = first_inside(moves, from, c.area);
        here.push((c.area, c.origin, nexts.follows.len()));
        nexts.at.push(c.k);
        nexts.follows.push(Followed {
            key: c.bit,
            next: at.map(|j| in_frame(moves[j], c.origin)),
            tenuki: at.is_some_and(|j| j != from),
            from: at.unwrap_or(from) as u32,
        });
    }
    (hit, nexts)
}

/// Where the own frame of a translated placement begins ([`Origin`]).
fn own_origin(placed: &[(Color, Point)]) -> Origin {
    let (x0, y0) = placed
        .iter()
        .fold((u8::MAX, u8::MAX), |a, m| (a.0.min(m.1.x), a.1.min(m.1.y)));
    let m = i16::from(AREA_MARGIN);
    (i16::from(x0) - m, i16::from(y0) - m)
}

/// A move of the board in the frame beginning at `origin`. A move in the area is never left of
/// or above the frame (the area reaches [`AREA_MARGIN`] lines past the points, the frame as
/// far); were one, it would be put past the frame's end, where mapping it back gives no row,
/// rather than on another point.
fn in_frame((c, p): (Color, Option<Point>), origin: Origin) -> (Color, Option<Point>) {
    let p = p.map(|p| {
        let (x, y) = (i16::from(p.x) - origin.0, i16::from(p.y) - origin.1);
        Point::new(
            u8::try_from(x).unwrap_or(u8::MAX),
            u8::try_from(y).unwrap_or(u8::MAX),
        )
    });
    (c, p)
}

/// The sequence in every orientation and colouring the query allows (for `anywhere`, each
/// relative to the top-left of its points' rectangle), each once.
fn variants(q: &SequenceQuery) -> Vec<Variant> {
    let (bw, bh) = q.board;
    let syms: &[Symmetry] = if !q.symmetry {
        &[Symmetry::Identity]
    } else if q.anywhere {
        &Symmetry::ALL
    } else {
        Symmetry::of_board(bw, bh)
    };
    let colourings: &[bool] = if q.swap_colors {
        &[false, true]
    } else {
        &[false]
    };
    let mut variants: Vec<Variant> = Vec::new();
    for &s in syms {
        for &swapped in colourings {
            let mut v: Vec<(Color, Point)> = q
                .moves
                .iter()
                .map(|&(c, p)| {
                    let c = if swapped { c.opponent() } else { c };
                    (c, s.apply(p, bw, bh))
                })
                .collect();
            if q.anywhere {
                let (x0, y0) = v
                    .iter()
                    .fold((u8::MAX, u8::MAX), |a, m| (a.0.min(m.1.x), a.1.min(m.1.y)));
                for m in &mut v {
                    m.1 = Point::new(m.1.x - x0, m.1.y - y0);
                }
            }
            match variants.iter_mut().find(|x| x.moves == v) {
                Some(x) => x.images.push((s, swapped)),
                None => variants.push(Variant {
                    moves: v,
                    images: vec![(s, swapped)],
                }),
            }
        }
    }
    variants
}

/// Which colours played at each point of a game (bit 0 Black, bit 1 White), row by row: a
/// sequence can only complete where every one of its moves was played, which a placement is
/// checked against in its length, before the game is walked for it.
struct Played {
    width: usize,
    at: Vec<u8>,
}

impl Played {
    fn new() -> Played {
        Played {
            width: 0,
            at: Vec::new(),
        }
    }

    /// Made again for `game` on a `bw`×`bh` board.
    fn read(&mut self, game: &[(Color, Option<Point>)], (bw, bh): (u8, u8)) {
        self.width = usize::from(bw);
        self.at.clear();
        self.at.resize(usize::from(bw) * usize::from(bh), 0);
        for &(c, p) in game {
            if let Some(i) = p.and_then(|p| self.index(p)) {
                self.at[i] |= Played::bit(c);
            }
        }
    }

    fn index(&self, p: Point) -> Option<usize> {
        let i = usize::from(p.y) * self.width + usize::from(p.x);
        (usize::from(p.x) < self.width && i < self.at.len()).then_some(i)
    }

    fn bit(c: Color) -> u8 {
        match c {
            Color::Black => 1,
            Color::White => 2,
        }
    }

    /// Whether `c` played at `p`.
    fn has(&self, c: Color, p: Point) -> bool {
        self.index(p)
            .is_some_and(|i| self.at[i] & Played::bit(c) != 0)
    }
}

/// The placements of a sequence (relative to its rectangle's top-left) that a game can hold:
/// the sequence's first move anchored on each move of that colour, where the whole sequence
/// fits the board and each of its moves was played in the game (`played`). Walking the game
/// for every anchor cost its length for each of a game's moves and orientations; most anchors
/// fail this check in a few lookups (BENCHMARKS.md has the figures).
fn translations(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    (bw, bh): (u8, u8),
    played: &Played,
) -> Vec<Vec<(Color, Point)>> {
    let mut offsets: Vec<(i16, i16)> = game
        .iter()
        .filter(|m| m.0 == seq[0].0)
        .filter_map(|m| m.1)
        .map(|p| {
            (
                p.x as i16 - seq[0].1.x as i16,
                p.y as i16 - seq[0].1.y as i16,
            )
        })
        .filter(|&(dx, dy)| {
            seq.iter().all(|m| {
                let (x, y) = (m.1.x as i16 + dx, m.1.y as i16 + dy);
                (0..bw as i16).contains(&x)
                    && (0..bh as i16).contains(&y)
                    && played.has(m.0, Point::new(x as u8, y as u8))
            })
        })
        .collect();
    offsets.sort_unstable();
    offsets.dedup();
    offsets
        .into_iter()
        .map(|(dx, dy)| {
            seq.iter()
                .map(|&(c, p)| {
                    (
                        c,
                        Point::new((p.x as i16 + dx) as u8, (p.y as i16 + dy) as u8),
                    )
                })
                .collect()
        })
        .collect()
}

/// The sequence's area: its points' rectangle grown by [`AREA_MARGIN`], clipped to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Area {
    x0: u8,
    y0: u8,
    x1: u8,
    y1: u8,
}

impl Area {
    fn of(seq: &[(Color, Point)], (bw, bh): (u8, u8)) -> Area {
        let (mut x0, mut y0, mut x1, mut y1) = (u8::MAX, u8::MAX, 0, 0);
        for &(_, p) in seq {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
        }
        Area {
            x0: x0.saturating_sub(AREA_MARGIN),
            y0: y0.saturating_sub(AREA_MARGIN),
            x1: x1.saturating_add(AREA_MARGIN).min(bw.saturating_sub(1)),
            y1: y1.saturating_add(AREA_MARGIN).min(bh.saturating_sub(1)),
        }
    }

    /// The area as a [`Region`], for [`first_inside`].
    fn region(self) -> Region {
        Region {
            x0: self.x0,
            y0: self.y0,
            x1: self.x1,
            y1: self.y1,
        }
    }

    /// Whether a move at `p` is in the area (a pass never is).
    fn holds(&self, p: Option<Point>) -> bool {
        p.is_some_and(|p| (self.x0..=self.x1).contains(&p.x) && (self.y0..=self.y1).contains(&p.y))
    }
}

/// How a sequence may be spread over a game (the query's options).
#[derive(Clone, Copy)]
struct Rules {
    in_order: bool,
    any_gap: bool,
    board: (u8, u8),
}

impl Rules {
    /// The move numbers (1-based) at which `seq` is complete in `game`, ascending. With
    /// `any_gap`, the first only (the sequence taken from the game's first moves on); otherwise
    /// one for each move of the game the sequence can start from.
    #[cfg(test)]
    fn completions(
        &self,
        game: &[(Color, Option<Point>)],
        seq: &[(Color, Point)],
    ) -> impl Iterator<Item = u32> {
        self.completions_with(game, seq, &Prepared::of(seq, self.in_order))
            .into_iter()
    }

    /// [`Rules::completions`] with the sequence prepared ([`Prepared::of`] with these rules'
    /// order), once for all the games it is matched against.
    fn completions_with(
        &self,
        game: &[(Color, Option<Point>)],
        seq: &[(Color, Point)],
        prepared: &Prepared,
    ) -> Vec<u32> {
        // A sequence played as a joseki is also played with any moves between, and that one
        // pass over the game rules out most candidates before any start is tried.
        let mut set = match self.in_order {
            true => None,
            false => prepared.set.as_ref().map(MoveSet::walker),
        };
        let loose = anywhere_later(game, seq, set.as_mut());
        let ks: Vec<u32> = match loose {
            None => Vec::new(),
            Some(k) if self.any_gap => vec![k],
            Some(_) => {
                let area = Area::of(seq, self.board);
                let mut ks = match set.as_mut() {
                    // Every move of the sequence in its area: the windows decide (below).
                    _ if seq.iter().any(|m| !area.holds(Some(m.1))) => {
                        walked(game, seq, set.as_mut(), area)
                    }
                    None => in_order_windows(game, seq, &prepared.fail, area),
                    Some(set) => set_windows(game, set.set, area),
                };
                ks.sort_unstable();
                ks.dedup();
                ks
            }
        };
        ks
    }
}

/// What matching a sequence needs that depends on the sequence only, made once for all the
/// games (made per game, it cost the sequence's length, times its logarithm, for every
/// candidate game): taken as a set, its moves sorted and counted; in order, the
/// Knuth–Morris–Pratt table of its prefixes.
struct Prepared {
    set: Option<MoveSet>,
    /// For each prefix `seq[..=j]`, the length of its longest proper prefix that is also its
    /// suffix.
    fail: Vec<usize>,
}

impl Prepared {
    fn of(seq: &[(Color, Point)], in_order: bool) -> Prepared {
        if !in_order {
            return Prepared {
                set: Some(MoveSet::of(seq)),
                fail: Vec::new(),
            };
        }
        let n = seq.len();
        let mut fail = vec![0usize; n];
        let mut k = 0;
        for j in 1..n {
            while k > 0 && seq[j] != seq[k] {
                count_steps(1);
                k = fail[k - 1];
            }
            if seq[j] == seq[k] {
                k += 1;
            }
            fail[j] = k;
        }
        Prepared { set: None, fail }
    }
}

/// The moves of a sequence as a set with repeats (a point played twice is two moves), looked up
/// by binary search: matching a game's move against it costs the logarithm of the sequence's
/// length, not a scan of it. Scanning made a long sequence with repeated moves (a pair played
/// over and over) cost its length for every move of every game, times every start tried.
struct MoveSet {
    /// The distinct moves, sorted.
    keys: Vec<(Color, Point)>,
    /// How many times each is in the sequence.
    counts: Vec<u32>,
    /// The number of moves (the sequence's length).
    len: usize,
}

/// A walk over a game taking moves from a [`MoveSet`].
struct Walker<'s> {
    set: &'s MoveSet,
    /// How many times each is still to be played.
    left: Vec<u32>,
    /// Which of `left` a walk lowered, to restore them before the next (so that a walk costs
    /// what it matched, not the set's size).
    touched: Vec<usize>,
}

impl MoveSet {
    fn of(seq: &[(Color, Point)]) -> MoveSet {
        let mut sorted = seq.to_vec();
        sorted.sort_unstable();
        let mut keys: Vec<(Color, Point)> = Vec::with_capacity(sorted.len());
        let mut counts: Vec<u32> = Vec::with_capacity(sorted.len());
        for m in sorted {
            if keys.last() == Some(&m) {
                *counts.last_mut().unwrap_or(&mut 0) += 1;
            } else {
                keys.push(m);
                counts.push(1);
            }
        }
        MoveSet {
            keys,
            counts,
            len: seq.len(),
        }
    }

    /// A walk with every move still to play: the distinct moves' size, at most two colours
    /// times the board's points, whatever the sequence's length.
    fn walker(&self) -> Walker<'_> {
        Walker {
            set: self,
            left: self.counts.clone(),
            touched: Vec::new(),
        }
    }

    /// Which distinct move of the set a game's move is, if any.
    fn find(&self, (c, p): (Color, Option<Point>)) -> Option<usize> {
        let p = p?;
        count_steps(1 + self.keys.len().max(1).ilog2() as u64);
        self.keys.binary_search(&(c, p)).ok()
    }
}

impl Walker<'_> {
    /// Takes one of the moves still to play equal to `m`; false when there is none.
    fn take(&mut self, m: (Color, Option<Point>)) -> bool {
        match self.set.find(m) {
            Some(i) if self.left[i] > 0 => {
                self.left[i] -= 1;
                self.touched.push(i);
                true
            }
            _ => false,
        }
    }

    /// Every move to play again, for the next walk.
    fn reset(&mut self) {
        for i in self.touched.drain(..) {
            self.left[i] = self.set.counts[i];
        }
    }
}

#[cfg(test)]
thread_local! {
    // Work done matching game moves against a sequence, counted in tests only: the tests bound
    // it by the game's and the sequence's lengths, so that a quadratic step cannot come back
    // unseen.
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[inline]
fn count_steps(_n: u64) {
    #[cfg(test)]
    STEPS.with(|s| s.set(s.get() + _n));
}

/// Where `seq` is complete when played in order from the game's `start`-th move (0-based) as a
/// player means it: `start` plays its first move, the rest follow in order with no other move
/// in `area` between, and from the second to the last within [`span`] moves.
fn local_in_order(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    start: usize,
    area: Area,
) -> Option<u32> {
    let n = seq.len();
    let is = |j: usize, m: (Color, Option<Point>)| m.0 == seq[j].0 && m.1 == Some(seq[j].1);
    if !is(0, game[start]) {
        return None;
    }
    if n == 1 {
        return Some(start as u32 + 1);
    }
    let mut next = 1;
    let mut second: Option<usize> = None;
    for (t, &m) in game.iter().enumerate().skip(start + 1) {
        count_steps(1);
        if second.is_some_and(|s| t - s >= span(n)) {
            return None;
        }
        if is(next, m) {
            next += 1;
            second.get_or_insert(t);
            if next == n {
                return Some(t as u32 + 1);
            }
        } else if area.holds(m.1) {
            return None;
        }
    }
    None
}

/// [`local_in_order`] for the moves taken as a set (`set` holds the sequence; it is left as it
/// was given): `start` plays one of them, the others follow in any order, with the same area
/// and span.
fn local_as_set(
    game: &[(Color, Option<Point>)],
    set: &mut Walker<'_>,
    start: usize,
    area: Area,
) -> Option<u32> {
    // Most moves start nothing: that is known before the walk.
    if !set.take(game[start]) {
        return None;
    }
    let n = set.set.len;
    let found = (|| {
        if n == 1 {
            return Some(start as u32 + 1);
        }
        let mut left = n - 1;
        let mut second: Option<usize> = None;
        for (t, &m) in game.iter().enumerate().skip(start + 1) {
            count_steps(1);
            if second.is_some_and(|s| t - s >= span(n)) {
                return None;
            }
            if set.take(m) {
                left -= 1;
                second.get_or_insert(t);
                if left == 0 {
                    return Some(t as u32 + 1);
                }
            } else if area.holds(m.1) {
                return None;
            }
        }
        None
    })();
    set.reset();
    found
}

/// The move number (1-based) at which `seq` is first complete in `game` with any moves between
/// and no bound: in order, or as a set when `set` (the sequence's) is given.
fn anywhere_later(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    set: Option<&mut Walker<'_>>,
) -> Option<u32> {
    match set {
        None => {
            let mut j = 0;
            for (i, &(c, p)) in game.iter().enumerate() {
                count_steps(1);
                if p == Some(seq[j].1) && c == seq[j].0 {
                    j += 1;
                    if j == seq.len() {
                        return Some(i as u32 + 1);
                    }
                }
            }
            None
        }
        Some(set) => {
            let mut left = set.set.len;
            let found = game.iter().enumerate().find_map(|(i, &m)| {
                count_steps(1);
                if set.take(m) {
                    left -= 1;
                }
                (left == 0).then_some(i as u32 + 1)
            });
            set.reset();
            found
        }
    }
}

/// The local completions found by walking from each move the sequence can start from
/// ([`local_in_order`], [`local_as_set`]): what the windows below compute in one pass, kept
/// for a sequence with a move outside its own area (a point off the board), where a move of
/// the sequence may be passed over as a tenuki and the windows' reasoning does not hold.
fn walked(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    set: Option<&mut Walker<'_>>,
    area: Area,
) -> Vec<u32> {
    match set {
        None => (0..game.len())
            .filter_map(|i| local_in_order(game, seq, i, area))
            .collect(),
        Some(set) => (0..game.len())
            .filter_map(|i| local_as_set(game, set, i, area))
            .collect(),
    }
}

/// The game's moves in the sequence's area, as indices into the game: the only moves a local
/// completion looks at. Every move of the sequence lies in its area, so a walk from a start
/// takes each move of the area in turn or stops there (a move in the area that is not the one
/// due breaks the shape), and passes over every other move. A completion is therefore a run of
/// `n` consecutive moves of this list that is the sequence (in order, or as a set), from the
/// second of them to the last within [`span`] moves of the game.
fn area_moves(game: &[(Color, Option<Point>)], area: Area) -> Vec<usize> {
    count_steps(game.len() as u64);
    (0..game.len()).filter(|&i| area.holds(game[i].1)).collect()
}

/// Whether a run of the area's moves, at these game indices, is played within the span.
fn within_span(run: &[usize]) -> bool {
    run.len() < 2 || run[run.len() - 1] - run[1] < span(run.len())
}

/// The local completions of `seq` in order: the runs of the area's moves equal to it (found by
/// Knuth–Morris–Pratt, so a sequence that repeats itself, a pair played over and over, is
/// not matched again from each start) that are within the span.
fn in_order_windows(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    fail: &[usize],
    area: Area,
) -> Vec<u32> {
    let n = seq.len();
    let at = area_moves(game, area);
    let is = |j: usize, i: usize| game[at[i]] == (seq[j].0, Some(seq[j].1));
    let mut ks = Vec::new();
    let mut matched = 0;
    for i in 0..at.len() {
        count_steps(1);
        while matched > 0 && !is(matched, i) {
            count_steps(1);
            matched = fail[matched - 1];
        }
        if is(matched, i) {
            matched += 1;
        }
        if matched == n {
            if within_span(&at[i + 1 - n..=i]) {
                ks.push(at[i] as u32 + 1);
            }
            matched = fail[n - 1];
        }
    }
    ks
}

/// The local completions of the sequence taken as a set: the runs of `n` of the area's moves
/// holding exactly its moves, found by sliding one window over the list and keeping how many
/// of the set's moves its counts differ on.
fn set_windows(game: &[(Color, Option<Point>)], set: &MoveSet, area: Area) -> Vec<u32> {
    let n = set.len;
    let at = area_moves(game, area);
    // In the window: `left` is each move's count still wanting (negative: too many), `off`
    // how many distinct moves want a count other than none, `foreign` its moves not in the set.
    let mut left: Vec<i64> = set.counts.iter().map(|&c| i64::from(c)).collect();
    let mut off = left.len();
    let mut foreign = 0usize;
    let change =
        |i: usize, by: i64, left: &mut Vec<i64>, off: &mut usize, foreign: &mut usize| match set
            .find(game[at[i]])
        {
            Some(d) => {
                let was = left[d] == 0;
                left[d] += by;
                match (was, left[d] == 0) {
                    (true, false) => *off += 1,
                    (false, true) => *off -= 1,
                    _ => {}
                }
            }
            None if by < 0 => *foreign += 1,
            None => *foreign -= 1,
        };
    let mut ks = Vec::new();
    for i in 0..at.len() {
        count_steps(1);
        change(i, -1, &mut left, &mut off, &mut foreign);
        if i >= n {
            change(i - n, 1, &mut left, &mut off, &mut foreign);
        }
        if i + 1 >= n && off == 0 && foreign == 0 && within_span(&at[i + 1 - n..=i]) {
            ks.push(at[i] as u32 + 1);
        }
    }
    ks
}

/// The continuation table of a sequence's hits: each hit (of an original game, and of each of
/// its copies the answer holds; the first of them only unless every copy counts) counts, per
/// area, the first later move played there, mapped back through the variants that completed
/// it there (anchored: into the board in the query's orientation; `anywhere`: into the
/// sequence's own frame, see the module's documentation), with the game's winner and facts;
/// and how many had none.
fn continuations<S: Store>(
    index: &S,
    found: &[(Hit, Nexts)],
    variants: &[Variant],
    filter: Filter<'_>,
    q: &SequenceQuery,
) -> (Vec<Continuation>, usize) {
    let (bw, bh) = q.board;
    // Each variant's frame: the board, or its points' rectangle grown by the margin on every
    // side (the variant's own moves begin at (0, 0)).
    let frames: Vec<(u8, u8)> = variants
        .iter()
        .map(|v| match q.anywhere {
            false => (bw, bh),
            true => {
                let (w, h) = v
                    .moves
                    .iter()
                    .fold((0u8, 0u8), |a, m| (a.0.max(m.1.x + 1), a.1.max(m.1.y + 1)));
                (w + 2 * AREA_MARGIN, h + 2 * AREA_MARGIN)
            }
        })
        .collect();
    continuation_rows(
        index,
        found,
        |(h, n)| (h.game, n.follows.as_slice()),
        filter,
        |mask: u32| {
            let frames = &frames;
            variants
                .iter()
                .enumerate()
                .filter(move |(i, _)| mask >> i & 1 == 1)
                .flat_map(move |(i, v)| {
                    v.images.iter().map(move |&(sym, swapped)| Back {
                        sym,
                        swapped,
                        offset: (0, 0),
                        frame: frames[i],
                    })
                })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        let b = s.as_bytes();
        Point::new(b[0] - b'a', b[1] - b'a')
    }

    fn game(moves: &[(Color, &str)]) -> Vec<(Color, Option<Point>)> {
        moves
            .iter()
            .map(|&(c, p)| (c, (!p.is_empty()).then(|| pt(p))))
            .collect()
    }

    fn seq(moves: &[(Color, &str)]) -> Vec<(Color, Point)> {
        moves.iter().map(|&(c, p)| (c, pt(p))).collect()
    }

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn local(in_order: bool) -> Rules {
        Rules {
            in_order,
            any_gap: false,
            board: (19, 19),
        }
    }

    fn loose(in_order: bool) -> Rules {
        Rules {
            in_order,
            any_gap: true,
            board: (19, 19),
        }
    }

    #[test]
    fn the_area_is_the_points_rectangle_grown_and_clipped() {
        let a = Area::of(&seq(&[(B, "dd"), (W, "cc"), (B, "dc")]), (19, 19));
        assert_eq!((a.x0, a.y0, a.x1, a.y1), (0, 0, 5, 5));
        assert!(a.holds(Some(pt("ff"))) && !a.holds(Some(pt("gf"))) && !a.holds(None));
        let a = Area::of(&seq(&[(B, "ss")]), (19, 19));
        assert_eq!((a.x0, a.x1), (16, 18));
    }

    #[test]
    fn tenuki_is_allowed_a_move_in_the_area_is_not() {
        let s = seq(&[(B, "dd"), (W, "cc"), (B, "dc"), (W, "cd")]);
        // Played straight through.
        let g = game(&[(B, "dd"), (W, "cc"), (B, "dc"), (W, "cd")]);
        assert_eq!(local(true).completions(&g, &s).collect::<Vec<_>>(), [4]);
        // With a tenuki exchange in another corner.
        let g = game(&[
            (B, "dd"),
            (W, "cc"),
            (B, "pp"),
            (W, "pd"),
            (B, "dc"),
            (W, "cd"),
        ]);
        assert_eq!(local(true).completions(&g, &s).collect::<Vec<_>>(), [6]);
        // A move next to the shape breaks it; only with any gap does it count.
        let g = game(&[
            (B, "dd"),
            (W, "cc"),
            (B, "ec"),
            (W, "pd"),
            (B, "dc"),
            (W, "cd"),
        ]);
        assert_eq!(local(true).completions(&g, &s).count(), 0);
        assert_eq!(loose(true).completions(&g, &s).collect::<Vec<_>>(), [6]);
        // A pass is no move in the area.
        let g = game(&[(B, "dd"), (W, ""), (B, ""), (W, "cc"), (B, "dc"), (W, "cd")]);
        assert_eq!(local(true).completions(&g, &s).collect::<Vec<_>>(), [6]);
    }

    #[test]
    fn the_sequence_must_be_played_within_its_span() {
        let s = seq(&[(B, "dd"), (W, "cc"), (B, "dc"), (W, "cd")]);
        let elsewhere = |n: usize| -> Vec<(Color, &'static str)> {
            // Moves far from the corner, alternating colours.
            [
                "pp", "pd", "qq", "qd", "pq", "qc", "op", "oc", "nq", "nd", "mp", "md", "jj", "jk",
            ]
            .iter()
            .cycle()
            .take(n)
            .enumerate()
            .map(|(i, &p)| (if i % 2 == 0 { B } else { W }, p))
            .collect()
        };
        // The first move may wait alone for any time; from the second, span(4) = 18 moves.
        let mut m = vec![(B, "dd")];
        m.extend(elsewhere(40).into_iter().map(|(c, p)| (c.opponent(), p)));
        m.push((W, "cc"));
        m.extend(elsewhere(15));
        m.extend([(B, "dc"), (W, "cd")]);
        // cc to cd: 1 + 15 + 2 = 18 moves.
        let g = game(&m);
        assert_eq!(
            local(true).completions(&g, &s).collect::<Vec<_>>(),
            [g.len() as u32]
        );
        // One more move between and it is a later continuation, not the joseki.
        m.insert(m.len() - 2, (W, "jp"));
        let g = game(&m);
        assert_eq!(local(true).completions(&g, &s).count(), 0);
        assert_eq!(loose(true).completions(&g, &s).count(), 1);
    }

    #[test]
    fn any_order_takes_the_moves_as_a_set_in_the_same_area() {
        let s = seq(&[(B, "dd"), (W, "cc"), (B, "dc")]);
        let g = game(&[(B, "dc"), (W, "cc"), (B, "dd")]);
        assert_eq!(local(true).completions(&g, &s).count(), 0);
        assert_eq!(local(false).completions(&g, &s).collect::<Vec<_>>(), [3]);
        let g = game(&[(B, "dc"), (W, "ce"), (W, "cc"), (B, "dd")]);
        assert_eq!(local(false).completions(&g, &s).count(), 0);
        assert_eq!(loose(false).completions(&g, &s).collect::<Vec<_>>(), [4]);
    }

    fn completed(k: u32, bit: u32, seq_: &[(Color, &str)], origin: Origin) -> Completed {
        Completed {
            k,
            bit,
            area: Area::of(&seq(seq_), (19, 19)).region(),
            origin,
        }
    }

    #[test]
    fn the_continuation_is_the_first_later_move_in_the_area() {
        let s = [(B, "dd"), (W, "cc"), (B, "dc")];
        let next = |g: &[(Color, Option<Point>)]| {
            let (hit, nexts) = followed(7, g, &[completed(3, 1, &s, (0, 0))]);
            assert_eq!(
                (hit.game, hit.moves.to_vec(), nexts.at),
                (7, vec![3], vec![3])
            );
            assert_eq!(nexts.follows.len(), 1);
            let f = nexts.follows[0];
            assert_eq!(f.key, 1);
            (f.next, f.tenuki)
        };
        // Answered at once, in the corner.
        let g = game(&[(B, "dd"), (W, "cc"), (B, "dc"), (W, "cd"), (B, "pp")]);
        assert_eq!(next(&g), (Some((W, Some(pt("cd")))), false));
        // Tenuki first (a move three lines off, a pass): the first move in the area counts.
        let g = game(&[
            (B, "dd"),
            (W, "cc"),
            (B, "dc"),
            (W, "gd"),
            (B, ""),
            (W, "pp"),
            (B, "ff"),
        ]);
        assert_eq!(next(&g), (Some((B, Some(pt("ff")))), true));
        // Nothing more there.
        let g = game(&[(B, "dd"), (W, "cc"), (B, "dc"), (W, "pp"), (B, "")]);
        assert_eq!(next(&g), (None, false));
        let g = game(&[(B, "dd"), (W, "cc"), (B, "dc")]);
        assert_eq!(next(&g), (None, false));
    }

    #[test]
    fn each_area_completed_at_a_move_has_its_continuation() {
        // Two orientations complete at move 3 in the same area, a third in another.
        let here = [(B, "dd"), (W, "cc"), (B, "dc")];
        let there = [(B, "pp"), (W, "qq"), (B, "dc")];
        let g = game(&[(B, "dd"), (W, "cc"), (B, "dc"), (W, "qp"), (B, "ce")]);
        let (hit, nexts) = followed(
            0,
            &g,
            &[
                completed(3, 1, &here, (0, 0)),
                completed(3, 2, &there, (0, 0)),
                completed(3, 4, &here, (0, 0)),
            ],
        );
        assert_eq!(hit.moves.to_vec(), [3]);
        assert_eq!(nexts.at, [3, 3]);
        let f: Vec<_> = nexts
            .follows
            .iter()
            .map(|f| (f.key, f.next, f.tenuki))
            .collect();
        assert_eq!(
            f,
            [
                (0b101, Some((B, Some(pt("ce")))), true),
                (0b010, Some((W, Some(pt("qp")))), false),
            ]
        );
    }

    #[test]
    fn anywhere_the_move_is_taken_into_the_placements_frame() {
        // Placed with its rectangle's top-left at (9, 9): its frame begins at (7, 7).
        let s = [(B, "jj"), (W, "kl")];
        let g = game(&[(B, "jj"), (W, "kl"), (B, "hh")]);
        let origin = own_origin(&seq(&s));
        assert_eq!(origin, (7, 7));
        let (_, nexts) = followed(0, &g, &[completed(2, 1, &s, origin)]);
        assert_eq!(nexts.follows[0].next, Some((B, Some(Point::new(0, 0)))));
        // Near the edge the frame begins off the board, and the move still has its place.
        let s = [(B, "ba"), (W, "ab")];
        let g = game(&[(B, "ba"), (W, "ab"), (B, "aa")]);
        let origin = own_origin(&seq(&s));
        assert_eq!(origin, (-2, -2));
        let (_, nexts) = followed(0, &g, &[completed(2, 1, &s, origin)]);
        assert_eq!(nexts.follows[0].next, Some((B, Some(Point::new(2, 2)))));
    }

    #[test]
    fn anywhere_a_place_is_tried_only_where_every_move_was_played() {
        // Black played along the third line; White once, at (6, 3).
        let mut m: Vec<(Color, &str)> = ["cc", "dc", "ec", "fc", "gc", "hc", "ic", "jc"]
            .iter()
            .map(|&p| (B, p))
            .collect();
        m.push((W, "gd"));
        let g = game(&m);
        let mut played = Played::new();
        played.read(&g, (19, 19));
        // B then W one line below: only the anchor above the white stone.
        let s = seq(&[(B, "aa"), (W, "ab")]);
        assert_eq!(
            translations(&g, &s, (19, 19), &played),
            [seq(&[(B, "gc"), (W, "gd")])]
        );
        // A move no one played: no place at all.
        let s = seq(&[(B, "aa"), (W, "ac")]);
        assert!(translations(&g, &s, (19, 19), &played).is_empty());
    }

    /// A move over a few points of one corner, so that in the games and sequences drawn from
    /// these, repeats, breaks in the area and tenuki all happen often.
    fn a_move(r: &mut testdata::Rng) -> (Color, Point) {
        let c = if r.below(2) == 0 { B } else { W };
        (c, Point::new(2 + r.below(3) as u8, 2 + r.below(3) as u8))
    }

    #[test]
    fn windows_find_what_walks_from_each_start_find() {
        let mut r = testdata::Rng::new(7);
        for round in 0..3000 {
            let n = 1 + r.below(6) as usize;
            let seq: Vec<(Color, Point)> = (0..n).map(|_| a_move(&mut r)).collect();
            let len = r.below(60) as usize;
            let game: Vec<(Color, Option<Point>)> = (0..len)
                .map(|_| match r.below(10) {
                    0 => (B, None),
                    1..=3 => (W, Some(Point::new(15, 15))),
                    4 => (B, Some(Point::new(6, 3))),
                    _ => {
                        // Often a move of the sequence, so that it completes.
                        if r.below(2) == 0 {
                            let (c, p) = seq[r.below(n as u64) as usize];
                            (c, Some(p))
                        } else {
                            let (c, p) = a_move(&mut r);
                            (c, Some(p))
                        }
                    }
                })
                .collect();
            let area = Area::of(&seq, (19, 19));
            let set = MoveSet::of(&seq);
            let fail = Prepared::of(&seq, true).fail;
            let sorted = |mut v: Vec<u32>| {
                v.sort_unstable();
                v.dedup();
                v
            };
            assert_eq!(
                sorted(walked(&game, &seq, None, area)),
                in_order_windows(&game, &seq, &fail, area),
                "round {round}: in order"
            );
            assert_eq!(
                sorted(walked(&game, &seq, Some(&mut set.walker()), area)),
                set_windows(&game, &set, area),
                "round {round}: as a set"
            );
        }
    }

    /// The work of matching a long sequence that repeats a pair, in a game that repeats it
    /// too, is bounded by the lengths of the two (times the logarithm of the distinct moves to
    /// look one up): each move of the game is looked at a bounded number of times, not once
    /// for each move of the sequence or each start.
    #[test]
    fn a_repeated_pair_costs_its_length_not_its_square() {
        let n = 2_000;
        let seq: Vec<(Color, Point)> = (0..n)
            .map(|i| {
                if i % 2 == 0 {
                    (B, pt("dd"))
                } else {
                    (W, pt("cc"))
                }
            })
            .collect();
        let mut game: Vec<(Color, Option<Point>)> = Vec::new();
        for i in 0..2 * n {
            game.push(if i % 2 == 0 {
                (B, Some(pt("dd")))
            } else {
                (W, Some(pt("cc")))
            });
            if i % 7 == 0 {
                game.push((W, Some(pt("pp"))));
            }
        }
        for in_order in [true, false] {
            for any_gap in [true, false] {
                let rules = Rules {
                    in_order,
                    any_gap,
                    board: (19, 19),
                };
                STEPS.with(|s| s.set(0));
                let ks: Vec<u32> = rules.completions(&game, &seq).collect();
                let steps = STEPS.with(|s| s.get());
                assert!(!ks.is_empty());
                let bound = 8 * (game.len() + n) as u64;
                assert!(
                    steps <= bound,
                    "in order {in_order}, any gap {any_gap}: {steps} steps, bound {bound}"
                );
            }
        }
    }
}
