//! `tinh match` command line: cutechess-cli / fastchess style flags, parsed by hand from the
//! raw arguments (values are `key=value` words, which clap cannot express), into a
//! `MatchConfig`. `help()` documents every flag.

use super::ranges::{at_least, in_range, seconds_ms};
use super::stats::Sprt;
use crate::game::MAX_FULLMOVE;
use crate::search::{MAX_DEPTH, MAX_TIME_MS};
use crate::variant::Variant;

const HELP: &str = "\
tinh match: play games between engines that speak Tinh's protocol (cutechess-cli style).

Flags may be written with one or two dashes (-games / --games). Every number has the
range shown (a value outside it is an error); times are at most one day.

  --engine cmd=PATH [name=NAME] [arg=ARG ...] [dir=DIR] [option.NAME=VALUE ...]
           [tc=TC] [nodes=N] [depth=N] [st=SECONDS] [timemargin=MS] [proto=uci]
        One engine (repeat for each; two or more). `cmd` is the program, `arg` one
        argument to it (repeatable, in order), `dir` its working directory, `option.X=V`
        a `setoption name X value V` sent after the handshake, `tc`/`nodes`/`depth`/`st`
        its own limits (override --tc/--nodes/--depth/--each; same ranges as those
        flags; timemargin 0..=86400000). Without `name`, the engine's `id name` is used
        (made unique with a suffix).
  --each KEY=VALUE ...  Engine settings applied to every engine (an engine's own win).
  --variant V           {variants}. Sent to the engines as
                        `setoption name UCI_Variant value V` (first, before other options).
  --games N             Games per encounter per round, 1..=1000000 (default 2: one opening,
                        both colours).
  --rounds N            Rounds, 1..=1000000 (default 1). Each pair of engines plays
                        rounds x games games; with more than two engines every pair meets
                        (round robin). A match has at most 1000000 games.
  --concurrency K       Games played at the same time, 1..=256 (default 1); each game has
                        its own engine processes.
  --tc TC               Time control for all engines: [MOVES/]TIME[+INC], TIME and INC in
                        seconds (TIME may be M:SS), e.g. 10+0.1, 40/60+0.5, 1:00; `inf` = none.
                        MOVES 1..=1000; TIME and INC 0..=86400, not both 0.
  --nodes N             `go nodes N` for every move (N >= 1).
  --depth N             `go depth N` for every move, 1..=120.
  --st SECONDS          `go movetime`, 0.001..=86400 (exceeding it by more than the margin
                        loses on time).
  --openings file=FILE [order=sequential|random] [start=N] [format=epd]
  --openings FILE       Start positions, one FEN per line (EPD style; `#` comments). Each
                        opening is played twice with colours swapped. Default: the
                        variant's start position. start=N: 1..=1000000 (counted round the
                        file when larger than it).
  --order sequential|random   Same as openings order= (random is shuffled by --seed).
  --seed S              Seed (0..=2^64-1) for the opening order and every reveal the referee draws;
                        the same seed replays the same reveals (default 1). Alias: --srand.
                        Each side draws from its own stream, so both games of a pair give
                        a side the same reveals in the same order.
  --pgnout FILE         Append every game, in game order, to FILE in PGN.
  --sprt elo0=A elo1=B [alpha=0.05] [beta=0.05]
                        Sequential probability ratio test of the first engine against the
                        second (pentanomial GSPRT, logistic Elo); stops when it decides.
                        A and B in -1000..=1000 with B > A; alpha and beta in (0, 0.5).
  --rule NAME=VALUE     Set a rule option of the variant (repeatable; `tinh` then `uci`
                        lists them), e.g. `--rule PointTarget=20`. Applied by
                        the referee and sent to the engines as `setoption`.
  --draw movenumber=N movecount=M score=CP
                        Adjudicate a draw once move N is reached and both engines' scores
                        stayed within CP centipawns of 0 for M consecutive moves each.
                        N 0..=1000000, M 1..=1000000, CP 0..=100000.
  --resign movecount=M score=CP [twosided=true]
                        Adjudicate a loss for an engine whose score stayed at or below -CP
                        for M consecutive moves (twosided: the opponent must agree, i.e.
                        score at or above +CP, too). M 1..=1000000, CP 1..=100000 (either sign).
  --maxmoves N          Adjudicate a draw after N moves by each side, 1..=1000000.
  --ratinginterval N    Print the statistics every N games, 0..=1000000 (default 10; 0 = only
                        at the end).
  --timemargin MS       Time a move may overrun the clock without losing on time,
                        0..=86400000 (default 0).
  --stalltimeout MS     How long past its clock (or past `isready`) an engine may stay silent
                        before it loses by stalling, 1..=86400000 (default 5000).
  --movetimeout MS      How long an engine may think on a move without a clock (nodes/depth
                        limits) before it loses by stalling, 1..=86400000 (default 60000).
  --event NAME          PGN Event tag (default \"Tinh match\").
  --site NAME           PGN Site tag (default \"?\").
  --recover, --repeat   Accepted for compatibility (always on: crashed engines are restarted,
                        openings are repeated with colours swapped).
  --help                This text.

Output: `Started game` and `Progress` lines on stderr; a `Finished game N (A vs B): RESULT {reason}` line
per game, and the statistics (score W-L-D, Elo +/- 95% interval, LOS, draw ratio, pairs
[LL, LD, DD/WL, WD, WW], SPRT LLR and decision) every --ratinginterval games and at the
end, on stdout. Misbehaving engines lose the game: illegal move, crash/disconnect, stall,
time forfeit; the match goes on, restarting the engine when it died.
";

/// Most moves in one time-control period (`MOVES/` of a time control).
pub const MAX_TC_MOVES: u32 = 1000;
/// Largest Elo difference an SPRT hypothesis may name.
pub const MAX_SPRT_ELO: f64 = 1000.0;
/// Most games one match may hold (all of them are scheduled up front).
pub const MAX_MATCH_GAMES: u64 = 1_000_000;
/// Most engine processes' games played at once.
pub const MAX_CONCURRENCY: u64 = 256;
/// Largest adjudication score, in centipawns.
pub const MAX_ADJUDICATION_CP: i32 = 100_000;

/// `[MOVES/]TIME[+INC]`, milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`40/...`): the base time is added again after each period.
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    pub fn parse(s: &str) -> Result<Option<TimeControl>, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("inf") || s.eq_ignore_ascii_case("infinite") {
            return Ok(None);
        }
        let err = || format!("bad time control '{s}' (expected [MOVES/]TIME[+INC], e.g. 10+0.1)");
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().map_err(|_| err())?), r),
            None => (None, s),
        };
        let max_s = (MAX_TIME_MS / 1000) as f64;
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let secs = |t: &str| -> Result<f64, String> {
            let v = match t.split_once(':') {
                Some((m, sec)) => {
                    m.parse::<f64>().map_err(|_| err())? * 60.0
                        + sec.parse::<f64>().map_err(|_| err())?
                }
                None => t.parse::<f64>().map_err(|_| err())?,
            };
            if (0.0..=max_s).contains(&v) {
                Ok(v)
            } else {
                Err(format!(
                    "time control '{s}': times are 0..={max_s} seconds (one day)"
                ))
            }
        };
        let base_ms = (secs(base)? * 1000.0).round() as u64;
        let inc_ms = match inc {
            Some(i) => (secs(i)? * 1000.0).round() as u64,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(err());
        }
        if moves.is_some_and(|m| !(1..=MAX_TC_MOVES).contains(&m)) {
            return Err(format!(
                "time control '{s}': moves per period are 1..={MAX_TC_MOVES}"
            ));
        }
        Ok(Some(TimeControl {
            moves,
            base_ms,
            inc_ms,
        }))
    }

    /// The PGN `TimeControl` tag value: `40/60+0.5`, `10+0.1`.
    pub fn pgn(&self) -> String {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        let mut s = String::new();
        if let Some(m) = self.moves {
            s.push_str(&format!("{m}/"));
        }
        s.push_str(&secs(self.base_ms));
        if self.inc_ms > 0 {
            s.push('+');
            s.push_str(&secs(self.inc_ms));
        }
        s
    }
}

