//! The schema: one document per game, its fields named as users type them in queries.
//!
//! Field names are the friendly query names wherever a field is queried directly, so tantivy's
//! own error messages already speak the user's language. The few internal fields (`date_start`,
//! `date_end`, the `*_exact` keyword copies, stored-only display values) are reached through
//! the rewriting in [`super::query`] or the API, never typed by a user.
//!
//! Nothing is scored (searches return every match), so text fields keep positions (for phrases)
//! but no field norms.

use sgf::info::{WinKind, Winner};
use sgf::GameInfo;
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, SchemaBuilder, TextFieldIndexing, TextOptions,
};
use tantivy::TantivyDocument;

use super::tokenizer::TOKENIZER;

/// Fields whose values repeat from game to game: in a game's document each value is one exact
/// term, and its tokens are in the value dictionary ([`super::values`]) under its kind. Each with
/// its kind and whether it is stored for display.
pub const VALUE_FIELDS: &[(&str, &str, bool)] = &[
    ("black", "player", true),
    ("white", "player", true),
    ("black_team", "team", false),
    ("white_team", "team", false),
    ("event", "event", true),
    ("round", "round", true),
    ("place", "place", false),
    ("rules", "rules", false),
    ("source", "source", false),
    ("annotator", "annotator", false),
    ("result", "result", true),
];

/// The kind of value a field of [`VALUE_FIELDS`] holds, if it is one.
pub fn value_kind(field: &str) -> Option<&'static str> {
    VALUE_FIELDS
        .iter()
        .find(|(name, _, _)| *name == field)
        .map(|(_, kind, _)| *kind)
}

/// Fields tokenized ([`TOKENIZER`]) in every game's document: their values are the game's own
/// (a server's game number, a comment), so a dictionary would hold one value per game.
pub const TEXT_FIELDS: &[&str] = &["name", "comment"];

/// The fields searched when a query term names no field.
///
/// (`player` and `team` are not fields: queries expand them to black-or-white, which indexes
/// each name once instead of twice.)
pub const DEFAULT_FIELDS: &[&str] = &["black", "white", "event", "name", "place", "comment"];

/// Keyword fields: the whole value is one term. Each with whether it is stored for display
/// (how a game ended is in its stored result already).
pub const KEYWORD_FIELDS: &[(&str, bool)] = &[("winner", true), ("how", false), ("file", true)];

/// Months a game's date range touches, as `YYYY-MM` terms (or [`WIDE`] past [`MAX_MONTHS`]): a
/// date query reads these posting lists instead of comparing two columns of every game.
pub const DATE_MONTH: &str = "date_month";
/// The term of games whose date range touches more than [`MAX_MONTHS`] months.
pub const WIDE: &str = "wide";
pub const MAX_MONTHS: i64 = 36;

/// The `YYYY-MM` term of a month (`months` = year × 12 + month − 1).
pub fn month_term(months: i64) -> String {
    format!(
        "{:04}-{:02}",
        months.div_euclid(12),
        months.rem_euclid(12) + 1
    )
}

/// Statistics of most frequent whole values: what a user asks for, and the fields counted.
pub const STATISTICS: &[(&str, &[&str])] =
    &[("player", &["black", "white"]), ("event", &["event"])];

/// Handles on every field of the schema.
#[derive(Clone, Debug)]
pub struct Fields {
    pub game: Field,
    /// In the order of [`VALUE_FIELDS`].
    pub values: Vec<Field>,
    /// In the order of [`TEXT_FIELDS`].
    pub text: Vec<Field>,
    pub winner: Field,
    pub how: Field,
    pub file: Field,
    pub margin: Field,
    pub komi: Field,
    pub handicap: Field,
    pub size: Field,
    pub moves: Field,
    pub black_rank: Field,
    pub white_rank: Field,
    pub black_rank_text: Field,
    pub white_rank_text: Field,
    pub date_start: Field,
    pub date_end: Field,
    pub date_text: Field,
    pub date_month: Field,
    pub duplicate: Field,
    pub duplicate_of: Field,
}

