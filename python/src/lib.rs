//! The extension module `qipu._qipu` behind the Python package `qipu` (python/qipu/): indexes,
//! searches, record reading and the Parquet export, on the library face (`qipu`), the input
//! reader (`qipu-inputs`) and the exporter (`qipu-export`) only.
//!
//! Answers are handed to Python as the face serialises them (`qipu::lines`, the shapes
//! `qipu search --json` prints), turned from serde values into Python objects by one
//! converter ([`to_python`]), so the two cannot drift apart. The GIL is released whenever qipu
//! works (opening, searching, reading, building, exporting): threads search in parallel. Every
//! failure is a Python exception with qipu's one-line message, never a crash: `QueryError`
//! (the query or a game asked for), `IndexError` (the index or the machine), `InputError` (an
//! input that cannot be read).

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList, PyString, PyTuple};
use qipu::records::{read_record, read_record_moves, RecordGame, RecordInfo};
use qipu::{Color, ErrorKind, Handicap, KomiRange, Query, Sort};
use rayon::prelude::*;
use serde_json::Value;

create_exception!(
    _qipu,
    Error,
    PyException,
    "Any failure of qipu; its message is qipu's one line."
);
create_exception!(
    _qipu,
    QueryError,
    Error,
    "The query (or a game or move asked for) is wrong: the caller can mend it."
);
create_exception!(
    _qipu,
    IndexError,
    Error,
    "The index or the machine failed: missing, old or damaged index, busy, I/O."
);
create_exception!(
    _qipu,
    InputError,
    Error,
    "An input given to read or build cannot be read as one."
);

/// qipu's error as the Python exception of its kind.
fn raise(e: qipu::Error) -> PyErr {
    let message = e.to_string();
    match e.kind() {
        ErrorKind::BadQuery => QueryError::new_err(message),
        ErrorKind::BadInput => InputError::new_err(message),
        _ => IndexError::new_err(message),
    }
}

/// A serde value as the Python object JSON would give (`dict`, `list`, `str`, `int`, `float`,
/// `bool`, `None`).
fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

fn serialised<'py, T: serde::Serialize>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(v).map_err(|e| Error::new_err(e.to_string()))?;
    to_python(py, &value)
}

/// Records are read with the same cap `qipu search --position` uses: a record file is at most
/// what the input reader takes.
fn read_capped(path: &Path, what: &str) -> PyResult<Vec<u8>> {
    let too_big = |n: u64| n > qipu_inputs_cap();
    match std::fs::metadata(path) {
        Ok(m) if too_big(m.len()) => {
            return Err(QueryError::new_err(format!(
                "{what} {}: larger than {} MiB, the limit for a record",
                path.display(),
                qipu_inputs_cap() >> 20
            )))
        }
        Ok(_) => {}
        Err(e) => {
            return Err(QueryError::new_err(format!(
                "{what} {}: {e}",
                path.display()
            )))
        }
    }
    std::fs::read(path).map_err(|e| QueryError::new_err(format!("{what} {}: {e}", path.display())))
}

fn qipu_inputs_cap() -> u64 {
    inputs::MAX_RECORD_BYTES
}

/// Board points a move can name: every point of the largest board (52×52), plus one slot for
/// a pass.
const POINT_SLOTS: usize = 52 * 52 + 1;

/// Every `(colour, point)` tuple a main line can hold — one per colour and point of a 52×52
/// board, and each colour's pass `("B", "")` — made once. Tuples are immutable, so a game's
/// `.moves` is a list of references to these: building it is a reference-count increment per
/// move, with no tuple (and no string) allocated or freed. Iterating a folder's main lines
/// spent more time making and freeing two million tuples than reading the files.
static MOVE_TUPLES: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();

fn move_tuples(py: Python<'_>) -> PyResult<&Vec<Py<PyTuple>>> {
    MOVE_TUPLES.get_or_try_init(py, || {
        let mut all = Vec::with_capacity(2 * POINT_SLOTS);
        for color in ["B", "W"] {
            let c = PyString::new(py, color);
            for i in 0..POINT_SLOTS {
                let name = if i < 52 * 52 {
                    qipu::Point::new((i % 52) as u8, (i / 52) as u8).sgf_string()
                } else {
                    String::new()
                };
                let p = PyString::new(py, &name);
                all.push(PyTuple::new(py, [c.clone(), p])?.unbind());
            }
        }
        Ok(all)
    })
}

