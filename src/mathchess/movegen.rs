//! Move generation, move counting and bulk perft for Math Chess.
//!
//! Everything walks the line words (`geometry::SQ_LINES`): for a piece on a line, the
//! free run toward either end is one shift and one trailing/leading-zero count, because
//! each word carries sentinel bits past both ends of its line. A capture is the same
//! lookup taken from the support: only the first piece beyond the support can be the
//! target (everything in between must be empty), so each attacker has at most one
//! capture per direction. Math Chess has no check, so every generated move is legal and
//! the last ply of perft counts moves without listing them.

use super::Move;
use super::board::*;
use super::geometry::*;
use crate::game::MoveList;

/// Receives generated moves. Counting and listing share one generator, so perft's bulk
/// count and the move list cannot disagree.
pub(crate) trait Sink {
    /// `n` ordinary moves from `from` in direction `dir` (to distances 1..=n).
    fn slides(&mut self, from: usize, dir: usize, n: u32);
    /// One capture from `from` onto `to`.
    fn capture(&mut self, from: usize, to: usize);
}

/// Counts moves.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn slides(&mut self, _from: usize, _dir: usize, n: u32) {
        self.0 += n as u64;
    }
    #[inline(always)]
    fn capture(&mut self, _from: usize, _to: usize) {
        self.0 += 1;
    }
}

/// Appends moves to a list; `QUIET` false keeps only captures.
pub(crate) struct Lister<'a, const QUIET: bool>(pub &'a mut MoveList<Move>);

impl<const QUIET: bool> Sink for Lister<'_, QUIET> {
    #[inline(always)]
    fn slides(&mut self, from: usize, dir: usize, n: u32) {
        if QUIET {
            let d = DIR_DELTA[dir];
            let mut to = from as i32;
            for _ in 0..n {
                to += d;
                self.0.push(Move::new(from, to as usize));
            }
        }
    }
    #[inline(always)]
    fn capture(&mut self, from: usize, to: usize) {
        self.0.push(Move::new(from, to));
    }
}

impl Board {
    /// Generate (or count) the moves of the side to move; `QUIET` false skips ordinary
    /// moves. A position where either 0 is gone has no moves (the game is over).
    #[inline(always)]
    pub(crate) fn generate<S: Sink, const QUIET: bool>(&self, sink: &mut S) {
        let us = self.side;
        if !self.has_zero(us) || !self.has_zero(us ^ 1) {
            return;
        }
        let own = &self.side_lines[us];
        let enemy = &self.side_lines[us ^ 1];
        for a in 1..10 {
            let s = self.sq[us][a];
            if s == NONE {
                continue;
            }
            let s = s as usize;
            let l = &SQ_LINES[s];
            for t in 0..4 {
                let id = l.id[t] as usize;
                let p = l.bit[t] as u32;
                let o = self.lines[id] as u32;
                // Free squares toward the positive end and toward the negative end.
                let up = (o >> (p + 1)).trailing_zeros();
                let down = (o << (32 - p)).leading_zeros();
                if QUIET {
                    sink.slides(s, 2 * t, up.min(a as u32));
                    sink.slides(s, 2 * t + 1, down.min(a as u32));
                }
                // Capture toward the positive end: the neighbour there is a friendly
                // support, the first piece beyond it is the target candidate.
                if up == 0 && (own[id] as u32 >> (p + 1)) & 1 != 0 {
                    let k = (o >> (p + 2)).trailing_zeros() + 1;
                    if (enemy[id] as u32 >> (p + 1 + k)) & 1 != 0 {
                        let support = (s as i32 + DIR_DELTA[2 * t]) as usize;
                        let b = code_num(self.mailbox[support]);
                        if CAPTURE_DIST[a][b] >> k & 1 != 0 {
                            let to = (s as i32 + (k as i32 + 1) * DIR_DELTA[2 * t]) as usize;
                            sink.capture(s, to);
                        }
                    }
                }
                if down == 0 && (own[id] as u32 >> (p - 1)) & 1 != 0 {
                    // p - 1 >= 1 here: bit 0 is the sentinel and never own.
                    let k = (o << (33 - p)).leading_zeros() + 1;
                    if (enemy[id] as u32 >> (p - 1 - k)) & 1 != 0 {
                        let support = (s as i32 + DIR_DELTA[2 * t + 1]) as usize;
                        let b = code_num(self.mailbox[support]);
                        if CAPTURE_DIST[a][b] >> k & 1 != 0 {
                            let to = (s as i32 + (k as i32 + 1) * DIR_DELTA[2 * t + 1]) as usize;
                            sink.capture(s, to);
                        }
                    }
                }
            }
        }
    }

