//! The web board in a real browser: headless Chromium driven through WebDriver (chromedriver),
//! with a few hand-made JSON calls. It loads `/`, places a stone by clicking the board, checks
//! that continuation labels and the game list appear, follows a continuation from the table,
//! goes back, opens a game and steps through it, and searches the moves played as a sequence;
//! screenshots go to `target/serve-board.png` and `target/serve-viewer.png`. On real games (`../shared/datasets/fox-pro`), it draws a
//! corner pattern, checks the continuation table's columns and the date chart against the
//! API's answer, and walks a joseki by clicking continuation labels, back and by a reloaded
//! URL (`target/serve-joseki.png`). On hand-made analysed games (Sabaki's `SBKV`/`SBKS`), the
//! viewer's evaluation graph and mistakes and the Mistakes mode's table against the API
//! (`target/serve-evals.png`). On hand-made games with and without evaluations, the
//! continuation table's engine columns and the costly rows' marked labels against the API,
//! also in a narrow window (`target/serve-rows.png`, `target/serve-rows-narrow.png`); the
//! Mistakes mode opened from the explorer's position and sequence against the API
//! (`target/serve-mistakes-from.png`).
//!
//! Skipped, saying so, when chromium or chromedriver is missing, unless
//! `QIPU_REQUIRE_BROWSER=1` (as `.ci/run` sets after installing them); the walk also without
//! the shared datasets, unless `QIPU_REQUIRE_DATASETS=1`.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
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

/// chromium and chromedriver, or `None` after saying that the test is skipped without them
/// (a failure when `QIPU_REQUIRE_BROWSER=1`).
fn browsers() -> Option<(PathBuf, PathBuf)> {
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
        return None;
    };
    Some((chromium, chromedriver))
}