/// Where a move's tuple is in [`move_tuples`].
fn move_slot(m: &qipu::Move) -> usize {
    let point = match m.point {
        Some(p) if p.x < 52 && p.y < 52 => usize::from(p.y) * 52 + usize::from(p.x),
        _ => 52 * 52,
    };
    match m.color {
        Color::Black => point,
        Color::White => POINT_SLOTS + point,
    }
}

fn moves_list<'py>(py: Python<'py>, moves: &[qipu::Move]) -> PyResult<Bound<'py, PyList>> {
    let tuples = move_tuples(py)?;
    // Made at its length in one call, not grown by appends.
    PyList::new(py, moves.iter().map(|m| tuples[move_slot(m)].bind(py)))
}

/// One game of a record file, read by qipu (`qipu.read`, `Index.game`).
#[pyclass(module = "qipu._qipu", frozen)]
struct Game {
    /// Its record file, shared by the file's games.
    origin: Arc<Origin>,
    /// The game as read; its `info` is empty when [`Origin::record`] is kept to read it later.
    read: RecordGame,
}

/// A record file whose games were read.
struct Origin {
    file: String,
    path: String,
    /// The record's bytes, kept when its games were read without their information
    /// (`qipu.read`): the information of all of them is read from these at the first `.info`
    /// of any (iterating main lines need not pay for it). `None`: `Game::read` has it.
    record: Option<inputs::RecordBytes>,
    infos: OnceLock<Vec<RecordInfo>>,
}

impl Origin {
    fn new(file: String, path: String, record: Option<inputs::RecordBytes>) -> Arc<Origin> {
        Arc::new(Origin {
            file,
            path,
            record,
            infos: OnceLock::new(),
        })
    }
}

#[pymethods]
impl Game {
    /// The record file's name, as `qipu index` records it (relative to the folder given; an
    /// archive member as `archive/member`).
    #[getter]
    fn file(&self) -> &str {
        &self.origin.file
    }

    /// Where the record file is, as a path to give back to `qipu show`.
    #[getter]
    fn path(&self) -> &str {
        &self.origin.path
    }

    /// The game's place in its file (0 the first).
    #[getter]
    fn game(&self) -> usize {
        self.read.game
    }

    /// The record format (`SGF`, `GIB`…).
    #[getter]
    fn format(&self) -> &str {
        self.read.format
    }

    /// (columns, rows) of the board.
    #[getter]
    fn size(&self) -> (u8, u8) {
        self.read.board
    }

    /// The game information, normalised, with what was written beside each read value. For a
    /// game of `qipu.read` it is read from the record at the first `.info` of any game of its
    /// file (iterating main lines does not pay for it); a new dict each time.
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let info = match &self.origin.record {
            None => &self.read.info,
            Some(bytes) => {
                let infos = py.detach(|| {
                    self.origin.infos.get_or_init(|| {
                        read_record(bytes)
                            .games
                            .into_iter()
                            .map(|g| g.info)
                            .collect()
                    })
                });
                infos.get(self.read.game).unwrap_or(&self.read.info)
            }
        };
        serialised(py, info)
    }

    /// The main line as (colour, point) pairs: `("B", "pd")`, a pass `("W", "")`. A new list
    /// each time, of tuples shared by every game (tuples cannot change).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves_list(py, &self.read.moves)
    }

    /// What was odd in the record, one line each.
    #[getter]
    fn diagnostics(&self) -> Vec<String> {
        self.read.diagnostics.clone()
    }

    /// Why the game could not be read at all, or None.
    #[getter]
    fn rejected(&self) -> Option<String> {
        self.read.rejected.clone()
    }

    /// The engine evaluations the record carries, or None: a dict of `program`, `engine` and
    /// `positions`, a list of `{"move", "win", "lead", "visits"}` (the position after `move`
    /// moves; Black's win probability and lead, whatever side the program wrote).
    #[getter]
    fn evaluations<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.read
            .evaluations()
            .map(|e| serialised(py, &e))
            .transpose()
    }

    /// The board after `at` moves of the main line (the end by default) as a numpy `int8`
    /// array of rows × columns: 1 black, -1 white, 0 empty, computed by qipu's engine
    /// (captures included). A move past the end, or a game that could not be read, is a
    /// `QueryError`.
    #[pyo3(signature = (at=None))]
    fn board<'py>(&self, py: Python<'py>, at: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        let b = py.detach(|| self.read.board(at)).map_err(raise)?;
        let bytes: Vec<u8> = b.cells.iter().map(|&c| c as u8).collect();
        let cells = PyByteArray::new(py, &bytes);
        py.import("numpy")?
            .call_method1("frombuffer", (cells, "int8"))?
            .call_method1("reshape", (b.height, b.width))
    }

    fn __repr__(&self) -> String {
        format!(
            "<qipu.Game {}#{} {} moves>",
            self.origin.file,
            self.read.game,
            self.read.moves.len()
        )
    }
}

