//! What can go wrong building or reading an index, with the path or file it concerns.

use std::path::{Path, PathBuf};

use crate::store::{lock, manifest};

/// Errors of building or reading an index.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("index is damaged: {0}")]
    Corrupt(String),
    #[error("no index in {0} (build one with `qipu index --index DIR INPUT...`)")]
    Missing(PathBuf),
    #[error(
        "the index in {dir} has format version {found}; this qipu reads versions {} to {}: \
         rebuild it with `qipu index --rebuild`",
        manifest::OLDEST_READABLE_VERSION,
        manifest::FORMAT_VERSION
    )]
    Version { dir: PathBuf, found: u32 },
    #[error("another qipu is writing to {}{}", dir.display(), lock::holder(pid))]
    Locked { dir: PathBuf, pid: Option<u32> },
    /// Files of the index were cut short by another program while this process read them (see
    /// [`inputs::mapped`]): what was read from them is not the index, so no answer is given.
    #[error(
        "files of the index changed while they were read (truncated by another program?): {}; \
         no answer is given from them (`qipu verify` checks the index)",
        .files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    Changed { files: Vec<PathBuf> },
    /// Files of the index that a search read do not match the checksums taken when they were
    /// written (see `store::check`): what was read from them is not the index, so no answer is
    /// given from it. Each file comes with what is wrong with it.
    #[error(
        "the index is damaged: {}; no answer is given from it (`qipu verify` checks every file, \
         `qipu index --rebuild` makes the index anew)",
        .files.iter().map(|(p, why)| format!("{} {why}", p.display())).collect::<Vec<_>>().join("; ")
    )]
    Damaged { files: Vec<(PathBuf, String)> },
    /// A run asked for variation lines on an index built without them, or the other way round
    /// (see [`crate::encode::variations`]): the index would hold them for some records only.
    #[error(
        "the index in {} was built {} variation lines; this run asks {} them: \
         `qipu index --rebuild` with the setting you want makes it anew",
        dir.display(),
        if *has { "with" } else { "without" },
        if *has { "without" } else { "with" }
    )]
    Variations { dir: PathBuf, has: bool },
    #[error(transparent)]
    Input(#[from] inputs::InputError),
    #[error(transparent)]
    Meta(#[from] meta::MetaError),
    /// The alias file given to a build ([`crate::BuildOptions::aliases`]) cannot be used: the caller's
    /// input, unlike a damaged copy recorded with the index ([`meta::MetaError::Aliases`]).
    #[error("aliases: {0}")]
    AliasFile(meta::AliasError),
}

impl IndexError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> IndexError {
        IndexError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
