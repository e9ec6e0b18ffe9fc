//! `qipu player NAME`: a player's play as the engine judged it, by year, from the evaluations
//! the index keeps of his analysed games (the library's `Index::player`, whose rules say which
//! games and moves count).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use qipu::{LossThreshold, PlayerOptions, PlayerYear, Shards};

use crate::table::{Cell, Table};

#[derive(Args)]
pub struct PlayerArgs {
    /// The player's name, as a metadata query names him (his aliases count with it).
    name: String,
    /// The index (default: the folder `QIPU_INDEX` names). Given several times, the indexes
    /// are read as one holding all their games.
    #[arg(long, env = "QIPU_INDEX", required = true)]
    index: Vec<PathBuf>,
    /// The loss from which a move counts as a mistake: N% of win probability, Npt of score,
    /// or both (10%,3pt: both must hold).
    #[arg(long, value_name = "LOSS", default_value_t = qipu::DEFAULT_PLAYER_MISTAKE,
          value_parser = |s: &str| s.parse::<LossThreshold>().map_err(|e| e.to_string()))]
    mistakes: LossThreshold,
    /// One JSON object (the library's figures) instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: &PlayerArgs) -> Result<ExitCode> {
    let index = Shards::open(&a.index)?;
    let stats = index.player(
        &a.name,
        &PlayerOptions {
            mistakes: a.mistakes,
        },
    )?;
    // Written with `?`, never `println!`: a closed pipe must end the command quietly.
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_value(&stats)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(&[
        ("year", false),
        ("games", true),
        ("moves", true),
        ("win lost/move", true),
        ("points lost/move", true),
        ("mistakes", true),
        ("per game", true),
    ]);
    let row = |label: String, y: &PlayerYear| -> Vec<Cell> {
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        vec![
            label.into(),
            y.games.to_string().into(),
            y.moves.to_string().into(),
            or_dash(y.mean_win_loss.map(|w| format!("{:.2}%", w * 100.0))).into(),
            or_dash(y.mean_score_loss.map(|p| format!("{p:.2}"))).into(),
            y.mistakes.to_string().into(),
            or_dash(y.mistakes_per_game.map(|m| format!("{m:.2}"))).into(),
        ]
    };
    for y in &stats.years {
        let label = y.year.map_or_else(|| "undated".into(), |y| y.to_string());
        table.row(row(label, y));
    }
    table.row(row("all".into(), &stats.total));
    writeln!(
        out,
        "{}: {} games, {} analysed; mistakes lost at least {}",
        crate::table::visible(stats.player.clone()),
        stats.games,
        stats.total.games,
        stats.mistake
    )?;
    write!(out, "{}", table.render("  "))?;
    Ok(ExitCode::SUCCESS)
}
