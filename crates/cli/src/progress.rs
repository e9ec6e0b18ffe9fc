//! A spinner for a search that takes a while (`--anywhere` on a large index runs for seconds):
//! drawn on standard error, only when standard error is a terminal, and only once the search
//! has run for a second, so quick answers, pipes and scripts never see it. It is cleared before
//! the answer is printed.

use std::io::IsTerminal;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a search runs before the spinner shows.
const DELAY: Duration = Duration::from_secs(1);

/// A running spinner (or nothing, when standard error is no terminal); [`Spinner::stop`] ends
/// it.
pub struct Spinner {
    done: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts the wait for a spinner saying `what` is being done.
    pub fn start(what: &'static str) -> Spinner {
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let thread = std::io::stderr().is_terminal().then(|| {
            let done = Arc::clone(&done);
            let started = Instant::now();
            std::thread::spawn(move || spin(&done, what, started))
        });
        Spinner { done, thread }
    }

    /// Ends the spinner and clears its line.
    pub fn stop(mut self) {
        self.finish();
    }

    fn finish(&mut self) {
        let (lock, wake) = &*self.done;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Spinner {
    /// An error that ends the search early ends the spinner too.
    fn drop(&mut self) {
        self.finish();
    }
}

fn spin(done: &(Mutex<bool>, Condvar), what: &'static str, started: Instant) {
    let (lock, wake) = done;
    let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
    let (guard, _) = wake
        .wait_timeout_while(guard, DELAY, |done| !*done)
        .unwrap_or_else(|e| e.into_inner());
    if *guard {
        return;
    }
    drop(guard);
    // The time shown counts from the search's start, not from when the spinner appeared.
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        .with_elapsed(started.elapsed());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(what);
    bar.enable_steady_tick(Duration::from_millis(120));
    let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
    let _unused = wake
        .wait_while(guard, |done| !*done)
        .unwrap_or_else(|e| e.into_inner());
    bar.finish_and_clear();
}
