//! A game's main line as a compact program of 2-byte operations, and the replayer that runs it.
//!
//! Search verifies hits and builds continuation tables by replaying games, so the store keeps each
//! main line in the smallest form that replays exactly: one `u16` per move or setup stone. A move
//! op stands for the position before it. Setup may sit in any node (the Fox archives put it in
//! thousands of non-root nodes), and position k excludes the setup of the node holding move k+1,
//! so such a node starts with MARKs, one per move: the replayer then reports position k at the
//! mark instead. After each move come REMOVE ops for the stones it took off (computed once, when
//! the game is indexed), so that a search can follow the stones without the rules ([`Walker`]).
//!
//! Layout of an op (constants in [`crate::store::layout::op`]): the top 3 bits are the kind, the low
//! 13 bits the point `y * 52 + x` (8191 for a pass or a malformed point, played as a pass).

use goban::{Bitboard, Board, BoardSizeError, Color, MoveOutcome, Point, Position};
use sgf::{ids, value, GameTree};

use crate::store::layout::op::{point_index, KIND_SHIFT, NO_POINT, POINT_MASK, POINT_STRIDE};

/// What an op does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Move(Color, Option<Point>),
    Setup(Option<Color>, Point),
    /// A move node starts here: the position before it is position k.
    Mark,
    /// The move before took the stone on this point off the board (a capture, or suicide).
    /// Redundant for the engine, which computes it; it lets [`Walker`] skip the rules.
    Remove(Point),
}

impl Op {
    #[inline]
    pub fn encode(self) -> u16 {
        let (kind, p) = match self {
            Op::Move(Color::Black, p) => (0, p),
            Op::Move(Color::White, p) => (1, p),
            Op::Setup(Some(Color::Black), p) => (2, Some(p)),
            Op::Setup(Some(Color::White), p) => (3, Some(p)),
            Op::Setup(None, p) => (4, Some(p)),
            Op::Mark => (5, None),
            Op::Remove(p) => (6, Some(p)),
        };
        let point = p.map_or(NO_POINT, |p| point_index(p.x, p.y));
        (kind << KIND_SHIFT) | point
    }

    /// Whether the encoded op only restates what the others imply (a mark or a removal).
    #[inline]
    pub fn is_derived(v: u16) -> bool {
        matches!(v >> KIND_SHIFT, 5 | 6)
    }

    /// Whether the encoded op decodes as [`Op::Mark`] (kind 5, and the unused kind 7).
    #[inline]
    fn is_mark(v: u16) -> bool {
        matches!(v >> KIND_SHIFT, 5 | 7)
    }

    #[inline]
    pub fn decode(v: u16) -> Op {
        let raw = v & POINT_MASK;
        let p = (raw != NO_POINT)
            .then(|| Point::new((raw % POINT_STRIDE) as u8, (raw / POINT_STRIDE) as u8));
        match v >> KIND_SHIFT {
            0 => Op::Move(Color::Black, p),
            1 => Op::Move(Color::White, p),
            2 => Op::Setup(Some(Color::Black), p.unwrap_or(Point::new(0, 0))),
            3 => Op::Setup(Some(Color::White), p.unwrap_or(Point::new(0, 0))),
            4 => Op::Setup(None, p.unwrap_or(Point::new(0, 0))),
            6 => Op::Remove(p.unwrap_or(Point::new(0, 0))),
            _ => Op::Mark,
        }
    }
}

/// What an op does to its point, read without decoding the point: for scans that follow only
/// the points they watch, through a table indexed by [`Raw::point`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawKind {
    /// A move (a position is reported before it): puts a stone of this colour.
    Move(Color),
    /// Setup or removal: puts this content.
    Put(Option<Color>),
    Mark,
}

/// For each kind of op (`v >> KIND_SHIFT`, as [`Raw::split`] reads it): the colour that moves
/// (`None` for setup, a removal or a mark) and what the point holds afterwards (`None` for a
/// mark too). A loop over many ops reads these from the table instead of branching on the kind,
/// which the processor mispredicts as moves and captures interleave.
pub const KIND_EFFECT: [(Option<Color>, Option<Color>); 8] = [
    (Some(Color::Black), Some(Color::Black)),
    (Some(Color::White), Some(Color::White)),
    (None, Some(Color::Black)),
    (None, Some(Color::White)),
    (None, None),
    (None, None),
    (None, None),
    (None, None),
];

