//! A damaged segment file under a running server: the answer that read it is a 500 whose JSON
//! names the file, not a 200 with the names it could not read. In a binary of its own: the
//! index is damaged under the server.

mod common;

use std::path::Path;

use common::{build, get, start};
use serve::Config;

#[test]
fn a_damaged_segment_file_is_a_json_error_naming_it() {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-damage-{}", std::process::id()));
    build(
        &dir,
        &[Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/games")],
    );
    let server = start(&dir, Config::default());
    let ask = || {
        get(
            &server.base,
            "/api/games",
            &[("query", "winner:B")],
            "application/json",
        )
    };
    let sound = ask();
    assert_eq!(sound.status, 200, "{}", sound.body);
    assert!(sound.body.contains(".sgf"), "{}", sound.body);
    // A byte of a record file's name, in the segment's list of them, which the server has not
    // read yet (it reads it for the first hits it names).
    let files = dir.join("seg-000001").join("files.jsonl");
    let mut bytes = std::fs::read(&files).unwrap();
    let at = bytes.iter().position(|&b| b == b'.').unwrap();
    bytes[at] = b'"';
    std::fs::write(&files, &bytes).unwrap();
    // The server opened the index before: it reads the list afresh.
    let server = start(&dir, Config::default());
    let r = get(
        &server.base,
        "/api/games",
        &[("query", "winner:B")],
        "application/json",
    );
    assert_eq!(r.status, 500, "{}", r.body);
    let v = r.json();
    let error = v["error"].as_str().unwrap_or_default();
    assert!(error.contains("files.jsonl"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}