/// The games of files, folders and archives, read in batches of sources on all cores by a
/// thread of its own, one batch ahead of the caller (so Python's work on a batch overlaps the
/// reading of the next), handed out one at a time.
#[pyclass(module = "qipu._qipu")]
struct Reader {
    /// Behind a lock only because a Python object must be shareable; one thread reads it.
    batches: std::sync::Mutex<std::sync::mpsc::Receiver<Vec<SourceGames>>>,
    ready: VecDeque<Game>,
    problems: Vec<(String, String)>,
}

/// Sources read at once: enough to keep both cores busy on one-game files, few enough that a
/// batch of archives stays small.
const SOURCES_PER_BATCH: usize = 256;

/// Starts the thread that reads `sources` batch after batch; it stops when the reader is
/// dropped (its next send fails).
fn start_reading(sources: Vec<inputs::Source>) -> std::sync::mpsc::Receiver<Vec<SourceGames>> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::spawn(move || {
        for batch in sources.chunks(SOURCES_PER_BATCH) {
            let read: Vec<SourceGames> = batch.par_iter().map(read_one_source).collect();
            if tx.send(read).is_err() {
                return;
            }
        }
    });
    rx
}

type SourceGames = (Vec<Game>, Vec<(String, String)>);

fn read_one_source(source: &inputs::Source) -> SourceGames {
    let mut games = Vec::new();
    let mut problems = Vec::new();
    let result = inputs::read_source(source, &mut |rec| {
        let path = match rec
            .name
            .strip_prefix(source.name.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
        {
            Some(member) => format!("{}/{member}", source.path.display()),
            None => source.path.display().to_string(),
        };
        let mut file = read_record_moves(&rec.bytes);
        // A file cut short under its mapping is read whole at once: read again later, it
        // could give information from other bytes than its moves came from.
        let cut = rec.bytes.cut_while_read();
        if cut {
            file = read_record(&rec.bytes);
        }
        for d in &file.diagnostics {
            problems.push((rec.name.clone(), d.clone()));
        }
        if cut {
            problems.push((
                rec.name.clone(),
                "the file was cut short while it was read (by another program?)".to_string(),
            ));
        }
        let keep = !cut && !file.games.is_empty();
        let origin = Origin::new(rec.name, path, keep.then_some(rec.bytes));
        for g in file.games {
            games.push(Game {
                origin: Arc::clone(&origin),
                read: g,
            });
        }
    });
    if let Err(e) = result {
        problems.push((source.name.clone(), e.to_string()));
    }
    (games, problems)
}

#[pymethods]
impl Reader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> Option<Game> {
        while slf.ready.is_empty() {
            let batch = {
                let rx = &slf.batches;
                py.detach(|| rx.lock().ok()?.recv().ok())?
            };
            for (games, problems) in batch {
                slf.ready.extend(games);
                slf.problems.extend(problems);
            }
        }
        slf.ready.pop_front()
    }

    /// Problems of files as a whole, as (file, message) pairs, so far: files without a game,
    /// archives damaged part way (their games before the damage were given).
    #[getter]
    fn problems(&self) -> Vec<(String, String)> {
        self.problems.clone()
    }
}