/// One engine of the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineSpec {
    pub cmd: String,
    pub name: Option<String>,
    pub args: Vec<String>,
    pub dir: Option<String>,
    pub options: Vec<(String, String)>,
    /// `Some(None)`: explicitly no clock (`tc=inf`).
    pub tc: Option<Option<TimeControl>>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    pub timemargin_ms: Option<u64>,
}

impl EngineSpec {
    /// Apply `key=value` words; later words win over earlier ones.
    fn apply(&mut self, words: &[String], what: &str) -> Result<(), String> {
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("{what}: expected key=value, got '{w}'"))?;
            let key = format!("{what} {k}");
            match k {
                "cmd" => self.cmd = v.to_string(),
                "name" => self.name = Some(v.to_string()),
                "arg" => self.args.push(v.to_string()),
                "dir" => self.dir = Some(v.to_string()),
                "proto" => {
                    if v != "uci" {
                        return Err(format!("{what}: only proto=uci is supported"));
                    }
                }
                "tc" => self.tc = Some(TimeControl::parse(v)?),
                "nodes" => self.nodes = Some(at_least(&key, v, 1)?),
                "depth" => self.depth = Some(in_range(&key, v, 1, MAX_DEPTH)?),
                "st" => self.movetime_ms = Some(seconds_ms(&key, v, 1)?),
                "timemargin" => self.timemargin_ms = Some(in_range(&key, v, 0, MAX_TIME_MS)?),
                "restart" | "trust" | "ponder" | "initstr" => {}
                _ => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        self.options.retain(|(n, _)| n != name);
                        self.options.push((name.to_string(), v.to_string()));
                    }
                    _ => return Err(format!("{what}: unknown engine setting '{k}'")),
                },
            }
        }
        Ok(())
    }

    /// This engine's settings over `each`'s (its own win).
    fn over(&self, each: &EngineSpec) -> EngineSpec {
        let mut e = self.clone();
        if e.cmd.is_empty() {
            e.cmd = each.cmd.clone();
        }
        if e.name.is_none() {
            e.name = each.name.clone();
        }
        if e.args.is_empty() {
            e.args = each.args.clone();
        }
        if e.dir.is_none() {
            e.dir = each.dir.clone();
        }
        let mut opts = each.options.clone();
        for (n, v) in &self.options {
            opts.retain(|(m, _)| m != n);
            opts.push((n.clone(), v.clone()));
        }
        e.options = opts;
        e.tc = e.tc.or(each.tc);
        e.nodes = e.nodes.or(each.nodes);
        e.depth = e.depth.or(each.depth);
        e.movetime_ms = e.movetime_ms.or(each.movetime_ms);
        e.timemargin_ms = e.timemargin_ms.or(each.timemargin_ms);
        e
    }

    /// The clock this engine plays with (None: no clock).
    pub fn clock(&self) -> Option<TimeControl> {
        self.tc.flatten()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsSpec {
    pub file: String,
    pub order: Order,
    /// 1-based index of the first opening used.
    pub start: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdjudication {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignAdjudication {
    pub movecount: u32,
    /// Positive: an engine resigns at or below -score.
    pub score: i32,
    pub twosided: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub variant: Variant,
    pub games: u32,
    pub rounds: u32,
    pub concurrency: usize,
    pub openings: Option<OpeningsSpec>,
    pub seed: u64,
    pub pgnout: Option<String>,
    pub sprt: Option<Sprt>,
    /// Rule options of the variant: (name as the game spells it, value).
    pub rules: Vec<(&'static str, i64)>,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    pub maxmoves: Option<u32>,
    pub ratinginterval: u32,
    pub stall_ms: u64,
    pub move_timeout_ms: u64,
    pub event: String,
    pub site: String,
}

/// The `tinh match --help` text.
pub fn help() -> String {
    HELP.replace("{variants}", &Variant::names_for_help())
}

/// Split raw arguments into (flag, values) groups. A word is a flag when it starts with
/// `-` followed by a letter or a second `-` (so `score=-300` and `-5` are values).
pub(super) fn group(args: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        let is_flag = a.starts_with('-')
            && a[1..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '-');
        if is_flag {
            let name = a.trim_start_matches('-').to_ascii_lowercase();
            out.push((name, Vec::new()));
        } else {
            match out.last_mut() {
                Some((_, vals)) => vals.push(a.clone()),
                None => return Err(format!("unexpected argument '{a}' (flags start with -)")),
            }
        }
    }
    Ok(out)
}

fn one<'a>(flag: &str, vals: &'a [String]) -> Result<&'a str, String> {
    match vals {
        [v] => Ok(v),
        [] => Err(format!("--{flag} needs a value")),
        _ => Err(format!("--{flag} takes one value, got {}", vals.join(" "))),
    }
}

/// The flag's one value, a number in `lo..=hi`.
fn num<T>(flag: &str, vals: &[String], lo: T, hi: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    in_range(&format!("--{flag}"), one(flag, vals)?, lo, hi)
}

fn kv<'a>(flag: &str, vals: &'a [String]) -> Result<Vec<(&'a str, &'a str)>, String> {
    vals.iter()
        .map(|w| {
            w.split_once('=')
                .ok_or_else(|| format!("--{flag}: expected key=value, got '{w}'"))
        })
        .collect()
}

