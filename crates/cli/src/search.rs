//! `qipu search`: positions, patterns and game information, answered from an index through the
//! library's face (`qipu`): this module only reads the arguments and query files, and prints.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use goban::{Board, Color, Point};
use qipu::{
    Answer, Handicap, Hit, KomiRange, LossThreshold, Mistakes, Query, QueryPart, Shards, Sort,
};
use serde_json::json;

use crate::color;
use crate::inputs::shown_path;
use crate::table::{Cell, Table};

/// The options of `qipu search`.
#[derive(Args)]
pub struct SearchArgs {
    /// The index to search (default: the folder `QIPU_INDEX` names). Given several times,
    /// the indexes are searched as one holding all their games, in that order (shards of one
    /// corpus): hits, continuations and profile merged, an exact copy across indexes counted
    /// once.
    #[arg(long, env = "QIPU_INDEX", required_unless_present = "sql")]
    index: Vec<PathBuf>,
    /// A position: the first game of this record file, after move --at (default: its end);
    /// FILE#GAME for another game of it (a hit as printed); `-` reads standard input.
    #[arg(long, conflicts_with = "pattern")]
    position: Option<PathBuf>,
    /// With --position: the move number whose position to search.
    #[arg(long)]
    at: Option<usize>,
    /// A position typed as points (pd, Q16 or 0144, comma- or space-separated): black stones.
    #[arg(long, conflicts_with_all = ["position", "pattern"])]
    black: Option<String>,
    /// White stones of a typed position.
    #[arg(long, conflicts_with_all = ["position", "pattern"])]
    white: Option<String>,
    /// Board size of a typed position or of a pattern smaller than the board (default 19);
    /// with --query alone, only games of this board.
    #[arg(long)]
    size: Option<u8>,
    /// A pattern: a diagram file (X black, O white, . empty, ? any, x black-or-empty, o
    /// white-or-empty); `-` reads it from standard input.
    #[arg(long)]
    pattern: Option<PathBuf>,
    /// Where a pattern smaller than the board lies: COLUMN,ROW of its top-left point, 0-based
    /// (default 0,0: the top-left corner; symmetry covers the other corners).
    #[arg(long, value_parser = parse_place, conflicts_with = "anywhere")]
    place: Option<(u8, u8)>,
    /// Let the pattern lie anywhere on the board (translations as well as symmetries).
    #[arg(long)]
    anywhere: bool,
    /// With --pattern: walk on as a joseki, one step per point (repeatable, or a list:
    /// Q17,R14): each must be a row of the current pattern's continuation table, whose stone
    /// is added to the pattern before it is searched again (B:Q17 or B[Q17] chooses the colour
    /// where both played there; else the more frequent). The last pattern's answer is printed.
    #[arg(long, value_name = "POINT")]
    then: Vec<String>,
    /// Match only the orientation given, not its rotations and reflections.
    #[arg(long)]
    no_symmetry: bool,
    /// Also match with colours exchanged.
    #[arg(long)]
    swap_colors: bool,
    /// Only position hits where this colour plays next: B, W, b, w, black or white.
    #[arg(long, value_parser = word(qipu::parse_color))]
    to_move: Option<Color>,
    /// A move sequence (e.g. a joseki): a record file whose main line it is, or moves typed as
    /// `B[pd] W[qf] B[nc]` or in quadrant digits (`01：44、36，63、`).
    #[arg(long, conflicts_with_all = ["position", "pattern", "black", "white"])]
    moves: Option<String>,
    /// With --moves: the moves as a set, in any order (default: in that order).
    #[arg(long)]
    any_order: bool,
    /// With --moves: any moves between the sequence's, over any number of moves (default: a
    /// joseki as played: other moves only outside its area, the points' rectangle grown by
    /// two lines, and from its second move to its last within 2 × length + 10 moves).
    #[arg(long)]
    any_gap: bool,
    /// A game-information query, e.g. 'black:"Lee Sedol" AND date:[2005 TO 2010] AND winner:B'.
    #[arg(long)]
    query: Option<String>,
    /// Only games dated from this month on: YYYY or YYYY-MM (a game dated by year only counts
    /// as its January; undated games are left out). Narrows hits, continuations and profile.
    #[arg(long)]
    since: Option<String>,
    /// Only games dated up to this month: YYYY (to its December) or YYYY-MM.
    #[arg(long)]
    until: Option<String>,
    /// Only games where both players are at least this rank (5k, 3d, 9p); games with a rank
    /// unknown are left out. One player at least R: --query 'rank:>=R'.
    #[arg(long)]
    min_rank: Option<String>,
    /// Only even games (no handicap, or HA 0 or 1): --handicap even.
    #[arg(long, conflicts_with = "handicap")]
    even: bool,
    /// Only games of this handicap class: even (no handicap, or HA 0 or 1), handicap (HA 2 or
    /// more; the class --handicap alone means) or any.
    #[arg(long, value_name = "CLASS", num_args = 0..=1, default_missing_value = "handicap",
          value_parser = word(str::parse::<Handicap>))]
    handicap: Option<Handicap>,
    /// Only games whose komi is in A..B (inclusive, e.g. 6.5..7.5; one number: exactly it).
    #[arg(long, value_parser = word(str::parse::<KomiRange>), allow_hyphen_values = true)]
    komi: Option<KomiRange>,
    /// Count each exact copy of a game in the continuation table and the profile (as the
    /// oracle does); by default a set of copies counts once (all are still listed as hits).
    #[arg(long)]
    with_copies: bool,
    /// The date profile per month as well as per year.
    #[arg(long)]
    by_month: bool,
    /// Moves of analysed games (records with an engine's evaluations) whose player lost at
    /// least this much by the engine: 10% (win probability), 3pt (points) or both (10%,3pt).
    /// Alone, or narrowed by --query, dates, ranks, or among the moves the continuation rows of
    /// a position, a pattern or a move sequence count (the move played from the position; the
    /// first move played later inside the pattern's or sequence's region). Sorted by the loss,
    /// or by date with the sort words newest and oldest.
    #[arg(long, value_name = "LOSS", value_parser = word(str::parse::<LossThreshold>),
          conflicts_with_all = ["then", "export", "sql"])]
    mistakes: Option<LossThreshold>,
    /// With --mistakes: only this player's moves (his name as `black:"NAME"` finds it).
    #[arg(long, value_name = "NAME", requires = "mistakes")]
    player: Option<String>,
    /// Order of the hits: indexed (the default), newest (or date), oldest, strongest (or rank:
    /// the weaker player's rank, then the stronger's), longest (or length), most_positions (or
    /// positions: most hit positions first).
    #[arg(long, value_parser = word(str::parse::<Sort>))]
    sort: Option<Sort>,
    /// Leave out the first N hit games (after --sort), for pages with --limit.
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// JSON Lines output (types hit, continuation, profile, summary).
    #[arg(long)]
    json: bool,
    /// At most this many hit games in the output (all by default with --json, 20 otherwise).
    #[arg(long)]
    limit: Option<usize>,
    /// Write the hit games to this file as one SGF collection (original records).
    #[arg(long)]
    export: Option<PathBuf>,
    /// Print the ClickHouse query that answers this position's continuation table from the
    /// tables of `qipu export --clickhouse` (with the filters and --with-copies), instead of
    /// searching: the query holds the hashes of the position's images, which qipu computes.
    #[arg(long, conflicts_with_all = ["pattern", "moves", "query", "export", "json", "sort", "limit"])]
    sql: bool,
}

