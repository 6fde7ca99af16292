//! Tinh: a game engine for Math Chess (Cờ Toán), Reveal Chess (Cờ vua úp) and chess.

// First: it defines `with_game!`, which the modules below use by textual scope.
#[macro_use]
pub mod variant;

pub mod arena;
pub mod bench;
pub mod eval;
pub mod game;
pub mod mathchess;
pub mod perft;
pub mod progress;
pub mod protocol;
pub mod revealchess;
pub mod search;
pub mod seed;
pub mod tune;
