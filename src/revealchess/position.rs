//! The Reveal Chess / chess position as a plain copyable value: bitboards (a face-down
//! piece is stored as its shell type plus a bit in `fd`), mailbox, pools, castling,
//! en passant, clocks and the Zobrist key; attacks and checks; make (copy-make: the caller
//! keeps the previous value); the draws decided by the position itself. Legal move
//! generation and the fast perft are in `movegen`, the key tables in `zobrist`.

use super::bitboard::*;
use super::movegen::{mv_from, mv_promo, mv_to};
use super::zobrist::ZOBRIST;
use crate::game::MAX_FULLMOVE;

/// The half-move clock at which the 75-move rule ends the game (150 plies): the largest
/// a FEN may give.
pub const MAX_HALFMOVE: u16 = 150;

pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
pub const NO_SQ: u8 = 64;

/// Pool order (FEN, outcome codes): index i holds type `POOL_TYPE[i]`; outcome code = i + 1.
pub const POOL_TYPE: [usize; 5] = [QUEEN, ROOK, BISHOP, KNIGHT, PAWN];
pub const POOL_LETTER: [u8; 5] = *b"QRBNP";
/// Starting pool: Q1 R2 B2 N2 P8. No count may exceed it (a pool only shrinks).
pub const POOL_START: [u8; 5] = [1, 2, 2, 2, 8];

pub const CASTLE_WK: u8 = 1;
pub const CASTLE_WQ: u8 = 2;
pub const CASTLE_BK: u8 = 4;
pub const CASTLE_BQ: u8 = 8;

pub const PIECE_LETTERS: [u8; 6] = *b"pnbrqk";

/// Piece code in the mailbox: 0 = empty, else colour * 8 + type + 1.
#[inline(always)]
pub const fn code(c: usize, t: usize) -> u8 {
    (c * 8 + t + 1) as u8
}
#[inline(always)]
pub const fn code_type(p: u8) -> usize {
    (p & 7) as usize - 1
}
#[inline(always)]
pub const fn code_color(p: u8) -> usize {
    (p >> 3) as usize
}

/// The rook's squares (from, to) when the king castles from `from` to `to`.
#[inline(always)]
pub const fn castling_rook(from: usize, to: usize) -> (usize, usize) {
    if to > from {
        (from + 3, from + 1)
    } else {
        (from - 4, from - 1)
    }
}

/// The shell of a face-down piece: the standard piece of its starting square; `None` when
/// the square is not a starting square of that colour (or is the king's).
pub fn shell_of(c: usize, sq: usize) -> Option<usize> {
    let (f, r) = (sq % 8, sq / 8);
    let (back, second) = if c == WHITE { (0, 1) } else { (7, 6) };
    if r == second {
        Some(PAWN)
    } else if r == back {
        [
            Some(ROOK),
            Some(KNIGHT),
            Some(BISHOP),
            Some(QUEEN),
            None,
            Some(BISHOP),
            Some(KNIGHT),
            Some(ROOK),
        ][f]
    } else {
        None
    }
}

/// Rights kept when a move touches a square (king and corner squares clear rights).
const fn castle_masks() -> [u8; 64] {
    let mut m = [15u8; 64];
    m[0] = 15 & !CASTLE_WQ;
    m[7] = 15 & !CASTLE_WK;
    m[4] = 15 & !(CASTLE_WK | CASTLE_WQ);
    m[56] = 15 & !CASTLE_BQ;
    m[63] = 15 & !CASTLE_BK;
    m[60] = 15 & !(CASTLE_BK | CASTLE_BQ);
    m
}
static CASTLE_MASK: [u8; 64] = castle_masks();

// ----- the position ----------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos {
    /// By type; a face-down piece counts as its shell's type.
    pub bb: [Bb; 6],
    pub col: [Bb; 2],
    /// Face-down pieces of both colours.
    pub fd: Bb,
    pub sq: [u8; 64],
    /// Pools per colour in the order Q R B N P.
    pub pool: [[u8; 5]; 2],
    pub side: u8,
    pub castle: u8,
    /// Square passed over by the last double step of a pawn (as FEN writes it), or NO_SQ.
    pub ep: u8,
    /// The en-passant square hashed into `key`: `ep` only when a legal capture exists.
    pub key_ep: u8,
    /// Plies since the last capture, pawn move or reveal: at most `MAX_HALFMOVE` in a
    /// game (the 75-move rule ends it there); it saturates rather than wraps beyond.
    pub half: u16,
    /// Plies since the last irreversible move or null move: the repetition window.
    pub rep: u16,
    /// 1..=`MAX_FULLMOVE`: it stays at the maximum rather than wrap.
    pub fullmove: u32,
    pub key: u64,
}

