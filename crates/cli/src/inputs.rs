//! Record files for the commands that read records directly (`info`, `show`, `convert`): the
//! same inputs as `qipu index` — files, directories, zstd files and archives — through the
//! `inputs` crate (written `::inputs` here, apart from this module of the same name), read in
//! parallel over inputs, results kept in input order. No index is needed or opened.
//!
//! An argument may also name one game, as a search prints its hits: `FILE#GAME` (GAME counted
//! from 0 in the file, as `--json` prints `game`), where FILE may be an archive member
//! (`games.zip/2002/a.sgf#0`). A path that exists is always taken whole, so a file whose name
//! holds `#` is still read as itself; otherwise the argument is split at its last `#` when what
//! follows is a number. `-` is standard input.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use ::inputs::{discover_all, read_source};
use anyhow::{bail, Result};
use rayon::prelude::*;

/// One record file: its name (the game identity's file part, as `qipu index` would record
/// it), where it is (a path to give back to a command), its bytes, and the one game of it that
/// was asked for, if one was.
pub struct Input<'a> {
    pub name: &'a str,
    pub path: &'a str,
    pub bytes: &'a [u8],
    pub game: Option<usize>,
}

/// A path as the commands print it, in a form they take back whole. A path that is text is
/// itself. One that is not (a byte that is not UTF-8 in a Linux file name) is written as the
/// index keeps it (`::inputs::path_key`: each such byte `\xHH`, each `\` doubled), which
/// [`unescaped`] undoes; printed lossily (U+FFFD) it would name a file that does not exist.
pub fn shown_path(path: &Path) -> String {
    match path.to_str() {
        Some(text) => text.to_string(),
        None => ::inputs::path_key(path),
    }
}

/// The path [`shown_path`] printed as `text`, when `text` holds its escapes; `None` when it
/// holds none, or they do not make a name that is not text (which would have been printed as
/// itself).
fn unescaped(text: &str) -> Option<PathBuf> {
    if !text.contains(r"\x") {
        return None;
    }
    ::inputs::path_of_key(text).filter(|p| p.to_str().is_none())
}

/// Whether `path`, or a file it would be a member of (an archive), is on disk.
fn on_disk(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
        || path
            .ancestors()
            .skip(1)
            .any(|a| !a.as_os_str().is_empty() && a.is_file())
}

/// Where record `name` of `source` is, as a path a person can give back: the source's path as
/// reached from the argument (a file found in a folder is the folder's path joined with its
/// name, which its name alone is not), and for an archive member that path, `/`, the member.
pub fn path_of(source: &::inputs::Source, name: &str) -> String {
    let base = shown_path(&source.path);
    match name
        .strip_prefix(source.name.as_str())
        .and_then(|rest| rest.strip_prefix('/'))
    {
        Some(member) => format!("{base}/{member}"),
        None => base,
    }
}

/// What a command-line argument names: a path to read as `qipu index` reads it, and within it,
/// perhaps, one record file (an archive member) and one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// What to read: a file, folder or archive on disk; `-` for standard input.
    pub path: PathBuf,
    /// The member's path inside the archive `path`, when the argument named one.
    pub member: Option<String>,
    /// The game's index in its file (0 the first).
    pub game: Option<usize>,
}

