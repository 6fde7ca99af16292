//! Standard chess perft against the Chess Programming Wiki's published counts (library and
//! CLI). Full depths (start 6, others 5) run from the ignored test `cpw_full_depth` or
//! `scripts/perft_vs_stockfish.sh`.

mod cli_support;
use cli_support::tinh;

use tinh::game::*;
use tinh::revealchess::Board;

/// (FEN, counts for depth 1..): the Chess Programming Wiki's "Perft Results" positions.
const CPW: &[(&str, &[u64])] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[20, 400, 8902, 197281, 4865609, 119060324],
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2039, 97862, 4085603, 193690690],
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2812, 43238, 674624, 11030083],
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9467, 422333, 15833292],
    ),
    (
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        &[6, 264, 9467, 422333, 15833292],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1486, 62379, 2103487, 89941194],
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2079, 89890, 3894594, 164075551],
    ),
];

fn check(max_nodes: u64) {
    for (fen, counts) in CPW {
        let mut b = Board::from_fen(fen, true).unwrap();
        for (d, &n) in counts.iter().enumerate() {
            if n > max_nodes {
                break;
            }
            assert_eq!(b.perft(d as u32 + 1), n, "{fen} depth {}", d + 1);
        }
    }
}

#[test]
fn cpw_positions_to_depth_4() {
    // Depth 4 everywhere (up to ~4 M leaves each), depth 5 for the small ones.
    check(5_000_000);
}

#[test]
#[ignore]
fn cpw_full_depth() {
    check(u64::MAX);
}

#[test]
fn fast_perft_equals_generic_perft_on_cpw_positions() {
    for (fen, counts) in CPW {
        let mut b = Board::from_fen(fen, true).unwrap();
        assert_eq!(perft_generic(&mut b, 3), counts[2], "{fen}");
        assert_eq!(b.to_fen(), *fen, "perft must leave the board as it was");
    }
}

/// Positions where a draw rule holds but play could go on: perft counts the legal-move
/// tree regardless (Stockfish 15.1 `go perft`, and every chess perft tool, count these).
const DRAWN_BUT_MOVABLE: &[(&str, u32, u64)] = &[
    // Dead position (king and knight against king).
    ("8/3k4/8/8/5N2/8/8/3K4 b - - 0 3", 2, 91),
    ("8/3k4/8/8/5N2/8/8/3K4 b - - 0 3", 4, 6796),
    // Bishops on squares of one colour; bare kings.
    ("8/8/3k4/8/2B5/8/4B3/3K4 w - - 0 1", 4, 13633),
    ("8/8/3k4/8/8/8/8/3K4 w - - 0 1", 5, 14104),
    // The 75-move rule (150 plies without capture or pawn move) reached inside the tree,
    // and already reached at the root.
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 149 80", 4, 314346),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 150 100",
        3,
        97862,
    ),
];

#[test]
fn perft_ignores_draw_rules_as_stockfish_does() {
    for &(fen, depth, n) in DRAWN_BUT_MOVABLE {
        let mut b = Board::from_fen(fen, true).unwrap();
        assert_eq!(b.perft(depth), n, "bulk perft {fen} depth {depth}");
        assert_eq!(perft_generic(&mut b, depth), n, "generic perft {fen}");
        let lines = tinh::perft::divide(&b, depth, 1);
        assert_eq!(tinh::perft::total(&lines, depth), n, "divide {fen}");
    }
    // The example from the issue, through the command line.
    let (code, out, _) = tinh(&[
        "perft",
        "--variant",
        "chess",
        "--fen",
        DRAWN_BUT_MOVABLE[0].0,
        "2",
    ]);
    assert!(
        code == Some(0) && out.ends_with("\nNodes searched: 91\n"),
        "{out}"
    );
}

#[test]
fn cli_perft_divide_chess() {
    let (code, out, _) = tinh(&["perft", "--variant", "chess", "3"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("e2e4: 600\n"), "{out}");
    assert!(out.contains("g1f3: 440\n"), "{out}");
    assert!(out.ends_with("\nNodes searched: 8902\n"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        20
    );
}

#[test]
fn cli_perft_fen_moves_and_threads() {
    let kiwi = CPW[1].0;
    let (code, out, _) = tinh(&[
        "perft",
        "--variant",
        "chess",
        "--fen",
        kiwi,
        "--threads",
        "2",
        "3",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Nodes searched: 97862"), "{out}");
    // Castling named as the king's move; after it, perft from the new position.
    assert!(out.contains("e1g1: "), "{out}");
    let (code, out, _) = tinh(&[
        "perft",
        "--variant",
        "chess",
        "--moves",
        "e2e4 e7e5 g1f3",
        "1",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Nodes searched: 29"), "{out}");
    let (code, _, _) = tinh(&["perft", "--variant", "chess", "--moves", "e2e5", "1"]);
    assert_ne!(code, Some(0), "an illegal move must be refused");
}
