//! The contract between a game's rules and everything generic over games: the searcher,
//! perft, the protocol loop and the match runner. Each game (Math Chess, Reveal Chess /
//! chess) implements `Game`; the search is monomorphised per game so move generation and
//! evaluation inline into it.
//!
//! Chance: a move is what the player chooses (`Game::Move`). Some moves (a face-down piece's
//! first move in Reveal Chess) have several outcomes drawn by chance; `Game::chance` lists
//! them with integer weights, and `Game::make` is told which outcome happened. A move with
//! no chance has the single outcome `NO_OUTCOME`.

use crate::eval::Evaluator;
use std::fmt::Debug;
use std::mem::MaybeUninit;

/// Scores are centipawn-like, from the point of view of the side to move.
pub type Score = i32;

/// A mate (or a game won by the rules) found at ply p from the root scores `MATE - p`.
pub const MATE: Score = 32_000;
/// Scores at or beyond this magnitude are wins/losses by the rules, not evaluations.
pub const MATE_BOUND: Score = MATE - 1_000;
pub const INFINITY: Score = MATE + 1;
pub const DRAW: Score = 0;

/// How many keys `Game::correction_keys` gives.
pub const CORRECTION_KEYS: usize = 3;

/// A 64-bit mixing function (splitmix64's finaliser): spreads any input over all bits,
/// for keys computed from a position's parts.
#[inline(always)]
pub const fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Outcome code for a move that involves no chance.
pub const NO_OUTCOME: u8 = 0;

/// The largest full-move number a FEN may carry, in every game. Play past it leaves the
/// number there (no larger value could be read back), so every FEN Tinh writes reads back.
pub const MAX_FULLMOVE: u32 = 1_000_000;

/// A FEN move counter in `lo..=hi`: decimal digits with no leading zero (so it prints back
/// as written). `what` names it in the error, e.g. "full-move number".
pub fn parse_counter(s: &str, what: &str, lo: u32, hi: u32) -> Result<u32, String> {
    let digits = !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !digits || (s.len() > 1 && s.starts_with('0')) {
        return Err(format!(
            "{what} '{s}' is not a whole number (expected {lo}..={hi})"
        ));
    }
    match s.parse::<u32>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("{what} '{s}' is out of range {lo}..={hi}")),
    }
}

/// Result of a finished game, from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

/// Why a game ended; used by the match runner (PGN `Termination`, game lines) and `d`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// From the point of view of the side to move in the final position.
    pub outcome: Outcome,
    /// Human-readable reason, e.g. "zero captured", "checkmate", "threefold repetition".
    pub reason: String,
    /// A draw that a player may claim (chess's threefold repetition and fifty-move rule):
    /// an engine plays on, while a referee ends the game as if it were claimed. Every
    /// other end happens by itself.
    pub claimable: bool,
}

impl GameEnd {
    /// An end that happens by itself.
    pub fn automatic(outcome: Outcome, reason: &str) -> Self {
        GameEnd {
            outcome,
            reason: reason.to_string(),
            claimable: false,
        }
    }
    /// A draw a player may claim.
    pub fn claimable_draw(reason: &str) -> Self {
        GameEnd {
            outcome: Outcome::Draw,
            reason: reason.to_string(),
            claimable: true,
        }
    }
}

/// A setting of the rules that a game offers as a protocol option (a spin option of this
/// name), such as Math Chess's point target. Games without it ignore it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    /// What it does, for help texts.
    pub doc: &'static str,
}

/// A position of a game's fixed `tinh bench` set: the start (`fen` None) or a FEN, moves
/// played from it, and the depth relative to the bench depth.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    pub fen: Option<&'static str>,
    pub moves: &'static str,
    pub depth_offset: i32,
}

/// Fixed-capacity list of moves, kept on the stack in the search and perft.
pub const MAX_MOVES: usize = 512;

/// A list of at most `MAX_MOVES` moves on the stack. The storage is left uninitialised
/// until written (creating a list costs nothing, where zeroing 512 moves at every node
/// showed in profiles); only the first `len` entries are ever read.
pub struct MoveList<M: Copy> {
    moves: [MaybeUninit<M>; MAX_MOVES],
    len: usize,
}

