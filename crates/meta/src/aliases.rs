//! Player aliases: which spellings, in which scripts, are one player.
//!
//! The same professional is 李世石 on a Chinese server, 이세돌 on a Korean one, `Lee Sedol` in
//! an English collection and 李世乭 in a Japanese paper. Folding (`tokenizer.rs`) makes
//! 一力遼 and 一力辽 one name, but no table turns Hangul into Han or either into Latin letters:
//! that takes a list, which users can extend.
//!
//! **The file.** UTF-8 text, one player per line, the player's names separated by tabs; `#`
//! starts a comment, blank lines are ignored:
//!
//! ```text
//! # Lee Sedol (→ is a tab)
//! 李世石→李世乭→이세돌→Lee Sedol→Lee Se-dol
//! ```
//!
//! Each line needs two names or more; a name is known by its [`name_key`] (case, accents,
//! extra spaces, a hyphen inside a word, full-width forms and traditional / simplified /
//! Japanese forms do not matter), and one name may not stand for two players (two lines holding the same name are an
//! error naming both lines). The repository ships a starter list (`data/aliases.tsv`, compiled
//! into qipu as [`Aliases::builtin`]).
//!
//! **How it is used.** A query on a player's name (`black`, `white`, `player`, or a name with
//! no field) whose whole text is one of a player's names asks for any of them: `player:이세돌`
//! is `player:(이세돌 OR 李世石 OR 李世乭 OR "Lee Sedol" OR "Lee Se-dol")`, each name matched as
//! any name is (a phrase, found inside longer values such as `Lee Sedol 9p`). A part of a name
//! (`player:lee`) asks for what it says, as before. The expansion happens when the query meets
//! the value dictionary (`values.rs`), which already turns every query on a name into the
//! set of exact names it matches, so it is exact and costs a few lookups in that small index.
//!
//! **With the index.** `qipu index` reads and checks the list (the built-in one, or
//! `--aliases FILE`) and writes it, as given under a first line holding its checksum, into the
//! metadata folder ([`FILE`]; `qipu verify` checks it); searches use that copy, so an index answers with the list it was given, whatever file the user has since
//! edited. Because the games' documents hold names as written and the list acts only on queries,
//! a changed list needs no rebuild: `qipu index --aliases FILE` on an existing index replaces the
//! copy and says so, and the next search uses it. An index keeps its list until given another
//! (a rebuild included); a new index starts with the built-in list.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::tokenizer::name_key;

/// The name of the list's copy inside the metadata folder.
pub const FILE: &str = "aliases.tsv";

/// The starter list shipped with qipu (`data/aliases.tsv` at the repository root).
const BUILTIN: &str = include_str!("../../../data/aliases.tsv");

/// The largest alias file read, in bytes: far above any list of players, and a bound on what
/// a wrong path (a record archive) costs before it is refused.
pub const MAX_BYTES: usize = 16 << 20;

/// What is wrong with an alias file.
#[derive(Debug, thiserror::Error)]
pub enum AliasError {
    /// A line that cannot be used: its number (from 1) and why.
    #[error("{}:{line}: {message}", origin.display())]
    Line {
        origin: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
}

/// A checked alias list: players, each with its names, and every name's player by key.
///
/// `#` always starts a comment, so a name cannot hold one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Aliases {
    /// The text the list was read from, kept to be written with the index.
    text: String,
    /// Each player's names, as written, in the order of the file (each key once).
    players: Vec<Vec<String>>,
    /// Name key → player.
    by_key: HashMap<String, usize>,
}

impl Aliases {
    /// No aliases at all.
    pub fn none() -> Aliases {
        Aliases::default()
    }

    /// The starter list shipped with qipu.
    pub fn builtin() -> Aliases {
        // Checked by a test: the shipped list parses.
        Aliases::parse(BUILTIN, Path::new("data/aliases.tsv")).unwrap_or_default()
    }

