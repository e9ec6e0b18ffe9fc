//! Answering queries: which games hit, at which moves, and what was played next.
//!
//! Positions with few stones are looked up in the store's position table (every position with at
//! most [`Store::table_stones`] stones of every game is there); deeper positions and patterns
//! are found by asking the store which games ever had those stones ([`Store::covering`]: a game
//! can only contain a shape if it did) and following the survivors' stones ([`Walk`]: no rules
//! engine needed), on the threads of the rayon pool the search is called on. Every answer
//! follows the definitions of `shared/oracle/README.md`.

use std::collections::HashMap;

use goban::{corner, Color, Point, Position, Symmetry};
use rayon::prelude::*;

use crate::query::{CellFilter, PositionQuery};
use crate::store::{Aggregated, Store, Walk, NO_NEXT};
use crate::tally::{counts_once, Tally};

/// The position numbers of a hit: nearly always one or two, so they live inline (a million-hit
/// answer is then one allocation, not a million).
pub type Moves = smallvec::SmallVec<[u32; 2]>;

/// A game that hits, with the position numbers where it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hit {
    pub game: u32,
    /// Sorted, distinct k.
    pub moves: Moves,
}

/// One row of a continuation table: a next move, in the query's orientation and colours, and
/// what the positions it followed add up to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Continuation {
    pub color: Color,
    /// `None` for a pass.
    pub point: Option<Point>,
    pub tally: Tally,
}

/// The answer to a position or pattern query.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    pub hits: Vec<Hit>,
    pub continuations: Vec<Continuation>,
    /// The date profile's counts, when the answer was read from pre-aggregated cells (which
    /// know them without reading each hit game); `None`: the caller counts the hits.
    pub profile: Option<ProfileCounts>,
    /// The hits' counts, when `hits` holds only the first ones
    /// ([`crate::PositionQuery::first_hits`]); `None`: `hits` is every hit.
    pub counts: Option<Counts>,
    /// For patterns and sequences, whose rows are the first move played later inside the
    /// query's region: how many hit positions (counted as the rows count them) never saw one.
    /// `None` for positions, whose rows are simply the next move.
    pub no_continuation: Option<usize>,
    /// Milliseconds of the search spent adding up what the hits found: the continuation table,
    /// and the profile's counts when given (finding the hits, and noting each one's next move
    /// as it is found, not included).
    pub tally_ms: f64,
}

impl Answer {
    /// The empty answer of a pattern or a sequence, which no game can show (off the board, no
    /// move): no hit, so no hit waiting for a continuation either.
    pub(crate) fn nothing_there() -> Answer {
        Answer {
            no_continuation: Some(0),
            ..Answer::default()
        }
    }
}

/// Milliseconds since `started`.
pub(crate) fn ms_since(started: std::time::Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1e3
}

/// How many games and positions hit, over the whole answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Hit games: stored games and exact copies alike.
    pub games: usize,
    /// Hit positions, summed over the hit games.
    pub positions: usize,
}

/// Hit games by (year, month as the game's facts give it: 0 when the date names no month; year
/// 0 undated): games, of those Black's and White's wins by result. With copies counted once, a
/// set of exact copies among the hits counts as its first game.
pub type ProfileCounts = std::collections::BTreeMap<(u16, u8), [u64; 3]>;

/// The pre-aggregated cells of one of the query's hashes in one part of the store, with the
/// images that hash stands for.
pub(crate) struct Part {
    pub(crate) mask: u16,
    pub(crate) agg: Aggregated,
}

/// Which games to look at: all, or those a metadata query selected (sorted ids).
pub type Filter<'a> = Option<&'a [u32]>;

/// One orientation (and colouring) of the query.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Image {
    sym: Symmetry,
    swapped: bool,
    hash: u64,
}

/// A position where some image of the query stands: game, k, which images (bit i = images[i])
/// and the move played next (a code of the store, or [`NO_NEXT`]).
#[derive(Clone, Copy, Default)]
pub(crate) struct Occurrence {
    pub(crate) game: u32,
    pub(crate) k: u32,
    pub(crate) images: u16,
    pub(crate) next: u16,
}

