//! Queries: what to look for (a position, a pattern, a move sequence, game information), how to
//! match it (symmetry, colours, side to move) and which part of the answer to return (sort,
//! offset, limit).
//!
//! A query is built in two steps: a constructor reads what the user wrote (a record, points, a
//! diagram, moves) and refuses what makes no sense with a [`QueryError`] that says what and
//! where; then methods set the options. What depends on several options together (does a
//! pattern placed at a point fit the board?) is checked when the query is asked
//! ([`crate::Index::search`]), before any work.

use goban::{Color, Point, Position};
use search::query::{
    parse_moves, parse_pattern, parse_points, position_from_points, position_from_record,
};
use search::{Cell, PatternQuery, PositionQuery, SequenceQuery};
use sgf::Records;

use crate::error::{Error, QueryError, QueryPart};
use crate::explore::{self, Handicap, Month, Narrow};
use crate::stop::Stop;

/// The largest board qipu reads (52×52, as SGF allows).
pub const MAX_BOARD: u8 = 52;

/// What to look for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Boxed: a position is large (a bitboard per colour), the other kinds small.
    Position(Box<Position>),
    Pattern {
        width: u8,
        height: u8,
        cells: Vec<Cell>,
    },
    Sequence {
        /// The board the moves belong to.
        board: (u8, u8),
        moves: Vec<(Color, Point)>,
    },
    /// Game information only: the metadata query is the whole question.
    Metadata,
}

/// In which order the hits of an answer come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Sort {
    /// In the order the games were indexed (the default, and the cheapest).
    #[default]
    Indexed,
    /// Games with the most hit positions first (ties in indexed order).
    MostPositions,
    /// The oldest game first, by the first day its date can mean; undated games last. Costs a
    /// look-up of every hit game's information, not only the returned ones'.
    Oldest,
    /// The newest game first; undated games last. Same cost as [`Sort::Oldest`].
    Newest,
    /// The strongest games first: by the weaker player's rank, then the stronger's (unknown
    /// ranks last); ties in indexed order. Reads the index's per-game facts only.
    Strongest,
    /// The longest games first (main-line moves); ties in indexed order.
    Longest,
}

/// A question to an index. Build one with [`Query::position`], [`Query::from_record`],
/// [`Query::points`], [`Query::pattern`], [`Query::moves`], [`Query::moves_from_record`] or
/// [`Query::metadata`], then set options; any of the first six can be narrowed by game
/// information with [`Query::filter`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    kind: Kind,
    filter: Option<String>,
    within: Option<Vec<u32>>,
    board: u8,
    place: (u8, u8),
    anywhere: bool,
    symmetry: bool,
    swap_colors: bool,
    to_move: Option<Color>,
    in_order: bool,
    any_gap: bool,
    pub(crate) limit: Option<usize>,
    pub(crate) offset: usize,
    pub(crate) sort: Sort,
    pub(crate) stop: Option<Stop>,
    pub(crate) narrow: Narrow,
    pub(crate) with_copies: bool,
    pub(crate) by_month: bool,
    /// Never read pre-aggregated continuations ([`Query::force_scan`]).
    force_scan: bool,
    /// The moves that lost what this asks ([`Query::mistakes`]), answered by
    /// [`crate::Index::mistakes`].
    pub(crate) mistakes: Option<crate::Mistakes>,
}

impl Query {
    fn of(kind: Kind) -> Query {
        Query {
            kind,
            filter: None,
            within: None,
            board: 19,
            place: (0, 0),
            anywhere: false,
            symmetry: true,
            swap_colors: false,
            to_move: None,
            in_order: true,
            any_gap: false,
            limit: None,
            offset: 0,
            sort: Sort::Indexed,
            stop: None,
            narrow: Narrow::default(),
            with_copies: false,
            by_month: false,
            force_scan: false,
            mistakes: None,
        }
    }

    /// A whole-board position to find: games that reached exactly these stones.
    pub fn position(position: Position) -> Query {
        Query::of(Kind::Position(Box::new(position)))
    }

    /// The position after move `at` (default: the last) of the main line of the first game in
    /// `record` (SGF, or any format qipu reads). A record of setup stones only gives its setup.
    pub fn from_record(record: &[u8], at: Option<usize>) -> Result<Query, Error> {
        let position = position_from_record(record, at)
            .map_err(|e| QueryError::in_part(e, QueryPart::Position))?;
        Ok(Query::position(position))
    }

