//! Move generation, move counting and bulk perft for Math Chess.
//!
//! Everything walks the line words (`geometry::SQ_LINES`): for a piece on a line, the
//! free run toward either end is one shift and one trailing/leading-zero count, because
//! each word carries sentinel bits past both ends of its line. A capture is the same
//! lookup taken from the support: only the first piece beyond the support can be the
//! target (everything in between must be empty), so each attacker has at most one
//! capture per direction. Math Chess has no check, so every generated move is legal:
//! perft never plays its last two plies. At a node two plies from the leaves, the
//! opponent's move count is split by line (moves and captures along a line depend on
//! that line's contents only); each move of the side to move changes at most 7 lines, so
//! each child's count is the parent's count corrected on those lines (see
//! `ChildCounter`). The perft entry is compiled twice, once with BMI/LZCNT/POPCNT
//! enabled and chosen at run time when the CPU has them (the crate targets baseline
//! x86-64, where trailing/leading-zero counts are slower).

// Pieces are indexed by their number and squares by index: index loops read best.
#![allow(clippy::needless_range_loop)]

use super::Move;
use super::board::*;
use super::geometry::*;
use crate::game::MoveList;

/// Receives generated moves. Counting and listing share one generator, so perft's bulk
/// count and the move list cannot disagree.
pub(crate) trait Sink {
    /// The moves of the piece on `from` follow.
    #[inline(always)]
    fn piece(&mut self, _from: usize) {}
    /// `n` ordinary moves from `from` in direction `dir` (to distances 1..=n).
    fn slides(&mut self, from: usize, dir: usize, n: u32);
    /// One capture from `from` onto `to`, along a line of type `t` (direction 2t or 2t+1).
    fn capture(&mut self, from: usize, t: usize, to: usize);
}

/// Counts moves.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn slides(&mut self, _from: usize, _dir: usize, n: u32) {
        self.0 += n as u64;
    }
    #[inline(always)]
    fn capture(&mut self, _from: usize, _t: usize, _to: usize) {
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
    fn capture(&mut self, from: usize, _t: usize, to: usize) {
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
            sink.piece(s);
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
                            sink.capture(s, t, to);
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
                            sink.capture(s, t, to);
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

/// Moves (ordinary and captures) along line `id` of the pieces in `mine`, given the
/// line's occupancy `occ` (with sentinels) and the enemy pieces `theirs`. Moves and
/// captures along a line depend on that line's contents only, so a move's effect on the
/// opponent's move count is confined to the (at most 7) lines through its two squares.
#[inline(always)]
fn line_moves(nums: u64, occ: u32, mine: u32, theirs: u32) -> u32 {
    let mut c = 0;
    let mut m = mine;
    while m != 0 {
        let p = m.trailing_zeros();
        m &= m - 1;
        let a = (nums >> (4 * p)) as usize & 15;
        if a == 0 {
            continue;
        }
        let up = (occ >> (p + 1)).trailing_zeros();
        let down = (occ << (32 - p)).leading_zeros();
        c += up.min(a as u32) + down.min(a as u32);
        if up == 0 && (mine >> (p + 1)) & 1 != 0 {
            let k = (occ >> (p + 2)).trailing_zeros() + 1;
            if (theirs >> (p + 1 + k)) & 1 != 0 {
                let b = (nums >> (4 * p + 4)) as usize & 15;
                c += (CAPTURE_DIST[a][b] >> k) as u32 & 1;
            }
        }
        if down == 0 && (mine >> (p - 1)) & 1 != 0 {
            let k = (occ << (33 - p)).leading_zeros() + 1;
            if (theirs >> (p - 1 - k)) & 1 != 0 {
                let b = (nums >> (4 * p - 4)) as usize & 15;
                c += (CAPTURE_DIST[a][b] >> k) as u32 & 1;
            }
        }
    }
    c
}

/// Perft's last two plies: for each move of the side to move, the opponent's move count
/// in the child is the count in this position (per line, computed once) corrected on the
/// lines the move changes; no child is made. Only the line shared by the move's two
/// squares depends on both; the other lines through the from-square depend on the piece
/// leaving (computed once per piece), and the other lines through the to-square only on
/// an enemy of the opponent arriving there, whatever its number (computed once per square
/// and line, on first use).
struct ChildCounter<'a> {
    b: &'a Board,
    base: [i32; 64],
    total: i32,
    /// Change of the opponent's count on each line through the current piece's square
    /// when it leaves.
    leave: [i32; 4],
    /// Change of the opponent's count on line type t through square q when a piece of
    /// the side to move arrives there (`UNKNOWN` until first used).
    arrive: [[i32; 128]; 4],
    nodes: u64,
}

/// An arrival change not computed yet (real changes are small).
const UNKNOWN: i32 = i32::MIN;

impl ChildCounter<'_> {
    #[inline(always)]
    fn arrival(&mut self, to: usize, t: usize) -> i32 {
        let known = self.arrive[t][to & 127];
        if known != UNKNOWN {
            return known;
        }
        let b = self.b;
        let us = b.side;
        let l = &SQ_LINES[to];
        let id = l.id[t] as usize;
        let mine = b.side_lines[us ^ 1][id] as u32;
        let d = if mine == 0 {
            0
        } else {
            let bt = 1u32 << l.bit[t];
            let occ = b.lines[id] as u32 | bt;
            let ours = b.side_lines[us][id] as u32 | bt;
            line_moves(b.line_nums[id], occ, mine & !bt, ours) as i32 - self.base[id & 63]
        };
        self.arrive[t][to & 127] = d;
        d
    }

    /// Adds the opponent's move count after the move `from`-`to` along line type `t`.
    #[inline(always)]
    fn child(&mut self, from: usize, t: usize, to: usize) {
        let b = self.b;
        let us = b.side;
        let captured = b.mailbox[to];
        if captured != EMPTY {
            // The child is terminal: its count is 0.
            if code_num(captured) == 0 {
                return;
            }
            if b.point_target != 0
                && b.captured_points(us) + code_num(captured) as u32 >= b.point_target
            {
                return;
            }
        }
        let lf = &SQ_LINES[from];
        let lt = &SQ_LINES[to];
        let id = lf.id[t] as usize;
        let bf = 1u32 << lf.bit[t];
        let bt = 1u32 << lt.bit[t];
        let mut n = self.total - self.leave[t];
        let mine = b.side_lines[us ^ 1][id] as u32;
        if mine != 0 {
            let occ = (b.lines[id] as u32 ^ bf) | bt;
            let ours = (b.side_lines[us][id] as u32 ^ bf) | bt;
            n += line_moves(b.line_nums[id], occ, mine & !bt, ours) as i32 - self.base[id & 63];
        }
        for u in 0..4 {
            if u != t {
                n += self.arrival(to, u);
            }
        }
        self.nodes += n as u64;
    }
}

