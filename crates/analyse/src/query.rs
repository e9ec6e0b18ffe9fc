//! One game's question to KataGo (its main line as a JSON query of the analysis engine), and
//! where in the record each analysed position's properties go.

use serde_json::json;
use sgf::{ids, value, Color, GameInfo, GameTree, Point};

/// The properties this crate writes, then the evaluation properties of other programs
/// (KaTrain's, lizzieyzy's second engine's) that a reader could take in place of the new
/// analysis: all of these names on the main line are replaced or removed.
pub const WRITTEN: [&[u8]; 8] = [
    b"SBKV", b"SBKS", b"LZ", b"LZOP", b"KT", b"KTV", b"LZ2", b"LZOP2",
];

/// A game ready to be sent: the query without its id, and the plan of its record.
#[derive(Debug)]
pub struct GameQuery {
    /// The query as compact JSON, without its `id` (text rather than a JSON tree: a collection's
    /// games are all held while it is analysed, and text is a tenth of the tree's size).
    pub query: String,
    /// A hash of the query, so that a resumed run knows the answers it finds are for this game
    /// as it now reads (same moves, rules, komi and visits).
    pub fingerprint: u64,
    /// Positions asked: the main line's moves plus one.
    pub turns: usize,
    /// The record had no usable `RU` and was analysed under [`FALLBACK_RULES`].
    pub rules_fallback: bool,
    /// The record had no usable `KM` and was analysed with a komi chosen by [`fallback_komi`].
    pub komi_fallback: bool,
    /// Edits of the record's bytes (offsets into the text the tree was read from).
    pub plan: Plan,
}

/// Where the evaluations go in the record's text.
#[derive(Debug, Default)]
pub struct Plan {
    /// Byte ranges of old evaluation properties to drop (sorted).
    pub remove: Vec<(usize, usize)>,
    /// Per main-line node that shows a position: the offset to insert at, the turn it shows,
    /// and whether it is the root (sorted by offset).
    pub insert: Vec<(usize, usize, bool)>,
}

/// Rules when the record names none KataGo knows: Japanese, the rules of most professional
/// records (Japan's and Korea's territory scoring; KataGo scores Korean rules the same way).
pub const FALLBACK_RULES: &str = "japanese";

/// Komi when the record gives none (or an absurd one): 0.5 in a handicap game, else 7.5 under
/// area-scoring rules and 6.5 under territory scoring, the usual values of each.
pub fn fallback_komi(rules: &str, handicap: u8) -> f64 {
    if handicap >= 2 {
        0.5
    } else if matches!(rules, "chinese" | "aga" | "new-zealand" | "tromp-taylor") {
        7.5
    } else {
        6.5
    }
}

/// KataGo's name for the rules an `RU` value names, if it names any.
pub fn katago_rules(ru: &str) -> Option<&'static str> {
    let r = ru.trim().to_ascii_lowercase();
    let has = |w: &str| r.contains(w);
    Some(if has("japan") || r == "jp" || r == "ja" {
        "japanese"
    } else if has("chin") || r == "cn" || has("ing") || has("goe") {
        // Ing's rules score by area like China's, which is as near as KataGo gets.
        "chinese"
    } else if has("korea") || r == "ko" || r == "kr" {
        "korean"
    } else if has("aga") {
        "aga"
    } else if has("zealand") || r == "nz" {
        "new-zealand"
    } else if has("tromp") || r == "tt" {
        "tromp-taylor"
    } else {
        return None;
    })
}

/// Why a game cannot be asked.
#[derive(Debug, thiserror::Error)]
pub enum Unaskable {
    #[error("move {0}: not a point of the board")]
    BadMove(usize),
    #[error("setup stones (AB/AW/AE) after the start of the main line, at move {0}: KataGo's query takes setup only before the first move")]
    LateSetup(usize),
    #[error("a {0}×{1} board: KataGo's coordinates name at most 25 columns")]
    TooWide(u8, u8),
    #[error("a node of two moves after move {0}: asked one move a node, as the index replays it")]
    TwoMoves(usize),
}

/// KataGo's name of a point (`Q16`, columns without `I`, rows from the bottom).
fn name(p: Point, height: u8) -> Option<String> {
    const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let c = *COLUMNS.get(p.x as usize)?;
    Some(format!("{}{}", c as char, height.checked_sub(p.y)?))
}

