//! `qipu convert`: records in (read as every command reads its inputs), the same records in another
//! format out.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use sgf::write::{to_quadrant, to_sgf, to_wtf};
use sgf::Records;

use crate::Target;

/// Converts every game of `file`, read as every command reads its inputs (a `.zst` file or an
/// archive is opened, a kifu-line move file gets its index); diagnostics go to standard error
/// under the record's name. Exit code 1 when some game or part of the input could not be
/// converted, an error when nothing could be read or no game was found.
pub fn run(file: &Path, to: Target) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let (mut failed, mut games) = (false, 0usize);
    for source in ::inputs::discover(&[file.to_path_buf()])? {
        let mut written: Result<()> = Ok(());
        let mut delivered = false;
        let read = ::inputs::read_source(&source, &mut |rec| {
            delivered = true;
            if written.is_ok() {
                written = convert_record(&rec.name, &rec.bytes, to, &mut out, &mut failed)
                    .map(|n| games += n);
            }
        });
        written?;
        match read {
            Err(e) if !delivered => return Err(e.into()),
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
            Ok(()) => {}
        }
    }
    if games == 0 {
        bail!("{}: no game to convert", file.display());
    }
    out.flush().context("writing the converted record")?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the games of one record file converted to `out`; returns how many it holds (converted
/// or not), and sets `failed` for each that could not be.
fn convert_record(
    name: &str,
    bytes: &[u8],
    to: Target,
    out: &mut impl Write,
    failed: &mut bool,
) -> Result<usize> {
    let records = Records::read(bytes);
    for d in records.diagnostics() {
        eprintln!("{name}: {d}");
    }
    for i in 0..records.len() {
        let tree = match records.game(i) {
            Ok(t) => t,
            Err(d) => {
                eprintln!("{name}: game {i}: {d}");
                *failed = true;
                continue;
            }
        };
        for d in tree.diagnostics() {
            eprintln!("{name}: game {i}: {d}");
        }
        match to {
            Target::Sgf => out.write_all(to_sgf(&tree).as_bytes())?,
            Target::Wtf => out.write_all(&to_wtf(&tree))?,
            Target::Quadrant => match to_quadrant(&tree) {
                Ok(s) => out.write_all(s.as_bytes())?,
                Err(e) => {
                    eprintln!("{name}: game {i}: {e}");
                    *failed = true;
                }
            },
        }
    }
    Ok(records.len())
}
