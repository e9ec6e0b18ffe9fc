//! Queries as users write them: a position (from a record, or typed as points), a pattern diagram.
//! Every way a query can make no sense is an error that says what and where.

use goban::{replay_main_line, Color, Point, Position};
use sgf::Records;

use crate::SearchError;

/// A full-board position to find.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionQuery {
    pub position: Position,
    /// Try all symmetries of the board (8 on a square, 4 on a rectangle).
    pub symmetry: bool,
    /// Also match with colours exchanged.
    pub swap_colors: bool,
    /// Only hits where this colour plays next.
    pub to_move: Option<Color>,
    /// Whether the continuation table and the date profile may be read from the store's
    /// pre-aggregated cells ([`crate::Store::aggregates`]), and which cells the filter given
    /// with the query keeps: `Some` only when that filter is exactly the games whose cell
    /// [`CellFilter::keeps`] says (no filter: [`CellFilter::default`]). `None` scans the
    /// occurrences, as for any other filter.
    pub aggregates: Option<CellFilter>,
    /// Only the first this many hit games (in game order) are wanted, the hits' counts over
    /// all of them ([`crate::Answer::counts`]): a position the cells answer then costs what its
    /// cells and those hits cost, not what all its games do (see [`crate::answers_from_cells`]).
    /// `None`: every hit.
    pub first_hits: Option<usize>,
}

/// A filter on the games' facts that keeps or drops whole cells ([`crate::store::CellKey`]):
/// months from and to (a date without a month counts as its January, undated games are left
/// out by either bound), the weaker player's rank at least, handicap or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellFilter {
    /// (year, month), inclusive.
    pub since: Option<(u16, u8)>,
    pub until: Option<(u16, u8)>,
    pub min_rank: Option<u8>,
    /// `Some(true)`: handicap games only; `Some(false)`: even games only.
    pub handicap: Option<bool>,
}

impl CellFilter {
    /// Whether the games of cell `k` pass.
    pub fn keeps(&self, k: &crate::store::CellKey) -> bool {
        let month = (k.year, k.month.max(1));
        if (self.since.is_some() || self.until.is_some()) && k.year == 0 {
            return false;
        }
        self.since.is_none_or(|s| month >= s)
            && self.until.is_none_or(|u| month <= u)
            && self.min_rank.is_none_or(|r| k.weaker_rank >= r)
            && self.handicap.is_none_or(|h| k.handicap == h)
    }
}

/// What a pattern point asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Black,
    White,
    Empty,
    Any,
    /// Black or empty (`x`).
    NotWhite,
    /// White or empty (`o`).
    NotBlack,
}

/// A board diagram to find, anchored to the board (or anywhere with `anywhere`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternQuery {
    /// Columns and rows of the diagram.
    pub width: u8,
    pub height: u8,
    /// Row-major cells, top row first.
    pub cells: Vec<Cell>,
    /// Where the diagram's top-left corner lies on the board (anchored patterns).
    pub offset: (u8, u8),
    /// The board the pattern belongs to.
    pub board: (u8, u8),
    pub symmetry: bool,
    pub swap_colors: bool,
    /// The pattern may also be translated anywhere on the board.
    pub anywhere: bool,
    /// Whether the answer lists the moves its continuation rows count
    /// ([`crate::Answer::continued`]) instead of adding up the rows: a search for the mistakes
    /// played from it asks, and needs those moves, not the table (the answer's
    /// `continuations` are then empty and its `no_continuation` 0).
    pub continued: bool,
}

/// Reads the position after move `at` (default: the last) of the first game in a record file.
/// A setup-only record gives its setup.
pub fn position_from_record(bytes: &[u8], at: Option<usize>) -> Result<Position, SearchError> {
    let records = Records::read(bytes);
    let tree = records
        .game(0)
        .map_err(|d| SearchError::BadQuery(format!("position file: {d}")))?;
    let replay = replay_main_line(&tree, at, false, |_, _| {})
        .map_err(|e| SearchError::BadQuery(format!("position file: {e}")))?;
    if let Some(k) = at {
        if k > replay.total_moves {
            return Err(SearchError::BadQuery(format!(
                "--at {k}: the game has only {} moves",
                replay.total_moves
            )));
        }
    }
    Ok(replay.board.position().clone())
}

