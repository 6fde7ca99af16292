//! Perft with divide lines, for the `perft` command and `go perft`: one line per root move
//! (one per chance outcome of a root move), an empty line, then the total.

use crate::game::{ChanceList, Game, MoveList, NO_OUTCOME};
use rayon::prelude::*;

/// The deepest perft (`tinh perft`, `go perft`, `tinh bench`): leaf counts beyond it would
/// overflow 64 bits in Math Chess, and none would finish anyway.
pub const MAX_DEPTH: u32 = 20;

/// Divide: (move as named in `position ... moves`, leaf count) for every root branch.
/// `threads > 1` counts the root branches in parallel on a rayon pool.
pub fn divide<G: Game>(pos: &G, depth: u32, threads: usize) -> Vec<(String, u64)> {
    if depth == 0 || pos.perft_ends_here() {
        return Vec::new();
    }
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    let mut branches = Vec::new();
    for &mv in list.iter() {
        let mut chances = ChanceList::default();
        if pos.chance(mv, &mut chances) {
            for &(o, _) in chances.as_slice() {
                branches.push((mv, o));
            }
        } else {
            branches.push((mv, NO_OUTCOME));
        }
    }
    let count = |&(mv, o): &(G::Move, u8)| {
        let mut p = pos.clone();
        let name = p.move_outcome_to_string(mv, o);
        p.make(mv, o);
        let n = p.perft(depth - 1);
        (name, n)
    };
    if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| branches.par_iter().map(count).collect()),
            Err(_) => branches.iter().map(count).collect(),
        }
    } else {
        branches.iter().map(count).collect()
    }
}

/// Total leaves of a divide; depth 0 counts the root itself.
pub fn total(lines: &[(String, u64)], depth: u32) -> u64 {
    if depth == 0 {
        1
    } else {
        lines.iter().map(|(_, n)| n).sum()
    }
}

/// The divide report as printed by `tinh perft` and `go perft`.
pub fn format_divide(lines: &[(String, u64)], depth: u32) -> String {
    let mut out = String::new();
    for (m, n) in lines {
        out.push_str(&format!("{m}: {n}\n"));
    }
    let total = total(lines, depth);
    out.push_str(&format!("\nNodes searched: {total}\n"));
    out
}