/// The value of `key=` within a flag, a number in `lo..=hi`.
fn fnum<T>(flag: &str, key: &str, v: &str, lo: T, hi: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    in_range(&format!("--{flag} {key}"), v, lo, hi)
}

/// Parse `tinh match` arguments. `Ok(None)` means `--help` was asked for.
pub fn parse(args: &[String]) -> Result<Option<MatchConfig>, String> {
    let mut flags = Flags::new();
    for (flag, vals) in &group(args)? {
        if !flags.apply(flag, vals)? {
            return Ok(None);
        }
    }
    flags.finish().map(Some)
}

/// The flags read so far: what goes straight into the configuration, and what is only
/// settled once every flag is known (engines over `--each`, the openings order, rules of
/// the variant).
struct Flags {
    cfg: MatchConfig,
    engines: Vec<EngineSpec>,
    each: EngineSpec,
    order: Option<Order>,
    timemargin: Option<u64>,
    rule_values: Vec<String>,
}

impl Flags {
    fn new() -> Flags {
        Flags {
            cfg: MatchConfig {
                engines: Vec::new(),
                variant: Variant::default(),
                games: 2,
                rounds: 1,
                concurrency: 1,
                openings: None,
                seed: 1,
                pgnout: None,
                sprt: None,
                rules: Vec::new(),
                draw: None,
                resign: None,
                maxmoves: None,
                ratinginterval: 10,
                stall_ms: 5000,
                move_timeout_ms: 60_000,
                event: "Tinh match".into(),
                site: "?".into(),
            },
            engines: Vec::new(),
            each: EngineSpec::default(),
            order: None,
            timemargin: None,
            rule_values: Vec::new(),
        }
    }

