//! Iterative deepening with aspiration windows and MultiPV on each worker, and Lazy SMP:
//! `Threads` workers search the same root over the shared transposition table; the main
//! worker keeps time, reports, and stops the others; the reported move comes from the
//! worker that completed the deepest iteration.

use super::skill::{Skill, Strength};
use super::stats::SearchStats;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::{Shared, Worker};
use super::{Bound, Control, Info, Limits, MAX_DEPTH, Options, OutcomeInfo, Report, SearchResult};
use crate::eval::Evaluator;
use crate::game::*;
use crate::seed::mix;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;

struct WorkerResult<M> {
    id: usize,
    depth: u32,
    score: Score,
    bound: Bound,
    pv: Vec<M>,
    stats: SearchStats,
}

/// The lines of the main worker's last complete iteration, best first: the candidates a
/// weakened skill picks its move from.
struct Completed<M> {
    depth: u32,
    seldepth: u32,
    /// (score, principal variation) of each line searched.
    lines: Vec<(Score, Vec<M>)>,
}

/// Search `pos` with every worker and return the best move found; at a weakened
/// strength, the move its skill picks (or a random one for the random mover).
pub fn run<G: Game>(
    pos: &G,
    limits: &Limits<G::Move>,
    opts: &Options,
    tt: &TranspositionTable,
    control: &Control,
    report: &(dyn Fn(Report<G::Move>) + Sync),
) -> SearchResult<G::Move> {
    let (mut params, features) = opts.settings.resolve(pos.search_defaults());
    tt.new_search(&params);
    let mut list = MoveList::new();
    if pos.immediate_result().is_none() {
        pos.generate_moves(&mut list);
    }
    let mut root: Vec<G::Move> = list.iter().copied().collect();
    if !limits.searchmoves.is_empty() {
        root.retain(|m| limits.searchmoves.contains(m));
    }
    if root.is_empty() {
        return SearchResult::default();
    }
    // One generator per search, seeded by the seed, the position and the ply: a game
    // replays exactly under the same seed, and a repeated position need not repeat.
    let mut rng = StdRng::seed_from_u64(mix(opts.seed, pos.key() ^ pos.game_ply() as u64));
    let skill = match opts.strength.resolve(pos.strength_scale()) {
        Strength::Full => None,
        Strength::Limited(s) if rng.random::<f64>() >= s.random_share() => Some(s),
        // The random mover, or a skill below 0 drawing one of its random moves.
        Strength::Random | Strength::Limited(_) => {
            return SearchResult {
                best: Some(root[rng.random_range(0..root.len())]),
                ..Default::default()
            };
        }
    };
    let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let reported = opts.multipv.max(1);
    let (mut threads, mut lines) = (opts.threads.clamp(1, 1024), reported);
    if let Some(s) = skill {
        // A weakened level searches alone (its choices replay under a seed) and to the
        // end of every candidate line.
        threads = 1;
        lines = lines.max(s.candidates());
        max_depth = max_depth.min(s.depth());
    }
    if lines > 1 {
        // Several lines are compared by value: every thread searches them exactly.
        params.pvs_margin = 0;
    }
    let params = &params;
    let weights = crate::eval::weights_for(pos, opts.eval_text.as_deref().map(|t| t.as_str()))
        .unwrap_or_else(|e| {
            // The protocol checks a weights file when it is loaded: this is a bug guard.
            log::warn!("evaluation weights not applied: {e}");
            G::Eval::default_weights(pos)
        });
    // The first move of the last principal variation reported, so that the move played
    // can be reported too if an unfinished iteration changed it.
    let last_head: Mutex<Option<G::Move>> = Mutex::new(None);
    let remember = |r: Report<G::Move>| {
        if let Report::Iteration(i) = &r
            && i.multipv == 1
        {
            *last_head.lock().unwrap_or_else(|e| e.into_inner()) = i.pv.first().copied();
        }
        report(r);
    };
    let shared = Shared {
        tt,
        control,
        features,
        params: params.clone(),
        node_limit: limits.nodes,
        node_budget: skill.map(Skill::node_budget),
        node_cap: skill.map(Skill::node_cap),
        time: TimeManager::new(limits, pos.side_to_move(), opts.move_overhead_ms, params),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        report: &remember,
    };
    let (results, completed) = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for id in 1..threads {
            let (root, weights, shared) = (&root, weights.clone(), &shared);
            let h = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(32 << 20)
                .spawn_scoped(s, move || {
                    let eval = G::Eval::new(pos, weights);
                    let mut w = Worker::new(id, pos.clone(), eval, shared, root);
                    iterate(&mut w, max_depth, 1, 1, limits);
                    summary(&w)
                });
            match h {
                Ok(h) => handles.push(h),
                Err(e) => log::warn!("could not start search thread {id}: {e}"),
            }
        }
        let eval = G::Eval::new(pos, weights.clone());
        let mut main = Worker::new(0, pos.clone(), eval, &shared, &root);
        let completed = iterate(&mut main, max_depth, lines, reported, limits);
        control.stop();
        let mut all = vec![summary(&main)];
        for h in handles {
            if let Ok(r) = h.join() {
                all.push(r);
            }
        }
        (all, completed)
    });
    if let Some(skill) = skill
        && !completed.lines.is_empty()
    {
        let scores: Vec<Score> = completed.lines.iter().map(|l| l.0).collect();
        let (score, line) = &completed.lines[skill.pick(&scores, &mut rng)];
        let pv = pv_until_chance(pos, line);
        // The last line said is the move played, so that a GUI shows what was chosen.
        report(Report::Iteration(info(
            &shared,
            completed.depth,
            completed.seldepth,
            1,
            *score,
            Bound::Exact,
            pv.clone(),
        )));
        return SearchResult {
            best: Some(pv.first().copied().unwrap_or(root[0])),
            ponder: pv.get(1).copied(),
            score: *score,
            depth: completed.depth,
            nodes: shared.total_nodes(),
            stats: results.iter().fold(SearchStats::default(), |mut sum, r| {
                sum.add(&r.stats);
                sum
            }),
        };
    }
    // The deepest completed iteration wins; among equals the main worker, then the score.
    let best = results
        .iter()
        .max_by_key(|r| (r.depth, r.id == 0, r.score))
        .expect("main worker result");
    let mut stats = SearchStats::default();
    for r in &results {
        stats.add(&r.stats);
    }
    let mut pv = pv_until_chance(pos, &best.pv);
    let played = *pv.first().unwrap_or(&root[0]);
    let reported = *last_head.lock().unwrap_or_else(|e| e.into_inner());
    if reported != Some(played) && best.score != -INFINITY {
        // An iteration cut short found a better move (or none was reported yet): one more
        // line, so that the last PV a GUI saw starts with the move played.
        if pv.is_empty() {
            pv.push(played);
        }
        report(Report::Iteration(Info {
            stats,
            ..info(
                &shared,
                best.depth.max(1),
                best.depth.max(1),
                1,
                best.score,
                best.bound,
                pv.clone(),
            )
        }));
    }
    SearchResult {
        best: Some(played),
        ponder: pv.get(1).copied(),
        score: best.score,
        depth: best.depth,
        nodes: shared.total_nodes(),
        stats,
    }
}

