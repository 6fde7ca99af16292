//! End-to-end tests of the Math Chess rules through the library API: every rule of
//! docs/rules/mathchess.md pinned by a position built for it.

use tinh::eval::{Evaluator, default_evaluator};
use tinh::game::*;
use tinh::mathchess::{Board, Move};

/// FEN from (square, colour letter, number) triples; every other square empty.
fn fen_of(pieces: &[(&str, char, u8)], side: char) -> String {
    let mut grid = [[None; 9]; 11];
    for &(sq, c, n) in pieces {
        let f = (sq.as_bytes()[0] - b'a') as usize;
        let r: usize = sq[1..].parse().unwrap();
        assert!(grid[r - 1][f].is_none(), "two pieces on {sq}");
        grid[r - 1][f] = Some((c, n));
    }
    let mut s = String::new();
    for r in (0..11).rev() {
        let mut gap = 0;
        for cell in grid[r] {
            match cell {
                None => gap += 1,
                Some((c, n)) => {
                    if gap > 0 {
                        s += &gap.to_string();
                        gap = 0;
                    }
                    s.push(c);
                    s += &n.to_string();
                }
            }
        }
        if gap > 0 {
            s += &gap.to_string();
        }
        if r > 0 {
            s.push('/');
        }
    }
    format!("{s} {side}")
}

fn board(pieces: &[(&str, char, u8)], side: char) -> Board {
    let fen = fen_of(pieces, side);
    Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(b: &Board) -> Vec<String> {
    let mut list = MoveList::new();
    b.generate_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| b.move_to_string(m)).collect();
    v.sort();
    v
}

fn captures(b: &Board) -> Vec<String> {
    let mut list = MoveList::new();
    b.generate_moves(&mut list);
    let mut v: Vec<String> = list
        .iter()
        .filter(|&&m| b.is_capture(m))
        .map(|&m| b.move_to_string(m))
        .collect();
    v.sort();
    v
}

fn legal(b: &Board, m: &str) -> bool {
    b.parse_move(m).is_ok()
}

/// Distances d (1..=9) at which Blue attacker `a` on a1 with support `b` on a2 captures a
/// Red piece standing alone on a(2+d). The zeros stand out of the way (i1, i11) unless
/// the support is Blue's 0.
fn capture_set(a: u8, b: u8) -> Vec<u32> {
    let mut set = Vec::new();
    for d in 1..=9u32 {
        let target = format!("a{}", 2 + d);
        let mut p = vec![("a1", 'b', a), ("a2", 'b', b), (target.as_str(), 'r', 5)];
        if b != 0 {
            p.push(("i1", 'b', 0));
        }
        p.push(("i11", 'r', 0));
        let bd = board(&p, 'b');
        if legal(&bd, &format!("a1{target}")) {
            assert!(bd.is_capture(bd.parse_choice(&format!("a1{target}")).unwrap()));
            set.push(d);
        }
    }
    set
}

#[test]
fn sum_mod_10_distance() {
    // 2 with 3: sum 5, product 6, remainder 2: 5 comes from the sum only.
    assert_eq!(capture_set(2, 3), vec![2, 5, 6]);
    // 6 with 7: sum 13 -> 3 (units digit), difference none, product 42 -> 2, 6 div 7 = 0,
    // 6 mod 7 = 6.
    assert_eq!(capture_set(6, 7), vec![2, 3, 6]);
}

#[test]
fn difference_distance() {
    // 9 with 2: sum 1, difference 7, product 8, div 4, mod 1: 7 from the difference only.
    assert_eq!(capture_set(9, 2), vec![1, 4, 7, 8]);
}

#[test]
fn product_mod_10_distance() {
    // 4 with 2: sum 6, difference 2, product 8, div 2, mod 0: 8 from the product only.
    assert_eq!(capture_set(4, 2), vec![2, 6, 8]);
}

#[test]
fn quotient_distance() {
    // 9 with 4: sum 3, difference 5, product 6, div 2, mod 1: 2 from the quotient only.
    assert_eq!(capture_set(9, 4), vec![1, 2, 3, 5, 6]);
}

