//! Replaying a record's main line on a [`Board`], by the oracle's definitions.
//!
//! Each node of the main line applies its setup (`AB`, then `AW`, then `AE`, compressed lists
//! expanded) and then its move (`B` or `W`; the colour is the property's, never alternation).
//! Position k is the board after every node before the one holding move k+1 — so a stop at k
//! leaves that node's setup unapplied too.

use std::fmt;

use sgf::{ids, value, Color, GameTree, Point};

use crate::{Board, BoardSizeError, MoveFlags, MoveOutcome};

/// Something odd met while replaying, with where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Number of moves played before it (the move it concerns is `moves + 1`).
    pub moves: usize,
    /// Byte offset of the node in the file.
    pub offset: usize,
    pub kind: NoteKind,
}

/// What was odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// The move broke a rule or could not be placed (see [`Board::play`]).
    Move(Color, Option<Point>, MoveFlags),
    /// A move value that is not a point: played as a pass.
    MalformedMove(Color, String),
    /// A node holding both a `B` and a `W` move: both are played, `B` first.
    BothColors,
    /// A setup point that is malformed or off the board: ignored.
    BadSetup(String),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.moves + 1;
        match &self.kind {
            NoteKind::Move(c, p, flags) => {
                let at = p.map_or("pass".to_string(), |p| p.sgf_string());
                write!(f, "move {n} {}[{at}]: {flags}", c.letter())
            }
            NoteKind::MalformedMove(c, v) => {
                write!(
                    f,
                    "move {n} {}[{v}]: malformed point, played as a pass",
                    c.letter()
                )
            }
            NoteKind::BothColors => write!(f, "move {n}: node holds both B and W"),
            NoteKind::BadSetup(v) => write!(f, "before move {n}: bad setup point [{v}] ignored"),
        }
    }
}

/// The result of a replay.
pub struct Replay {
    /// The board at the stop.
    pub board: Board,
    /// Moves played (passes included).
    pub moves: usize,
    /// Moves in the whole main line (passes included), whatever the stop.
    pub total_moves: usize,
    pub notes: Vec<Note>,
}

/// Replays the main line of `tree` up to position `until` (all of it for `None`), calling
/// `on_move` after every move with the board and what the move did.
pub fn replay_main_line(
    tree: &GameTree<'_>,
    until: Option<usize>,
    hashing: bool,
    mut on_move: impl FnMut(&Board, &MoveOutcome),
) -> Result<Replay, BoardSizeError> {
    let (w, h) = tree.board_size();
    let mut board = Board::new(w, h)?;
    board.set_hashing(hashing);
    let mut notes = Vec::new();
    let mut moves = 0usize;
    let mut total = 0usize;
    let mut stopped = false;
    let mut points = Vec::new();
    for node in tree.main_line() {
        let b = node.get(ids::B);
        let wm = node.get(ids::W);
        let node_moves = b.is_some() as usize + wm.is_some() as usize;
        if node_moves > 0 && until.is_some_and(|k| moves >= k) {
            stopped = true;
        }
        total += node_moves;
        if stopped {
            continue;
        }
        for (content, raw) in node.setup_values() {
            points.clear();
            let mut bad = !value::point_list(raw, &mut points);
            for &pt in &points {
                bad |= !board.setup(content, pt);
            }
            if bad {
                notes.push(Note {
                    moves,
                    offset: node.offset(),
                    kind: NoteKind::BadSetup(String::from_utf8_lossy(raw).into_owned()),
                });
            }
        }
        if node_moves == 2 {
            notes.push(Note {
                moves,
                offset: node.offset(),
                kind: NoteKind::BothColors,
            });
        }
        for (prop, color) in [(b, Color::Black), (wm, Color::White)] {
            let Some(prop) = prop else { continue };
            let raw = prop.raw();
            let point = match Point::parse_move(raw, w, h) {
                Ok(p) => p,
                Err(_) => {
                    notes.push(Note {
                        moves,
                        offset: node.offset(),
                        kind: NoteKind::MalformedMove(
                            color,
                            String::from_utf8_lossy(raw).into_owned(),
                        ),
                    });
                    None
                }
            };
            let outcome = board.play(color, point);
            if !outcome.flags.is_empty() {
                notes.push(Note {
                    moves,
                    offset: node.offset(),
                    kind: NoteKind::Move(color, point, outcome.flags),
                });
            }
            moves += 1;
            on_move(&board, &outcome);
        }
    }
    Ok(Replay {
        board,
        moves,
        total_moves: total,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgf::Records;

    fn replay(s: &str, until: Option<usize>) -> Replay {
        let r = Records::read(s.as_bytes());
        let t = r.game(0).unwrap();
        replay_main_line(&t, until, true, |_, _| {}).unwrap()
    }

    #[test]
    fn setup_then_moves_with_a_capture() {
        let r = replay("(;SZ[9]AB[ba]AW[aa];B[ab];W[cc])", None);
        assert_eq!(r.moves, 2);
        assert_eq!(r.board.sgf_points(Color::Black), vec!["ab", "ba"]);
        assert_eq!(r.board.sgf_points(Color::White), vec!["cc"]);
        assert!(r.notes.is_empty());
    }

    #[test]
    fn stop_before_the_node_of_the_next_move() {
        let s = "(;SZ[9];B[aa];AB[ee]W[bb];B[cc])";
        let r = replay(s, Some(1));
        assert_eq!(r.board.sgf_points(Color::Black), vec!["aa"]);
        assert!(r.board.sgf_points(Color::White).is_empty());
        assert_eq!(r.total_moves, 3);
        let r = replay(s, Some(0));
        assert!(r.board.sgf_points(Color::Black).is_empty());
        let r = replay(s, Some(2));
        assert_eq!(r.board.sgf_points(Color::Black), vec!["aa", "ee"]);
    }

    #[test]
    fn colour_comes_from_the_property() {
        let r = replay("(;W[aa];W[bb];B[tt])", None);
        assert_eq!(r.board.sgf_points(Color::White), vec!["aa", "bb"]);
        assert_eq!(r.moves, 3);
    }

    #[test]
    fn odd_input_is_noted_not_fatal() {
        let r = replay("(;SZ[5]AB[zz];B[a1];B[aa]W[bb];W[aa])", None);
        let kinds: Vec<_> = r.notes.iter().map(|n| n.kind.clone()).collect();
        assert!(matches!(kinds[0], NoteKind::BadSetup(_)));
        assert!(matches!(kinds[1], NoteKind::MalformedMove(Color::Black, _)));
        assert!(matches!(kinds[2], NoteKind::BothColors));
        assert!(
            matches!(kinds[3], NoteKind::Move(Color::White, _, f) if f.contains(MoveFlags::OCCUPIED))
        );
        assert_eq!(r.moves, 4);
    }
}