    /// A position typed as points: `black` and `white` are lists of points in SGF (`pd`), GTP
    /// (`Q16`) or quadrant (`0144`, 19×19) notation, separated by commas, semicolons or spaces,
    /// on a `size`×`size` board. A point that is none of these is refused with its place in the
    /// list.
    pub fn points(size: u8, black: &str, white: &str) -> Result<Query, Error> {
        check_board(size)?;
        let points = |text| {
            parse_points(text, size, size).map_err(|e| QueryError::in_part(e, QueryPart::Points))
        };
        let (b, w) = (points(black)?, points(white)?);
        let position = position_from_points(size, size, &b, &w)
            .map_err(|e| QueryError::in_part(e, QueryPart::Points))?;
        Ok(Query::position(position).board_size(size))
    }

    /// A pattern diagram: one text row per board row, top row first; `X` black, `O` white, `.`
    /// empty, `?` any, `x` black or empty, `o` white or empty; blank lines and lines starting
    /// with `#` are skipped. A diagram smaller than the board is a region, placed with
    /// [`Query::place`] (default: the top-left corner; symmetry covers the other corners) or
    /// anywhere with [`Query::anywhere`]. A character that is none of these is refused with its
    /// line and column.
    pub fn pattern(diagram: &str) -> Result<Query, Error> {
        let (width, height, cells) =
            parse_pattern(diagram).map_err(|e| QueryError::in_part(e, QueryPart::Pattern))?;
        Ok(Query::of(Kind::Pattern {
            width,
            height,
            cells,
        }))
    }

    /// A move sequence (a joseki, say) typed as `B[pd] W[qf] B[nc]` (each point in any notation
    /// of [`Query::points`]), or in quadrant digits (`01：44、36，63、`, 19×19 only), on a
    /// `size`×`size` board. Games hit where the sequence is complete as a player means it: in
    /// that order, other moves (tenuki) allowed between only outside the sequence's area (the
    /// rectangle of its points grown by two lines), and from its second move to its last within
    /// `2 × length + 10` moves of the game ([`search::span`]; why: the search crate's
    /// `sequence` module). [`Query::any_order`] takes the moves as a set, [`Query::any_gap`]
    /// allows any moves between, over any number of moves. A move that is not one is refused
    /// with its number and column.
    pub fn moves(text: &str, size: u8) -> Result<Query, Error> {
        check_board(size)?;
        let moves =
            parse_moves(text, size, size).map_err(|e| QueryError::in_part(e, QueryPart::Moves))?;
        Ok(Query::of(Kind::Sequence {
            board: (size, size),
            moves,
        }))
    }

    /// The main line of the first game in `record` as a move sequence (see [`Query::moves`]),
    /// on that game's board; passes are left out. `name` is how messages call the record (a
    /// file name, say).
    pub fn moves_from_record(record: &[u8], name: &str) -> Result<Query, Error> {
        let bad = |message: String| Error::from(QueryError::new(QueryPart::Moves, message));
        let records = Records::read(record);
        let tree = records
            .game(0)
            .map_err(|d| bad(format!("moves {name}: {d}")))?;
        let board = tree.board_size();
        let moves: Vec<(Color, Point)> = tree
            .main_line_moves()
            .map_err(|i| bad(format!("moves: move {} is not a point", i + 1)))?
            .into_iter()
            .filter_map(|(c, p)| p.map(|p| (c, p)))
            .collect();
        if moves.is_empty() {
            return Err(bad(format!("moves {name}: no moves found")));
        }
        if let Some((_, p)) = moves.iter().find(|(_, p)| p.x >= board.0 || p.y >= board.1) {
            return Err(bad(format!(
                "moves: {} is off a {}×{} board",
                p.sgf_string(),
                board.0,
                board.1
            )));
        }
        Ok(Query::of(Kind::Sequence { board, moves }))
    }

