//! Evaluation weights made by `tinh tune` (src/tune/). Remake them with the command
//! below rather than editing by hand: a hand edit needs its own SPRT.
//!
//! Command: none: the hand-set weights from before tuning
//! Result: not tuned

use super::eval::Weights;

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    material: [0, 80, 95, 100, 100, 100, 105, 110, 110, 115],
    mobility: 2,
    pair: 6,
    capture: 8,
    zero_take_on_move: 3000,
    zero_threat: 120,
    zero_exposed: 15,
    zero_shield: 10,
    hanging_on_move: 2,
    hanging_off_move: 8,
    points: 4,
    target_progress: 8,
};