/// Every game of `paths` (files, folders searched recursively, archives), as `qipu index`
/// reads them.
#[pyfunction]
fn read(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Reader> {
    let found = py
        .detach(|| inputs::discover_all(&paths))
        .map_err(|e| InputError::new_err(e.to_string()))?;
    let problems = found
        .unreadable
        .iter()
        .map(|e| (String::new(), e.to_string()))
        .chain(
            found
                .skipped
                .iter()
                .map(|s| (s.path.display().to_string(), s.reason.to_string())),
        )
        .collect();
    Ok(Reader {
        batches: std::sync::Mutex::new(start_reading(found.sources)),
        ready: VecDeque::new(),
        problems,
    })
}

/// Reads the games of the bytes of one record file (any format qipu reads).
#[pyfunction]
#[pyo3(signature = (data, name="-"))]
fn read_bytes(py: Python<'_>, data: Vec<u8>, name: &str) -> Vec<Game> {
    let file = py.detach(|| read_record(&data));
    let origin = Origin::new(name.to_string(), name.to_string(), None);
    file.games
        .into_iter()
        .map(|g| Game {
            origin: Arc::clone(&origin),
            read: g,
        })
        .collect()
}

/// An index opened for searching: one folder, or several searched as one.
#[pyclass(module = "qipu._qipu", frozen)]
struct Index {
    inner: Arc<qipu::Shards>,
    /// Game numbers by (file, game in file), made at the first `game()` call.
    names: OnceLock<HashMap<(String, u32), u32>>,
}

/// A word refused by the library's vocabulary, said with the keyword it was given as.
fn named(keyword: &str) -> impl Fn(qipu::Error) -> PyErr + '_ {
    move |e| QueryError::new_err(format!("{keyword}: {e}"))
}

/// `handicap=`: a class word of the library's vocabulary (`"even"`, `"handicap"`, `"any"`), or
/// `True` for handicap games (`False`: any).
#[derive(FromPyObject)]
enum HandicapArg {
    Flag(bool),
    Class(String),
}

/// `komi=`: `(low, high)`, or the library's word (`"6.5..7.5"`, `"6.5"`).
#[derive(FromPyObject)]
enum KomiArg {
    Range(f64, f64),
    Word(String),
}

/// The filters on the games' facts that narrow a whole answer (hits, continuations, profile),
/// as Python gave them; `qipu search --since/--until/--min-rank/--even/--handicap/--komi`.
struct Narrowing {
    since: Option<String>,
    until: Option<String>,
    min_rank: Option<String>,
    even: bool,
    handicap: Option<HandicapArg>,
    komi: Option<KomiArg>,
}

impl Narrowing {
    fn apply(&self, mut q: Query) -> PyResult<Query> {
        if let Some(d) = &self.since {
            q = q.since(d).map_err(named("since"))?;
        }
        if let Some(d) = &self.until {
            q = q.until(d).map_err(named("until"))?;
        }
        if let Some(r) = &self.min_rank {
            q = q.min_rank(r).map_err(named("min_rank"))?;
        }
        let class = match &self.handicap {
            None | Some(HandicapArg::Flag(false)) => None,
            Some(HandicapArg::Flag(true)) => Some(Handicap::Handicap),
            Some(HandicapArg::Class(word)) => Some(word.parse().map_err(named("handicap"))?),
        };
        q = match (self.even, class) {
            (true, Some(_)) => {
                return Err(QueryError::new_err(
                    "even and handicap: give one of them (each alone narrows to those games)",
                ))
            }
            (true, None) => q.handicap(Handicap::Even),
            (false, Some(class)) => q.handicap(class),
            (false, None) => q,
        };
        let komi = match &self.komi {
            None => None,
            Some(KomiArg::Range(low, high)) => Some(KomiRange::new(*low, *high)),
            Some(KomiArg::Word(word)) => Some(word.parse::<KomiRange>()),
        };
        if let Some(k) = komi {
            let k = k.map_err(named("komi"))?;
            q = q.komi(k.low, k.high);
        }
        Ok(q)
    }
}

/// What a search is asked, as Python gave it.
struct Ask {
    position: Option<PathBuf>,
    at: Option<usize>,
    black: Option<String>,
    white: Option<String>,
    size: u8,
    pattern: Option<String>,
    place: Option<(u8, u8)>,
    anywhere: bool,
    moves: Option<String>,
    any_order: bool,
    any_gap: bool,
    query: Option<String>,
}

