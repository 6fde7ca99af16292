//! Move ordering: the transposition-table move, then captures by the game's MVV-LVA value
//! (plus, where switched on, their capture history), then killer moves, then quiet moves
//! by their history scores (the butterfly table and, where switched on, continuation
//! history: the same move after the previous moves).
//! Moves are scored once and picked by partial selection sort, so a cutoff after the first
//! few moves costs no full sort.

use crate::eval::Evaluator;
use crate::game::{Game, GameMove, MoveList};
use std::mem::MaybeUninit;

pub const MAX_PLY: usize = 128;
const TT_SCORE: i32 = 1 << 30;
const NOISY_BASE: i32 = 1 << 24;
/// Captures that lose material by exchange: after every quiet move.
const BAD_NOISY_BASE: i32 = -(1 << 25);
const KILLER_1: i32 = 1 << 22;
const KILLER_2: i32 = KILLER_1 - 1;
pub const HISTORY_MAX: i32 = 16_384;

/// History scores per side and move index, with gravity (scores saturate at HISTORY_MAX).
pub struct History {
    table: Vec<i32>,
    size: usize,
}

impl History {
    pub fn new(size: usize) -> Self {
        History {
            table: vec![0; 2 * size],
            size,
        }
    }
    #[inline]
    pub fn get(&self, side: usize, idx: usize) -> i32 {
        self.table[side * self.size + idx]
    }
    #[inline]
    pub fn update(&mut self, side: usize, idx: usize, bonus: i32) {
        let e = &mut self.table[side * self.size + idx];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }
}

/// Continuation history: how well a move (its piece-to index) did right after another
/// (the move one or two plies before), with the same gravity as `History`.
pub struct ContinuationHistory {
    table: Vec<i16>,
    size: usize,
}

/// No move to continue from (the root, after a null move).
pub const NO_PIECE_TO: u32 = u32::MAX;

impl ContinuationHistory {
    /// A table for `size` piece-to indices; `size` 0 when the feature is off (no memory).
    pub fn new(size: usize) -> Self {
        ContinuationHistory {
            table: vec![0; size * size],
            size,
        }
    }
    #[inline]
    pub fn get(&self, prev: u32, cur: usize) -> i32 {
        self.table[prev as usize * self.size + cur] as i32
    }
    #[inline]
    pub fn update(&mut self, prev: u32, cur: usize, bonus: i32) {
        let e = &mut self.table[prev as usize * self.size + cur];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = *e as i32;
        *e = (v + b - v * b.abs() / HISTORY_MAX) as i16;
    }
}

/// Scored move list with selection-sort picking. It owns the list the moves are generated
/// into (`moves`), so nothing is copied, and its scores are written only for the moves
/// there are (`score_all`, `score_noisy`) before any is read.
pub struct Picker<M: GameMove> {
    pub moves: MoveList<M>,
    scores: [MaybeUninit<i32>; crate::game::MAX_MOVES],
    next: usize,
}

impl<M: GameMove> Picker<M> {
    /// An empty picker: generate into `moves`, then score.
    #[inline(always)]
    pub fn empty() -> Self {
        Picker {
            moves: MoveList::new(),
            scores: [const { MaybeUninit::uninit() }; crate::game::MAX_MOVES],
            next: 0,
        }
    }