#[test]
fn remainder_distance() {
    // 1 with 2: sum 3, product 2, 1 div 2 = 0 unusable, 1 mod 2 = 1: 1 from the remainder.
    assert_eq!(capture_set(1, 2), vec![1, 2, 3]);
}

#[test]
fn rule_file_examples() {
    assert_eq!(capture_set(7, 4), vec![1, 3, 8]);
    assert_eq!(capture_set(8, 4), vec![2, 4]);
    assert_eq!(capture_set(8, 5), vec![1, 3]);
    assert_eq!(capture_set(1, 2), vec![1, 2, 3]);
    assert_eq!(capture_set(4, 7), vec![1, 4, 8]);
}

#[test]
fn subtraction_is_attacker_minus_support_only() {
    // 7 - 4 = 3 captures at distance 3; 4 - 7 < 0 gives nothing (no absolute value).
    assert!(capture_set(7, 4).contains(&3));
    assert!(!capture_set(4, 7).contains(&3));
}

#[test]
fn zero_remainder_and_zero_quotient_are_unusable() {
    // 8 mod 4 = 0 and 5 mod 5 cannot happen; 8/4: only {2, 4}; 4 div 7 = 0 gives nothing.
    assert_eq!(capture_set(8, 4), vec![2, 4]);
    // 6 with 3: sum 9, difference 3, product 8, div 2, mod 0.
    assert_eq!(capture_set(6, 3), vec![2, 3, 8, 9]);
}

#[test]
fn zero_is_a_support_with_distance_n() {
    for n in 1..=9u8 {
        assert_eq!(
            capture_set(n, 0),
            vec![n as u32],
            "attacker {n} with support 0"
        );
    }
}

