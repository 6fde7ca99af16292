//! One engine process of a match: spawn it, write protocol lines to its stdin, read its
//! stdout through a reader thread and a channel (so every wait has a deadline), the
//! `uci`/`isready` handshakes, and `quit` then kill at the end.

use super::args::EngineSpec;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Nothing (or not the awaited line) before the deadline.
    Timeout,
    /// Its stdout closed or its stdin broke: it exited or crashed.
    Disconnected,
}

pub struct Engine {
    /// Name used in messages and logs.
    pub name: String,
    /// `id name` from the handshake.
    pub id_name: Option<String>,
    /// Option names the engine advertised (`option name X type ...`).
    pub advertised: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
}

impl Engine {
    /// Start the process (nothing is sent yet).
    pub fn spawn(spec: &EngineSpec, name: &str) -> Result<Engine, String> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start engine '{name}' ({}): {e}", spec.cmd))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("engine stdout missing")?;
        let (tx, rx) = channel();
        let tag = name.to_string();
        std::thread::Builder::new()
            .name(format!("read-{name}"))
            .spawn(move || {
                let reader = BufReader::new(stdout);
                for line in reader.lines() {
                    let Ok(line) = line else { break };
                    log::debug!("{tag} > {line}");
                    if tx.send(line).is_err() {
                        break;
                    }
                }
                // Dropping `tx` tells the receiver the engine is gone.
            })
            .map_err(|e| format!("cannot start reader thread: {e}"))?;
        Ok(Engine {
            name: name.to_string(),
            id_name: None,
            advertised: Vec::new(),
            child,
            stdin,
            rx,
        })
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.name);
        let stdin = self.stdin.as_mut().ok_or(EngineError::Disconnected)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|_| EngineError::Disconnected)
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Disconnected),
        }
    }

    /// Drop lines already waiting (late `info` of a finished search), so the next search's
    /// output is not mixed with them.
    pub fn drain(&mut self) {
        while self.rx.try_recv().is_ok() {}
    }

    /// Read lines until one whose first word is `word`, dropping the others through `seen`.
    pub fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
        mut seen: impl FnMut(&str),
    ) -> Result<String, EngineError> {
        loop {
            let l = self.recv(deadline)?;
            if l.split_whitespace().next() == Some(word) {
                return Ok(l);
            }
            seen(&l);
        }
    }

    /// `uci` ... `uciok`, recording `id name` and the advertised options.
    pub fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        let mut id = None;
        let mut opts = Vec::new();
        self.wait_for("uciok", deadline, |l| {
            if let Some(rest) = l.strip_prefix("id name ") {
                id = Some(rest.trim().to_string());
            } else if let Some(rest) = l.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                opts.push(name.to_string());
            }
        })?;
        self.id_name = id;
        self.advertised = opts;
        Ok(())
    }

    pub fn advertises(&self, option: &str) -> bool {
        self.advertised
            .iter()
            .any(|o| o.eq_ignore_ascii_case(option))
    }

    /// `isready` ... `readyok`.
    /// (See also `Player for Engine` in `referee.rs`: one move asked of it.)
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + timeout, |_| {})
            .map(|_| ())
    }

    /// Whether the process has exited.
    pub fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// `quit`, a short grace period, then kill.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if self.exited() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if !self.exited() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// What an engine said about its search: the last `info` with a score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Centipawns from the engine's point of view; mate scores as `MateIn`.
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    Cp(i32),
    /// Moves to mate; negative when the engine is getting mated.
    Mate(i32),
}

impl EngineScore {
    /// Centipawns for adjudication: mates count as ±100000.
    pub fn cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(m) if m > 0 => 100_000 - m,
            EngineScore::Mate(m) => -100_000 - m,
        }
    }
    /// cutechess-style comment score: `+0.35`, `-1.20`, `+M5`, `-M3`.
    pub fn pgn(self) -> String {
        match self {
            EngineScore::Cp(c) => format!(
                "{}{:.2}",
                if c >= 0 { "+" } else { "-" },
                c.abs() as f64 / 100.0
            ),
            EngineScore::Mate(m) => format!("{}M{}", if m > 0 { "+" } else { "-" }, m.abs()),
        }
    }
}

impl SearchInfo {
    /// Fold one `info` line in: keeps the last depth and score seen.
    pub fn update(&mut self, line: &str) {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() != Some(&"info") || w.get(1) == Some(&"string") {
            return;
        }
        let mut i = 1;
        while i < w.len() {
            match w[i] {
                "depth" => {
                    if let Some(d) = w.get(i + 1).and_then(|t| t.parse().ok()) {
                        self.depth = Some(d);
                    }
                    i += 2;
                }
                "score" => {
                    let kind = w.get(i + 1).copied();
                    let val = w.get(i + 2).and_then(|t| t.parse::<i32>().ok());
                    match (kind, val) {
                        (Some("cp"), Some(v)) => self.score = Some(EngineScore::Cp(v)),
                        (Some("mate"), Some(v)) => self.score = Some(EngineScore::Mate(v)),
                        _ => {}
                    }
                    i += 3;
                }
                // Everything after `pv` / `string` is free text.
                "pv" | "string" => break,
                _ => i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_parsing() {
        let mut si = SearchInfo::default();
        si.update("info depth 3 seldepth 5 score cp 35 nodes 100 pv e2e4 depth 9");
        assert_eq!(si.depth, Some(3));
        assert_eq!(si.score, Some(EngineScore::Cp(35)));
        si.update("info depth 4 score mate -2 lowerbound nodes 200");
        assert_eq!(si.score, Some(EngineScore::Mate(-2)));
        si.update("info string depth 99 score cp 1");
        assert_eq!(si.depth, Some(4));
        assert_eq!(EngineScore::Cp(35).pgn(), "+0.35");
        assert_eq!(EngineScore::Cp(-120).pgn(), "-1.20");
        assert_eq!(EngineScore::Cp(-5).pgn(), "-0.05");
        assert_eq!(EngineScore::Mate(-3).pgn(), "-M3");
        assert!(EngineScore::Mate(2).cp() > 90_000);
    }
}
