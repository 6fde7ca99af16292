//! Evaluation apart from the rules: the `Evaluator` trait that each game's evaluation
//! implements (owned by a search worker, told of every move so that it may keep
//! incremental state), and `Weights`, the one data structure per game that holds every
//! weight of its evaluation. Weights are compiled in; a tuner reads and writes them as a
//! flat list of named integers, and the engine loads that list as text (`EvalFile`).
//!
//! The weights text format: one `name = value` per line (`material[3] = 100`,
//! `value[1].mg = 337`), `#` comments and blank lines ignored. A file names only the
//! weights it changes; the others keep their compiled-in values.

use crate::game::{Game, Score};

/// One evaluation term for the `eval` command: name, first player's value, second's.
#[derive(Clone, Debug)]
pub struct EvalTerm {
    pub name: &'static str,
    pub first: Score,
    pub second: Score,
}

/// A game's static evaluation, as a search worker owns it.
///
/// The worker calls `push` right after every `make` (or null move) and `pop` right after
/// every `unmake`, so an evaluation may keep state beside the board (accumulators, as
/// network evaluations do) instead of recomputing from scratch.
pub trait Evaluator<G: Game>: Clone + Send + 'static {
    type Weights: Weights;

    /// The compiled-in weights for the game `pos` belongs to.
    fn default_weights(pos: &G) -> Self::Weights;
    /// An evaluation with these weights, for searches starting from `pos`.
    fn new(pos: &G, weights: Self::Weights) -> Self;

    /// `pos` is the position after a move (or a null move).
    #[inline(always)]
    fn push(&mut self, _pos: &G) {}
    /// The last pushed move was taken back.
    #[inline(always)]
    fn pop(&mut self) {}

    /// Static evaluation from the side to move's point of view.
    fn evaluate(&mut self, pos: &G) -> Score;
    /// `evaluate` of `pos` by an evaluation with `weights`, made for this one call (the
    /// tuner's slopes ask it twice per weight per position). An evaluation whose weights
    /// are large overrides it to read them in place instead of copying them.
    fn evaluate_by(pos: &G, weights: &Self::Weights) -> Score {
        Self::new(pos, weights.clone()).evaluate(pos)
    }
    /// `evaluate` of `pos`, just reached by the chance move `mv` with outcome `made`; and,
    /// written into `out`, what `evaluate` would give after each of the same move's other
    /// outcomes `others` (entries of its `ChanceList`: outcome, weight) instead, for those it can tell exactly without their being made
    /// (the rest stay `None`: the caller makes and evaluates them). Only outcomes after
    /// which the game has no immediate result (`Game::immediate_result`) get a value.
    /// Valuing every outcome of a reveal is much of a chance search's work, and most
    /// outcomes differ from one another in one piece. The default tells none.
    fn evaluate_with_alternatives(
        &mut self,
        pos: &G,
        _mv: G::Move,
        _made: u8,
        _others: &[(u8, u16)],
        _out: &mut [Option<Score>],
    ) -> Score {
        self.evaluate(pos)
    }
    /// Ordering value of a noisy move (captures: most valuable victim, least valuable
    /// attacker, by this evaluation's piece values); larger is tried first.
    fn noisy_order(&self, pos: &G, mv: G::Move) -> Score;
    /// Static exchange evaluation: whether the exchange that `mv` starts on the square it
    /// goes to (each side in turn capturing there with its least valuable piece, each free
    /// to stop) gains the mover at least `threshold`, by this evaluation's piece values.
    /// For a quiet move: whether the piece is safe there (the exchange starts with nothing
    /// captured). What an exchange is belongs to the game's rules; a game that does not
    /// define it answers `true` (every move as good as it looks: nothing is pruned or
    /// put back by it).
    fn see_ge(&self, _pos: &G, _mv: G::Move, _threshold: Score) -> bool {
        true
    }
    /// The evaluation broken into named terms, for the `eval` command.
    fn terms(&mut self, pos: &G) -> Vec<EvalTerm>;
}

/// The weights a search of `pos` evaluates with: the game's compiled-in weights, with a
/// weights text (a loaded `EvalFile`) over them when one is given.
pub fn weights_for<G: Game>(
    pos: &G,
    text: Option<&str>,
) -> Result<<G::Eval as Evaluator<G>>::Weights, String> {
    let defaults = G::Eval::default_weights(pos);
    match text {
        None => Ok(defaults),
        Some(t) => defaults.with_text(t),
    }
}

/// The game's evaluation with its compiled-in weights (tests and tools).
pub fn default_evaluator<G: Game>(pos: &G) -> G::Eval {
    G::Eval::new(pos, G::Eval::default_weights(pos))
}

/// Something that holds evaluation weights: visited as a flat list of named integers.
pub trait Param {
    fn visit(&self, name: &str, f: &mut dyn FnMut(&str, i32));
    fn visit_mut(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32));
}

impl Param for i32 {
    fn visit(&self, name: &str, f: &mut dyn FnMut(&str, i32)) {
        f(name, *self)
    }
    fn visit_mut(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        f(name, self)
    }
}

/// A tapered weight: (middlegame, endgame), named `.mg` and `.eg`.
impl Param for (i32, i32) {
    fn visit(&self, name: &str, f: &mut dyn FnMut(&str, i32)) {
        f(&format!("{name}.mg"), self.0);
        f(&format!("{name}.eg"), self.1);
    }
    fn visit_mut(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        f(&format!("{name}.mg"), &mut self.0);
        f(&format!("{name}.eg"), &mut self.1);
    }
}

