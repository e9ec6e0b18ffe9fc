//! Reading record files without an index: each game's information (normalised, with the raw
//! values beside), its main line and its diagnostics, and the board after any move, computed by
//! qipu's own engine (captures included). A client that iterates games for training or analysis
//! (the Python package) gets the same reading as `qipu index`, `info` and `show`, not a second
//! parser's.
//!
//! A game is read once into owned values ([`RecordGame`]): its main line as a short program of
//! setup and moves per node, so that the board after move k is a replay of that program and
//! never a second parse of the file (a monthly collection holds ten thousand games).

use goban::{Board, Color, Point};
use serde::Serialize;
use sgf::{ids, value, GameInfo, Records};

use crate::answer::Move;
use crate::error::{Error, QueryError, QueryPart};

/// The games of one record file (any format qipu reads: SGF, WTF, GIB, NGF, UGF/UGI, kifu-line
/// pairs), in file order, with the problems of the file as a whole.
#[derive(Clone, Debug, Default)]
pub struct RecordFile {
    /// Every game tree of the file (0 the first), those that could not be read included.
    pub games: Vec<RecordGame>,
    /// Problems of the file as a whole (no game found, an undecodable record), one line each.
    pub diagnostics: Vec<String>,
}

/// One game of a record file, read.
#[derive(Clone, Debug, Default)]
pub struct RecordGame {
    /// Its place in the file (0 the first).
    pub game: usize,
    /// The record format's name (`SGF`, `GIB`…).
    pub format: &'static str,
    /// Columns and rows.
    pub board: (u8, u8),
    /// Its game information, normalised, the raw values beside.
    pub info: RecordInfo,
    /// The main line's moves (a move whose point is malformed is played as a pass, as the
    /// replay plays it, with a diagnostic).
    pub moves: Vec<Move>,
    /// What was odd in it: the parser's diagnostics, then what reading the main line met
    /// (malformed move points, bad setup points, a node with both colours), one line each.
    pub diagnostics: Vec<String>,
    /// Why the game could not be read at all (no node, a board qipu cannot play on); its other
    /// fields are then empty.
    pub rejected: Option<String>,
    /// The engine evaluations the record carries (Sabaki's, Lizzie's, KaTrain's, KataGo's…,
    /// read by [`sgf::eval::read`]), from Black's side; `None` when it carries none. Values
    /// that could not be read are in [`RecordGame::diagnostics`].
    pub evals: Option<sgf::Evals>,
    /// The main line as one program of steps, for [`RecordGame::board`]: one flat vector, not
    /// one per node (a game has hundreds of nodes, and reading is meant to be cheap).
    steps: Vec<Step>,
}

/// A step of a main line's program: a node starts (and whether it holds a move), a setup point
/// (`AB`, `AW`, `AE` in that order; `None` empties the point), a move.
#[derive(Clone, Copy, Debug)]
enum Step {
    Node { moves: bool },
    Setup(Option<Color>, Point),
    Play(Move),
}

/// The normalised game information of a record, each read value beside what was written. Its
/// serialised form is a JSON object (the Python package's `Game.info`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RecordInfo {
    /// Black's name as written (decoded).
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Black's rank.
    pub black_rank: Option<RankField>,
    /// White's rank.
    pub white_rank: Option<RankField>,
    /// The event.
    pub event: Option<String>,
    /// The round.
    pub round: Option<String>,
    /// Where it was played.
    pub place: Option<String>,
    /// The rules as written.
    pub rules: Option<String>,
    /// The date.
    pub date: Option<DateField>,
    /// The result.
    pub result: Option<ResultField>,
    /// Komi.
    pub komi: Option<NumberField>,
    /// Handicap stones.
    pub handicap: Option<NumberField>,
    /// Main time, in seconds.
    pub time: Option<NumberField>,
    /// The character set the record was decoded from.
    pub charset: &'static str,
}

/// A rank as written and as read (`9p`, with its order for sorting: higher is stronger).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankField {
    /// As written.
    pub raw: String,
    /// As read (`9p`, `3d`, `15k`), if it reads as a rank.
    pub rank: Option<String>,
    /// Its place among ranks, if read.
    pub order: Option<i32>,
}

/// A date as written and the days it names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DateField {
    /// As written.
    pub raw: String,
    /// The first day (`YYYY-MM-DD`), if it reads as a date.
    pub start: Option<String>,
    /// The last day.
    pub end: Option<String>,
}

/// A result as written and as read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultField {
    /// As written.
    pub raw: String,
    /// `black`, `white`, `draw`… if it reads as a result.
    pub winner: Option<String>,
    /// How it was won (`resign`, `time`, `score`…), when said.
    pub how: Option<String>,
    /// The margin of a win by score.
    pub margin: Option<f64>,
    /// The result written the SGF way (`W+R`).
    pub sgf: Option<String>,
}

/// A number as written and as read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NumberField {
    /// As written.
    pub raw: String,
    /// As read.
    pub value: Option<f64>,
}

