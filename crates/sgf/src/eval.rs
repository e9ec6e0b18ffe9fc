//! Engine evaluations that game records carry: what an engine (KataGo, Leela Zero, …) thought
//! of each position of the main line, as the program that ran it wrote it into the record.
//!
//! Every program writes its own property and takes its own side: some give the win rate of
//! the player to move, some of the player who just moved, some Black's. What this module
//! hands on is one shape, from Black's side whatever the file said, so that the index, the
//! search and every client read the same numbers.
//!
//! [`read`] knows, one submodule each (where each pins the writer's source, the side its
//! numbers take and the position they belong to):
//! - [`sabaki`]: `SBKV` (Black's win rate, percent) and `SBKS` (Black's lead), on the node
//!   whose position was analysed;
//! - [`lizzie`]: Lizzie's and lizzieyzy's `LZ` (and lizzieyzy's root `LZOP`): the win rate of
//!   the player who made the node's move, playouts, lizzieyzy's lead of the player to move;
//!   lizzieyzy's second engine's `LZ2`/`LZOP2`, the same fields, another candidate;
//! - [`katrain`]: KaTrain's `KT` (base64 of gzip of JSON: KataGo's `rootInfo`, Black's side);
//! - [`analyze_sgf`]: analyze-sgf's reviews, `SBKV` with the lead and visits in each move's
//!   comment;
//! - [`katago`]: KataGo's self-play and rating games, whose move comments carry White's
//!   win/loss/no-result and score for the position *before* the move;
//! - [`q5go`]: q5Go's `QKGV`/`QLZV`: visits, Black's win probability and lead, on the node
//!   whose position was analysed;
//! - [`grp`]: GoReviewPartner's reviews, `BWWR` (else `VNWR`, else `MCWR`): Black's and
//!   White's win rates, on each move for the position *before* it.
//!
//! A record carrying several (Sabaki's beside Lizzie's, say) gives the richest: the one with
//! the most positions evaluated, then the most with a lead, then the most with visits; on a tie,
//! KaTrain, lizzieyzy's (or Lizzie's) `LZ`, lizzieyzy's `LZ2`, analyze-sgf, Sabaki, KataGo,
//! q5Go, GoReviewPartner in that order. A record's `LZ` and `LZ2` are two engines: it gives all
//! its positions from the one that rule chooses, never some of each. One mixture: where an `LZ`
//! is chosen and Sabaki's `SBKV`/`SBKS` evaluate the same position (as `qipu analyse` writes
//! them), the win rate and lead are Sabaki's, written to a hundredth where `LZ` has a tenth, and
//! the visits `LZ`'s.
//!
//! Reading is cheap when there is nothing to read (the index asks it of every game): every id
//! looked for has more than one letter and the parser notes where the last such property is,
//! so a game of moves and comments after its root costs a look at its root's ids and at three
//! comments' first bytes before any node is walked (BENCHMARKS.md, Evaluations: reading).

use crate::diag::{Diagnostic, Problem};
use crate::prop::{ids, PropId};
use crate::tree::{GameTree, Node};
use crate::Color;

pub mod analyze_sgf;
pub mod grp;
pub mod katago;
pub mod katrain;
pub mod lizzie;
pub mod q5go;
pub mod sabaki;

/// An engine's evaluation of one position, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    /// Black's probability of winning, from 0.0 to 1.0.
    pub win: f32,
    /// Black's lead in points (negative when White leads), where the program wrote one.
    pub lead: Option<f32>,
    /// The visits (playouts) behind the evaluation, where the program wrote them.
    pub visits: Option<u32>,
}

/// What a move cost the player who made it: the evaluation before it less the evaluation after
/// it, both from the mover's side. Positive is a loss; a move that gained is negative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// Of the mover's probability of winning (0.10 = ten points of win rate).
    pub win: f32,
    /// Of the mover's lead in points, where both evaluations have a lead.
    pub lead: Option<f32>,
}

impl Eval {
    /// What the move from `self` (the position before it) to `after` cost its player, Black when
    /// `black_moved`. The one place the sign of a loss is decided.
    pub fn loss(&self, after: &Eval, black_moved: bool) -> Loss {
        let sign = if black_moved { 1.0 } else { -1.0 };
        Loss {
            win: sign * (self.win - after.win),
            lead: match (self.lead, after.lead) {
                (Some(b), Some(a)) => Some(sign * (b - a)),
                _ => None,
            },
        }
    }
}

