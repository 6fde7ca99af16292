//! The UCI-style protocol loop on stdin/stdout (specified in `protocol.md`): command
//! parsing, engine options, the current position, and the life cycle of one background
//! search (start, `stop`, `ponderhit`, holding the result of `go infinite`/`go ponder`,
//! exactly one `bestmove` per accepted `go`). Also the `info` line formats, shared with
//! `tinh analyse` (analyse.rs).
//!
//! Threads: a reader thread turns stdin into a channel of lines; the main thread handles
//! commands one at a time; a search runs on the searcher's own thread and writes its
//! `info`/`bestmove` lines through the same locked `Output`, so lines never interleave.

pub mod analyse;

use crate::eval::Evaluator;
use crate::game::{Game, GameEnd, MoveList, Outcome};
use crate::search::{self, Bound, Features, Info, Limits, Options, Report, SearchResult, Searcher};
use crate::variant::{Position, Variant};
use crate::with_game;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub const ENGINE_NAME: &str = "Tinh";
pub const ENGINE_AUTHOR: &str = "The Tinh developers";

/// How long `stop` waits for the search thread to hand in its result before giving up
/// on joining it (the `bestmove` still comes when it does).
const STOP_WAIT: Duration = Duration::from_secs(10);
/// How long `quit` (and end of input) waits for a stopped search before exiting anyway.
const QUIT_WAIT: Duration = Duration::from_secs(2);

// ----- output ----------------------------------------------------------------------------

/// The one writer of protocol lines. Every thread (main, search) writes through it; a call
/// writes whole lines under one lock and flushes, so lines never interleave or linger.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn stdout() -> Self {
        Self::new(Box::new(io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Self {
        Output {
            inner: Arc::new(Mutex::new(w)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        // A panic while printing must not silence the engine for good.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Write `text` (one or more lines; an empty line is kept) and flush.
    pub fn send(&self, text: &str) {
        let mut w = self.lock();
        let mut res = Ok(());
        for line in text.lines() {
            res = res.and_then(|_| writeln!(w, "{line}"));
        }
        if let Err(e) = res.and_then(|_| w.flush()) {
            // Nobody reads stdout any more; end of input will follow.
            log::debug!("cannot write to the protocol output: {e}");
        }
    }

    /// `info string error: ...`: the one answer to bad input.
    pub fn error(&self, msg: &str) {
        // A message is one line: a newline inside it would make a line that is not protocol.
        let msg = msg.replace(['\n', '\r'], " ");
        self.send(&format!("info string error: {msg}"));
    }
}

// ----- formats ---------------------------------------------------------------------------

/// `info depth D seldepth S multipv K score cp X|mate N [lowerbound|upperbound] nodes N
/// nps N hashfull H time T pv ...`
pub fn format_info(info: &Info) -> String {
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        search::format_score(info.score),
        bound,
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms
    );
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&info.pv.join(" "));
    }
    s
}

pub fn format_report(r: &Report) -> String {
    match r {
        Report::Iteration(info) => format_info(info),
        Report::CurrMove { depth, mv, number } => {
            format!("info depth {depth} currmove {mv} currmovenumber {number}")
        }
    }
}

/// `bestmove M [ponder P]`, or `bestmove (none)`.
pub fn format_bestmove(r: &SearchResult) -> String {
    match (&r.best, &r.ponder) {
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
        (None, _) => "bestmove (none)".to_string(),
    }
}

/// Whether the game is over here, so that `go` answers `bestmove (none)`: the side to
/// move has no legal move, or the rules end the game automatically. In Math Chess every
/// end is automatic (a captured 0, the point target, threefold repetition). In chess and
/// Reveal Chess only the position's own verdict (`immediate_result`: the automatic draws)
/// counts besides mate and stalemate: a draw that may be *claimed* (threefold repetition,
/// fifty moves) leaves the engine playing, as a UCI engine does; claiming is the GUI's or
/// referee's business.
pub fn game_over<G: Game>(g: &G) -> Option<GameEnd> {
    let automatic_ends_only = g.variant_name() != "mathchess";
    let decided = g.immediate_result();
    let mut list = MoveList::new();
    if decided.is_none() {
        g.generate_moves(&mut list);
    }
    let verdict = g.game_end();
    if decided.is_none() && !list.is_empty() && (automatic_ends_only || verdict.is_none()) {
        return None;
    }
    Some(verdict.unwrap_or_else(|| match decided {
        Some(outcome) => GameEnd {
            outcome,
            reason: "decided by the rules".to_string(),
        },
        None => GameEnd {
            outcome: g.no_moves_result(),
            reason: "no legal move".to_string(),
        },
    }))
}

/// Names of the two sides in a game's own terms.
pub fn side_names(variant_name: &str) -> [&'static str; 2] {
    if variant_name == "mathchess" {
        ["Blue", "Red"]
    } else {
        ["White", "Black"]
    }
}

/// The `eval` command's table: every term for both sides, their difference, and the
/// static evaluation the search uses.
pub fn format_eval<G: Game>(g: &G, eval: &mut G::Eval) -> String {
    let [a, b] = side_names(g.variant_name());
    let terms = eval.terms(g);
    let mut s = format!("{:<20} | {:>8} | {:>8} | {:>8}\n", "Term", a, b, "Diff");
    s.push_str(&format!("{:-<21}+{:-<10}+{:-<10}+{:-<9}\n", "", "", "", ""));
    let (mut ta, mut tb) = (0i64, 0i64);
    for t in &terms {
        ta += t.first as i64;
        tb += t.second as i64;
        s.push_str(&format!(
            "{:<20} | {:>8} | {:>8} | {:>8}\n",
            t.name,
            t.first,
            t.second,
            t.first as i64 - t.second as i64
        ));
    }
    s.push_str(&format!("{:-<21}+{:-<10}+{:-<10}+{:-<9}\n", "", "", "", ""));
    s.push_str(&format!(
        "{:<20} | {:>8} | {:>8} | {:>8}\n",
        "Total",
        ta,
        tb,
        ta - tb
    ));
    let e = eval.evaluate(g);
    let stm = side_names(g.variant_name())[g.side_to_move().min(1)];
    s.push_str(&format!(
        "Static evaluation: {e} cp ({:+.2}) from the side to move's view ({stm}); \
         units are centipawns, Diff is {a} minus {b}\n",
        e as f64 / 100.0
    ));
    s
}

// ----- options ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum OptKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    Combo,
}

