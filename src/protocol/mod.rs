//! The UCI-style protocol loop on stdin/stdout (specified in `protocol.md`): one command
//! line at a time against the engine's state (options, the current position, the search
//! in progress). What each part owns: `options` (the option list, `setoption`, settings),
//! `commands` (parsing `position` and `go`), `session` (one background search and its
//! single `bestmove`), `format` (`info`/`bestmove` lines and the `eval` table),
//! `output` (the one writer of stdout), `analyse` (the readable `tinh analyse`).
//!
//! Threads: a reader thread turns stdin into a channel of lines; the main thread handles
//! commands one at a time; a search runs on the searcher's own thread and writes its
//! `info`/`bestmove` lines through the same locked `Output`, so lines never interleave.
//!
//! Order: a command that needs the search to have ended (`go`, `setoption`,
//! `ucinewgame`) waits for its `bestmove`, and every command read after a waiting one
//! waits behind it; `isready`, `stop`, `ponderhit` and `quit` act at once. So a script
//! that pipes several `position`/`go` pairs gets one `bestmove` per `go`, in order, while
//! a GUI's `stop` still reaches the search.

pub mod analyse;
pub mod commands;
pub mod format;
pub mod options;
pub mod output;
mod session;

pub use commands::{Go, build_position, parse_go, parse_position_args};
pub use format::{format_bestmove, format_eval, format_info, format_report, format_score};
pub use options::{SetOption, check_spin, parse_setoption};
pub use output::Output;

use crate::eval::Evaluator;
use crate::game::{Game, Outcome};
use crate::search::{Limits, Report, SearchResult, Searcher};
use crate::variant::{Position, Variant};
use options::{Settings, option_lines, param_lines};
use session::{DoneGuard, Pending, Running, Wake};
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

pub const ENGINE_NAME: &str = "Tinh";
pub const ENGINE_AUTHOR: &str = "The Tinh developers";

/// How long `stop` waits for the search thread to hand in its result before giving up
/// on joining it (the `bestmove` still comes when it does).
const STOP_WAIT: Duration = Duration::from_secs(10);
/// How long `quit` (and end of input) waits for a stopped search before exiting anyway.
const QUIT_WAIT: Duration = Duration::from_secs(2);

/// Commands that act at once, even while a search runs or other commands wait for it.
const IMMEDIATE: &[&str] = &["isready", "stop", "ponderhit", "quit"];
/// Commands that need the running search to have ended: they start a search or change
/// what one runs with.
const NEED_IDLE: &[&str] = &["go", "setoption", "ucinewgame"];

/// The words of a command line. Only spaces and tabs separate words (protocol.md, section
/// 1): any other character, a Unicode space included, is part of a word, which then fails
/// as an unknown command or a bad value.
pub fn tokens(line: &str) -> Vec<&str> {
    line.split([' ', '\t']).filter(|t| !t.is_empty()).collect()
}

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
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
    /// Commands read while a search runs that wait for its `bestmove`, in order.
    waiting: VecDeque<String>,
    /// Told when a `bestmove` is out, so that the loop runs the waiting commands.
    wake: Option<Wake>,
    /// Input has ended: no `stop` can come any more.
    input_ended: bool,
    /// When the command being handled was read (a waiting one: when its turn came); a
    /// `go`'s clock counts from then.
    read_at: Instant,
}

impl Engine {
    pub fn new(variant: Variant, out: Output) -> Self {
        let settings = Settings::new(variant);
        let mut pos = variant.startpos();
        pos.set_rule_options(&settings.rules);
        Engine {
            out,
            start_variant: variant,
            searcher: Arc::new(Searcher::new(settings.hash_mb)),
            settings,
            pos,
            running: None,
            waiting: VecDeque::new(),
            wake: None,
            input_ended: false,
            read_at: Instant::now(),
        }
    }

    /// Have `wake` called whenever a `bestmove` is out (the loop then calls `resume`).
    pub fn set_wake(&mut self, wake: Wake) {
        self.wake = Some(wake);
    }

