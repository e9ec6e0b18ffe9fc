//! From what a user types to what tantivy runs: tantivy's query language over friendly fields.
//!
//! The query is parsed by tantivy's own grammar, then its syntax tree is rewritten before
//! tantivy's `QueryParser` turns it into a query. Rewriting the tree rather than the string
//! keeps quotes, parentheses and operators exactly as tantivy understands them. The rewriting:
//!
//! - checks every field name against the friendly names ([`FIELDS`]) and rejects any other with
//!   a message naming it, so internal fields stay internal;
//! - turns dates into day numbers. A game's date is a range of days (a partial `DT[2005]` is the
//!   whole year, `DT[1996-05-06,07,08]` three days) and so is a query's (`date:2005`,
//!   `date:2005-03`, `date:[2005 TO 2010]`, `date:[2005-03 TO 2005-06-30]`, `date:>=2010`). A
//!   game matches when its range *overlaps* the query's: it may have been played then. So
//!   `date:2005` finds a game of `2004-12-30,2005-01-02`, and `date:2005-03` finds a game dated
//!   only `2005`. A range bound is inclusive of the whole period it names (`[2005 TO 2010]` ends
//!   on 2010-12-31); an exclusive bound excludes it (`date:>2005` starts on 2006-01-01).
//!   Underneath, `date_start <= query end AND date_end >= query start`;
//! - turns ranks (`9p`, `3d`, `10k`, `P9段`, or the number itself) into their order on one scale
//!   (`sgf::info::Rank::order`: 30k = −29 … 1k = 0, 1d = 1 … 9p = 19), so `rank:>=9p` and
//!   `black_rank:[1d TO 7d]` work;
//! - normalises `winner` (`B`, `black`, `W`, `white`, `draw`/`jigo`, `void`, `unknown`), `how`
//!   (`resignation`/`resign`/`R`, `score`, `time`/`T`, `forfeit`/`F`, `other`) and `duplicate`
//!   (`true`/`yes`/`1`, `false`/`no`/`0`);
//! - checks numbers itself, so that a bad one is reported with its field
//!   (`komi: "six" is not a number`);
//! - completes a query made only of exclusions (`NOT winner:B`) with "all games", which tantivy
//!   would otherwise refuse.

use sgf::info::{days_in_month, parse_rank, Date};
use tantivy::query::Occur;
use tantivy::query_grammar::{
    self, Delimiter, UserInputAst, UserInputBound, UserInputLeaf, UserInputLiteral,
};

use super::{limits, schema, MetaError};

/// How a friendly field's values are read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Text,
    /// A name for "any of these fields" (`player` is black or white).
    Either(&'static [&'static str]),
    Winner,
    How,
    Bool,
    Unsigned,
    Float,
    Rank,
    Date,
}

/// Every field a query may name, and how its values are read.
const FIELDS: &[(&str, Kind)] = &[
    ("black", Kind::Text),
    ("white", Kind::Text),
    ("player", Kind::Either(&["black", "white"])),
    ("black_team", Kind::Text),
    ("white_team", Kind::Text),
    ("team", Kind::Either(&["black_team", "white_team"])),
    ("event", Kind::Text),
    ("round", Kind::Text),
    ("place", Kind::Text),
    ("rules", Kind::Text),
    ("source", Kind::Text),
    ("name", Kind::Text),
    ("comment", Kind::Text),
    ("annotator", Kind::Text),
    ("result", Kind::Text),
    ("file", Kind::Text),
    ("winner", Kind::Winner),
    ("how", Kind::How),
    ("duplicate", Kind::Bool),
    ("game", Kind::Unsigned),
    ("duplicate_of", Kind::Unsigned),
    ("handicap", Kind::Unsigned),
    ("size", Kind::Unsigned),
    ("moves", Kind::Unsigned),
    ("komi", Kind::Float),
    ("margin", Kind::Float),
    ("rank", Kind::Either(&["black_rank", "white_rank"])),
    ("black_rank", Kind::Rank),
    ("white_rank", Kind::Rank),
    ("date", Kind::Date),
];

/// The friendly field names, for messages and documentation.
pub fn field_names() -> impl Iterator<Item = &'static str> {
    FIELDS.iter().map(|(name, _)| *name)
}

