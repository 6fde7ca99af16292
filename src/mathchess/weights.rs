//! Evaluation weights made by `tinh tune` (src/tune/). Remake them with the command
//! below rather than editing by hand: a hand edit needs its own SPRT.
//!
//! Command: tinh tune data/mathchess-n5000-s1.bin --out data/mathchess-tuned.txt --rust src/mathchess/weights.rs --threads 1
//! Result: K = 1.1382, loss 0.027175, held-out loss 0.032068

use super::eval::Weights;

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    material: [0, 76, 93, 121, 105, 98, 119, 132, 92, 98],
    mobility: 2,
    pair: 7,
    capture: 17,
    zero_take_on_move: 3000,
    zero_threat: 120,
    zero_exposed: 16,
    zero_shield: -1,
    hanging_on_move: -1,
    hanging_off_move: 1,
    points: 4,
    target_progress: 8,
};
