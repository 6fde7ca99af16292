//! The Reveal Chess / chess position as a plain copyable value: bitboards (a face-down
//! piece is stored as its shell type plus a bit in `fd`), mailbox, pools, castling,
//! en passant, clocks and the Zobrist key; FEN in and out; make (copy-make: the caller
//! keeps the previous value); legal move generation with pin and check masks into a
//! `Sink` (a move list, or a counter for bulk-counting perft); the fast perft.

use super::Move;
use super::bitboard::*;
use crate::game::{MAX_FULLMOVE, MoveList};

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

// ----- Zobrist ---------------------------------------------------------------------------

pub struct Zobrist {
    pub piece: [[[u64; 64]; 6]; 2],
    pub fd: [u64; 64],
    /// `pool[c][i][n]`: type i of colour c's pool holds n; n = 0 hashes as 0 so standard
    /// chess keys carry no pool terms.
    pub pool: [[[u64; 9]; 5]; 2],
    pub castle: [u64; 16],
    pub ep: [u64; 8],
    pub side: u64,
}

/// splitmix64 with a fixed seed: deterministic keys across runs and builds.
const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_zobrist() -> Zobrist {
    let mut s = 0x005E_ED0F_7E11_u64;
    let mut z = Zobrist {
        piece: [[[0; 64]; 6]; 2],
        fd: [0; 64],
        pool: [[[0; 9]; 5]; 2],
        castle: [0; 16],
        ep: [0; 8],
        side: 0,
    };
    let mut c = 0;
    while c < 2 {
        let mut t = 0;
        while t < 6 {
            let mut q = 0;
            while q < 64 {
                z.piece[c][t][q] = splitmix(&mut s);
                q += 1;
            }
            t += 1;
        }
        let mut i = 0;
        while i < 5 {
            let mut n = 1;
            while n < 9 {
                z.pool[c][i][n] = splitmix(&mut s);
                n += 1;
            }
            i += 1;
        }
        c += 1;
    }
    let mut q = 0;
    while q < 64 {
        z.fd[q] = splitmix(&mut s);
        q += 1;
    }
    // Castling keys per right, combined by XOR so any subset has a key.
    let rights = [
        splitmix(&mut s),
        splitmix(&mut s),
        splitmix(&mut s),
        splitmix(&mut s),
    ];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut b = 0;
        while b < 4 {
            if m & (1 << b) != 0 {
                k ^= rights[b];
            }
            b += 1;
        }
        z.castle[m] = k;
        m += 1;
    }
    let mut f = 0;
    while f < 8 {
        z.ep[f] = splitmix(&mut s);
        f += 1;
    }
    z.side = splitmix(&mut s);
    z
}

pub static ZOBRIST: Zobrist = build_zobrist();

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

// ----- moves -----------------------------------------------------------------------------

/// A move as encoded in `super::Move`: from (6 bits), to (6 bits), promotion / backup
/// piece type in bits 12..15 (KNIGHT..QUEEN, 0 = none).
#[inline(always)]
pub const fn mv(from: usize, to: usize, promo: usize) -> u16 {
    (from | (to << 6) | (promo << 12)) as u16
}
#[inline(always)]
pub const fn mv_from(m: u16) -> usize {
    (m & 63) as usize
}
#[inline(always)]
pub const fn mv_to(m: u16) -> usize {
    ((m >> 6) & 63) as usize
}
#[inline(always)]
pub const fn mv_promo(m: u16) -> usize {
    (m >> 12) as usize
}

/// Receives legal moves from the generator, in bulk where it can.
pub trait Sink {
    /// Moves of one non-pawn piece (or a king step) to `targets`; `fd` when the piece is
    /// face-down (each move reveals; a move onto the last rank carries backup letters when
    /// the pool holds a pawn).
    fn piece(&mut self, pos: &Pos, from: usize, targets: Bb, fd: bool);
    /// Pawn moves (no promotion) to each target, coming from `target - delta`.
    fn pawns(&mut self, targets: Bb, delta: i32, fd: bool);
    /// Promotions of revealed pawns to each target (four moves each).
    fn promos(&mut self, targets: Bb, delta: i32);
    /// A single special move (castling or en passant).
    fn single(&mut self, m: u16, reveal: bool);
}

