//! `katago.jsonl`: KataGo's raw answers, kept beside the analysed records. One line per
//! analysed turn (`{"file","out","game","query","turns","turn","answer"}`), or one line for a
//! game KataGo refused (`"refused"` in place of `"turn"` and `"answer"`). A game's lines are
//! appended together once all its answers are in, so a run killed at any point leaves whole
//! games, at worst followed by a torn last line, which the next run cuts off. That run takes a
//! game's answers from here, without asking KataGo again, when its block is whole and its
//! query's fingerprint is the game's as it now reads; the record it writes from them is
//! byte for byte the one the first run would have written.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A whole game's lines in the journal.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub fingerprint: u64,
    start: u64,
    end: u64,
}

/// The journal of one output folder.
pub struct Journal {
    path: PathBuf,
    file: File,
    blocks: HashMap<(String, usize), Block>,
}

/// One line's bookkeeping fields.
struct Head {
    out: String,
    game: usize,
    fingerprint: u64,
    turns: usize,
    /// The line's turn (0 for a refusal).
    turn: usize,
}

fn head(line: &[u8]) -> Option<Head> {
    let v: Value = serde_json::from_slice(line).ok()?;
    Some(Head {
        out: v.get("out")?.as_str()?.to_string(),
        game: v.get("game")?.as_u64()? as usize,
        fingerprint: u64::from_str_radix(v.get("query")?.as_str()?, 16).ok()?,
        turns: if v.get("refused").is_some() {
            1
        } else {
            v.get("turns")?.as_u64()? as usize
        },
        turn: match v.get("refused") {
            Some(_) => 0,
            None => v.get("turn")?.as_u64()? as usize,
        },
    })
}

impl Journal {
    /// Opens (or creates) `dir/katago.jsonl`, finds its whole games and cuts off what follows the
    /// last (a game's lines torn by a kill while they were written).
    pub fn open(dir: &Path) -> std::io::Result<Journal> {
        let path = dir.join("katago.jsonl");
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)?;
        // One run per output folder: two would write one journal and the same records. The
        // kernel drops the lock when its holder dies, however it dies.
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::WouldBlock,
                    "another qipu analyse is writing into this folder",
                ))
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        let mut blocks = HashMap::new();
        let mut reader = BufReader::new(&file);
        let (mut at, mut good_end) = (0u64, 0u64);
        // The block being read: its key, first line's offset, lines seen and lines expected.
        let mut current: Option<(String, usize, u64, u64, usize, usize)> = None;
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line)? as u64;
            if n == 0 {
                break;
            }
            let start = at;
            at += n;
            if line.last() != Some(&b'\n') {
                break;
            }
            let Some(h) = head(&line) else {
                current = None;
                continue;
            };
            // A block is a game's turns 0, 1, … in order, all of one query.
            let same = matches!(&current, Some((out, game, fp, _, seen, _))
                if *out == h.out && *game == h.game && *fp == h.fingerprint && *seen == h.turn);
            if !same {
                current = (h.turn == 0)
                    .then(|| (h.out.clone(), h.game, h.fingerprint, start, 0, h.turns));
            }
            if let Some((out, game, fp, first, seen, turns)) = &mut current {
                *seen += 1;
                if seen == turns {
                    blocks.insert(
                        (out.clone(), *game),
                        Block {
                            fingerprint: *fp,
                            start: *first,
                            end: at,
                        },
                    );
                    current = None;
                    // What follows the last whole block is the remains of a killed write.
                    good_end = at;
                }
            }
        }
        drop(reader);
        if good_end < file.metadata()?.len() {
            file.set_len(good_end)?;
        }
        file.seek(SeekFrom::End(0))?;
        Ok(Journal { path, file, blocks })
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The whole block of game `game` of the output `out`, if it answers the query of
    /// `fingerprint`.
    pub fn find(&self, out: &str, game: usize, fingerprint: u64) -> Option<Block> {
        self.blocks
            .get(&(out.to_string(), game))
            .filter(|b| b.fingerprint == fingerprint)
            .copied()
    }

    /// The lines of a block, each a JSON object.
    pub fn read(&self, block: Block) -> std::io::Result<Vec<Value>> {
        let mut f = File::open(&self.path)?;
        f.seek(SeekFrom::Start(block.start))?;
        let mut bytes = Vec::with_capacity((block.end - block.start) as usize);
        f.take(block.end - block.start).read_to_end(&mut bytes)?;
        bytes
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).map_err(std::io::Error::other))
            .collect()
    }

    /// Appends a game's lines (each without its newline) in one write.
    pub fn append(&mut self, lines: &[String]) -> std::io::Result<()> {
        let mut buf = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for l in lines {
            buf.push_str(l);
            buf.push('\n');
        }
        self.file.write_all(buf.as_bytes())?;
        self.file.flush()
    }
}

