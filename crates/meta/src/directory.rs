//! The tantivy directory qipu hands to tantivy: its memory-mapped directory, with these changes.
//!
//! - **Readers write nothing.** tantivy's reader takes `.tantivy-meta.lock` while it opens its
//!   segments (creating the file if needed), so a search needed write access to `meta/` and left a
//!   file behind. That lock only keeps tantivy's garbage collection, in the same index, from
//!   deleting files while they are opened; qipu's writer runs in another process, which that lock
//!   does not stop from merging anyway. A reader therefore gets a lock that touches nothing, and
//!   every write through it fails. What a reader racing a merge can meet is a file that was just
//!   deleted: an error naming it, never a wrong answer (the next search opens the new files).
//! - **Files are readable by others.** tantivy writes `meta.json` and `.managed.json` through a
//!   temporary file made private (mode 0600); qipu writes them like every other file of the index,
//!   with the mode the umask leaves (0644 by default), so that an index built by one user can be
//!   searched by another.
//! - **A reader's maps are guarded.** A reader maps each file itself under [`inputs::mapped`], so
//!   a file truncated by another program while a search reads it is reported as damaged instead
//!   of killing the process with `SIGBUS`. (The writer keeps tantivy's own maps: it reads only
//!   the files it is writing, under its lock.)
//! - **A reader checks what it opens.** Each file's footer checksum is checked the first time this
//!   process opens it for reading (a large document store excepted: see [`check_whole`]), so a
//!   flipped byte that still decodes is refused, naming the file, instead of answered from.
//!   A large document store is checked by blocks instead, as they are read, against its
//!   sidecar of block sums when it has one (see [`super::blocksums`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    DirectoryLock, FileHandle, Lock, MmapDirectory, OwnedBytes, WatchCallback, WatchHandle,
    WritePtr,
};
use tantivy::Directory;

use inputs::mapped::Mapped;

use super::blocksums::summed;
use super::footer::footer_sound;

/// Whether the tantivy file `path`, `len` bytes long, is checked whole when a reader first opens
/// it. Every file that decides which games match (terms, postings, positions, columns, norms,
/// deletes) is: a flipped byte there changes an answer without any error. The document store of the
/// games is not once it is large: it is most of the folder, and checking it whole would cost every
/// one-shot query in proportion to the index (BENCHMARKS.md, Opening an index and printing hits:
/// checks of what a search reads); a reader only shows what it holds, and its damage is met by the
/// checks of each document (`stored.rs`) and tantivy's decompression (DESIGN-index.md, "Damage
/// is reported").
fn check_whole(path: &Path, len: u64) -> bool {
    !summed(path, len)
}

/// The files this process has found sound, by path, length and modification time: tantivy never
/// changes a file once written, so a file is checked once, not at every search of a server or
/// every reload.
static SOUND: std::sync::Mutex<
    Option<std::collections::HashSet<(PathBuf, u64, std::time::SystemTime)>>,
> = std::sync::Mutex::new(None);

/// Checks `bytes`, the whole of the tantivy file `path` (open as `file`), against the CRC-32 in
/// its footer, once per process: a flipped byte that still decodes (a letter of a stored name,
/// a number in a column) would otherwise be answered from. An error names the file.
fn checked(path: &Path, file: &std::fs::File, bytes: &OwnedBytes) -> io::Result<()> {
    let meta = file.metadata()?;
    let key = (path.to_path_buf(), meta.len(), meta.modified()?);
    if !check_whole(path, meta.len()) {
        return Ok(());
    }
    let sound =
        |s: &mut Option<std::collections::HashSet<_>>| s.as_ref().is_some_and(|s| s.contains(&key));
    if sound(&mut SOUND.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(());
    }
    footer_sound(path, bytes)?;
    SOUND
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(Default::default)
        .insert(key);
    Ok(())
}

#[derive(Clone, Debug)]
pub(crate) struct QipuDirectory {
    inner: MmapDirectory,
    root: PathBuf,
    read_only: bool,
}

impl QipuDirectory {
    pub(crate) fn new(inner: MmapDirectory, root: &Path, read_only: bool) -> QipuDirectory {
        QipuDirectory {
            inner,
            root: root.to_path_buf(),
            read_only,
        }
    }

    fn refuse(&self, path: &Path) -> io::Error {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} is opened for reading only",
                self.root.join(path).display()
            ),
        )
    }
}

impl Directory for QipuDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        if !self.read_only {
            return self.inner.get_file_handle(path);
        }
        let full = self.root.join(path);
        let wrap = |e: io::Error| {
            if e.kind() == io::ErrorKind::NotFound {
                OpenReadError::FileDoesNotExist(path.to_path_buf())
            } else {
                OpenReadError::wrap_io_error(e, path.to_path_buf())
            }
        };
        let file = std::fs::File::open(&full).map_err(wrap)?;
        let len = file.metadata().map_err(wrap)?.len();
        if len == 0 {
            return Ok(Arc::new(OwnedBytes::empty()));
        }
        let map = Mapped::map(&file, &full).map_err(wrap)?;
        let bytes = OwnedBytes::new(map);
        checked(&full, &file, &bytes).map_err(wrap)?;
        if summed(&full, len) {
            if let Some(sums) = super::blocksums::load(&full, len).map_err(wrap)? {
                return Ok(Arc::new(super::blocksums::Summed::new(bytes, full, sums)));
            }
        }
        Ok(Arc::new(bytes))
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        if self.read_only {
            return Err(DeleteError::IoError {
                io_error: Arc::new(self.refuse(path)),
                filepath: path.to_path_buf(),
            });
        }
        self.inner.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        if self.read_only {
            return Err(OpenWriteError::wrap_io_error(
                self.refuse(path),
                path.to_path_buf(),
            ));
        }
        self.inner.open_write(path)
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }

    /// Write a temporary file beside the target (created with the umask's mode), sync it, rename
    /// it over the target: a reader sees the old content or the new, never a part.
    fn atomic_write(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        if self.read_only {
            return Err(self.refuse(path));
        }
        let target = self.root.join(path);
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".{}.tmp", std::process::id()));
        let tmp = target.with_file_name(name);
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_data()?;
        std::fs::rename(&tmp, &target)
    }

    fn sync_directory(&self) -> io::Result<()> {
        if self.read_only {
            return Ok(());
        }
        self.inner.sync_directory()
    }

    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        if self.read_only {
            return Ok(DirectoryLock::from(Box::new(())));
        }
        self.inner.acquire_lock(lock)
    }

    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(watch_callback)
    }
}