struct OptSpec {
    name: &'static str,
    kind: OptKind,
}

const OPTIONS: &[OptSpec] = &[
    OptSpec {
        name: "UCI_Variant",
        kind: OptKind::Combo,
    },
    OptSpec {
        name: "Hash",
        kind: OptKind::Spin {
            default: 64,
            min: 1,
            max: 65536,
        },
    },
    OptSpec {
        name: "Threads",
        kind: OptKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptSpec {
        name: "MultiPV",
        kind: OptKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptSpec {
        name: "Clear Hash",
        kind: OptKind::Button,
    },
    OptSpec {
        name: "Ponder",
        kind: OptKind::Check { default: false },
    },
    OptSpec {
        name: "Move Overhead",
        kind: OptKind::Spin {
            default: 50,
            min: 0,
            max: 5000,
        },
    },
    OptSpec {
        name: "PointTarget",
        kind: OptKind::Spin {
            default: 0,
            min: 0,
            max: 45,
        },
    },
    // Search features, on by default; switched off only to measure what each is worth
    // (Tinh against itself without it, see README).
    OptSpec {
        name: "Search_NullMove",
        kind: OptKind::Check { default: true },
    },
    OptSpec {
        name: "Search_LMR",
        kind: OptKind::Check { default: true },
    },
    OptSpec {
        name: "Search_Futility",
        kind: OptKind::Check { default: true },
    },
    OptSpec {
        name: "Search_ChancePruning",
        kind: OptKind::Check { default: true },
    },
    OptSpec {
        name: "Search_Aspiration",
        kind: OptKind::Check { default: true },
    },
];

/// Check a value for a spin option against its range (shared with `tinh analyse`).
pub fn check_spin(name: &str, n: i64) -> Result<(), String> {
    let (min, max) = OPTIONS
        .iter()
        .find_map(|o| match o.kind {
            OptKind::Spin { min, max, .. } if o.name == name => Some((min, max)),
            _ => None,
        })
        .expect("spin option");
    if n < min || n > max {
        return Err(format!(
            "option '{name}' value {n} out of range {min}..{max}"
        ));
    }
    Ok(())
}

fn spin_default(name: &str) -> i64 {
    OPTIONS
        .iter()
        .find_map(|o| match o.kind {
            OptKind::Spin { default, .. } if o.name == name => Some(default),
            _ => None,
        })
        .expect("spin option")
}

/// The `option name ...` lines of the `uci` answer; the variant's default is the one the
/// loop was started with (`--variant`).
fn option_lines(start_variant: Variant) -> String {
    let mut s = String::new();
    for o in OPTIONS {
        let line = match o.kind {
            OptKind::Spin { default, min, max } => {
                format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    o.name
                )
            }
            OptKind::Check { default } => {
                format!("option name {} type check default {default}", o.name)
            }
            OptKind::Button => format!("option name {} type button", o.name),
            OptKind::Combo => {
                let vars: String = Variant::ALL
                    .iter()
                    .map(|v| format!(" var {}", v.name()))
                    .collect();
                format!(
                    "option name {} type combo default {}{vars}",
                    o.name,
                    start_variant.name()
                )
            }
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOption {
    Variant(Variant),
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    ClearHash,
    Ponder(bool),
    MoveOverhead(u64),
    PointTarget(u32),
    /// One of the `Search_*` switches: (option name, on).
    Feature(&'static str, bool),
}

/// Parse `setoption name <name words> [value <value words>]` (the arguments after
/// `setoption`). Names are matched case-insensitively; values are checked against the
/// option's type and range.
pub fn parse_setoption(args: &[&str]) -> Result<SetOption, String> {
    if args.first() != Some(&"name") {
        return Err("setoption: expected 'setoption name <option> [value <value>]'".into());
    }
    let rest = &args[1..];
    let vpos = rest.iter().position(|&t| t == "value");
    let (name_toks, value_toks) = match vpos {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let name = name_toks.join(" ");
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    let value = value_toks.map(|v| v.join(" "));
    let spec = OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(&name))
        .ok_or_else(|| format!("setoption: unknown option '{name}'"))?;
    let need_value = || -> Result<&str, String> {
        match value.as_deref() {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(format!("setoption: option '{}' needs a value", spec.name)),
        }
    };
    match spec.kind {
        OptKind::Spin { .. } => {
            let v = need_value()?;
            let n: i64 = v.parse().map_err(|_| {
                format!(
                    "setoption: option '{}' value '{v}' is not an integer",
                    spec.name
                )
            })?;
            check_spin(spec.name, n).map_err(|e| format!("setoption: {e}"))?;
            Ok(match spec.name {
                "Hash" => SetOption::Hash(n as usize),
                "Threads" => SetOption::Threads(n as usize),
                "MultiPV" => SetOption::MultiPv(n as usize),
                "Move Overhead" => SetOption::MoveOverhead(n as u64),
                "PointTarget" => SetOption::PointTarget(n as u32),
                other => unreachable!("spin option {other}"),
            })
        }
        OptKind::Check { .. } => {
            let v = need_value()?;
            let b = match v.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(format!(
                        "setoption: option '{}' value '{v}' is not true or false",
                        spec.name
                    ));
                }
            };
            Ok(if spec.name == "Ponder" {
                SetOption::Ponder(b)
            } else {
                SetOption::Feature(spec.name, b)
            })
        }
        OptKind::Button => Ok(SetOption::ClearHash),
        OptKind::Combo => {
            let v = need_value()?;
            v.parse::<Variant>()
                .map(SetOption::Variant)
                .map_err(|e| format!("setoption: option '{}': {e}", spec.name))
        }
    }
}

// ----- position and go -------------------------------------------------------------------

/// Parse the arguments of `position`: `startpos | fen <FEN fields...>` then optionally
/// `moves <m1> <m2> ...`. Returns the FEN (`None` for the start position) and the moves.
pub fn parse_position_args<'a>(args: &[&'a str]) -> Result<(Option<String>, Vec<&'a str>), String> {
    let mpos = args.iter().position(|&t| t == "moves");
    let (head, moves) = match mpos {
        Some(i) => (&args[..i], args[i + 1..].to_vec()),
        None => (args, Vec::new()),
    };
    match head.first() {
        Some(&"startpos") => {
            if head.len() > 1 {
                return Err(format!(
                    "position: unexpected '{}' after startpos (expected 'moves')",
                    head[1]
                ));
            }
            Ok((None, moves))
        }
        Some(&"fen") => {
            if head.len() < 2 {
                return Err("position: missing FEN after 'fen'".into());
            }
            Ok((Some(head[1..].join(" ")), moves))
        }
        Some(other) => Err(format!(
            "position: expected 'startpos' or 'fen', got '{other}'"
        )),
        None => Err("position: expected 'startpos' or 'fen'".into()),
    }
}

/// A parsed `go`.
#[derive(Clone, Debug)]
pub enum Go {
    Perft(u32),
    Search(Limits),
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Parse the arguments of `go`. Times are milliseconds; a negative `wtime`/`btime`/
/// `winc`/`binc` (some GUIs send one when a clock runs out) counts as 0. `searchmoves`
/// takes every following token up to the next keyword; the moves are checked against the
/// position by the caller.
pub fn parse_go(args: &[&str]) -> Result<Go, String> {
    if args.first() == Some(&"perft") {
        let d = args
            .get(1)
            .ok_or("go perft: missing depth")?
            .parse::<u32>()
            .map_err(|_| format!("go perft: depth '{}' is not a number >= 0", args[1]))?;
        if args.len() > 2 {
            return Err(format!(
                "go perft: unexpected '{}' after the depth",
                args[2]
            ));
        }
        return Ok(Go::Perft(d));
    }
    let mut l = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let mut value = |what: &str| -> Result<&str, String> {
            let v = args
                .get(i)
                .copied()
                .filter(|v| !GO_KEYWORDS.contains(v))
                .ok_or_else(|| format!("go: '{key}' needs {what}"))?;
            i += 1;
            Ok(v)
        };
        match key {
            "wtime" | "btime" | "winc" | "binc" => {
                let v = value("a time in milliseconds")?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("go: {key} '{v}' is not a number"))?;
                let n = Some(n.max(0) as u64);
                match key {
                    "wtime" => l.wtime = n,
                    "btime" => l.btime = n,
                    "winc" => l.winc = n,
                    _ => l.binc = n,
                }
            }
            "movestogo" | "depth" | "mate" => {
                let v = value("a number")?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("go: {key} '{v}' is not a number >= 1"))?;
                if n == 0 {
                    return Err(format!("go: {key} must be at least 1"));
                }
                match key {
                    "movestogo" => l.movestogo = Some(n),
                    "depth" => l.depth = Some(n),
                    _ => l.mate = Some(n),
                }
            }
            "nodes" | "movetime" => {
                let v = value("a number")?;
                let n: u64 = v
                    .parse()
                    .map_err(|_| format!("go: {key} '{v}' is not a number >= 1"))?;
                if n == 0 {
                    return Err(format!("go: {key} must be at least 1"));
                }
                if key == "nodes" {
                    l.nodes = Some(n);
                } else {
                    l.movetime = Some(n);
                }
            }
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "searchmoves" => {
                let start = i;
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    l.searchmoves.push(args[i].to_string());
                    i += 1;
                }
                if i == start {
                    return Err("go: 'searchmoves' needs at least one move".into());
                }
            }
            "perft" => return Err("go: 'perft' must come first: go perft <depth>".into()),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(Go::Search(l))
}

