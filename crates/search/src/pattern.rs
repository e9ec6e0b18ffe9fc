//! Pattern search: where a shape appears in a game.
//!
//! A pattern is tried in each of its placements (orientations, colourings and, with `anywhere`,
//! translations). A game can only contain a placement if it ever had the placement's stones
//! ([`Store::covering`]); the survivors are scanned move by move. The scan follows only the points
//! some placement constrains — the store's changes ([`Store::changes`]) include the stones a
//! move took off, so no rules engine is needed and every other change costs one table lookup —
//! and tests a placement again only after one of its points changed.

use std::collections::BTreeMap;

use goban::{corner, Bitboard, Color, Point, Symmetry};
use rayon::prelude::*;

use crate::answer::{ms_since, Answer, Hit, Moves};
use crate::back::Back;
use crate::engine::{continued_with_copies, covering_each, own_positions, owners, with_copies};
use crate::query::{Cell, Filter, PatternQuery};
use crate::region::Region;
use crate::store::{index_point, point_index, Changes, CornerEvent, Store, Walk};
use crate::tally::{continuation_rows, Continuation, Followed, NextMove};

/// Finds where a pattern appears: game g hits at k when, for some placement, position k
/// satisfies it and position k−1 does not (or k = 0).
pub fn find_pattern<S: Store>(index: &S, q: &PatternQuery, filter: Filter<'_>) -> Answer {
    let (bw, bh) = q.board;
    if !(1..=52).contains(&bw) || !(1..=52).contains(&bh) {
        return Answer::nothing_there();
    }
    let mut placements = placements(q);
    // A placement reaching off the board can never be seen on it.
    placements.retain(|p| p.cells.iter().all(|(pt, _)| pt.x < bw && pt.y < bh));
    if placements.is_empty() {
        return Answer::nothing_there();
    }
    let found = match in_groups(index, q, filter, &placements) {
        Some(found) => found,
        None => scan(index, q, filter, &placements),
    };
    answer(index, found, &placements, filter, q)
}

/// The placements of a pattern slid `anywhere` (thousands: 2,048 for a 4×4 diagram) scanned
/// 64 at a time, when the store tells which placements each game ever had the stones of
/// ([`Store::covering_each`]): each group then gets what a pattern in a fixed place gets, the
/// candidates of its own placements, each with those it covers, and a scan that stops when
/// none of them can appear again. All at once, every game having the stones of any placement
/// was replayed to its end, testing every placement its changes touched, many times slower
/// (BENCHMARKS.md, Patterns: groups of 64 placements). A game
/// hits where some placement appears, so its hits are those of all groups merged, with the
/// regions each appeared in (placements know their own). `None` for 64 placements or
/// fewer, a store without per-game occupancy, or groups that would replay the same games too
/// often ([`GROUP_REPLAYS`]).
fn in_groups<S: Store>(
    index: &S,
    q: &PatternQuery,
    filter: Filter<'_>,
    placements: &[Placement],
) -> Option<Vec<(Hit, Nexts)>> {
    if placements.len() <= 64 {
        return None;
    }
    // A shape most games show in many places (two stones) makes nearly every game a candidate
    // of nearly every group: replayed once per group, it costs more than one scan of all
    // placements. So the groups' candidates are found first, against the games that are a
    // candidate of any, and kept for their scans up to a bound (beyond it, found again then);
    // the count stops as soon as it proves the groups would replay too much.
    let mut union = vec![0u64; (index.len() as usize).div_ceil(64)];
    let (mut replays, mut kept) = (0, Vec::new());
    for group in placements.chunks(64) {
        let (games, covers) = covering_each(index, q.board, filter, &needs_of(group));
        // A store that cannot tell which placements a game covers: one scan of them all.
        let covers = covers?;
        replays += games.len();
        for &g in &games {
            if let Some(w) = union.get_mut(g as usize / 64) {
                *w |= 1 << (g % 64);
            }
        }
        kept.push((replays <= KEPT_CANDIDATES).then_some((games, covers)));
        // No union can hold more games than the index: past this, the groups are known to
        // replay too much, and the groups not yet counted need not be.
        if replays > GROUP_REPLAYS * index.len() as usize {
            return None;
        }
    }
    let games: usize = union.iter().map(|w| w.count_ones() as usize).sum();
    if replays > GROUP_REPLAYS * games {
        return None;
    }
    let mut all: Vec<(Hit, Nexts)> = Vec::new();
    for (group, kept) in placements.chunks(64).zip(kept) {
        if index.stopped() {
            break;
        }
        let found = match kept {
            Some((games, covers)) => scan_games(index, q, group, &games, Some(&covers)),
            None => scan(index, q, filter, group),
        };
        all = merge_hits(all, found);
    }
    Some(all)
}

/// How many of the groups' candidates [`in_groups`] keeps between finding and scanning them
/// (12 bytes each: 48 MB).
const KEPT_CANDIDATES: usize = 1 << 22;

/// How many times, on average, the groups of [`in_groups`] may replay a game that is a
/// candidate of any: a game scanned for 64 placements costs about an eighth of one scanned for
/// thousands (BENCHMARKS.md, Patterns: replays allowed per game).
const GROUP_REPLAYS: usize = 8;

/// Two answers' hits (each ascending by game, each hit's positions ascending with their next
/// moves) as one: a game in both hits at the positions of either.
fn merge_hits(a: Vec<(Hit, Nexts)>, b: Vec<(Hit, Nexts)>) -> Vec<(Hit, Nexts)> {
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let first = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.0.game.cmp(&y.0.game),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => break,
        };
        match first {
            std::cmp::Ordering::Less => out.extend(a.next()),
            std::cmp::Ordering::Greater => out.extend(b.next()),
            std::cmp::Ordering::Equal => {
                let ((x, xn), (y, yn)) = (a.next().unwrap(), b.next().unwrap());
                let mut moves: Vec<u32> = x.moves.iter().chain(&y.moves).copied().collect();
                moves.sort_unstable();
                moves.dedup();
                // Stable: each side's notes of one position stay in their order.
                let mut nexts: Nexts = xn.into_iter().chain(yn).collect();
                nexts.sort_by_key(|n| n.k);
                out.push((
                    Hit {
                        game: x.game,
                        moves: moves.into_iter().collect(),
                    },
                    nexts,
                ));
            }
        }
    }
    out
}

