//! Whether a plain file changed on disk while it was read.
//!
//! A file overwritten in place by another program while it is read gives bytes that are partly
//! the old file and partly the new: games torn in two, which parse (short games, wrong moves)
//! and would be indexed as real ones. A large file is mapped, and read for as long as its games
//! are parsed; a small one is read at once. Either way its size and modification time are taken
//! when the reading starts, and again when the caller asks: a file changed meanwhile is refused
//! and read again by a later run, which sees its new identity. (A file replaced by renaming
//! another over it does not count: the reader keeps the old file, whole.)

use std::fs::File;

/// The size and modification time of an open file when its reading started.
#[derive(Debug)]
pub struct Watch(State);

#[derive(Debug)]
enum State {
    /// Being read: the open file is asked again (a path might name another file by then).
    Open {
        file: File,
        len: u64,
        modified: Option<u64>,
    },
    /// Read whole into memory: whether it changed during that read (the bytes are a copy, which
    /// a later change does not touch).
    Settled { changed: bool },
}

impl Watch {
    /// Starts watching `file`. `None` when it cannot be examined (then nothing is known of a
    /// change, as for a stream).
    pub(crate) fn start(file: &File) -> Option<Watch> {
        let meta = file.metadata().ok()?;
        Some(Watch(State::Open {
            file: file.try_clone().ok()?,
            len: meta.len(),
            modified: modified_ns(&meta),
        }))
    }

    /// Ends the watch of a file now read whole: only whether it changed so far is kept.
    pub(crate) fn settle(self) -> Watch {
        Watch(State::Settled {
            changed: self.changed(),
        })
    }

    /// Whether the file's size or modification time differs from when its reading started.
    pub fn changed(&self) -> bool {
        match &self.0 {
            State::Open {
                file,
                len,
                modified,
            } => match file.metadata() {
                Ok(meta) => meta.len() != *len || modified_ns(&meta) != *modified,
                // It cannot be examined any more: nothing says its bytes are still the file's.
                Err(_) => true,
            },
            State::Settled { changed } => *changed,
        }
    }
}

/// A file's modification time in nanoseconds since the epoch, if the system has one.
pub(crate) fn modified_ns(meta: &std::fs::Metadata) -> Option<u64> {
    let since = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    u64::try_from(since.as_nanos()).ok()
}
