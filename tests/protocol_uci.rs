//! End-to-end tests of the protocol (protocol.md): the `tinh` binary driven through pipes,
//! as a GUI or match runner would. Every read has a timeout (a reader thread feeds a
//! channel; `recv_timeout`), so a misbehaving engine fails a test instead of hanging it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Long enough for anything that must happen on a loaded 2-core machine.
const PATIENCE: Duration = Duration::from_secs(60);
/// How long we watch for something that must NOT happen (a premature `bestmove`).
const QUIET: Duration = Duration::from_millis(400);

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const REVEAL_START: &str =
    "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8";
const MATH_START: &str = "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 b 1";

struct Tinh {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Everything exchanged so far, for failure messages.
    transcript: Vec<String>,
}

impl Tinh {
    fn start(args: &[&str]) -> Tinh {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tinh"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tinh");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Tinh {
            stdin: child.stdin.take(),
            child,
            rx,
            transcript: Vec::new(),
        }
    }

    fn fail(&self, msg: &str) -> ! {
        panic!("{msg}\n--- transcript ---\n{}", self.transcript.join("\n"));
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!(">> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to tinh");
        stdin.flush().unwrap();
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(">> {bytes:?}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to tinh");
        stdin.flush().unwrap();
    }

    fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(format!("<< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Read lines until one satisfies `pred`; returns the lines before it and it.
    fn until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> (Vec<String>, String) {
        let deadline = Instant::now() + PATIENCE;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) if pred(&l) => return (before, l),
                Some(l) => before.push(l),
                None => self.fail(&format!("no {what} in time")),
            }
        }
    }

    /// `isready`, and every line that came before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok", |l| l == "readyok").0
    }

    /// Watch a while: a search is running (or holding its result) and no `bestmove` comes,
    /// only progress: `info depth` lines and, in Reveal Chess, the `info string outcome`
    /// lines that follow an iteration (protocol.md 5.1).
    fn no_bestmove_yet(&mut self) {
        std::thread::sleep(QUIET);
        let lines = self.sync();
        let progress =
            |l: &String| l.starts_with("info depth") || l.starts_with("info string outcome ");
        if !lines.iter().all(progress) {
            self.fail(&format!("expected only progress, got {lines:?}"));
        }
    }

    /// Send a command and check that it answers nothing at all.
    fn silent(&mut self, cmd: &str) {
        self.send(cmd);
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("'{cmd}' answered {lines:?}"));
        }
    }

    /// Send bad input: it must answer exactly one `info string error:` line.
    fn rejected(&mut self, cmd: &str) -> String {
        self.send(cmd);
        // A search may be running: its progress lines are not the answer.
        let lines: Vec<String> = self
            .sync()
            .into_iter()
            .filter(|l| !l.starts_with("info depth "))
            .collect();
        if lines.len() != 1 || !lines[0].starts_with("info string error: ") {
            self.fail(&format!("'{cmd}' answered {lines:?}, not one error line"));
        }
        lines[0].clone()
    }

    /// Run a `go`, check its output, and return the `bestmove` line's move (None for
    /// `(none)`) and the `info` lines. Also checks that no second `bestmove` follows.
    fn go(&mut self, cmd: &str) -> (Option<String>, Vec<String>) {
        self.send(cmd);
        let (infos, best) = self.until("bestmove", |l| l.starts_with("bestmove"));
        for l in &infos {
            if !l.starts_with("info ") {
                self.fail(&format!("non-info line before bestmove: {l}"));
            }
            if let Err(e) = check_info_line(l) {
                self.fail(&format!("bad info line '{l}': {e}"));
            }
        }
        let extra = self.sync();
        if !extra.is_empty() {
            self.fail(&format!("lines after bestmove: {extra:?}"));
        }
        let toks: Vec<&str> = best.split_whitespace().collect();
        let ok = match toks.len() {
            2 => true,
            4 => toks[2] == "ponder",
            _ => false,
        };
        if !ok {
            self.fail(&format!("malformed '{best}'"));
        }
        let mv = (toks[1] != "(none)").then(|| toks[1].to_string());
        (mv, infos)
    }

    /// `go perft N`: the divide lines (move, count) and the total.
    fn perft(&mut self, depth: u32) -> (Vec<(String, u64)>, u64) {
        self.send(&format!("go perft {depth}"));
        let (lines, total) = self.until("Nodes searched", |l| l.starts_with("Nodes searched: "));
        let total: u64 = total["Nodes searched: ".len()..].parse().unwrap();
        let mut divide = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            if l.is_empty() {
                if i + 1 != lines.len() {
                    self.fail("empty line before the end of the divide");
                }
                continue;
            }
            let Some((m, n)) = l.split_once(": ") else {
                self.fail(&format!("bad divide line '{l}'"));
            };
            divide.push((m.to_string(), n.parse::<u64>().unwrap()));
        }
        if lines.last().map(String::as_str) != Some("") {
            self.fail("no empty line before 'Nodes searched'");
        }
        let sum: u64 = divide.iter().map(|(_, n)| n).sum();
        if depth > 0 && sum != total {
            self.fail(&format!("divide sums to {sum}, total says {total}"));
        }
        (divide, total)
    }

    /// The `d` output.
    fn display(&mut self) -> Vec<String> {
        self.send("d");
        let lines = self.sync();
        if lines.is_empty() {
            self.fail("'d' printed nothing");
        }
        lines
    }

    /// Wait for the process to end; None if it does not within `limit`.
    fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                return Some(st);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn quit(mut self) {
        self.send("quit");
        if self.wait_exit(PATIENCE).is_none() {
            self.fail("did not exit after quit");
        }
    }
}

impl Drop for Tinh {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An `info` line in the documented grammar (protocol.md, "Output").
fn check_info_line(l: &str) -> Result<(), String> {
    let t: Vec<&str> = l.split_whitespace().collect();
    if t.first() != Some(&"info") {
        return Err("not info".into());
    }
    if t.get(1) == Some(&"string") {
        return Ok(());
    }
    let mut i = 1;
    let mut seen_score = false;
    while i < t.len() {
        match t[i] {
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time"
            | "currmovenumber" => {
                t.get(i + 1)
                    .and_then(|v| v.parse::<u64>().ok())
                    .ok_or(format!("'{}' without a number", t[i]))?;
                i += 2;
            }
            "currmove" => {
                t.get(i + 1).ok_or("currmove without a move")?;
                i += 2;
            }
            "score" => {
                match t.get(i + 1) {
                    Some(&"cp") | Some(&"mate") => {}
                    _ => return Err("score not cp/mate".into()),
                }
                t.get(i + 2)
                    .and_then(|v| v.parse::<i64>().ok())
                    .ok_or("score without a number")?;
                i += 3;
                if matches!(t.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
                seen_score = true;
            }
            "pv" => {
                if i + 1 >= t.len() {
                    return Err("empty pv".into());
                }
                if !seen_score {
                    return Err("pv without score".into());
                }
                return Ok(());
            }
            other => return Err(format!("unknown key '{other}'")),
        }
    }
    Ok(())
}

/// The `info depth ... score ...` lines (iterations) among `go` output.
fn iterations(infos: &[String]) -> Vec<&String> {
    infos
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" score "))
        .collect()
}

/// The divide entry naming the played move `choice` (player notation, as `bestmove`
/// gives it) with an outcome: what a referee sends in `position ... moves`. Reveal Chess
/// needs the reveal letter; any type still in the pool is legal, and `pick` chooses
/// among them (cycling, so that games see every kind of reveal).
fn with_outcome(divide: &[(String, u64)], choice: &str, pick: usize) -> Option<String> {
    let found: Vec<&String> = divide
        .iter()
        .map(|(m, _)| m)
        .filter(|m| {
            m.as_str() == choice
                || (m.len() == choice.len() + 1
                    && m.starts_with(choice)
                    && m.chars().last().unwrap().is_ascii_uppercase())
        })
        .collect();
    (!found.is_empty()).then(|| found[pick % found.len()].clone())
}