impl Sink for ChildCounter<'_> {
    #[inline(always)]
    fn piece(&mut self, from: usize) {
        let b = self.b;
        let us = b.side;
        let l = &SQ_LINES[from];
        let mut sum = 0;
        for t in 0..4 {
            let id = l.id[t] as usize;
            let mine = b.side_lines[us ^ 1][id] as u32;
            let d = if mine == 0 {
                0
            } else {
                let bf = 1u32 << l.bit[t];
                let occ = b.lines[id] as u32 ^ bf;
                let ours = b.side_lines[us][id] as u32 ^ bf;
                line_moves(b.line_nums[id], occ, mine, ours) as i32 - self.base[id & 63]
            };
            self.leave[t] = d;
            sum += d;
        }
        // `child` starts from total - leave[t] for the shared line t; fold the other
        // three lines' changes in once.
        for t in 0..4 {
            self.leave[t] -= sum;
        }
    }
    #[inline(always)]
    fn slides(&mut self, from: usize, dir: usize, n: u32) {
        let d = DIR_DELTA[dir];
        let mut to = from as i32;
        for _ in 0..n {
            to += d;
            self.child(from, dir / 2, to as usize);
        }
    }
    #[inline(always)]
    fn capture(&mut self, from: usize, t: usize, to: usize) {
        self.child(from, t, to);
    }
}

impl Board {
    /// Leaves two plies below a non-terminal position.
    #[inline(always)]
    fn perft2(&self) -> u64 {
        let them = self.side ^ 1;
        let mut cc = ChildCounter {
            b: self,
            base: [0; 64],
            total: 0,
            leave: [0; 4],
            arrive: [[UNKNOWN; 128]; 4],
            nodes: 0,
        };
        for id in 0..NLINES {
            let mine = self.side_lines[them][id] as u32;
            if mine != 0 {
                let c = line_moves(
                    self.line_nums[id],
                    self.lines[id] as u32,
                    mine,
                    self.side_lines[them ^ 1][id] as u32,
                );
                cc.base[id] = c as i32;
                cc.total += c as i32;
            }
        }
        self.generate::<ChildCounter, true>(&mut cc);
        cc.nodes
    }
}

/// Bulk-counting perft: the last two plies are counted, not played. `$name` gets the
/// target features so the counts compile to native bit instructions where the CPU has
/// them.
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
            if depth == 2 {
                return b.perft2();
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
