//! From one parsed game to what the index stores about it: replay program, position hashes,
//! occupancy, signatures and the winner as continuation tables count it.

use goban::{corner, Color, Symmetry};
use sgf::info::Winner;
use sgf::{GameInfo, GameTree};

use crate::encode::ops::{
    encode_main_line_noting, with_removals_into, IrregularMove, Op, Raw, RawKind, Walker,
    KIND_EFFECT,
};
use crate::store::layout::op::{point_index, KIND_SHIFT, POINT_MASK, POINT_STRIDE};
use crate::store::{
    CornerEvent, GameRec, Occupancy, StoredOps, FLAG_IRREGULAR, FLAG_LONG, FLAG_MARKS,
    FLAG_SKELETON, FLAG_VARIATION, MAX_INDEXED_STONES, MAX_TABLE_MOVE, NO_NEXT,
};

/// A game ready for the store and the metadata index.
pub struct Analysed {
    pub info: GameInfo,
    pub rec: GameRec,
    /// The replay program, ready for `ops.bin`.
    pub ops: StoredOps,
    pub occupancy: Occupancy,
    /// (hash, k, the move after it as an op or [`NO_NEXT`]) of the positions to index.
    pub positions: Vec<(u64, u16, u16)>,
    /// (key, event) each time a corner square came to hold a content with few stones
    /// ([`goban::corner`]), in position order; the events' games are 0 (the builder numbers
    /// them).
    pub corners: Vec<(u64, CornerEvent)>,
    /// On a 19×19 board, the points whose stone ever left or changed colour
    /// ([`crate::Vacated`]).
    pub vacated: Option<crate::Vacated>,
    /// Identical main line (no symmetry): exact copies share it.
    pub exact_signature: u64,
    /// The main line under the best of its symmetries: copies up to rotation/reflection share it.
    pub canonical_signature: u64,
    /// The record to store: its skeleton when `rec.flags` has [`FLAG_SKELETON`] (see
    /// [`crate::encode::skeleton`]), else the record itself.
    pub record: Vec<u8>,
    /// Its variation lines, when asked for ([`analyse_with_lines`]), in document order.
    pub lines: Vec<AnalysedLine>,
    /// Variation lines left out by the bounds.
    pub lines_left: u64,
    /// The engine's evaluations the record carries, when the build reads them
    /// ([`crate::BuildOptions::evals`]).
    pub evals: Option<sgf::Evals>,
    /// What of its main line cannot be played as written (a value that is not a point, a move
    /// off the board or against a rule, a node of two moves), as `qipu show` says it, by move:
    /// taken from the analysis's own replay, for the build's report. A note of the engine's
    /// gives the offset of the move's value; one of the record's text, of its node.
    pub notes: Vec<goban::Note>,
}

/// Analyses a game: replays its main line once, hashing every position. `record` is the game's
/// text (its span of the file).
pub fn analyse(tree: &GameTree<'_>, record: &[u8]) -> Analysed {
    analyse_with_lines(tree, record, None)
}

/// [`analyse`], and with `lines` also the game's variation lines within those bounds (see
/// [`crate::encode::variations`]).
pub fn analyse_with_lines(
    tree: &GameTree<'_>,
    record: &[u8],
    lines: Option<crate::encode::variations::Limits>,
) -> Analysed {
    let run = |s: &mut Scratch| {
        let mut a = analyse_with(tree, record, s);
        if let Some(limits) = lines {
            (a.lines, a.lines_left) = lines_of(tree, limits, s);
        }
        a
    };
    let kept = SCRATCH.try_with(|s| {
        let mut s = s.try_borrow_mut().ok()?;
        let a = run(&mut s);
        // A huge game must not pin its memory to the thread.
        if s.ops.capacity().max(s.full.capacity()) > 1 << 18 {
            *s = Scratch::default();
        }
        Some(a)
    });
    // Without the thread's vectors (a thread being torn down), fresh ones.
    match kept {
        Ok(Some(a)) => a,
        _ => run(&mut Scratch::default()),
    }
}

