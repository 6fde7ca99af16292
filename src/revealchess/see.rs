//! Static exchange evaluation for chess and Reveal Chess: the usual swap-off on the
//! destination square, least valuable attacker first, with sliders behind a capturer
//! joining in (x-rays) and the king capturing only when nothing defends. Pins are not
//! looked at, and en passant, castling and promotions count as gaining nothing (as in
//! Stockfish). Face-down pieces attack as their shells (the bitboards already hold them
//! by shell type) and are worth their pool's expected value, whether captured or
//! capturing (a capturer is revealed on the square, as a draw from that same pool).

use super::Move;
use super::bitboard::*;
use super::position::*;
use crate::game::Score;

/// The value of the piece on `s` (one that stands there): by type, or, face-down, the
/// mean over its side's pool.
fn value_on(p: &Pos, s: usize, value: &[Score; 6]) -> Score {
    let c = p.sq[s];
    if p.fd & bit(s) != 0 {
        pool_mean(p, code_color(c), value)
    } else {
        value[code_type(c)]
    }
}

/// The expected value of a draw from `side`'s pool (0 when it is empty).
pub fn pool_mean(p: &Pos, side: usize, value: &[Score; 6]) -> Score {
    let pool = &p.pool[side];
    let n: Score = pool.iter().map(|&k| k as Score).sum();
    if n == 0 {
        return 0;
    }
    let sum: Score = (0..5).map(|i| pool[i] as Score * value[POOL_TYPE[i]]).sum();
    sum / n
}

/// Whether the exchange `mv` starts gains the side to move at least `threshold`, by the
/// piece values `value` (P N B R Q K).
pub fn see_ge(p: &Pos, mv: Move, threshold: Score, value: &[Score; 6]) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let moving = p.sq[from];
    let special = mv.promo() != 0
        || (code_type(moving) == KING && from.abs_diff(to) == 2)
        || (code_type(moving) == PAWN
            && p.fd & bit(from) == 0
            && p.sq[to] == 0
            && from % 8 != to % 8);
    if special {
        return threshold <= 0;
    }
    let gain = if p.sq[to] == 0 {
        0
    } else {
        value_on(p, to, value)
    };
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = value_on(p, from, value) - swap;
    if swap <= 0 {
        return true;
    }
    let t = tables();
    let mut occ = p.occ() ^ bit(from) ^ bit(to);
    let mut attackers = p.attackers_to(to, occ) & occ;
    let diagonal = p.bb[BISHOP] | p.bb[QUEEN];
    let straight = p.bb[ROOK] | p.bb[QUEEN];
    let mut side = p.side as usize;
    let mut res = true;
    loop {
        side ^= 1;
        let mine = attackers & p.col[side];
        if mine == 0 {
            break;
        }
        res = !res;
        // The least valuable attacker (a king last: it may only capture undefended).
        let mut least = NO_SQ as usize;
        let mut least_value = Score::MAX;
        let mut b = mine;
        while b != 0 {
            let s = lsb(b);
            b &= b - 1;
            let v = if code_type(p.sq[s]) == KING {
                Score::MAX - 1
            } else {
                value_on(p, s, value)
            };
            if v < least_value {
                least = s;
                least_value = v;
            }
        }
        if code_type(p.sq[least]) == KING {
            // Capturing with the king into a defended square is illegal.
            return if attackers & !p.col[side] != 0 {
                !res
            } else {
                res
            };
        }
        swap = least_value - swap;
        if swap < res as Score {
            break;
        }
        occ ^= bit(least);
        // Sliders behind the capturer now see the square.
        attackers |= (t.bishop(to, occ) & diagonal) | (t.rook(to, occ) & straight);
        attackers &= occ;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::super::fen;
    use super::super::movegen::mv;
    use super::*;

    const V: [Score; 6] = [100, 320, 330, 500, 900, 2000];

    fn see_at(f: &str, chess: bool, from: usize, to: usize, th: Score) -> bool {
        let p = fen::parse(f, chess).unwrap();
        see_ge(&p, Move(mv(from, to, 0)), th, &V)
    }

    fn sq(name: &str) -> usize {
        let b = name.as_bytes();
        (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
    }

    /// Each (FEN, from, to, exact exchange value): SEE says yes exactly up to the value.
    fn check(cases: &[(&str, &str, &str, Score)], chess: bool) {
        for &(f, a, b, v) in cases {
            for th in [v - 1, v, v + 1] {
                assert_eq!(
                    see_at(f, chess, sq(a), sq(b), th),
                    v >= th,
                    "{f} {a}{b} {th}"
                );
            }
        }
    }

    /// (FEN, move, exact exchange value) in chess.
    #[test]
    fn chess_exchanges() {
        let cases = [
            // Pawn takes a defended knight: +320 - 100.
            ("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4", "d5", 220),
            // Rook takes an undefended pawn.
            ("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5", 100),
            // Rook takes a pawn defended by a pawn: loses the rook for a pawn.
            ("4k3/4p3/3p4/8/8/8/8/3RK3 w - - 0 1", "d1", "d6", -400),
            // Doubled rooks against one defender: the x-ray recaptures, net +pawn.
            ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2", "d5", 100),
            // Queen takes a pawn defended by a knight: -800.
            ("4k3/8/5n2/3p4/8/8/8/3QK3 w - - 0 1", "d1", "d5", -800),
            // The king may not recapture a defended piece.
            ("8/8/8/3k4/3p4/3R4/8/3RK3 w - - 0 1", "d3", "d4", 100),
        ];
        check(&cases, true);
    }

    /// (FEN, move, exact exchange value) in Reveal Chess: face-down pieces attack as
    /// their shells and are worth their pool's mean, captured or capturing.
    #[test]
    fn reveal_exchanges() {
        let cases = [
            // A face-down pawn shell (pool Q P: worth 500) takes a knight, and the bishop
            // takes it back: 320 - 500.
            ("4k3/8/8/6b1/8/4n3/3X4/4K3 w - - 0 1 Q1P1", "d2", "e3", -180),
            // The same knight undefended: +320, whatever the capturer is worth.
            ("4k3/8/8/8/8/4n3/3X4/4K3 w - - 0 1 Q1P1", "d2", "e3", 320),
            // A rook takes a face-down piece (pool q p: 500) and the king takes it back.
            ("4k3/3x4/8/8/8/8/8/3RK3 w - - 0 1 q1p1", "d1", "d7", 0),
            // Its pool is only pawns now: the same capture loses 400.
            ("4k3/3x4/8/8/8/8/8/3RK3 w - - 0 1 p2", "d1", "d7", -400),
        ];
        check(&cases, false);
    }

    /// A face-down piece is worth its pool's mean, captured or capturing.
    #[test]
    fn face_down_pieces_are_worth_their_pool_mean() {
        let p = fen::parse(fen::START_REVEAL, false).unwrap();
        // Q R R B B N N P x8: (900 + 1000 + 660 + 640 + 800) / 15.
        assert_eq!(pool_mean(&p, WHITE, &V), 4000 / 15);
        assert_eq!(pool_mean(&Pos::empty(), BLACK, &V), 0);
    }
}