/// Finds a position.
pub fn find_position<S: Store>(index: &S, q: &PositionQuery, filter: Filter<'_>) -> Answer {
    let (w, h) = (q.position.width(), q.position.height());
    let images = images_of(q);
    let mask_of = |hash: u64| mask_of(&images, hash);
    let mut found: Vec<Occurrence> = Vec::new();
    let table_path = on_table(index, q);
    let mut hashes: Vec<u64> = images.iter().map(|i| i.hash).collect();
    hashes.sort_unstable();
    hashes.dedup();
    if let (true, Some(first)) = (answers_from_cells(index, q), q.first_hits) {
        let cells = q.aggregates.unwrap_or_default();
        return crate::summed::find(index, &images, &hashes, (w, h), first, &cells);
    }
    let scan: Vec<u32> = if table_path {
        // Every position with this few stones is in the table, with the move that followed it.
        found.reserve(hashes.iter().map(|&h| index.count_occurrences(h)).sum());
        for &hash in &hashes {
            let mask = mask_of(hash);
            found.extend(index.occurrences(hash).map(|e| Occurrence {
                game: e.game,
                k: e.k,
                images: mask,
                next: e.next,
            }));
        }
        // Games too long for the table are replayed.
        index
            .long_games()
            .iter()
            .copied()
            .filter(|&g| index.board(g) == (w, h))
            .collect()
    } else {
        // A game can only reach the position if it ever had its stones.
        let wanted: Vec<Vec<(Color, Point)>> = images
            .iter()
            .map(|im| {
                let t = q.position.transformed(im.sym);
                let t = if im.swapped { t.color_swapped() } else { t };
                stones_of(&t)
            })
            .collect();
        match from_corners(index, q, images.len(), filter, &wanted) {
            Some(games) => games,
            None => candidates(index, w, h, filter, &wanted),
        }
    };
    found.extend(replayed(index, scan, (w, h), table_path, &images));
    // A variation line answers from its branch point on (the table holds nothing of it before;
    // a replay sees its whole line).
    if index.has_lines() {
        found.retain(|o| index.branch(o.game).is_none_or(|from| o.k >= from));
    }
    // The table gives each hash's entries in (game, k) order; only stored games are in it and
    // scanned, so their exact copies are added, then merged in.
    if !found.is_sorted_by_key(|o| (o.game, o.k)) {
        found.sort_unstable_by_key(|o| (o.game, o.k));
    }
    let mut copies: Vec<Occurrence> = found
        .par_iter()
        .flat_map_iter(|o| {
            index
                .copies(o.game)
                .iter()
                .map(move |&c| Occurrence { game: c, ..*o })
        })
        .collect();
    let mut all = if copies.is_empty() {
        found
    } else {
        copies.sort_unstable_by_key(|o| (o.game, o.k));
        merge_by_key(found, copies, |o| (o.game, o.k))
    };
    all.dedup_by_key(|o| (o.game, o.k));
    // Removed games are hidden only now, after their copies (which may not be removed) were
    // found through them.
    if index.has_removed() {
        all.retain(|o| !index.is_removed(o.game));
    }
    if let Some(f) = filter {
        // A long filter (a date range of most games) is looked up as a bitmap: a binary search
        // per occurrence of the empty board cost more than the rest of the search.
        if f.len() > 1 << 12 {
            let mut bits = vec![0u64; (index.len() as usize).div_ceil(64)];
            for &g in f {
                if let Some(w) = bits.get_mut(g as usize / 64) {
                    *w |= 1 << (g % 64);
                }
            }
            all.retain(|o| {
                bits.get(o.game as usize / 64)
                    .is_some_and(|w| w >> (o.game % 64) & 1 == 1)
            });
        } else {
            all.retain(|o| f.binary_search(&o.game).is_ok());
        }
    }
    if let Some(want) = q.to_move {
        all.retain(|o| {
            // The colour to move, in the query's colours.
            let swapped = images
                .iter()
                .enumerate()
                .filter(|(i, _)| o.images & (1 << i) != 0)
                .all(|(_, im)| im.swapped);
            matches!(index.next_move(o.next), Some((c, _)) if (if swapped { c.opponent() } else { c }) == want)
        });
    }
    // The store's cells answer for the table entries of their parts, when the filter is one
    // they can apply and every occurrence kept is one the cells counted or one seen below.
    let (parts, cells) = match q.aggregates {
        Some(cells) if table_path && q.to_move.is_none() => (
            hashes
                .iter()
                .flat_map(|&h| {
                    let mask = mask_of(h);
                    index
                        .aggregates(h)
                        .into_iter()
                        .map(move |agg| Part { mask, agg })
                })
                .collect(),
            cells,
        ),
        _ => (Vec::new(), CellFilter::default()),
    };
    let covered = |o: &Occurrence| in_cells(index, &parts, o);
    let started = std::time::Instant::now();
    let member = |g: u32| all.binary_search_by_key(&g, |o| o.game).is_ok();
    let profile =
        (!parts.is_empty()).then(|| profile_counts(index, &all, &parts, &cells, covered, member));
    let continuations = continuations(
        index,
        &all,
        &images,
        (w, h),
        &parts,
        &cells,
        covered,
        member,
    );
    let tally_ms = ms_since(started);
    Answer {
        continuations,
        hits: hits_of(&all),
        profile,
        counts: None,
        no_continuation: None,
        tally_ms,
    }
}

/// Whether the cells of `parts` summed occurrence `o`: a table entry of a stored game played
/// (not a copy, not a variation line) in a part with cells for its hash.
pub(crate) fn in_cells<S: Store>(index: &S, parts: &[Part], o: &Occurrence) -> bool {
    !parts.is_empty()
        && o.k <= index.table_moves()
        && summed_in(parts, o.images, o.game)
        && !index.is_copy(o.game)
        && !(index.has_lines() && index.branch(o.game).is_some())
}