/// Play `plies` plies with `go` commands from `start` (a `position` prefix), checking
/// each move's notation against the divide, and return the moves played.
fn play_out(t: &mut Tinh, start: &str, plies: usize, gos: &[&str]) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..plies {
        let pos = if moves.is_empty() {
            start.to_string()
        } else {
            format!("{start} moves {}", moves.join(" "))
        };
        t.silent(&format!("position {pos}"));
        let (best, infos) = t.go(gos[ply % gos.len()]);
        let Some(best) = best else {
            break;
        };
        if gos[ply % gos.len()].contains("depth") && iterations(&infos).is_empty() {
            t.fail("a depth search reported no iteration");
        }
        if best.chars().any(|c| c.is_ascii_uppercase()) {
            t.fail(&format!("bestmove '{best}' carries a reveal letter"));
        }
        let (divide, _) = t.perft(1);
        let Some(played) = with_outcome(&divide, &best, ply) else {
            t.fail(&format!("bestmove '{best}' is not a legal move here"));
        };
        moves.push(played);
    }
    moves
}

// ----- sessions --------------------------------------------------------------------------

#[test]
fn uci_handshake_lists_id_options_and_variant() {
    let mut t = Tinh::start(&["uci"]);
    t.send("uci");
    let (lines, _) = t.until("uciok", |l| l == "uciok");
    let has = |s: &str| lines.iter().any(|l| l == s);
    assert!(
        lines.iter().any(|l| l.starts_with("id name Tinh ")),
        "{lines:?}"
    );
    assert!(has("id author The Tinh developers"));
    for o in [
        "option name UCI_Variant type combo default mathchess var mathchess var revealchess var chess",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 50 min 0 max 5000",
        "option name PointTarget type spin default 0 min 0 max 45",
        "option name EvalFile type string default <empty>",
    ] {
        assert!(has(o), "missing '{o}' in {lines:?}");
    }
    // The Hash maximum is half the machine's memory: at least the default, and never
    // more than the machine has.
    let hash = lines
        .iter()
        .find_map(|l| l.strip_prefix("option name Hash type spin default 64 min 1 max "))
        .unwrap_or_else(|| panic!("no Hash option in {lines:?}"));
    let max: u64 = hash.parse().expect("Hash max");
    assert!(max >= 64, "{max}");
    if let Ok(info) = std::fs::read_to_string("/proc/meminfo") {
        let total_kb: u64 = info
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().strip_suffix("kB"))
            .and_then(|v| v.trim().parse().ok())
            .expect("MemTotal");
        assert!(max <= total_kb / 1024 / 2, "Hash max {max} MiB");
    }
    assert!(has(&format!(
        "info string variant mathchess files 9 ranks 11 startpos {MATH_START}"
    )));
    assert_eq!(t.sync(), Vec::<String>::new());
    t.quit();
}

/// The `Static evaluation:` line of the `eval` command.
fn static_eval(t: &mut Tinh) -> String {
    t.send("eval");
    let lines = t.sync();
    match lines.iter().find(|l| l.starts_with("Static evaluation: ")) {
        Some(l) => l.clone(),
        None => t.fail(&format!("no static evaluation in {lines:?}")),
    }
}

#[test]
fn eval_file_loads_weights_and_a_bad_one_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("tinh-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("chess.txt");
    std::fs::write(&good, "# a tuned set\ntempo = 40\n").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "tempo = 40\nno_such_weight = 1\n").unwrap();
    let mut t = Tinh::start(&[]);
    t.send("setoption name UCI_Variant value chess");
    t.sync();
    let compiled = static_eval(&mut t);
    t.silent(&format!("setoption name EvalFile value {}", good.display()));
    let loaded = static_eval(&mut t);
    assert_eq!(
        loaded,
        "Static evaluation: 40 cp (+0.40) from the side to move's view (White); units are centipawns, Diff is White minus Black"
    );
    assert_ne!(loaded, compiled);
    // A bad file or a missing one: one error line, and the loaded weights stay.
    let e = t.rejected(&format!("setoption name EvalFile value {}", bad.display()));
    assert!(e.contains("no_such_weight"), "{e}");
    t.rejected("setoption name EvalFile value /no/such/file.txt");
    assert_eq!(static_eval(&mut t), loaded);
    // Math Chess has no `tempo`: the chess file is dropped, and the line says so.
    t.send("setoption name UCI_Variant value mathchess");
    let lines = t.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string EvalFile ") && l.contains("compiled-in")),
        "{lines:?}"
    );
    t.send("setoption name UCI_Variant value chess");
    t.sync();
    assert_eq!(static_eval(&mut t), compiled);
    // An empty value goes back to the compiled-in weights.
    t.silent(&format!("setoption name EvalFile value {}", good.display()));
    t.silent("setoption name EvalFile value");
    assert_eq!(static_eval(&mut t), compiled);
    t.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn variant_option_announces_board_and_resets_position() {
    let mut t = Tinh::start(&[]);
    t.silent("position startpos moves c1c4");
    let moved = t.display();
    t.send("setoption name uci_variant value Chess");
    let (_, l) = t.until("variant line", |l| l.starts_with("info string variant"));
    assert_eq!(
        l,
        format!("info string variant chess files 8 ranks 8 startpos {CHESS_START}")
    );
    assert_eq!(t.perft(1).1, 20);
    t.send("setoption name UCI_Variant value revealchess");
    let (_, l) = t.until("variant line", |l| l.starts_with("info string variant"));
    assert_eq!(
        l,
        format!("info string variant revealchess files 8 ranks 8 startpos {REVEAL_START}")
    );
    t.send("setoption name UCI_Variant value mathchess");
    let (_, l) = t.until("variant line", |l| l.starts_with("info string variant"));
    assert_eq!(
        l,
        format!("info string variant mathchess files 9 ranks 11 startpos {MATH_START}")
    );
    // Back at the start, not at the position set before the switch.
    assert_ne!(t.display(), moved);
    t.silent("position startpos moves c1c4");
    assert_eq!(t.display(), moved);
    t.quit();
}

#[test]
fn mathchess_session() {
    let mut t = Tinh::start(&[]);
    t.send("uci");
    t.until("uciok", |l| l == "uciok");
    t.silent("setoption name Hash value 16");
    t.silent("setoption name Threads value 2");
    t.silent("ucinewgame");
    t.silent("position startpos");
    let start = t.display();
    assert!(
        start.iter().any(|l| l.contains(MATH_START)),
        "no FEN in {start:?}"
    );
    let eval = {
        t.send("eval");
        t.sync()
    };
    assert!(eval.iter().any(|l| l.starts_with("Static evaluation: ")));
    assert!(eval[0].contains("Blue") && eval[0].contains("Red"));
    let (divide, total) = t.perft(1);
    assert_eq!(divide.len() as u64, total);
    assert!(divide.iter().any(|(m, _)| m == "c1c4"));
    assert!(t.perft(2).1 > total);
    let moves = play_out(
        &mut t,
        "startpos",
        8,
        &[
            "go depth 2",
            "go nodes 3000",
            "go movetime 50",
            "go wtime 2000 btime 2000 winc 20 binc 20",
        ],
    );
    assert_eq!(moves.len(), 8, "game ended early: {moves:?}");
    // searchmoves restricts the root.
    t.silent("position startpos");
    let (best, _) = t.go("go depth 2 searchmoves d1d3");
    assert_eq!(best.as_deref(), Some("d1d3"));
    // The same moves from the start position's FEN give the same position.
    t.silent(&format!("position startpos moves {}", moves.join(" ")));
    let a = t.display();
    t.silent(&format!(
        "position fen {MATH_START} moves {}",
        moves.join(" ")
    ));
    assert_eq!(t.display(), a);
    t.quit();
}

