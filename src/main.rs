//! Command line: the protocol loop by default; perft, bench, analyse, match, genopenings.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;
use tinh::variant::Variant;
use tinh::with_game;

/// The deepest `tinh perft` goes: leaf counts beyond it would overflow 64 bits in Math
/// Chess and never finish anyway.
const MAX_PERFT_DEPTH: i64 = 20;

#[derive(Parser)]
#[command(
    name = "tinh",
    version,
    about = "Tinh: an engine for Math Chess, Reveal Chess and chess"
)]
struct Cli {
    /// Game the protocol loop starts in: mathchess (default), revealchess or chess.
    /// Before a subcommand it is that command's game (the subcommand's own --variant wins).
    #[arg(long)]
    variant: Option<Variant>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the UCI-style protocol loop on stdin/stdout (the default).
    Uci {
        /// Game the protocol loop starts in: mathchess (default), revealchess or chess.
        #[arg(long)]
        variant: Option<Variant>,
    },
    /// Count the leaves of the legal-move tree, divided by root move.
    Perft {
        /// Depth in plies (0..=20).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH))]
        depth: u32,
        /// Game of the position: mathchess (default), revealchess or chess.
        #[arg(long)]
        variant: Option<Variant>,
        /// Start position (default: the game's start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the start position first, space separated.
        #[arg(long)]
        moves: Option<String>,
        /// Count root moves in parallel on this many threads (1..=256, as the Threads option).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search fixed positions to a fixed depth, one thread (all three games by default).
    Bench {
        /// Depth (1..=20; default: the bench's own, 9 for search).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_PERFT_DEPTH))]
        depth: Option<u32>,
        /// Only this game's positions: mathchess, revealchess or chess (default: all three).
        #[arg(long)]
        variant: Option<Variant>,
        /// Measure move generation instead: perft of fixed positions.
        #[arg(long)]
        perft: bool,
    },
    /// Analyse a position and show the search's progress in readable lines.
    Analyse {
        /// Game of the position: mathchess (default), revealchess or chess.
        #[arg(long)]
        variant: Option<Variant>,
        #[command(flatten)]
        args: tinh::protocol::analyse::AnalyseArgs,
    },
    /// Play a match between engines (cutechess-cli style flags; `tinh match --help`).
    // The match runner parses its own flags (key=value words) and prints its own help.
    #[command(disable_help_flag = true)]
    Match {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Generate a balanced opening suite (`tinh genopenings --help`).
    #[command(disable_help_flag = true)]
    Genopenings {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    // A subcommand's own --variant wins over one given before it.
    let game = |own: Option<Variant>| own.or(cli.variant).unwrap_or(Variant::MathChess);
    let result = match cli.command {
        None => {
            tinh::protocol::run_loop(game(None));
            Ok(())
        }
        Some(Command::Uci { variant }) => {
            tinh::protocol::run_loop(game(variant));
            Ok(())
        }
        Some(Command::Perft {
            depth,
            variant,
            fen,
            moves,
            threads,
        }) => run_perft(
            game(variant),
            depth,
            fen.as_deref(),
            moves.as_deref(),
            threads,
        ),
        Some(Command::Bench {
            depth,
            variant,
            perft: false,
        }) => tinh::search::bench::run(depth, variant.or(cli.variant)),
        Some(Command::Bench {
            depth,
            variant,
            perft: true,
        }) => tinh::search::bench::run_perft(depth, variant.or(cli.variant)),
        Some(Command::Analyse { variant, args }) => {
            tinh::protocol::analyse::run(game(variant), args)
        }
        Some(Command::Match { args }) => {
            tinh::arena::run_match_cli(&with_variant(args, cli.variant))
        }
        Some(Command::Genopenings { args }) => {
            tinh::arena::genopenings_cli(&with_variant(args, cli.variant))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `tinh --variant V match ...`: hand the variant given before the subcommand to it (the
/// match runner and genopenings parse their own flags; one of their own wins).
fn with_variant(mut args: Vec<String>, variant: Option<Variant>) -> Vec<String> {
    if let Some(v) = variant
        && !args.iter().any(|a| a == "--variant" || a == "-variant")
    {
        args.splice(0..0, ["--variant".to_string(), v.name().to_string()]);
    }
    args
}

fn run_perft(
    variant: Variant,
    depth: u32,
    fen: Option<&str>,
    moves: Option<&str>,
    threads: usize,
) -> Result<(), String> {
    let n = i64::try_from(threads).unwrap_or(i64::MAX);
    tinh::protocol::check_spin("Threads", n).map_err(|e| format!("--threads: {e}"))?;
    let mut pos = match fen {
        Some(f) => variant.from_fen(f)?,
        None => variant.startpos(),
    };
    if let Some(m) = moves {
        pos.apply_moves(m.split_whitespace())?;
    }
    let start = Instant::now();
    let lines = with_game!(&pos, g => tinh::perft::divide(g, depth, threads));
    let elapsed = start.elapsed().as_secs_f64();
    let total = tinh::perft::total(&lines, depth);
    print!("{}", tinh::perft::format_divide(&lines, depth));
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        elapsed,
        total as f64 / elapsed.max(1e-9)
    );
    Ok(())
}
