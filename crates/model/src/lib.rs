//! The small types that cross from the index to the search, defined once: a game's [`Facts`]
//! (with the rank scale they use), the [`CellKey`] its positions are summed under, the summed
//! cells ([`MoveCell`], [`GameCell`]), an [`Occurrence`] of a hash in the position table, a
//! [`CornerEvent`] of a key in the corner table, [`NO_NEXT`], the next-move code of a final position, and
//! the [`Change`] a stored op makes to the board, as a pattern scan reads it.
//!
//! The index writes these and the search reads them; both depend on this crate so that
//! neither copies the other's types nor converts them field by field. How they are stored
//! (bytes, files) stays with the index; what they mean is said here.

mod cells;
mod change;
mod corner;
mod facts;
mod occurrence;

pub use cells::{CellKey, GameCell, MoveCell};
pub use change::Change;
pub use corner::CornerEvent;
pub use facts::{rank, Facts};
pub use occurrence::Occurrence;

/// The next-move code of a position no move followed (a game's final position), in the
/// position table, the corner table and a replay's steps. Every other code is a move, read by
/// the index.
pub const NO_NEXT: u16 = u16::MAX;