/// The hits of `placements` (in ascending games), each with the regions it appeared in.
fn scan<S: Store>(
    index: &S,
    q: &PatternQuery,
    filter: Filter<'_>,
    placements: &[Placement],
) -> Vec<(Hit, Nexts)> {
    let (games, covers) = match from_corners(index, q, filter, placements) {
        Some(Corners::Answered(found)) => return found,
        Some(Corners::Games(games)) => (games, None),
        None => covering_each(index, q.board, filter, &needs_of(placements)),
    };
    scan_games(index, q, placements, &games, covers.as_deref())
}

/// The stones each placement needs, for [`covering_each`].
fn needs_of(placements: &[Placement]) -> Vec<Vec<(Color, Point)>> {
    placements.iter().map(|p| p.need.clone()).collect()
}

/// [`scan`] over the candidates `games` (ascending), with, when known, the placements whose
/// stones each ever had (in step with them).
fn scan_games<S: Store>(
    index: &S,
    q: &PatternQuery,
    placements: &[Placement],
    games: &[u32],
    covers: Option<&[u64]>,
) -> Vec<(Hit, Nexts)> {
    let (bw, bh) = q.board;
    let touch = Touch::new(placements, bh);
    let ends = Ends::new(placements, &touch, bw, bh);
    let regions = regions_of(placements);
    // The scan follows the points the placements constrain and the rest of their regions (the
    // `?` inside a region's rectangle), where a move settles a hit waiting for its
    // continuation. Those are few: the rectangle of a shape's constrained points.
    let watch = index.watch(&region_points(&regions, touch.watch.clone()));
    // Candidates in chunks, each scanned in order by one worker: the chunks' hits, in order,
    // are the answer's, with no slot kept for the many candidates that do not hit.
    // A few thousand candidates still make several chunks for each core.
    let per_chunk = (games.len() / (8 * rayon::current_num_threads())).clamp(16, SCAN_CHUNK);
    let chunks: Vec<Vec<(Hit, Nexts)>> = games
        .par_chunks(per_chunk)
        .enumerate()
        .map_init(
            || (Vec::new(), Scan::new(placements)),
            |(ops, scan), (c, chunk)| {
                let mut found = Vec::new();
                for (j, &g) in chunk.iter().enumerate() {
                    if index.stopped() {
                        break;
                    }
                    if let Some(&later) = chunk.get(j + PREFETCH_AHEAD) {
                        index.prefetch_changes(later);
                    }
                    if let Some(&later) = chunk.get(j + 4 * PREFETCH_AHEAD) {
                        index.prefetch_record(later);
                    }
                    let covered = covers.map(|m| m[c * per_chunk + j]);
                    let end = ends
                        .as_ref()
                        .and_then(|e| e.of_game(index, g, placements, covered));
                    // The changes are read as the scan takes them: one that ends early reads
                    // the program no further.
                    let moves = match index.changes(g, &watch) {
                        Some(changes) => {
                            scan.run(changes, (bw, bh), placements, &touch, end, &regions)
                        }
                        None => {
                            index.load(g, ops);
                            scan.walk(index, ops, (bw, bh), placements, &touch, &regions)
                        }
                    };
                    if !moves.is_empty() {
                        found.push((Hit { game: g, moves }, scan.nexts.clone()));
                    }
                }
                found
            },
        )
        .collect();
    // Moved, not cloned: an answer of a few hundred thousand hits is tens of megabytes.
    let mut found = Vec::with_capacity(chunks.iter().map(Vec::len).sum());
    for chunk in chunks {
        found.extend(chunk);
    }
    found
}

/// How many candidates ahead of the one scanned a worker asks for a program's first bytes.
const PREFETCH_AHEAD: usize = 4;

/// The most candidates a worker scans in one go (the unit the cores share).
const SCAN_CHUNK: usize = 1024;

