//! The command line's conventions, as grep, ripgrep and git users expect them: exit code 0 when
//! a search found something, 1 when it found nothing, 2 for an error; `QIPU_INDEX` naming the
//! default index; options out of range refused with one line.

mod common;

use std::process::Output;

use common::{run, sample_games as samples, samples_index, Scratch};

/// Runs qipu with `args` and `env` added to the harness's environment.
fn qipu(args: &[&str], env: &[(&str, &str)]) -> Output {
    run(args, b"", env)
}

#[test]
fn exit_codes_say_found_not_found_and_error() {
    let i = samples_index().to_str().unwrap();
    let found = qipu(&["search", "--index", i, "--query", "black:AlphaGo"], &[]);
    assert_eq!(found.status.code(), Some(0));
    let none = qipu(&["search", "--index", i, "--query", "black:Nobody"], &[]);
    assert_eq!(
        none.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&none.stdout)
    );
    assert!(none.stderr.is_empty());
    let json = qipu(
        &["search", "--index", i, "--json", "--query", "black:Nobody"],
        &[],
    );
    assert_eq!(json.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&json.stdout).contains("\"games\":0"));
    let bad = qipu(&["search", "--index", i, "--query", "(((("], &[]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn qipu_index_names_the_default_index() {
    let tmp = Scratch::new("conv-env");
    let index = tmp.0.join("index");
    let s = samples();
    let env = [("QIPU_INDEX", index.to_str().unwrap())];
    let out = qipu(&["index", "--quiet", s.to_str().unwrap()], &env);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(index.join("qipu-index.json").is_file());
    let found = qipu(&["search", "--query", "black:AlphaGo"], &env);
    assert_eq!(found.status.code(), Some(0));
    assert!(qipu(&["stats"], &env).status.success());
    assert!(qipu(&["verify"], &env).status.success());
    // --index still wins over the variable.
    let other = tmp.0.join("none");
    let out = qipu(
        &["search", "--index", other.to_str().unwrap(), "--query", "x"],
        &env,
    );
    assert_eq!(out.status.code(), Some(2));
    // Without either, clap says what is missing.
    let out = qipu(&["stats"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--index"));
}

#[test]
fn zero_games_per_segment_is_refused() {
    let tmp = Scratch::new("conv-seg0");
    let index = tmp.0.join("index");
    let s = samples();
    let out = qipu(
        &[
            "index",
            "--segment-games",
            "0",
            "--index",
            index.to_str().unwrap(),
            s.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--segment-games"));
    assert!(!index.exists(), "nothing is created");
}

#[test]
fn an_option_without_its_main_option_is_refused_not_ignored() {
    let i = samples_index().to_str().unwrap();
    for (args, needs) in [
        (
            &["--query", "black:AlphaGo", "--at", "10"][..],
            "--position",
        ),
        (&["--query", "black:AlphaGo", "--any-order"][..], "--moves"),
        (&["--query", "black:AlphaGo", "--any-gap"][..], "--moves"),
        (
            &["--query", "black:AlphaGo", "--place", "3,3"][..],
            "--pattern",
        ),
        (&["--black", "pd", "--anywhere"][..], "--pattern"),
        // Options that conflict with the main option excuse it in clap: refused all the same.
        (&["--black", "pd", "--at", "3"][..], "--position"),
        (&["--black", "pd", "--any-order"][..], "--moves"),
        // Side to move is a position's; symmetry and colours, a board query's.
        (
            &["--query", "black:AlphaGo", "--to-move", "B"][..],
            "--position",
        ),
        (&["--moves", "B[pd]", "--to-move", "W"][..], "--black"),
        (
            &["--query", "black:AlphaGo", "--no-symmetry"][..],
            "--pattern",
        ),
        (
            &["--query", "black:AlphaGo", "--swap-colors"][..],
            "--moves",
        ),
    ] {
        let mut all = vec!["search", "--index", i];
        all.extend_from_slice(args);
        let out = qipu(&all, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needs), "{args:?}: {err}");
    }
    for args in [
        &["--black", "pd", "--to-move", "W"][..],
        &["--moves", "B[pd]", "--no-symmetry", "--swap-colors"][..],
        &["--moves", "B[pd] W[dd]", "--any-gap", "--any-order"][..],
    ] {
        let mut all = vec!["search", "--index", i];
        all.extend_from_slice(args);
        let out = qipu(&all, &[]);
        assert!(
            out.status.code().unwrap() < 2,
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
