//! Math Chess (Cờ Toán): the rules of docs/rules/mathchess.md on a 9x11 board held
//! as u128 bitboards plus line words; move generation, bulk perft, FEN, Zobrist keys,
//! the game's ends, and (in `eval`) the static evaluation, all behind `game::Game`;
//! `see` defines the static exchange evaluation of arithmetic captures.
//!
//! Notation decisions: moves are `<from><to>` (`c1c4`, `e10e11`; a capture names the
//! target's square). FEN printing includes the full-move number exactly when the FEN the
//! board was set up from had one (the start position has it), so every accepted FEN
//! prints back unchanged; the number still advances after each Red move. Missing pieces
//! are allowed (they count as captured); a position without one of the 0s is over.
//! Rule options: the point target (`Board::set_point_target`, 0 = off).

pub mod board;
pub mod eval;
pub mod explain;
pub mod geometry;
pub mod movegen;
pub mod see;
pub mod weights;

pub use board::{BLUE, Board, EMPTY, RED, START_FEN, code_num, code_side, piece_code};

use crate::game::*;
use geometry::*;

/// Positions for a move-generation speed benchmark (perft leaves per second) with their
/// depths: the start and four middlegames from seeded random games (with captures
/// available in some).
pub const PERFT_BENCH: [(&str, u32); 5] = [
    (START_FEN, 5),
    (
        "r91r72r4r3r2r1/4r0r53/3r85/9/9/9/b48/r65b72/1b26b6/4b04/b11b31b52b8b9 b 7",
        4,
    ),
    (
        "5r4r3r2r1/4r04/1b87/r53r84/9/6r62/3r75/2b96/9/1b12b0b73/b31b2b4b5b63 b 13",
        4,
    ),
    (
        "3b43r2r1/4r04/2r52r4r32/4r74/9/1r85r91/8b7/7b61/4b94/2b2b5b04/b11b34b81 b 21",
        4,
    ),
    (
        "5r81r21/2r71r01r12/7r51/6b6b51/9/r48/2r36/3b31b13/r9b21b91b73/3b4b04/b88 b 31",
        4,
    ),
];

/// The `tinh bench` positions: the start and three openings a few moves in.
const BENCH: [BenchPosition; 4] = [
    BenchPosition {
        fen: None,
        moves: "",
        depth_offset: 0,
    },
    BenchPosition {
        fen: None,
        moves: "d1d4 f11f8 c1c4 d11d8",
        depth_offset: 0,
    },
    BenchPosition {
        fen: None,
        moves: "g1g5 g11g8 d1d4 f11f8 c1c4",
        depth_offset: 0,
    },
    BenchPosition {
        fen: None,
        moves: "f1f6 d11d6 h1h4 b11b5 i1e5",
        depth_offset: 0,
    },
];

/// The point target (seed 001): the first side to capture this many points wins.
const RULE_OPTIONS: [RuleOption; 1] = [RuleOption {
    name: "PointTarget",
    default: 0,
    min: 0,
    max: board::FULL_SIDE_POINTS as i64,
    doc: "Math Chess: the first side to capture this many points wins (0 = off)",
}];

/// A move: bits 0..7 the from-square, bits 7..14 the to-square (indices of
/// `geometry::square`). A capture names the attacker's square and the target's square.
/// `Move(0)` (from = to = a1) is never a real move: it is the null move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(pub u16);

impl Move {
    #[inline(always)]
    pub fn new(from: usize, to: usize) -> Move {
        Move((from | (to << 7)) as u16)
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 127) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 >> 7) as usize
    }
    #[inline(always)]
    pub fn is_null_move(self) -> bool {
        self.0 == 0
    }
}

impl GameMove for Move {
    fn to_u16(self) -> u16 {
        self.0
    }
    fn from_u16(v: u16) -> Self {
        Move(v)
    }
}

impl Board {
    /// The game is over before any move: a 0 is gone or the point target is reached.
    #[inline(always)]
    pub fn terminal(&self) -> bool {
        !self.has_zero(BLUE)
            || !self.has_zero(RED)
            || (self.point_target != 0
                && (self.captured_points(BLUE) >= self.point_target
                    || self.captured_points(RED) >= self.point_target))
    }

    /// The side to move's view of a decided position, with the rule that decided it.
    fn decided(&self) -> Option<(Outcome, &'static str)> {
        let us = self.side;
        // A captured 0 decides whatever the score.
        if !self.has_zero(us) {
            return Some((Outcome::Loss, "zero captured"));
        }
        if !self.has_zero(us ^ 1) {
            return Some((Outcome::Win, "zero captured"));
        }
        if self.point_target != 0 {
            if self.captured_points(us ^ 1) >= self.point_target {
                return Some((Outcome::Loss, "point target"));
            }
            if self.captured_points(us) >= self.point_target {
                return Some((Outcome::Win, "point target"));
            }
        }
        None
    }

