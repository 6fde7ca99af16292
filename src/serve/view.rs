//! What the page needs to draw a position of each game, as JSON-ready values: the pieces
//! (Math Chess numbers, chess pieces with face-down shells), a move's squares, the
//! arithmetic of a Math Chess capture, Reveal Chess pools, captured points and check. The
//! rules knowledge itself stays in the game modules (`mathchess::explain`,
//! `revealchess::Board::seen_on`/`pool_of`); this is the translation for the browser.

use serde::Serialize;
use tinh::game::Game;
use tinh::mathchess::{self, code_num, code_side, explain::CaptureArithmetic};
use tinh::revealchess::{self, fen::square_name as chess_square};

/// How the page draws pieces: numbered discs, or chess pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    Numbers,
    Chess,
}

/// A piece on the board: square, side (0 first player), label (`7`; `P N B R Q K`), and
/// whether it is face-down (then the label is its shell).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    pub sq: String,
    pub side: usize,
    pub label: String,
    pub face_down: bool,
}

/// A piece of a Math Chess capture: square and number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Numbered {
    pub sq: String,
    pub n: u32,
}

/// A Math Chess capture as the page explains it: support, arithmetic, target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Arithmetic {
    pub attacker: Numbered,
    pub support: Numbered,
    pub target: Numbered,
    pub distance: u32,
    /// Each operation that gives the distance, e.g. `7 − 4 = 3`.
    pub sums: Vec<String>,
}

impl From<CaptureArithmetic> for Arithmetic {
    fn from(c: CaptureArithmetic) -> Self {
        let placed = |p: mathchess::explain::Placed| Numbered {
            sq: p.square,
            n: p.number,
        };
        Arithmetic {
            attacker: placed(c.attacker),
            support: placed(c.support),
            target: placed(c.target),
            distance: c.distance,
            sums: c.calculations.iter().map(|k| k.to_string()).collect(),
        }
    }
}

/// One type of a Reveal Chess pool: letter, count and the chance a reveal draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoolEntry {
    pub letter: char,
    pub count: u8,
    pub probability: f64,
}

/// The drawing knowledge the board needs from a game, on top of `Game`.
pub trait BoardView: Game {
    /// The game's name for people.
    fn title(&self) -> &'static str;
    fn style(&self) -> Style;
    fn pieces(&self) -> Vec<Piece>;
    /// From- and to-square names of a move.
    fn squares(&self, mv: Self::Move) -> (String, String);
    /// The promotion (or backup) letter a move carries, if any.
    fn promotion(&self, mv: Self::Move) -> Option<char>;
    /// The arithmetic of a capture (Math Chess only).
    fn arithmetic(&self, mv: Self::Move) -> Option<Arithmetic>;
    /// Both sides' pools (Reveal Chess only).
    fn pools(&self) -> Option<[Vec<PoolEntry>; 2]>;
    /// Points each side has captured (Math Chess only).
    fn points_captured(&self) -> Option<[u32; 2]>;
    /// The square of a king in check (chess games only).
    fn check_square(&self) -> Option<String>;
}

impl BoardView for mathchess::Board {
    fn title(&self) -> &'static str {
        "Math Chess"
    }
    fn style(&self) -> Style {
        Style::Numbers
    }
    fn pieces(&self) -> Vec<Piece> {
        use mathchess::geometry::{FILES, RANKS, square, square_name};
        let mut out = Vec::new();
        for rank in 0..RANKS {
            for file in 0..FILES {
                let s = square(file, rank);
                let c = self.piece_at(s);
                if c != mathchess::EMPTY {
                    out.push(Piece {
                        sq: square_name(s),
                        side: code_side(c),
                        label: code_num(c).to_string(),
                        face_down: false,
                    });
                }
            }
        }
        out
    }
    fn squares(&self, mv: mathchess::Move) -> (String, String) {
        use mathchess::geometry::square_name;
        (square_name(mv.from()), square_name(mv.to()))
    }
    fn promotion(&self, _mv: mathchess::Move) -> Option<char> {
        None
    }
    fn arithmetic(&self, mv: mathchess::Move) -> Option<Arithmetic> {
        self.capture_arithmetic(mv).map(Arithmetic::from)
    }
    fn pools(&self) -> Option<[Vec<PoolEntry>; 2]> {
        None
    }
    fn points_captured(&self) -> Option<[u32; 2]> {
        Some([
            mathchess::Board::captured_points(self, mathchess::BLUE),
            mathchess::Board::captured_points(self, mathchess::RED),
        ])
    }
    fn check_square(&self) -> Option<String> {
        None
    }
}

