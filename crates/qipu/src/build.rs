//! Building an index, or adding to one, from record files, folders and archives. Progress and
//! everything that was not read go back to the caller; nothing is printed.

use std::path::{Path, PathBuf};

use crate::error::Error;

/// The build's types are the index crate's own, where the build runs: one definition, no copy
/// converted field by field at this seam.
pub use index::{AliasUpdate, BuildOptions, BuildSummary, Progress, Totals};

/// Builds the index in `dir` from `inputs` (record files, folders searched recursively,
/// archives: `.zip`, `.tar`, `.tar.gz`, `.tar.zst`, `.sgf.zst`), or adds to it: inputs already
/// indexed and unchanged are skipped, changed ones read again. `progress` is called as the build
/// goes. One writer at a time: a second is [`crate::ErrorKind::Busy`]. A run killed at any
/// moment leaves the index as it was committed; the next run finishes the work.
///
/// The parsing runs on rayon's global pool, beside two threads of the build's own.
pub fn build(
    dir: impl AsRef<Path>,
    inputs: &[PathBuf],
    options: &BuildOptions,
    progress: impl FnMut(Progress),
) -> Result<BuildSummary, Error> {
    Ok(index::build(dir.as_ref(), inputs, options, progress)?)
}
