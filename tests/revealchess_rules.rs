//! Reveal Chess and chess rules (docs/rules/revealchess.md), one test per rule with a position built for it: shells,
//! reveals and pools, castling with a face-down corner, en passant, promotion and the
//! backup letter, check / mate / stalemate, the 50/75-move rules, repetitions, insufficient
//! material, notation and FEN errors and round trips.

use tinh::eval::{Evaluator, default_evaluator};
use tinh::game::*;
use tinh::revealchess::*;

fn b(fen: &str) -> Board {
    Board::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
}
fn c(fen: &str) -> Board {
    Board::from_fen(fen, true).unwrap_or_else(|e| panic!("{fen}: {e}"))
}
fn moves(b: &Board) -> Vec<String> {
    let mut l = MoveList::new();
    b.generate_moves(&mut l);
    l.iter().map(|&m| b.move_to_string(m)).collect()
}
/// Play `position ... moves` notation.
fn play(b: &mut Board, ms: &str) {
    for m in ms.split_whitespace() {
        let (mv, o) = b.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        b.make(mv, o);
        assert_eq!(b.key(), b.compute_key(), "after {m}");
    }
}
fn outcomes(b: &Board, m: &str) -> Vec<(u8, u16)> {
    let mv = b.parse_choice(m).unwrap();
    let mut ch = ChanceList::default();
    if b.chance(mv, &mut ch) {
        ch.as_slice().to_vec()
    } else {
        vec![]
    }
}