/// Reads every game of a record file's bytes. Never fails: a game that cannot be read is there
/// with [`RecordGame::rejected`], a file without games has its reason in
/// [`RecordFile::diagnostics`].
pub fn read_record(bytes: &[u8]) -> RecordFile {
    read(bytes, true)
}

/// [`read_record`] without the game information: every game's [`RecordGame::info`] is left
/// empty (its default), the rest is the same. For a client that reads main lines by the
/// million and wants the information of few games, or later (the Python package reads
/// `Game.info` from the record again on first access): normalising names, ranks, dates and
/// results is work, and a dozen strings per game to allocate and free.
pub fn read_record_moves(bytes: &[u8]) -> RecordFile {
    read(bytes, false)
}

fn read(bytes: &[u8], info: bool) -> RecordFile {
    let records = Records::read(bytes);
    let format = records.format().name();
    let games = (0..records.len())
        .map(|i| match records.game(i) {
            Ok(tree) => read_game(i, format, &tree, info),
            Err(d) => RecordGame {
                game: i,
                format,
                rejected: Some(d.to_string()),
                diagnostics: vec![d.to_string()],
                ..RecordGame::default()
            },
        })
        .collect();
    RecordFile {
        games,
        diagnostics: records
            .diagnostics()
            .iter()
            .map(|d| d.to_string())
            .collect(),
    }
}

fn read_game(i: usize, format: &'static str, tree: &sgf::GameTree<'_>, info: bool) -> RecordGame {
    let (w, h) = tree.board_size();
    let mut game = RecordGame {
        game: i,
        format,
        board: (w, h),
        diagnostics: tree.diagnostics().iter().map(|d| d.to_string()).collect(),
        ..RecordGame::default()
    };
    if let Err(e) = Board::new(w, h) {
        game.rejected = Some(e.to_string());
        game.diagnostics.push(e.to_string());
        return game;
    }
    if info {
        game.info = info_of(tree);
    }
    let mut points = Vec::new();
    let mut played = 0usize;
    for node in tree.main_line() {
        // One pass over the node's properties (a main line has hundreds of nodes): its first
        // `B` and `W`, as `get` finds them, and whether it has setup at all.
        let (mut b, mut wm, mut setup) = (None, None, false);
        for p in node.props() {
            match p.id() {
                ids::B if b.is_none() => b = Some(p),
                ids::W if wm.is_none() => wm = Some(p),
                ids::AB | ids::AW | ids::AE => setup = true,
                _ => {}
            }
        }
        let at = game.steps.len();
        game.steps.push(Step::Node {
            moves: b.is_some() || wm.is_some(),
        });
        let setup_values = setup.then(|| node.setup_values()).into_iter().flatten();
        for (content, raw) in setup_values {
            points.clear();
            let mut bad = !value::point_list(raw, &mut points);
            for &p in &points {
                if p.x < w && p.y < h {
                    game.steps.push(Step::Setup(content, p));
                } else {
                    bad = true;
                }
            }
            if bad {
                game.diagnostics.push(format!(
                    "before move {}: bad setup point [{}] ignored",
                    played + 1,
                    String::from_utf8_lossy(raw)
                ));
            }
        }
        if b.is_some() && wm.is_some() {
            game.diagnostics
                .push(format!("move {}: node holds both B and W", played + 1));
        }
        for (prop, color) in [(b, Color::Black), (wm, Color::White)] {
            let Some(prop) = prop else { continue };
            let raw = prop.raw();
            let point = Point::parse_move(raw, w, h).unwrap_or_else(|_| {
                game.diagnostics.push(format!(
                    "move {} {}[{}]: malformed point, played as a pass",
                    played + 1,
                    color.letter(),
                    String::from_utf8_lossy(raw)
                ));
                None
            });
            let m = Move { color, point };
            game.steps.push(Step::Play(m));
            game.moves.push(m);
            played += 1;
        }
        // A node that does nothing needs no step.
        if game.steps.len() == at + 1 {
            game.steps.pop();
        }
    }
    let (evals, problems) = sgf::eval::read_checked(tree);
    game.evals = evals;
    game.diagnostics
        .extend(problems.iter().map(|d| d.to_string()));
    game
}

/// A game's engine evaluations as the clients give them (`qipu info --json`, `qipu show
/// --json`, Python's `Game.evaluations`): the evaluated positions only, each named by the
/// moves played before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluations {
    /// The program whose property was read (`Sabaki`, `Lizzie`, `lizzieyzy`, `KaTrain`,
    /// `analyze-sgf`, `KataGo`).
    pub program: &'static str,
    /// The engine or network the record names, if it names one.
    pub engine: Option<String>,
    /// The evaluated positions in move order.
    pub positions: Vec<Evaluation>,
}

/// One evaluated position, from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// Moves of the main line played before the position (0: the start).
    #[serde(rename = "move")]
    pub moves: usize,
    /// Black's probability of winning, 0 to 1.
    pub win: f64,
    /// Black's lead in points (negative: White leads), where the record gives one.
    pub lead: Option<f64>,
    /// The visits behind it, where the record gives them.
    pub visits: Option<u32>,
}