// ----- the running search ----------------------------------------------------------------

#[derive(Default)]
struct PendState {
    /// `go infinite` / `go ponder`: the result waits for `stop` (or `ponderhit`).
    hold: bool,
    /// `go infinite`: still held after `ponderhit`.
    infinite: bool,
    /// A finished search's result, waiting for `hold` to be lifted.
    result: Option<SearchResult>,
    /// The search handed in its result.
    finished: bool,
    /// `bestmove` was printed (exactly once per `go`).
    printed: bool,
}

/// The `bestmove` of one `go`: printed exactly once, when the search has finished and
/// nothing holds it back.
struct Pending {
    state: Mutex<PendState>,
    cv: Condvar,
    out: Output,
}

impl Pending {
    fn new(out: Output, limits: &Limits) -> Self {
        Pending {
            state: Mutex::new(PendState {
                hold: limits.infinite || limits.ponder,
                infinite: limits.infinite,
                ..Default::default()
            }),
            cv: Condvar::new(),
            out,
        }
    }

    fn lock(&self) -> MutexGuard<'_, PendState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn print(&self, st: &mut PendState, r: &SearchResult) {
        if !st.printed {
            st.printed = true;
            self.out.send(&format_bestmove(r));
        }
    }

    /// The search's result arrives.
    fn finish(&self, r: SearchResult) {
        let mut st = self.lock();
        if st.finished {
            return;
        }
        st.finished = true;
        if st.hold {
            st.result = Some(r);
        } else {
            self.print(&mut st, &r);
        }
        self.cv.notify_all();
    }

    /// `stop` (lift every hold) or `ponderhit` (lift the ponder hold only).
    fn release(&self, ponderhit: bool) {
        let mut st = self.lock();
        st.hold = ponderhit && st.infinite;
        if !st.hold
            && let Some(r) = st.result.take()
        {
            self.print(&mut st, &r);
        }
    }

    /// Wait until the search has handed in its result; false on timeout.
    fn wait_finished(&self, timeout: Duration) -> bool {
        let st = self.lock();
        let (st, _) = self
            .cv
            .wait_timeout_while(st, timeout, |s| !s.finished)
            .unwrap_or_else(|e| e.into_inner());
        st.finished
    }

    fn printed(&self) -> bool {
        self.lock().printed
    }
}