/// Whether one of `parts` sums game `g`'s entries of the hash standing for `mask`.
pub(crate) fn summed_in(parts: &[Part], mask: u16, g: u32) -> bool {
    parts
        .iter()
        .any(|p| p.mask == mask && p.agg.games.contains(&g))
}

/// The query's images: each orientation of the position (all of them with `symmetry`), and
/// each with its colours swapped too with `swap_colors`.
fn images_of(q: &PositionQuery) -> Vec<Image> {
    let (w, h) = (q.position.width(), q.position.height());
    let syms: &[Symmetry] = if q.symmetry {
        Symmetry::of_board(w, h)
    } else {
        &[Symmetry::Identity]
    };
    let mut images = Vec::new();
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
    images
}

/// The images standing for `hash`: bit i for `images[i]`.
pub(crate) fn mask_of(images: &[Image], hash: u64) -> u16 {
    images
        .iter()
        .enumerate()
        .filter(|(_, im)| im.hash == hash)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// Whether the position has few enough stones for the position table to hold every time a
/// game reached it.
fn on_table<S: Store>(index: &S, q: &PositionQuery) -> bool {
    let stones = q.position.stones(Color::Black).len() + q.position.stones(Color::White).len();
    stones as u32 <= index.table_stones()
}

/// Whether [`find_position`] answers `q` from the store's cells, reading only the first hits
/// ([`PositionQuery::first_hits`]) and what the cells do not sum: a position the table holds,
/// with a filter the cells apply, no colour to move asked, and no variation lines in the store
/// (their entries are mixed with the games'). Then the filter given to [`find_position`] is not
/// read: the cells' filter ([`PositionQuery::aggregates`]) says which games pass, so a caller
/// need not list the games a date filter keeps.
pub fn answers_from_cells<S: Store>(index: &S, q: &PositionQuery) -> bool {
    q.first_hits.is_some()
        && q.aggregates.is_some()
        && q.to_move.is_none()
        && !index.has_lines()
        && on_table(index, q)
}

/// The occurrences of the images in games `scan` (ascending), each replayed on the threads of
/// the pool: on the table path only those past the table's last move (the table has the rest).
pub(crate) fn replayed<S: Store>(
    index: &S,
    scan: Vec<u32>,
    (w, h): (u8, u8),
    table_path: bool,
    images: &[Image],
) -> Vec<Occurrence> {
    if scan.is_empty() {
        return Vec::new();
    }
    let table_moves = index.table_moves();
    let per_game: Vec<Vec<Occurrence>> = scan
        .into_par_iter()
        .map(|g| {
            if index.stopped() {
                return Vec::new();
            }
            let mut ops = Vec::new();
            index.load(g, &mut ops);
            let Some(mut walk) = index.walk(&ops, w, h, true) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            while let Some(step) = walk.next_position(|_| {}) {
                if table_path && step.k <= table_moves {
                    continue;
                }
                let mask = mask_of(images, walk.hash());
                if mask != 0 {
                    out.push(Occurrence {
                        game: g,
                        k: step.k,
                        images: mask,
                        next: step.next,
                    });
                }
            }
            out
        })
        .collect();
    per_game.into_iter().flatten().collect()
}

/// `all` (sorted by game) cut into pieces of about `size` occurrences, each holding whole games.
fn whole_games(all: &[Occurrence], size: usize) -> Vec<&[Occurrence]> {
    let mut out = Vec::new();
    let mut rest = all;
    while !rest.is_empty() {
        let mut end = size.min(rest.len());
        while end < rest.len() && rest[end].game == rest[end - 1].game {
            end += 1;
        }
        let (piece, tail) = rest.split_at(end);
        out.push(piece);
        rest = tail;
    }
    out
}

/// The date profile's counts of an answer read partly from cells: the game cells the filter
/// keeps, and every hit game the cells did not count, one by one (as the scan counts them). A
/// game the cells counted under several of the query's hashes (a game reaching two images of
/// the position, or more) is taken off again all but once.
pub(crate) fn profile_counts<S: Store>(
    index: &S,
    all: &[Occurrence],
    parts: &[Part],
    cells: &CellFilter,
    covered: impl Fn(&Occurrence) -> bool + Sync,
    member: impl Fn(u32) -> bool + Sync + Copy,
) -> ProfileCounts {
    let each_copy = index.each_copy_counts();
    let lines = index.has_lines();
    let add = |c: &mut ProfileCounts, key: (u16, u8), v: [i64; 3]| {
        let e = c.entry(key).or_default();
        for i in 0..3 {
            e[i] = e[i].wrapping_add_signed(v[i]);
        }
    };
    let mut counts = whole_games(all, 1 << 14)
        .into_par_iter()
        .map(|piece| {
            let mut c = ProfileCounts::new();
            for run in piece.chunk_by(|a, b| a.game == b.game) {
                let g = run[0].game;
                // Variation lines were not played: the profile is of games.
                if lines && index.branch(g).is_some() {
                    continue;
                }
                let mut masks: smallvec::SmallVec<[u16; 2]> = smallvec::SmallVec::new();
                for o in run.iter().filter(|o| covered(o)) {
                    if !masks.contains(&o.images) {
                        masks.push(o.images);
                    }
                }
                let times: i64 = match masks.len() {
                    // The cells counted it once: nothing to add.
                    1 => continue,
                    0 => {
                        let counted = each_copy
                            || (!index.counted_elsewhere(g)
                                && (!index.is_copy(g)
                                    || crate::tally::counts_once(index, g, member)));
                        if !counted {
                            continue;
                        }
                        1
                    }
                    n => 1 - n as i64,
                };
                let f = index.facts(g);
                let v = [
                    times,
                    times * i64::from(f.result == 1),
                    times * i64::from(f.result == 2),
                ];
                add(&mut c, (f.year, f.month), v);
            }
            c
        })
        .reduce(ProfileCounts::new, |mut a, b| {
            for (k, v) in b {
                let e = a.entry(k).or_default();
                for i in 0..3 {
                    e[i] = e[i].wrapping_add(v[i]);
                }
            }
            a
        });
    for p in parts {
        for c in p.agg.cells.iter().filter(|c| cells.keeps(&c.key)) {
            let v = [c.games, c.black_wins, c.white_wins].map(i64::from);
            add(&mut counts, (c.key.year, c.key.month), v);
        }
    }
    counts.retain(|_, v| v[0] != 0);
    counts
}

/// The continuation table of the occurrences: each next move mapped back into the query's
/// orientation (the smallest SGF string among all matching images), tallied with each game's
/// winner and facts. Occurrences are first tallied by (images, move as stored) — a few hundred
/// distinct keys for a million occurrences — and each key is mapped once. Unless every copy
/// counts ([`Store::each_copy_counts`]), an exact copy whose original or earlier copy is in the
/// answer adds nothing. The `parts`' move cells that `cells` keeps are added under their
/// images, and the occurrences they summed (`covered`) are not tallied again. `member` says
/// which games are in the answer.
#[allow(clippy::too_many_arguments)]
pub(crate) fn continuations<S: Store>(
    index: &S,
    all: &[Occurrence],
    images: &[Image],
    (w, h): (u8, u8),
    parts: &[Part],
    cells: &CellFilter,
    covered: impl Fn(&Occurrence) -> bool + Sync,
    member: impl Fn(u32) -> bool + Sync + Copy,
) -> Vec<Continuation> {
    type Counts = ahash::AHashMap<(u16, u16), Tally>;
    let each_copy = index.each_copy_counts();
    let lines = index.has_lines();
    let count = |chunk: &[Occurrence]| {
        let mut raw = Counts::new();
        // The game's winner, facts and whether it counts, looked up once for its occurrences.
        let mut cache: Option<(u32, u8, crate::store::Facts, bool, bool)> = None;
        for o in chunk {
            if o.next == NO_NEXT || covered(o) {
                continue;
            }
            let (winner, facts, counted, line) = match cache {
                Some((g, w, f, c, l)) if g == o.game => (w, f, c, l),
                _ => {
                    let counted = each_copy
                        || (!index.counted_elsewhere(o.game)
                            && (!index.is_copy(o.game) || counts_once(index, o.game, member)));
                    let line = lines && index.branch(o.game).is_some();
                    let entry = (
                        o.game,
                        index.winner(o.game),
                        index.facts(o.game),
                        counted,
                        line,
                    );
                    cache = Some(entry);
                    (entry.1, entry.2, entry.3, entry.4)
                }
            };
            if !counted {
                continue;
            }
            let Some((mover, _)) = index.next_move(o.next) else {
                continue;
            };
            let row = raw.entry((o.images, o.next)).or_default();
            match line {
                true => row.add_line(),
                false => row.add(o.game, mover, winner, &facts),
            }
        }
        raw
    };
    // Counted in chunks on all cores, then summed.
    let mut raw = all
        .par_chunks(1 << 16)
        .map(count)
        .reduce(Counts::new, |mut a, b| {
            for (k, v) in b {
                a.entry(k).or_default().merge(&v);
            }
            a
        });
    for p in parts {
        for c in p.agg.moves.iter().filter(|c| cells.keeps(&c.key)) {
            raw.entry((p.mask, c.next))
                .or_default()
                .merge(&Tally::of_cell(c));
        }
    }
    let mut table: HashMap<(Color, Option<Point>), Tally> = HashMap::new();
    for ((mask, next), tally) in raw {
        let Some((color, point)) = index.next_move(next) else {
            continue;
        };
        let matching = images
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, im)| Back::anchored((im.sym, im.swapped), w, h));
        let Some((c, p)) = map_back(matching, color, point) else {
            continue;
        };
        table.entry((c, p)).or_default().merge(&tally);
    }
    sorted_rows(table)
}