/// Reads points typed on the command line: SGF points (`pd`), GTP coordinates (`Q16`) or
/// quadrant labels (`0144`, 19×19 only), separated by commas, semicolons or white space. A token
/// that is none of these is refused with its place in the list (1-based).
pub fn parse_points(text: &str, width: u8, height: u8) -> Result<Vec<Point>, SearchError> {
    let mut out = Vec::new();
    let tokens = text
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|t| !t.is_empty());
    for (i, tok) in tokens.enumerate() {
        let p = parse_point(tok, width, height).ok_or_else(|| {
            SearchError::BadQuery(format!(
                "point {} {tok:?} is not a point on a {width}×{height} board (write pd, Q16 or 0144)",
                i + 1
            ))
        })?;
        out.push(p);
    }
    Ok(out)
}

/// One point in any of the three notations, or `None`. Any `&str` is safe here: the text is
/// taken apart by characters, never by byte offsets that could fall inside one.
fn parse_point(tok: &str, width: u8, height: u8) -> Option<Point> {
    let b = tok.as_bytes();
    let on_board = |p: Point| (p.x < width && p.y < height).then_some(p);
    if b.len() == 4 && b.iter().all(u8::is_ascii_digit) && (width, height) == (19, 19) {
        let label: sgf::quadrant::Label = tok.parse().ok()?;
        return sgf::quadrant::point(label);
    }
    // SGF letters: `a`–`z` are lines 1 to 26, `A`–`Z` lines 27 to 52 (FF[4]), which boards
    // past 26 lines need. Two letters are never GTP, which gives its row in digits.
    if b.len() == 2 && b.iter().all(u8::is_ascii_alphabetic) {
        return on_board(Point::parse_sgf(b)?);
    }
    // GTP: a column letter A–Z without I, then the row counted from the bottom, one or two
    // ASCII digits (`str::parse` would also take `+5`).
    let mut chars = tok.chars();
    let c = chars.next()?.to_ascii_uppercase();
    let row = chars.as_str();
    if !c.is_ascii_uppercase()
        || c == 'I'
        || !(1..=2).contains(&row.len())
        || !row.bytes().all(|d| d.is_ascii_digit())
    {
        return None;
    }
    let x = (c as u8 - b'A') - (c > 'I') as u8;
    let r: u8 = row.parse().ok()?;
    if r == 0 || r > height {
        return None;
    }
    on_board(Point::new(x, height - r))
}

/// Reads a move sequence typed on the command line: `B[pd] W[qf] B[nc]` (each value in any
/// notation of [`parse_points`]; spaces or `;` between moves are optional), or the quadrant
/// digit notation (`01：44、36，63、`, 19×19 only) when there is no `[`. Anything else — another
/// property (`X[qq]`), a pass, a point off the board — is refused with the move's number and
/// its byte column, never dropped.
pub fn parse_moves(text: &str, width: u8, height: u8) -> Result<Vec<(Color, Point)>, SearchError> {
    if !text.contains('[') {
        if (width, height) != (19, 19) {
            return Err(SearchError::BadQuery(format!(
                "moves {text:?}: quadrant digits are for 19×19 boards; write B[pd] W[qf] …"
            )));
        }
        let record =
            sgf::quadrant::parse(text).map_err(|e| SearchError::BadQuery(format!("moves: {e}")))?;
        if record.moves.is_empty() {
            // Found by fuzzing: empty text is a valid, empty record.
            return Err(SearchError::BadQuery(format!(
                "moves {text:?}: no moves found"
            )));
        }
        return Ok(record.moves);
    }
    let mut moves = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(|c: char| c == ';' || c.is_whitespace());
        if rest.is_empty() {
            break;
        }
        let column = text.len() - rest.len() + 1;
        let end = rest.find(']').map_or(rest.len(), |i| i + 1);
        let tok = &rest[..end];
        rest = &rest[end..];
        let bad = |why: String| {
            SearchError::BadQuery(format!(
                "moves: move {} {tok:?} at column {column}: {why}",
                moves.len() + 1
            ))
        };
        let color = match tok.chars().next() {
            Some('B') => Color::Black,
            Some('W') => Color::White,
            _ => return Err(bad("not a move (write B[pd] or W[qf])".into())),
        };
        let Some(value) = tok[1..].strip_prefix('[').and_then(|v| v.strip_suffix(']')) else {
            return Err(bad("not a move (write B[pd] or W[qf])".into()));
        };
        if value.is_empty() || (value == "tt" && width <= 19 && height <= 19) {
            return Err(bad("a pass; a sequence is made of points".into()));
        }
        let p = parse_point(value, width, height)
            .ok_or_else(|| bad(format!("not a point on a {width}×{height} board")))?;
        moves.push((color, p));
    }
    if moves.is_empty() {
        return Err(SearchError::BadQuery(format!(
            "moves {text:?}: no moves found"
        )));
    }
    Ok(moves)
}

