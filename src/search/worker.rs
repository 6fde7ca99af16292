//! One search thread's state: its own board and evaluation, killers, history, the PV
//! being built, its root moves with their scores, and its node count; plus what all the
//! threads of one search share (table, stop flag, limits, node counters, reporting).
//! The search itself is written in `alphabeta.rs`, `chance.rs` and `quiescence.rs`.

use super::correction::CorrectionHistory;
use super::mean::ChanceMean;
use super::ordering::{ContinuationHistory, History, MAX_PLY, NO_PIECE_TO};
use super::params::SearchParams;
use super::stats::SearchStats;
use super::time::TimeManager;
use super::tt::{TranspositionTable, TtBound};
use super::{Bound, Control, Features, Report};
use crate::eval::Evaluator;
use crate::game::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// A root move with what the last iteration found for it.
pub struct RootMove<M> {
    pub mv: M,
    pub score: Score,
    pub prev_score: Score,
    pub bound: Bound,
    pub pv: Vec<M>,
    /// When the move has chance: each outcome's value and line, as last searched.
    pub outcomes: Vec<OutcomeLine<M>>,
    /// The nodes this worker has spent under the move in this search, every iteration
    /// together (time management's measure of how contested the best move is).
    pub effort: u64,
}

/// One chance outcome of a root move as the search valued it: the outcome, its weight
/// (probability = weight / the weights' total), its value from the mover's view (exact or a
/// bound), and its continuation (the moves after the reveal, up to the next chance move).
#[derive(Clone, Debug)]
pub struct OutcomeLine<M> {
    pub outcome: u8,
    pub weight: u16,
    pub score: Score,
    pub bound: Bound,
    pub pv: Vec<M>,
    /// How many plies shallower than the root move the outcome was searched (by
    /// `Search_ChanceReduction`'s rule: in a null-window search of the move, or on the
    /// principal variation with `ChanceReduceRoot`).
    pub reduction: u32,
    /// The nodes that searching the outcome took (its last search).
    pub nodes: u64,
}

/// Everything the threads of one search share.
pub struct Shared<'a, M> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub features: Features,
    pub params: SearchParams,
    /// Node budget (`go nodes`); checked by the main worker.
    pub node_limit: Option<u64>,
    /// A weakened level's node budget: no iteration starts past it.
    pub node_budget: Option<u64>,
    /// A weakened level's node cap: the iteration in progress is abandoned past it, once
    /// one iteration is complete.
    pub node_cap: Option<u64>,
    /// The clock; checked by the main worker.
    pub time: TimeManager,
    /// Each worker's published node count (others read it for `nodes`/`nps`).
    pub nodes: Vec<AtomicU64>,
    pub report: &'a (dyn Fn(Report<M>) + Sync),
}

impl<M> Shared<'_, M> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

pub struct Worker<'a, G: Game> {
    pub id: usize,
    pub pos: G,
    /// This worker's evaluation, told of every move made and taken back.
    pub(super) eval: G::Eval,
    pub shared: &'a Shared<'a, G::Move>,
    /// A copy of the shared parameters, read at every node.
    pub(super) params: SearchParams,
    pub(super) features: Features,
    pub nodes: u64,
    /// Where the nodes went (counters only).
    pub stats: SearchStats,
    /// Set just before a non-PV node with a wide window is searched as a PV node, so that
    /// the PV node counts itself as wide (`SearchStats`).
    pub(super) entered_wide: bool,
    /// Set just before a chance node that must search every outcome, without the
    /// single-outcome estimate or a table cutoff (`ChancePvVerify`); the node clears it.
    pub(super) exact_chance: bool,
    pub seldepth: usize,
    pub stopped: bool,
    pub(super) history: History,
    /// Capture history by side and move index; empty unless `features.capt_hist`.
    pub(super) capture_history: History,
    /// Empty unless `features.cont_hist`.
    pub(super) cont_hist: ContinuationHistory,
    /// The piece-to index of the move played at each ply (from that ply's node), or
    /// `NO_PIECE_TO` (a null move; not kept when continuation history is off).
    pub(super) piece_to: [u32; MAX_PLY + 2],
    /// The move a singular search leaves out at each ply (null: none).
    pub(super) excluded: [G::Move; MAX_PLY + 2],
    /// Empty unless `features.corr_hist`.
    pub(super) corr: CorrectionHistory,
    pub(super) killers: Vec<[G::Move; 2]>,
    pub(super) pv: Vec<[G::Move; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) eval_stack: [Score; MAX_PLY + 2],
    pub(super) null_stack: [bool; MAX_PLY + 2],
    pub root_moves: Vec<RootMove<G::Move>>,
    /// The outcomes of the root move being searched, when it has chance.
    pub(super) root_outcomes: Vec<OutcomeLine<G::Move>>,
    pub completed_depth: u32,
    /// Depth of the iteration in progress: check extensions stop at a multiple of it.
    pub root_depth: i32,
    /// Late-move reductions by depth and move number.
    pub(super) lmr: Vec<[i32; 64]>,
    /// How chance nodes average their outcomes.
    pub(super) chance_mean: ChanceMean,
    /// Of a chance move's outcomes, the one statically nearest their weighted mean and
    /// the mean minus its static value, by move, side and pool (`chance::statics_key`),
    /// kept for the whole search: `Search_ChanceSingle` needs them at every chance node
    /// it values. Empty unless `features.chance_single`.
    pub(super) outcome_statics: Vec<(u64, u8, Score)>,
}

