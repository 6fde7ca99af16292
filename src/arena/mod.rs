//! The match runner (`tinh match`): engine processes, openings, the referee, adjudication,
//! Elo/SPRT statistics and PGN; `tinh genopenings`, which builds the opening suites;
//! `tinh spsa`, which tunes numeric options by self-play; and `tinh sprt`, which pools
//! several runs of one test into one SPRT.
//!
//! Layout: `args` (command line), `ranges` (its numbers), `engine` (one process),
//! `referee` (one game), `tournament` (scheduling, workers, output), `stats`, `pgn`,
//! `openings`, `spsa`, `pool`.

pub mod args;
pub mod engine;
pub mod ladder;
pub mod openings;
pub mod pgn;
pub mod pool;
pub mod ranges;
pub mod rating;
pub mod referee;
pub mod spsa;
pub mod stats;
pub mod tournament;

/// `tinh match ARGS...` (see `args::help`).
pub fn run_match_cli(args: &[String]) -> Result<(), String> {
    match args::parse(args)? {
        None => {
            print!("{}", args::help());
            Ok(())
        }
        Some(cfg) => tournament::run(&cfg).map(|_| ()),
    }
}

/// A table for people (the ladder's ratings, `tinh sprt`'s runs): rows under a header,
/// the first column left-aligned and the others right-aligned, each as wide as its widest
/// entry.
pub(crate) fn aligned(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut out = String::new();
        for (k, (cell, &w)) in cells.iter().zip(&widths).enumerate() {
            let pad = " ".repeat(w - cell.chars().count());
            if k == 0 {
                out.push_str(&format!("{cell}{pad}"));
            } else {
                out.push_str(&format!("  {pad}{cell}"));
            }
        }
        out.trim_end().to_string() + "\n"
    };
    let mut s = line(header.to_vec());
    for row in rows {
        s.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    s
}

/// `tinh genopenings ARGS...` (see `openings::gen_help`).
pub fn genopenings_cli(args: &[String]) -> Result<(), String> {
    openings::genopenings(args)
}