#[test]
fn revealchess_session_with_reveal_and_backup_letters() {
    let mut t = Tinh::start(&["--variant", "revealchess"]);
    t.send("uci");
    let (lines, _) = t.until("uciok", |l| l == "uciok");
    assert!(lines.iter().any(|l| l.contains("default revealchess")));
    t.silent("ucinewgame");
    t.silent("position startpos");
    // Every shell move branches once per type in the pool: 20 moves x 5 types.
    let (divide, total) = t.perft(1);
    assert_eq!(total, 100);
    for m in ["e2e4P", "e2e4Q", "e2e4R", "e2e4B", "e2e4N", "g1f3Q"] {
        assert!(divide.iter().any(|(d, n)| d == m && *n == 1), "no {m}");
    }
    t.silent("position startpos moves e2e4P e7e5P g1f3N b8c6Q");
    let moves = play_out(
        &mut t,
        "startpos",
        8,
        &["go depth 2", "go nodes 3000", "go movetime 50"],
    );
    assert!(!moves.is_empty());
    // Reveal letters are required, must name a type the pool still has, and are
    // refused on a move that reveals nothing.
    t.silent("position startpos moves d2d4Q d7d5P");
    let before = t.display();
    let e = t.rejected("position startpos moves d2d4Q d7d5P e2e4Q");
    assert!(e.contains("move 3") && e.contains("e2e4Q"), "{e}");
    assert_eq!(t.display(), before);
    let e = t.rejected("position startpos moves e2e4");
    assert!(e.contains("move 1") && e.contains("e2e4"), "{e}");
    t.rejected("position startpos moves e2e4P e7e5P e4e5P");
    t.rejected("position startpos moves e2e4K");
    let e = t.rejected("position startpos moves e2e4P e7e5N e1e2P");
    assert!(e.contains("move 3") && e.contains("e1e2P"), "{e}");
    assert_eq!(t.display(), before);
    // A shell moving onto the last rank names its backup promotion before the reveal;
    // `bestmove` carries the backup letter but never the reveal.
    let fen = "4k3/8/8/8/8/8/8/X3K3 w - - 0 1 P1";
    t.silent(&format!("position fen {fen}"));
    let (divide, total) = t.perft(1);
    // Shell on a1: a2..a7, b1..d1 (one outcome each, the pool is P1), a8 with four
    // backup letters; king: d1 d2 e2 f2 f1.
    assert_eq!(total, 18, "{divide:?}");
    for m in ["a1a8qP", "a1a8rP", "a1a8bP", "a1a8nP", "a1a2P"] {
        assert!(divide.iter().any(|(d, _)| d == m), "no {m} in {divide:?}");
    }
    t.silent(&format!("position fen {fen} moves a1a8qP"));
    t.rejected(&format!("position fen {fen} moves a1a8"));
    t.rejected(&format!("position fen {fen} moves a1a8P"));
    t.rejected(&format!("position fen {fen} moves a1a8qQ"));
    t.silent(&format!("position fen {fen}"));
    let (best, _) = t.go("go depth 3 searchmoves a1a8q");
    assert_eq!(best.as_deref(), Some("a1a8q"));
    t.quit();
}

/// One `info string outcome ...` line (protocol.md 5.1), its fields by name.
struct OutcomeLine {
    depth: u32,
    multipv: u32,
    mv: String,
    outcome: String,
    weight: i64,
    total: i64,
    cp: i64,
    /// Plies shallower than `depth` it was searched (`reduced R`; 0 when absent).
    reduced: u32,
    pv: Vec<String>,
}

fn parse_outcome_line(l: &str) -> Result<OutcomeLine, String> {
    let t: Vec<&str> = l.split_whitespace().collect();
    let head = ["info", "string", "outcome", "depth"];
    if t.len() < 15 || t[..4] != head || t[5] != "multipv" || t[7] != "move" {
        return Err(format!("not an outcome line: {l}"));
    }
    if t[9] != "outcome" || t[11] != "probability" || t[13] != "score" || t[14] != "cp" {
        return Err(format!("fields out of order: {l}"));
    }
    let num = |s: &str| s.parse::<i64>().map_err(|_| format!("'{s}' in {l}"));
    let (w, total) = t[12].split_once('/').ok_or(format!("probability in {l}"))?;
    let mut rest = &t[16..];
    if let Some(&("lowerbound" | "upperbound")) = rest.first() {
        rest = &rest[1..];
    }
    let mut reduced = 0;
    if rest.first() == Some(&"reduced") {
        reduced = num(rest.get(1).ok_or(format!("reduced by what: {l}"))?)? as u32;
        if reduced == 0 {
            return Err(format!("'reduced 0' in {l}"));
        }
        rest = &rest[2..];
    }
    let pv = match rest.first() {
        None => Vec::new(),
        Some(&"pv") if rest.len() > 1 => rest[1..].iter().map(|m| m.to_string()).collect(),
        _ => return Err(format!("after the score: {l}")),
    };
    Ok(OutcomeLine {
        depth: num(t[4])? as u32,
        multipv: num(t[6])? as u32,
        mv: t[8].to_string(),
        outcome: t[10].to_string(),
        weight: num(w)?,
        total: num(total)?,
        cp: num(t[15])?,
        reduced,
        pv,
    })
}

/// After each iteration of a line whose move reveals, one `info string outcome` line per
/// reveal type: the probabilities add up to one, the mean of the outcome scores is the
/// line's (expected) score, and each outcome's pv is legal after the move with that reveal.
#[test]
fn outcome_lines_break_a_revealing_move_down_by_reveal() {
    check_outcome_lines(&[]);
}

/// The same with `ChanceRootPv` off: the outcomes after the most likely are searched off
/// the principal variation and their lines come from the transposition table.
#[test]
fn outcome_lines_from_the_table_are_legal() {
    check_outcome_lines(&["setoption name ChanceRootPv value 0"]);
}

/// With `ChanceReduceRoot` the root move's less likely outcomes are searched shallower and
/// their lines say by how much (`reduced R`); the most likely is searched to the line's
/// depth, and without the option none is reduced.
#[test]
fn outcome_lines_say_which_reveals_were_searched_shallower() {
    for reduce in [0, 1] {
        let mut t = Tinh::start(&["--variant", "revealchess"]);
        t.silent(&format!("setoption name ChanceReduceRoot value {reduce}"));
        t.silent("position startpos");
        let (best, infos) = t.go("go depth 5");
        assert!(best.is_some());
        let last = infos
            .iter()
            .rposition(|l| l.starts_with("info depth 5 ") && l.contains(" pv "))
            .unwrap_or_else(|| t.fail(&format!("no depth 5 line: {infos:?}")));
        let outcomes: Vec<OutcomeLine> = infos[last + 1..]
            .iter()
            .take_while(|l| l.starts_with("info string outcome "))
            .map(|l| parse_outcome_line(l).unwrap_or_else(|e| t.fail(&e)))
            .collect();
        // From the start every move but the king's reveals: Q R2 B2 N2 P8.
        assert_eq!(outcomes.len(), 5, "{infos:?}");
        assert_eq!(outcomes[0].weight, 8, "the pawn, most likely, first");
        assert_eq!(outcomes[0].reduced, 0, "{infos:?}");
        for o in &outcomes[1..] {
            if reduce == 0 {
                assert_eq!(o.reduced, 0, "{}", o.outcome);
            } else {
                // One ply per halving of the probability against the pawn's 8/15.
                let halvings = (8 / o.weight).ilog2();
                assert_eq!(o.reduced, halvings, "{} ({}/15)", o.outcome, o.weight);
            }
        }
        t.quit();
    }
}

