//! The analysed copy of one record file: its text with each game's evaluations inserted,
//! written to a temporary file beside its final name and renamed once whole, so that the
//! output folder never holds half a record.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::props::{node_props, TurnEval};
use crate::query::Plan;

/// Where a record file's analysed copy goes under the output folder: its name (see the
/// inputs crate: relative to the INPUT folder, or as given, or `archive/member`) with a
/// leading `/` dropped, each `..` made `__`, a `.zst` ending dropped, and `.sgf` added when it
/// does not end so (other formats are written as SGF).
pub fn relative_path(name: &str) -> String {
    let parts: Vec<&str> = name
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(|p| if p == ".." { "__" } else { p })
        .collect();
    let mut out = parts.join("/");
    if out.to_ascii_lowercase().ends_with(".zst") {
        out.truncate(out.len() - 4);
    }
    if !out.to_ascii_lowercase().ends_with(".sgf") {
        out.push_str(".sgf");
    }
    out
}

/// The same path with ` (n)` before its `.sgf`, for a second record of the same name.
pub fn numbered(rel: &str, n: usize) -> String {
    format!("{} ({n}).sgf", &rel[..rel.len() - 4])
}

/// An analysed copy being written.
pub struct Writer {
    tmp: PathBuf,
    dest: PathBuf,
    out: BufWriter<File>,
}

impl Writer {
    /// Starts writing `dest` (its folders made), through `dest.qipu-partial`.
    pub fn create(dest: PathBuf) -> std::io::Result<Writer> {
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut tmp = dest.clone().into_os_string();
        tmp.push(".qipu-partial");
        let tmp = PathBuf::from(tmp);
        let out = BufWriter::new(File::create(&tmp)?);
        Ok(Writer { tmp, dest, out })
    }

    /// Writes `text` unchanged.
    pub fn copy(&mut self, text: &[u8]) -> std::io::Result<()> {
        self.out.write_all(text)
    }

    /// Writes `text[from..to]` with the plan's edits in that range applied: old evaluation
    /// properties dropped, each planned node given its turn's properties from `evals`
    /// (`None`: a game KataGo refused, copied unchanged).
    pub fn edit(
        &mut self,
        text: &[u8],
        from: usize,
        to: usize,
        plan: &Plan,
        evals: Option<&[Option<TurnEval>]>,
    ) -> std::io::Result<()> {
        let Some(evals) = evals else {
            return self.copy(&text[from..to]);
        };
        let mut at = from;
        let (mut r, mut i) = (0, 0);
        loop {
            let next_remove = plan.remove.get(r).filter(|x| x.0 < to);
            let next_insert = plan.insert.get(i).filter(|x| x.0 <= to);
            match (next_remove, next_insert) {
                (Some(&(s, e)), ins) if ins.is_none_or(|x| s < x.0) => {
                    self.out.write_all(&text[at..s.max(at)])?;
                    at = at.max(e);
                    r += 1;
                }
                (_, Some(&(pos, turn, root))) => {
                    self.out.write_all(&text[at..pos.max(at)])?;
                    at = at.max(pos);
                    if let Some(Some(eval)) = evals.get(turn) {
                        self.out.write_all(node_props(eval, root).as_bytes())?;
                    }
                    i += 1;
                }
                _ => break,
            }
        }
        self.out.write_all(&text[at..to])
    }

    /// Finishes the file and gives it its name.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.out.flush()?;
        self.out.get_ref().sync_data()?;
        std::fs::rename(&self.tmp, &self.dest)
    }

    /// The final path.
    pub fn dest(&self) -> &Path {
        &self.dest
    }
}

impl Drop for Writer {
    /// A copy left unfinished (an error) leaves no partial file behind.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.tmp);
    }
}
