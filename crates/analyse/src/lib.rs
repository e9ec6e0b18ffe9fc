//! Runs KataGo over a collection of game records and writes what it thinks of every position
//! of each main line into analysed copies of the records (`qipu analyse`).
//!
//! KataGo's JSON analysis engine (`katago analysis -config CFG -model NET`) runs as one
//! subprocess for the whole run. Each game is one query: its main line's moves, the root's
//! setup stones as `initialStones`, rules from `RU` (Japanese when the record names none KataGo
//! knows), komi from `KM` (when absent: 0.5 with a handicap, else 7.5 under area scoring and
//! 6.5 under territory scoring; rounded to a half point, as KataGo requires), the board size,
//! every position in `analyzeTurns`, `maxVisits` the run's visits, and win rates asked as
//! Black's (`overrideSettings`), whatever the user's config says. Answers come one position at
//! a time and out of order; a game is finished when all its positions have answered.
//!
//! # Where the evaluations go
//!
//! Into copies of the records, in an output folder (`--out DIR`), the original bytes kept and
//! each main-line node given the properties Sabaki (`SBKV`, `SBKS`) and lizzieyzy (`LZ`, and
//! `LZOP` on the root) write, exactly as they write them (see [`props`]): the files open with
//! their graphs in Sabaki and Lizzie, any program that reads those properties reads ours, and
//! `qipu index` reads them as it reads any analysed record, so the evaluations reach the index
//! without a second path into it. The originals are never touched. Keeping them beside an index
//! instead would have tied them to one index and hidden them from every other program.
//! Records in other formats (GIB, NGF, UGF, WTF, …) and SGF files not in an ASCII-compatible
//! charset (UTF-16) are written as SGF (`x.gib` → `x.gib.sgf`). KataGo's raw answers are kept
//! in `DIR/katago.jsonl` ([`journal`]): what a test compares the records with, and how a run
//! resumes.
//!
//! # Resuming
//!
//! A run killed at any point and started again asks KataGo only for the games the journal does
//! not hold whole, and writes the same records: each is written to a temporary file and
//! renamed once whole, and built from the journal's answers and the input alone.
//!
//! # Threads, memory, failures
//!
//! KataGo's own threads do the work: its config's `numAnalysisThreads` positions are searched
//! at once (a query asks for all of a game's positions, so one game keeps them all busy);
//! [`Options::threads`] overrides it with KataGo's `-override-config`. Memory is bounded: the
//! records are streamed, at most [`Options::window`] games wait between being read and being
//! written, and a record file is held only while its games are analysed, with each game's query
//! and edit plan (some kilobytes a game: a collection costs a few times its size, and a record
//! is at most `inputs::MAX_RECORD_BYTES`).
//!
//! An engine that stops answering for [`Options::timeout`], exits, or writes what is not an
//! answer ends the run with an error naming the games it was analysing (a rerun resumes); a game
//! KataGo refuses (an illegal move), or that cannot be asked (a malformed move, setup stones
//! after the first move), is reported with its file, game and offset, copied without
//! evaluations, and the run goes on. One run writes into an output folder at a time. This crate
//! never prints: problems and progress go to an [`Observer`].

pub mod answer;
pub mod engine;
pub mod journal;
pub mod output;
pub mod props;
pub mod query;

use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::time::{Duration, Instant};

use sgf::{Format, Records};

use crate::answer::Answer;
use crate::engine::{Engine, Silence};
use crate::journal::Journal;
use crate::output::Writer;
use crate::props::TurnEval;
use crate::query::GameQuery;

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The KataGo executable.
    pub katago: PathBuf,
    /// The network.
    pub model: PathBuf,
    /// KataGo's analysis config; `None`: `analysis.cfg`, `analysis_example.cfg` or
    /// `default_analysis.cfg` beside the executable, the first that exists.
    pub config: Option<PathBuf>,
    /// Visits per position (`maxVisits`).
    pub visits: u32,
    /// The output folder.
    pub out: PathBuf,
    /// Positions KataGo searches at once (`numAnalysisThreads`); `None` keeps the config's.
    pub threads: Option<usize>,
    /// How long KataGo may stay silent while it has work before the run gives up on it.
    pub timeout: Duration,
    /// Games held at once between being read and being written.
    pub window: usize,
}

