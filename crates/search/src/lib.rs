//! Answers queries over a qipu index: positions, patterns and move sequences, with
//! continuation tables — exactly as `shared/oracle/README.md` defines them. The index is seen
//! through the [`Store`] trait only (what it holds, not how), which the face crate (`qipu`)
//! implements for the index on disk.

mod engine;
mod pattern;
pub mod query;
mod region;
mod sequence;
pub mod store;
mod summed;
mod tally;

pub use engine::{
    answers_from_cells, corner_candidates, find_position, sorted_rows, Answer, Continuation,
    Counts, Filter, Hit, Moves, ProfileCounts,
};
pub use pattern::find_pattern;
pub use query::{Cell, CellFilter, PatternQuery, PositionQuery};
pub use sequence::{find_sequence, span, SequenceQuery, AREA_MARGIN};
pub use store::{Facts, Store};
pub use tally::Tally;

/// A query that cannot be answered, said in one line.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("{0}")]
    BadQuery(String),
}
