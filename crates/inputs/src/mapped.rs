//! Memory maps that survive their file being cut short under them.
//!
//! An index's large files (the position table, replay programs, occupancy, tantivy's postings)
//! are memory-mapped: reading them whole would cost their size in memory at every open. A map
//! has one hazard: when another program truncates the file while it is mapped, reading a page
//! past the new end raises `SIGBUS`, which kills the process — a server would die with every
//! search it was running. qipu never truncates a file it has written (a rebuild writes new files
//! beside the old ones), so this is about other programs, or a disk filling under a copy.
//!
//! [`Mapped`] registers its address range in a fixed table that a `SIGBUS` handler consults.
//! When a fault lands inside a registered range, the handler maps zeroed anonymous memory over
//! the pages from the faulting one to the end of the range (they no longer exist in the file)
//! and marks the range as damaged; the read that faulted then sees zeros and the process goes
//! on. Zeros are not the file's content, so every answer computed while a range is damaged is
//! suspect: callers check [`damaged`] after a search (and after catching a panic that zeros may
//! have caused) and report the files named there instead of the answer. A fault outside every
//! registered range goes to the handler that was installed before (Rust's own, which reports a
//! stack overflow or restores the default action), so nothing else changes behaviour.
//!
//! The handler does only async-signal-safe work: atomic loads and stores, and one `mmap`
//! system call. The table has a fixed number of slots; a map made when every slot is taken is
//! still made, unguarded (the behaviour of a plain map), which [`Mapped::is_guarded`] tells.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use memmap2::Mmap;

/// How many maps can be guarded at once: an index maps a few files per segment, and tantivy a
/// few per segment of its own; thousands of segments are far beyond any index qipu builds.
const SLOTS: usize = 8192;

struct Slot {
    start: AtomicUsize,
    len: AtomicUsize,
    damaged: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Slot = Slot {
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    damaged: AtomicBool::new(false),
};

static TABLE: [Slot; SLOTS] = [EMPTY; SLOTS];
/// One past the highest slot ever used: the handler scans no further.
static HIGH: AtomicUsize = AtomicUsize::new(0);
/// The files of the slots in use, for [`damaged`]; never touched by the handler.
static NAMES: Mutex<Vec<(usize, PathBuf)>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();

/// A read-only memory map of a whole file, guarded against the file being truncated (see the
/// module documentation).
pub struct Mapped {
    map: Mmap,
    slot: Option<usize>,
}

impl Mapped {
    /// Maps `file` (which must not be empty: an empty file cannot be mapped), registering the
    /// map under `path` for [`damaged`].
    pub fn map(file: &File, path: &Path) -> io::Result<Mapped> {
        // SAFETY: the map is only read. A truncation of the file by another program while it is
        // mapped is what this module handles: the pages lost read as zeros and the map is
        // reported damaged, instead of the process being killed.
        let map = unsafe { Mmap::map(file)? };
        install();
        let slot = register(map.as_ptr() as usize, map.len(), path);
        Ok(Mapped { map, slot })
    }

    /// Whether a truncation of the file has been caught under this map: what was read from it
    /// since may be zeros instead of the file's bytes.
    pub fn is_damaged(&self) -> bool {
        self.slot
            .is_some_and(|i| TABLE[i].damaged.load(Ordering::Acquire))
    }

    /// Whether the map is registered with the handler (false only when every slot was taken).
    pub fn is_guarded(&self) -> bool {
        self.slot.is_some()
    }

    /// Asks the kernel to back the map with huge pages where it can (`MADV_HUGEPAGE`, Linux
    /// only; elsewhere, and where the kernel declines, nothing changes). For a file, this makes
    /// a page read from disk for the map come in as a 2 MiB folio, mapped with one page-table
    /// entry: what a search scanning a large part of the file needs, and what readahead alone
    /// does not give (BENCHMARKS.md, Indexing: segment files in 2 MiB chunks).
    pub fn advise_huge_pages(&self) {
        #[cfg(target_os = "linux")]
        // A hint: a kernel without transparent huge pages refuses it, and the map stays usable.
        let _ = self.map.advise(memmap2::Advice::HugePage);
    }
}

impl Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapped")
            .field("len", &self.map.len())
            .field("guarded", &self.is_guarded())
            .field("damaged", &self.is_damaged())
            .finish()
    }
}

// SAFETY: the bytes live in the map, which does not move when a `Mapped` moves.
unsafe impl stable_deref_trait::StableDeref for Mapped {}

impl Drop for Mapped {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            // Under the names' lock, which `register` holds too: the slot cannot be taken again
            // before its name has left the list (or the new map's name would go with it).
            let mut names = names();
            if TABLE[i].damaged.load(Ordering::Acquire) {
                if let Some((_, path)) = names.iter().find(|(slot, _)| *slot == i) {
                    cut().push(path.clone());
                }
            }
            names.retain(|(slot, _)| *slot != i);
            // The range leaves the table before the map is unmapped (when `self.map` drops
            // after this), so the handler never claims a fault in memory that is no longer it.
            TABLE[i].len.store(0, Ordering::Release);
            TABLE[i].start.store(0, Ordering::Release);
            TABLE[i].damaged.store(false, Ordering::Release);
        }
    }
}

/// The files of the live maps in which a truncation was caught. Anything read from them since
/// may be zeros; an answer computed meanwhile must not be given.
pub fn damaged() -> Vec<PathBuf> {
    let names = names();
    names
        .iter()
        .filter(|(i, _)| TABLE[*i].damaged.load(Ordering::Acquire))
        .map(|(_, p)| p.clone())
        .collect()
}