fn check_outcome_lines(setup: &[&str]) {
    let mut t = Tinh::start(&["--variant", "revealchess"]);
    for cmd in setup {
        t.silent(cmd);
    }
    let start = "position startpos moves e2e4P e7e5P";
    t.silent(start);
    let (root_divide, _) = t.perft(1);
    let (best, infos) = t.go("go depth 3");
    assert!(best.is_some());
    let mut checked = 0;
    for (i, l) in infos.iter().enumerate() {
        if !l.starts_with("info depth ") || l.contains("bound") || !l.contains(" pv ") {
            continue;
        }
        let field = |key: &str| l.split(key).nth(1).unwrap().split(' ').next().unwrap();
        let depth: u32 = field("info depth ").parse().unwrap();
        let score: i64 = field(" score cp ").parse().unwrap();
        let first = field(" pv ").to_string();
        let outcomes: Vec<OutcomeLine> = infos[i + 1..]
            .iter()
            .take_while(|l| l.starts_with("info string outcome "))
            .map(|l| parse_outcome_line(l).unwrap_or_else(|e| t.fail(&e)))
            .collect();
        if root_divide.iter().any(|(m, _)| *m == first) {
            assert!(
                outcomes.is_empty(),
                "outcomes of a move that reveals nothing: {l}"
            );
            continue;
        }
        // After e2e4P e7e5P White's pool holds Q R2 B2 N2 P7: five types, 14 pieces.
        assert_eq!(outcomes.len(), 5, "one line per type after '{l}'");
        assert_eq!(outcomes[0].total, 14);
        assert_eq!(outcomes.iter().map(|o| o.weight).sum::<i64>(), 14);
        let sum: i64 = outcomes.iter().map(|o| o.weight * o.cp).sum();
        assert_eq!(sum.div_euclid(14), score, "mean of the outcomes of '{l}'");
        for o in &outcomes {
            assert_eq!((o.depth, o.multipv), (depth, 1));
            assert_eq!(o.mv, first);
            assert!(
                root_divide.iter().any(|(m, _)| *m == o.outcome),
                "{}",
                o.outcome
            );
            // The continuation is legal move by move after the reveal.
            let mut line = format!("{start} {}", o.outcome);
            for m in &o.pv {
                t.silent(&line);
                let (divide, _) = t.perft(1);
                let named = with_outcome(&divide, m, 0)
                    .unwrap_or_else(|| t.fail(&format!("'{m}' is not legal after '{line}'")));
                line = format!("{line} {named}");
            }
        }
        checked += 1;
    }
    assert!(checked > 0, "no iteration of a revealing move: {infos:?}");
    t.quit();
}

/// A forced mate through a reveal: every iteration lists each reveal once, each a mate
/// (the win is resolved exactly after the mean found every outcome beyond its range).
#[test]
fn outcome_lines_of_a_mate_through_a_reveal_come_once_per_reveal() {
    let mut t = Tinh::start(&["--variant", "revealchess"]);
    t.silent("position fen 3rkr2/3p1p2/8/8/8/3n4/4X3/K3R3 w - - 0 1 Q1R2B2N2P8");
    let (best, infos) = t.go("go depth 3");
    assert_eq!(best.as_deref(), Some("e2d3"), "{infos:?}");
    let mut checked = 0;
    for (i, l) in infos.iter().enumerate() {
        if !l.starts_with("info depth ") || !l.contains(" pv ") {
            continue;
        }
        assert!(l.contains(" score mate 1 "), "{l}");
        let outcomes: Vec<&String> = infos[i + 1..]
            .iter()
            .take_while(|l| l.starts_with("info string outcome "))
            .collect();
        assert_eq!(
            outcomes.len(),
            5,
            "one line per reveal type after '{l}': {infos:?}"
        );
        for o in &outcomes {
            assert!(o.contains(" score mate 1"), "{o}");
        }
        checked += 1;
    }
    assert!(checked > 0, "{infos:?}");
    t.quit();
}

#[test]
fn chess_session() {
    let mut t = Tinh::start(&["--variant", "chess"]);
    t.send("uci");
    t.until("uciok", |l| l == "uciok");
    t.silent("setoption name MultiPV value 2");
    t.silent("ucinewgame");
    t.silent("position startpos");
    assert_eq!(t.perft(1).1, 20);
    assert_eq!(t.perft(3).1, 8902);
    let eval = {
        t.send("eval");
        t.sync()
    };
    assert!(eval[0].contains("White") && eval[0].contains("Black"));
    let (best, infos) = t.go("go depth 3");
    assert!(best.is_some());
    // MultiPV 2: both lines reported.
    assert!(infos.iter().any(|l| l.contains(" multipv 2 ")), "{infos:?}");
    t.silent("setoption name MultiPV value 1");
    let moves = play_out(
        &mut t,
        "startpos",
        10,
        &[
            "go depth 2",
            "go wtime 1000 btime 1000 winc 10 binc 10",
            "go nodes 2000",
            "go movetime 30",
        ],
    );
    assert_eq!(moves.len(), 10, "{moves:?}");
    // searchmoves restricts the root.
    t.silent("position startpos");
    let (best, _) = t.go("go depth 3 searchmoves a2a3");
    assert_eq!(best.as_deref(), Some("a2a3"));
    // Promotion letters: lower case.
    t.silent("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1");
    let (divide, _) = t.perft(1);
    for m in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(divide.iter().any(|(d, _)| d == m), "no {m}");
    }
    t.silent("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8q");
    t.rejected("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8");
    t.quit();
}

#[test]
fn mate_in_one_found_and_game_over_gives_none() {
    let mut t = Tinh::start(&["--variant", "chess"]);
    // Fool's mate: Black to move and mate.
    t.silent("position startpos moves f2f3 e7e5 g2g4");
    let (best, infos) = t.go("go depth 3");
    assert_eq!(best.as_deref(), Some("d8h4"));
    assert!(
        infos.iter().any(|l| l.contains(" score mate 1 ")),
        "{infos:?}"
    );
    // White is mated: no move.
    t.silent("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let (best, infos) = t.go("go depth 3");
    assert_eq!(best, None);
    assert!(infos.iter().any(|l| l == "info depth 0 score mate 0"));
    // Stalemate: Black to move, no move.
    t.silent("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let (best, infos) = t.go("go movetime 100");
    assert_eq!(best, None);
    assert!(infos.iter().any(|l| l == "info depth 0 score cp 0"));
    // Held for `go infinite` like any other result.
    t.send("go infinite");
    let early = t.sync();
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    t.send("stop");
    let (_, l) = t.until("bestmove", |l| l.starts_with("bestmove"));
    assert_eq!(l, "bestmove (none)");
    t.quit();
}

// ----- concurrency -----------------------------------------------------------------------

#[test]
fn isready_answered_and_stop_works_during_go_infinite() {
    for variant in ["mathchess", "revealchess", "chess"] {
        let mut t = Tinh::start(&["--variant", variant]);
        t.silent("position startpos");
        t.send("go infinite");
        for _ in 0..3 {
            let lines = t.sync();
            assert!(lines.iter().all(|l| l.starts_with("info")), "{lines:?}");
        }
        // Even a search that is finished keeps its result until `stop`.
        std::thread::sleep(QUIET);
        let lines = t.sync();
        assert!(lines.iter().all(|l| l.starts_with("info")), "{lines:?}");
        // A second `go` waits for the first, which still holds its result until `stop`.
        t.send("go depth 1");
        t.no_bestmove_yet();
        t.send("stop");
        let (_, best) = t.until("bestmove", |l| l.starts_with("bestmove"));
        assert!(best.starts_with("bestmove ") && best != "bestmove (none)");
        // Then the waiting `go` runs and answers.
        let (_, best) = t.until("second bestmove", |l| l.starts_with("bestmove"));
        assert!(best != "bestmove (none)");
        let after = t.sync();
        assert!(after.is_empty(), "after stop: {after:?}");
        // `stop` with nothing running answers nothing; the engine still plays.
        t.silent("stop");
        let (best, _) = t.go("go depth 1");
        assert!(best.is_some());
        t.quit();
    }
}

/// Every line `tinh` prints until it exits (after end of input), with a time limit.
fn all_output(t: &mut Tinh) -> Vec<String> {
    let deadline = Instant::now() + PATIENCE;
    let mut lines = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match t.rx.recv_timeout(left) {
            Ok(l) => {
                t.transcript.push(format!("<< {l}"));
                lines.push(l);
            }
            Err(RecvTimeoutError::Disconnected) => return lines,
            Err(RecvTimeoutError::Timeout) => t.fail("no end of output in time"),
        }
    }
}

#[test]
fn a_piped_batch_gets_one_bestmove_per_go_in_order() {
    // As `printf '...' | tinh` sends it: everything at once, then end of input. Each
    // search must run to its own limit (not be cut short by the end of input), and the
    // commands between them apply in order. The three positions have disjoint moves
    // (White from the start, Black after e2e4, and a position with one legal move).
    let mut t = Tinh::start(&["--variant", "chess"]);
    let batch = [
        "position startpos",
        "go movetime 300",
        "position startpos moves e2e4",
        "go depth 4",
        "setoption name MultiPV value 2",
        "position fen 7k/8/8/8/8/8/6q1/K7 w - - 0 1",
        "go nodes 2000",
        "isready",
    ];
    let mut bytes = batch.join("\n").into_bytes();
    bytes.push(b'\n');
    let sent = Instant::now();
    t.send_raw(&bytes);
    t.stdin = None;
    // The time to the first bestmove is a lower bound on how long the first search ran
    // (a loaded machine only makes it longer): the end of input must not cut it short.
    let (mut lines, first) = t.until("first bestmove", |l| l.starts_with("bestmove"));
    let first_answer = sent.elapsed();
    lines.push(first);
    lines.extend(all_output(&mut t));
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    if best.len() != 3 {
        t.fail(&format!("{} bestmoves for 3 gos", best.len()));
    }
    let from = |b: &str| b.split_whitespace().nth(1).unwrap()[..2].to_string();
    assert!(
        ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "b1", "g1"]
            .contains(&from(best[0]).as_str()),
        "{best:?}"
    );
    assert!(
        from(best[1]).ends_with('7') || from(best[1]).ends_with('8'),
        "{best:?}"
    );
    assert!(
        best[2].starts_with("bestmove a1b1")
            || best[2].starts_with("bestmove a1a2")
            || best[2].starts_with("bestmove a1b2"),
        "{best:?}"
    );
    // The first search ran its 300 ms, less the move overhead (not stopped by the end of
    // input); the second reached its depth 4.
    assert!(
        first_answer >= Duration::from_millis(200),
        "{first_answer:?} {lines:?}"
    );
    let pos = |b: &String| lines.iter().position(|l| l == b).unwrap();
    let depth_before = |end: usize| {
        lines[..end]
            .iter()
            .rev()
            .take_while(|l| !l.starts_with("bestmove"))
            .filter_map(|l| l.strip_prefix("info depth "))
            .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
            .max()
            .unwrap_or(0)
    };
    assert!(depth_before(pos(best[1])) >= 4, "{lines:?}");
    // MultiPV 2 applies to the third search only.
    let multipv2 = lines.iter().position(|l| l.contains(" multipv 2 "));
    assert!(multipv2.is_none_or(|i| i > pos(best[1])), "{lines:?}");
    // `isready` was answered at once, while the first search was still running.
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(ready < pos(best[0]), "{lines:?}");
    assert!(t.wait_exit(PATIENCE).is_some_and(|s| s.success()));
}