/// Hands the search's result to `Pending`; if the search thread dies without one (a
/// panic), its drop still ends the `go` with `bestmove (none)` so that no client waits
/// for ever.
struct DoneGuard(Arc<Pending>);

impl Drop for DoneGuard {
    fn drop(&mut self) {
        if !self.0.lock().finished {
            self.0
                .out
                .error("internal error: the search ended without a result");
            self.0.finish(SearchResult::default());
        }
    }
}

struct Running {
    handle: Option<JoinHandle<()>>,
    pending: Arc<Pending>,
}

// ----- the engine ------------------------------------------------------------------------

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Engine settings as the options set them.
#[derive(Clone, Debug)]
struct Settings {
    variant: Variant,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    ponder: bool,
    move_overhead_ms: u64,
    point_target: u32,
    features: Features,
    /// The loaded evaluation weights text, if any.
    eval_text: Option<Arc<String>>,
}

/// The protocol's state: options, the current position, the searcher and the search in
/// progress (if any). `handle` runs one command line.
pub struct Engine {
    out: Output,
    start_variant: Variant,
    settings: Settings,
    pos: Position,
    searcher: Arc<Searcher>,
    running: Option<Running>,
}

/// Apply the Math Chess point target to a position (no effect on the other games).
pub fn apply_point_target(pos: &mut Position, target: u32) {
    if let Position::Math(b) = pos {
        b.set_point_target(target);
    }
}

