//! The alias file given to a build is the caller's input: a bad one is refused as such
//! ([`ErrorKind::BadInput`], not a damaged index), with its line, before anything is written.

use qipu::{build, BuildOptions, ErrorKind};
use testdata::Scratch;

#[test]
fn a_bad_alias_file_is_the_callers_input_and_nothing_is_written() {
    let scratch = Scratch::new("alias-file-bad");
    let games = scratch.0.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(
        games.join("g.sgf"),
        "(;GM[1]FF[4]SZ[19]PB[Lee]PW[Cho];B[pd];W[dp])",
    )
    .unwrap();
    let list = scratch.0.join("aliases.tsv");
    // A player of one name is no alias.
    std::fs::write(&list, "Lee Sedol\n").unwrap();
    for aliases in [list, scratch.0.join("missing.tsv")] {
        let options = BuildOptions {
            aliases: Some(aliases.clone()),
            ..BuildOptions::default()
        };
        let index = scratch.0.join("index");
        let refused = build(&index, std::slice::from_ref(&games), &options, |_| {}).unwrap_err();
        assert_eq!(refused.kind(), ErrorKind::BadInput, "{refused}");
        assert!(refused.is_user_error());
        let said = refused.to_string();
        assert!(said.starts_with("aliases: "), "{said}");
        assert!(said.contains(&aliases.display().to_string()), "{said}");
        assert!(!index.exists(), "{said}");
    }
}