/// A journal line for an analysed turn; `answer` is KataGo's line as it came.
pub fn turn_line(
    file: &str,
    out: &str,
    game: usize,
    fingerprint: u64,
    turns: usize,
    turn: usize,
    answer: &str,
) -> String {
    format!(
        "{{\"file\":{},\"out\":{},\"game\":{game},\"query\":\"{fingerprint:016x}\",\"turns\":{turns},\"turn\":{turn},\"answer\":{}}}",
        Value::from(file),
        Value::from(out),
        answer.trim_end()
    )
}

/// A journal line for a game KataGo refused; `answer` is its error line.
pub fn refused_line(file: &str, out: &str, game: usize, fingerprint: u64, answer: &str) -> String {
    format!(
        "{{\"file\":{},\"out\":{},\"game\":{game},\"query\":\"{fingerprint:016x}\",\"refused\":{}}}",
        Value::from(file),
        Value::from(out),
        answer.trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_games_are_found_and_a_torn_end_is_cut() {
        let dir = std::env::temp_dir().join(format!("qipu-analyse-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let answer = |t: usize| format!("{{\"id\":\"0:0\",\"turnNumber\":{t}}}");
        let whole: Vec<String> = (0..2)
            .map(|t| turn_line("a.sgf", "a.sgf", 0, 7, 2, t, &answer(t)))
            .collect();
        let half = turn_line("b.sgf", "b.sgf", 0, 9, 2, 0, &answer(0));
        let refused = refused_line("c.sgf", "c.sgf", 1, 5, "{\"error\":\"Illegal move\"}");
        // Half a game in the middle (never written so, but read safely), then a game's first
        // line and a torn second: the remains of a kill.
        let text = format!(
            "{}\n{}\n{half}\n{refused}\n{half}\n{{\"file\":\"torn",
            whole[0], whole[1]
        );
        std::fs::write(dir.join("katago.jsonl"), &text).unwrap();

        let mut j = Journal::open(&dir).unwrap();
        let a = j.find("a.sgf", 0, 7).expect("a whole game");
        assert_eq!(j.read(a).unwrap().len(), 2);
        assert!(j.find("a.sgf", 0, 8).is_none(), "another query");
        assert!(j.find("b.sgf", 0, 9).is_none(), "half a game");
        assert_eq!(
            j.read(j.find("c.sgf", 1, 5).unwrap()).unwrap()[0]["refused"]["error"],
            "Illegal move"
        );
        // The torn line is gone, and what is appended starts a line of its own.
        j.append(&[turn_line("b.sgf", "b.sgf", 0, 9, 1, 0, &answer(0))])
            .unwrap();
        let after = std::fs::read_to_string(dir.join("katago.jsonl")).unwrap();
        assert!(!after.contains("torn"));
        assert_eq!(after.lines().count(), 5, "{after}");
        assert!(after
            .lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok()));
        let busy = Journal::open(&dir).err().expect("one run per folder");
        assert_eq!(busy.kind(), std::io::ErrorKind::WouldBlock);
        drop(j);
        let j = Journal::open(&dir).unwrap();
        assert!(j.find("b.sgf", 0, 9).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
