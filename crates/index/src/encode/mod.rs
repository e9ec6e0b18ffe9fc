//! Encoding: what is kept of each game, worked out from its replay before anything is written.
//! A game's program of ops ([`ops`], packed by `pack`), the points each colour ever held
//! (`occupancy`), its corner events and positions ([`game`]), a skeleton of its moves for long
//! games (`skeleton`), its variation lines ([`variations`]), its facts ([`facts`]) and the
//! pre-aggregated continuations of common positions ([`aggregate`]). How these go into files is
//! the store's job ([`crate::store`]).

pub mod aggregate;
pub mod facts;
pub mod game;
pub(crate) mod occupancy;
pub mod ops;
pub(crate) mod pack;
pub(crate) mod skeleton;
pub mod variations;
