//! `tinh analyse`: a position, the search's progress in readable lines, the best move.
//! The position is built and the search driven exactly as the protocol loop does
//! (`build_position`, `Searcher::search`); only the presentation differs.

use super::{build_position, check_spin, game_over, side_names};
use crate::game::Game;
use crate::search::{self, Bound, Info, Limits, Options, Report, Searcher};
use crate::variant::Variant;
use crate::with_game;
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
    /// included in Reveal Chess).
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
    /// Transposition table size in MiB (1..65536).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Math Chess point target (0..45, 0 = off), as the PointTarget option.
    #[arg(long, default_value_t = 0)]
    pub point_target: u32,
}

/// A score as a reader wants it: `+1.23` (pawns, side to move's view) or `#3` / `#-3`.
pub fn readable_score(score: crate::game::Score) -> String {
    // One formula for mate distances: the protocol's.
    let uci = search::format_score(score);
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
pub fn readable_info(info: &Info, multipv: usize) -> String {
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
        info.pv.join(" ")
    )
}

pub fn run(variant: Variant, args: AnalyseArgs) -> Result<(), String> {
    // The flags share the options' ranges.
    for (flag, option, value) in [
        ("--multipv", "MultiPV", args.multipv),
        ("--threads", "Threads", args.threads),
        ("--hash", "Hash", args.hash),
        ("--point-target", "PointTarget", args.point_target as usize),
    ] {
        let value = i64::try_from(value).unwrap_or(i64::MAX);
        check_spin(option, value).map_err(|e| format!("{flag}: {e}"))?;
    }
    let moves: Vec<&str> = args
        .moves
        .as_deref()
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    let pos = build_position(variant, args.fen.as_deref(), &moves, args.point_target)?;

    let mut limits = Limits {
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
            "depth {DEFAULT_DEPTH} (at most {} s)",
            DEFAULT_TIME_CAP_MS / 1000
        )
    };
    let opts = Options {
        threads: args.threads,
        multipv: args.multipv,
        ..Options::default()
    };

    with_game!(&pos, g => analyse(g, variant, &what, &limits, &opts, args.hash))
}

fn analyse<G: Game>(
    g: &G,
    variant: Variant,
    what: &str,
    limits: &Limits,
    opts: &Options,
    hash_mb: usize,
) -> Result<(), String> {
    let out = std::io::stdout();
    let say = |s: &str| {
        let mut o = out.lock();
        let _ = writeln!(o, "{s}");
        let _ = o.flush();
    };
    say(g.display().trim_end());
    say("");
    if let Some(end) = game_over(g) {
        say(&format!("game over: {}", end.reason));
        say("best move: none");
        return Ok(());
    }
    let stm = side_names(g.variant_name())[g.side_to_move().min(1)];
    say(&format!(
        "Analysing {variant} ({stm} to move): {what}, {} thread{}, {hash_mb} MiB hash, \
         scores from {stm}'s view",
        opts.threads,
        if opts.threads == 1 { "" } else { "s" },
    ));
    let searcher = Searcher::new(hash_mb);
    let start = Instant::now();
    let multipv = opts.multipv;
    let report = move |r: Report| {
        if let Report::Iteration(info) = r {
            say(&readable_info(&info, multipv));
        }
    };
    let result = searcher.search(g, limits, opts, &report);
    let secs = start.elapsed().as_secs_f64();
    let best = match (&result.best, &result.ponder) {
        (Some(b), Some(p)) => format!("{b} (ponder {p})"),
        (Some(b), None) => b.clone(),
        (None, _) => "none".to_string(),
    };
    say(&format!(
        "best move: {best}, score {}, depth {}, {} nodes in {secs:.2} s",
        readable_score(result.score),
        result.depth,
        result.nodes
    ));
    Ok(())
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
