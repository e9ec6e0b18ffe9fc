//! `qipu convert`: records in (read as every command reads its inputs), the same records in another
//! format out.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use sgf::write::{to_quadrant, to_sgf, to_wtf};
use sgf::Records;

use crate::inputs::Spec;
use crate::Target;

/// Converts every game of `file`, read as every command reads its inputs (a `.zst` file or an
/// archive is opened, a kifu-line move file gets its index); diagnostics go to standard error
/// under the record's name. Exit code 1 when some game or part of the input could not be
/// converted, an error when nothing could be read or no game was found.
///
/// `file` may name one game, `FILE#GAME` (see `crate::inputs`), and `-` is standard input.
pub fn run(file: &Path, to: Target) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let (mut failed, mut games, mut found) = (false, 0usize, false);
    let spec = Spec::parse(file);
    if spec.path == Path::new("-") {
        let bytes = crate::inputs::stdin(::inputs::MAX_RECORD_BYTES, "").map_err(|e| anyhow!(e))?;
        games = convert_record("-", &bytes, spec.game, to, &mut out, &mut failed)?;
    }
    let sources = if spec.path == Path::new("-") {
        Vec::new()
    } else {
        ::inputs::discover(std::slice::from_ref(&spec.path))?
    };
    for source in sources {
        let mut written: Result<()> = Ok(());
        let mut delivered = false;
        let read = ::inputs::read_source(&source, &mut |rec| {
            if !spec.takes(&source.name, &rec.name) {
                return;
            }
            delivered = true;
            if written.is_ok() {
                written = convert_record(
                    &crate::inputs::path_of(&source, &rec.name),
                    &rec.bytes,
                    spec.game,
                    to,
                    &mut out,
                    &mut failed,
                )
                .map(|n| games += n);
            }
        });
        written?;
        found |= delivered;
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
        match &spec.member {
            Some(m) if !found => bail!("{}: no record file {m:?} in it", spec.path.display()),
            _ => bail!("{}: no game to convert", file.display()),
        }
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
    game: Option<usize>,
    to: Target,
    out: &mut impl Write,
    failed: &mut bool,
) -> Result<usize> {
    let records = Records::read(bytes);
    for d in records.diagnostics() {
        eprintln!("{name}: {d}");
    }
    let input = crate::inputs::Input {
        name,
        path: name,
        bytes,
        game,
    };
    let range = crate::inputs::games(&input, records.len()).map_err(|e| anyhow!("{name}: {e}"))?;
    for i in range.clone() {
        let tree = match records.game(i) {
            Ok(t) => t,
            Err(d) => {
                eprintln!("{name}#{i}: {d}");
                *failed = true;
                continue;
            }
        };
        for d in tree.diagnostics() {
            eprintln!("{name}#{i}: {d}");
        }
        match to {
            Target::Sgf => out.write_all(to_sgf(&tree).as_bytes())?,
            Target::Wtf => out.write_all(&to_wtf(&tree))?,
            Target::Quadrant => match to_quadrant(&tree) {
                Ok(s) => out.write_all(s.as_bytes())?,
                Err(e) => {
                    eprintln!("{name}#{i}: {e}");
                    *failed = true;
                }
            },
        }
    }
    Ok(range.len())
}