fn build_query(a: &Ask) -> PyResult<Query> {
    qipu::check_board_size(a.size).map_err(raise)?;
    let q = if let Some(path) = &a.position {
        let bytes = read_capped(path, "position")?;
        Query::from_record(&bytes, a.at).map_err(raise)?
    } else if a.black.is_some() || a.white.is_some() {
        Query::points(
            a.size,
            a.black.as_deref().unwrap_or(""),
            a.white.as_deref().unwrap_or(""),
        )
        .map_err(raise)?
    } else if let Some(p) = &a.pattern {
        // A diagram's text, or the file holding one.
        let path = Path::new(p);
        let text = if !p.contains('\n') && path.is_file() {
            let bytes = read_capped(path, "pattern")?;
            String::from_utf8(bytes).map_err(|e| {
                QueryError::new_err(format!(
                    "pattern {p}: not UTF-8 text (byte {})",
                    e.utf8_error().valid_up_to()
                ))
            })?
        } else {
            p.clone()
        };
        let (c, r) = a.place.unwrap_or((0, 0));
        Query::pattern(&text)
            .map_err(raise)?
            .board_size(a.size)
            .place(c, r)
    } else if let Some(text) = &a.moves {
        let path = Path::new(text);
        if !text.contains('[') && path.is_file() {
            let bytes = read_capped(path, "moves")?;
            Query::moves_from_record(&bytes, &path.display().to_string()).map_err(raise)?
        } else {
            Query::moves(text, a.size).map_err(raise)?
        }
    } else if let Some(q) = &a.query {
        Query::metadata(q.as_str())
    } else {
        return Err(QueryError::new_err(
            "nothing to search: give position, black/white, pattern, moves or query",
        ));
    };
    Ok(q.any_order(a.any_order)
        .any_gap(a.any_gap)
        .anywhere(a.anywhere))
}

/// A list of points (`["pd", "Q16"]`) or one string of them, as the face reads them.
fn points_text(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(v) = v else { return Ok(None) };
    if v.is_none() {
        return Ok(None);
    }
    if let Ok(s) = v.extract::<String>() {
        return Ok(Some(s));
    }
    let items: Vec<String> = v.extract().map_err(|_| {
        QueryError::new_err("black/white: give a list of points (\"pd\", \"Q16\") or a string")
    })?;
    Ok(Some(items.join(",")))
}

/// Game numbers by (file, game in file), made once per index (a look-up in the game table per
/// game, no metadata).
fn numbers<'a>(
    index: &qipu::Shards,
    names: &'a OnceLock<HashMap<(String, u32), u32>>,
) -> &'a HashMap<(String, u32), u32> {
    names.get_or_init(|| {
        (0..index.len())
            .filter_map(|id| {
                let (f, g) = index.identity(id).ok()?;
                Some(((f.to_string(), g), id))
            })
            .collect()
    })
}

/// The numbers of the games `(file, game in file)` names; games the index does not hold are
/// none of the games searched.
fn game_ids(
    index: &qipu::Shards,
    names: &OnceLock<HashMap<(String, u32), u32>>,
    games: &[(String, u32)],
) -> Vec<u32> {
    let names = numbers(index, names);
    let mut ids: Vec<u32> = games
        .iter()
        .filter_map(|(f, g)| names.get(&(f.clone(), *g)).copied())
        .collect();
    ids.sort_unstable();
    ids
}

/// An answer as Python gets it: hits, continuation rows, the profile and the summary.
type AnswerLines<'py> = (
    Bound<'py, PyList>,
    Bound<'py, PyList>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

