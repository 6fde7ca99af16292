//! Evaluation weights made by `tinh tune` (src/tune/). Remake them with the command
//! below rather than editing by hand: a hand edit needs its own SPRT.
//!
//! Made in five fits. The base (every weight but the threat, rook-file, pawn and king-safety ones):
//! Command: tinh --variant revealchess tune data/revealchess-n4000-s23.bin --out data/revealchess-l2b.txt --rust src/revealchess/reveal_weights.rs --freeze phase,order_value --lr 0.3 --epochs 150 --rounds 8 --threads 1 --l2 1e-8 --l2-on psq
//! Result: K = 0.6233, loss 0.030083, held-out loss 0.029506
//!
//! Then the threat and rook-file weights alone, over new data, everything else frozen
//! (weights/revealchess-threats-only.txt; its 10+0.1 test is in weights/README.md):
//! Command: tinh --variant revealchess tune data/revealchess-n4000-s2601.bin --out data/revealchess-threats-only.txt --freeze value,phase,center,pawn_rank,king_rank_mg,psq,mobility,mobility_base,shell_mobility,king_attack_units,king_attack_scale,king_attack_cap,pawn_shield,doubled,isolated,passed,bishop_pair,tempo,order_value --lr 1 --epochs 300 --rounds 8 --threads 1
//! Result: K = 0.6452, loss 0.028442, held-out loss 0.028332
//!
//! Then over new data (16,000 self-play games, seed 4301), each group alone with every other
//! weight frozen: the passed and connected pawns (weights/revealchess-passers.txt), the safe
//! checks, then the king's defenders (weights/revealchess-kingsafety.txt). The two files'
//! headers have the three commands; the 10+0.1 test is in weights/README.md. The last fit:
//! Result: K = 0.6526, loss 0.028126, held-out loss 0.028320
//!
//! This file was written from that text by `tinh --variant revealchess tune DATA --eval
//! weights/revealchess-kingsafety.txt --rounds 0 --rust src/revealchess/reveal_weights.rs`
//! (`--rounds 0` only measures, so any data file serves: "0 of 983 weights changed").