/// The evaluations a game record carries for its main line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evals {
    /// `positions[k]` evaluates the position after the main line's first `k` moves (passes are
    /// moves; `positions[0]` is the starting position, setup stones included); `None` where the
    /// record says nothing of that position. Never longer than the main line's moves plus one.
    pub positions: Vec<Option<Eval>>,
    /// The program whose property the evaluations were read from (`"Sabaki"`, `"Lizzie"`, …;
    /// `"lizzieyzy LZ2"` for lizzieyzy's second engine).
    pub program: &'static str,
    /// The engine or network the record names, where it names one.
    pub engine: Option<String>,
}

impl Evals {
    /// How many positions have an evaluation.
    pub fn count(&self) -> usize {
        self.positions.iter().filter(|e| e.is_some()).count()
    }
}

/// The evaluations the record carries, from the program with the richest (module doc); `None`
/// when it carries none that can be read.
pub fn read(tree: &GameTree<'_>) -> Option<Evals> {
    read_checked(tree).0
}

/// [`read`], with what could not be read: each skipped value with its byte offset in the file
/// and the reason (capped per game).
pub fn read_checked(tree: &GameTree<'_>) -> (Option<Evals>, Vec<Diagnostic>) {
    let mut problems = Problems::default();
    let present = Present::scan(tree);
    if !present.any() {
        return (None, problems.items);
    }
    let line = Line::of(tree);
    let mut candidates: Vec<Evals> = Vec::new();
    if present.kt {
        candidates.extend(katrain::read(&line, &mut problems));
    }
    if present.lz {
        candidates.extend(lizzie::read(&line, &mut problems, lizzie::Engine::First));
    }
    if present.lz2 {
        candidates.extend(lizzie::read(&line, &mut problems, lizzie::Engine::Second));
    }
    if present.sbkv && present.analyze_sgf {
        candidates.extend(analyze_sgf::read(&line, &mut problems));
    } else if present.sbkv {
        candidates.extend(sabaki::read(&line, &mut problems));
    }
    if present.katago {
        candidates.extend(katago::read(&line, &mut problems));
    }
    if present.q5go {
        candidates.extend(q5go::read(&line, &mut problems));
    }
    if present.grp {
        candidates.extend(grp::read(&line, &mut problems));
    }
    // `max_by_key` keeps the last of equals: walk the candidates in reverse preference order.
    let best = candidates
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, e)| e.count() > 0)
        .max_by_key(|(_, e)| {
            let with = |f: fn(&Eval) -> bool| e.positions.iter().flatten().filter(|x| f(x)).count();
            (
                e.count(),
                with(|x| x.lead.is_some()),
                with(|x| x.visits.is_some()),
            )
        })
        .map(|(i, _)| i);
    let Some(best) = best else {
        return (None, problems.items);
    };
    let mut best = candidates.swap_remove(best);
    finer_from_sabaki(&mut best, &candidates);
    (Some(best), problems.items)
}

/// Where an `LZ` and Sabaki's `SBKV`/`SBKS` evaluate the same position (as `qipu analyse`
/// writes them, and as a record Lizzie and Sabaki both analysed may hold), the win rate and
/// lead are Sabaki's, written to a hundredth where `LZ` has a tenth; the visits stay `LZ`'s.
fn finer_from_sabaki(best: &mut Evals, others: &[Evals]) {
    if !matches!(best.program, "Lizzie" | "lizzieyzy") {
        return;
    }
    let Some(sabaki) = others.iter().find(|e| e.program == "Sabaki") else {
        return;
    };
    for (mine, theirs) in best.positions.iter_mut().zip(&sabaki.positions) {
        if let (Some(mine), Some(theirs)) = (mine.as_mut(), theirs) {
            mine.win = theirs.win;
            if theirs.lead.is_some() {
                mine.lead = theirs.lead;
            }
        }
    }
}

const SBKV: PropId = PropId::new("SBKV");
const SBKS: PropId = PropId::new("SBKS");
const LZ: PropId = PropId::new("LZ");
const LZOP: PropId = PropId::new("LZOP");
const LZ2: PropId = PropId::new("LZ2");
const LZOP2: PropId = PropId::new("LZOP2");
const KT: PropId = PropId::new("KT");

