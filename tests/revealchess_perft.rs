//! Reveal Chess perft under the rules file's counting (each reveal branches once per type
//! left in the pool; a reveal is not a ply; a shell move onto the last rank is four moves
//! when the pool holds a pawn), through the library and the CLI.

mod cli_support;
use cli_support::tinh;

use tinh::game::*;
use tinh::revealchess::Board;

#[test]
fn start_position_counts() {
    let mut b = Board::startpos(false);
    assert_eq!(b.perft(1), 100);
    assert_eq!(b.perft(2), 9_980);
    assert_eq!(b.perft(3), 1_052_248);
    assert_eq!(b.perft(4), 110_020_817);
}

#[test]
fn generic_perft_agrees_at_the_start() {
    let mut b = Board::startpos(false);
    assert_eq!(perft_generic(&mut b, 3), 1_052_248);
}

#[test]
fn shell_onto_last_rank_counts_backup_letters() {
    // Rook shell a1 with an open file; pool P1 R1 (two types): a1a8 is four moves (q r b n)
    // times two reveals; a1a2..a7, b1, c1, d1 are one move times two reveals; e1c1 castles
    // (reveals the corner: two branches); king: d2 e2 f2 f1 (d1 is attacked? no: 5 steps).
    let b = Board::from_fen("4k3/8/8/8/8/8/8/X3K3 w Q - 0 1 R1P1", false).unwrap();
    let mut l = MoveList::new();
    b.generate_moves(&mut l);
    let shell: Vec<String> = l
        .iter()
        .filter(|m| b.move_to_string(**m).starts_with("a1"))
        .map(|m| b.move_to_string(*m))
        .collect();
    assert_eq!(shell.len(), 6 + 4 + 3, "{shell:?}");
    for s in ["a1a8q", "a1a8r", "a1a8b", "a1a8n", "a1a7", "a1d1"] {
        assert!(shell.contains(&s.to_string()), "{s} missing from {shell:?}");
    }
    let mut c = b.clone();
    // 13 shell moves + castling, two reveal types each; five king steps.
    assert_eq!(c.perft(1), (13 + 1) * 2 + 5);
    assert_eq!(c.perft(3), perft_generic(&mut c, 3));
    // Without a pawn in the pool the move onto the last rank is one move with no letter.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/X3K3 w Q - 0 1 R1B1", false).unwrap();
    let mut l = MoveList::new();
    b.generate_moves(&mut l);
    let a8: Vec<String> = l
        .iter()
        .filter(|m| b.move_to_string(**m).starts_with("a1a8"))
        .map(|m| b.move_to_string(*m))
        .collect();
    assert_eq!(a8, vec!["a1a8".to_string()]);
}

#[test]
fn perft_ignores_the_75_move_rule_and_dead_positions() {
    // The legal-move tree only, as in chess: the half-move clock changes nothing, ...
    let fresh = "r3k3/1x6/8/8/8/8/6X1/4K2X w Kq - 0 1 P2N1p1";
    let late = "r3k3/1x6/8/8/8/8/6X1/4K2X w Kq - 149 90 P2N1p1";
    let mut a = Board::from_fen(fresh, false).unwrap();
    let mut b = Board::from_fen(late, false).unwrap();
    let n = a.perft(3);
    assert!(n > 0);
    assert_eq!(b.perft(3), n);
    assert_eq!(perft_generic(&mut b, 3), n);
    // ... and a dead position (everything revealed, bare kings) counts as chess does.
    let mut k = Board::from_fen("8/8/3k4/8/8/8/8/3K4 w - - 0 1 -", false).unwrap();
    assert_eq!(k.perft(5), 14_104);
    assert_eq!(perft_generic(&mut k, 5), 14_104);
}

#[test]
fn cli_divide_names_reveal_branches() {
    let (code, out, _) = tinh(&["perft", "--variant", "revealchess", "2"]);
    assert_eq!(code, Some(0));
    // Every root branch is a move with its reveal letter, 100 of them.
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .collect();
    assert_eq!(lines.len(), 100);
    assert!(lines.contains(&"e2e4P: 100"), "{out}");
    assert!(lines.contains(&"b1c3Q: 100"), "{out}");
    assert!(out.ends_with("\nNodes searched: 9980\n"), "{out}");
    // a2a4B pins the d7 pawn shell against e8: 18 replies x 5 reveal types.
    let n: u64 = lines
        .iter()
        .find(|l| l.starts_with("a2a4B: "))
        .map(|l| l[7..].parse().unwrap())
        .unwrap();
    assert_eq!(n, 90, "{out}");
}

#[test]
fn cli_moves_with_reveal_letters() {
    let (code, out, _) = tinh(&[
        "perft",
        "--variant",
        "revealchess",
        "--moves",
        "e2e4P e7e5N",
        "1",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let (code2, out2, _) = tinh(&[
        "perft",
        "--variant",
        "revealchess",
        "--fen",
        "xxxxkxxx/xxxx1xxx/8/4n3/4P3/8/XXXX1XXX/XXXXKXXX w KQkq - 0 2 Q1R2B2N2P7q1r2b2n1p8",
        "1",
    ]);
    assert_eq!(code2, Some(0));
    assert_eq!(
        out.lines().last(),
        out2.lines().last(),
        "--moves must reach the same position as its FEN"
    );
    // A reveal move without its letter is refused.
    let (code, _, err) = tinh(&["perft", "--variant", "revealchess", "--moves", "e2e4", "1"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("reveal"), "{err}");
}