/// The change op `v` makes to the board (a mark makes none: (None, None)), read through
/// [`KIND_EFFECT`] without a branch on its kind.
#[inline(always)]
pub fn change(v: u16) -> model::Change {
    let (mover, content) = KIND_EFFECT[usize::from(v >> KIND_SHIFT)];
    model::Change {
        mover,
        content,
        point: usize::from(v & POINT_MASK),
    }
}

/// The next-move code of a position ([`crate::PosEntry::next`], a corner event's, a replay
/// step's): the move's op, or [`crate::NO_NEXT`] when none followed.
#[inline]
pub fn next_code(next: Option<(Color, Option<Point>)>) -> u16 {
    next.map_or(crate::NO_NEXT, |(c, p)| Op::Move(c, p).encode())
}

/// The move a next-move code stands for: colour and point (`None` for a pass); `None` for
/// [`crate::NO_NEXT`] or a code that is not a move.
#[inline]
pub fn next_move(code: u16) -> Option<(Color, Option<Point>)> {
    match (code != crate::NO_NEXT).then(|| Op::decode(code)) {
        Some(Op::Move(c, p)) => Some((c, p)),
        _ => None,
    }
}

/// A program's moves in order: colour and point (`None` for a pass).
pub fn moves(program: &[u16]) -> impl Iterator<Item = (Color, Option<Point>)> + '_ {
    program.iter().filter_map(|&v| match Op::decode(v) {
        Op::Move(c, p) => Some((c, p)),
        _ => None,
    })
}

/// An op split into its kind and its point index.
#[derive(Clone, Copy, Debug)]
pub struct Raw {
    pub kind: RawKind,
    /// `y * 52 + x` (below `height * 52` on the board), or a larger value for a pass or a
    /// malformed point.
    pub point: usize,
}

impl Raw {
    #[inline(always)]
    pub fn split(v: u16) -> Raw {
        let kind = match v >> KIND_SHIFT {
            0 => RawKind::Move(Color::Black),
            1 => RawKind::Move(Color::White),
            2 => RawKind::Put(Some(Color::Black)),
            3 => RawKind::Put(Some(Color::White)),
            4 | 6 => RawKind::Put(None),
            _ => RawKind::Mark,
        };
        Raw {
            kind,
            point: (v & POINT_MASK) as usize,
        }
    }

    /// The index of `p` in a table indexed by [`Raw::point`].
    #[inline]
    pub fn index_of(p: Point) -> usize {
        point_index(p.x, p.y) as usize
    }

    /// The point at an index (meaningful for indices of points on the board).
    #[inline]
    pub fn point_at(i: usize) -> Point {
        let stride = POINT_STRIDE as usize;
        Point::new((i % stride) as u8, (i / stride) as u8)
    }
}

/// Encodes the main line of `tree` (setup, then the move, node by node) into `out`.
/// Returns the number of moves.
pub fn encode_main_line(tree: &GameTree<'_>, out: &mut Vec<u16>) -> u32 {
    encode_main_line_at(tree, out, &mut Vec::new())
}

/// [`encode_main_line`], also pushing to `values`, for each move op in program order, the
/// offset in the file of the move's value (`usize::MAX` when it has none): what
/// [`crate::encode::skeleton`] needs to take the moves out of the record text.
pub fn encode_main_line_at(
    tree: &GameTree<'_>,
    out: &mut Vec<u16>,
    values: &mut Vec<usize>,
) -> u32 {
    encode_line_at(tree.main_line(), tree.board_size(), out, values)
}