    /// Reads and checks the list in `path`.
    pub fn read(path: &Path) -> Result<Aliases, AliasError> {
        let io = |source| AliasError::Io {
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.is_dir() {
            return Err(AliasError::File {
                path: path.to_path_buf(),
                message: "is a folder, not an alias file".to_string(),
            });
        }
        if meta.len() > MAX_BYTES as u64 {
            return Err(AliasError::File {
                path: path.to_path_buf(),
                message: format!(
                    "{} bytes: an alias file is at most {MAX_BYTES} bytes",
                    meta.len()
                ),
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
                return Err(AliasError::Line {
                    origin: path.to_path_buf(),
                    line,
                    message: "not UTF-8 (an alias file is UTF-8 text)".to_string(),
                });
            }
        };
        Aliases::parse(&text, path)
    }

    /// Checks the list in `text`; `origin` names it in errors.
    pub fn parse(text: &str, origin: &Path) -> Result<Aliases, AliasError> {
        let error = |line: usize, message: String| AliasError::Line {
            origin: origin.to_path_buf(),
            line,
            message,
        };
        let mut players: Vec<Vec<String>> = Vec::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        // The line each player was given on, for messages.
        let mut lines: Vec<usize> = Vec::new();
        // A byte-order mark some editors write is not part of the first name.
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in body.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim_end();
            if content.trim().is_empty() {
                continue;
            }
            let player = players.len();
            let mut names: Vec<String> = Vec::new();
            let mut keys = 0;
            for (column, field) in content.split('\t').enumerate() {
                let name = field.trim();
                if name.is_empty() {
                    return Err(error(
                        line,
                        format!(
                            "column {}: an empty name (names are separated by one tab)",
                            column + 1
                        ),
                    ));
                }
                let key = name_key(name);
                if key.is_empty() {
                    return Err(error(
                        line,
                        format!("column {}: {name:?} has no letter or character", column + 1),
                    ));
                }
                match by_key.get(&key) {
                    // Another spelling of a name already on this line: kept, since it is
                    // matched as written (`Lee Se-dol` is not the phrase `Lee Sedol`).
                    Some(&p) if p == player => {
                        if !names.iter().any(|n| n == name) {
                            names.push(name.to_string());
                        }
                        continue;
                    }
                    Some(&p) => {
                        return Err(error(
                            line,
                            format!(
                                "{name:?} is already a name of the player on line {}; one \
                                 name cannot stand for two players",
                                lines[p]
                            ),
                        ))
                    }
                    None => {}
                }
                by_key.insert(key, player);
                keys += 1;
                names.push(name.to_string());
            }
            if keys < 2 {
                return Err(error(
                    line,
                    format!(
                        "{:?}: a player needs two names or more, separated by tabs{}",
                        content.trim(),
                        if content.contains("  ") {
                            " (this line has spaces where a tab may have been meant)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            players.push(names);
            lines.push(line);
        }
        Ok(Aliases {
            text: text.to_string(),
            players,
            by_key,
        })
    }

    /// The names of the player `name` is one of (itself included), or `None` when the list does
    /// not know it. `name` is compared by its [`name_key`].
    pub fn names_of(&self, name: &str) -> Option<&[String]> {
        if self.by_key.is_empty() {
            return None;
        }
        self.by_key
            .get(&name_key(name))
            .map(|&p| self.players[p].as_slice())
    }

    /// [`Aliases::names_of`] for a name already turned into its [`name_key`] (a caller
    /// keying many names once each).
    pub fn names_of_key(&self, key: &str) -> Option<&[String]> {
        self.by_key.get(key).map(|&p| self.players[p].as_slice())
    }

    /// How many players the list holds.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// The text the list was read from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The list recorded with the metadata index in `meta_dir`; no aliases when there is none
    /// (an index from before lists were recorded). A copy whose checksum does not match, or that
    /// does not parse, is an error: the index was given a good list, so the file was changed or
    /// damaged since (`qipu verify` names it).
    pub fn recorded(meta_dir: &Path) -> Result<Aliases, AliasError> {
        let path = meta_dir.join(FILE);
        match recorded_text(&path)? {
            None => Ok(Aliases::none()),
            Some(text) => Aliases::parse(&text, &path),
        }
    }

    /// The copy written with an index: a first comment line holding the CRC-32 of the list's
    /// text, then the text as given.
    fn recorded_bytes(&self) -> Vec<u8> {
        let crc = crc32fast::hash(self.text.as_bytes());
        let mut out = format!("{HEADER}{crc:08x} (written by qipu index; give another list with qipu index --aliases FILE)\n")
            .into_bytes();
        out.extend_from_slice(self.text.as_bytes());
        out
    }

    /// Records this list with the metadata index in `meta_dir` (written to a temporary file, then
    /// renamed over the old copy, so a search reads the old list or the new, never part of one).
    /// Returns whether it differs from the list recorded there before.
    pub fn record(&self, meta_dir: &Path) -> Result<bool, AliasError> {
        let path = meta_dir.join(FILE);
        let before = match recorded_text(&path) {
            Ok(text) => text,
            // A damaged copy is replaced by the good list given.
            Err(AliasError::File { .. } | AliasError::Line { .. }) => Some(String::new()),
            Err(e) => return Err(e),
        };
        if before.as_deref() == Some(self.text.as_str()) {
            return Ok(false);
        }
        let io = |source| AliasError::Io {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(meta_dir).map_err(io)?;
        let tmp = meta_dir.join(format!("{FILE}.tmp"));
        std::fs::write(&tmp, self.recorded_bytes()).map_err(|source| AliasError::Io {
            path: tmp.clone(),
            source,
        })?;
        std::fs::rename(&tmp, &path).map_err(io)?;
        Ok(before.is_some())
    }
}

/// The start of a recorded copy's first line, before its checksum.
const HEADER: &str = "# qipu alias list, crc32 ";

/// The list text of the recorded copy at `path` (`None` when there is none), its checksum
/// checked.
fn recorded_text(path: &Path) -> Result<Option<String>, AliasError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(AliasError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let damaged = |what: &str| AliasError::File {
        path: path.to_path_buf(),
        message: format!("damaged ({what}); qipu index --aliases FILE writes a new copy"),
    };
    let split = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged("no header line"))?;
    let (header, body) = (&bytes[..split], &bytes[split + 1..]);
    let crc = std::str::from_utf8(header)
        .ok()
        .and_then(|h| h.strip_prefix(HEADER))
        .and_then(|h| h.get(..8))
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or_else(|| damaged("no checksum in its first line"))?;
    if crc32fast::hash(body) != crc {
        return Err(damaged("its checksum does not match"));
    }
    String::from_utf8(body.to_vec())
        .map(Some)
        .map_err(|_| damaged("not UTF-8"))
}

/// What a build did with the alias list of its index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AliasUpdate {
    /// The index keeps the list it had (none was given, or the same one).
    #[default]
    Kept,
    /// A new index: the list given, or the built-in one.
    New,
    /// The index had another list: the one given replaces it, for every search from now on.
    Changed,
}

/// Records the alias list of a build in `meta_dir`: `given` if the user gave one, else the list
/// already there, else the one of `previous` (the metadata folder of the index a rebuild
/// replaces), else the built-in list.
pub fn record_for_build(
    meta_dir: &Path,
    given: Option<&Aliases>,
    previous: Option<&Path>,
) -> Result<AliasUpdate, AliasError> {
    let here = match recorded_text(&meta_dir.join(FILE)) {
        // A damaged copy is replaced by a list given (and is an error otherwise).
        Err(AliasError::File { .. }) if given.is_some() => Some(String::new()),
        other => other?,
    };
    let before = match here {
        Some(text) => Some(text),
        None => match previous {
            Some(p) if p != meta_dir => recorded_text(&p.join(FILE))?,
            _ => None,
        },
    };
    let list = match (given, &before) {
        (Some(list), _) => list.clone(),
        // Carried over as it was, after checking that it still reads.
        (None, Some(text)) => Aliases::parse(text, &meta_dir.join(FILE))?,
        (None, None) => Aliases::builtin(),
    };
    list.record(meta_dir)?;
    Ok(match before {
        None => AliasUpdate::New,
        Some(text) if text == list.text => AliasUpdate::Kept,
        Some(_) => AliasUpdate::Changed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Aliases, AliasError> {
        Aliases::parse(text, Path::new("a.tsv"))
    }

    fn message(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn names_of_a_player_by_key() {
        let a = parse(
            "# players\n\n李世石\t이세돌\tLee Sedol\tLee Se-dol # comment\n一力遼\tIchiriki Ryo\n",
        )
        .unwrap();
        assert_eq!(a.len(), 2);
        let lee = ["李世石", "이세돌", "Lee Sedol", "Lee Se-dol"];
        for query in ["이세돌", "LEE SEDOL", "lee se-dol", "李世石"] {
            assert_eq!(a.names_of(query).unwrap(), lee, "{query}");
        }
        // 一力辽 is the folded 一力遼: the same key.
        assert_eq!(a.names_of("一力辽").unwrap(), ["一力遼", "Ichiriki Ryo"]);
        assert!(a.names_of("Lee").is_none());
        assert!(a.names_of("李世").is_none());
        assert!(Aliases::none().names_of("Lee Sedol").is_none());
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            message("# x\nA\tB\nLee Sedol\n"),
            "a.tsv:3: \"Lee Sedol\": a player needs two names or more, separated by tabs"
        );
        assert!(message("A  B\n").contains("spaces where a tab"));
        assert_eq!(
            message("A\tB\n\nC\t\tD\n"),
            "a.tsv:3: column 2: an empty name (names are separated by one tab)"
        );
        assert_eq!(
            message("A\tB\nC\t--\n"),
            "a.tsv:2: column 2: \"--\" has no letter or character"
        );
        assert_eq!(
            message("李世石\tLee Sedol\n\nLEE SEDOL\tX\n"),
            "a.tsv:3: \"LEE SEDOL\" is already a name of the player on line 1; one name \
             cannot stand for two players"
        );
        // A byte-order mark and CRLF line ends are not part of names.
        let a = parse("\u{feff}Alice\tアリス\r\nBob\tボブ\r\n").unwrap();
        assert_eq!(a.names_of("alice").unwrap(), ["Alice", "アリス"]);
        assert_eq!(a.names_of("ボブ").unwrap(), ["Bob", "ボブ"]);
        // Two spellings of one key on one line are one name.
        assert!(message("一力遼\t一力辽\n").contains("two names or more"));
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        let dir = std::env::temp_dir().join(format!("qipu-aliases-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.tsv");
        std::fs::write(&bad, b"A\tB\nC\t\xff\xfe\n").unwrap();
        let e = Aliases::read(&bad).unwrap_err().to_string();
        assert!(
            e.ends_with("bad.tsv:2: not UTF-8 (an alias file is UTF-8 text)"),
            "{e}"
        );
        assert!(Aliases::read(&dir.join("missing.tsv")).is_err());
        assert!(Aliases::read(&dir)
            .unwrap_err()
            .to_string()
            .contains("folder"));
        // Empty and comment-only files are lists of no players.
        std::fs::write(&bad, "# nothing\n\n").unwrap();
        assert!(Aliases::read(&bad).unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn recorded_with_the_index() {
        let dir = std::env::temp_dir().join(format!("qipu-aliases-rec-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(Aliases::recorded(&dir).unwrap().is_empty());
        let a = parse("A\tB\n").unwrap();
        assert!(!a.record(&dir).unwrap(), "a first list is no change");
        assert!(!a.record(&dir).unwrap(), "the same list again");
        assert_eq!(Aliases::recorded(&dir).unwrap(), a);
        let b = parse("A\tB\tC\n").unwrap();
        assert!(b.record(&dir).unwrap(), "a different list");
        assert_eq!(
            Aliases::recorded(&dir)
                .unwrap()
                .names_of("c")
                .unwrap()
                .len(),
            3
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_build_keeps_replaces_or_carries_over_its_list() {
        let base = std::env::temp_dir().join(format!("qipu-aliases-build-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (one, two) = (base.join("meta"), base.join("meta-1"));
        // A new index without a list: the built-in one.
        assert_eq!(
            record_for_build(&one, None, None).unwrap(),
            AliasUpdate::New
        );
        assert_eq!(Aliases::recorded(&one).unwrap(), Aliases::builtin());
        // Run again without a list: kept.
        assert_eq!(
            record_for_build(&one, None, Some(&one)).unwrap(),
            AliasUpdate::Kept
        );
        // A list given: it replaces the built-in one, and the same again is no change.
        let mine = parse("A\tB\n").unwrap();
        assert_eq!(
            record_for_build(&one, Some(&mine), Some(&one)).unwrap(),
            AliasUpdate::Changed
        );
        assert_eq!(
            record_for_build(&one, Some(&mine), Some(&one)).unwrap(),
            AliasUpdate::Kept
        );
        // A rebuild into a new folder carries the list over.
        assert_eq!(
            record_for_build(&two, None, Some(&one)).unwrap(),
            AliasUpdate::Kept
        );
        assert_eq!(Aliases::recorded(&two).unwrap(), mine);
        // A damaged copy is an error, not a silent fallback; a list given replaces it.
        let mut bytes = std::fs::read(one.join(FILE)).unwrap();
        let last = bytes.len() - 2;
        bytes[last] ^= 0x01;
        std::fs::write(one.join(FILE), &bytes).unwrap();
        let e = Aliases::recorded(&one).unwrap_err().to_string();
        assert!(e.contains("checksum does not match"), "{e}");
        assert!(record_for_build(&one, None, Some(&one)).is_err());
        std::fs::write(one.join(FILE), "A\tB\n").unwrap();
        assert!(Aliases::recorded(&one)
            .unwrap_err()
            .to_string()
            .contains("no checksum"));
        assert_eq!(
            record_for_build(&one, Some(&mine), Some(&one)).unwrap(),
            AliasUpdate::Changed
        );
        assert_eq!(Aliases::recorded(&one).unwrap(), mine);
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn the_shipped_list_parses_and_knows_the_issue_names() {
        let a = Aliases::parse(BUILTIN, Path::new("data/aliases.tsv")).unwrap();
        assert!(a.len() >= 100, "{} players", a.len());
        assert_eq!(Aliases::builtin(), a);
        let lee = a.names_of("Lee Sedol").unwrap();
        assert!(lee.iter().any(|n| n == "李世石") && lee.iter().any(|n| n == "이세돌"));
        assert!(a
            .names_of("一力遼")
            .unwrap()
            .iter()
            .any(|n| n == "Ichiriki Ryo"));
    }
}
