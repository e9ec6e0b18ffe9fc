//! Walking a joseki on from a pattern, as a player does on a board by clicking a continuation:
//! the stone of one row of the pattern's continuation table is added to the pattern, and the
//! pattern is searched again. One reading of the step's word (`Q17`, `B:Q17`, `W[qc]`) for
//! every front end (the command line's `--then`, the server's `then`, Python's `then=`), so
//! that all three take the same words and refuse the same mistakes in the same terms.

use goban::{Color, Point};
use search::query::{parse_moves, parse_points};

use crate::answer::{Answer, Continuation};
use crate::error::{Error, QueryError, QueryPart};
use crate::query::Query;

/// At most this many points of the table are named when a step is not one of them.
const POINTS_NAMED: usize = 30;

impl Query {
    /// This pattern with one more stone: the row of `continuations` (this query's answer's
    /// table) that `word` names. `word` is a point in any notation of [`Query::points`]
    /// (`Q17`, `qc`), in the table's coordinates (the board's for an anchored pattern, the
    /// diagram's own for one that lies [`Query::anywhere`]); a colour may choose between the
    /// rows of both colours at that point, written `B:Q17` or as a move, `B[Q17]`; without
    /// one, the more frequent row (the earlier in the table) is taken. The stone lies inside
    /// the pattern's region, since a row is a move played there, so the diagram holds it.
    ///
    /// A word that is no point, or a point (or colour) with no row, is refused as
    /// [`QueryPart::Then`], naming the word and the table's points; so is any query but a
    /// pattern.
    pub fn then(mut self, continuations: &[Continuation], word: &str) -> Result<Query, Error> {
        let bad = |m: String| Error::from(QueryError::new(QueryPart::Then, m));
        let Some((width, height)) = self.pattern_frame() else {
            return Err(bad(format!(
                "then {word:?}: only a pattern is walked on (give a pattern)"
            )));
        };
        let (color, point) = read_step(word, width, height).map_err(&bad)?;
        let row = continuations
            .iter()
            .find(|c| c.point == Some(point) && color.is_none_or(|k| k == c.color));
        let Some(row) = row else {
            let whose = match color {
                Some(Color::Black) => "by Black ",
                Some(Color::White) => "by White ",
                None => "",
            };
            return Err(bad(format!(
                "then {word:?}: no continuation of the pattern {whose}was played at {}; {}",
                gtp(point, width, height),
                table_points(continuations, width, height)
            )));
        };
        self.add_stone(point, row.color)
            .map_err(|why| bad(format!("then {word:?}: {why}")))?;
        Ok(self)
    }

    /// Walks on from this pattern by each step of `steps` in turn (words as [`Query::then`]
    /// reads them, separated by commas, semicolons or spaces: `Q17,R14`), answering each
    /// pattern on the way with `search` (an index's [`crate::Index::search`], a
    /// [`crate::Shards::search`]) to know its continuation table; the walked pattern is
    /// returned, with this query's options, to be asked itself. A step that cannot be taken
    /// is refused as [`Query::then`] says, with its number when there are several.
    pub fn walk(
        self,
        steps: &str,
        mut search: impl FnMut(&Query) -> Result<Answer, Error>,
    ) -> Result<Query, Error> {
        let words: Vec<&str> = steps
            .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let mut query = self;
        for (i, word) in words.iter().enumerate() {
            // Only the table is needed on the way: no hit is looked up or sorted.
            let ask = query
                .clone()
                .limit(Some(0))
                .offset(0)
                .sort(crate::Sort::Indexed);
            let answer = search(&ask)?;
            query = query
                .then(&answer.continuations, word)
                .map_err(|e| match words.len() {
                    1 => e,
                    n => {
                        // `then "S3": why` becomes `then "S3" (step 2 of 3): why`.
                        let said = e.to_string();
                        let head = format!("then {word:?}");
                        let why = said.strip_prefix(&head).unwrap_or(&said);
                        Error::from(QueryError::new(
                            QueryPart::Then,
                            format!("{head} (step {} of {n}){why}", i + 1),
                        ))
                    }
                })?;
        }
        Ok(query)
    }
}

/// A step's colour, if written, and point.
fn read_step(word: &str, width: u8, height: u8) -> Result<(Option<Color>, Point), String> {
    let word = word.trim();
    let not_a_point = || format!("then {word:?}: not a point (write Q17, qc, B:Q17 or W[Q17])");
    if word.contains('[') {
        let moves = parse_moves(word, width, height).map_err(|e| format!("then {word:?}: {e}"))?;
        return match moves[..] {
            [(c, p)] => Ok((Some(c), p)),
            _ => Err(format!("then {word:?}: one move per step")),
        };
    }
    let (color, point) = match word.split_once(':') {
        Some((c, p)) => {
            let c = match c {
                "B" | "b" => Color::Black,
                "W" | "w" => Color::White,
                _ => return Err(not_a_point()),
            };
            (Some(c), p)
        }
        None => (None, word),
    };
    match parse_points(point, width, height).map_err(|_| not_a_point())?[..] {
        [p] => Ok((color, p)),
        _ => Err(not_a_point()),
    }
}

/// A point as a player reads it on the frame: GTP's letters and rows counted from the bottom
/// (`Q17`) up to 25 columns, SGF letters on wider frames.
fn gtp(p: Point, width: u8, height: u8) -> String {
    if width > 25 {
        return p.sgf_string();
    }
    let column = (b'A' + p.x + (p.x >= 8) as u8) as char;
    format!("{column}{}", height - p.y)
}