    /// Games whose information matches a metadata query, e.g.
    /// `black:"Lee Sedol" AND date:[2005 TO 2010] AND winner:B` (fields and syntax: the
    /// repository's README). Its mistakes are found when the query is asked, and said with
    /// their place.
    pub fn metadata(query: impl Into<String>) -> Query {
        Query {
            filter: Some(query.into()),
            ..Query::of(Kind::Metadata)
        }
    }

    /// The moves of every analysed game that lost what `mistakes` asks ([`crate::Index::mistakes`]
    /// answers it); narrow it as any query ([`Query::filter`], dates, ranks).
    pub fn mistakes(mistakes: crate::Mistakes) -> Query {
        Query {
            mistakes: Some(mistakes),
            ..Query::of(Kind::Metadata)
        }
    }

    /// Asks, of any query, the moves that lost what `mistakes` asks: of a metadata query, every
    /// move of its games; of a position, pattern or sequence, the moves its continuation rows
    /// count ([`crate::Index::mistakes`] answers it).
    pub fn and_mistakes(mut self, mistakes: crate::Mistakes) -> Query {
        self.mistakes = Some(mistakes);
        self
    }

    /// The mistakes part of the query ([`Query::mistakes`]), if it has one.
    pub fn mistakes_asked(&self) -> Option<&crate::Mistakes> {
        self.mistakes.as_ref()
    }

    /// Only games whose information matches `query` (a metadata query, as for
    /// [`Query::metadata`]).
    pub fn filter(mut self, query: impl Into<String>) -> Query {
        self.filter = Some(query.into());
        self
    }

    /// Only these games (by number; a collection a user keeps, say), as well as any
    /// [`Query::filter`]. Game numbers the index does not hold are ignored.
    pub fn within(mut self, games: impl IntoIterator<Item = u32>) -> Query {
        let mut games: Vec<u32> = games.into_iter().collect();
        games.sort_unstable();
        games.dedup();
        self.within = Some(games);
        self
    }

    /// The games [`Query::within`] allows, sorted, if it was given.
    pub(crate) fn allowed(&self) -> Option<&[u32]> {
        self.within.as_deref()
    }

    /// The board a pattern belongs to, `size`×`size` (default 19); a diagram larger than that
    /// in either direction is a whole board of its own size. Positions and move sequences carry
    /// their board; this only records it for them.
    pub fn board_size(mut self, size: u8) -> Query {
        self.board = size;
        self
    }

    /// Where a pattern smaller than the board lies: the column and row (0-based) of its top-left
    /// point. Default `(0, 0)`.
    pub fn place(mut self, column: u8, row: u8) -> Query {
        self.place = (column, row);
        self
    }

    /// Whether a pattern or move sequence may lie anywhere on the board (translations as well as
    /// symmetries). Default no.
    pub fn anywhere(mut self, yes: bool) -> Query {
        self.anywhere = yes;
        self
    }

    /// Whether to match every rotation and reflection of the board too (8 on a square board, 4
    /// on a rectangle). Default yes.
    pub fn symmetry(mut self, yes: bool) -> Query {
        self.symmetry = yes;
        self
    }

    /// Whether to match with colours exchanged too. Default no.
    pub fn swap_colors(mut self, yes: bool) -> Query {
        self.swap_colors = yes;
        self
    }

    /// Positions only: hit only where `color` (in the query's colours) plays next.
    pub fn to_move(mut self, color: Option<Color>) -> Query {
        self.to_move = color;
        self
    }

    /// Move sequences only: whether the moves may come in any order (as a set). Default no: in
    /// order.
    pub fn any_order(mut self, yes: bool) -> Query {
        self.in_order = !yes;
        self
    }

    /// Move sequences only: whether other moves may come anywhere between the sequence's, and
    /// the sequence be spread over any number of moves (its moves anywhere later in the game).
    /// Default no: other moves only outside the sequence's area, the sequence within its span
    /// (see [`Query::moves`]).
    pub fn any_gap(mut self, yes: bool) -> Query {
        self.any_gap = yes;
        self
    }

    /// At most `n` hit games in the answer (`None`: all, the default). The summary still counts
    /// every hit.
    pub fn limit(mut self, n: Option<usize>) -> Query {
        self.limit = n;
        self
    }

    /// Leave out the first `n` hit games of the answer (for pages). Default 0.
    pub fn offset(mut self, n: usize) -> Query {
        self.offset = n;
        self
    }

