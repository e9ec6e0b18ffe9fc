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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::props::TurnEval;
    use crate::query;

    #[test]
    fn names_under_the_output_folder() {
        assert_eq!(relative_path("a/b.sgf"), "a/b.sgf");
        assert_eq!(relative_path("/abs/x.SGF"), "abs/x.SGF");
        assert_eq!(relative_path("../up/./x.gib"), "__/up/x.gib.sgf");
        assert_eq!(
            relative_path("kgs.tar.zst/2002/a.sgf"),
            "kgs.tar.zst/2002/a.sgf"
        );
        assert_eq!(relative_path("month.sgf.zst"), "month.sgf");
        assert_eq!(numbered("a/x.sgf", 2), "a/x (2).sgf");
    }

    fn eval(win: f64) -> Option<TurnEval> {
        Some(TurnEval {
            win,
            lead: 1.0,
            stdev: 2.0,
            visits: 3,
            black_to_move: true,
            candidates: Vec::new(),
        })
    }

    #[test]
    fn evaluations_go_after_each_nodes_properties_and_replace_old_ones() {
        let text = b"junk (;SZ[9]SBKV[1];B[ee]C[x]LZ[old\nline];W[cc](;B[dd])(;B[aa]))";
        let records = sgf::Records::read(text);
        let tree = records.game(0).unwrap();
        let q = query::build(&tree, text, 4).unwrap();
        assert_eq!(q.turns, 4);
        let dir = std::env::temp_dir().join(format!("qipu-analyse-edit-{}", std::process::id()));
        let mut w = Writer::create(dir.join("x.sgf")).unwrap();
        let evals = [eval(0.5), eval(0.25), None, eval(1.0)];
        w.edit(text, 0, text.len(), &q.plan, Some(&evals)).unwrap();
        w.finish().unwrap();
        let got = std::fs::read_to_string(dir.join("x.sgf")).unwrap();
        let lz = |w: &str| format!("KataGo {w} 3 1.0 2.0\n");
        assert_eq!(
            got,
            format!(
                "junk (;SZ[9]SBKV[50]SBKS[1]LZOP[{}];B[ee]C[x]SBKV[25]SBKS[1]LZ[{}];W[cc](;B[dd]SBKV[100]SBKS[1]LZ[{}])(;B[aa]))",
                lz("50.0"),
                lz("75.0"),
                lz("0.0")
            )
        );
        assert!(!dir.join("x.sgf.qipu-partial").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