#[pymethods]
impl Index {
    /// Opens the index in each of `paths`, searched as one in that order (one path: that
    /// index alone).
    #[new]
    fn new(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Index> {
        let inner = py.detach(|| qipu::Shards::open(&paths)).map_err(raise)?;
        Ok(Index {
            inner: Arc::new(inner),
            names: OnceLock::new(),
        })
    }

    fn __len__(&self) -> usize {
        self.inner.len() as usize
    }

    /// The search behind `qipu.Index.search`: (hits, continuations, summary) as the face's
    /// JSON lines give them.
    #[pyo3(signature = (
        *, position=None, at=None, black=None, white=None, size=19, pattern=None, place=None,
        anywhere=false, moves=None, any_order=false, any_gap=false, query=None, symmetry=true,
        swap_colors=false, to_move=None, limit=None, offset=0, sort="indexed", within=None,
        with_copies=false, since=None, until=None, min_rank=None, even=false, handicap=None,
        komi=None, by_month=false, then=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search_lines<'py>(
        &self,
        py: Python<'py>,
        position: Option<PathBuf>,
        at: Option<usize>,
        black: Option<&Bound<'py, PyAny>>,
        white: Option<&Bound<'py, PyAny>>,
        size: u8,
        pattern: Option<String>,
        place: Option<(u8, u8)>,
        anywhere: bool,
        moves: Option<String>,
        any_order: bool,
        any_gap: bool,
        query: Option<String>,
        symmetry: bool,
        swap_colors: bool,
        to_move: Option<String>,
        limit: Option<usize>,
        offset: usize,
        sort: &str,
        within: Option<Vec<(String, u32)>>,
        with_copies: bool,
        since: Option<String>,
        until: Option<String>,
        min_rank: Option<String>,
        even: bool,
        handicap: Option<HandicapArg>,
        komi: Option<KomiArg>,
        by_month: bool,
        then: Option<String>,
    ) -> PyResult<AnswerLines<'py>> {
        let narrowing = Narrowing {
            since,
            until,
            min_rank,
            even,
            handicap,
            komi,
        };
        let ask = Ask {
            position,
            at,
            black: points_text(black)?,
            white: points_text(white)?,
            size,
            pattern,
            place,
            anywhere,
            moves,
            any_order,
            any_gap,
            query: query.clone(),
        };
        let on_the_board = ask.position.is_some()
            || ask.black.is_some()
            || ask.white.is_some()
            || ask.pattern.is_some()
            || ask.moves.is_some();
        let sort: Sort = sort.parse().map_err(named("sort"))?;
        let to_move = to_move
            .as_deref()
            .map(qipu::parse_color)
            .transpose()
            .map_err(named("to_move"))?;
        let index = Arc::clone(&self.inner);
        let names = &self.names;
        let (lines, paths) = py.detach(|| -> PyResult<(Vec<Value>, Vec<Option<String>>)> {
            let mut q = build_query(&ask)?
                .symmetry(symmetry)
                .swap_colors(swap_colors)
                .to_move(to_move)
                .with_copies(with_copies)
                .by_month(by_month)
                .limit(limit)
                .offset(offset)
                .sort(sort);
            q = narrowing.apply(q)?;
            if let (Some(text), true) = (&query, on_the_board) {
                q = q.filter(text.as_str());
            }
            if let Some(games) = &within {
                q = q.within(game_ids(&index, names, games));
            }
            // A pattern walked on (`then="Q17,W:R14"`), each step a search of it so far.
            if let Some(steps) = &then {
                q = q.walk(steps, |q| index.search(q)).map_err(raise)?;
            }
            let answer = index.search(&q).map_err(raise)?;
            let lines = qipu::lines::lines(&answer, usize::MAX)
                .map(|l| serde_json::to_value(&l))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| Error::new_err(e.to_string()))?;
            let paths = answer
                .hits
                .iter()
                .map(|h| index.path(h.game).map(|p| p.display().to_string()))
                .collect();
            Ok((lines, paths))
        })?;
        let hits = PyList::empty(py);
        let continuations = PyList::empty(py);
        let mut summary = py.None().into_bound(py);
        let mut profile = py.None().into_bound(py);
        let mut paths = paths.into_iter();
        for mut line in lines {
            let kind = line
                .as_object_mut()
                .and_then(|o| o.remove("type"))
                .and_then(|t| t.as_str().map(str::to_string));
            match kind.as_deref() {
                Some("hit") => {
                    // As `qipu search --json` adds it: where the record is on this machine.
                    line["path"] = paths.next().flatten().map_or(Value::Null, Value::String);
                    hits.append(to_python(py, &line)?)?;
                }
                Some("continuation") => continuations.append(to_python(py, &line)?)?,
                Some("profile") => profile = to_python(py, &line)?,
                _ => summary = to_python(py, &line)?,
            }
        }
        Ok((hits, continuations, profile, summary))
    }

    /// The search behind `qipu.Index.search(mistakes=…)`: the moves that lost at least
    /// `mistakes` (the library's words), of every analysed game or among the moves a position's,
    /// pattern's or sequence's rows count, narrowed as any search; the library's answer as a
    /// dict.
    #[pyo3(signature = (
        mistakes, *, player=None, position=None, at=None, black=None, white=None, size=19,
        pattern=None, place=None, anywhere=false, moves=None, any_order=false, any_gap=false,
        query=None, symmetry=true, swap_colors=false, to_move=None, limit=None, offset=0,
        sort="indexed", within=None, since=None, until=None, min_rank=None, even=false,
        handicap=None, komi=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search_mistakes<'py>(
        &self,
        py: Python<'py>,
        mistakes: &str,
        player: Option<String>,
        position: Option<PathBuf>,
        at: Option<usize>,
        black: Option<&Bound<'py, PyAny>>,
        white: Option<&Bound<'py, PyAny>>,
        size: u8,
        pattern: Option<String>,
        place: Option<(u8, u8)>,
        anywhere: bool,
        moves: Option<String>,
        any_order: bool,
        any_gap: bool,
        query: Option<String>,
        symmetry: bool,
        swap_colors: bool,
        to_move: Option<String>,
        limit: Option<usize>,
        offset: usize,
        sort: &str,
        within: Option<Vec<(String, u32)>>,
        since: Option<String>,
        until: Option<String>,
        min_rank: Option<String>,
        even: bool,
        handicap: Option<HandicapArg>,
        komi: Option<KomiArg>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let loss: qipu::LossThreshold = mistakes.parse().map_err(named("mistakes"))?;
        let mut asked = qipu::Mistakes::new(loss).map_err(named("mistakes"))?;
        if let Some(name) = player.filter(|n| !n.trim().is_empty()) {
            asked = asked.by(name);
        }
        let narrowing = Narrowing {
            since,
            until,
            min_rank,
            even,
            handicap,
            komi,
        };
        let ask = Ask {
            position,
            at,
            black: points_text(black)?,
            white: points_text(white)?,
            size,
            pattern,
            place,
            anywhere,
            moves,
            any_order,
            any_gap,
            query: None,
        };
        let on_the_board = ask.position.is_some()
            || ask.black.is_some()
            || ask.white.is_some()
            || ask.pattern.is_some()
            || ask.moves.is_some();
        let sort: Sort = sort.parse().map_err(named("sort"))?;
        let to_move = to_move
            .as_deref()
            .map(qipu::parse_color)
            .transpose()
            .map_err(named("to_move"))?;
        let index = Arc::clone(&self.inner);
        let names = &self.names;
        let answer = py.detach(|| -> PyResult<qipu::MistakesAnswer> {
            // The moves a position's, pattern's or sequence's rows count, or every analysed
            // game's.
            let mut q = if on_the_board {
                build_query(&ask)?.and_mistakes(asked)
            } else {
                Query::mistakes(asked)
            };
            q = q
                .symmetry(symmetry)
                .swap_colors(swap_colors)
                .to_move(to_move)
                .limit(limit)
                .offset(offset)
                .sort(sort);
            q = narrowing.apply(q)?;
            if let Some(text) = &query {
                q = q.filter(text.as_str());
            }
            if let Some(games) = &within {
                q = q.within(game_ids(&index, names, games));
            }
            index.mistakes(&q).map_err(raise)
        })?;
        serialised(py, &answer)
    }

    /// `name`'s play as the engine judged it, by year (what `qipu player --json` prints), his
    /// mistakes counted at `mistakes` (the library's words; default its default threshold).
    #[pyo3(signature = (name, *, mistakes=None))]
    fn player<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        mistakes: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mistakes = match mistakes {
            Some(word) => word.parse().map_err(named("mistakes"))?,
            None => qipu::DEFAULT_PLAYER_MISTAKE,
        };
        let index = Arc::clone(&self.inner);
        let stats = py
            .detach(|| index.player(name, &qipu::PlayerOptions { mistakes }))
            .map_err(raise)?;
        serialised(py, &stats)
    }

    /// The indexed game `game` of record file `file` (as a hit names it), read from the record
    /// the index keeps.
    fn game(&self, py: Python<'_>, file: &str, game: u32) -> PyResult<Game> {
        let index = Arc::clone(&self.inner);
        let names = &self.names;
        let read = py.detach(|| -> Result<Option<(u32, RecordGame)>, qipu::Error> {
            let names = numbers(&index, names);
            let Some(&id) = names.get(&(file.to_string(), game)) else {
                return Ok(None);
            };
            let bytes = index.record(id)?;
            let mut read = read_record(&bytes)
                .games
                .into_iter()
                .next()
                .unwrap_or_default();
            read.game = game as usize;
            Ok(Some((id, read)))
        });
        match read.map_err(raise)? {
            Some((id, read)) => Ok(Game {
                origin: Origin::new(
                    file.to_string(),
                    self.inner
                        .path(id)
                        .map_or_else(|| file.to_string(), |p| p.display().to_string()),
                    None,
                ),
                read,
            }),
            None => Err(QueryError::new_err(format!(
                "no game {file}#{game} in the index"
            ))),
        }
    }

    /// Counts and sizes, as `qipu stats --json` prints them.
    #[pyo3(signature = (top=10))]
    fn stats<'py>(&self, py: Python<'py>, top: usize) -> PyResult<Bound<'py, PyAny>> {
        let index = Arc::clone(&self.inner);
        let stats = py.detach(|| index.stats(top)).map_err(raise)?;
        serialised(py, &stats)
    }

    /// Writes the index as Parquet files into the folder `out` (what `qipu export` does);
    /// returns what was written.
    fn export_parquet<'py>(&self, py: Python<'py>, out: PathBuf) -> PyResult<Bound<'py, PyDict>> {
        let index = Arc::clone(&self.inner);
        let [one] = index.indexes() else {
            return Err(QueryError::new_err(
                "export_parquet writes one index: open each index of the set alone",
            ));
        };
        let s = py
            .detach(|| qipu_export::export(one, &out, |_| {}))
            .map_err(|e| match e {
                qipu_export::ExportError::Index(e) => raise(e),
                e => IndexError::new_err(e.to_string()),
            })?;
        let d = PyDict::new(py);
        d.set_item("games", s.games)?;
        d.set_item("positions", s.positions)?;
        d.set_item("keys", s.keys)?;
        d.set_item("seconds", s.seconds)?;
        let files: Vec<(String, u64)> = s
            .files
            .iter()
            .map(|(p, n)| (p.display().to_string(), *n))
            .collect();
        d.set_item("files", files)?;
        Ok(d)
    }
}

