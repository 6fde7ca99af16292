//! Reveal Chess and standard chess (`chess` = nothing face-down), as in
//! docs/rules/revealchess.md: the `Game` implementation over `position::Pos` (8x8 u64
//! bitboards, shells and pools, legal move generation with pins, copy-make with an undo
//! stack), notation, draws, and the fast perft.
//! Submodules: `bitboard` (attack tables), `position` (the position, make, draws),
//! `movegen` (legal moves, perft), `zobrist` (key tables), `fen`, `eval`, `see` (static
//! exchange evaluation).

pub mod bitboard;
pub mod chess_weights;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod position;
pub mod reveal_weights;
pub mod see;
pub mod zobrist;

use crate::game::*;
use bitboard::*;
use movegen::*;
use position::*;

/// A player's choice: from (bits 0..6), to (6..12), promotion or backup piece (12..15:
/// 0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Move(0) (a1a1) is the null move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(pub u16);

impl GameMove for Move {
    fn to_u16(self) -> u16 {
        self.0
    }
    fn from_u16(v: u16) -> Self {
        Move(v)
    }
}

impl Move {
    pub fn from(self) -> usize {
        mv_from(self.0)
    }
    pub fn to(self) -> usize {
        mv_to(self.0)
    }
    /// Promotion / backup piece type (position::KNIGHT..=QUEEN) or 0.
    pub fn promo(self) -> usize {
        mv_promo(self.0)
    }
}

/// The chance outcome of revealing as the type with this letter (`Q R B N P`, the pool
/// order): 1 + its index in the pool. `None` for any other letter.
pub fn reveal_outcome(letter: char) -> Option<u8> {
    POOL_LETTER
        .iter()
        .position(|&l| l as char == letter)
        .map(|i| i as u8 + 1)
}

/// The letter of a reveal outcome (the inverse of `reveal_outcome`).
pub fn reveal_letter(outcome: u8) -> char {
    POOL_LETTER[outcome as usize - 1] as char
}

/// The `tinh bench` positions of chess: the start, Kiwipete, a quiet middlegame and a
/// rook endgame.
const CHESS_BENCH: [BenchPosition; 4] = [
    BenchPosition {
        fen: None,
        moves: "",
        depth_offset: 0,
    },
    BenchPosition {
        fen: Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        moves: "",
        depth_offset: 0,
    },
    BenchPosition {
        fen: Some("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
        moves: "",
        depth_offset: 0,
    },
    BenchPosition {
        fen: Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        moves: "",
        depth_offset: 0,
    },
];

/// The `tinh bench` positions of Reveal Chess, one ply shallower than chess's: chance
/// nodes on the principal variation still search every outcome.
const REVEAL_BENCH: [BenchPosition; 3] = [
    BenchPosition {
        fen: None,
        moves: "",
        depth_offset: -1,
    },
    BenchPosition {
        fen: None,
        moves: "e2e4P e7e5P g1f3N b8c6N",
        depth_offset: -1,
    },
    BenchPosition {
        fen: None,
        moves: "d2d4Q d7d5P c1f4B g8f6R",
        depth_offset: -1,
    },
];

/// Move-generation benchmark positions with their depths.
const CHESS_PERFT_BENCH: [(&str, u32); 3] = [
    (fen::START_CHESS, 6),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
];
const REVEAL_PERFT_BENCH: [(&str, u32); 1] = [(fen::START_REVEAL, 4)];

/// A piece as the players see it (`Board::seen_on`): colour (0 White, 1 Black), type
/// letter `pnbrqk` (the shell's for a face-down piece), and whether it is face-down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    pub color: usize,
    pub letter: char,
    pub face_down: bool,
}

#[derive(Clone, Debug)]
pub struct Board {
    pos: Pos,
    /// Positions before each move made (copy-make undo stack; also the repetition history).
    /// Copying the whole 168-byte `Pos` was measured against a 32-byte undo record with an
    /// `unmake` (commit 3c1f672): the record was ~1% slower in `tinh bench` for both Reveal
    /// Chess and chess, so the simpler copy stays.
    hist: Vec<Pos>,
    chess: bool,
}

impl Board {
    /// `chess`: standard chess (no face-down pieces, six-field FEN) instead of Reveal Chess.
    pub fn startpos(chess: bool) -> Self {
        let fen = if chess {
            fen::START_CHESS
        } else {
            fen::START_REVEAL
        };
        Self::from_fen(fen, chess).expect("start FEN is valid")
    }