/// Build a position of `variant`: the start or a FEN, the point target, then the moves.
/// Errors name what was wrong (the FEN, or which move and why).
pub fn build_position(
    variant: Variant,
    fen: Option<&str>,
    moves: &[&str],
    point_target: u32,
) -> Result<Position, String> {
    let mut pos = match fen {
        None => variant.startpos(),
        Some(f) => variant
            .from_fen(f)
            .map_err(|e| format!("bad {variant} FEN '{f}': {e}"))?,
    };
    // The target is part of the rules the moves are played under (a move that reaches it
    // ends the game), so it is set before they are applied.
    apply_point_target(&mut pos, point_target);
    pos.apply_moves(moves.iter().copied())?;
    Ok(pos)
}

impl Engine {
    pub fn new(variant: Variant, out: Output) -> Self {
        let settings = Settings {
            variant,
            hash_mb: spin_default("Hash") as usize,
            threads: spin_default("Threads") as usize,
            multipv: spin_default("MultiPV") as usize,
            ponder: false,
            move_overhead_ms: spin_default("Move Overhead") as u64,
            point_target: spin_default("PointTarget") as u32,
            features: Features::default(),
            eval_text: None,
        };
        let mut pos = variant.startpos();
        apply_point_target(&mut pos, settings.point_target);
        Engine {
            out,
            start_variant: variant,
            searcher: Arc::new(Searcher::new(settings.hash_mb)),
            settings,
            pos,
            running: None,
        }
    }

    /// Handle one input line. Bad input is answered with one `info string error:` line;
    /// a panic inside a command (a bug) is reported the same way and the loop goes on.
    pub fn handle(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else {
            return Flow::Continue;
        };
        let args = &tokens[1..];
        let res = panic::catch_unwind(AssertUnwindSafe(|| self.dispatch(cmd, args)));
        match res {
            Ok(Ok(flow)) => flow,
            Ok(Err(e)) => {
                self.out.error(&e);
                Flow::Continue
            }
            Err(p) => {
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".into());
                self.out
                    .error(&format!("internal error while handling '{cmd}': {msg}"));
                Flow::Continue
            }
        }
    }