    /// Take one flag with its values. `Ok(false)`: `--help`.
    fn apply(&mut self, f: &str, vals: &[String]) -> Result<bool, String> {
        let (cfg, each) = (&mut self.cfg, &mut self.each);
        match f {
            "help" | "h" => return Ok(false),
            "engine" => {
                let mut e = EngineSpec::default();
                e.apply(vals, "--engine")?;
                self.engines.push(e);
            }
            "each" => each.apply(vals, "--each")?,
            "variant" => cfg.variant = one(f, vals)?.parse()?,
            "games" => cfg.games = num(f, vals, 1, MAX_MATCH_GAMES as u32)?,
            "rounds" => cfg.rounds = num(f, vals, 1, MAX_MATCH_GAMES as u32)?,
            "concurrency" => cfg.concurrency = num(f, vals, 1, MAX_CONCURRENCY as usize)?,
            "tc" => each.tc = Some(TimeControl::parse(one(f, vals)?)?),
            "nodes" => each.nodes = Some(at_least(&format!("--{f}"), one(f, vals)?, 1)?),
            "depth" => each.depth = Some(num(f, vals, 1, MAX_DEPTH)?),
            "st" => each.movetime_ms = Some(seconds_ms(&format!("--{f}"), one(f, vals)?, 1)?),
            "openings" => {
                let (spec, order) = parse_openings(vals)?;
                cfg.openings = Some(spec);
                self.order = order.or(self.order);
            }
            "order" => self.order = Some(parse_order(one(f, vals)?)?),
            "seed" | "srand" => cfg.seed = at_least(&format!("--{f}"), one(f, vals)?, 0)?,
            "pgnout" => cfg.pgnout = Some(parse_pgnout(vals)?),
            "sprt" => cfg.sprt = Some(parse_sprt(vals)?),
            "rule" => {
                self.rule_values.extend(vals.iter().cloned());
                if vals.is_empty() {
                    return Err("--rule needs NAME=VALUE".into());
                }
            }
            "draw" => cfg.draw = Some(parse_draw(vals)?),
            "resign" => cfg.resign = Some(parse_resign(vals)?),
            "maxmoves" => cfg.maxmoves = Some(num(f, vals, 1, MAX_FULLMOVE)?),
            "ratinginterval" => cfg.ratinginterval = num(f, vals, 0, MAX_MATCH_GAMES as u32)?,
            "timemargin" => self.timemargin = Some(num(f, vals, 0, MAX_TIME_MS)?),
            "stalltimeout" => cfg.stall_ms = num(f, vals, 1, MAX_TIME_MS)?,
            "movetimeout" => cfg.move_timeout_ms = num(f, vals, 1, MAX_TIME_MS)?,
            "event" => cfg.event = vals.join(" "),
            "site" => cfg.site = vals.join(" "),
            "recover" | "repeat" => {}
            _ => return Err(format!("unknown flag --{f} (see tinh match --help)")),
        }
        Ok(true)
    }