/// The answer from the hits found (original games, ascending) and the regions each appeared
/// in.
fn answer<S: Store>(
    index: &S,
    mut found: Vec<(Hit, Nexts)>,
    placements: &[Placement],
    filter: Filter<'_>,
    q: &PatternQuery,
) -> Answer {
    own_positions(index, &mut found, |nexts, _, from| {
        nexts.retain(|n| n.k >= from);
    });
    let started = std::time::Instant::now();
    let followed = followed(index, &found, placements, q.board);
    let (continuations, none) = match q.continued {
        true => (Vec::new(), 0),
        false => continuations(index, &followed, placements, filter),
    };
    let tally_ms = ms_since(started);
    let continued = match q.continued {
        true => continued_with_copies(
            index,
            followed
                .iter()
                .flat_map(|(g, fs)| fs.iter().filter(|f| f.next.is_some()).map(|f| (*g, f.from)))
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
        no_continuation: Some(none),
        continued,
        tally_ms,
    }
}

/// What each hit was followed by there: per position and region the pattern appeared in, the
/// first later move inside that region ([`crate::region`]). A scanned or walked game's notes
/// were settled as it was read; the corner table's hits come with the move played next, which
/// settles those whose shape was answered at once, and a game with one still waiting is read
/// from its start, passing in bulk over the moves outside every region ([`Store::changes`] with
/// the regions watched), until none waits ([`Waiting`]).
fn followed<S: Store>(
    index: &S,
    found: &[(Hit, Nexts)],
    placements: &[Placement],
    (bw, bh): (u8, u8),
) -> Vec<(u32, Follows)> {
    let regions = regions_of(placements);
    let points = region_points(&regions, vec![0; (usize::from(bh) * 52).div_ceil(64)]);
    let watch = index.watch(&points);
    let per_chunk = (found.len() / (8 * rayon::current_num_threads())).clamp(16, SCAN_CHUNK);
    let chunks: Vec<Vec<(u32, Follows)>> = found
        .par_chunks(per_chunk)
        .map_init(
            || (Vec::new(), Waiting::new()),
            |(ops, waiting), chunk| {
                let mut out = Vec::with_capacity(chunk.len());
                for (j, (hit, nexts)) in chunk.iter().enumerate() {
                    if let Some((later, _)) = chunk.get(j + PREFETCH_AHEAD) {
                        index.prefetch_changes(later.game);
                    }
                    if let Some((later, _)) = chunk.get(j + 4 * PREFETCH_AHEAD) {
                        index.prefetch_record(later.game);
                    }
                    let mut notes = merged(nexts);
                    waiting.clear();
                    for (i, n) in notes.iter().enumerate().filter(|(_, n)| !n.settled) {
                        waiting.add(i, regions[n.key.0 as usize]);
                    }
                    if waiting.len() > 0 && !index.stopped() {
                        match index.changes(hit.game, &watch) {
                            Some(changes) => {
                                waiting.read_on(changes, (bw, bh), &mut notes, &regions, 0)
                            }
                            None => {
                                // Positions elsewhere than before moves: the moves in order.
                                index.load(hit.game, ops);
                                for (j, (c, p)) in index.moves(ops).enumerate() {
                                    if waiting.len() == 0 {
                                        break;
                                    }
                                    waiting.settle(&mut notes, &regions, j as u32, c, p);
                                }
                                waiting.ended(&mut notes);
                            }
                        }
                    }
                    let follows = notes
                        .iter()
                        .map(|n| Followed {
                            key: n.key,
                            next: n.next.filter(|_| n.settled),
                            tenuki: n.tenuki,
                            from: n.from,
                        })
                        .collect();
                    out.push((hit.game, follows));
                }
                out
            },
        )
        .collect();
    let mut all = Vec::with_capacity(found.len());
    for chunk in chunks {
        all.extend(chunk);
    }
    all
}

/// `points` (bit [`point_index`]) with every point of `regions` added.
fn region_points(regions: &[Region], mut points: Vec<u64>) -> Vec<u64> {
    for r in regions {
        for y in r.y0..=r.y1 {
            for x in r.x0..=r.x1 {
                let i = point_index(Point::new(x, y));
                if let Some(w) = points.get_mut(i / 64) {
                    *w |= 1 << (i % 64);
                }
            }
        }
    }
    points
}

/// A hit's notes with those of one region at one position made one (groups scanned apart note
/// theirs each; either settles it, the same way).
fn merged(nexts: &Nexts) -> Nexts {
    let mut notes = Nexts::new();
    for n in nexts {
        let same = notes
            .iter_mut()
            .rev()
            .take_while(|m| m.k == n.k)
            .find(|m| m.key.0 == n.key.0);
        match same {
            Some(m) => {
                m.key.1 |= n.key.1;
                if !m.settled && n.settled {
                    (m.next, m.tenuki, m.from, m.settled) = (n.next, n.tenuki, n.from, true);
                }
            }
            None => notes.push(*n),
        }
    }
    notes
}

/// The regions of `placements`, by number ([`Placement::region`]).
fn regions_of(placements: &[Placement]) -> Vec<Region> {
    let mut regions = Vec::new();
    for pl in placements {
        let i = pl.region as usize;
        if regions.len() <= i {
            regions.resize(i + 1, pl.rect);
        }
        regions[i] = pl.rect;
    }
    regions
}

/// What the store's corner table says of a pattern ([`from_corners`]).
enum Corners {
    /// The whole answer: every placement is a whole corner square and nothing else.
    Answered(Vec<(Hit, Nexts)>),
    /// The only games (originals, ascending) that can hold a placement.
    Games(Vec<u32>),
}

/// The pattern from the store's corner table, when every placement fixes a whole corner square
/// (every point black, white or empty) holding a keyed number of stones: a game can only show
/// such a placement at a position where that corner holds exactly its content, and the table
/// lists every time a corner came to hold a content, with the move played next. When every
/// placement is such a square and constrains nothing else, the table's events are the hits
/// themselves (a placement appears exactly when its corner comes to hold its content), and
/// nothing is replayed. Otherwise the events' games are the candidates, usually about as many as
/// the hits. `None` when some placement fixes no such square, or the store keys no corner of
/// this board: then the occupancy filter decides.
fn from_corners<S: Store>(
    index: &S,
    q: &PatternQuery,
    filter: Filter<'_>,
    placements: &[Placement],
) -> Option<Corners> {
    let (bw, bh) = q.board;
    if !corner::has_corners(bw, bh) || placements.is_empty() {
        return None;
    }
    let squares: Vec<Square> = placements
        .iter()
        .map(|pl| pl.square(bw, bh))
        .collect::<Option<_>>()?;
    let mut keys: Vec<u64> = squares.iter().map(|sq| sq.key).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut events = index.corner_events(bw, bh, &keys)?;
    if let Some(f) = filter {
        let owners = owners(index, f);
        events.retain(|(_, e)| owners.binary_search(&e.game).is_ok());
    }
    // Placements slid `anywhere` are many and have no orientation to count continuations in.
    let whole = !q.anywhere && placements.len() <= 64 && squares.iter().all(|sq| sq.whole);
    if whole {
        return Some(Corners::Answered(corner_hits(
            index, &events, &squares, placements,
        )));
    }
    let mut games: Vec<u32> = events.iter().map(|(_, e)| e.game).collect();
    games.dedup();
    // Stones outside the squares: a game must also have had them, which the occupancy columns
    // tell for all games at once (a few rare points cut a common corner's games down).
    if placements
        .iter()
        .zip(&squares)
        .any(|(pl, sq)| pl.need.len() > sq.stones as usize)
    {
        let needs: Vec<Vec<(Color, Point)>> = placements.iter().map(|p| p.need.clone()).collect();
        if let Some(pool) = index.covering(bw, bh, &needs) {
            games.retain(|g| pool.binary_search(g).is_ok());
        }
    }
    Some(Corners::Games(games))
}

/// The hits of placements that are whole corner squares, from the times their corners came to
/// hold their contents (in (game, k) order): placement i appears at an event of its corner
/// whose content it is — the content as it stands in the frame has the placement's hash, which
/// the event's key is, or, for a transposed key, the transposed content's. The placements that
/// appeared at a position, in every corner, and the move played from it are what the scan
/// would have noted there.
fn corner_hits<S: Store>(
    index: &S,
    events: &[(u64, CornerEvent)],
    squares: &[Square],
    placements: &[Placement],
) -> Vec<(Hit, Nexts)> {
    let mut found: Vec<(Hit, Nexts)> = Vec::new();
    for &(key, ref e) in events {
        if index.stopped() {
            break;
        }
        let mask = squares
            .iter()
            .enumerate()
            .filter(|(_, sq)| {
                let hash = if e.transposed {
                    sq.hashes.1
                } else {
                    sq.hashes.0
                };
                usize::from(e.corner) == sq.corner && hash == key
            })
            .fold(0u64, |m, (i, _)| m | 1 << i);
        if mask == 0 {
            continue;
        }
        let next = index.next_move(e.next);
        let appeared = (0..64)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| &placements[i]);
        match found.last_mut() {
            Some((hit, nexts)) if hit.game == e.game => {
                if hit.moves.last() != Some(&e.k) {
                    hit.moves.push(e.k);
                }
                note(nexts, e.k, appeared, next);
            }
            _ => {
                let mut nexts = Nexts::new();
                note(&mut nexts, e.k, appeared, next);
                found.push((
                    Hit {
                        game: e.game,
                        moves: Moves::from_slice(&[e.k]),
                    },
                    nexts,
                ));
            }
        }
    }
    found
}

