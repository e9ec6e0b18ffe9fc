//! One query of each kind, through the library's face only: a position (typed, and from a
//! record), a pattern, a move sequence, game information, a combination, then the games behind
//! a hit, and what a server would answer for a bad query.
//!
//! `cargo run --release -p qipu --example tour [INDEX_DIR]` — without a folder, an index of the
//! repository's `samples/games` is built in a temporary folder first.

use std::path::PathBuf;

use qipu::{BuildOptions, Index, Query, Sort};

fn main() -> Result<(), qipu::Error> {
    let (dir, built) = match std::env::args_os().nth(1) {
        Some(dir) => (PathBuf::from(dir), false),
        None => {
            let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/games");
            let dir = std::env::temp_dir().join(format!("qipu-tour-{}", std::process::id()));
            let summary = qipu::build(&dir, &[samples], &BuildOptions::default(), |p| {
                eprint!("\rindexing: {} games", p.games);
            })?;
            eprintln!("\rindexed {} games  ", summary.added.games);
            (dir, true)
        }
    };
    let index = Index::open(&dir)?;
    println!("{} games in {}", index.len(), dir.display());

    let show = |title: &str, q: &Query| -> Result<(), qipu::Error> {
        let a = index.search(&q.clone().limit(Some(3)))?;
        println!(
            "\n{title}: {} games, {} positions, {:.1} ms",
            a.summary.games, a.summary.positions, a.timings.search_ms
        );
        for h in &a.hits {
            println!(
                "  #{} {}#{} {} – {} {} at {:?}",
                h.game,
                h.info.file,
                h.info.game_in_file,
                h.info.black.as_deref().unwrap_or("?"),
                h.info.white.as_deref().unwrap_or("?"),
                h.info.date.as_deref().unwrap_or(""),
                h.moves
            );
        }
        for c in a.continuations.iter().take(3) {
            let at = c.point.map_or("pass".to_string(), |p| p.sgf_string());
            println!("  next {}[{at}] ×{}", c.color.letter(), c.count);
        }
        Ok(())
    };

    show(
        "position typed as points",
        &Query::points(19, "pd dp", "dd pp")?,
    )?;
    let record = b"(;GM[1]SZ[19];B[pd];W[dd];B[pq];W[dp])";
    show(
        "position from a record, after move 3",
        &Query::from_record(record, Some(3))?,
    )?;
    show(
        "pattern: a 4-4 stone alone in its corner",
        &Query::pattern(".......\n.......\n.......\n...X...\n.......\n.......\n.......\n")?,
    )?;
    show(
        "move sequence, in order",
        &Query::moves("B[pd] W[dp] B[pq]", 19)?,
    )?;
    show(
        "game information, newest first",
        &Query::metadata("winner:W").sort(Sort::Newest),
    )?;
    show(
        "the empty board among games Lee Sedol played",
        &Query::points(19, "", "")?.filter("player:\"Lee Sedol\""),
    )?;

    let first = index.search(&Query::points(19, "", "")?.limit(Some(1)))?;
    if let Some(hit) = first.hits.first() {
        let line = index.main_line(hit.game)?;
        let sgf = index.export_sgf(&first.hits)?;
        println!(
            "\ngame #{}: {}×{}, {} moves in its main line; {} bytes of original record, {} exported",
            hit.game,
            line.board.0,
            line.board.1,
            line.moves.len(),
            index.record(hit.game)?.len(),
            sgf.len()
        );
    }

    // What an HTTP server would do with a failure: the user's mistakes are 400s.
    let bad = index.search(&Query::metadata("date:[2016 TO"));
    if let Err(e) = bad {
        let status = if e.is_user_error() { 400 } else { 500 };
        let part = e.query().map(|q| q.part());
        println!("\n{status} ({:?}, {part:?}): {e}", e.kind());
    }
    if built {
        drop(index);
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}