/// A variation line of a game, ready for the store (see [`crate::encode::variations`]): what a game
/// stores for its main line, without information, record or signatures.
pub struct AnalysedLine {
    pub rec: GameRec,
    pub ops: StoredOps,
    pub occupancy: Occupancy,
    /// As [`Analysed::positions`], from position [`AnalysedLine::from`] on only.
    pub positions: Vec<(u64, u16, u16)>,
    /// As [`Analysed::corners`], from position [`AnalysedLine::from`] on only.
    pub corners: Vec<(u64, CornerEvent)>,
    pub vacated: Option<crate::Vacated>,
    /// The first position the line answers at (its branch point).
    pub from: u32,
    /// The choices that lead to it ([`crate::encode::variations::Variation::path`]).
    pub path: Vec<(u32, u32)>,
}

/// The variation lines of `tree` within `limits`, analysed, and how many were left out.
fn lines_of(
    tree: &GameTree<'_>,
    limits: crate::encode::variations::Limits,
    scratch: &mut Scratch,
) -> (Vec<AnalysedLine>, u64) {
    let (plans, left) = crate::encode::variations::plan(tree, limits);
    let (width, height) = tree.board_size();
    let Scratch { ops, values, full } = scratch;
    let lines = plans
        .into_iter()
        .map(|plan| {
            ops.clear();
            values.clear();
            let moves = crate::encode::ops::encode_line_at(
                plan.nodes.into_iter(),
                (width, height),
                ops,
                values,
            );
            // A variation line's moves are not the game's: their notes are not said.
            let replayed = replay(ops, width, height, full, plan.from, &mut Vec::new());
            let mut corners = corners_of(full, width, height, replayed.marks);
            corners.retain(|(_, e)| e.k >= plan.from);
            AnalysedLine {
                rec: GameRec {
                    moves,
                    width,
                    height,
                    winner: 0,
                    flags: replayed.flags() | FLAG_VARIATION,
                    duplicate_of: u32::MAX,
                    ..GameRec::default()
                },
                ops: StoredOps::new(full),
                occupancy: replayed.occupancy,
                positions: replayed.positions,
                corners,
                vacated: replayed.vacated,
                from: plan.from,
                path: plan.path,
            }
        })
        .collect();
    (lines, left)
}

/// What one replay of a program gives: the positions to index, the occupancy and vacated
/// points, and the flags these decide.
struct Replayed {
    positions: Vec<(u64, u16, u16)>,
    long: bool,
    irregular: bool,
    marks: bool,
    occupancy: Occupancy,
    vacated: Option<crate::Vacated>,
}

impl Replayed {
    fn flags(&self) -> u8 {
        let flag = |on: bool, f: u8| if on { f } else { 0 };
        flag(self.irregular, FLAG_IRREGULAR)
            | flag(self.long, FLAG_LONG)
            | flag(self.marks, FLAG_MARKS)
    }
}

/// Replays `ops` into `full` (with the stones each move removes), keeping the positions from
/// `from` on with at most [`MAX_INDEXED_STONES`] stones.
/// Each move the engine refused is pushed to `notes`.
fn replay(
    ops: &[u16],
    width: u8,
    height: u8,
    full: &mut Vec<u16>,
    from: u32,
    notes: &mut Vec<IrregularMove>,
) -> Replayed {
    let mut positions = Vec::with_capacity(MAX_INDEXED_STONES as usize + 8);
    let mut long = false;
    let irregular = with_removals_into(
        ops,
        width,
        height,
        |step, b| {
            if step.k >= from && b.stone_count() <= MAX_INDEXED_STONES {
                if step.k <= MAX_TABLE_MOVE {
                    let next = crate::encode::ops::next_code(step.next);
                    positions.push((b.hash(), step.k as u16, next));
                } else {
                    // Found by replay (see FLAG_LONG).
                    long = true;
                }
            }
        },
        full,
        notes,
    );
    let ops = &*full;
    let nineteen = (width, height) == (19, 19);
    let (occupancy, vacated) = match nineteen {
        true => {
            let (o, v) = crate::encode::occupancy::stones_of(ops);
            (o, Some(v))
        }
        false => (Occupancy::default(), None),
    };
    Replayed {
        positions,
        long,
        irregular,
        marks: ops.iter().any(|&v| Raw::split(v).kind == RawKind::Mark),
        occupancy,
        vacated,
    }
}