impl Spec {
    /// Reads `arg` as described in the module documentation.
    pub fn parse(arg: &Path) -> Spec {
        let whole = Spec {
            path: arg.to_path_buf(),
            member: None,
            game: None,
        };
        if arg == Path::new("-") || arg.symlink_metadata().is_ok() {
            return whole;
        }
        let Some(text) = arg.to_str() else {
            return whole;
        };
        let (head, game) = match text.rsplit_once('#') {
            Some((head, tail))
                if !head.is_empty()
                    && !tail.is_empty()
                    && tail.bytes().all(|b| b.is_ascii_digit()) =>
            {
                match tail.parse::<usize>() {
                    Ok(g) => (head, Some(g)),
                    Err(_) => return whole,
                }
            }
            _ => (text, None),
        };
        // A path printed with escapes (see `shown_path`) is taken back as the path it shows.
        let head_path = match unescaped(head) {
            Some(p) if Path::new(head).symlink_metadata().is_err() && on_disk(&p) => p,
            _ => PathBuf::from(head),
        };
        let head_path = head_path.as_path();
        if head_path.symlink_metadata().is_ok() {
            return Spec {
                path: head_path.to_path_buf(),
                member: None,
                game,
            };
        }
        // An archive member: the longest part of the path that is a file on disk is the archive.
        for archive in head_path.ancestors().skip(1) {
            if archive.as_os_str().is_empty() {
                break;
            }
            if archive.is_file() {
                let member = head_path
                    .strip_prefix(archive)
                    .ok()
                    .and_then(|m| m.to_str())
                    .map(|m| m.trim_start_matches('/').to_string());
                return Spec {
                    path: archive.to_path_buf(),
                    member,
                    game,
                };
            }
        }
        // Nothing of it exists: reading it says so, under the name given.
        Spec {
            path: head_path.to_path_buf(),
            member: None,
            game,
        }
    }

    /// Whether record `name` (as `::inputs` names it) of the source named `source` is the one
    /// this names.
    pub fn takes(&self, source: &str, name: &str) -> bool {
        match &self.member {
            None => true,
            Some(m) => {
                name.strip_prefix(source)
                    .and_then(|rest| rest.strip_prefix('/'))
                    == Some(m.as_str())
            }
        }
    }
}

/// Standard input, read to its end with a cap (a record file is at most what the `inputs`
/// crate takes): `qipu show - < game.sgf`, or a pipe.
pub fn stdin(cap: u64, what: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{what} -: standard input: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "{what} -: standard input is larger than {} MiB, the limit for a record",
            cap >> 20
        ));
    }
    Ok(bytes)
}