    fn dispatch(&mut self, cmd: &str, args: &[&str]) -> Result<Flow, String> {
        self.reap();
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => self.out.send("readyok"),
            "ucinewgame" => {
                self.idle_searcher("ucinewgame")?.clear();
            }
            "setoption" => self.cmd_setoption(args)?,
            "position" => self.cmd_position(args)?,
            "go" => self.cmd_go(args)?,
            "stop" => self.stop(STOP_WAIT),
            "ponderhit" => {
                if let Some(run) = &self.running {
                    self.searcher.control().ponderhit();
                    run.pending.release(true);
                }
            }
            "quit" => return Ok(Flow::Quit),
            "d" => {
                let text = with_game!(&self.pos, g => g.display());
                self.out.send(&text);
            }
            "eval" => {
                let text = self.eval_table()?;
                self.out.send(&text);
            }
            other => return Err(format!("unknown command '{other}'")),
        }
        Ok(Flow::Continue)
    }

    /// End of the loop (`quit` or end of input): stop any search, let its `bestmove` out,
    /// and return promptly even if the search does not end.
    pub fn shutdown(&mut self) {
        self.stop(QUIT_WAIT);
    }

    /// Whether a `go` is still owed its `bestmove`.
    fn searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.pending.printed())
    }

    /// Join a search that has finished and printed its `bestmove`.
    fn reap(&mut self) {
        if let Some(run) = &mut self.running
            && run.pending.printed()
            && run.handle.as_ref().is_none_or(|h| h.is_finished())
        {
            if let Some(h) = run.handle.take() {
                let _ = h.join();
            }
            self.running = None;
        }
    }

    /// `stop`: end the search, release a held result, and join the search thread (waiting
    /// at most `wait`). Nothing happens when no search runs.
    fn stop(&mut self, wait: Duration) {
        let Some(run) = &mut self.running else {
            return;
        };
        self.searcher.control().stop();
        run.pending.release(false);
        if run.pending.wait_finished(wait) {
            // `finish` saw the hold lifted or `release` printed the held result.
            if let Some(h) = run.handle.take() {
                let _ = h.join();
            }
            self.running = None;
        } else {
            log::warn!("the search did not end within {wait:?} of stop");
        }
    }

    /// The searcher for a change that needs it idle (options, `ucinewgame`): refused
    /// while a search runs, so that the table is never resized or cleared under it.
    fn idle_searcher(&mut self, what: &str) -> Result<&Searcher, String> {
        if self.searching() {
            return Err(format!(
                "{what}: not allowed while a search is running (send stop first)"
            ));
        }
        if let Some(run) = &mut self.running
            && let Some(h) = run.handle.take()
        {
            let _ = h.join();
        }
        self.running = None;
        Ok(&self.searcher)
    }

    fn variant_line(&self) -> String {
        let v = self.settings.variant;
        let start = v.startpos();
        let (files, ranks) = with_game!(&start, g => g.dimensions());
        format!(
            "info string variant {} files {files} ranks {ranks} startpos {}",
            v.name(),
            start.to_fen()
        )
    }

    fn cmd_uci(&mut self) {
        let mut s = format!(
            "id name {ENGINE_NAME} {}\nid author {ENGINE_AUTHOR}\n",
            env!("CARGO_PKG_VERSION")
        );
        s.push_str(&option_lines(self.start_variant));
        s.push_str(&self.variant_line());
        s.push_str("\nuciok");
        self.out.send(&s);
    }

    fn cmd_setoption(&mut self, args: &[&str]) -> Result<(), String> {
        let opt = parse_setoption(args)?;
        // One rule for every option: settings change between searches only.
        self.idle_searcher("setoption")?;
        match opt {
            SetOption::Variant(v) => {
                self.settings.variant = v;
                self.pos = v.startpos();
                apply_point_target(&mut self.pos, self.settings.point_target);
                self.out.send(&self.variant_line());
            }
            SetOption::Hash(mb) => {
                self.searcher.set_hash(mb);
                self.settings.hash_mb = mb;
            }
            SetOption::Threads(n) => self.settings.threads = n,
            SetOption::MultiPv(n) => self.settings.multipv = n,
            SetOption::ClearHash => self.searcher.clear(),
            SetOption::Ponder(b) => self.settings.ponder = b,
            SetOption::MoveOverhead(ms) => self.settings.move_overhead_ms = ms,
            SetOption::Feature(name, on) => {
                let f = &mut self.settings.features;
                match name {
                    "Search_NullMove" => f.null_move = on,
                    "Search_LMR" => f.lmr = on,
                    "Search_Futility" => f.futility = on,
                    "Search_ChancePruning" => f.chance_pruning = on,
                    "Search_Aspiration" => f.aspiration = on,
                    other => unreachable!("feature option {other}"),
                }
            }
            SetOption::PointTarget(t) => {
                self.settings.point_target = t;
                apply_point_target(&mut self.pos, t);
            }
        }
        Ok(())
    }

    fn cmd_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (fen, moves) = parse_position_args(args)?;
        let pos = build_position(
            self.settings.variant,
            fen.as_deref(),
            &moves,
            self.settings.point_target,
        )
        .map_err(|e| format!("position rejected (previous position kept): {e}"))?;
        self.pos = pos;
        Ok(())
    }

    /// The `eval` command's table, with the weights the next search would use.
    fn eval_table(&self) -> Result<String, String> {
        let text = self.settings.eval_text.as_deref().map(|t| t.as_str());
        with_game!(&self.pos, g => {
            let weights = crate::eval::weights_for(g, text)?;
            Ok(format_eval(g, &mut Evaluator::new(g, weights)))
        })
    }

    fn search_options(&self) -> Options {
        Options {
            threads: self.settings.threads,
            multipv: self.settings.multipv,
            move_overhead_ms: self.settings.move_overhead_ms,
            features: self.settings.features,
            eval_text: self.settings.eval_text.clone(),
        }
    }

    fn cmd_go(&mut self, args: &[&str]) -> Result<(), String> {
        if self.searching() {
            return Err("go: a search is already running (send stop first); ignored".into());
        }
        let go = parse_go(args)?;
        let mut limits = match go {
            Go::Perft(depth) => {
                let start = Instant::now();
                let threads = self.settings.threads;
                let lines = with_game!(&self.pos, g => crate::perft::divide(g, depth, threads));
                log::info!("perft {depth}: {:.3} s", start.elapsed().as_secs_f64());
                self.out.send(&crate::perft::format_divide(&lines, depth));
                return Ok(());
            }
            Go::Search(l) => l,
        };
        // Check and normalise `searchmoves` before anything starts.
        let mut normalised = Vec::with_capacity(limits.searchmoves.len());
        for m in &limits.searchmoves {
            let name = with_game!(&self.pos, g => g
                .parse_choice(m)
                .map(|mv| g.move_to_string(mv))
                .map_err(|e| format!("go: searchmoves '{m}': {e}")))?;
            normalised.push(name);
        }
        limits.searchmoves = normalised;

        // Join the previous (finished) search so the searcher is not shared.
        if let Some(mut run) = self.running.take()
            && let Some(h) = run.handle.take()
        {
            let _ = h.join();
        }
        let pending = Arc::new(Pending::new(self.out.clone(), &limits));
        let end = with_game!(&self.pos, g => game_over(g));
        if let Some(end) = end {
            // Nothing to search: say why, then the (possibly held) `bestmove (none)`.
            let score = match end.outcome {
                Outcome::Loss => " score mate 0",
                Outcome::Draw => " score cp 0",
                Outcome::Win => "",
            };
            if !score.is_empty() {
                self.out.send(&format!("info depth 0{score}"));
            }
            self.out
                .send(&format!("info string game over: {}", end.reason));
            pending.finish(SearchResult::default());
            self.running = Some(Running {
                handle: None,
                pending,
            });
            return Ok(());
        }
        let out = self.out.clone();
        let report = Box::new(move |r: Report| out.send(&format_report(&r)));
        let guard = DoneGuard(pending.clone());
        let done = Box::new(move |r: SearchResult| {
            guard.0.finish(r);
            drop(guard);
        });
        let opts = self.search_options();
        let handle =
            with_game!(&self.pos, g => self.searcher.start(g.clone(), limits, opts, report, done));
        self.running = Some(Running {
            handle: Some(handle),
            pending,
        });
        Ok(())
    }
}

