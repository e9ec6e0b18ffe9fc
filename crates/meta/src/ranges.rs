//! Ranges on numeric fields answered from their postings, not from their fast columns.
//!
//! Older indexes keep a column beside the terms of each numeric field (`moves`, `komi`, …); those
//! written now keep only the terms of [`BY_POSTINGS`], whose columns nothing read (the schema), and
//! only the columns of the dates. Tantivy answers a range on a field that has a column by scanning
//! the column (`FastFieldRangeWeight`), which costs a value read for every document of the index
//! whatever the range holds (with the blockwise linear codec tantivy picks for these columns, most
//! of a large range query's time: BENCHMARKS.md, Metadata queries: ranges from postings). From the
//! postings (`InvertedIndexRangeWeight`) the cost is the documents the range holds and the terms it
//! spans, as for every other kind of query here; the answer is the same (the terms and the column
//! are written from one value).
//!
//! Tantivy chooses between the two by the schema the weight is made with, so each range on
//! one of [`BY_POSTINGS`] is wrapped in [`ByPostings`], which makes its weight with a copy of
//! the schema whose numeric fields have no column; the rest of the query is left as it is.
//! (On a newer index the wrapper changes nothing; an older one is read as it was.)
//! Dates keep their columns: a date query is led by its month terms and compares the columns
//! of the games it finds (`query.rs`), and a range of days spans thousands of terms.

use tantivy::query::{BooleanQuery, EnableScoring, Query, RangeQuery, Weight};
use tantivy::schema::{FieldEntry, FieldType, NumericOptions, Schema};

/// The numeric fields whose ranges are answered from their postings: each holds a few hundred
/// distinct values at most, so a range spans few terms.
pub const BY_POSTINGS: &[&str] = &[
    "moves",
    "komi",
    "handicap",
    "size",
    "margin",
    "black_rank",
    "white_rank",
];

/// `query` with each range on a field of [`BY_POSTINGS`] (alone, or a clause of boolean
/// queries however nested) answered from the postings; `None` when it holds no such range (the
/// query is used as it is: a copy would duplicate the term sets of the value dictionary).
/// `plain` is [`without_columns`] of `schema`. The clauses are nested no deeper than the
/// parser's limits allow. (A range under a boost keeps an older index's column, with the same
/// answer: the parser makes one only for a boost the user writes.)
pub fn by_postings(query: &dyn Query, schema: &Schema, plain: &Schema) -> Option<Box<dyn Query>> {
    if let Some(b) = query.downcast_ref::<BooleanQuery>() {
        let rewritten: Vec<Option<Box<dyn Query>>> = b
            .clauses()
            .iter()
            .map(|(_, q)| by_postings(q.as_ref(), schema, plain))
            .collect();
        if rewritten.iter().all(Option::is_none) {
            return None;
        }
        let clauses = b
            .clauses()
            .iter()
            .zip(rewritten)
            .map(|((occur, q), new)| (*occur, new.unwrap_or_else(|| q.box_clone())))
            .collect();
        return Some(Box::new(BooleanQuery::with_minimum_required_clauses(
            clauses,
            b.get_minimum_number_should_match(),
        )));
    }
    let r = query.downcast_ref::<RangeQuery>()?;
    BY_POSTINGS
        .contains(&schema.get_field_name(r.field()))
        .then(|| {
            Box::new(ByPostings {
                query: query.box_clone(),
                schema: plain.clone(),
            }) as Box<dyn Query>
        })
}

/// A range answered from the postings (see the module documentation).
#[derive(Debug)]
struct ByPostings {
    query: Box<dyn Query>,
    schema: Schema,
}

impl Clone for ByPostings {
    fn clone(&self) -> ByPostings {
        ByPostings {
            query: self.query.box_clone(),
            schema: self.schema.clone(),
        }
    }
}

impl Query for ByPostings {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        // Nothing here is scored (every collector asks for all matches, unscored).
        self.query
            .weight(EnableScoring::disabled_from_schema(&self.schema))
    }
}

/// `schema` with the same fields in the same order, its numeric ones without their columns.
pub fn without_columns(schema: &Schema) -> Schema {
    let mut b = Schema::builder();
    for (_, entry) in schema.fields() {
        let name = entry.name().to_string();
        let plain = |o: &NumericOptions| {
            let mut p = NumericOptions::default();
            if o.is_indexed() {
                p = p.set_indexed();
            }
            if o.is_stored() {
                p = p.set_stored();
            }
            if o.fieldnorms() {
                p = p.set_fieldnorm();
            }
            if o.should_coerce() {
                p = p.set_coerce();
            }
            p
        };
        b.add_field(match entry.field_type() {
            FieldType::U64(o) => FieldEntry::new_u64(name, plain(o)),
            FieldType::I64(o) => FieldEntry::new_i64(name, plain(o)),
            FieldType::F64(o) => FieldEntry::new_f64(name, plain(o)),
            FieldType::Bool(o) => FieldEntry::new_bool(name, plain(o)),
            _ => entry.clone(),
        });
    }
    b.build()
}
