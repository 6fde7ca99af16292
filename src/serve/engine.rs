//! Tinh's engine for one game of the board: a child process (`tinh --variant V uci`)
//! driven through protocol.md by an actor task that owns it. The game sends `Think`/`Stop`;
//! the actor reports `Ready`, live `Info`, the `BestMove` and, if the process dies or
//! stalls, `Died`. Dropping the handle ends the actor, which quits and kills the process,
//! so an engine never outlives its game. Levels map to the `Level` option and a `go` limit
//! in one place (`plan`).

use std::process::Stdio;
use std::time::Duration;
use tinh::variant::Variant;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until, timeout};

/// How long the `uci` and `isready` handshakes may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Time beyond the `go` limit after which a silent engine counts as stalled.
const STALL_GRACE: Duration = Duration::from_secs(5);
/// Hash per engine process in MiB: many games share one machine.
const HASH_MB: u32 = 16;

/// Tinh's strength in a game: a level 1..=5, or full strength (`None`).
pub type Level = Option<u8>;

/// How Tinh plays a level: the options to set and the `go` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub setoptions: Vec<String>,
    pub go: String,
    /// Upper bound of one search, for the stall deadline.
    pub budget: Duration,
}

/// The one mapping from a level to engine settings: the engine's `Level` option (its
/// node budget sets the strength, protocol.md) and a `go movetime` that only caps the
/// time, so that every move comes within seconds even on a loaded machine; full strength
/// thinks 3 s.
pub fn plan(level: Level) -> Plan {
    const CAP_MS: [u64; 5] = [300, 500, 800, 1200, 2000];
    const FULL_MS: u64 = 3000;
    match level {
        None => Plan {
            setoptions: Vec::new(),
            go: format!("go movetime {FULL_MS}"),
            budget: Duration::from_millis(FULL_MS),
        },
        Some(n) => {
            let i = usize::from(n.clamp(1, 5)) - 1;
            Plan {
                setoptions: vec![format!("setoption name Level value {}", i + 1)],
                go: format!("go movetime {}", CAP_MS[i]),
                budget: Duration::from_millis(CAP_MS[i]),
            }
        }
    }
}

/// One `info` line of a search, as the board shows it. Scores are the engine's, from the
/// side to move's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub cp: Option<i32>,
    pub mate: Option<i32>,
    /// `lowerbound` or `upperbound` when the score is only a bound.
    pub bound: Option<String>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

impl Info {
    /// Parse a search `info` line (protocol.md 5.1); `None` for other lines (`info string`,
    /// `currmove` progress, lines without a score).
    pub fn parse(line: &str) -> Option<Info> {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() != Some(&"info") || w.get(1) == Some(&"string") {
            return None;
        }
        let mut info = Info::default();
        let mut scored = false;
        let mut i = 1;
        let num = |k: usize| w.get(k).and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
        while i < w.len() {
            match w[i] {
                "depth" => info.depth = num(i + 1) as u32,
                "seldepth" => info.seldepth = num(i + 1) as u32,
                "nodes" => info.nodes = num(i + 1),
                "nps" => info.nps = num(i + 1),
                "time" => info.time_ms = num(i + 1),
                "score" => {
                    let v = w.get(i + 2).and_then(|t| t.parse::<i32>().ok());
                    match w.get(i + 1) {
                        Some(&"cp") => info.cp = v,
                        Some(&"mate") => info.mate = v,
                        _ => {}
                    }
                    scored = v.is_some();
                    i += 1;
                }
                "lowerbound" | "upperbound" => {
                    info.bound = Some(w[i].to_string());
                    i += 1;
                    continue;
                }
                "pv" => {
                    info.pv = w[i + 1..].iter().map(|s| s.to_string()).collect();
                    break;
                }
                _ => {}
            }
            i += 2;
        }
        scored.then_some(info)
    }
}

/// What the game is told by its engine.
#[derive(Debug)]
pub enum Event {
    /// Handshake done; `note` when the engine refused part of its set-up.
    Ready {
        note: Option<String>,
    },
    Info {
        ticket: u64,
        info: Info,
    },
    /// The engine's move in its form (no reveal letter), or `(none)`.
    BestMove {
        ticket: u64,
        text: String,
    },
    /// An `info string error:` line: the engine refused something.
    Warning(String),
    /// The process exited, crashed, or stopped answering; it is gone.
    Died(String),
}

