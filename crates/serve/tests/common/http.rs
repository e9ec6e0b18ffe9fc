//! A small HTTP/1.1 client over `std::net::TcpStream` for the tests and the load test: GET and
//! POST to a loopback server, one kept-alive connection, content-length and chunked bodies.
//! A client crate (ureq, reqwest) would pull a URL parser and Unicode tables into every test
//! build for what is here a few lines.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// An answer: status, content type, body.
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    pub bytes: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One connection to `host:port`, opened again when the server closed it.
pub struct Client {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Client {
    /// A client of `base` (`http://HOST:PORT`, any path after it ignored).
    pub fn new(base: &str) -> Client {
        let addr = base
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or_default()
            .to_string();
        Client { addr, conn: None }
    }

    /// Sends a request (`target` is the path and query) and reads the whole answer.
    pub fn send(
        &mut self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        // A kept-alive connection the server has closed fails at once: try once more anew.
        match self.try_send(method, target, headers, body) {
            Ok(r) => Ok(r),
            Err(_) => {
                self.conn = None;
                self.try_send(method, target, headers, body)
            }
        }
    }

    fn try_send(
        &mut self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Reply> {
        if self.conn.is_none() {
            let s = TcpStream::connect(&self.addr)?;
            s.set_read_timeout(Some(Duration::from_secs(120)))?;
            s.set_nodelay(true)?;
            self.conn = Some(BufReader::new(s));
        }
        let conn = self.conn.as_mut().unwrap();
        let mut head = format!("{method} {target} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        let declared = headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-length"));
        if !declared && (!body.is_empty() || method == "POST") {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let stream = conn.get_mut();
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)?;
        let mut line = String::new();
        if conn.read_line(&mut line)? == 0 {
            return Err(std::io::Error::other("closed"));
        }
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("a status line: {line:?}")))?;
        let (mut length, mut chunked, mut close, mut content_type) =
            (None, false, false, String::new());
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let Some((k, v)) = l.split_once(':') else {
                continue;
            };
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
            match k.as_str() {
                "content-length" => length = v.parse::<usize>().ok(),
                "transfer-encoding" => chunked = v.eq_ignore_ascii_case("chunked"),
                "connection" => close = v.eq_ignore_ascii_case("close"),
                "content-type" => content_type = v.to_string(),
                _ => {}
            }
        }
        let mut bytes = Vec::new();
        if chunked {
            loop {
                line.clear();
                conn.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                    .map_err(|_| std::io::Error::other("a chunk size"))?;
                let mut chunk = vec![0; size + 2];
                conn.read_exact(&mut chunk)?;
                if size == 0 {
                    break;
                }
                bytes.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(n) = length {
            bytes.resize(n, 0);
            conn.read_exact(&mut bytes)?;
        } else {
            conn.read_to_end(&mut bytes)?;
            close = true;
        }
        if close {
            self.conn = None;
        }
        Ok(Reply {
            status,
            content_type,
            body: String::from_utf8_lossy(&bytes).into_owned(),
            bytes,
        })
    }
}

/// Percent-encodes a query parameter's name or value.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `path?k=v&…`, encoded.
pub fn target(path: &str, params: &[(&str, &str)]) -> String {
    if params.is_empty() {
        return path.to_string();
    }
    let q: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect();
    format!("{path}?{}", q.join("&"))
}
