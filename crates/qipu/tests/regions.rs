//! Pattern hits and continuation tables, computed here by brute force and compared with the
//! library's answers, for patterns chosen to take every road the pattern search has: the corner
//! table (whole 7×7 corner squares, answered from the index's corner events), the corner
//! table's candidates (a whole square and a point beside it), the scan of up to 64 placements,
//! the scan of placements slid `anywhere` (all at once, or 64 at a time), games whose main line
//! has setup beside its moves, exact copies (counted each, and once), colours swapped, a filter,
//! shapes that need no stone (appearing in many regions at once); and on an index with
//! variation lines, whose hits count from their branch points and whose rows count apart.
//!
//! The brute force shares nothing with the search crate: each game is read from its file
//! (`qipu-inputs`, `qipu-sgf`), its main line replayed on `qipu-goban`'s board (captures
//! included), and every position compared with every placement of the diagram — the 8
//! transformations (in this file's own numbering, inverted by search), the colourings, and for
//! `anywhere` every translation of the transformed diagram that keeps it on the board. A
//! placement's state only changes where one of its points does, so a position re-tests the
//! placements on the points that differ from the previous position (found by comparing the two
//! boards, not from the moves). The rules are those of `../shared/oracle/README.md`: a hit is a
//! position where some placement holds and did not at k − 1 (or k = 0); for each distinct
//! region (bounding rectangle of a placement's constrained points) among the placements that
//! appeared there, the continuation is the first move from the (k+1)-th on inside it, after
//! tenuki when it is not the (k+1)-th, mapped back into the diagram's frame (the smallest SGF
//! point over the placements of that region that appeared); without one, the hit counts in
//! `no_continuation`. Winners are read from `RE` as the oracle reads them, in the first node of
//! the main line up to the first move's that has one (SGF's game information node).
//!
//! The games are a part of `fox-pro` and the `diverse` files the oracle replayed whole (no game
//! of theirs excluded), a few exact copies, and records written here with setup between and
//! beside moves. Without the shared data this test says so and passes, unless
//! `QIPU_REQUIRE_DATASETS=1`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use goban::Board;
use qipu::rayon::prelude::*;
use qipu::{build, BuildOptions, Color, Index, Point, Query};
use sgf::{ids, value, Records};
mod common;
use common::{made_up_evals, made_up_mistakes};

/// What a diagram point asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Black,
    White,
    Empty,
    NotWhite,
    NotBlack,
    Any,
}

impl Cell {
    fn holds(self, content: u8) -> bool {
        // content: 0 empty, 1 black, 2 white
        match self {
            Cell::Black => content == 1,
            Cell::White => content == 2,
            Cell::Empty => content == 0,
            Cell::NotWhite => content != 2,
            Cell::NotBlack => content != 1,
            Cell::Any => true,
        }
    }

    fn swapped(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::NotWhite => Cell::NotBlack,
            Cell::NotBlack => Cell::NotWhite,
            c => c,
        }
    }
}

/// A diagram as the query language writes it: rows top first, blank and `#` lines skipped.
struct Diagram {
    width: u8,
    height: u8,
    cells: Vec<Cell>,
}

impl Diagram {
    fn read(text: &str) -> Diagram {
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let width = rows[0].len();
        assert!(rows.iter().all(|r| r.len() == width), "ragged diagram");
        let cells = rows
            .iter()
            .flat_map(|r| r.chars())
            .map(|c| match c {
                'X' => Cell::Black,
                'O' => Cell::White,
                '.' => Cell::Empty,
                'x' => Cell::NotWhite,
                'o' => Cell::NotBlack,
                '?' => Cell::Any,
                _ => panic!("diagram character {c:?}"),
            })
            .collect();
        Diagram {
            width: width as u8,
            height: rows.len() as u8,
            cells,
        }
    }

    fn at(&self, x: u8, y: u8) -> Cell {
        self.cells[y as usize * self.width as usize + x as usize]
    }
}

/// One of the 8 transformations of a `w`×`h` rectangle: bit 0 mirrors columns, bit 1 rows, bit
/// 2 then swaps the axes (the image is `h`×`w`).
fn turn(t: u8, (x, y): (u8, u8), w: u8, h: u8) -> (u8, u8) {
    let x = if t & 1 != 0 { w - 1 - x } else { x };
    let y = if t & 2 != 0 { h - 1 - y } else { y };
    if t & 4 != 0 {
        (y, x)
    } else {
        (x, y)
    }
}

fn image_size(t: u8, w: u8, h: u8) -> (u8, u8) {
    if t & 4 != 0 {
        (h, w)
    } else {
        (w, h)
    }
}

/// The point of a `w`×`h` rectangle that `t` takes to `p`, found by trying them all.
fn unturn(t: u8, p: (u8, u8), w: u8, h: u8) -> (u8, u8) {
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .find(|&q| turn(t, q, w, h) == p)
        .expect("a transformation is a bijection")
}

/// A bounding rectangle, both corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Rect {
    x0: u8,
    y0: u8,
    x1: u8,
    y1: u8,
}

impl Rect {
    fn holds(&self, (x, y): (u8, u8)) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }
}

/// A placement of the diagram on the board.
struct Placement {
    /// Board points (`y * width + x`) with what they must hold.
    cells: Vec<(usize, Cell)>,
    rect: Rect,
    /// The transformation, whether colours are swapped, and for `anywhere` where the image's
    /// top-left corner lies (`None` for an anchored diagram, whose frame is the board).
    turn: u8,
    swapped: bool,
    offset: Option<(u8, u8)>,
}