/// [`encode_main_line_at`], also pushing to `notes` what of the moves the program cannot keep
/// as written: a value that is not a point (encoded as a pass) and a node holding both a `B`
/// and a `W` move, as [`goban::replay_main_line`] notes them. (What the engine refuses, a move
/// off the board or against a rule, the replay says: [`with_removals_into`].)
pub fn encode_main_line_noting(
    tree: &GameTree<'_>,
    out: &mut Vec<u16>,
    values: &mut Vec<usize>,
    notes: &mut Vec<goban::Note>,
) -> u32 {
    encode_nodes(
        tree.main_line(),
        tree.board_size(),
        out,
        values,
        Some(notes),
    )
}

/// [`encode_main_line_at`] for any line of a tree: `nodes` from the root down, on a `w`×`h`
/// board (a variation line, see [`crate::encode::variations`]).
pub fn encode_line_at<'t, 'a: 't>(
    nodes: impl Iterator<Item = sgf::Node<'t, 'a>>,
    (w, h): (u8, u8),
    out: &mut Vec<u16>,
    values: &mut Vec<usize>,
) -> u32 {
    encode_nodes(nodes, (w, h), out, values, None)
}

/// [`encode_line_at`], with the notes of [`encode_main_line_noting`] when `notes` is given.
fn encode_nodes<'t, 'a: 't>(
    nodes: impl Iterator<Item = sgf::Node<'t, 'a>>,
    (w, h): (u8, u8),
    out: &mut Vec<u16>,
    values: &mut Vec<usize>,
    mut notes: Option<&mut Vec<goban::Note>>,
) -> u32 {
    let mut moves = 0;
    let mut pts = Vec::new();
    for node in nodes {
        // Most nodes are one move and nothing else.
        if let Some((color, prop)) = node.lone_move() {
            if !push_move(color, prop, (w, h), out, values) {
                note_malformed(&mut notes, moves, node.offset(), color, prop);
            }
            moves += 1;
            continue;
        }
        // One pass over the node's properties: its moves, and whether it has setup at all
        // (rare outside the root).
        let (mut b, mut wm, mut has_setup) = (None, None, false);
        for prop in node.props() {
            let id = prop.id();
            if id == ids::B {
                b = b.or(Some(prop));
            } else if id == ids::W {
                wm = wm.or(Some(prop));
            } else if id == ids::AB || id == ids::AW || id == ids::AE {
                has_setup |= prop.raw_values().next().is_some();
            }
        }
        // A move op stands for the position before it. Only when the node also holds setup
        // (which position k must not include), or two moves, are the positions marked
        // explicitly: one mark per move, before the node's setup.
        let n_moves = b.is_some() as usize + wm.is_some() as usize;
        if n_moves == 2 {
            if let Some(notes) = notes.as_deref_mut() {
                notes.push(goban::Note {
                    moves: moves as usize,
                    offset: node.offset(),
                    kind: goban::NoteKind::BothColors,
                });
            }
        }
        if n_moves == 2 || (n_moves == 1 && has_setup) {
            for _ in 0..n_moves {
                out.push(Op::Mark.encode());
            }
        }
        if has_setup {
            for (content, raw) in node.setup_values() {
                pts.clear();
                value::point_list(raw, &mut pts);
                out.extend(pts.iter().map(|&pt| Op::Setup(content, pt).encode()));
            }
        }
        for (prop, color) in [(b, Color::Black), (wm, Color::White)] {
            if let Some(prop) = prop {
                if !push_move(color, prop, (w, h), out, values) {
                    note_malformed(&mut notes, moves, node.offset(), color, prop);
                }
                moves += 1;
            }
        }
    }
    moves
}

/// Pushes the move op of a `B` or `W` property (its first value; none is a pass) and that
/// value's offset in the file (`usize::MAX` when it has none).
#[inline(always)]
fn push_move(
    color: Color,
    prop: sgf::Prop<'_, '_>,
    (w, h): (u8, u8),
    out: &mut Vec<u16>,
    values: &mut Vec<usize>,
) -> bool {
    let (raw, at) = prop.raw_values().next().unwrap_or((&[], usize::MAX));
    let parsed = Point::parse_move(raw, w, h);
    let readable = parsed.is_ok();
    out.push(Op::Move(color, parsed.ok().flatten()).encode());
    values.push(at);
    readable
}