#[test]
fn stop_and_quit_act_at_once_while_commands_wait() {
    let mut t = Tinh::start(&["--variant", "chess"]);
    // A search that would take hours, a `go` waiting behind it: `stop` ends the first at
    // once, then the second runs.
    t.send("go depth 99");
    t.send("position startpos moves e2e4");
    t.send("go depth 1");
    t.no_bestmove_yet();
    let asked = Instant::now();
    t.send("stop");
    let (_, first) = t.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(asked.elapsed() < Duration::from_secs(10));
    let (_, second) = t.until("second bestmove", |l| l.starts_with("bestmove"));
    // `position` during the search applied to the waiting `go` (Black's move).
    let from = |b: &str| b.split_whitespace().nth(1).unwrap().to_string();
    assert!(from(&first).ends_with(['3', '4']), "{first}");
    assert!(from(&second).ends_with(['5', '6']), "{second}");
    assert!(t.sync().is_empty());

    // `go ponder` holds a waiting `go` until `ponderhit` (then its own clock ends it).
    t.silent("position startpos moves e2e4");
    t.send("go ponder wtime 1000 btime 1000");
    t.send("go depth 1");
    t.no_bestmove_yet();
    t.send("ponderhit");
    t.until("bestmove", |l| l.starts_with("bestmove"));
    t.until("second bestmove", |l| l.starts_with("bestmove"));
    assert!(t.sync().is_empty());

    // `quit` ends the search at once and drops what waits.
    t.send("go depth 99");
    t.send("go depth 99");
    t.sync();
    let asked = Instant::now();
    t.send("quit");
    let st = t.wait_exit(Duration::from_secs(10));
    assert!(st.is_some_and(|s| s.success()), "{st:?}");
    assert!(asked.elapsed() < Duration::from_secs(10));
    let rest = all_output(&mut t);
    let n = rest.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(n, 1, "{rest:?}");
}

#[test]
fn quit_and_end_of_input_end_a_running_search_promptly() {
    let mut t = Tinh::start(&[]);
    t.silent("position startpos");
    t.send("go infinite");
    t.sync();
    t.send("quit");
    let st = t.wait_exit(Duration::from_secs(10));
    assert!(
        st.is_some_and(|s| s.success()),
        "no prompt exit after quit: {st:?}"
    );

    let mut t = Tinh::start(&["--variant", "chess"]);
    t.send("go infinite");
    t.sync();
    t.stdin = None; // end of input
    let st = t.wait_exit(Duration::from_secs(10));
    assert!(
        st.is_some_and(|s| s.success()),
        "no prompt exit at end of input: {st:?}"
    );
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut t = Tinh::start(&["--variant", "chess"]);
    t.silent("setoption name Ponder value true");
    t.silent("position startpos moves e2e4");
    t.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    t.no_bestmove_yet();
    // The expected move was played: the search goes on as a timed one and ends by itself.
    t.send("ponderhit");
    let (_, best) = t.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(best != "bestmove (none)");
    assert!(t.sync().is_empty());

    // The opponent played something else: `stop`, then the real search.
    t.silent("position startpos moves e2e4 e7e5");
    t.send("go ponder wtime 2000 btime 2000");
    t.no_bestmove_yet();
    t.send("stop");
    t.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(t.sync().is_empty());
    t.silent("position startpos moves e2e4 c7c5");
    let (best, _) = t.go("go wtime 2000 btime 2000");
    assert!(best.is_some());
    // `ponderhit` with nothing running answers nothing.
    t.silent("ponderhit");
    t.quit();
}

