//! Static exchange evaluation for Math Chess's arithmetic captures.
//!
//! What an exchange on a square T is: a capture onto T is made by an attacker standing
//! right behind its support, the support being the first piece seen from T in that
//! direction, at the distance the pair's arithmetic allows (docs/rules/mathchess.md). So
//! each of the 8 directions from T offers at most one capture, to the side owning both
//! the first and the second piece there. Capturing on T moves the attacker from behind
//! its support onto T: the support stays, the direction is spent (nothing stands right
//! behind the support any more), and no other direction changes (the attacker's square
//! lies on that one line through T only). So, unlike chess, an exchange uncovers no new
//! attacker: each side's captures onto T are known before it starts, and the exchange is
//! the usual swap over two fixed lists, least valuable attacker first. A quiet move
//! leaves its square empty, which can uncover a pair on that line: the captures are
//! found with the mover's square vacated.

use super::Move;
use super::board::*;
use super::geometry::*;
use crate::game::Score;

/// Up to 8 capturers per side: the attacking numbers.
struct Capturers {
    nums: [[u8; 8]; 2],
    len: [usize; 2],
}

impl Capturers {
    /// Take the least valuable attacker of `side`, if any.
    fn take_least(&mut self, side: usize, value: &[Score; 10]) -> Option<usize> {
        let n = self.len[side];
        let list = &mut self.nums[side];
        let i = (0..n).min_by_key(|&i| value[list[i] as usize])?;
        let a = list[i] as usize;
        list[i] = list[n - 1];
        self.len[side] = n - 1;
        Some(a)
    }
}

impl Board {
    /// Every arithmetic capture onto `t` (of a piece of either side standing there),
    /// with the square `vacated` taken as empty; the piece on `vacated` itself captures
    /// nothing.
    fn capturers_onto(&self, t: usize, vacated: usize) -> Capturers {
        let mut c = Capturers {
            nums: [[0; 8]; 2],
            len: [0; 2],
        };
        let l = &SQ_LINES[t];
        let v = &SQ_LINES[vacated];
        for lt in 0..4 {
            let id = l.id[lt] as usize;
            let p = l.bit[lt] as u32;
            // The vacated square, if it lies on this line, is cleared from every word.
            let clear = if v.id[lt] as usize == id && vacated != t {
                !(1u32 << v.bit[lt])
            } else {
                !0
            };
            let o = self.lines[id] as u32 & clear;
            let own = [
                self.side_lines[BLUE][id] as u32 & clear,
                self.side_lines[RED][id] as u32 & clear,
            ];
            // Toward the positive end: the support is the first piece, k squares away.
            let up = (o >> (p + 1)).trailing_zeros();
            let (sb, ab) = (p + 1 + up, p + 2 + up);
            self.add_capturer(&mut c, t, lt * 2, up + 1, own, sb, ab);
            // Toward the negative end (bit 0 is the sentinel: a support at bit 1 has no
            // square behind it).
            let down = (o << (32 - p)).leading_zeros();
            if down + 2 < p {
                let (sb, ab) = (p - 1 - down, p - 2 - down);
                self.add_capturer(&mut c, t, lt * 2 + 1, down + 1, own, sb, ab);
            }
        }
        c
    }

    /// The capture onto `t` from direction `dir`, if the support (line bit `sb`, `k`
    /// squares from `t`) and the piece behind it (bit `ab`) are one side's and the pair's
    /// arithmetic reaches `k`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn add_capturer(
        &self,
        c: &mut Capturers,
        t: usize,
        dir: usize,
        k: u32,
        own: [u32; 2],
        sb: u32,
        ab: u32,
    ) {
        for (side, own) in own.into_iter().enumerate() {
            if (own >> sb) & 1 != 0 && (own >> ab) & 1 != 0 {
                let bsq = (t as i32 + k as i32 * DIR_DELTA[dir]) as usize;
                let asq = (bsq as i32 + DIR_DELTA[dir]) as usize;
                let (a, b) = (code_num(self.mailbox[asq]), code_num(self.mailbox[bsq]));
                if CAPTURE_DIST[a][b] >> k & 1 != 0 {
                    c.nums[side][c.len[side]] = a as u8;
                    c.len[side] += 1;
                }
            }
        }
    }
}