impl Pos {
    pub fn empty() -> Pos {
        Pos {
            bb: [0; 6],
            col: [0; 2],
            fd: 0,
            sq: [0; 64],
            pool: [[0; 5]; 2],
            side: 0,
            castle: 0,
            ep: NO_SQ,
            key_ep: NO_SQ,
            half: 0,
            rep: 0,
            fullmove: 1,
            key: 0,
        }
    }

    #[inline(always)]
    pub fn occ(&self) -> Bb {
        self.col[0] | self.col[1]
    }
    #[inline(always)]
    pub fn pieces(&self, c: usize, t: usize) -> Bb {
        self.bb[t] & self.col[c]
    }
    #[inline(always)]
    pub fn king_sq(&self, c: usize) -> usize {
        lsb(self.bb[KING] & self.col[c])
    }

    #[inline(always)]
    fn put(&mut self, c: usize, t: usize, s: usize) {
        self.bb[t] |= bit(s);
        self.col[c] |= bit(s);
        self.sq[s] = code(c, t);
    }
    #[inline(always)]
    fn remove(&mut self, c: usize, t: usize, s: usize) {
        self.bb[t] &= !bit(s);
        self.col[c] &= !bit(s);
        self.sq[s] = 0;
    }

    /// Pieces of either colour attacking `s` given occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, s: usize, occ: Bb) -> Bb {
        let t = tables();
        (t.pawn[WHITE][s] & self.pieces(BLACK, PAWN))
            | (t.pawn[BLACK][s] & self.pieces(WHITE, PAWN))
            | (t.knight[s] & self.bb[KNIGHT])
            | (t.king[s] & self.bb[KING])
            | (t.rook(s, occ) & (self.bb[ROOK] | self.bb[QUEEN]))
            | (t.bishop(s, occ) & (self.bb[BISHOP] | self.bb[QUEEN]))
    }

    /// Whether colour `by` attacks `s` with occupancy `occ`.
    #[inline(always)]
    pub fn attacked(&self, s: usize, by: usize, occ: Bb) -> bool {
        let t = tables();
        let them = self.col[by];
        (t.pawn[by ^ 1][s] & self.bb[PAWN] & them) != 0
            || (t.knight[s] & self.bb[KNIGHT] & them) != 0
            || (t.king[s] & self.bb[KING] & them) != 0
            || (t.rook(s, occ) & (self.bb[ROOK] | self.bb[QUEEN]) & them) != 0
            || (t.bishop(s, occ) & (self.bb[BISHOP] | self.bb[QUEEN]) & them) != 0
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bb {
        let us = self.side as usize;
        self.attackers_to(self.king_sq(us), self.occ()) & self.col[us ^ 1]
    }

    pub fn in_check(&self) -> bool {
        self.checkers() != 0
    }

    /// Whether the side to move has a legal en-passant capture on `ep`.
    pub fn ep_capture_legal(&self) -> bool {
        if self.ep == NO_SQ {
            return false;
        }
        let us = self.side as usize;
        let ep = self.ep as usize;
        let capturers = tables().pawn[us ^ 1][ep] & self.pieces(us, PAWN) & !self.fd;
        Bits(capturers).any(|from| self.ep_legal(from, ep))
    }

    /// Full legality test of an en-passant capture (the only move that removes a piece
    /// from a square other than its destination, so pins are checked on the real board).
    #[inline]
    pub(super) fn ep_legal(&self, from: usize, ep: usize) -> bool {
        let us = self.side as usize;
        let them = us ^ 1;
        let cap = if us == WHITE { ep - 8 } else { ep + 8 };
        let occ = (self.occ() ^ bit(from) ^ bit(cap)) | bit(ep);
        let k = self.king_sq(us);
        let t = tables();
        let en = self.col[them] & !bit(cap);
        (t.rook(k, occ) & (self.bb[ROOK] | self.bb[QUEEN]) & en) == 0
            && (t.bishop(k, occ) & (self.bb[BISHOP] | self.bb[QUEEN]) & en) == 0
            && (t.knight[k] & self.bb[KNIGHT] & en) == 0
            && (t.pawn[us][k] & self.bb[PAWN] & en) == 0
    }

    /// The key from scratch (the incremental key must always equal this).
    pub fn compute_key(&self) -> u64 {
        let z = &ZOBRIST;
        let mut k = 0;
        for s in 0..64 {
            let p = self.sq[s];
            if p != 0 {
                k ^= z.piece[code_color(p)][code_type(p)][s];
                if self.fd & bit(s) != 0 {
                    k ^= z.fd[s];
                }
            }
        }
        for c in 0..2 {
            for i in 0..5 {
                k ^= z.pool[c][i][self.pool[c][i] as usize];
            }
        }
        k ^= z.castle[self.castle as usize];
        if self.ep_capture_legal() {
            k ^= z.ep[self.ep as usize % 8];
        }
        if self.side == 1 {
            k ^= z.side;
        }
        k
    }

    /// Recompute `key_ep` and the key from scratch (after setting up a position).
    pub fn refresh_key(&mut self) {
        self.key_ep = if self.ep_capture_legal() {
            self.ep
        } else {
            NO_SQ
        };
        self.key = self.compute_key();
    }

    /// Whether a move of the side to move reveals a face-down piece (the moved piece, or
    /// the corner piece in castling): then its outcome is drawn from the pool.
    #[inline(always)]
    pub fn is_reveal(&self, m: u16) -> bool {
        let from = mv_from(m);
        if self.fd & bit(from) != 0 {
            return true;
        }
        let to = mv_to(m);
        if self.bb[KING] & bit(from) != 0 && from.abs_diff(to) == 2 {
            return self.fd & bit(castling_rook(from, to).0) != 0;
        }
        false
    }

    /// Play a legal move. `outcome` is the pool index + 1 of the revealed type for a
    /// revealing move, 0 otherwise. `HASH` = false skips the key (perft only).
    #[inline(always)]
    pub fn make<const HASH: bool>(&mut self, m: u16, outcome: u8) {
        let z = &ZOBRIST;
        let us = self.side as usize;
        let them = us ^ 1;
        let from = mv_from(m);
        let to = mv_to(m);
        let promo = mv_promo(m);
        let p = self.sq[from];
        let pt = code_type(p);
        let captured = self.sq[to];
        let mut key = self.key;
        if HASH && self.key_ep != NO_SQ {
            key ^= z.ep[self.key_ep as usize % 8];
        }
        let old_ep = self.ep;
        self.ep = NO_SQ;
        self.key_ep = NO_SQ;
        self.half = self.half.saturating_add(1);
        self.rep = self.rep.saturating_add(1);

        if captured != 0 {
            let ct = code_type(captured);
            self.remove(them, ct, to);
            if HASH {
                key ^= z.piece[them][ct][to];
            }
            if self.fd & bit(to) != 0 {
                // A captured face-down piece is not revealed: its pool stays as it is.
                self.fd &= !bit(to);
                if HASH {
                    key ^= z.fd[to];
                }
            }
            self.half = 0;
            self.rep = 0;
        }

        // Move the piece, revealing it if face-down.
        self.remove(us, pt, from);
        if HASH {
            key ^= z.piece[us][pt][from];
        }
        let mut nt = pt;
        if self.fd & bit(from) != 0 {
            self.fd &= !bit(from);
            let i = outcome as usize - 1;
            let n = self.pool[us][i];
            self.pool[us][i] = n - 1;
            if HASH {
                key ^= z.fd[from] ^ z.pool[us][i][n as usize] ^ z.pool[us][i][n as usize - 1];
            }
            nt = POOL_TYPE[i];
            self.half = 0;
            self.rep = 0;
            if nt == PAWN && promo != 0 {
                nt = promo;
            }
        } else if pt == PAWN {
            self.half = 0;
            self.rep = 0;
            if promo != 0 {
                nt = promo;
            } else if to as u8 == old_ep && old_ep != NO_SQ {
                let cap = if us == WHITE { to - 8 } else { to + 8 };
                self.remove(them, PAWN, cap);
                if HASH {
                    key ^= z.piece[them][PAWN][cap];
                }
            }
        }
        self.put(us, nt, to);
        if HASH {
            key ^= z.piece[us][nt][to];
        }

        if pt == KING && from.abs_diff(to) == 2 {
            let (rf, rt) = castling_rook(from, to);
            let rp = self.sq[rf];
            let rtype = code_type(rp);
            self.remove(us, rtype, rf);
            if HASH {
                key ^= z.piece[us][rtype][rf];
            }
            let mut nrt = rtype;
            if self.fd & bit(rf) != 0 {
                self.fd &= !bit(rf);
                let i = outcome as usize - 1;
                let n = self.pool[us][i];
                self.pool[us][i] = n - 1;
                if HASH {
                    key ^= z.fd[rf] ^ z.pool[us][i][n as usize] ^ z.pool[us][i][n as usize - 1];
                }
                nrt = POOL_TYPE[i];
                self.half = 0;
                self.rep = 0;
            }
            self.put(us, nrt, rt);
            if HASH {
                key ^= z.piece[us][nrt][rt];
            }
        }

        if self.castle != 0 {
            let nc = self.castle & CASTLE_MASK[from] & CASTLE_MASK[to];
            if nc != self.castle {
                if HASH {
                    key ^= z.castle[self.castle as usize] ^ z.castle[nc as usize];
                }
                self.castle = nc;
                self.rep = 0;
            }
        }

        // En passant only after a double step by something that is a pawn afterwards.
        if pt == PAWN && nt == PAWN && from.abs_diff(to) == 16 {
            self.ep = ((from + to) / 2) as u8;
        }
        if us == BLACK && self.fullmove < MAX_FULLMOVE {
            self.fullmove += 1;
        }
        self.side ^= 1;
        if HASH {
            key ^= z.side;
            if self.ep != NO_SQ && self.ep_capture_legal() {
                self.key_ep = self.ep;
                key ^= z.ep[self.ep as usize % 8];
            }
            self.key = key;
        }
    }

    pub fn make_null(&mut self) {
        let z = &ZOBRIST;
        if self.key_ep != NO_SQ {
            self.key ^= z.ep[self.key_ep as usize % 8];
        }
        self.ep = NO_SQ;
        self.key_ep = NO_SQ;
        self.half = self.half.saturating_add(1);
        self.rep = 0;
        if self.side == 1 && self.fullmove < MAX_FULLMOVE {
            self.fullmove += 1;
        }
        self.side ^= 1;
        self.key ^= z.side;
    }

    /// Rule-decided end before move generation: the 75-move rule (unless the side to move
    /// is checkmated: mate on the last move comes first) or insufficient material.
    pub fn immediate_draw(&self) -> bool {
        (self.half >= MAX_HALFMOVE && !self.is_checkmate()) || self.insufficient_material()
    }

    /// Dead position by material, considered only once nothing is face-down: bare kings,
    /// a single minor piece, or bishops only, all on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        if self.fd != 0 || self.bb[PAWN] | self.bb[ROOK] | self.bb[QUEEN] != 0 {
            return false;
        }
        let minors = self.bb[KNIGHT] | self.bb[BISHOP];
        if minors.count_ones() <= 1 {
            return true;
        }
        const DARK: Bb = 0xAA55_AA55_AA55_AA55;
        self.bb[KNIGHT] == 0 && (self.bb[BISHOP] & DARK == 0 || self.bb[BISHOP] & !DARK == 0)
    }

    /// Whether `side` could mate by some sequence of legal moves, by material alone: a
    /// bare king cannot, nor a king and one revealed bishop or knight against a bare
    /// king; anything else can (a face-down piece may become anything).
    pub fn can_mate(&self, side: usize) -> bool {
        let mine = self.col[side] & !self.bb[KING];
        let theirs_bare = self.col[side ^ 1] & !self.bb[KING] == 0;
        match mine.count_ones() {
            0 => false,
            1 if mine & self.fd == 0 && mine & (self.bb[KNIGHT] | self.bb[BISHOP]) != 0 => {
                !theirs_bare
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fen;
    use super::*;
    use crate::revealchess::movegen::mv;

    #[test]
    fn shells_follow_the_starting_squares() {
        assert_eq!(shell_of(WHITE, 0), Some(ROOK));
        assert_eq!(shell_of(WHITE, 1), Some(KNIGHT));
        assert_eq!(shell_of(WHITE, 3), Some(QUEEN));
        assert_eq!(shell_of(WHITE, 4), None);
        assert_eq!(shell_of(WHITE, 13), Some(PAWN));
        assert_eq!(shell_of(WHITE, 20), None);
        assert_eq!(shell_of(BLACK, 58), Some(BISHOP));
        assert_eq!(shell_of(BLACK, 50), Some(PAWN));
        assert_eq!(shell_of(BLACK, 10), None);
    }

    #[test]
    fn zobrist_keys_are_distinct_and_non_zero() {
        let z = &ZOBRIST;
        let mut all: Vec<u64> = z.piece.iter().flatten().flatten().copied().collect();
        all.extend(z.fd);
        all.extend(z.pool.iter().flatten().flat_map(|v| v[1..].iter().copied()));
        all.extend(&z.castle[1..]);
        all.extend(z.ep);
        all.push(z.side);
        let n = all.len();
        assert!(all.iter().all(|&k| k != 0));
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn copy_make_keeps_the_key_incremental() {
        let mut p = fen::parse(fen::START_REVEAL, false).unwrap();
        for (m, o) in [
            (mv(12, 28, 0), 5), // e2e4P
            (mv(51, 35, 0), 5), // d7d5P
            (mv(28, 35, 0), 0), // e4xd5
            (mv(59, 35, 0), 1), // d8xd5Q
        ] {
            p.make::<true>(m, o);
            assert_eq!(p.key, p.compute_key());
        }
        assert_eq!(
            fen::format(&p, false),
            "xxx1kxxx/xxx1xxxx/8/3q4/8/8/XXXX1XXX/XXXXKXXX w KQkq - 0 3 Q1R2B2N2P7r2b2n2p7"
        );
    }
}