/// Builds a position from typed black and white points.
pub fn position_from_points(
    width: u8,
    height: u8,
    black: &[Point],
    white: &[Point],
) -> Result<Position, SearchError> {
    let mut pos = Position::new(width, height).map_err(|e| SearchError::BadQuery(e.to_string()))?;
    for (points, color) in [(black, Color::Black), (white, Color::White)] {
        for &p in points {
            if pos.get(p).is_some() {
                return Err(SearchError::BadQuery(format!(
                    "point {} is given twice",
                    p.sgf_string()
                )));
            }
            pos.set(p, Some(color));
        }
    }
    Ok(pos)
}

/// Parses a pattern diagram: one text row per board row, top row first; `X` black, `O` white,
/// `.` empty, `?` any, `x` black or empty, `o` white or empty. Blank lines and lines starting with
/// `#` are ignored. A diagram as large as the board is anchored to it; a smaller one is a
/// corner or side region: `place` says where its top-left point lies (for a corner region, the
/// corner it touches is found from `corner`).
pub fn parse_pattern(text: &str) -> Result<(u8, u8, Vec<Cell>), SearchError> {
    let mut cells = Vec::new();
    let mut width = None;
    let mut height = 0u8;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        // Columns are counted in characters of the line, spaces included, as an editor shows them.
        let row: Vec<Cell> = line
            .chars()
            .enumerate()
            .filter(|(_, c)| *c != ' ')
            .map(|(col, c)| {
                Ok(match c {
                    'X' => Cell::Black,
                    'O' => Cell::White,
                    '.' | '+' => Cell::Empty,
                    '?' => Cell::Any,
                    'x' => Cell::NotWhite,
                    'o' => Cell::NotBlack,
                    other => {
                        return Err(SearchError::BadQuery(format!(
                            "pattern line {}, column {}: {other:?} is not one of X O . ? x o",
                            n + 1,
                            col + 1
                        )))
                    }
                })
            })
            .collect::<Result<_, _>>()?;
        match width {
            None => width = Some(row.len()),
            Some(w) if w != row.len() => {
                return Err(SearchError::BadQuery(format!(
                    "pattern line {}: {} points where the first row has {w}",
                    n + 1,
                    row.len()
                )))
            }
            _ => {}
        }
        if row.len() > 52 || height == 52 {
            return Err(SearchError::BadQuery(format!(
                "pattern line {}: larger than the largest board (52×52)",
                n + 1
            )));
        }
        cells.extend(row);
        height += 1;
    }
    let width = width.unwrap_or(0) as u8;
    if width == 0 || height == 0 {
        return Err(SearchError::BadQuery("the pattern has no rows".into()));
    }
    Ok((width, height, cells))
}