/// One browser at a time: the tests of this file run in parallel threads, and a machine of few
/// cores running two Chromiums makes both slow enough to reach their waits' bounds.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// Where the screenshots go: `target/`.
fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs `test` in a WebDriver session of a fresh headless Chromium whose profile is under
/// `tmp`, then ends the session and chromedriver (the test's failure is passed on after).
fn in_browser(browsers: (PathBuf, PathBuf), tmp: &Path, test: impl FnOnce(&Session)) {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let (chromium, chromedriver) = browsers;
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
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| test(&s)));
    call("DELETE", &format!("{base}/session/{}", s.id), None);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn the_board_works_in_a_real_browser() {
    let Some(browsers) = browsers() else {
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
    let out = out_dir();

    in_browser(browsers, &tmp, |s| {
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
        // The position's table has the CLI's columns and its example games, and the date
        // chart a bar per dated year of the API's answer to the same position.
        let position = api(
            &server.base,
            "/api/position",
            &[
                ("black".into(), first.clone()),
                ("limit".into(), "20".into()),
            ],
        );
        s.wait_rows("the position's answer", &expected_rows(&position));
        let examples = s.script(
            "return [...document.querySelectorAll('#conts tbody a.example')].map((a) => a.textContent)",
        );
        let want: Vec<Value> = position["continuations"]
            .as_array()
            .unwrap()
            .iter()
            .take(40)
            .filter_map(|c| c["example"].as_str().map(|e| json!(e)))
            .collect();
        assert!(!want.is_empty(), "{position}");
        assert_eq!(examples, Value::Array(want));
        let years = position["profile"]["years"].as_array().unwrap().len();
        assert!(years > 0, "{position}");
        assert_eq!(s.count("#profile g.period"), years as u64);
        // A position's rows are its next moves: no count after tenuki to split.
        let heads = s.script(
            "return [...document.querySelectorAll('#conts thead th')].map((t) => t.textContent)",
        );
        assert!(
            !heads.as_array().unwrap().iter().any(|t| t == "tenuki"),
            "{heads}"
        );
        // The samples carry no evaluations: no engine column, not columns of dashes.
        assert!(
            position["continuations"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["analysed"] == 0),
            "{position}"
        );
        assert!(
            !heads
                .as_array()
                .unwrap()
                .iter()
                .any(|t| ENGINE_HEADS.iter().any(|h| t == h)),
            "{heads}"
        );
        // Undated games are counted in words, not drawn on a year.
        let undated = position["profile"]["undated"].as_u64().unwrap();
        let note = s.script("return document.querySelector('#profile-note').textContent");
        if undated > 0 {
            assert!(
                note.as_str()
                    .unwrap()
                    .starts_with(&format!("{undated} undated")),
                "{note}"
            );
        } else {
            assert_eq!(note, "");
        }
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

        // The moves played, searched as a sequence: its answer is the API's, and a label
        // followed makes the sequence one move longer.
        s.post("/url", json!({"url": "about:blank"}));
        s.post("/url", json!({"url": format!("{}/", server.base)}));
        s.wait(
            "continuation labels",
            "return document.querySelectorAll('.cont-label').length > 0",
        );
        let mut moves = Vec::new();
        for step in 0..2 {
            let label = s.script(
                "const l = document.querySelector('#board .cont-label'); return [l.dataset.pt, l.dataset.color]",
            );
            s.click(&format!("#board rect.pt[data-pt={}]", label[0]));
            moves.push(format!(
                "{}[{}]",
                label[1].as_str().unwrap(),
                label[0].as_str().unwrap()
            ));
            if step == 0 {
                s.click("#sequence");
            }
            s.wait(
                "the moves in the URL",
                &format!(
                    "return new URLSearchParams(location.hash.slice(1)).get('mv') === {:?} && location.hash.includes('sq=1')",
                    moves.iter().map(|m| m.replace(['[', ']'], "")).collect::<Vec<_>>().join(",")
                ),
            );
            let answer = api(
                &server.base,
                "/api/sequence",
                &[
                    ("moves".into(), moves.join(" ")),
                    ("limit".into(), "20".into()),
                ],
            );
            // A one-move sequence is played in every game that played the move; a longer one
            // need not be where its last move came late (sequences have a window).
            assert!(
                step > 0 || answer["games"].as_u64().unwrap() > 0,
                "{answer}"
            );
            s.wait_rows(
                &format!("the sequence of {} moves", moves.len()),
                &expected_rows(&answer),
            );
            let years = answer["profile"]["years"].as_array().unwrap().len();
            assert_eq!(s.count("#profile g.period"), years as u64);
            s.wait(
                "the summary naming the sequence",
                &format!(
                    "return document.querySelector('#summary').textContent.includes('the sequence of {} moves')",
                    moves.len()
                ),
            );
        }
    });
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The board's state as its URL holds it (`location.hash`, read by the browser's own
/// `URLSearchParams`): parameter → value.
fn hash_state(s: &Session) -> serde_json::Map<String, Value> {
    match s.script("return Object.fromEntries(new URLSearchParams(location.hash.slice(1)))") {
        Value::Object(m) => m,
        other => panic!("the URL's state: {other}"),
    }
}

/// The API request (`/api/pattern` parameters) for the pattern a board state holds, built here
/// from the URL's stones, marks and region rather than by the page: what the board must show
/// is the answer to the pattern its URL says.
fn pattern_params(st: &serde_json::Map<String, Value>) -> Vec<(String, String)> {
    let text = |k: &str| st.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let size: i64 = st
        .get("s")
        .and_then(Value::as_str)
        .map_or(19, |v| v.parse().unwrap());
    let list = |k: &str| -> Vec<String> {
        text(k)
            .split(',')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (black, white) = (list("b"), list("w"));
    let marks: Vec<String> = list("m");
    let region: Vec<i64> = match text("r").as_str() {
        "" => vec![0, 0, size - 1, size - 1],
        r => r.split(',').map(|v| v.parse().unwrap()).collect(),
    };
    let letter = |i: i64| (b'a' + i as u8) as char;
    let mut rows = Vec::new();
    for y in region[1]..=region[3] {
        let mut row = String::new();
        for x in region[0]..=region[2] {
            let p = format!("{}{}", letter(x), letter(y));
            row.push(if black.contains(&p) {
                'X'
            } else if white.contains(&p) {
                'O'
            } else if let Some(m) = marks.iter().find(|m| m.starts_with(&p)) {
                m.chars().nth(2).unwrap()
            } else {
                '.'
            });
        }
        rows.push(row);
    }
    vec![
        ("diagram".into(), rows.join("/")),
        ("place".into(), format!("{},{}", region[0], region[1])),
        ("size".into(), size.to_string()),
        ("limit".into(), "20".into()),
    ]
}

/// The API's answer to `params` on `path`.
fn api(base: &str, path: &str, params: &[(String, String)]) -> Value {
    let pairs: Vec<(&str, &str)> = params
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let r = common::get(base, path, &pairs, "application/json");
    assert_eq!(r.status, 200, "{path} {params:?}: {}", r.body);
    r.json()
}

/// The rows the continuation table must show for `answer`: colour, point and count of its
/// first 40 continuations.
fn expected_rows(answer: &Value) -> Value {
    Value::Array(
        answer["continuations"]
            .as_array()
            .unwrap()
            .iter()
            .take(40)
            .map(|c| json!([c["color"], c["point"], c["count"].to_string()]))
            .collect(),
    )
}

const TABLE_ROWS: &str = "return [...document.querySelectorAll('#conts tbody tr')].map((r) => [r.dataset.color, r.dataset.pt, r.dataset.count])";

const STONES: &str = "return Object.fromEntries([...document.querySelectorAll('#board [data-stone]')].map((e) => [e.dataset.pt, e.dataset.stone]))";

impl Session {
    /// Waits until the continuation table shows `rows` ([`expected_rows`]).
    fn wait_rows(&self, what: &str, rows: &Value) {
        let until = Instant::now() + Duration::from_secs(20);
        let mut shown = Value::Null;
        while Instant::now() < until {
            shown = self.script(TABLE_ROWS);
            if &shown == rows {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("{what}: the table shows {shown}, the API answers {rows}");
    }
}

#[test]
fn a_joseki_is_walked_by_clicks_on_the_board() {
    let Some(fox) = testdata::dataset("fox-pro") else {
        return;
    };
    let Some(browsers) = browsers() else {
        return;
    };
    let tmp =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-joseki-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let index = tmp.join("index");
    // 224 professional games of 2013 to 2019: corner joseki played often enough to walk.
    common::build(&index, &[fox.join("2p")]);
    let server = common::start(&index, serve::Config::default());
    let base = server.base.clone();

    in_browser(browsers, &tmp, |s| {
        s.post("/url", json!({"url": format!("{base}/")}));
        s.wait(
            "the first answer",
            "return document.querySelectorAll('#games tbody tr').length > 0",
        );
        // Draw a corner pattern: the upper right 7×7 region holding Black's 4-4 stone.
        s.click("#pattern-mode");
        s.click("button[data-tool=region]");
        s.click("#board rect.pt[data-pt=ma]");
        s.click("#board rect.pt[data-pt=sg]");
        s.click("button[data-tool=B]");
        s.click("#board rect.pt[data-pt=pd]");
        s.wait(
            "the pattern in the URL",
            "const p = new URLSearchParams(location.hash.slice(1)); return p.get('pat') === '1' && p.get('r') === '12,0,18,6' && p.get('b') === 'pd'",
        );
        let st = hash_state(s);
        let params = pattern_params(&st);
        let first = api(&base, "/api/pattern", &params);
        assert!(
            first["continuations"].as_array().unwrap().len() > 3,
            "a corner the games play: {first}"
        );
        s.wait_rows("the corner's answer", &expected_rows(&first));

        // The rich columns: ranks, years and an example game, as the CLI prints them.
        let heads = s.script(
            "return [...document.querySelectorAll('#conts thead th')].map((t) => t.textContent)",
        );
        for h in [
            "move", "count", "share", "B win", "W win", "mover", "opp.", "years", "example",
        ] {
            assert!(
                heads.as_array().unwrap().iter().any(|t| t == h),
                "column {h} in {heads}"
            );
        }
        let top = &first["continuations"][0];
        let cells = s.script(
            "return [...document.querySelectorAll('#conts tbody tr:first-child td')].map((t) => t.textContent)",
        );
        let cells = cells.as_array().unwrap();
        let example = top["example"].as_str().expect("an example game");
        assert!(cells.iter().any(|c| c == example), "{cells:?}");
        let (y0, y1) = (&top["first_year"], &top["last_year"]);
        let years = if y0 == y1 {
            y0.to_string()
        } else {
            format!("{y0}–{y1}")
        };
        assert!(cells.iter().any(|c| c == &years), "{years} in {cells:?}");

        // The date profile: a bar per dated year of the answer, then per month.
        let years = first["profile"]["years"].as_array().unwrap().len();
        assert!(years > 1, "{}", first["profile"]);
        assert_eq!(s.count("#profile g.period"), years as u64);
        s.click("#by-month");
        let mut monthly = params.clone();
        monthly.push(("by_month".into(), "true".into()));
        let months = api(&base, "/api/pattern", &monthly)["profile"]["months"]
            .as_array()
            .expect("months")
            .len();
        assert!(months > years, "{months} months, {years} years");
        s.wait(
            "the profile by month",
            &format!("return location.hash.includes('bm=1') && document.querySelectorAll('#profile g.period').length === {months}"),
        );
        s.click("#by-month");
        s.wait(
            "the profile by year",
            &format!("return !location.hash.includes('bm=1') && document.querySelectorAll('#profile g.period').length === {years}"),
        );

        // The example opens its game in the viewer, at the position where the pattern hit it
        // (its first hit), whose next moves show the continuation.
        s.click("#conts tbody tr:first-child a.example");
        let (file, game) = example.rsplit_once('#').unwrap();
        let mut in_file = params.clone();
        in_file.push(("query".into(), format!("file:\"{file}\"")));
        let hits = api(&base, "/api/pattern", &in_file);
        let hit = hits["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["game"] == game.parse::<u64>().unwrap())
            .unwrap_or_else(|| panic!("the example among the hits: {hits}"));
        let at = &hit["moves"][0];
        s.wait(
            "the example game",
            &format!(
                "return !document.querySelector('#viewer').hidden && document.querySelector('#viewer-info').textContent.includes({:?}) && /^move {at} \\//.test(document.querySelector('#viewer-move').textContent)",
                format!("{file} #{game}")
            ),
        );
        s.click("#viewer-close");
        s.wait(
            "the viewer closed",
            "return document.querySelector('#viewer').hidden",
        );
        s.wait_rows("the corner's answer again", &expected_rows(&first));

        // Rows that say how many came after tenuki, and a summary that counts the hits with no
        // further move in the region (pattern answers carry them when the server counts them):
        // the split columns and the count appear, and only when the rows carry the split.
        assert_eq!(
            heads.as_array().unwrap().iter().any(|t| t == "tenuki"),
            top.get("tenuki").is_some(),
            "{heads}"
        );
        let split = s.script(
            "answer.no_continuation = 7; answer.continuations.forEach((c, i) => { c.tenuki = i % 2; }); render(); \
             const heads = [...document.querySelectorAll('#conts thead th')].map((t) => t.textContent); \
             const first = [...document.querySelectorAll('#conts tbody tr:first-child td')].map((t) => t.textContent); \
             const second = [...document.querySelectorAll('#conts tbody tr:nth-child(2) td')].map((t) => t.textContent); \
             return [first[heads.indexOf('direct')], first[heads.indexOf('tenuki')], second[heads.indexOf('direct')], second[heads.indexOf('tenuki')], document.querySelector('#summary').textContent]",
        );
        let count = |i: usize| first["continuations"][i]["count"].as_u64().unwrap();
        assert_eq!(split[0], count(0).to_string(), "{split}");
        assert_eq!(split[1], "0", "{split}");
        assert_eq!(split[2], (count(1) - 1).to_string(), "{split}");
        assert_eq!(split[3], "1", "{split}");
        assert!(
            split[4]
                .as_str()
                .unwrap()
                .contains("7 with no further move there"),
            "{split}"
        );

        // Walk three moves of a joseki by clicking the most played continuation's label: each
        // adds that stone to the pattern and searches again.
        s.click("button[data-tool=move]");
        let mut walk = vec![(s.script("return location.hash"), expected_rows(&first))];
        for step in 1..=3 {
            let label = s.script(
                "const l = document.querySelector('#board .cont-label'); return l && [l.dataset.pt, l.dataset.color]",
            );
            let (pt, color) = (
                label[0]
                    .as_str()
                    .unwrap_or_else(|| panic!("a label at step {step}"))
                    .to_string(),
                label[1].as_str().unwrap().to_string(),
            );
            let before = s.script(STONES);
            let hash = s.script("return location.hash");
            s.click(&format!("#board rect.pt[data-pt={pt:?}]"));
            s.wait(
                &format!("the stone of step {step}"),
                &format!(
                    "const s = {}; return Object.keys(s).length === {} && s[{pt:?}] === {color:?}",
                    STONES.trim_start_matches("return "),
                    before.as_object().unwrap().len() + 1
                ),
            );
            assert_ne!(s.script("return location.hash"), hash, "step {step}");
            let st = hash_state(s);
            let list = if color == "B" { "b" } else { "w" };
            assert!(
                st[list].as_str().unwrap().split(',').any(|p| p == pt),
                "step {step}: {pt} in the URL's stones: {st:?}"
            );
            // The stone is inside the pattern's region (grown to hold it when the server's
            // continuation lay outside).
            let r: Vec<u8> = st["r"]
                .as_str()
                .unwrap()
                .split(',')
                .map(|v| v.parse().unwrap())
                .collect();
            let (x, y) = (pt.as_bytes()[0] - b'a', pt.as_bytes()[1] - b'a');
            assert!(
                (r[0]..=r[2]).contains(&x) && (r[1]..=r[3]).contains(&y),
                "step {step}: {pt} in the region {r:?}"
            );
            let answer = api(&base, "/api/pattern", &pattern_params(&st));
            assert!(
                answer["games"].as_u64().unwrap() > 0,
                "step {step}: {answer}"
            );
            let rows = expected_rows(&answer);
            s.wait_rows(&format!("the answer after step {step}"), &rows);
            walk.push((s.script("return location.hash"), rows));
        }
        s.screenshot(&out_dir().join("serve-joseki.png"));

        // Back twice: the pattern after the first step, and its answer.
        for back in [2, 1] {
            s.script("history.back()");
            let (hash, rows) = &walk[back];
            s.wait(
                &format!("back to step {back}"),
                &format!("return location.hash === {hash}"),
            );
            s.wait_rows(&format!("the answer of step {back}"), rows);
            assert_eq!(
                s.count("#board [data-stone]"),
                1 + back as u64,
                "the stones of step {back}"
            );
        }
        // The URL reloaded shows the same pattern and answer.
        let stones = s.script(STONES);
        let url = s.script("return location.href");
        s.post("/url", json!({"url": "about:blank"}));
        s.post("/url", json!({"url": url}));
        s.wait_rows("the reloaded answer", &walk[1].1);
        assert_eq!(s.script(STONES), stones);
        assert_eq!(s.script("return location.hash"), walk[1].0);
    });
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A 19×19 game of `moves` moves by `black` and `white` on `date`, each position evaluated as
/// Sabaki writes it (`SBKV` Black's win in percent, `SBKS` Black's lead, on the node whose
/// position they evaluate: the root for the start) when `analysed`. Black plays along rows 2–3,
/// White along rows 15–16: nothing is captured. The win rate drifts, with falls and rises of
/// `swings` (move, change in percent points) after those moves.
fn analysed_game(
    black: &str,
    white: &str,
    date: &str,
    moves: usize,
    swings: &[(usize, f64)],
    analysed: bool,
) -> String {
    let letter = |i: usize| (b'a' + i as u8) as char;
    let mut win = 50.0f64;
    let eval = |win: f64, k: usize| {
        if !analysed {
            return String::new();
        }
        let lead = (win - 50.0) / 3.0 + (k % 3) as f64 * 0.1;
        format!("SBKV[{win:.2}]SBKS[{lead:.2}]")
    };
    let mut sgf = format!(
        "(;GM[1]FF[4]SZ[19]KM[6.5]PB[{black}]PW[{white}]DT[{date}]RE[B+R]{}",
        eval(win, 0)
    );
    for k in 1..=moves {
        let (colour, x, y) = if k % 2 == 1 {
            let n = (k - 1) / 2;
            ('B', n % 19, 2 + n / 19)
        } else {
            let n = (k - 2) / 2;
            ('W', n % 19, 15 + n / 19)
        };
        // A small drift each move, and the swings asked.
        win += if k % 4 < 2 { 0.7 } else { -0.55 };
        if let Some((_, d)) = swings.iter().find(|(m, _)| *m == k) {
            win += d;
        }
        win = win.clamp(1.0, 99.0);
        sgf.push_str(&format!(
            ";{colour}[{}{}]{}",
            letter(x),
            letter(y),
            eval(win, k)
        ));
    }
    sgf.push(')');
    sgf
}

/// A server over three games in `tmp`: a.sgf (Alpha–Beta, 40 moves, Sabaki's evaluations,
/// swings at moves 11, 24 and 33), b.sgf (Gamma–Alpha, 30 moves, swings at 7 and 18) and c.sgf
/// (no evaluations), indexed with their evaluations.
fn analysed_server(tmp: &Path) -> common::Running {
    let _ = std::fs::remove_dir_all(tmp);
    let records = tmp.join("records");
    std::fs::create_dir_all(&records).unwrap();
    let games = [
        (
            "a.sgf",
            analysed_game(
                "Alpha",
                "Beta",
                "2019-05-01",
                40,
                &[(11, -22.0), (24, 31.0), (33, -12.5)],
                true,
            ),
        ),
        (
            "b.sgf",
            analysed_game(
                "Gamma",
                "Alpha",
                "2021-03-02",
                30,
                &[(7, -15.0), (18, 9.0)],
                true,
            ),
        ),
        (
            "c.sgf",
            analysed_game("Delta", "Beta", "2020-01-01", 20, &[], false),
        ),
    ];
    for (name, sgf) in &games {
        std::fs::write(records.join(name), sgf).unwrap();
    }
    let index = tmp.join("index");
    let opts = qipu::BuildOptions {
        rebuild: true,
        evals: Some(sgf::eval::read),
        ..qipu::BuildOptions::default()
    };
    qipu::build(&index, &[records], &opts, |_| {}).expect("an index built");
    common::start(&index, serve::Config::default())
}

fn served_game(base: &str, name: &str, params: &[(&str, &str)]) -> Value {
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    api(base, &format!("/api/game/{name}/0"), &params)
}

fn moves_marked(game: &Value) -> Vec<u64> {
    game["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move_number"].as_u64().unwrap())
        .collect()
}

/// A served game carries the evaluations its record carries, as the library reads them (`qipu
/// show --json`'s), and its mistakes as `/api/mistakes` finds them in that game, at the
/// threshold asked (10% by default); a game without evaluations has neither, and a bad
/// threshold is a 400 naming `mistakes`. (Needs no browser.)
#[test]
fn a_served_game_carries_its_evaluations_and_the_searchs_mistakes() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-game-evals-{}", std::process::id()));
    let server = analysed_server(&tmp);
    let a = served_game(&server.base, "a.sgf", &[("at", "0")]);
    let positions = a["evaluations"]["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 41, "{a}");
    assert_eq!(a["evaluations"]["program"], "Sabaki");
    // The record's own numbers, read by the library.
    let record = std::fs::read(tmp.join("records/a.sgf")).unwrap();
    let read = qipu::records::read_record(&record).games[0]
        .evaluations()
        .unwrap();
    let read: Value = serde_json::from_str(&serde_json::to_string(&read).unwrap()).unwrap();
    assert_eq!(a["evaluations"], read);
    // The falls for Black at 11 and 33 and the rise at White's 24 (a fall for White).
    assert_eq!(moves_marked(&a), [11, 24, 33], "{a}");
    assert_eq!(a["mistake_threshold"], "10%");
    // The game's mistakes are the search's for that game, at each threshold.
    for word in ["10%", "3%", "2pt"] {
        let game = served_game(&server.base, "a.sgf", &[("mistakes", word)]);
        let search = api(
            &server.base,
            "/api/mistakes",
            &[
                ("mistakes".into(), word.into()),
                ("query".into(), "black:Alpha AND white:Beta".into()),
            ],
        );
        let mut searched = search["hits"].as_array().unwrap().clone();
        searched.sort_by_key(|m| m["move_number"].as_u64());
        assert!(!searched.is_empty(), "{word}");
        assert_eq!(Value::Array(searched), game["mistakes"], "{word}");
        assert_eq!(game["mistake_threshold"], word);
    }
    // A record without evaluations has neither.
    let c = served_game(&server.base, "c.sgf", &[]);
    assert!(
        c.get("evaluations").is_none() && c.get("mistakes").is_none(),
        "{c}"
    );
    // Asked without them (a step through a game the client holds), neither.
    let bare = served_game(
        &server.base,
        "a.sgf",
        &[("at", "5"), ("evaluations", "false")],
    );
    assert!(
        bare.get("evaluations").is_none() && bare.get("mistakes").is_none(),
        "{bare}"
    );
    assert_eq!(bare["at"], 5);
    let bad = common::get(
        &server.base,
        "/api/game/a.sgf/0",
        &[("mistakes", "lots")],
        "application/json",
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.json()["param"], "mistakes");
}

/// The web board on analysed games: the viewer's evaluation graph has a point per evaluation
/// the API gives (move, Black's win, lead), higher for a higher win rate; its mistakes are the
/// API's; a click on the graph and on a mistake moves the board; the Mistakes mode's table is
/// the `/api/mistakes` answer (also for a player typed in its form), and a click on a row opens
/// the game after that move (`target/serve-evals.png`).
#[test]
fn an_analysed_games_evaluations_and_mistakes_are_shown() {
    let Some(browsers) = browsers() else {
        return;
    };
    let tmp =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-evals-{}", std::process::id()));
    let server = analysed_server(&tmp);
    let game = |name: &str, at: usize| served_game(&server.base, name, &[("at", &at.to_string())]);
    let a = game("a.sgf", 0);
    let positions = a["evaluations"]["positions"].as_array().unwrap().clone();
    let marked = moves_marked(&a);
    assert_eq!(marked, [11, 24, 33], "{a}");
    let out = out_dir();

    in_browser(browsers, &tmp, |s| {
        // The viewer opened on game a at its start (a link to it).
        s.post(
            "/url",
            json!({"url": format!("{}/#v=a.sgf%090%090%090%09", server.base)}),
        );
        s.wait(
            "the evaluation graph",
            "return document.querySelectorAll('#viewer-graph circle.ev').length > 0",
        );
        let points = s.script(
            "return [...document.querySelectorAll('#viewer-graph circle.ev')].map((c) => [Number(c.dataset.move), Number(c.dataset.win), c.dataset.lead === '' ? null : Number(c.dataset.lead), Number(c.getAttribute('cy'))])",
        );
        let points = points.as_array().unwrap();
        assert_eq!(points.len(), positions.len());
        for (p, e) in points.iter().zip(&positions) {
            assert_eq!(p[0], e["move"], "{p} {e}");
            assert_eq!(p[1].as_f64(), e["win"].as_f64(), "{p} {e}");
            assert_eq!(p[2].as_f64(), e["lead"].as_f64(), "{p} {e}");
        }
        // Drawn higher (a smaller y) for a higher win rate.
        for p in points {
            for q in points {
                if p[1].as_f64() > q[1].as_f64() {
                    assert!(p[3].as_f64() < q[3].as_f64(), "{p} above {q}");
                }
            }
        }
        let moves_of = |css: &str| {
            s.script(&format!(
                "return [...document.querySelectorAll({css:?})].map((e) => Number(e.dataset.move))"
            ))
        };
        assert_eq!(moves_of("#viewer-graph path.mistake"), json!(marked));
        assert_eq!(moves_of("#viewer-mistakes button.mistake"), json!(marked));
        assert_eq!(s.count("#viewer-graph polyline.lead"), 1);

        // A click in the graph's middle: the move under it, as the graph places moves (600
        // wide, the plot from 34 to 560, 40 moves).
        let middle = ((300.0 - 34.0) / 526.0 * 40.0f64).round() as u64;
        s.click("#viewer-graph svg");
        let at = |k: u64| {
            format!("return document.querySelector('#viewer-move').textContent === 'move {k} / 40' && document.querySelector('#viewer-graph line.now').dataset.move === '{k}'")
        };
        s.wait("the board at the clicked move", &at(middle));
        // The step asked for the board only; the graph is the one the game's first answer gave.
        let asked = s.script(
            "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/api/game/a.sgf/0?at='))",
        );
        let asked: Vec<&str> = asked
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(asked.len() >= 2, "{asked:?}");
        assert!(!asked[0].contains("evaluations=false"), "{asked:?}");
        assert!(
            asked[1..].iter().all(|u| u.contains("evaluations=false")),
            "{asked:?}"
        );
        assert_eq!(s.count("#viewer-graph circle.ev"), positions.len() as u64);
        let board = game("a.sgf", middle as usize);
        let stones = s.script(
            "return [...document.querySelectorAll('#viewer-board [data-stone]')].map((e) => e.dataset.stone + e.dataset.pt).sort()",
        );
        let mut want: Vec<String> = ["black", "white"]
            .iter()
            .flat_map(|c| {
                board[c]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(move |p| format!("{}{}", &c[..1].to_uppercase(), p.as_str().unwrap()))
            })
            .collect();
        want.sort();
        assert_eq!(stones, json!(want));
        // A mistake's button goes to it, its stone ringed.
        s.click("#viewer-mistakes button.mistake[data-move='24']");
        s.wait("the board at move 24", &at(24));
        assert_eq!(s.count("#viewer-board circle.mistake-ring"), 2);
        s.script("document.querySelector('#viewer-close').click(); return true");

        // The Mistakes mode: the table is the API's answer.
        s.click("#mode-mistakes");
        let rows_of = "return [...document.querySelectorAll('#mistakes tbody tr')].map((r) => [r.dataset.file, Number(r.dataset.game), Number(r.dataset.move), r.cells[0].textContent])";
        let expect = |params: &[(&str, &str)]| {
            let mut all: Vec<(String, String)> = vec![("limit".into(), "20".into())];
            all.extend(params.iter().map(|(k, v)| (k.to_string(), v.to_string())));
            let answer = api(&server.base, "/api/mistakes", &all);
            let rows: Vec<Value> = answer["hits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let mover = if m["color"] == "B" {
                        &m["info"]["black"]
                    } else {
                        &m["info"]["white"]
                    };
                    let stone = if m["color"] == "B" { "●" } else { "○" };
                    json!([
                        m["info"]["file"],
                        m["info"]["game_in_file"],
                        m["move_number"],
                        format!("{stone} {}", mover.as_str().unwrap())
                    ])
                })
                .collect();
            assert!(!rows.is_empty(), "{params:?}: {answer}");
            Value::Array(rows)
        };
        let wait_table = |what: &str, want: &Value| {
            let until = Instant::now() + Duration::from_secs(20);
            let mut shown = Value::Null;
            while Instant::now() < until {
                shown = s.script(rows_of);
                if &shown == want {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            panic!("{what}: the table shows {shown}, the API answers {want}");
        };
        wait_table("the mistakes at 10%", &expect(&[("mistakes", "10%")]));
        // Every move that lost anything: two pages of 20.
        s.script("document.querySelector('#mk-loss').value = '0%'; return true");
        s.click("#mk-form button[type=submit]");
        wait_table("the first page at 0%", &expect(&[("mistakes", "0%")]));
        s.click("#mk-next");
        let second = expect(&[("mistakes", "0%"), ("offset", "20")]);
        wait_table("the second page at 0%", &second);
        assert_ne!(second, expect(&[("mistakes", "0%")]));
        // Words typed in the form: a lower threshold, one player's moves, newest first.
        s.script(
            "document.querySelector('#mk-loss').value = '5%'; document.querySelector('#mk-player').value = 'Alpha'; document.querySelector('#mk-sort').value = 'newest'; return true",
        );
        s.click("#mk-form button[type=submit]");
        let by_alpha = expect(&[("mistakes", "5%"), ("player", "Alpha"), ("sort", "newest")]);
        wait_table("Alpha's mistakes at 5%", &by_alpha);
        let hash = s
            .script("return location.hash")
            .as_str()
            .unwrap()
            .to_string();
        assert!(hash.contains("mk=1") && hash.contains("mp=Alpha"), "{hash}");
        // A click on a row opens its game after that move.
        let first = &by_alpha[0];
        s.click("#mistakes tbody tr");
        let total = if first[0] == "a.sgf" { 40 } else { 30 };
        s.wait(
            "the game of the first mistake",
            &format!(
                "return !document.querySelector('#viewer').hidden && document.querySelector('#viewer-move').textContent === 'move {} / {total}' && document.querySelectorAll('#viewer-graph circle.ev').length > 0",
                first[2]
            ),
        );
        // Marked at the mode's threshold, the row's move among them.
        assert_eq!(
            s.count(&format!(
                "#viewer-mistakes button.mistake[data-move='{}']",
                first[2]
            )),
            1
        );
        let title = s.script("return document.querySelector('#viewer-info').textContent");
        assert!(
            title.as_str().unwrap().contains(first[0].as_str().unwrap()),
            "{title}"
        );
        s.screenshot(&out.join("serve-evals.png"));
    });
}

/// A 19×19 record of `moves` (SGF points, Black first) by `black` and `white`, with Sabaki's
/// evaluations when `evals` is not empty: `evals[0]` on the root, `evals[k]` on move k's node,
/// each Black's win in percent (`SBKV`) and, when given, Black's lead (`SBKS`).
fn sabaki_record(black: &str, white: &str, moves: &[&str], evals: &[(f64, Option<f64>)]) -> String {
    let eval = |k: usize| match evals.get(k) {
        Some((win, Some(lead))) => format!("SBKV[{win:.2}]SBKS[{lead:.2}]"),
        Some((win, None)) => format!("SBKV[{win:.2}]"),
        None => String::new(),
    };
    let mut sgf = format!(
        "(;GM[1]FF[4]SZ[19]KM[6.5]PB[{black}]PW[{white}]DT[2022-01-01]RE[B+R]{}",
        eval(0)
    );
    for (k, p) in moves.iter().enumerate() {
        let colour = if k % 2 == 0 { 'B' } else { 'W' };
        sgf.push_str(&format!(";{colour}[{p}]{}", eval(k + 1)));
    }
    sgf.push(')');
    sgf
}

/// A server over games whose first moves differ (points that no symmetry maps onto each
/// other), so that the empty board's continuation rows are each kind the engine columns
/// show: B pd played by two analysed games (their means), B qd by one analysed game and one
/// without evaluations, B jj by an analysed game that lost much (a costly row), B qc by a game
/// without evaluations alone (dashes), B oc by a game whose evaluations have no lead (win rate
/// only). After B pd, White's dd gains (a negative loss) and dp loses; Black's next moves, near
/// pd, are B pd's rows as a sequence. Eve plays only the games without evaluations.
fn rows_server(tmp: &Path) -> common::Running {
    let _ = std::fs::remove_dir_all(tmp);
    let records = tmp.join("records");
    std::fs::create_dir_all(&records).unwrap();
    let even = (50.0, Some(0.5));
    let games = [
        (
            "p1.sgf",
            sabaki_record(
                "Ann",
                "Bo",
                &["pd", "dd", "qf"],
                &[
                    even,
                    (48.37, Some(0.21)),
                    (45.18, Some(-0.62)),
                    (47.0, Some(0.1)),
                ],
            ),
        ),
        (
            "p2.sgf",
            sabaki_record(
                "Cy",
                "Di",
                &["pd", "dp", "nd"],
                &[
                    even,
                    (46.02, Some(-0.43)),
                    (48.91, Some(0.33)),
                    (47.5, Some(0.2)),
                ],
            ),
        ),
        (
            "q1.sgf",
            sabaki_record(
                "Ann",
                "Di",
                &["qd", "dd"],
                &[even, (41.23, Some(-1.87)), (44.0, Some(-1.2))],
            ),
        ),
        ("q2.sgf", sabaki_record("Eve", "Bo", &["qd", "dc"], &[])),
        (
            "t1.sgf",
            sabaki_record(
                "Cy",
                "Bo",
                &["jj", "dd"],
                &[even, (31.04, Some(-4.61)), (33.0, Some(-4.0))],
            ),
        ),
        ("c1.sgf", sabaki_record("Eve", "Di", &["qc", "dd"], &[])),
        (
            "o1.sgf",
            sabaki_record(
                "Ann",
                "Cy",
                &["oc", "dd"],
                &[(50.0, None), (44.43, None), (45.0, None)],
            ),
        ),
    ];
    for (name, sgf) in &games {
        std::fs::write(records.join(name), sgf).unwrap();
    }
    let index = tmp.join("index");
    let opts = qipu::BuildOptions {
        rebuild: true,
        evals: Some(sgf::eval::read),
        ..qipu::BuildOptions::default()
    };
    qipu::build(&index, &[records], &opts, |_| {}).expect("an index built");
    common::start(&index, serve::Config::default())
}

/// The heads of the continuation table's engine columns.
const ENGINE_HEADS: [&str; 5] = ["analysed", "B after", "lead", "loss", "pt loss"];

/// A number to one decimal as the board writes it (JavaScript's `toFixed(1)`, "-0.0" as
/// "0.0"). Rust's and JavaScript's roundings differ only on a value exactly halfway, which
/// the fixture must not hold.
fn one_decimal(v: f64) -> String {
    let tenths = (v.abs() * 10.0).fract();
    assert!(
        (tenths - 0.5).abs() > 1e-6,
        "{v} is halfway between two tenths"
    );
    match format!("{v:.1}") {
        t if t == "-0.0" => "0.0".into(),
        t => t,
    }
}

/// The engine cells the board must show for a continuation row of the API (`ENGINE_HEADS`'
/// order): dashes where no analysed game gives a figure; Black's win rate and lead after the
/// move (B+ or W+, "0.0" even), the mover's mean loss in win rate and in points.
fn engine_cells(c: &Value) -> Vec<String> {
    let analysed = c["analysed"].as_u64().expect("analysed");
    let figure = |key: &str, format: &dyn Fn(f64) -> String| match c[key].as_f64() {
        Some(v) if analysed > 0 => format(v),
        _ => "–".to_string(),
    };
    vec![
        if analysed == 0 {
            "–".into()
        } else {
            analysed.to_string()
        },
        figure("black_win_after", &|w| {
            format!("{}%", one_decimal(100.0 * w))
        }),
        figure("black_lead_after", &|l| match one_decimal(l.abs()) {
            t if t == "0.0" => t,
            t => format!("{}{t}", if l > 0.0 { "B+" } else { "W+" }),
        }),
        figure("win_loss", &|w| format!("{}%", one_decimal(100.0 * w))),
        figure("points_loss", &one_decimal),
    ]
}

/// Whether the board marks a row's label as costly: a mean loss of 10% or 3 points.
fn costly(c: &Value) -> bool {
    c["analysed"].as_u64() > Some(0)
        && (c["win_loss"].as_f64().unwrap_or(0.0) >= 0.1
            || c["points_loss"].as_f64().unwrap_or(0.0) >= 3.0)
}

/// The continuation table as shown: its heads, and per row its point and cells.
const TABLE: &str = "return [[...document.querySelectorAll('#conts thead th')].map((t) => t.textContent), [...document.querySelectorAll('#conts tbody tr')].map((r) => [r.dataset.color + r.dataset.pt, ...[...r.cells].map((t) => t.textContent)])]";

impl Session {
    /// Waits until the continuation table holds the rows of `answer` (an API answer, its
    /// first 40 rows), and checks its engine columns against the answer's figures: present
    /// exactly when some row has an analysed game, each cell the API's number as the board
    /// formats it. Returns how many rows had analysed games.
    fn check_engine_columns(&self, what: &str, answer: &Value) -> usize {
        self.wait_rows(what, &expected_rows(answer));
        let table = self.script(TABLE);
        let heads: Vec<&str> = table[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        let rows = table[1].as_array().unwrap();
        let conts: Vec<&Value> = answer["continuations"]
            .as_array()
            .unwrap()
            .iter()
            .take(40)
            .collect();
        let analysed = conts
            .iter()
            .filter(|c| c["analysed"].as_u64() > Some(0))
            .count();
        let columns: Vec<Option<usize>> = ENGINE_HEADS
            .iter()
            .map(|h| heads.iter().position(|t| t == h))
            .collect();
        if analysed == 0 {
            assert!(columns.iter().all(Option::is_none), "{what}: {heads:?}");
            return 0;
        }
        let columns: Vec<usize> = columns
            .into_iter()
            .map(|i| i.unwrap_or_else(|| panic!("{what}: the engine's columns in {heads:?}")))
            .collect();
        for (row, c) in rows.iter().zip(&conts) {
            // A row's first cell is its key (colour and point); the table's cells follow.
            let shown: Vec<&str> = columns
                .iter()
                .map(|&i| row[i + 1].as_str().unwrap())
                .collect();
            assert_eq!(shown, engine_cells(c), "{what}: row {row} for {c}");
        }
        analysed
    }
}

/// The explorer's rows show the engine's figures: on an index of analysed games, the
/// continuation table's engine columns are the API's means for the same position (dashes
/// where a row has no analysed game or no lead), the labels of rows that cost their players
/// 10% or 3 points on average carry a red dot, and a filter that leaves only games without
/// evaluations shows no engine column (`target/serve-rows.png`).
#[test]
fn the_explorers_rows_show_the_engines_figures() {
    let Some(browsers) = browsers() else {
        return;
    };
    let tmp =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-rows-{}", std::process::id()));
    let server = rows_server(&tmp);
    let position = |black: &str, query: &str| {
        let mut params: Vec<(String, String)> = vec![
            ("black".into(), black.into()),
            ("white".into(), String::new()),
            ("size".into(), "19".into()),
            ("limit".into(), "20".into()),
        ];
        if !query.is_empty() {
            params.push(("query".into(), query.into()));
        }
        api(&server.base, "/api/position", &params)
    };
    let start = position("", "");
    // The fixture holds each kind of row the columns show. The answer turns the empty board's
    // moves into one orientation: a row is found by its example game.
    let row = |answer: &Value, example: &str| -> Value {
        answer["continuations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["example"] == example)
            .unwrap_or_else(|| panic!("a row played by {example} in {answer}"))
            .clone()
    };
    let figures = |c: Value| (c["count"].as_u64(), c["analysed"].as_u64());
    assert_eq!(figures(row(&start, "p1.sgf#0")), (Some(2), Some(2)));
    assert_eq!(figures(row(&start, "q1.sgf#0")), (Some(2), Some(1)));
    assert_eq!(figures(row(&start, "c1.sgf#0")), (Some(1), Some(0)));
    let no_lead = row(&start, "o1.sgf#0");
    assert!(no_lead["black_lead_after"].is_null() && no_lead["win_loss"].is_number());
    assert!(costly(&row(&start, "t1.sgf#0")) && !costly(&row(&start, "p1.sgf#0")));
    let pd = row(&start, "p1.sgf#0")["point"]
        .as_str()
        .unwrap()
        .to_string();
    let jj = row(&start, "t1.sgf#0")["point"]
        .as_str()
        .unwrap()
        .to_string();
    let out = out_dir();

    in_browser(browsers, &tmp, |s| {
        s.post("/url", json!({"url": format!("{}/", server.base)}));
        assert_eq!(s.check_engine_columns("the empty board", &start), 4);
        // The costly rows' labels, and only theirs, carry the dot; every row is labelled.
        let marked = s.script(
            "return [...document.querySelectorAll('#board g.cont')].filter((g) => g.querySelector('.cont-loss')).map((g) => g.dataset.pt).sort()",
        );
        let mut want: Vec<&str> = start["continuations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| costly(c))
            .map(|c| c["point"].as_str().unwrap())
            .collect();
        want.sort();
        assert_eq!(marked, json!(want));
        assert_eq!(s.count("#board g.cont"), 5);
        let tip = s.script(&format!(
            "return document.querySelector('#board g.cont[data-pt={jj}] title').textContent"
        ));
        assert!(
            tip.as_str().unwrap().contains("engine: 1 analysed"),
            "{tip}"
        );
        s.screenshot(&out.join("serve-rows.png"));

        // A narrow window scrolls the table alone, its move column held in view: scrolled to
        // its end, the last column's cell and the move's both show, side by side.
        s.post("/window/rect", json!({"width": 560, "height": 900}));
        s.wait(
            "the table scrolled to its end",
            "const box = document.querySelector('#conts').parentElement; box.scrollLeft = box.scrollWidth; \
             return box.scrollWidth > box.clientWidth && box.scrollLeft > 0",
        );
        let seen = s.script(
            "const box = document.querySelector('#conts').parentElement.getBoundingClientRect(); \
             const row = document.querySelector('#conts tbody tr'); \
             const [stone, move, last] = [row.cells[0], row.cells[1], row.cells[row.cells.length - 1]].map((c) => c.getBoundingClientRect()); \
             return [stone.left >= box.left - 0.5, move.left >= stone.right - 0.5, last.right <= box.right + 0.5, last.left >= move.right - 0.5]",
        );
        assert_eq!(seen, json!([true, true, true, true]));
        s.script("document.querySelector('#conts').scrollIntoView(); return true");
        s.screenshot(&out.join("serve-rows-narrow.png"));
        s.post("/window/rect", json!({"width": 1400, "height": 900}));

        // Black's 4-4 played: White's rows, one a gain for White (a negative loss).
        s.click(&format!("#conts tbody tr.cont-row[data-pt={pd}]"));
        let after = position(&pd, "");
        assert!(
            after["continuations"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["win_loss"].as_f64() < Some(0.0)),
            "{after}"
        );
        assert_eq!(s.check_engine_columns("after B pd", &after), 2);
        // The same move searched as a sequence: its rows are the first later move in its
        // area, with their own engine figures.
        s.click("#sequence");
        let sequence = api(
            &server.base,
            "/api/sequence",
            &[
                ("moves".into(), format!("B[{pd}]")),
                ("size".into(), "19".into()),
                ("limit".into(), "20".into()),
            ],
        );
        assert!(s.check_engine_columns("the sequence", &sequence) > 0);
        s.click("#sequence");

        // Eve's games have no evaluations: no engine column, on an index that has some.
        s.click("#clear");
        s.wait_rows("the empty board again", &expected_rows(&start));
        s.script("document.querySelector('#f-player').value = 'Eve'; return true");
        s.click("#meta button[type=submit]");
        let eves = position("", "player:\"Eve\"");
        assert_eq!(eves["continuations"].as_array().unwrap().len(), 2, "{eves}");
        assert_eq!(s.check_engine_columns("Eve's games", &eves), 0);
    });
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The rows the Mistakes mode's table must show for an `/api/mistakes` answer: per hit its
/// file, game, move and mover (colour and name), as the table's rows carry them.
fn mistake_rows(answer: &Value) -> Value {
    Value::Array(
        answer["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let (stone, mover) = if m["color"] == "B" {
                    ("●", &m["info"]["black"])
                } else {
                    ("○", &m["info"]["white"])
                };
                json!([
                    m["info"]["file"],
                    m["info"]["game_in_file"],
                    m["move_number"],
                    format!("{stone} {}", mover.as_str().unwrap())
                ])
            })
            .collect(),
    )
}

const MISTAKE_ROWS: &str = "return [document.querySelector('#mk-summary').textContent, [...document.querySelectorAll('#mistakes tbody tr')].map((r) => [r.dataset.file, Number(r.dataset.game), Number(r.dataset.move), r.cells[0].textContent])]";

impl Session {
    /// Waits until the Mistakes mode shows `answer` (an `/api/mistakes` answer): its total in
    /// the summary, its hits in the table ([`mistake_rows`]).
    fn wait_mistakes(&self, what: &str, answer: &Value) {
        let total = answer["total"].as_u64().unwrap();
        let summary = format!("{total} {}", if total == 1 { "move" } else { "moves" });
        let rows = mistake_rows(answer);
        let until = Instant::now() + Duration::from_secs(20);
        let mut shown = Value::Null;
        while Instant::now() < until {
            shown = self.script(MISTAKE_ROWS);
            if shown[0].as_str().unwrap_or("").starts_with(&summary) && shown[1] == rows {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("{what}: the mode shows {shown}, the API answers {total} and {rows}");
    }

    /// What the Mistakes mode says it searches from, or `None` when it searches all games.
    fn searched_from(&self) -> Option<String> {
        let from = self.script(
            "const f = document.querySelector('#mk-from'); return f.hidden ? null : document.querySelector('#mk-from-what').textContent",
        );
        from.as_str().map(str::to_string)
    }
}

/// The explorer's "mistakes" link opens the Mistakes mode on what the board shows: after B pd
/// as a position and as a sequence, the table is `/api/mistakes` asked with the explorer's
/// parameters and the mode's threshold (not the all-games answer), the mode says what it
/// searches from, and "all games" clears it back to the all-games answer; the header's button
/// searches all games (`target/serve-mistakes-from.png`).
#[test]
fn the_mistakes_mode_searches_from_the_explorers_query() {
    let Some(browsers) = browsers() else {
        return;
    };
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-mistakes-from-{}", std::process::id()));
    let server = rows_server(&tmp);
    let ask = |params: &[(&str, &str)]| {
        let mut all: Vec<(String, String)> = vec![
            ("mistakes".into(), "1%".into()),
            ("limit".into(), "20".into()),
        ];
        all.extend(params.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        api(&server.base, "/api/mistakes", &all)
    };
    let start = api(
        &server.base,
        "/api/position",
        &[
            ("black".into(), String::new()),
            ("white".into(), String::new()),
            ("size".into(), "19".into()),
            ("limit".into(), "20".into()),
        ],
    );
    let pd = start["continuations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["example"] == "p1.sgf#0")
        .expect("B pd's row")["point"]
        .as_str()
        .unwrap()
        .to_string();
    let all = ask(&[]);
    let from_position = ask(&[("black", &pd), ("white", ""), ("size", "19")]);
    let moves = format!("B[{pd}]");
    let from_sequence = ask(&[("moves", &moves), ("size", "19")]);
    for (what, answer) in [
        ("the position", &from_position),
        ("the sequence", &from_sequence),
    ] {
        assert!(answer["total"].as_u64() > Some(0), "{what}: {answer}");
        assert_ne!(mistake_rows(answer), mistake_rows(&all), "{what}");
    }
    // The explorer's filter narrows them too: Ann's games only.
    let anns = ask(&[
        ("moves", &moves),
        ("size", "19"),
        ("query", "player:\"Ann\""),
    ]);
    assert_ne!(mistake_rows(&anns), mistake_rows(&from_sequence));
    let out = out_dir();

    in_browser(browsers, &tmp, |s| {
        s.post("/url", json!({"url": format!("{}/", server.base)}));
        s.wait_rows("the empty board", &expected_rows(&start));
        // All games, from the header, at the mode's threshold typed in its form.
        s.click("#mode-mistakes");
        s.script("document.querySelector('#mk-loss').value = '1%'; return true");
        s.click("#mk-form button[type=submit]");
        s.wait_mistakes("all games", &all);
        assert_eq!(s.searched_from(), None);

        // Back to the explorer: B pd played, its rows' mistakes a click away.
        s.click("#mode-mistakes");
        s.click(&format!("#conts tbody tr.cont-row[data-pt={pd}]"));
        s.wait(
            "the rows after B pd and the mistakes link",
            &format!("return document.querySelectorAll('#board [data-stone=B][data-pt={pd}]').length === 1 && !document.querySelector('#mistakes-from').hidden"),
        );
        s.click("#mistakes-from");
        s.wait_mistakes("the mistakes from the position", &from_position);
        assert_eq!(
            s.searched_from().as_deref(),
            Some("from this position (1 black, 0 white)")
        );
        let hash = hash_state(s);
        assert_eq!(hash.get("ml"), Some(&json!("1%")), "{hash:?}");
        s.screenshot(&out.join("serve-mistakes-from.png"));
        // A row still opens its game at that move.
        s.click("#mistakes tbody tr");
        let first = &mistake_rows(&from_position)[0];
        s.wait(
            "the game of the first row",
            &format!(
                "return !document.querySelector('#viewer').hidden && document.querySelector('#viewer-move').textContent.startsWith('move {} /')",
                first[2]
            ),
        );
        s.script("document.querySelector('#viewer-close').click(); return true");
        // Cleared: all games again.
        s.click("#mk-from-clear");
        s.wait_mistakes("all games after clearing", &all);
        assert_eq!(s.searched_from(), None);

        // The same move as a sequence.
        s.click("#mode-mistakes");
        s.click("#sequence");
        s.wait(
            "the sequence's rows",
            "return document.querySelector('#summary').textContent.includes('the sequence of 1 moves') && !document.querySelector('#mistakes-from').hidden",
        );
        s.click("#mistakes-from");
        s.wait_mistakes("the mistakes from the sequence", &from_sequence);
        let from = s.searched_from().unwrap_or_default();
        assert!(from.starts_with("from this sequence (B "), "{from}");
        // The header's button leaves the mode, and opens it again over all games.
        s.click("#mode-mistakes");
        s.click("#mode-mistakes");
        s.wait_mistakes("all games from the header", &all);
        assert_eq!(s.searched_from(), None);

        // The sequence in Ann's games: the filter goes with it.
        s.click("#mode-mistakes");
        s.script("document.querySelector('#f-player').value = 'Ann'; return true");
        s.click("#meta button[type=submit]");
        s.wait(
            "Ann's games",
            "return location.hash.includes('player=Ann') && document.querySelector('#status').textContent === '' && !document.querySelector('#mistakes-from').hidden",
        );
        s.click("#mistakes-from");
        s.wait_mistakes("the mistakes from the sequence in Ann's games", &anns);
        let from = s.searched_from().unwrap_or_default();
        assert!(from.ends_with("games of player:\"Ann\""), "{from}");
    });
    let _ = std::fs::remove_dir_all(&tmp);
}