#[test]
fn start_positions() {
    let r = Board::startpos(false);
    assert_eq!(r.variant_name(), "revealchess");
    assert_eq!(
        r.to_fen(),
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8"
    );
    let s = Board::startpos(true);
    assert_eq!(s.variant_name(), "chess");
    assert_eq!(
        s.to_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(moves(&r).len(), 20);
    assert_eq!(r.dimensions(), (8, 8));
    // At the start every move reveals, P(queen) = 1/15, P(pawn) = 8/15.
    assert_eq!(
        outcomes(&r, "e2e4"),
        vec![
            (reveal_outcome('Q').unwrap(), 1),
            (reveal_outcome('R').unwrap(), 2),
            (reveal_outcome('B').unwrap(), 2),
            (reveal_outcome('N').unwrap(), 2),
            (reveal_outcome('P').unwrap(), 8)
        ]
    );
    assert!(outcomes(&s, "e2e4").is_empty());
}

#[test]
fn face_down_piece_attacks_as_its_shell() {
    // The c8 shell is a bishop shell whatever the pool holds: it checks the h3 king.
    let p = b("2x1k3/8/8/8/8/7K/8/8 w - - 0 1 n1");
    assert!(p.in_check());
    assert!(
        !moves(&p).contains(&"h3g4".to_string()),
        "g4 is on the shell's diagonal"
    );
    // And a knight shell on b8 covers a6, c6 and d7 (as a knight, though the pool holds a
    // queen): the c5 king is not in check but may not step to c6.
    let p = b("1x2k3/8/8/2K5/8/8/8/8 w - - 0 1 q1");
    assert!(!p.in_check());
    let ms = moves(&p);
    assert!(!ms.contains(&"c5c6".to_string()));
    assert!(ms.contains(&"c5b6".to_string()));
}

#[test]
fn shell_moves_and_captures_then_reveals_on_destination() {
    let mut p = b("4k3/8/8/p7/8/8/8/X3K3 w - - 0 1 R1P1");
    let ms = moves(&p);
    assert!(
        ms.contains(&"a1a5".to_string()),
        "rook shell captures along the file"
    );
    assert!(!ms.contains(&"a1a6".to_string()), "and does not jump");
    assert_eq!(
        outcomes(&p, "a1a5"),
        vec![
            (reveal_outcome('R').unwrap(), 1),
            (reveal_outcome('P').unwrap(), 1)
        ]
    );
    play(&mut p, "a1a5P");
    // Revealed as a pawn on a5; the pool lost its pawn.
    assert_eq!(p.to_fen(), "4k3/8/8/P7/8/8/8/4K3 b - - 0 1 R1");
    p.unmake();
    play(&mut p, "a1a3R");
    assert_eq!(p.to_fen(), "4k3/8/8/p7/8/R7/8/4K3 b - - 0 1 P1");
    // Now a real rook: it moves as a rook, no more reveals.
    play(&mut p, "e8d7 a3h3");
}

#[test]
fn a_just_revealed_piece_attacks_as_its_new_type() {
    // The g1 knight shell goes to f3: as a queen it checks along f3-e4-d5..., as a knight
    // it checks the e5 king.
    let mut p = b("8/8/8/4k3/8/8/8/4K1X1 w - - 0 1 Q1N1");
    play(&mut p, "g1f3N");
    assert!(p.in_check());
    p.unmake();
    play(&mut p, "g1f3Q");
    assert!(!p.in_check(), "a queen on f3 does not attack e5");
    p.unmake();
    // Legality never depends on the reveal: both outcomes exist for every legal move.
    assert_eq!(outcomes(&p, "g1f3").len(), 2);
}

#[test]
fn capturing_a_face_down_piece_changes_no_pool() {
    let mut p = b("r3k3/8/8/8/8/8/X7/4K3 b - - 0 1 P1N1");
    play(&mut p, "a8a2");
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/r7/4K3 w - - 0 2 N1P1");
    assert!(outcomes(&p, "e1d1").is_empty());
}

#[test]
fn castling_with_face_down_corner_reveals_it() {
    let mut p = b("4k3/8/8/8/8/8/8/4K2X w K - 0 1 R1B1");
    assert!(moves(&p).contains(&"e1g1".to_string()));
    assert_eq!(
        outcomes(&p, "e1g1"),
        vec![
            (reveal_outcome('R').unwrap(), 1),
            (reveal_outcome('B').unwrap(), 1)
        ]
    );
    assert!(
        p.parse_move("e1g1").is_err(),
        "the reveal letter is required"
    );
    let (mv, o) = p.parse_move("e1g1B").unwrap();
    assert_eq!(p.move_outcome_to_string(mv, o), "e1g1B");
    p.make(mv, o);
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/5BK1 b - - 0 1 R1");
    // Queenside, revealed rook without a reveal: no letter.
    let mut p = c("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1");
    play(&mut p, "e1c1");
    assert_eq!(p.to_fen(), "r3k3/8/8/8/8/8/8/2KR4 b q - 1 1");
    // Black may not castle across d8, which the d1 rook now attacks.
    assert!(p.parse_move("e8c8").is_err());
}

#[test]
fn castling_rules_and_rights() {
    // Through an attacked square: no; out of check: no; blocked: no.
    let p = c("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    let ms = moves(&p);
    assert!(!ms.contains(&"e1g1".to_string()));
    assert!(ms.contains(&"e1c1".to_string()));
    let p = c("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert!(!moves(&p).iter().any(|m| m == "e1g1" || m == "e1c1"));
    let p = c("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert!(!moves(&p).contains(&"e1c1".to_string()));
    // b1 attacked does not matter for O-O-O (the king does not cross it).
    let p = c("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1");
    assert!(moves(&p).contains(&"e1c1".to_string()));
    // Rights go when the king moves, the corner piece moves, or it is captured.
    let mut p = b("r3k2x/8/8/8/8/8/8/X3K2R w KQkq - 0 1 R1P1r2");
    play(&mut p, "e1e2");
    assert!(p.to_fen().contains(" kq "), "{}", p.to_fen());
    let mut p = b("r3k2x/8/8/8/8/8/8/X3K2R w KQkq - 0 1 R1P1r2");
    play(&mut p, "a1a8qR");
    assert!(p.to_fen().contains(" Kk "), "{}", p.to_fen());
    let mut p = b("r3k2x/8/8/8/8/8/8/X3K2R w KQkq - 0 1 R1P1r2");
    play(&mut p, "h1h8");
    assert!(p.to_fen().contains(" Qq "), "{}", p.to_fen());
}

#[test]
fn en_passant_only_after_a_pawn_revealing_double_step() {
    let mut p = b("4k3/8/8/8/5p2/8/4X3/4K3 w - - 0 1 N1P1");
    play(&mut p, "e2e4P");
    assert!(p.to_fen().contains(" e3 "), "{}", p.to_fen());
    assert!(moves(&p).contains(&"f4e3".to_string()));
    let k_pawn = p.key();
    p.unmake();
    play(&mut p, "e2e4N");
    assert!(!moves(&p).contains(&"f4e3".to_string()));
    assert!(p.to_fen().contains(" - "), "{}", p.to_fen());
    assert_ne!(k_pawn, p.key());
    p.unmake();
    // The capture itself.
    play(&mut p, "e2e4P f4e3");
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2 N1");
    // En passant is only for the very next move.
    let mut p = c("4k3/8/8/8/5p2/8/4P2P/4K3 w - - 0 1");
    play(&mut p, "e2e4 e8e7 h2h3");
    assert!(!moves(&p).contains(&"f4e3".to_string()));
}

#[test]
fn en_passant_square_is_hashed_only_when_the_capture_is_legal() {
    // exd3 would open the fourth rank to the h4 queen: illegal, so no en-passant key.
    let with = c("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1");
    let without = c("8/8/8/8/k2Pp2Q/8/8/4K3 b - - 0 1");
    assert!(!moves(&with).contains(&"e4d3".to_string()));
    assert_eq!(with.key(), without.key());
    // Legal here (no queen): the key differs.
    let with = c("8/8/8/8/k2Pp3/8/8/4K3 b - d3 0 1");
    let without = c("8/8/8/8/k2Pp3/8/8/4K3 b - - 0 1");
    assert!(moves(&with).contains(&"e4d3".to_string()));
    assert_ne!(with.key(), without.key());
}

#[test]
fn promotion_of_revealed_pawns() {
    let mut p = c("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let ms = moves(&p);
    for s in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(ms.contains(&s.to_string()));
    }
    assert!(!ms.contains(&"a7a8".to_string()));
    assert!(p.parse_move("a7a8").is_err());
    play(&mut p, "a7a8n");
    assert_eq!(p.to_fen(), "N3k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn shell_onto_last_rank_and_the_backup_letter() {
    let mut p = b("4k3/8/8/8/8/8/8/X3K3 w - - 0 1 R1P1");
    let ms = moves(&p);
    for s in ["a1a8q", "a1a8r", "a1a8b", "a1a8n"] {
        assert!(ms.contains(&s.to_string()), "{ms:?}");
    }
    assert!(p.parse_move("a1a8P").is_err(), "backup letter missing");
    // Reveals as a pawn: promotes at once to the backup (a queen checks e8).
    play(&mut p, "a1a8qP");
    assert_eq!(p.to_fen(), "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1 R1");
    assert!(p.in_check());
    p.unmake();
    // Reveals as a rook: the backup is ignored.
    play(&mut p, "a1a8nR");
    assert_eq!(p.to_fen(), "R3k3/8/8/8/8/8/8/4K3 b - - 0 1 P1");
    p.unmake();
    let (mv, o) = p.parse_move("a1a8qP").unwrap();
    assert_eq!(p.move_to_string(mv), "a1a8q");
    assert_eq!(p.move_outcome_to_string(mv, o), "a1a8qP");
    // No pawn in the pool: one move with no letter, and a letter is refused.
    let p = b("4k3/8/8/8/8/8/8/X3K3 w - - 0 1 R1B1");
    let ms = moves(&p);
    assert_eq!(ms.iter().filter(|m| m.starts_with("a1a8")).count(), 1);
    assert!(p.parse_move("a1a8R").is_ok());
    assert!(p.parse_move("a1a8qR").is_err());
}

#[test]
fn pawns_on_their_own_back_rank() {
    // A pawn revealed on the back rank steps one square and captures diagonally.
    let p = b("4k3/8/8/8/8/8/8/P3K3 w - - 0 1 -");
    let ms = moves(&p);
    assert!(ms.contains(&"a1a2".to_string()));
    assert!(!ms.contains(&"a1a3".to_string()));
    // But from its second rank it may step two, and a pawn revealed there too.
    let p = b("4k3/8/8/8/8/8/P7/4K3 w - - 0 1 -");
    assert!(moves(&p).contains(&"a2a4".to_string()));
}

#[test]
fn reveal_letters_are_checked_against_the_pool() {
    let mut p = Board::startpos(false);
    assert!(p.parse_move("e2e4").is_err());
    assert!(p.parse_move("e2e5P").is_err());
    play(&mut p, "d2d4Q");
    play(&mut p, "d7d5Q");
    // White's queen is out of the pool now.
    let e = p.parse_move("e2e4Q").unwrap_err();
    assert!(e.contains("pool"), "{e}");
    assert!(p.parse_move("e2e4X").is_err());
    // A reveal letter on a move that reveals nothing.
    let e = p.parse_move("d4d3Q").unwrap_err();
    assert!(e.contains("reveal"), "{e}");
    // parse_choice: the bare choice, without letter.
    assert!(p.parse_choice("e2e4").is_ok());
    assert!(p.parse_choice("e2e4P").is_err());
}

#[test]
fn check_mate_and_stalemate() {
    let mut p = c("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    play(&mut p, "f2f3 e7e5 g2g4 d8h4");
    assert!(p.in_check());
    assert!(moves(&p).is_empty());
    assert_eq!(p.no_moves_result(), Outcome::Loss);
    let end = p.game_end().unwrap();
    assert_eq!(end.outcome, Outcome::Loss);
    assert_eq!(end.reason, "checkmate");
    let p = c("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!p.in_check());
    assert!(moves(&p).is_empty());
    assert_eq!(p.no_moves_result(), Outcome::Draw);
    assert_eq!(p.game_end().unwrap().reason, "stalemate");
    // Pinned pieces and double check.
    let p = c("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    assert!(!moves(&p).iter().any(|m| m.starts_with("e2")));
    let p = c("4k3/8/8/8/8/5n2/8/r3K2R w K - 0 1");
    assert!(moves(&p).iter().all(|m| m.starts_with("e1")));
}

#[test]
fn fifty_and_seventy_five_move_rules() {
    let mut p = c("4k3/8/8/8/8/8/8/R3K3 w - - 99 60");
    assert!(p.game_end().is_none());
    assert!(!p.is_search_draw());
    play(&mut p, "a1a2");
    assert_eq!(p.game_end().unwrap().reason, "fifty-move rule");
    assert!(p.is_search_draw());
    assert_eq!(p.immediate_result(), None);
    // The fifty-move draw is only claimable: play may go on.
    assert!(p.parse_move("e8e7").is_ok());
    let mut p = c("4k3/8/8/8/8/8/8/R3K3 w - - 149 80");
    play(&mut p, "a1a2");
    assert_eq!(p.immediate_result(), Some(Outcome::Draw));
    let end = p.game_end().unwrap();
    assert_eq!(
        (end.outcome, end.reason.as_str()),
        (Outcome::Draw, "75-move rule")
    );
    // The 75-move draw is automatic: no move may follow it, choice or `position` move.
    for e in [
        p.parse_move("e8e7").unwrap_err(),
        p.parse_choice("e8e7").unwrap_err(),
    ] {
        assert!(e.contains("game is over (75-move rule)"), "{e}");
    }
    // The same from a FEN whose clock already stands at 150.
    let p = c("4k3/8/8/8/8/8/8/R3K3 b - - 150 80");
    assert_eq!(p.game_end().unwrap().reason, "75-move rule");
    assert!(p.parse_move("e8e7").is_err());
    // Reveal Chess alike (the clock counts reveals too).
    let p = b("4k3/8/8/8/8/8/8/X3K3 w - - 150 90 R1");
    assert_eq!(p.game_end().unwrap().reason, "75-move rule");
    assert!(p.parse_move("a1a4R").unwrap_err().contains("game is over"));
    // Mate on the 150th ply comes first.
    let mut p = c("7k/8/6K1/8/8/8/8/R7 w - - 149 80");
    play(&mut p, "a1a8");
    assert_eq!(p.immediate_result(), None);
    assert_eq!(p.game_end().unwrap().reason, "checkmate");
    // The clock is reset by a reveal even without capture or pawn move.
    let mut p = b("4k3/8/8/8/8/8/8/X3K3 w - - 40 30 R1");
    play(&mut p, "a1a4R");
    assert!(p.to_fen().contains(" 0 30 "), "{}", p.to_fen());
    play(&mut p, "e8e7");
    assert!(p.to_fen().contains(" 1 31 "), "{}", p.to_fen());
}

#[test]
fn repetitions() {
    let mut p = Board::startpos(true);
    play(&mut p, "g1f3 g8f6 f3g1 f6g8");
    assert!(p.is_search_draw(), "one repetition inside search");
    assert!(p.game_end().is_none(), "twofold is no game end");
    play(&mut p, "g1f3 g8f6 f3g1 f6g8");
    let e = p.game_end().unwrap();
    assert_eq!(
        (e.outcome, e.reason.as_str()),
        (Outcome::Draw, "threefold repetition")
    );
    // Threefold is only claimable: play may go on (the referee claims it at once).
    assert!(p.parse_move("g1f3").is_ok());
    // Fivefold is a draw too.
    play(&mut p, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(p.game_end().unwrap().reason, "threefold repetition");
    // An irreversible move cuts the history.
    play(&mut p, "e2e4");
    assert!(!p.is_search_draw());
}

#[test]
fn repetition_identity_includes_face_down_and_pools() {
    // Same squares, different pools: different positions.
    let a = b("r3k3/8/8/8/8/8/8/X3K3 w - - 0 1 R1P1");
    let c2 = b("r3k3/8/8/8/8/8/8/X3K3 w - - 0 1 R1N1");
    assert_ne!(a.key(), c2.key());
    // A face-down rook shell is not a rook.
    let r = b("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1 -");
    let x = b("r3k3/8/8/8/8/8/8/X3K3 w - - 0 1 R1");
    assert_ne!(r.key(), x.key());
    // Castling rights and side to move.
    assert_ne!(
        c("r3k3/8/8/8/8/8/8/R3K3 w Q - 0 1").key(),
        c("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1").key()
    );
    assert_ne!(
        c("r3k3/8/8/8/8/8/8/R3K3 b - - 0 1").key(),
        c("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1").key()
    );
}

#[test]
fn insufficient_material() {
    // (FEN, perft 2 as Stockfish counts it: perft ignores the draw.)
    for (f, perft2) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 25),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 55),
        ("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", 40),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", 129),
    ] {
        let p = c(f);
        assert_eq!(p.immediate_result(), Some(Outcome::Draw), "{f}");
        assert_eq!(p.game_end().unwrap().reason, "insufficient material", "{f}");
        assert_eq!(
            p.clone().perft(2),
            perft2,
            "perft counts the legal-move tree"
        );
        // The game is over by itself: no move may be played.
        let e = p.parse_move("e1e2").or(p.parse_move("e8e7")).unwrap_err();
        assert!(e.contains("game is over (insufficient material)"), "{e}");
    }
    for f in [
        "4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1",
        "4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1",
        "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    ] {
        assert_eq!(c(f).immediate_result(), None, "{f}");
    }
    // While anything is face-down, material is never insufficient (here: a knight shell
    // whose pool only holds a bishop).
    let p = b("4k3/8/8/8/8/8/8/1X2K3 w - - 0 1 B1");
    assert_eq!(p.immediate_result(), None);
    // Once it is revealed, it is.
    let mut p = p;
    play(&mut p, "b1c3B");
    assert_eq!(p.immediate_result(), Some(Outcome::Draw));
}

#[test]
fn fen_round_trips() {
    for f in [
        "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8",
        "x2xk2x/1xx1x1xx/8/8/4P3/8/XXXX1XXX/XXXXKXXX b Kq e3 0 1 Q1R2B2N2P7q1r2b2n2p8",
        "4k3/8/8/8/8/8/8/4K3 w - - 12 40 Q1p3",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -",
    ] {
        assert_eq!(b(f).to_fen(), f);
    }
    for f in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    ] {
        assert_eq!(c(f).to_fen(), f);
    }
    // A reveal FEN without the pool field is fine when nothing is face-down.
    assert_eq!(
        b("4k3/8/8/8/8/8/8/4K3 w - - 0 1").to_fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -"
    );
}

#[test]
fn move_counters_never_wrap() {
    // The extremes are accepted; the full-move number stays at its maximum after Black's
    // move (the FEN printed then reads back), and the clock stops at 150 by the rules.
    let mut p = c("4k3/8/8/8/8/8/8/R3K3 b - - 148 1000000");
    play(&mut p, "e8e7 a1a2");
    assert_eq!(p.to_fen(), "8/4k3/8/8/8/8/R7/4K3 b - - 150 1000000");
    assert_eq!(c(&p.to_fen()).to_fen(), p.to_fen());
    assert_eq!(p.game_end().unwrap().reason, "75-move rule");
    let mut p = b("4k3/8/8/8/8/8/8/X3K3 b - - 0 1000000 R1");
    play(&mut p, "e8e7 a1a4R");
    assert_eq!(p.to_fen(), "8/4k3/8/8/R7/8/8/4K3 b - - 0 1000000 -");
    assert_eq!(b(&p.to_fen()).to_fen(), p.to_fen());
}

#[test]
fn fen_errors_are_clear() {
    let bad_reveal = [
        ("4k3/8/8/8/3X4/8/8/4K3 w - - 0 1 P1", "starting square"),
        ("4k3/8/8/8/8/8/8/4KX2 w - - 0 1 -", "pool"),
        ("4k3/8/8/8/8/8/8/XX2K3 w - - 0 1 N1", "pool"),
        ("4k3/8/8/8/8/8/8/4K2K w - - 0 1 -", "king"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1 -", "king"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q2", "starting pool"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Z1", "letter"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1 -", "castling"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1 -", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1 -", "side"),
        ("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1 -", "8 ranks"),
        ("4k3/9/8/8/8/8/8/4K3 w - - 0 1 -", "digit"),
        ("4k3/8/8/8/8/8/8/4R2K w - - 0 1 -", "check"),
        ("4k3/8/8/8/8/8/8/4K3", "fields"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1 -", "pawn"),
    ];
    for (f, want) in bad_reveal {
        let e = Board::from_fen(f, false).unwrap_err();
        assert!(e.contains(want), "{f}: '{e}' should mention '{want}'");
    }
    // Move counters: the clock 0..=150 (the 75-move rule ends every game at 150), the
    // full-move number 1..=1000000; both decimal digits only.
    for (counters, want) in [
        ("151 80", "half-move clock '151' is out of range 0..=150"),
        (
            "65536 80",
            "half-move clock '65536' is out of range 0..=150",
        ),
        ("-1 80", "half-move clock '-1' is not a whole number"),
        ("+3 80", "half-move clock '+3' is not a whole number"),
        ("0 0", "full-move number '0' is out of range 1..=1000000"),
        (
            "0 1000001",
            "full-move number '1000001' is out of range 1..=1000000",
        ),
        (
            "0 4294967296",
            "full-move number '4294967296' is out of range",
        ),
    ] {
        for (fen, chess) in [
            (format!("4k3/8/8/8/8/8/8/R3K3 w - - {counters}"), true),
            (format!("4k3/8/8/8/8/8/8/X3K3 w - - {counters} R1"), false),
        ] {
            let e = Board::from_fen(&fen, chess).unwrap_err();
            assert!(e.contains(want), "{fen}: '{e}' should mention '{want}'");
        }
    }
    let e = Board::from_fen("4k3/8/8/8/8/8/8/1X2K3 w - - 0 1", true).unwrap_err();
    assert!(e.contains("face-down"), "{e}");
    let e = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q1", true).unwrap_err();
    assert!(e.contains("fields"), "{e}");
    assert!(Board::from_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", true).is_err());
}

#[test]
fn notation_and_game_api() {
    let mut p = Board::startpos(false);
    let (mv, o) = p.parse_move("g1f3N").unwrap();
    assert_eq!(p.move_to_string(mv), "g1f3");
    assert_eq!(p.move_outcome_to_string(mv, o), "g1f3N");
    assert_eq!(o, reveal_outcome('N').unwrap());
    assert!(!mv.is_null());
    assert_eq!(Move::from_u16(mv.to_u16()), mv);
    assert!(p.history_index(mv) < Board::HISTORY_SIZE);
    p.make(mv, o);
    assert_eq!(p.game_ply(), 1);
    assert_eq!(p.side_to_move(), 1);
    let d = p.display();
    for s in ["FEN:", "Key:", "Pools: Q1R2B2N1P8q1r2b2n2p8", "x", "X", "N"] {
        assert!(d.contains(s), "display lacks {s}:\n{d}");
    }
    p.unmake();
    assert_eq!(p.game_ply(), 0);
    // Noisy moves: captures and promotions, MVV-LVA order.
    let p = c("4k3/P7/8/3q4/2P2r2/8/8/4K3 w - - 0 1");
    let mut l = MoveList::new();
    p.generate_noisy(&mut l);
    let names: Vec<String> = l.iter().map(|&m| p.move_to_string(m)).collect();
    assert_eq!(names.len(), 4 + 1, "{names:?}");
    let cxd5 = p.parse_choice("c4d5").unwrap();
    assert!(p.is_capture(cxd5) && p.is_noisy(cxd5));
    assert!(!p.is_capture(p.parse_choice("c4c5").unwrap()));
    assert!(default_evaluator(&p).noisy_order(&p, cxd5) > 0);
    // Null move.
    let mut p = Board::startpos(true);
    assert!(p.null_move_ok());
    let k = p.key();
    p.make_null();
    assert_ne!(p.key(), k);
    assert_eq!(p.key(), p.compute_key());
    p.unmake_null();
    assert_eq!(p.key(), k);
    assert!(!c("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").null_move_ok());
    assert!(!c("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1").null_move_ok());
}

#[test]
fn mating_material_for_time_losses() {
    // A bare king, or a king and one minor piece against a bare king, cannot win.
    assert!(!c("4k3/8/8/8/8/8/8/4K3 w - - 0 1").can_win(0));
    assert!(!c("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").can_win(0));
    assert!(c("4k3/7p/8/8/8/8/8/3NK3 w - - 0 1").can_win(0));
    assert!(c("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").can_win(0));
    assert!(!c("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").can_win(1));
    // A face-down piece may become anything.
    assert!(b("4k3/8/8/8/8/8/X7/4K3 w - - 0 1 P1").can_win(0));
}