/// The rows of a continuation table, most frequent first (ties by colour, then SGF point).
pub fn sorted_rows(table: HashMap<(Color, Option<Point>), Tally>) -> Vec<Continuation> {
    let mut rows: Vec<Continuation> = table
        .into_iter()
        .map(|((color, point), tally)| Continuation {
            color,
            point,
            tally,
        })
        .collect();
    // Rows played by no game (variation lines only) come after the played ones, by how many
    // lines play them.
    rows.sort_by(|a, b| {
        (b.tally.count, b.tally.variations)
            .cmp(&(a.tally.count, a.tally.variations))
            .then_with(|| {
                (a.color, a.point.map(|p| p.sgf_string()))
                    .cmp(&(b.color, b.point.map(|p| p.sgf_string())))
            })
    });
    rows
}

/// Occurrences sorted by (game, k), grouped into hits.
pub(crate) fn hits_of(all: &[Occurrence]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::with_capacity(all.len());
    for o in all {
        match hits.last_mut() {
            Some(h) if h.game == o.game => h.moves.push(o.k),
            _ => hits.push(Hit {
                game: o.game,
                moves: Moves::from_elem(o.k, 1),
            }),
        }
    }
    hits
}

/// Merges `few` into `many`, both sorted by `key` (an element of `few` goes after the elements
/// of `many` with an equal key), in `many`'s own buffer: from the back, each element of `many`
/// is moved once to where it ends. A pattern that most games show has millions of hits and a
/// few thousand copies: a new buffer for the merged answer is as large as the answer, and each
/// of its pages is faulted in and zeroed afresh; the hits collected from the scan usually have
/// the room already (BENCHMARKS.md, Patterns: copies merged in place).
fn merge_by_key<T: Default, K: Ord>(
    mut many: Vec<T>,
    mut few: Vec<T>,
    key: impl Fn(&T) -> K,
) -> Vec<T> {
    if few.is_empty() {
        return many;
    }
    // Unplaced: many[..i] and few; placed: many[i + few.len()..].
    let mut i = many.len();
    many.resize_with(i + few.len(), T::default);
    while let Some(x) = few.pop() {
        let k = key(&x);
        while i > 0 && key(&many[i - 1]) > k {
            i -= 1;
            many.swap(i, i + few.len() + 1);
        }
        many[i + few.len()] = x;
    }
    many
}

