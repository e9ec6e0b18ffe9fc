//! `qipu search`: positions, patterns and game information, answered from an index through the
//! library's face (`qipu`): this module only reads the arguments and query files, and prints.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use goban::{Board, Color, Point};
use qipu::{Answer, Index, Query, QueryPart};

/// The options of `qipu search`.
#[derive(Args)]
pub struct SearchArgs {
    /// The index to search (default: the folder `QIPU_INDEX` names).
    #[arg(long, env = "QIPU_INDEX")]
    index: PathBuf,
    /// A position: the first game of this record file, after move --at (default: its end).
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
    /// Board size of a typed position or of a pattern smaller than the board.
    #[arg(long, default_value_t = 19)]
    size: u8,
    /// A pattern: a diagram file (X black, O white, . empty, ? any, x black-or-empty, o white-or-empty).
    #[arg(long)]
    pattern: Option<PathBuf>,
    /// Where a pattern smaller than the board lies: COLUMN,ROW of its top-left point, 0-based
    /// (default 0,0: the top-left corner; symmetry covers the other corners).
    #[arg(long, value_parser = parse_place, conflicts_with = "anywhere")]
    place: Option<(u8, u8)>,
    /// Let the pattern lie anywhere on the board (translations as well as symmetries).
    #[arg(long)]
    anywhere: bool,
    /// Match only the orientation given, not its rotations and reflections.
    #[arg(long)]
    no_symmetry: bool,
    /// Also match with colours exchanged.
    #[arg(long)]
    swap_colors: bool,
    /// Only position hits where this colour (B or W) plays next.
    #[arg(long, value_parser = parse_color)]
    to_move: Option<Color>,
    /// A move sequence (e.g. a joseki): a record file whose main line it is, or moves typed as
    /// `B[pd] W[qf] B[nc]` or in quadrant digits (`01：44、36，63、`).
    #[arg(long, conflicts_with_all = ["position", "pattern", "black", "white"])]
    moves: Option<String>,
    /// With --moves: the moves as a set, in any order (default: in order, tenuki allowed).
    #[arg(long)]
    any_order: bool,
    /// A game-information query, e.g. 'black:"Lee Sedol" AND date:[2005 TO 2010] AND winner:B'.
    #[arg(long)]
    query: Option<String>,
    /// JSON Lines output (types hit, continuation, summary).
    #[arg(long)]
    json: bool,
    /// At most this many hit games in the output (all by default with --json, 20 otherwise).
    #[arg(long)]
    limit: Option<usize>,
    /// Write the hit games to this file as one SGF collection (original records).
    #[arg(long)]
    export: Option<PathBuf>,
}

