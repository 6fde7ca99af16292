//! The Math Chess position: bitboards, mailbox, per-number squares and line words, kept
//! in step by `make`/`unmake`; FEN parse/print; Zobrist keys; repetition bookkeeping.

// Pieces are indexed by their number and squares by index: index loops read best.
#![allow(clippy::needless_range_loop)]

use super::Move;
use super::geometry::*;
use crate::game::{MAX_FULLMOVE, parse_counter};
use std::fmt::Write as _;

/// Side indices.
pub const BLUE: usize = 0;
pub const RED: usize = 1;

/// Mailbox code of an empty square. A piece is `side << 4 | number`.
pub const EMPTY: u8 = 0xFF;

#[inline(always)]
pub const fn piece_code(side: usize, num: usize) -> u8 {
    ((side << 4) | num) as u8
}
#[inline(always)]
pub const fn code_side(code: u8) -> usize {
    (code >> 4) as usize
}
#[inline(always)]
pub const fn code_num(code: u8) -> usize {
    (code & 15) as usize
}

/// Sum of the numbers of a full side: the most points one can capture.
pub const FULL_SIDE_POINTS: u32 = 45;

/// What `unmake` needs to restore a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Undo {
    pub mv: Move,
    /// Mailbox code of the captured piece, `EMPTY` for an ordinary or null move.
    pub captured: u8,
    /// `irreversible` before the move.
    pub prev_irreversible: u32,
}

#[derive(Clone)]
pub struct Board {
    /// Piece code per square (`EMPTY` when empty); indices outside the board stay empty.
    pub(crate) mailbox: [u8; NSQ],
    /// Occupancy per side.
    pub(crate) by_side: [u128; 2],
    /// Square of each number of each side, `NONE` once captured.
    pub(crate) sq: [[u8; 10]; 2],
    /// Occupancy of every line (both colours) with its sentinel bits.
    pub(crate) lines: [u16; NLINES],
    /// Occupancy of every line per side, without sentinels.
    pub(crate) side_lines: [[u16; NLINES]; 2],
    /// The numbers along every line, 4 bits per line-word bit (0 where empty or a 0
    /// stands: read only where an occupancy word says a piece is).
    pub(crate) line_nums: [u64; NLINES],
    /// Sum of the numbers each side still has on the board.
    pub(crate) material: [u32; 2],
    pub(crate) side: usize,
    pub(crate) key: u64,
    pub(crate) point_target: u32,
    /// Full-move number of the set-up position, the side that moved first from it, and
    /// whether the set-up FEN carried a move number (printed back only if it did).
    pub(crate) start_fullmove: u32,
    pub(crate) start_side: usize,
    pub(crate) fen_has_fullmove: bool,
    /// Index in `history` of the first position after the last capture or null move:
    /// nothing before it can recur (captures are irreversible).
    pub(crate) irreversible: u32,
    pub(crate) undo: Vec<Undo>,
    /// Keys of the positions before each move made (`history[i]` = key at ply i).
    pub(crate) history: Vec<u64>,
}

/// Equal when every field is: the placement, the side to move, all redundant structures,
/// the set-up data, the undo stack and the key history (tests compare a board before a
/// make and after its unmake).
impl PartialEq for Board {
    fn eq(&self, o: &Board) -> bool {
        self.mailbox == o.mailbox
            && self.by_side == o.by_side
            && self.sq == o.sq
            && self.lines == o.lines
            && self.side_lines == o.side_lines
            && self.line_nums == o.line_nums
            && self.material == o.material
            && self.side == o.side
            && self.key == o.key
            && self.point_target == o.point_target
            && self.start_fullmove == o.start_fullmove
            && self.start_side == o.start_side
            && self.fen_has_fullmove == o.fen_has_fullmove
            && self.irreversible == o.irreversible
            && self.undo == o.undo
            && self.history == o.history
    }
}
impl Eq for Board {}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

pub const START_FEN: &str = "r9r8r7r6r5r4r3r2r1/4r04/9/9/9/9/9/9/9/4b04/b1b2b3b4b5b6b7b8b9 b 1";