impl From<&sgf::Evals> for Evaluations {
    fn from(e: &sgf::Evals) -> Evaluations {
        Evaluations {
            program: e.program,
            engine: e.engine.clone(),
            positions: e
                .positions
                .iter()
                .enumerate()
                .filter_map(|(k, p)| p.map(|p| Evaluation::new(k, &p)))
                .collect(),
        }
    }
}

impl Evaluation {
    /// The position after `moves` moves evaluated as `e`.
    pub fn new(moves: usize, e: &sgf::Eval) -> Evaluation {
        Evaluation {
            moves,
            win: decimal(e.win),
            lead: e.lead.map(decimal),
            visits: e.visits,
        }
    }
}

/// An `f32` as the `f64` of its shortest decimal form, so that `0.452` read from a record is
/// printed `0.452`, not `0.45199999213218689`.
fn decimal(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(x as f64)
}

impl RecordGame {
    /// [`RecordGame::evals`] as the clients give them.
    pub fn evaluations(&self) -> Option<Evaluations> {
        self.evals.as_ref().map(Evaluations::from)
    }
}

fn info_of(tree: &sgf::GameTree<'_>) -> RecordInfo {
    let info = GameInfo::read(tree);
    let rank = |r: Option<sgf::gameinfo::Field<sgf::info::Rank>>| {
        r.map(|r| RankField {
            rank: r.value.map(|v| v.to_string()),
            order: r.value.map(|v| v.order()),
            raw: r.raw,
        })
    };
    let number = |f: Option<sgf::gameinfo::Field<f64>>| {
        f.map(|f| NumberField {
            raw: f.raw,
            value: f.value,
        })
    };
    RecordInfo {
        black: info.black,
        white: info.white,
        black_rank: rank(info.black_rank),
        white_rank: rank(info.white_rank),
        event: info.event,
        round: info.round,
        place: info.place,
        rules: info.rules,
        date: info.date.map(|d| DateField {
            start: d.value.map(|v| v.start.to_string()),
            end: d.value.map(|v| v.end.to_string()),
            raw: d.raw,
        }),
        result: info.result.map(|r| {
            let v = r.value.as_ref();
            ResultField {
                winner: v.map(|v| format!("{:?}", v.winner).to_lowercase()),
                how: v
                    .and_then(|v| v.how)
                    .map(|h| format!("{h:?}").to_lowercase()),
                margin: v.and_then(|v| v.margin),
                sgf: v.and_then(|v| v.to_sgf()),
                raw: r.raw,
            }
        }),
        komi: number(info.komi),
        handicap: info.handicap.map(|f| NumberField {
            raw: f.raw,
            value: f.value.map(f64::from),
        }),
        time: number(info.time),
        charset: tree.charset().name(),
    }
}

/// A board after some moves: `cells[y * width + x]` is 1 for a black stone, −1 for a white one,
/// 0 for an empty point (row 0 the top, as SGF counts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardCells {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// One per point, row by row.
    pub cells: Vec<i8>,
}

impl RecordGame {
    /// The board after `k` moves of the main line (the oracle's position k: every node before
    /// the one holding move k + 1; `None`, or the number of moves, for the final position),
    /// replayed by qipu's engine: captures and suicide as its rules say. A `k` past the last
    /// move, or a rejected game, is [`crate::ErrorKind::BadQuery`].
    pub fn board(&self, k: Option<usize>) -> Result<BoardCells, Error> {
        if let Some(why) = &self.rejected {
            return Err(bad_position(format!(
                "game {} could not be read: {why}",
                self.game
            )));
        }
        let total = self.moves.len();
        if k.is_some_and(|k| k > total) {
            return Err(bad_position(format!(
                "move {}: game {} has {total} moves",
                k.unwrap_or_default(),
                self.game
            )));
        }
        let (w, h) = self.board;
        let mut board = Board::new(w, h).map_err(|e| bad_position(e.to_string()))?;
        let mut played = 0usize;
        for step in &self.steps {
            match *step {
                // Position k is the board before the node holding move k + 1, its setup too.
                Step::Node { moves: true } if k.is_some_and(|k| played >= k) => break,
                Step::Node { .. } => {}
                Step::Setup(content, p) => {
                    board.setup(content, p);
                }
                Step::Play(m) => {
                    board.play(m.color, m.point);
                    played += 1;
                }
            }
        }
        let mut cells = vec![0i8; usize::from(w) * usize::from(h)];
        for y in 0..h {
            for x in 0..w {
                cells[usize::from(y) * usize::from(w) + usize::from(x)] =
                    match board.get(Point::new(x, y)) {
                        Some(Color::Black) => 1,
                        Some(Color::White) => -1,
                        None => 0,
                    };
            }
        }
        Ok(BoardCells {
            width: w,
            height: h,
            cells,
        })
    }
}

fn bad_position(message: String) -> Error {
    QueryError::new(QueryPart::Position, message).into()
}