impl BoardView for revealchess::Board {
    fn title(&self) -> &'static str {
        if self.is_standard_chess() {
            "Chess"
        } else {
            "Reveal Chess"
        }
    }
    fn style(&self) -> Style {
        Style::Chess
    }
    fn pieces(&self) -> Vec<Piece> {
        (0..64)
            .filter_map(|s| {
                self.seen_on(s).map(|p| Piece {
                    sq: chess_square(s),
                    side: p.color,
                    label: p.letter.to_ascii_uppercase().to_string(),
                    face_down: p.face_down,
                })
            })
            .collect()
    }
    fn squares(&self, mv: revealchess::Move) -> (String, String) {
        (chess_square(mv.from()), chess_square(mv.to()))
    }
    fn promotion(&self, mv: revealchess::Move) -> Option<char> {
        let text = self.move_to_string(mv);
        text.chars().nth(4)
    }
    fn arithmetic(&self, _mv: revealchess::Move) -> Option<Arithmetic> {
        None
    }
    fn pools(&self) -> Option<[Vec<PoolEntry>; 2]> {
        if self.is_standard_chess() {
            return None;
        }
        Some([0, 1].map(|side| {
            let pool = self.pool_of(side);
            let total: u32 = pool.iter().map(|&(_, n)| n as u32).sum();
            pool.iter()
                .map(|&(letter, count)| PoolEntry {
                    letter,
                    count,
                    probability: if total == 0 {
                        0.0
                    } else {
                        count as f64 / total as f64
                    },
                })
                .collect()
        }))
    }
    fn points_captured(&self) -> Option<[u32; 2]> {
        None
    }
    fn check_square(&self) -> Option<String> {
        self.checked_king().map(chess_square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tinh::variant::{Position, Variant};

    #[test]
    fn math_chess_start_shows_twenty_numbered_pieces() {
        let Position::MathChess(b) = Variant::MathChess.startpos() else {
            panic!("Math Chess is a Math position")
        };
        let p = b.pieces();
        assert_eq!(p.len(), 20);
        assert!(p.contains(&Piece {
            sq: "e2".into(),
            side: 0,
            label: "0".into(),
            face_down: false
        }));
        assert!(p.contains(&Piece {
            sq: "a11".into(),
            side: 1,
            label: "9".into(),
            face_down: false
        }));
        assert_eq!(b.points_captured(), Some([0, 0]));
        assert_eq!(b.style(), Style::Numbers);
    }

    #[test]
    fn reveal_chess_start_shows_shells_and_full_pools() {
        let Position::RevealChess(b) = Variant::RevealChess.startpos() else {
            panic!("Reveal Chess is a Reveal position")
        };
        let p = b.pieces();
        assert_eq!(p.len(), 32);
        assert_eq!(p.iter().filter(|x| x.face_down).count(), 30);
        let d1 = p.iter().find(|x| x.sq == "d1").unwrap();
        assert_eq!((d1.label.as_str(), d1.face_down, d1.side), ("Q", true, 0));
        let e8 = p.iter().find(|x| x.sq == "e8").unwrap();
        assert_eq!((e8.label.as_str(), e8.face_down, e8.side), ("K", false, 1));
        let pools = b.pools().unwrap();
        let q = &pools[0][0];
        assert_eq!((q.letter, q.count), ('Q', 1));
        assert!((q.probability - 1.0 / 15.0).abs() < 1e-9);
        assert_eq!(pools[1][4].count, 8);
        let Position::Chess(c) = Variant::Chess.startpos() else {
            panic!("chess is a Reveal position")
        };
        assert_eq!(c.pools(), None);
        assert!(c.pieces().iter().all(|x| !x.face_down));
    }
}
