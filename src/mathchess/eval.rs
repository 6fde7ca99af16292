//! Static evaluation of Math Chess positions (side-to-move relative, centipawn-like).

use super::board::*;
use crate::game::{EvalTerm, Score};

pub struct Weights {
    pub material: [Score; 10],
}

pub const WEIGHTS: Weights = Weights {
    material: [0, 100, 100, 100, 100, 100, 100, 100, 100, 100],
};

pub fn evaluate(b: &Board) -> Score {
    let t = eval_terms(b);
    let s: Score = t.iter().map(|t| t.first - t.second).sum();
    if b.side == BLUE { s } else { -s }
}

pub fn eval_terms(b: &Board) -> Vec<EvalTerm> {
    let mut m = [0; 2];
    for side in 0..2 {
        for n in 1..10 {
            if b.sq[side][n] != crate::mathchess::geometry::NONE {
                m[side] += WEIGHTS.material[n];
            }
        }
    }
    vec![EvalTerm {
        name: "material",
        first: m[0],
        second: m[1],
    }]
}