/// Whether the exchange `mv` starts gains the side to move at least `threshold`, by the
/// piece values `value` (of the numbers 0..9). Capturing a 0 wins the game: always true.
pub fn see_ge(b: &Board, mv: Move, threshold: Score, value: &[Score; 10]) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let victim = b.mailbox[to];
    let gain = if victim == EMPTY {
        0
    } else if code_num(victim) == 0 {
        return true;
    } else {
        value[code_num(victim)]
    };
    // As Stockfish's see_ge: `swap` is what the side that just captured must still make
    // good; `res` whether the mover is ahead if the exchange stops here.
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = value[code_num(b.mailbox[from])] - swap;
    if swap <= 0 {
        return true;
    }
    let mut caps = b.capturers_onto(to, from);
    let mut side = b.side;
    let mut res = true;
    loop {
        side ^= 1;
        let Some(a) = caps.take_least(side, value) else {
            break;
        };
        res = !res;
        swap = value[a] - swap;
        if swap < res as Score {
            break;
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, MoveList};

    const V: [Score; 10] = [0, 80, 95, 100, 100, 100, 105, 110, 110, 115];

    /// The exchange value by brute force: each side in turn may stop or capture on the
    /// square with any of its legal captures onto it (full minimax over real moves).
    fn exchange(b: &mut Board, to: usize) -> Score {
        let mut list = MoveList::new();
        b.generate_noisy(&mut list);
        let mut best = 0;
        for &m in list.iter().filter(|m| m.to() == to) {
            let victim = V[code_num(b.mailbox[to])];
            b.make(m, 0);
            let v = victim - exchange(b, to);
            b.unmake();
            best = best.max(v);
        }
        best
    }

    fn see_value(b: &mut Board, m: Move) -> Score {
        let victim = if b.mailbox[m.to()] == EMPTY {
            0
        } else {
            V[code_num(b.mailbox[m.to()])]
        };
        b.make(m, 0);
        let v = victim - exchange(b, m.to());
        b.unmake();
        v
    }

    /// Hand-made exchanges with known values. Blue's 9 on e1, with its support the 8 on
    /// e2 (9 and 8 reach one square), takes Red's 1 on e3: +80. Red's 4 on e6, with its
    /// support the 2 on e5 (4 and 2 reach two squares), takes the 9 back: -115. Blue's
    /// 7 behind its 6 on the diagonal (7 and 6 reach one square) takes the 4: +100, so
    /// 80 - 115 + 100 = 65. Without that pair the exchange ends after Red's recapture
    /// at -35. Taking the 0 is good at any bar.
    #[test]
    fn hand_made_exchanges() {
        let cases = [
            (
                "8r0/9/9/9/9/4r44/4r24/9/4r14/3b6b84/b01b71b94 b 1",
                "e1e3",
                65,
            ),
            ("8r0/9/9/9/9/4r44/4r24/9/4r14/4b84/b03b94 b 1", "e1e3", -35),
            // Red's 4 has no support any more: the 1 is free.
            ("8r0/9/9/9/9/4r44/9/9/4r14/4b84/b03b94 b 1", "e1e3", 80),
        ];
        for (fen, mv, v) in cases {
            let b = Board::from_fen(fen).unwrap();
            let m = b.parse_move(mv).unwrap().0;
            for th in [v - 1, v, v + 1] {
                assert_eq!(see_ge(&b, m, th, &V), v >= th, "{fen} {mv} {th}");
            }
        }
        let b = Board::from_fen("9/9/9/9/9/9/9/9/4r04/4b84/b03b94 b 1").unwrap();
        let m = b.parse_move("e1e3").unwrap().0;
        assert!(see_ge(&b, m, 10_000, &V));
    }

    /// Positions with exchanges: SEE agrees with the brute-force exchange for every
    /// capture and quiet move, at thresholds around the true value. (Brute force lets a
    /// side pick any capture order; the least valuable first is optimal when no capture
    /// uncovers another, which the module comment argues.)
    #[test]
    fn see_matches_brute_force_exchanges() {
        let fens = [
            "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 b 1",
            "r91r72r4r3r2r1/4r0r53/3r85/9/9/9/b48/r65b72/1b26b6/4b04/b11b31b52b8b9 b 7",
            "5r4r3r2r1/4r04/1b87/r53r84/9/6r62/3r75/2b96/9/1b12b0b73/b31b2b4b5b63 b 13",
            "3b43r2r1/4r04/2r52r4r32/4r74/9/1r85r91/8b7/7b61/4b94/2b2b5b04/b11b34b81 b 21",
            "5r81r21/2r71r01r12/7r51/6b6b51/9/r48/2r36/3b31b13/r9b21b91b73/3b4b04/b88 b 31",
            "5r81r21/2r71r01r12/7r51/6b6b51/9/r48/2r36/3b31b13/r9b21b91b73/3b4b04/b88 r 31",
        ];
        let mut checked = 0;
        for fen in fens {
            let mut b = Board::from_fen(fen).unwrap();
            let mut list = MoveList::new();
            b.generate_moves(&mut list);
            for &m in list.iter() {
                if b.mailbox[m.to()] != EMPTY && code_num(b.mailbox[m.to()]) == 0 {
                    assert!(see_ge(&b, m, 10_000, &V));
                    continue;
                }
                let v = see_value(&mut b, m);
                for th in [v - 1, v, v + 1] {
                    assert_eq!(see_ge(&b, m, th, &V), v >= th, "{fen} {m:?} value {v}");
                }
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }
}