/// Orders points as their SGF strings sort (a pass, `""`, first; `A`–`Z` before `a`–`z`),
/// without building the strings.
fn sgf_order(p: Option<Point>) -> (u8, u8) {
    let rank = |c: u8| if c < 26 { c + 27 } else { c - 25 };
    p.map_or((0, 0), |p| (rank(p.x), rank(p.y)))
}

/// How a move found on the board is taken back into the query's own frame: the transformation
/// that turned the query onto the board (symmetry, colours swapped) and, for a query slid
/// `anywhere`, where its image lay. An anchored query's frame is the board (`offset` 0,0);
/// one slid anywhere answers in the diagram's own coordinates, `frame` being the size of its
/// transformed image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Back {
    pub(crate) sym: Symmetry,
    pub(crate) swapped: bool,
    /// The top-left corner of the query's image on the board.
    pub(crate) offset: (u8, u8),
    /// The size of the query's image (the board, for an anchored query).
    pub(crate) frame: (u8, u8),
}

impl Back {
    /// The mapping of a query anchored on a `w`×`h` board.
    pub(crate) fn anchored((sym, swapped): (Symmetry, bool), w: u8, h: u8) -> Back {
        Back {
            sym,
            swapped,
            offset: (0, 0),
            frame: (w, h),
        }
    }

    /// `color` at `point` on the board, in the query's frame and colours; `None` when the
    /// point lies outside the query's image (never for a move inside its region).
    fn apply(&self, color: Color, point: Option<Point>) -> Option<(Color, Option<Point>)> {
        let c = if self.swapped {
            color.opponent()
        } else {
            color
        };
        let p = match point {
            None => None,
            Some(p) => {
                let (x, y) = (
                    p.x.checked_sub(self.offset.0)?,
                    p.y.checked_sub(self.offset.1)?,
                );
                if x >= self.frame.0 || y >= self.frame.1 {
                    return None;
                }
                Some(
                    self.sym
                        .inverse()
                        .apply(Point::new(x, y), self.frame.0, self.frame.1),
                )
            }
        };
        Some((c, p))
    }
}

/// A move played next, mapped back into the query's frame through the images that stood where
/// it was played: of all the images' answers, the smallest SGF point, as the oracle says. `None`
/// when no image is given (or none holds the point).
pub(crate) fn map_back(
    images: impl Iterator<Item = Back>,
    color: Color,
    point: Option<Point>,
) -> Option<(Color, Option<Point>)> {
    images
        .filter_map(|b| b.apply(color, point))
        .min_by_key(|&(_, p)| sgf_order(p))
}