/// Every file found cut in this process: the live damaged maps' and those of damaged maps
/// dropped since. For a command's last word (an error may have dropped the index that read
/// them before the command could say why it failed); a long-running process asks [`damaged`],
/// which forgets a map once it is gone.
pub fn cut_in_this_process() -> Vec<PathBuf> {
    let mut all = cut().clone();
    for p in damaged() {
        if !all.contains(&p) {
            all.push(p);
        }
    }
    all
}

/// Files of damaged maps that were dropped.
static CUT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn cut() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    CUT.lock().unwrap_or_else(|e| e.into_inner())
}

fn names() -> std::sync::MutexGuard<'static, Vec<(usize, PathBuf)>> {
    // A panic while the list was held cannot leave it inconsistent (each change is one call).
    NAMES.lock().unwrap_or_else(|e| e.into_inner())
}

fn register(start: usize, len: usize, path: &Path) -> Option<usize> {
    if !installed() {
        return None;
    }
    let mut names = names();
    for (i, slot) in TABLE.iter().enumerate() {
        if slot
            .start
            .compare_exchange(0, start, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            slot.damaged.store(false, Ordering::Release);
            slot.len.store(len, Ordering::Release);
            HIGH.fetch_max(i + 1, Ordering::AcqRel);
            names.push((i, path.to_path_buf()));
            return Some(i);
        }
    }
    None
}

#[cfg(unix)]
mod handler {
    use super::*;
    use std::mem::MaybeUninit;

    static mut PREVIOUS: MaybeUninit<libc::sigaction> = MaybeUninit::uninit();
    static PAGE: AtomicUsize = AtomicUsize::new(0);
    pub(super) static OK: AtomicBool = AtomicBool::new(false);

    pub(super) fn install() {
        // SAFETY: plain libc calls; PREVIOUS is written once, here, before the handler that
        // reads it is installed (inside `Once`).
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE);
            if page <= 0 {
                return;
            }
            PAGE.store(page as usize, Ordering::Release);
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_bus as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            let previous = &raw mut PREVIOUS;
            if libc::sigaction(libc::SIGBUS, &action, (*previous).as_mut_ptr()) == 0 {
                OK.store(true, Ordering::Release);
            }
        }
    }

    extern "C" fn on_bus(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
        // SAFETY: the kernel hands a valid siginfo to an SA_SIGINFO handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Acquire);
        let high = HIGH.load(Ordering::Acquire);
        for slot in &TABLE[..high] {
            let start = slot.start.load(Ordering::Acquire);
            let len = slot.len.load(Ordering::Acquire);
            if start == 0 || addr < start || addr >= start + len {
                continue;
            }
            let from = addr & !(page - 1);
            let end = (start + len).div_ceil(page) * page;
            // SAFETY: [from, end) lies within this live map (its start is page-aligned and the
            // kernel maps whole pages); replacing those pages with zeroed memory is what the
            // map's owner agreed to, and the map's own unmapping later removes them too.
            let zeros = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                slot.damaged.store(true, Ordering::Release);
                return;
            }
            break;
        }
        // Not ours (or the zero pages could not be made): what would have happened without us.
        // SAFETY: PREVIOUS was filled by `install` before this handler could run.
        unsafe {
            let previous: *const libc::sigaction = (&raw const PREVIOUS).cast();
            let handler = (*previous).sa_sigaction;
            if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
                // Restore it and return: the access faults again and takes the default action.
                libc::sigaction(libc::SIGBUS, previous, std::ptr::null_mut());
            } else if (*previous).sa_flags & libc::SA_SIGINFO != 0 {
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(handler);
                f(sig, info, context);
            } else {
                let f: extern "C" fn(libc::c_int) = std::mem::transmute(handler);
                f(sig);
            }
        }
    }
}

#[cfg(unix)]
fn install() {
    INSTALL.call_once(handler::install);
}

#[cfg(unix)]
fn installed() -> bool {
    handler::OK.load(Ordering::Acquire)
}

#[cfg(not(unix))]
fn install() {
    INSTALL.call_once(|| {});
}

/// Elsewhere a truncated mapped file is an access violation this module does not catch.
#[cfg(not(unix))]
fn installed() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qipu-mapped-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("file")
    }

    #[test]
    fn a_truncated_file_reads_zeros_and_says_so() {
        let path = temp("trunc");
        let page = 4096 * 4;
        std::fs::File::create(&path)
            .unwrap()
            .write_all(&vec![7u8; page * 3])
            .unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let map = Mapped::map(&file, &path).unwrap();
        assert!(map.is_guarded());
        assert_eq!(map[page * 2 + 5], 7);
        assert!(!map.is_damaged());
        // Another program cuts the file to one page while it is mapped.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(page as u64)
            .unwrap();
        // Without the guard this read kills the test process with SIGBUS.
        let past: u64 = map[page..].iter().map(|&b| b as u64).sum();
        assert_eq!(past, 0);
        assert_eq!(
            map[10], 7,
            "the bytes the file still holds are read as before"
        );
        assert!(map.is_damaged());
        assert!(damaged().contains(&path));
        drop(map);
        assert!(!damaged().contains(&path), "a dropped map leaves the list");
        assert!(
            cut_in_this_process().contains(&path),
            "but the process remembers it"
        );
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn an_intact_map_is_not_damaged() {
        let path = temp("intact");
        std::fs::write(&path, b"abc").unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let map = Mapped::map(&file, &path).unwrap();
        assert_eq!(&map[..], b"abc");
        assert!(!map.is_damaged());
        assert!(!damaged().contains(&path));
        drop(map);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