/// Working vectors of [`analyse`], kept by each thread from one game to the next: allocating
/// them for every game was a visible part of a build, more so with all threads running than on
/// one core (BENCHMARKS.md, Indexing: skeletons).
#[derive(Default)]
struct Scratch {
    ops: Vec<u16>,
    values: Vec<usize>,
    full: Vec<u16>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

fn analyse_with(tree: &GameTree<'_>, record: &[u8], scratch: &mut Scratch) -> Analysed {
    let info = GameInfo::read(tree);
    let Scratch { ops, values, full } = scratch;
    ops.clear();
    values.clear();
    // Sized once: a main line has at most one node per node of the tree, and a move per node.
    let nodes = tree.node_count().min(1 << 16);
    ops.reserve(nodes + 8);
    values.reserve(nodes);
    let mut notes = Vec::new();
    let moves = encode_main_line_noting(tree, ops, values, &mut notes);
    let skeleton = crate::encode::skeleton::strip(record, tree.span().start, ops, values);
    let stripped = skeleton.is_some();
    let (width, height) = tree.board_size();
    let winner = match info.result.as_ref().and_then(|r| r.value) {
        Some(r) if r.winner == Winner::Black => 1,
        Some(r) if r.winner == Winner::White => 2,
        _ => 0,
    };
    let mut irregular = Vec::new();
    let replayed = replay(ops, width, height, full, 0, &mut irregular);
    if !irregular.is_empty() {
        notes.extend(irregular.into_iter().map(|m| engine_note(m, values)));
        // By move; a move's notes of the text before the engine's (stable).
        notes.sort_by_key(|n| n.moves);
    }
    let ops = &*full;
    let (exact_signature, canonical_signature) = signatures(ops, width, height);
    let corners = corners_of(ops, width, height, replayed.marks);
    Analysed {
        info,
        rec: GameRec {
            moves,
            width,
            height,
            winner,
            flags: replayed.flags() | if stripped { FLAG_SKELETON } else { 0 },
            duplicate_of: u32::MAX,
            ..GameRec::default()
        },
        ops: StoredOps::new(ops),
        occupancy: replayed.occupancy,
        positions: replayed.positions,
        corners,
        vacated: replayed.vacated,
        exact_signature,
        canonical_signature,
        record: skeleton.unwrap_or_else(|| record.to_vec()),
        lines: Vec::new(),
        lines_left: 0,
        evals: None,
        notes,
    }
}

/// A move the engine refused, as a replay's note; its offset is that of the move's value
/// (`values`, by move), or 0 where the move has none.
fn engine_note(m: IrregularMove, values: &[usize]) -> goban::Note {
    goban::Note {
        moves: m.moves as usize,
        offset: values
            .get(m.moves as usize)
            .copied()
            .filter(|&at| at != usize::MAX)
            .unwrap_or(0),
        kind: goban::NoteKind::Move(m.color, m.point, m.flags),
    }
}

/// Each time one of a program's corner squares came to hold a content with few stones
/// ([`goban::corner`]): its key, the position, the corner, the key's orientation and the move
/// played next. The positions are those the search sees (its `changes`, or the [`Walker`] where
/// setup stands beside moves), so a corner the search can find is a corner the index keyed, at
/// the position the search would report. A corner whose points changed but whose content is the
/// one it held at the last position did not come to hold it: no event. Each corner's key is
/// kept up to date stone by stone and read only at a position where one of its points changed.
fn corners_of(ops: &[u16], width: u8, height: u8, marks: bool) -> Vec<(u64, CornerEvent)> {
    if !corner::has_corners(width, height) {
        return Vec::new();
    }
    if marks {
        return corners_walked(ops, width, height);
    }
    // Room for a game's events at once, not grown from nothing by doubling (BENCHMARKS.md,
    // Indexing: corner events: room at once, effects from a table).
    let mut events = Vec::with_capacity(EVENTS_A_GAME);
    let mut corners = Corners::default();
    let mut k = 0;
    // The kind's effect from a table, not a match on it: a loop over every op of every game
    // indexed, where moves and removals interleave.
    for &v in ops {
        let (mover, content) = KIND_EFFECT[usize::from(v >> KIND_SHIFT)];
        let point = usize::from(v & POINT_MASK);
        let p = Raw::point_at(point);
        let on_board = p.x < width && p.y < height && point < POINT_MASK as usize;
        if mover.is_some() {
            // Position k ends just before the (k+1)-th move: this one, as the op stores it
            // (a point off the board played as a pass).
            let next = if on_board { v } else { v | POINT_MASK };
            corners.read(k, next, &mut events);
            k += 1;
        }
        if on_board {
            corners.put(p, content, width, height);
        }
    }
    corners.read(k, NO_NEXT, &mut events);
    events
}

/// Room kept for a game's corner events: a little more than a game has on average
/// (DESIGN-index.md, Patterns, gives the average).
const EVENTS_A_GAME: usize = 32;

/// [`corners_of`] for a program with marks, through the [`Walker`].
fn corners_walked(ops: &[u16], width: u8, height: u8) -> Vec<(u64, CornerEvent)> {
    let mut events = Vec::new();
    let Ok(mut walk) = Walker::new(ops, width, height, false) else {
        return events;
    };
    let mut held = [None; 4];
    loop {
        let mut dirty = 0u8;
        let Some(step) = walk.next_position(|p| {
            if let Some((c, _, _)) = corner::locate(p, width, height) {
                dirty |= 1 << c;
            }
        }) else {
            break;
        };
        let next = crate::encode::ops::next_code(step.next);
        while dirty != 0 {
            let c = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let (black, white) = (walk.stones(Color::Black), walk.stones(Color::White));
            let content = corner::content(black, white, width, height, c);
            event(&mut held[c], content, step.k, c, next, &mut events);
        }
    }
    events
}

/// At position `k`, corner `c`, which last held the keyed content `held` (its hash in the frame;
/// `None` for a content not keyed), holds `content` (`None`: too many stones to key): an event
/// if that is a keyed content other than the one held.
#[inline]
fn event(
    held: &mut Option<u64>,
    content: Option<corner::KeyBuilder>,
    k: u32,
    c: usize,
    next: u16,
    out: &mut Vec<(u64, CornerEvent)>,
) {
    let keyed = content.and_then(|b| b.oriented().map(|o| (b.hashes().0, o)));
    let now = keyed.map(|(plain, _)| plain);
    if now == *held {
        return;
    }
    *held = now;
    if let Some((_, (key, transposed))) = keyed {
        out.push((
            key,
            CornerEvent {
                game: 0,
                k,
                corner: c as u8,
                transposed,
                next,
            },
        ));
    }
}

/// The four corner squares followed stone by stone.
struct Corners {
    /// Each point's content, by corner and `j * SIDE + i`: 0 empty, 1 black, 2 white.
    content: [[u8; (corner::SIDE * corner::SIDE) as usize]; 4],
    keys: [corner::KeyBuilder; 4],
    /// The keyed content each corner held at the last position it was read (see [`event`]).
    held: [Option<u64>; 4],
    /// Corners changed since the last position.
    dirty: u8,
}

impl Default for Corners {
    fn default() -> Self {
        Corners {
            content: [[0; (corner::SIDE * corner::SIDE) as usize]; 4],
            keys: [corner::KeyBuilder::default(); 4],
            held: [None; 4],
            dirty: 0,
        }
    }
}

impl Corners {
    #[inline]
    fn put(&mut self, p: goban::Point, content: Option<Color>, width: u8, height: u8) {
        let Some((c, i, j)) = corner::locate(p, width, height) else {
            return;
        };
        let cell = &mut self.content[c][(j * corner::SIDE + i) as usize];
        let new = content.map_or(0, |c| c as u8 + 1);
        if *cell == new {
            return;
        }
        let key = &mut self.keys[c];
        match *cell {
            1 => key.remove(Color::Black, i, j),
            2 => key.remove(Color::White, i, j),
            _ => {}
        }
        if let Some(colour) = content {
            key.add(colour, i, j);
        }
        *cell = new;
        self.dirty |= 1 << c;
    }