// ----- bad input -------------------------------------------------------------------------

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    for (variant, good, fen, bad_fen, illegal, bad_syntax) in [
        (
            "mathchess",
            "c1c4",
            MATH_START,
            "r9r8r7r6r5r4r3r2r1/4r04/9 b 1",
            "c1c5",
            "c1",
        ),
        (
            "revealchess",
            "e2e4P",
            REVEAL_START,
            "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1",
            "e2e5P",
            "e2e4PP",
        ),
        (
            "chess",
            "e2e4",
            CHESS_START,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
            "e2e5",
            "e9e4",
        ),
    ] {
        let mut t = Tinh::start(&["--variant", variant]);
        t.silent(&format!("position fen {fen} moves {good}"));
        let kept = t.display();
        let count = t.perft(2).1;

        let e = t.rejected("frobnicate now");
        assert_eq!(e, "info string error: unknown command 'frobnicate'");
        t.rejected("position");
        t.rejected("position startpos e2e4");
        t.rejected("position fen");
        t.rejected(&format!("position fen {bad_fen}"));
        t.rejected("position fen hello world");
        let e = t.rejected(&format!("position startpos moves {good} {illegal}"));
        assert!(e.contains("move 2") && e.contains(illegal), "{e}");
        let e = t.rejected(&format!("position startpos moves {bad_syntax}"));
        assert!(e.contains("move 1"), "{e}");
        t.rejected(&format!("position fen {fen} moves {good} {good}"));
        t.rejected("setoption name Hash value 0");
        t.rejected("setoption name Hash value 99999999");
        t.rejected("setoption name Threads value many");
        t.rejected("setoption name MultiPV value 0");
        t.rejected("setoption name Move Overhead value -1");
        t.rejected("setoption name PointTarget value 46");
        t.rejected("setoption name Ponder value perhaps");
        t.rejected("setoption name UCI_Variant value xiangqi");
        t.rejected("setoption name NoSuchOption value 1");
        t.rejected("setoption Hash 16");
        t.rejected("go depth");
        t.rejected("go depth -3");
        t.rejected("go depth x");
        let e = t.rejected("go depth 99999999999");
        assert!(
            e.ends_with("go: depth '99999999999' is not a number in 1..=4294967295"),
            "{e}"
        );
        t.rejected("go nodes 1e6");
        t.rejected("go movetime 0");
        t.rejected("go wtime");
        t.rejected("go sideways 3");
        t.rejected("go searchmoves");
        t.rejected("go searchmoves zz99");
        t.rejected(&format!("go depth 1 searchmoves {illegal}"));
        t.rejected("go perft");
        t.rejected("go perft x");
        t.rejected("go perft -1");
        let e = t.rejected("go perft 21");
        assert!(
            e.ends_with("go perft: depth 21 is out of range 0..=20"),
            "{e}"
        );

        // The position is the one from before all of that, and the engine still serves.
        assert_eq!(t.display(), kept);
        assert_eq!(t.perft(2).1, count);
        let (best, _) = t.go("go depth 1");
        assert!(best.is_some());
        // Not UTF-8, blank lines, stray whitespace: nothing breaks.
        t.send_raw(b"\xff\xfe\n");
        let lines = t.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string error: unknown command"),
            "{lines:?}"
        );
        t.silent("");
        t.silent("   ");
        t.silent(" \t position\tstartpos ");
        // Only spaces and tabs separate words: other (Unicode) spaces are part of a word.
        let e = t.rejected("go\u{a0}depth 1");
        assert_eq!(e, "info string error: unknown command 'go\u{a0}depth'");
        t.rejected(&format!("position fen {}", fen.replacen(' ', "\u{a0}", 1)));
        let e = t.rejected("go depth\u{2003}1");
        assert!(
            e.starts_with("info string error: go: unknown parameter 'depth\u{2003}1'"),
            "{e}"
        );
        // A huge word is not echoed whole.
        let e = t.rejected(&"y".repeat(1 << 20));
        assert!(e.len() < 500 && e.contains('…'), "{} chars", e.len());
        t.send("  isready  ");
        t.until("readyok", |l| l == "readyok");
        t.quit();
    }
}

/// One line of seeded random input for `random_input_is_answered_and_never_breaks_the_engine`:
/// the protocol's own words in random order, commands with good, bad and out-of-range
/// values, start positions and FENs with characters changed, legal and illegal moves, and
/// text in any script. Never `quit`.
fn random_line(rng: &mut rand::rngs::StdRng, fen: &str, moves: &[&str]) -> String {
    use rand::RngExt;
    const WORDS: &[&str] = &[
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
        "perft",
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "debug",
        "on",
        "off",
        "register",
        "later",
        "d",
        "eval",
        "params",
    ];
    const OPTIONS: &[&str] = &[
        "Hash",
        "Threads",
        "MultiPV",
        "UCI_Variant",
        "UCI_Elo",
        "UCI_LimitStrength",
        "Skill Level",
        "Level",
        "EvalFile",
        "PointTarget",
        "Ponder",
        "Move Overhead",
        "Clear Hash",
        "RfpMargin",
        "ChanceBound",
        "Search_SEE",
        "NoSuchOption",
    ];
    const VALUES: &[&str] = &[
        "0",
        "1",
        "2",
        "-1",
        "3",
        "20",
        "64",
        "400",
        "99999999999999999999",
        "1e3",
        "abc",
        "",
        "true",
        "false",
        "TRUE",
        "chess",
        "revealchess",
        "mathchess",
        "xiangqi",
        "/nonexistent/weights.txt",
        "<empty>",
        "  5  ",
        "NaN",
    ];
    const LIMITS: &[&str] = &[
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "movestogo",
        "mate",
    ];
    const NUMBERS: &[&str] = &["1", "2", "3", "0", "-4", "40", "9000", "abc", "1.5", ""];
    let pick = |rng: &mut rand::rngs::StdRng, from: &[&str]| {
        from[rng.random_range(0..from.len())].to_string()
    };
    let some_moves = |rng: &mut rand::rngs::StdRng| {
        let n = rng.random_range(0..5usize);
        // Mostly the legal line from the start, sometimes a move out of order or twice.
        let mut out: Vec<String> = moves.iter().take(n).map(|m| m.to_string()).collect();
        if rng.random_bool(0.3) {
            out.push(pick(rng, moves));
        }
        if rng.random_bool(0.2) {
            out.push(pick(
                rng,
                &[
                    "e2e4", "a1a3", "x9", "0000", "e2e4Q", "c1c4", "e7e8q", "i11i1",
                ],
            ));
        }
        out.join(" ")
    };
    let mutated = |rng: &mut rand::rngs::StdRng, s: &str| {
        let mut c: Vec<char> = s.chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..c.len());
            const FEN_CHARS: &[u8] = b"pnbrqkxPNBRQKX0123456789/ -wb";
            let x = FEN_CHARS[rng.random_range(0..FEN_CHARS.len())] as char;
            match rng.random_range(0..3) {
                0 if c.len() > 1 => {
                    c.remove(i);
                }
                1 => c.insert(i, x),
                _ => c[i] = x,
            }
        }
        c.into_iter().collect::<String>()
    };
    match rng.random_range(0..100) {
        0..15 => format!("position startpos moves {}", some_moves(rng)),
        15..30 => {
            let f = if rng.random_bool(0.6) {
                mutated(rng, fen)
            } else {
                fen.to_string()
            };
            format!("position fen {f} moves {}", some_moves(rng))
        }
        30..45 => {
            // However long the limit, the test's `stop` ends the search.
            format!("go {} {}", pick(rng, LIMITS), pick(rng, NUMBERS))
        }
        45..50 => pick(
            rng,
            &["go infinite", "go ponder", "go", "go searchmoves e2e4 c1c4"],
        ),
        50..65 => format!(
            "setoption name {} value {}",
            pick(rng, OPTIONS),
            pick(rng, VALUES)
        ),
        65..70 => pick(
            rng,
            &[
                "isready",
                "ucinewgame",
                "stop",
                "ponderhit",
                "uci",
                "go perft 2",
            ],
        ),
        70..92 => (0..rng.random_range(0..8))
            .map(|_| pick(rng, WORDS))
            .collect::<Vec<_>>()
            .join(if rng.random_bool(0.8) { " " } else { "\t" }),
        _ => (0..rng.random_range(0..40))
            .map(|_| char::from_u32(rng.random_range(1..0x3000)).unwrap_or('?'))
            .filter(|&c| c != '\n' && c != '\r')
            .collect(),
    }
}