fn summary<G: Game>(w: &Worker<'_, G>) -> WorkerResult<G::Move> {
    w.publish_nodes();
    let rm = &w.root_moves[0];
    WorkerResult {
        id: w.id,
        depth: w.completed_depth,
        score: rm.score,
        bound: rm.bound,
        pv: rm.pv.clone(),
        stats: w.stats,
    }
}

/// The principal variation as far as it is known (`known_line`).
pub fn pv_until_chance<G: Game>(pos: &G, pv: &[G::Move]) -> Vec<G::Move> {
    let mut moves = pv.iter();
    known_line(pos, |_| moves.next().copied())
}

/// A line from `pos` as far as it is known: the moves `next` names, each from the position
/// the line has reached. It ends when `next` names none, after the first move with chance
/// (what follows depends on the outcome), and before any move that is not legal where it
/// stands (a table collision can leave one behind).
pub fn known_line<G: Game>(pos: &G, mut next: impl FnMut(&G) -> Option<G::Move>) -> Vec<G::Move> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    let mut chances = ChanceList::default();
    while let Some(m) = next(&p) {
        let mut list = MoveList::new();
        p.generate_moves(&mut list);
        if !list.contains(&m) {
            break;
        }
        out.push(m);
        chances.clear();
        if p.chance(m, &mut chances) {
            break;
        }
        p.make(m, NO_OUTCOME);
    }
    out
}