/// Bulk counter for perft leaves: reveals count once per non-zero pool type.
pub struct Counter {
    pub n: u64,
    pub types: u64,
    pub last: Bb,
    pub backups: u64,
}

impl Counter {
    #[inline(always)]
    pub fn new(pos: &Pos) -> Self {
        let us = pos.side as usize;
        let p = &pos.pool[us];
        let types = p.iter().filter(|&&c| c > 0).count() as u64;
        Counter {
            n: 0,
            types,
            last: if us == WHITE { RANK_8 } else { RANK_1 },
            backups: if p[4] > 0 { 4 } else { 1 },
        }
    }
}

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _pos: &Pos, _from: usize, t: Bb, fd: bool) {
        if fd {
            self.n += ((t & !self.last).count_ones() as u64
                + (t & self.last).count_ones() as u64 * self.backups)
                * self.types;
        } else {
            self.n += t.count_ones() as u64;
        }
    }
    #[inline(always)]
    fn pawns(&mut self, t: Bb, _d: i32, fd: bool) {
        self.n += t.count_ones() as u64 * if fd { self.types } else { 1 };
    }
    #[inline(always)]
    fn promos(&mut self, t: Bb, _d: i32) {
        self.n += 4 * t.count_ones() as u64;
    }
    #[inline(always)]
    fn single(&mut self, _m: u16, reveal: bool) {
        self.n += if reveal { self.types } else { 1 };
    }
}

/// Collects moves into a move list.
pub struct Collect<'a>(pub &'a mut MoveList<Move>);

impl Collect<'_> {
    #[inline(always)]
    fn push(&mut self, m: u16) {
        self.0.push(Move(m));
    }
}