/// Stored games of the right board size that ever had every stone of one of `needs`, as far as
/// the store can tell ([`Store::covering`]; with `needs` empty, every game of the board): all,
/// or those behind the filter's games (copies are answered through their originals). Ascending.
pub(crate) fn candidates<S: Store>(
    index: &S,
    w: u8,
    h: u8,
    filter: Filter<'_>,
    needs: &[Vec<(Color, Point)>],
) -> Vec<u32> {
    let right_size = |g: &u32| index.board(*g) == (w, h);
    // The store's answer holds only games of this board that can have the stones.
    let pool = if needs.is_empty() {
        None
    } else {
        index.covering(w, h, needs)
    };
    match (filter, pool) {
        (Some(f), pool) => {
            let mut owners = owners(index, f);
            match pool {
                Some(pool) => {
                    owners.retain(|g| pool.binary_search(g).is_ok());
                    owners
                }
                None => owners.into_par_iter().filter(right_size).collect(),
            }
        }
        (None, Some(pool)) => pool
            .into_par_iter()
            .filter(|&g| !index.is_copy(g))
            .collect(),
        (None, None) => (0..index.len())
            .into_par_iter()
            .filter(|&g| !index.is_copy(g) && right_size(&g))
            .collect(),
    }
}

/// The games that can hold one of `needs` (a pattern's placements, a sequence's variants:
/// originals, ascending, behind the filter's games) with, when the store can tell, which
/// needs' stones each ever had (bit i = need i, in step with the games); otherwise the games
/// alone ([`candidates`]). No needs constrain nothing, as for [`candidates`]: every game of the
/// board.
pub(crate) fn covering_each<S: Store>(
    index: &S,
    (bw, bh): (u8, u8),
    filter: Filter<'_>,
    needs: &[Vec<(Color, Point)>],
) -> (Vec<u32>, Option<Vec<u64>>) {
    if needs.is_empty() {
        return (candidates(index, bw, bh, filter, needs), None);
    }
    let Some(mut each) = index.covering_each(bw, bh, needs) else {
        return (candidates(index, bw, bh, filter, needs), None);
    };
    match filter {
        Some(f) => {
            let owners = owners(index, f);
            each.retain(|(g, _)| owners.binary_search(g).is_ok());
        }
        None => each.retain(|&(g, _)| !index.is_copy(g)),
    }
    let (games, masks) = each.into_iter().unzip();
    (games, Some(masks))
}

/// What reading a byte of corner games costs against ANDing a byte of occupancy columns: the
/// games are decoded number by number (a game, a move and two bytes an event), the columns
/// ANDed a word at a time: a byte of a long list costs several bytes of columns (BENCHMARKS.md,
/// Positions: deep positions from the corner table).
const EVENT_BYTE: usize = 8;

/// What checking one candidate's occupancy for one image costs, in bytes of columns ANDed: a
/// word or two read at random (a page each, in a process that has not touched it) before the
/// image's rarest missing stone: the fewer the candidates the dearer each, where the AND reads
/// columns at memory speed (BENCHMARKS.md, Positions: deep positions from the corner table).
const CANDIDATE_IMAGE: usize = 1024;

/// Columns read per block of [`Store::covering`]'s AND for a deep position's image, about
/// (BENCHMARKS.md, Positions: columns per block of the AND).
const COLUMNS_PER_BLOCK: usize = 8;

/// The candidates of a deep position (past the table) from the corner table, when that is
/// cheaper than ANDing every game's occupancy columns: stored games of the right board, behind
/// the filter, ascending.
///
/// At the position, each corner of a game that holds it holds what the query's corner holds
/// (in the image's orientation), and a corner content of 2 to 6 stones is keyed: the game is
/// listed under that key, at the position where its corner came to hold it. The keys do not
/// change with the orientation (every symmetry maps corner squares onto corner squares, and a
/// key is the same for a content and its transpose), so the games listed under every keyed
/// corner of the query, for each colouring asked, hold every game that can hit; a deep
/// position's corners usually hold a content few games ever had.
///
/// The keys are read rarest first, while reading one costs less than checking the games it
/// could rule out, and never more than a quarter of what the AND would cost: a common corner (a
/// plain 3-4 enclosure) is not worth its list. The games found are then checked one by one
/// against the occupancy when they are few, or by the AND when they are many (its answer kept
/// to them), and the rest are replayed as before. `None` when the corners cannot name the
/// candidates ([`corner_keys`]) or even their rarest key costs too much to read.
fn from_corners<S: Store>(
    index: &S,
    q: &PositionQuery,
    images: usize,
    filter: Filter<'_>,
    wanted: &[Vec<(Color, Point)>],
) -> Option<Vec<u32>> {
    let (w, h) = (q.position.width(), q.position.height());
    let columns = images * (index.len() as usize).div_ceil(8) * COLUMNS_PER_BLOCK;
    let per_candidate = images.max(1) * CANDIDATE_IMAGE;
    let budget = columns / 4;
    let colourings = corner_keys(index, q)?;
    // Every colouring needs its rarest key read, or it names nothing.
    let mut spent: usize = colourings.iter().map(|keys| keys[0].0 * EVENT_BYTE).sum();
    if spent >= budget || hopeless(&colourings, index.len(), budget, columns / per_candidate) {
        return None;
    }
    let mut games: Vec<u32> = Vec::new();
    for keys in &colourings {
        let mut these = index.corner_games(w, h, keys[0].1)?;
        for &(size, key) in &keys[1..] {
            let read = size * EVENT_BYTE;
            // Another key is read when that costs less than checking the games it could rule
            // out, within the budget.
            if these.is_empty() || these.len() * per_candidate <= read || spent + read > budget {
                break;
            }
            spent += read;
            intersect(&mut these, &index.corner_games(w, h, key)?);
        }
        games.extend(these);
    }
    let games = kept(index, (w, h), games, filter);
    if games.len() * per_candidate < columns {
        return Some(index.covering_among(w, h, &games, wanted).unwrap_or(games));
    }
    // Too many to check one by one: the AND's answer, kept to them.
    let mut all = candidates(index, w, h, filter, wanted);
    intersect(&mut all, &games);
    Some(all)
}

