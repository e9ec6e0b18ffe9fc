//! `qipu index` and `qipu stats`: build an index, and describe one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use qipu::{build, BuildOptions, Index};

use crate::table;

/// What `qipu index` was asked to build.
pub struct Setting<'a> {
    pub rebuild: bool,
    pub segment_games: u32,
    pub aliases: Option<&'a Path>,
    /// `--variations` / `--no-variations`; `None` keeps the index's setting.
    pub variations: Option<bool>,
    /// `--aggregate-min` (hidden): the table entries a position needs for its sums.
    pub aggregate_min: u32,
}

pub fn run(dir: &Path, inputs: &[PathBuf], setting: Setting<'_>, quiet: bool) -> Result<ExitCode> {
    // The list is read and checked before anything is indexed: a mistake in it stops the run
    // with its line number.
    let opts = BuildOptions {
        rebuild: setting.rebuild,
        segment_games: setting.segment_games,
        aliases: setting.aliases.map(Path::to_path_buf),
        variations: setting.variations,
        aggregate_min: setting.aggregate_min,
        ..BuildOptions::default()
    };
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {bytes_per_sec} ETA {eta} {msg}",
            )
            .expect("valid template"),
        );
        b.enable_steady_tick(Duration::from_millis(200));
        b
    };
    let started = std::time::Instant::now();
    let summary = build(dir, inputs, &opts, |p| {
        bar.set_length(p.bytes_total);
        bar.set_position(p.bytes_read);
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!(
            "{} games, {:.0} games/s",
            p.games,
            p.games as f64 / secs
        ));
    })?;
    bar.finish_and_clear();
    for line in &summary.skipped_files {
        eprintln!("qipu: skipped {line}");
    }
    for line in &summary.unreadable {
        eprintln!("qipu: not read: {line}");
    }
    for line in &summary.damaged {
        eprintln!("qipu: {line}");
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "indexed {} games from {} files in {:.1} s ({:.0} games/s, {:.1} MB/s): {} duplicates ({} up to symmetry), {} rejected games, {} files without games{}",
        summary.added.games,
        summary.added.files,
        summary.seconds,
        summary.added.games as f64 / summary.seconds.max(1e-9),
        summary.bytes_read as f64 / 1e6 / summary.seconds.max(1e-9),
        summary.added.duplicates,
        summary.added.symmetric_duplicates,
        summary.added.rejected,
        summary.added.files_without_games,
        if summary.sources_skipped > 0 {
            format!("; {} inputs already indexed", summary.sources_skipped)
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "inputs: {} new, {} changed (read again), {} deleted, {} unchanged{}; {} games removed{}{}",
        summary.sources_new,
        summary.sources_changed,
        summary.sources_removed,
        summary.sources_skipped,
        match summary.sources_resumed {
            0 => String::new(),
            n => format!(", {n} resumed (begun by a run that did not finish)"),
        },
        summary.games_removed,
        match summary.skipped_files.len() {
            0 => String::new(),
            n => format!("; {n} files skipped (each said above)"),
        },
        match summary.unreadable.len() {
            0 => String::new(),
            n => format!("; {n} files or folders could not be read"),
        },
    )?;
    let added = &summary.added;
    if added.variation_lines > 0 || added.variation_lines_left > 0 {
        writeln!(
            out,
            "variations: {} lines indexed{}",
            added.variation_lines,
            match added.variation_lines_left {
                0 => String::new(),
                n => format!(
                    "; {n} left out by the bounds per record (the records are named in {})",
                    summary.report.display()
                ),
            }
        )?;
    }
    if summary.aliases_replaced() {
        writeln!(
            out,
            "aliases: the index's player aliases were replaced; searches use the new list from now on (no rebuild needed)"
        )?;
    }
    writeln!(
        out,
        "index: {} ({:.1} MB); rejected files and games, and problems of files read, are listed in {}",
        dir.display(),
        summary.index_bytes as f64 / 1e6,
        summary.report.display()
    )?;
    // No input gave a game (nothing taken in the folders, or nothing readable in what was
    // taken): say so, and fail, rather than report an empty success.
    if summary.added.games == 0 && summary.sources_skipped == 0 && summary.sources_removed == 0 {
        eprintln!(
            "qipu: no game found in {} ({} record files read; why each was refused is in {})",
            inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            summary.added.files,
            summary.report.display()
        );
        return Ok(ExitCode::from(1));
    }
    // Something was not read: what is there is committed, but the index is not complete.
    Ok(match summary.unreadable.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}

/// Text from the records or a file name, as the human output shows it (see [`table::visible`]).
fn shown(text: &str) -> String {
    table::visible(text.to_string())
}

pub fn stats(dir: &Path, as_json: bool) -> Result<ExitCode> {
    let index = Index::open(dir)?;
    let st = index.stats(10)?;
    // Written with `?`, never `println!`: a closed pipe (`| head -1`) must end the command
    // quietly (see `report.rs`), not panic.
    let mut out = std::io::stdout().lock();
    if as_json {
        let v = serde_json::to_value(&st)?;
        writeln!(out, "{v}")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "index {}", shown(&dir.display().to_string()))?;
    writeln!(
        out,
        "  games {} ({} distinct, {} exact duplicates, {} up to symmetry), {} rejected, from {} files",
        st.games, st.distinct, st.duplicates, st.symmetric_duplicates, st.rejected, st.files
    )?;
    if let Some(lines) = st.variation_lines {
        writeln!(
            out,
            "  variation lines {lines} (not counted as games){}",
            match st.variation_lines_left {
                Some(n) if n > 0 => format!(", {n} left out by the bounds per record"),
                _ => String::new(),
            }
        )?;
    }
    if let Some((a, b)) = &st.date_range {
        writeln!(out, "  dates {a} to {b}")?;
    }
    writeln!(
        out,
        "  size {:.1} MB ({} bytes per game)",
        st.bytes as f64 / 1e6,
        st.bytes_per_game
    )?;
    for (k, v) in &st.parts {
        writeln!(out, "    {k:<14} {:>10.1} MB", *v as f64 / 1e6)?;
    }
    writeln!(
        out,
        "  aliases {} players (see {})",
        st.alias_players,
        shown(&st.aliases_file.display().to_string())
    )?;
    writeln!(out, "  top {} players", st.top_players.len())?;
    // A player with several names counts once, under its main name, the others beside it.
    for (name, n, also) in &st.top_players {
        let name = shown(name);
        if also.is_empty() {
            writeln!(out, "    {n:>7}  {name}")?;
        } else {
            let also: Vec<String> = also.iter().map(|a| shown(a)).collect();
            writeln!(out, "    {n:>7}  {name} (also {})", also.join(", "))?;
        }
    }
    writeln!(out, "  top {} events", st.top_events.len())?;
    for (name, n) in &st.top_events {
        writeln!(out, "    {n:>7}  {}", shown(name))?;
    }
    Ok(ExitCode::SUCCESS)
}