/// Which programs' properties a game holds, from its flat property list.
#[derive(Default)]
struct Present {
    sbkv: bool,
    lz: bool,
    lz2: bool,
    kt: bool,
    katago: bool,
    analyze_sgf: bool,
    grp: bool,
    q5go: bool,
}

impl Present {
    fn scan(tree: &GameTree<'_>) -> Present {
        let mut p = Present::default();
        let mut note = |id: PropId| match id {
            SBKV => p.sbkv = true,
            LZ | LZOP => p.lz = true,
            LZ2 | LZOP2 => p.lz2 = true,
            grp::BWWR | grp::VNWR | grp::MCWR => p.grp = true,
            q5go::QKGV | q5go::QLZV => p.q5go = true,
            KT => p.kt = true,
            _ => {}
        };
        // Every id looked for has more than one letter, and the parser noted where the last
        // such property is: a game of moves and comments after its root is not walked.
        let end = (tree.end_of_long as usize).min(tree.props.len());
        for prop in &tree.props[..end] {
            if !prop.id.is_one_letter() {
                note(prop.id);
            }
        }
        // KataGo's games say so in the root comment (`startTurnIdx=…`); a game without it still
        // counts when the comment of one of its first two moves has KataGo's form.
        let root = tree.root();
        let root_comment = comment(Some(root));
        p.analyze_sgf = root_comment.starts_with(analyze_sgf::ROOT_MARK);
        let first = root.first_child();
        p.katago = root_comment.starts_with(katago::ROOT_MARK)
            || katago::has_float_form(comment(first))
            || katago::has_float_form(comment(first.and_then(|n| n.first_child())));
        p
    }

    fn any(&self) -> bool {
        self.sbkv || self.lz || self.lz2 || self.kt || self.katago || self.grp || self.q5go
    }
}

/// A node's first comment, raw; empty when it has none.
fn comment<'a>(node: Option<Node<'_, 'a>>) -> &'a [u8] {
    node.and_then(|n| n.get(ids::C))
        .map_or(&[][..], |c| c.raw())
}

/// The main line's nodes with the moves counted as [`Evals::positions`] counts them: a node's
/// `B` and `W` each one move (passes too), in that order when a node holds both.
pub(crate) struct Line<'t, 'a> {
    pub(crate) tree: &'t GameTree<'a>,
    pub(crate) nodes: Vec<LineNode<'t, 'a>>,
    /// Moves in the main line.
    pub(crate) moves: usize,
    /// The player to move at the start: the first move's colour, else the root's `PL`, else
    /// White after Black's setup stones alone, else Black.
    pub(crate) first_to_move: Color,
}

pub(crate) struct LineNode<'t, 'a> {
    pub(crate) node: Node<'t, 'a>,
    /// Moves played before this node.
    pub(crate) before: usize,
    /// Moves played once this node's are: the index of the position the node leads to.
    pub(crate) after: usize,
    /// The colour of the node's (last) move; `None` for a node without one.
    pub(crate) moved: Option<Color>,
}

impl<'t, 'a> LineNode<'t, 'a> {
    /// The player to move in the position the node leads to.
    pub(crate) fn to_move(&self, line: &Line<'_, '_>) -> Color {
        match self.moved {
            Some(c) => c.opponent(),
            None => line.first_to_move,
        }
    }
}

impl<'t, 'a> Line<'t, 'a> {
    pub(crate) fn of(tree: &'t GameTree<'a>) -> Line<'t, 'a> {
        let mut nodes = Vec::new();
        let mut moves = 0;
        let mut first_color = None;
        for node in tree.main_line() {
            let (mut b, mut w) = (false, false);
            for p in node.props() {
                match p.id() {
                    ids::B => b = true,
                    ids::W => w = true,
                    _ => {}
                }
            }
            let moved = if w {
                Some(Color::White)
            } else if b {
                Some(Color::Black)
            } else {
                None
            };
            if first_color.is_none() {
                first_color = if b { Some(Color::Black) } else { moved };
            }
            let after = moves + b as usize + w as usize;
            nodes.push(LineNode {
                node,
                before: moves,
                after,
                moved,
            });
            moves = after;
        }
        let pl = tree.root().get(ids::PL).and_then(|p| match p.raw() {
            [b'B' | b'b', ..] => Some(Color::Black),
            [b'W' | b'w', ..] => Some(Color::White),
            _ => None,
        });
        // The first move played, then `PL`, then White after Black's setup stones alone (a
        // handicap): the rule `qipu analyse` asks KataGo by, so that a root's `LZOP` is read
        // from the side it was written for even where a stale `PL` disagrees with the moves.
        let handicap = || {
            let setup = |id| {
                tree.main_line()
                    .take_while(|n| n.get(ids::B).is_none() && n.get(ids::W).is_none())
                    .any(|n| n.get(id).is_some())
            };
            (setup(ids::AB) && !setup(ids::AW)).then_some(Color::White)
        };
        Line {
            tree,
            nodes,
            moves,
            first_to_move: first_color.or(pl).or_else(handicap).unwrap_or(Color::Black),
        }
    }