impl<M: Copy> Clone for MoveList<M> {
    fn clone(&self) -> Self {
        let mut l = Self::new();
        for &m in self.iter() {
            l.push(m);
        }
        l
    }
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> MoveList<M> {
    #[inline(always)]
    pub fn new() -> Self {
        Self {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        // Generators never exceed MAX_MOVES; indexing panics (no unsoundness) if one did.
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: the first `len` entries were written by `push` (`len` only grows there,
        // and `clear` and `truncate` only lower it); `MaybeUninit<M>` has `M`'s layout.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const M, self.len) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut M, self.len) }
    }
    #[inline(always)]
    pub fn get(&self, i: usize) -> M {
        self.as_slice()[i]
    }
    #[inline(always)]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.as_mut_slice().swap(i, j);
    }
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
    pub fn contains(&self, m: &M) -> bool
    where
        M: PartialEq,
    {
        self.as_slice().contains(m)
    }
}

/// Most outcomes one move can have (Reveal Chess's pool has five types).
pub const MAX_OUTCOMES: usize = 8;

/// The chance outcomes of one move: (outcome code, weight). Probability = weight / total.
#[derive(Clone, Copy, Default, Debug)]
pub struct ChanceList {
    outcomes: [(u8, u16); MAX_OUTCOMES],
    len: usize,
}

impl ChanceList {
    /// Add an outcome. A game never lists more than `MAX_OUTCOMES` outcomes of one move,
    /// nor a zero weight (it would never happen): both are bugs in the rules code.
    #[inline]
    pub fn push(&mut self, outcome: u8, weight: u16) {
        assert!(
            self.len < MAX_OUTCOMES,
            "more than {MAX_OUTCOMES} chance outcomes"
        );
        debug_assert!(weight > 0, "an outcome of weight 0");
        self.outcomes[self.len] = (outcome, weight);
        self.len += 1;
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn total(&self) -> u32 {
        self.outcomes[..self.len]
            .iter()
            .map(|&(_, w)| w as u32)
            .sum()
    }
    #[inline]
    pub fn as_slice(&self) -> &[(u8, u16)] {
        &self.outcomes[..self.len]
    }
    /// Most likely outcomes first (a stable sort: equal weights keep the game's order).
    pub fn sort_by_weight(&mut self) {
        self.outcomes[..self.len].sort_by_key(|o| std::cmp::Reverse(o.1));
    }
    /// The outcome a uniform draw `r` in `0..total()` lands on: each outcome takes a share
    /// of the range equal to its weight (how referees and random playouts reveal).
    pub fn pick(&self, mut r: u32) -> u8 {
        for &(o, w) in self.as_slice() {
            if r < w as u32 {
                return o;
            }
            r -= w as u32;
        }
        self.outcomes[self.len.saturating_sub(1)].0
    }
}

/// A move that fits in 16 bits, so the transposition table can store it.
pub trait GameMove: Copy + Eq + Default + Debug + Send + Sync + 'static {
    fn to_u16(self) -> u16;
    fn from_u16(v: u16) -> Self;
    /// The null move (`Default`), never generated.
    #[inline]
    fn is_null(self) -> bool {
        self == Self::default()
    }
}

pub trait Game: Clone + Send + Sync + 'static {
    type Move: GameMove;
    /// The game's static evaluation (kept apart from the rules: see `eval.rs`).
    type Eval: Evaluator<Self>;

    // ----- the game describes itself ------------------------------------------------------
    /// The variant's protocol name (`mathchess`, `revealchess`, `chess`).
    fn variant_name(&self) -> &'static str;
    /// (files, ranks) of the board.
    fn dimensions(&self) -> (usize, usize);
    /// The two sides' names, first player first (`["Blue", "Red"]`, `["White", "Black"]`).
    fn side_names(&self) -> [&'static str; 2];
    /// Standard chess, which every UCI engine plays without being told `UCI_Variant`.
    fn is_standard_chess(&self) -> bool {
        false
    }
    /// The rule settings this game offers as protocol options.
    fn rule_options(&self) -> &'static [RuleOption] {
        &[]
    }
    /// Set one of `rule_options` (the caller has checked its range). Call it before any
    /// move is made: it is part of the rules the moves are played under.
    fn set_rule_option(&mut self, _name: &str, _value: i64) {}
    /// Whether `side` could still win by some sequence of legal moves: a time loss against
    /// a side that cannot is a draw.
    fn can_win(&self, _side: usize) -> bool {
        true
    }
    /// The calibration of the strength options in this game, measured by `tinh ladder`:
    /// the skill of each `Level` and the ratings `UCI_Elo` is read on (the random mover is
    /// 0). A game without its own measurement uses a generic one.
    fn strength_scale(&self) -> &'static crate::search::skill::StrengthScale {
        &crate::search::skill::DEFAULT_SCALE
    }