    /// Parse `<from><to>` (e.g. `c1c4`, `e10e11`) and check it is legal here.
    fn parse_legal(&self, s: &str) -> Result<Move, String> {
        let bytes = s.as_bytes();
        let malformed = || format!("malformed move '{s}' (expected <from><to>, e.g. c1c4)");
        let (from, n) = parse_square_prefix(bytes).ok_or_else(malformed)?;
        let (to, m) = parse_square_prefix(&bytes[n..]).ok_or_else(malformed)?;
        if n + m != bytes.len() {
            return Err(malformed());
        }
        // Every end of Math Chess is automatic, threefold repetition included.
        if let Some(end) = self.game_over() {
            return Err(format!(
                "illegal move '{s}': the game is over ({})",
                end.reason
            ));
        }
        let mv = Move::new(from, to);
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        if list.contains(&mv) {
            return Ok(mv);
        }
        let c = self.mailbox[from];
        let why = if c == EMPTY {
            format!("no piece on {}", square_name(from))
        } else if code_side(c) != self.side {
            format!(
                "the piece on {} is not the side to move's",
                square_name(from)
            )
        } else if code_num(c) == 0 {
            "0 never moves".to_string()
        } else if self.mailbox[to] != EMPTY && code_side(self.mailbox[to]) == self.side {
            format!("{} holds a friendly piece", square_name(to))
        } else if self.mailbox[to] != EMPTY {
            "no arithmetic capture reaches that target".to_string()
        } else {
            format!(
                "a {} cannot move from {} to {}",
                code_num(c),
                square_name(from),
                square_name(to)
            )
        };
        Err(format!("illegal move '{s}': {why}"))
    }
}

/// The strength options' calibration in Math Chess, measured by `tinh ladder` (two runs at
/// 300 000 nodes a move pooled by `--refit`, README). A number is worth about 100 and a
/// side has nine, so the small unit a mistake is counted in is a third of a number.
pub const STRENGTH: crate::search::skill::StrengthScale = crate::search::skill::StrengthScale {
    pawn: 30,
    levels: [0.0, 10.0, 12.0, 14.0, 16.5],
    ratings: &[
        (-1.0, 0),
        (0.0, 537),
        (10.0, 756),
        (12.0, 1030),
        (14.0, 1192),
        (16.5, 1520),
    ],
};

impl Game for Board {
    type Move = Move;
    type Eval = eval::Evaluation;
    const HISTORY_SIZE: usize = 128 * 128;
    /// Pieces 1..9 of either side (the 0 never moves) by square.
    const PIECE_TO_SIZE: usize = 2 * 9 * NSQ;

