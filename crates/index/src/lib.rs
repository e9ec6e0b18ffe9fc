//! Turns piles of Go game records into an index that answers position, pattern and metadata
//! queries in milliseconds, and reads it back.
//!
//! The modules follow the data, one job each:
//! - [`encode`]: what is kept of a replayed game (its program of ops, occupancy, corner events,
//!   positions, skeleton, variation lines, facts, aggregated continuations), in memory;
//! - [`store`]: how it is kept on disk: the segment files, the manifest, the names of every
//!   file ([`store::layout`]), the writer's lock;
//! - [`write`](mod@write): the build, `inputs → parsed and replayed games → segments, metadata and
//!   manifest` ([`build`]);
//! - [`read`]: the reader, [`Index`], and [`Index::verify`];
//! - [`evals`]: an analysed game's engine evaluations and each segment's lists of the moves
//!   that lost most, from encoding to reading (their own two files, only in segments with
//!   analysed games).
//!
//! Errors of all four are [`IndexError`]. The modules other crates name are also at the top:
//! [`aggregate`], [`facts`], [`game`], [`ops`], [`variations`], [`layout`], [`lock`],
//! [`manifest`].
//!
//! Layout of an index folder (every name below is spelled once, in [`layout`]; see
//! `DESIGN-index.md` at the repository root for the reasoning):
//! - `qipu-index.json`: the manifest (segments with their files' lengths and checksums, inputs
//!   read, totals), replaced atomically;
//! - `seg-NNNNNN/`: immutable segments of games (see [`store`]);
//! - `meta/`: the tantivy index of game information, written and read by the `meta` crate;
//! - `rejected.jsonl`: files and games that could not be read, with reasons (`"rejected":
//!   true`), and what files whose games were read say of themselves (`"rejected": false`);
//! - `qipu-index.lock`: the writer's lock (see [`lock`]).
//!
//! A rebuild writes its segments and metadata folder under new names (`seg-G-NNNNNN/`,
//! `meta-G/`, for its generation G) beside the old index, then replaces the manifest.
//!
//! The record files themselves are found and read by the `inputs` crate, before parsing; callers
//! that need it name it directly.

pub mod encode;
mod error;
pub mod evals;
pub mod read;
pub mod store;
pub mod write;

pub use encode::{aggregate, facts, game, ops, variations};
pub use store::{layout, lock, manifest};

pub use encode::pack::{Ops, Watch};
pub use error::IndexError;
pub use evals::{GameEvals, LossOrder, Lost, MistakeHit, MistakeQuery, Mistakes};
pub use facts::Facts;
pub use manifest::{Manifest, Totals};
pub use meta::AliasUpdate;
pub use model::Occurrence;
pub use read::verify::Damage;
pub use read::Index;
pub use store::{
    CornerEvent, GameRec, Occupancy, PosEntry, Vacated, FLAG_LONG, FLAG_MARKS, FLAG_VARIATION,
    MAX_INDEXED_STONES, MAX_TABLE_MOVE, NO_NEXT,
};
pub use write::{build, BuildOptions, BuildSummary, Progress};
