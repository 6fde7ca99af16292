//! Principal-variation alpha-beta (negamax) for one worker: the root move loop, the PVS
//! step shared by the root and inner nodes, and the inner node with its pruning and
//! reductions (the ones `Features` switches on, tuned by `SearchParams`). Node kinds are
//! types: `Pv` nodes need an exact value inside their window, `NonPv` nodes only a bound;
//! the root is `root_search`. A move with chance outcomes is searched as a chance node
//! (`chance.rs`); leaves go to quiescence (`quiescence.rs`).

use super::Bound;
use super::ordering::{MAX_PLY, Picker};
use super::tt::{TtBound, TtHit, score_from_tt, score_to_tt};
use super::worker::Worker;
use crate::eval::Evaluator;
use crate::game::*;

/// What a node must find out: an exact value inside its window (PV) or only whether the
/// value is above or below a null window (non-PV).
pub trait NodeType {
    const PV: bool;
}
/// A node on the principal variation (or any node searched with a wide window).
pub struct Pv;
/// A node searched with a null window.
pub struct NonPv;
impl NodeType for Pv {
    const PV: bool = true;
}
impl NodeType for NonPv {
    const PV: bool = false;
}

/// The score of a game decided at `ply` from the root.
pub fn outcome_score(o: Outcome, ply: usize) -> Score {
    match o {
        Outcome::Win => MATE - ply as Score,
        Outcome::Loss => -(MATE - ply as Score),
        Outcome::Draw => DRAW,
    }
}

/// A move about to be searched from a node: the move and its chance outcomes (empty when
/// it involves no chance).
#[derive(Clone, Copy)]
pub(super) struct Step<M> {
    pub mv: M,
    pub chances: ChanceList,
}

impl<M> Step<M> {
    #[inline(always)]
    pub fn has_chance(&self) -> bool {
        !self.chances.is_empty()
    }
}

/// What the move loop of a node needs to know of it.
struct Node<M> {
    depth: i32,
    ply: usize,
    cut_node: bool,
    in_check: bool,
    /// The evaluation as the table stores it, and as the search uses it (corrected).
    raw_eval: Score,
    static_eval: Score,
    improving: bool,
    hit: Option<TtHit>,
    tt_move: M,
    /// The move a singular search leaves out (null: none).
    excluded: M,
}

/// What a singular search says of the table move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// The node fails high without it: return this.
    Cut(Score),
}

/// Where a move stands in its node's move loop, for the PVS step.
#[derive(Clone, Copy)]
enum Turn {
    /// The first move: searched with the node's full window.
    First,
    /// A later move: a null-window search reduced by `reduction` plies first; `cut_node`
    /// is the node's own expectation.
    Later { reduction: i32, cut_node: bool },
}