/// Notes a move whose value is not a point (encoded as a pass), when notes are taken.
fn note_malformed(
    notes: &mut Option<&mut Vec<goban::Note>>,
    moves: u32,
    offset: usize,
    color: Color,
    prop: sgf::Prop<'_, '_>,
) {
    if let Some(notes) = notes.as_deref_mut() {
        let raw = prop.raw();
        notes.push(goban::Note {
            moves: moves as usize,
            offset,
            kind: goban::NoteKind::MalformedMove(color, String::from_utf8_lossy(raw).into_owned()),
        });
    }
}

/// Walks an op program position by position, saying what each op does; what to do with a
/// board is the caller's business. One walker serves the full engine ([`Replayer`]) and the
/// stone follower ([`Walker`]), so both report exactly the same positions.
struct Cursor<'o> {
    ops: &'o [u16],
    at: usize,
    /// Positions returned so far.
    k: u32,
    /// Marks passed whose moves are still to be played.
    explicit: u32,
    /// The position before the unmarked move at `at` was reported.
    implicit_done: bool,
    done: bool,
}

/// What the next op asks for.
enum Event {
    Position(Step),
    Setup(Option<Color>, Point),
    Move(Color, Option<Point>),
    Remove(Point),
}

impl<'o> Cursor<'o> {
    fn new(ops: &'o [u16]) -> Self {
        Cursor {
            ops,
            at: 0,
            k: 0,
            explicit: 0,
            implicit_done: false,
            done: false,
        }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Event> {
        let Some(&v) = self.ops.get(self.at) else {
            return self.end();
        };
        Some(match Op::decode(v) {
            Op::Move(c, p) => {
                if self.explicit == 0 && !self.implicit_done {
                    // An unmarked move: the position before it is reported first.
                    self.implicit_done = true;
                    return Some(Event::Position(self.step(Some((c, p)))));
                }
                self.explicit = self.explicit.saturating_sub(1);
                self.implicit_done = false;
                self.at += 1;
                Event::Move(c, p)
            }
            Op::Setup(c, p) => {
                self.at += 1;
                Event::Setup(c, p)
            }
            Op::Remove(p) => {
                self.at += 1;
                Event::Remove(p)
            }
            Op::Mark => self.mark(),
        })
    }

    /// The position before the node's j-th move, at its j-th mark (rare: nodes with setup or
    /// two moves).
    #[cold]
    #[inline(never)]
    fn mark(&mut self) -> Event {
        let j = self.ops[..self.at]
            .iter()
            .rev()
            .take_while(|&&v| Op::decode(v) == Op::Mark)
            .count();
        self.at += 1;
        self.explicit += 1;
        let next = self.ops[self.at..]
            .iter()
            .filter_map(|&v| match Op::decode(v) {
                Op::Move(c, p) => Some((c, p)),
                _ => None,
            })
            .nth(j);
        Event::Position(self.step(next))
    }

    /// The final position, once.
    #[cold]
    fn end(&mut self) -> Option<Event> {
        if self.done {
            return None;
        }
        self.done = true;
        Some(Event::Position(self.step(None)))
    }

    fn step(&mut self, next: Option<(Color, Option<Point>)>) -> Step {
        let step = Step { k: self.k, next };
        self.k += 1;
        step
    }
}

/// One step of a replay: position `k` is on the board; `next` is the move that follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub k: u32,
    pub next: Option<(Color, Option<Point>)>,
}

/// Replays an op program on the full engine (captures computed, rule breaks flagged, hashes in
/// every orientation), stopping at each position. Stored [`Op::Remove`]s are redundant here.
pub struct Replayer<'o> {
    cursor: Cursor<'o>,
    board: Board,
}

impl<'o> Replayer<'o> {
    pub fn new(
        ops: &'o [u16],
        width: u8,
        height: u8,
        hashing: bool,
    ) -> Result<Self, BoardSizeError> {
        let mut board = Board::new(width, height)?;
        board.set_hashing(hashing);
        Ok(Replayer {
            cursor: Cursor::new(ops),
            board,
        })
    }