/// Which games to look at: all, or those a metadata query selected (sorted ids).
pub type Filter<'a> = Option<&'a [u32]>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_in_three_notations() {
        let p = parse_points("pd Q16,0144 dp", 19, 19).unwrap();
        assert_eq!(
            p,
            vec![Point::new(15, 3); 3]
                .into_iter()
                .chain([Point::new(3, 15)])
                .collect::<Vec<_>>()
        );
        assert!(parse_points("I5", 19, 19).is_err());
        assert!(parse_points("T20", 19, 19).is_err());
        assert!(parse_points("zz", 19, 19).is_err());
        assert_eq!(parse_points("J10", 19, 19).unwrap(), vec![Point::new(8, 9)]);
        // Lines 27 to 52 in SGF's upper-case letters, on boards that have them only.
        assert_eq!(
            parse_points("ZZ Aa zA", 52, 52).unwrap(),
            vec![Point::new(51, 51), Point::new(26, 0), Point::new(25, 26)]
        );
        assert!(parse_points("Aa", 26, 26).is_err());
        assert!(parse_points("PD", 19, 19).is_err());
    }

    #[test]
    fn patterns_parse_and_complain() {
        let (w, h, cells) = parse_pattern("# corner\nX.o\n?Ox\n").unwrap();
        assert_eq!((w, h), (3, 2));
        assert_eq!(cells[2], Cell::NotBlack);
        assert_eq!(cells[5], Cell::NotWhite);
        let e = parse_pattern("X.\nX.Z\n").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        let e = parse_pattern("XQ\n").unwrap_err().to_string();
        assert!(e.contains("column 2"), "{e}");
        // Columns count the characters of the line, spaces included.
        let e = parse_pattern("X . Z\n").unwrap_err().to_string();
        assert!(e.contains("line 1, column 5"), "{e}");
        let e = parse_pattern("..\n.é\n").unwrap_err().to_string();
        assert!(e.contains("line 2, column 2") && e.contains("'é'"), "{e}");
        assert!(parse_pattern("\0\0\0").is_err());
        assert!(parse_pattern("\n#\n").is_err());
    }

    #[test]
    fn any_text_is_a_point_or_an_error_with_its_place() {
        for tok in [
            "é",
            "Q٣",
            "Q١٦",
            "",
            " ",
            "Q",
            "Q0",
            "Q+5",
            "Q-1",
            "Q016",
            "Q99999999999999999999",
            "99999999",
            "ﬀ",
            "\u{0}",
            "QQ16",
            "Ω16",
            "p",
            "pdd",
            "0000",
            "١٢٣٤",
            "I5",
            "Z26",
        ] {
            assert!(parse_point(tok, 19, 19).is_none(), "{tok:?}");
            assert!(
                parse_point(tok, 52, 52).is_none() || tok == "Z26",
                "{tok:?}"
            );
        }
        let e = parse_points("pd,Q16 é", 19, 19).unwrap_err().to_string();
        assert!(e.starts_with("point 3 \"é\""), "{e}");
        let e = parse_points("pd Q+5", 19, 19).unwrap_err().to_string();
        assert!(e.starts_with("point 2 "), "{e}");
        assert_eq!(parse_points("", 19, 19).unwrap(), vec![]);
        assert_eq!(parse_points("pd\tdp", 19, 19).unwrap().len(), 2);
        assert_eq!(parse_point("Z26", 52, 52), Some(Point::new(24, 26)));
    }

    #[test]
    fn move_lists_refuse_what_they_cannot_read() {
        let m = parse_moves("B[pd] W[qf];B[Q16]W[0144]", 19, 19).unwrap();
        assert_eq!(m.len(), 4);
        assert_eq!(m[1], (Color::White, Point::new(16, 5)));
        assert_eq!(m[2], (Color::Black, Point::new(15, 3)));
        let e = parse_moves("B[pd] X[qq]", 19, 19).unwrap_err().to_string();
        assert!(e.contains("move 2 \"X[qq]\" at column 7"), "{e}");
        let e = parse_moves("B[pd] W[]", 19, 19).unwrap_err().to_string();
        assert!(e.contains("move 2") && e.contains("pass"), "{e}");
        let e = parse_moves("B[pd] W[zz]", 19, 19).unwrap_err().to_string();
        assert!(e.contains("move 2") && e.contains("19×19"), "{e}");
        let e = parse_moves("B[pd] B[é", 19, 19).unwrap_err().to_string();
        assert!(e.contains("move 2"), "{e}");
        assert!(parse_moves("B[pd] junk", 19, 19).is_err());
        assert!(parse_moves(" ; ", 19, 19).is_err());
        assert!(parse_moves("", 19, 19).is_err());
        assert!(parse_moves(" \n", 19, 19).is_err());
        assert_eq!(parse_moves("01：44、36，", 19, 19).unwrap().len(), 2);
        let e = parse_moves("01：44、X", 19, 19).unwrap_err().to_string();
        assert!(e.contains("character 6"), "{e}");
        assert!(parse_moves("01：44、", 13, 13).is_err());
    }

    #[test]
    fn a_point_twice_is_an_error() {
        let p = Point::new(3, 3);
        assert!(position_from_points(19, 19, &[p], &[p]).is_err());
    }
}
