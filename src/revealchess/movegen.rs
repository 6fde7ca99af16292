//! Legal move generation for Reveal Chess and chess: the move encoding, pin and check
//! masks, and a `Sink` that receives the moves (a move list, or a counter for
//! bulk-counting perft, which counts a face-down piece's move once per reveal outcome);
//! the fast perft.

use super::Move;
use super::bitboard::*;
use super::position::*;
use crate::game::MoveList;

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

/// What the parts of one generation share: the side to move, occupancy, the king, and
/// the masks that make a move legal.
struct Gen {
    t: &'static Tables,
    us: usize,
    own: Bb,
    enemy: Bb,
    occ: Bb,
    ksq: usize,
    /// Where a piece other than the king may go: anywhere not own, or in check onto the
    /// checker or between it and the king.
    push_target: Bb,
    /// `push_target`, in NOISY mode only captures (pawns still push onto the last rank).
    target: Bb,
    pinned: Bb,
}

/// A pawn of colour `us`: its step (+8 or -8), its last rank and the rank a double step
/// passes over.
#[inline(always)]
fn pawn_geometry(us: usize) -> (i32, Bb, Bb) {
    if us == WHITE {
        (8, RANK_8, RANK_3)
    } else {
        (-8, RANK_1, RANK_6)
    }
}

/// A bitboard shifted by `d` squares (up the board when positive).
#[inline(always)]
fn shift(b: Bb, d: i32) -> Bb {
    if d > 0 { b << d } else { b >> -d }
}

impl Pos {
    /// All legal moves into the sink.
    #[inline(always)]
    pub fn generate<S: Sink>(&self, s: &mut S) {
        self.generate_impl::<S, false>(s)
    }

    /// Legal captures and promotions of revealed pawns (quiescence moves).
    pub fn generate_noisy<S: Sink>(&self, s: &mut S) {
        self.generate_impl::<S, true>(s)
    }

    /// The moves go to the sink in a fixed order (king, knights, bishops and queens, rooks,
    /// pawns, en passant, castling): the search's move order, and so `tinh bench`, depends
    /// on it. Every part is `inline(always)`: one function after compilation, as fast as
    /// when it was written as one (measured with `tinh bench --perft`).
    #[inline(always)]
    fn generate_impl<S: Sink, const NOISY: bool>(&self, s: &mut S) {
        // The tables once: every `tables()` call is a check that they are built.
        let t = tables();
        let us = self.side as usize;
        let (own, enemy) = (self.col[us], self.col[us ^ 1]);
        let occ = own | enemy;
        let ksq = self.king_sq(us);
        let checkers = self.attackers_to(ksq, occ) & enemy;
        self.king_steps::<S, NOISY>(s, t, ksq, own, enemy, occ);
        if more_than_one(checkers) {
            return;
        }
        // In check: capture the checker or block the line to it.
        let push_target = if checkers != 0 {
            t.between[ksq][lsb(checkers)] | checkers
        } else {
            !own
        };
        let g = Gen {
            t,
            us,
            own,
            enemy,
            occ,
            ksq,
            push_target,
            target: if NOISY {
                push_target & enemy
            } else {
                push_target
            },
            pinned: self.pinned(t, ksq, own, enemy, occ),
        };
        self.piece_moves(s, &g);
        self.pawn_moves::<S, NOISY>(s, &g);
        self.en_passant(s, &g);
        if !NOISY && checkers == 0 {
            self.castling(s, &g);
        }
    }

    /// King steps, tested with the king lifted off the board (sliders see through it).
    #[inline(always)]
    fn king_steps<S: Sink, const NOISY: bool>(
        &self,
        s: &mut S,
        t: &Tables,
        ksq: usize,
        own: Bb,
        enemy: Bb,
        occ: Bb,
    ) {
        let them = self.side as usize ^ 1;
        let occ_nk = occ ^ bit(ksq);
        let mut safe = 0;
        for to in Bits(t.king[ksq] & if NOISY { enemy } else { !own }) {
            if !self.attacked(to, them, occ_nk) {
                safe |= bit(to);
            }
        }
        s.piece(self, ksq, safe, false);
    }

    /// Own pieces pinned to the king: each is the only piece between the king and an
    /// enemy slider on a line with it.
    #[inline(always)]
    fn pinned(&self, t: &Tables, ksq: usize, own: Bb, enemy: Bb, occ: Bb) -> Bb {
        let snipers = ((t.rook(ksq, 0) & (self.bb[ROOK] | self.bb[QUEEN]))
            | (t.bishop(ksq, 0) & (self.bb[BISHOP] | self.bb[QUEEN])))
            & enemy;
        let mut pinned = 0;
        for sn in Bits(snipers) {
            let b = t.between[ksq][sn] & occ;
            if b != 0 && !more_than_one(b) && b & own != 0 {
                pinned |= b;
            }
        }
        pinned
    }

