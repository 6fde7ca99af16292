//! The searcher finds forced wins: Math Chess positions where the side to move captures
//! the enemy 0 in 1 and in 2 of its moves against any defence, chess mates in 1-3, and a
//! Reveal Chess mate that holds whatever the moving face-down piece reveals as. Each
//! position is first proved by an exhaustive AND-OR walk over the rules (independent of
//! the search), so the test pins the search, not the position.

use tinh::game::*;
use tinh::protocol::format_score;
use tinh::search::{Limits, Options, Searcher};
use tinh::variant::Variant;
use tinh::with_game;

fn outcomes<G: Game>(p: &G, m: G::Move) -> Vec<u8> {
    let mut ch = ChanceList::default();
    if p.chance(m, &mut ch) {
        ch.as_slice().iter().map(|x| x.0).collect()
    } else {
        vec![NO_OUTCOME]
    }
}

/// The side to move wins within `plies` plies, whatever the opponent and chance do.
fn wins<G: Game>(p: &mut G, plies: u32) -> bool {
    if plies == 0 || p.immediate_result().is_some() {
        return false;
    }
    let mut l = MoveList::new();
    p.generate_moves(&mut l);
    l.iter().any(|&m| {
        outcomes(p, m).into_iter().all(|o| {
            p.make(m, o);
            let lost = loses(p, plies - 1);
            p.unmake();
            lost
        })
    })
}

/// The side to move has lost, or loses within `plies` plies whatever it does.
fn loses<G: Game>(p: &mut G, plies: u32) -> bool {
    if let Some(o) = p.immediate_result() {
        return o == Outcome::Loss;
    }
    let mut l = MoveList::new();
    p.generate_moves(&mut l);
    if l.is_empty() {
        return p.no_moves_result() == Outcome::Loss;
    }
    plies > 0
        && l.iter().all(|&m| {
            outcomes(p, m).into_iter().all(|o| {
                p.make(m, o);
                let w = wins(p, plies - 1);
                p.unmake();
                w
            })
        })
}

/// Proves "win in exactly `n` moves" by brute force, then checks the search reports
/// `mate n` and plays a move of a winning line.
fn check_forced_win(variant: Variant, fen: &str, n: u32) {
    let mut pos = variant.from_fen(fen).expect(fen);
    with_game!(&mut pos, g => {
        assert!(wins(g, 2 * n - 1), "{fen}: no forced win in {n}");
        assert!(n == 1 || !wins(g, 2 * n - 3), "{fen}: already a win in {}", n - 1);
        let searcher = Searcher::new(16);
        let limits = Limits { depth: Some(2 * n + 2), ..Default::default() };
        let r = searcher.search(g, &limits, &Options::default(), &|_| {});
        assert_eq!(format_score(r.score), format!("mate {n}"), "{fen}");
        let best = r.best.expect("a best move");
        assert!(
            outcomes(g, best).into_iter().all(|o| {
                g.make(best, o);
                let lost = loses(g, 2 * n - 2);
                g.unmake();
                lost
            }),
            "{fen}: {} does not keep the win",
            g.move_to_string(best)
        );
    });
}

#[test]
fn math_chess_captures_the_zero_in_one() {
    // Blue 5 on e5 with its 2 on e6: 5 mod 2 = 1 reaches the Red 0 on e7.
    check_forced_win(
        Variant::MathChess,
        "8r1/9/9/9/4r04/4b24/4b54/9/9/4b04/9 b",
        1,
    );
    check_forced_win(
        Variant::MathChess,
        "9/9/9/7r8r0/9/8b4/b97b8/9/9/4b0r53/9 b",
        1,
    );
    check_forced_win(
        Variant::MathChess,
        "2b66/9/9/6r22/9/1b76r0/3r35/9/9/4b04/3b45 b",
        1,
    );
}

#[test]
fn math_chess_captures_the_zero_in_two() {
    check_forced_win(
        Variant::MathChess,
        "3b95/4r04/3b75/6b82/9/9/9/8r3/r48/4b04/9 b",
        2,
    );
    check_forced_win(
        Variant::MathChess,
        "9/2r23b2r51/9/5b53/9/5r03/9/6b82/9/4b04/9 b",
        2,
    );
    check_forced_win(
        Variant::MathChess,
        "6b5r01/6b62/9/9/9/9/9/r88/9/4b04/3r34b2 b",
        2,
    );
}

#[test]
fn chess_mates_in_one_to_three() {
    check_forced_win(Variant::Chess, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1);
    check_forced_win(Variant::Chess, "5R2/8/8/8/6k1/3Q4/8/1K6 w - - 0 1", 2);
    check_forced_win(Variant::Chess, "4R3/8/8/1KQ5/7k/8/8/8 w - - 0 1", 2);
    check_forced_win(Variant::Chess, "8/8/2k5/8/1K6/4R3/8/Q7 w - - 0 1", 3);
    check_forced_win(Variant::Chess, "7Q/8/2R5/4K3/8/5k2/8/8 w - - 0 1", 3);
}

#[test]
fn reveal_chess_mate_holds_for_every_reveal() {
    // The pawn shell on e2 takes on d3 and uncovers the rook on e1: mate whatever the
    // shell turns out to be (the pool still holds all five types).
    check_forced_win(
        Variant::RevealChess,
        "3rkr2/3p1p2/8/8/8/3n4/4X3/K3R3 w - - 0 1 Q1R2B2N2P8",
        1,
    );
}
