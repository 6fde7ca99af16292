//! `tinh bench`: a fixed set of positions of all three games searched to a fixed depth on
//! one thread with a fresh table each, so the node count is the same on every run and
//! every machine. The last line is `<nodes> nodes <nps> nps` (the OpenBench format).

use super::{Limits, Options, Searcher};
use crate::game::Game;
use crate::variant::Variant;
use crate::with_game;
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 9;

/// (variant, FEN or "startpos", moves played from it, depth offset from the bench depth).
const POSITIONS: &[(Variant, &str, &str, i32)] = &[
    (Variant::MathChess, "startpos", "", 0),
    (Variant::MathChess, "startpos", "d1d4 f11f8 c1c4 d11d8", 0),
    (
        Variant::MathChess,
        "startpos",
        "g1g5 g11g8 d1d4 f11f8 c1c4",
        0,
    ),
    (
        Variant::MathChess,
        "startpos",
        "f1f6 d11d6 h1h4 b11b5 i1e5",
        0,
    ),
    (Variant::Chess, "startpos", "", 0),
    (
        Variant::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "",
        0,
    ),
    (
        Variant::Chess,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "",
        0,
    ),
    (
        Variant::Chess,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "",
        0,
    ),
    (Variant::RevealChess, "startpos", "", -5),
    (
        Variant::RevealChess,
        "startpos",
        "e2e4P e7e5P g1f3N b8c6N",
        -5,
    ),
    (
        Variant::RevealChess,
        "startpos",
        "d2d4Q d7d5P c1f4B g8f6R",
        -5,
    ),
];

/// Move-generation speed: perft (single thread, bulk counting) of a fixed set of
/// positions; the last line is `<leaves> leaves <leaves/s> leaves/s`. `depth` overrides
/// every position's own depth; `only` keeps one game's positions.
pub fn run_perft(depth: Option<u32>, only: Option<Variant>) -> Result<(), String> {
    let mut jobs: Vec<(Variant, String, u32)> = crate::mathchess::PERFT_BENCH
        .iter()
        .enumerate()
        .map(|(i, f)| {
            (
                Variant::MathChess,
                f.to_string(),
                if i == 0 { 5 } else { 4 },
            )
        })
        .collect();
    for (fen, d) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            6,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    ] {
        jobs.push((Variant::Chess, fen.to_string(), d));
    }
    jobs.push((Variant::RevealChess, "startpos".into(), 4));
    jobs.retain(|&(v, _, _)| only.is_none_or(|o| o == v));
    let mut total = 0u64;
    let start = Instant::now();
    for (variant, fen, d) in jobs {
        let mut pos = if fen == "startpos" {
            variant.startpos()
        } else {
            variant.from_fen(&fen)?
        };
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
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    println!("{total} leaves {} leaves/s", (total as f64 / secs) as u64);
    Ok(())
}

/// The search bench; `only` keeps one game's positions (the node count printed is then
/// that game's share of the full bench's).
pub fn run(depth: Option<u32>, only: Option<Variant>) -> Result<(), String> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let searcher = Searcher::new(16);
    let opts = Options::default();
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (i, &(variant, fen, moves, offset)) in POSITIONS.iter().enumerate() {
        if only.is_some_and(|o| o != variant) {
            continue;
        }
        let mut pos = if fen == "startpos" {
            variant.startpos()
        } else {
            variant.from_fen(fen)?
        };
        pos.apply_moves(moves.split_whitespace())
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        searcher.clear();
        let limits = Limits {
            depth: Some((depth as i32 + offset).max(1) as u32),
            ..Default::default()
        };
        let t = Instant::now();
        let result = with_game!(&pos, g => searcher.search(g, &limits, &opts, &|_| {}));
        total_nodes += result.nodes;
        eprintln!(
            "position {:2} {:11} nodes {:10} bestmove {:8} score {:6} time {:.2}s",
            i + 1,
            variant.name(),
            result.nodes,
            result.best.as_deref().unwrap_or("(none)"),
            result.score,
            t.elapsed().as_secs_f64()
        );
    }
    let secs = start.elapsed().as_secs_f64().max(1e-6);
    println!(
        "{} nodes {} nps",
        total_nodes,
        (total_nodes as f64 / secs) as u64
    );
    Ok(())
}
