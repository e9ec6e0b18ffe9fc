//! KataGo's analysis engine as a subprocess: queries written to its standard input, its
//! answers read on a thread of their own and handed over with a timeout, so that an engine
//! that stops answering, dies or writes garbage is an error and never a hang.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest line of output read (a 19×19 answer with every candidate is some 100 kB).
const MAX_LINE: u64 = 64 << 20;
/// Lines of KataGo's standard error kept to say why it stopped.
const STDERR_LINES: usize = 20;

/// What the reading thread hands over.
enum Line {
    Text(String),
    End,
    Failed(String),
}

/// What waiting for an answer gave, when it gave no answer.
#[derive(Debug)]
pub enum Silence {
    /// Nothing came within the timeout.
    TimedOut,
    /// The engine closed its output (it exited): with its exit status and its last words on
    /// standard error.
    Ended(String),
    /// Its output could not be read (a line too long, not UTF-8, an I/O error).
    Unreadable(String),
}

/// A running KataGo; killed when dropped.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Closed when standard error has been read to its end.
    stderr_done: Receiver<()>,
}

impl Engine {
    /// Starts `katago analysis -config CFG -model NET`, with `overrides` (KataGo's
    /// `-override-config`, `key=value,key=value`) when not empty.
    pub fn start(
        katago: &Path,
        config: &Path,
        model: &Path,
        overrides: &str,
    ) -> std::io::Result<Engine> {
        let mut cmd = Command::new(katago);
        cmd.arg("analysis")
            .arg("-config")
            .arg(config)
            .arg("-model")
            .arg(model);
        if !overrides.is_empty() {
            cmd.arg("-override-config").arg(overrides);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let got = (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf);
                let line = match got {
                    Ok(0) => Line::End,
                    Ok(_) if buf.last() != Some(&b'\n') && buf.len() as u64 >= MAX_LINE => {
                        Line::Failed(format!("a line longer than {MAX_LINE} bytes"))
                    }
                    Ok(_) => match String::from_utf8(buf) {
                        Ok(s) => Line::Text(s),
                        Err(_) => Line::Failed("a line that is not UTF-8".into()),
                    },
                    Err(e) => Line::Failed(e.to_string()),
                };
                let last = !matches!(line, Line::Text(_));
                if tx.send(line).is_err() || last {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = Arc::clone(&stderr);
        let (done, stderr_done) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            let _done = done;
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { return };
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        let stdin = child.stdin.take();
        Ok(Engine {
            child,
            stdin,
            lines,
            stderr,
            stderr_done,
        })
    }

    /// Sends one query (a line of JSON).
    pub fn send(&mut self, query: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("standard input closed"))?;
        stdin.write_all(query.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next line of output, waiting at most `timeout`.
    pub fn next(&mut self, timeout: Duration) -> Result<String, Silence> {
        match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(s)) => Ok(s),
            Ok(Line::Failed(why)) => Err(Silence::Unreadable(why)),
            Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => {
                Err(Silence::Ended(self.last_words()))
            }
            Err(RecvTimeoutError::Timeout) => Err(Silence::TimedOut),
        }
    }

    /// The exit status and the end of standard error, once the engine has ended.
    pub fn last_words(&mut self) -> String {
        // The output closed: the process is ending; give its stderr thread a moment.
        let status = (0..50).find_map(|_| match self.child.try_wait() {
            Ok(Some(s)) => Some(s.to_string()),
            Ok(None) => {
                std::thread::sleep(Duration::from_millis(20));
                None
            }
            Err(e) => Some(e.to_string()),
        });
        // Its last words may still be on their way (a child holding standard error open
        // keeps it from ending: then what came within a second).
        let _ = self.stderr_done.recv_timeout(Duration::from_secs(1));
        let said = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect::<Vec<_>>()
            .join(" | ");
        format!(
            "{}{}",
            status.unwrap_or_else(|| "still running".into()),
            if said.is_empty() {
                String::new()
            } else {
                format!("; it said: {said}")
            }
        )
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