    /// One input line, read at `read_at`, in the protocol's order: acted on now, or put
    /// behind the running search when it needs that search ended (or something before it
    /// waits already).
    pub fn input(&mut self, line: &str, read_at: Instant) -> Flow {
        let Some(&cmd) = tokens(line).first() else {
            return Flow::Continue;
        };
        let must_wait = !self.waiting.is_empty() || (self.searching() && NEED_IDLE.contains(&cmd));
        if must_wait && !IMMEDIATE.contains(&cmd) {
            self.waiting.push_back(line.to_string());
            return Flow::Continue;
        }
        self.read_at = read_at;
        if self.handle(line) == Flow::Quit {
            return Flow::Quit;
        }
        self.resume()
    }

    /// Run the commands that waited, in order, as long as no search is running.
    pub fn resume(&mut self) -> Flow {
        while !self.searching()
            && let Some(line) = self.waiting.pop_front()
        {
            self.read_at = Instant::now();
            if self.handle(&line) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// No search running and nothing waiting.
    pub fn idle(&self) -> bool {
        !self.searching() && self.waiting.is_empty()
    }

    /// End of input: the work already sent is still done (protocol.md, section 6), but a
    /// search that would wait for `stop` or `ponderhit`, or has no limit, is stopped now,
    /// and so is every such search started from here on.
    pub fn end_of_input(&mut self) {
        self.input_ended = true;
        self.stop_unbounded();
    }

    fn stop_unbounded(&mut self) {
        if self.input_ended && self.running.as_ref().is_some_and(|r| !r.ends_by_itself) {
            self.stop(STOP_WAIT);
        }
    }

    /// Handle one input line. Bad input is answered with one `info string error:` line;
    /// a panic inside a command (a bug) is reported the same way and the loop goes on.
    fn handle(&mut self, line: &str) -> Flow {
        let tokens = tokens(line);
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
                self.settings.new_game();
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
            "params" => {
                let (params, _) = self.settings.variant.search_values(&self.settings.search);
                self.out.send(&param_lines(&params));
            }
            other => return Err(format!("unknown command '{other}'")),
        }
        Ok(Flow::Continue)
    }

    /// End of the loop (`quit`, or end of input once the work is done): stop any search,
    /// let its `bestmove` out, drop the commands still waiting, and return promptly even if
    /// the search does not end.
    pub fn shutdown(&mut self) {
        self.waiting.clear();
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

    /// The searcher for a change that needs it idle (options, `ucinewgame`). `input`
    /// holds such commands back until the search has ended; this guard makes sure the
    /// table is never resized or cleared under a search.
    fn idle_searcher(&mut self, what: &str) -> Result<&Searcher, String> {
        if self.searching() {
            return Err(format!("{what}: a search is running (send stop first)"));
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
        if let SetOption::Hash(mb) = opt {
            // Allocated before the old table goes: a size that cannot be had changes nothing.
            let old = self.searcher.hash_mb();
            self.searcher.set_hash(mb).map_err(|e| {
                format!("setoption: option 'Hash' value {mb}: {e}; the {old} MiB table is kept")
            })?;
        }
        self.settings.apply(&opt)?;
        match opt {
            SetOption::Variant(v) => {
                self.pos = v.startpos();
                self.pos.set_rule_options(&self.settings.rules);
                self.out.send(&self.variant_line());
                if let Some(line) = self.settings.recheck_eval_file() {
                    self.out.info_string(&line);
                }
            }
            SetOption::ClearHash => self.searcher.clear(),
            // A rule setting applies to the current position too, as if it had been set
            // before its moves were played.
            SetOption::Rule(name, v) => self.pos.set_rule_options(&[(name, v)]),
            _ => {}
        }
        Ok(())
    }

    fn cmd_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (fen, moves) = parse_position_args(args)?;
        let pos = build_position(
            self.settings.variant,
            fen.as_deref(),
            &moves,
            &self.settings.rules,
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

    fn cmd_go(&mut self, args: &[&str]) -> Result<(), String> {
        if self.searching() {
            return Err("go: a search is running (send stop first); ignored".into());
        }
        let limits = match parse_go(args)? {
            Go::Perft(depth) => {
                let start = Instant::now();
                let threads = self.settings.threads;
                let lines = with_game!(&self.pos, g => crate::perft::divide(g, depth, threads));
                log::info!("perft {depth}: {:.3} s", start.elapsed().as_secs_f64());
                self.out.send(&crate::perft::format_divide(&lines, depth));
                return Ok(());
            }
            Go::Search(l) => Limits {
                start: Some(self.read_at),
                ..l
            },
        };
        // Join the previous (finished) search so the searcher is not shared.
        if let Some(mut run) = self.running.take()
            && let Some(h) = run.handle.take()
        {
            let _ = h.join();
        }
        let running = with_game!(&self.pos, g => self.start_search(g, limits))?;
        self.running = Some(running);
        self.stop_unbounded();
        Ok(())
    }

    /// Start the search of `go` on `g`: `searchmoves` checked first, then either the
    /// game-over answer or the search on its own thread.
    fn start_search<G: Game>(&self, g: &G, limits: Limits<String>) -> Result<Running, String> {
        let mut searchmoves = Vec::with_capacity(limits.searchmoves.len());
        for m in &limits.searchmoves {
            let mv = g
                .parse_choice(m)
                .map_err(|e| format!("go: searchmoves '{m}': {e}"))?;
            searchmoves.push(mv);
        }
        let limits = limits.with_searchmoves(searchmoves);
        let ends_by_itself = limits.ends_by_itself(g.side_to_move());
        let pending = Arc::new(Pending::new(self.out.clone(), &limits, self.wake.clone()));
        if let Some(end) = g.game_over() {
            // Nothing to search: say why, then the (possibly held) `bestmove (none)`.
            let score = match end.outcome {
                Outcome::Loss => " score mate 0",
                Outcome::Draw => " score cp 0",
                Outcome::Win => "",
            };
            if !score.is_empty() {
                self.out.send(&format!("info depth 0{score}"));
            }
            self.out.info_string(&format!("game over: {}", end.reason));
            pending.finish("bestmove (none)".to_string());
            return Ok(Running {
                handle: None,
                pending,
                ends_by_itself,
            });
        }
        let out = self.out.clone();
        let root = g.clone();
        let report = Box::new(move |r: Report<G::Move>| out.send(&format_report(&root, &r)));
        let guard = DoneGuard(pending.clone());
        let root = g.clone();
        let done = Box::new(move |r: SearchResult<G::Move>| {
            guard.0.finish(format_bestmove(&root, &r));
            drop(guard);
        });
        let opts = self.settings.search_options();
        let handle = self.searcher.start(g.clone(), limits, opts, report, done);
        Ok(Running {
            handle: Some(handle),
            pending,
            ends_by_itself,
        })
    }
}

/// What the command loop waits for.
enum Event {
    /// A command line and when it was read.
    Line(String, Instant),
    /// A `bestmove` is out: commands waiting for it may run.
    Wake,
    /// stdin ended (or cannot be read).
    End,
}

/// The protocol loop: read commands from stdin until `quit` or end of input.
pub fn run_loop(variant: Variant) {
    let (tx, rx) = mpsc::channel::<Event>();
    // Reading happens on its own thread so that `isready`, `stop` and `quit` reach the
    // main thread while a search runs. Bytes that are not UTF-8 are replaced, not fatal.
    let lines = tx.clone();
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
                        if lines.send(Event::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        log::warn!("reading stdin: {e}");
                        break;
                    }
                }
            }
            let _ = lines.send(Event::End);
        });
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let mut engine = Engine::new(variant, Output::stdout());
    engine.set_wake(Arc::new(move || {
        let _ = tx.send(Event::Wake);
    }));
    let mut ended = false;
    loop {
        let flow = match rx.recv() {
            Ok(Event::Line(line, read_at)) => {
                log::debug!("<< {line}");
                engine.input(&line, read_at)
            }
            Ok(Event::Wake) => engine.resume(),
            // (The channel cannot close: the engine's wake callback holds a sender.)
            Ok(Event::End) | Err(_) if !ended => {
                ended = true;
                engine.end_of_input();
                engine.resume()
            }
            Ok(Event::End) | Err(_) => break,
        };
        // After end of input only `bestmove`s wake the loop: it ends once the work sent
        // before the end is done.
        if flow == Flow::Quit || (ended && engine.idle()) {
            break;
        }
    }
    engine.shutdown();
}