/// Seeded random input in every game: every line is answered before the next `readyok`
/// with protocol lines only (at most one error line); a rejected `position` or `setoption`
/// leaves the board as it was; a `go` gives exactly one `bestmove` unless rejected (a
/// `stop` follows it, as a GUI's would an infinite search); `quit` still ends the process.
#[test]
fn random_input_is_answered_and_never_breaks_the_engine() {
    use rand::SeedableRng;
    for (seed, variant, fen, moves) in [
        (
            1u64,
            "mathchess",
            MATH_START,
            &["c1c4", "g11g8", "a1a3", "c11c8"][..],
        ),
        (
            2,
            "revealchess",
            REVEAL_START,
            &["e2e4P", "e7e5p", "g1f3N", "b8c6n"][..],
        ),
        (
            3,
            "chess",
            CHESS_START,
            &["e2e4", "e7e5", "g1f3", "b8c6"][..],
        ),
    ] {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut t = Tinh::start(&["--variant", variant]);
        for _ in 0..250 {
            let line = random_line(&mut rng, fen, moves);
            // Words as the engine splits them: by spaces and tabs only.
            let words: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
            let first = words.first().copied().unwrap_or("");
            let before = matches!(first, "position" | "setoption").then(|| t.display());
            t.send(&line);
            let perft = first == "go" && words.get(1) == Some(&"perft");
            let mut lines = Vec::new();
            if first == "go" {
                t.send("stop");
                let (infos, end) = t.until("the end of the go", |l| {
                    l.starts_with("bestmove")
                        || l.starts_with("info string error: ")
                        || l.starts_with("Nodes searched: ")
                });
                lines = infos;
                lines.push(end);
            }
            if first == "isready" {
                // Its own `readyok` (words after `isready` are ignored), before the sync's.
                lines = t.until("readyok", |l| l == "readyok").0;
            }
            lines.extend(t.sync());
            let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
            let errors = lines
                .iter()
                .filter(|l| l.starts_with("info string error: "))
                .count();
            if bestmoves > usize::from(first == "go") || errors > 1 {
                t.fail(&format!("'{line}' answered {lines:?}"));
            }
            for l in &lines {
                let protocol = (first == "go" && !perft && l.starts_with("bestmove "))
                    || (perft && (l.is_empty() || l.contains(": ")))
                    || (first == "uci"
                        && (l.starts_with("id ") || l.starts_with("option ") || l == "uciok"))
                    || check_info_line(l).is_ok();
                if !protocol && !matches!(first, "d" | "eval" | "params") {
                    t.fail(&format!("'{line}' answered '{l}', not a protocol line"));
                }
            }
            if let Some(before) = before
                && errors == 1
                && t.display() != before
            {
                t.fail(&format!("the rejected '{line}' changed the board"));
            }
        }
        t.quit();
    }
}

