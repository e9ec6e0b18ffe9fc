//! How a command's failure reaches the user: one line, each cause said once, never a Debug dump;
//! and a closed standard output (`qipu stats | head -1`) is no failure at all.

use std::io::ErrorKind;

/// Whether the error is (or was caused by) writing to a pipe whose reader has gone. Rust ignores
/// SIGPIPE, so such a write fails with `BrokenPipe`; every command writes its output with `?`
/// (never `println!`, which panics on it), so the error comes back here, whatever wrapped it.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
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
    }
}
