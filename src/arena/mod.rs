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

/// `tinh genopenings ARGS...` (see `openings::gen_help`).
pub fn genopenings_cli(args: &[String]) -> Result<(), String> {
    openings::genopenings(args)
}