    /// At position `k`, from which `next` was played: the events of the corners changed since
    /// the last position.
    #[inline]
    fn read(&mut self, k: u32, next: u16, out: &mut Vec<(u64, CornerEvent)>) {
        while self.dirty != 0 {
            let c = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let keys = self.keys[c];
            // More stones than keyed read as no content, as `corner::content` says.
            let content = (keys.stones() <= corner::MAX_STONES).then_some(keys);
            event(&mut self.held[c], content, k, c, next, out);
        }
    }
}

/// Signatures of a main line: of the ops as they are, and of their image under the symmetry
/// that makes the line least (op by op, as a sequence of encoded ops). Every copy of a game up
/// to rotation/reflection has the same least image, so they share the second signature.
///
/// The least image is found first, by following each symmetry's image op by op and dropping the
/// ones that compare greater; all but one are usually gone after a move or two. Only two chains
/// are then hashed (identity and the least image) instead of one per symmetry, since hashing all
/// eight showed in a build's profile (BENCHMARKS.md, Indexing: canonical signature from the
/// least image). Images still tied at the end are the same sequence, so
/// whichever is taken hashes the same.
fn signatures(ops: &[u16], width: u8, height: u8) -> (u64, u64) {
    let syms = Symmetry::of_board(width, height);
    let maps = point_maps(width, height);
    let identity = syms
        .iter()
        .position(|&s| s == Symmetry::Identity)
        .unwrap_or(0);
    let least = least_image(ops, &maps[..syms.len()]);
    let seed = mix(0x9e37_79b9_7f4a_7c15 ^ ((width as u64) << 8 | height as u64));
    let exact = chain(ops, &maps[identity], seed);
    let canonical = if least == identity {
        exact
    } else {
        chain(ops, &maps[least], seed)
    };
    (exact, canonical)
}

/// The image of an op under a symmetry's point map (passes and off-board points unchanged).
#[inline(always)]
fn image(v: u16, map: &[u16]) -> u16 {
    let point = (v & POINT_MASK) as usize;
    v & !POINT_MASK | map.get(point).copied().unwrap_or(point as u16)
}

/// The index in `maps` of a symmetry whose image of the (non-derived) ops is least.
fn least_image(ops: &[u16], maps: &[Vec<u16>]) -> usize {
    // Bit i: symmetry i is still among the least.
    let mut alive: u32 = (1 << maps.len()) - 1;
    for &v in ops {
        if alive & (alive - 1) == 0 {
            break;
        }
        if Op::is_derived(v) {
            continue;
        }
        let mut best = u16::MAX;
        let mut at_best = 0u32;
        for (i, map) in maps.iter().enumerate() {
            if alive >> i & 1 == 0 {
                continue;
            }
            let t = image(v, map);
            if t < best {
                (best, at_best) = (t, 1 << i);
            } else if t == best {
                at_best |= 1 << i;
            }
        }
        alive = at_best;
    }
    alive.trailing_zeros() as usize
}

/// The hash of the (non-derived) ops' image under `map`: ops packed four to a word, each word
/// mixed in, the op count last (so padding stays apart).
fn chain(ops: &[u16], map: &[u16], seed: u64) -> u64 {
    let mut acc = seed;
    let mut word = 0u64;
    let mut n = 0u64;
    for &v in ops {
        // Marks and removals follow from the rest.
        if Op::is_derived(v) {
            continue;
        }
        word = word << 16 | image(v, map) as u64;
        n += 1;
        if n.is_multiple_of(4) {
            acc = mix(acc ^ std::mem::take(&mut word));
        }
    }
    mix(mix(acc ^ word) ^ n)
}

/// For each symmetry of a `width`×`height` board (in [`Symmetry::of_board`] order), the image of
/// every on-board op point index (`y * 52 + x`); other indices (passes, off-board points) are not
/// in the table and keep their value. Built once for 19×19.
fn point_maps(width: u8, height: u8) -> std::borrow::Cow<'static, [Vec<u16>]> {
    static NINETEEN: std::sync::OnceLock<Vec<Vec<u16>>> = std::sync::OnceLock::new();
    let build = || -> Vec<Vec<u16>> {
        Symmetry::of_board(width, height)
            .iter()
            .map(|&s| {
                let mut map: Vec<u16> = (0..height as u16 * POINT_STRIDE).collect();
                for y in 0..height {
                    for x in 0..width {
                        let t = s.apply(goban::Point::new(x, y), width, height);
                        map[point_index(x, y) as usize] = point_index(t.x, t.y);
                    }
                }
                map
            })
            .collect()
    };
    if (width, height) == (19, 19) {
        std::borrow::Cow::Borrowed(NINETEEN.get_or_init(build))
    } else {
        std::borrow::Cow::Owned(build())
    }
}

