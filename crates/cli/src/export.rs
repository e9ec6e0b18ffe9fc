//! `qipu export`: an index as Parquet files for column engines (DuckDB, ClickHouse, Spark),
//! written by the `qipu-export` crate; this prints what it wrote.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use qipu::Index;

pub fn run(index: &Path, out: &Path) -> Result<ExitCode> {
    let index = Index::open(index)?;
    let summary = qipu_export::export(&index, out, |_| {})?;
    let mut stdout = std::io::stdout().lock();
    for (path, bytes) in &summary.files {
        writeln!(stdout, "{}: {bytes} bytes", path.display())?;
    }
    writeln!(
        stdout,
        "{} games, {} positions in {:.2} s",
        summary.games, summary.positions, summary.seconds
    )?;
    Ok(ExitCode::SUCCESS)
}
