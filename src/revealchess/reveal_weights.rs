//! Evaluation weights made by `tinh tune` (src/tune/). Remake them with the command
//! below rather than editing by hand: a hand edit needs its own SPRT.
//!
//! Command: none: the hand-set weights from before tuning
//! Result: not tuned

use super::eval::Weights;

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    value: [(82, 94), (337, 281), (365, 297), (477, 512), (1025, 936), (0, 0)],
    phase: [0, 1, 1, 2, 4, 0],
    center: [(0, 0), (12, 8), (6, 5), (2, 2), (3, 6), (0, 12)],
    pawn_rank: [(0, 0), (0, 0), (2, 4), (6, 10), (12, 22), (20, 40), (35, 70), (0, 0)],
    king_rank_mg: -18,
    mobility: [(0, 0), (4, 4), (5, 5), (2, 4), (1, 2), (0, 0)],
    mobility_base: [0, 4, 6, 6, 12, 0],
    shell_mobility: (3, 2),
    king_attack_units: [1, 2, 2, 3, 5, 0],
    king_attack_scale: 6,
    king_attack_cap: 500,
    pawn_shield: (12, 0),
    doubled: (-10, -20),
    isolated: (-12, -10),
    passed: [(0, 0), (0, 5), (2, 10), (8, 20), (20, 40), (40, 75), (70, 120), (0, 0)],
    bishop_pair: (25, 45),
    tempo: 12,
    order_value: [100, 320, 330, 500, 900, 2000],
};