/// The continuation table of a pattern's hits, and how many had none: each hit (of an original
/// game, and of each of its copies the answer holds) counts, per region the pattern appeared
/// in there, the first move played later inside it ([`followed`]), mapped back into the
/// query's frame through the placements that appeared in that region — the smallest SGF point
/// among them, as for positions — with the game's winner. A pattern slid `anywhere` answers in
/// its own diagram's coordinates.
fn continuations<S: Store>(
    index: &S,
    followed: &[(u32, Follows)],
    placements: &[Placement],
    filter: Filter<'_>,
) -> (Vec<Continuation>, usize) {
    // Per region, its placements' images: a key names a few of them.
    let mut by_region: Vec<Vec<(u16, Back)>> = Vec::new();
    for pl in placements {
        let i = pl.region as usize;
        if by_region.len() <= i {
            by_region.resize_with(i + 1, Vec::new);
        }
        by_region[i].push((pl.image_bit, pl.back));
    }
    continuation_rows(
        index,
        followed,
        |(g, f)| (*g, f.as_slice()),
        filter,
        |(region, images): Key| {
            by_region[region as usize]
                .iter()
                .filter(move |(bit, _)| images >> bit & 1 == 1)
                .map(|&(_, back)| back)
        },
    )
}

/// What tells a game's scan that it can stop: for each placement, the points it constrains, so
/// that a game's vacated points (the store's [`Store::vacated`]) say which placements can only
/// change once per point. On 19×19 boards with up to 64 placements (not `anywhere`).
struct Ends {
    /// Per placement, its constrained points (bit `y * 19 + x`).
    points: Vec<[u64; 6]>,
}

/// One game's [`Ends`]: the scan stops at a position once every placement is `done` (it can
/// never be satisfied again) or `settled` and satisfied (it cannot stop being satisfied without
/// becoming done), since then no placement can appear again.
#[derive(Clone, Copy)]
struct End {
    /// Points whose stone ever left (bit `y * 19 + x`): a stone elsewhere stays to the end.
    vacated: [u64; 6],
    /// Placements that can never be satisfied again: one of their points holds, for good, what
    /// the placement forbids there (or the game never had a stone it needs).
    done: u64,
    /// Placements none of whose points is vacated.
    settled: u64,
    /// Every placement.
    all: u64,
}

impl Ends {
    fn new(placements: &[Placement], touch: &Touch, bw: u8, bh: u8) -> Option<Ends> {
        if (bw, bh) != (19, 19) || placements.is_empty() || !matches!(touch.by, By::Bits(_)) {
            return None;
        }
        let points = placements
            .iter()
            .map(|pl| {
                let mut m = [0u64; 6];
                for &(p, _) in &pl.cells {
                    let bit = p.y as usize * 19 + p.x as usize;
                    m[bit / 64] |= 1 << (bit % 64);
                }
                m
            })
            .collect();
        Some(Ends { points })
    }

    /// Game `g`'s, when the store knows its vacated points; `covered` says which placements'
    /// stones it ever had, when known ([`Store::covering_each`]), and the store is asked
    /// otherwise.
    fn of_game<S: Store>(
        &self,
        index: &S,
        g: u32,
        placements: &[Placement],
        covered: Option<u64>,
    ) -> Option<End> {
        let vacated = index.vacated(g)?;
        let mut end = End {
            vacated,
            done: 0,
            settled: 0,
            all: u64::MAX >> (64 - placements.len()),
        };
        for (i, (pl, points)) in placements.iter().zip(&self.points).enumerate() {
            if points.iter().zip(&vacated).all(|(p, v)| p & v == 0) {
                end.settled |= 1 << i;
            }
            if covered.is_none()
                && pl
                    .need
                    .iter()
                    .any(|&(c, p)| index.had(g, c, p) == Some(false))
            {
                end.done |= 1 << i;
            }
        }
        if let Some(covered) = covered {
            end.done |= end.all & !covered;
        }
        Some(end)
    }
}

