//! `qipu export`: an index as Parquet files for column engines (DuckDB, ClickHouse, Spark), or
//! as ClickHouse's tables with their DDL and load script, written by the `qipu-export` crate;
//! this prints what it wrote.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use qipu::Index;

/// What to write.
pub enum Format {
    /// Games, the position table and the hash keys.
    Parquet,
    /// Games, continuation statistics and symmetries, `schema.sql` and `load.sh`.
    ClickHouse,
}

pub fn run(index: &Path, out: &Path, format: Format) -> Result<ExitCode> {
    let index = Index::open(index)?;
    let (summary, rows) = match format {
        Format::Parquet => (qipu_export::export(&index, out, |_| {})?, "positions"),
        Format::ClickHouse => (
            qipu_export::clickhouse::export(&index, out, |_| {})?,
            "statistics rows",
        ),
    };
    let mut stdout = std::io::stdout().lock();
    for (path, bytes) in &summary.files {
        writeln!(stdout, "{}: {bytes} bytes", path.display())?;
    }
    writeln!(
        stdout,
        "{} games, {} {rows} in {:.2} s",
        summary.games, summary.positions, summary.seconds
    )?;
    Ok(ExitCode::SUCCESS)
}
