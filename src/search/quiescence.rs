//! Quiescence search: from the leaves of the main search, captures (and promotions)
//! until the position is quiet, standing pat on the static evaluation; when the side to
//! move is in check (or its 0 is threatened) every move is tried, for a few plies.

use super::alphabeta::outcome_score;
use super::ordering::{MAX_PLY, Picker};
use super::tt::{TtBound, score_to_tt};
use super::worker::Worker;
use crate::eval::Evaluator;
use crate::game::*;

impl<'a, G: Game> Worker<'a, G> {
    /// Quiescence: captures (and promotions) until the position is quiet; when the side to
    /// move is in check (or its zero is threatened) every move is tried, for a few plies.
    pub(super) fn qsearch(
        &mut self,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        qply: usize,
    ) -> Score {
        self.tick();
        if self.stopped {
            return 0;
        }
        self.stats.qnodes += 1;
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
        let hit = self.shared.tt.probe(key);
        if let Some(s) = hit.and_then(|h| h.cutoff(alpha, beta, ply)) {
            return s;
        }
        let in_check = qply < self.params.qsearch_check_plies as usize && self.pos.in_check();
        let mut best = -INFINITY;
        let raw_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| self.eval.evaluate(&self.pos), |h| h.eval)
        };
        if !in_check {
            let stand_pat = self.corrected(raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut picker = Picker::empty();
        if in_check {
            self.pos.generate_moves(&mut picker.moves);
            if picker.moves.is_empty() {
                return outcome_score(self.pos.no_moves_result(), ply);
            }
        } else {
            self.pos.generate_noisy(&mut picker.moves);
        }
        let tt_move = hit.map_or(G::Move::default(), |h| G::Move::from_u16(h.mv));
        picker.score_noisy(&self.pos, &self.eval, tt_move, |m| self.noisy_score(m));
        let mut chances = ChanceList::default();
        let mut best_move = G::Move::default();
        let see = self.features.see && !in_check;
        while let Some(mv) = picker.pick() {
            // A capture that loses material by exchange will not lift the stand-pat.
            if see
                && best > -MATE_BOUND
                && !self
                    .eval
                    .see_ge(&self.pos, mv, -self.params.qsearch_see_margin)
            {
                continue;
            }
            chances.clear();
            let score = if self.pos.chance(mv, &mut chances) {
                if self.features.chance_single && self.features.chance_single_qsearch {
                    self.qsearch_single(mv, &mut chances, alpha, beta, ply, qply)
                } else {
                    self.chance_static(mv, &chances, ply)
                }
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
            self.shared.tt.store(
                key,
                best_move.to_u16(),
                score_to_tt(best, ply),
                if in_check { 0 } else { raw_eval },
                0,
                bound,
            );
        }
        best
    }
}