impl End {
    /// Whether point `i` (by [`point_index`]) keeps its stone once put.
    #[inline(always)]
    fn keeps(&self, i: usize) -> bool {
        let p = index_point(i);
        let bit = p.y as usize * 19 + p.x as usize;
        p.x < 19 && p.y < 19 && self.vacated[bit / 64] >> (bit % 64) & 1 == 0
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
struct Touch {
    /// The points some placement constrains (bit [`point_index`]): most changes are
    /// elsewhere, and while nothing watched has changed the store passes over them in bulk
    /// ([`Store::watch`]); after a watched change, each change up to the next move is tested
    /// against this.
    watch: Vec<u64>,
    by: By,
}

/// [`Touch`]'s placements of each point.
enum By {
    /// Up to 64 placements: one bit each, for black, white and empty, then all three or'ed
    /// (the placements that constrain the point at all, tested for every change).
    Bits(Vec<[u64; 4]>),
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
        let mut watch = vec![0u64; n.div_ceil(64)];
        for pl in placements {
            for &(p, _) in &pl.cells {
                let i = point_index(p);
                watch[i / 64] |= 1 << (i % 64);
            }
        }
        let by = if placements.len() <= 64 {
            let mut bits = vec![[0u64; 4]; n];
            for (i, pl) in placements.iter().enumerate() {
                for &(p, cell) in &pl.cells {
                    for (slot, ok) in allows(cell).into_iter().enumerate() {
                        bits[point_index(p)][slot] |= (ok as u64) << i;
                    }
                    bits[point_index(p)][3] |= 1 << i;
                }
            }
            By::Bits(bits)
        } else {
            let mut lists = vec![Vec::new(); n];
            for (i, pl) in placements.iter().enumerate() {
                for &(p, cell) in &pl.cells {
                    lists[point_index(p)].push((i as u32, allows(cell)));
                }
            }
            By::Lists(lists)
        };
        Touch { watch, by }
    }

    /// Whether some placement constrains the point.
    #[inline(always)]
    fn watched(&self, i: usize) -> bool {
        self.watch
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Point `i` now holds `content`: marks the placements to test again.
    #[inline(always)]
    fn mark(&self, i: usize, content: Option<Color>, scan: &mut Scan) {
        match &self.by {
            By::Bits(bits) => {
                let b = &bits[i];
                scan.dirty_bits |= b[slot(content)] | b[3] & scan.matched_bits;
            }
            By::Lists(lists) => {
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

    /// Point `i`, which keeps its stone for good, now holds `content`: the placements that
    /// forbid it there are done.
    #[inline(always)]
    fn forbidding(&self, i: usize, content: Option<Color>) -> u64 {
        match &self.by {
            By::Bits(bits) => {
                let b = &bits[i];
                b[3] & !b[slot(content)]
            }
            By::Lists(_) => 0,
        }
    }

    /// Marks the placements to be tested on the empty board a game starts from: those that
    /// need no stone (`start`). Any other can only appear after a stone it needs is put, which
    /// marks it then.
    fn mark_start(&self, start: &[u32], scan: &mut Scan) {
        match &self.by {
            By::Bits(_) => scan.dirty_bits = start.iter().fold(0, |m, &i| m | 1 << i),
            By::Lists(_) => {
                scan.dirty_list.clear();
                scan.dirty_list.extend_from_slice(start);
                scan.pending.iter_mut().for_each(|p| *p = false);
                for &i in start {
                    scan.pending[i as usize] = true;
                }
            }
        }
    }
}

/// The state of one game's scan, reused from game to game by a worker.
struct Scan {
    stones: [Bitboard; 2],
    /// Which placements matched at the previous position: bits (up to 64 placements) or flags.
    matched_bits: u64,
    /// Which placements (up to 64) appeared at the position last reported.
    appeared_bits: u64,
    before: Vec<bool>,
    dirty_bits: u64,
    pending: Vec<bool>,
    dirty_list: Vec<u32>,
    hits: Vec<u32>,
    /// The placements that need no stone: the only ones an empty board can show.
    start: Vec<u32>,
    /// Beyond 64 placements, those that appeared at the position last reported.
    appeared_list: Vec<u32>,
    /// For each hit position, the regions the pattern appeared in there.
    nexts: Nexts,
    /// The notes of `nexts` that wait for a move in their region.
    waiting: Waiting,
}

/// One region a pattern appeared in at a hit ([`Placement::region`]), with the images
/// ([`Placement::image_bit`]) of the placements that appeared in it.
type Key = (u32, u16);

/// What a hit contributes to the continuation table, once per region the pattern appeared in
/// at position `k`: the region and the placements, and the move played next (the
/// continuation when it lies in the region; otherwise the scan reads on, or [`followed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Next {
    k: u32,
    key: Key,
    /// The move played next, until the note is `settled`: then its continuation (`None`:
    /// nothing was ever played in the region).
    next: NextMove,
    /// Whether the continuation came after moves elsewhere.
    tenuki: bool,
    /// The position the continuation was played from (`k` unless after tenuki): the move
    /// whose evaluation the row counts ([`crate::Store::move_eval`]).
    from: u32,
    /// Whether `next` is the continuation: the move played next lies in the region, or the
    /// scan read on until one did (or the game ended).
    settled: bool,
}

/// A hit's [`Next`]s, in order of position: most hits appear once, in one region, and keep
/// theirs inline.
type Nexts = smallvec::SmallVec<[Next; 1]>;

/// A hit's continuations, one per [`Next`] (same regions merged).
type Follows = smallvec::SmallVec<[Followed<Key>; 1]>;

/// Notes that `appeared` appeared at position `k`, followed by `next`: one [`Next`] per region,
/// settled when `next` lies in it or is the end. Returns how many are not.
fn note<'a>(
    nexts: &mut Nexts,
    k: u32,
    appeared: impl Iterator<Item = &'a Placement>,
    next: NextMove,
) -> usize {
    let mut waiting = 0;
    for pl in appeared {
        let same = nexts
            .iter_mut()
            .rev()
            .take_while(|n| n.k == k)
            .find(|n| n.key.0 == pl.region);
        match same {
            Some(n) => n.key.1 |= 1 << pl.image_bit,
            None => {
                let settled = next.is_none_or(|(_, p)| pl.rect.holds(p));
                waiting += usize::from(!settled);
                nexts.push(Next {
                    k,
                    key: (pl.region, 1 << pl.image_bit),
                    next,
                    tenuki: false,
                    from: k,
                    settled,
                })
            }
        }
    }
    waiting
}

/// The notes of a game's scan that wait for a move in their region: their places in the scan's
/// notes, and the points of their regions, so that a move elsewhere costs one bit test however
/// many wait (a shape of one or two stones slid anywhere leaves hundreds waiting in a long game,
/// most of them for good).
struct Waiting {
    notes: Vec<u32>,
    /// Bit [`point_index`] of every point of a waiting note's region.
    points: Vec<u64>,
}

impl Waiting {
    fn new() -> Waiting {
        Waiting {
            notes: Vec::new(),
            points: vec![0; (52 * 52usize).div_ceil(64)],
        }
    }

    fn len(&self) -> usize {
        self.notes.len()
    }

    /// Forgets every note (a new game).
    fn clear(&mut self) {
        if !self.notes.is_empty() {
            self.notes.clear();
            self.points.fill(0);
        }
    }

    /// Note `i` of a scan's notes waits for a move in `region`.
    fn add(&mut self, i: usize, region: Region) {
        self.notes.push(i as u32);
        self.mark(region);
    }

    fn mark(&mut self, r: Region) {
        for y in r.y0..=r.y1 {
            for x in r.x0..=r.x1 {
                let i = point_index(Point::new(x, y));
                self.points[i / 64] |= 1 << (i % 64);
            }
        }
    }

    /// Settles the waiting notes with the `j`-th move (0-based: the one played from position
    /// `j`), `color` at `p`. The move played from a note's own position was seen when the note
    /// was made: a later one came after tenuki.
    #[inline]
    fn settle(
        &mut self,
        nexts: &mut Nexts,
        regions: &[Region],
        j: u32,
        color: Color,
        p: Option<Point>,
    ) {
        let Some(q) = p else {
            return;
        };
        let i = point_index(q);
        if self
            .points
            .get(i / 64)
            .is_none_or(|w| w >> (i % 64) & 1 == 0)
        {
            return;
        }
        let before = self.notes.len();
        self.notes.retain(|&at| {
            let n = &mut nexts[at as usize];
            let here = n.k < j && regions[n.key.0 as usize].holds(p);
            if here {
                (n.next, n.tenuki, n.from, n.settled) = (Some((color, p)), true, j, true);
            }
            !here
        });
        if self.notes.len() != before {
            self.points.fill(0);
            for k in 0..self.notes.len() {
                let n = &nexts[self.notes[k] as usize];
                self.mark(regions[n.key.0 as usize]);
            }
        }
    }

    /// Reads a game's changes on, from the `k`-th move (0-based), until no note waits, passing
    /// in bulk over the moves away from the watched points; the end of the game settles what
    /// still waits.
    fn read_on(
        &mut self,
        mut changes: impl Changes,
        (bw, bh): (u8, u8),
        nexts: &mut Nexts,
        regions: &[Region],
        mut k: u32,
    ) {
        while self.len() > 0 {
            let (passed, change) = changes.next_watched();
            k += passed;
            let Some(change) = change else {
                break;
            };
            let Some(c) = change.mover else {
                continue;
            };
            let p = (change.point < usize::from(bh) * 52 && index_point(change.point).x < bw)
                .then(|| index_point(change.point));
            self.settle(nexts, regions, k, c, p);
            k += 1;
        }
        self.ended(nexts);
    }

    /// The game was read to its end: a note still waiting has no continuation.
    fn ended(&mut self, nexts: &mut Nexts) {
        if self.notes.is_empty() {
            return;
        }
        for &at in &self.notes {
            let n = &mut nexts[at as usize];
            (n.next, n.settled) = (None, true);
        }
        self.notes.clear();
        self.points.fill(0);
    }
}

impl Scan {
    fn new(placements: &[Placement]) -> Scan {
        let n = placements.len();
        let start = (0..n as u32)
            .filter(|&i| placements[i as usize].need.is_empty())
            .collect();
        Scan {
            start,
            stones: [Bitboard::EMPTY, Bitboard::EMPTY],
            matched_bits: 0,
            appeared_bits: 0,
            before: vec![false; n],
            dirty_bits: 0,
            pending: vec![false; n],
            dirty_list: Vec::new(),
            hits: Vec::new(),
            appeared_list: Vec::new(),
            nexts: Nexts::new(),
            waiting: Waiting::new(),
        }
    }

    /// Starts a game: nothing on the board, the placements an empty board can show to be
    /// tested at position 0.
    fn reset(&mut self, touch: &Touch) {
        self.stones = [Bitboard::EMPTY, Bitboard::EMPTY];
        self.matched_bits = 0;
        self.before.iter_mut().for_each(|b| *b = false);
        self.hits.clear();
        self.nexts.clear();
        self.waiting.clear();
        let start = std::mem::take(&mut self.start);
        touch.mark_start(&start, self);
        self.start = start;
    }

    /// The positions of a game where some placement appears, from its program's changes
    /// ([`Store::changes`]), read only until `end` says no placement can appear again.
    fn run(
        &mut self,
        mut changes: impl Changes,
        (bw, bh): (u8, u8),
        pls: &[Placement],
        touch: &Touch,
        mut end: Option<End>,
        regions: &[Region],
    ) -> Moves {
        self.reset(touch);
        // Position k falls just before the (k+1)-th move, and after the end.
        let mut k = 0;
        // Whether a watched point changed since the last position was tested (or none was
        // tested yet): only then can a placement appear, or the end come, at the next one, so
        // most moves only count: those changes are passed over in bulk until the next one on
        // a watched point.
        let mut changed = true;
        loop {
            let change = if changed {
                changes.next()
            } else {
                let (passed, next) = changes.next_watched();
                k += passed;
                next
            };
            let Some(change) = change else {
                break;
            };
            if let Some(c) = change.mover {
                let p = (change.point < usize::from(bh) * 52 && index_point(change.point).x < bw)
                    .then(|| index_point(change.point));
                if self.waiting.len() > 0 {
                    self.waiting.settle(&mut self.nexts, regions, k, c, p);
                }
                if std::mem::take(&mut changed) {
                    if self.report(k, pls) {
                        self.next_after_hit(pls, regions, Some((c, p)));
                    }
                    if let Some(e) = &end {
                        if (e.done | self.matched_bits & e.settled) & e.all == e.all {
                            // No placement can appear again: only the hits waiting for a move
                            // in their region read on.
                            self.waiting.read_on(
                                changes,
                                (bw, bh),
                                &mut self.nexts,
                                regions,
                                k + 1,
                            );
                            return Moves::from_slice(&self.hits);
                        }
                    }
                }
                k += 1;
            }
            if touch.watched(change.point) {
                changed = true;
                if let Some(e) = &mut end {
                    if change.content.is_some() && e.keeps(change.point) {
                        e.done |= touch.forbidding(change.point, change.content);
                    }
                }
                let p = index_point(change.point);
                self.stones[0].remove(p);
                self.stones[1].remove(p);
                if let Some(c) = change.content {
                    self.stones[c as usize].insert(p);
                }
                touch.mark(change.point, change.content, self);
            }
        }
        if self.report(k, pls) {
            self.next_after_hit(pls, regions, None);
        }
        self.ended();
        Moves::from_slice(&self.hits)
    }

    /// The game was read to its end: a hit still waiting has no continuation.
    fn ended(&mut self) {
        self.waiting.ended(&mut self.nexts);
    }

    /// [`Scan::run`] for a program with positions elsewhere than before moves (setup beside a
    /// move, two moves in a node), which are rare: the walk knows where they fall.
    fn walk<S: Store>(
        &mut self,
        store: &S,
        ops: &[u16],
        (bw, bh): (u8, u8),
        pls: &[Placement],
        touch: &Touch,
        regions: &[Region],
    ) -> Moves {
        self.reset(touch);
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
            let next = store.next_move(step.next);
            if let (Some((c, p)), true) = (next, self.waiting.len() > 0) {
                self.waiting.settle(&mut self.nexts, regions, step.k, c, p);
            }
            if self.report(step.k, pls) {
                self.next_after_hit(pls, regions, next);
            }
        }
        self.ended();
        Moves::from_slice(&self.hits)
    }

    /// Tests the placements marked since the last position; records `k` if one of them appeared.
    #[inline(always)]
    fn report(&mut self, k: u32, pls: &[Placement]) -> bool {
        if self.dirty_bits == 0 && self.dirty_list.is_empty() {
            return false;
        }
        let [black, white] = &self.stones;
        let mut appeared = false;
        self.appeared_bits = 0;
        while self.dirty_bits != 0 {
            let i = self.dirty_bits.trailing_zeros();
            self.dirty_bits &= self.dirty_bits - 1;
            let now = pls[i as usize].matches(black, white);
            let bit = 1u64 << i;
            if now && self.matched_bits & bit == 0 {
                appeared = true;
                self.appeared_bits |= bit;
            }
            self.matched_bits = self.matched_bits & !bit | (now as u64) << i;
        }
        self.appeared_list.clear();
        for j in self.dirty_list.drain(..) {
            let i = j as usize;
            self.pending[i] = false;
            let now = pls[i].matches(black, white);
            if now && !self.before[i] {
                appeared = true;
                self.appeared_list.push(j);
            }
            self.before[i] = now;
        }
        if appeared {
            self.hits.push(k);
        }
        appeared
    }

    /// After a hit at the position just reported: the regions of the placements that appeared
    /// there (not those still standing from earlier, which another corner's move has nothing
    /// to do with) and the move played from it (`None` after the last move).
    #[inline]
    fn next_after_hit(&mut self, pls: &[Placement], regions: &[Region], next: NextMove) {
        let k = self.hits.last().copied().unwrap_or(0);
        let bits = self.appeared_bits;
        let by_bit = (0..64).filter(move |i| bits >> i & 1 == 1).map(|i| &pls[i]);
        let listed = self.appeared_list.iter().map(|&j| &pls[j as usize]);
        let from = self.nexts.len();
        if note(&mut self.nexts, k, by_bit.chain(listed), next) > 0 {
            for i in from..self.nexts.len() {
                if !self.nexts[i].settled {
                    self.waiting.add(i, regions[self.nexts[i].key.0 as usize]);
                }
            }
        }
    }
}

/// A corner square a placement fixes whole ([`Placement::square`]).
struct Square {
    /// Which corner, as [`corner::locate`] numbers them.
    corner: usize,
    key: u64,
    /// The content's hashes in the corner's frame, as it stands and transposed
    /// ([`corner::KeyBuilder::hashes`]).
    hashes: (u64, u64),
    stones: u32,
    /// Whether the placement constrains no point outside the square.
    whole: bool,
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
    /// How the diagram was turned onto the board, to map a move played there back into the
    /// query's frame ([`Back`]).
    back: Back,
    /// The bounding rectangle of the points it constrains: where its continuations are looked
    /// for ([`crate::region`]).
    rect: Region,
    /// The number of `rect` among the placements' distinct rectangles: placements sharing one
    /// (the symmetric images of a symmetric shape) answer together.
    region: u32,
    /// Which image of the diagram it is: 2 × its symmetry's index, + 1 with colours swapped.
    image_bit: u16,
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
        let rect = Region::around(cells.iter().map(|&(p, _)| p)).unwrap_or(Region {
            x0: 1,
            y0: 1,
            x1: 0,
            y1: 0,
        });
        Placement {
            rows,
            need,
            cells,
            back: Back::anchored((Symmetry::Identity, false), 0, 0),
            rect,
            region: 0,
            image_bit: 0,
        }
    }

    /// The corner square this placement fixes whole with a keyed number of stones
    /// ([`corner::KeyBuilder::key`]): of several, the one with the most stones, the likeliest
    /// to be rare.
    fn square(&self, bw: u8, bh: u8) -> Option<Square> {
        let mut squares = [(0usize, corner::KeyBuilder::default()); 4];
        for &(p, cell) in &self.cells {
            let Some((c, i, j)) = corner::locate(p, bw, bh) else {
                continue;
            };
            let (fixed, key) = &mut squares[c];
            match cell {
                Cell::Black => key.add(Color::Black, i, j),
                Cell::White => key.add(Color::White, i, j),
                Cell::Empty => {}
                // Either of two contents: not one key.
                _ => continue,
            }
            *fixed += 1;
        }
        let area = corner::SIDE as usize * corner::SIDE as usize;
        squares
            .iter()
            .enumerate()
            .filter(|(_, (fixed, _))| *fixed == area)
            .filter_map(|(c, (_, b))| b.key().map(|key| (b.stones(), c, key, b.hashes())))
            .max()
            .map(|(stones, corner, key, hashes)| Square {
                corner,
                key,
                hashes,
                stones,
                whole: self.cells.len() == area,
            })
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
                        let mut pl = Placement::new(
                            local
                                .iter()
                                .map(|&(p, c)| (Point::new(p.x + ox, p.y + oy), c)),
                        );
                        pl.back = Back {
                            sym: s,
                            swapped,
                            offset: (ox, oy),
                            frame: (tw, th),
                        };
                        pl.image_bit = image_bit(s, swapped);
                        out.push(pl);
                    }
                }
            }
        } else {
            for &s in syms {
                let mut pl = Placement::new(
                    (0..q.height)
                        .flat_map(|y| (0..q.width).map(move |x| Point::new(x, y)))
                        .map(|p| {
                            let c = q.cells[p.y as usize * q.width as usize + p.x as usize];
                            let on_board = Point::new(p.x + q.offset.0, p.y + q.offset.1);
                            cells(s.apply(on_board, bw, bh), c)
                        }),
                );
                pl.back = Back::anchored((s, swapped), bw, bh);
                pl.image_bit = image_bit(s, swapped);
                out.push(pl);
            }
        }
    }
    // Placements with the same rectangle answer as one region.
    let mut numbers: ahash::AHashMap<Region, u32> = Default::default();
    for pl in &mut out {
        let n = numbers.len() as u32;
        pl.region = *numbers.entry(pl.rect).or_insert(n);
    }
    out
}