impl<T: Param, const N: usize> Param for [T; N] {
    fn visit(&self, name: &str, f: &mut dyn FnMut(&str, i32)) {
        for (i, x) in self.iter().enumerate() {
            x.visit(&format!("{name}[{i}]"), f);
        }
    }
    fn visit_mut(&mut self, name: &str, f: &mut dyn FnMut(&str, &mut i32)) {
        for (i, x) in self.iter_mut().enumerate() {
            x.visit_mut(&format!("{name}[{i}]"), f);
        }
    }
}

/// Every weight of one game's evaluation. Implemented by `eval_weights!`.
pub trait Weights: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// Calls `f(name, value)` for every weight, in a fixed order.
    fn visit(&self, f: &mut dyn FnMut(&str, i32));
    fn visit_mut(&mut self, f: &mut dyn FnMut(&str, &mut i32));

    /// Every weight's name, in the fixed order.
    fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.visit(&mut |n, _| out.push(n.to_string()));
        out
    }
    /// Every weight's value, in the fixed order (what a tuner works on).
    fn to_flat(&self) -> Vec<i32> {
        let mut out = Vec::new();
        self.visit(&mut |_, v| out.push(v));
        out
    }
    /// Set every weight from a flat list in the fixed order.
    fn set_flat(&mut self, values: &[i32]) {
        let mut it = values.iter();
        self.visit_mut(&mut |_, v| {
            if let Some(&x) = it.next() {
                *v = x;
            }
        });
    }
    /// The weights as text, one `name = value` per line.
    fn to_text(&self) -> String {
        let mut s = String::new();
        self.visit(&mut |n, v| s.push_str(&format!("{n} = {v}\n")));
        s
    }
    /// These weights with the values a weights text sets; an unknown name, a repeated
    /// one or a malformed line is an error naming the line.
    fn with_text(&self, text: &str) -> Result<Self, String> {
        let overrides = parse_weights_text(text)?;
        let mut w = self.clone();
        let mut found = vec![false; overrides.len()];
        w.visit_mut(&mut |n, v| {
            if let Some(i) = overrides.iter().position(|(name, _, _)| name == n) {
                *v = overrides[i].1;
                found[i] = true;
            }
        });
        if let Some(i) = found.iter().position(|f| !f) {
            let (name, _, line) = &overrides[i];
            return Err(format!("line {line}: no weight named '{name}'"));
        }
        Ok(w)
    }
}

/// An evaluation without weights (test games, a random mover).
impl Weights for () {
    fn visit(&self, _: &mut dyn FnMut(&str, i32)) {}
    fn visit_mut(&mut self, _: &mut dyn FnMut(&str, &mut i32)) {}
}

/// The (name, value, line number) pairs of a weights text.
fn parse_weights_text(text: &str) -> Result<Vec<(String, i32, usize)>, String> {
    let mut out: Vec<(String, i32, usize)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let n = i + 1;
        let (name, value) = line
            .split_once('=')
            .ok_or_else(|| format!("line {n}: expected 'name = value'"))?;
        let name = name.trim();
        let value: i32 = value
            .trim()
            .parse()
            .map_err(|_| format!("line {n}: '{}' is not an integer", value.trim()))?;
        if out.iter().any(|(m, _, _)| m == name) {
            return Err(format!("line {n}: '{name}' is set twice"));
        }
        out.push((name.to_string(), value, n));
    }
    Ok(out)
}

/// Defines a game's weights structure and its `Weights` implementation: every field is
/// a `Param` (an `i32`, a tapered `(i32, i32)`, or an array of them), named by its field
/// name in the flat list and the text format.
#[macro_export]
macro_rules! eval_weights {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }
        impl $crate::eval::Weights for $name {
            fn visit(&self, f: &mut dyn FnMut(&str, i32)) {
                $( $crate::eval::Param::visit(&self.$field, stringify!($field), f); )*
            }
            fn visit_mut(&mut self, f: &mut dyn FnMut(&str, &mut i32)) {
                $( $crate::eval::Param::visit_mut(&mut self.$field, stringify!($field), f); )*
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    eval_weights! {
        /// A test structure.
        pub struct TestWeights {
            pub a: i32,
            pub b: [i32; 2],
            pub c: [(i32, i32); 2],
        }
    }

    const W: TestWeights = TestWeights {
        a: 1,
        b: [2, 3],
        c: [(4, 5), (6, 7)],
    };

    #[test]
    fn flat_names_and_values() {
        assert_eq!(
            W.names(),
            [
                "a", "b[0]", "b[1]", "c[0].mg", "c[0].eg", "c[1].mg", "c[1].eg"
            ]
        );
        assert_eq!(W.to_flat(), [1, 2, 3, 4, 5, 6, 7]);
        let mut w = W.clone();
        w.set_flat(&[7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(w.c[1], (2, 1));
    }

    #[test]
    fn text_round_trip_and_errors() {
        let mut w = W.clone();
        w.set_flat(&[9, 8, 7, 6, 5, 4, 3]);
        assert_eq!(W.with_text(&w.to_text()).unwrap(), w);
        let partial = W.with_text("# a comment\n\nb[1] = -4  # why\n").unwrap();
        assert_eq!(partial.b, [2, -4]);
        assert_eq!(partial.a, 1);
        for bad in ["x = 1", "a = one", "a 1", "a = 1\na = 2", "c[2].mg = 1"] {
            assert!(W.with_text(bad).is_err(), "accepted {bad:?}");
        }
    }
}