/// A query as the brute force answers it, with the library's query beside.
struct Probe {
    name: &'static str,
    board: (u8, u8),
    diagram: Diagram,
    placements: Vec<Placement>,
    /// The placements constraining each board point.
    on_point: Vec<Vec<usize>>,
    query: Query,
    /// Only these games count (index numbers), as [`Query::within`].
    within: Option<HashSet<u32>>,
    /// Whether exact copies count once in the table (the first in the answer), as they do
    /// unless [`Query::with_copies`].
    copies_once: bool,
}

struct Spec {
    name: &'static str,
    text: &'static str,
    board: u8,
    place: (u8, u8),
    anywhere: bool,
    symmetry: bool,
    swap: bool,
}

const SPEC: Spec = Spec {
    name: "",
    text: "",
    board: 19,
    place: (0, 0),
    anywhere: false,
    symmetry: true,
    swap: false,
};

impl Probe {
    fn new(s: &Spec) -> Probe {
        let d = Diagram::read(s.text);
        // A diagram larger than the board in a direction makes the board that large.
        let (bw, bh) = (s.board.max(d.width), s.board.max(d.height));
        // Anchored on a rectangle, only the four turns that keep its shape; a diagram slid
        // anywhere is turned on its own.
        let turns: Vec<u8> = match (s.symmetry, s.anywhere || bw == bh) {
            (false, _) => vec![0],
            (true, true) => (0..8).collect(),
            (true, false) => (0..4).collect(),
        };
        let mut placements = Vec::new();
        for swapped in [false, true] {
            if swapped && !s.swap {
                continue;
            }
            for &t in &turns {
                let constrained = (0..d.height)
                    .flat_map(|y| (0..d.width).map(move |x| (x, y)))
                    .filter(|&(x, y)| d.at(x, y) != Cell::Any);
                let cell = |(x, y): (u8, u8)| {
                    let c = d.at(x, y);
                    if swapped {
                        c.swapped()
                    } else {
                        c
                    }
                };
                let mut add = |points: Vec<((u8, u8), Cell)>, offset| {
                    let xs = points.iter().map(|p| p.0 .0);
                    let ys = points.iter().map(|p| p.0 .1);
                    let rect = Rect {
                        x0: xs.clone().min().unwrap(),
                        x1: xs.max().unwrap(),
                        y0: ys.clone().min().unwrap(),
                        y1: ys.max().unwrap(),
                    };
                    placements.push(Placement {
                        cells: points
                            .iter()
                            .map(|&((x, y), c)| (y as usize * bw as usize + x as usize, c))
                            .collect(),
                        rect,
                        turn: t,
                        swapped,
                        offset,
                    });
                };
                if s.anywhere {
                    let (tw, th) = image_size(t, d.width, d.height);
                    if tw > bw || th > bh {
                        continue;
                    }
                    for oy in 0..=bh - th {
                        for ox in 0..=bw - tw {
                            let points = constrained
                                .clone()
                                .map(|p| {
                                    let (x, y) = turn(t, p, d.width, d.height);
                                    ((x + ox, y + oy), cell(p))
                                })
                                .collect();
                            add(points, Some((ox, oy)));
                        }
                    }
                } else {
                    let points = constrained
                        .map(|p| (turn(t, (p.0 + s.place.0, p.1 + s.place.1), bw, bh), cell(p)))
                        .collect();
                    add(points, None);
                }
            }
        }
        let mut on_point = vec![Vec::new(); bw as usize * bh as usize];
        for (i, pl) in placements.iter().enumerate() {
            for &(p, _) in &pl.cells {
                on_point[p].push(i);
            }
        }
        let query = Query::pattern(s.text)
            .unwrap()
            .board_size(s.board)
            .place(s.place.0, s.place.1)
            .anywhere(s.anywhere)
            .symmetry(s.symmetry)
            .swap_colors(s.swap)
            .with_copies(true);
        Probe {
            name: s.name,
            board: (bw, bh),
            diagram: d,
            placements,
            on_point,
            query,
            within: None,
            copies_once: false,
        }
    }

    /// A move at board point `p` by `color`, seen through placement `pl`: in the diagram's
    /// frame and colours.
    fn back(&self, pl: &Placement, color: Color, p: (u8, u8)) -> (Color, (u8, u8)) {
        let color = if pl.swapped { color.opponent() } else { color };
        let p = match pl.offset {
            None => unturn(pl.turn, p, self.board.0, self.board.1),
            Some((ox, oy)) => {
                let (w, h) = (self.diagram.width, self.diagram.height);
                let (tw, th) = image_size(pl.turn, w, h);
                let local = (p.0 - ox, p.1 - oy);
                assert!(local.0 < tw && local.1 < th, "a region lies in its image");
                unturn(pl.turn, local, w, h)
            }
        };
        (color, p)
    }
}

/// A game as read from its file: the positions of its main line (one byte a point: 0 empty, 1
/// black, 2 white) and its moves.
struct Game {
    id: u32,
    board: (u8, u8),
    winner: u8,
    positions: Vec<Vec<u8>>,
    moves: Vec<(Color, Option<(u8, u8)>)>,
    /// Whether some setup comes in or after the node of the first move.
    late_setup: bool,
    /// For a variation line, the position it answers from.
    line: Option<u32>,
    /// A hash of the board, moves and positions: exact copies share it.
    key: u64,
}