    /// Number of legal moves of the side to move.
    #[inline(always)]
    pub fn count_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate::<Counter, true>(&mut c);
        c.0
    }

    /// Whether `side`'s 0 could be captured by the other side if it were to move now.
    pub fn zero_attacked(&self, side: usize) -> bool {
        let Some(z) = self.square_of(side, 0) else {
            return false;
        };
        let them = side ^ 1;
        let enemy = &self.side_lines[them];
        let l = &SQ_LINES[z];
        for t in 0..4 {
            let id = l.id[t] as usize;
            let p = l.bit[t] as u32;
            let o = self.lines[id] as u32;
            // Support B is the first piece from the 0 in a direction, k squares away; the
            // attacker A stands right behind it; the capture runs back toward the 0.
            let up = (o >> (p + 1)).trailing_zeros();
            let bb = p + 1 + up;
            if (enemy[id] as u32 >> bb) & 1 != 0 && (enemy[id] as u32 >> (bb + 1)) & 1 != 0 {
                let bsq = (z as i32 + (up as i32 + 1) * DIR_DELTA[2 * t]) as usize;
                let asq = (bsq as i32 + DIR_DELTA[2 * t]) as usize;
                let (a, b) = (code_num(self.mailbox[asq]), code_num(self.mailbox[bsq]));
                if CAPTURE_DIST[a][b] >> (up + 1) & 1 != 0 {
                    return true;
                }
            }
            let down = (o << (32 - p)).leading_zeros();
            if down + 2 < p {
                let bb = p - 1 - down;
                if (enemy[id] as u32 >> bb) & 1 != 0 && (enemy[id] as u32 >> (bb - 1)) & 1 != 0 {
                    let bsq = (z as i32 + (down as i32 + 1) * DIR_DELTA[2 * t + 1]) as usize;
                    let asq = (bsq as i32 + DIR_DELTA[2 * t + 1]) as usize;
                    let (a, b) = (code_num(self.mailbox[asq]), code_num(self.mailbox[bsq]));
                    if CAPTURE_DIST[a][b] >> (down + 1) & 1 != 0 {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Bulk-counting perft: the last ply is counted, not played. `$name` gets the target
/// features so the counts compile to native bit instructions where the CPU has them.
macro_rules! perft_fn {
    ($(#[$attr:meta])* fn $name:ident) => {
        $(#[$attr])*
        fn $name(b: &mut Board, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            if b.terminal() {
                return 0;
            }
            if depth == 1 {
                return b.count_moves();
            }
            let mut list = MoveList::new();
            b.generate::<Lister<true>, true>(&mut Lister(&mut list));
            let mut nodes = 0;
            for &mv in list.iter() {
                b.make_move(mv);
                nodes += $name(b, depth - 1);
                b.unmake_move();
            }
            nodes
        }
    };
}

perft_fn!(fn perft_portable);

#[cfg(target_arch = "x86_64")]
perft_fn!(
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn perft_native
);

/// Perft with bulk counting at the last ply.
pub(crate) fn perft(b: &mut Board, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
        {
            // SAFETY: the CPU supports every feature `perft_native` is compiled for.
            return unsafe { perft_native(b, depth) };
        }
    }
    perft_portable(b, depth)
}
