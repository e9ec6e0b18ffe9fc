//! The web board in a real browser: headless Chromium driven through WebDriver (chromedriver),
//! with a few hand-made JSON calls. It loads `/`, places a stone by clicking the board, checks
//! that continuation labels and the game list appear, follows a continuation from the table,
//! goes back, opens a game and steps through it; screenshots go to `target/serve-board.png`
//! and `target/serve-viewer.png`.
//!
//! Skipped, saying so, when chromium or chromedriver is missing, unless
//! `QIPU_REQUIRE_BROWSER=1` (as `.ci/run` sets after installing them).

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|n| {
        std::env::split_paths(&path)
            .map(|d| d.join(n))
            .find(|p| p.is_file())
    })
}

/// chromedriver, ended when dropped (a failed test too).
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A WebDriver session: POSTs and GETs of JSON to chromedriver.
struct Session {
    base: String,
    id: String,
}

fn call(method: &str, url: &str, body: Option<Value>) -> Value {
    let rest = url.trim_start_matches("http://");
    let at = rest.find('/').unwrap_or(rest.len());
    let bytes = body.map(|b| b.to_string()).unwrap_or_default();
    let r = common::Client::new(&rest[..at])
        .send(
            method,
            &rest[at..],
            &[("Content-Type", "application/json")],
            bytes.as_bytes(),
        )
        .unwrap_or_else(|e| panic!("chromedriver {method} {url}: {e}"));
    assert_eq!(r.status, 200, "chromedriver {method} {url}: {}", r.body);
    r.json()
}

impl Session {
    fn post(&self, path: &str, body: Value) -> Value {
        call(
            "POST",
            &format!("{}/session/{}{path}", self.base, self.id),
            Some(body),
        )["value"]
            .clone()
    }

    fn get(&self, path: &str) -> Value {
        call(
            "GET",
            &format!("{}/session/{}{path}", self.base, self.id),
            None,
        )["value"]
            .clone()
    }

    fn script(&self, js: &str) -> Value {
        self.post("/execute/sync", json!({"script": js, "args": []}))
    }

