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

use crate::answer::{Hit, Moves, ProfileCounts};
use crate::back::{map_back, Back};
use crate::query::{CellFilter, Filter, PositionQuery};
use crate::store::{Aggregated, Store, Walk, NO_NEXT};
use crate::tally::{counts_once, sorted_rows, Continuation, Tally};

/// The pre-aggregated cells of one of the query's hashes in one part of the store, with the
/// images that hash stands for.
pub(crate) struct Part {
    pub(crate) mask: u16,
    pub(crate) agg: Aggregated,
}

/// One orientation (and colouring) of the query.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Image {
    pub(crate) sym: Symmetry,
    pub(crate) swapped: bool,
    pub(crate) hash: u64,
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
pub(crate) fn images_of(q: &PositionQuery) -> Vec<Image> {
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
pub(crate) fn on_table<S: Store>(index: &S, q: &PositionQuery) -> bool {
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
    let evals = index.has_evals();
    let count = |chunk: &[Occurrence]| {
        let mut raw = Counts::new();
        // The game's winner, facts and whether it counts, looked up once for its occurrences.
        let mut cache: Option<(u32, u8, crate::store::Facts, bool, bool)> = None;
        for o in chunk {
            if o.next == NO_NEXT {
                continue;
            }
            if covered(o) {
                // The cells counted it; its evaluation, which they do not sum, is added here
                // (the answer read the entries of the analysed games they summed).
                if evals && cells.keeps(&index.cell(o.game)) {
                    if let Some(e) = index.move_eval(o.game, o.k) {
                        raw.entry((o.images, o.next)).or_default().add_eval(&e);
                    }
                }
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
                false => {
                    row.add(o.game, mover, winner, &facts);
                    if let Some(e) = evals.then(|| index.move_eval(o.game, o.k)).flatten() {
                        row.add_eval(&e);
                    }
                }
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
pub(crate) fn merge_by_key<T: Default, K: Ord>(
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
pub(crate) fn from_corners<S: Store>(
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
pub(crate) fn stones_of(p: &Position) -> Vec<(Color, Point)> {
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
    if index.has_removed() || filter.is_some() {
        found.retain(|h| answered(index, filter, h.game));
        copies.retain(|h| answered(index, filter, h.game));
    }
    if !found.is_sorted_by_key(|h| h.game) {
        found.sort_by_key(|h| h.game);
    }
    copies.sort_by_key(|h| h.game);
    merge_by_key(found, copies, |h| h.game)
}

/// Whether game `g` may be in an answer: not hidden, and among the games `filter` allows.
fn answered<S: Store>(index: &S, filter: Filter<'_>, g: u32) -> bool {
    !(index.has_removed() && index.is_removed(g))
        && filter.is_none_or(|f| f.binary_search(&g).is_ok())
}

/// [`crate::Answer::continued`] from the hit games' continuations, each (game, the position
/// its move was played from): with the games' exact copies, which replay the same moves, and
/// without the games the answer leaves out, as [`with_copies`] does for hits.
pub(crate) fn continued_with_copies<S: Store>(
    index: &S,
    mut played: Vec<(u32, u32)>,
    filter: Filter<'_>,
) -> Vec<(u32, u32)> {
    if !index.copied().is_empty() {
        let copies: Vec<(u32, u32)> = played
            .iter()
            .flat_map(|&(g, k)| index.copies(g).iter().map(move |&c| (c, k)))
            .collect();
        played.extend(copies);
    }
    played.retain(|&(g, _)| answered(index, filter, g));
    played.sort_unstable();
    played.dedup();
    played
}

/// Drops the hits of variation lines before their branch points ([`Store::branch`]), with
/// what each hit position contributes (`drain` takes a hit's `nexts`, the number of its leading
/// positions dropped and the first position kept), and the hits left with no position.
pub(crate) fn own_positions<S: Store, N>(
    index: &S,
    found: &mut Vec<(Hit, N)>,
    drain: impl Fn(&mut N, usize, u32),
) {
    if !index.has_lines() {
        return;
    }
    found.retain_mut(|(hit, nexts)| {
        let Some(from) = index.branch(hit.game) else {
            return true;
        };
        // Moves are ascending.
        let cut = hit.moves.partition_point(|&k| k < from);
        if cut > 0 {
            hit.moves.drain(..cut);
            drain(nexts, cut, from);
        }
        !hit.moves.is_empty()
    });
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