    pub fn from_fen(fen: &str, chess: bool) -> Result<Self, String> {
        Ok(Board {
            pos: fen::parse(fen, chess)?,
            hist: Vec::with_capacity(256),
            chess,
        })
    }

    /// The current position (bitboards, pools, clocks).
    pub fn pos(&self) -> &Pos {
        &self.pos
    }

    /// What stands on square `sq` (0 = a1 .. 63 = h8) as the players see it, for boards
    /// drawn for people: a face-down piece shows its shell's type.
    pub fn seen_on(&self, sq: usize) -> Option<Seen> {
        let p = &self.pos;
        let code = *p.sq.get(sq)?;
        (code != 0).then(|| Seen {
            color: code_color(code),
            letter: PIECE_LETTERS[code_type(code)] as char,
            face_down: p.fd & bit(sq) != 0,
        })
    }

    /// A side's pool, as (type letter, count) in pool order Q R B N P; what a face-down
    /// piece of that side reveals as is drawn from it in proportion to the counts.
    pub fn pool_of(&self, color: usize) -> [(char, u8); 5] {
        std::array::from_fn(|i| (POOL_LETTER[i] as char, self.pos.pool[color][i]))
    }

    /// The square of the side to move's king when it is in check.
    pub fn checked_king(&self) -> Option<usize> {
        let p = &self.pos;
        p.in_check().then(|| p.king_sq(p.side as usize))
    }

    /// The key computed from scratch (tests compare it with the incremental `key()`).
    pub fn compute_key(&self) -> u64 {
        self.pos.compute_key()
    }

    /// How often the current position occurred before, within the reversible window.
    fn repetitions(&self) -> usize {
        let n = self.hist.len();
        let window = (self.pos.rep as usize).min(n);
        let mut count = 0;
        let mut i = 2;
        while i <= window {
            if self.hist[n - i].key == self.pos.key {
                count += 1;
            }
            i += 2;
        }
        count
    }

    fn legal_list(&self) -> MoveList<Move> {
        let mut l = MoveList::new();
        self.generate_moves(&mut l);
        l
    }
}

fn promo_letter(t: usize) -> char {
    PIECE_LETTERS[t] as char
}

/// The strength options' calibration in chess, measured by `tinh ladder --skills
/// 0,4,7,10,13` with the tuned weights and threat terms (December 5): four runs at
/// 300 000 nodes a move pooled by `--refit` (README).
pub const CHESS_STRENGTH: crate::search::skill::StrengthScale =
    crate::search::skill::StrengthScale {
        pawn: 100,
        levels: [0.0, 4.0, 7.0, 10.0, 13.0],
        ratings: &[
            (-1.0, 0),
            (0.0, 392),
            (4.0, 784),
            (7.0, 1077),
            (10.0, 1386),
            (13.0, 1871),
        ],
    };

/// The strength options' calibration in Reveal Chess, measured by `tinh ladder --skills
/// 0,5,8,12,15` with the refitted weights (December 7): four runs at 300 000 nodes a move
/// pooled by `--refit` (README); every gap is at least +174 and full strength +271 above
/// level 5. The skills were chosen when
/// quiescence shifts went on (45b9241): they made skill 17 stronger, so that at
/// 0,5,8,12,17 full strength was only +118 ± 92 above level 5, and at 16 +151 ± 96.
/// (With the chance switches alone, levels 4 and 5 at skills 11 and 15 had put level 4
/// only +119 above level 3.)
pub const REVEAL_STRENGTH: crate::search::skill::StrengthScale =
    crate::search::skill::StrengthScale {
        pawn: 100,
        levels: [0.0, 5.0, 8.0, 12.0, 15.0],
        ratings: &[
            (-1.0, 0),
            (0.0, 377),
            (5.0, 787),
            (8.0, 1013),
            (12.0, 1374),
            (15.0, 1548),
        ],
    };

impl Game for Board {
    type Move = Move;
    type Eval = eval::Evaluation;
    const HISTORY_SIZE: usize = 4096;
    /// Colour, type (a face-down piece's shell type) and face-down or not, by square.
    const PIECE_TO_SIZE: usize = 2 * 6 * 2 * 64;