impl Board {
    fn empty() -> Board {
        let mut lines = [0u16; NLINES];
        lines.copy_from_slice(&LINE_SENTINEL);
        Board {
            mailbox: [EMPTY; NSQ],
            by_side: [0; 2],
            sq: [[NONE; 10]; 2],
            lines,
            side_lines: [[0; NLINES]; 2],
            line_nums: [0; NLINES],
            material: [0; 2],
            side: BLUE,
            key: 0,
            point_target: 0,
            start_fullmove: 1,
            start_side: BLUE,
            fen_has_fullmove: true,
            irreversible: 0,
            undo: Vec::with_capacity(256),
            history: Vec::with_capacity(256),
        }
    }

    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Put a piece on an empty square (set-up and make/unmake).
    #[inline(always)]
    pub(crate) fn put(&mut self, side: usize, num: usize, s: usize) {
        debug_assert_eq!(self.mailbox[s], EMPTY);
        self.mailbox[s] = piece_code(side, num);
        self.by_side[side] |= 1u128 << s;
        self.sq[side][num] = s as u8;
        self.toggle_lines(side, num, s);
        self.material[side] += num as u32;
        self.key ^= ZOBRIST.piece[side][num][s];
    }

    /// Remove a piece from its square.
    #[inline(always)]
    pub(crate) fn remove(&mut self, side: usize, num: usize, s: usize) {
        debug_assert_eq!(self.mailbox[s], piece_code(side, num));
        self.mailbox[s] = EMPTY;
        self.by_side[side] ^= 1u128 << s;
        self.sq[side][num] = NONE;
        self.toggle_lines(side, num, s);
        self.material[side] -= num as u32;
        self.key ^= ZOBRIST.piece[side][num][s];
    }

    #[inline(always)]
    fn toggle_lines(&mut self, side: usize, num: usize, s: usize) {
        let l = &SQ_LINES[s];
        for t in 0..4 {
            let id = l.id[t] as usize;
            let b = 1u16 << l.bit[t];
            self.lines[id] ^= b;
            self.side_lines[side][id] ^= b;
            self.line_nums[id] ^= (num as u64) << (4 * l.bit[t]);
        }
    }