    /// The configuration once every flag is read: engines over `--each`, each with a
    /// limit; the match within its size; the rules checked against the variant.
    fn finish(mut self) -> Result<MatchConfig, String> {
        let cfg = &mut self.cfg;
        if let Some(tm) = self.timemargin {
            self.each.timemargin_ms = self.each.timemargin_ms.or(Some(tm));
        }
        if let Some(o) = self.order {
            match cfg.openings.as_mut() {
                Some(op) => op.order = o,
                None => return Err("--order needs --openings".into()),
            }
        }
        if self.engines.len() < 2 {
            return Err("a match needs at least two --engine".into());
        }
        for (i, e) in self.engines.iter().enumerate() {
            let e = e.over(&self.each);
            if e.cmd.is_empty() {
                return Err(format!("engine {} has no cmd=", i + 1));
            }
            if e.clock().is_none()
                && e.nodes.is_none()
                && e.depth.is_none()
                && e.movetime_ms.is_none()
            {
                return Err(format!(
                    "engine {} has no limit: give --tc, --nodes, --depth or --st (or per engine)",
                    i + 1
                ));
            }
            cfg.engines.push(e);
        }
        let pairs = (cfg.engines.len() * (cfg.engines.len() - 1) / 2) as u64;
        let total = pairs * cfg.games as u64 * cfg.rounds as u64;
        if total > MAX_MATCH_GAMES {
            return Err(format!(
                "the match would have {total} games ({pairs} pairings x --rounds x --games); at most {MAX_MATCH_GAMES}"
            ));
        }
        if cfg.sprt.is_some() && cfg.engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        for r in &self.rule_values {
            cfg.rules.push(parse_rule(cfg.variant, r)?);
        }
        Ok(self.cfg)
    }
}

/// `--openings file=FILE [order=..] [start=N] [format=epd]` (or a bare FILE); the order
/// when one is given.
fn parse_openings(vals: &[String]) -> Result<(OpeningsSpec, Option<Order>), String> {
    let mut spec = OpeningsSpec {
        file: String::new(),
        order: Order::Sequential,
        start: 1,
    };
    let mut order = None;
    for w in vals {
        match w.split_once('=') {
            None => spec.file = w.clone(),
            Some(("file", v)) => spec.file = v.to_string(),
            Some(("format", v)) => {
                if v != "epd" {
                    return Err(format!(
                        "--openings: only format=epd (one FEN per line) is supported, got {v}"
                    ));
                }
            }
            Some(("order", v)) => order = Some(parse_order(v)?),
            Some(("start", v)) => {
                spec.start = fnum("openings", "start", v, 1, MAX_MATCH_GAMES as usize)?
            }
            Some(("plies", _)) | Some(("policy", _)) => {}
            Some((k, _)) => return Err(format!("--openings: unknown key '{k}'")),
        }
    }
    if spec.file.is_empty() {
        return Err("--openings needs a file (file=FILE)".into());
    }
    Ok((spec, order))
}

/// `--pgnout FILE` (or `file=FILE`); cutechess's extra words `[min] [fi]` are ignored.
fn parse_pgnout(vals: &[String]) -> Result<String, String> {
    let file = vals
        .iter()
        .find(|w| !w.contains('='))
        .or(vals.first())
        .ok_or("--pgnout needs a file")?;
    Ok(file.strip_prefix("file=").unwrap_or(file).to_string())
}