    fn variant_name(&self) -> &'static str {
        if self.chess { "chess" } else { "revealchess" }
    }
    fn dimensions(&self) -> (usize, usize) {
        (8, 8)
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["White", "Black"]
    }
    fn is_standard_chess(&self) -> bool {
        self.chess
    }
    fn can_win(&self, side: usize) -> bool {
        self.pos.can_mate(side)
    }
    fn strength_scale(&self) -> &'static crate::search::skill::StrengthScale {
        if self.chess {
            &CHESS_STRENGTH
        } else {
            &REVEAL_STRENGTH
        }
    }
    /// Static exchange evaluation in both games (fixed-node SPRTs against the build before
    /// it, 10,000 nodes a move: chess +104.3 ± 35.1 Elo over 302 games, Reveal Chess
    /// +107.0 ± 35.8 over 308). Reveal Chess also values a chance node off the principal
    /// variation by one outcome, with outcomes searched as non-PV nodes and the unlikely
    /// ones shallower (the three chance switches on against off at 10+0.1: H1, +54.6 ± 24.7
    /// Elo over 680 games; README, "Reveal Chess search depth"), and with three or more
    /// plies left takes that outcome and its shift from quiescence searches of the node's
    /// own outcomes (`ChanceSingleQuietDepth` 3 against 0 at 10+0.1: H1, +57.7 ± 26.1 Elo
    /// over 620 games). Chess also scales its soft time limit by the best move's stability
    /// and share of the nodes (`Search_TimeScaling` on against off at 10+0.1: H1, +18.5
    /// [+5.4, +31.7] Elo over 1450 games; Reveal Chess undecided, off).
    fn search_defaults(&self) -> &'static [(&'static str, i32)] {
        if self.chess {
            &[("Search_SEE", 1), ("Search_TimeScaling", 1)]
        } else {
            &[
                ("Search_SEE", 1),
                ("Search_ChanceNonPv", 1),
                ("Search_ChanceReduction", 1),
                ("Search_ChanceSingle", 1),
                ("ChanceSingleQuietDepth", 3),
            ]
        }
    }
    fn bench_positions(&self) -> &'static [BenchPosition] {
        if self.chess {
            &CHESS_BENCH
        } else {
            &REVEAL_BENCH
        }
    }
    fn perft_bench_positions(&self) -> &'static [(&'static str, u32)] {
        if self.chess {
            &CHESS_PERFT_BENCH
        } else {
            &REVEAL_PERFT_BENCH
        }
    }
    fn with_fen(&self, fen: &str) -> Result<Self, String> {
        Board::from_fen(fen, self.chess)
    }
    /// EPD: the default (the longest FEN prefix), or in chess the four board fields of an
    /// EPD record completed with `0 1`.
    fn with_epd(&self, line: &str) -> Result<Self, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut first_err = None;
        for n in (1..=words.len()).rev() {
            let fen = words[..n].join(" ");
            match self.with_fen(&fen) {
                Ok(p) => return Ok(p),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
            if n == 4
                && self.chess
                && let Ok(p) = self.with_fen(&format!("{fen} 0 1"))
            {
                return Ok(p);
            }
        }
        Err(first_err.unwrap_or_else(|| "empty line".into()))
    }
    fn to_fen(&self) -> String {
        fen::format(&self.pos, self.chess)
    }
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmove
    }
    fn side_to_move(&self) -> usize {
        self.pos.side as usize
    }
    fn key(&self) -> u64 {
        self.pos.key
    }
    fn game_ply(&self) -> usize {
        self.hist.len()
    }

    fn generate_moves(&self, list: &mut MoveList<Move>) {
        self.pos.generate(&mut Collect(list));
    }
    fn generate_noisy(&self, list: &mut MoveList<Move>) {
        self.pos.generate_noisy(&mut Collect(list));
    }
    fn is_capture(&self, mv: Move) -> bool {
        let p = &self.pos;
        let to = mv.to();
        p.sq[to] != 0
            || (p.ep as usize == to
                && p.bb[PAWN] & !p.fd & bit(mv.from()) != 0
                && mv.from() % 8 != to % 8)
    }
    /// Captures and promotions of revealed pawns (a shell's backup letter is not counted:
    /// it only matters in the pawn outcome).
    fn is_noisy(&self, mv: Move) -> bool {
        self.is_capture(mv) || (mv.promo() != 0 && self.pos.fd & bit(mv.from()) == 0)
    }
    fn history_index(&self, mv: Move) -> usize {
        mv.from() * 64 + mv.to()
    }
    #[inline]
    fn piece_to_index(&self, mv: Move) -> usize {
        let p = &self.pos;
        let c = p.sq[mv.from()];
        let face_down = (p.fd >> mv.from()) & 1;
        ((code_color(c) * 6 + code_type(c)) * 2 + face_down as usize) * 64 + mv.to()
    }

    fn chance(&self, mv: Move, out: &mut ChanceList) -> bool {
        if !self.pos.is_reveal(mv.0) {
            return false;
        }
        let us = self.pos.side as usize;
        for i in 0..5 {
            let n = self.pos.pool[us][i];
            if n > 0 {
                out.push(i as u8 + 1, n as u16);
            }
        }
        true
    }
    fn make(&mut self, mv: Move, outcome: u8) {
        debug_assert!(!mv.is_null());
        debug_assert_eq!(self.pos.is_reveal(mv.0), outcome != NO_OUTCOME);
        self.hist.push(self.pos);
        self.pos.make::<true>(mv.0, outcome);
    }
    fn unmake(&mut self) {
        if let Some(p) = self.hist.pop() {
            self.pos = p;
        }
    }
    /// The pawns (pawn shells included), and each side's other pieces (by type, with
    /// which of them are face-down).
    #[inline]
    fn correction_keys(&self) -> [u64; CORRECTION_KEYS] {
        let p = &self.pos;
        let pawns = mix64(p.pieces(WHITE, PAWN)) ^ mix64(p.pieces(BLACK, PAWN) ^ 0x5bd1_e995);
        let others = |c: usize| {
            let mut h = mix64(p.fd & p.col[c]) ^ c as u64;
            for t in KNIGHT..=KING {
                h = mix64(h ^ p.pieces(c, t));
            }
            h
        };
        [pawns, others(WHITE), others(BLACK)]
    }
    fn null_move_ok(&self) -> bool {
        let p = &self.pos;
        let us = p.side as usize;
        !p.in_check() && p.col[us] & !(p.bb[PAWN] | p.bb[KING]) != 0
    }
    fn make_null(&mut self) {
        self.hist.push(self.pos);
        self.pos.make_null();
    }
    fn unmake_null(&mut self) {
        self.unmake();
    }
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    fn immediate_result(&self) -> Option<Outcome> {
        if self.pos.immediate_draw() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn no_moves_result(&self) -> Outcome {
        if self.pos.in_check() {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }
    fn is_search_draw(&self) -> bool {
        self.pos.half >= 100 || self.repetitions() >= 1
    }
    /// Mate, stalemate, the 75-move rule and a dead position end the game by themselves;
    /// threefold repetition and the fifty-move rule are draws a player may claim.
    fn game_end(&self) -> Option<GameEnd> {
        if !self.pos.has_legal_move() {
            return Some(if self.pos.in_check() {
                GameEnd::automatic(Outcome::Loss, "checkmate")
            } else {
                GameEnd::automatic(Outcome::Draw, "stalemate")
            });
        }
        if self.pos.half >= MAX_HALFMOVE {
            return Some(GameEnd::automatic(Outcome::Draw, "75-move rule"));
        }
        if self.pos.insufficient_material() {
            return Some(GameEnd::automatic(Outcome::Draw, "insufficient material"));
        }
        if self.repetitions() >= 2 {
            return Some(GameEnd::claimable_draw("threefold repetition"));
        }
        if self.pos.half >= 100 {
            return Some(GameEnd::claimable_draw("fifty-move rule"));
        }
        None
    }

    fn move_to_string(&self, mv: Move) -> String {
        let mut s = fen::square_name(mv.from());
        s.push_str(&fen::square_name(mv.to()));
        if mv.promo() != 0 {
            s.push(promo_letter(mv.promo()));
        }
        s
    }
    fn move_outcome_to_string(&self, mv: Move, outcome: u8) -> String {
        let mut s = self.move_to_string(mv);
        if outcome != NO_OUTCOME {
            s.push(reveal_letter(outcome));
        }
        s
    }
    fn parse_move(&self, s: &str) -> Result<(Move, u8), String> {
        let (body, reveal) = match s.chars().last() {
            Some(c) if c.is_ascii_uppercase() && s.len() >= 5 => (&s[..s.len() - 1], Some(c)),
            _ => (s, None),
        };
        let mv = self.parse_choice(body)?;
        let is_reveal = self.pos.is_reveal(mv.0);
        match (is_reveal, reveal) {
            (false, None) => Ok((mv, NO_OUTCOME)),
            (false, Some(c)) => Err(format!(
                "'{s}': the reveal letter '{c}' is only for a move that reveals a face-down piece"
            )),
            (true, None) => Err(format!(
                "'{s}' reveals a face-down piece: add the revealed type in upper case, e.g. '{body}P'"
            )),
            (true, Some(c)) => {
                let o = reveal_outcome(c)
                    .ok_or_else(|| format!("'{s}': unknown reveal letter '{c}' (use Q R B N P)"))?;
                let us = self.pos.side as usize;
                if self.pos.pool[us][o as usize - 1] == 0 {
                    return Err(format!(
                        "'{s}': {}'s pool holds no '{c}' to reveal",
                        if us == 0 { "White" } else { "Black" }
                    ));
                }
                Ok((mv, o))
            }
        }
    }
    fn parse_choice(&self, s: &str) -> Result<Move, String> {
        let bad = || format!("'{s}' is not a move (expected e.g. e2e4 or e7e8q)");
        if s.len() < 4 || s.len() > 5 || !s.is_ascii() {
            return Err(bad());
        }
        let from = fen::parse_square(&s[0..2]).ok_or_else(bad)?;
        let to = fen::parse_square(&s[2..4]).ok_or_else(bad)?;
        // No move after an end that happens by itself (protocol.md 8.1).
        if let Some(end) = self.game_over() {
            return Err(format!("'{s}': the game is over ({})", end.reason));
        }
        let promo = match s.as_bytes().get(4) {
            None => 0,
            Some(&c) => match c {
                b'q' => QUEEN,
                b'r' => ROOK,
                b'b' => BISHOP,
                b'n' => KNIGHT,
                _ => return Err(format!("'{s}': bad promotion letter (use q, r, b or n)")),
            },
        };
        let m = Move(mv(from, to, promo));
        let legal = self.legal_list();
        if legal.contains(&m) {
            return Ok(m);
        }
        // Say why, when it is a near miss on the letter.
        let same_squares: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|x| x.from() == from && x.to() == to)
            .collect();
        if !same_squares.is_empty() {
            return Err(if promo == 0 {
                format!("'{s}' needs a promotion (or backup) letter: q, r, b or n")
            } else {
                format!("'{s}': this move takes no promotion letter")
            });
        }
        Err(format!("'{s}' is not a legal move here"))
    }

    fn display(&self) -> String {
        let p = &self.pos;
        let mut s = String::new();
        for r in (0..8).rev() {
            s.push_str("  +---+---+---+---+---+---+---+---+\n");
            s.push_str(&format!("{} |", r + 1));
            for f in 0..8 {
                let q = r * 8 + f;
                let pc = p.sq[q];
                let ch = if pc == 0 {
                    ' '
                } else {
                    let ch = if p.fd & bit(q) != 0 {
                        'x'
                    } else {
                        PIECE_LETTERS[code_type(pc)] as char
                    };
                    if code_color(pc) == WHITE {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    }
                };
                s.push_str(&format!(" {ch} |"));
            }
            s.push('\n');
        }
        s.push_str("  +---+---+---+---+---+---+---+---+\n");
        s.push_str("    a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!("FEN: {}\n", self.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", p.key));
        s.push_str(&format!(
            "Side to move: {}\n",
            if p.side == 0 { "White" } else { "Black" }
        ));
        let fenstr = self.to_fen();
        let castling = fenstr.split_whitespace().nth(2).unwrap_or("-");
        s.push_str(&format!("Castling: {castling}\n"));
        if !self.chess {
            s.push_str(&format!("Pools: {}\n", fen::pools_string(p)));
        }
        s.push_str(&format!(
            "Checkers: {}\n",
            Bits(p.checkers())
                .map(fen::square_name)
                .collect::<Vec<_>>()
                .join(" ")
        ));
        s
    }

    fn perft(&mut self, depth: u32) -> u64 {
        self.pos.perft(depth)
    }
    /// The legal-move tree only: the 75-move rule and dead positions do not end it.
    fn perft_ends_here(&self) -> bool {
        false
    }
}
