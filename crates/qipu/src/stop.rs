//! Giving up on a search from outside it: a server whose time budget for a request ran out, or
//! whose client went away, must not leave the search using the CPU to the end.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A handle that stops a search given it with [`crate::Query::stop_when`]: when
/// [`Stop::stop`] is called (from any thread), or when its deadline passes, the search skips
/// the games it has not replayed yet and [`crate::Index::search`] answers
/// [`crate::ErrorKind::Stopped`] instead of an incomplete answer. Clones share one flag.
///
/// The check is made once per game replayed, so a search stops within one game's replay of
/// the moment (microseconds); the metadata query and the position-table look-up, which are
/// bounded by the query's own limits, run to their end.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Stop {
    /// A handle that stops only when told to.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// A handle that also stops by itself at `deadline`.
    pub fn at(deadline: Instant) -> Stop {
        Stop {
            flag: Arc::default(),
            deadline: Some(deadline),
        }
    }

    /// Stops the searches given this handle (or a clone of it).
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether [`Stop::stop`] was called or the deadline passed.
    pub fn is_stopped(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Two handles are equal when they share a flag (a clone) and a deadline: a query's equality
/// then says whether two queries would stop together.
impl PartialEq for Stop {
    fn eq(&self, other: &Stop) -> bool {
        Arc::ptr_eq(&self.flag, &other.flag) && self.deadline == other.deadline
    }
}

impl Eq for Stop {}