/// [`Placement::image_bit`].
fn image_bit(s: Symmetry, swapped: bool) -> u16 {
    2 * s.index() as u16 + u16::from(swapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(game: u32, at: &[(u32, Option<Point>)], region: u32) -> (Hit, Nexts) {
        let mut moves: Vec<u32> = at.iter().map(|&(k, _)| k).collect();
        moves.dedup();
        (
            Hit {
                game,
                moves: moves.into_iter().collect(),
            },
            at.iter()
                .map(|&(k, p)| Next {
                    k,
                    key: (region, 1),
                    next: p.map(|p| (Color::Black, Some(p))),
                    tenuki: false,
                    from: k,
                    settled: false,
                })
                .collect(),
        )
    }

    #[test]
    fn a_waiting_note_is_settled_by_the_first_later_move_in_its_region_only() {
        let regions = [
            Region::around([Point::new(0, 0), Point::new(2, 2)]).unwrap(),
            Region::around([Point::new(10, 10)]).unwrap(),
        ];
        let wait = |k, region| Next {
            k,
            key: (region, 1),
            next: Some((Color::Black, None)),
            tenuki: false,
            from: k,
            settled: false,
        };
        let mut nexts: Nexts = [wait(1, 0), wait(3, 1), wait(4, 0)].into_iter().collect();
        let mut waiting = Waiting::new();
        for (i, n) in nexts.iter().enumerate() {
            waiting.add(i, regions[n.key.0 as usize]);
        }
        let p = |x, y| Some(Point::new(x, y));
        // Elsewhere: nothing.
        waiting.settle(&mut nexts, &regions, 5, Color::White, p(5, 5));
        assert_eq!(waiting.len(), 3);
        // In region 0, played from position 4: the note at 4 saw that move as it was made, so
        // only the note at 1 is settled by it.
        waiting.settle(&mut nexts, &regions, 4, Color::White, p(1, 1));
        assert_eq!(waiting.len(), 2);
        assert_eq!(
            (nexts[0].next, nexts[0].tenuki, nexts[0].settled),
            (Some((Color::White, p(1, 1))), true, true)
        );
        assert!(!nexts[2].settled);
        waiting.settle(&mut nexts, &regions, 6, Color::Black, p(2, 0));
        assert_eq!(nexts[2].next, Some((Color::Black, p(2, 0))));
        // The end: the note of region 1 never saw a move there.
        waiting.ended(&mut nexts);
        assert_eq!((nexts[1].next, nexts[1].settled), (None, true));
        assert_eq!(waiting.len(), 0);
        assert!(waiting.points.iter().all(|&w| w == 0));
    }

    #[test]
    fn groups_hits_merge_by_game_and_position() {
        let p = |x| Some(Point::new(x, 0));
        let a = vec![hit(1, &[(3, p(1)), (9, p(2))], 0), hit(4, &[(0, p(3))], 0)];
        let b = vec![
            hit(0, &[(5, None)], 1),
            hit(1, &[(2, p(4)), (9, p(2)), (12, p(5))], 1),
            hit(7, &[(1, p(6))], 1),
        ];
        let key = |v: &[(Hit, Nexts)]| {
            v.iter()
                .map(|(h, n)| (h.game, h.moves.to_vec(), n.to_vec()))
                .collect::<Vec<_>>()
        };
        let (mut one, mut other) = (hit(1, &[(2, p(4))], 1), hit(1, &[(3, p(1))], 0));
        one.0.moves.extend([3, 9, 12]);
        one.1.extend(other.1.drain(..));
        // Both groups' notes of position 9 are kept, each with its region.
        one.1.extend(hit(1, &[(9, p(2))], 0).1);
        one.1.extend(hit(1, &[(9, p(2)), (12, p(5))], 1).1);
        let want = vec![
            hit(0, &[(5, None)], 1),
            one,
            hit(4, &[(0, p(3))], 0),
            hit(7, &[(1, p(6))], 1),
        ];
        assert_eq!(key(&merge_hits(a.clone(), b.clone())), key(&want));
        assert_eq!(key(&merge_hits(Vec::new(), want.clone())), key(&want));
        assert_eq!(key(&merge_hits(want.clone(), Vec::new())), key(&want));
    }
}