/// The winner by the oracle's reading of `RE`: 1 Black, 2 White, 0 neither.
fn winner(re: &str) -> u8 {
    let re = re.trim();
    let b = re.as_bytes();
    if b.len() >= 2 && b[1] == b'+' {
        return match b[0] {
            b'B' | b'b' => 1,
            b'W' | b'w' => 2,
            _ => 0,
        };
    }
    let colour = re.char_indices().find_map(|(i, c)| match c {
        '黑' | '黒' | '흑' => Some((i + c.len_utf8(), 1)),
        '白' | '백' => Some((i + c.len_utf8(), 2)),
        _ => None,
    });
    let Some((after, colour)) = colour else {
        return 0;
    };
    let word = re[after..].chars().find_map(|c| match c {
        '胜' | '勝' | '승' => Some(true),
        '负' | '負' | '敗' | '패' => Some(false),
        _ => None,
    });
    match word {
        Some(true) => colour,
        Some(false) => 3 - colour,
        None => 0,
    }
}

/// Mistakes from the probe's pattern (`Query::and_mistakes`): the moves its rows count (the
/// brute force's `continued`) whose mover lost at least each threshold by [`made_up`]'s numbers,
/// every one and in the order of its loss.
fn compare_mistakes(
    mistakes: &dyn Fn(&Query) -> qipu::MistakesAnswer,
    games: &[Game],
    probe: &Probe,
    continued: &BTreeSet<(u32, u32)>,
    failures: &mut Vec<String>,
) {
    let by_id: HashMap<u32, &Game> = games.iter().map(|g| (g.id, g)).collect();
    let name = probe.name;
    for words in ["40%", "15pt", "20%,5pt"] {
        let loss: qipu::LossThreshold = words.parse().unwrap();
        let mut want = made_up_mistakes(
            continued
                .iter()
                .map(|&(id, j)| (id, by_id[&id].moves.as_slice(), j)),
            loss,
        );
        // Largest loss first, then by game and move.
        want.sort_by_key(|&(id, k, loss)| (-loss, id, k));
        let query = probe
            .query
            .clone()
            .and_mistakes(qipu::Mistakes::new(loss).unwrap());
        let answer = mistakes(&query);
        let got: Vec<(u32, u32)> = answer
            .hits
            .iter()
            .map(|h| (h.game, h.move_number))
            .collect();
        let want: Vec<(u32, u32)> = want.iter().map(|&(g, k, _)| (g, k)).collect();
        if answer.total as usize != want.len() || got != want {
            let differ: Vec<_> = got
                .iter()
                .zip(&want)
                .filter(|(a, b)| a != b)
                .take(3)
                .collect();
            failures.push(format!(
                "{name} mistakes {words}: search {} hits, brute force {}; first differences \
                 (search, brute force) {differ:?}",
                answer.total,
                want.len()
            ));
        }
        // Dozens of rows' moves, a quarter of whose losses pass 40%: some must hit.
        if want.is_empty() && continued.len() >= 40 {
            failures.push(format!(
                "{name} mistakes {words}: nothing to find tests nothing"
            ));
        }
    }
}

/// Replays the main line of game `i` of `bytes`: position k is the board after every node
/// before the one holding the (k+1)-th move (setup, then the move, in each node).
/// `path` chooses the line: (node depth, child) where it leaves the first child (the main line
/// has none); a variation line answers from its branch point on, the position after the moves
/// of the nodes down to its last choice.
fn replay(tree: &sgf::GameTree<'_>, id: u32, path: &[(u32, u32)]) -> Result<Game, String> {
    let (w, h) = tree.board_size();
    let mut board = Board::new(w, h).unwrap();
    let snapshot = |board: &Board| {
        let mut v = vec![0u8; w as usize * h as usize];
        for (c, byte) in [(Color::Black, 1), (Color::White, 2)] {
            for p in board.stones(c).iter() {
                v[p.y as usize * w as usize + p.x as usize] = byte;
            }
        }
        v
    };
    // `RE` is game information: SGF lets it stand in any node of the main line up to the first
    // move's (a collection's games often share a root and keep theirs below it).
    let re = tree
        .main_line()
        .scan(false, |moved, n| {
            let before = !*moved;
            *moved |= n.get(ids::B).is_some() || n.get(ids::W).is_some();
            before.then_some(n)
        })
        .find_map(|n| n.get(ids::RE).map(|p| p.text().into_owned()))
        .unwrap_or_default();
    let mut game = Game {
        id,
        board: (w, h),
        winner: winner(&re),
        positions: Vec::new(),
        moves: Vec::new(),
        late_setup: false,
        line: None,
        key: 0,
    };
    let last_choice = path.iter().map(|&(d, _)| d).max();
    let mut points = Vec::new();
    let mut next = Some(tree.root());
    let mut depth = 0;
    while let Some(node) = next {
        next = match path.iter().find(|&&(d, _)| d == depth) {
            Some(&(_, c)) => Some(
                node.children()
                    .nth(c as usize)
                    .ok_or_else(|| format!("no child {c} at depth {depth}"))?,
            ),
            None => node.first_child(),
        };
        let (b, wm) = (node.get(ids::B), node.get(ids::W));
        if b.is_some() && wm.is_some() {
            return Err("a node with both moves".into());
        }
        let mv = b
            .map(|p| (Color::Black, p))
            .or(wm.map(|p| (Color::White, p)));
        if mv.is_some() {
            game.positions.push(snapshot(&board));
        }
        for (content, raw) in node.setup_values() {
            game.late_setup |= !game.moves.is_empty() || mv.is_some();
            points.clear();
            if !value::point_list(raw, &mut points) {
                return Err("a bad setup point".into());
            }
            for &p in &points {
                if !board.setup(content, p) {
                    return Err("setup off the board".into());
                }
            }
        }
        if let Some((color, prop)) = mv {
            let n = game.moves.len() + 1;
            let point = Point::parse_move(prop.raw(), w, h)
                .map_err(|_| format!("move {n} is not a point"))?;
            let outcome = board.play(color, point);
            // The oracle's games move onto empty points of the board; suicide and a ko retaken
            // are executed as the oracle executes them. Variation lines (a dictionary's, a
            // commentary's) are no game of the oracle's: a move onto a stone replaces it, as
            // goban's board documents.
            let mut bad = goban::MoveFlags::OFF_BOARD.bits();
            if path.is_empty() {
                bad |= goban::MoveFlags::OCCUPIED.bits();
            }
            if outcome.flags.bits() & bad != 0 {
                return Err(format!("move {n}: {}", outcome.flags));
            }
            game.moves.push((color, point.map(|p| (p.x, p.y))));
        }
        if Some(depth) == last_choice {
            game.line = Some(game.moves.len() as u32);
        }
        depth += 1;
    }
    game.positions.push(snapshot(&board));
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&(game.board, &game.moves, &game.positions), &mut hasher);
    game.key = std::hash::Hasher::finish(&hasher);
    Ok(game)
}

