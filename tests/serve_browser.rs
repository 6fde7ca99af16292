//! The board in a real browser (Debian's chromium, headless, driven through chromedriver's
//! WebDriver API by a small client here): the page loads, a person starts each game
//! against Tinh level 1 through the set-up dialog, moves by click and by drag, sees
//! Tinh's replies and thinking, a Math Chess capture explained, a Reveal Chess reveal,
//! a game's end with its reason, undo, FEN in and PGN out; screenshots of each game at
//! desktop and phone width land in target/serve-screenshots/.
//!
//! Without chromium and chromedriver the test says so and passes, except in CI (the
//! `CI` variable set), where it fails: `.ci/run` installs them.

mod serve_support;

use serde_json::{Value, json};
use serve_support::{Server, http};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find_tool(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// A chromedriver process and one browser session.
struct Driver {
    child: Child,
    addr: String,
    session: String,
    profile: PathBuf,
}

impl Driver {
    fn start(chromium: &Path, chromedriver: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = format!("127.0.0.1:{port}");
        let until = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < until, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = std::env::temp_dir().join(format!("tinh-chromium-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut d = Driver {
            child,
            addr,
            session: String::new(),
            profile,
        };
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1280,900",
                    "--hide-scrollbars",
                    format!("--user-data-dir={}", d.profile.display()),
                ],
            },
        }}});
        let v = d.call("POST", "/session", Some(caps));
        d.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {v}"))
            .to_string();
        d
    }

    /// A WebDriver command; returns its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let text = body.map(|b| b.to_string());
        let headers: &[(&str, &str)] = &[("Content-Type", "application/json")];
        let r = http(&self.addr, method, path, headers, text.as_deref());
        let v: Value = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        assert!(
            r.status == 200,
            "WebDriver {method} {path} failed ({}): {}",
            r.status,
            r.body
        );
        v["value"].clone()
    }

    fn cmd(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{what}", self.session), body)
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn script(&self, js: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": []})),
        )
    }

    fn find(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT_KEY].as_str().unwrap().to_string()
    }

    fn click(&self, css: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.cmd("GET", &format!("/element/{e}/text"), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{e}/clear"), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Wait until the script returns true.
    fn wait(&self, what: &str, js: &str) {
        let until = Instant::now() + Duration::from_secs(20);
        while self.script(js) != Value::Bool(true) {
            if Instant::now() > until {
                let page = self.script(
                    "return [document.getElementById('status').textContent, document.getElementById('error').textContent, JSON.stringify(window.tinh.state && window.tinh.state.moves.map(m => m.text))];",
                );
                self.screenshot("failure");
                panic!("timed out waiting for {what}; the page shows {page}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn state(&self) -> Value {
        self.script("return window.tinh.state;")
    }

    fn square(&self, sq: &str) -> String {
        format!("#board rect.sq[data-square=\"{sq}\"]")
    }

    /// The centre of a square in viewport pixels (the board is redrawn on every change,
    /// so actions aim at places, not at elements that may be replaced meanwhile).
    fn centre(&self, sq: &str) -> (i64, i64) {
        let v = self.script(&format!(
            "const r = document.querySelector('{}').getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];",
            self.square(sq).replace('\'', "\\'")
        ));
        (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
    }

    fn pointer(&self, actions: Value) {
        self.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{
                "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": actions,
            }]})),
        );
    }

    /// Press on one square, move to another and let go, as a person dragging a piece.
    fn drag(&self, from: &str, to: &str) {
        let ((x0, y0), (x1, y1)) = (self.centre(from), self.centre(to));
        self.pointer(json!([
            {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x0, "y": y0},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerMove", "duration": 100, "origin": "viewport", "x": (x0 + x1) / 2, "y": (y0 + y1) / 2},
            {"type": "pointerMove", "duration": 100, "origin": "viewport", "x": x1, "y": y1},
            {"type": "pointerUp", "button": 0},
        ]));
    }

    /// Click a square (press and release on its centre).
    fn tap(&self, sq: &str) {
        let (x, y) = self.centre(sq);
        self.pointer(json!([
            {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x, "y": y},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ]));
    }

    fn hover(&self, sq: &str) {
        let (x, y) = self.centre(sq);
        self.pointer(json!([
            {"type": "pointerMove", "duration": 100, "origin": "viewport", "x": x, "y": y},
        ]));
    }

    fn window(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    fn screenshot(&self, name: &str) {
        let b64 = self.cmd("GET", "/screenshot", None);
        let png = base64_decode(b64.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/serve-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// Start a game through the set-up dialog as a person would.
    fn new_game(&self, variant: &str, opponent: &str, side: &str, fen: &str) {
        if self.script("return document.getElementById('setup').open;") != Value::Bool(true) {
            self.click("#btn-new");
        }
        self.click(&format!("#seg-variant input[value={variant}] + span"));
        self.click(&format!("#opponent option[value=\"{opponent}\"]"));
        if opponent != "human" {
            self.click(&format!("#fs-side input[value=\"{side}\"] + span"));
        }
        if !fen.is_empty() {
            if self.script("return document.querySelector('#setup details').open;")
                != Value::Bool(true)
            {
                self.click("details summary");
            }
            self.type_into("#fen-in", fen);
        }
        self.click("#btn-start");
        self.wait(
            "the new game",
            &format!(
                "return !document.getElementById('setup').open && !!window.tinh.state && window.tinh.state.variant === '{variant}';"
            ),
        );
    }

    /// Wait for the position to reach `ply` plies with the person to move again.
    fn wait_ply(&self, ply: usize) {
        self.wait(
            &format!("ply {ply}"),
            &format!(
                "const s = window.tinh.state; return s.ply >= {ply} && (s.legal.length > 0 || !!s.result);"
            ),
        );
    }

    /// Play a legal move by dragging: a quiet one, one that reveals if `reveal`.
    fn drag_any(&self, reveal: bool) {
        let m = self.script(&format!(
            "const l = window.tinh.state.legal; return l.find(m => !m.capture && m.reveals === {reveal} && !m.promotion) || l[0];"
        ));
        self.drag(m["from"].as_str().unwrap(), m["to"].as_str().unwrap());
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = http(&self.addr, "DELETE", &path, &[], None);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // A browser whose session could not be closed would outlive its driver: end the
        // processes of this test's own profile, and only those.
        let mark = format!("--user-data-dir={}", self.profile.display());
        for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
                continue;
            };
            if cmd.split(|&b| b == 0).any(|arg| arg == mark.as_bytes()) {
                let pid = e.file_name().to_string_lossy().into_owned();
                let _ = Command::new("kill").args(["-9", &pid]).status();
            }
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Moves in the page's move list.
fn listed_moves(d: &Driver) -> usize {
    d.script("return document.querySelectorAll('#movelist .mv:not(:empty)').length;")
        .as_u64()
        .unwrap_or(0) as usize
}

fn play_math_chess(d: &Driver) {
    d.new_game("mathchess", "tinh-1", "0", "");
    assert!(d.text("#status").contains("Your move (Blue)"));
    // Click the 3, then its target.
    d.tap("c1");
    d.wait(
        "the 3's targets",
        "return document.querySelectorAll('#board .target').length > 0;",
    );
    d.tap("c4");
    d.wait_ply(2);
    let s = d.state();
    assert_eq!(s["moves"][0]["text"], "c1c4");
    assert_eq!(s["moves"][1]["by_engine"], true, "Tinh replied: {s}");
    assert_eq!(listed_moves(d), 2);
    assert_ne!(d.text("#th-depth"), "–", "Tinh's thinking is shown");
    d.drag_any(false);
    d.wait_ply(4);

    // A capture explained: from a set-up position, select the 7 and look at its target.
    let fen = "r9r8r71r5r4r3r2r1/4r04/9/9/3r65/3b45/3b75/9/9/4b04/b1b2b31b5b61b8b9 b 6";
    d.new_game("mathchess", "tinh-1", "0", fen);
    d.tap("d5");
    d.hover("d7");
    d.wait(
        "the arithmetic on the board",
        "return !!document.querySelector('#board .sum-text');",
    );
    let shown = d.text("#selection");
    assert!(shown.contains("support 4 on d6"), "{shown}");
    assert!(shown.contains("7 + 4 = 11 → 1"), "{shown}");
    d.screenshot("mathchess-capture");
    d.tap("d7");
    d.wait_ply(2);
    let last = d.state()["moves"][0].clone();
    assert_eq!(last["text"], "d5d7");
    assert_eq!(last["arithmetic"]["target"]["n"], 6);
    d.script("window.tinh.selected = null; return true;");
    // Tinh answered; the capture and its arithmetic stay in view and in the list.
    assert_eq!(listed_moves(d), 2);
    let last = d.text("#lastmove");
    assert!(
        last.contains("7 + 4 = 11 → 1") && last.contains("takes Red's 6 on d7"),
        "{last}"
    );
    assert!(d.text("#bar-bottom").contains("captured 6 points"));
    d.screenshot("mathchess-desktop");
    d.window(390, 844);
    d.screenshot("mathchess-phone");
    d.window(1280, 900);
}

fn play_reveal_chess(d: &Driver) {
    d.new_game("revealchess", "tinh-1", "0", "");
    let pools = d.text("#pools");
    assert!(
        pools.contains("White (15 left)") && pools.contains("Black (15 left)"),
        "{pools}"
    );
    d.tap("e2");
    let odds = d.text("#selection");
    assert!(
        odds.contains("queen 7%") && odds.contains("pawn 53%"),
        "{odds}"
    );
    d.tap("e4");
    d.wait(
        "the reveal notice",
        "return !document.getElementById('toast').hidden;",
    );
    assert!(d.text("#toast").contains("revealed a"));
    d.wait_ply(2);
    let s = d.state();
    let first = s["moves"][0]["text"].as_str().unwrap();
    assert!(first.starts_with("e2e4") && first.len() == 5, "{first}");
    assert!(d.text("#lastmove").contains("Black played"));
    d.drag_any(true);
    d.wait_ply(4);
    // Every White reveal came out of White's pool.
    let s = d.state();
    let reveals = s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["side"] == 0 && m["reveal"].is_object())
        .count();
    let pools = d.text("#pools");
    assert!(
        pools.contains(&format!("White ({} left)", 15 - reveals)),
        "{pools}"
    );
    d.screenshot("revealchess-desktop");
    d.window(390, 844);
    d.screenshot("revealchess-phone");
    d.window(1280, 900);
}

fn play_chess(d: &Driver, server: &Server) {
    d.new_game("chess", "tinh-1", "0", "");
    d.drag("e2", "e4");
    d.wait_ply(2);
    d.tap("g1");
    d.tap("f3");
    d.wait_ply(4);
    assert_eq!(listed_moves(d), 4);
    d.screenshot("chess-desktop");
    d.window(390, 844);
    d.screenshot("chess-phone");
    d.window(1280, 900);
    // Undo takes back Tinh's reply and the person's move.
    d.click("#btn-undo");
    d.wait("the undo", "return window.tinh.state.ply === 2;");
    // PGN out.
    let href = d.script("return document.getElementById('btn-pgn').getAttribute('href');");
    let pgn = http(&server.addr, "GET", href.as_str().unwrap(), &[], None);
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.contains("[Variant \"chess\"]") && pgn.body.contains("1. e2e4"));
    // FEN in, and the end of a game with its reason: Black mates at once.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    d.new_game("chess", "tinh-1", "1", fen);
    d.tap("d8");
    d.tap("h4");
    d.wait("the end", "return !!window.tinh.state.result;");
    assert_eq!(d.text("#status"), "Black wins: checkmate");
}

#[test]
fn board_plays_each_game_in_a_browser() {
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/serve-screenshots");
    let _ = std::fs::remove_file(shots.join("failure.png"));
    let tools = (
        find_tool("TINH_CHROMIUM", &["chromium", "chromium-browser"]),
        find_tool("TINH_CHROMEDRIVER", &["chromedriver"]),
    );
    let (Some(chromium), Some(chromedriver)) = tools else {
        let msg = "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)";
        if std::env::var_os("CI").is_some() {
            panic!("{msg}: the browser test must run in CI");
        }
        eprintln!("SKIPPED board_plays_each_game_in_a_browser: {msg}");
        return;
    };
    let server = Server::start(&[]);
    let d = Driver::start(&chromium, &chromedriver);
    d.goto(&server.url());
    d.wait(
        "the set-up dialog",
        "return document.getElementById('setup').open;",
    );
    d.screenshot("setup");
    play_math_chess(&d);
    play_reveal_chess(&d);
    play_chess(&d, &server);
    // Each new game closed the one before: one game left.
    let h = server.health();
    assert_eq!(h["games"], 1, "{h}");
}
