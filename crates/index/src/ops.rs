//! A game's main line as a compact program of 2-byte operations, and the replayer that runs it.
//!
//! Search verifies hits and builds continuation tables by replaying games, so the store keeps each
//! main line in the smallest form that replays exactly: one `u16` per move or setup stone. A move
//! op stands for the position before it. Setup may sit in any node (the Fox archives put it in
//! thousands of non-root nodes), and position k excludes the setup of the node holding move k+1,
//! so such a node starts with MARKs, one per move: the replayer then reports position k at the
//! mark instead.
//!
//! Layout of an op: the top 3 bits are the kind, the low 13 bits the point `y * 52 + x`
//! (8191 for a pass or a malformed point, played as a pass).

use goban::{Board, BoardSizeError, Color, MoveOutcome, Point};
use sgf::{ids, value, GameTree};

const KIND_SHIFT: u16 = 13;
const POINT_MASK: u16 = (1 << KIND_SHIFT) - 1;
const NO_POINT: u16 = POINT_MASK;

/// What an op does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Move(Color, Option<Point>),
    Setup(Option<Color>, Point),
    /// A move node starts here: the position before it is position k.
    Mark,
}

impl Op {
    pub fn encode(self) -> u16 {
        let (kind, p) = match self {
            Op::Move(Color::Black, p) => (0, p),
            Op::Move(Color::White, p) => (1, p),
            Op::Setup(Some(Color::Black), p) => (2, Some(p)),
            Op::Setup(Some(Color::White), p) => (3, Some(p)),
            Op::Setup(None, p) => (4, Some(p)),
            Op::Mark => (5, None),
        };
        let point = p.map_or(NO_POINT, |p| p.y as u16 * 52 + p.x as u16);
        (kind << KIND_SHIFT) | point
    }

    pub fn decode(v: u16) -> Op {
        let raw = v & POINT_MASK;
        let p = (raw != NO_POINT).then(|| Point::new((raw % 52) as u8, (raw / 52) as u8));
        match v >> KIND_SHIFT {
            0 => Op::Move(Color::Black, p),
            1 => Op::Move(Color::White, p),
            2 => Op::Setup(Some(Color::Black), p.unwrap_or(Point::new(0, 0))),
            3 => Op::Setup(Some(Color::White), p.unwrap_or(Point::new(0, 0))),
            4 => Op::Setup(None, p.unwrap_or(Point::new(0, 0))),
            _ => Op::Mark,
        }
    }
}

/// Encodes the main line of `tree` (setup, then the move, node by node) into `out`.
/// Returns the number of moves.
pub fn encode_main_line(tree: &GameTree<'_>, out: &mut Vec<u16>) -> u32 {
    let (w, h) = tree.board_size();
    let mut moves = 0;
    let mut pts = Vec::new();
    for node in tree.main_line() {
        let b = node.get(ids::B);
        let wm = node.get(ids::W);
        // A move op stands for the position before it. Only when the node also holds setup
        // (which position k must not include), or two moves, are the positions marked
        // explicitly: one mark per move, before the node's setup.
        let n_moves = b.is_some() as usize + wm.is_some() as usize;
        let has_setup = node.setup_values().next().is_some();
        if n_moves == 2 || (n_moves == 1 && has_setup) {
            for _ in 0..n_moves {
                out.push(Op::Mark.encode());
            }
        }
        for (content, raw) in node.setup_values() {
            pts.clear();
            value::point_list(raw, &mut pts);
            out.extend(pts.iter().map(|&pt| Op::Setup(content, pt).encode()));
        }
        for (prop, color) in [(b, Color::Black), (wm, Color::White)] {
            if let Some(prop) = prop {
                let p = Point::parse_move(prop.raw(), w, h).ok().flatten();
                out.push(Op::Move(color, p).encode());
                moves += 1;
            }
        }
    }
    moves
}

/// Replays an op program, stopping at each position.
pub struct Replayer<'o> {
    ops: &'o [u16],
    at: usize,
    board: Board,
    /// Positions returned so far.
    k: u32,
    /// Marks passed whose moves are still to be played.
    explicit: u32,
    /// The position before the unmarked move at `at` was reported.
    implicit_done: bool,
    done: bool,
}

/// One step of a replay: position `k` is on the board; `next` is the move that follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub k: u32,
    pub next: Option<(Color, Option<Point>)>,
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
            ops,
            at: 0,
            board,
            k: 0,
            explicit: 0,
            implicit_done: false,
            done: false,
        })
    }

    /// The board at the last position returned by [`Replayer::next_position`].
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Advances to the next position (0, 1, …, n) and says which move follows it; `None` after
    /// the final position. `on_move` sees the outcome of each move played on the way.
    pub fn next_position(&mut self, mut on_move: impl FnMut(&MoveOutcome)) -> Option<Step> {
        while self.at < self.ops.len() {
            match Op::decode(self.ops[self.at]) {
                Op::Mark => {
                    // The j-th mark of a node is followed by the node's j-th move.
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
                    return Some(self.step(next));
                }
                Op::Setup(c, p) => {
                    self.board.setup(c, p);
                    self.at += 1;
                }
                Op::Move(c, p) => {
                    if self.explicit == 0 && !self.implicit_done {
                        // An unmarked move: the position before it is reported first.
                        self.implicit_done = true;
                        return Some(self.step(Some((c, p))));
                    }
                    if self.explicit > 0 {
                        self.explicit -= 1;
                    }
                    self.implicit_done = false;
                    let out = self.board.play(c, p);
                    on_move(&out);
                    self.at += 1;
                }
            }
        }
        if self.done {
            return None;
        }
        self.done = true;
        Some(self.step(None))
    }

    fn step(&mut self, next: Option<(Color, Option<Point>)>) -> Step {
        let step = Step { k: self.k, next };
        self.k += 1;
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf::Records;

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
}