fn error(at: impl Into<String>, message: impl Into<String>) -> MetaError {
    MetaError::Query {
        at: Some(one_line(at.into())),
        message: one_line(message.into()),
    }
}

/// A message quoting the user's text stays one line: control characters (a newline inside a
/// `/regex/`, found by fuzzing) are shown as escapes.
pub(super) fn one_line(s: String) -> String {
    if !s.chars().any(char::is_control) {
        return s;
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Parses `query` with tantivy's grammar and rewrites it; see the module documentation.
/// This is the only way text reaches tantivy's grammar, so the limits of [`limits`] are checked
/// here, before it.
pub fn parse(query: &str) -> Result<UserInputAst, MetaError> {
    limits::check_text(query)?;
    let ast = match query_grammar::parse_query(query) {
        Ok(ast) => ast,
        Err(_) => {
            let (_, errors) = query_grammar::parse_query_lenient(query);
            return Err(match errors.into_iter().next() {
                Some(e) => error(
                    format!("position {}", e.pos),
                    format!("{} (in {query:?})", e.message.trim_end_matches('.')),
                ),
                None => MetaError::Query {
                    at: None,
                    message: format!("cannot parse {query:?}"),
                },
            });
        }
    };
    limits::check_clauses(&ast)?;
    let ast = rewrite(ast)?;
    Ok(match ast {
        UserInputAst::Clause(c) => UserInputAst::Clause(complete_exclusions(c)),
        leaf => leaf,
    })
}

/// Adds "all games" to a clause made only of exclusions.
fn complete_exclusions(
    mut clauses: Vec<(Option<Occur>, UserInputAst)>,
) -> Vec<(Option<Occur>, UserInputAst)> {
    if !clauses.is_empty() && clauses.iter().all(|(o, _)| *o == Some(Occur::MustNot)) {
        clauses.push((Some(Occur::Must), leaf(UserInputLeaf::All)));
    }
    clauses
}

fn leaf(l: UserInputLeaf) -> UserInputAst {
    UserInputAst::Leaf(Box::new(l))
}

pub(super) fn rewrite(ast: UserInputAst) -> Result<UserInputAst, MetaError> {
    Ok(match ast {
        UserInputAst::Clause(clauses) => UserInputAst::Clause(complete_exclusions(
            clauses
                .into_iter()
                .map(|(occur, ast)| Ok((occur, rewrite(ast)?)))
                .collect::<Result<_, MetaError>>()?,
        )),
        UserInputAst::Boost(ast, boost) => UserInputAst::Boost(Box::new(rewrite(*ast)?), boost),
        UserInputAst::Leaf(l) => rewrite_leaf(*l)?,
    })
}

fn kind_of(field: &str) -> Result<Kind, MetaError> {
    FIELDS
        .iter()
        .find(|(name, _)| *name == field)
        .map(|(_, kind)| *kind)
        .ok_or_else(|| {
            error(
                format!("field {field:?}"),
                format!(
                    "unknown field {field:?}; fields are {}",
                    field_names().collect::<Vec<_>>().join(", ")
                ),
            )
        })
}

/// The field a leaf names, if any.
pub(super) fn field_of(l: &UserInputLeaf) -> Option<&str> {
    match l {
        UserInputLeaf::Literal(lit) => lit.field_name.as_deref(),
        UserInputLeaf::Range { field, .. }
        | UserInputLeaf::Set { field, .. }
        | UserInputLeaf::Regex { field, .. } => field.as_deref(),
        UserInputLeaf::Exists { field } => Some(field),
        UserInputLeaf::All => None,
    }
}

/// The same leaf on another field.
pub(super) fn with_field(l: &UserInputLeaf, field: &str) -> UserInputLeaf {
    let name = Some(field.to_string());
    match l.clone() {
        UserInputLeaf::Literal(lit) => UserInputLeaf::Literal(UserInputLiteral {
            field_name: name,
            ..lit
        }),
        UserInputLeaf::Range { lower, upper, .. } => UserInputLeaf::Range {
            field: name,
            lower,
            upper,
        },
        UserInputLeaf::Set { elements, .. } => UserInputLeaf::Set {
            field: name,
            elements,
        },
        UserInputLeaf::Regex { pattern, .. } => UserInputLeaf::Regex {
            field: name,
            pattern,
        },
        UserInputLeaf::Exists { .. } => UserInputLeaf::Exists {
            field: field.to_string(),
        },
        UserInputLeaf::All => UserInputLeaf::All,
    }
}

/// `field:*` on a field of words, which cannot say whether a game has a value.
fn no_exists(field: &str) -> MetaError {
    error(
        format!("{field}:*"),
        format!(
            "{field}:* (has a value) works only for numbers and dates; try a word, e.g. \
             {field}:lee"
        ),
    )
}

fn rewrite_leaf(l: UserInputLeaf) -> Result<UserInputAst, MetaError> {
    // A word, phrase or set with no field: any of the default fields, named one by one, so
    // that each is read as its own kind (the value fields through their dictionary).
    if field_of(&l).is_none() && matches!(l, UserInputLeaf::Literal(_) | UserInputLeaf::Set { .. })
    {
        let alternatives = schema::DEFAULT_FIELDS
            .iter()
            .map(|f| Ok((Some(Occur::Should), rewrite_leaf(with_field(&l, f))?)))
            .collect::<Result<Vec<_>, MetaError>>()?;
        return Ok(UserInputAst::Clause(alternatives));
    }
    if let Some(field) = field_of(&l) {
        if let Kind::Either(fields) = kind_of(field)? {
            // `player:*` is refused as itself, not as the `black:*` it stands for first.
            if matches!(l, UserInputLeaf::Exists { .. })
                && fields
                    .iter()
                    .any(|f| kind_of(f).is_ok_and(|k| k == Kind::Text))
            {
                return Err(no_exists(field));
            }
            let alternatives = fields
                .iter()
                .map(|f| Ok((Some(Occur::Should), rewrite_leaf(with_field(&l, f))?)))
                .collect::<Result<Vec<_>, MetaError>>()?;
            return Ok(UserInputAst::Clause(alternatives));
        }
    }
    match l {
        UserInputLeaf::Literal(lit) => {
            let Some(field) = lit.field_name.clone() else {
                return Ok(leaf(UserInputLeaf::Literal(lit)));
            };
            let kind = kind_of(&field)?;
            if kind == Kind::Date {
                let range = parse_date(&lit.phrase, &field)?;
                return Ok(date_overlap(Some(range.0), Some(range.1)));
            }
            let phrase = value(kind, &field, &lit.phrase)?;
            if field == "game" {
                return Ok(game_is(phrase));
            }
            Ok(leaf(UserInputLeaf::Literal(UserInputLiteral {
                phrase,
                ..lit
            })))
        }
        UserInputLeaf::Range {
            field: None,
            lower,
            upper,
        } => Err(error(
            format!("range {}", describe_range(&lower, &upper)),
            "a range needs a field, e.g. date:[2005 TO 2010] or moves:>200",
        )),
        UserInputLeaf::Range {
            field: Some(field),
            lower,
            upper,
        } => {
            let kind = kind_of(&field)?;
            if kind == Kind::Date {
                let lo = match &lower {
                    UserInputBound::Inclusive(s) => Some(parse_date(s, &field)?.0),
                    UserInputBound::Exclusive(s) => Some(parse_date(s, &field)?.1 + 1),
                    UserInputBound::Unbounded => None,
                };
                let hi = match &upper {
                    UserInputBound::Inclusive(s) => Some(parse_date(s, &field)?.1),
                    UserInputBound::Exclusive(s) => Some(parse_date(s, &field)?.0 - 1),
                    UserInputBound::Unbounded => None,
                };
                return Ok(date_overlap(lo, hi));
            }
            // Open at both ends is "has a value". Tantivy's parser drops a range of two open
            // bounds as useless, and a query left empty finds nothing, so `[* TO *]` is
            // written as `field:*` is.
            if matches!(
                (&lower, &upper),
                (UserInputBound::Unbounded, UserInputBound::Unbounded)
            ) {
                return Ok(has_value(kind, field));
            }
            let bound = |b: UserInputBound| -> Result<UserInputBound, MetaError> {
                Ok(match b {
                    UserInputBound::Inclusive(s) => {
                        UserInputBound::Inclusive(value(kind, &field, &s)?)
                    }
                    UserInputBound::Exclusive(s) => {
                        UserInputBound::Exclusive(value(kind, &field, &s)?)
                    }
                    UserInputBound::Unbounded => UserInputBound::Unbounded,
                })
            };
            Ok(leaf(UserInputLeaf::Range {
                lower: bound(lower)?,
                upper: bound(upper)?,
                field: Some(field),
            }))
        }
        UserInputLeaf::Set {
            field: Some(field),
            elements,
        } => {
            let kind = kind_of(&field)?;
            if kind == Kind::Date {
                let alternatives = elements
                    .iter()
                    .map(|e| {
                        let (lo, hi) = parse_date(e, &field)?;
                        Ok((Some(Occur::Should), date_overlap(Some(lo), Some(hi))))
                    })
                    .collect::<Result<Vec<_>, MetaError>>()?;
                return Ok(UserInputAst::Clause(alternatives));
            }
            let elements: Vec<String> = elements
                .iter()
                .map(|e| value(kind, &field, e))
                .collect::<Result<_, _>>()?;
            if field == "game" {
                let alternatives = elements
                    .into_iter()
                    .map(|e| (Some(Occur::Should), game_is(e)))
                    .collect();
                return Ok(UserInputAst::Clause(alternatives));
            }
            Ok(leaf(UserInputLeaf::Set {
                field: Some(field),
                elements,
            }))
        }
        UserInputLeaf::Exists { field } => match kind_of(&field)? {
            Kind::Date => Ok(leaf(UserInputLeaf::Exists {
                field: "date_start".to_string(),
            })),
            Kind::Text | Kind::Either(_) | Kind::Winner | Kind::How => Err(no_exists(&field)),
            kind @ (Kind::Bool | Kind::Unsigned | Kind::Float | Kind::Rank) => {
                Ok(has_value(kind, field))
            }
        },
        UserInputLeaf::Regex { field, pattern } => Err(error(
            format!("/{pattern}/"),
            match field {
                Some(f) => format!("regular expressions are not supported (field {f:?})"),
                None => "regular expressions are not supported".to_string(),
            },
        )),
        other => Ok(leaf(other)),
    }
}

/// `field:*` on a numeric field: every value is at or above the type's least, so a range from
/// there finds each game with one, read from the field's terms or its column, whichever the
/// schema gives it (most numeric fields have only terms; tantivy's own `field:*` needs a
/// column).
fn has_value(kind: Kind, field: String) -> UserInputAst {
    let least = match kind {
        Kind::Bool => {
            let is = |phrase: &str| {
                (
                    Some(Occur::Should),
                    leaf(UserInputLeaf::Literal(UserInputLiteral {
                        field_name: Some(field.clone()),
                        phrase: phrase.to_string(),
                        delimiter: Delimiter::None,
                        slop: 0,
                        prefix: false,
                    })),
                )
            };
            return UserInputAst::Clause(vec![is("false"), is("true")]);
        }
        Kind::Float => f64::MIN.to_string(),
        Kind::Rank => i64::MIN.to_string(),
        _ => "0".to_string(),
    };
    leaf(UserInputLeaf::Range {
        field: Some(field),
        lower: UserInputBound::Inclusive(least),
        upper: UserInputBound::Unbounded,
    })
}

fn describe_range(lower: &UserInputBound, upper: &UserInputBound) -> String {
    format!("[{} TO {}]", lower.term_str(), upper.term_str())
}

/// The game with this id: `game` is a fast column, not an indexed term (see the schema), so an
/// equality is a one-value range.
fn game_is(id: String) -> UserInputAst {
    leaf(UserInputLeaf::Range {
        field: Some("game".to_string()),
        lower: UserInputBound::Inclusive(id.clone()),
        upper: UserInputBound::Inclusive(id),
    })
}

/// The games whose date range overlaps `[lo, hi]` (days; `None` unbounded).
///
/// Exactly: `date_start <= hi AND date_end >= lo`. Both are columns of every game, so a bounded
/// query is led by the month terms instead: a game overlapping `[lo, hi]` touches one of its
/// months (or is marked wide). When `[lo, hi]` is whole months, touching one is the same as
/// overlapping, and the comparison is left to the wide games alone.
fn date_overlap(lo: Option<i64>, hi: Option<i64>) -> UserInputAst {
    let exact = exact_overlap(lo, hi);
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return exact;
    };
    let month = |days: i64| {
        let d = super::date_from_days(days);
        i64::from(d.year) * 12 + i64::from(d.month) - 1
    };
    let (first, last) = (month(lo), month(hi));
    if last < first || last - first >= 600 {
        return exact;
    }
    let term = |phrase: String| {
        (
            Some(Occur::Should),
            leaf(UserInputLeaf::Literal(UserInputLiteral {
                field_name: Some(schema::DATE_MONTH.to_string()),
                phrase,
                delimiter: Delimiter::None,
                slop: 0,
                prefix: false,
            })),
        )
    };
    let months = UserInputAst::Clause(
        (first..=last)
            .map(|m| term(schema::month_term(m)))
            .collect(),
    );
    let wide = || {
        UserInputAst::Clause(vec![
            (
                Some(Occur::Must),
                UserInputAst::Clause(vec![term(schema::WIDE.to_string())]),
            ),
            (Some(Occur::Must), exact.clone()),
        ])
    };
    let whole_months = super::date_from_days(lo).day == 1 && super::date_from_days(hi + 1).day == 1;
    if whole_months {
        UserInputAst::Clause(vec![
            (Some(Occur::Should), months),
            (Some(Occur::Should), wide()),
        ])
    } else {
        UserInputAst::Clause(vec![
            (
                Some(Occur::Must),
                UserInputAst::Clause(vec![
                    (Some(Occur::Should), months),
                    (
                        Some(Occur::Should),
                        UserInputAst::Clause(vec![term(schema::WIDE.to_string())]),
                    ),
                ]),
            ),
            (Some(Occur::Must), exact),
        ])
    }
}

/// `date_start <= hi AND date_end >= lo`, on the columns.
fn exact_overlap(lo: Option<i64>, hi: Option<i64>) -> UserInputAst {
    let range = |field: &str, lower, upper| {
        (
            Some(Occur::Must),
            leaf(UserInputLeaf::Range {
                field: Some(field.to_string()),
                lower,
                upper,
            }),
        )
    };
    let mut clauses = Vec::new();
    if let Some(hi) = hi {
        clauses.push(range(
            "date_start",
            UserInputBound::Unbounded,
            UserInputBound::Inclusive(hi.to_string()),
        ));
    }
    if let Some(lo) = lo {
        clauses.push(range(
            "date_end",
            UserInputBound::Inclusive(lo.to_string()),
            UserInputBound::Unbounded,
        ));
    }
    if clauses.is_empty() {
        return leaf(UserInputLeaf::Exists {
            field: "date_start".to_string(),
        });
    }
    UserInputAst::Clause(clauses)
}

/// A literal value of a non-date field, checked and normalised to what the index holds.
fn value(kind: Kind, field: &str, raw: &str) -> Result<String, MetaError> {
    let s = raw.trim();
    let bad = |expected: &str| {
        error(
            format!("{field}:{raw}"),
            format!("{field}: {raw:?} is not {expected}"),
        )
    };
    Ok(match kind {
        Kind::Text | Kind::Either(_) => raw.to_string(),
        Kind::Winner => match s.to_ascii_lowercase().as_str() {
            "b" | "black" | "黑" | "黒" | "흑" => "B",
            "w" | "white" | "白" | "백" => "W",
            "draw" | "jigo" | "0" | "tie" => "draw",
            "void" | "none" | "noresult" => "void",
            "unknown" | "?" => "unknown",
            _ => return Err(bad("a winner (B, W, draw, void or unknown)")),
        }
        .to_string(),
        Kind::How => match s.to_ascii_lowercase().as_str() {
            "r" | "resign" | "resignation" | "resigned" => "resignation",
            "score" | "points" | "counting" | "count" => "score",
            "t" | "time" | "timeout" => "time",
            "f" | "forfeit" => "forfeit",
            "other" => "other",
            _ => {
                return Err(bad(
                    "a way of winning (resignation, score, time, forfeit or other)",
                ))
            }
        }
        .to_string(),
        Kind::Bool => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => "true",
            "false" | "no" | "0" => "false",
            _ => return Err(bad("true or false")),
        }
        .to_string(),
        Kind::Unsigned => match s.parse::<u64>() {
            Ok(v) => v.to_string(),
            Err(_) => return Err(bad("a whole number")),
        },
        Kind::Float => match s.parse::<f64>() {
            Ok(v) if v.is_finite() => s.to_string(),
            _ => return Err(bad("a number")),
        },
        Kind::Rank => match s.parse::<i64>() {
            Ok(v) => v.to_string(),
            Err(_) => match parse_rank(s) {
                Some(rank) => rank.order().to_string(),
                None => return Err(bad("a rank (such as 10k, 3d or 9p)")),
            },
        },
        Kind::Date => unreachable!("dates are rewritten by the caller"),
    })
}

