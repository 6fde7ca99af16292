//! Evaluation weights made by `tinh tune` (src/tune/). Remake them with the command
//! below rather than editing by hand: a hand edit needs its own SPRT.
//!
//! Command: tinh --variant revealchess tune data/revealchess-n4000-s22.bin --out data/revealchess-tuned2.txt --rust src/revealchess/reveal_weights.rs --freeze phase,order_value --lr 0.3 --epochs 150 --rounds 8 --threads 1
//! Result: K = 0.6008, loss 0.031344, held-out loss 0.030550

use super::eval::Weights;

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    value: [(61, 129), (242, 271), (265, 298), (350, 500), (890, 878), (0, 0)],
    phase: [0, 1, 1, 2, 4, 0],
    center: [(0, -6), (15, 23), (13, 12), (7, 4), (12, 8), (0, 9)],
    pawn_rank: [(-13, -12), (-9, 19), (-8, 3), (0, 11), (26, 15), (58, 55), (59, -17), (0, 0)],
    king_rank_mg: -23,
    mobility: [(0, 0), (0, 7), (1, 3), (0, 8), (2, 4), (0, 0)],
    mobility_base: [0, -7, -10, -11, -31, 0],
    shell_mobility: (9, 13),
    king_attack_units: [9, 1, -1, 1, 4, 0],
    king_attack_scale: 5,
    king_attack_cap: 500,
    pawn_shield: (19, -2),
    doubled: (17, -46),
    isolated: (-12, -4),
    passed: [(1, 15), (-79, 27), (-37, 16), (-25, 36), (-12, 61), (-33, 84), (100, 212), (0, 0)],
    bishop_pair: (24, 8),
    tempo: 28,
    order_value: [100, 320, 330, 500, 900, 2000],
};
