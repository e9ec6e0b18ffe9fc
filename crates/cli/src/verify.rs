//! `qipu verify`: checks every file of an index against the checksum taken when it was written.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use qipu::Index;

/// Prints each damaged file on a line of its own; exit code 1 if any, 0 if the index is sound.
pub fn run(dir: &Path) -> Result<ExitCode> {
    let damaged = Index::verify(dir)?;
    // Written with `?`, never `println!`: a closed pipe must end the command quietly.
    let mut out = std::io::stdout().lock();
    if damaged.is_empty() {
        writeln!(out, "{}: sound", dir.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    for d in &damaged {
        writeln!(out, "damaged: {}: {}", d.path.display(), d.problem)?;
    }
    writeln!(
        out,
        "{}: {} damaged file(s); `qipu index --rebuild` makes the index anew",
        dir.display(),
        damaged.len()
    )?;
    Ok(ExitCode::from(1))
}