/// The protocol loop: read commands from stdin until `quit` or end of input.
pub fn run_loop(variant: Variant) {
    let (tx, rx) = mpsc::channel::<String>();
    // Reading happens on its own thread so that `isready`, `stop` and `quit` reach the
    // main thread while a search runs. Bytes that are not UTF-8 are replaced, not fatal.
    let reader = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        log::warn!("reading stdin: {e}");
                        break;
                    }
                }
            }
        });
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let mut engine = Engine::new(variant, Output::stdout());
    while let Ok(line) = rx.recv() {
        log::debug!("<< {line}");
        if engine.handle(&line) == Flow::Quit {
            break;
        }
    }
    // `quit` or end of input (the channel closes when the reader ends).
    engine.shutdown();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn setoption_parses_names_case_insensitively_and_checks_ranges() {
        assert_eq!(
            parse_setoption(&toks("name hash value 128")),
            Ok(SetOption::Hash(128))
        );
        assert_eq!(
            parse_setoption(&toks("name move overhead value 100")),
            Ok(SetOption::MoveOverhead(100))
        );
        assert_eq!(
            parse_setoption(&toks("name Clear Hash")),
            Ok(SetOption::ClearHash)
        );
        assert_eq!(
            parse_setoption(&toks("name UCI_Variant value Chess")),
            Ok(SetOption::Variant(Variant::Chess))
        );
        assert_eq!(
            parse_setoption(&toks("name Ponder value TRUE")),
            Ok(SetOption::Ponder(true))
        );
        assert_eq!(
            parse_setoption(&toks("name PointTarget value 45")),
            Ok(SetOption::PointTarget(45))
        );
        for bad in [
            "name Hash value 0",
            "name Hash value 65537",
            "name Hash value x",
            "name Hash",
            "name Threads value 257",
            "name PointTarget value 46",
            "name PointTarget value -1",
            "name Move Overhead value 5001",
            "name Ponder value maybe",
            "name UCI_Variant value shogi",
            "name Nonsense value 1",
            "Hash value 1",
            "name",
        ] {
            assert!(parse_setoption(&toks(bad)).is_err(), "accepted '{bad}'");
        }
    }

    #[test]
    fn go_parses_every_parameter() {
        let Go::Search(l) = parse_go(&toks(
            "wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3 nodes 500 mate 2 \
             movetime 99 searchmoves a1a2 b1b2 infinite ponder",
        ))
        .unwrap() else {
            panic!("not a search");
        };
        assert_eq!(l.wtime, Some(1000));
        assert_eq!(l.btime, Some(0));
        assert_eq!((l.winc, l.binc), (Some(10), Some(20)));
        assert_eq!(l.movestogo, Some(7));
        assert_eq!(l.depth, Some(3));
        assert_eq!(l.nodes, Some(500));
        assert_eq!(l.mate, Some(2));
        assert_eq!(l.movetime, Some(99));
        assert_eq!(l.searchmoves, vec!["a1a2", "b1b2"]);
        assert!(l.infinite && l.ponder);
        assert!(matches!(parse_go(&toks("perft 3")), Ok(Go::Perft(3))));
        for bad in [
            "depth",
            "depth x",
            "depth 0",
            "depth -1",
            "nodes 1.5",
            "movetime infinite",
            "wtime abc",
            "searchmoves",
            "perft",
            "perft -1",
            "perft 2 3",
            "depth 3 perft 2",
            "frobnicate",
        ] {
            assert!(parse_go(&toks(bad)).is_err(), "accepted 'go {bad}'");
        }
    }

    #[test]
    fn position_args() {
        assert_eq!(
            parse_position_args(&toks("startpos moves a b")).unwrap(),
            (None, vec!["a", "b"])
        );
        assert_eq!(
            parse_position_args(&toks("fen x y z w")).unwrap(),
            (Some("x y z w".to_string()), vec![])
        );
        assert!(parse_position_args(&toks("")).is_err());
        assert!(parse_position_args(&toks("fen")).is_err());
        assert!(parse_position_args(&toks("fen moves e2e4")).is_err());
        assert!(parse_position_args(&toks("startpos e2e4")).is_err());
        assert!(parse_position_args(&toks("start")).is_err());
    }

    #[test]
    fn info_lines() {
        let mut info = Info {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: 34,
            bound: Bound::Exact,
            nodes: 1000,
            nps: 20000,
            hashfull: 3,
            time_ms: 50,
            pv: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(
            format_info(&info),
            "info depth 5 seldepth 9 multipv 1 score cp 34 nodes 1000 nps 20000 hashfull 3 \
             time 50 pv e2e4 e7e5"
        );
        info.bound = Bound::Lower;
        info.score = crate::game::MATE - 3;
        info.pv.clear();
        assert_eq!(
            format_info(&info),
            "info depth 5 seldepth 9 multipv 1 score mate 2 lowerbound nodes 1000 nps 20000 \
             hashfull 3 time 50"
        );
        assert_eq!(format_bestmove(&SearchResult::default()), "bestmove (none)");
    }

    #[test]
    fn options_listed() {
        let s = option_lines(Variant::RevealChess);
        assert!(s.contains(
            "option name UCI_Variant type combo default revealchess var mathchess var revealchess var chess"
        ));
        assert!(s.contains("option name Hash type spin default 64 min 1 max 65536"));
        assert!(s.contains("option name Clear Hash type button"));
        assert!(s.contains("option name PointTarget type spin default 0 min 0 max 45"));
    }
}
