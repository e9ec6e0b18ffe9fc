//! One writer per index folder.
//!
//! Two `qipu index` runs on one folder used to destroy it: the second deleted the first one's open
//! segment as a leftover before tantivy's own lock refused it. A writer now takes an exclusive
//! advisory lock (`flock`) on `qipu-index.lock` in the folder before it touches anything else,
//! and holds it until it is done; a second writer is refused at once, with the first one's pid.
//!
//! `flock` locks belong to the open file description, not the process: two opens of the file in
//! one process conflict too (two builds on threads), and the kernel drops the lock when its
//! holder dies, however it dies, so a killed run leaves no stale lock. The file itself stays (a
//! deleted lock file could be locked by one process while another creates and locks a new one);
//! readers never look at it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::Path;

use crate::IndexError;

pub use crate::store::layout::LOCK;

/// The writer's lock on an index folder, held while this lives.
#[derive(Debug)]
pub struct WriteLock {
    _file: File,
}

impl WriteLock {
    /// Takes the lock on `dir` (which must exist), or says who holds it.
    pub fn take(dir: &Path) -> Result<WriteLock, IndexError> {
        let p = dir.join(LOCK);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&p)
            .map_err(|e| IndexError::io(&p, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(IndexError::Locked {
                    dir: dir.to_path_buf(),
                    pid: text.trim().parse().ok(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(IndexError::io(&p, e)),
        }
        // Who holds it, for the message a second writer gets. Not synced: it only informs.
        let write_pid = |f: &mut File| -> std::io::Result<()> {
            f.set_len(0)?;
            f.rewind()?;
            writeln!(f, "{}", std::process::id())
        };
        write_pid(&mut file).map_err(|e| IndexError::io(&p, e))?;
        Ok(WriteLock { _file: file })
    }
}

/// The holder's pid, if any, in words for [`IndexError::Locked`].
pub(crate) fn holder(pid: &Option<u32>) -> String {
    pid.map_or_else(String::new, |p| format!(" (pid {p})"))
}
