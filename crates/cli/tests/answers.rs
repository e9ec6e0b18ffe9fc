//! Answers a person can read and act on: columns in display width whatever script the names
//! are in, nothing cut without saying so, every hit named as `PATH#GAME` that the commands
//! reading records take back, errors in the user's words, `-` for standard input, colour only
//! where it belongs, and no progress line on a pipe.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{qipu, run, stderr as err, stdout as text, Scratch};
use unicode_width::UnicodeWidthStr;

/// A game whose first move is point `i` of the board (so that 30 games have 30 first moves).
fn game(i: usize, black: &str, white: &str, result: &str) -> String {
    let p = |n: usize| {
        format!(
            "{}{}",
            (b'a' + (n % 19) as u8) as char,
            (b'a' + (n / 19 % 19) as u8) as char
        )
    };
    format!(
        "(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[{black}]PW[{white}]DT[2016-01-0{}]RE[{result}];B[{}];W[{}];B[{}])",
        1 + i % 9,
        p(i),
        p(i + 100),
        p(i + 200)
    )
}

/// An index of 32 games: a two-game collection in a folder whose name holds `#` (game 0 has
/// Chinese and Korean names), and 30 games under long file names, half of them with Chinese
/// names.
struct Corpus {
    dir: Scratch,
    index: String,
}

impl Corpus {
    fn new(name: &str) -> Corpus {
        let dir = Scratch::new(name);
        let collection = format!(
            "{}\n{}\n",
            game(40, "李世石", "이세돌", "B+R"),
            game(41, "Lee Sedol", "AlphaGo", "W+R")
        );
        dir.write("games/dir#1/collection.sgf", collection.as_bytes());
        for i in 0..30 {
            let (b, w) = if i % 2 == 0 {
                ("柯洁", "Shin Jinseo")
            } else {
                ("Park Junghwan", "芈昱廷")
            };
            dir.write(
                &format!("games/a-file-name-longer-than-twenty-eight-characters-{i:02}.sgf"),
                game(i, b, w, if i % 3 == 0 { "W+2.5" } else { "B+R" }).as_bytes(),
            );
        }
        let index = dir.0.join("index");
        common::build(&index, &[&dir.0.join("games")]);
        let index = index.display().to_string();
        Corpus { dir, index }
    }

    fn search(&self, args: &[&str]) -> Output {
        let mut all = vec!["search", "--index", self.index.as_str()];
        all.extend_from_slice(args);
        qipu(&all)
    }

    fn games(&self) -> PathBuf {
        self.dir.0.join("games")
    }
}

/// The rows of the hit table (those that name a game).
fn hit_rows(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.contains(".sgf#")).collect()
}

/// The display column where `needle` starts in `line`.
fn column_of(line: &str, needle: &str) -> usize {
    let at = line
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in {line:?}"));
    line[..at].width()
}