    fn variant_name(&self) -> &'static str {
        "mathchess"
    }
    fn dimensions(&self) -> (usize, usize) {
        (FILES, RANKS)
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["Blue", "Red"]
    }
    fn rule_options(&self) -> &'static [RuleOption] {
        &RULE_OPTIONS
    }
    fn set_rule_option(&mut self, name: &str, value: i64) {
        if name.eq_ignore_ascii_case(RULE_OPTIONS[0].name) {
            self.set_point_target(value.clamp(0, board::FULL_SIDE_POINTS as i64) as u32);
        }
    }
    fn strength_scale(&self) -> &'static crate::search::skill::StrengthScale {
        &STRENGTH
    }
    fn bench_positions(&self) -> &'static [BenchPosition] {
        &BENCH
    }
    fn perft_bench_positions(&self) -> &'static [(&'static str, u32)] {
        &PERFT_BENCH
    }
    fn with_fen(&self, fen: &str) -> Result<Self, String> {
        let mut b = Board::from_fen(fen)?;
        b.set_point_target(self.point_target);
        Ok(b)
    }
    fn to_fen(&self) -> String {
        self.fen()
    }
    fn fullmove_number(&self) -> u32 {
        self.fullmove()
    }
    fn side_to_move(&self) -> usize {
        self.side
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn game_ply(&self) -> usize {
        self.undo.len()
    }

    fn generate_moves(&self, list: &mut MoveList<Move>) {
        self.generate::<movegen::Lister<true>, true>(&mut movegen::Lister(list));
    }
    fn generate_noisy(&self, list: &mut MoveList<Move>) {
        self.generate::<movegen::Lister<false>, false>(&mut movegen::Lister(list));
    }
    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        // The null move's "to" (a1) may hold a piece: it is still no capture.
        !mv.is_null_move() && self.mailbox[mv.to()] != EMPTY
    }
    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        self.is_capture(mv)
    }
    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        mv.from() * 128 + mv.to()
    }
    #[inline]
    fn piece_to_index(&self, mv: Move) -> usize {
        let c = self.mailbox[mv.from()];
        (code_side(c) * 9 + code_num(c).max(1) - 1) * NSQ + mv.to()
    }
    fn chance(&self, _mv: Move, _out: &mut ChanceList) -> bool {
        false
    }
    fn make(&mut self, mv: Move, _outcome: u8) {
        self.make_move(mv);
    }
    fn unmake(&mut self) {
        self.unmake_move();
    }
    /// Each side's placement (where each of its numbers stands) and the material (which
    /// numbers each side still has).
    #[inline]
    fn correction_keys(&self) -> [u64; CORRECTION_KEYS] {
        let placement = |side: usize| {
            let s = &self.sq[side];
            let low = u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]);
            let high = u16::from_le_bytes([s[8], s[9]]) as u64;
            mix64(low ^ mix64(high ^ ((side as u64 + 1) << 32)))
        };
        let mut present = 0u64;
        for side in 0..2 {
            for n in 0..10 {
                present |= ((self.sq[side][n] != geometry::NONE) as u64) << (side * 10 + n);
            }
        }
        [placement(BLUE), placement(RED), mix64(present)]
    }
    fn null_move_ok(&self) -> bool {
        !self.in_check()
    }
    fn make_null(&mut self) {
        self.make_null_move();
    }
    fn unmake_null(&mut self) {
        self.unmake_move();
    }
    fn in_check(&self) -> bool {
        self.zero_attacked(self.side)
    }

    fn immediate_result(&self) -> Option<Outcome> {
        self.decided().map(|(o, _)| o)
    }
    fn no_moves_result(&self) -> Outcome {
        Outcome::Loss
    }
    fn is_search_draw(&self) -> bool {
        self.earlier_occurrences(true) > 0
    }
    /// Order: a captured 0, the point target, threefold repetition (the draw happens as
    /// the position arises), then no legal move.
    /// Every end happens by itself, threefold repetition included.
    fn game_end(&self) -> Option<GameEnd> {
        if let Some((outcome, why)) = self.decided() {
            return Some(GameEnd::automatic(outcome, why));
        }
        if self.earlier_occurrences(false) >= 2 {
            return Some(GameEnd::automatic(Outcome::Draw, "threefold repetition"));
        }
        if self.count_moves() == 0 {
            return Some(GameEnd::automatic(Outcome::Loss, "no legal move"));
        }
        None
    }

    fn move_to_string(&self, mv: Move) -> String {
        if mv.is_null_move() {
            return "0000".to_string();
        }
        format!("{}{}", square_name(mv.from()), square_name(mv.to()))
    }
    fn move_outcome_to_string(&self, mv: Move, _outcome: u8) -> String {
        self.move_to_string(mv)
    }
    fn parse_move(&self, s: &str) -> Result<(Move, u8), String> {
        self.parse_legal(s).map(|m| (m, NO_OUTCOME))
    }
    fn parse_choice(&self, s: &str) -> Result<Move, String> {
        self.parse_legal(s)
    }

    fn display(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let border = format!("    +{}+\n", "-".repeat(FILES * 3 + 1));
        out.push_str(&border);
        for rank in (0..RANKS).rev() {
            let _ = write!(out, " {:>2} |", rank + 1);
            for file in 0..FILES {
                let c = self.mailbox[square(file, rank)];
                if c == EMPTY {
                    out.push_str("  .");
                } else {
                    let _ = write!(
                        out,
                        " {}{}",
                        if code_side(c) == BLUE { 'b' } else { 'r' },
                        code_num(c)
                    );
                }
            }
            out.push_str(" |\n");
        }
        out.push_str(&border);
        out.push_str("     ");
        for file in 0..FILES {
            let _ = write!(out, "  {}", (b'a' + file as u8) as char);
        }
        out.push('\n');
        let _ = writeln!(out, "FEN: {}", self.fen());
        let _ = writeln!(out, "Key: {:016x}", self.key);
        let _ = writeln!(
            out,
            "Side to move: {}",
            if self.side == BLUE { "Blue" } else { "Red" }
        );
        let _ = writeln!(
            out,
            "Captured points: Blue {}, Red {}",
            self.captured_points(BLUE),
            self.captured_points(RED)
        );
        if self.point_target == 0 {
            out.push_str("Point target: off\n");
        } else {
            let _ = writeln!(out, "Point target: {}", self.point_target);
        }
        out
    }

    fn perft(&mut self, depth: u32) -> u64 {
        movegen::perft(self, depth)
    }
}

#[cfg(test)]
mod tests;
