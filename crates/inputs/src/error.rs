//! What can go wrong while finding or reading inputs: every failure names the path (and the
//! archive member, when known) and carries the OS or decoder's reason.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why an INPUT could not be found or a source could not be (fully) read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// An INPUT named on the command line does not exist.
    #[error("{}: no such file or directory", .path.display())]
    Missing {
        /// The INPUT as given.
        path: PathBuf,
    },
    /// A file or directory could not be opened, listed or read; nothing of it was delivered.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// An archive is damaged: `delivered` records were handed over before (counting a damaged
    /// one), then this was found.
    #[error("{}: {}{source} (after {delivered} records{})", .path.display(), Member(.member), More(*.more))]
    Damaged {
        /// The archive.
        path: PathBuf,
        /// The member being read when the damage was found, if it is known.
        member: Option<String>,
        /// Records delivered from this source before the error was returned.
        delivered: usize,
        /// Further damaged members skipped after this one (zip only; streams stop at the first).
        more: usize,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

/// Formats an optional member name as a prefix of the cause.
struct Member<'a>(&'a Option<String>);

impl fmt::Display for Member<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(member) => write!(f, "{member}: "),
            None => Ok(()),
        }
    }
}

/// Formats the count of further damaged members, if any.
struct More(usize);

impl fmt::Display for More {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => Ok(()),
            1 => f.write_str("; 1 more damaged member skipped"),
            n => write!(f, "; {n} more damaged members skipped"),
        }
    }
}
