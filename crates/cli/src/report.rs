//! How a command's failure reaches the user: one line, each cause said once, never a Debug dump;
//! and a closed standard output (`qipu stats | head -1`) is no failure at all.

use std::io::ErrorKind;
use std::panic::PanicHookInfo;
use std::sync::Mutex;

/// The last panic's message and place, kept by the hook [`record_panics`] installs.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the default panic hook, which prints to standard error at once, by one that keeps
/// the message: a panic caught inside the libraries (tantivy's, turned into an error naming the
/// damaged folder) is then reported once, as that error, and one that reaches `main` is printed
/// there as one line, unless a damaged index file explains it. `RUST_BACKTRACE` keeps the
/// default report too, for whoever debugs.
pub fn record_panics() {
    let default = std::panic::take_hook();
    let debugging = std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0");
    std::panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{what}{place}"));
        if debugging {
            default(info);
        }
    }));
}

/// What the last panic said, for the one line `main` prints when one reaches it.
pub fn last_panic() -> String {
    LAST_PANIC
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| "panic".to_string())
}

/// Whether the error is (or was caused by) writing to a pipe whose reader has gone. Rust ignores
/// SIGPIPE, so such a write fails with `BrokenPipe`; every command writes its output with `?`
/// (never `println!`, which panics on it), so the error comes back here, whatever wrapped it.
/// serde_json's error keeps the I/O error inside (not as its `source`), so it is asked apart.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == Some(ErrorKind::BrokenPipe)
    })
}

/// The error and its causes on one line, `outer: inner`. A library error that already says its
/// cause (`path: No such file or directory (os error 2)`, with the OS error also as its
/// `source`) would otherwise say it twice; a context that repeats what the error says (the path)
/// likewise. So a cause already said is skipped, and a cause that says all that was said so
/// far, and more, replaces it.
pub fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string().replace(['\n', '\r'], " ");
        let text = text.trim();
        if text.is_empty() || line.contains(text) {
            continue;
        }
        if text.contains(line.as_str()) {
            line = text.to_string();
        } else {
            line.push_str(": ");
            line.push_str(text);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library error that says its OS error and also gives it as its source.
    #[derive(Debug)]
    struct AtPath(std::io::Error);

    impl std::fmt::Display for AtPath {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "/x: {}", self.0)
        }
    }

    impl std::error::Error for AtPath {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn each_cause_once() {
        let os = || std::io::Error::from_raw_os_error(2);
        let e = anyhow::Error::new(AtPath(os()));
        assert_eq!(one_line(&e), format!("/x: {}", os()));
        let e = anyhow::Error::new(AtPath(os())).context("/x");
        assert_eq!(one_line(&e), format!("/x: {}", os()));
        let e = anyhow::Error::new(os()).context("reading the pattern");
        assert_eq!(one_line(&e), format!("reading the pattern: {}", os()));
        let pipe = anyhow::Error::new(std::io::Error::from(ErrorKind::BrokenPipe)).context("x");
        assert!(is_closed_pipe(&pipe));
        assert!(!is_closed_pipe(&e));
        let json = serde_json::Error::io(std::io::Error::from(ErrorKind::BrokenPipe));
        assert!(is_closed_pipe(&anyhow::Error::new(json).context("writing")));
    }
}