    /// An empty evaluation for every position of the line.
    pub(crate) fn blank(&self, program: &'static str) -> Evals {
        Evals {
            positions: vec![None; self.moves + 1],
            program,
            engine: None,
        }
    }
}

/// The problems met while reading one game's evaluations, capped.
#[derive(Default)]
pub(crate) struct Problems {
    items: Vec<Diagnostic>,
}

const MAX_PROBLEMS: usize = 16;

impl Problems {
    pub(crate) fn push(&mut self, offset: usize, property: &'static str, reason: String) {
        if self.items.len() < MAX_PROBLEMS {
            self.items.push(Diagnostic {
                offset,
                problem: Problem::BadEvaluation { property, reason },
            });
        } else if self.items.len() == MAX_PROBLEMS {
            self.items.push(Diagnostic {
                offset,
                problem: Problem::TooMany,
            });
        }
    }
}

/// A finite number written in ASCII (a decimal comma read as a point, as Lizzie's own reader
/// does for files saved under a comma locale); `None` for anything else, NaN and infinities
/// included.
pub(crate) fn number(raw: &[u8]) -> Option<f64> {
    if raw.is_empty() || raw.len() > 32 {
        return None;
    }
    let mut buf = [0u8; 32];
    for (d, &c) in buf.iter_mut().zip(raw) {
        *d = if c == b',' { b'.' } else { c };
    }
    let text = std::str::from_utf8(&buf[..raw.len()]).ok()?;
    // Rust's parser takes "inf" and "NaN"; no writer means them.
    if !text
        .bytes()
        .all(|c| c.is_ascii_digit() || b".+-eE".contains(&c))
    {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The first bytes of a bad value, for a message.
pub(crate) fn shown(raw: &[u8]) -> String {
    String::from_utf8_lossy(&raw[..raw.len().min(40)]).into_owned()
}

/// Black's win probability from a percentage of `side`'s, checked.
pub(crate) fn black_win(percent: f64, side: Color) -> Result<f32, String> {
    if !(0.0..=100.0).contains(&percent) {
        return Err(format!("win rate {percent} is not a percentage"));
    }
    let p = percent / 100.0;
    Ok(match side {
        Color::Black => p,
        Color::White => 1.0 - p,
    } as f32)
}

/// Black's lead from `side`'s, checked to be a lead a board can hold.
pub(crate) fn black_lead(lead: f64, side: Color) -> Result<f32, String> {
    if lead.abs() > 10_000.0 {
        return Err(format!("lead {lead} is not a score"));
    }
    Ok(match side {
        Color::Black => lead,
        Color::White => -lead,
    } as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(win: f32, lead: f32) -> Eval {
        Eval {
            win,
            lead: Some(lead),
            visits: None,
        }
    }

    #[test]
    fn a_loss_is_taken_from_the_movers_side() {
        // Black 60% and 3 points ahead; after Black's move 40% and 1 point behind: Black lost.
        let (before, after) = (eval(0.6, 3.0), eval(0.4, -1.0));
        let black = before.loss(&after, true);
        assert!((black.win - 0.2).abs() < 1e-6);
        assert!((black.lead.unwrap() - 4.0).abs() < 1e-6);
        // The same change after White's move is White's gain.
        let white = before.loss(&after, false);
        assert!((white.win + 0.2).abs() < 1e-6);
        assert!((white.lead.unwrap() + 4.0).abs() < 1e-6);
        // No lead on one side: no lead loss.
        let bare = Eval {
            lead: None,
            ..after
        };
        assert_eq!(before.loss(&bare, true).lead, None);
    }
}