fn parse_place(s: &str) -> Result<(u8, u8), String> {
    let (a, b) = s.split_once(',').ok_or("write COLUMN,ROW")?;
    Ok((
        a.trim().parse().map_err(|_| "bad column")?,
        b.trim().parse().map_err(|_| "bad row")?,
    ))
}

/// An option's word read by the library's vocabulary, whose refusal clap prints after the
/// option's name.
fn word<T: 'static>(
    read: fn(&str) -> Result<T, qipu::Error>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |s| read(s).map_err(|e| e.to_string())
}

/// A query the user must mend, said in one line.
struct Refusal(String);

impl From<qipu::Error> for Refusal {
    fn from(e: qipu::Error) -> Refusal {
        Refusal(e.to_string())
    }
}

impl From<String> for Refusal {
    fn from(s: String) -> Refusal {
        Refusal(s)
    }
}

pub fn run(a: &SearchArgs) -> Result<ExitCode> {
    // Checked here rather than by clap's `requires`, which gives way when the option required
    // conflicts with one given (`--black pd --at 3` would pass, `--black` conflicting with
    // `--position`): an option that would have no effect is refused, never ignored.
    let typed_or_read = a.position.is_some() || a.black.is_some() || a.white.is_some();
    let on_the_board = typed_or_read || a.pattern.is_some() || a.moves.is_some();
    let needs = [
        (
            a.at.is_some(),
            "--at",
            a.position.is_some(),
            "--position FILE",
        ),
        (a.any_order, "--any-order", a.moves.is_some(), "--moves"),
        (a.any_gap, "--any-gap", a.moves.is_some(), "--moves"),
        (
            a.place.is_some(),
            "--place",
            a.pattern.is_some(),
            "--pattern FILE",
        ),
        (
            a.anywhere,
            "--anywhere",
            a.pattern.is_some(),
            "--pattern FILE",
        ),
        (
            !a.then.is_empty(),
            "--then",
            a.pattern.is_some(),
            "--pattern FILE",
        ),
        (
            a.to_move.is_some(),
            "--to-move",
            typed_or_read,
            "a position (--position FILE, or --black/--white)",
        ),
        (
            a.no_symmetry,
            "--no-symmetry",
            on_the_board,
            "a position, --pattern or --moves",
        ),
        (
            a.swap_colors,
            "--swap-colors",
            on_the_board,
            "a position, --pattern or --moves",
        ),
    ];
    if let Some((_, name, _, main)) = needs.iter().find(|(on, _, has, _)| *on && !*has) {
        eprintln!("qipu: {name} has no effect without {main}: give {main} with it");
        return Ok(ExitCode::from(2));
    }
    let query = match build_query(a) {
        Ok(q) => q,
        Err(Refusal(e)) => {
            eprintln!("qipu: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if a.sql {
        return match qipu_export::sql::position_sql(&query) {
            Ok(sql) => {
                write!(std::io::stdout().lock(), "{sql}")?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                eprintln!("qipu: {e}");
                Ok(ExitCode::from(2))
            }
        };
    }
    if a.index.is_empty() {
        anyhow::bail!("give the index: --index DIR (or set QIPU_INDEX)");
    }
    let index = Shards::open(&a.index)?;
    let limit = a.limit.unwrap_or(if a.json { usize::MAX } else { 20 });
    // An export takes every hit; otherwise only the hits printed are looked up.
    let query = query.limit(if a.export.is_some() {
        None
    } else {
        Some(limit)
    });
    if a.mistakes.is_some() {
        let spinner = crate::progress::Spinner::start("searching");
        let answer = index.mistakes(&query);
        spinner.stop();
        return match answer {
            Ok(answer) => crate::mistakes::print(&index, &query, &answer, a.json, a.offset),
            Err(e) => match e.query() {
                Some(q) => {
                    let flag = match q.part() {
                        QueryPart::Metadata => "--query: ",
                        _ => "",
                    };
                    eprintln!("qipu: {flag}{e}");
                    Ok(ExitCode::from(2))
                }
                None => Err(e.into()),
            },
        };
    }
    let spinner = crate::progress::Spinner::start("searching");
    // Each step of `--then` is a search of the pattern walked so far, for its table.
    let searched = match a.then.is_empty() {
        true => Ok(query),
        false => query.walk(&a.then.join(","), |q| index.search(q)),
    }
    .and_then(|query| Ok((index.search(&query)?, query)));
    spinner.stop();
    let (answer, query) = match searched {
        Ok(answered) => answered,
        Err(e) => match e.query() {
            Some(q) => {
                let flag = match q.part() {
                    QueryPart::Metadata => "--query: ",
                    QueryPart::Then => "--",
                    _ => "",
                };
                eprintln!("qipu: {flag}{e}");
                return Ok(ExitCode::from(2));
            }
            None => return Err(e.into()),
        },
    };
    let elapsed_ms = answer.timings.search_ms;
    let mut out = std::io::stdout().lock();
    if a.json {
        // The shapes `qipu serve` answers with too (`qipu::lines`), and on a hit the record's
        // path on this machine, which `qipu show` takes back.
        let mut hits = answer.hits.iter();
        for line in qipu::lines::lines(&answer, limit) {
            let mut v = serde_json::to_value(&line)?;
            if matches!(line, qipu::lines::Line::Hit(_)) {
                if let Some(hit) = hits.next() {
                    // A path that is not UTF-8 is shown with escapes `show` takes back.
                    v["path"] = json!(index.path(hit.game).map(|p| shown_path(&p)));
                }
            }
            writeln!(out, "{v}")?;
        }
    } else {
        write!(out, "{}", human(&index, &query, &answer, limit, elapsed_ms))?;
    }
    if let Some(path) = &a.export {
        let sgf = index.export_sgf(&answer.hits)?;
        std::fs::write(path, sgf).with_context(|| format!("{}", path.display()))?;
    }
    // As grep and ripgrep: 0 when something was found, 1 when nothing was (2 is an error), so
    // that scripts can tell the two apart without reading the output.
    Ok(match answer.summary.games + answer.summary.variations {
        0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// The query the arguments ask, from the files they name (each read with a cap) and the text
/// they give; the library checks the rest.
fn build_query(a: &SearchArgs) -> Result<Query, Refusal> {
    let size = a.size.unwrap_or(19);
    qipu::check_board_size(size)?;
    let query = if let Some(path) = &a.position {
        position(path, a.at)?
    } else if a.black.is_some() || a.white.is_some() {
        let (black, white) = (a.black.as_deref(), a.white.as_deref());
        // Each list alone first, so that a refusal names the option it is in (as the server's
        // names its parameter).
        Query::points(size, black.unwrap_or(""), "").map_err(|e| format!("--black: {e}"))?;
        Query::points(size, "", white.unwrap_or("")).map_err(|e| format!("--white: {e}"))?;
        Query::points(size, black.unwrap_or(""), white.unwrap_or(""))?
    } else if let Some(path) = &a.pattern {
        let bytes = if path == Path::new("-") {
            crate::inputs::stdin(crate::capped::DIAGRAM, "--pattern")?
        } else {
            crate::capped::read(path, "--pattern", crate::capped::DIAGRAM)?
        };
        let text = String::from_utf8(bytes).map_err(|e| {
            format!(
                "--pattern {}: not UTF-8 text (byte {})",
                path.display(),
                e.utf8_error().valid_up_to()
            )
        })?;
        let (column, row) = a.place.unwrap_or((0, 0));
        Query::pattern(&text)?.board_size(size).place(column, row)
    } else if let Some(text) = &a.moves {
        let path = Path::new(text);
        if path.is_file() {
            let bytes = crate::capped::read(path, "--moves", crate::capped::RECORD)?;
            Query::moves_from_record(&bytes, &path.display().to_string())?
        } else {
            Query::moves(text, size)?
        }
    } else if let Some(q) = &a.query {
        Query::metadata(q.as_str())
    } else if let Some(loss) = a.mistakes {
        Query::mistakes(Mistakes::new(loss)?)
    } else {
        return Err(Refusal(
            "nothing to search: give --position, --black/--white, --pattern, --moves, --query \
             or --mistakes"
                .into(),
        ));
    };
    let query = match (a.mistakes, query.mistakes_asked()) {
        (Some(loss), None) => query.and_mistakes(Mistakes::new(loss)?),
        _ => query,
    };
    let query = match (&a.player, query.mistakes_asked()) {
        (Some(name), Some(m)) => {
            let m = m.clone().by(name.as_str());
            query.and_mistakes(m)
        }
        _ => query,
    };
    let query = query
        .symmetry(!a.no_symmetry)
        .swap_colors(a.swap_colors)
        .to_move(a.to_move)
        .any_order(a.any_order)
        .any_gap(a.any_gap)
        .anywhere(a.anywhere);
    let mut query = match &a.query {
        Some(q) => query.filter(q.as_str()),
        None => query,
    };
    if let Some(d) = &a.since {
        query = query.since(d).map_err(|e| format!("--since: {e}"))?;
    }
    if let Some(d) = &a.until {
        query = query.until(d).map_err(|e| format!("--until: {e}"))?;
    }
    if let Some(r) = &a.min_rank {
        query = query.min_rank(r).map_err(|e| format!("--min-rank: {e}"))?;
    }
    if let Some(k) = a.komi {
        query = query.komi(k.low, k.high);
    }
    if a.even {
        query = query.handicap(Handicap::Even);
    } else if let Some(class) = a.handicap {
        query = query.handicap(class);
    }
    // The other kinds carry their board; a metadata query alone is narrowed to it.
    if let (Some(size), true) = (a.size, query.metadata_only()) {
        query = query.only_size(size);
    }
    Ok(query
        .with_copies(a.with_copies)
        .by_month(a.by_month)
        .sort(a.sort.unwrap_or_default())
        .offset(a.offset))
}

/// The position query of `--position ARG`: ARG is a record file (`-`: standard input), or one
/// game of one as a search prints it, `FILE#GAME` (see `crate::inputs`); without `#GAME`, the
/// file's first game.
fn position(arg: &Path, at: Option<usize>) -> Result<Query, Refusal> {
    let spec = crate::inputs::Spec::parse(arg);
    let name = arg.display().to_string();
    let bytes = if spec.path == Path::new("-") {
        crate::inputs::stdin(crate::capped::RECORD, "--position")?
    } else if let Some(member) = &spec.member {
        member_bytes(&spec.path, member).map_err(|e| format!("--position {name}: {e}"))?
    } else {
        crate::capped::read(&spec.path, "--position", crate::capped::RECORD)?
    };
    let Some(game) = spec.game.filter(|&g| g > 0) else {
        return Ok(Query::from_record(&bytes, at)?);
    };
    // Game N of a collection: the face reads a record's first game, so that game is handed to
    // it alone, written out as SGF (the same moves and setup).
    let records = sgf::Records::read(&bytes);
    if game >= records.len() {
        return Err(Refusal(format!(
            "--position {name}: no game #{game}: the file holds {} (numbered from 0)",
            records.len()
        )));
    }
    let tree = records
        .game(game)
        .map_err(|d| format!("--position {name}: {d}"))?;
    Ok(Query::from_record(
        sgf::write::to_sgf(&tree).as_bytes(),
        at,
    )?)
}

/// The bytes of the member `member` of the archive `archive`, read as `qipu index` reads it.
fn member_bytes(archive: &Path, member: &str) -> Result<Vec<u8>, String> {
    let sources = ::inputs::discover(&[archive.to_path_buf()]).map_err(|e| e.to_string())?;
    let mut found = None;
    for source in &sources {
        let want = format!("{}/{member}", source.name);
        ::inputs::read_source(source, &mut |rec| {
            if found.is_none() && rec.name == want {
                found = Some(rec.bytes.to_vec());
            }
        })
        .map_err(|e| e.to_string())?;
    }
    found.ok_or_else(|| format!("no record file {member:?} in {}", archive.display()))
}

/// How a hit is named for a person: `PATH#GAME`, the record file's path on disk when the index
/// knows it (what `qipu show`, `info`, `convert` and `search --position` take back), else its
/// name as indexed; GAME is its place in the file, as `--json` prints `game`.
fn identity(index: &Shards, hit: &Hit) -> String {
    let file = index
        .path(hit.game)
        .map_or_else(|| hit.info.file.clone(), |p| shown_path(&p));
    format!("{file}#{}", hit.info.game_in_file)
}

/// At most this many hit positions are listed in a hit's row; the rest are counted.
const MOVES_SHOWN: usize = 8;
/// Continuations are lettered A to Z on the board, so the table shows as many.
const CONTINUATIONS_SHOWN: usize = 26;

fn human(index: &Shards, query: &Query, answer: &Answer, limit: usize, elapsed_ms: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}",
        color::paint(
            color::HEADER,
            &format!(
                "{} games ({} positions{}){} in {:.1} ms",
                answer.summary.games,
                answer.summary.positions,
                match answer.summary.no_continuation {
                    // Patterns and sequences: the hits the continuation table cannot count.
                    Some(n) if n > 0 => format!(
                        ", {n} with no later move in the {}",
                        if query.searched_pattern().is_some() {
                            "pattern's region"
                        } else {
                            "sequence's area"
                        }
                    ),
                    _ => String::new(),
                },
                match answer.summary.variations {
                    0 => String::new(),
                    n => format!(", {n} variation lines"),
                },
                elapsed_ms
            )
        )
    );
    // Continuations drawn on the board as letters A, B, C…, one per point in order of
    // frequency (both colours' rows at a point share its letter).
    let mut labels: Vec<(Point, char)> = Vec::new();
    for c in answer.continuations.iter().take(CONTINUATIONS_SHOWN) {
        if let Some(p) = c.point {
            if !labels.iter().any(|l| l.0 == p) {
                labels.push((p, (b'A' + labels.len() as u8) as char));
            }
        }
    }
    let height = if let Some(position) = query.searched_position() {
        let board = Board::from_position(position);
        s.push_str(&crate::show::diagram_with_labels(&board, None, &labels));
        board.height()
    } else if let Some((w, h, cells, place)) = query.searched_pattern() {
        s.push_str(&pattern_diagram(
            query.board(),
            w,
            h,
            &cells,
            place,
            &labels,
        ));
        // Rows are counted in the frame the table's points are in: the board's for a placed
        // pattern, the diagram's own for one that lies anywhere.
        match place {
            Some(_) => query.board().max(h),
            None => h,
        }
    } else {
        query.board()
    };
    if !answer.continuations.is_empty() {
        s.push('\n');
        // Lines of records' variations play moves too; their column shows only when some do.
        let lines = answer.continuations.iter().any(|c| c.variations > 0);
        let mut columns = vec![("next", false), ("move", false), ("count", true)];
        // A pattern's or a sequence's row is the first move later inside its region: how many
        // came at once and how many after moves elsewhere.
        let waited = answer.summary.no_continuation.is_some();
        if waited {
            columns.extend([("direct", true), ("tenuki", true)]);
        }
        if lines {
            columns.push(("variations", true));
        }
        // Analysed games' rows say what the engine thought of the move: shown only when some
        // row has one.
        let analysed = answer.continuations.iter().any(|c| c.analysed > 0);
        if analysed {
            columns.extend([("analysed", true), ("B after", true), ("loss", true)]);
        }
        columns.extend([
            ("share", true),
            ("B wins", true),
            ("W wins", true),
            ("player", true),
            ("opponent", true),
            ("years", false),
            ("example", false),
        ]);
        let mut t = Table::new(&columns);
        let total: u32 = answer.continuations.iter().map(|c| c.count).sum();
        // A row no game played (variation lines only) has no share and no win rates.
        let share = |n: u32, of: u32| match of {
            0 => String::new(),
            _ => format!("{:.1}%", 100.0 * n as f64 / of as f64),
        };
        for c in answer.continuations.iter().take(CONTINUATIONS_SHOWN) {
            let label = labels
                .iter()
                .find(|l| Some(l.0) == c.point)
                .map_or(String::new(), |l| l.1.to_string());
            let at = c
                .point
                .map_or("pass".to_string(), |p| crate::show::gtp(p, height));
            let mut row: Vec<Cell> = vec![
                Cell::styled(label, color::LABEL),
                format!("{} {at}", c.color.letter()).into(),
                c.count.to_string().into(),
            ];
            if waited {
                row.push((c.count - c.tenuki.min(c.count)).to_string().into());
                row.push(c.tenuki.to_string().into());
            }
            if lines {
                row.push(c.variations.to_string().into());
            }
            if analysed {
                row.extend(eval_cells(c));
            }
            row.extend([
                match c.count {
                    0 => String::new(),
                    _ => share(c.count, total),
                }
                .into(),
                share(c.black_wins, c.count).into(),
                share(c.white_wins, c.count).into(),
                c.mover_rank.map_or(String::new(), rank_label).into(),
                c.opponent_rank.map_or(String::new(), rank_label).into(),
                match (c.first_year, c.last_year) {
                    (Some(a), Some(b)) if a != b => format!("{a}–{b}"),
                    (Some(a), _) => a.to_string(),
                    _ => String::new(),
                }
                .into(),
                c.example.clone().unwrap_or_default().into(),
            ]);
            t.row(row);
        }
        let more = answer
            .continuations
            .len()
            .saturating_sub(CONTINUATIONS_SHOWN);
        if more > 0 {
            t.note(format!(
                "… {more} more next moves, less frequent (--json lists them all)"
            ));
        }
        s.push_str(&t.render("  "));
    }
    s.push_str(&profile_chart(&answer.profile));
    if answer.summary.games + answer.summary.variations > 0 {
        s.push('\n');
        let mut t = Table::new(&[
            ("game", false),
            ("black", false),
            ("white", false),
            ("date", false),
            ("result", false),
            ("at move", false),
            ("event", false),
        ]);
        for hit in answer.hits.iter().take(limit) {
            let d = &hit.info;
            let mut moves = hit
                .moves
                .iter()
                .take(MOVES_SHOWN)
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(",");
            if hit.moves.len() > MOVES_SHOWN {
                let _ = write!(moves, ",… ({} in all, --json lists them)", hit.moves.len());
            }
            let won = |side: char| {
                if d.result.as_deref().is_some_and(|r| {
                    r.chars().next().map(|c| c.to_ascii_uppercase()) == Some(side)
                        && r[1..].starts_with('+')
                }) {
                    color::WINNER
                } else {
                    anstyle::Style::new()
                }
            };
            let mut name = identity(index, hit);
            if d.copy {
                name.push_str(" (copy)");
            }
            if let Some(v) = &hit.variation {
                let _ = write!(name, " (variation {})", v.path);
            }
            t.row(vec![
                name.into(),
                Cell::styled(d.black.as_deref().unwrap_or("?"), won('B')),
                Cell::styled(d.white.as_deref().unwrap_or("?"), won('W')),
                d.date.as_deref().unwrap_or_default().into(),
                d.result.as_deref().unwrap_or_default().into(),
                moves.into(),
                d.event.as_deref().unwrap_or_default().into(),
            ]);
        }
        let shown = answer.hits.len().min(limit);
        let all = answer.summary.games + answer.summary.variations;
        if all > shown {
            t.note(format!(
                "… {} more {} (--limit N shows more, --json all of them)",
                all - shown,
                if answer.summary.variations > 0 {
                    "games and variation lines"
                } else {
                    "games"
                }
            ));
        }
        s.push_str(&t.render("  "));
    }
    s
}

/// A mean rank on the face's scale (1k = 0, 1d = 1, 10d = 10, 1p = 11) as a player reads it:
/// `6.4d`, `2.0p`, `3.5k`. A mean between 10d and 1p is in dan (`10.6d`), not a fraction of a
/// professional rank below the first.
fn rank_label(v: f64) -> String {
    // Decided on the value as shown, so that no mean prints as `0.9p` or `11.0d`.
    let v = (v * 10.0).round() / 10.0;
    if v >= 11.0 {
        format!("{:.1}p", v - 10.0)
    } else if v >= 0.5 {
        format!("{v:.1}d")
    } else {
        format!("{:.1}k", 1.0 - v)
    }
}

/// At most this many periods are drawn in the profile (the most recent); `--json` has them all.
const PERIODS_SHOWN: usize = 40;
/// The width of the longest bar of the profile, in characters.
const BAR_WIDTH: usize = 30;

/// The date profile as a bar chart: one row per year (or month), its bar as long as its share
/// of the busiest period, with the games and how they ended.
fn profile_chart(p: &qipu::Profile) -> String {
    let periods = p.months.as_deref().unwrap_or(&p.years);
    if periods.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n");
    let most = periods.iter().map(|y| y.games).max().unwrap_or(1).max(1);
    let skipped = periods.len().saturating_sub(PERIODS_SHOWN);
    if skipped > 0 {
        let _ = writeln!(s, "  … {skipped} earlier periods (--json lists them all)");
    }
    let share = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    for y in &periods[skipped..] {
        // Eighths of a character: a bar shows small differences too.
        let eighths = (y.games as f64 / most as f64 * (BAR_WIDTH * 8) as f64).round() as usize;
        let mut bar = "█".repeat(eighths / 8);
        if !eighths.is_multiple_of(8) {
            bar.push([' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8]);
        }
        if y.games > 0 && bar.is_empty() {
            bar.push('▏');
        }
        let when = match y.month {
            Some(m) => format!("{:04}-{m:02}", y.year),
            None => format!("{:04}", y.year),
        };
        let _ = writeln!(
            s,
            "  {when}  {}{} {:>7}  B {:5.1}%  W {:5.1}%",
            color::paint(color::LABEL, &bar),
            " ".repeat(BAR_WIDTH + 1 - bar.chars().count().min(BAR_WIDTH + 1)),
            y.games,
            share(y.black_wins, y.games),
            share(y.white_wins, y.games)
        );
    }
    let mut notes = Vec::new();
    if let Some(n) = p.no_month.filter(|&n| n > 0) {
        notes.push(format!("{n} dated by year only"));
    }
    if p.undated > 0 {
        notes.push(format!("{} undated", p.undated));
    }
    if !notes.is_empty() {
        let _ = writeln!(s, "  ({})", notes.join(", "));
    }
    s
}

/// Lines of the board drawn around a placed pattern's region.
const REGION_MARGIN: u8 = 2;

/// The pattern searched for, drawn on the board where it lies (the top-left corner unless
/// `--place` moved it; the points outside it blank), or alone when it may lie anywhere; its
/// `?`, `x` and `o` as written. A placed pattern is drawn over its region (the rectangle of its
/// constrained points, where its continuations lie) and two lines around, not the whole board.
fn pattern_diagram(
    size: u8,
    w: u8,
    h: u8,
    cells: &[char],
    place: Option<(u8, u8)>,
    labels: &[(Point, char)],
) -> String {
    let (bw, bh, dx, dy) = match place {
        Some((column, row)) if w < size || h < size => (size, size, column, row),
        _ => (w, h, 0, 0),
    };
    let constrained = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != '?')
        .map(|(i, _)| (dx + (i % w as usize) as u8, dy + (i / w as usize) as u8));
    let window = match (place, constrained.clone().next()) {
        (Some(_), Some(_)) => {
            let (xs, ys): (Vec<u8>, Vec<u8>) = constrained.unzip();
            let low = |v: &[u8]| {
                v.iter()
                    .min()
                    .map_or(0, |&m| m.saturating_sub(REGION_MARGIN))
            };
            let high = |v: &[u8], end: u8| {
                v.iter()
                    .max()
                    .map_or(end - 1, |&m| m.saturating_add(REGION_MARGIN).min(end - 1))
            };
            (low(&xs), low(&ys), high(&xs, bw), high(&ys, bh))
        }
        _ => (0, 0, bw - 1, bh - 1),
    };
    crate::show::diagram_window(bw, bh, window, None, labels, |p| {
        let inside = match (p.x.checked_sub(dx), p.y.checked_sub(dy)) {
            (Some(x), Some(y)) if x < w && y < h => Some((x, y)),
            _ => None,
        };
        let cell = match inside {
            Some((x, y)) => cells.get(y as usize * w as usize + x as usize).copied(),
            None => Some(' '),
        };
        // A point where a continuation was played shows its letter, as on a position's board.
        match cell {
            Some('X' | 'O') => cell,
            _ if labels.iter().any(|l| l.0 == p) => None,
            _ => cell,
        }
    })
}

/// A row's engine columns: its analysed positions, Black's mean win probability and lead after
/// the move, and the mover's mean loss (win probability, then points); empty where none.
fn eval_cells(c: &qipu::Continuation) -> [Cell; 3] {
    let after = match (c.black_win_after, c.black_lead_after) {
        (Some(w), Some(l)) => format!("{:.1}% {l:+.1}", 100.0 * w),
        (Some(w), None) => format!("{:.1}%", 100.0 * w),
        _ => String::new(),
    };
    let loss = match (c.win_loss, c.points_loss) {
        (Some(w), Some(p)) => format!("{:.1}% {p:.1}pt", 100.0 * w),
        (Some(w), None) => format!("{:.1}%", 100.0 * w),
        _ => String::new(),
    };
    [
        match c.analysed {
            0 => String::new(),
            n => n.to_string(),
        }
        .into(),
        after.into(),
        loss.into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::rank_label;

    #[test]
    fn mean_ranks_read_as_players_write_them() {
        for (v, want) in [
            (0.0, "1.0k"),
            (-4.2, "5.2k"),
            (1.0, "1.0d"),
            (6.44, "6.4d"),
            (10.07, "10.1d"),
            (10.61, "10.6d"),
            (10.96, "1.0p"),
            (10.95, "1.0p"),
            (219.0 / 20.0, "1.0p"),
            (10.94, "10.9d"),
            (11.0, "1.0p"),
            (19.0, "9.0p"),
        ] {
            assert_eq!(rank_label(v), want, "{v}");
        }
    }
}