    /// The order of the hits (default [`Sort::Indexed`]).
    pub fn sort(mut self, sort: Sort) -> Query {
        self.sort = sort;
        self
    }

    /// Only games dated from this month on (`YYYY` or `YYYY-MM`; a bare year from its
    /// January). The index keeps each game's date to the month: a game dated by year only, or
    /// by a range across months, counts as the first month it names; undated games are left
    /// out. Narrows hits, continuations and profile alike.
    pub fn since(mut self, date: &str) -> Result<Query, Error> {
        self.narrow.since = Some(Month::parse(date, false)?);
        Ok(self)
    }

    /// Only games dated up to this month (`YYYY` or `YYYY-MM`; a bare year to its December);
    /// as [`Query::since`].
    pub fn until(mut self, date: &str) -> Result<Query, Error> {
        self.narrow.until = Some(Month::parse(date, true)?);
        Ok(self)
    }

    /// Only games where both players are at least this rank (`5k`, `3d`, `9p`; kyu < amateur
    /// dan < professional): a strength filter for the game as a whole, so a game where either
    /// rank is unknown is left out. (One player at least R is the query language's
    /// `rank:>=R`.)
    pub fn min_rank(mut self, rank: &str) -> Result<Query, Error> {
        self.narrow.min_rank = Some(explore::rank_code(rank)?);
        Ok(self)
    }

    /// Only even games, only handicap games, or any (the default); see [`Handicap`].
    pub fn handicap(mut self, which: Handicap) -> Query {
        self.narrow.handicap = which;
        self
    }

    /// Only games whose komi is from `low` to `high` (inclusive); games without komi are left
    /// out. The index keeps komi to the quarter point (3.75, Fox's komi in stones, is not 4), so
    /// the bounds are taken inward to quarters: `6.6..7.4` holds no game of 6.5 or 7.5.
    pub fn komi(mut self, low: f64, high: f64) -> Query {
        let quarters = |k: f64| k.clamp(-1000.0, 1000.0) * 4.0;
        self.narrow.komi = Some((quarters(low).ceil() as i16, quarters(high).floor() as i16));
        self
    }

    /// Only games of a `size`×`size` board. Positions, patterns and sequences carry their
    /// board already; this narrows a metadata query (as `size:N` in its language does).
    pub fn only_size(mut self, size: u8) -> Query {
        self.narrow.board = Some((size, size));
        self
    }

    /// Answer a position from its occurrences even where the index keeps pre-aggregated
    /// continuations: the same answer, the slow way. For tests that compare the two.
    #[doc(hidden)]
    pub fn force_scan(mut self, yes: bool) -> Query {
        self.force_scan = yes;
        self
    }

    /// The cells of the index's pre-aggregated continuations that this query's filters keep,
    /// when they are all filters cells can apply exactly (months, the weaker rank, handicap or
    /// not); `None` when another filter is set (metadata, a list of games, komi, a board) or
    /// the scan is forced.
    fn cell_filter(&self) -> Option<search::CellFilter> {
        let n = &self.narrow;
        if self.force_scan
            || self.filter.is_some()
            || self.within.is_some()
            || n.komi.is_some()
            || n.board.is_some()
        {
            return None;
        }
        Some(search::CellFilter {
            since: n.since.map(|m| (m.year, m.month)),
            until: n.until.map(|m| (m.year, m.month)),
            min_rank: n.min_rank,
            handicap: match n.handicap {
                Handicap::Any => None,
                Handicap::Even => Some(false),
                Handicap::Handicap => Some(true),
            },
        })
    }

    /// How many hits, in game order, the answer lists at most: all the offset skips and the
    /// limit keeps, when the hits are in game order and a limit is set; `None` otherwise
    /// (another order sorts every hit).
    fn first_hits(&self) -> Option<usize> {
        match (self.sort, self.limit) {
            (Sort::Indexed, Some(limit)) => Some(self.offset.saturating_add(limit)),
            _ => None,
        }
    }

    /// Whether each exact copy of a game counts in the continuation table and the profile
    /// (the oracle's tables count them), or only the first of each set of copies in the answer
    /// (the default: a game entered twice is one game). The hits list every copy either way,
    /// marked [`crate::GameInfo::copy`].
    pub fn with_copies(mut self, yes: bool) -> Query {
        self.with_copies = yes;
        self
    }