    /// Knights (a pinned knight never moves), bishops, queens and rooks (a pinned one
    /// only along the pin line).
    #[inline(always)]
    fn piece_moves<S: Sink>(&self, s: &mut S, g: &Gen) {
        let t = g.t;
        let fd = |from: usize| self.fd & bit(from) != 0;
        let along_pin = |from: usize, a: Bb| {
            if g.pinned & bit(from) != 0 {
                a & t.line[g.ksq][from]
            } else {
                a
            }
        };
        for from in Bits(self.bb[KNIGHT] & g.own & !g.pinned) {
            s.piece(self, from, t.knight[from] & g.target, fd(from));
        }
        for from in Bits((self.bb[BISHOP] | self.bb[QUEEN]) & g.own) {
            let mut a = along_pin(from, t.bishop(from, g.occ) & g.target);
            if self.bb[QUEEN] & bit(from) != 0 {
                a |= along_pin(from, t.rook(from, g.occ) & g.target);
            }
            s.piece(self, from, a, fd(from));
        }
        for from in Bits(self.bb[ROOK] & g.own) {
            let a = along_pin(from, t.rook(from, g.occ) & g.target);
            s.piece(self, from, a, fd(from));
        }
    }

    /// Pawn pushes, captures and promotions: unpinned pawns in bulk by shifts (revealed
    /// ones, then face-down ones), pinned ones one by one along their pin line. In NOISY
    /// mode only captures and promotions.
    #[inline(always)]
    fn pawn_moves<S: Sink, const NOISY: bool>(&self, s: &mut S, g: &Gen) {
        let t = g.t;
        let pawns = self.bb[PAWN] & g.own;
        let empty = !g.occ;
        let (up, last, third) = pawn_geometry(g.us);
        for fdp in [false, true] {
            let set = pawns & if fdp { self.fd } else { !self.fd } & !g.pinned;
            if set == 0 {
                continue;
            }
            let single = shift(set, up) & empty;
            let double = shift(single & third, up) & empty & g.push_target;
            let single = single & g.push_target;
            if !NOISY {
                s.pawns(single & !last, up, fdp);
                s.pawns(double, 2 * up, fdp);
            }
            s.promos(single & last, up);
            // Captures towards the a-file and the h-file.
            let (dl, dr) = (up - 1, up + 1);
            let capl = shift(set & !FILE_A, dl) & g.enemy & g.target;
            let capr = shift(set & !FILE_H, dr) & g.enemy & g.target;
            s.pawns(capl & !last, dl, fdp);
            s.promos(capl & last, dl);
            s.pawns(capr & !last, dr, fdp);
            s.promos(capr & last, dr);
        }
        for from in Bits(pawns & g.pinned) {
            let fdp = self.fd & bit(from) != 0;
            let line = t.line[g.ksq][from];
            let mut single = shift(bit(from), up) & empty;
            let double = shift(single & third, up) & empty & g.push_target & line;
            single &= g.push_target & line;
            let caps = t.pawn[g.us][from] & g.enemy & g.target & line;
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
    }

    /// En-passant captures by revealed pawns, each tested on the real board.
    #[inline(always)]
    fn en_passant<S: Sink>(&self, s: &mut S, g: &Gen) {
        if self.ep == NO_SQ {
            return;
        }
        let ep = self.ep as usize;
        let pawns = self.bb[PAWN] & g.own & !self.fd;
        for from in Bits(g.t.pawn[g.us ^ 1][ep] & pawns) {
            if self.ep_legal(from, ep) {
                s.single(mv(from, ep, 0), false);
            }
        }
    }

    /// Castling (not in check): the squares between king and rook empty, those the king
    /// crosses and lands on not attacked. A face-down corner rook reveals.
    #[inline(always)]
    fn castling<S: Sink>(&self, s: &mut S, g: &Gen) {
        if self.castle == 0 {
            return;
        }
        let (us, them, occ) = (g.us, g.us ^ 1, g.occ);
        let rights = if us == WHITE {
            self.castle & 3
        } else {
            (self.castle >> 2) & 3
        };
        let base = if us == WHITE { 0 } else { 56 };
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

    pub fn has_legal_move(&self) -> bool {
        let mut c = Counter::new(self);
        self.generate(&mut c);
        c.n > 0
    }

    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
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
}