    /// The board at the last position returned by [`Replayer::next_position`].
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Advances to the next position (0, 1, …, n) and says which move follows it; `None` after
    /// the final position. `on_move` sees the outcome of each move played on the way.
    pub fn next_position(&mut self, mut on_move: impl FnMut(&MoveOutcome)) -> Option<Step> {
        loop {
            match self.cursor.next()? {
                Event::Position(step) => return Some(step),
                Event::Setup(c, p) => {
                    self.board.setup(c, p);
                }
                Event::Move(c, p) => on_move(&self.board.play(c, p)),
                Event::Remove(_) => {}
            }
        }
    }
}

/// Follows a stored program's stones without a rules engine: moves put stones, the stored
/// [`Op::Remove`]s take the captured ones off, setup does what it says. This is several times
/// cheaper than [`Replayer`] (no liberty counting, at most one hash instead of sixteen), which is
/// what a search that must look at every position of every candidate game needs. Only programs
/// that [`with_removals`] completed replay correctly.
pub struct Walker<'o> {
    cursor: Cursor<'o>,
    width: u8,
    height: u8,
    stones: [Bitboard; 2],
    /// The identity hash, kept only when asked for.
    hash: Option<u64>,
}

impl<'o> Walker<'o> {
    /// A walker over `ops` on a `width`×`height` board; with `hashing` it keeps the position's
    /// hash up to date.
    pub fn new(
        ops: &'o [u16],
        width: u8,
        height: u8,
        hashing: bool,
    ) -> Result<Self, BoardSizeError> {
        Position::new(width, height)?;
        Ok(Walker {
            cursor: Cursor::new(ops),
            width,
            height,
            stones: [Bitboard::EMPTY, Bitboard::EMPTY],
            hash: hashing.then(|| Position::empty_hash(width, height)),
        })
    }

    /// The stones of `color` at the position last returned by [`Walker::next_position`].
    pub fn stones(&self, color: Color) -> &Bitboard {
        &self.stones[color as usize]
    }

    /// Its hash, equal to [`Position::hash`] and to the engine's identity hash (0 when the walker
    /// was made without hashing).
    pub fn hash(&self) -> u64 {
        self.hash.unwrap_or(0)
    }

    /// Advances to the next position; `on_change` sees every point whose content changed on the
    /// way (a point may be seen more than once).
    #[inline]
    pub fn next_position(&mut self, mut on_change: impl FnMut(Point)) -> Option<Step> {
        loop {
            let (p, content) = match self.cursor.next()? {
                Event::Position(step) => return Some(step),
                Event::Setup(c, p) => (p, c),
                Event::Move(c, Some(p)) => (p, Some(c)),
                Event::Move(_, None) => continue,
                Event::Remove(p) => (p, None),
            };
            if p.x >= self.width || p.y >= self.height {
                continue;
            }
            let before = if self.stones[0].remove(p) {
                Some(Color::Black)
            } else if self.stones[1].remove(p) {
                Some(Color::White)
            } else {
                None
            };
            if let Some(c) = content {
                self.stones[c as usize].insert(p);
            }
            if before == content {
                continue;
            }
            if let Some(h) = &mut self.hash {
                if let Some(c) = before {
                    *h ^= Position::stone_key(c, p);
                }
                if let Some(c) = content {
                    *h ^= Position::stone_key(c, p);
                }
            }
            on_change(p);
        }
    }
}

/// Completes a program from [`encode_main_line`] for the [`Walker`]: replays it on the engine and
/// puts after each move an [`Op::Remove`] for every stone it took off (captures, or the mover's
/// own group on suicide). Also says whether any move broke a rule, and calls `at_position` at
/// every position with the engine's board, which keeps only its identity hash
/// ([`Board::hash`]) up to date.
pub fn with_removals(
    ops: &[u16],
    width: u8,
    height: u8,
    at_position: impl FnMut(&Step, &Board),
) -> (Vec<u16>, bool) {
    let mut out = Vec::new();
    let irregular = with_removals_into(ops, width, height, at_position, &mut out, &mut Vec::new());
    (out, irregular)
}

