//! Static evaluation of Math Chess positions: side-to-move relative, centipawn-like.
//!
//! One pass per side over its pieces' four lines (the same line words as move
//! generation) gives mobility, capture pairs, the captures it could make now and which
//! enemy pieces they hit. From those: material (a number's worth is not its face value),
//! mobility, pairs, arithmetic threats on the enemy 0 and on one's own 0, pieces en prise,
//! and captured points when the point target is on. All weights live in one `Weights`
//! structure (compiled in as `WEIGHTS`, in `weights.rs`, which `tinh tune` writes);
//! `Evaluation` is the search's evaluator.

// Pieces are indexed by their number and squares by index: index loops read best.
#![allow(clippy::needless_range_loop)]

use super::Move;
use super::board::*;
use super::geometry::*;
use crate::eval::{EvalTerm, Evaluator};
use crate::game::Score;

crate::eval_weights! {
/// Every evaluation weight, in one place.
pub struct Weights {
    /// Worth of each number on the board. Large numbers move farther; every number is
    /// about equally useful in capture arithmetic (a small support such as 2 or 3 gives
    /// its partners the most distances), so the spread is much flatter than face value.
    /// The 0 is not material: losing it loses the game.
    pub material: [Score; 10],
    /// Per ordinary move available.
    pub mobility: Score,
    /// Per attacker standing next to a friendly support (a capture waiting for a target).
    pub pair: Score,
    /// Per capture available now (any target).
    pub capture: Score,
    /// The side can capture the enemy 0: on its move it wins at once; otherwise the
    /// opponent must answer the threat.
    pub zero_take_on_move: Score,
    pub zero_threat: Score,
    /// Per direction in which the first piece seen from one's own 0 is an enemy piece (a
    /// possible support for an arithmetic attack on the 0).
    pub zero_exposed: Score,
    /// Per friendly piece next to one's own 0 (it blocks lines toward it).
    pub zero_shield: Score,
    /// Pieces en prise: the most valuable own piece the enemy can capture, in 1/16 of its
    /// worth, depending on who moves next.
    pub hanging_on_move: Score,
    pub hanging_off_move: Score,
    /// Per captured point, only when the point target is on; plus a bonus scaled by how
    /// close the side is to the target (in 1/16ths of this per point of progress).
    pub points: Score,
    pub target_progress: Score,
}
}

/// The compiled-in weights live in `weights.rs`, written by `tinh tune`.
pub use super::weights::WEIGHTS;

/// What one pass over a side's pieces finds.
#[derive(Clone, Copy, Default)]
struct SideScan {
    material: Score,
    mobility: u32,
    pairs: u32,
    captures: u32,
    /// Enemy squares this side can capture on now.
    targets: u128,
}

#[inline(always)]
fn scan(b: &Board, w: &Weights, side: usize) -> SideScan {
    let own = &b.side_lines[side];
    let enemy = &b.side_lines[side ^ 1];
    let mut r = SideScan::default();
    for a in 1..10 {
        let s = b.sq[side][a];
        if s == NONE {
            continue;
        }
        let s = s as usize;
        r.material += w.material[a];
        let l = &SQ_LINES[s];
        for t in 0..4 {
            let id = l.id[t] as usize;
            let p = l.bit[t] as u32;
            let o = b.lines[id] as u32;
            let up = (o >> (p + 1)).trailing_zeros();
            let down = (o << (32 - p)).leading_zeros();
            r.mobility += up.min(a as u32) + down.min(a as u32);
            if up == 0 && (own[id] as u32 >> (p + 1)) & 1 != 0 {
                r.pairs += 1;
                let k = (o >> (p + 2)).trailing_zeros() + 1;
                if (enemy[id] as u32 >> (p + 1 + k)) & 1 != 0 {
                    let support = (s as i32 + DIR_DELTA[2 * t]) as usize;
                    if CAPTURE_DIST[a][code_num(b.mailbox[support])] >> k & 1 != 0 {
                        r.captures += 1;
                        r.targets |= 1u128 << (s as i32 + (k as i32 + 1) * DIR_DELTA[2 * t]);
                    }
                }
            }
            if down == 0 && (own[id] as u32 >> (p - 1)) & 1 != 0 {
                r.pairs += 1;
                let k = (o << (33 - p)).leading_zeros() + 1;
                if (enemy[id] as u32 >> (p - 1 - k)) & 1 != 0 {
                    let support = (s as i32 + DIR_DELTA[2 * t + 1]) as usize;
                    if CAPTURE_DIST[a][code_num(b.mailbox[support])] >> k & 1 != 0 {
                        r.captures += 1;
                        r.targets |= 1u128 << (s as i32 + (k as i32 + 1) * DIR_DELTA[2 * t + 1]);
                    }
                }
            }
        }
    }
    r
}