/// Whether the keys of each colouring (rarest first, with their sizes in bytes), read as far as
/// `budget` allows, would still leave `enough` games or more if corners were independent (a key
/// of `size` bytes names about `size / 4` of the `games`). Corners of one game are not
/// independent (a joseki in one corner makes another likelier), so this is the hope, not the
/// outcome: a key too common to name few games on its own, with no rarer one beside it, is not
/// read at all, and one that passes may still name too many, which the AND then checks.
fn hopeless(colourings: &[Vec<(usize, u64)>], games: u32, budget: usize, enough: usize) -> bool {
    let n = f64::from(games.max(1));
    let mut spent = 0;
    let mut expected = 0.0;
    for keys in colourings {
        let mut share = 1.0;
        for (i, &(size, _)) in keys.iter().enumerate() {
            spent += size * EVENT_BYTE;
            if i > 0 && spent > budget {
                break;
            }
            share *= (size as f64 / 4.0 / n).min(1.0);
        }
        expected += share * n;
    }
    expected >= enough as f64
}

/// Keeps of `these` (ascending) the games also in `other` (ascending), in one pass over both.
fn intersect(these: &mut Vec<u32>, other: &[u32]) {
    let mut rest = other;
    these.retain(|g| {
        // Galloping would skip faster through a long `other`; both are usually of a size.
        while let Some((&first, tail)) = rest.split_first() {
            if first >= *g {
                return first == *g;
            }
            rest = tail;
        }
        false
    });
}

/// For each colouring the query asks (the position as given, and its colours swapped when
/// [`PositionQuery::swap_colors`]), the keys of its keyed corners with what reading each costs
/// ([`Store::corner_events_size`]), rarest first. `None` when some colouring has no keyed
/// corner, the store keys no corner of this board, or the store has variation lines (a line's
/// corner events start at its branch point, so a content it kept from before is not listed
/// under it).
fn corner_keys<S: Store>(index: &S, q: &PositionQuery) -> Option<Vec<Vec<(usize, u64)>>> {
    let (w, h) = (q.position.width(), q.position.height());
    if !corner::has_corners(w, h) || index.has_lines() {
        return None;
    }
    let colourings: &[bool] = if q.swap_colors {
        &[false, true]
    } else {
        &[false]
    };
    let mut out = Vec::with_capacity(colourings.len());
    for &swapped in colourings {
        let p = if swapped {
            q.position.color_swapped()
        } else {
            q.position.clone()
        };
        let (black, white) = (p.stones(Color::Black), p.stones(Color::White));
        let mut keys: Vec<(usize, u64)> = Vec::new();
        for c in 0..4 {
            if let Some(key) = corner::key(black, white, w, h, c) {
                keys.push((index.corner_events_size(w, h, key)?, key));
            }
        }
        if keys.is_empty() {
            return None;
        }
        keys.sort_unstable();
        keys.dedup();
        out.push(keys);
    }
    Some(out)
}

/// The games listed under every key of some colouring's `reads`, behind the filter, ascending,
/// each once.
fn listed<S: Store>(
    index: &S,
    q: &PositionQuery,
    reads: &[Vec<u64>],
    filter: Filter<'_>,
) -> Option<Vec<u32>> {
    let (w, h) = (q.position.width(), q.position.height());
    let mut games: Vec<u32> = Vec::new();
    for read in reads {
        let mut these: Option<Vec<u32>> = None;
        for &key in read {
            let under = index.corner_games(w, h, key)?;
            match &mut these {
                None => these = Some(under),
                Some(so_far) => intersect(so_far, &under),
            }
        }
        games.extend(these.unwrap_or_default());
    }
    Some(kept(index, (w, h), games, filter))
}