/// A move the engine could not play as written (it broke a rule or could not be placed): the
/// number of moves before it, the move and what it did. Collected by the replay that makes the
/// index's program, so that the report can say it without a second replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IrregularMove {
    /// Moves played before it (passes included).
    pub moves: u32,
    pub color: Color,
    pub point: Option<Point>,
    pub flags: goban::MoveFlags,
}

/// [`with_removals`] into `out` (cleared first), for callers that reuse one vector; each move
/// that broke a rule or could not be placed is pushed to `irregular` (left empty, so never
/// allocated, for a game without one).
pub fn with_removals_into(
    ops: &[u16],
    width: u8,
    height: u8,
    at_position: impl FnMut(&Step, &Board),
    out: &mut Vec<u16>,
    irregular: &mut Vec<IrregularMove>,
) -> bool {
    out.clear();
    let Ok(mut board) = Board::new(width, height) else {
        out.extend_from_slice(ops);
        return false;
    };
    board.set_identity_hashing();
    out.reserve(ops.len() + ops.len() / 4);
    let before = irregular.len();
    if ops.iter().any(|&v| Op::is_mark(v)) {
        removals_marked(ops, board, at_position, out, irregular);
    } else {
        removals_unmarked(ops, board, at_position, out, irregular);
    }
    irregular.len() > before
}

/// [`with_removals_into`] for a program without marks (one move per node, no setup beside a
/// move: all but a few games): each move is preceded by its position, so the ops are taken one
/// by one without the [`Cursor`]'s bookkeeping, which nearly every game would pay for nothing
/// (BENCHMARKS.md, Indexing: replay without the cursor).
fn removals_unmarked(
    ops: &[u16],
    mut board: Board,
    mut at_position: impl FnMut(&Step, &Board),
    out: &mut Vec<u16>,
    irregular: &mut Vec<IrregularMove>,
) {
    let mut k = 0;
    for &v in ops {
        out.push(v);
        match Op::decode(v) {
            Op::Move(c, p) => {
                at_position(
                    &Step {
                        k,
                        next: Some((c, p)),
                    },
                    &board,
                );
                let m = board.play(c, p);
                if !m.flags.is_empty() {
                    irregular.push(IrregularMove {
                        moves: k,
                        color: c,
                        point: p,
                        flags: m.flags,
                    });
                }
                k += 1;
                out.extend(m.removed.iter().map(|&p| Op::Remove(p).encode()));
            }
            Op::Setup(c, p) => {
                board.setup(c, p);
            }
            Op::Remove(_) | Op::Mark => {}
        }
    }
    at_position(&Step { k, next: None }, &board);
}