/// Builds the schema.
pub fn build() -> Schema {
    let mut b = Schema::builder();
    let text_indexing = TextFieldIndexing::default()
        .set_tokenizer(TOKENIZER)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions)
        .set_fieldnorms(false);
    let keyword = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("raw")
            .set_index_option(IndexRecordOption::Basic)
            .set_fieldnorms(false),
    );
    let keyword_field = |b: &mut SchemaBuilder, name: &str, stored: bool| {
        let options = keyword.clone();
        b.add_text_field(
            name,
            if stored {
                options.set_stored()
            } else {
                options
            },
        );
    };
    for &(name, _, stored) in VALUE_FIELDS {
        keyword_field(&mut b, name, stored);
    }
    for name in TEXT_FIELDS {
        b.add_text_field(
            name,
            TextOptions::default().set_indexing_options(text_indexing.clone()),
        );
    }
    for &(name, stored) in KEYWORD_FIELDS {
        keyword_field(&mut b, name, stored);
    }
    b.add_text_field(DATE_MONTH, keyword.clone());
    let stored_text = TextOptions::default().set_stored();
    for name in ["black_rank_text", "white_rank_text", "date_text"] {
        b.add_text_field(name, stored_text.clone());
    }
    // Terms without columns: ranges on these fields are read from their terms (`ranges.rs`),
    // `field:*` too (`query.rs`), and a game's values from its stored document, so a column
    // of each would be written for every game and never read (with `duplicate`'s: 6 B a game
    // of all shared games, 1% of the instructions of indexing fox-pro).
    let number = || NumericOptions::default().set_indexed();
    // Unique per game: as an indexed term it would cost tantivy more than any other field (8% of
    // a whole indexing run, measured); readers find a game's document through the fast column.
    b.add_u64_field("game", NumericOptions::default().set_fast());
    b.add_f64_field("margin", number());
    b.add_f64_field("komi", number().set_stored());
    b.add_u64_field("handicap", number().set_stored());
    b.add_u64_field("size", number().set_stored());
    b.add_u64_field("moves", number().set_stored());
    b.add_i64_field("black_rank", number());
    b.add_i64_field("white_rank", number());
    // Columns only: a date query is led by its month terms and compares these two columns of
    // the games it finds (`query.rs`), and `date:*` asks the column too, so terms of these
    // fields (a few thousand distinct days) would be written for every game and never read.
    let column = || NumericOptions::default().set_fast().set_stored();
    b.add_i64_field("date_start", column());
    b.add_i64_field("date_end", column());
    // `set_indexed`, not the INDEXED flag: the flag also records field norms, two bytes per game
    // that nothing reads (nothing is scored).
    b.add_bool_field("duplicate", NumericOptions::default().set_indexed());
    b.add_u64_field(
        "duplicate_of",
        NumericOptions::default().set_indexed().set_stored(),
    );
    b.build()
}

impl Fields {
    /// Looks up every field in `schema` (one built by [`build`]; a different one is an error).
    pub fn new(schema: &Schema) -> tantivy::Result<Fields> {
        let f = |name: &str| schema.get_field(name);
        Ok(Fields {
            game: f("game")?,
            values: VALUE_FIELDS
                .iter()
                .map(|(name, _, _)| f(name))
                .collect::<Result<_, _>>()?,
            text: TEXT_FIELDS
                .iter()
                .map(|name| f(name))
                .collect::<Result<_, _>>()?,
            winner: f("winner")?,
            how: f("how")?,
            file: f("file")?,
            margin: f("margin")?,
            komi: f("komi")?,
            handicap: f("handicap")?,
            size: f("size")?,
            moves: f("moves")?,
            black_rank: f("black_rank")?,
            white_rank: f("white_rank")?,
            black_rank_text: f("black_rank_text")?,
            white_rank_text: f("white_rank_text")?,
            date_start: f("date_start")?,
            date_end: f("date_end")?,
            date_text: f("date_text")?,
            date_month: f(DATE_MONTH)?,
            duplicate: f("duplicate")?,
            duplicate_of: f("duplicate_of")?,
        })
    }

    /// The document of one game; `values` are its [`values`].
    pub fn document(
        &self,
        game: u32,
        info: &GameInfo,
        values: &[Option<&str>; VALUE_FIELDS.len()],
        moves: u32,
        duplicate_of: Option<u32>,
        file: &str,
    ) -> TantivyDocument {
        let mut doc = TantivyDocument::default();
        doc.add_u64(self.game, u64::from(game));
        for (&field, value) in self.values.iter().zip(values) {
            if let Some(v) = value {
                doc.add_text(field, super::values::capped(v));
            }
        }
        // In the order of TEXT_FIELDS (a test checks the names).
        let texts = [info.game_name.as_deref(), info.game_comment.as_deref()];
        for (&field, value) in self.text.iter().zip(texts) {
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                doc.add_text(field, v);
            }
        }

        let result = info.result.as_ref().and_then(|r| r.value);
        doc.add_text(self.winner, winner_term(result.map(|r| r.winner)));
        if let Some(how) = result.and_then(|r| r.how) {
            doc.add_text(self.how, how_term(how));
        }
        if let Some(margin) = result.and_then(|r| r.margin_points()) {
            doc.add_f64(self.margin, margin);
        }
        if !file.is_empty() {
            doc.add_text(self.file, file);
        }