/// Of games a corner key named (in any order, perhaps repeated), those of the board and behind
/// the filter, ascending, each once.
fn kept<S: Store>(index: &S, board: (u8, u8), mut games: Vec<u32>, filter: Filter<'_>) -> Vec<u32> {
    games.sort_unstable();
    games.dedup();
    // A key names a content whatever the board.
    games.retain(|&g| index.board(g) == board);
    if let Some(f) = filter {
        let owners = owners(index, f);
        games.retain(|g| owners.binary_search(g).is_ok());
    }
    games
}

/// The games a deep position's corners name when every keyed corner is read, whatever it costs
/// (`None` where [`find_position`] would not ask the corners): what a test compares with the
/// games that hit. Any keys the search reads name a superset of these.
#[doc(hidden)]
pub fn corner_candidates<S: Store>(index: &S, q: &PositionQuery) -> Option<Vec<u32>> {
    let reads: Vec<Vec<u64>> = corner_keys(index, q)?
        .into_iter()
        .map(|keys| keys.into_iter().map(|(_, key)| key).collect())
        .collect();
    listed(index, q, &reads, None)
}

/// The originals of a filter's games (a copy is answered through its original), ascending,
/// each once.
pub(crate) fn owners<S: Store>(index: &S, filter: &[u32]) -> Vec<u32> {
    let mut owners: Vec<u32> = filter
        .par_iter()
        .map(|&g| index.original(g).unwrap_or(g))
        .collect();
    owners.sort_unstable();
    owners.dedup();
    owners
}

/// The stones of a position, as a need for [`Store::covering`].
fn stones_of(p: &Position) -> Vec<(Color, Point)> {
    [Color::Black, Color::White]
        .into_iter()
        .flat_map(|color| p.stones(color).iter().map(move |pt| (color, pt)))
        .collect()
}

/// Hits of stored games, plus the same hits for their exact copies (only originals are replayed),
/// restricted to the filter and without removed games, in game order. Copies are few (one game
/// in a few hundred): they are made apart and merged into the originals, which come ascending,
/// rather than the whole answer sorted again.
pub(crate) fn with_copies<S: Store>(
    index: &S,
    mut found: Vec<Hit>,
    filter: Filter<'_>,
) -> Vec<Hit> {
    let mut copies = Vec::new();
    if !index.copied().is_empty() {
        for hit in &found {
            copies.extend(index.copies(hit.game).iter().map(|&c| Hit {
                game: c,
                moves: hit.moves.clone(),
            }));
        }
    }
    let kept = |h: &Hit| {
        !(index.has_removed() && index.is_removed(h.game))
            && filter.is_none_or(|f| f.binary_search(&h.game).is_ok())
    };
    if index.has_removed() || filter.is_some() {
        found.retain(kept);
        copies.retain(kept);
    }
    if !found.is_sorted_by_key(|h| h.game) {
        found.sort_by_key(|h| h.game);
    }
    copies.sort_by_key(|h| h.game);
    merge_by_key(found, copies, |h| h.game)
}

#[cfg(test)]
mod tests {
    use super::merge_by_key;

    #[test]
    fn merging_keeps_order_and_every_element() {
        let many: Vec<u32> = (0..100).map(|i| i * 3).collect();
        let few = vec![0, 1, 50, 298, 299, 1000];
        let merged = merge_by_key(many.clone(), few.clone(), |&x| x);
        assert_eq!(merged.len(), many.len() + few.len());
        assert!(merged.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(merge_by_key(Vec::new(), vec![3, 4], |&x| x), [3, 4]);
        assert_eq!(merge_by_key(vec![3, 4], Vec::new(), |&x| x), [3, 4]);
        // Elements that are moved, not copied (hits own their moves).
        let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let merged = merge_by_key(owned(&["a", "c", "e"]), owned(&["b", "f"]), |s| s.clone());
        assert_eq!(merged, owned(&["a", "b", "c", "e", "f"]));
    }

    /// Against a stable sort of `many` then `few` by key: the same elements in the same order,
    /// an element of `few` after those of `many` with its key, at every mix of sizes and ties.
    #[test]
    fn merging_in_place_is_a_stable_merge() {
        let mut next = testdata::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut draw = |n: u64| next() % n;
        for round in 0..300 {
            let (n, m, keys) = (
                draw(40),
                draw(12),
                1 + draw(if round % 2 == 0 { 5 } else { 100 }),
            );
            // (key, 0 for many or 1 for few, place in its list)
            let sorted = |len: u64, side: u32, draw: &mut dyn FnMut(u64) -> u64| {
                let mut v: Vec<u64> = (0..len).map(|_| draw(keys)).collect();
                v.sort_unstable();
                v.into_iter()
                    .enumerate()
                    .map(|(i, k)| (k, side, i as u32))
                    .collect::<Vec<_>>()
            };
            let many = sorted(n, 0, &mut draw);
            let few = sorted(m, 1, &mut draw);
            let mut expected = [many.clone(), few.clone()].concat();
            expected.sort_by_key(|e| e.0);
            assert_eq!(merge_by_key(many, few, |e| e.0), expected);
        }
    }
}
