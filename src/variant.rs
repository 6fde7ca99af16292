//! The three games Tinh plays, by protocol name, and positions of any of them: the one
//! place that maps a variant name to its rules code.

use crate::game::Game;
use crate::{mathchess, revealchess};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    MathChess,
    RevealChess,
    Chess,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::MathChess, Variant::RevealChess, Variant::Chess];

    pub fn name(self) -> &'static str {
        match self {
            Variant::MathChess => "mathchess",
            Variant::RevealChess => "revealchess",
            Variant::Chess => "chess",
        }
    }

    pub fn startpos(self) -> Position {
        match self {
            Variant::MathChess => Position::Math(mathchess::Board::startpos()),
            Variant::RevealChess => Position::Reveal(revealchess::Board::startpos(false)),
            Variant::Chess => Position::Reveal(revealchess::Board::startpos(true)),
        }
    }

    pub fn from_fen(self, fen: &str) -> Result<Position, String> {
        match self {
            Variant::MathChess => mathchess::Board::from_fen(fen).map(Position::Math),
            Variant::RevealChess => revealchess::Board::from_fen(fen, false).map(Position::Reveal),
            Variant::Chess => revealchess::Board::from_fen(fen, true).map(Position::Reveal),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "mathchess" => Ok(Variant::MathChess),
            "revealchess" => Ok(Variant::RevealChess),
            "chess" => Ok(Variant::Chess),
            _ => Err(format!(
                "unknown variant '{s}' (expected mathchess, revealchess or chess)"
            )),
        }
    }
}

/// A position of any variant. Generic code is reached through `with_game!`.
/// Not boxed: a program holds a handful of these, and the search clones the board inside.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Position {
    Math(mathchess::Board),
    Reveal(revealchess::Board),
}

/// Run `$body` with `$g` bound to the concrete board (`&mut` when `$pos` is a place
/// expression borrowed mutably), so generic code monomorphises per game.
#[macro_export]
macro_rules! with_game {
    ($pos:expr, $g:ident => $body:expr) => {
        match $pos {
            $crate::variant::Position::Math($g) => $body,
            $crate::variant::Position::Reveal($g) => $body,
        }
    };
}

impl Position {
    pub fn to_fen(&self) -> String {
        with_game!(self, g => g.to_fen())
    }

    /// Apply a list of moves in `position ... moves` notation; stops at the first bad one
    /// with an error naming it (the position is then unchanged: work on a copy).
    pub fn apply_moves<'a>(
        &mut self,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), String> {
        for (i, m) in moves.into_iter().enumerate() {
            with_game!(self, g => {
                let (mv, o) = g.parse_move(m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
                g.make(mv, o);
            });
        }
        Ok(())
    }
}