/// A request to search: the whole game as a `position` line, tagged with the game's
/// ticket so that a late answer to an old position is recognised.
#[derive(Debug)]
pub struct Think {
    pub ticket: u64,
    pub position: String,
}

enum Cmd {
    Think(Think),
    Stop,
}

/// Receives the engine's events; returns false once the game is gone (the actor then
/// quits its engine).
pub type Sink = Box<dyn Fn(Event) -> bool + Send + Sync>;

/// The game's end of an engine actor. Dropping it quits and kills the process.
pub struct Engine {
    tx: mpsc::Sender<Cmd>,
}

impl Engine {
    /// Start the process and its actor (must run inside the Tokio runtime).
    pub fn start(variant: Variant, level: Level, sink: Sink) -> Engine {
        let (tx, rx) = mpsc::channel(8);
        tokio::spawn(async move {
            if let Err(why) = run(variant, level, rx, &sink).await {
                log::warn!("engine for a {variant} game: {why}");
                sink(Event::Died(why));
            }
        });
        Engine { tx }
    }

    /// Ask for a search; false when the actor is gone or overloaded (it then reports why).
    pub fn think(&self, think: Think) -> bool {
        self.tx.try_send(Cmd::Think(think)).is_ok()
    }

    /// Stop a running search; its answer arrives with its old ticket and is ignored.
    pub fn stop(&self) {
        let _ = self.tx.try_send(Cmd::Stop);
    }
}

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Proc {
    fn spawn(variant: Variant) -> Result<Proc, String> {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find Tinh's own executable to start the engine: {e}"))?;
        let mut child = Command::new(exe)
            .args(["--variant", variant.name(), "uci"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start the engine: {e}"))?;
        let stdin = child.stdin.take().ok_or("engine stdin missing")?;
        let stdout = child.stdout.take().ok_or("engine stdout missing")?;
        Ok(Proc {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
        })
    }

    async fn send(&mut self, line: &str) -> Result<(), String> {
        log::debug!("engine < {line}");
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        match self.stdin.write_all(&bytes).await {
            Ok(()) => self.stdin.flush().await.map_err(|_| self.gone()),
            Err(_) => Err(self.gone()),
        }
    }

    /// The next line; an error when the process closed its output.
    async fn line(&mut self) -> Result<String, String> {
        match self.lines.next_line().await {
            Ok(Some(l)) => {
                log::debug!("engine > {l}");
                Ok(l)
            }
            _ => Err(self.gone()),
        }
    }

    /// Read until a line starting with `word`, passing the others to `seen`.
    async fn until(&mut self, word: &str, mut seen: impl FnMut(&str)) -> Result<(), String> {
        let wait = async {
            loop {
                let l = self.line().await?;
                if l.split_whitespace().next() == Some(word) {
                    return Ok(());
                }
                seen(&l);
            }
        };
        timeout(HANDSHAKE, wait)
            .await
            .map_err(|_| format!("the engine did not answer '{word}' within {HANDSHAKE:?}"))?
    }

    /// Why the process is gone, as far as can be told.
    fn gone(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(status)) => format!("the engine exited ({status})"),
            _ => "the engine closed its connection".to_string(),
        }
    }

    async fn quit(mut self) {
        let _ = self.send("quit").await;
        if timeout(Duration::from_millis(500), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// `uci`, the variant, the level, `isready`. Returns the plan, and a note for the board
/// if the engine refused part of its set-up.
async fn handshake(
    p: &mut Proc,
    variant: Variant,
    level: Level,
) -> Result<(Plan, Option<String>), String> {
    p.send("uci").await?;
    p.until("uciok", |_| {}).await?;
    let plan = plan(level);
    let mut setup = vec![
        format!("setoption name UCI_Variant value {}", variant.name()),
        format!("setoption name Hash value {HASH_MB}"),
        "setoption name Threads value 1".to_string(),
    ];
    setup.extend(plan.setoptions.iter().cloned());
    for l in &setup {
        p.send(l).await?;
    }
    p.send("isready").await?;
    let mut refused = Vec::new();
    p.until("readyok", |l| {
        if let Some(e) = l.strip_prefix("info string error: ") {
            refused.push(e.to_string());
        }
    })
    .await?;
    let note = (!refused.is_empty()).then(|| {
        log::info!("engine refused part of its set-up: {}", refused.join("; "));
        format!(
            "the engine refused part of its set-up: {}",
            refused.join("; ")
        )
    });
    Ok((plan, note))
}

/// The actor: start, hand-shake, then serve `Think`/`Stop` until the game drops its
/// handle. One search at a time: a `Think` during a search stops it and waits for its
/// `bestmove` first.
async fn run(
    variant: Variant,
    level: Level,
    mut rx: mpsc::Receiver<Cmd>,
    sink: &Sink,
) -> Result<(), String> {
    let mut p = Proc::spawn(variant)?;
    let (plan, note) = handshake(&mut p, variant, level).await?;
    if !sink(Event::Ready { note }) {
        p.quit().await;
        return Ok(());
    }
    let mut searching: Option<(u64, Instant)> = None;
    let mut queued: Option<Think> = None;
    loop {
        let deadline =
            searching.map_or_else(|| Instant::now() + Duration::from_secs(3600), |s| s.1);
        tokio::select! {
            cmd = rx.recv() => match cmd {
                None => {
                    p.quit().await;
                    return Ok(());
                }
                Some(Cmd::Think(t)) if searching.is_some() => {
                    p.send("stop").await?;
                    queued = Some(t);
                }
                Some(Cmd::Think(t)) => {
                    p.send(&t.position).await?;
                    p.send(&plan.go).await?;
                    searching = Some((t.ticket, Instant::now() + plan.budget + STALL_GRACE));
                }
                Some(Cmd::Stop) => {
                    queued = None;
                    if searching.is_some() {
                        p.send("stop").await?;
                    }
                }
            },
            line = p.line() => {
                let line = line?;
                let ticket = searching.map_or(0, |s| s.0);
                let alive = if let Some(e) = line.strip_prefix("info string error: ") {
                    sink(Event::Warning(e.to_string()))
                } else if let Some(info) = Info::parse(&line) {
                    sink(Event::Info { ticket, info })
                } else if let Some(rest) = line.strip_prefix("bestmove") {
                    searching = None;
                    let text = rest.split_whitespace().next().unwrap_or("(none)").to_string();
                    let alive = sink(Event::BestMove { ticket, text });
                    if let Some(t) = queued.take() {
                        p.send(&t.position).await?;
                        p.send(&plan.go).await?;
                        searching = Some((t.ticket, Instant::now() + plan.budget + STALL_GRACE));
                    }
                    alive
                } else {
                    true
                };
                if !alive {
                    p.quit().await;
                    return Ok(());
                }
            },
            _ = sleep_until(deadline), if searching.is_some() => {
                return Err(format!(
                    "the engine did not answer within {:.0} s",
                    (plan.budget + STALL_GRACE).as_secs_f64()
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_map_to_the_level_option_and_a_time_cap() {
        let p = plan(Some(3));
        assert_eq!(p.setoptions, ["setoption name Level value 3"]);
        assert_eq!(p.go, "go movetime 800");
        let p = plan(None);
        assert!(p.setoptions.is_empty());
        assert_eq!(p.go, "go movetime 3000");
        // Every level answers within a few seconds.
        for l in [None, Some(1), Some(2), Some(3), Some(4), Some(5)] {
            assert!(plan(l).budget <= Duration::from_secs(3));
        }
    }

    #[test]
    fn info_lines_parse() {
        let i = Info::parse(
            "info depth 7 seldepth 9 multipv 1 score cp -35 upperbound nodes 1234 nps 99 hashfull 0 time 12 pv e2e4 e7e5",
        )
        .unwrap();
        assert_eq!(i.depth, 7);
        assert_eq!(i.seldepth, 9);
        assert_eq!(i.cp, Some(-35));
        assert_eq!(i.bound.as_deref(), Some("upperbound"));
        assert_eq!((i.nodes, i.nps, i.time_ms), (1234, 99, 12));
        assert_eq!(i.pv, ["e2e4", "e7e5"]);
        let m = Info::parse("info depth 3 score mate -2 nodes 5 pv c1c4").unwrap();
        assert_eq!(m.mate, Some(-2));
        assert_eq!(
            Info::parse("info depth 3 currmove e2e4 currmovenumber 1"),
            None
        );
        assert_eq!(Info::parse("info string depth 3 score cp 1"), None);
        assert_eq!(Info::parse("bestmove e2e4"), None);
    }
}
