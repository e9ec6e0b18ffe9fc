//! `qipu convert`: one record in, the same record in another format out.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sgf::write::{to_quadrant, to_sgf, to_wtf};
use sgf::Records;

use crate::Target;

pub fn run(file: &Path, to: Target) -> Result<ExitCode> {
    let bytes = std::fs::read(file).with_context(|| format!("{}", file.display()))?;
    let records = Records::read(&bytes);
    for d in records.diagnostics() {
        eprintln!("{}: {d}", file.display());
    }
    if records.is_empty() {
        bail!("{}: no game to convert", file.display());
    }
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for i in 0..records.len() {
        let tree = match records.game(i) {
            Ok(t) => t,
            Err(d) => {
                eprintln!("{}: game {i}: {d}", file.display());
                failed = true;
                continue;
            }
        };
        for d in tree.diagnostics() {
            eprintln!("{}: game {i}: {d}", file.display());
        }
        match to {
            Target::Sgf => out.write_all(to_sgf(&tree).as_bytes())?,
            Target::Wtf => out.write_all(&to_wtf(&tree))?,
            Target::Quadrant => match to_quadrant(&tree) {
                Ok(s) => out.write_all(s.as_bytes())?,
                Err(e) => {
                    eprintln!("{}: game {i}: {e}", file.display());
                    failed = true;
                }
            },
        }
    }
    out.flush().context("writing the converted record")?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
