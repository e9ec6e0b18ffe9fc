//! Player names across scripts, end to end: games indexed from SGF files with `index::build`,
//! then searched as a user types. One player's spellings (李世石, 이세돌, `Lee Sedol`) find the
//! same games through the alias list; traditional, simplified and Japanese forms (一力遼,
//! 一力辽) through folding; names no list knows work as they always did.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use index::{build, BuildOptions, Index};
use meta::{AliasUpdate, Aliases};

/// A fresh directory under the system temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qipu-names-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Black and White of each crafted game (one game per file, `g00.sgf`, `g01.sgf`, …).
const PLAYERS: &[(&str, &str)] = &[
    ("李世石", "古力"),            // 0
    ("이세돌", "이창호"),          // 1
    ("Lee Sedol 9p", "Gu Li"),     // 2
    ("Cho Chikun", "LEE SE-DOL"),  // 3
    ("李世石九段", "常昊"),        // 4
    ("一力遼", "井山裕太"),        // 5
    ("芝野虎丸", "一力辽"),        // 6
    ("周俊勳", "周俊勋"),          // 7
    ("藤沢秀行", "藤澤秀行"),      // 8
    ("Alice", "Bob"),              // 9
    ("Lee Changho", "Leela Zero"), // 10
];

/// Writes the crafted games into `dir/games` and returns that folder.
fn write_games(dir: &Path) -> PathBuf {
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    for (i, (b, w)) in PLAYERS.iter().enumerate() {
        // Distinct moves, so that no game is an exact copy of another.
        let x = (b'a' + i as u8) as char;
        let sgf = format!("(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[{b}]PW[{w}]RE[B+R];B[{x}a];W[{x}s])");
        std::fs::write(games.join(format!("g{i:02}.sgf")), sgf).unwrap();
    }
    games
}

/// Builds with the alias file of text `aliases`, if given (written beside the index).
fn index_with(dir: &Path, games: &Path, aliases: Option<&str>) -> (Index, AliasUpdate) {
    let aliases = aliases.map(|text| {
        let file = dir.join("aliases.tsv");
        std::fs::write(&file, text).unwrap();
        file
    });
    let opts = BuildOptions {
        aliases,
        ..BuildOptions::default()
    };
    let summary = build(&dir.join("index"), &[games.to_path_buf()], &opts, |_| {}).unwrap();
    (Index::open(&dir.join("index")).unwrap(), summary.aliases)
}

/// The crafted games (by their number in [`PLAYERS`]) that `query` finds.
fn found(index: &Index, query: &str) -> BTreeSet<usize> {
    index
        .search_meta(query)
        .unwrap_or_else(|e| panic!("{query}: {e}"))
        .into_iter()
        .map(|g| {
            let (file, _) = index.identity(g);
            let name = Path::new(file).file_stem().unwrap().to_str().unwrap();
            name[1..].parse().unwrap()
        })
        .collect()
}

fn set(games: &[usize]) -> BTreeSet<usize> {
    games.iter().copied().collect()
}

#[test]
fn three_spellings_of_one_player_find_the_same_games() {
    let dir = TempDir::new("spellings");
    let games = write_games(&dir.0);
    // The built-in list: a new index gets it without being asked.
    let (index, update) = index_with(&dir.0, &games, None);
    assert_eq!(update, AliasUpdate::New);
    assert!(index.meta().aliases().len() >= 100);
    let lee = set(&[0, 1, 2, 3, 4]);
    for q in [
        "player:李世石",
        "player:이세돌",
        "player:\"Lee Sedol\"",
        "player:\"Lee Se-dol\"",
        "player:\"LEE SEDOL\"",
        "player:李世乭",
        "\"Lee Sedol\"",
    ] {
        assert_eq!(found(&index, q), lee, "{q}");
    }
    // Colour by colour, each spelling finds the player's games of that colour.
    assert_eq!(found(&index, "black:이세돌"), set(&[0, 1, 2, 4]));
    assert_eq!(found(&index, "white:李世石"), set(&[3]));
    assert_eq!(
        found(&index, "black:\"Lee Sedol\" AND white:古力"),
        set(&[0, 2])
    );
    // Names are stored as written: the user sees the original.
    let g = index.search_meta("white:\"Lee Sedol\"").unwrap()[0];
    assert_eq!(
        index.meta().summary(g).unwrap().unwrap().white.as_deref(),
        Some("LEE SE-DOL")
    );
}

#[test]
fn traditional_simplified_and_japanese_forms_fold() {
    let dir = TempDir::new("folding");
    let games = write_games(&dir.0);
    // No aliases at all: what is left is folding alone.
    let (index, _) = index_with(&dir.0, &games, Some(""));
    assert!(index.meta().aliases().is_empty());
    for q in ["player:一力遼", "player:一力辽", "player:力遼", "player:遼"] {
        assert_eq!(found(&index, q), set(&[5, 6]), "{q}");
    }
    assert_eq!(found(&index, "black:一力辽"), set(&[5]));
    for q in [
        "player:周俊勳",
        "player:周俊勋",
        "black:周俊勋",
        "white:周俊勳",
    ] {
        assert_eq!(found(&index, q), set(&[7]), "{q}");
    }
    // Japanese new form (沢), traditional (澤) and simplified (泽) of one character.
    for q in ["black:藤沢秀行", "black:藤澤秀行", "black:藤泽秀行"] {
        assert_eq!(found(&index, q), set(&[8]), "{q}");
    }
    assert_eq!(found(&index, "white:藤沢"), set(&[8]));
    // Without aliases the scripts stay apart.
    assert_eq!(found(&index, "player:이세돌"), set(&[1]));
    // `LEE SE-DOL` is three words, not the phrase `Lee Sedol`: only a list joins them.
    assert_eq!(found(&index, "player:\"Lee Sedol\""), set(&[2]));
    let summary = index.meta().summary(5).unwrap().unwrap();
    assert_eq!(summary.black.as_deref(), Some("一力遼"));
}

