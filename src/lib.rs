//! Tinh: a game engine for Math Chess (Cờ Toán), Reveal Chess (Cờ vua úp) and chess.

pub mod arena;
pub mod eval;
pub mod game;
pub mod mathchess;
pub mod perft;
pub mod protocol;
pub mod revealchess;
pub mod search;
pub mod variant;
