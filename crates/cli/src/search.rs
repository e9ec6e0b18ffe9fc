//! `qipu search`: positions, patterns and game information, answered from an index.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use goban::{Board, Color, Point};
use index::Index;
use search::query::{
    parse_moves, parse_pattern, parse_points, position_from_points, position_from_record,
};
use search::{
    find_pattern, find_position, find_sequence, Answer, PatternQuery, PositionQuery, SearchError,
    SequenceQuery,
};
use serde_json::json;
use sgf::Records;

/// The options of `qipu search`.
#[derive(Args)]
pub struct SearchArgs {
    /// The index to search.
    #[arg(long)]
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
    #[arg(long, value_parser = parse_place)]
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

enum Kind {
    Position(Box<PositionQuery>),
    Pattern(PatternQuery),
    Sequence(SequenceQuery),
    Meta,
}

pub fn run(a: &SearchArgs) -> Result<ExitCode> {
    let index = Index::open(&a.index)?;
    let kind = match build_query(a) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("qipu: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let started = Instant::now();
    let filter = match &a.query {
        Some(q) => match index.search_meta(q) {
            Ok(ids) => Some(ids),
            Err(e) => {
                eprintln!("qipu: --query: {e}");
                return Ok(ExitCode::from(2));
            }
        },
        None => None,
    };
    let answer = match &kind {
        Kind::Position(q) => find_position(&index, q, filter.as_deref()),
        Kind::Pattern(q) => find_pattern(&index, q, filter.as_deref()),
        Kind::Sequence(q) => find_sequence(&index, q, filter.as_deref()),
        // The games the metadata query selected are the whole answer.
        Kind::Meta => Answer::default(),
    };
    // An index file truncated under the search read as zeros: no answer from it.
    index.check_intact()?;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    let answer = match kind {
        // Only now, past the clock, are they dressed as hits for printing.
        Kind::Meta => Answer {
            hits: filter
                .as_deref()
                .unwrap_or(&[])
                .iter()
                .map(|&game| search::Hit {
                    game,
                    moves: search::Moves::new(),
                })
                .collect(),
            continuations: Vec::new(),
        },
        _ => answer,
    };
    let limit = a.limit.unwrap_or(if a.json { usize::MAX } else { 20 });
    let mut out = std::io::stdout().lock();
    if a.json {
        for hit in answer.hits.iter().take(limit) {
            let (file, game) = index.identity(hit.game);
            let d = describe(&index, hit.game);
            let v = json!({
                "type": "hit", "file": file, "game": game, "moves": hit.moves.as_slice(),
                "black": d.black, "white": d.white, "date": d.date, "result": d.result,
                "copy": index.game(hit.game).is_copy(),
            });
            writeln!(out, "{v}")?;
        }
        for c in &answer.continuations {
            let v = json!({
                "type": "continuation", "color": c.color.letter().to_string(),
                "point": c.point.map_or(String::new(), |p| p.sgf_string()),
                "count": c.count, "black_wins": c.black_wins, "white_wins": c.white_wins,
            });
            writeln!(out, "{v}")?;
        }
        let v = json!({
            "type": "summary", "games": answer.hits.len(),
            "positions": answer.hits.iter().map(|h| h.moves.len()).sum::<usize>(),
            "elapsed_ms": (elapsed_ms * 1000.0).round() / 1000.0,
        });
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", human(&index, &kind, &answer, limit, elapsed_ms))?;
    }
    if let Some(path) = &a.export {
        export(&index, &answer, path)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn build_query(a: &SearchArgs) -> Result<Kind, SearchError> {
    if !(1..=52).contains(&a.size) {
        return Err(SearchError::BadQuery(format!(
            "--size {}: a board has 1 to 52 lines",
            a.size
        )));
    }
    let symmetry = !a.no_symmetry;
    if let Some(path) = &a.position {
        let bytes = crate::capped::read(path, "--position", crate::capped::RECORD)?;
        let position = position_from_record(&bytes, a.at)?;
        return Ok(Kind::Position(Box::new(PositionQuery {
            position,
            symmetry,
            swap_colors: a.swap_colors,
            to_move: a.to_move,
        })));
    }
    if a.black.is_some() || a.white.is_some() {
        let b = parse_points(a.black.as_deref().unwrap_or(""), a.size, a.size)?;
        let w = parse_points(a.white.as_deref().unwrap_or(""), a.size, a.size)?;
        let position = position_from_points(a.size, a.size, &b, &w)?;
        return Ok(Kind::Position(Box::new(PositionQuery {
            position,
            symmetry,
            swap_colors: a.swap_colors,
            to_move: a.to_move,
        })));
    }
    if let Some(path) = &a.pattern {
        let bytes = crate::capped::read(path, "--pattern", crate::capped::DIAGRAM)?;
        let text = String::from_utf8(bytes).map_err(|e| {
            SearchError::BadQuery(format!(
                "--pattern {}: not UTF-8 text (byte {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ))
        })?;
        let (width, height, cells) = parse_pattern(&text)?;
        // A diagram larger than --size in either direction is a whole board of its own size.
        let board = (a.size.max(width), a.size.max(height));
        if board.0 > 52 || board.1 > 52 {
            return Err(SearchError::BadQuery(format!(
                "--pattern: the diagram is {width}×{height}; a board has at most 52 lines"
            )));
        }
        let offset = a.place.unwrap_or((0, 0));
        if !a.anywhere
            && (offset.0 as u16 + width as u16 > board.0 as u16
                || offset.1 as u16 + height as u16 > board.1 as u16)
        {
            return Err(SearchError::BadQuery(format!(
                "a {width}×{height} pattern at {},{} does not fit a {}×{} board",
                offset.0, offset.1, board.0, board.1
            )));
        }
        return Ok(Kind::Pattern(PatternQuery {
            width,
            height,
            cells,
            offset,
            board,
            symmetry,
            swap_colors: a.swap_colors,
            anywhere: a.anywhere,
        }));
    }
    if let Some(text) = &a.moves {
        let (board, moves) = if Path::new(text).is_file() {
            moves_of_record(Path::new(text))?
        } else {
            ((a.size, a.size), parse_moves(text, a.size, a.size)?)
        };
        return Ok(Kind::Sequence(SequenceQuery {
            board,
            moves,
            in_order: !a.any_order,
            symmetry,
            swap_colors: a.swap_colors,
            anywhere: a.anywhere,
        }));
    }
    if a.query.is_some() {
        return Ok(Kind::Meta);
    }
    Err(SearchError::BadQuery(
        "nothing to search: give --position, --black/--white, --pattern, --moves or --query".into(),
    ))
}

/// A board's size and moves on it.
type Sequence = ((u8, u8), Vec<(Color, Point)>);

/// The main-line moves of the first game of a record file, and its board.
fn moves_of_record(path: &Path) -> Result<Sequence, SearchError> {
    let bytes = crate::capped::read(path, "--moves", crate::capped::RECORD)?;
    let records = Records::read(&bytes);
    let tree = records
        .game(0)
        .map_err(|d| SearchError::BadQuery(format!("--moves {}: {d}", path.display())))?;
    let board = tree.board_size();
    let moves: Vec<(Color, Point)> = tree
        .main_line_moves()
        .map_err(|i| SearchError::BadQuery(format!("--moves: move {} is not a point", i + 1)))?
        .into_iter()
        .filter_map(|(c, p)| p.map(|p| (c, p)))
        .collect();
    if moves.is_empty() {
        return Err(SearchError::BadQuery(format!(
            "--moves {}: no moves found",
            path.display()
        )));
    }
    if let Some((_, p)) = moves.iter().find(|(_, p)| p.x >= board.0 || p.y >= board.1) {
        return Err(SearchError::BadQuery(format!(
            "--moves: {} is off a {}×{} board",
            p.sgf_string(),
            board.0,
            board.1
        )));
    }
    Ok((board, moves))
}

/// What a hit line shows of a game.
struct Described {
    black: Option<String>,
    white: Option<String>,
    date: Option<String>,
    result: Option<String>,
    event: Option<String>,
}

/// What a hit line shows of a game, from the metadata index's stored fields (no record is
/// decompressed for it).
fn describe(index: &Index, game: u32) -> Described {
    let summary = index.meta().summary(game).ok().flatten();
    let Some(g) = summary else {
        return Described {
            black: None,
            white: None,
            date: None,
            result: None,
            event: None,
        };
    };
    let player = |name: Option<String>, rank: Option<String>| {
        let rank = rank.as_deref().and_then(sgf::info::parse_rank);
        name.map(|n| match rank {
            Some(r) => format!("{n} {r}"),
            None => n,
        })
    };
    Described {
        black: player(g.black, g.black_rank),
        white: player(g.white, g.white_rank),
        date: g.date_range.map(|(start, _)| start.to_string()).or(g.date),
        result: g.result,
        event: g.event,
    }
}

fn human(index: &Index, kind: &Kind, answer: &Answer, limit: usize, elapsed_ms: f64) -> String {
    let mut s = String::new();
    let positions: usize = answer.hits.iter().map(|h| h.moves.len()).sum();
    let _ = writeln!(
        s,
        "{} games ({} positions) in {:.1} ms",
        answer.hits.len(),
        positions,
        elapsed_ms
    );
    if let Kind::Position(q) = kind {
        let board = Board::from_position(&q.position);
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
    if !answer.hits.is_empty() {
        let _ = writeln!(
            s,
            "\n  {:<28} {:<22} {:<22} {:<10} {:<9} moves",
            "game", "black", "white", "date", "result"
        );
        for hit in answer.hits.iter().take(limit) {
            let (file, game) = index.identity(hit.game);
            let d = describe(index, hit.game);
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
                clip(&format!("{file}#{game}"), 28),
                clip(d.black.as_deref().unwrap_or("?"), 22),
                clip(d.white.as_deref().unwrap_or("?"), 22),
                d.date.unwrap_or_default(),
                clip(d.result.as_deref().unwrap_or(""), 9),
                moves,
                d.event
                    .map(|e| format!("  {}", clip(&e, 30)))
                    .unwrap_or_default(),
            );
        }
        if answer.hits.len() > limit {
            let _ = writeln!(
                s,
                "  … {} more (--limit N, or --json for all)",
                answer.hits.len() - limit
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

/// Writes the hit games as one SGF collection of their original records, each with the hit
/// moves named in a root comment property `QH` (qipu hits) — a custom property, kept by readers.
fn export(index: &Index, answer: &Answer, path: &Path) -> Result<()> {
    let mut out = Vec::new();
    for hit in &answer.hits {
        let record = index.record(hit.game)?;
        let records = Records::read(&record);
        let Ok(tree) = records.game(0) else { continue };
        let sgf = sgf::write::to_sgf(&tree);
        let moves: Vec<String> = hit.moves.iter().map(|m| m.to_string()).collect();
        // Insert the hit marker right after the root's `(;`.
        let marked = sgf.replacen("(;", &format!("(;QH[{}]", moves.join(",")), 1);
        out.extend_from_slice(marked.as_bytes());
    }
    std::fs::write(path, out).with_context(|| format!("{}", path.display()))
}