/// Applies `each` to every record file the arguments name, and `failed` to a name, path and
/// error where an input could not be read (whole or in part); results in argument order.
pub fn map_records<T: Send>(
    paths: &[PathBuf],
    each: impl Fn(&Input<'_>) -> T + Sync,
    failed: impl Fn(&str, &str, String) -> T + Sync,
) -> Result<Vec<T>> {
    let specs: Vec<Spec> = paths.iter().map(|p| Spec::parse(p)).collect();
    if specs.iter().filter(|s| s.path == Path::new("-")).count() > 1 {
        bail!("standard input (-) can be read only once");
    }
    let mut out = Vec::new();
    for spec in &specs {
        if spec.path == Path::new("-") {
            match stdin(::inputs::MAX_RECORD_BYTES, "") {
                Ok(bytes) => out.push(each(&Input {
                    name: "-",
                    path: "-",
                    bytes: &bytes,
                    game: spec.game,
                })),
                Err(e) => out.push(failed("-", "-", e.trim_start().to_string())),
            }
            continue;
        }
        let mut found = discover_all(std::slice::from_ref(&spec.path))?;
        if !found.unreadable.is_empty() {
            return Err(found.unreadable.swap_remove(0).into());
        }
        // Files of a folder left unopened (a FIFO, `x.sgf.gz`): said, as `qipu index` says them.
        for skipped in &found.skipped {
            let path = shown_path(&skipped.path);
            out.push(failed(
                &path,
                &path,
                format!("not read: {}", skipped.reason),
            ));
        }
        let sources = found.sources;
        let per_source: Vec<Vec<T>> = sources
            .par_iter()
            .map(|source| {
                let mut out = Vec::new();
                let mut found = false;
                let res = read_source(source, &mut |rec| {
                    if !spec.takes(&source.name, &rec.name) {
                        return;
                    }
                    found = true;
                    let path = path_of(source, &rec.name);
                    if let Some(reason) = rec.unread {
                        out.push(failed(&rec.name, &path, format!("not read: {reason}")));
                        return;
                    }
                    out.push(each(&Input {
                        name: &rec.name,
                        path: &path,
                        bytes: &rec.bytes,
                        game: spec.game,
                    }));
                    if rec.changed_while_read() {
                        // What was said of its games may come from bytes torn between two files.
                        out.push(failed(
                            &rec.name,
                            &path,
                            "the file changed while it was read (rewritten by another program?): \
                             what was said of its games may be torn between its old and new bytes"
                                .to_string(),
                        ));
                    } else if rec.bytes.cut_while_read() {
                        // What was said of its games past the cut came from zeros, not the file.
                        out.push(failed(
                            &rec.name,
                            &path,
                            "the file was cut short while it was read (by another program?): \
                             what was said of its games past the cut is not the file's"
                                .to_string(),
                        ));
                    }
                });
                let path = shown_path(&source.path);
                if let Err(e) = res {
                    out.push(failed(&source.name, &path, e.to_string()));
                } else if !found {
                    if let Some(m) = &spec.member {
                        MISSING.store(true, Ordering::Relaxed);
                        out.push(failed(
                            &source.name,
                            &path,
                            format!("no record file {m:?} in it"),
                        ));
                    }
                }
                out
            })
            .collect();
        out.extend(per_source.into_iter().flatten());
    }
    Ok(out)
}

/// Set when an argument asked for a game its file does not hold, or an archive member the
/// archive does not hold: the command, which reports it among its other answers, then ends
/// with exit code 2, as for a file that does not exist.
static MISSING: AtomicBool = AtomicBool::new(false);

/// Whether some argument named a game or archive member that is not there (see [`games`]).
pub fn asked_for_a_missing_game() -> bool {
    MISSING.load(Ordering::Relaxed)
}

/// The games of a record file a command goes through: all of them, or the one asked for. A
/// game asked for that the file does not hold is an error naming how many it holds.
pub fn games(input: &Input<'_>, count: usize) -> Result<std::ops::Range<usize>, String> {
    match input.game {
        None => Ok(0..count),
        Some(g) if g < count => Ok(g..g + 1),
        Some(g) => Err({
            MISSING.store(true, Ordering::Relaxed);
            format!(
                "no game #{g}: the file holds {count} game{} (numbered from 0)",
                if count == 1 { "" } else { "s" }
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_named_after_the_last_hash_when_the_whole_is_no_path() {
        let dir = std::env::temp_dir().join(format!("qipu-spec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("a.sgf");
        let hashed = dir.join("b#2.sgf");
        let numbered = dir.join("c.sgf#7");
        for p in [&plain, &hashed, &numbered] {
            std::fs::write(p, "(;)").unwrap();
        }
        let at = |s: String| Spec::parse(Path::new(&s));
        let d = dir.display();
        assert_eq!(at(format!("{d}/a.sgf")).game, None);
        let s = at(format!("{d}/a.sgf#3"));
        assert_eq!((s.path, s.game), (plain.clone(), Some(3)));
        let s = at(format!("{d}/b#2.sgf#1"));
        assert_eq!((s.path, s.game), (hashed.clone(), Some(1)));
        // A file whose name ends in `#7` is itself, not game 7 of `c.sgf`.
        let s = at(format!("{d}/c.sgf#7"));
        assert_eq!((s.path, s.game), (numbered.clone(), None));
        // Not a number after `#`: the whole is the (missing) path.
        assert_eq!(at(format!("{d}/a.sgf#x")).game, None);
        // A member of an archive (any file the path passes through).
        let s = at(format!("{d}/a.sgf/inner/x.sgf#4"));
        assert_eq!(s.path, plain);
        assert_eq!(s.member.as_deref(), Some("inner/x.sgf"));
        assert_eq!(s.game, Some(4));
        assert!(s.takes("g/a.sgf", "g/a.sgf/inner/x.sgf"));
        assert!(!s.takes("g/a.sgf", "g/a.sgf/other/x.sgf"));
        assert!(!s.takes("g/a.sgf", "g/a.sgf/o/inner/x.sgf"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
