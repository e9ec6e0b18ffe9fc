//! Answers queries over a qipu index: positions, patterns and move sequences, with
//! continuation tables — exactly as `shared/oracle/README.md` defines them. The index is seen
//! through the [`Store`] trait only (what it holds, not how), which the face crate (`qipu`)
//! implements for the index on disk.

mod answer;
mod back;
mod engine;
mod pattern;
mod position;
pub mod query;
mod region;
mod sequence;
pub mod store;
mod summed;
mod tally;

pub use answer::{Answer, Counts, Hit, Moves, ProfileCounts};
pub use engine::{answers_from_cells, corner_candidates};
pub use pattern::find_pattern;
pub use position::find_position;
pub use query::Filter;
pub use query::{Cell, CellFilter, PatternQuery, PositionQuery};
pub use sequence::{find_sequence, span, SequenceQuery, AREA_MARGIN};
pub use store::{Facts, MoveEval, Store};
pub use tally::{sorted_rows, Continuation};
pub use tally::{EvalSums, Tally};

/// A query that cannot be answered, said in one line.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("{0}")]
    BadQuery(String),
}