    /// The search settings this game plays best with, over the generic defaults: (name,
    /// value) pairs as `setoption` takes them, a search parameter (`RfpMargin`) or a
    /// feature switch (`Search_SEE`, 1 on, 0 off). Each is a measured result (its commit
    /// gives the match); the user's own settings still win over them.
    fn search_defaults(&self) -> &'static [(&'static str, i32)] {
        &[]
    }
    /// Positions for `tinh bench`, searched to a fixed depth.
    fn bench_positions(&self) -> &'static [BenchPosition] {
        &[]
    }
    /// Positions for `tinh bench --perft`: (FEN, depth).
    fn perft_bench_positions(&self) -> &'static [(&'static str, u32)] {
        &[]
    }

    // ----- positions ---------------------------------------------------------------------
    /// A position of this same game (variant and rule settings) read from a FEN.
    fn with_fen(&self, fen: &str) -> Result<Self, String>;
    /// A position of this game from a line of an opening suite (EPD style: a FEN,
    /// possibly followed by operations such as `bm e4; id "x";`). By default the longest
    /// prefix of words that `with_fen` accepts.
    fn with_epd(&self, line: &str) -> Result<Self, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut first_err = None;
        for n in (1..=words.len()).rev() {
            match self.with_fen(&words[..n].join(" ")) {
                Ok(p) => return Ok(p),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        Err(first_err.unwrap_or_else(|| "empty line".into()))
    }
    fn to_fen(&self) -> String;
    /// The full-move number of the current position (move numbers in PGN).
    fn fullmove_number(&self) -> u32;
    /// Side to move: 0 = first player (Blue / White), 1 = second (Red / Black).
    fn side_to_move(&self) -> usize;
    /// Zobrist key of the current position (incrementally maintained).
    fn key(&self) -> u64;
    /// Number of plies played since the position was set (length of the undo stack).
    fn game_ply(&self) -> usize;

    // ----- moves -------------------------------------------------------------------------
    /// All legal moves (player choices; chance outcomes are not expanded).
    fn generate_moves(&self, list: &mut MoveList<Self::Move>);
    /// Legal "noisy" moves for quiescence: captures and promotions.
    fn generate_noisy(&self, list: &mut MoveList<Self::Move>);
    fn is_capture(&self, mv: Self::Move) -> bool;
    /// True for captures and promotions (moves generated by `generate_noisy`).
    fn is_noisy(&self, mv: Self::Move) -> bool;
    /// Index into history tables, `< HISTORY_SIZE`.
    fn history_index(&self, mv: Self::Move) -> usize;
    const HISTORY_SIZE: usize;
    /// The moving piece and the square it goes to, as one index `< PIECE_TO_SIZE`:
    /// continuation history is keyed by it (the same piece arriving on the same square
    /// tends to call for the same replies).
    fn piece_to_index(&self, mv: Self::Move) -> usize;
    const PIECE_TO_SIZE: usize;
    /// Chance outcomes of a legal move; `false` (and `out` left empty) when it has none.
    fn chance(&self, mv: Self::Move, out: &mut ChanceList) -> bool;
    /// Play a legal move with the given outcome (`NO_OUTCOME` for a deterministic move).
    fn make(&mut self, mv: Self::Move, outcome: u8);
    /// Take back the last `make`.
    fn unmake(&mut self);
    /// Keys of parts of the position whose static evaluation tends to err alike (chess:
    /// the pawns, and each side's other pieces): correction history learns, per key, how
    /// far the search's results have differed from the evaluation, and corrects it. A key
    /// of 0 is not used; a game without such keys (the default) gets no correction.
    fn correction_keys(&self) -> [u64; CORRECTION_KEYS] {
        [0; CORRECTION_KEYS]
    }
    /// Whether passing is a sound probe here (null-move pruning).
    fn null_move_ok(&self) -> bool;
    fn make_null(&mut self);
    fn unmake_null(&mut self);
    /// In check (chess) or the own zero under direct attack (Math Chess): extend / no stand-pat.
    fn in_check(&self) -> bool;

    // ----- game ends ---------------------------------------------------------------------
    /// A result the position itself already decides before move generation (zero captured,
    /// point target reached, 75-move rule ...), from the side to move's view.
    fn immediate_result(&self) -> Option<Outcome>;
    /// Result when the side to move has no legal move.
    fn no_moves_result(&self) -> Outcome;
    /// Inside search: the current position repeats an earlier one reachable by reversible
    /// moves, or a move-count rule is reached: score as a draw.
    fn is_search_draw(&self) -> bool;
    /// The referee's verdict on the current position (rules exactly, counting real
    /// repetitions), claimable draws included; `None` while the game goes on. An end that
    /// happens by itself comes before a claimable one.
    fn game_end(&self) -> Option<GameEnd>;
    /// The game has ended by itself (`game_end` without claimable draws): no move may be
    /// played any more, and `go` answers `bestmove (none)`.
    fn game_over(&self) -> Option<GameEnd> {
        self.game_end().filter(|e| !e.claimable)
    }

    // ----- notation ----------------------------------------------------------------------
    /// The move as the player names it (no reveal letter; backup promotion letter kept).
    fn move_to_string(&self, mv: Self::Move) -> String;
    /// The move with its outcome letter as used in `position ... moves` and perft divide.
    fn move_outcome_to_string(&self, mv: Self::Move, outcome: u8) -> String;
    /// Parse a move in `position ... moves` form, checking it is legal here. A move that
    /// reveals must carry its outcome letter, and the pool must still hold it.
    fn parse_move(&self, s: &str) -> Result<(Self::Move, u8), String>;
    /// Parse a move as a player's choice (as in `bestmove`/`searchmoves`; no outcome).
    fn parse_choice(&self, s: &str) -> Result<Self::Move, String>;
    /// The board drawn in text for the `d` command, with FEN, key and game-specific lines.
    fn display(&self) -> String;

    /// Perft leaf count under the rules' conventions. Games override this with a
    /// bulk-counting version; the default walks the tree with `make`/`unmake`.
    fn perft(&mut self, depth: u32) -> u64 {
        perft_generic(self, depth)
    }

    /// Whether perft stops here before generating moves (the node has no children). By
    /// default a position the rules have already decided (`immediate_result`): Math
    /// Chess's captured 0 or point target. Chess and Reveal Chess say `false`: their perft
    /// counts the legal-move tree only, as every chess perft tool does, so neither the
    /// 75-move rule nor a dead position ends it (only having no legal move does).
    fn perft_ends_here(&self) -> bool {
        self.immediate_result().is_some()
    }
}