    /// Score every move: the table move, captures by the evaluation's MVV-LVA plus
    /// `noisy_score` (their capture history), killers, then quiet moves by `quiet_score`
    /// (their history); with `see`, captures that lose by exchange come last. Returns how
    /// many of the moves are noisy.
    #[allow(clippy::too_many_arguments)]
    pub fn score_all<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        eval: &G::Eval,
        tt_move: M,
        killers: [M; 2],
        see: bool,
        noisy_score: impl Fn(M) -> i32,
        quiet_score: impl Fn(M) -> i32,
    ) -> usize {
        let mut noisy = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            let s = if m == tt_move {
                noisy += pos.is_noisy(m) as usize;
                TT_SCORE
            } else if pos.is_noisy(m) {
                noisy += 1;
                let base = if see && !eval.see_ge(pos, m, 0) {
                    BAD_NOISY_BASE
                } else {
                    NOISY_BASE
                };
                base + eval.noisy_order(pos, m) + noisy_score(m)
            } else if m == killers[0] {
                KILLER_1
            } else if m == killers[1] {
                KILLER_2
            } else {
                quiet_score(m)
            };
            self.scores[i] = MaybeUninit::new(s);
        }
        noisy
    }

    /// Score noisy moves only (quiescence): the table move, then MVV-LVA plus
    /// `noisy_score`.
    pub fn score_noisy<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        eval: &G::Eval,
        tt_move: M,
        noisy_score: impl Fn(M) -> i32,
    ) {
        for (i, &m) in self.moves.iter().enumerate() {
            let s = if m == tt_move {
                TT_SCORE
            } else if pos.is_noisy(m) {
                NOISY_BASE + eval.noisy_order(pos, m) + noisy_score(m)
            } else {
                0
            };
            self.scores[i] = MaybeUninit::new(s);
        }
    }

    /// The scores of the moves in the list.
    #[inline(always)]
    fn scored(&self) -> &[i32] {
        let n = self.moves.len();
        // SAFETY: `score_all`/`score_noisy` wrote a score for every move in the list (the
        // first `n` entries), and `MaybeUninit<i32>` has `i32`'s layout.
        unsafe { std::slice::from_raw_parts(self.scores.as_ptr() as *const i32, n) }
    }

    #[inline]
    pub fn pick(&mut self) -> Option<M> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores, in one scan: over a node's few moves it beats a
        // vectorised maximum followed by a second scan for its position (44f882b).
        let rest = &self.scored()[self.next..];
        let (mut best, mut high) = (0, rest[0]);
        for (i, &s) in rest.iter().enumerate().skip(1) {
            if s > high {
                (best, high) = (i, s);
            }
        }
        let best = self.next + best;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = self.moves.get(self.next);
        self.next += 1;
        Some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::default_evaluator;
    use crate::revealchess::Board;

    /// `pick` takes the highest remaining score, the first of equal ones in the list as
    /// the swaps have left it: the order of a selection sort that scans for the maximum,
    /// then for its first position.
    #[test]
    fn pick_takes_the_first_of_the_highest_scores() {
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true).unwrap();
        let mut p = Picker::empty();
        b.generate_moves(&mut p.moves);
        let n = p.moves.len();
        assert!(n > 20);
        let mut reference: Vec<(i32, <Board as Game>::Move)> = Vec::new();
        for (i, &m) in p.moves.iter().enumerate() {
            let s = [5, -3, 5, 9, 0, 9, -3, i32::MIN, i32::MAX][i % 9];
            p.scores[i] = MaybeUninit::new(s);
            reference.push((s, m));
        }
        let mut expected = Vec::new();
        for next in 0..n {
            let high = reference[next..].iter().map(|e| e.0).max().unwrap();
            let best = next + reference[next..].iter().position(|e| e.0 == high).unwrap();
            reference.swap(next, best);
            expected.push(reference[next].1);
        }
        let picked: Vec<_> = std::iter::from_fn(|| p.pick()).collect();
        assert_eq!(picked, expected);
    }

    /// The captures' order among equal MVV-LVA values follows `noisy_score` (capture
    /// history), and the table move still comes first whatever the history says.
    #[test]
    fn capture_history_orders_equal_captures() {
        // The knight on d5 can take an undefended pawn on c7 or on e7: the same MVV-LVA value.
        let b = Board::from_fen("7k/2p1p3/8/3N4/8/8/8/4K3 w - - 0 1", true).unwrap();
        let eval = default_evaluator(&b);
        let (c7, _) = b.parse_move("d5c7").unwrap();
        let (e7, _) = b.parse_move("d5e7").unwrap();
        let order = |favoured: <Board as Game>::Move, tt: <Board as Game>::Move| {
            let mut p = Picker::empty();
            b.generate_moves(&mut p.moves);
            p.score_all(
                &b,
                &eval,
                tt,
                [Default::default(); 2],
                true,
                |m| if m == favoured { 500 } else { -500 },
                |_| 0,
            );
            let mut v = Vec::new();
            while let Some(m) = p.pick() {
                v.push(m);
            }
            v
        };
        let none = Default::default();
        assert_eq!(&order(c7, none)[..2], &[c7, e7]);
        assert_eq!(&order(e7, none)[..2], &[e7, c7]);
        assert_eq!(&order(e7, c7)[..2], &[c7, e7]);
    }
}