/// splitmix64's finaliser: a cheap, well-spread mixing step.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf::Records;

    fn analysed(s: &str) -> Analysed {
        let r = Records::read(s.as_bytes());
        let t = r.game(0).unwrap();
        analyse(&t, &s.as_bytes()[t.span().start..t.span().end])
    }

    #[test]
    fn signatures_see_exact_and_symmetric_copies() {
        let a = analysed("(;SZ[19];B[pd];W[dp];B[pp])");
        let b = analysed("(;SZ[19]PB[other];B[pd];W[dp];B[pp])");
        let rotated = analysed("(;SZ[19];B[dd];W[pp];B[dp])");
        let other = analysed("(;SZ[19];B[pd];W[dp];B[qq])");
        assert_eq!(a.exact_signature, b.exact_signature);
        assert_ne!(a.exact_signature, rotated.exact_signature);
        assert_eq!(a.canonical_signature, rotated.canonical_signature);
        assert_ne!(a.canonical_signature, other.canonical_signature);
    }

    /// The game `moves` (SGF points, Black first) under `s` on a `w`×`h` board.
    fn transformed(moves: &[&str], s: Symmetry, w: u8, h: u8) -> String {
        let mut out = format!(
            "(;SZ[{}]",
            if w == h {
                w.to_string()
            } else {
                format!("{w}:{h}")
            }
        );
        for (i, m) in moves.iter().enumerate() {
            let p = goban::Point::parse_sgf(m.as_bytes()).unwrap();
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            out += &format!(";{colour}[{}]", s.apply(p, w, h).sgf_string());
        }
        out + ")"
    }

    #[test]
    fn every_image_of_a_game_has_its_canonical_signature() {
        // Openings that stay symmetric for a while (tengen, then the diagonal) keep several
        // images tied; the last game differs from the first in its last move only.
        let games: [(&[&str], u8, u8); 4] = [
            (&["pd", "dp", "pp", "dd", "qf", "nc"], 19, 19),
            (&["jj", "dd", "pp", "dp", "pd", "cq"], 19, 19),
            (&["jj", "kk", "ii", "ll", "hh", "mm", "ab"], 19, 19),
            (&["bb", "cc", "ab", "ea"], 7, 5),
        ];
        let mut seen = Vec::new();
        for (moves, w, h) in games {
            let base = analysed(&transformed(moves, Symmetry::Identity, w, h));
            for &s in Symmetry::of_board(w, h) {
                let image = analysed(&transformed(moves, s, w, h));
                assert_eq!(
                    image.canonical_signature, base.canonical_signature,
                    "{moves:?} under {s:?}"
                );
            }
            seen.push(base.canonical_signature);
        }
        let other = analysed(&transformed(
            &["jj", "kk", "ii", "ll", "hh", "mm", "ac"],
            Symmetry::Identity,
            19,
            19,
        ));
        seen.push(other.canonical_signature);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 5, "distinct games keep distinct signatures");
    }

    #[test]
    fn occupancy_holds_every_stone_put_by_a_move_or_setup() {
        use goban::{Color, Point};
        let mut ops = Vec::new();
        let mut expected = Occupancy::default();
        for y in 0..52u8 {
            for x in 0..52u8 {
                let p = Point::new(x, y);
                let (c, op) = match (x as usize * 7 + y as usize * 3) % 6 {
                    0 => (Some(Color::Black), Op::Move(Color::Black, Some(p))),
                    1 => (Some(Color::White), Op::Move(Color::White, Some(p))),
                    2 => (Some(Color::Black), Op::Setup(Some(Color::Black), p)),
                    3 => (Some(Color::White), Op::Setup(Some(Color::White), p)),
                    4 => (None, Op::Setup(None, p)),
                    _ => (None, Op::Remove(p)),
                };
                if let Some(c) = c {
                    expected.insert(c, p);
                }
                ops.push(op.encode());
            }
        }
        ops.extend([Op::Move(Color::Black, None).encode(), Op::Mark.encode()]);
        assert_eq!(crate::encode::occupancy::stones_of(&ops).0, expected);
        assert_ne!(expected, Occupancy::default());
    }

    #[test]
    fn early_positions_are_hashed_and_occupancy_recorded() {
        let g = analysed("(;SZ[19]RE[W+R];B[aa];W[ba];B[ss])");
        assert_eq!(
            g.positions.iter().map(|p| p.1).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        assert_eq!(g.rec.winner, 2);
        assert_eq!(g.rec.moves, 3);
        assert_eq!(g.occupancy.0[0][0] & 1, 1);
        assert_eq!(g.occupancy.0[1][0] & 2, 2);
        assert_eq!(g.occupancy.0[0][5] >> (360 - 320), 1);
    }

    #[test]
    fn corners_followed_stone_by_stone_agree_with_the_walker() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
        let mut keyed = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "sgf") {
                continue;
            }
            let bytes = std::fs::read(path).unwrap();
            let records = Records::read(&bytes);
            for t in (0..records.len()).filter_map(|i| records.game(i).ok()) {
                let a = analyse(&t, &bytes[t.span().start..t.span().end]);
                let ops = a.ops.decode();
                let (w, h) = (a.rec.width, a.rec.height);
                assert_eq!(a.corners, corners_walked(&ops, w, h));
                keyed += a.corners.len();
            }
        }
        assert!(keyed > 20, "{keyed}");
        // Setup beside a move puts marks in the program: the walked path, which must see the
        // corner the setup filled with the move beside it, at position 2, not 1.
        let a = analysed("(;SZ[19];B[dd];AW[cc]W[qq];B[cd])");
        let ops = a.ops.decode();
        assert_eq!(a.corners, corners_walked(&ops, 19, 19));
        // A lone stone is not keyed: dd+cc at position 2, dd+cc+cd at 3.
        let at: Vec<(u32, u8)> = a.corners.iter().map(|(_, e)| (e.k, e.corner)).collect();
        assert_eq!(at, [(2, 0), (3, 0)]);
    }
}