impl Sink for Collect<'_> {
    #[inline(always)]
    fn piece(&mut self, pos: &Pos, from: usize, t: Bb, fd: bool) {
        let us = pos.side as usize;
        let last = if us == WHITE { RANK_8 } else { RANK_1 };
        let backup = fd && pos.pool[us][4] > 0;
        for to in Bits(t) {
            if backup && last & bit(to) != 0 {
                for p in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    self.push(mv(from, to, p));
                }
            } else {
                self.push(mv(from, to, 0));
            }
        }
    }
    #[inline(always)]
    fn pawns(&mut self, t: Bb, d: i32, _fd: bool) {
        for to in Bits(t) {
            self.push(mv((to as i32 - d) as usize, to, 0));
        }
    }
    #[inline(always)]
    fn promos(&mut self, t: Bb, d: i32) {
        for to in Bits(t) {
            let from = (to as i32 - d) as usize;
            for p in [QUEEN, ROOK, BISHOP, KNIGHT] {
                self.push(mv(from, to, p));
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, m: u16, _reveal: bool) {
        self.push(m);
    }
}

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
    fn ep_legal(&self, from: usize, ep: usize) -> bool {
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
            let corner = if to > from { from + 3 } else { from - 4 };
            return self.fd & bit(corner) != 0;
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
            let (rf, rt) = if to > from {
                (from + 3, from + 1)
            } else {
                (from - 4, from - 1)
            };
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

    // ----- move generation ---------------------------------------------------------------

    /// All legal moves into the sink.
    #[inline(always)]
    pub fn generate<S: Sink>(&self, s: &mut S) {
        self.generate_impl::<S, false>(s)
    }

    /// Legal captures and promotions of revealed pawns (quiescence moves).
    pub fn generate_noisy<S: Sink>(&self, s: &mut S) {
        self.generate_impl::<S, true>(s)
    }

    #[inline(always)]
    fn generate_impl<S: Sink, const NOISY: bool>(&self, s: &mut S) {
        let t = tables();
        let us = self.side as usize;
        let them = us ^ 1;
        let own = self.col[us];
        let enemy = self.col[them];
        let occ = own | enemy;
        let ksq = self.king_sq(us);
        let checkers = self.attackers_to(ksq, occ) & enemy;

        // King steps: tested with the king lifted off the board (sliders see through it).
        let occ_nk = occ ^ bit(ksq);
        let mut kt = t.king[ksq] & if NOISY { enemy } else { !own };
        let mut safe = 0;
        while kt != 0 {
            let to = lsb(kt);
            kt &= kt - 1;
            if !self.attacked(to, them, occ_nk) {
                safe |= bit(to);
            }
        }
        s.piece(self, ksq, safe, false);
        if more_than_one(checkers) {
            return;
        }

        let target = if checkers != 0 {
            let c = lsb(checkers);
            t.between[ksq][c] | checkers
        } else {
            !own
        };
        // Pieces only capture in NOISY mode; pawns still push onto the last rank.
        let push_target = target;
        let target = if NOISY { target & enemy } else { target };

        // Pins: enemy sliders on a line with the king and exactly one own piece between.
        let mut pinned = 0;
        let snipers = ((t.rook(ksq, 0) & (self.bb[ROOK] | self.bb[QUEEN]))
            | (t.bishop(ksq, 0) & (self.bb[BISHOP] | self.bb[QUEEN])))
            & enemy;
        for sn in Bits(snipers) {
            let b = t.between[ksq][sn] & occ;
            if b != 0 && !more_than_one(b) && b & own != 0 {
                pinned |= b;
            }
        }

        for from in Bits(self.bb[KNIGHT] & own & !pinned) {
            s.piece(
                self,
                from,
                t.knight[from] & target,
                self.fd & bit(from) != 0,
            );
        }
        let diag = (self.bb[BISHOP] | self.bb[QUEEN]) & own;
        let orth = (self.bb[ROOK] | self.bb[QUEEN]) & own;
        for from in Bits(diag) {
            let mut a = t.bishop(from, occ) & target;
            if pinned & bit(from) != 0 {
                a &= t.line[ksq][from];
            }
            if self.bb[QUEEN] & bit(from) != 0 {
                a |= {
                    let mut r = t.rook(from, occ) & target;
                    if pinned & bit(from) != 0 {
                        r &= t.line[ksq][from];
                    }
                    r
                };
            }
            s.piece(self, from, a, self.fd & bit(from) != 0);
        }
        for from in Bits(orth & !self.bb[QUEEN]) {
            let mut a = t.rook(from, occ) & target;
            if pinned & bit(from) != 0 {
                a &= t.line[ksq][from];
            }
            s.piece(self, from, a, self.fd & bit(from) != 0);
        }

        // Pawns: unpinned ones in bulk by shifts, pinned ones one by one.
        let pawns = self.bb[PAWN] & own;
        let empty = !occ;
        let (up, last, third): (i32, Bb, Bb) = if us == WHITE {
            (8, RANK_8, RANK_3)
        } else {
            (-8, RANK_1, RANK_6)
        };
        let shift = |b: Bb, d: i32| if d > 0 { b << d } else { b >> -d };
        for fdp in [false, true] {
            let set = pawns & if fdp { self.fd } else { !self.fd } & !pinned;
            if set == 0 {
                continue;
            }
            let single = shift(set, up) & empty;
            let double = shift(single & third, up) & empty & push_target;
            let single = single & push_target;
            if !NOISY {
                s.pawns(single & !last, up, fdp);
                s.pawns(double, 2 * up, fdp);
            }
            s.promos(single & last, up);
            // Captures towards the a-file and the h-file.
            let (dl, dr) = (up - 1, up + 1);
            let capl = shift(set & !FILE_A, dl) & enemy & target;
            let capr = shift(set & !FILE_H, dr) & enemy & target;
            s.pawns(capl & !last, dl, fdp);
            s.promos(capl & last, dl);
            s.pawns(capr & !last, dr, fdp);
            s.promos(capr & last, dr);
        }
        for from in Bits(pawns & pinned) {
            let fdp = self.fd & bit(from) != 0;
            let line = t.line[ksq][from];
            let fb = bit(from);
            let mut single = shift(fb, up) & empty;
            let double = shift(single & third, up) & empty & push_target & line;
            single &= push_target & line;
            let caps = t.pawn[us][from] & enemy & target & line;
            for (b, d) in [(single, up), (double, 2 * up)] {
                if !NOISY {
                    s.pawns(b & !last, d, fdp);
                }
                s.promos(b & last, d);
            }
            for to in Bits(caps) {
                let d = to as i32 - from as i32;
                s.pawns(bit(to) & !last, d, fdp);
                s.promos(bit(to) & last, d);
            }
        }

        if self.ep != NO_SQ {
            let ep = self.ep as usize;
            for from in Bits(t.pawn[them][ep] & pawns & !self.fd) {
                if self.ep_legal(from, ep) {
                    s.single(mv(from, ep, 0), false);
                }
            }
        }

        if !NOISY && checkers == 0 && self.castle != 0 {
            let rights = if us == WHITE {
                self.castle & 3
            } else {
                (self.castle >> 2) & 3
            };
            let base = if us == WHITE { 0 } else { 56 };
            // Kingside: f and g empty and not attacked.
            if rights & 1 != 0
                && occ & (bit(base + 5) | bit(base + 6)) == 0
                && !self.attacked(base + 5, them, occ)
                && !self.attacked(base + 6, them, occ)
            {
                s.single(mv(base + 4, base + 6, 0), self.fd & bit(base + 7) != 0);
            }
            if rights & 2 != 0
                && occ & (bit(base + 1) | bit(base + 2) | bit(base + 3)) == 0
                && !self.attacked(base + 3, them, occ)
                && !self.attacked(base + 2, them, occ)
            {
                s.single(mv(base + 4, base + 2, 0), self.fd & bit(base) != 0);
            }
        }
    }

    /// Rule-decided end before move generation: the 75-move rule (unless the side to move
    /// is checkmated: mate on the last move comes first) or insufficient material.
    pub fn immediate_draw(&self) -> bool {
        (self.half >= MAX_HALFMOVE && !self.is_checkmate()) || self.insufficient_material()
    }

    pub fn has_legal_move(&self) -> bool {
        let mut c = Counter::new(self);
        self.generate(&mut c);
        c.n > 0
    }

    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
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

    /// Fast perft (bulk counting at the last ply, copy-make, no hashing). It counts the
    /// legal-move tree: the 75-move rule and dead positions do not end it.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            let mut c = Counter::new(self);
            self.generate(&mut c);
            return c.n;
        }
        let mut list = MoveList::new();
        self.generate(&mut Collect(&mut list));
        let us = self.side as usize;
        let mut nodes = 0;
        for &Move(m) in list.iter() {
            if self.fd != 0 && self.is_reveal(m) {
                for i in 0..5 {
                    if self.pool[us][i] > 0 {
                        let mut p = *self;
                        p.make::<false>(m, i as u8 + 1);
                        nodes += p.perft(depth - 1);
                    }
                }
            } else {
                let mut p = *self;
                p.make::<false>(m, 0);
                nodes += p.perft(depth - 1);
            }
        }
        nodes
    }
}

#[cfg(test)]
mod tests {
    use super::super::fen;
    use super::*;

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
    fn counter_counts_what_the_list_holds() {
        // Bulk counting = listed moves expanded by their reveal branches.
        for f in [
            fen::START_REVEAL,
            "4k3/8/8/8/8/8/8/X3K2X w KQ - 0 1 R1P1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 -",
            "x3k2x/1P6/8/8/8/8/8/4K3 b kq - 0 1 r1b1",
        ] {
            let p = fen::parse(f, false).unwrap();
            let mut c = Counter::new(&p);
            p.generate(&mut c);
            let mut l = MoveList::new();
            p.generate(&mut Collect(&mut l));
            let types = p.pool[p.side as usize].iter().filter(|&&n| n > 0).count() as u64;
            let want: u64 = l
                .iter()
                .map(|m| if p.is_reveal(m.0) { types } else { 1 })
                .sum();
            assert_eq!(c.n, want, "{f}");
        }
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