    /// Whether the answer's profile also counts the hit games per month. Default no: per year.
    pub fn by_month(mut self, yes: bool) -> Query {
        self.by_month = yes;
        self
    }

    /// Lets `stop` give up on the search (a server's time budget, a client gone): see [`Stop`].
    /// A stopped search answers [`crate::ErrorKind::Stopped`], never part of an answer.
    pub fn stop_when(mut self, stop: Stop) -> Query {
        self.stop = Some(stop);
        self
    }

    /// The position this query looks for, if it is a position query (to draw it, say).
    pub fn searched_position(&self) -> Option<&Position> {
        match &self.kind {
            Kind::Position(p) => Some(p),
            _ => None,
        }
    }

    /// The pattern this query looks for, if it is a pattern query (to draw it, say): its
    /// columns, rows, and one diagram character per point, row by row (`X O . ? x o`, as
    /// [`Query::pattern`] reads them), and where its top-left point lies on the board
    /// ([`Query::place`]; `None` with [`Query::anywhere`]).
    #[allow(clippy::type_complexity)]
    pub fn searched_pattern(&self) -> Option<(u8, u8, Vec<char>, Option<(u8, u8)>)> {
        match &self.kind {
            Kind::Pattern {
                width,
                height,
                cells,
            } => Some((
                *width,
                *height,
                cells
                    .iter()
                    .map(|c| match c {
                        Cell::Black => 'X',
                        Cell::White => 'O',
                        Cell::Empty => '.',
                        Cell::Any => '?',
                        Cell::NotWhite => 'x',
                        Cell::NotBlack => 'o',
                    })
                    .collect(),
                (!self.anywhere).then_some(self.place),
            )),
            _ => None,
        }
    }

    /// How the query is to be answered beside what it looks for: symmetry, colours, the games'
    /// facts it narrows by, copies. For clients that answer a query elsewhere (SQL over an
    /// export) and must refuse what they cannot.
    pub fn options(&self) -> QueryOptions {
        QueryOptions {
            symmetry: self.symmetry,
            swap_colors: self.swap_colors,
            to_move: self.to_move,
            with_copies: self.with_copies,
            since: self.narrow.since,
            until: self.narrow.until,
            min_rank: self.narrow.min_rank,
            handicap: self.narrow.handicap,
            komi_quarters: self.narrow.komi,
            board: self.narrow.board,
            by_game_information: self.filter.is_some() || self.within.is_some(),
        }
    }

    /// The board size the query was given ([`Query::board_size`]; 19 unless set).
    pub fn board(&self) -> u8 {
        self.board
    }

    /// Whether the query is of game information only ([`Query::metadata`]): no position,
    /// pattern or moves, so no board of its own.
    pub fn metadata_only(&self) -> bool {
        self.kind == Kind::Metadata
    }

    /// The metadata query that selects or filters games, if any.
    pub fn metadata_query(&self) -> Option<&str> {
        self.filter.as_deref()
    }

    /// A pattern query's frame, the coordinates its continuation rows are in: the board
    /// (columns, rows) for a pattern anchored to it, the diagram's own for one that may lie
    /// anywhere. `None` for the other kinds.
    pub(crate) fn pattern_frame(&self) -> Option<(u8, u8)> {
        match &self.kind {
            Kind::Pattern { width, height, .. } if self.anywhere => Some((*width, *height)),
            Kind::Pattern { width, height, .. } => {
                Some((self.board.max(*width), self.board.max(*height)))
            }
            _ => None,
        }
    }

