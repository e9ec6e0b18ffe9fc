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
//! **Continuations.** Each hit (g, k) counts the (k+1)-th move of g, mapped back into the
//! query's orientation and colours through the orientations that completed the sequence there
//! (the smallest SGF point among them, as for positions), in the same [`Continuation`] rows as
//! positions and patterns. Sequences translated `anywhere` have no orientation to map back to
//! and give no rows, as patterns slid anywhere do.

use goban::{Color, Point, Symmetry};
use rayon::prelude::*;

use crate::engine::{covering_each, with_copies, Answer, Continuation, Filter, Hit};
use crate::store::Store;
use crate::tally::{continuation_rows, own_positions};

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

/// The move played after a hit's k-th move (`None` after the last move), and which variants
/// completed the sequence there (bit i: variant i).
type Next = (u32, Option<(Color, Option<Point>)>);

/// Finds games where a sequence of moves was played (see the module's documentation): each hit
/// game with the moves that complete the sequence in it, and the continuation table.
pub fn find_sequence<S: Store>(index: &S, q: &SequenceQuery, filter: Filter<'_>) -> Answer {
    let (bw, bh) = q.board;
    if q.moves.is_empty() || !(1..=52).contains(&bw) || !(1..=52).contains(&bh) {
        return Answer::default();
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
    let mut found: Vec<(Hit, Vec<Next>)> = games
        .par_iter()
        .enumerate()
        .map_init(
            || (Vec::new(), Vec::new()),
            |(ops, moves), (c, &g)| {
                if index.stopped() {
                    return None;
                }
                let covered = covers.as_ref().map_or(every, |m| m[c]);
                index.load(g, ops);
                moves.clear();
                moves.extend(index.moves(ops));
                let moves: &[(Color, Option<Point>)] = moves;
                // (k, variants completing there).
                let mut ks: Vec<(u32, u32)> = Vec::new();
                for (i, v) in variants.iter().enumerate() {
                    if covered >> i & 1 == 0 {
                        continue;
                    }
                    let bit = 1u32 << i;
                    if q.anywhere {
                        for placed in translations(moves, &v.moves, q.board) {
                            ks.extend(rules.completions(moves, &placed).map(|k| (k, bit)));
                        }
                    } else {
                        ks.extend(rules.completions(moves, &v.moves).map(|k| (k, bit)));
                    }
                }
                if ks.is_empty() {
                    return None;
                }
                ks.sort_unstable();
                let mut hit = Hit {
                    game: g,
                    moves: Default::default(),
                };
                let mut nexts: Vec<Next> = Vec::new();
                for (k, bit) in ks {
                    if hit.moves.last() == Some(&k) {
                        if let Some(last) = nexts.last_mut() {
                            last.0 |= bit;
                        }
                    } else {
                        hit.moves.push(k);
                        nexts.push((bit, moves.get(k as usize).copied()));
                    }
                }
                Some((hit, nexts))
            },
        )
        .flatten()
        .collect();
    own_positions(index, &mut found, |nexts, cut| {
        nexts.drain(..cut);
    });
    let started = std::time::Instant::now();
    let continuations = if q.anywhere {
        Vec::new()
    } else {
        continuations(index, &found, &variants, filter, q.board)
    };
    let tally_ms = crate::engine::ms_since(started);
    Answer {
        hits: with_copies(index, found.into_iter().map(|f| f.0).collect(), filter),
        continuations,
        profile: None,
        counts: None,
        tally_ms,
    }
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

/// The placements of a sequence (relative to its rectangle's top-left) that a game can hold:
/// the sequence's first move anchored on each move of that colour, where the whole sequence
/// fits the board.
fn translations(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    (bw, bh): (u8, u8),
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
                (0..bw as i16).contains(&x) && (0..bh as i16).contains(&y)
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
    fn completions(
        &self,
        game: &[(Color, Option<Point>)],
        seq: &[(Color, Point)],
    ) -> impl Iterator<Item = u32> {
        // A sequence played as a joseki is also played with any moves between, and that one
        // pass over the game rules out most candidates before any start is tried.
        let loose = anywhere_later(game, seq, self.in_order);
        let ks: Vec<u32> = match loose {
            None => Vec::new(),
            Some(k) if self.any_gap => vec![k],
            Some(_) => {
                let area = Area::of(seq, self.board);
                let starts = |m: &(Color, Option<Point>)| {
                    let is = |s: &(Color, Point)| m.0 == s.0 && m.1 == Some(s.1);
                    if self.in_order {
                        is(&seq[0])
                    } else {
                        seq.iter().any(is)
                    }
                };
                let mut ks: Vec<u32> = game
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| starts(m))
                    .filter_map(|(i, _)| local_from(game, seq, i, self.in_order, area))
                    .collect();
                ks.sort_unstable();
                ks.dedup();
                ks
            }
        };
        ks.into_iter()
    }
}

/// Where `seq` is complete when played from the game's `start`-th move (0-based) as a player
/// means it: `start` plays one of its moves (its first, in order), the rest follow with no
/// other move in `area` between, and from the second to the last within [`span`] moves.
fn local_from(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    start: usize,
    in_order: bool,
    area: Area,
) -> Option<u32> {
    let n = seq.len();
    let is = |j: usize, m: (Color, Option<Point>)| m.0 == seq[j].0 && m.1 == Some(seq[j].1);
    let first = game[start];
    // Most moves start nothing: that is known before anything is allocated.
    let j = if in_order {
        is(0, first).then_some(0)?
    } else {
        (0..n).find(|&j| is(j, first))?
    };
    if n == 1 {
        return Some(start as u32 + 1);
    }
    // In order, the moves done are the first `next`; as a set, each is marked.
    let mut done = if in_order { Vec::new() } else { vec![false; n] };
    if let Some(d) = done.get_mut(j) {
        *d = true;
    }
    let mut left = n - 1;
    let mut next = 1;
    let mut second: Option<usize> = None;
    for (t, &m) in game.iter().enumerate().skip(start + 1) {
        if second.is_some_and(|s| t - s >= span(n)) {
            return None;
        }
        let matched = if in_order {
            is(next, m).then_some(next)
        } else {
            (0..n).find(|&j| !done[j] && is(j, m))
        };
        match matched {
            Some(j) => {
                if let Some(d) = done.get_mut(j) {
                    *d = true;
                }
                next += 1;
                left -= 1;
                second.get_or_insert(t);
                if left == 0 {
                    return Some(t as u32 + 1);
                }
            }
            None if area.holds(m.1) => return None,
            None => {}
        }
    }
    None
}

/// The move number (1-based) at which `seq` is first complete in `game` with any moves between
/// and no bound (in order, or as a set).
fn anywhere_later(
    game: &[(Color, Option<Point>)],
    seq: &[(Color, Point)],
    in_order: bool,
) -> Option<u32> {
    if in_order {
        let mut j = 0;
        for (i, &(c, p)) in game.iter().enumerate() {
            if p == Some(seq[j].1) && c == seq[j].0 {
                j += 1;
                if j == seq.len() {
                    return Some(i as u32 + 1);
                }
            }
        }
        None
    } else {
        let mut done = vec![false; seq.len()];
        let mut left = seq.len();
        for (i, &(c, p)) in game.iter().enumerate() {
            if let Some(j) =
                (0..seq.len()).find(|&j| !done[j] && p == Some(seq[j].1) && c == seq[j].0)
            {
                done[j] = true;
                left -= 1;
                if left == 0 {
                    return Some(i as u32 + 1);
                }
            }
        }
        None
    }
}

/// The continuation table of a sequence's hits: each hit (of an original game, and of each of
/// its copies the answer holds; the first of them only unless every copy counts) counts the
/// move played after the one completing the sequence, mapped back through the variants that
/// completed it there, with the game's winner and facts.
fn continuations<S: Store>(
    index: &S,
    found: &[(Hit, Vec<Next>)],
    variants: &[Variant],
    filter: Filter<'_>,
    (bw, bh): (u8, u8),
) -> Vec<Continuation> {
    continuation_rows(index, found, filter, (bw, bh), |mask: u32| {
        variants
            .iter()
            .enumerate()
            .filter(move |(i, _)| mask >> i & 1 == 1)
            .flat_map(|(_, v)| v.images.iter().copied())
    })
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
}