/// Iterative deepening on one worker: `lines` principal variations searched at each depth
/// (MultiPV), the first `reported` of them reported. Returns the lines of the last
/// complete iteration.
fn iterate<G: Game>(
    w: &mut Worker<'_, G>,
    max_depth: u32,
    lines: usize,
    reported: usize,
    limits: &Limits<G::Move>,
) -> Completed<G::Move> {
    let multipv = lines.min(w.root_moves.len()).max(1);
    let reported = reported.min(multipv);
    let mut completed = Completed {
        depth: 0,
        seldepth: 0,
        lines: Vec::new(),
    };
    let p = w.params.clone();
    let mut depth = 1u32;
    // Iterations in a row that ended with the same best move (time scaling).
    let (mut stable, mut last_best) = (0usize, None);
    while depth <= max_depth {
        // Odd helpers start one ply ahead and then search only even depths (2, 4, 6 ...),
        // so the threads fill the table with different subtrees instead of repeating
        // each other's work.
        let d = if w.id % 2 == 1 { depth + 1 } else { depth }.min(max_depth);
        w.root_depth = d as i32;
        w.seldepth = 0;
        for rm in w.root_moves.iter_mut() {
            rm.prev_score = rm.score;
        }
        for pv_idx in 0..multipv {
            let prev = w.root_moves[pv_idx].prev_score;
            let mut delta: Score = p.aspiration_delta;
            let (mut alpha, mut beta) = if w.features.aspiration
                && d as i32 >= p.aspiration_min_depth
                && prev.abs() < MATE_BOUND
            {
                ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
            } else {
                (-INFINITY, INFINITY)
            };
            loop {
                let score = w.root_search(d as i32, alpha, beta, pv_idx);
                w.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                if w.stopped {
                    break;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                } else if score >= beta {
                    beta = (score + delta).min(INFINITY);
                } else {
                    break;
                }
                if w.id == 0
                    && pv_idx < reported
                    && w.shared.time.elapsed().as_millis() > p.bound_lines_after_ms as u128
                {
                    report_lines(w, d, pv_idx, pv_idx + 1);
                }
                delta += delta;
                if delta > p.aspiration_max_delta {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            }
            w.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            if w.stopped {
                break;
            }
        }
        if w.stopped {
            break;
        }
        w.completed_depth = d;
        if w.id == 0 {
            completed = Completed {
                depth: d,
                seldepth: (w.seldepth as u32).max(d),
                lines: w.root_moves[..multipv]
                    .iter()
                    .map(|rm| (rm.score, rm.pv.clone()))
                    .collect(),
            };
            report_lines(w, d, 0, reported);
            let best = w.root_moves[0].mv;
            stable = if last_best == Some(best) {
                stable + 1
            } else {
                0
            };
            last_best = Some(best);
            let scale = if w.features.time_scaling {
                let share = w.root_moves[0].effort as f64 / w.nodes.max(1) as f64;
                TimeManager::scale_percent(&p, stable, share)
            } else {
                100
            };
            if main_should_stop(w, d, limits, scale) {
                break;
            }
        }
        depth = d + 1;
    }
    completed
}

/// Whether the main worker stops after completing `depth`; `scale` is the percent of the
/// soft limit this search may take (time scaling).
fn main_should_stop<G: Game>(
    w: &Worker<'_, G>,
    depth: u32,
    limits: &Limits<G::Move>,
    scale: u64,
) -> bool {
    let score = w.root_moves[0].score;
    if let Some(m) = limits.mate
        && score >= MATE - 2 * m as Score
    {
        return true;
    }
    // A weakened level's node budget is part of its definition: it holds in every mode.
    if let Some(budget) = w.shared.node_budget {
        w.publish_nodes();
        if w.shared.total_nodes() >= budget {
            return true;
        }
    }
    if limits.infinite || w.shared.control.pondering() {
        return false;
    }
    if w.shared.time.past_scaled_soft(scale) {
        return true;
    }
    // A proven result within the searched depth cannot change with more depth.
    let timed = w.shared.time.soft.is_some();
    timed && score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth
}

fn report_lines<G: Game>(w: &Worker<'_, G>, depth: u32, from: usize, to: usize) {
    w.publish_nodes();
    for i in from..to.min(w.root_moves.len()) {
        let rm = &w.root_moves[i];
        if rm.score == -INFINITY {
            continue;
        }
        let bound = if i == from && to == from + 1 {
            rm.bound
        } else {
            Bound::Exact
        };
        let pv = pv_until_chance(&w.pos, &rm.pv);
        let seldepth = (w.seldepth as u32).max(depth);
        (w.shared.report)(Report::Iteration(Info {
            stats: w.stats,
            ..info(w.shared, depth, seldepth, i + 1, rm.score, bound, pv)
        }));
        if bound == Bound::Exact {
            report_outcomes(w, depth, i);
        }
    }
}

/// The outcomes of root move `i` (when it has chance), each with its value and line.
fn report_outcomes<G: Game>(w: &Worker<'_, G>, depth: u32, i: usize) {
    let rm = &w.root_moves[i];
    let mut chances = ChanceList::default();
    if rm.outcomes.is_empty() || !w.pos.chance(rm.mv, &mut chances) {
        return;
    }
    let mut after = w.pos.clone();
    for line in &rm.outcomes {
        after.make(rm.mv, line.outcome);
        let pv = pv_until_chance(&after, &line.pv);
        after.unmake();
        (w.shared.report)(Report::Outcome(OutcomeInfo {
            depth,
            multipv: i + 1,
            mv: rm.mv,
            outcome: line.outcome,
            weight: line.weight,
            total: chances.total(),
            score: line.score,
            bound: line.bound,
            pv,
            reduction: line.reduction,
            nodes: line.nodes,
        }));
    }
}

/// One line of progress, with the search's node count, speed, table use and time now.
fn info<M>(
    shared: &Shared<'_, M>,
    depth: u32,
    seldepth: u32,
    multipv: usize,
    score: Score,
    bound: Bound,
    pv: Vec<M>,
) -> Info<M> {
    let elapsed = shared.time.elapsed();
    let nodes = shared.total_nodes();
    Info {
        depth,
        seldepth,
        multipv,
        score,
        bound,
        nodes,
        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        hashfull: shared.tt.hashfull(),
        time_ms: elapsed.as_millis() as u64,
        pv,
        stats: SearchStats::default(),
    }
}
