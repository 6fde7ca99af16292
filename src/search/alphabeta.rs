//! One search thread: principal-variation alpha-beta (negamax) with quiescence, chance
//! nodes (expectimax with Star1 bounds) for moves whose outcome is drawn at random, and
//! the pruning and reductions the `Features` switch on. Several workers run the same
//! iterative deepening over one shared transposition table (Lazy SMP, see `threads.rs`).

use super::ordering::{History, MAX_PLY, Picker};
use super::tt::{TranspositionTable, TtBound, score_from_tt, score_to_tt};
use super::{Control, Features};
use crate::eval::Evaluator;
use crate::game::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Largest score a chance node averages: an outcome worth more (a win, or a crushing
/// evaluation) counts as this much, so a mean of a mate and anything else stays an
/// evaluation, never a fake mate; and Star1's bounds on unsearched outcomes stay tight.
pub const CHANCE_BOUND: Score = 2_000;

fn bound_of(v: Score, alpha: Score, beta: Score) -> TtBound {
    if v <= alpha {
        TtBound::Upper
    } else if v >= beta {
        TtBound::Lower
    } else {
        TtBound::Exact
    }
}

pub fn outcome_score(o: Outcome, ply: usize) -> Score {
    match o {
        Outcome::Win => MATE - ply as Score,
        Outcome::Loss => -(MATE - ply as Score),
        Outcome::Draw => DRAW,
    }
}

/// Key of a chance node: the position before the reveal and the chosen move, salted so it
/// never collides with the key of a real position.
fn chance_key(pos_key: u64, mv: u16) -> u64 {
    let mut z = (mv as u64) ^ 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    pos_key ^ z ^ (z >> 31) ^ 0x5A5A_C4A7_CE00_0001
}

pub struct RootMove<M> {
    pub mv: M,
    pub score: Score,
    pub prev_score: Score,
    pub bound: super::Bound,
    pub pv: Vec<M>,
}

/// Stops shared by the workers: node budget and time checks happen on the main worker.
pub struct StopRules {
    pub node_limit: Option<u64>,
    pub time: super::time::TimeManager,
}

pub struct Worker<'a, G: Game> {
    pub id: usize,
    pub pos: G,
    /// This worker's evaluation, told of every move made and taken back.
    eval: G::Eval,
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub features: Features,
    pub stop_rules: &'a StopRules,
    /// Published node count of this worker (others read it for `nodes`/`nps`).
    pub shared_nodes: &'a AtomicU64,
    pub all_nodes: &'a [AtomicU64],
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub history: History,
    killers: Vec<[G::Move; 2]>,
    pv: Vec<[G::Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    eval_stack: [Score; MAX_PLY + 2],
    null_stack: [bool; MAX_PLY + 2],
    pub root_moves: Vec<RootMove<G::Move>>,
    pub completed_depth: u32,
    /// Depth of the iteration in progress: check extensions stop at twice this ply.
    pub root_depth: i32,
    lmr: Vec<[i32; 64]>,
    pub report: &'a (dyn Fn(super::Report) + Sync),
}

impl<'a, G: Game> Worker<'a, G> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        pos: G,
        eval: G::Eval,
        tt: &'a TranspositionTable,
        control: &'a Control,
        features: Features,
        stop_rules: &'a StopRules,
        shared_nodes: &'a AtomicU64,
        all_nodes: &'a [AtomicU64],
        root_moves: Vec<G::Move>,
        report: &'a (dyn Fn(super::Report) + Sync),
    ) -> Self {
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        Worker {
            id,
            pos,
            eval,
            tt,
            control,
            features,
            stop_rules,
            shared_nodes,
            all_nodes,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            history: History::new(G::HISTORY_SIZE),
            killers: vec![[G::Move::default(); 2]; MAX_PLY + 2],
            pv: vec![[G::Move::default(); MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            eval_stack: [0; MAX_PLY + 2],
            null_stack: [false; MAX_PLY + 2],
            root_moves: root_moves
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    score: -INFINITY,
                    prev_score: -INFINITY,
                    bound: super::Bound::Exact,
                    pv: vec![mv],
                })
                .collect(),
            completed_depth: 0,
            root_depth: 1,
            lmr,
            report,
        }
    }

    /// Play a move (with its chance outcome) on the worker's board and evaluation.
    #[inline(always)]
    fn make(&mut self, mv: G::Move, outcome: u8) {
        self.pos.make(mv, outcome);
        self.eval.push(&self.pos);
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake();
        self.eval.pop();
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.pos.make_null();
        self.eval.push(&self.pos);
    }
    #[inline(always)]
    fn unmake_null(&mut self) {
        self.pos.unmake_null();
        self.eval.pop();
    }

    pub fn total_nodes(&self) -> u64 {
        self.all_nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// Counts a node; every 1024 nodes publishes the count and checks the stop rules.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.id == 0
            && let Some(limit) = self.stop_rules.node_limit
            && self.total_nodes_fast() >= limit
        {
            self.control.stop();
        }
        if self.nodes & 1023 == 0 {
            self.shared_nodes.store(self.nodes, Ordering::Relaxed);
            if self.id == 0 && !self.control.pondering() && self.stop_rules.time.past_hard() {
                self.control.stop();
            }
        }
        if self.nodes & 255 == 0 && self.control.stopped() {
            self.stopped = true;
        }
    }

    #[inline]
    fn total_nodes_fast(&self) -> u64 {
        if self.all_nodes.len() == 1 {
            self.nodes
        } else {
            // Other workers publish every 1024 nodes; close enough for a node budget.
            self.total_nodes() - self.shared_nodes.load(Ordering::Relaxed) + self.nodes
        }
    }

    pub fn publish_nodes(&self) {
        self.shared_nodes.store(self.nodes, Ordering::Relaxed);
    }

    /// Search the root moves from `pv_idx` on with the window (alpha, beta); each root move
    /// gets its score (or -INFINITY when it did not raise alpha) for the next ordering.
    pub fn root_search(
        &mut self,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        pv_idx: usize,
    ) -> Score {
        self.pv_len[0] = 0;
        let mut best = -INFINITY;
        let mut chances = ChanceList::default();
        let in_check = self.pos.in_check();
        for i in pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.id == 0 && depth > 1 && self.stop_rules.time.elapsed().as_millis() > 1000 {
                (self.report)(super::Report::CurrMove {
                    depth: depth as u32,
                    mv: self.pos.move_to_string(mv),
                    number: i + 1,
                });
            }
            chances.clear();
            let has_chance = self.pos.chance(mv, &mut chances);
            let searched = i - pv_idx;
            let r = if searched > 0
                && self.features.lmr
                && depth >= 3
                && searched >= 3
                && !in_check
                && !self.pos.is_noisy(mv)
            {
                (self.lmr[(depth as usize).min(63)][searched.min(63)] - 1).max(0)
            } else {
                0
            };
            let score = self.pvs_value(
                mv,
                has_chance,
                &chances,
                depth,
                alpha,
                beta,
                0,
                true,
                false,
                searched == 0,
                r,
            );
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if searched == 0 || score > alpha {
                rm.score = score;
                rm.bound = if score >= beta {
                    super::Bound::Lower
                } else if score <= alpha {
                    super::Bound::Upper
                } else {
                    super::Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(mv);
                if !has_chance {
                    rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                }
            } else {
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Principal-variation search of one move at a node of `depth`: the first move with
    /// the full window; later ones with a null window at depth reduced by `r`, again at
    /// full depth if that beats alpha, and at a PV node with the full window if the value
    /// lands inside it.
    #[allow(clippy::too_many_arguments)]
    fn pvs_value(
        &mut self,
        mv: G::Move,
        has_chance: bool,
        chances: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        first: bool,
        r: i32,
    ) -> Score {
        let d = depth - 1;
        if first {
            return self.move_value(mv, has_chance, chances, d, alpha, beta, ply, pv_node, false);
        }
        let mut score = self.move_value(
            mv,
            has_chance,
            chances,
            d - r,
            alpha,
            alpha + 1,
            ply,
            false,
            true,
        );
        if score > alpha && r > 0 {
            score = self.move_value(
                mv,
                has_chance,
                chances,
                d,
                alpha,
                alpha + 1,
                ply,
                false,
                !cut_node,
            );
        }
        if pv_node && score > alpha && score < beta {
            score = self.move_value(mv, has_chance, chances, d, alpha, beta, ply, true, false);
        }
        score
    }

    /// Value of playing `mv` here, from the mover's view, searched with (alpha, beta) and
    /// the child at `depth`: a plain child, or a chance node over the move's outcomes.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn move_value(
        &mut self,
        mv: G::Move,
        has_chance: bool,
        chances: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Score {
        if has_chance {
            self.chance_value(mv, chances, depth, alpha, beta, ply)
        } else {
            self.make(mv, NO_OUTCOME);
            self.tt.prefetch(self.pos.key());
            let s = -self.search(depth, -beta, -alpha, ply + 1, pv_node, cut_node);
            self.unmake();
            s
        }
    }

    /// Expectimax over the outcomes of `mv`, weights = chance counts.
    ///
    /// The value is the weighted mean of the outcomes' values clamped to ±CHANCE_BOUND
    /// (a won or lost outcome counts as ±CHANCE_BOUND), except that when every outcome
    /// wins (loses) the node is that result: the slowest win (longest loss), so forced
    /// mates stay exact. Because clamped values live in [-B, B], each outcome is searched
    /// with a window inside [-B-1, B+1] (a value beyond it clamps exactly), and with
    /// pruning on the window is Star1's: only what could still move the mean across
    /// (alpha, beta), assuming unsearched outcomes at ±B; the node cuts off as soon as
    /// the mean is decided.
    #[allow(clippy::too_many_arguments)]
    fn chance_value(
        &mut self,
        mv: G::Move,
        chances: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let ckey = chance_key(self.pos.key(), mv.to_u16());
        if let Some(hit) = self.tt.probe(ckey)
            && hit.depth >= depth
        {
            let s = score_from_tt(hit.score, ply + 1);
            match hit.bound {
                TtBound::Exact => return s,
                TtBound::Lower if s >= beta => return s,
                TtBound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let mut outcomes = *chances;
        // Likely outcomes first: they move the mean most, so cutoffs come sooner.
        outcomes.sort_by_weight();
        let (value, bound) = if alpha >= CHANCE_BOUND || beta <= -CHANCE_BOUND {
            self.chance_decisive(mv, &outcomes, depth, alpha, beta, ply)
        } else {
            self.chance_mean(mv, &outcomes, depth, alpha, beta, ply)
        };
        if self.stopped {
            return 0;
        }
        // A chance node has no single continuation to show.
        self.pv_len[ply + 1] = ply + 1;
        self.tt
            .store(ckey, 0, score_to_tt(value, ply + 1), 0, depth, bound);
        value
    }

    /// The chance node when (alpha, beta) lies inside the clamped range somewhere.
    ///
    /// With pruning on, each outcome j carries bounds [lo_j, hi_j] on its clamped value,
    /// ±B at first. At a null-window node a probe pass first asks of every outcome only
    /// "above alpha?" with a null window (cheap, and the answers tighten the bounds); the
    /// node is decided as soon as the mean of the upper bounds is <= alpha or the mean of
    /// the lower bounds is >= beta. What is left is Star1 with those bounds in place of
    /// ±B: each outcome is searched with the window that could still move the mean across
    /// (alpha, beta). With pruning off every outcome gets the window [-B-1, B+1].
    fn chance_mean(
        &mut self,
        mv: G::Move,
        outcomes: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, TtBound) {
        let cb = CHANCE_BOUND as i64;
        let n = outcomes.len();
        let total = outcomes.total() as i64;
        let star = self.features.chance_pruning;
        let (a, b) = ((alpha as i64).max(-cb - 1), (beta as i64).min(cb + 1));
        let w: [i64; 8] = std::array::from_fn(|k| {
            if k < n {
                outcomes.as_slice()[k].1 as i64
            } else {
                0
            }
        });
        let mut lo = [-cb; 8];
        let mut hi = [cb; 8];
        // Weighted sums of the bounds; the mean is decided once one crosses the window.
        let mut sum_lo: i64 = -cb * total;
        let mut sum_hi: i64 = cb * total;
        if star && b - a == 1 {
            for k in 0..n {
                let o = outcomes.as_slice()[k].0;
                self.make(mv, o);
                let v = -self.search(
                    depth,
                    -(a as Score + 1),
                    -(a as Score),
                    ply + 1,
                    false,
                    false,
                ) as i64;
                self.unmake();
                if self.stopped {
                    return (0, TtBound::None);
                }
                if v > a {
                    let l = v.min(cb);
                    sum_lo += w[k] * (l - lo[k]);
                    lo[k] = l;
                } else {
                    let h = v.max(-cb);
                    sum_hi += w[k] * (h - hi[k]);
                    hi[k] = h;
                }
                if sum_hi <= total * a {
                    return (sum_hi.div_euclid(total) as Score, TtBound::Upper);
                }
                if sum_lo >= total * b {
                    return (sum_lo.div_euclid(total) as Score, TtBound::Lower);
                }
            }
        }
        let (mut all_high, mut all_low) = (true, true);
        for k in 0..n {
            let o = outcomes.as_slice()[k].0;
            // Bounds of the others: exact for those done, [lo, hi] for those to come.
            let others_hi = sum_hi - w[k] * hi[k];
            let others_lo = sum_lo - w[k] * lo[k];
            let (ai, bi) = if star {
                (
                    (total * a - others_hi).div_euclid(w[k]),
                    -((-(total * b - others_lo)).div_euclid(w[k])),
                )
            } else {
                (-cb - 1, cb + 1)
            };
            if ai >= hi[k] {
                return (
                    (others_hi + w[k] * hi[k]).div_euclid(total) as Score,
                    TtBound::Upper,
                );
            }
            if bi <= lo[k] {
                return (
                    (others_lo + w[k] * lo[k]).div_euclid(total) as Score,
                    TtBound::Lower,
                );
            }
            let ai = ai.max(lo[k] - 1).max(-cb - 1) as Score;
            let bi = bi.min(hi[k] + 1).min(cb + 1) as Score;
            self.make(mv, o);
            let v = -self.search(depth, -bi, -ai, ply + 1, bi - ai > 1, false);
            self.unmake();
            if self.stopped {
                return (0, TtBound::None);
            }
            all_high &= v > CHANCE_BOUND;
            all_low &= v < -CHANCE_BOUND;
            let cv = v.clamp(-CHANCE_BOUND, CHANCE_BOUND) as i64;
            // Inside (ai, bi) the value is exact; at or beyond an edge it is a bound that
            // decides the mean, unless the edge is ±B+1, where the clamp makes it exact.
            let (l, h) = if v <= ai && ai > -CHANCE_BOUND - 1 {
                (lo[k], cv)
            } else if v >= bi && bi < CHANCE_BOUND + 1 {
                (cv, hi[k])
            } else {
                (cv, cv)
            };
            sum_lo += w[k] * (l - lo[k]);
            sum_hi += w[k] * (h - hi[k]);
            lo[k] = l;
            hi[k] = h;
            if sum_hi <= total * a {
                return (sum_hi.div_euclid(total) as Score, TtBound::Upper);
            }
            if sum_lo >= total * b {
                return (sum_lo.div_euclid(total) as Score, TtBound::Lower);
            }
        }
        if all_high || all_low {
            // Every outcome is beyond the range: maybe all won (lost). Resolve exactly;
            // if not all decided, the mean is exactly ±B, which the resolver returns as
            // its window edge.
            let (l, h) = if all_high {
                (CHANCE_BOUND, INFINITY)
            } else {
                (-INFINITY, -CHANCE_BOUND)
            };
            let (v, _) = self.chance_decisive(mv, outcomes, depth, l, h, ply);
            return (v, bound_of(v, alpha, beta));
        }
        // Every outcome is exact here (a bound crossing the window returned above).
        let v = sum_lo.div_euclid(total) as Score;
        (v, bound_of(v, alpha, beta))
    }

    /// The chance node when the window lies beyond the clamped range (alpha >= B or
    /// beta <= -B): only "every outcome wins" (or loses) can put the value there.
    fn chance_decisive(
        &mut self,
        mv: G::Move,
        outcomes: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, TtBound) {
        let (mut lo, mut hi) = (INFINITY, -INFINITY);
        let (mut all_win, mut all_loss) = (true, true);
        for &(o, _) in outcomes.as_slice() {
            self.make(mv, o);
            let v = -self.search(depth, -beta, -alpha, ply + 1, beta - alpha > 1, false);
            self.unmake();
            if self.stopped {
                return (0, TtBound::None);
            }
            lo = lo.min(v);
            hi = hi.max(v);
            all_win &= v >= MATE_BOUND;
            all_loss &= v <= -MATE_BOUND;
            if alpha >= CHANCE_BOUND && !all_win {
                // Not every outcome wins: the value is the clamped mean, at most B <= alpha.
                return (alpha, TtBound::Upper);
            }
            if beta <= -CHANCE_BOUND && !all_loss {
                return (beta, TtBound::Lower);
            }
        }
        // Every outcome won (lost) within the window's view: the slowest win (longest
        // loss); a bound when some outcome only failed high (low).
        let v = if all_win {
            lo
        } else if all_loss {
            hi
        } else {
            lo.clamp(-CHANCE_BOUND, CHANCE_BOUND)
        };
        (v, bound_of(v, alpha, beta))
    }

    /// A chance move inside quiescence: the weighted mean of the static evaluations after
    /// each outcome. Expanding reveals recursively here multiplies the capture tree by the
    /// pool size at every capture (a revealing capture is answered by further revealing
    /// captures), which explodes; the full search expands them exactly instead.
    fn chance_static(&mut self, mv: G::Move, chances: &ChanceList, ply: usize) -> Score {
        let total = chances.total() as i64;
        let mut sum = 0i64;
        for &(o, w) in chances.as_slice() {
            self.make(mv, o);
            self.nodes += 1;
            let v = match self.pos.immediate_result() {
                Some(r) => -outcome_score(r, ply + 1),
                None => -self.eval.evaluate(&self.pos),
            };
            self.unmake();
            sum += w as i64 * v.clamp(-CHANCE_BOUND, CHANCE_BOUND) as i64;
        }
        sum.div_euclid(total.max(1)) as Score
    }

    /// Negamax alpha-beta with principal-variation search. Scores are from the side to
    /// move's view; `ply` counts from the root.
    pub fn search(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Score {
        // Chance nodes hand their outcomes arbitrary windows: any window wider than null
        // needs an exact answer inside it, so it is searched as a PV node.
        let pv_node = pv_node || beta - alpha > 1;
        if pv_node {
            self.pv_len[ply] = ply;
        }
        if ply >= MAX_PLY - 2 {
            return self.eval.evaluate(&self.pos);
        }
        if let Some(o) = self.pos.immediate_result() {
            return outcome_score(o, ply);
        }
        if self.pos.is_search_draw() {
            return DRAW;
        }
        // Mate-distance pruning: no line from here beats a mate already found closer.
        alpha = alpha.max(-(MATE - ply as Score));
        beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.pos.in_check();
        let depth = if in_check && (ply as i32) < 2 * self.root_depth {
            depth.max(0) + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        let tt_move = hit.map_or(G::Move::default(), |h| G::Move::from_u16(h.mv));
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
        {
            let s = score_from_tt(h.score, ply);
            match h.bound {
                TtBound::Exact => return s,
                TtBound::Lower if s >= beta => return s,
                TtBound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| self.eval.evaluate(&self.pos), |h| h.eval)
        };
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];

        if !pv_node && !in_check {
            // Reverse futility: far above beta with little depth left, trust the eval.
            if self.features.futility
                && depth <= 6
                && static_eval.abs() < MATE_BOUND
                && beta.abs() < MATE_BOUND
                && static_eval - 80 * (depth - improving as i32) >= beta
            {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move surely would.
            if self.features.null_move
                && depth >= 3
                && static_eval >= beta
                && !self.null_stack[ply]
                && beta > -MATE_BOUND
                && self.pos.null_move_ok()
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.make_null();
                self.null_stack[ply + 1] = true;
                let s = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false, !cut_node);
                self.null_stack[ply + 1] = false;
                self.unmake_null();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        self.null_stack[ply + 1] = false;

        let mut list = MoveList::new();
        self.pos.generate_moves(&mut list);
        if list.is_empty() {
            return outcome_score(self.pos.no_moves_result(), ply);
        }
        let mut picker = Picker::new(
            &self.pos,
            &self.eval,
            list,
            tt_move,
            self.killers[ply],
            &self.history,
        );
        let side = self.pos.side_to_move();
        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = G::Move::default();
        let mut searched = 0usize;
        let mut quiets: MoveList<G::Move> = MoveList::new();
        let mut chances = ChanceList::default();
        while let Some(mv) = picker.pick() {
            let noisy = self.pos.is_noisy(mv);
            // Not while a mate is the bar to beat: a shorter mate may hide in the tail.
            if searched > 0 && !in_check && best > -MATE_BOUND && alpha.abs() < MATE_BOUND && !noisy
            {
                // Futility: a quiet move cannot lift a hopeless eval this close to the leaves.
                if self.features.futility && depth <= 5 && static_eval + 120 + 100 * depth <= alpha
                {
                    continue;
                }
                // Late-move pruning: the quiet tail at shallow depth is rarely worth it.
                if self.features.futility
                    && !pv_node
                    && depth <= 4
                    && quiets.len() >= (4 + 3 * depth * depth) as usize / (2 - improving as usize)
                {
                    continue;
                }
            }
            chances.clear();
            let has_chance = self.pos.chance(mv, &mut chances);
            let r = if searched > 0
                && self.features.lmr
                && depth >= 3
                && searched >= 2 + pv_node as usize
                && !noisy
                && !in_check
            {
                let mut r = self.lmr[(depth as usize).min(63)][searched.min(63)];
                r -= pv_node as i32;
                r += cut_node as i32;
                r -= (self.history.get(side, self.pos.history_index(mv)) / 8192).clamp(-1, 1);
                r.clamp(0, depth - 2)
            } else {
                0
            };
            let score = self.pvs_value(
                mv,
                has_chance,
                &chances,
                depth,
                alpha,
                beta,
                ply,
                pv_node,
                cut_node,
                searched == 0,
                r,
            );
            if self.stopped {
                return 0;
            }
            searched += 1;
            if !noisy && quiets.len() < 64 {
                quiets.push(mv);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if pv_node {
                        self.pv[ply][ply] = mv;
                        let child_len = if has_chance {
                            ply + 1
                        } else {
                            self.pv_len[ply + 1]
                        };
                        for i in ply + 1..child_len {
                            self.pv[ply][i] = self.pv[ply + 1][i];
                        }
                        self.pv_len[ply] = child_len.max(ply + 1);
                    }
                    if score >= beta {
                        if !noisy {
                            self.reward_quiet(mv, &quiets, depth, ply, side);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every move was pruned: fall back to the static eval as an upper bound.
            return static_eval.min(alpha);
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if best > orig_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.tt.store(
            key,
            best_move.to_u16(),
            score_to_tt(best, ply),
            if in_check { 0 } else { static_eval },
            depth,
            bound,
        );
        best
    }

    fn reward_quiet(
        &mut self,
        mv: G::Move,
        quiets: &MoveList<G::Move>,
        depth: i32,
        ply: usize,
        side: usize,
    ) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let bonus = (depth * depth * 16).min(1600);
        for &q in quiets.iter() {
            let idx = self.pos.history_index(q);
            if q == mv {
                self.history.update(side, idx, bonus);
            } else {
                self.history.update(side, idx, -bonus);
            }
        }
    }

    /// Quiescence: captures (and promotions) until the position is quiet; when the side to
    /// move is in check (or its zero is threatened) every move is tried, for a few plies.
    fn qsearch(&mut self, mut alpha: Score, beta: Score, ply: usize, qply: usize) -> Score {
        self.tick();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(o) = self.pos.immediate_result() {
            return outcome_score(o, ply);
        }
        if ply >= MAX_PLY - 2 {
            return self.eval.evaluate(&self.pos);
        }
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        if let Some(h) = hit {
            let s = score_from_tt(h.score, ply);
            match h.bound {
                TtBound::Exact => return s,
                TtBound::Lower if s >= beta => return s,
                TtBound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let in_check = qply < 4 && self.pos.in_check();
        let mut best = -INFINITY;
        let stand_pat = if in_check {
            -INFINITY
        } else {
            let e = hit.map_or_else(|| self.eval.evaluate(&self.pos), |h| h.eval);
            if e >= beta {
                return e;
            }
            alpha = alpha.max(e);
            best = e;
            e
        };
        let mut list = MoveList::new();
        if in_check {
            self.pos.generate_moves(&mut list);
            if list.is_empty() {
                return outcome_score(self.pos.no_moves_result(), ply);
            }
        } else {
            self.pos.generate_noisy(&mut list);
        }
        let tt_move = hit.map_or(G::Move::default(), |h| G::Move::from_u16(h.mv));
        let mut picker = Picker::noisy(&self.pos, &self.eval, list, tt_move);
        let mut chances = ChanceList::default();
        let mut best_move = G::Move::default();
        while let Some(mv) = picker.pick() {
            chances.clear();
            let score = if self.pos.chance(mv, &mut chances) {
                self.chance_static(mv, &chances, ply)
            } else {
                self.make(mv, NO_OUTCOME);
                let s = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
                self.unmake();
                s
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = mv;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else {
            TtBound::Upper
        };
        if best > -INFINITY {
            self.tt.store(
                key,
                best_move.to_u16(),
                score_to_tt(best, ply),
                if in_check { 0 } else { stand_pat },
                0,
                bound,
            );
        }
        best
    }
}
