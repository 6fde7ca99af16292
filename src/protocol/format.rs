//! How the search's results read at the edge: `info` and `bestmove` lines (moves named in
//! the game's notation here, not in the search), scores, and the `eval` command's table.

use crate::eval::Evaluator;
use crate::game::{ChanceList, Game, MATE, MATE_BOUND, NO_OUTCOME, Score};
use crate::search::{Bound, Info, OutcomeInfo, Report, SearchResult};

/// `score cp N` or `score mate N` (moves, negative when the side to move is mated).
pub fn format_score(score: Score) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// What follows a score that is only a bound: ` lowerbound` or ` upperbound`.
fn bound_words(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    }
}

/// The names of a line of moves played from `pos` (a principal variation, which ends at
/// its first move with chance).
pub fn move_names<G: Game>(pos: &G, moves: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    let mut chances = ChanceList::default();
    for (i, &m) in moves.iter().enumerate() {
        out.push(p.move_to_string(m));
        chances.clear();
        if i + 1 == moves.len() || p.chance(m, &mut chances) {
            break;
        }
        p.make(m, NO_OUTCOME);
    }
    out
}

/// `info depth D seldepth S multipv K score cp X|mate N [lowerbound|upperbound] nodes N
/// nps N hashfull H time T pv ...`
pub fn format_info<G: Game>(pos: &G, info: &Info<G::Move>) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score),
        bound_words(info.bound),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms
    );
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&move_names(pos, &info.pv).join(" "));
    }
    s
}

/// `info string outcome depth D multipv K move M outcome MO probability W/T score cp X|mate
/// N [lowerbound|upperbound] [reduced R] [pv ...]`: one chance outcome of a line's first
/// move (`MO` is the move with the outcome, as `position ... moves` writes it; `reduced`:
/// it was searched R plies shallower than D; the pv is played from the position after it).
pub fn format_outcome<G: Game>(pos: &G, o: &OutcomeInfo<G::Move>) -> String {
    let mut s = format!(
        "info string outcome depth {} multipv {} move {} outcome {} probability {}/{} score {}{}",
        o.depth,
        o.multipv,
        pos.move_to_string(o.mv),
        pos.move_outcome_to_string(o.mv, o.outcome),
        o.weight,
        o.total,
        format_score(o.score),
        bound_words(o.bound)
    );
    if o.reduction > 0 {
        s.push_str(&format!(" reduced {}", o.reduction));
    }
    if !o.pv.is_empty() {
        let mut after = pos.clone();
        after.make(o.mv, o.outcome);
        s.push_str(" pv ");
        s.push_str(&move_names(&after, &o.pv).join(" "));
    }
    s
}

pub fn format_report<G: Game>(pos: &G, r: &Report<G::Move>) -> String {
    match r {
        Report::Iteration(info) => format_info(pos, info),
        Report::Outcome(o) => format_outcome(pos, o),
        Report::CurrMove { depth, mv, number } => format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            pos.move_to_string(*mv)
        ),
    }
}

/// `bestmove M [ponder P]`, or `bestmove (none)`.
pub fn format_bestmove<G: Game>(pos: &G, r: &SearchResult<G::Move>) -> String {
    let Some(best) = r.best else {
        return "bestmove (none)".to_string();
    };
    let line: Vec<G::Move> = std::iter::once(best).chain(r.ponder).collect();
    let names = move_names(pos, &line);
    match names.as_slice() {
        [b, p] => format!("bestmove {b} ponder {p}"),
        _ => format!("bestmove {}", names[0]),
    }
}

/// The `eval` command's table: every term for both sides, their difference, and the
/// static evaluation the search uses.
pub fn format_eval<G: Game>(g: &G, eval: &mut G::Eval) -> String {
    let [a, b] = g.side_names();
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
    let stm = g.side_names()[g.side_to_move().min(1)];
    s.push_str(&format!(
        "Static evaluation: {e} cp ({:+.2}) from the side to move's view ({stm}); \
         units are centipawns, Diff is {a} minus {b}\n",
        e as f64 / 100.0
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_formatting() {
        assert_eq!(format_score(35), "cp 35");
        assert_eq!(format_score(MATE - 1), "mate 1");
        assert_eq!(format_score(MATE - 3), "mate 2");
        assert_eq!(format_score(-(MATE - 2)), "mate -1");
        assert_eq!(format_score(-(MATE - 4)), "mate -2");
    }
}