/// [`with_removals_into`] for any program, through the [`Cursor`].
fn removals_marked(
    ops: &[u16],
    board: Board,
    mut at_position: impl FnMut(&Step, &Board),
    out: &mut Vec<u16>,
    irregular: &mut Vec<IrregularMove>,
) {
    let mut rep = Replayer {
        cursor: Cursor::new(ops),
        board,
    };
    // Ops before `copied` are in `out`: each move is copied when it is played, its removals
    // right after it.
    let mut copied = 0;
    let mut moves = 0;
    while let Some(event) = rep.cursor.next() {
        match event {
            Event::Position(step) => at_position(&step, &rep.board),
            Event::Setup(c, p) => {
                rep.board.setup(c, p);
            }
            Event::Move(c, p) => {
                let m = rep.board.play(c, p);
                if !m.flags.is_empty() {
                    irregular.push(IrregularMove {
                        moves,
                        color: c,
                        point: p,
                        flags: m.flags,
                    });
                }
                moves += 1;
                // The cursor is past the move's op.
                out.extend_from_slice(&ops[copied..rep.cursor.at]);
                copied = rep.cursor.at;
                out.extend(m.removed.iter().map(|&p| Op::Remove(p).encode()));
            }
            Event::Remove(_) => {}
        }
    }
    out.extend_from_slice(&ops[copied..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf::Records;

    #[test]
    fn the_kind_table_says_what_split_says() {
        for kind in 0..8u16 {
            let raw = Raw::split(kind << KIND_SHIFT | 7);
            let effect = match raw.kind {
                RawKind::Move(c) => (Some(c), Some(c)),
                RawKind::Put(content) => (None, content),
                RawKind::Mark => (None, None),
            };
            assert_eq!(KIND_EFFECT[kind as usize], effect, "kind {kind}");
        }
    }

    type Seen = (
        u32,
        Vec<String>,
        Vec<String>,
        Option<(Color, Option<Point>)>,
    );

    fn positions(src: &str) -> Vec<Seen> {
        let r = Records::read(src.as_bytes());
        let t = r.game(0).unwrap();
        let mut ops = Vec::new();
        encode_main_line(&t, &mut ops);
        let (w, h) = t.board_size();
        let mut rep = Replayer::new(&ops, w, h, true).unwrap();
        let mut out = Vec::new();
        while let Some(step) = rep.next_position(|_| {}) {
            let b = rep.board();
            out.push((
                step.k,
                b.sgf_points(Color::Black),
                b.sgf_points(Color::White),
                step.next,
            ));
        }
        out
    }

    #[test]
    fn ops_round_trip() {
        for op in [
            Op::Move(Color::Black, Some(Point::new(51, 51))),
            Op::Move(Color::White, None),
            Op::Setup(Some(Color::Black), Point::new(3, 15)),
            Op::Setup(Some(Color::White), Point::new(0, 0)),
            Op::Setup(None, Point::new(18, 0)),
            Op::Mark,
            Op::Remove(Point::new(7, 51)),
        ] {
            assert_eq!(Op::decode(op.encode()), op);
        }
    }

    #[test]
    fn positions_follow_the_oracle_definition() {
        // Setup in the node of move 2 is not part of position 1; a setup-only node is.
        let p = positions("(;SZ[9]AB[aa];B[bb];AW[cc];AB[dd]W[ee];B[])");
        let pt = |s: &str| Point::parse_sgf(s.as_bytes());
        assert_eq!(p.len(), 4);
        assert_eq!(
            p[0],
            (0, vec!["aa".into()], vec![], Some((Color::Black, pt("bb"))))
        );
        assert_eq!(
            p[1],
            (
                1,
                vec!["aa".into(), "bb".into()],
                vec!["cc".into()],
                Some((Color::White, pt("ee")))
            )
        );
        assert_eq!(p[2].0, 2);
        assert_eq!(p[2].1, vec!["aa", "bb", "dd"]);
        assert_eq!(p[2].3, Some((Color::Black, None)));
        assert_eq!(p[3].0, 3);
        assert_eq!(p[3].3, None);
    }

    #[test]
    fn a_game_without_moves_has_one_position() {
        let p = positions("(;SZ[19]AB[dd][pp])");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].1, vec!["dd", "pp"]);
    }

    #[test]
    fn a_node_with_two_moves_gives_two_equal_positions() {
        let p = positions("(;B[aa]W[bb];B[cc])");
        assert_eq!(p.iter().map(|s| s.0).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert_eq!(p[0].1, p[1].1);
        assert_eq!(p[1].3, Some((Color::White, Point::parse_sgf(b"bb"))));
    }

    /// Every position the stone follower reports equals the engine's, stones and hash.
    fn walker_agrees(src: &str) {
        let r = Records::read(src.as_bytes());
        let t = r.game(0).unwrap();
        let mut ops = Vec::new();
        encode_main_line(&t, &mut ops);
        let (w, h) = t.board_size();
        let mut expected = Vec::new();
        let (full, _) = with_removals(&ops, w, h, |step, b| {
            expected.push((*step, b.position().clone(), b.hash()))
        });
        let mut walker = Walker::new(&full, w, h, true).unwrap();
        let mut seen = Vec::new();
        while let Some(step) = walker.next_position(|_| {}) {
            let mut pos = Position::new(w, h).unwrap();
            for c in [Color::Black, Color::White] {
                for p in walker.stones(c).iter() {
                    pos.set(p, Some(c));
                }
            }
            seen.push((step, pos, walker.hash()));
        }
        assert_eq!(seen, expected, "{src}");
    }

    #[test]
    fn the_walker_follows_captures_suicide_and_irregular_moves() {
        // Captures (one stone, then a group), a pass, setup in a move node.
        walker_agrees("(;SZ[5];B[ba];W[aa];B[ab];W[cc];B[];W[ca];AB[dd]B[bb];W[ac])");
        // Suicide, a move onto an occupied point, an off-board move, two moves in one node.
        walker_agrees("(;SZ[3]AB[ab][ba];W[aa];B[bb];W[bb];B[zz]W[cc];AE[bb];B[bb])");
        // A capture by setup-free ko fight on 19×19.
        walker_agrees(
            "(;SZ[19];B[pd];W[qd];B[qc];W[rc];B[qe];W[rd];B[rb];W[pc];B[qb];W[od];B[oc])",
        );
    }

    /// Both replays of [`with_removals_into`] (the general one is forced by a mark-free
    /// program's twin with a mark in front of each move) agree on the program, the flag and
    /// every position reported.
    fn paths_agree(src: &str) {
        let r = Records::read(src.as_bytes());
        let t = r.game(0).unwrap();
        let mut ops = Vec::new();
        encode_main_line(&t, &mut ops);
        assert!(!ops.iter().any(|&v| Op::is_mark(v)), "{src}");
        let (w, h) = t.board_size();
        let run = |ops: &[u16], marked: bool| {
            let mut seen = Vec::new();
            let mut out = Vec::new();
            let mut board = Board::new(w, h).unwrap();
            board.set_identity_hashing();
            let at = |step: &Step, b: &Board| seen.push((*step, b.position().clone(), b.hash()));
            let mut irregular = Vec::new();
            if marked {
                removals_marked(ops, board, at, &mut out, &mut irregular)
            } else {
                removals_unmarked(ops, board, at, &mut out, &mut irregular)
            };
            (out, irregular, seen)
        };
        let mut twin = Vec::new();
        for &v in &ops {
            if matches!(Op::decode(v), Op::Move(..)) {
                twin.push(Op::Mark.encode());
            }
            twin.push(v);
        }
        let (fast, fast_irregular, fast_seen) = run(&ops, false);
        let (general, irregular, seen) = run(&twin, true);
        let unmarked: Vec<u16> = general
            .into_iter()
            .filter(|&v| v != Op::Mark.encode())
            .collect();
        assert_eq!(fast, unmarked, "{src}");
        assert_eq!((fast_irregular, fast_seen), (irregular, seen), "{src}");
    }

    #[test]
    fn the_replay_without_marks_agrees_with_the_general_one() {
        paths_agree("(;SZ[5];B[ba];W[aa];B[ab];W[cc];B[];W[ca];B[bb];W[ac])");
        paths_agree("(;SZ[3]AB[ab][ba];W[aa];B[bb];W[bb];B[zz];W[cc];B[bb])");
        paths_agree("(;SZ[19];B[pd];W[qd];B[qc];W[rc];B[qe];W[rd];B[rb];W[pc];B[qb];W[od];B[oc])");
        paths_agree("(;SZ[19]AB[dd][pp]AW[dp];W[pd])");
        paths_agree("(;SZ[7])");
    }

    #[test]
    fn removals_follow_their_move() {
        let r = Records::read(b"(;SZ[3];B[ab];W[aa];B[ba])".as_slice());
        let t = r.game(0).unwrap();
        let mut ops = Vec::new();
        encode_main_line(&t, &mut ops);
        let (full, irregular) = with_removals(&ops, 3, 3, |_, _| {});
        assert!(!irregular);
        let decoded: Vec<Op> = full.iter().map(|&v| Op::decode(v)).collect();
        assert_eq!(
            decoded[2..],
            [
                Op::Move(Color::Black, Some(Point::new(1, 0))),
                Op::Remove(Point::new(0, 0)),
            ]
        );
    }
}