use super::eval::Weights;

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    value: [(58, 141), (178, 283), (229, 294), (270, 502), (803, 838), (0, 0)],
    phase: [0, 1, 1, 2, 4, 0],
    center: [(0, -6), (16, 16), (12, 8), (12, 0), (12, 20), (0, 10)],
    pawn_rank: [(-22, -6), (-23, 18), (-7, -2), (0, 11), (42, 14), (56, 72), (100, 41), (0, 0)],
    king_rank_mg: -16,
    psq: [[(-2, -2), (1, 3), (-3, -3), (-1, -6), (3, 4), (-4, -1), (9, 5), (-1, 2), (-2, -5), (-8, -5), (-3, -4), (3, 4), (16, 6), (-3, -5), (4, 8), (-5, 1), (-8, 0), (-10, 11), (13, 0), (3, 8), (4, 3), (10, -13), (5, -4), (-12, -3), (-4, -4), (4, -1), (-5, 1), (6, -3), (-2, 2), (-3, 2), (5, 3), (0, 1), (3, 0), (8, 9), (-11, -8), (0, -5), (1, 10), (-11, -1), (5, 6), (5, -10), (10, 5), (0, 3), (-4, 2), (-10, -5), (-1, -6), (0, 2), (-2, -5), (9, 6), (4, 9), (-1, 4), (0, -1), (0, 1), (0, -3), (0, 1), (-1, -3), (0, -7), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)], [(-1, -4), (1, 1), (-1, 0), (-5, -5), (1, -2), (-3, -1), (1, -1), (0, 0), (-9, -3), (0, 4), (4, 0), (1, 2), (0, 2), (15, 7), (-6, -5), (-8, -3), (5, 3), (19, 0), (2, -4), (-2, 2), (-3, -3), (0, 3), (-1, 1), (6, 5), (-1, 6), (-7, -6), (-1, 4), (2, 4), (-16, -1), (6, 4), (-3, -1), (2, 2), (-1, 0), (3, 3), (3, 2), (1, -2), (6, -6), (3, 3), (2, 3), (6, 4), (-1, 1), (-2, -3), (-3, -3), (-2, 0), (0, 1), (-3, -4), (4, 1), (0, 0), (-3, -3), (-2, 1), (-2, 0), (-1, 0), (0, 1), (1, 0), (-3, -1), (-1, -1), (3, 2), (0, -1), (0, 1), (-1, -1), (0, -1), (0, 0), (0, 0), (0, -2)], [(0, -2), (-2, 0), (-1, 0), (0, 1), (-3, -3), (2, 0), (0, -1), (2, 3), (2, 2), (2, -1), (-2, 2), (-1, 0), (3, 0), (3, 1), (1, -2), (8, 6), (0, -2), (-6, -3), (5, 12), (0, -4), (-3, 4), (6, 3), (1, 0), (5, 2), (-3, -3), (-3, 2), (-1, 0), (0, 0), (2, -1), (4, 0), (1, 1), (9, 4), (-4, 0), (1, 1), (-1, 5), (5, 0), (5, 2), (0, 0), (0, 2), (-1, 1), (1, 2), (-1, 0), (-6, -5), (-3, -3), (-7, -3), (-3, -2), (-1, -2), (1, -2), (-5, -1), (-5, -3), (-8, -5), (-5, -1), (0, 1), (0, -2), (-6, 1), (-4, 0), (5, 2), (-4, -1), (1, 0), (0, 0), (0, 1), (0, 0), (-2, 1), (6, 1)], [(5, 2), (8, -1), (-7, -2), (-2, 0), (1, 3), (1, 1), (8, 2), (6, 4), (10, 0), (0, 0), (-1, 2), (-3, 0), (11, 3), (0, -2), (7, 3), (6, -2), (6, 0), (4, -3), (5, -1), (1, 5), (7, -6), (13, -1), (4, 1), (0, 0), (5, 2), (-8, -3), (-1, 3), (-3, 0), (5, 5), (7, -2), (-4, 1), (0, -4), (2, 0), (12, 5), (-4, 1), (0, 1), (2, -1), (3, 0), (0, -1), (2, 2), (2, 1), (-8, -2), (-9, -1), (-1, -1), (-8, 0), (-6, -1), (-7, 0), (1, 2), (-9, -1), (-15, -5), (-10, -3), (-5, -1), (-1, 1), (1, 2), (-10, -1), (-9, -3), (2, 6), (-5, -2), (-6, -3), (0, 2), (0, 2), (-3, -2), (1, 1), (6, 2)], [(5, 1), (2, 0), (4, 1), (1, 2), (1, 1), (3, 0), (7, 0), (1, 0), (5, 2), (9, 2), (5, 1), (3, 2), (6, 2), (3, 2), (4, 0), (3, 1), (-2, 1), (1, 1), (8, 2), (3, 1), (7, 2), (7, 1), (7, 2), (5, 2), (5, 2), (-3, -1), (9, 2), (0, -1), (1, 0), (5, 2), (-2, 0), (3, 3), (0, 1), (2, 1), (0, -2), (-1, -1), (2, 2), (3, 3), (2, 1), (7, 3), (-2, 0), (-7, -1), (-18, -6), (-5, 0), (-13, -4), (-13, -6), (-7, -2), (-2, -1), (-5, -1), (-4, -1), (-5, -1), (-2, 1), (-1, 0), (1, 1), (-8, -1), (-2, 1), (-6, -7), (-8, -4), (-10, -5), (-2, -1), (0, 0), (-1, 0), (-4, -1), (-1, -3)], [(-1, 0), (-2, 1), (-1, -1), (-15, -5), (1, 8), (10, -3), (5, -5), (3, 2), (-2, -5), (5, 3), (3, 0), (0, 0), (-8, 0), (5, -6), (8, 2), (0, 0), (0, -2), (2, 5), (-4, -2), (-4, 1), (2, 4), (-2, 1), (0, -5), (-2, -5), (1, 1), (1, 0), (-1, -3), (-2, -3), (-1, -2), (-1, 2), (1, -1), (-1, -1), (0, 1), (0, 2), (0, -4), (-1, -5), (0, 3), (0, 0), (0, 4), (0, 2), (0, 1), (0, 0), (0, -1), (0, 0), (0, 1), (0, 3), (1, 2), (0, 1), (0, 0), (0, 1), (0, 0), (0, 0), (0, 1), (0, 1), (1, 2), (0, 0), (0, 0), (0, 0), (0, -1), (0, 0), (0, 1), (0, 1), (0, 0), (0, 0)]],
    mobility: [(0, 0), (1, 4), (1, 5), (0, 7), (1, 3), (0, 0)],
    mobility_base: [0, -23, -15, -24, -70, 0],
    shell_mobility: (11, 19),
    pool_value: [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    king_attack_units: [10, 4, 0, 2, 3, 0],
    king_attack_scale: 3,
    king_attack_cap: 500,
    safe_check: [(0, 0), (29, -9), (15, 2), (22, -1), (8, 77), (0, 0)],
    check_units: [0, 1, 9, 6, 5, 0],
    king_defenders: [(0, 0), (7, -12), (6, 8), (10, -7), (15, 15), (12, 12)],
    pawn_shield: (21, -3),
    doubled: (16, -48),
    isolated: (-3, -9),
    connected: [(-1, -29), (-7, -9), (-6, 0), (-7, 7), (-4, 15), (-4, 20), (26, 26), (0, 0)],
    passed: [(12, -23), (-34, 2), (-34, 6), (-21, 35), (-37, 60), (-50, 75), (72, 151), (0, 0)],
    passed_own_king: (3, -5),
    passed_enemy_king: (-3, 8),
    passed_blocked: (-9, -5),
    bishop_pair: (-4, 33),
    rook_open_file: (-2, -2),
    rook_half_open_file: (13, -11),
    threat_by_pawn: [(-35, 118), (69, 71), (116, 122), (120, 187), (144, 430), (-52, 75)],
    threat_by_minor: [(-3, 12), (18, 45), (48, 40), (65, 99), (103, 192), (-11, 10)],
    threat_by_rook: [(-6, 7), (8, 34), (42, 14), (87, 337), (84, 427), (8, -10)],
    winnable_pawns: 0,
    winnable_passed: 0,
    winnable_both_flanks: 0,
    winnable_pawn_ending: 0,
    winnable_face_down: 0,
    winnable_outflanking: 0,
    winnable_bias: 0,
    tempo: 25,
    order_value: [100, 320, 330, 500, 900, 2000],
};
