//! A bitboard Go engine that replays game records exactly and hashes every position under all
//! symmetries.
//!
//! - [`Board`] executes setup and moves on any board from 1×1 to 52×52, square or rectangular, with
//!   the oracle's contract: put the stone, remove opponent groups without liberties, then the mover's
//!   own group if it has none. Illegal moves (suicide, simple-ko retake, occupied or off-board points)
//!   are executed as documented on [`Board::play`] and flagged, never panicking.
//! - [`MoveOutcome`] says what each move changed (stone placed, stones removed, flags), so followers
//!   of a game can update their own state cheaply.
//! - Hashes: 64-bit Zobrist, maintained incrementally for the 8 orientations and both colourings at
//!   once; [`Board::canonical_key`] is the same for every symmetric image of a position. The choice of
//!   width, seeding and the colour-swap trick are explained in the `zobrist` module (source), in short:
//!   a fixed splitmix64 stream, white keys = α·black keys in GF(2⁶⁴), per-lookup false matches
//!   ≤ 1.4·10⁻⁸ against 10⁹ indexed positions.
//! - [`Symmetry`] names the 8 transformations; the first 4 are those of a rectangle.
//! - [`Position`] is a plain snapshot (size and stones) with equality and from-scratch hashing, for
//!   verification.
//!
//! Stones live in one `u64` per row ([`Bitboard`]), so captures are found by dilating bit sets, not by
//! recursion, with one code path for every board size.

mod bitboard;
mod board;
pub mod corner;
mod outcome;
mod position;
mod replay;
mod symmetry;
mod zobrist;

pub use bitboard::{Bitboard, Points};
pub use board::Board;
pub use outcome::{MoveFlags, MoveOutcome, StoneList};
pub use position::{sorted_sgf_points, BoardSizeError, Position};
pub use replay::{replay_main_line, Note, NoteKind, Replay};
pub use sgf::{Color, Point};
pub use symmetry::Symmetry;