/// Entries of `Worker::outcome_statics` (a power of two; 1 MiB).
pub(super) const OUTCOME_STATICS: usize = 1 << 16;

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(
        id: usize,
        pos: G,
        eval: G::Eval,
        shared: &'a Shared<'a, G::Move>,
        root_moves: &[G::Move],
    ) -> Self {
        let params = shared.params.clone();
        let chance_mean = ChanceMean::new(params.chance_bound, params.chance_sigmoid_scale);
        let (base, div) = (
            params.lmr_base as f64 / 100.0,
            params.lmr_divisor as f64 / 100.0,
        );
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / div) as i32;
            }
        }
        Worker {
            id,
            pos,
            eval,
            shared,
            params,
            features: shared.features,
            nodes: 0,
            stats: SearchStats::default(),
            entered_wide: false,
            exact_chance: false,
            seldepth: 0,
            stopped: false,
            history: History::new(G::HISTORY_SIZE),
            capture_history: History::new(if shared.features.capt_hist {
                G::HISTORY_SIZE
            } else {
                0
            }),
            cont_hist: ContinuationHistory::new(if shared.features.cont_hist {
                G::PIECE_TO_SIZE
            } else {
                0
            }),
            piece_to: [NO_PIECE_TO; MAX_PLY + 2],
            corr: CorrectionHistory::new(shared.features.corr_hist),
            excluded: [G::Move::default(); MAX_PLY + 2],
            killers: vec![[G::Move::default(); 2]; MAX_PLY + 2],
            pv: vec![[G::Move::default(); MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            eval_stack: [0; MAX_PLY + 2],
            null_stack: [false; MAX_PLY + 2],
            root_moves: root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITY,
                    prev_score: -INFINITY,
                    bound: Bound::Exact,
                    pv: vec![mv],
                    outcomes: Vec::new(),
                    effort: 0,
                })
                .collect(),
            root_outcomes: Vec::new(),
            completed_depth: 0,
            root_depth: 1,
            lmr,
            chance_mean,
            outcome_statics: if shared.features.chance_single {
                vec![(0, 0, 0); OUTCOME_STATICS]
            } else {
                Vec::new()
            },
        }
    }

    /// Play a move (with its chance outcome) on the worker's board and evaluation.
    #[inline(always)]
    pub(super) fn make(&mut self, mv: G::Move, outcome: u8) {
        self.pos.make(mv, outcome);
        self.eval.push(&self.pos);
    }
    #[inline(always)]
    pub(super) fn unmake(&mut self) {
        self.pos.unmake();
        self.eval.pop();
    }
    #[inline(always)]
    pub(super) fn make_null(&mut self) {
        self.pos.make_null();
        self.eval.push(&self.pos);
    }
    #[inline(always)]
    pub(super) fn unmake_null(&mut self) {
        self.pos.unmake_null();
        self.eval.pop();
    }

    /// Counts a node; every 1024 nodes publishes the count and checks the stop rules.
    #[inline]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        let shared = self.shared;
        if self.id == 0
            && let Some(limit) = shared.node_limit
            && self.total_nodes_fast() >= limit
        {
            shared.control.stop();
        }
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.id == 0 && !shared.control.pondering() && shared.time.past_hard() {
                shared.control.stop();
            }
            if self.id == 0
                && self.completed_depth > 0
                && shared
                    .node_cap
                    .is_some_and(|cap| self.total_nodes_fast() >= cap)
            {
                shared.control.stop();
            }
        }
        if self.nodes & 255 == 0 && shared.control.stopped() {
            self.stopped = true;
        }
    }

    #[inline]
    fn total_nodes_fast(&self) -> u64 {
        if self.shared.nodes.len() == 1 {
            self.nodes
        } else {
            // Other workers publish every 1024 nodes; close enough for a node budget.
            let mine = self.shared.nodes[self.id].load(Ordering::Relaxed);
            self.shared.total_nodes() - mine + self.nodes
        }
    }

    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// The static evaluation `raw` of the current position, corrected by correction
    /// history when it is on.
    #[inline]
    pub(super) fn corrected(&self, raw: Score) -> Score {
        if !self.features.corr_hist {
            return raw;
        }
        let keys = self.pos.correction_keys();
        let side = self.pos.side_to_move();
        self.corr.correct(side, &keys, raw, self.params.corr_weight)
    }

    /// A search of `depth` here found `best` (with `bound`) where the corrected static
    /// evaluation said `static_eval`: teach correction history the difference, when the
    /// result is a real value on the side it is a bound of.
    pub(super) fn learn_correction(
        &mut self,
        depth: i32,
        best: Score,
        bound: TtBound,
        static_eval: Score,
    ) {
        let informative = match bound {
            TtBound::Lower => best > static_eval,
            TtBound::Upper => best < static_eval,
            TtBound::Exact => true,
            TtBound::None => false,
        };
        if !self.features.corr_hist || !informative || best.abs() >= MATE_BOUND {
            return;
        }
        let keys = self.pos.correction_keys();
        let side = self.pos.side_to_move();
        self.corr.update(side, &keys, depth, best - static_eval);
    }

    /// The moves one and two plies before the node at `ply` (their piece-to indices), as
    /// far as there are such moves; none when continuation history is off.
    #[inline]
    fn continued(&self, ply: usize) -> [u32; 2] {
        if !self.features.cont_hist {
            return [NO_PIECE_TO; 2];
        }
        let back = |n: usize| {
            if ply >= n {
                self.piece_to[ply - n]
            } else {
                NO_PIECE_TO
            }
        };
        [back(1), back(2)]
    }

    /// Ordering score of a quiet move at the node at `ply`: its butterfly history plus its
    /// continuation history after the last two moves.
    #[inline]
    pub(super) fn quiet_score(&self, mv: G::Move, ply: usize) -> i32 {
        let mut s = self
            .history
            .get(self.pos.side_to_move(), self.pos.history_index(mv));
        let prev = self.continued(ply);
        if prev != [NO_PIECE_TO; 2] {
            let pt = self.pos.piece_to_index(mv);
            for p in prev.into_iter().filter(|&p| p != NO_PIECE_TO) {
                s += self.cont_hist.get(p, pt);
            }
        }
        s
    }

    /// Ordering score of a noisy move, added to its MVV-LVA: its capture history, scaled
    /// by `CaptHistDivisor` (0 when `Search_CaptHist` is off).
    #[inline]
    pub(super) fn noisy_score(&self, mv: G::Move) -> i32 {
        if !self.features.capt_hist {
            return 0;
        }
        self.capture_history
            .get(self.pos.side_to_move(), self.pos.history_index(mv))
            / self.params.capt_hist_divisor
    }

    /// A node failed high on `mv`: with `Search_CaptHist`, a noisy `mv` gains capture
    /// history and the noisy moves tried before it lose some (all of them when a quiet
    /// move cut).
    pub(super) fn reward_noisy(
        &mut self,
        mv: G::Move,
        noisy: bool,
        noisies: &MoveList<G::Move>,
        depth: i32,
    ) {
        if !self.features.capt_hist {
            return;
        }
        let side = self.pos.side_to_move();
        let bonus = self.history_bonus(depth);
        for &q in noisies.iter() {
            let b = if noisy && q == mv { bonus } else { -bonus };
            self.capture_history
                .update(side, self.pos.history_index(q), b);
        }
    }

    /// Record the move about to be searched from the node at `ply` (`None`: a null move)
    /// for its descendants' continuation history.
    #[inline(always)]
    pub(super) fn note_move(&mut self, mv: Option<G::Move>, ply: usize) {
        if self.features.cont_hist {
            self.piece_to[ply] = mv.map_or(NO_PIECE_TO, |m| self.pos.piece_to_index(m) as u32);
        }
    }

    /// The history bonus of a cutoff at `depth` (the malus of the moves tried before it):
    /// depth² × `HistoryBonusPerDepth2`, at most `HistoryBonusMax`.
    #[inline]
    fn history_bonus(&self, depth: i32) -> i32 {
        (depth * depth * self.params.history_bonus_per_depth2).min(self.params.history_bonus_max)
    }

    /// A quiet move caused a cutoff: it becomes a killer, gains history, and the quiet
    /// moves tried before it lose some.
    pub(super) fn reward_quiet(
        &mut self,
        mv: G::Move,
        quiets: &MoveList<G::Move>,
        depth: i32,
        ply: usize,
    ) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let side = self.pos.side_to_move();
        let bonus = self.history_bonus(depth);
        let prev = self.continued(ply);
        for &q in quiets.iter() {
            let b = if q == mv { bonus } else { -bonus };
            self.history.update(side, self.pos.history_index(q), b);
            if prev != [NO_PIECE_TO; 2] {
                let pt = self.pos.piece_to_index(q);
                for p in prev.into_iter().filter(|&p| p != NO_PIECE_TO) {
                    self.cont_hist.update(p, pt, b);
                }
            }
        }
    }
}
