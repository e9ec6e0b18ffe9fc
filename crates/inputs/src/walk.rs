//! Discovery: turns the INPUTs into an ordered list of [`Source`]s, walking directories once each
//! (by device and inode) and taking each file once (by canonical path). Nothing is opened beyond
//! directory listings and metadata; whatever cannot be examined is reported, never dropped.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::error::InputError;
use crate::kind::{unread_packed, SourceKind};
use crate::limits::MAX_RECORD_BYTES;
use crate::names::{clean_path, display_name};
use crate::source::Source;
use crate::watch::modified_ns;

/// What [`discover_all`](crate::discover_all) found: the sources, the directories it walked, and what it could not
/// take.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Sources in command-line order, each directory's sorted by name; each file once.
    pub sources: Vec<Source>,
    /// Canonical paths of the INPUT directories walked, completely or not.
    pub roots: Vec<PathBuf>,
    /// Files found while walking that were not opened, with why: FIFOs, sockets, devices,
    /// symbolic links that lead nowhere or in a loop, and files whose names say they are packed
    /// in a form that is not read (`x.sgf.gz`, `x.tar.xz`, `x.7z`).
    pub skipped: Vec<Skipped>,
    /// Directories and files that could not be listed or examined: the walk went on without
    /// them. A caller must not take their absence for a deletion.
    pub unreadable: Vec<InputError>,
}

/// A file found while walking a directory and left unopened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file, as reached from the INPUT.
    pub path: PathBuf,
    /// Why it was not opened.
    pub reason: &'static str,
}

/// Lists the sources of the given INPUTs (directories, record files, compressed files,
/// archives), in command-line order, each directory's sources sorted by name, each file once.
///
/// A missing INPUT is an [`InputError::Missing`] naming it; an unreadable directory on the way is
/// an [`InputError::Io`]. Nothing is opened or read beyond directory listings and file sizes.
/// For a walk that goes past unreadable parts, see [`discover_all`](crate::discover_all).
pub fn discover(inputs: &[PathBuf]) -> Result<Vec<Source>, InputError> {
    let mut found = discover_all(inputs)?;
    match found.unreadable.is_empty() {
        true => Ok(found.sources),
        false => Err(found.unreadable.swap_remove(0)),
    }
}

/// Like [`discover`](crate::discover), but an unreadable directory or file below an INPUT is reported in
/// [`Discovery::unreadable`] and the walk goes on. Only an INPUT itself that is missing or
/// cannot be examined is an error.
///
/// Each directory is walked once, by device and inode, however many links lead to it (so link
/// "diamonds" cost nothing and loops end); each file is taken once, by canonical path, however
/// many INPUTs or links reach it (the first reach names it).
pub fn discover_all(inputs: &[PathBuf]) -> Result<Discovery, InputError> {
    let mut walker = Walker::default();
    for input in inputs {
        let input_err = |source: io::Error| {
            if source.kind() == io::ErrorKind::NotFound {
                InputError::Missing {
                    path: input.clone(),
                }
            } else {
                InputError::Io {
                    path: input.clone(),
                    source,
                }
            }
        };
        let meta = fs::metadata(input).map_err(input_err)?;
        let canonical = match fs::canonicalize(input) {
            Ok(canonical) => canonical,
            // `/dev/stdin` of a pipe resolves to `pipe:[…]`, which is no path: a stream is
            // known by the path given.
            Err(_) if !meta.is_dir() && !meta.is_file() => input.clone(),
            Err(source) => return Err(input_err(source)),
        };
        if meta.is_dir() {
            let mut found = Vec::new();
            if walker.first_visit(&meta) {
                walker.walk(input, &canonical, "", &mut found);
            }
            found.sort_by(|a, b| a.name.cmp(&b.name));
            walker.found.roots.push(canonical);
            walker.found.sources.extend(found);
        } else {
            if !walker.files.insert(canonical.clone()) {
                continue;
            }
            let name = clean_path(input);
            let kind = SourceKind::given(&name);
            let stream = !meta.is_file();
            walker.found.sources.push(Source {
                path: input.clone(),
                name,
                kind,
                len: if stream { 0 } else { meta.len() },
                canonical,
                root: None,
                modified: modified_ns(&meta),
                stream,
                max_record_bytes: MAX_RECORD_BYTES,
            });
        }
    }
    Ok(walker.found)
}

/// The state of one discovery: what was found, and what was already seen.
#[derive(Default)]
struct Walker {
    found: Discovery,
    /// Directories walked, by (device, inode).
    dirs: std::collections::HashSet<(u64, u64)>,
    /// Files taken, by canonical path.
    files: std::collections::HashSet<PathBuf>,
    /// The canonical path of the INPUT directory being walked.
    root: PathBuf,
}

