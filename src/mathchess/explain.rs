//! A capture explained the way players count it: which piece supports it, and which
//! arithmetic between attacker and support gives the distance from the support to the
//! target (rules: `../shared/rules/mathchess.md`, "Arithmetic captures"). For people (the
//! board in `tinh serve`); move generation uses the precomputed `CAPTURE_DIST` table, and
//! a test checks the two agree.

use super::geometry::{file_of, rank_of, square, square_name};
use super::{Board, EMPTY, Move, code_num, code_side};
use std::fmt;

/// One of the five operations of the rules between attacker A and support B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// (A + B) mod 10
    Sum,
    /// A − B
    Difference,
    /// (A × B) mod 10
    Product,
    /// A div B
    Quotient,
    /// A mod B
    Remainder,
}

/// An operation applied to numbers: `raw` is the plain result (11 for 7 + 4), `distance`
/// what the rules make of it (its units digit for a sum or product).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calculation {
    pub op: Operation,
    pub attacker: u32,
    pub support: u32,
    pub raw: u32,
    pub distance: u32,
}

impl Calculation {
    /// The operation's distance for attacker `a` and support `b`, or `None` where the
    /// rules give it no distance (not positive, or a division by 0).
    pub fn of(op: Operation, a: u32, b: u32) -> Option<Calculation> {
        let (raw, distance) = match op {
            Operation::Sum => (a + b, (a + b) % 10),
            Operation::Difference => (a.checked_sub(b)?, a - b),
            Operation::Product => (a * b, (a * b) % 10),
            Operation::Quotient => (a.checked_div(b)?, a / b),
            Operation::Remainder => (a.checked_rem(b)?, a % b),
        };
        (distance > 0).then_some(Calculation {
            op,
            attacker: a,
            support: b,
            raw,
            distance,
        })
    }

    /// Every operation that gives attacker `a` with support `b` the distance `d`.
    pub fn giving(a: u32, b: u32, d: u32) -> Vec<Calculation> {
        use Operation::*;
        [Sum, Difference, Product, Quotient, Remainder]
            .into_iter()
            .filter_map(|op| Calculation::of(op, a, b))
            .filter(|c| c.distance == d)
            .collect()
    }
}

/// `7 + 4 = 11 → 1`, `7 − 4 = 3`, `7 × 4 = 28 → 8`, `7 ÷ 4 = 1`, `7 mod 4 = 3`.
impl fmt::Display for Calculation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = match self.op {
            Operation::Sum => "+",
            Operation::Difference => "−",
            Operation::Product => "×",
            Operation::Quotient => "÷",
            Operation::Remainder => "mod",
        };
        write!(
            f,
            "{} {sign} {} = {}",
            self.attacker, self.support, self.raw
        )?;
        if self.raw != self.distance {
            write!(f, " → {}", self.distance)?;
        }
        Ok(())
    }
}

/// A piece as the capture names it: its square and number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub square: String,
    pub number: u32,
}

/// A legal capture explained: attacker, support, target, the distance from the support
/// to the target, and every operation that gives that distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureArithmetic {
    pub attacker: Placed,
    pub support: Placed,
    pub target: Placed,
    pub distance: u32,
    pub calculations: Vec<Calculation>,
}

impl Board {
    /// The arithmetic of a capture `mv` in this position (`None` when `mv` is not a
    /// capture along a line with a friendly piece next to the attacker). The caller
    /// passes a legal move; the operations are recomputed from the rules.
    pub fn capture_arithmetic(&self, mv: Move) -> Option<CaptureArithmetic> {
        let (from, to) = (mv.from(), mv.to());
        let (attacker, target) = (self.piece_at(from), self.piece_at(to));
        if attacker == EMPTY || target == EMPTY || code_side(attacker) == code_side(target) {
            return None;
        }
        let df = file_of(to) as i32 - file_of(from) as i32;
        let dr = rank_of(to) as i32 - rank_of(from) as i32;
        let steps = df.abs().max(dr.abs());
        // Captures run along ranks, files and diagonals, and jump at least the support.
        if steps < 2 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let support_sq = square(
            (file_of(from) as i32 + df.signum()) as usize,
            (rank_of(from) as i32 + dr.signum()) as usize,
        );
        let support = self.piece_at(support_sq);
        if support == EMPTY || code_side(support) != code_side(attacker) {
            return None;
        }
        let (a, b) = (code_num(attacker) as u32, code_num(support) as u32);
        let distance = steps as u32 - 1;
        let placed = |sq: usize, code: u8| Placed {
            square: square_name(sq),
            number: code_num(code) as u32,
        };
        Some(CaptureArithmetic {
            attacker: placed(from, attacker),
            support: placed(support_sq, support),
            target: placed(to, target),
            distance,
            calculations: Calculation::giving(a, b, distance),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, MoveList};
    use crate::mathchess::geometry::CAPTURE_DIST;

    #[test]
    fn operations_agree_with_the_move_generator_table() {
        for a in 0..10 {
            for b in 0..10 {
                let mut set = 0u16;
                for d in 1..10 {
                    if !Calculation::giving(a, b, d).is_empty() && a != 0 {
                        set |= 1 << d;
                    }
                }
                assert_eq!(set, CAPTURE_DIST[a as usize][b as usize], "A{a} B{b}");
            }
        }
    }

    #[test]
    fn the_rules_examples_read_as_players_count() {
        let texts = |a, b, d| -> Vec<String> {
            Calculation::giving(a, b, d)
                .iter()
                .map(|c| c.to_string())
                .collect()
        };
        assert_eq!(texts(7, 4, 1), ["7 + 4 = 11 → 1", "7 ÷ 4 = 1"]);
        assert_eq!(texts(7, 4, 3), ["7 − 4 = 3", "7 mod 4 = 3"]);
        assert_eq!(texts(7, 4, 8), ["7 × 4 = 28 → 8"]);
        assert_eq!(texts(4, 7, 4), ["4 mod 7 = 4"]);
        assert_eq!(texts(5, 0, 5), ["5 + 0 = 5", "5 − 0 = 5"]);
        assert!(texts(4, 7, 3).is_empty());
    }

    #[test]
    fn every_legal_capture_is_explained() {
        // Blue 7 on e4 with its 4 on e5; Red pieces on e6 (1 beyond) and e8 (3 beyond).
        let b = Board::from_fen("9/4r04/4r84/9/9/4r64/4b44/4b74/9/4b04/9 b").unwrap();
        let mut list = MoveList::new();
        b.generate_moves(&mut list);
        let captures: Vec<Move> = list.iter().copied().filter(|&m| b.is_capture(m)).collect();
        assert!(!captures.is_empty());
        for mv in captures {
            let c = b
                .capture_arithmetic(mv)
                .unwrap_or_else(|| panic!("{} not explained", b.move_to_string(mv)));
            assert!(!c.calculations.is_empty(), "{c:?}");
        }
        let e4e6 = b.parse_choice("e4e6").unwrap();
        let c = b.capture_arithmetic(e4e6).unwrap();
        assert_eq!(c.attacker.number, 7);
        assert_eq!(
            c.support,
            Placed {
                square: "e5".into(),
                number: 4
            }
        );
        assert_eq!(
            c.target,
            Placed {
                square: "e6".into(),
                number: 6
            }
        );
        assert_eq!(c.distance, 1);
        let quiet = b.parse_choice("e4d3").unwrap();
        assert_eq!(b.capture_arithmetic(quiet), None);
    }
}