#[test]
fn columns_line_up_with_chinese_and_korean_names() {
    let c = Corpus::new("ans-widths");
    let out = c.search(&["--query", "date:2016", "--limit", "40"]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    let out = text(&out);
    let rows = hit_rows(&out);
    assert_eq!(rows.len(), 32, "{out}");
    assert!(out.contains("李世石") && out.contains("이세돌") && out.contains("芈昱廷"));
    // Every date (the column after two name columns, some in CJK) starts at one display column,
    // and so does every white name.
    let dates: Vec<usize> = rows.iter().map(|r| column_of(r, "2016-01-")).collect();
    assert!(dates.iter().all(|&d| d == dates[0]), "{out}");
    let header = out.lines().find(|l| l.contains("black")).unwrap();
    assert_eq!(column_of(header, "date"), dates[0], "{out}");
    let whites: Vec<usize> = rows
        .iter()
        .map(|r| {
            ["이세돌", "AlphaGo", "Shin Jinseo", "芈昱廷"]
                .iter()
                .find(|w| r.contains(*w))
                .map(|w| column_of(r, w))
                .unwrap()
        })
        .collect();
    assert!(whites.iter().all(|&w| w == whites[0]), "{out}");

    // qipu info's table too.
    let out = qipu(&["info", c.games().to_str().unwrap()]);
    assert!(out.status.success());
    let out = text(&out);
    let rows = hit_rows(&out);
    assert_eq!(rows.len(), 32, "{out}");
    let dates: Vec<usize> = rows.iter().map(|r| column_of(r, "2016-01-")).collect();
    assert!(dates.iter().all(|&d| d == dates[0]), "{out}");
}

#[test]
fn nothing_is_cut_without_saying_so() {
    let c = Corpus::new("ans-cut");
    let out = text(&c.search(&["--query", "date:2016", "--limit", "3"]));
    assert_eq!(hit_rows(&out).len(), 3, "{out}");
    assert!(out.contains("… 29 more games (--limit N"), "{out}");
    // File names whole, as paths on disk.
    let long = c
        .games()
        .join("a-file-name-longer-than-twenty-eight-characters-00.sgf#0");
    let all = text(&c.search(&["--query", "date:2016", "--limit", "40"]));
    assert!(all.contains(long.to_str().unwrap()), "{all}");
    assert!(!all.contains("more games"), "{all}");

    // The empty board (a record of no moves, on standard input): 32 first moves, 26 lettered.
    let out = run(
        &[
            "search",
            "--index",
            &c.index,
            "--position",
            "-",
            "--no-symmetry",
        ],
        b"(;SZ[19])",
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    let out = text(&out);
    assert!(
        out.contains("… 6 more next moves, less frequent (--json lists them all)"),
        "{out}"
    );
    let json = run(
        &[
            "search",
            "--index",
            &c.index,
            "--position",
            "-",
            "--no-symmetry",
            "--json",
        ],
        b"(;SZ[19])",
        &[],
    );
    let continuations = text(&json)
        .lines()
        .filter(|l| l.contains("\"continuation\""))
        .count();
    assert_eq!(continuations, 32);
}

/// The identity of the one hit of `out`'s table.
fn only_identity(out: &str) -> String {
    let rows = hit_rows(out);
    assert_eq!(rows.len(), 1, "{out}");
    let row = rows[0].trim_start();
    // The path may hold spaces; the identity ends at `#GAME` followed by the column gap.
    let end = row.find(".sgf#").unwrap() + ".sgf#".len();
    let digits = row[end..].find(|c: char| !c.is_ascii_digit()).unwrap();
    row[..end + digits].to_string()
}

#[test]
fn a_printed_hit_is_taken_back_by_show_info_convert_and_position() {
    let c = Corpus::new("ans-identity");
    let out = c.search(&["--query", "white:AlphaGo"]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    let id = only_identity(&text(&out));
    let file = c.games().join("dir#1/collection.sgf");
    assert_eq!(
        id,
        format!("{}#1", file.display()),
        "a full path, and game 1 of its file"
    );

    // qipu info on the whole folder names each game by a path that is taken back as well.
    let listed = text(&qipu(&["info", c.games().to_str().unwrap()]));
    assert!(
        listed.lines().any(|l| l.starts_with(&format!("{id}  "))),
        "{listed}"
    );

    // info: that one game, the same players.
    let info = qipu(&["info", &id, "--json"]);
    assert!(info.status.success(), "{}", err(&info));
    let lines: Vec<serde_json::Value> = text(&info)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["game"], 1);
    assert_eq!(lines[0]["black"], "Lee Sedol");
    assert_eq!(lines[0]["white"], "AlphaGo");

    // show: that one game, named the same way.
    let show = qipu(&["show", &id]);
    assert!(show.status.success(), "{}", err(&show));
    let show = text(&show);
    assert!(
        show.starts_with(&format!("{id}: after move 3 of 3")),
        "{show}"
    );
    assert_eq!(show.matches("after move").count(), 1);

    // convert: that game only.
    let sgf = text(&qipu(&["convert", &id, "--to", "sgf"]));
    assert!(
        sgf.contains("PB[Lee Sedol]") && !sgf.contains("李世石"),
        "{sgf}"
    );

    // search --position: the game's final position finds the game itself.
    let again = c.search(&["--position", &id, "--json"]);
    assert_eq!(again.status.code(), Some(0), "{}", err(&again));
    let hits: Vec<serde_json::Value> = text(&again)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "hit")
        .collect();
    assert_eq!(hits.len(), 1, "{}", text(&again));
    assert_eq!(hits[0]["file"], "dir#1/collection.sgf");
    assert_eq!(hits[0]["game"], 1);
    assert_eq!(hits[0]["path"], file.display().to_string());

    // Game 0 is the other one; a game the file does not hold is said to be missing.
    let first = text(&qipu(&["info", &format!("{}#0", file.display()), "--json"]));
    assert!(first.contains("李世石"), "{first}");
    let none = qipu(&["show", &format!("{}#2", file.display())]);
    assert!(
        text(&none).contains("no game #2: the file holds 2 games"),
        "{}",
        text(&none)
    );
    let none = c.search(&["--position", &format!("{}#5", file.display())]);
    assert_eq!(none.status.code(), Some(2));
    assert!(err(&none).contains("no game #5"), "{}", err(&none));
}

#[test]
fn errors_name_what_the_user_wrote() {
    let c = Corpus::new("ans-errors");
    for (args, says, never) in [
        (
            &["--query", "rank:>=12p"][..],
            "1p to 9p",
            &["black_rank", "white_rank"][..],
        ),
        (&["--moves", "B[pd] X[qq]"][..], "move 2 \"X[qq]\"", &[][..]),
        (&["--moves", "B[pd] W[qf] B[zz]"][..], "move 3", &[][..]),
        (&["--black", "pd zz"][..], "point 2 \"zz\"", &[][..]),
        (
            &["--black", "pd", "--white", "dd, q"][..],
            "point 2",
            &[][..],
        ),
    ] {
        let out = c.search(args);
        let e = err(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
        assert!(e.contains(says), "{args:?}: {e}");
        for n in never {
            assert!(!e.contains(n), "{args:?}: {e}");
        }
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
    }
    let out = run(
        &["search", "--index", &c.index, "--pattern", "-"],
        b"...\n.Z.\n",
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(err(&out).contains("line 2, column 2"), "{}", err(&out));
    // A field it does not know lists the ones it does, in the user's names.
    let out = c.search(&["--query", "colour:black"]);
    assert!(err(&out).contains("unknown field"), "{}", err(&out));
    assert!(!err(&out).contains("date_start"), "{}", err(&out));
    assert!(
        err(&out).contains("rank, black_rank, white_rank"),
        "{}",
        err(&out)
    );
}

#[test]
fn moves_that_cannot_be_played_as_written_are_said_by_info_and_show() {
    let record = "(;GM[1]SZ[19];B[pd];W[zz];B[dd];W[8])";
    let info = run(&["info", "-", "--json"], record.as_bytes(), &[]);
    let row: serde_json::Value = serde_json::from_str(text(&info).trim()).unwrap();
    let diags: Vec<&str> = row["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(
        diags,
        [
            "move 2 W[zz]: off the board: nothing placed",
            "move 4 W[8]: malformed point, played as a pass"
        ]
    );
    let show = run(&["show", "-"], record.as_bytes(), &[]);
    assert!(
        text(&show).contains("move 2 W[zz]: off the board: nothing placed"),
        "{}",
        text(&show)
    );
}

#[test]
fn a_dash_reads_standard_input() {
    let c = Corpus::new("ans-stdin");
    let record = game(41, "Lee Sedol", "AlphaGo", "W+R");
    let show = run(&["show", "-"], record.as_bytes(), &[]);
    assert!(show.status.success(), "{}", err(&show));
    assert!(
        text(&show).starts_with("-#0: after move 3 of 3"),
        "{}",
        text(&show)
    );
    let info = run(&["info", "-", "--json"], record.as_bytes(), &[]);
    assert!(
        text(&info).contains("\"black\":\"Lee Sedol\""),
        "{}",
        text(&info)
    );
    let sgf = run(&["convert", "-"], record.as_bytes(), &[]);
    assert!(text(&sgf).contains("PW[AlphaGo]"), "{}", text(&sgf));
    let found = run(
        &["search", "--index", &c.index, "--position", "-", "--json"],
        record.as_bytes(),
        &[],
    );
    assert_eq!(found.status.code(), Some(0), "{}", err(&found));
    assert!(text(&found).contains("\"game\":1"), "{}", text(&found));
    // A pattern from standard input, drawn in the answer.
    let found = run(
        &[
            "search",
            "--index",
            &c.index,
            "--pattern",
            "-",
            "--anywhere",
        ],
        b"X\n",
        &[],
    );
    assert_eq!(found.status.code(), Some(0), "{}", err(&found));
    assert!(text(&found).contains("  1 X  1"), "{}", text(&found));
}

#[test]
fn a_pattern_answer_draws_its_pattern_where_it_lies() {
    let c = Corpus::new("ans-pattern");
    let diagram = c.dir.write("corner.txt", b"X..\n...\n");
    let out = c.search(&["--pattern", diagram.to_str().unwrap(), "--place", "1,1"]);
    let out = text(&out);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("    A B C D"), "{out}");
    // Row 18 (the second), from column B: the pattern's first row.
    assert!(lines[3].starts_with(" 18   X . ."), "{out}");
    assert!(lines[4].starts_with(" 17   . . ."), "{out}");
}

#[test]
fn a_pattern_answer_letters_what_was_played_next() {
    let c = Corpus::new("ans-pattern-next");
    // A black stone on D19 and the sixth line empty, whatever is between (the corpus's game 3
    // opens there, and White answers on the sixth line, J14): the region is the six top
    // rows, where White's move is the continuation.
    let mut rows = vec!["?".repeat(19); 6];
    rows[0] = "???X???????????????".into();
    rows[5] = ".".repeat(19);
    let diagram = c
        .dir
        .write("first-line.txt", (rows.join("\n") + "\n").as_bytes());
    let out = c.search(&["--pattern", diagram.to_str().unwrap()]);
    let out = text(&out);
    let lines: Vec<&str> = out.lines().collect();
    assert!(out.contains("count  direct  tenuki"), "{out}");
    // The commonest next move is lettered A on the board (the region's six rows and two more
    // are drawn, lines 2 to 9), as for positions.
    assert_eq!(lines[9].trim_start().split(' ').next(), Some("12"), "{out}");
    assert!(
        lines[7].starts_with(" 14 ") && lines[7][4..].contains('A'),
        "{out}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("  A     W J14")),
        "{out}"
    );
}

#[test]
fn colour_on_demand_never_on_a_pipe() {
    let c = Corpus::new("ans-colour");
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "search",
            "--index",
            c.index.as_str(),
            "--query",
            "date:2016",
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let go = |extra: &[&'static str], env: &[(&str, &str)]| {
        let a = args(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run(&a, b"", env)
    };
    let ansi = |o: &Output| o.stdout.contains(&0x1b);
    assert!(!ansi(&go(&[], &[])), "piped: no colour");
    assert!(ansi(&go(&["--color", "always"], &[])));
    assert!(!ansi(&go(
        &["--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
    // auto: forced on, but NO_COLOR (not empty) wins; an empty NO_COLOR does not count.
    assert!(ansi(&go(&[], &[("CLICOLOR_FORCE", "1")])));
    assert!(!ansi(&go(
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    assert!(ansi(&go(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")])));
    // The words are the same with colour or without.
    let plain = text(&go(&["--color", "never"], &[]));
    let coloured = text(&go(&["--color", "always"], &[]));
    let stripped = strip_ansi(&coloured);
    let cut = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(cut(&stripped), cut(&plain));
    // A diagram's stones are coloured too.
    let shown = text(&qipu(&[
        "show",
        "--color",
        "always",
        c.games().join("dir#1/collection.sgf").to_str().unwrap(),
    ]));
    assert!(shown.contains("\u{1b}["), "{shown}");
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn standard_error_stays_clean_on_a_pipe() {
    let c = Corpus::new("ans-quiet");
    for args in [
        &["--query", "date:2016"][..],
        &["--black", "aa"][..],
        &["--moves", "B[aa]", "--any-order"][..],
    ] {
        let out = c.search(args);
        assert!(out.status.code().is_some_and(|c| c < 2), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {}", err(&out));
    }
}

/// The subcommands, as `qipu --help` lists them.
const COMMANDS: [&str; 12] = [
    "index", "search", "serve", "stats", "verify", "export", "info", "show", "convert", "derive",
    "analyse", "player",
];

/// The long options a `--help` text lists (`--name`), `--help` and `--version` left out.
fn options_of(help: &str) -> Vec<String> {
    let mut out: Vec<String> = help
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-q, ").unwrap_or(l);
            let l = l.strip_prefix("-h, ").unwrap_or(l);
            let l = l.strip_prefix("-V, ").unwrap_or(l);
            let name = l.strip_prefix("--")?;
            let end = name
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(name.len());
            Some(format!("--{}", &name[..end]))
        })
        .filter(|o| o != "--help" && o != "--version")
        .collect();
    out.dedup();
    out
}

/// The guide's section on `qipu CMD`: from its heading `## \`qipu CMD\`` to the next heading.
fn guide_section<'a>(guide: &'a str, cmd: &str) -> &'a str {
    let heading = format!("## `qipu {cmd}`");
    let start = guide
        .find(&format!("{heading}\n"))
        .unwrap_or_else(|| panic!("docs/commands.md has no section {heading}"));
    let body = &guide[start + heading.len()..];
    &body[..body.find("\n## ").unwrap_or(body.len())]
}

/// The guide's option reference, `docs/options.md`, is the help texts themselves (`qipu
/// help-markdown`): a help text changed without the page, or the page edited by hand, fails
/// here. `QIPU_BLESS=1` writes the page anew from the help.
#[test]
fn the_guides_option_reference_is_the_help_text() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/options.md");
    let generated = text(&qipu(&["help-markdown"]));
    if std::env::var_os("QIPU_BLESS").is_some() {
        std::fs::write(&page, &generated).unwrap();
    }
    let written = std::fs::read_to_string(&page).unwrap_or_default();
    if written != generated {
        let at = written
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(written.lines().count().min(generated.lines().count()));
        panic!(
            "docs/options.md is not `qipu help-markdown` (first difference at line {}: {:?} \
             against {:?}); run the test with QIPU_BLESS=1 to write it",
            at + 1,
            written.lines().nth(at),
            generated.lines().nth(at)
        );
    }
    // Every command's options are there, each once in its section.
    for cmd in COMMANDS {
        let section = guide_section(&generated, cmd);
        for option in options_of(&text(&qipu(&[cmd, "--help"]))) {
            if option == "--color" {
                continue; // one row for every command
            }
            assert_eq!(
                section.matches(&format!("`{option}")).count()
                    + section.matches(&format!(", {option}")).count(),
                1,
                "qipu {cmd} {option} in docs/options.md"
            );
        }
    }
}

#[test]
fn every_subcommand_has_examples_and_the_guide_says_every_option() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let guide = std::fs::read_to_string(root.join("docs/commands.md")).unwrap();
    let mut all_options = Vec::new();
    for cmd in COMMANDS {
        let help = text(&qipu(&[cmd, "--help"]));
        assert!(
            help.contains(&format!("Examples:\n  qipu {cmd}")),
            "{cmd}: {help}"
        );
        // The guide's section on the command names each of its options.
        let section = guide_section(&guide, cmd);
        for option in options_of(&help) {
            let global = option == "--color";
            assert!(
                section.contains(&option) || (global && guide.contains("`--color")),
                "docs/commands.md's qipu {cmd} section does not mention {option}"
            );
            all_options.push(option);
        }
    }
    // And the other way round: every option the guide's commands page names exists.
    for line in guide.lines() {
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if let Some(name) = word.strip_prefix("--").filter(|n| !n.is_empty()) {
                let option = format!("--{name}");
                assert!(
                    all_options.contains(&option) || option == "--help" || option == "--version",
                    "docs/commands.md names {option}, which no --help lists: {line}"
                );
            }
        }
    }
    // Every field of the query language is in the README's list.
    let list = readme
        .split("Metadata fields:")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .expect("README lists the metadata fields");
    let listed: Vec<&str> = list
        .split(|c: char| c.is_whitespace() || c == '`')
        .filter(|w| !w.is_empty())
        .collect();
    for field in meta::field_names() {
        assert!(
            listed.contains(&field),
            "README does not list the field {field}"
        );
    }
    for field in &listed {
        assert!(
            meta::field_names().any(|f| f == *field),
            "README lists {field}, which is no field"
        );
    }
}

/// A tar archive of `files` (name, content), written by hand: ustar headers, 512-byte blocks.
fn tar(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, data) in files {
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name.as_bytes());
        let octal = |h: &mut [u8; 512], at: usize, len: usize, v: u64| {
            let s = format!("{v:0w$o}\0", w = len - 1);
            h[at..at + len].copy_from_slice(s.as_bytes());
        };
        octal(&mut h, 100, 8, 0o644);
        octal(&mut h, 108, 8, 0);
        octal(&mut h, 116, 8, 0);
        octal(&mut h, 124, 12, data.len() as u64);
        octal(&mut h, 136, 12, 0);
        h[156] = b'0';
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
        let s = format!("{sum:06o}\0 ");
        h[148..156].copy_from_slice(s.as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    out
}

#[test]
fn a_hit_inside_an_archive_is_named_by_the_archive_and_taken_back() {
    let dir = Scratch::new("ans-archive");
    let collection = format!(
        "{}\n{}\n",
        game(7, "Cho Chikun", "Kobayashi Koichi", "B+R"),
        game(8, "Otake Hideo", "Kato Masao", "W+R")
    );
    let archive = dir.write(
        "kept/games.tar",
        &tar(&[
            (
                "2002/a.sgf",
                game(5, "Go Seigen", "Kitani Minoru", "B+R").as_bytes(),
            ),
            ("2002/b.sgf", collection.as_bytes()),
        ]),
    );
    let index = dir.0.join("index").display().to_string();
    let out = qipu(&[
        "index",
        "--quiet",
        "--index",
        &index,
        dir.0.join("kept").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", err(&out));
    let out = qipu(&["search", "--index", &index, "--query", "black:Otake"]);
    assert_eq!(out.status.code(), Some(0), "{}", err(&out));
    let id = only_identity(&text(&out));
    assert_eq!(id, format!("{}/2002/b.sgf#1", archive.display()));
    let info = text(&qipu(&["info", &id, "--json"]));
    assert_eq!(info.lines().count(), 1, "{info}");
    assert!(info.contains("\"black\":\"Otake Hideo\""), "{info}");
    let shown = qipu(&["show", &id]);
    assert!(shown.status.success(), "{}", err(&shown));
    assert!(
        text(&shown).starts_with(&format!("{id}: after move 3")),
        "{}",
        text(&shown)
    );
    let sgf = text(&qipu(&["convert", &id]));
    assert!(
        sgf.contains("PB[Otake Hideo]") && !sgf.contains("Cho Chikun"),
        "{sgf}"
    );
    let again = qipu(&["search", "--index", &index, "--position", &id, "--json"]);
    assert_eq!(again.status.code(), Some(0), "{}", err(&again));
    assert!(
        text(&again).contains("\"file\":\"games.tar/2002/b.sgf\",\"game\":1"),
        "{}",
        text(&again)
    );
    // A member the archive does not hold is said so.
    let missing = qipu(&["info", &format!("{}/2002/c.sgf#0", archive.display())]);
    assert!(
        text(&missing).contains("no record file \"2002/c.sgf\""),
        "{}",
        text(&missing)
    );
    assert_eq!(missing.status.code(), Some(2));
}
