//! Chance nodes: a move whose outcome is drawn at random (a face-down piece's reveal) is
//! valued by expectimax over its outcomes, with Star1 bounds and a probing pass so that
//! most outcomes need only a bound; forced wins and losses through chance stay exact.
//! Inside quiescence a chance move is valued by the mean of its outcomes' static
//! evaluations instead (`chance_static`).

use super::Bound;
use super::alphabeta::{NodeType, NonPv, Pv, Step, outcome_score};
use super::ordering::MAX_PLY;
use super::stats::REDUCTION_BUCKETS;
use super::threads::known_line;
use super::tt::{TtBound, score_to_tt};
use super::worker::{OUTCOME_STATICS, OutcomeLine, Worker};
use crate::eval::Evaluator;
use crate::game::*;

/// Key of a chance node: the position before the reveal and the chosen move, salted so it
/// never collides with the key of a real position.
fn chance_key(pos_key: u64, mv: u16) -> u64 {
    pos_key ^ mix(mv as u64) ^ 0x5A5A_C4A7_CE00_0001
}

/// SplitMix64's finaliser: a well-spread 64-bit hash of `x`.
fn mix(x: u64) -> u64 {
    let mut z = x ^ 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Key of a chance move's outcome statics for `Search_ChanceSingle`: the move, the side
/// making it (the ply's parity) and its outcomes with their weights (the pool they come
/// from), but not the rest of the position. What the outcomes change against one another
/// is mostly the revealed piece's own value on its square, so the statics are shared by
/// every position of the search where the same move draws from the same pool; evaluating
/// every outcome at every chance node instead cost three quarters of the nodes.
fn statics_key(mv: u16, outcomes: &ChanceList, ply: usize) -> u64 {
    let mut h = mix(mv as u64 | ((ply as u64 & 1) << 16));
    for &(o, w) in outcomes.as_slice() {
        h = mix(h ^ ((o as u64) << 16 | w as u64));
    }
    h
}

/// The outcome whose value is nearest the mean of all, the earlier (more likely) on a tie:
/// the one `Search_ChanceSingle` searches.
fn nearest_mean(values: &[Score], mean: Score) -> usize {
    (0..values.len())
        .min_by_key(|&k| (values[k] - mean).abs())
        .unwrap_or(0)
}

/// The window (alpha, beta) of a chance node as its one searched outcome sees it: the
/// outcome's value plus `shift` is the node's estimate.
fn shifted_window(alpha: Score, beta: Score, shift: Score) -> (Score, Score) {
    (
        (alpha - shift).clamp(-INFINITY, INFINITY),
        (beta - shift).clamp(-INFINITY, INFINITY),
    )
}

impl<'a, G: Game> Worker<'a, G> {
    /// Expectimax over the outcomes of the step's move, weights = chance counts.
    ///
    /// The value is the weighted mean of the outcomes' values clamped to ±B (the
    /// `ChanceBound` parameter: a won or lost outcome counts as ±B, so a mean of a mate
    /// and anything else stays an evaluation, never a fake mate), except that when every
    /// outcome wins (loses) the node is that result: the slowest win (longest loss), so
    /// forced mates stay exact. Because clamped values live in [-B, B], each outcome is
    /// searched with a window inside [-B-1, B+1] (a value beyond it clamps exactly), and
    /// with pruning on the window is Star1's: only what could still move the mean across
    /// (alpha, beta), assuming unsearched outcomes at ±B; the node cuts off as soon as
    /// the mean is decided.
    pub(super) fn chance_value<NT: NodeType>(
        &mut self,
        step: &Step<G::Move>,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let mv = step.mv;
        self.stats.chance_nodes += 1;
        if ply == 0 {
            self.root_outcomes.clear();
        }
        let ckey = chance_key(self.pos.key(), mv.to_u16());
        // A verification must search the outcomes: the table's entry may be the estimate
        // it verifies.
        let exact = std::mem::take(&mut self.exact_chance);
        // A root move on the principal variation is searched for its outcomes' lines.
        if let Some(hit) = self.shared.tt.probe(ckey)
            && !exact
            && !(NT::PV && ply == 0)
            && hit.depth >= depth
            && let Some(s) = hit.cutoff(alpha, beta, ply + 1)
        {
            self.stats.chance_tt_cuts += 1;
            return s;
        }
        let mut outcomes = step.chances;
        // Likely outcomes first: they move the mean most, so cutoffs come sooner.
        outcomes.sort_by_weight();
        let b = self.params.chance_bound;
        // Below the root, `Search_ChanceSingle` may value a real choice of outcomes by an
        // estimate instead of searching every one.
        let estimate = ply > 0 && !exact && self.features.chance_single && outcomes.len() > 1;
        let (value, bound) = if !NT::PV && depth <= self.params.chance_static_depth {
            // The same whatever the window.
            (self.chance_static(mv, &outcomes, ply), TtBound::Exact)
        } else if alpha >= b || beta <= -b {
            self.chance_decisive(mv, &outcomes, depth, alpha, beta, ply)
        } else if estimate
            && (!NT::PV || (1..=ply as i32).contains(&self.params.chance_single_pv))
            && depth >= self.params.chance_single_min_depth
        {
            self.chance_single::<NT>(mv, &outcomes, depth, alpha, beta, ply)
        } else if estimate && NT::PV && self.params.chance_pv_predict != 0 {
            self.chance_predicted(mv, &outcomes, depth, alpha, beta, ply)
        } else {
            self.chance_mean::<NT>(mv, &outcomes, depth, alpha, beta, ply)
        };
        if self.stopped {
            return 0;
        }
        // A chance node has no single continuation to show.
        self.pv_len[ply + 1] = ply + 1;
        self.shared
            .tt
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
    fn chance_mean<NT: NodeType>(
        &mut self,
        mv: G::Move,
        outcomes: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, TtBound) {
        let bound = self.params.chance_bound;
        let cb = bound as i64;
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
        // The mean is taken of W(value) (see `mean.rs`); the node's value is F(sum).
        let m = &self.chance_mean;
        let (w_a, w_b) = (total * m.w(a), total * m.w(b));
        let mut lo = [-cb; 8];
        let mut hi = [cb; 8];
        // Weighted sums of W of the bounds; the mean is decided once one crosses the window.
        let mut sum_lo: i64 = m.w(-cb) * total;
        let mut sum_hi: i64 = m.w(cb) * total;
        let reductions = self.outcome_reductions::<NT>(outcomes, depth, ply);
        if star && b - a == 1 {
            let mut probe_sum = 0i64;
            for k in 0..n {
                let o = outcomes.as_slice()[k].0;
                self.make(mv, o);
                let d = self.outcome_depth(depth, reductions[k]);
                let v = -self.search::<NonPv>(d, -(a as Score + 1), -(a as Score), ply + 1, false)
                    as i64;
                self.unmake();
                if self.stopped {
                    return (0, TtBound::None);
                }
                let m = &self.chance_mean;
                probe_sum += w[k] * m.w(v.clamp(-cb, cb));
                if v > a {
                    let l = v.min(cb);
                    sum_lo += w[k] * (m.w(l) - m.w(lo[k]));
                    lo[k] = l;
                } else {
                    let h = v.max(-cb);
                    sum_hi += w[k] * (m.w(h) - m.w(hi[k]));
                    hi[k] = h;
                }
                if sum_hi <= w_a {
                    self.stats.probe_cuts += 1;
                    return (m.value(sum_hi, total), TtBound::Upper);
                }
                if sum_lo >= w_b {
                    self.stats.probe_cuts += 1;
                    return (m.value(sum_lo, total), TtBound::Lower);
                }
            }
            if depth <= self.params.chance_estimate_depth {
                // Undecided: take the mean of the probes' answers as the value.
                let v = self.chance_mean.value(probe_sum, total);
                let bound = if v as i64 > a {
                    TtBound::Lower
                } else {
                    TtBound::Upper
                };
                return (v, bound);
            }
        }
        let (mut all_high, mut all_low) = (true, true);
        for k in 0..n {
            let o = outcomes.as_slice()[k].0;
            let m = &self.chance_mean;
            // Bounds of the others: exact for those done, [lo, hi] for those to come.
            let others_hi = sum_hi - w[k] * m.w(hi[k]);
            let others_lo = sum_lo - w[k] * m.w(lo[k]);
            // At or below ai this outcome decides a fail low, at or above bi a fail high.
            let (ai, bi) = if star {
                (
                    m.floor_inv((w_a - others_hi).div_euclid(w[k])),
                    m.ceil_inv(-((others_lo - w_b).div_euclid(w[k]))),
                )
            } else {
                (-cb - 1, cb + 1)
            };
            if ai >= hi[k] {
                self.stats.star1_cuts += 1;
                return (
                    m.value(others_hi + w[k] * m.w(hi[k]), total),
                    TtBound::Upper,
                );
            }
            if bi <= lo[k] {
                self.stats.star1_cuts += 1;
                return (
                    m.value(others_lo + w[k] * m.w(lo[k]), total),
                    TtBound::Lower,
                );
            }
            let ai = ai.max(lo[k] - 1).max(-cb - 1) as Score;
            let bi = bi.min(hi[k] + 1).min(cb + 1) as Score;
            let nodes_before = self.nodes;
            self.make(mv, o);
            let d = self.outcome_depth(depth, reductions[k]);
            // On the principal variation the most likely outcome continues it; at the
            // root every outcome does (`ChanceRootPv`), so that each one's line is the
            // search's own.
            let pv_outcome = k == 0 || (ply == 0 && self.params.chance_root_pv != 0);
            let on_pv = NT::PV && self.features.chance_nonpv && pv_outcome;
            if ply == 0 {
                self.pv_len[1] = 1;
            }
            let v = if on_pv {
                -self.search::<Pv>(d, -bi, -ai, ply + 1, false)
            } else {
                -self.search::<NonPv>(d, -bi, -ai, ply + 1, false)
            };
            if ply == 0 && NT::PV && self.features.chance_nonpv && !pv_outcome {
                // A root outcome searched off the principal variation: its line is the
                // table's.
                self.table_line_at_root_outcome();
            }
            self.unmake();
            if self.stopped {
                return (0, TtBound::None);
            }
            all_high &= v > bound;
            all_low &= v < -bound;
            let cv = v.clamp(-bound, bound) as i64;
            // Inside (ai, bi) the value is exact; at or beyond an edge it is a bound that
            // decides the mean, unless the edge is ±B+1, where the clamp makes it exact.
            let (l, h) = if v <= ai && ai > -bound - 1 {
                (lo[k], cv)
            } else if v >= bi && bi < bound + 1 {
                (cv, hi[k])
            } else {
                (cv, cv)
            };
            if ply == 0 {
                let bound = if l == h {
                    TtBound::Exact
                } else if l == lo[k] {
                    TtBound::Upper
                } else {
                    TtBound::Lower
                };
                self.note_root_outcome(o, w[k] as u16, v, bound, depth - d, nodes_before);
            }
            let m = &self.chance_mean;
            sum_lo += w[k] * (m.w(l) - m.w(lo[k]));
            sum_hi += w[k] * (m.w(h) - m.w(hi[k]));
            lo[k] = l;
            hi[k] = h;
            if sum_hi <= w_a {
                self.stats.star1_cuts += (k + 1 < n) as u64;
                return (m.value(sum_hi, total), TtBound::Upper);
            }
            if sum_lo >= w_b {
                self.stats.star1_cuts += (k + 1 < n) as u64;
                return (m.value(sum_lo, total), TtBound::Lower);
            }
        }
        if all_high || all_low {
            // Every outcome is beyond the range: maybe all won (lost). Resolve exactly;
            // if not all decided, the mean is exactly ±B, which the resolver returns as
            // its window edge.
            let (l, h) = if all_high {
                (bound, INFINITY)
            } else {
                (-INFINITY, -bound)
            };
            let (v, _) = self.chance_decisive(mv, outcomes, depth, l, h, ply);
            return (v, TtBound::of(v, alpha, beta));
        }
        // Every outcome is exact here (a bound crossing the window returned above).
        let v = self.chance_mean.value(sum_lo, total);
        (v, TtBound::of(v, alpha, beta))
    }

    /// `Search_ChanceSingle`: the node's value estimated from one outcome alone, searched
    /// to full depth, plus the static difference between the mean of every outcome and
    /// that one. The outcome is the one whose static value is nearest the mean (the more
    /// likely on a tie), not simply the most likely: the difference is added to the whole
    /// line, so it must stay small. (With the most likely, a pawn from the start pool, a
    /// revealed piece left en prise cost a pawn in the line but kept the +160 the other
    /// types add: the search valued hanging reveals by that much too well.) The estimate
    /// stays inside ±B: one outcome's mate is no forced mate of the node. On the principal
    /// variation (`ChanceSinglePv`) the outcome is searched as a PV node.
    fn chance_single<NT: NodeType>(
        &mut self,
        mv: G::Move,
        outcomes: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, TtBound) {
        self.stats.single_outcome += 1;
        let bound = self.params.chance_bound;
        let (rep, shift) = self.single_outcome(mv, outcomes, depth, ply);
        let (a, b) = shifted_window(alpha, beta, shift);
        self.make(mv, rep);
        let d = self.outcome_depth(depth, 0);
        let v = if NT::PV {
            -self.search::<Pv>(d, -b, -a, ply + 1, false)
        } else {
            -self.search::<NonPv>(d, -b, -a, ply + 1, false)
        };
        self.unmake();
        if self.stopped {
            return (0, TtBound::None);
        }
        let v = (v + shift).clamp(-bound, bound);
        (v, TtBound::of(v, alpha, beta))
    }

    /// `ChancePvPredict`: a chance node on the principal variation valued by its most
    /// likely outcome searched as a PV node (with the window shifted by the static
    /// difference to the mean) and every other outcome searched with a null window at its
    /// prediction, the first's value plus their static difference; the node's value is
    /// the weighted mean of those answers (fail-soft bounds near the predictions; one that
    /// lands more than `ChancePvPredictMargin` from its prediction is searched again with
    /// the full window), an estimate inside ±B.
    fn chance_predicted(
        &mut self,
        mv: G::Move,
        outcomes: &ChanceList,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, TtBound) {
        self.stats.predicted += 1;
        let bound = self.params.chance_bound;
        let margin = self.params.chance_pv_predict_margin;
        let (mean, statics) = self.outcome_values(mv, outcomes, ply, false);
        let shift = mean - statics[0];
        let (a, b) = shifted_window(alpha, beta, shift);
        let total = outcomes.total() as i64;
        let mut sum = 0i64;
        let mut v0 = 0;
        for (k, &(o, w)) in outcomes.as_slice().iter().enumerate() {
            self.make(mv, o);
            let d = self.outcome_depth(depth, 0);
            let v = if k == 0 {
                v0 = -self.search::<Pv>(d, -b, -a, ply + 1, false);
                v0
            } else {
                let p = (v0 + statics[k] - statics[0]).clamp(-bound, bound);
                let v = -self.search::<NonPv>(d, -p, -(p - 1), ply + 1, false);
                if margin > 0 && !self.stopped && (v - p).abs() > margin {
                    self.stats.predict_researches += 1;
                    -self.search::<NonPv>(d, -bound - 1, bound + 1, ply + 1, false)
                } else {
                    v
                }
            };
            self.unmake();
            if self.stopped {
                return (0, TtBound::None);
            }
            sum += w as i64 * self.chance_mean.w(v.clamp(-bound, bound) as i64);
        }
        let v = self.chance_mean.value(sum, total);
        (v, TtBound::of(v, alpha, beta))
    }

    /// A chance move inside quiescence under `Search_ChanceSingleQsearch`: the outcome
    /// `chance_single` would search, searched on by quiescence, plus its shift. Unlike
    /// the static mean (`chance_static`) it sees the recapture of the revealed piece, and
    /// it evaluates one position instead of one per outcome; one outcome per capture
    /// does not multiply the capture tree by the pool.
    pub(super) fn qsearch_single(
        &mut self,
        mv: G::Move,
        outcomes: &mut ChanceList,
        alpha: Score,
        beta: Score,
        ply: usize,
        qply: usize,
    ) -> Score {
        // The order `chance_value` gives them, so that both share the cached statics.
        outcomes.sort_by_weight();
        let (rep, shift) = self.single_outcome(mv, outcomes, 0, ply);
        let (a, b) = shifted_window(alpha, beta, shift);
        self.make(mv, rep);
        let v = -self.qsearch(-b, -a, ply + 1, qply + 1);
        self.unmake();
        (v + shift).clamp(-self.params.chance_bound, self.params.chance_bound)
    }

    /// The outcome of a chance move that `Search_ChanceSingle` searches (the one whose
    /// static value is nearest the mean of all, the more likely on a tie) and the shift
    /// from its static value to that mean, both from the cache when the same move has
    /// been met with the same pool; with `depth` at least `ChanceSingleQuietDepth`, from
    /// quiescence searches of this position's outcomes instead (never in quiescence, 0).
    fn single_outcome(
        &mut self,
        mv: G::Move,
        outcomes: &ChanceList,
        depth: i32,
        ply: usize,
    ) -> (u8, Score) {
        let quiet = self.params.chance_single_quiet_depth;
        if quiet > 0 && depth >= quiet {
            // `ChanceSingleQuietDepth`: this position's own outcomes, by quiescence.
            self.stats.quiet_shifts += 1;
            let (mean, values) = self.outcome_values(mv, outcomes, ply, true);
            let rep = nearest_mean(&values[..outcomes.len()], mean);
            return (outcomes.as_slice()[rep].0, mean - values[rep]);
        }
        let skey = statics_key(mv.to_u16(), outcomes, ply);
        let slot = skey as usize & (OUTCOME_STATICS - 1);
        let (rep, shift) = match self.outcome_statics[slot] {
            (key, rep, shift) if key == skey => (rep as usize, shift),
            _ => {
                let (mean, statics) = self.outcome_values(mv, outcomes, ply, false);
                let rep = nearest_mean(&statics[..outcomes.len()], mean);
                let shift = mean - statics[rep];
                self.outcome_statics[slot] = (skey, rep as u8, shift);
                (rep, shift)
            }
        };
        (outcomes.as_slice()[rep].0, shift)
    }

    /// Plies by which each outcome (most likely first) is searched shallower than the
    /// most likely one: `ChanceReductionBase` plus `ChanceReductionSlope` per halving of
    /// its probability against the most likely outcome's (both in hundredths of a ply).
    /// None on the principal variation.
    fn outcome_reductions<NT: NodeType>(
        &self,
        outcomes: &ChanceList,
        depth: i32,
        ply: usize,
    ) -> [i32; MAX_OUTCOMES] {
        let mut r = [0; MAX_OUTCOMES];
        let p = &self.params;
        let reduce_pv = if ply == 0 {
            p.chance_reduce_root
        } else {
            p.chance_reduce_pv
        };
        if (NT::PV && reduce_pv == 0) || !self.features.chance_reduction {
            return r;
        }
        let w0 = outcomes.as_slice()[0].1 as f64;
        for (k, &(_, w)) in outcomes.as_slice().iter().enumerate().skip(1) {
            let plies = p.chance_reduction_base as f64
                + p.chance_reduction_per_depth as f64 * depth as f64
                + p.chance_reduction_slope as f64 * (w0 / w as f64).log2();
            r[k] = ((plies / 100.0) as i32).clamp(0, depth.max(0));
        }
        r
    }

    /// The depth to search an outcome just made at: `depth` less its reduction, unless
    /// the outcome gives check (a revealed piece's check is the tactic that matters).
    #[inline]
    fn outcome_depth(&mut self, depth: i32, reduction: i32) -> i32 {
        let r = if reduction > 0 && self.pos.in_check() {
            0
        } else {
            reduction
        };
        self.stats.outcome_searches[(r as usize).min(REDUCTION_BUCKETS - 1)] += 1;
        depth - r
    }

    /// Remember what an outcome of a root move's chance node was worth (`v`, from the
    /// mover's view, a bound or exact) with its continuation, for the analysis of the
    /// root move by outcome; it was searched `reduction` plies shallower than the root
    /// move, and the worker had searched `nodes_before` nodes when its search began.
    fn note_root_outcome(
        &mut self,
        outcome: u8,
        weight: u16,
        v: Score,
        bound: TtBound,
        reduction: i32,
        nodes_before: u64,
    ) {
        let pv = self.pv[1][1..self.pv_len[1].max(1)].to_vec();
        self.root_outcomes.push(OutcomeLine {
            outcome,
            weight,
            score: v,
            bound: match bound {
                TtBound::Lower => Bound::Lower,
                TtBound::Upper => Bound::Upper,
                _ => Bound::Exact,
            },
            pv,
            reduction: reduction.max(0) as u32,
            nodes: self.nodes - nodes_before,
        });
    }

    /// Fill the line of the root outcome just made (ply 1's PV) from the transposition
    /// table: its moves as far as they are known (`known_line`), until a position repeats
    /// or the game ends.
    fn table_line_at_root_outcome(&mut self) {
        let tt = self.shared.tt;
        let mut seen = Vec::new();
        let line = known_line(&self.pos, |p| {
            let key = p.key();
            if seen.contains(&key)
                || seen.len() + 1 >= MAX_PLY / 2
                || p.immediate_result().is_some()
            {
                return None;
            }
            seen.push(key);
            tt.probe(key)
                .map(|hit| G::Move::from_u16(hit.mv))
                .filter(|m| !m.is_null())
        });
        self.pv[1][1..=line.len()].copy_from_slice(&line);
        self.pv_len[1] = 1 + line.len();
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
        let bound = self.params.chance_bound;
        if ply == 0 {
            // Called after `chance_mean` found every outcome beyond the range: these
            // values replace the ones it noted.
            self.root_outcomes.clear();
        }
        let (mut lo, mut hi) = (INFINITY, -INFINITY);
        let (mut all_win, mut all_loss) = (true, true);
        for &(o, w) in outcomes.as_slice() {
            let nodes_before = self.nodes;
            self.make(mv, o);
            if ply == 0 {
                self.pv_len[1] = 1;
            }
            let v = -self.search::<NonPv>(depth, -beta, -alpha, ply + 1, false);
            self.unmake();
            if self.stopped {
                return (0, TtBound::None);
            }
            if ply == 0 {
                self.note_root_outcome(o, w, v, TtBound::of(v, alpha, beta), 0, nodes_before);
            }
            lo = lo.min(v);
            hi = hi.max(v);
            all_win &= v >= MATE_BOUND;
            all_loss &= v <= -MATE_BOUND;
            if alpha >= bound && !all_win {
                // Not every outcome wins: the value is the clamped mean, at most B <= alpha.
                return (alpha, TtBound::Upper);
            }
            if beta <= -bound && !all_loss {
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
            lo.clamp(-bound, bound)
        };
        (v, TtBound::of(v, alpha, beta))
    }

    /// A chance move inside quiescence: the weighted mean of the static evaluations after
    /// each outcome. Expanding reveals recursively here multiplies the capture tree by the
    /// pool size at every capture (a revealing capture is answered by further revealing
    /// captures), which explodes; the full search expands them exactly instead.
    pub(super) fn chance_static(&mut self, mv: G::Move, chances: &ChanceList, ply: usize) -> Score {
        self.outcome_values(mv, chances, ply, false).0
    }

    /// The weighted mean of the values after each outcome, and each outcome's own (clamped
    /// to ±B like the mean), from the mover's view: static evaluations, or with `quiet`
    /// quiescence searches, which see a revealed piece that hangs.
    fn outcome_values(
        &mut self,
        mv: G::Move,
        chances: &ChanceList,
        ply: usize,
        quiet: bool,
    ) -> (Score, [Score; MAX_OUTCOMES]) {
        let bound = self.params.chance_bound;
        let total = chances.total() as i64;
        let mut sum = 0i64;
        let mut values = [0; MAX_OUTCOMES];
        let n = chances.len();
        // Static values of later outcomes told by the evaluation of an earlier one.
        let mut told: [Option<Score>; MAX_OUTCOMES] = [None; MAX_OUTCOMES];
        for (k, &(o, w)) in chances.as_slice().iter().enumerate() {
            let v = if quiet {
                self.make(mv, o);
                // Quiescence counts its own nodes.
                let v = -self.qsearch(-bound - 1, bound + 1, ply + 1, 0);
                self.unmake();
                v
            } else {
                self.nodes += 1;
                self.stats.static_outcomes += 1;
                match told[k] {
                    Some(v) => -v,
                    None => {
                        self.make(mv, o);
                        let v = match self.pos.immediate_result() {
                            Some(r) => -outcome_score(r, ply + 1),
                            None => -self.eval.evaluate_with_alternatives(
                                &self.pos,
                                mv,
                                o,
                                &chances.as_slice()[k + 1..],
                                &mut told[k + 1..n],
                            ),
                        };
                        self.unmake();
                        v
                    }
                }
            };
            values[k] = v.clamp(-bound, bound);
            sum += w as i64 * self.chance_mean.w(values[k] as i64);
        }
        (self.chance_mean.value(sum, total.max(1)), values)
    }
}
