//! The generic search over Reveal Chess and chess: a smoke check that the rules, chance
//! outcomes and evaluation work under the searcher (mate found, legal best moves).

use tinh::game::*;
use tinh::revealchess::Board;
use tinh::search::{Limits, Options, Searcher};

fn best(b: &Board, depth: u32) -> (Option<String>, Score) {
    let s = Searcher::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let r = s.search(b, &limits, &Options::default(), &|_| {});
    (r.best.map(|m| b.move_to_string(m)), r.score)
}

#[test]
fn finds_mate_in_one_in_chess() {
    let b = Board::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1", true).unwrap();
    let (m, score) = best(&b, 4);
    assert_eq!(m.as_deref(), Some("a1a8"));
    assert!(score >= MATE_BOUND, "{score}");
}

#[test]
fn reveal_chess_search_returns_a_legal_choice() {
    // Few face-down pieces keep the tree small: the quiescence search expands every
    // capture by a face-down piece into one branch per reveal outcome (up to five), so a
    // full opening position is a much larger tree (626,413 nodes at depth 3).
    for f in [
        "1k6/8/8/8/8/8/8/X3K3 w - - 0 1 P1R1",
        "r3k3/1x6/8/8/8/8/6X1/4K2X w Kq - 0 1 P2N1p1",
    ] {
        let b = Board::from_fen(f, false).unwrap();
        let (m, _) = best(&b, 3);
        let m = m.expect("a move");
        assert!(b.parse_choice(&m).is_ok(), "{f}: {m}");
    }
}