/// Directions in which the first piece seen from `side`'s 0 is an enemy.
#[inline(always)]
fn zero_exposure(b: &Board, side: usize) -> u32 {
    let Some(z) = b.square_of(side, 0) else {
        return 0;
    };
    let enemy = &b.side_lines[side ^ 1];
    let l = &SQ_LINES[z];
    let mut n = 0;
    for t in 0..4 {
        let id = l.id[t] as usize;
        let p = l.bit[t] as u32;
        let o = b.lines[id] as u32;
        let up = (o >> (p + 1)).trailing_zeros();
        n += (enemy[id] as u32 >> (p + 1 + up)) & 1;
        let down = (o << (32 - p)).leading_zeros();
        n += (enemy[id] as u32 >> (p - 1 - down)) & 1;
    }
    n
}

/// The terms for both sides: (name, Blue, Red).
#[inline(always)]
fn terms(b: &Board, w: &Weights) -> [(&'static str, [Score; 2]); 8] {
    let sc = [scan(b, w, BLUE), scan(b, w, RED)];
    let mut material = [0; 2];
    let mut mobility = [0; 2];
    let mut pairs = [0; 2];
    let mut zero_attack = [0; 2];
    let mut zero_safety = [0; 2];
    let mut hanging = [0; 2];
    let mut captures = [0; 2];
    let mut points = [0; 2];
    for side in 0..2 {
        let them = side ^ 1;
        let on_move = b.side == side;
        material[side] = sc[side].material;
        mobility[side] = w.mobility * sc[side].mobility as Score;
        pairs[side] = w.pair * sc[side].pairs as Score;
        captures[side] = w.capture * sc[side].captures as Score;
        if let Some(ez) = b.square_of(them, 0)
            && sc[side].targets >> ez & 1 != 0
        {
            zero_attack[side] = if on_move {
                w.zero_take_on_move
            } else {
                w.zero_threat
            };
        }
        if let Some(z) = b.square_of(side, 0) {
            let shield = (ADJACENT[z] & b.by_side[side]).count_ones() as Score;
            zero_safety[side] =
                w.zero_shield * shield - w.zero_exposed * zero_exposure(b, side) as Score;
        }
        // The most valuable own piece the enemy can take now.
        let mut hit = sc[them].targets & b.by_side[side];
        let mut worst = 0;
        while hit != 0 {
            let s = hit.trailing_zeros() as usize;
            hit &= hit - 1;
            worst = worst.max(w.material[code_num(b.mailbox[s])]);
        }
        let scale = if on_move {
            w.hanging_on_move
        } else {
            w.hanging_off_move
        };
        hanging[side] = -worst * scale / 16;
        if b.point_target != 0 {
            let got = b.captured_points(side).min(b.point_target) as Score;
            points[side] =
                w.points * got + w.target_progress * got * got / (16 * b.point_target as Score);
        }
    }
    [
        ("material", material),
        ("mobility", mobility),
        ("capture pairs", pairs),
        ("captures", captures),
        ("zero attack", zero_attack),
        ("zero safety", zero_safety),
        ("en prise", hanging),
        ("points", points),
    ]
}

/// The search's evaluator: the weights, and the evaluation computed from scratch at
/// every node (nothing incremental yet).
#[derive(Clone, Debug)]
pub struct Evaluation {
    weights: Weights,
}

impl Evaluation {
    /// Static evaluation from the side to move's point of view.
    pub fn eval(&self, b: &Board) -> Score {
        #[cfg(all(
            target_arch = "x86_64",
            not(all(target_feature = "lzcnt", target_feature = "popcnt"))
        ))]
        {
            if std::is_x86_feature_detected!("lzcnt") && std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU supports the features `eval_bit_scans` is compiled for.
                return unsafe { eval_bit_scans(b, &self.weights) };
            }
        }
        eval_body(b, &self.weights)
    }
}

/// The evaluation, side to move's view. It scans lines by leading-zero counts and counts
/// the bits of 128-bit boards: the portable build makes three instructions of each
/// leading-zero count and a dozen of each bit count where LZCNT and POPCNT make one, so
/// on a CPU that has them the same code compiled for them is used (found once, at run
/// time; Math Chess bench 1.08-1.10x).
#[inline(always)]
fn eval_body(b: &Board, w: &Weights) -> Score {
    let t = terms(b, w);
    let s: Score = t.iter().map(|(_, v)| v[0] - v[1]).sum();
    if b.side == BLUE { s } else { -s }
}