/// [`replay`] of the first game of a record.
fn replay_first(bytes: &[u8]) -> Result<Game, String> {
    let records = Records::read(bytes);
    let tree = records.game(0).map_err(|d| d.to_string())?;
    replay(&tree, 0, &[])
}

/// A continuation row's sums: count, tenuki, Black's wins, White's wins, variation lines.
type Rows = BTreeMap<(char, String), [u64; 5]>;

/// What the brute force finds for one probe: hits by game, rows, hits without a continuation.
#[derive(Default)]
struct Found {
    hits: BTreeMap<u32, Vec<u32>>,
    rows: Rows,
    none: usize,
    late_setup_hits: usize,
    /// The moves the rows count, of games (not lines): (game, the position each was played
    /// from), each once however many regions it continued.
    continued: BTreeSet<(u32, u32)>,
}

impl Found {
    fn merge(mut self, o: Found) -> Found {
        self.hits.extend(o.hits);
        for (k, v) in o.rows {
            let row = self.rows.entry(k).or_default();
            for i in 0..5 {
                row[i] += v[i];
            }
        }
        self.none += o.none;
        self.late_setup_hits += o.late_setup_hits;
        self.continued.extend(o.continued);
        self
    }
}

fn sgf_point((x, y): (u8, u8)) -> String {
    Point::new(x, y).sgf_string()
}