        if let Some(komi) = info.komi.as_ref().and_then(|k| k.value) {
            doc.add_f64(self.komi, komi);
        }
        // No HA property means no handicap stones: index 0 so that `handicap:0` finds even games.
        let handicap = info.handicap.as_ref().map_or(Some(0), |h| h.value);
        if let Some(h) = handicap {
            doc.add_u64(self.handicap, u64::from(h));
        }
        let (cols, rows) = info.size;
        doc.add_u64(self.size, u64::from(cols));
        if rows != cols {
            doc.add_u64(self.size, u64::from(rows));
        }
        doc.add_u64(self.moves, u64::from(moves));

        for (rank, order, raw) in [
            (&info.black_rank, self.black_rank, self.black_rank_text),
            (&info.white_rank, self.white_rank, self.white_rank_text),
        ] {
            if let Some(rank) = rank {
                if !rank.raw.is_empty() {
                    doc.add_text(raw, &rank.raw);
                }
                if let Some(r) = rank.value {
                    doc.add_i64(order, i64::from(r.order()));
                }
            }
        }

        if let Some(date) = &info.date {
            if !date.raw.is_empty() {
                doc.add_text(self.date_text, &date.raw);
            }
            if let Some(range) = date.value {
                doc.add_i64(self.date_start, range.start.days_since_epoch());
                doc.add_i64(self.date_end, range.end.days_since_epoch());
                let month = |d: &sgf::info::Date| i64::from(d.year) * 12 + i64::from(d.month) - 1;
                let (first, last) = (month(&range.start), month(&range.end));
                if last - first < MAX_MONTHS {
                    for m in first..=last {
                        doc.add_text(self.date_month, month_term(m));
                    }
                } else {
                    doc.add_text(self.date_month, WIDE);
                }
            }
        }

        doc.add_bool(self.duplicate, duplicate_of.is_some());
        if let Some(first) = duplicate_of {
            doc.add_u64(self.duplicate_of, u64::from(first));
        }
        doc
    }
}

/// A game's values of [`VALUE_FIELDS`], in that order (`None` when absent or empty).
pub fn values(info: &GameInfo) -> [Option<&str>; VALUE_FIELDS.len()] {
    [
        info.black.as_deref(),
        info.white.as_deref(),
        info.black_team.as_deref(),
        info.white_team.as_deref(),
        info.event.as_deref(),
        info.round.as_deref(),
        info.place.as_deref(),
        info.rules.as_deref(),
        info.source.as_deref(),
        info.annotator.as_deref(),
        info.result.as_ref().map(|r| r.raw.as_str()),
    ]
    .map(|v| v.filter(|v| !v.is_empty()))
}

/// The indexed term for a winner (`None`: no `RE` property).
pub fn winner_term(winner: Option<Winner>) -> &'static str {
    match winner {
        Some(Winner::Black) => "B",
        Some(Winner::White) => "W",
        Some(Winner::Draw) => "draw",
        Some(Winner::Void) => "void",
        Some(Winner::Unknown) | None => "unknown",
    }
}

/// The indexed term for how a game was won.
pub fn how_term(how: WinKind) -> &'static str {
    match how {
        WinKind::Score => "score",
        WinKind::Resignation => "resignation",
        WinKind::Time => "time",
        WinKind::Forfeit => "forfeit",
        WinKind::Other => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::schema::Value;

    #[test]
    fn each_text_field_gets_its_own_property() {
        let sgf =
            "(;PB[b]PW[w]BT[bt]WT[wt]EV[ev]RO[ro]PC[pc]RU[ru]SO[so]GN[gn]GC[gc]AN[an]RE[B+R])";
        let records = sgf::Records::read(sgf.as_bytes());
        let info = GameInfo::read(&records.game(0).unwrap());
        let schema = build();
        let fields = Fields::new(&schema).unwrap();
        let doc = fields.document(0, &info, &values(&info), 0, None, "f.sgf");
        let expected = [
            "b", "w", "bt", "wt", "ev", "ro", "pc", "ru", "so", "an", "B+R", "gn", "gc",
        ];
        let names = VALUE_FIELDS
            .iter()
            .map(|(name, _, _)| name)
            .chain(TEXT_FIELDS);
        for (name, want) in names.zip(expected) {
            let field = schema.get_field(name).unwrap();
            let got = doc
                .get_first(field)
                .and_then(|v| v.as_str().map(str::to_string));
            assert_eq!(got.as_deref(), Some(want), "{name}");
        }
    }
}