/// A date in a query, `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (also with `/` or `.`), as its first
/// and last day (days since 1970-01-01).
pub fn parse_date(raw: &str, field: &str) -> Result<(i64, i64), MetaError> {
    let bad = |why: &str| {
        error(
            format!("{field}:{raw}"),
            format!("{field}: {raw:?} is not a date ({why}; write YYYY, YYYY-MM or YYYY-MM-DD)"),
        )
    };
    let s = raw.trim();
    let parts: Vec<&str> = s.split(['-', '/', '.']).collect();
    if parts.len() > 3
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(bad("unexpected characters"));
    }
    if parts[0].len() != 4 || parts.iter().skip(1).any(|p| p.len() > 2) {
        return Err(bad("a year has four digits, a month or day at most two"));
    }
    let year: i32 = parts[0].parse().map_err(|_| bad("bad year"))?;
    if year == 0 {
        return Err(bad("there is no year 0"));
    }
    let month = match parts.get(1) {
        Some(m) => {
            let m: u8 = m.parse().map_err(|_| bad("bad month"))?;
            if !(1..=12).contains(&m) {
                return Err(bad("the month must be 1 to 12"));
            }
            Some(m)
        }
        None => None,
    };
    let day = match (parts.get(2), month) {
        (Some(d), Some(m)) => {
            let d: u8 = d.parse().map_err(|_| bad("bad day"))?;
            if d < 1 || d > days_in_month(year, m) {
                return Err(bad("no such day in that month"));
            }
            Some(d)
        }
        _ => None,
    };
    let day_number = |m: u8, d: u8| {
        Date {
            year,
            month: m,
            day: d,
        }
        .days_since_epoch()
    };
    Ok(match (month, day) {
        (Some(m), Some(d)) => (day_number(m, d), day_number(m, d)),
        (Some(m), None) => (day_number(m, 1), day_number(m, days_in_month(year, m))),
        _ => (day_number(1, 1), day_number(12, 31)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u8, d: u8) -> i64 {
        Date {
            year: y,
            month: m,
            day: d,
        }
        .days_since_epoch()
    }

    #[test]
    fn query_dates() {
        assert_eq!(
            parse_date("2005", "date").unwrap(),
            (day(2005, 1, 1), day(2005, 12, 31))
        );
        assert_eq!(
            parse_date("2004-2", "date").unwrap(),
            (day(2004, 2, 1), day(2004, 2, 29))
        );
        assert_eq!(
            parse_date("2005/03/15", "date").unwrap(),
            (day(2005, 3, 15), day(2005, 3, 15))
        );
        for bad in [
            "",
            "05",
            "2005-00",
            "2005-1-32",
            "2005-03-15-1",
            "20050315",
            "x2005",
        ] {
            assert!(parse_date(bad, "date").is_err(), "{bad}");
        }
    }

    #[test]
    fn ranks_and_winners() {
        assert_eq!(value(Kind::Rank, "rank", "9p").unwrap(), "19");
        assert_eq!(value(Kind::Rank, "rank", "1k").unwrap(), "0");
        assert_eq!(value(Kind::Rank, "rank", "-5").unwrap(), "-5");
        assert_eq!(value(Kind::Winner, "winner", "Black").unwrap(), "B");
        assert_eq!(value(Kind::How, "how", "R").unwrap(), "resignation");
        assert!(value(Kind::Unsigned, "moves", "1.5").is_err());
    }
}