fn parse_place(s: &str) -> Result<(u8, u8), String> {
    let (a, b) = s.split_once(',').ok_or("write COLUMN,ROW")?;
    Ok((
        a.trim().parse().map_err(|_| "bad column")?,
        b.trim().parse().map_err(|_| "bad row")?,
    ))
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s {
        "B" | "b" | "black" => Ok(Color::Black),
        "W" | "w" | "white" => Ok(Color::White),
        _ => Err("B or W".into()),
    }
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
    let needs = [
        (
            a.at.is_some(),
            "--at",
            a.position.is_some(),
            "--position FILE",
        ),
        (a.any_order, "--any-order", a.moves.is_some(), "--moves"),
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
    ];
    if let Some((_, name, _, main)) = needs.iter().find(|(on, _, has, _)| *on && !*has) {
        eprintln!("qipu: {name} has no effect without {main}: give {main} with it");
        return Ok(ExitCode::from(2));
    }
    let index = Index::open(&a.index)?;
    let query = match build_query(a) {
        Ok(q) => q,
        Err(Refusal(e)) => {
            eprintln!("qipu: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let limit = a.limit.unwrap_or(if a.json { usize::MAX } else { 20 });
    // An export takes every hit; otherwise only the hits printed are looked up.
    let query = query.limit(if a.export.is_some() {
        None
    } else {
        Some(limit)
    });
    let answer = match index.search(&query) {
        Ok(answer) => answer,
        Err(e) => match e.query() {
            Some(q) => {
                let flag = if q.part() == QueryPart::Metadata {
                    "--query: "
                } else {
                    ""
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
        // The shapes `qipu serve` answers with too (`qipu::lines`).
        for line in qipu::lines::lines(&answer, limit) {
            serde_json::to_writer(&mut out, &line)?;
            writeln!(out)?;
        }
    } else {
        write!(out, "{}", human(&query, &answer, limit, elapsed_ms))?;
    }
    if let Some(path) = &a.export {
        let sgf = index.export_sgf(&answer.hits)?;
        std::fs::write(path, sgf).with_context(|| format!("{}", path.display()))?;
    }
    // As grep and ripgrep: 0 when something was found, 1 when nothing was (2 is an error), so
    // that scripts can tell the two apart without reading the output.
    Ok(match answer.summary.games {
        0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// The query the arguments ask, from the files they name (each read with a cap) and the text
/// they give; the library checks the rest.
fn build_query(a: &SearchArgs) -> Result<Query, Refusal> {
    qipu::check_board_size(a.size)?;
    let query = if let Some(path) = &a.position {
        let bytes = crate::capped::read(path, "--position", crate::capped::RECORD)?;
        Query::from_record(&bytes, a.at)?
    } else if a.black.is_some() || a.white.is_some() {
        Query::points(
            a.size,
            a.black.as_deref().unwrap_or(""),
            a.white.as_deref().unwrap_or(""),
        )?
    } else if let Some(path) = &a.pattern {
        let bytes = crate::capped::read(path, "--pattern", crate::capped::DIAGRAM)?;
        let text = String::from_utf8(bytes).map_err(|e| {
            format!(
                "--pattern {}: not UTF-8 text (byte {})",
                path.display(),
                e.utf8_error().valid_up_to()
            )
        })?;
        let (column, row) = a.place.unwrap_or((0, 0));
        Query::pattern(&text)?.board_size(a.size).place(column, row)
    } else if let Some(text) = &a.moves {
        let path = Path::new(text);
        if path.is_file() {
            let bytes = crate::capped::read(path, "--moves", crate::capped::RECORD)?;
            Query::moves_from_record(&bytes, &path.display().to_string())?
        } else {
            Query::moves(text, a.size)?
        }
    } else if let Some(q) = &a.query {
        Query::metadata(q.as_str())
    } else {
        return Err(Refusal(
            "nothing to search: give --position, --black/--white, --pattern, --moves or --query"
                .into(),
        ));
    };
    let query = query
        .symmetry(!a.no_symmetry)
        .swap_colors(a.swap_colors)
        .to_move(a.to_move)
        .any_order(a.any_order)
        .anywhere(a.anywhere);
    Ok(match &a.query {
        Some(q) => query.filter(q.as_str()),
        None => query,
    })
}

fn human(query: &Query, answer: &Answer, limit: usize, elapsed_ms: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} games ({} positions) in {:.1} ms",
        answer.summary.games, answer.summary.positions, elapsed_ms
    );
    if let Some(position) = query.searched_position() {
        let board = Board::from_position(position);
        // Continuations drawn on the board as letters A, B, C… in order of frequency.
        let mut labels: Vec<(Point, char)> = Vec::new();
        for (i, c) in answer
            .continuations
            .iter()
            .filter(|c| c.point.is_some())
            .take(26)
            .enumerate()
        {
            if let Some(p) = c.point {
                if !labels.iter().any(|l| l.0 == p) {
                    labels.push((p, (b'A' + i as u8) as char));
                }
            }
        }
        s.push_str(&crate::show::diagram_with_labels(&board, None, &labels));
        if !answer.continuations.is_empty() {
            let _ = writeln!(s, "\n  next  move   count  share   B wins  W wins");
            let total: u32 = answer.continuations.iter().map(|c| c.count).sum();
            for c in answer.continuations.iter().take(26) {
                let label = labels
                    .iter()
                    .find(|l| Some(l.0) == c.point)
                    .map_or(' ', |l| l.1);
                let at = c
                    .point
                    .map_or("pass".to_string(), |p| crate::show::gtp(p, board.height()));
                let _ = writeln!(
                    s,
                    "  {label}     {} {:<5} {:>6} {:>5.1}%  {:>5.1}%  {:>5.1}%",
                    c.color.letter(),
                    at,
                    c.count,
                    100.0 * c.count as f64 / total.max(1) as f64,
                    100.0 * c.black_wins as f64 / c.count.max(1) as f64,
                    100.0 * c.white_wins as f64 / c.count.max(1) as f64,
                );
            }
        }
    }
    if answer.summary.games > 0 {
        let _ = writeln!(
            s,
            "\n  {:<28} {:<22} {:<22} {:<10} {:<9} moves",
            "game", "black", "white", "date", "result"
        );
        for hit in answer.hits.iter().take(limit) {
            let d = &hit.info;
            let moves = hit
                .moves
                .iter()
                .take(8)
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(",");
            let _ = writeln!(
                s,
                "  {:<28} {:<22} {:<22} {:<10} {:<9} {}{}",
                clip(&format!("{}#{}", d.file, d.game_in_file), 28),
                clip(d.black.as_deref().unwrap_or("?"), 22),
                clip(d.white.as_deref().unwrap_or("?"), 22),
                d.date.as_deref().unwrap_or_default(),
                clip(d.result.as_deref().unwrap_or(""), 9),
                moves,
                d.event
                    .as_deref()
                    .map(|e| format!("  {}", clip(e, 30)))
                    .unwrap_or_default(),
            );
        }
        if answer.summary.games > limit {
            let _ = writeln!(
                s,
                "  … {} more (--limit N, or --json for all)",
                answer.summary.games - limit
            );
        }
    }
    s
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(['…']).collect()
    }
}