/// "its continuations are at …": the table's distinct points, in its order.
fn table_points(continuations: &[Continuation], width: u8, height: u8) -> String {
    let mut points: Vec<Point> = Vec::new();
    for p in continuations.iter().filter_map(|c| c.point) {
        if !points.contains(&p) {
            points.push(p);
        }
    }
    if points.is_empty() {
        return "the pattern has no continuation".into();
    }
    let mut named: Vec<String> = points
        .iter()
        .take(POINTS_NAMED)
        .map(|&p| gtp(p, width, height))
        .collect();
    if points.len() > POINTS_NAMED {
        named.push(format!("… {} more", points.len() - POINTS_NAMED));
    }
    format!("its continuations are at {}", named.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn row(color: Color, x: u8, y: u8, count: u32) -> Continuation {
        Continuation {
            color,
            point: Some(Point::new(x, y)),
            count,
            variations: 0,
            tenuki: 0,
            black_wins: 0,
            white_wins: 0,
            other: 0,
            mover_rank: None,
            mover_ranked: 0,
            opponent_rank: None,
            opponent_ranked: 0,
            first_year: None,
            last_year: None,
            example: None,
            analysed: 0,
            black_win_after: None,
            black_lead_after: None,
            win_loss: None,
            points_loss: None,
        }
    }

    fn diagram(q: &Query) -> String {
        q.searched_pattern().unwrap().2.into_iter().collect()
    }

    const CORNER: &str = "...\n...\n..X\n";

    #[test]
    fn a_step_adds_the_rows_stone_where_the_table_says() {
        // Placed at the lower-right corner of a 19×19 board: the diagram's top-left point is
        // (16, 16), R3 on the board; its X is T1.
        let q = Query::pattern(CORNER).unwrap().place(16, 16);
        // White's row at S2 (17, 17) is the more frequent of the two there.
        let table = [
            row(Color::White, 17, 17, 9),
            row(Color::Black, 17, 17, 3),
            row(Color::Black, 16, 16, 2),
        ];
        let walked = q.clone().then(&table, "S2").unwrap();
        assert_eq!(diagram(&walked), "....O...X");
        // A colour chooses the other row, in either spelling; SGF points are read too.
        for word in ["B:S2", "b:rr", "B[S2]", "B[rr]"] {
            let walked = q.clone().then(&table, word).unwrap();
            assert_eq!(diagram(&walked), "....X...X", "{word}");
        }
        let walked = q.clone().then(&table, "R3").unwrap();
        assert_eq!(diagram(&walked), "X.......X");
    }

    #[test]
    fn a_step_not_in_the_table_names_it_and_the_tables_points() {
        let q = Query::pattern(CORNER).unwrap().place(16, 16);
        let table = [row(Color::White, 17, 17, 9), row(Color::Black, 16, 16, 2)];
        for (word, says) in [
            ("S3", "no continuation of the pattern was played at S3"),
            ("W:R3", "by White was played at R3"),
            ("Z9", "not a point"),
            ("X:R3", "not a point"),
            ("R3,S2", "not a point"),
            ("B[R3] W[S2]", "one move per step"),
        ] {
            let e = q.clone().then(&table, word).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::BadQuery);
            assert_eq!(e.query().unwrap().part(), QueryPart::Then, "{word}");
            let m = e.to_string();
            assert!(m.contains(&format!("{word:?}")) && m.contains(says), "{m}");
        }
        let e = q.clone().then(&table, "S3").unwrap_err().to_string();
        assert!(e.ends_with("its continuations are at S2, R3"), "{e}");
        // A stone the pattern holds already is not put again.
        let table = [row(Color::Black, 18, 18, 1)];
        let e = q.then(&table, "T1").unwrap_err().to_string();
        assert!(e.contains("a stone there already"), "{e}");
        // Only patterns walk.
        let e = Query::points(19, "pd", "").unwrap().then(&table, "T1");
        assert_eq!(e.unwrap_err().query().unwrap().part(), QueryPart::Then);
    }

    #[test]
    fn a_pattern_anywhere_walks_in_its_own_coordinates() {
        // A 3×3 diagram anywhere: C1 is its lower-right point, (2, 2).
        let q = Query::pattern("...\n.X.\n...\n").unwrap().anywhere(true);
        let table = [row(Color::White, 2, 2, 4)];
        assert_eq!(diagram(&q.then(&table, "C1").unwrap()), "....X...O");
    }

    #[test]
    fn a_walk_asks_each_pattern_on_its_way_and_says_which_step_failed() {
        let q = Query::pattern(CORNER).unwrap().place(16, 16).limit(Some(5));
        let mut asked = Vec::new();
        let walked = q
            .clone()
            .walk(" S2, R3 ", |ask| {
                asked.push(diagram(ask));
                assert_eq!(ask.limit, Some(0));
                let table = match asked.len() {
                    1 => vec![row(Color::White, 17, 17, 1)],
                    _ => vec![row(Color::Black, 16, 16, 1)],
                };
                Ok(Answer {
                    continuations: table,
                    ..Answer::default()
                })
            })
            .unwrap();
        assert_eq!(asked, ["........X", "....O...X"]);
        assert_eq!(diagram(&walked), "X...O...X");
        // The walked query keeps the options it was given.
        assert_eq!(walked.limit, Some(5));
        let e = q
            .walk("S2 S3", |_| {
                Ok(Answer {
                    continuations: vec![row(Color::White, 17, 17, 1)],
                    ..Answer::default()
                })
            })
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("then \"S3\" (step 2 of 2): no continuation"),
            "{e}"
        );
    }
}
