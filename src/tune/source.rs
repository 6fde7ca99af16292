//! A game's compiled-in evaluation weights as Rust source: the file `tinh tune --rust`
//! writes (`src/mathchess/weights.rs`, `src/revealchess/{chess,reveal}_weights.rs`), one
//! `WEIGHTS` constant with the command that made it.

use crate::eval::Weights;

/// The whole source file defining `WEIGHTS`.
pub fn rust_source<W: Weights>(w: &W, command: &str, summary: &str) -> String {
    format!(
        "//! Evaluation weights made by `tinh tune` (src/tune/). Remake them with the command\n\
         //! below rather than editing by hand: a hand edit needs its own SPRT.\n\
         //!\n\
         //! Command: {command}\n\
         //! Result: {summary}\n\
         \n\
         use super::eval::Weights;\n\
         \n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: Weights = {};\n",
        weights_literal(w)
    )
}

/// `Weights {\n    a: 1,\n    b: [2, 3],\n}`: one field per line. Built from the derived
/// `Debug`, which prints the weights' integers, arrays and tuples as Rust literals.
pub fn weights_literal<W: Weights>(w: &W) -> String {
    let debug = format!("{w:?}");
    let (Some(open), Some(close)) = (debug.find('{'), debug.rfind('}')) else {
        return debug;
    };
    let mut out = format!("{} {{\n", debug[..open].trim());
    let mut depth = 0;
    let mut field = String::new();
    for ch in debug[open + 1..close].chars() {
        match ch {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            out.push_str(&format!("    {},\n", field.trim()));
            field.clear();
        } else {
            field.push(ch);
        }
    }
    if !field.trim().is_empty() {
        out.push_str(&format!("    {},\n", field.trim()));
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each committed weights file is exactly what the generator writes for its weights.
    #[test]
    fn committed_weights_files_are_generated_ones() {
        let files = [
            (
                include_str!("../mathchess/weights.rs"),
                weights_literal(&crate::mathchess::weights::WEIGHTS),
            ),
            (
                include_str!("../revealchess/chess_weights.rs"),
                weights_literal(&crate::revealchess::chess_weights::WEIGHTS),
            ),
            (
                include_str!("../revealchess/reveal_weights.rs"),
                weights_literal(&crate::revealchess::reveal_weights::WEIGHTS),
            ),
        ];
        for (file, literal) in files {
            let body = format!("#[rustfmt::skip]\npub const WEIGHTS: Weights = {literal};\n");
            assert!(
                file.ends_with(&body),
                "expected the file to end with:\n{body}"
            );
        }
    }

    #[test]
    fn literal_has_one_field_per_line() {
        let w = crate::mathchess::weights::WEIGHTS;
        let lit = weights_literal(&w);
        assert!(lit.starts_with("Weights {\n    material: [0, "));
        assert_eq!(lit.lines().count(), w.names().len() - 9 + 2);
    }
}