/// Builds (or adds to) the index in `index_dir` from `inputs`; `progress`, if given, is called
/// with a dict (`games`, `bytes_read`, `bytes_total`) as the build goes, holding the GIL only for
/// that call. Returns the build's summary as a dict.
#[pyfunction]
#[pyo3(signature = (index_dir, inputs, *, progress=None, rebuild=false, aliases=None, variations=None))]
fn build<'py>(
    py: Python<'py>,
    index_dir: PathBuf,
    inputs: Vec<PathBuf>,
    progress: Option<Py<PyAny>>,
    rebuild: bool,
    aliases: Option<PathBuf>,
    variations: Option<bool>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = qipu::BuildOptions {
        rebuild,
        aliases,
        variations,
        ..qipu::BuildOptions::default()
    };
    // A callback's exception is kept and raised after the build (a build cannot be stopped
    // half way from here without leaving work for the next run, which is allowed: the index
    // stays as committed).
    let mut failed: Option<PyErr> = None;
    let summary = py.detach(|| {
        qipu::build(&index_dir, &inputs, &options, |p| {
            let Some(f) = &progress else { return };
            if failed.is_some() {
                return;
            }
            Python::attach(|py| {
                let d = PyDict::new(py);
                let call = d
                    .set_item("games", p.games)
                    .and_then(|_| d.set_item("bytes_read", p.bytes_read))
                    .and_then(|_| d.set_item("bytes_total", p.bytes_total))
                    .and_then(|_| f.call1(py, (d,)));
                if let Err(e) = call {
                    failed = Some(e);
                }
            });
        })
    });
    let summary = summary.map_err(raise)?;
    if let Some(e) = failed {
        return Err(e);
    }
    serialised(py, &summary)
}

/// The module `qipu._qipu`.
#[pymodule]
fn _qipu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("QueryError", py.get_type::<QueryError>())?;
    m.add("IndexError", py.get_type::<IndexError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add_class::<Index>()?;
    m.add_class::<Game>()?;
    m.add_class::<Reader>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add("TABLE_STONES", qipu::TABLE_STONES)?;
    m.add("TABLE_MOVES", qipu::TABLE_MOVES)?;
    Ok(())
}
