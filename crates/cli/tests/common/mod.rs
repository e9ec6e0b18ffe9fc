//! What the command line's tests share: the built `qipu` run in an environment of the test's
//! own making, its output read as text or JSON lines, the sample corpus, an index of it built
//! once per test binary for the tests that only read it, and `qipu serve` with a plain GET.
//!
//! A module of the CLI's tests rather than of `testdata`: only these tests have the binary
//! (`CARGO_BIN_EXE_qipu`), and each crate's tests stay buildable alone.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

// Not every test binary writes files.
#[allow(unused_imports)]
pub use testdata::Scratch;

/// The built binary, with none of the caller's settings that would change an answer: no
/// default index (`QIPU_INDEX`), colour neither forced nor refused (so that it is off on the
/// pipes tests read, unless a test asks), and a panic said in one line, without a backtrace.
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_qipu"));
    c.env_remove("QIPU_INDEX")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env("RUST_BACKTRACE", "0");
    c
}

/// Runs qipu with `args`, an empty standard input, and waits for it.
pub fn qipu(args: &[&str]) -> Output {
    run(args, b"", &[])
}

/// Runs qipu with `args`, `stdin` on its standard input and `env` added to [`command`]'s
/// environment, and waits for it.
pub fn run(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut c = command();
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("qipu runs");
    let mut input = child.stdin.take().expect("a piped stdin");
    input.write_all(stdin).expect("qipu reads its input");
    drop(input);
    child.wait_with_output().expect("qipu's output")
}

/// Standard output as text (bytes that are not UTF-8 shown as U+FFFD).
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text (bytes that are not UTF-8 shown as U+FFFD).
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every line of standard output as JSON; panics on output that is not UTF-8 or a line that
/// is not JSON, naming it.
pub fn json_lines(out: &Output) -> Vec<Value> {
    std::str::from_utf8(&out.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The repository's sample folder (`samples/`: `games/` and `queries/`).
pub fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

/// The sample records (`samples/games`).
pub fn sample_games() -> PathBuf {
    samples().join("games")
}

/// Builds an index in `index` of `inputs` with `qipu index --quiet`, asserting that it
/// succeeded.
pub fn build(index: &Path, inputs: &[&Path]) {
    let mut c = command();
    c.args(["index", "--quiet", "--index"])
        .arg(index)
        .args(inputs);
    let out = c.output().expect("qipu runs");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// An index of the sample records, built once per test binary, for tests that only read it
/// (a test that writes to an index, damages it or builds it another way makes its own).
pub fn samples_index() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let index = kept("samples").join("index");
        build(&index, &[&sample_games()]);
        index
    })
}

/// A folder for what a test binary builds once and its tests share: `NAME-PID` under cargo's
/// scratch folder for integration tests. A static is never dropped, so such a folder outlives
/// its process; those of earlier runs whose process has ended are removed here instead.
pub fn kept(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(env!("CARGO_CRATE_NAME"));
    let me = std::process::id();
    for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
        let file = entry.file_name();
        let pid = file
            .to_str()
            .and_then(|f| f.rsplit('-').next())
            .and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| pid != me && ended(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = root.join(format!("{name}-{me}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder for the test binary");
    dir
}

/// Whether process `pid` has ended, where the system says so (`/proc`); elsewhere it is taken
/// to run still, and its folder is left.
fn ended(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.is_dir() && !proc.join(pid.to_string()).exists()
}

/// `qipu serve` over `indexes` on a port it picks on the loopback interface, ended when
/// dropped.
pub struct Serving {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The first line it printed, which names the address.
    pub first_line: String,
}

impl Serving {
    /// Starts the server and waits for its first line.
    pub fn start(indexes: &[&Path]) -> Serving {
        let mut c = command();
        c.args(["serve", "--bind", "127.0.0.1:0"]);
        for i in indexes {
            c.arg("--index").arg(i);
        }
        let mut child = c
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("qipu serve runs");
        let mut first_line = String::new();
        let read =
            BufReader::new(child.stdout.take().expect("a piped stdout")).read_line(&mut first_line);
        // Ended whatever happens next: a test that fails leaves no server behind.
        let mut served = Serving {
            child,
            addr: String::new(),
            first_line,
        };
        read.expect("its first line");
        served.addr = served
            .first_line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {:?}", served.first_line))
            .to_string();
        served
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server's reply: its head (status line and headers) and body.
pub struct Reply {
    pub head: String,
    pub body: String,
}

impl Reply {
    /// The status code of the status line.
    pub fn status(&self) -> u16 {
        self.head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {:?}", self.head))
    }
}

/// A GET of `target` from the server at `addr`, accepting `accept`, on a connection closed
/// after the reply.
pub fn get(addr: &str, target: &str, accept: &str) -> Reply {
    let mut s = TcpStream::connect(addr).expect("the server accepts");
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n"
    )
    .expect("the request is sent");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("a reply");
    let (head, body) = reply.split_once("\r\n\r\n").expect("a whole reply");
    Reply {
        head: head.to_string(),
        body: body.to_string(),
    }
}

/// The tests' evaluation property: each main-line node's comment `WIN LEAD`, Black's win in
/// 1/10,000 and his lead in tenths (`-` for none), as `testdata::analysed` writes it; a test
/// gives it to the build as its evaluation reader (`BuildOptions::evals`).
pub fn comment_evals(tree: &sgf::GameTree<'_>) -> Option<sgf::Evals> {
    let positions: Vec<Option<sgf::Eval>> = tree
        .main_line()
        .map(|node| {
            let text = node.get(sgf::ids::C)?.text().to_string();
            let mut words = text.split(' ');
            let win: i32 = words.next()?.parse().ok()?;
            let lead = words.next()?.parse::<i32>().ok();
            Some(sgf::Eval {
                win: win as f32 / 10_000.0,
                lead: lead.map(|l| l as f32 / 10.0),
                visits: None,
            })
        })
        .collect();
    positions.iter().any(Option::is_some).then_some(sgf::Evals {
        positions,
        program: "test",
        engine: None,
    })
}