/// Leaf count of the legal-move tree under the rules' perft conventions: every chance
/// outcome of a move is its own branch (weights ignored; a reveal is not a ply).
/// Games override nothing here; fast games provide their own bulk-counting perft.
pub fn perft_generic<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.perft_ends_here() {
        return 0;
    }
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    let mut chances = ChanceList::default();
    let mut nodes = 0;
    for &mv in list.iter() {
        chances.clear();
        if pos.chance(mv, &mut chances) {
            for &(o, _) in chances.as_slice() {
                if depth == 1 {
                    nodes += 1;
                } else {
                    pos.make(mv, o);
                    nodes += perft_generic(pos, depth - 1);
                    pos.unmake();
                }
            }
        } else if depth == 1 {
            nodes += 1;
        } else {
            pos.make(mv, NO_OUTCOME);
            nodes += perft_generic(pos, depth - 1);
            pos.unmake();
        }
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_splits_the_range_by_weight() {
        let mut ch = ChanceList::default();
        ch.push(1, 1);
        ch.push(5, 8);
        ch.push(3, 2);
        let picks: Vec<u8> = (0..ch.total()).map(|r| ch.pick(r)).collect();
        assert_eq!(picks, [1, 5, 5, 5, 5, 5, 5, 5, 5, 3, 3]);
    }
}
