//! A game's information, read once from its tree: raw text beside every normalised value.
//!
//! Game-info properties belong in the root, and FF[4] allows them in any node of the main line
//! before the first move; the first occurrence there wins. Later nodes are not searched, so a
//! record of millions of moves costs nothing more to describe than a short one.

use crate::info::{
    normalise_name, parse_date, parse_handicap, parse_komi, parse_rank, parse_result, parse_time,
    DateRange, GameResult, Rank,
};
use crate::prop::{ids, PropId};
use crate::tree::GameTree;

/// A value as written and as understood (`None` when it could not be understood).
#[derive(Clone, Debug, PartialEq)]
pub struct Field<T> {
    pub raw: String,
    pub value: Option<T>,
}

/// Everything a search or a listing needs to know about a game besides its moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Columns and rows.
    pub size: (u8, u8),
    pub black: Option<String>,
    pub white: Option<String>,
    pub black_rank: Option<Field<Rank>>,
    pub white_rank: Option<Field<Rank>>,
    pub black_team: Option<String>,
    pub white_team: Option<String>,
    pub event: Option<String>,
    pub round: Option<String>,
    pub place: Option<String>,
    pub rules: Option<String>,
    pub source: Option<String>,
    pub game_name: Option<String>,
    pub game_comment: Option<String>,
    pub annotator: Option<String>,
    pub user: Option<String>,
    pub copyright: Option<String>,
    pub overtime: Option<String>,
    pub date: Option<Field<DateRange>>,
    pub result: Option<Field<GameResult>>,
    pub komi: Option<Field<f64>>,
    pub handicap: Option<Field<u8>>,
    /// Main time in seconds.
    pub time: Option<Field<f64>>,
}

impl GameInfo {
    /// Reads the game information of `tree`.
    pub fn read(tree: &GameTree<'_>) -> GameInfo {
        // The properties read here, each taken from the first node that has it among those that
        // may hold game information: up to and including the first move node. One pass over
        // their properties finds them all.
        const WANTED: [PropId; 22] = [
            ids::PB,
            ids::PW,
            ids::BR,
            ids::WR,
            ids::BT,
            ids::WT,
            ids::EV,
            ids::RO,
            ids::PC,
            ids::RU,
            ids::SO,
            ids::GN,
            ids::GC,
            ids::AN,
            ids::US,
            ids::CP,
            ids::OT,
            ids::DT,
            ids::RE,
            ids::KM,
            ids::HA,
            ids::TM,
        ];
        let mut found = [None; WANTED.len()];
        for n in tree.main_line() {
            let mut is_move = false;
            for p in n.props() {
                let id = p.id();
                is_move |= id == ids::B || id == ids::W;
                if let Some(i) = WANTED.iter().position(|&w| w == id) {
                    found[i].get_or_insert(p);
                }
            }
            if is_move {
                break;
            }
        }
        let text = |id: PropId| -> Option<String> {
            let i = WANTED.iter().position(|&w| w == id)?;
            found[i].map(|p| {
                if p.raw_values().nth(1).is_some() {
                    return p.texts().join(", ").trim().to_string();
                }
                // One value, nearly always: no list to join, and no copy when decoding made one.
                match p.text() {
                    std::borrow::Cow::Owned(s) if s.trim().len() == s.len() => s,
                    t => t.trim().to_string(),
                }
            })
        };
        let name = |id| {
            text(id)
                .map(|s| normalise_name(&s))
                .filter(|s| !s.is_empty())
        };
        fn field<T>(raw: Option<String>, f: impl Fn(&str) -> Option<T>) -> Option<Field<T>> {
            raw.map(|raw| Field {
                value: f(&raw),
                raw,
            })
        }
        GameInfo {
            size: tree.board_size(),
            black: name(ids::PB),
            white: name(ids::PW),
            black_rank: field(text(ids::BR), parse_rank),
            white_rank: field(text(ids::WR), parse_rank),
            black_team: name(ids::BT),
            white_team: name(ids::WT),
            event: name(ids::EV),
            round: name(ids::RO),
            place: name(ids::PC),
            rules: name(ids::RU),
            source: name(ids::SO),
            game_name: name(ids::GN),
            game_comment: text(ids::GC).filter(|s| !s.is_empty()),
            annotator: name(ids::AN),
            user: name(ids::US),
            copyright: name(ids::CP),
            overtime: name(ids::OT),
            date: field(text(ids::DT), parse_date),
            result: field(text(ids::RE), |s| Some(parse_result(s))),
            komi: field(text(ids::KM), parse_komi),
            handicap: field(text(ids::HA), parse_handicap),
            time: field(text(ids::TM), parse_time),
        }
    }
}
