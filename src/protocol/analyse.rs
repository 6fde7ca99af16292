//! `tinh analyse`: a position, the search's progress in readable lines, the best move.
//! The position is built and the search driven exactly as the protocol loop does
//! (`build_position`, `Searcher::search`); only the presentation differs.

use super::format::{format_score, move_names};
use super::options::{Settings, parse_setoption};
use super::{build_position, check_spin};
use crate::game::{ChanceList, Game, MoveList};
use crate::search::{self, Bound, Info, Limits, Options, OutcomeInfo, Report, Searcher};
use crate::variant::Variant;
use std::io::Write;
use std::time::Instant;

/// Limit when none is given: deep enough to be worth reading, and capped in time so that
/// the README's `cargo run --release -- analyse` answers within seconds on any machine.
pub const DEFAULT_DEPTH: u32 = 10;
pub const DEFAULT_TIME_CAP_MS: u64 = 5_000;

#[derive(clap::Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "movetime", "nodes"]).multiple(false)))]
pub struct AnalyseArgs {
    /// Position to analyse, in the variant's FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, space separated, as in `position ... moves` (reveal letters
    /// included).
    #[arg(long)]
    pub moves: Option<String>,
    /// Search to this depth, 1..=120 (default: depth 10, at most 5 s).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=search::MAX_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Search for this many milliseconds, 1..=86400000 (one day).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=search::MAX_TIME_MS))]
    pub movetime: Option<u64>,
    /// Search this many nodes (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Number of principal variations (1..256).
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Search threads (1..256).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB (1..=half the machine's memory, as the Hash option).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Set an engine option as `setoption` would, e.g. `--option PointTarget=20` (a Math
    /// Chess rule) or a search parameter (`--option RfpMargin=90`); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// After each iteration, show where the nodes went (inner nodes by kind, quiescence,
    /// chance nodes, outcome searches by depth reduction) and where inner nodes were cut
    /// (table, reverse futility, null move, a move's fail high; the first move's share).
    #[arg(long)]
    pub stats: bool,
}

/// A score as a reader wants it: `+1.23` (pawns, side to move's view) or `#3` / `#-3`.
pub fn readable_score(score: crate::game::Score) -> String {
    // One formula for mate distances: the protocol's.
    let uci = format_score(score);
    match uci.strip_prefix("mate ") {
        Some(n) => format!("#{n}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

fn readable_speed(nps: u64) -> String {
    if nps >= 1_000_000 {
        format!("{:.2} Mn/s", nps as f64 / 1e6)
    } else if nps >= 1_000 {
        format!("{:.1} kn/s", nps as f64 / 1e3)
    } else {
        format!("{nps} n/s")
    }
}

/// One iteration as a readable line.
pub fn readable_info<G: Game>(pos: &G, info: &Info<G::Move>, multipv: usize) -> String {
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => ">=",
        Bound::Upper => "<=",
    };
    let line = if multipv > 1 {
        format!("line {}  ", info.multipv)
    } else {
        String::new()
    };
    format!(
        "{line}depth {:>2}/{:<2}  score {:>7}  nodes {:>11}  speed {:>11}  time {:>7.3} s  pv {}",
        info.depth,
        info.seldepth,
        format!("{bound}{}", readable_score(info.score)),
        info.nodes,
        readable_speed(info.nps),
        info.time_ms as f64 / 1000.0,
        move_names(pos, &info.pv).join(" ")
    )
}

/// The settings `tinh analyse` searches with: the flags, then each `--option`.
fn settings(variant: Variant, args: &AnalyseArgs) -> Result<Settings, String> {
    // The flags share the options' ranges.
    for (flag, option, value) in [
        ("--multipv", "MultiPV", args.multipv),
        ("--threads", "Threads", args.threads),
        ("--hash", "Hash", args.hash),
    ] {
        let value = i64::try_from(value).unwrap_or(i64::MAX);
        check_spin(option, value).map_err(|e| format!("{flag}: {e}"))?;
    }
    let mut settings = Settings::new(variant);
    settings.multipv = args.multipv;
    settings.threads = args.threads;
    settings.hash_mb = args.hash;
    for o in &args.options {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| format!("--option '{o}': expected NAME=VALUE"))?;
        let words: Vec<&str> = ["name"]
            .into_iter()
            .chain(name.split_whitespace())
            .chain(["value"])
            .chain(value.split_whitespace())
            .collect();
        let opt = parse_setoption(&words).map_err(|e| format!("--option '{o}': {e}"))?;
        settings
            .apply(&opt)
            .map_err(|e| format!("--option '{o}': {e}"))?;
    }
    Ok(settings)
}

pub fn run(variant: Variant, args: AnalyseArgs) -> Result<(), String> {
    let settings = settings(variant, &args)?;
    let variant = settings.variant;
    let moves: Vec<&str> = args
        .moves
        .as_deref()
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    let pos = build_position(variant, args.fen.as_deref(), &moves, &settings.rules)?;

    let mut limits = Limits::<()> {
        depth: args.depth,
        movetime: args.movetime,
        nodes: args.nodes,
        ..Default::default()
    };
    let what = if let Some(d) = args.depth {
        format!("depth {d}")
    } else if let Some(t) = args.movetime {
        format!("{t} ms")
    } else if let Some(n) = args.nodes {
        format!("{n} nodes")
    } else {
        limits.depth = Some(DEFAULT_DEPTH);
        limits.movetime = Some(DEFAULT_TIME_CAP_MS);
        format!(
            "until depth {DEFAULT_DEPTH} or {} s, whichever comes first",
            DEFAULT_TIME_CAP_MS / 1000
        )
    };
    let opts = settings.search_options();
    let searcher = Searcher::try_new(settings.hash_mb)
        .map_err(|e| format!("--hash {}: {e}", settings.hash_mb))?;
    let show = Show { stats: args.stats };
    with_game!(&pos, g => analyse(g, variant, &what, &limits.with_searchmoves(Vec::new()), &opts, &searcher, &show))
}

/// How the analysis is shown, apart from the search's settings.
struct Show {
    stats: bool,
}

fn analyse<G: Game>(
    g: &G,
    variant: Variant,
    what: &str,
    limits: &Limits<G::Move>,
    opts: &Options,
    searcher: &Searcher,
    show: &Show,
) -> Result<(), String> {
    let out = std::io::stdout();
    let say = |s: &str| {
        let mut o = out.lock();
        let _ = writeln!(o, "{s}");
        let _ = o.flush();
    };
    say(g.display().trim_end());
    say("");
    if let Some(end) = g.game_over() {
        say(&format!("game over: {}", end.reason));
        say("best move: none");
        return Ok(());
    }
    let stm = g.side_names()[g.side_to_move().min(1)];
    let chance = has_chance_moves(g);
    let scores = if chance {
        format!("scores are expected values (the mean over the reveals to come) from {stm}'s view")
    } else {
        format!("scores from {stm}'s view")
    };
    say(&format!(
        "Analysing {variant} ({stm} to move): {what}, {} thread{}, {} MiB hash, {scores}",
        opts.threads,
        if opts.threads == 1 { "" } else { "s" },
        searcher.hash_mb(),
    ));
    let start = Instant::now();
    let multipv = opts.multipv;
    // The outcomes of the best line's first move, as the last iteration valued them.
    let outcomes = std::sync::Mutex::new(Vec::<OutcomeInfo<G::Move>>::new());
    let report = |r: Report<G::Move>| match r {
        Report::Iteration(info) => {
            say(&readable_info(g, &info, multipv));
            if show.stats && info.multipv == 1 {
                say(&format!("  nodes: {}", info.stats.summary()));
                say(&format!("  cuts:  {}", info.stats.cuts_summary()));
            }
            // A new exact line replaces the breakdown; a bound line (an aspiration fail)
            // has none, and the last exact one still stands.
            if info.multipv == 1 && info.bound == Bound::Exact {
                outcomes.lock().unwrap_or_else(|e| e.into_inner()).clear();
            }
        }
        Report::Outcome(o) if o.multipv == 1 => {
            outcomes.lock().unwrap_or_else(|e| e.into_inner()).push(o);
        }
        _ => {}
    };
    let result = searcher.search(g, limits, opts, &report);
    let secs = start.elapsed().as_secs_f64();
    let line: Vec<G::Move> = result.best.into_iter().chain(result.ponder).collect();
    let best = match move_names(g, &line).as_slice() {
        [b, p] => format!("{b} (ponder {p})"),
        [b] => b.clone(),
        _ => "none".to_string(),
    };
    say(&format!(
        "best move: {best}, {}score {}, depth {}, {} nodes in {secs:.2} s",
        if chance { "expected " } else { "" },
        readable_score(result.score),
        result.depth,
        result.nodes
    ));
    let outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(best) = result.best
        && outcomes.first().is_some_and(|o| o.mv == best)
    {
        say(&outcome_table(g, &outcomes));
    }
    Ok(())
}

/// Whether some legal move here has chance outcomes (then scores are expected values).
fn has_chance_moves<G: Game>(g: &G) -> bool {
    let mut list = MoveList::new();
    g.generate_moves(&mut list);
    let mut chances = ChanceList::default();
    list.iter().any(|&m| {
        chances.clear();
        g.chance(m, &mut chances)
    })
}

/// The best move's value broken down by outcome: one aligned row per outcome with its
/// probability, value, the depth it was searched to and the nodes that took (where the
/// search spent its effort) and continuation.
fn outcome_table<G: Game>(g: &G, outcomes: &[OutcomeInfo<G::Move>]) -> String {
    let first = &outcomes[0];
    let mut s = format!(
        "{} by outcome (depth {}): each outcome's probability, value, the depth and nodes its \
         search took, and continuation\n",
        g.move_to_string(first.mv),
        first.depth
    );
    s.push_str(&format!(
        "  {:<10} {:>13}  {:>8}  {:>5}  {:>10}  continuation\n",
        "outcome", "probability", "score", "depth", "nodes"
    ));
    for o in outcomes {
        let bound = match o.bound {
            Bound::Exact => "",
            Bound::Lower => ">=",
            Bound::Upper => "<=",
        };
        let mut after = g.clone();
        after.make(o.mv, o.outcome);
        s.push_str(&format!(
            "  {:<10} {:>6} {:>5.1}%  {:>8}  {:>5}  {:>10}  {}\n",
            g.move_outcome_to_string(o.mv, o.outcome),
            format!("{}/{}", o.weight, o.total),
            100.0 * o.weight as f64 / o.total.max(1) as f64,
            format!("{bound}{}", readable_score(o.score)),
            o.depth.saturating_sub(o.reduction),
            o.nodes,
            move_names(&after, &o.pv).join(" ")
        ));
    }
    s.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;

    #[test]
    fn scores_read_well() {
        assert_eq!(readable_score(123), "+1.23");
        assert_eq!(readable_score(-5), "-0.05");
        assert_eq!(readable_score(0), "+0.00");
        assert_eq!(readable_score(MATE - 5), "#3");
        assert_eq!(readable_score(-(MATE - 4)), "#-2");
        assert_eq!(readable_speed(999), "999 n/s");
        assert_eq!(readable_speed(1_500), "1.5 kn/s");
        assert_eq!(readable_speed(2_345_678), "2.35 Mn/s");
    }
}
