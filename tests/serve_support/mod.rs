//! What the `tinh serve` tests share: the server started as a process on a free port, a
//! small HTTP/1.1 client over a socket (plain and chunked bodies, and an event-stream
//! reader), and the server's engine processes found through /proc.

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    pub addr: String,
}

impl Server {
    /// `tinh serve --port 0 ARGS`, waiting for the line that gives its address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tinh"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tinh serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(l)) = lines.next() {
                let _ = tx.send(l);
            }
            for _ in lines {}
        });
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("tinh serve printed its address");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in '{line}'"))
            .to_string();
        Server { child, addr }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> Response {
        let headers: &[(&str, &str)] = if body.is_some() {
            &[("Content-Type", "application/json")]
        } else {
            &[]
        };
        http(&self.addr, method, path, headers, body)
    }

    /// A request with a JSON value as body; the answer's body read as JSON.
    pub fn json(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let text = body.map(|b| b.to_string());
        let r = self.request(method, path, text.as_deref());
        let v = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        (r.status, v)
    }

    pub fn new_game(&self, variant: &str, players: [&str; 2]) -> Value {
        let (status, v) = self.json(
            "POST",
            "/api/games",
            Some(serde_json::json!({"variant": variant, "players": players, "seed": 5})),
        );
        assert_eq!(status, 201, "{v}");
        v
    }

    pub fn state(&self, id: &str) -> Value {
        let (status, v) = self.json("GET", &format!("/api/games/{id}"), None);
        assert_eq!(status, 200, "{v}");
        v
    }

    /// Poll the game until `cond` holds (or fail after `secs`).
    pub fn wait_state(&self, id: &str, secs: u64, cond: impl Fn(&Value) -> bool) -> Value {
        let until = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.state(id);
            if cond(&s) {
                return s;
            }
            assert!(Instant::now() < until, "state never came: {s}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    pub fn health(&self) -> Value {
        self.json("GET", "/api/health", None).1
    }

    /// Process ids of the server's engine processes.
    pub fn engine_pids(&self) -> Vec<u32> {
        children_of(self.pid())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Live child processes of `pid` (Linux /proc).
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(child) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: the command name may hold spaces, so split after ')'.
        let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
        let mut f = after.split_whitespace();
        let state = f.next().unwrap_or("");
        let ppid = f.next().and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) && state != "Z" {
            out.push(child);
        }
    }
    out
}

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request (`Connection: close`), with `Host` set to `addr` unless given.
pub fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.unwrap_or("");
    if method != "GET" {
        req.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    // Read until the body is complete: some servers keep the connection open anyway.
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16384];
    while !complete(&raw) {
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            Err(e) => panic!("reading the answer to {method} {path}: {e}"),
        }
    }
    parse_response(&raw)
}

/// Whether `raw` holds a whole response (by Content-Length, or the last chunk).
fn complete(raw: &[u8]) -> bool {
    let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let body = &raw[split + 4..];
    if let Some(len) = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        return body.len() >= len;
    }
    if head.contains("transfer-encoding: chunked") {
        return body.ends_with(b"0\r\n\r\n");
    }
    head.starts_with("http/1.1 204") || head.starts_with("http/1.1 304")
}

fn parse_response(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete HTTP head");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        body = dechunk(&body);
    }
    Response {
        status,
        headers,
        body: String::from_utf8_lossy(&body).to_string(),
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&data[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 || data.len() < eol + 2 + size {
            break;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[(eol + 4 + size).min(data.len())..];
    }
    out
}

/// An open event stream of a game: reads `event:`/`data:` blocks as they come.
pub struct Events {
    stream: TcpStream,
    buf: Vec<u8>,
    /// Decoded body bytes not yet parsed into events.
    body: String,
    in_body: bool,
}

impl Events {
    pub fn open(addr: &str, id: &str) -> Events {
        let mut stream = TcpStream::connect(addr).expect("connect");
        let req = format!(
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        stream.write_all(req.as_bytes()).unwrap();
        Events {
            stream,
            buf: Vec::new(),
            body: String::new(),
            in_body: false,
        }
    }

    /// The next event as (name, data), waiting up to `secs`.
    pub fn next(&mut self, secs: u64) -> Option<(String, String)> {
        let until = Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(ev) = self.take_event() {
                return Some(ev);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            self.stream.set_read_timeout(Some(left)).unwrap();
            let mut chunk = [0u8; 8192];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return self.take_event(),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
            self.decode();
        }
    }

    fn decode(&mut self) {
        if !self.in_body {
            let Some(split) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") else {
                return;
            };
            let head = String::from_utf8_lossy(&self.buf[..split]).to_string();
            assert!(
                head.starts_with("HTTP/1.1 200"),
                "event stream refused: {head}"
            );
            self.buf.drain(..split + 4);
            self.in_body = true;
        }
        // Chunked body: size line, data, CRLF.
        while let Some(eol) = self.buf.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(String::from_utf8_lossy(&self.buf[..eol]).trim(), 16)
                .unwrap_or(0);
            if self.buf.len() < eol + 2 + size + 2 {
                return;
            }
            let data = self.buf[eol + 2..eol + 2 + size].to_vec();
            self.body.push_str(&String::from_utf8_lossy(&data));
            self.buf.drain(..eol + 4 + size);
        }
    }

    fn take_event(&mut self) -> Option<(String, String)> {
        loop {
            let end = self.body.find("\n\n")?;
            let block: String = self.body.drain(..end + 2).collect();
            let mut name = String::from("message");
            let mut data = String::new();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event:") {
                    name = v.trim().to_string();
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push_str(v.strip_prefix(' ').unwrap_or(v));
                }
            }
            // Keep-alive comments carry no data.
            if !data.is_empty() {
                return Some((name, data));
            }
        }
    }
}
