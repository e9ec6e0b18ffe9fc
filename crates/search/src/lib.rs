//! Answers queries over a qipu index: positions, patterns and game information, with
//! continuation tables — exactly as `shared/oracle/README.md` defines them.

mod engine;
mod pattern;
pub mod query;

pub use engine::{
    find_position, find_sequence, Answer, Continuation, Filter, Hit, Moves, SequenceQuery,
};
pub use pattern::find_pattern;
pub use query::{Cell, PatternQuery, PositionQuery};

/// A query that cannot be answered, said in one line.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("{0}")]
    BadQuery(String),
    #[error(transparent)]
    Index(#[from] index::IndexError),
}
