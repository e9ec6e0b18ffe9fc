//! Finding record files and mapping them into memory.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use memmap2::Mmap;

/// One record file to read, with the name to show for it.
pub struct Input {
    pub path: PathBuf,
    /// The path relative to the directory that was given (with `/` separators), or the path as
    /// given for a file: the game identity the oracle and the index use.
    pub name: String,
}

/// File extensions read when walking a directory (case-insensitive).
const RECORD_EXTENSIONS: &[&str] = &["sgf", "wtf"];

/// Expands files and directories into record files, sorted by name within each directory so that
/// output order is stable.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<Input>> {
    let mut out = Vec::new();
    for root in paths {
        let meta = std::fs::metadata(root).with_context(|| format!("{}", root.display()))?;
        if !meta.is_dir() {
            out.push(Input {
                path: root.clone(),
                name: root.display().to_string(),
            });
            continue;
        }
        let mut stack = vec![root.clone()];
        let mut files = Vec::new();
        while let Some(dir) = stack.pop() {
            let entries = match std::fs::read_dir(&dir) {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("qipu: {}: {e}", dir.display());
                    continue;
                }
            };
            for entry in entries.flatten() {
                let p = entry.path();
                let Ok(ft) = entry.file_type() else { continue };
                if ft.is_dir() {
                    stack.push(p);
                } else if is_record(&p) {
                    files.push(p);
                }
            }
        }
        files.sort();
        for p in files {
            let rel = p.strip_prefix(root).unwrap_or(&p);
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push(Input { path: p, name });
        }
    }
    Ok(out)
}

fn is_record(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.iter().any(|r| e.eq_ignore_ascii_case(r)))
}

/// The bytes of a file: memory-mapped, or empty for an empty file (which cannot be mapped).
pub enum Bytes {
    Mapped(Mmap),
    Empty,
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Empty => &[],
        }
    }
}

/// Maps a file read-only.
pub fn map(path: &Path) -> Result<Bytes> {
    let file = File::open(path).with_context(|| format!("{}", path.display()))?;
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(Bytes::Empty);
    }
    // SAFETY: the map is read-only; qipu never writes the files it reads. Another process
    // truncating the file while it is mapped is the one hazard, as for every mmap-based reader.
    let map = unsafe { Mmap::map(&file) }.with_context(|| format!("{}", path.display()))?;
    Ok(Bytes::Mapped(map))
}