    /// Waits until `js` (a function body) returns true, or fails saying `what`.
    fn wait(&self, what: &str, js: &str) {
        let until = Instant::now() + Duration::from_secs(20);
        while Instant::now() < until {
            if self.script(js) == Value::Bool(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let status = self.script("return document.querySelector('#status').textContent");
        panic!("timed out waiting for {what} (status line: {status})");
    }

    fn count(&self, css: &str) -> u64 {
        self.script(&format!("return document.querySelectorAll({css:?}).length"))
            .as_u64()
            .unwrap_or(0)
    }

    fn click(&self, css: &str) {
        let found = self.post("/elements", json!({"using": "css selector", "value": css}));
        let id = found[0][ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string();
        self.post(&format!("/element/{id}/click"), json!({}));
    }

    fn screenshot(&self, to: &Path) {
        let data = self.get("/screenshot");
        let png = base64(data.as_str().expect("a screenshot"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(to, png).expect("the screenshot written");
        eprintln!("screenshot: {}", to.display());
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

#[test]
fn the_board_works_in_a_real_browser() {
    let required = std::env::var("QIPU_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    let (Some(chromium), Some(chromedriver)) = (
        find(&["chromium", "chromium-browser", "google-chrome"]),
        find(&["chromedriver"]),
    ) else {
        assert!(
            !required,
            "QIPU_REQUIRE_BROWSER=1 but chromium or chromedriver is not on the PATH"
        );
        eprintln!("skipped: chromium and chromedriver are not installed (apt-get install chromium chromium-driver)");
        return;
    };
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let index = tmp.join("index");
    // The samples, and a record whose variation line a search will hit: indexed with
    // variations.
    let extra = tmp.join("records");
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::write(extra.join("v.sgf"), common::WITH_A_VARIATION).unwrap();
    common::build_with(
        &index,
        &[
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/games"),
            extra,
        ],
        true,
    );
    let server = common::start(&index, serve::Config::default());

    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _driver = Driver(
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver started"),
    );
    let base = format!("http://127.0.0.1:{port}");
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let status = common::Client::new(&base).send("GET", "/status", &[], b"");
        if status.is_ok_and(|r| r.status == 200 && r.json()["value"]["ready"] == true) {
            break;
        }
        assert!(Instant::now() < until, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = tmp.join("profile");
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let caps = json!({"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {"binary": chromium.to_string_lossy(), "args": args},
    }}});
    let created = call("POST", &format!("{base}/session"), Some(caps));
    let s = Session {
        base: base.clone(),
        id: created["value"]["sessionId"]
            .as_str()
            .expect("a session")
            .to_string(),
    };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();

    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.post("/url", json!({"url": format!("{}/", server.base)}));
        // The empty board: every game, and the first moves as labels.
        s.wait(
            "the first answer",
            "return document.querySelectorAll('#games tbody tr').length > 0",
        );
        s.wait(
            "continuation labels",
            "return document.querySelectorAll('.cont-label').length > 0",
        );
        assert_eq!(s.count("[data-stone]"), 0);
        let games_at_start = s.count("#games tbody tr");

        // Place a stone by clicking the board where a game's first move was.
        let first = s.script("return document.querySelector('.cont-label').dataset.pt");
        let first = first.as_str().unwrap().to_string();
        s.click(&format!("#board rect.pt[data-pt={first:?}]"));
        s.wait(
            "the stone",
            "return document.querySelectorAll('#board [data-stone]').length === 1",
        );
        s.wait(
            "the answer after one stone",
            "return document.querySelectorAll('#games tbody tr').length > 0 && document.querySelectorAll('.cont-label').length > 0",
        );
        assert!(s.count("#games tbody tr") <= games_at_start);
        let hash = s.script("return location.hash");
        assert!(
            hash.as_str().unwrap().contains(&format!("b={first}")),
            "{hash}"
        );
        s.screenshot(&out.join("serve-board.png"));

        // Follow the most played continuation from the table: a second stone, a new answer.
        s.click("#conts tbody tr");
        s.wait(
            "the continuation played",
            "return document.querySelectorAll('#board [data-stone]').length === 2",
        );
        s.wait(
            "the answer after it",
            "return document.querySelectorAll('#games tbody tr').length > 0",
        );
        // Back (the key) undoes it; forward again.
        s.script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}))");
        s.wait(
            "back",
            "return document.querySelectorAll('#board [data-stone]').length === 1",
        );
        s.click("#forward");
        s.wait(
            "forward",
            "return document.querySelectorAll('#board [data-stone]').length === 2",
        );

        // A typed shareable URL gives its state back: the Black tool, and a reload.
        let url = s.script("return location.href");
        s.post("/url", json!({"url": url}));
        s.wait(
            "the state from the URL",
            "return document.querySelectorAll('#board [data-stone]').length === 2",
        );

        // Open a game: the viewer starts at the hit and steps through the main line.
        s.wait(
            "the game list",
            "return document.querySelectorAll('#games tbody tr').length > 0",
        );
        s.click("#games tbody tr");
        s.wait(
            "the viewer",
            "return !document.querySelector('#viewer').hidden && /move 2 \\//.test(document.querySelector('#viewer-move').textContent)",
        );
        assert_eq!(s.count("#viewer-board [data-stone]"), 2);
        s.click("#v-next");
        s.wait(
            "the next move",
            "return /move 3 \\//.test(document.querySelector('#viewer-move').textContent)",
        );
        s.wait(
            "three stones",
            "return document.querySelectorAll('#viewer-board [data-stone]').length === 3",
        );
        let sgf = s.script("return document.querySelector('#viewer-sgf').getAttribute('href')");
        assert!(sgf.as_str().unwrap().ends_with("/sgf"), "{sgf}");
        let record = common::get(&server.base, sgf.as_str().unwrap(), &[], "*/*");
        assert_eq!(record.status, 200);
        assert!(record.body.starts_with("(;"), "{}", record.body);
        s.screenshot(&out.join("serve-viewer.png"));
        s.click("#viewer-close");
        s.wait(
            "the viewer closed",
            "return document.querySelector('#viewer').hidden",
        );

        // Pattern mode and the metadata box give answers too.
        s.click("#pattern-mode");
        s.wait("a pattern answer", "return /games/.test(document.querySelector('#summary').textContent) && location.hash.includes('pat=1')");
        s.click("#pattern-mode");
        s.click("#clear");
        s.wait("a clear board", "return document.querySelectorAll('#board [data-stone]').length === 0 && !location.hash.includes('pat=1')");
        s.script("document.querySelector('#f-player').value = '孙策'");
        s.click("#meta button[type=submit]");
        s.wait(
            "the metadata filter",
            "return document.querySelectorAll('#games tbody tr').length === 1 && document.querySelector('#games tbody tr').textContent.includes('孙策')",
        );

        // A page past the end, as a URL may hold it, says so, and leads back.
        s.post("/url", json!({"url": "about:blank"}));
        s.post(
            "/url",
            json!({"url": format!("{}/#o=999999&b=pd", server.base)}),
        );
        s.wait(
            "the page past the end",
            "return /^past the last of /.test(document.querySelector('#page').textContent) && !document.querySelector('#prev').disabled",
        );

        // A hit on a variation line opens that line: its moves, its board at the hit.
        s.post("/url", json!({"url": "about:blank"}));
        s.post(
            "/url",
            json!({"url": format!("{}/#b=pd,jj&w=dd,pp", server.base)}),
        );
        s.wait(
            "the variation hit",
            "return document.querySelectorAll('#games tbody tr.variation').length === 1",
        );
        s.click("#games tbody tr.variation");
        s.wait(
            "the line in the viewer",
            "return !document.querySelector('#viewer').hidden && /move 4 \\/ 5/.test(document.querySelector('#viewer-move').textContent)",
        );
        let info = s.script("return document.querySelector('#viewer-info').textContent");
        assert!(info.as_str().unwrap().contains("variation"), "{info}");
        let points = s.script(
            "return [...document.querySelectorAll('#viewer-board [data-stone]')].map((e) => e.dataset.pt).sort().join(',')",
        );
        assert_eq!(
            points, "dd,jj,pd,pp",
            "the line's board at the hit, not the main line's"
        );
        s.click("#v-next");
        s.wait(
            "the line's last move",
            "return /move 5 \\/ 5/.test(document.querySelector('#viewer-move').textContent) && document.querySelectorAll('#viewer-board [data-stone]').length === 5",
        );
        // The stones on the viewer's board are the line's, not the main line's (B pq there).
        let points = s.script(
            "return [...document.querySelectorAll('#viewer-board [data-stone]')].map((e) => e.dataset.pt).sort().join(',')",
        );
        assert_eq!(points, "dd,jj,pd,pp,qq");
    }));
    call("DELETE", &format!("{base}/session/{}", s.id), None);
    let _ = std::fs::remove_dir_all(&tmp);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}