#[test]
fn unknown_names_and_parts_of_names_work_as_before() {
    let dir = TempDir::new("unknown");
    let games = write_games(&dir.0);
    let (index, _) = index_with(&dir.0, &games, None);
    assert_eq!(found(&index, "player:Alice"), set(&[9]));
    assert_eq!(found(&index, "white:bob"), set(&[9]));
    assert_eq!(found(&index, "player:Nobody"), set(&[]));
    // A part of a listed name asks for what it says, not for the player.
    assert_eq!(found(&index, "player:lee"), set(&[2, 3, 10]));
    assert_eq!(found(&index, "player:世石"), set(&[0, 4]));
    // The alias list does not reach fields other than the players'.
    assert_eq!(found(&index, "event:\"Lee Sedol\""), set(&[]));
}

#[test]
fn a_changed_list_is_applied_without_rebuilding() {
    let dir = TempDir::new("changed");
    let games = write_games(&dir.0);
    let only_alice = Aliases::parse("Alice\tアリス\n", Path::new("a.tsv")).unwrap();
    let (index, update) = index_with(&dir.0, &games, Some("Alice\tアリス\n"));
    assert_eq!(update, AliasUpdate::New);
    assert_eq!(found(&index, "player:이세돌"), set(&[1]));
    assert_eq!(found(&index, "player:アリス"), set(&[9]));
    drop(index);
    // Run again without a list: the index keeps the one it was given.
    let (index, update) = index_with(&dir.0, &games, None);
    assert_eq!(update, AliasUpdate::Kept);
    assert_eq!(index.meta().aliases(), &only_alice);
    drop(index);
    // Another list: it replaces the recorded one and the next search uses it.
    let lee = Aliases::parse("이세돌\tLee Sedol\n", Path::new("b.tsv")).unwrap();
    let (index, update) = index_with(&dir.0, &games, Some("이세돌\tLee Sedol\n"));
    assert_eq!(update, AliasUpdate::Changed);
    assert_eq!(found(&index, "player:이세돌"), set(&[1, 2]));
    assert_eq!(found(&index, "player:アリス"), set(&[]));
    drop(index);
    // A rebuild keeps the list too.
    let opts = BuildOptions {
        rebuild: true,
        ..BuildOptions::default()
    };
    let summary = build(&dir.0.join("index"), &[games], &opts, |_| {}).unwrap();
    assert_eq!(summary.aliases, AliasUpdate::Kept);
    let index = Index::open(&dir.0.join("index")).unwrap();
    assert_eq!(index.meta().aliases(), &lee);
}

/// Names as the records of `fox-pro` spell them: Park Junghwan is 박정환 in some and 朴廷桓 in
/// others, Ichiriki Ryo 一力辽. The expected games are found from the records themselves (their
/// `PB` and `PW` as the parser reads them), not from the index; the files are known by name
/// (fox-pro names each game file by its game number, once).
#[test]
fn fox_pro_spellings_of_one_player() {
    let Some(fox) = testdata::dataset("fox-pro") else {
        return;
    };
    let dir = TempDir::new("fox");
    let opts = BuildOptions::default();
    build(
        &dir.0.join("index"),
        std::slice::from_ref(&fox),
        &opts,
        |_| {},
    )
    .unwrap();
    let index = Index::open(&dir.0.join("index")).unwrap();

    // Every game's players, by file, read straight from the records.
    let mut players: Vec<(String, Vec<String>)> = Vec::new();
    let mut stack = vec![fox.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let records = sgf::Records::read(&bytes);
            let Ok(tree) = records.game(0) else {
                continue;
            };
            let info = sgf::GameInfo::read(&tree);
            let names = [info.black, info.white].into_iter().flatten().collect();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            players.push((name, names));
        }
    }
    let files_with = |spellings: &[&str]| -> BTreeSet<String> {
        players
            .iter()
            .filter(|(_, names)| {
                names
                    .iter()
                    .any(|n| spellings.iter().any(|s| n.contains(s)))
            })
            .map(|(file, _)| file.clone())
            .collect()
    };
    let files_found = |query: &str| -> BTreeSet<String> {
        index
            .search_meta(query)
            .unwrap()
            .into_iter()
            .map(|g| {
                let (file, _) = index.identity(g);
                file.rsplit('/').next().unwrap().to_string()
            })
            .collect()
    };
    for (spellings, queries) in [
        (
            &["박정환", "朴廷桓"][..],
            &["player:박정환", "player:朴廷桓", "player:\"Park Junghwan\""][..],
        ),
        (
            &["一力辽"][..],
            &["player:一力遼", "player:一力辽", "player:\"Ichiriki Ryo\""][..],
        ),
        (
            &["신진서", "申真谞"][..],
            &["player:신진서", "player:申眞諝", "player:\"Shin Jinseo\""][..],
        ),
    ] {
        let expected = files_with(spellings);
        // Both spellings occur in the records, so the test means what it says.
        for s in spellings {
            assert!(!files_with(&[s]).is_empty(), "{s} is in fox-pro");
        }
        for q in queries {
            let got = files_found(q);
            assert_eq!(got.len(), expected.len(), "{q}");
            assert_eq!(got, expected, "{q}");
        }
    }
}