fn letter(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// The query for `tree`'s main line at `visits` visits a position, and its plan; `text` is
/// the bytes the tree was read from (its offsets are theirs).
pub fn build(tree: &GameTree<'_>, text: &[u8], visits: u32) -> Result<GameQuery, Unaskable> {
    let (w, h) = tree.board_size();
    if w > 25 {
        return Err(Unaskable::TooWide(w, h));
    }
    let info = GameInfo::read(tree);
    let ru = info.rules.as_deref().and_then(katago_rules);
    let rules = ru.unwrap_or(FALLBACK_RULES);
    let handicap = info.handicap.as_ref().and_then(|f| f.value).unwrap_or(0);
    let km = info
        .komi
        .as_ref()
        .and_then(|f| f.value)
        .filter(|k| k.is_finite() && k.abs() <= 150.0);
    // KataGo takes integer or half-integer komi.
    let komi = km.map_or_else(
        || fallback_komi(rules, handicap),
        |k| (k * 2.0).round() / 2.0,
    );

    let mut stones = std::collections::BTreeMap::new();
    let mut moves = Vec::new();
    let mut plan = Plan::default();
    let mut first_color = None;
    for (i, node) in tree.main_line().enumerate() {
        let root = i == 0;
        let mut moved = false;
        let mut setup = false;
        let mut last_end = node.offset() + 1;
        for p in node.props() {
            let end = p
                .raw_values()
                .last()
                .map_or(p.offset() + p.raw_name().len(), |(raw, at)| {
                    at + raw.len() + 1
                })
                .min(text.len());
            last_end = last_end.max(end);
            if WRITTEN.contains(&p.raw_name()) {
                plan.remove.push((p.offset(), end));
            }
            let id = p.id();
            if id == ids::AB || id == ids::AW || id == ids::AE {
                setup = true;
            }
            let color = match id {
                ids::B => Color::Black,
                ids::W => Color::White,
                _ => continue,
            };
            // The index plays a node of two moves Black first, whatever their order: such a
            // node is not asked, rather than asked in an order the index does not replay.
            if moved {
                return Err(Unaskable::TwoMoves(moves.len()));
            }
            let m = Point::parse_move(p.raw(), w, h)
                .map_err(|_| Unaskable::BadMove(moves.len() + 1))?;
            let named = match m {
                None => "pass".to_string(),
                Some(pt) => name(pt, h).ok_or(Unaskable::BadMove(moves.len() + 1))?,
            };
            first_color.get_or_insert(color);
            moves.push(json!([letter(color), named]));
            moved = true;
        }
        if setup {
            if !moves.is_empty() {
                return Err(Unaskable::LateSetup(moves.len()));
            }
            let mut pts = Vec::new();
            for (color, raw) in node.setup_values() {
                pts.clear();
                value::point_list(raw, &mut pts);
                for &pt in &pts {
                    match color {
                        Some(c) => stones.insert(pt, c),
                        None => stones.remove(&pt),
                    };
                }
            }
        }
        if root || moved {
            // A node shows the position after its moves (a root holding a move has no node for
            // the position before it). The properties go after the node's last one, unless that
            // one's value is not closed (a record cut short), then right after the `;`.
            let closed =
                last_end == node.offset() + 1 || text.get(last_end.wrapping_sub(1)) == Some(&b']');
            let at = if closed { last_end } else { node.offset() + 1 };
            plan.insert.push((at, moves.len(), root && !moved));
        }
    }
    let mut initial = Vec::new();
    for (pt, c) in &stones {
        initial.push(json!([
            letter(*c),
            name(*pt, h).ok_or(Unaskable::TooWide(w, h))?
        ]));
    }
    let player = first_color.unwrap_or_else(|| {
        match tree.root().get(ids::PL).and_then(|p| value::color(p.raw())) {
            Some(c) => c,
            None if stones.values().all(|c| *c == Color::Black) && !stones.is_empty() => {
                Color::White
            }
            None => Color::Black,
        }
    });
    let turns = moves.len() + 1;
    let query = json!({
        "moves": moves,
        "initialStones": initial,
        "initialPlayer": letter(player),
        "rules": rules,
        "komi": komi,
        "boardXSize": w,
        "boardYSize": h,
        "analyzeTurns": (0..turns).collect::<Vec<_>>(),
        "maxVisits": visits,
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"},
    });
    let query = query.to_string();
    let fingerprint = xxhash_rust::xxh3::xxh3_64(query.as_bytes());
    plan.remove.sort_unstable();
    plan.insert.sort_unstable();
    Ok(GameQuery {
        query,
        fingerprint,
        turns,
        rules_fallback: ru.is_none(),
        komi_fallback: km.is_none(),
        plan,
    })
}

/// The query text with `id` as its first field.
pub fn with_id(query: &str, id: &str) -> String {
    format!("{{\"id\":{},{}", serde_json::Value::from(id), &query[1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(text: &[u8]) -> Result<GameQuery, Unaskable> {
        let records = sgf::Records::read(text);
        let tree = records.game(0).unwrap();
        build(&tree, text, 4)
    }

    #[test]
    fn a_node_of_two_moves_is_not_asked() {
        // Either order: the index replays Black's first, the record may say White's first.
        for text in [
            &b"(;GM[1]SZ[9];B[ee];W[aa]B[bb];B[cc])"[..],
            b"(;GM[1]SZ[9];B[ee];B[aa]W[bb])",
            b"(;GM[1]SZ[9];B[aa]B[bb])",
        ] {
            assert!(
                matches!(asked(text), Err(Unaskable::TwoMoves(_))),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        let one = asked(b"(;GM[1]SZ[9];B[ee];W[aa];B[bb])").unwrap();
        assert_eq!(one.turns, 4);
    }

    /// lizzieyzy's second engine's `LZ2`/`LZOP2` go with the rest: left behind, a reader would
    /// take the old second engine's analysis where it has more positions than the new one.
    #[test]
    fn lizzieyzys_second_engine_is_removed_too() {
        let text =
            b"(;GM[1]SZ[9]LZOP[a 1 2]LZOP2[b 1 2]C[keep];B[ee]LZ2[c 1 2]C[me];W[aa]LZ2[d 1 2])";
        let q = asked(text).unwrap();
        let removed: Vec<&str> = q
            .plan
            .remove
            .iter()
            .map(|&(a, b)| std::str::from_utf8(&text[a..b]).unwrap())
            .collect();
        assert_eq!(
            removed,
            ["LZOP[a 1 2]", "LZOP2[b 1 2]", "LZ2[c 1 2]", "LZ2[d 1 2]"]
        );
    }
}