#[test]
fn options_apply_and_perft_zero() {
    let mut t = Tinh::start(&["--variant", "chess"]);
    for o in [
        "setoption name hash value 1",
        "setoption name HASH value 32",
        "setoption name Clear Hash",
        "setoption name clear hash",
        "setoption name Threads value 4",
        "setoption name Move Overhead value 100",
        "setoption name PointTarget value 25",
        "setoption name Ponder value false",
    ] {
        t.silent(o);
    }
    assert_eq!(t.perft(0).1, 1);
    // Threads also parallelise `go perft`; the count is the same.
    assert_eq!(t.perft(3).1, 8902);
    let (best, _) = t.go("go depth 2");
    assert!(best.is_some());
    // Options that need the searcher idle wait for the search (a bad one's error too),
    // and apply once it has answered.
    t.send("go infinite");
    t.sync();
    t.send("setoption name Hash value 8");
    t.send("setoption name Hash value 0");
    t.send("ucinewgame");
    let lines = t.sync();
    assert!(
        lines.iter().all(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    t.send("stop");
    let (_, best) = t.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(best != "bestmove (none)");
    let lines = t.sync();
    assert!(
        lines.len() == 1
            && lines[0].starts_with("info string error: setoption: option 'Hash' value 0"),
        "{lines:?}"
    );
    t.silent("setoption name Hash value 8");
    t.silent("ucinewgame");
    t.quit();
}

// ----- analyse ---------------------------------------------------------------------------

#[test]
fn analyse_prints_board_iterations_and_best_move() {
    for args in [
        vec!["analyse", "--depth", "3"],
        vec![
            "analyse",
            "--variant",
            "chess",
            "--depth",
            "3",
            "--multipv",
            "2",
        ],
        vec![
            "analyse",
            "--variant",
            "revealchess",
            "--moves",
            "e2e4P e7e5N",
            "--nodes",
            "5000",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tinh"))
            .args(&args)
            .output()
            .expect("run analyse");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {text}");
        assert!(
            text.lines()
                .any(|l| (l.starts_with("depth ") || l.starts_with("line "))
                    && l.split(" pv ")
                        .nth(1)
                        .is_some_and(|pv| !pv.trim().is_empty())),
            "{args:?}: {text}"
        );
        let best = text
            .lines()
            .find(|l| l.starts_with("best move: "))
            .unwrap_or_else(|| panic!("{args:?}: {text}"));
        assert!(!best.starts_with("best move: none"), "{text}");
    }
    // A bad FEN is an error, not a crash.
    let out = Command::new(env!("CARGO_BIN_EXE_tinh"))
        .args(["analyse", "--fen", "nonsense"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
}

/// From the Reveal Chess start every move reveals: the analysis labels its scores as
/// expected values and ends with the best move's value broken down by reveal, one row per
/// type in the pool whose probabilities add up to the whole pool.
#[test]
fn analyse_breaks_a_revealing_best_move_down_by_outcome() {
    let out = Command::new(env!("CARGO_BIN_EXE_tinh"))
        .args(["analyse", "--variant", "revealchess", "--depth", "3"])
        .output()
        .expect("run analyse");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("scores are expected values"), "{text}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("best move: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(best.contains("expected score"), "{best}");
    let mv = best.split([',', ' ']).next().unwrap();
    let head = format!("{mv} by outcome (depth 3)");
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with(&head))
        .skip(2)
        .collect();
    assert_eq!(table.len(), 5, "one row per reveal type: {text}");
    let mut sum = 0;
    for row in &table {
        let f: Vec<&str> = row.split_whitespace().collect();
        assert!(f[0].starts_with(mv) && f[0].len() == mv.len() + 1, "{row}");
        let (w, t) = f[1].split_once('/').unwrap_or_else(|| panic!("{row}"));
        assert_eq!(t, "15", "{row}");
        sum += w.parse::<u32>().unwrap();
        assert!(
            f.len() >= 7,
            "a value, depth, nodes and a continuation: {row}"
        );
        let depth: u32 = f[4].parse().unwrap_or_else(|_| panic!("depth: {row}"));
        assert!((1..=3).contains(&depth), "{row}");
        let nodes: u64 = f[5].parse().unwrap_or_else(|_| panic!("nodes: {row}"));
        assert!(nodes > 0, "{row}");
    }
    assert_eq!(sum, 15, "{text}");
}

// ----- python-chess ----------------------------------------------------------------------

/// python-chess's `chess.engine` plays a game against Tinh in chess mode: the handshake,
/// options, `position ... moves`, `go` with depth, nodes and clocks, and `analyse`.
/// Where python3 or the `chess` package is missing the test is skipped, with a SKIPPED
/// line on stderr that `cargo test` shows; under CI (`CI` set, as `.ci/run` does) it fails
/// instead: there the test must run.
#[test]
fn python_chess_plays_a_game() {
    let skip = |why: &str| {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
        if ci {
            panic!("python-chess test cannot run under CI: {why}");
        }
        // Straight to the process's stderr: libtest captures only print!/eprint!.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED python_chess_plays_a_game: {why}"
        );
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python_chess_play.py");
    let out = match Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tinh"))
        .output()
    {
        Ok(o) => o,
        Err(e) => return skip(&format!("cannot run python3 ({e}): install Python 3")),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) {
        return skip(stdout.trim());
    }
    assert!(
        out.status.success(),
        "python-chess game failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("game ok"), "{stdout}");
}

#[test]
fn repetition_ends_math_chess_but_only_allows_a_claim_in_chess() {
    // Math Chess: the third occurrence is an automatic draw.
    let mut t = Tinh::start(&[]);
    let shuffle = "a1a2 i11i10 a2a1 i10i11";
    t.silent(&format!("position startpos moves {shuffle} {shuffle}"));
    let (best, infos) = t.go("go depth 2");
    assert_eq!(best, None);
    assert!(infos.iter().any(|l| l == "info depth 0 score cp 0"));
    assert!(
        infos
            .iter()
            .any(|l| l == "info string game over: threefold repetition"),
        "{infos:?}"
    );
    // No move may follow the automatic draw, and the previous position stays.
    let e = t.rejected(&format!("position startpos moves {shuffle} {shuffle} a1a2"));
    assert!(e.contains("game is over (threefold repetition)"), "{e}");
    assert_eq!(t.go("go depth 2").0, None);
    // One occurrence fewer: play on.
    t.silent(&format!(
        "position startpos moves {shuffle} a1a2 i11i10 a2a1"
    ));
    assert!(t.go("go depth 2").0.is_some());
    t.quit();

    // Chess: threefold repetition may be claimed; the engine still plays, and moves
    // after it are accepted.
    let mut t = Tinh::start(&["--variant", "chess"]);
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    t.silent(&format!("position startpos moves {shuffle} {shuffle}"));
    assert!(t.go("go depth 2").0.is_some());
    t.silent(&format!("position startpos moves {shuffle} {shuffle} e2e4"));
    t.quit();
}

#[test]
fn automatic_draws_in_chess_end_the_game_for_position_and_go_alike() {
    let mut t = Tinh::start(&["--variant", "chess"]);
    // The fifty-move draw is only claimable: the engine plays on.
    t.silent("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 99 60 moves a1a2");
    assert!(t.go("go depth 2").0.is_some());
    // The 75-move rule ends the game by itself: `go` says so ...
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 149 80";
    t.silent(&format!("position fen {fen} moves a1a2"));
    let (best, infos) = t.go("go depth 2");
    assert_eq!(best, None);
    assert!(
        infos
            .iter()
            .any(|l| l == "info string game over: 75-move rule"),
        "{infos:?}"
    );
    // ... and `position` accepts no move after it (the previous position stays).
    let e = t.rejected(&format!("position fen {fen} moves a1a2 e8e7"));
    assert!(
        e.contains("move 2 'e8e7'") && e.contains("game is over (75-move rule)"),
        "{e}"
    );
    assert_eq!(t.go("go depth 2").0, None);
    // A dead position alike.
    let e = t.rejected("position fen 4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 moves e1e2");
    assert!(e.contains("game is over (insufficient material)"), "{e}");
    t.quit();
}

#[test]
fn point_target_option_decides_math_chess_games() {
    // Blue's 2 on a5 with its 1 on a6 as support captures Red's 9 on a7 (2 - 1 = 1).
    let fen = "1r8r7r6r5r4r3r2r1/4r04/9/9/r98/b18/b28/9/9/4b04/2b3b4b5b6b7b8b9 b 1";
    let mut t = Tinh::start(&[]);
    t.silent("setoption name PointTarget value 9");
    t.silent(&format!("position fen {fen}"));
    assert!(t.display().iter().any(|l| l.contains("Point target: 9")));
    t.silent(&format!("position fen {fen} moves a5a7"));
    let (best, infos) = t.go("go depth 2");
    assert_eq!(best, None);
    assert!(infos.iter().any(|l| l == "info depth 0 score mate 0"));
    assert!(
        infos
            .iter()
            .any(|l| l == "info string game over: point target"),
        "{infos:?}"
    );
    // The game is decided: no move may follow.
    t.rejected(&format!("position fen {fen} moves a5a7 e10e9"));
    // Switched off, it applies to the current position at once: Red plays on.
    t.silent("setoption name PointTarget value 0");
    assert!(t.go("go depth 2").0.is_some());
    // A target above the points captured does not end the game either.
    t.silent("setoption name PointTarget value 10");
    t.silent(&format!("position fen {fen} moves a5a7"));
    assert!(t.go("go depth 2").0.is_some());
    // The start search finds the capture that reaches the target.
    t.silent("setoption name PointTarget value 9");
    t.silent(&format!("position fen {fen}"));
    let (best, infos) = t.go("go depth 3");
    assert_eq!(best.as_deref(), Some("a5a7"));
    assert!(
        infos.iter().any(|l| l.contains(" score mate 1 ")),
        "{infos:?}"
    );
    t.quit();
}

#[test]
fn exactly_one_bestmove_per_go_under_racing_stops() {
    let mut t = Tinh::start(&["--variant", "chess"]);
    t.silent("position startpos moves e2e4");
    // `stop` right behind `go` (before the search has done anything), `stop` after a
    // search that has already answered, and `ponderhit` + `stop` together: each `go`
    // answers exactly once.
    for i in 0..30 {
        let go = match i % 3 {
            0 => "go infinite",
            1 => "go depth 1",
            _ => "go ponder movetime 20",
        };
        t.send(go);
        if i % 3 == 2 {
            t.send("ponderhit");
        }
        t.send("stop");
        t.send("stop");
        let lines = t.sync();
        let n = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        let ok = n == 1
            && lines
                .iter()
                .all(|l| l.starts_with("info ") || l.starts_with("bestmove "))
            && !lines.iter().any(|l| l == "bestmove (none)");
        if !ok {
            t.fail(&format!("'{go}' + stop answered {lines:?}"));
        }
    }
    t.quit();
}

#[test]
fn search_parameters_are_settable_and_listed_by_params_only() {
    let mut t = Tinh::start(&[]);
    t.send("uci");
    let (lines, _) = t.until("uciok", |l| l == "uciok");
    assert!(!lines.iter().any(|l| l.contains("RfpMargin")), "{lines:?}");
    t.silent("setoption name RfpMargin value 90");
    t.send("params");
    t.send("isready");
    let (lines, _) = t.until("readyok", |l| l == "readyok");
    assert!(
        lines.contains(&"option name RfpMargin type spin default 90 min 0 max 1000".to_string()),
        "{lines:?}"
    );
    t.send("setoption name RfpMargin value 100000");
    t.send("isready");
    let (lines, _) = t.until("readyok", |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error:") && l.contains("out of range")),
        "{lines:?}"
    );
    t.quit();
}

#[test]
fn levels_play_legal_seeded_moves_and_say_the_move_they_play() {
    let mut t = Tinh::start(&[]);
    t.send("uci");
    let (lines, _) = t.until("uciok", |l| l == "uciok");
    for o in [
        "option name Level type spin default 0 min 0 max 5",
        "option name UCI_LimitStrength type check default false",
        "option name Skill Level type spin default 20 min -1 max 20",
        "option name Seed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(lines.iter().any(|l| l == o), "missing '{o}' in {lines:?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Elo type spin default ")),
        "{lines:?}"
    );
    for bad in [
        "setoption name Level value 6",
        "setoption name Skill Level value -2",
        "setoption name Seed value -1",
        "setoption name UCI_LimitStrength value maybe",
    ] {
        t.rejected(bad);
    }
    t.silent("setoption name Seed value 7");
    for variant in ["mathchess", "revealchess", "chess"] {
        t.send(&format!("setoption name UCI_Variant value {variant}"));
        t.until("variant announcement", |l| {
            l.starts_with("info string variant")
        });
        for level in 1..=5 {
            t.silent(&format!("setoption name Level value {level}"));
            let go = "go wtime 60000 btime 60000";
            t.silent("ucinewgame");
            let moves = play_out(&mut t, "startpos", 4, &[go]);
            // The same seed replays the same game (the table cleared as at its start).
            t.silent("ucinewgame");
            let again = play_out(&mut t, "startpos", 4, &[go]);
            assert_eq!(moves, again, "{variant} level {level}");
            // The last info line is the move played.
            t.silent("position startpos");
            let (best, infos) = t.go(go);
            let last = iterations(&infos)
                .last()
                .copied()
                .cloned()
                .unwrap_or_default();
            let pv_first = last
                .split(" pv ")
                .nth(1)
                .and_then(|p| p.split_whitespace().next());
            assert_eq!(pv_first, best.as_deref(), "{variant} level {level}: {last}");
        }
        // The random mover: a legal move at once, no search lines.
        t.silent("setoption name Level value 0");
        t.silent("setoption name Skill Level value -1");
        play_out(&mut t, "startpos", 4, &["go wtime 60000 btime 60000"]);
        t.silent("position startpos");
        let (_, infos) = t.go("go wtime 60000 btime 60000");
        assert!(iterations(&infos).is_empty(), "{infos:?}");
        t.silent("setoption name Skill Level value 20");
    }
    t.quit();
}