#[cfg(all(
    target_arch = "x86_64",
    not(all(target_feature = "lzcnt", target_feature = "popcnt"))
))]
#[target_feature(enable = "lzcnt,popcnt")]
fn eval_bit_scans(b: &Board, w: &Weights) -> Score {
    eval_body(b, w)
}

impl Evaluator<Board> for Evaluation {
    type Weights = Weights;

    fn default_weights(_: &Board) -> Weights {
        WEIGHTS
    }
    fn new(_: &Board, weights: Weights) -> Self {
        Evaluation { weights }
    }
    #[inline]
    fn evaluate(&mut self, b: &Board) -> Score {
        self.eval(b)
    }
    /// Most valuable victim first (the 0 above everything), then least valuable attacker.
    fn noisy_order(&self, b: &Board, mv: Move) -> Score {
        let victim = b.mailbox[mv.to()];
        if victim == EMPTY {
            return 0;
        }
        let m = &self.weights.material;
        let v = if code_num(victim) == 0 {
            100_000
        } else {
            m[code_num(victim)]
        };
        v * 16 - m[code_num(b.mailbox[mv.from()])] / 16
    }
    /// The exchange by the material weights (`see.rs` says what an exchange is here).
    fn see_ge(&self, b: &Board, mv: Move, threshold: Score) -> bool {
        super::see::see_ge(b, mv, threshold, &self.weights.material)
    }
    /// Blue's value and Red's value of every term.
    fn terms(&mut self, b: &Board) -> Vec<EvalTerm> {
        terms(b, &self.weights)
            .iter()
            .map(|&(name, v)| EvalTerm {
                name,
                first: v[0],
                second: v[1],
            })
            .collect()
    }
}

/// Static evaluation with the compiled-in weights, side to move's view (tests, tools).
pub fn evaluate(b: &Board) -> Score {
    Evaluation { weights: WEIGHTS }.eval(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_terms_sum_to_the_evaluation() {
        let b = Board::startpos();
        assert_eq!(evaluate(&b), 0);
        for pos in crate::mathchess::tests::sample_positions(9, 200) {
            let s: Score = Evaluation::new(&pos, WEIGHTS)
                .terms(&pos)
                .iter()
                .map(|t| t.first - t.second)
                .sum();
            let want = if pos.side == BLUE { s } else { -s };
            assert_eq!(evaluate(&pos), want);
            assert!(evaluate(&pos).abs() < crate::game::MATE_BOUND);
        }
    }

    #[test]
    fn mirrored_position_evaluates_the_same_for_the_other_side() {
        // A half turn swaps the colours: the evaluation for the side to move is unchanged.
        for pos in crate::mathchess::tests::sample_positions(10, 100) {
            let mut cells = String::new();
            for rank in 0..RANKS {
                let mut gap = 0;
                for file in (0..FILES).rev() {
                    let c = pos.piece_at(square(file, rank));
                    if c == EMPTY {
                        gap += 1;
                    } else {
                        if gap > 0 {
                            cells += &gap.to_string();
                            gap = 0;
                        }
                        cells.push(if code_side(c) == BLUE { 'r' } else { 'b' });
                        cells += &code_num(c).to_string();
                    }
                }
                if gap > 0 {
                    cells += &gap.to_string();
                }
                if rank + 1 < RANKS {
                    cells.push('/');
                }
            }
            cells += if pos.side == BLUE { " r" } else { " b" };
            let m = Board::from_fen(&cells).unwrap();
            assert_eq!(evaluate(&m), evaluate(&pos), "{} vs {}", pos.fen(), m.fen());
        }
    }

    #[test]
    fn material_and_threats_count() {
        // Blue 7/4 can take the Red 0: a winning threat when Blue moves.
        let b = Board::from_fen("9/9/9/9/9/9/r08/9/9/b48/b77b0 b").unwrap();
        let blue = evaluate(&b);
        assert!(blue > 1000, "{blue}");
        let r = Board::from_fen("9/9/9/9/9/9/r08/9/9/b48/b77b0 r").unwrap();
        assert!(
            evaluate(&r) < -50,
            "Red to move with its 0 attacked: {}",
            evaluate(&r)
        );
        // A side a piece up is ahead.
        let up = Board::from_fen("4r04/9/9/9/9/9/9/9/9/9/b97b0 b").unwrap();
        assert!(evaluate(&up) > 50);
    }
}
