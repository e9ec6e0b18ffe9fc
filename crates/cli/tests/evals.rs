//! Engine evaluations through `qipu info --json` and `qipu show`: per evaluated position, from
//! Black's side, with the program and engine; a value that cannot be read is a diagnostic.

mod common;

use std::path::PathBuf;

use common::{qipu, run, stdout as text};
use serde_json::{json, Value};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../sgf/tests/evals")
        .join(name)
}

fn one(out: &std::process::Output) -> Value {
    serde_json::from_str(text(out).trim()).unwrap()
}

/// Rounds the floats of a JSON value to 4 decimals, so that f32s compare with literals.
fn rounded(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => json!((n.as_f64().unwrap() * 1e4).round() / 1e4),
        Value::Array(a) => Value::Array(a.iter().map(rounded).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), rounded(v))).collect()),
        v => v.clone(),
    }
}

#[test]
fn info_and_show_give_the_evaluations_per_move_from_blacks_side() {
    let path = fixture("lizzieyzy.sgf");
    let path = path.to_str().unwrap();
    let info = one(&qipu(&["info", path, "--json"]));
    assert_eq!(
        rounded(&info["evaluations"]),
        json!({
            "program": "lizzieyzy",
            "engine": "KataGo-b18",
            "positions": [
                {"move": 0, "win": 0.534, "lead": 0.6, "visits": 2300},
                {"move": 1, "win": 0.466, "lead": -0.5, "visits": 2100},
                {"move": 2, "win": 0.235, "lead": -6.2, "visits": 12000},
                {"move": 4, "win": 0.42, "lead": -2.4, "visits": 1200000},
            ]
        })
    );
    let show = one(&qipu(&["show", path, "--at", "2", "--json"]));
    assert_eq!(
        rounded(&show["evaluation"]),
        json!({"move": 2, "win": 0.235, "lead": -6.2, "visits": 12000})
    );
    assert_eq!(show["evaluations"], info["evaluations"]);
    // Printed as the record wrote them, not as the nearest f32's expansion.
    assert_eq!(info["evaluations"]["positions"][2]["win"], json!(0.235));
    // Move 3 was not analysed.
    let show = one(&qipu(&["show", path, "--at", "3", "--json"]));
    assert_eq!(show["evaluation"], Value::Null);
    let shown = text(&qipu(&["show", path, "--at", "2"]));
    assert!(
        shown.contains("White 76.5%, White +6.2, 12000 visits (KataGo-b18, lizzieyzy)"),
        "{shown}"
    );
    // A game without evaluations says null.
    let plain = run(&["info", "-", "--json"], b"(;GM[1]SZ[19];B[pd])", &[]);
    assert_eq!(one(&plain)["evaluations"], Value::Null);
}

#[test]
fn an_evaluation_that_cannot_be_read_is_a_diagnostic() {
    let record = "(;GM[1]SZ[19];B[pd]SBKV[55.5];W[dd]SBKV[abc])";
    let info = one(&run(&["info", "-", "--json"], record.as_bytes(), &[]));
    assert_eq!(
        info["evaluations"]["positions"].as_array().unwrap().len(),
        1
    );
    let at = record.find("abc").unwrap();
    assert_eq!(
        info["diagnostics"],
        json!([format!(
            "byte {at}: SBKV: \"abc\" is not a number; that evaluation is skipped"
        )])
    );
}