#[test]
fn zero_never_moves_and_never_captures() {
    // Blue 0 on e5 with room all around, Blue 5 next to it and a Red piece 5 beyond.
    let b = board(
        &[
            ("e5", 'b', 0),
            ("e6", 'b', 5),
            ("e11", 'r', 3),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert!(
        moves(&b).iter().all(|m| !m.starts_with("e5")),
        "{:?}",
        moves(&b)
    );
    let err = b.parse_move("e5e4").unwrap_err();
    assert!(err.contains("0 never moves"), "{err}");
    // The 5 with support 0 going south would capture 5 beyond e5: nothing there; and the
    // 0 with support 5 (0+5 = 5) would reach e11: it must not.
    assert!(!legal(&b, "e5e11"));
    assert!(captures(&b).is_empty());
}

#[test]
fn ordinary_moves_go_up_to_n_squares_in_8_directions() {
    let b = board(&[("e6", 'b', 3), ("i1", 'b', 0), ("a11", 'r', 0)], 'b');
    let m: Vec<String> = moves(&b)
        .into_iter()
        .filter(|m| m.starts_with("e6"))
        .collect();
    assert_eq!(m.len(), 24, "{m:?}");
    for t in ["e9", "e3", "h6", "b6", "h9", "b9", "h3", "b3", "f7", "d5"] {
        assert!(m.contains(&format!("e6{t}")), "e6{t}");
    }
    assert!(!legal(&b, "e6e10"));
    assert!(!legal(&b, "e6f8"), "no turning");
    // Blocked by either colour; no jumping.
    let b = board(
        &[
            ("e6", 'b', 3),
            ("e8", 'r', 4),
            ("g6", 'b', 1),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert!(legal(&b, "e6e7"));
    assert!(
        !legal(&b, "e6e8"),
        "an ordinary move cannot land on a piece"
    );
    assert!(!legal(&b, "e6e9"));
    assert!(legal(&b, "e6f6"));
    assert!(!legal(&b, "e6h6"));
    // A 1 moves one square; the edge stops everything.
    let b = board(&[("a1", 'b', 1), ("i1", 'b', 0), ("a11", 'r', 0)], 'b');
    let m: Vec<String> = moves(&b)
        .into_iter()
        .filter(|m| m.starts_with("a1"))
        .collect();
    assert_eq!(m, vec!["a1a2", "a1b1", "a1b2"]);
}

#[test]
fn blocked_capture_path_friend_or_foe() {
    // 7 with 4 captures at 3 (e2 attacker, e3 support, target e6).
    let base = [
        ("e2", 'b', 7),
        ("e3", 'b', 4),
        ("e6", 'r', 9),
        ("i1", 'b', 0),
        ("a11", 'r', 0),
    ];
    assert!(legal(&board(&base, 'b'), "e2e6"));
    // A friend on e5 (distance 2, not a capture distance) blocks.
    let mut p = base.to_vec();
    p.push(("e5", 'b', 1));
    assert!(!legal(&board(&p, 'b'), "e2e6"));
    // A foe on e5 blocks too (and is not itself capturable: 2 is not in D(7,4)).
    let mut p = base.to_vec();
    p.push(("e5", 'r', 1));
    let b = board(&p, 'b');
    assert!(!legal(&b, "e2e6"));
    assert!(!legal(&b, "e2e5"));
    // A foe on e4 (distance 1, in D(7,4)) is the capture instead.
    let mut p = base.to_vec();
    p.push(("e4", 'r', 1));
    let b = board(&p, 'b');
    assert!(legal(&b, "e2e4"));
    assert!(!legal(&b, "e2e6"));
}

#[test]
fn friendly_target_is_never_captured() {
    let b = board(
        &[
            ("e2", 'b', 7),
            ("e3", 'b', 4),
            ("e6", 'b', 9),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    let err = b.parse_move("e2e6").unwrap_err();
    assert!(err.contains("friendly"), "{err}");
    assert!(captures(&b).is_empty());
}

#[test]
fn target_past_the_edge_does_not_wrap() {
    // 7 on g5 with 4 on h5 points east: distances 1, 3, 8 all leave the board after i5.
    // Pieces on the next ranks' first files must not be reached by wrapping around.
    let b = board(
        &[
            ("g5", 'b', 7),
            ("h5", 'b', 4),
            ("a6", 'r', 1),
            ("b6", 'r', 2),
            ("c6", 'r', 3),
            ("a5", 'r', 4),
            ("d6", 'r', 5),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert!(captures(&b).is_empty(), "{:?}", captures(&b));
    // North edge: attacker e9, support e10, D(7,4) = {1,3,8}: e11 is distance 1.
    let b = board(
        &[
            ("e9", 'b', 7),
            ("e10", 'b', 4),
            ("e11", 'r', 2),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert_eq!(captures(&b), vec!["e9e11"]);
    let b = board(
        &[
            ("e8", 'b', 7),
            ("e9", 'b', 4),
            ("e11", 'r', 2),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert!(captures(&b).is_empty(), "distance 2 is not in D(7,4)");
}

#[test]
fn backward_sideways_and_diagonal_captures() {
    // Seed 003's example: 8 below and 5 above on a file. Forward: 8-5 = 3 (and 13 -> 3)
    // takes on the third square beyond the 5; backward the 5 attacks with the 8 as
    // support: 5+8 = 13 -> 3 takes on the third square beyond the 8 (Blue moving back).
    let b = board(
        &[
            ("e6", 'b', 8),
            ("e7", 'b', 5),
            ("e10", 'r', 6),
            ("e3", 'r', 7),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert_eq!(captures(&b), vec!["e6e10", "e7e3"]);
    // The attacker lands on the target; the support stays; the target is gone.
    let mut b2 = b.clone();
    b2.make(b2.parse_choice("e7e3").unwrap(), NO_OUTCOME);
    assert_eq!(b2.to_fen(), "r08/4r64/9/9/9/4b84/9/9/4b54/9/8b0 r");
    // Sideways: 7 on b4, 4 on c4, target f4 (3 beyond c4), and west from the 4's side.
    let b = board(
        &[
            ("b4", 'b', 7),
            ("c4", 'b', 4),
            ("f4", 'r', 1),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert_eq!(captures(&b), vec!["b4f4"]);
    // Diagonal: 7 on c3, 4 on d4, target g7; anti-diagonal: 7 on g3, 4 on f4, target c7.
    let b = board(
        &[
            ("c3", 'b', 7),
            ("d4", 'b', 4),
            ("g7", 'r', 1),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert_eq!(captures(&b), vec!["c3g7"]);
    let b = board(
        &[
            ("g3", 'b', 7),
            ("f4", 'b', 4),
            ("c7", 'r', 1),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert_eq!(captures(&b), vec!["g3c7"]);
    // Red captures the same way (toward rank 1 is Red's forward).
    let b = board(
        &[
            ("e9", 'r', 7),
            ("e8", 'r', 4),
            ("e5", 'b', 1),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'r',
    );
    assert_eq!(captures(&b), vec!["e9e5"]);
}

#[test]
fn start_position() {
    let b = Board::startpos();
    assert_eq!(
        b.to_fen(),
        "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 b 1"
    );
    assert_eq!(moves(&b).len(), 87);
    assert!(captures(&b).is_empty());
    assert_eq!(b.side_to_move(), 0);
    assert_eq!(b.dimensions(), (9, 11));
    assert_eq!(b.variant_name(), "mathchess");
    assert_eq!(b.game_end(), None);
    assert!(!b.in_check());
    assert!(b.null_move_ok());
    assert_eq!(b.captured_points(0), 0);
    assert_eq!(b.captured_points(1), 0);
    assert_eq!(b.point_target(), 0);
    // Symmetric under a half turn: Red has 87 moves too.
    let r = Board::from_fen("r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 r 1")
        .unwrap();
    assert_eq!(moves(&r).len(), 87);
}

#[test]
fn capturing_the_zero_ends_the_game() {
    let p = [
        ("a1", 'b', 7),
        ("a2", 'b', 4),
        ("a5", 'r', 0),
        ("a9", 'r', 3),
        ("i1", 'b', 0),
    ];
    let b = board(&p, 'b');
    assert_eq!(captures(&b), vec!["a1a5"]);
    assert!(!b.in_check(), "Blue's 0 is not attacked");
    // With Red to move in the same placement, Red's 0 is attacked: the check-like flag.
    let r = board(&p, 'r');
    assert!(r.in_check());
    assert!(!r.null_move_ok());
    let mut b = b;
    b.make(b.parse_choice("a1a5").unwrap(), NO_OUTCOME);
    assert_eq!(b.immediate_result(), Some(Outcome::Loss));
    let end = b.game_end().unwrap();
    assert_eq!(end.outcome, Outcome::Loss);
    assert_eq!(end.reason, "zero captured");
    assert!(moves(&b).is_empty());
    assert_eq!(b.perft(1), 0);
    assert!(b.parse_move("a9a8").unwrap_err().contains("game is over"));
    // Seen from the side whose opponent lost its 0.
    let w = Board::from_fen(&fen_of(
        &[("a1", 'b', 7), ("i1", 'b', 0), ("a9", 'r', 3)],
        'b',
    ))
    .unwrap();
    assert_eq!(w.immediate_result(), Some(Outcome::Win));
    assert_eq!(w.game_end().unwrap().reason, "zero captured");
}

#[test]
fn no_legal_move_loses() {
    // Blue's 1 boxed in by Red pieces it cannot capture; Blue's 0 never moves.
    let b = board(
        &[
            ("a1", 'b', 1),
            ("a2", 'r', 1),
            ("b1", 'r', 2),
            ("b2", 'r', 3),
            ("i1", 'b', 0),
            ("a11", 'r', 0),
        ],
        'b',
    );
    assert!(moves(&b).is_empty());
    assert_eq!(b.immediate_result(), None);
    assert_eq!(b.no_moves_result(), Outcome::Loss);
    let end = b.game_end().unwrap();
    assert_eq!(end.outcome, Outcome::Loss);
    assert_eq!(end.reason, "no legal move");
    // Only a 0 left: no move either.
    let b = board(&[("e2", 'b', 0), ("a11", 'r', 0), ("e10", 'r', 5)], 'b');
    assert_eq!(b.game_end().unwrap().reason, "no legal move");
}

fn play(b: &mut Board, line: &str) {
    for m in line.split_whitespace() {
        let (mv, o) = b.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        b.make(mv, o);
    }
}

#[test]
fn threefold_repetition_draws() {
    let mut b = Board::startpos();
    let start_key = b.key();
    play(&mut b, "a1a2 i11i10 a2a1 i10i11");
    assert_eq!(b.key(), start_key);
    assert!(
        b.is_search_draw(),
        "second occurrence: a draw inside the search"
    );
    assert_eq!(b.game_end(), None, "second occurrence is not yet a draw");
    play(&mut b, "a1a2 i11i10 a2a1 i10i11");
    let end = b.game_end().unwrap();
    assert_eq!(end.outcome, Outcome::Draw);
    assert_eq!(end.reason, "threefold repetition");
    // The draw is automatic: no move follows it.
    for e in [
        b.parse_move("a1a2").unwrap_err(),
        b.parse_choice("a1a2").unwrap_err(),
    ] {
        assert!(e.contains("game is over (threefold repetition)"), "{e}");
    }
    // Non-consecutive occurrences count too: a detour in between (one that does not pass
    // through the start position: that would be its third occurrence already).
    let mut b = Board::startpos();
    play(
        &mut b,
        "a1a2 i11i10 a2a1 i10i11 b1b2 h11h10 a1a2 i11i10 b2b1 h10h11 a2a1 i10i11",
    );
    assert_eq!(b.game_end().unwrap().reason, "threefold repetition");
    // Same placement with the other side to move is a different position.
    let mut b = Board::startpos();
    play(&mut b, "b1b3 i11i10 b3b2 i10i11 b2b1");
    assert_ne!(b.key(), Board::startpos().key());
    assert!(!b.is_search_draw());
    assert_eq!(b.game_end(), None);
}

#[test]
fn repetition_does_not_reach_across_a_capture() {
    // Blue 7/4 capture a Red piece; then both shuffle: the position before the capture
    // cannot recur, the positions after it can.
    let mut b = board(
        &[
            ("a1", 'b', 7),
            ("a2", 'b', 4),
            ("a5", 'r', 3),
            ("i1", 'b', 0),
            ("i11", 'r', 0),
            ("e11", 'r', 1),
        ],
        'b',
    );
    play(&mut b, "a1a5 e11e10 a5a6 e10e11");
    assert!(!b.is_search_draw());
    play(&mut b, "a6a5");
    assert!(
        b.is_search_draw(),
        "the position right after the capture recurs"
    );
    assert_eq!(b.game_end(), None);
    play(&mut b, "e11e10 a5a6 e10e11 a6a5");
    assert_eq!(b.game_end().unwrap().reason, "threefold repetition");
}

#[test]
fn point_target() {
    let p = [
        ("a1", 'b', 7),
        ("a2", 'b', 4),
        ("a5", 'r', 9),
        ("i1", 'b', 0),
        ("i11", 'r', 0),
        ("e9", 'r', 1),
    ];
    let mut b = board(&p, 'b');
    // Missing Red numbers count as captured: 2..8 are not on the board (35 points).
    assert_eq!(b.captured_points(0), 35);
    assert_eq!(b.captured_points(1), 45 - 11);
    b.make(b.parse_choice("a1a5").unwrap(), NO_OUTCOME);
    assert_eq!(b.captured_points(0), 44);
    assert_eq!(b.game_end(), None, "the point target is off by default");
    b.set_point_target(45);
    assert_eq!(b.game_end(), None);
    b.set_point_target(40);
    assert_eq!(b.point_target(), 40);
    assert_eq!(b.immediate_result(), Some(Outcome::Loss));
    let end = b.game_end().unwrap();
    assert_eq!(
        (end.outcome, end.reason.as_str()),
        (Outcome::Loss, "point target")
    );
    assert_eq!(b.perft(1), 0, "the game is over");
    // A capture that reaches the target wins at once.
    let mut b = Board::startpos();
    b.set_point_target(10);
    let mut c = board(&p, 'b');
    c.set_point_target(45);
    assert_eq!(c.game_end(), None);
    c.make(c.parse_choice("a1a5").unwrap(), NO_OUTCOME);
    assert_eq!(c.game_end(), None, "44 < 45");
    assert_eq!(b.game_end(), None);
    // Capturing the 0 wins whatever the score: Red is ahead 34 to 0 (target 40), Blue
    // takes the 0.
    let mut p = vec![
        ("a1", 'b', 7),
        ("a2", 'b', 4),
        ("a5", 'r', 0),
        ("i1", 'b', 0),
    ];
    let names = [
        "a11", "b11", "c11", "d11", "e11", "f11", "g11", "h11", "i11",
    ];
    for (i, sq) in names.iter().enumerate() {
        p.push((sq, 'r', i as u8 + 1));
    }
    let mut z = board(&p, 'b');
    z.set_point_target(40);
    assert_eq!((z.captured_points(0), z.captured_points(1)), (0, 34));
    assert_eq!(z.game_end(), None);
    z.make(z.parse_choice("a1a5").unwrap(), NO_OUTCOME);
    let end = z.game_end().unwrap();
    assert_eq!(
        (end.outcome, end.reason.as_str()),
        (Outcome::Loss, "zero captured")
    );
}

#[test]
fn fen_round_trip() {
    for fen in [
        "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 b 1",
        "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 b",
        "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 r 37",
        "8r0/9/9/4b84/9/9/9/4b54/9/9/8b0 r",
        "r0r1r2r3r4r5r6r7r8/r98/9/9/9/9/9/9/9/9/b0b1b2b3b4b5b6b7b8 b 120",
    ] {
        assert_eq!(Board::from_fen(fen).unwrap().to_fen(), fen);
    }
    // The move number advances after each Red move.
    let mut b = Board::startpos();
    play(&mut b, "a1a2");
    assert!(b.to_fen().ends_with(" r 1"), "{}", b.to_fen());
    play(&mut b, "i11i10");
    assert!(b.to_fen().ends_with(" b 2"), "{}", b.to_fen());
    // The move number stops at its maximum (1000000) instead of wrapping, so the FEN
    // printed there reads back.
    let top = "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 r 1000000";
    let mut b = Board::from_fen(top).unwrap();
    play(&mut b, "i11i10 a1a2 i10i11");
    assert!(b.to_fen().ends_with(" b 1000000"), "{}", b.to_fen());
    assert_eq!(Board::from_fen(&b.to_fen()).unwrap().to_fen(), b.to_fen());
    // Keys depend on placement and side only, not on the move number.
    let k1 = Board::from_fen("r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 b 5")
        .unwrap();
    assert_eq!(k1.key(), Board::startpos().key());
    let k2 = Board::from_fen("r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 r 1")
        .unwrap();
    assert_ne!(k2.key(), Board::startpos().key());
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let start = "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9";
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty"),
        ("9/9/9 b".into(), "ranks"),
        (format!("{start}/9 b"), "ranks"),
        (start.replace("4r04", "4r05") + " b", "10 squares"),
        (start.replace("4r04", "4r03") + " b", "8 squares"),
        (start.replace("4r04", "4x04") + " b", "bad character 'x'"),
        (start.replace("4r04", "4B04") + " b", "bad character 'B'"),
        (
            start.replace("4r04", "8r") + " b",
            "not followed by a digit",
        ),
        (
            start.replace("4r04", "4r14") + " b",
            "two pieces numbered 1",
        ),
        (start.replace("4r04", "405") + " b", "'0'"),
        (
            start.replace("/9/9/9/9/9/9/9/", "/9/9/9/45/9/9/9/") + " b",
            "two empty-square counts",
        ),
        (start.to_string(), "missing side to move"),
        (format!("{start} x"), "bad side to move 'x'"),
        (format!("{start} B"), "bad side to move 'B'"),
        (
            format!("{start} b 0"),
            "full-move number '0' is out of range 1..=1000000",
        ),
        (
            format!("{start} b 1000001"),
            "full-move number '1000001' is out of range 1..=1000000",
        ),
        (
            format!("{start} b 4294967296"),
            "full-move number '4294967296' is out of range",
        ),
        (
            format!("{start} b x1"),
            "full-move number 'x1' is not a whole number",
        ),
        (
            format!("{start} b -3"),
            "full-move number '-3' is not a whole number",
        ),
        (
            format!("{start} b +3"),
            "full-move number '+3' is not a whole number",
        ),
        (
            format!("{start} b 01"),
            "full-move number '01' is not a whole number",
        ),
        (format!("{start} b 1 junk"), "unexpected text 'junk'"),
        (
            start.replace("b1b2b3b4b5b6b7b8b9", "b1b2b3b4b5b6b7b8b9r3") + " b",
            "wider",
        ),
        (
            start.replace("b1b2b3b4b5b6b7b8b9", "b1b2b3b4b5b6b7b8b9b") + " b",
            "not followed by a digit",
        ),
        (
            start.replace("b1b2b3b4b5b6b7b8b9", "b1b2b3b4b5b6b7b8b91") + " b",
            "10 squares",
        ),
        (
            start.replace("/9/9/9/9/9/9/9/", "/9/9/9//9/9/9/") + " b",
            "rank 6 is empty",
        ),
    ];
    for (fen, want) in cases {
        let err = Board::from_fen(&fen)
            .err()
            .unwrap_or_else(|| panic!("accepted '{fen}'"));
        assert!(
            err.contains(want),
            "'{fen}': error '{err}' should mention '{want}'"
        );
    }
}

#[test]
fn move_notation_and_parse_errors() {
    let b = Board::startpos();
    let m = b.parse_choice("c1c4").unwrap();
    assert_eq!(b.move_to_string(m), "c1c4");
    assert_eq!(b.move_outcome_to_string(m, NO_OUTCOME), "c1c4");
    assert_eq!(b.parse_move("c1c4").unwrap(), (m, NO_OUTCOME));
    assert!(!b.chance(m, &mut ChanceList::default()));
    assert!(!m.is_null());
    assert!(Move::default().is_null());
    assert!(!b.is_capture(Move::default()) && !b.is_noisy(Move::default()));
    let r = Board::from_fen("r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 r 1")
        .unwrap();
    let m = r.parse_choice("e10e11").unwrap_err();
    assert!(m.contains("friendly") || m.contains("0 never moves"), "{m}");
    let m = r.parse_choice("a11a10").unwrap();
    assert_eq!(r.move_to_string(m), "a11a10");
    for bad in [
        "", "c1", "c1c", "z1z2", "c0c4", "c1c12", "c1c4x", "C1C4", "c01c4", " c1c4",
    ] {
        let e = b.parse_move(bad).unwrap_err();
        assert!(e.contains("malformed"), "'{bad}': {e}");
    }
    for (bad, why) in [
        ("c3c4", "no piece on c3"),
        ("c11c10", "not the side to move"),
        ("e2e3", "0 never moves"),
        ("c1c5", "cannot move"),
        ("c1d1", "friendly"),
    ] {
        let e = b.parse_choice(bad).unwrap_err();
        assert!(e.contains("illegal") && e.contains(why), "'{bad}': {e}");
    }
    // Every move's history index is in range, and distinct moves have distinct indices.
    let mut list = MoveList::new();
    b.generate_moves(&mut list);
    let mut seen = std::collections::HashSet::new();
    for &m in list.iter() {
        let i = b.history_index(m);
        assert!(i < <Board as Game>::HISTORY_SIZE);
        assert!(seen.insert(i));
        assert_eq!(Move::from_u16(m.to_u16()), m);
    }
}

#[test]
fn noisy_moves_and_their_order() {
    // Two captures: the Red 0 (by 7/4 at distance 3) and a Red 9 (by 2/3 at distance 5).
    let b = board(
        &[
            ("a1", 'b', 7),
            ("a2", 'b', 4),
            ("a5", 'r', 0),
            ("c1", 'b', 2),
            ("c2", 'b', 3),
            ("c7", 'r', 9),
            ("i1", 'b', 0),
        ],
        'b',
    );
    let mut noisy = MoveList::new();
    b.generate_noisy(&mut noisy);
    let mut names: Vec<String> = noisy.iter().map(|&m| b.move_to_string(m)).collect();
    names.sort();
    assert_eq!(names, vec!["a1a5", "c1c7"]);
    let z = b.parse_choice("a1a5").unwrap();
    let nine = b.parse_choice("c1c7").unwrap();
    assert!(b.is_noisy(z) && b.is_capture(nine));
    let e = default_evaluator(&b);
    assert!(
        e.noisy_order(&b, z) > e.noisy_order(&b, nine),
        "taking the 0 first"
    );
    let quiet = b.parse_choice("c1d1").unwrap();
    assert!(!b.is_noisy(quiet) && !b.is_capture(quiet));
}

#[test]
fn keys_are_incremental_and_transpose() {
    let mut a = Board::startpos();
    play(&mut a, "a1a2 i11i10 b1b2");
    let mut b = Board::startpos();
    play(&mut b, "b1b2 i11i10 a1a2");
    assert_eq!(a.key(), b.key());
    assert_eq!(a.key(), a.compute_key());
    assert_eq!(a.to_fen().split(' ').next(), b.to_fen().split(' ').next());
    assert_eq!(a.game_ply(), 3);
    a.unmake();
    a.unmake();
    a.unmake();
    assert_eq!(a, Board::startpos());
    // The same placement read from a FEN has the same key.
    let c = Board::from_fen(&b.to_fen()).unwrap();
    assert_eq!(c.key(), b.key());
    // Null move: the other side to move, then back.
    let k = c.key();
    let mut c = c;
    c.make_null();
    assert_ne!(c.key(), k);
    assert_eq!(c.side_to_move(), 0);
    c.unmake_null();
    assert_eq!(c.key(), k);
}

#[test]
fn display_shows_board_and_state() {
    let mut b = Board::startpos();
    b.set_point_target(15);
    let d = b.display();
    assert!(d.contains(" 11 | r9 r8 r7 r6 r5 r4 r3 r2 r1 |"), "{d}");
    assert!(d.contains("  1 | b1 b2 b3 b4 b5 b6 b7 b8 b9 |"), "{d}");
    assert!(d.contains("a  b  c  d  e  f  g  h  i"), "{d}");
    assert!(d.contains(&format!("FEN: {}", b.to_fen())));
    assert!(d.contains(&format!("{:016x}", b.key())));
    assert!(d.contains("Side to move: Blue"));
    assert!(d.contains("Captured points: Blue 0, Red 0"));
    assert!(d.contains("Point target: 15"));
    // The 11 rank lines come top (11) to bottom (1).
    let top = d.find(" 11 |").unwrap();
    let bottom = d.find("  1 |").unwrap();
    assert!(top < bottom);
}

#[test]
fn evaluation_is_side_relative_and_symmetric() {
    let b = Board::startpos();
    let mut e = default_evaluator(&b);
    let terms = e.terms(&b);
    assert!(!terms.is_empty());
    for t in &terms {
        assert_eq!(t.first, t.second, "start is symmetric: {}", t.name);
    }
    assert_eq!(e.evaluate(&b), 0);
    // After a Blue move the evaluation from Red's view is minus Blue's view.
    let mut c = b.clone();
    play(&mut c, "c1c4");
    let red_view = e.evaluate(&c);
    let blue_view: Score = e.terms(&c).iter().map(|t| t.first - t.second).sum();
    assert_eq!(red_view, -blue_view);
}
