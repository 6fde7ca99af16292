//! Math Chess (Cờ Toán): 9x11 board on u128 bitboards, move generation, FEN, Zobrist, evaluation.
//! (Skeleton: the rules are being written; every body below is replaced.)

use crate::game::*;

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

#[derive(Clone, Debug)]
pub struct Board {}

impl Board {
    pub fn startpos() -> Self {
        todo!()
    }
    pub fn from_fen(_fen: &str) -> Result<Self, String> {
        todo!()
    }
}

impl Game for Board {
    type Move = Move;
    const HISTORY_SIZE: usize = 1;
    fn variant_name(&self) -> &'static str {
        todo!()
    }
    fn dimensions(&self) -> (usize, usize) {
        todo!()
    }
    fn to_fen(&self) -> String {
        todo!()
    }
    fn side_to_move(&self) -> usize {
        todo!()
    }
    fn key(&self) -> u64 {
        todo!()
    }
    fn game_ply(&self) -> usize {
        todo!()
    }
    fn generate_moves(&self, _list: &mut MoveList<Move>) {
        todo!()
    }
    fn generate_noisy(&self, _list: &mut MoveList<Move>) {
        todo!()
    }
    fn is_capture(&self, _mv: Move) -> bool {
        todo!()
    }
    fn is_noisy(&self, _mv: Move) -> bool {
        todo!()
    }
    fn noisy_order(&self, _mv: Move) -> Score {
        todo!()
    }
    fn history_index(&self, _mv: Move) -> usize {
        todo!()
    }
    fn chance(&self, _mv: Move, _out: &mut ChanceList) -> bool {
        todo!()
    }
    fn make(&mut self, _mv: Move, _outcome: u8) {
        todo!()
    }
    fn unmake(&mut self) {
        todo!()
    }
    fn null_move_ok(&self) -> bool {
        todo!()
    }
    fn make_null(&mut self) {
        todo!()
    }
    fn unmake_null(&mut self) {
        todo!()
    }
    fn in_check(&self) -> bool {
        todo!()
    }
    fn immediate_result(&self) -> Option<Outcome> {
        todo!()
    }
    fn no_moves_result(&self) -> Outcome {
        todo!()
    }
    fn is_search_draw(&self) -> bool {
        todo!()
    }
    fn game_end(&self) -> Option<GameEnd> {
        todo!()
    }
    fn evaluate(&self) -> Score {
        todo!()
    }
    fn eval_terms(&self) -> Vec<EvalTerm> {
        todo!()
    }
    fn move_to_string(&self, _mv: Move) -> String {
        todo!()
    }
    fn move_outcome_to_string(&self, _mv: Move, _outcome: u8) -> String {
        todo!()
    }
    fn parse_move(&self, _s: &str) -> Result<(Move, u8), String> {
        todo!()
    }
    fn parse_choice(&self, _s: &str) -> Result<Move, String> {
        todo!()
    }
    fn display(&self) -> String {
        todo!()
    }
}