    /// Parse a position in the project's notation (see the rules file). Errors say what is
    /// wrong and where.
    pub fn from_fen(fen: &str) -> Result<Board, String> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or("empty FEN")?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != RANKS {
            return Err(format!(
                "FEN has {} ranks, expected {RANKS} separated by '/'",
                ranks.len()
            ));
        }
        let mut b = Board::empty();
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i;
            let name = rank + 1;
            let bytes = text.as_bytes();
            let mut file = 0usize;
            let mut j = 0;
            let mut last_was_gap = false;
            if bytes.is_empty() {
                return Err(format!("rank {name} is empty"));
            }
            while j < bytes.len() {
                let c = bytes[j];
                match c {
                    b'1'..=b'9' => {
                        if last_was_gap {
                            return Err(format!(
                                "rank {name} ('{text}'): two empty-square counts in a row"
                            ));
                        }
                        file += (c - b'0') as usize;
                        last_was_gap = true;
                        j += 1;
                    }
                    b'b' | b'r' => {
                        let side = if c == b'b' { BLUE } else { RED };
                        let colour = if side == BLUE { "Blue" } else { "Red" };
                        let Some(&d) = bytes.get(j + 1).filter(|d| d.is_ascii_digit()) else {
                            return Err(format!(
                                "rank {name} ('{text}'): colour letter '{}' not followed by a digit 0-9",
                                c as char
                            ));
                        };
                        let num = (d - b'0') as usize;
                        if file >= FILES {
                            return Err(format!(
                                "rank {name} ('{text}') is wider than {FILES} squares"
                            ));
                        }
                        if b.sq[side][num] != NONE {
                            return Err(format!(
                                "{colour} has two pieces numbered {num} (rank {name} and square {})",
                                square_name(b.sq[side][num] as usize)
                            ));
                        }
                        b.put(side, num, square(file, rank));
                        file += 1;
                        last_was_gap = false;
                        j += 2;
                    }
                    b'0' => {
                        return Err(format!(
                            "rank {name} ('{text}'): '0' is not an empty-square count (use 1-9), a piece needs its colour letter"
                        ));
                    }
                    _ => {
                        return Err(format!(
                            "rank {name} ('{text}'): bad character '{}' (expected a colour letter b or r, or a digit 1-9)",
                            text[j..].chars().next().unwrap_or('?')
                        ));
                    }
                }
            }
            if file != FILES {
                return Err(format!(
                    "rank {name} ('{text}') has {file} squares, expected {FILES}"
                ));
            }
        }
        let side = fields
            .next()
            .ok_or("missing side to move (expected 'b' or 'r' after the placement)")?;
        b.side = match side {
            "b" => BLUE,
            "r" => RED,
            _ => return Err(format!("bad side to move '{side}' (expected 'b' or 'r')")),
        };
        if b.side == RED {
            b.key ^= ZOBRIST.red_to_move;
        }
        b.start_side = b.side;
        match fields.next() {
            None => {
                b.fen_has_fullmove = false;
                b.start_fullmove = 1;
            }
            Some(n) => {
                b.start_fullmove = parse_counter(n, "full-move number", 1, MAX_FULLMOVE)?;
                b.fen_has_fullmove = true;
            }
        }
        if let Some(junk) = fields.next() {
            return Err(format!("unexpected text '{junk}' after the FEN"));
        }
        Ok(b)
    }

    /// The position in the project's FEN. The full-move number is printed when the set-up
    /// FEN had one (the start position has it), so any FEN read prints back exactly.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..RANKS).rev() {
            let mut gap = 0;
            for file in 0..FILES {
                let c = self.mailbox[square(file, rank)];
                if c == EMPTY {
                    gap += 1;
                } else {
                    if gap > 0 {
                        s.push((b'0' + gap) as char);
                        gap = 0;
                    }
                    s.push(if code_side(c) == BLUE { 'b' } else { 'r' });
                    s.push((b'0' + code_num(c) as u8) as char);
                }
            }
            if gap > 0 {
                s.push((b'0' + gap) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == BLUE { " b" } else { " r" });
        if self.fen_has_fullmove {
            let _ = write!(s, " {}", self.fullmove());
        }
        s
    }

    /// Full-move number: starts at the set-up's and grows after each Red move, up to
    /// `MAX_FULLMOVE` (where it stays, so the FEN reads back).
    pub fn fullmove(&self) -> u32 {
        let played = ((self.undo.len() + self.start_side) / 2) as u64;
        (self.start_fullmove as u64 + played).min(MAX_FULLMOVE as u64) as u32
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for side in 0..2 {
            for n in 0..10 {
                let s = self.sq[side][n];
                if s != NONE {
                    k ^= ZOBRIST.piece[side][n][s as usize];
                }
            }
        }
        if self.side == RED {
            k ^= ZOBRIST.red_to_move;
        }
        k
    }

    /// Every redundant structure agrees with the mailbox (tests and debug checks).
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut fresh = Board::empty();
        for s in 0..NSQ {
            let c = self.mailbox[s];
            if c == EMPTY {
                continue;
            }
            if file_of(s) >= FILES {
                return Err(format!("piece off the board at index {s}"));
            }
            fresh.put(code_side(c), code_num(c), s);
        }
        fresh.side = self.side;
        if fresh.side == RED {
            fresh.key ^= ZOBRIST.red_to_move;
        }
        if fresh.by_side != self.by_side {
            return Err("side bitboards disagree with the mailbox".into());
        }
        if fresh.sq != self.sq {
            return Err("piece squares disagree with the mailbox".into());
        }
        if fresh.lines != self.lines
            || fresh.side_lines != self.side_lines
            || fresh.line_nums != self.line_nums
        {
            return Err("line words disagree with the mailbox".into());
        }
        if fresh.material != self.material {
            return Err("material disagrees with the mailbox".into());
        }
        if fresh.key != self.key || self.compute_key() != self.key {
            return Err(format!(
                "incremental key {:016x} != key from scratch {:016x}",
                self.key, fresh.key
            ));
        }
        if self.history.len() != self.undo.len() {
            return Err("key history and undo stack differ in length".into());
        }
        Ok(())
    }

    /// Play a move (legal or at least pseudo-legal: a piece of the side to move goes to
    /// an empty or enemy-occupied square). Captures remove the target.
    #[inline(always)]
    pub(crate) fn make_move(&mut self, mv: Move) {
        let from = mv.from();
        let to = mv.to();
        let code = self.mailbox[from];
        let num = code_num(code);
        let us = self.side;
        let captured = self.mailbox[to];
        self.undo.push(Undo {
            mv,
            captured,
            prev_irreversible: self.irreversible,
        });
        self.history.push(self.key);
        if captured != EMPTY {
            self.remove(us ^ 1, code_num(captured), to);
            self.irreversible = self.history.len() as u32;
        }
        self.remove(us, num, from);
        self.put(us, num, to);
        self.side = us ^ 1;
        self.key ^= ZOBRIST.red_to_move;
    }

    #[inline(always)]
    pub(crate) fn unmake_move(&mut self) {
        let u = self.undo.pop().expect("unmake without a move");
        self.key = self.history.pop().expect("key history");
        self.irreversible = u.prev_irreversible;
        let them = self.side;
        let us = them ^ 1;
        self.side = us;
        if u.mv.is_null_move() {
            return;
        }
        let from = u.mv.from();
        let to = u.mv.to();
        let num = code_num(self.mailbox[to]);
        // Keys are restored from history above; keep put/remove's key updates harmless by
        // saving and restoring.
        let key = self.key;
        self.remove(us, num, to);
        self.put(us, num, from);
        if u.captured != EMPTY {
            self.put(them, code_num(u.captured), to);
        }
        self.key = key;
    }

    pub(crate) fn make_null_move(&mut self) {
        self.undo.push(Undo {
            mv: Move::default(),
            captured: EMPTY,
            prev_irreversible: self.irreversible,
        });
        self.history.push(self.key);
        // A null move is a search device: no repetition is counted across it.
        self.irreversible = self.history.len() as u32;
        self.side ^= 1;
        self.key ^= ZOBRIST.red_to_move;
    }

    /// Points captured by `side`: the numbers of the enemy no longer on the board.
    #[inline]
    pub fn captured_points(&self, side: usize) -> u32 {
        FULL_SIDE_POINTS - self.material[side ^ 1]
    }

    /// The agreed point target (0 = off, the default).
    pub fn point_target(&self) -> u32 {
        self.point_target
    }

    /// Turn the optional point-target rule on (`target` > 0) or off (0).
    pub fn set_point_target(&mut self, target: u32) {
        self.point_target = target;
    }

    /// Whether `side` still has its 0.
    #[inline(always)]
    pub fn has_zero(&self, side: usize) -> bool {
        self.sq[side][0] != NONE
    }

    /// Occurrences of the current position (same placement, same side to move) among the
    /// earlier positions that can still recur, not counting the current one.
    pub(crate) fn earlier_occurrences(&self, stop_at_first: bool) -> usize {
        let len = self.history.len();
        let lo = self.irreversible as usize;
        let mut count = 0;
        // Same side to move: same parity. Two plies back cannot repeat (a piece moved).
        let mut i = len as isize - 4;
        while i >= lo as isize {
            if self.history[i as usize] == self.key {
                count += 1;
                if stop_at_first {
                    break;
                }
            }
            i -= 2;
        }
        count
    }

    /// Piece code on a square (`EMPTY` if none).
    #[inline(always)]
    pub fn piece_at(&self, sq: usize) -> u8 {
        self.mailbox[sq]
    }

    /// Square of `side`'s number `num`, if still on the board.
    #[inline(always)]
    pub fn square_of(&self, side: usize, num: usize) -> Option<usize> {
        let s = self.sq[side][num];
        (s != NONE).then_some(s as usize)
    }

    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.by_side[0] | self.by_side[1]
    }
}