/// The probe's hits in one game, with what they add to the table.
fn brute(probe: &Probe, g: &Game) -> Found {
    let mut found = Found::default();
    if g.board != probe.board || probe.within.as_ref().is_some_and(|w| !w.contains(&g.id)) {
        return found;
    }
    let holds = |pl: &Placement, pos: &[u8]| pl.cells.iter().all(|&(p, c)| c.holds(pos[p]));
    let mut matched = vec![false; probe.placements.len()];
    let mut hit_ks = Vec::new();
    let from = g.line.unwrap_or(0) as usize;
    for (k, pos) in g.positions.iter().enumerate() {
        let test: Vec<usize> = if k == 0 {
            (0..probe.placements.len()).collect()
        } else {
            let before = &g.positions[k - 1];
            let mut t: Vec<usize> = (0..pos.len())
                .filter(|&p| pos[p] != before[p])
                .flat_map(|p| probe.on_point[p].iter().copied())
                .collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        // The placements that appeared, by region.
        let mut appeared: Vec<(Rect, Vec<usize>)> = Vec::new();
        for i in test {
            let now = holds(&probe.placements[i], pos);
            if now && !matched[i] {
                let rect = probe.placements[i].rect;
                match appeared.iter_mut().find(|(r, _)| *r == rect) {
                    Some((_, v)) => v.push(i),
                    None => appeared.push((rect, vec![i])),
                }
            }
            matched[i] = now;
        }
        // A line's positions before its branch point are its parent line's.
        if appeared.is_empty() || k < from {
            continue;
        }
        hit_ks.push(k as u32);
        for (rect, pls) in appeared {
            let first = g
                .moves
                .iter()
                .enumerate()
                .skip(k)
                .find(|(_, m)| m.1.is_some_and(|p| rect.holds(p)));
            let Some((j, &(color, Some(p)))) = first else {
                // A line was not played: nothing but its rows' own column counts it.
                found.none += usize::from(g.line.is_none());
                continue;
            };
            let (c, q) = pls
                .iter()
                .map(|&i| probe.back(&probe.placements[i], color, p))
                .min_by_key(|&(_, q)| sgf_point(q))
                .unwrap();
            let row = found.rows.entry((c.letter(), sgf_point(q))).or_default();
            if g.line.is_some() {
                row[4] += 1;
                continue;
            }
            found.continued.insert((g.id, j as u32));
            row[0] += 1;
            row[1] += u64::from(j > k);
            row[2] += u64::from(g.winner == 1);
            row[3] += u64::from(g.winner == 2);
        }
    }
    if !hit_ks.is_empty() {
        found.late_setup_hits += usize::from(g.late_setup);
        found.hits.insert(g.id, hit_ks);
    }
    found
}

/// Records written for this test: a pattern that appears through setup placed between moves or
/// in a move's node, and stones taken off by `AE`; `{}` is a fox-pro game's moves after them.
const SETUP_GAMES: [&str; 9] = [
    // The 4-4 stone and the approach put by setup after two moves, then answered inside.
    "(;GM[1]FF[4]SZ[19]RE[B+R];B[pp];W[dp];AB[dd]AW[fc];B[cf];W[qd];B[fd]{})",
    // Setup in the node of a move: position 2 is before both.
    "(;GM[1]FF[4]SZ[19]RE[W+2.5];B[pp];W[dp];AB[pd]AW[nc]B[qf];W[pc];B[qc]{})",
    // The 3-3 invasion put by setup, taken off by AE, played again.
    "(;GM[1]FF[4]SZ[19]RE[黑中盘胜];B[pd];W[dp];AB[dd]AW[cc];B[dc];AE[dd][cc][dc];W[qp];B[dd];W[cc];B[dc]{})",
    // Setup in the root beside the first move, so position 0 is the empty board.
    "(;GM[1]FF[4]SZ[19]RE[W+R]AB[dd]AW[cc]B[qd];W[dq];B[cd]{})",
    // 25×25 boards, which have corner squares too: the approach in two corners, answered
    // there after tenuki.
    "(;GM[1]FF[4]SZ[25]RE[B+3.5];B[dd];W[vv];B[vd];W[fc];B[mm];W[tc];B[cf];W[ee];B[ud]{})",
    "(;GM[1]FF[4]SZ[25]RE[W+R];B[vv];W[dd];B[dv];W[tw];B[mm];W[ct];B[uw];W[xx];B[cu]{})",
    // 25×19 boards, whose corner squares are keyed as a square board's, where a content and
    // its transpose share a key but only the four turns keeping the rectangle are symmetries:
    // the approach as drawn, turned by a half turn, and transposed (no image of the diagram).
    "(;GM[1]FF[4]SZ[25:19]RE[B+R];B[dd];W[fc];B[mm];W[vp];B[cf];W[tq]{})",
    "(;GM[1]FF[4]SZ[25:19]RE[W+R];B[vp];W[tq];B[dd];W[cf];B[fc];W[xr]{})",
    "(;GM[1]FF[4]SZ[25:19]RE[B+R];B[dd];W[cf];B[vd];W[ue];B[mm];W[dc]{})",
];

/// A corner shape with `?` inside and around its region, and `x`/`o` points.
const CORNER_SHAPE: &str = "......??\n......??\n..o..O??\n...X..??\n.?....??\n????????\n????????";

/// The 4-4 approach's square as the first columns of a diagram 25 points wide.
const RECTANGLE: &str = ".......??????????????????\n.......??????????????????\n\
                         .....O.??????????????????\n...X...??????????????????\n\
                         .......??????????????????\n.......??????????????????\n\
                         .......??????????????????";

/// A diagram of 16×8 points whose constraints hold 11×3 of them: 48 places on the board in one
/// orientation.
const WIDE: &str = "????????????????\n?...........????\n?..X.....O..????\n?...........????\n\
                    ????????????????\n????????????????\n????????????????\n????????????????";

/// Copies the games the test reads into `data`: fox-pro's 1p–6p games and the diverse files
/// that the oracle replayed whole, exact copies of a few games, and [`SETUP_GAMES`].
fn gather(shared: &Path, data: &Path) {
    let ranks = ["1p/", "2p/", "3p/", "4p/", "5p/", "6p/"];
    for (set, keep) in [("fox-pro", &ranks[..]), ("diverse", &[""][..])] {
        for f in replayed_whole(&shared.join("oracle").join(set)) {
            if !keep.iter().any(|k| f.starts_with(k)) {
                continue;
            }
            let to = data.join(set).join(&f);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(shared.join("datasets").join(set).join(&f), to).unwrap();
        }
    }
    let mut originals: Vec<_> = std::fs::read_dir(data.join("fox-pro/1p"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    originals.sort();
    std::fs::create_dir_all(data.join("copies")).unwrap();
    for (i, f) in originals.iter().take(12).enumerate() {
        std::fs::copy(f, data.join(format!("copies/copy-{i}.sgf"))).unwrap();
    }
    // A real game's moves after the written ones (from its 10th on, where the corners are
    // settled enough that the written stones rarely stand on its points).
    let tail: Vec<String> = {
        let bytes = std::fs::read(&originals[0]).unwrap();
        let records = Records::read(&bytes);
        let tree = records.game(0).unwrap();
        tree.main_line_moves()
            .unwrap()
            .into_iter()
            .skip(10)
            .filter_map(|(c, p)| p.map(|p| format!(";{}[{}]", c.letter(), p.sgf_string())))
            .collect()
    };
    std::fs::create_dir_all(data.join("setup")).unwrap();
    for (i, g) in SETUP_GAMES.iter().enumerate() {
        // The real game's moves that land on a point the written stones hold are left out, until
        // every move is onto an empty point.
        let mut tail: Vec<String> = tail.clone();
        let record = loop {
            let record = g.replace("{}", &tail.concat());
            match replay_first(record.as_bytes()) {
                Ok(_) => break record,
                Err(e) => {
                    let n: usize = e
                        .strip_prefix("move ")
                        .and_then(|r| r.split(':').next())
                        .and_then(|n| n.parse().ok())
                        .unwrap_or_else(|| panic!("setup game {i}: {e}"));
                    let written = replay_first(g.replace("{}", "").as_bytes())
                        .unwrap_or_else(|e| panic!("setup game {i}: {e}"))
                        .moves
                        .len();
                    assert!(n > written, "setup game {i}: {e}");
                    tail.remove(n - written - 1);
                }
            }
        };
        std::fs::write(data.join(format!("setup/setup-{i}.sgf")), record).unwrap();
    }
}

/// The files of an oracle's dataset none of whose games it excluded.
fn replayed_whole(oracle: &Path) -> BTreeSet<String> {
    let file = |v: &serde_json::Value| v["file"].as_str().unwrap().to_string();
    let excluded: HashSet<String> = testdata::lines(&oracle.join("excluded.jsonl"))
        .iter()
        .map(file)
        .collect();
    testdata::lines(&oracle.join("universe.jsonl"))
        .iter()
        .map(file)
        .filter(|f| !excluded.contains(f))
        .collect()
}

/// A variation line as the index names it: its id, its path of choices (node depth, child), and
/// the position it answers from.
type Line = (u32, Vec<(u32, u32)>, u32);

/// Every game of `data`, read and replayed, numbered as the index numbers them.
fn read_games(data: &[std::path::PathBuf], index: &Index) -> Vec<Game> {
    let ids: HashMap<(String, u32), u32> = (0..index.len())
        .filter(|&g| !index.is_variation(g))
        .map(|g| {
            let info = index.game(g).unwrap();
            ((info.file, info.game_in_file), g)
        })
        .collect();
    let mut files = Vec::new();
    for source in inputs::discover(data).unwrap() {
        inputs::read_source(&source, &mut |rec| {
            files.push((rec.name, rec.bytes.to_vec()))
        })
        .unwrap();
    }
    // Each game's variation lines, with their paths and where the index says they answer from.
    let mut lines: HashMap<u32, Vec<Line>> = HashMap::new();
    for g in 0..index.len() {
        if let Some(v) = index.variation(g) {
            let path = v
                .path
                .split(',')
                .map(|c| {
                    let (d, c) = c.split_once(':').unwrap();
                    (d.parse().unwrap(), c.parse().unwrap())
                })
                .collect();
            lines.entry(v.game).or_default().push((g, path, v.from));
        }
    }
    let games: Vec<Game> = files
        .par_iter()
        .flat_map_iter(|(name, bytes)| {
            let records = Records::read(bytes);
            let mut out = Vec::new();
            for i in 0..records.len() {
                let id = *ids
                    .get(&(name.clone(), i as u32))
                    .unwrap_or_else(|| panic!("{name} game {i} is not in the index"));
                let tree = records
                    .game(i)
                    .unwrap_or_else(|e| panic!("{name} game {i}: {e}"));
                out.push(replay(&tree, id, &[]).unwrap_or_else(|e| panic!("{name} game {i}: {e}")));
                for (line, path, from) in lines.get(&id).into_iter().flatten() {
                    let game = replay(&tree, *line, path)
                        .unwrap_or_else(|e| panic!("{name} game {i} line {path:?}: {e}"));
                    assert_eq!(game.line, Some(*from), "{name} game {i} line {path:?}");
                    out.push(game);
                }
            }
            out
        })
        .collect();
    assert_eq!(games.len(), index.len() as usize, "every indexed game read");
    games
}

fn probes(index_len: u32) -> Vec<Probe> {
    let specs = [
        // A whole corner square (the corner table, answered from its events): the 4-4 stone
        // and the one-space high approach, the rest of the square empty.
        Spec {
            name: "square 4-4 approach",
            text: ".......\n.......\n.....O.\n...X...\n.......\n.......\n.......",
            ..SPEC
        },
        // A symmetric whole square: the 3-3 invasion under the 4-4 stone, whose two images in
        // a corner share one region.
        Spec {
            name: "square 3-3 invasion",
            text: ".......\n.......\n..O....\n...X...\n.......\n.......\n.......",
            ..SPEC
        },
        Spec {
            name: "square 3-3 invasion, colours swapped",
            text: ".......\n.......\n..O....\n...X...\n.......\n.......\n.......",
            swap: true,
            ..SPEC
        },
        // A shape placed around the centre point: all eight placements share one region.
        Spec {
            name: "centre shape",
            text: "...\n.X.\n...",
            place: (8, 8),
            ..SPEC
        },
        // A whole square and a point beside it: the corner table names the candidates, the
        // scan decides.
        Spec {
            name: "square and a point",
            text: ".......?\n.......?\n.....O..\n...X...?\n.......?\n.......?\n.......?",
            ..SPEC
        },
        // A corner shape with `?` inside and around, and `x`/`o` points: the scan; the region
        // is the rectangle of its constrained points, not the diagram.
        Spec {
            name: "corner shape",
            text: CORNER_SHAPE,
            ..SPEC
        },
        Spec {
            name: "corner shape, one orientation",
            text: CORNER_SHAPE,
            symmetry: false,
            ..SPEC
        },
        Spec {
            name: "corner shape, colours swapped",
            text: CORNER_SHAPE,
            swap: true,
            ..SPEC
        },
        // A shape on the lower side, placed on the board.
        Spec {
            name: "side shape",
            text: "..x..\n..X..\n.O.X.\n.....\n.....",
            place: (7, 14),
            ..SPEC
        },
        // Two stones anywhere, in every orientation: so common that every game is a candidate
        // of every group of 64 placements, so all placements are scanned at once.
        Spec {
            name: "diagonal anywhere",
            text: "X.\n.O",
            anywhere: true,
            ..SPEC
        },
        // With points black-or-empty and white-or-empty, slid anywhere: common, so scanned all
        // at once too.
        Spec {
            name: "hane anywhere, x and o",
            text: "XO.\n.Xo\nx..",
            anywhere: true,
            ..SPEC
        },
        // A rarer one: few games are candidates of many groups, so it is scanned 64 placements
        // at a time.
        Spec {
            name: "rare anywhere",
            text: ".OX.\nOX.X\n.OX.",
            anywhere: true,
            ..SPEC
        },
        Spec {
            name: "rare anywhere, colours swapped",
            text: ".OX.\nOX.X\n.OX.",
            anywhere: true,
            swap: true,
            ..SPEC
        },
        Spec {
            name: "wide diagram anywhere",
            text: WIDE,
            anywhere: true,
            symmetry: false,
            ..SPEC
        },
        // An empty corner: it needs no stone, so every game shows it in all four corners at
        // position 0 (four regions at once, two placements each), and again where a capture
        // empties a corner.
        Spec {
            name: "empty corner",
            text: ".....\n.....\n.....\n.....\n.....",
            ..SPEC
        },
        Spec {
            name: "25x25 square 4-4 approach",
            text: ".......\n.......\n.....O.\n...X...\n.......\n.......\n.......",
            board: 25,
            ..SPEC
        },
        Spec {
            name: "25x25 corner shape",
            text: CORNER_SHAPE,
            board: 25,
            ..SPEC
        },
        // The 4-4 approach's whole square at the left end of a diagram 25 points wide: a 25×19
        // board, four placements.
        Spec {
            name: "25x19 square 4-4 approach",
            text: RECTANGLE,
            ..SPEC
        },
        // A 9×9 corner (the diverse set's small boards; no corner table there).
        Spec {
            name: "9x9 corner",
            text: ".....\n.....\n..X..\n.....",
            board: 9,
            ..SPEC
        },
        // Two empty points anywhere: a hundred and forty-four regions at position 0.
        Spec {
            name: "9x9 empty pair anywhere",
            text: "..",
            board: 9,
            anywhere: true,
            ..SPEC
        },
        Spec {
            name: "9x9 anywhere",
            text: "X.\n.O",
            board: 9,
            anywhere: true,
            ..SPEC
        },
    ];
    let mut out: Vec<Probe> = specs.iter().map(Probe::new).collect();
    // A filter (every other game: of a game and its copy, often one only), and copies
    // counted once, on the roads of the corner table, the scan and the groups.
    let variants = [
        (
            "square 4-4 approach",
            "square 4-4 approach, within",
            true,
            false,
        ),
        ("corner shape", "corner shape, within", true, false),
        (
            "square 4-4 approach",
            "square 4-4 approach, copies once",
            false,
            true,
        ),
        ("corner shape", "corner shape, copies once", false, true),
        ("rare anywhere", "rare anywhere, copies once", false, true),
        (
            "corner shape",
            "corner shape, within, copies once",
            true,
            true,
        ),
        (
            "rare anywhere",
            "rare anywhere, within, copies once",
            true,
            true,
        ),
    ];
    for (base, name, within, once) in variants {
        let spec = specs.iter().find(|s| s.name == base).unwrap();
        let mut p = Probe::new(spec);
        p.name = name;
        if within {
            let games: Vec<u32> = (0..index_len).filter(|g| g % 2 == 0).collect();
            p.query = p.query.within(games.iter().copied());
            p.within = Some(games.into_iter().collect());
        }
        if once {
            p.query = p.query.with_copies(false);
            p.copies_once = true;
        }
        out.push(p);
    }
    out
}

/// Compares the search's answers to the probes with the brute force's, adding what differs to
/// `failures`; how many hit games had setup beside their moves.
fn compare(
    search: impl Fn(&Query) -> qipu::Answer,
    mistakes: Option<&dyn Fn(&Query) -> qipu::MistakesAnswer>,
    games: &[Game],
    probes: Vec<Probe>,
    failures: &mut Vec<String>,
) -> usize {
    let mut late = 0;
    for probe in probes {
        let each: Vec<(&Game, Found)> = games.par_iter().map(|g| (g, brute(&probe, g))).collect();
        // Copies have the same hits; with copies counted once, only the first in the answer
        // adds to the table.
        let mut seen = HashSet::new();
        let mut want = Found::default();
        let mut each = each;
        each.sort_by_key(|(g, _)| g.id);
        for (g, mut found) in each {
            if probe.copies_once
                && g.line.is_none()
                && !found.hits.is_empty()
                && !seen.insert(g.key)
            {
                found.rows.clear();
                found.none = 0;
            }
            want = want.merge(found);
        }
        late += want.late_setup_hits;
        let answer = search(&probe.query);
        let hits: BTreeMap<u32, Vec<u32>> = answer
            .hits
            .iter()
            .map(|h| (h.game, h.moves.clone()))
            .collect();
        let rows: Rows = answer
            .continuations
            .iter()
            .map(|c| {
                let point = c.point.map_or(String::new(), |p| p.sgf_string());
                let sums =
                    [c.count, c.tenuki, c.black_wins, c.white_wins, c.variations].map(u64::from);
                ((c.color.letter(), point), sums)
            })
            .collect();
        let name = probe.name;
        eprintln!(
            "{name}: {} placements, {} hit games, {} rows, {} without",
            probe.placements.len(),
            want.hits.len(),
            want.rows.len(),
            want.none
        );
        assert!(
            !want.hits.is_empty(),
            "{name}: a probe that hits nothing tests nothing"
        );
        if hits != want.hits {
            let ours: Vec<_> = hits
                .iter()
                .filter(|h| want.hits.get(h.0) != Some(h.1))
                .take(3)
                .collect();
            let theirs: Vec<_> = want
                .hits
                .iter()
                .filter(|h| hits.get(h.0) != Some(h.1))
                .take(3)
                .collect();
            failures.push(format!(
                "{name}: hits differ: search {ours:?}, brute force {theirs:?}"
            ));
        }
        if rows != want.rows {
            let ours: Vec<_> = rows
                .iter()
                .filter(|r| want.rows.get(r.0) != Some(r.1))
                .take(4)
                .collect();
            let theirs: Vec<_> = want
                .rows
                .iter()
                .filter(|r| rows.get(r.0) != Some(r.1))
                .take(4)
                .collect();
            failures.push(format!(
                "{name}: rows differ: search {ours:?}, brute force {theirs:?}"
            ));
        }
        if answer.summary.no_continuation != Some(want.none) {
            failures.push(format!(
                "{name}: no continuation: search {:?}, brute force {}",
                answer.summary.no_continuation, want.none
            ));
        }
        if let Some(mistakes) = mistakes {
            compare_mistakes(mistakes, games, &probe, &want.continued, failures);
        }
    }
    late
}

#[test]
fn pattern_answers_equal_a_brute_force_on_every_road() {
    let Some(shared) = testdata::shared() else {
        return;
    };
    let scratch = testdata::Scratch::new("regions");
    let data = scratch.0.join("data");
    gather(&shared, &data);
    let dir = scratch.0.join("index");
    // Every game analysed by the test's engine: the mistakes from each pattern are its rows'
    // moves that lost.
    let opts = BuildOptions {
        rebuild: true,
        evals: Some(made_up_evals),
        ..BuildOptions::default()
    };
    build(&dir, std::slice::from_ref(&data), &opts, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    let games = read_games(std::slice::from_ref(&data), &index);
    assert!(games.iter().any(|g| g.late_setup));

    let mut failures = Vec::new();
    let late = compare(
        |q| index.search(q).unwrap(),
        Some(&|q| index.mistakes(q).unwrap()),
        &games,
        probes(index.len()),
        &mut failures,
    );
    assert!(late > 0, "games with setup beside their moves hit");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Variation lines (an index built with them): a line's hits from its branch point on, its rows
/// counted apart (in `variations`), and nothing of it in `no_continuation`, on Kogo's joseki
/// dictionary and fox-pro games with deep commented trees.
#[test]
fn variation_lines_answer_from_their_branch_point() {
    let Some(shared) = testdata::shared() else {
        return;
    };
    let scratch = testdata::Scratch::new("regions-lines");
    let data = scratch.0.join("data");
    let files = [
        "diverse/torture/glift/test/testdata/Kogo's Joseki Dictionary.sgf",
        "fox-pro/3p/1571120542010001227.sgf",
        "fox-pro/3p/1571035140010001019.sgf",
        "fox-pro/3p/1571034870010001481.sgf",
        "fox-pro/3p/1570784105010001999.sgf",
        "fox-pro/1p/1568625834010001609.sgf",
        "fox-pro/1p/1570695209010001652.sgf",
    ];
    for f in files {
        let to = data.join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(shared.join("datasets").join(f), to).unwrap();
    }
    let dir = scratch.0.join("index");
    let opts = BuildOptions {
        rebuild: true,
        variations: Some(true),
        ..BuildOptions::default()
    };
    build(&dir, std::slice::from_ref(&data), &opts, |_| {}).unwrap();
    let index = Index::open(&dir).unwrap();
    let games = read_games(std::slice::from_ref(&data), &index);
    let lines = games.iter().filter(|g| g.line.is_some()).count();
    assert!(lines > 5000, "{lines} variation lines");
    let wanted = [
        "square 4-4 approach",
        "square 3-3 invasion",
        "square and a point",
        "corner shape",
        "corner shape, colours swapped",
        "diagonal anywhere",
        "rare anywhere",
    ];
    let probes = probes(index.len())
        .into_iter()
        .filter(|p| wanted.contains(&p.name))
        .collect();
    let mut failures = Vec::new();
    compare(
        |q| index.search(q).unwrap(),
        None,
        &games,
        probes,
        &mut failures,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Two indexes searched as one ([`qipu::Shards`]): the answers of one index of all their games,
/// exact copies in one shard of games in the other counting once unless asked.
#[test]
fn shards_answer_as_one_index() {
    let Some(shared) = testdata::shared() else {
        return;
    };
    let scratch = testdata::Scratch::new("regions-shards");
    let data = scratch.0.join("data");
    gather(&shared, &data);
    // The copies in the second shard, their originals in the first. (Each input names its files
    // from itself: the copies' and the written records' names differ, so that no two games of a
    // shard share a name.)
    let parts = [
        vec![data.join("fox-pro")],
        vec![
            data.join("copies"),
            data.join("setup"),
            data.join("diverse"),
        ],
    ];
    let opts = BuildOptions {
        rebuild: true,
        evals: Some(made_up_evals),
        ..BuildOptions::default()
    };
    let mut dirs = Vec::new();
    let mut games = Vec::new();
    let mut offset = 0;
    for (i, sources) in parts.iter().enumerate() {
        let dir = scratch.0.join(format!("index-{i}"));
        build(&dir, sources, &opts, |_| {}).unwrap();
        let index = Index::open(&dir).unwrap();
        for mut g in read_games(sources, &index) {
            g.id += offset;
            games.push(g);
        }
        offset += index.len();
        dirs.push(dir);
    }
    let shards = qipu::Shards::open(&dirs).unwrap();
    let wanted = [
        "square 4-4 approach",
        "square and a point",
        "corner shape",
        "diagonal anywhere",
        "rare anywhere",
        "square 4-4 approach, copies once",
        "corner shape, copies once",
        "rare anywhere, within, copies once",
    ];
    let probes = probes(shards.len())
        .into_iter()
        .filter(|p| wanted.contains(&p.name))
        .collect();
    let mut failures = Vec::new();
    compare(
        |q| shards.search(q).unwrap(),
        None,
        &games,
        probes,
        &mut failures,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
