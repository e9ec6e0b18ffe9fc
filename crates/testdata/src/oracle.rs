//! The oracle's rows as the tests compare them, read once here for the library's, the command
//! line's and the server's oracle tests: the games it replayed, a probe's hits, and its
//! continuation tables. An answer printed as JSON (the CLI's lines, the server's pages) has the
//! same fields and is read by the same functions.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

/// Hits by game (the record file's name, the game's number in it), each with its positions.
pub type Hits = BTreeMap<(String, u64), Vec<u64>>;

/// A continuation table: colour, point, count, tenuki (how many of the count came after moves
/// elsewhere), Black's wins, White's wins.
pub type Table = BTreeSet<(String, String, u64, u64, u64, u64)>;

/// Whether a table's rows say their tenuki.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tenuki {
    /// Every row must carry it: the oracle's pattern rows, and every row qipu prints.
    Given,
    /// The oracle's position rows, whose moves came next (never after tenuki): read as 0.
    None,
}

/// The games the oracle replayed (`universe.jsonl` of its folder `oracle`): excluded games
/// and files it could not read neither hit nor count.
pub fn universe(oracle: &Path) -> BTreeSet<(String, u64)> {
    crate::lines(&oracle.join("universe.jsonl"))
        .iter()
        .map(|v| {
            (
                v["file"].as_str().unwrap().to_string(),
                v["game"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Hit rows (`file`, `game`, `moves`), as a probe's `hits` or an answer's hits list them.
pub fn hits<'a>(rows: impl IntoIterator<Item = &'a Value>) -> Hits {
    rows.into_iter()
        .map(|h| {
            let moves = h["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_u64().unwrap())
                .collect();
            (
                (
                    h["file"].as_str().unwrap().to_string(),
                    h["game"].as_u64().unwrap(),
                ),
                moves,
            )
        })
        .collect()
}

/// Continuation rows (`color`, `point`, `count`, `tenuki`, `black_wins`, `white_wins`) as a
/// table; panics on a row without a field it needs, naming it.
pub fn table<'a>(rows: impl IntoIterator<Item = &'a Value>, tenuki: Tenuki) -> Table {
    rows.into_iter()
        .map(|c| {
            let tenuki = match tenuki {
                Tenuki::Given => c["tenuki"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("every row says its tenuki: {c}")),
                Tenuki::None => 0,
            };
            (
                c["color"].as_str().unwrap().to_string(),
                c["point"].as_str().unwrap().to_string(),
                c["count"].as_u64().unwrap(),
                tenuki,
                c["black_wins"].as_u64().unwrap(),
                c["white_wins"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A probe's continuation table (its `continuations`, which every probe carries).
pub fn probe_table(probe: &Value, tenuki: Tenuki) -> Table {
    table(
        probe["continuations"]
            .as_array()
            .expect("every probe carries its continuation table"),
        tenuki,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_read_as_the_tests_compare_them() {
        let rows = json!([
            {"color": "B", "point": "pd", "count": 3, "tenuki": 1, "black_wins": 2, "white_wins": 1},
            {"color": "W", "point": "", "count": 1, "black_wins": 0, "white_wins": 1},
        ]);
        let rows = rows.as_array().unwrap();
        let t = table(rows, Tenuki::None);
        assert!(t.contains(&("B".into(), "pd".into(), 3, 0, 2, 1)));
        assert!(t.contains(&("W".into(), "".into(), 1, 0, 0, 1)));
        let given = std::panic::catch_unwind(|| table(rows, Tenuki::Given));
        assert!(given.is_err(), "a row without its tenuki is refused");
        assert_eq!(
            table(&rows[..1], Tenuki::Given).first().unwrap().3,
            1,
            "a given tenuki is kept"
        );
        let h = hits(&[json!({"file": "a.sgf", "game": 0, "moves": [4, 9]})]);
        assert_eq!(h[&("a.sgf".to_string(), 0)], vec![4, 9]);
    }
}