impl<'a, G: Game> Worker<'a, G> {
    /// The move as searched from here: with its chance outcomes, if any.
    #[inline(always)]
    fn step(&self, mv: G::Move) -> Step<G::Move> {
        let mut chances = ChanceList::default();
        self.pos.chance(mv, &mut chances);
        Step { mv, chances }
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
        let in_check = self.pos.in_check();
        for i in pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.id == 0
                && depth > 1
                && self.shared.time.elapsed().as_millis() > self.params.currmove_after_ms as u128
            {
                (self.shared.report)(super::Report::CurrMove {
                    depth: depth as u32,
                    mv,
                    number: i + 1,
                });
            }
            let step = self.step(mv);
            let searched = i - pv_idx;
            let turn = if searched == 0 {
                Turn::First
            } else {
                // The root is a PV node: one move later and one ply less than inside.
                let reduce = self.features.lmr
                    && depth >= self.params.lmr_min_depth
                    && searched > self.params.lmr_min_moves as usize
                    && !in_check
                    && !self.pos.is_noisy(mv);
                let reduction = if reduce {
                    (self.lmr[(depth as usize).min(63)][searched.min(63)] - 1).max(0)
                } else {
                    0
                };
                Turn::Later {
                    reduction,
                    cut_node: false,
                }
            };
            let before = self.nodes;
            let score = self.pvs_value::<Pv>(&step, depth, alpha, beta, 0, turn);
            self.root_moves[i].effort += self.nodes - before;
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if searched == 0 || score > alpha {
                rm.score = score;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(mv);
                if step.has_chance() {
                    std::mem::swap(&mut rm.outcomes, &mut self.root_outcomes);
                } else {
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
    /// full depth if that beats alpha, and with the full window if the value lands inside
    /// a wide window (a PV node, or a non-PV node that needs an exact value). At a PV
    /// node a later reveal must beat alpha by more than `PvsMargin` to be searched again.
    fn pvs_value<NT: NodeType>(
        &mut self,
        step: &Step<G::Move>,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        turn: Turn,
    ) -> Score {
        let d = depth - 1;
        let Turn::Later {
            reduction: r,
            cut_node,
        } = turn
        else {
            return self.move_value::<NT>(step, d, alpha, beta, ply, false);
        };
        // A reveal's value is a mean of outcome values, and at PV nodes many such means lie
        // within a few centipawns of each other; each full-window re-search of a reveal
        // searches all its outcomes as PV nodes again, so near-ties are not worth one
        // (`PvsMargin`). Never near mate scores, which stay exact.
        let bar = if NT::PV && step.has_chance() && alpha.abs() < self.params.chance_bound {
            (alpha + self.params.pvs_margin).min(beta - 1)
        } else {
            alpha
        };
        let mut score = self.move_value::<NonPv>(step, d - r, bar, bar + 1, ply, true);
        if score > bar && r > 0 {
            score = self.move_value::<NonPv>(step, d, bar, bar + 1, ply, !cut_node);
        }
        if NT::PV
            && score > bar
            && score < beta
            && ply > 0
            && step.has_chance()
            && self.params.chance_pv_verify != 0
        {
            // Below the root that null window valued the reveal by one outcome; most such
            // estimates that beat alpha do not hold over every outcome, and the full
            // re-search searches every outcome again as a PV node (`ChancePvVerify`).
            self.stats.pv_verifies += 1;
            self.exact_chance = true;
            score = self.move_value::<NonPv>(step, d, bar, bar + 1, ply, false);
            self.stats.pv_verify_fails += (score <= bar) as u64;
        }
        if NT::PV && score > bar && score < beta {
            score = self.move_value::<Pv>(step, d, alpha, beta, ply, false);
        } else if NT::PV && score > alpha && score <= bar {
            // Within the margin of alpha: counted as no better.
            score = alpha;
        } else if !NT::PV && beta - alpha > 1 && score > alpha && score < beta {
            score = self.move_value::<NonPv>(step, d, alpha, beta, ply, false);
        }
        score
    }

    /// Value of playing the step's move here, from the mover's view, searched with
    /// (alpha, beta) and the child at `depth`: a plain child, or a chance node over the
    /// move's outcomes.
    #[inline]
    fn move_value<NT: NodeType>(
        &mut self,
        step: &Step<G::Move>,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        self.note_move(Some(step.mv), ply);
        if step.has_chance() {
            self.chance_value::<NT>(step, depth, alpha, beta, ply)
        } else {
            self.make(step.mv, NO_OUTCOME);
            self.shared.tt.prefetch(self.pos.key());
            let s = -self.search::<NT>(depth, -beta, -alpha, ply + 1, cut_node);
            self.unmake();
            s
        }
    }

    /// Negamax alpha-beta with principal-variation search. Scores are from the side to
    /// move's view; `ply` counts from the root. The node's checks, table probe, static
    /// evaluation and pruning before any move are here; the move loop is `search_moves`.
    pub fn search<NT: NodeType>(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        // Chance nodes hand their outcomes arbitrary windows. A window wider than null
        // needs an exact answer inside it: without `chance_nonpv` such a node is searched
        // as a PV node; with it, as a non-PV node that re-searches inside its window.
        if !NT::PV && beta - alpha > 1 && !self.features.chance_nonpv {
            self.entered_wide = true;
            return self.search::<Pv>(depth, alpha, beta, ply, cut_node);
        }
        let entered_wide = NT::PV && std::mem::take(&mut self.entered_wide);
        if NT::PV {
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
        let depth = self.extended(depth, in_check, ply);
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        if entered_wide || (!NT::PV && beta - alpha > 1) {
            self.stats.wide_nodes += 1;
        } else if NT::PV {
            self.stats.pv_nodes += 1;
        } else {
            self.stats.null_window_nodes += 1;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        // A singular search leaves one move out: it is not this node's full value, so it
        // neither takes nor leaves a table entry, nor prunes before the moves.
        let excluded = self.excluded[ply];
        let singular_search = !excluded.is_null();
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key);
        let tt_move = hit.map_or(G::Move::default(), |h| G::Move::from_u16(h.mv));
        if let Some(h) = hit
            && !NT::PV
            && !singular_search
            && h.depth >= depth
            && let Some(s) = h.cutoff(alpha, beta, ply)
        {
            self.stats.tt_cuts += 1;
            return s;
        }
        let raw_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| self.eval.evaluate(&self.pos), |h| h.eval)
        };
        let static_eval = if in_check {
            raw_eval
        } else {
            self.corrected(raw_eval)
        };
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];

        if !NT::PV
            && !in_check
            && !singular_search
            && let Some(s) =
                self.prune_before_moves(depth, beta, ply, cut_node, static_eval, improving)
        {
            return s;
        }
        // Internal iterative reduction: with no move from the table the ordering is a
        // guess; a shallower search now leaves one for the next iteration.
        let depth = if self.params.iir_min_depth > 0
            && depth >= self.params.iir_min_depth
            && tt_move.is_null()
            && (NT::PV || cut_node)
            && !singular_search
        {
            depth - 1
        } else {
            depth
        };
        self.null_stack[ply + 1] = false;
        let node = Node {
            depth,
            ply,
            cut_node,
            in_check,
            raw_eval,
            static_eval,
            improving,
            hit,
            tt_move,
            excluded,
        };
        self.search_moves::<NT>(&node, alpha, beta)
    }

    /// The move loop of a node: moves in order, pruned, extended or reduced, each
    /// searched by PVS; then the table entry and the history and correction updates.
    fn search_moves<NT: NodeType>(
        &mut self,
        node: &Node<G::Move>,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        let (depth, ply, in_check) = (node.depth, node.ply, node.in_check);
        let singular_search = !node.excluded.is_null();
        let mut picker = Picker::empty();
        self.pos.generate_moves(&mut picker.moves);
        if picker.moves.is_empty() {
            return outcome_score(self.pos.no_moves_result(), ply);
        }
        let see = self.features.see;
        let mut noisy_left = picker.score_all(
            &self.pos,
            &self.eval,
            node.tt_move,
            self.killers[ply],
            see,
            |m| self.noisy_score(m),
            |m| self.quiet_score(m, ply),
        );
        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = G::Move::default();
        let mut searched = 0usize;
        let mut quiets: MoveList<G::Move> = MoveList::new();
        let mut noisies: MoveList<G::Move> = MoveList::new();
        while let Some(mv) = picker.pick() {
            let noisy = self.pos.is_noisy(mv);
            noisy_left -= noisy as usize;
            if mv == node.excluded {
                continue;
            }
            // Not while a mate is the bar to beat: a shorter mate may hide in the tail.
            if searched > 0 && !in_check && best > -MATE_BOUND && alpha.abs() < MATE_BOUND {
                if !noisy
                    && self.prune_quiet::<NT>(
                        depth,
                        alpha,
                        node.static_eval,
                        node.improving,
                        quiets.len(),
                    )
                {
                    // Whether a quiet move is pruned here depends on the node's state, not
                    // on the move, and skipping moves leaves that state as it is: with no
                    // noisy move left, every move after this one is pruned too. Leaving
                    // now saves picking each of them (Math Chess's bench ran 1.26x faster).
                    if noisy_left == 0 {
                        break;
                    }
                    continue;
                }
                if self.prune_by_exchange(depth, mv, noisy) {
                    continue;
                }
            }
            let mut extension = 0;
            if mv == node.tt_move {
                match self.singular(node, beta) {
                    Singular::Extend(e) => extension = e,
                    Singular::Cut(s) => return s,
                }
                if self.stopped {
                    return 0;
                }
            }
            let step = self.step(mv);
            let turn = if searched == 0 {
                Turn::First
            } else {
                let reduce = !noisy && !in_check;
                Turn::Later {
                    reduction: self.reduction::<NT>(
                        depth,
                        searched,
                        mv,
                        ply,
                        node.cut_node,
                        reduce,
                    ),
                    cut_node: node.cut_node,
                }
            };
            let score = self.pvs_value::<NT>(&step, depth + extension, alpha, beta, ply, turn);
            if self.stopped {
                return 0;
            }
            searched += 1;
            if !noisy && quiets.len() < 64 {
                quiets.push(mv);
            } else if noisy && self.features.capt_hist && noisies.len() < 64 {
                noisies.push(mv);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if NT::PV {
                        self.update_pv(ply, mv, step.has_chance());
                    }
                    if score >= beta {
                        self.stats.beta_cuts += 1;
                        self.stats.first_move_cuts += (searched == 1) as u64;
                        if !noisy {
                            self.reward_quiet(mv, &quiets, depth, ply);
                        }
                        self.reward_noisy(mv, noisy, &noisies, depth);
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every move was pruned (or left out): the static eval as an upper bound.
            return if singular_search {
                alpha
            } else {
                node.static_eval.min(alpha)
            };
        }
        if singular_search {
            return best;
        }
        let bound = TtBound::of(best, orig_alpha, beta);
        self.shared.tt.store(
            self.pos.key(),
            best_move.to_u16(),
            score_to_tt(best, ply),
            if in_check { 0 } else { node.raw_eval },
            depth,
            bound,
        );
        if !in_check && (best_move.is_null() || !self.pos.is_noisy(best_move)) {
            self.learn_correction(depth, best, bound, node.static_eval);
        }
        best
    }

    /// The depth of a node with its check extension: in check one ply more (and at least
    /// 1, so quiescence never meets a check at the horizon), while the ply is below
    /// `CheckExtensionFactor` times the root depth (checks cannot extend without end).
    #[inline]
    fn extended(&self, depth: i32, in_check: bool, ply: usize) -> i32 {
        if in_check && (ply as i32) < self.params.check_extension_factor * self.root_depth {
            depth.max(0) + 1
        } else {
            depth
        }
    }

    /// Singular extension of the table move at `node` (the other moves searched
    /// shallower against a bar just below its table score): extend it when they all fall
    /// short; cut the node at once when they reach beta without it (multi-cut); search
    /// it a ply shallower when its table score alone is at least beta.
    fn singular(&mut self, node: &Node<G::Move>, beta: Score) -> Singular {
        let p = &self.params;
        let Some(h) = node.hit else {
            return Singular::Extend(0);
        };
        let tt_score = score_from_tt(h.score, node.ply);
        if !self.features.singular
            || !node.excluded.is_null()
            || node.depth < p.se_min_depth
            || h.depth < node.depth - p.se_tt_depth_margin
            || !matches!(h.bound, TtBound::Lower | TtBound::Exact)
            || tt_score.abs() >= MATE_BOUND
            || node.ply as i32 >= p.check_extension_factor * self.root_depth
        {
            return Singular::Extend(0);
        }
        let s_beta = tt_score - p.se_margin * node.depth / 16;
        let s_depth = (node.depth - 1) / 2;
        self.excluded[node.ply] = node.tt_move;
        let v = self.search::<NonPv>(s_depth, s_beta - 1, s_beta, node.ply, node.cut_node);
        self.excluded[node.ply] = G::Move::default();
        if v < s_beta {
            Singular::Extend(1)
        } else if s_beta >= beta {
            Singular::Cut(s_beta)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Late-move reduction of a later move (`searched` moves before it) at a node of
    /// `depth`: by depth and move number, less at PV nodes and for moves with good
    /// history, more where a cutoff is expected; none when `allowed` is false.
    #[inline]
    fn reduction<NT: NodeType>(
        &self,
        depth: i32,
        searched: usize,
        mv: G::Move,
        ply: usize,
        cut_node: bool,
        allowed: bool,
    ) -> i32 {
        if !allowed
            || !self.features.lmr
            || depth < self.params.lmr_min_depth
            || searched < self.params.lmr_min_moves as usize + NT::PV as usize
        {
            return 0;
        }
        let mut r = self.lmr[(depth as usize).min(63)][searched.min(63)];
        r -= NT::PV as i32;
        r += cut_node as i32;
        r -= (self.quiet_score(mv, ply) / self.params.lmr_history_divisor).clamp(-1, 1);
        r.clamp(0, depth - 2)
    }

    /// Reverse futility and null-move pruning at a non-PV node not in check: a score to
    /// return at once, or `None` to search the moves.
    fn prune_before_moves(
        &mut self,
        depth: i32,
        beta: Score,
        ply: usize,
        cut_node: bool,
        static_eval: Score,
        improving: bool,
    ) -> Option<Score> {
        let p = &self.params;
        // Reverse futility: far above beta with little depth left, trust the eval.
        if self.features.futility
            && depth <= p.rfp_max_depth
            && static_eval.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
            && static_eval - p.rfp_margin * (depth - improving as i32) >= beta
        {
            self.stats.rfp_cuts += 1;
            return Some(static_eval);
        }
        // Null move: if passing still fails high, a real move surely would.
        if self.features.null_move
            && depth >= p.nmp_min_depth
            && static_eval >= beta
            && !self.null_stack[ply]
            && beta > -MATE_BOUND
            && self.pos.null_move_ok()
        {
            let r = p.nmp_base
                + depth / p.nmp_depth_divisor
                + ((static_eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
            self.stats.nmp_tries += 1;
            self.note_move(None, ply);
            self.make_null();
            self.null_stack[ply + 1] = true;
            let s = -self.search::<NonPv>(depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
            self.null_stack[ply + 1] = false;
            self.unmake_null();
            if self.stopped {
                return Some(0);
            }
            if s >= beta {
                self.stats.nmp_cuts += 1;
                return Some(if s >= MATE_BOUND { beta } else { s });
            }
        }
        None
    }

    /// Futility and late-move pruning of a quiet move (not the first, not in check).
    #[inline]
    fn prune_quiet<NT: NodeType>(
        &self,
        depth: i32,
        alpha: Score,
        static_eval: Score,
        improving: bool,
        quiets_tried: usize,
    ) -> bool {
        if !self.features.futility {
            return false;
        }
        let p = &self.params;
        // Futility: a quiet move cannot lift a hopeless eval this close to the leaves.
        if depth <= p.futility_max_depth
            && static_eval + p.futility_base + p.futility_per_depth * depth <= alpha
        {
            return true;
        }
        // Late-move pruning: the quiet tail at shallow depth is rarely worth it.
        !NT::PV
            && depth <= p.lmp_max_depth
            && quiets_tried
                >= (p.lmp_base + p.lmp_per_depth2 * depth * depth) as usize
                    / (2 - improving as usize)
    }

    /// Static exchange pruning of a move (not the first, not in check) near the leaves: a
    /// capture that loses more than a margin per ply, a quiet move whose piece is lost
    /// for more than a margin per ply squared.
    #[inline]
    fn prune_by_exchange(&self, depth: i32, mv: G::Move, noisy: bool) -> bool {
        let p = &self.params;
        if !self.features.see || depth > p.see_max_depth {
            return false;
        }
        let margin = if noisy {
            p.see_noisy_margin * depth
        } else {
            p.see_quiet_margin * depth * depth
        };
        !self.eval.see_ge(&self.pos, mv, -margin)
    }

    /// `mv` raised alpha at a PV node: it heads this node's PV, followed by the child's
    /// (nothing follows a chance move: its continuation depends on the outcome).
    fn update_pv(&mut self, ply: usize, mv: G::Move, has_chance: bool) {
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
}