impl Options {
    /// Options with the defaults: 32 visits, the config's threads, 5 minutes of silence
    /// (a GPU engine may tune itself for minutes on its first start), 4 games held.
    pub fn new(katago: PathBuf, model: PathBuf, out: PathBuf) -> Options {
        Options {
            katago,
            model,
            config: None,
            visits: 32,
            out,
            threads: None,
            timeout: Duration::from_secs(300),
            window: 4,
        }
    }
}

/// Where a run is, for a progress bar.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Bytes of the inputs whose records are written, of `bytes_total`.
    pub bytes_done: u64,
    pub bytes_total: u64,
    /// Games finished (analysed, resumed, refused or unreadable).
    pub games: u64,
    /// Positions KataGo analysed in this run.
    pub positions: u64,
}

/// A problem with one file or game; the run goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The record file's name (as the inputs name it); empty for an input that could not be
    /// listed, which the reason names.
    pub file: String,
    /// The game in the file (0-based), when the problem is one game's.
    pub game: Option<usize>,
    /// The byte offset in the file, where known.
    pub offset: Option<usize>,
    pub reason: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.file.is_empty() {
            // An input that could not be listed: its error names it.
            return write!(f, "{}", self.reason);
        }
        write!(f, "{}", self.file)?;
        if let Some(g) = self.game {
            write!(f, "#{g}")?;
        }
        if let Some(o) = self.offset {
            write!(f, " at byte {o}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// What a run tells its caller as it goes.
pub trait Observer {
    fn progress(&mut self, progress: &Progress);
    fn problem(&mut self, problem: &Problem);
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Analysed copies written.
    pub files_written: u64,
    /// Games analysed by KataGo in this run.
    pub games_analysed: u64,
    /// Games whose answers were taken from the journal of an earlier run.
    pub games_resumed: u64,
    /// Games KataGo refused (copied without evaluations).
    pub games_refused: u64,
    /// Games that could not be read or asked (copied without evaluations where they could be).
    pub games_unreadable: u64,
    /// Positions KataGo analysed in this run.
    pub positions_analysed: u64,
    /// Games analysed under the fallback rules or komi (the record gave none KataGo takes).
    pub rules_fallback: u64,
    pub komi_fallback: u64,
    /// Problems reported.
    pub problems: u64,
    /// Files found under the output folder (inside an INPUT folder), not read as inputs.
    pub in_output: u64,
    pub seconds: f64,
    /// The journal of KataGo's answers.
    pub journal: PathBuf,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    #[error("no KataGo analysis config given, and none beside {0} (analysis.cfg, analysis_example.cfg, default_analysis.cfg): pass --config")]
    NoConfig(PathBuf),
    #[error("starting KataGo ({0}): {1}")]
    Start(PathBuf, #[source] std::io::Error),
    #[error("KataGo {what} while analysing {games}")]
    Engine { what: String, games: String },
    #[error("{0}: {1}")]
    Io(PathBuf, #[source] std::io::Error),
    #[error("{0}: another qipu analyse is writing into this folder")]
    Busy(PathBuf),
    #[error(transparent)]
    Inputs(#[from] inputs::InputError),
}

/// A game of a record file, from reading to writing.
struct Slot {
    /// The game's text: in a copy of the file's own bytes, where it ends; or its SGF.
    end: usize,
    converted: Option<Vec<u8>>,
    query: Option<GameQuery>,
    /// Answers so far (KataGo's line and what it says), while KataGo works on it.
    answers: Vec<Option<(String, Option<TurnEval>)>>,
    received: usize,
    state: State,
}

enum State {
    Untaken,
    Waiting,
    /// Finished: the evaluations per turn, or `None` to copy the game unchanged.
    Done(Option<Vec<Option<TurnEval>>>),
}

/// A record file between reading and writing.
struct Job {
    seq: u64,
    name: String,
    rel: String,
    /// The file's bytes when edited in place (SGF read as it is), else empty.
    text: Vec<u8>,
    slots: Vec<Slot>,
    next_take: usize,
    next_write: usize,
    cursor: usize,
    writer: Option<Writer>,
    /// Input bytes done once this file is.
    at: u64,
}

enum Incoming {
    Record {
        name: String,
        /// Its name under the output folder (before [`output::relative_path`]).
        out: String,
        bytes: Vec<u8>,
        unread: Option<&'static str>,
        at: u64,
    },
    Problem(Problem),
}

struct Run<'o> {
    opts: Options,
    config: PathBuf,
    observer: &'o mut dyn Observer,
    journal: Journal,
    engine: Option<Engine>,
    jobs: VecDeque<Job>,
    incoming: Receiver<Incoming>,
    input_done: bool,
    held: usize,
    waiting: usize,
    next_seq: u64,
    used: HashSet<String>,
    progress: Progress,
    summary: Summary,
}

/// Analyses every game of `inputs` (files, folders, archives, read as `qipu index` reads them)
/// into `opts.out`.
pub fn analyse(
    inputs: &[PathBuf],
    opts: &Options,
    observer: &mut dyn Observer,
) -> Result<Summary, AnalyseError> {
    let started = Instant::now();
    let config = match &opts.config {
        Some(c) => c.clone(),
        None => default_config(&opts.katago)
            .ok_or_else(|| AnalyseError::NoConfig(opts.katago.clone()))?,
    };
    std::fs::create_dir_all(&opts.out).map_err(|e| AnalyseError::Io(opts.out.clone(), e))?;
    let out_canonical = opts
        .out
        .canonicalize()
        .map_err(|e| AnalyseError::Io(opts.out.clone(), e))?;
    let journal = Journal::open(&opts.out).map_err(|e| match e.kind() {
        std::io::ErrorKind::WouldBlock => AnalyseError::Busy(opts.out.clone()),
        _ => AnalyseError::Io(opts.out.join("katago.jsonl"), e),
    })?;
    let found = inputs::discover_all(inputs)?;
    let mut early = Vec::new();
    for s in &found.skipped {
        early.push(Problem {
            file: s.path.display().to_string(),
            game: None,
            offset: None,
            reason: format!("skipped: {}", s.reason),
        });
    }
    for e in &found.unreadable {
        early.push(Problem {
            file: String::new(),
            game: None,
            offset: None,
            reason: e.to_string(),
        });
    }
    let mut sources = Vec::new();
    let mut in_output = 0;
    for s in found.sources {
        if s.canonical.starts_with(&out_canonical) {
            // The output folder inside an INPUT folder: its copies are not inputs.
            in_output += 1;
            continue;
        }
        sources.push(s);
    }
    let bytes_total = sources.iter().map(|s| s.len).sum();
    let (tx, incoming) = sync_channel(2);
    std::thread::spawn(move || {
        let mut base = 0u64;
        for source in sources {
            let read = inputs::read_source(&source, &mut |rec| {
                let _ = tx.send(Incoming::Record {
                    out: output_name(&source, &rec.name),
                    name: rec.name.clone(),
                    bytes: rec.bytes.to_vec(),
                    unread: rec.unread,
                    at: base + rec.consumed,
                });
            });
            if let Err(e) = read {
                let _ = tx.send(Incoming::Problem(Problem {
                    file: source.name.clone(),
                    game: None,
                    offset: None,
                    reason: e.to_string(),
                }));
            }
            base += source.len;
        }
    });
    let mut run = Run {
        opts: opts.clone(),
        config,
        observer,
        journal,
        engine: None,
        jobs: VecDeque::new(),
        incoming,
        input_done: false,
        held: 0,
        waiting: 0,
        next_seq: 0,
        used: HashSet::new(),
        progress: Progress {
            bytes_total,
            ..Progress::default()
        },
        summary: Summary::default(),
    };
    for p in early {
        run.problem(p);
    }
    run.go()?;
    let mut summary = run.summary;
    summary.in_output = in_output;
    summary.journal = run.journal.path().to_path_buf();
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// A record's name under the output folder: its name when found in an INPUT folder (relative
/// to it); for a file given directly, whose name is the path as given (`../games/a.sgf`,
/// `/data/kgs.tar.gz/2002/x.sgf`), the file's own name in place of that path.
fn output_name(source: &inputs::Source, record: &str) -> String {
    if source.root.is_some() {
        return record.to_string();
    }
    let base = source.path.file_name().map_or_else(
        || "record".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match record.strip_prefix(source.name.as_str()) {
        Some(rest) => format!("{base}{rest}"),
        None => record.to_string(),
    }
}

/// The config beside the KataGo executable, if any.
fn default_config(katago: &Path) -> Option<PathBuf> {
    let dir = katago.parent()?;
    [
        "analysis.cfg",
        "analysis_example.cfg",
        "default_analysis.cfg",
    ]
    .iter()
    .map(|n| dir.join(n))
    .find(|p| p.is_file())
}

impl Run<'_> {
    fn problem(&mut self, p: Problem) {
        self.summary.problems += 1;
        self.observer.problem(&p);
    }

    fn go(&mut self) -> Result<(), AnalyseError> {
        loop {
            self.fill()?;
            self.write_finished()?;
            if self.waiting == 0 {
                if self.input_done && self.jobs.is_empty() {
                    return Ok(());
                }
                continue;
            }
            let timeout = self.opts.timeout;
            let engine = self
                .engine
                .as_mut()
                .expect("games wait on a started engine");
            match engine.next(timeout) {
                Ok(line) => self.answer(&line)?,
                Err(silence) => {
                    let what = match silence {
                        Silence::TimedOut => {
                            format!("gave no answer for {} s", timeout.as_secs_f64())
                        }
                        Silence::Ended(why) => format!("ended ({why})"),
                        Silence::Unreadable(why) => format!("wrote {why}"),
                    };
                    return Err(self.engine_error(what));
                }
            }
        }
    }

    fn engine_error(&mut self, what: String) -> AnalyseError {
        self.engine = None;
        let mut games = Vec::new();
        for job in &self.jobs {
            for (g, s) in job.slots.iter().enumerate() {
                if matches!(s.state, State::Waiting) {
                    games.push(format!("{}#{g}", job.name));
                }
            }
        }
        AnalyseError::Engine {
            what,
            games: games.join(", "),
        }
    }

    /// Takes games (reading records as needed) until the window is full or the input ends.
    fn fill(&mut self) -> Result<(), AnalyseError> {
        while self.held < self.opts.window {
            if let Some(j) = self.jobs.iter().position(|j| j.next_take < j.slots.len()) {
                let g = self.jobs[j].next_take;
                self.jobs[j].next_take += 1;
                self.held += 1;
                self.take(j, g)?;
                continue;
            }
            if self.input_done {
                return Ok(());
            }
            // Nothing in flight: wait for the reader; else only take what is ready.
            let next = if self.waiting == 0 {
                self.incoming.recv().ok()
            } else {
                match self.incoming.try_recv() {
                    Ok(x) => Some(x),
                    Err(std::sync::mpsc::TryRecvError::Empty) => return Ok(()),
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
                }
            };
            match next {
                None => self.input_done = true,
                Some(Incoming::Problem(p)) => self.problem(p),
                Some(Incoming::Record {
                    name,
                    out,
                    bytes,
                    unread,
                    at,
                }) => self.read_record(name, &out, bytes, unread, at)?,
            }
        }
        Ok(())
    }

    /// Turns a record file into a job (its games parsed and asked), or reports why not.
    fn read_record(
        &mut self,
        name: String,
        out: &str,
        bytes: Vec<u8>,
        unread: Option<&'static str>,
        at: u64,
    ) -> Result<(), AnalyseError> {
        let say = |reason: String| Problem {
            file: name.clone(),
            game: None,
            offset: None,
            reason,
        };
        if let Some(why) = unread {
            self.problem(say(format!("not read: {why}")));
            return Ok(());
        }
        let records = Records::read(&bytes);
        if records.is_empty() {
            let why = records
                .diagnostics()
                .first()
                .map_or_else(|| "no game in it".to_string(), |d| d.to_string());
            self.problem(say(format!("no game analysed: {why}")));
            return Ok(());
        }
        let in_place = records.format() == Format::Sgf
            && std::ptr::eq(records.bytes().as_ptr(), bytes.as_ptr());
        let mut rel = output::relative_path(out);
        let mut n = 2;
        while self.used.contains(&rel) {
            rel = output::numbered(&output::relative_path(out), n);
            n += 1;
        }
        self.used.insert(rel.clone());
        let mut slots = Vec::with_capacity(records.len());
        let mut problems = Vec::new();
        for (g, span) in records.spans().iter().enumerate() {
            let mut slot = Slot {
                end: span.span.end,
                converted: None,
                query: None,
                answers: Vec::new(),
                received: 0,
                state: State::Untaken,
            };
            let problem = |offset: usize, reason: String| Problem {
                file: name.clone(),
                game: Some(g),
                offset: Some(offset),
                reason,
            };
            match records.game(g) {
                Err(d) => problems.push(problem(d.offset, format!("not analysed: {}", d.problem))),
                Ok(tree) if in_place => match query::build(&tree, &bytes, self.opts.visits) {
                    Ok(q) => slot.query = Some(q),
                    Err(e) => problems.push(problem(span.span.start, format!("not analysed: {e}"))),
                },
                Ok(tree) => {
                    let sgf = sgf::write::to_sgf(&tree).into_bytes();
                    let again = Records::read(&sgf);
                    match again.game(0) {
                        Ok(t) => match query::build(&t, &sgf, self.opts.visits) {
                            Ok(q) => slot.query = Some(q),
                            Err(e) => problems
                                .push(problem(span.span.start, format!("not analysed: {e}"))),
                        },
                        Err(d) => problems.push(problem(
                            span.span.start,
                            format!("not analysed: {}", d.problem),
                        )),
                    }
                    slot.converted = Some(sgf);
                }
            }
            slots.push(slot);
        }
        for p in problems {
            self.summary.games_unreadable += 1;
            self.problem(p);
        }
        self.summary.rules_fallback += slots
            .iter()
            .filter(|s| s.query.as_ref().is_some_and(|q| q.rules_fallback))
            .count() as u64;
        self.summary.komi_fallback += slots
            .iter()
            .filter(|s| s.query.as_ref().is_some_and(|q| q.komi_fallback))
            .count() as u64;
        drop(records);
        let dest = self.opts.out.join(&rel);
        let writer = match Writer::create(dest.clone()) {
            Ok(w) => w,
            Err(e) => {
                // A name this file system refuses (too long, say): this file's games only.
                self.summary.games_unreadable += slots.len() as u64;
                self.problem(say(format!(
                    "not analysed: its copy {} cannot be written: {e}",
                    dest.display()
                )));
                return Ok(());
            }
        };
        self.jobs.push_back(Job {
            seq: self.next_seq,
            name,
            rel,
            text: if in_place { bytes } else { Vec::new() },
            slots,
            next_take: 0,
            next_write: 0,
            cursor: 0,
            writer: Some(writer),
            at,
        });
        self.next_seq += 1;
        Ok(())
    }

    /// Takes game `g` of job `j`: from the journal when it holds it, else asks KataGo.
    fn take(&mut self, j: usize, g: usize) -> Result<(), AnalyseError> {
        let job = &self.jobs[j];
        let Some(q) = &job.slots[g].query else {
            self.jobs[j].slots[g].state = State::Done(None);
            return Ok(());
        };
        if let Some(block) = self.journal.find(&job.rel, g, q.fingerprint) {
            let lines = self
                .journal
                .read(block)
                .map_err(|e| AnalyseError::Io(self.journal.path().to_path_buf(), e))?;
            let turns = q.turns;
            let mut evals = vec![None; turns];
            let mut refused = None;
            for l in &lines {
                if let Some(r) = l.get("refused") {
                    refused = Some(
                        r.get("error")
                            .and_then(|e| e.as_str())
                            .unwrap_or("refused")
                            .to_string(),
                    );
                } else if let (Some(t), Some(a)) =
                    (l.get("turn").and_then(|t| t.as_u64()), l.get("answer"))
                {
                    if let Ok(Answer::Turn { eval, .. }) = answer::read(&a.to_string()) {
                        if let Some(slot) = evals.get_mut(t as usize) {
                            *slot = eval;
                        }
                    }
                }
            }
            let file = self.jobs[j].name.clone();
            let state = match refused {
                Some(why) => {
                    self.summary.games_refused += 1;
                    self.problem(Problem {
                        file,
                        game: Some(g),
                        offset: None,
                        reason: format!("refused by KataGo (as the journal says): {why}"),
                    });
                    State::Done(None)
                }
                None => {
                    self.summary.games_resumed += 1;
                    State::Done(Some(evals))
                }
            };
            self.jobs[j].slots[g].state = state;
            return Ok(());
        }
        let text = query::with_id(&q.query, &format!("{}:{g}", job.seq));
        let turns = q.turns;
        if self.engine.is_none() {
            self.engine = Some(self.start()?);
        }
        let engine = self.engine.as_mut().expect("started");
        if let Err(e) = engine.send(&text) {
            // Most likely it exited (a bad model or config): its last words say why.
            let why = engine.last_words();
            self.jobs[j].slots[g].state = State::Waiting;
            return Err(self.engine_error(format!("ended ({why}) before taking a query ({e})")));
        }
        let slot = &mut self.jobs[j].slots[g];
        slot.answers = vec![None; turns];
        slot.state = State::Waiting;
        self.waiting += 1;
        Ok(())
    }

    fn start(&self) -> Result<Engine, AnalyseError> {
        let overrides = self
            .opts
            .threads
            .map(|n| format!("numAnalysisThreads={n}"))
            .unwrap_or_default();
        Engine::start(
            &self.opts.katago,
            &self.config,
            &self.opts.model,
            &overrides,
        )
        .map_err(|e| AnalyseError::Start(self.opts.katago.clone(), e))
    }

    /// Handles one line of KataGo's output.
    fn answer(&mut self, line: &str) -> Result<(), AnalyseError> {
        let parsed = match answer::read(line) {
            Ok(a) => a,
            Err(e) => return Err(self.engine_error(format!("wrote {e}: {}", excerpt(line)))),
        };
        let find = |jobs: &VecDeque<Job>, id: &str| -> Option<(usize, usize)> {
            let (seq, g) = id.split_once(':')?;
            let seq: u64 = seq.parse().ok()?;
            let g: usize = g.parse().ok()?;
            let j = jobs.iter().position(|j| j.seq == seq)?;
            matches!(jobs[j].slots.get(g)?.state, State::Waiting).then_some((j, g))
        };
        match parsed {
            Answer::Other => Ok(()),
            Answer::Warning { id, message } => {
                let at = id.as_deref().and_then(|id| find(&self.jobs, id));
                let (file, game) = match at {
                    Some((j, g)) => (self.jobs[j].name.clone(), Some(g)),
                    None => ("KataGo".to_string(), None),
                };
                self.problem(Problem {
                    file,
                    game,
                    offset: None,
                    reason: format!("KataGo warns: {message}"),
                });
                Ok(())
            }
            Answer::Refused { id, message } => {
                let Some((j, g)) = id.as_deref().and_then(|id| find(&self.jobs, id)) else {
                    return Err(
                        self.engine_error(format!("refused a query it cannot name: {message}"))
                    );
                };
                let job = &mut self.jobs[j];
                let fp = job.slots[g].query.as_ref().map_or(0, |q| q.fingerprint);
                let l = journal::refused_line(&job.name, &job.rel, g, fp, line);
                job.slots[g].state = State::Done(None);
                job.slots[g].answers = Vec::new();
                let file = job.name.clone();
                self.waiting -= 1;
                self.journal
                    .append(&[l])
                    .map_err(|e| AnalyseError::Io(self.journal.path().to_path_buf(), e))?;
                self.summary.games_refused += 1;
                self.problem(Problem {
                    file,
                    game: Some(g),
                    offset: None,
                    reason: format!("refused by KataGo: {message}"),
                });
                Ok(())
            }
            Answer::Turn { id, turn, eval } => {
                let Some((j, g)) = find(&self.jobs, &id) else {
                    return Err(self.engine_error(format!(
                        "answered a query it was not asked ({})",
                        excerpt(line)
                    )));
                };
                let slot = &mut self.jobs[j].slots[g];
                let Some(place) = slot.answers.get_mut(turn) else {
                    return Err(self.engine_error(format!(
                        "answered a turn it was not asked ({})",
                        excerpt(line)
                    )));
                };
                if place.is_none() {
                    slot.received += 1;
                    self.summary.positions_analysed += 1;
                    self.progress.positions += 1;
                }
                *place = Some((line.trim_end().to_string(), eval));
                if slot.received == slot.answers.len() {
                    self.finish_game(j, g)?;
                }
                self.observer.progress(&self.progress);
                Ok(())
            }
        }
    }

    /// All of a game's answers are in: into the journal, and ready to be written.
    fn finish_game(&mut self, j: usize, g: usize) -> Result<(), AnalyseError> {
        let job = &mut self.jobs[j];
        let slot = &mut job.slots[g];
        let q = slot.query.as_ref().expect("asked games have a query");
        let mut lines = Vec::with_capacity(slot.answers.len());
        let mut evals = Vec::with_capacity(slot.answers.len());
        for (turn, a) in std::mem::take(&mut slot.answers).into_iter().enumerate() {
            let (raw, eval) = a.expect("every turn answered");
            lines.push(journal::turn_line(
                &job.name,
                &job.rel,
                g,
                q.fingerprint,
                q.turns,
                turn,
                &raw,
            ));
            evals.push(eval);
        }
        slot.state = State::Done(Some(evals));
        self.waiting -= 1;
        self.summary.games_analysed += 1;
        self.journal
            .append(&lines)
            .map_err(|e| AnalyseError::Io(self.journal.path().to_path_buf(), e))
    }

    /// Writes the finished games at the front, in order, and the files they complete.
    fn write_finished(&mut self) -> Result<(), AnalyseError> {
        while let Some(job) = self.jobs.front_mut() {
            while let Some(slot) = job.slots.get_mut(job.next_write) {
                let State::Done(evals) = &slot.state else {
                    break;
                };
                let writer = job.writer.as_mut().expect("open until the file is done");
                let written = match &slot.converted {
                    Some(sgf) => match &slot.query {
                        Some(q) => writer.edit(sgf, 0, sgf.len(), &q.plan, evals.as_deref()),
                        None => writer.copy(sgf),
                    },
                    None => {
                        let end = slot.end.min(job.text.len());
                        let r = match &slot.query {
                            Some(q) => {
                                writer.edit(&job.text, job.cursor, end, &q.plan, evals.as_deref())
                            }
                            None => writer.copy(&job.text[job.cursor..end]),
                        };
                        job.cursor = end;
                        r
                    }
                };
                written.map_err(|e| AnalyseError::Io(writer.dest().to_path_buf(), e))?;
                // The game's memory goes once it is written.
                slot.state = State::Done(None);
                slot.converted = None;
                slot.query = None;
                job.next_write += 1;
                self.held -= 1;
                self.progress.games += 1;
            }
            if job.next_write < job.slots.len() {
                return Ok(());
            }
            let mut job = self.jobs.pop_front().expect("a front job");
            let mut writer = job.writer.take().expect("open until the file is done");
            let dest = writer.dest().to_path_buf();
            writer
                .copy(&job.text[job.cursor.min(job.text.len())..])
                .and_then(|()| writer.finish())
                .map_err(|e| AnalyseError::Io(dest, e))?;
            self.summary.files_written += 1;
            self.progress.bytes_done = job.at;
            self.observer.progress(&self.progress);
        }
        Ok(())
    }
}

/// The start of a line, for an error message.
fn excerpt(line: &str) -> String {
    let line = line.trim_end();
    match line.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(path: &str, name: &str, root: Option<&str>) -> inputs::Source {
        inputs::Source {
            path: PathBuf::from(path),
            name: name.to_string(),
            kind: inputs::SourceKind::Plain,
            len: 0,
            canonical: PathBuf::from(path),
            root: root.map(PathBuf::from),
            modified: None,
            stream: false,
            max_record_bytes: inputs::MAX_RECORD_BYTES,
        }
    }

    #[test]
    fn a_file_given_directly_is_named_by_its_own_name_under_the_output_folder() {
        let given = source("../games/a.gib", "../games/a.gib", None);
        assert_eq!(output_name(&given, "../games/a.gib"), "a.gib");
        let archive = source("/data/kgs.tar.gz", "/data/kgs.tar.gz", None);
        assert_eq!(
            output_name(&archive, "/data/kgs.tar.gz/2002/x.sgf"),
            "kgs.tar.gz/2002/x.sgf"
        );
        let found = source("/in/pro/b.sgf", "pro/b.sgf", Some("/in"));
        assert_eq!(output_name(&found, "pro/b.sgf"), "pro/b.sgf");
    }
}