    /// Puts a `color` stone at `p` (in [`Query::pattern_frame`]'s coordinates) into the
    /// pattern's diagram; the reason when it cannot: not a pattern, a point outside the
    /// diagram, a stone the pattern already asks for there.
    pub(crate) fn add_stone(&mut self, p: Point, color: Color) -> Result<(), String> {
        let (dx, dy) = if self.anywhere { (0, 0) } else { self.place };
        let Kind::Pattern {
            width,
            height,
            cells,
        } = &mut self.kind
        else {
            return Err("only a pattern is walked on".into());
        };
        let (x, y) = match (p.x.checked_sub(dx), p.y.checked_sub(dy)) {
            (Some(x), Some(y)) if x < *width && y < *height => (x, y),
            _ => return Err("it lies outside the pattern's diagram".into()),
        };
        let cell = &mut cells[y as usize * *width as usize + x as usize];
        if matches!(cell, Cell::Black | Cell::White) {
            return Err("the pattern has a stone there already".into());
        }
        *cell = match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        };
        Ok(())
    }

    /// The query as the search crate answers it, checked: every combination of options that
    /// cannot be answered is refused here, before any work.
    pub(crate) fn plan(&self) -> Result<Plan, Error> {
        if self.mistakes.is_some() {
            return Err(QueryError::new(
                QueryPart::Nothing,
                "a search for mistakes is answered by Index::mistakes, not Index::search",
            )
            .into());
        }
        let pattern_error = |m: String| Error::from(QueryError::new(QueryPart::Pattern, m));
        Ok(match &self.kind {
            Kind::Position(position) => Plan::Position(Box::new(PositionQuery {
                position: (**position).clone(),
                symmetry: self.symmetry,
                swap_colors: self.swap_colors,
                to_move: self.to_move,
                aggregates: self.cell_filter(),
                first_hits: self.first_hits(),
            })),
            Kind::Pattern {
                width,
                height,
                cells,
            } => {
                check_board(self.board)?;
                let (width, height) = (*width, *height);
                // A diagram larger than the board in either direction is a whole board of its
                // own size.
                let board = (self.board.max(width), self.board.max(height));
                if board.0 > MAX_BOARD || board.1 > MAX_BOARD {
                    return Err(pattern_error(format!(
                        "pattern: the diagram is {width}×{height}; a board has at most 52 lines"
                    )));
                }
                let offset = self.place;
                if !self.anywhere
                    && (offset.0 as u16 + width as u16 > board.0 as u16
                        || offset.1 as u16 + height as u16 > board.1 as u16)
                {
                    return Err(pattern_error(format!(
                        "a {width}×{height} pattern at {},{} does not fit a {}×{} board",
                        offset.0, offset.1, board.0, board.1
                    )));
                }
                Plan::Pattern(PatternQuery {
                    width,
                    height,
                    cells: cells.clone(),
                    offset,
                    board,
                    symmetry: self.symmetry,
                    swap_colors: self.swap_colors,
                    anywhere: self.anywhere,
                    continued: false,
                })
            }
            Kind::Sequence { board, moves } => Plan::Sequence(SequenceQuery {
                board: *board,
                moves: moves.clone(),
                in_order: self.in_order,
                any_gap: self.any_gap,
                symmetry: self.symmetry,
                swap_colors: self.swap_colors,
                anywhere: self.anywhere,
                continued: false,
            }),
            Kind::Metadata => Plan::Metadata {
                first_hits: self.first_hits(),
            },
        })
    }
}

/// What [`Query::options`] tells: the query's options as plain values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct QueryOptions {
    /// All symmetries of the board, or the orientation given only.
    pub symmetry: bool,
    /// Colour-swapped images too.
    pub swap_colors: bool,
    /// Only hits where this colour plays next.
    pub to_move: Option<Color>,
    /// Each exact copy counts in the continuation table.
    pub with_copies: bool,
    /// Only games dated from this month on (a game without a month counts as its January).
    pub since: Option<Month>,
    /// Only games dated up to this month.
    pub until: Option<Month>,
    /// Both players at least this rank code ([`crate::GameFacts::black_rank`]'s scale).
    pub min_rank: Option<u8>,
    /// Even games, handicap games or any.
    pub handicap: Handicap,
    /// Komi from and to, in quarter points, inclusive: [`Query::komi`]'s bounds taken inward to
    /// quarters, as the index and the exports' `komi_quarters` columns keep komi.
    pub komi_quarters: Option<(i16, i16)>,
    /// Only games of this board (columns, rows).
    pub board: Option<(u8, u8)>,
    /// Games are also chosen by their information: a metadata filter or a list of games.
    pub by_game_information: bool,
}

