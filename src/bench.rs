//! `tinh bench`: the fixed positions every game lists (`Game::bench_positions`) searched
//! to a fixed depth on one thread with a fresh table each, so the node count is the same
//! on every run and every machine (the OpenBench format: the last line is
//! `<nodes> nodes <nps> nps`); and `tinh bench --perft`, the move-generation speed on
//! each game's perft positions (`<leaves> leaves <leaves/s> leaves/s`).

use crate::protocol::format::move_names;
use crate::search::params::SearchSettings;
use crate::search::{Limits, Options, Searcher};
use crate::variant::{Position, Variant};
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 9;

/// Search every bench position of `variants` to `depth` (offset per position) with the
/// given search parameters; prints one line per position on stderr and the total on
/// stdout.
pub fn run(
    depth: Option<u32>,
    variants: &[Variant],
    settings: SearchSettings,
) -> Result<(), String> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let searcher = Searcher::new(16);
    let opts = Options {
        settings,
        ..Options::default()
    };
    let mut total_nodes = 0u64;
    let mut number = 0;
    let start = Instant::now();
    for &variant in variants {
        let start_pos = variant.startpos();
        let list = with_game!(&start_pos, g => g.bench_positions());
        for bp in list {
            number += 1;
            let mut pos = match bp.fen {
                None => variant.startpos(),
                Some(f) => variant.from_fen(f)?,
            };
            pos.apply_moves(bp.moves.split_whitespace())
                .map_err(|e| format!("bench position {number}: {e}"))?;
            searcher.clear();
            let d = (depth as i32 + bp.depth_offset).max(1) as u32;
            let t = Instant::now();
            let (nodes, best, score) = search_one(&searcher, &pos, d, &opts);
            total_nodes += nodes;
            eprintln!(
                "position {number:2} {:11} nodes {nodes:10} bestmove {best:8} score {score:6} time {:.2}s",
                variant.name(),
                t.elapsed().as_secs_f64()
            );
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-6);
    println!(
        "{} nodes {} nps",
        total_nodes,
        (total_nodes as f64 / secs) as u64
    );
    Ok(())
}

/// (nodes, best move, score) of a fixed-depth search.
fn search_one(
    searcher: &Searcher,
    pos: &Position,
    depth: u32,
    opts: &Options,
) -> (u64, String, i32) {
    with_game!(pos, g => {
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = searcher.search(g, &limits, opts, &|_| {});
        let best = move_names(g, &r.best.into_iter().collect::<Vec<_>>())
            .pop()
            .unwrap_or_else(|| "(none)".into());
        (r.nodes, best, r.score)
    })
}

/// Move-generation speed: perft (single thread, bulk counting) of every game's perft
/// bench positions; `depth` overrides every position's own depth.
pub fn run_perft(depth: Option<u32>, variants: &[Variant]) -> Result<(), String> {
    let mut total = 0u64;
    let start = Instant::now();
    for &variant in variants {
        let start_pos = variant.startpos();
        let list = with_game!(&start_pos, g => g.perft_bench_positions());
        for &(fen, d) in list {
            let mut pos = variant.from_fen(fen)?;
            let d = depth.unwrap_or(d);
            let t = Instant::now();
            let n = with_game!(&mut pos, g => g.perft(d));
            let secs = t.elapsed().as_secs_f64().max(1e-9);
            eprintln!(
                "{:11} depth {d} {:>14} leaves {:>14.0} leaves/s  {fen}",
                variant.name(),
                n,
                n as f64 / secs
            );
            total += n;
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    println!("{total} leaves {} leaves/s", (total as f64 / secs) as u64);
    Ok(())
}