/// `--sprt elo0=A elo1=B [alpha=..] [beta=..] [model=logistic]`.
pub(super) fn parse_sprt(vals: &[String]) -> Result<Sprt, String> {
    let f = "sprt";
    let mut sp = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
    };
    for (k, v) in kv(f, vals)? {
        match k {
            "elo0" => sp.elo0 = fnum(f, k, v, -MAX_SPRT_ELO, MAX_SPRT_ELO)?,
            "elo1" => sp.elo1 = fnum(f, k, v, -MAX_SPRT_ELO, MAX_SPRT_ELO)?,
            "alpha" => sp.alpha = fnum(f, k, v, 0.0, 0.5)?,
            "beta" => sp.beta = fnum(f, k, v, 0.0, 0.5)?,
            "model" => {
                if v != "logistic" {
                    return Err("--sprt: only model=logistic is supported".into());
                }
            }
            _ => return Err(format!("--sprt: unknown key '{k}'")),
        }
    }
    if !(sp.elo0.is_finite() && sp.elo1.is_finite()) || sp.elo1 <= sp.elo0 {
        return Err("--sprt needs elo0= and elo1= with elo1 > elo0".into());
    }
    if !(sp.alpha > 0.0 && sp.alpha < 0.5 && sp.beta > 0.0 && sp.beta < 0.5) {
        return Err("--sprt: alpha and beta must be in (0, 0.5)".into());
    }
    Ok(sp)
}

/// `--draw movenumber=N movecount=M score=CP` (movecount and score required).
fn parse_draw(vals: &[String]) -> Result<DrawAdjudication, String> {
    let f = "draw";
    let mut d = DrawAdjudication {
        movenumber: 0,
        movecount: 0,
        score: 0,
    };
    let mut seen = (false, false);
    for (k, v) in kv(f, vals)? {
        match k {
            "movenumber" => d.movenumber = fnum(f, k, v, 0, MAX_FULLMOVE)?,
            "movecount" => {
                d.movecount = fnum(f, k, v, 1, MAX_FULLMOVE)?;
                seen.0 = true
            }
            "score" => {
                d.score = fnum(f, k, v, 0, MAX_ADJUDICATION_CP)?;
                seen.1 = true
            }
            _ => return Err(format!("--draw: unknown key '{k}'")),
        }
    }
    if !(seen.0 && seen.1) {
        return Err("--draw needs movecount=M and score=CP".into());
    }
    Ok(d)
}

/// `--resign movecount=M score=CP [twosided=true]`.
fn parse_resign(vals: &[String]) -> Result<ResignAdjudication, String> {
    let f = "resign";
    let mut r = ResignAdjudication {
        movecount: 0,
        score: 0,
        twosided: false,
    };
    for (k, v) in kv(f, vals)? {
        match k {
            "movecount" => r.movecount = fnum(f, k, v, 1, MAX_FULLMOVE)?,
            // Either sign: the engine resigns at or below minus its size.
            "score" => r.score = fnum(f, k, v, -MAX_ADJUDICATION_CP, MAX_ADJUDICATION_CP)?.abs(),
            "twosided" => r.twosided = matches!(v, "true" | "1" | "on" | "yes"),
            _ => return Err(format!("--resign: unknown key '{k}'")),
        }
    }
    if r.movecount == 0 || r.score == 0 {
        return Err("--resign needs movecount=M and score=CP (both > 0)".into());
    }
    Ok(r)
}

/// `NAME=VALUE` for a rule option the variant offers, range-checked.
fn parse_rule(variant: Variant, text: &str) -> Result<(&'static str, i64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("--rule '{text}': expected NAME=VALUE"))?;
    let options = with_game!(variant.startpos(), g => g.rule_options());
    let Some(o) = options
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    else {
        let names: Vec<&str> = options.iter().map(|o| o.name).collect();
        return Err(format!(
            "--rule '{text}': {variant} has no rule option '{}' (it has: {})",
            name.trim(),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let v: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("--rule '{text}': '{}' is not an integer", value.trim()))?;
    if v < o.min || v > o.max {
        return Err(format!(
            "--rule '{text}': {} must be in {}..{}",
            o.name, o.min, o.max
        ));
    }
    Ok((o.name, v))
}

fn parse_order(v: &str) -> Result<Order, String> {
    match v {
        "sequential" => Ok(Order::Sequential),
        "random" => Ok(Order::Random),
        _ => Err(format!("bad order '{v}' (sequential or random)")),
    }
}