impl Walker {
    /// Whether the directory of `meta` is seen for the first time (and marks it seen).
    fn first_visit(&mut self, meta: &fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        self.dirs.insert((meta.dev(), meta.ino()))
    }

    /// Collects the sources under `dir` (canonically `canonical`), whose name relative to the
    /// INPUT is `prefix`; entries are visited in name order, so which of several links to one
    /// directory names its files does not depend on the file system.
    fn walk(&mut self, dir: &Path, canonical: &Path, prefix: &str, found: &mut Vec<Source>) {
        if prefix.is_empty() {
            self.root = canonical.to_path_buf();
        }
        let mut entries = Vec::new();
        match fs::read_dir(dir) {
            Ok(listing) => {
                for entry in listing {
                    match entry {
                        Ok(entry) => entries.push(entry),
                        Err(source) => self.unreadable(dir, source),
                    }
                }
            }
            Err(source) => return self.unreadable(dir, source),
        }
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let file_name = display_name(&entry.file_name());
            let name = if prefix.is_empty() {
                file_name.clone()
            } else {
                format!("{prefix}/{file_name}")
            };
            let file_type = match entry.file_type() {
                Ok(t) => t,
                Err(source) => {
                    self.unreadable(&path, source);
                    continue;
                }
            };
            let meta = if file_type.is_symlink() {
                match fs::metadata(&path) {
                    Ok(meta) => meta,
                    Err(source) => {
                        self.broken_link(path, &file_name, source);
                        continue;
                    }
                }
            } else {
                match entry.metadata() {
                    Ok(meta) => meta,
                    Err(source) => {
                        self.unreadable(&path, source);
                        continue;
                    }
                }
            };
            // Not a link: its canonical path is its parent's plus its name (no system call).
            let canonical_of = |path: &Path| match file_type.is_symlink() {
                true => fs::canonicalize(path),
                false => Ok(canonical.join(entry.file_name())),
            };
            if meta.is_dir() {
                if !self.first_visit(&meta) {
                    continue; // a loop, or another way to a directory already walked
                }
                match canonical_of(&path) {
                    Ok(sub) => self.walk(&path, &sub, &name, found),
                    Err(source) => self.unreadable(&path, source),
                }
            } else if let Some(kind) = SourceKind::in_directory(&file_name) {
                if !meta.is_file() {
                    // A FIFO would block the walk when opened, a device never ends.
                    self.found.skipped.push(Skipped {
                        path,
                        reason: "not a regular file",
                    });
                    continue;
                }
                let canonical = match canonical_of(&path) {
                    Ok(c) => c,
                    Err(source) => {
                        self.unreadable(&path, source);
                        continue;
                    }
                };
                if !self.files.insert(canonical.clone()) {
                    continue;
                }
                found.push(Source {
                    path,
                    name,
                    kind,
                    len: meta.len(),
                    canonical,
                    root: Some(self.root.clone()),
                    modified: modified_ns(&meta),
                    stream: false,
                    max_record_bytes: MAX_RECORD_BYTES,
                });
            } else if let Some(reason) = unread_packed(&file_name.to_ascii_lowercase()) {
                self.found.skipped.push(Skipped { path, reason });
            }
        }
    }

    /// A link that cannot be followed: said, with why, when its name is one a record file or a
    /// packed file would have (a broken `x.sgf` is a file the user expects read); a broken link
    /// of any other name is passed over as any other file of such a name is.
    fn broken_link(&mut self, path: PathBuf, file_name: &str, source: io::Error) {
        let named = SourceKind::in_directory(file_name).is_some()
            || unread_packed(&file_name.to_ascii_lowercase()).is_some();
        if !named {
            return;
        }
        let reason = match source.kind() {
            io::ErrorKind::NotFound => "a symbolic link to nothing (its target does not exist)",
            _ if source.raw_os_error() == Some(libc::ELOOP) => {
                "a symbolic link in a loop (it leads back to itself)"
            }
            // Its target cannot be examined (a folder on the way is not readable): the file may
            // be there, so it is unreadable, not gone.
            _ => return self.unreadable(&path, source),
        };
        self.found.skipped.push(Skipped { path, reason });
    }

    fn unreadable(&mut self, path: &Path, source: io::Error) {
        self.found.unreadable.push(InputError::Io {
            path: path.to_path_buf(),
            source,
        });
    }
}