/// A checked query in the search crate's terms.
pub(crate) enum Plan {
    Position(Box<PositionQuery>),
    Pattern(PatternQuery),
    Sequence(SequenceQuery),
    /// The games a metadata query selects; `first_hits` as [`PositionQuery::first_hits`]: how
    /// many of them, in game order, the answer lists at most (all are counted and profiled).
    Metadata {
        first_hits: Option<usize>,
    },
}

/// A board size qipu can read, or the caller's error.
fn check_board(size: u8) -> Result<(), Error> {
    if (1..=MAX_BOARD).contains(&size) {
        return Ok(());
    }
    Err(QueryError::new(
        QueryPart::Board,
        format!("--size {size}: a board has 1 to 52 lines"),
    )
    .into())
}

/// Checks a board size as [`Query::points`] and [`Query::moves`] do, for a caller that takes
/// the size before it knows the kind of query (a command line's `--size`).
pub fn check_board_size(size: u8) -> Result<(), Error> {
    check_board(size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn part(e: Error) -> QueryPart {
        assert_eq!(e.kind(), ErrorKind::BadQuery, "{e}");
        e.query().expect("a query error").part()
    }

    #[test]
    fn each_mistake_names_its_part() {
        assert_eq!(
            part(Query::points(19, "pd", "zz").unwrap_err()),
            QueryPart::Points
        );
        assert_eq!(
            part(Query::points(0, "pd", "").unwrap_err()),
            QueryPart::Board
        );
        assert_eq!(
            part(Query::points(53, "", "").unwrap_err()),
            QueryPart::Board
        );
        assert_eq!(part(Query::pattern("X.Z").unwrap_err()), QueryPart::Pattern);
        let e = Query::moves("B[pd] X[qq]", 19).unwrap_err();
        assert!(
            e.to_string().contains("move 2 \"X[qq]\" at column 7"),
            "{e}"
        );
        assert_eq!(part(e), QueryPart::Moves);
        assert_eq!(
            part(Query::from_record(b"(;SZ[19];B[pd])", Some(5)).unwrap_err()),
            QueryPart::Position
        );
        assert_eq!(
            part(Query::moves_from_record(b"(;SZ[19])", "x.sgf").unwrap_err()),
            QueryPart::Moves
        );
    }

    #[test]
    fn a_pattern_must_fit_where_it_is_placed() {
        let q = Query::pattern("X.\n.O\n").unwrap();
        assert!(q.clone().place(17, 17).plan().is_ok());
        let e = q.clone().place(18, 0).plan().err().unwrap();
        assert!(e.to_string().contains("does not fit a 19×19 board"), "{e}");
        assert_eq!(part(e), QueryPart::Pattern);
        // Anywhere, the place does not matter.
        assert!(q.clone().place(18, 18).anywhere(true).plan().is_ok());
        // A diagram wider than the board makes its own board.
        let wide = Query::pattern(&".".repeat(21)).unwrap().board_size(9);
        match wide.plan().ok().unwrap() {
            Plan::Pattern(p) => assert_eq!(p.board, (21, 9)),
            _ => panic!("a pattern"),
        }
        assert_eq!(
            part(
                Query::pattern(".")
                    .unwrap()
                    .board_size(0)
                    .plan()
                    .err()
                    .unwrap()
            ),
            QueryPart::Board
        );
    }

    #[test]
    fn options_reach_the_search() {
        let q = Query::points(19, "pd", "dp")
            .unwrap()
            .symmetry(false)
            .swap_colors(true)
            .to_move(Some(Color::White));
        match q.plan().ok().unwrap() {
            Plan::Position(p) => {
                assert!(!p.symmetry && p.swap_colors);
                assert_eq!(p.to_move, Some(Color::White));
            }
            _ => panic!("a position"),
        }
        let q = Query::moves("B[pd] W[dp]", 19).unwrap().any_order(true);
        match q.plan().ok().unwrap() {
            Plan::Sequence(s) => assert!(!s.in_order && !s.any_gap && s.moves.len() == 2),
            _ => panic!("a sequence"),
        }
        match q.any_gap(true).plan().ok().unwrap() {
            Plan::Sequence(s) => assert!(!s.in_order && s.any_gap),
            _ => panic!("a sequence"),
        }
        assert_eq!(
            Query::metadata("winner:B").metadata_query(),
            Some("winner:B")
        );
    }
}
