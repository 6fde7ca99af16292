//! Command line: the protocol loop by default; perft, bench, analyse, match, sprt,
//! ladder, spsa, genopenings, datagen, tune, and serve (the board in a web browser, `serve/`).

mod serve;

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;
use tinh::variant::Variant;
use tinh::with_game;

/// The deepest `tinh perft` and `tinh bench` go (the same as `go perft`).
const MAX_BENCH_DEPTH: i64 = tinh::perft::MAX_DEPTH as i64;

#[derive(Parser)]
#[command(
    name = "tinh",
    version,
    about = "Tinh: an engine for Math Chess, Reveal Chess and chess"
)]
struct Cli {
    /// The game: mathchess (the default), revealchess or chess. For `tinh`/`uci` the
    /// variant the protocol loop starts in; for `bench`, only that game's positions.
    #[arg(long, global = true)]
    variant: Option<Variant>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the UCI-style protocol loop on stdin/stdout (the default).
    Uci,
    /// Count the leaves of the legal-move tree, divided by root move.
    Perft {
        /// Depth in plies (0..=20).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_BENCH_DEPTH))]
        depth: u32,
        /// Start position (default: the variant's start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the start position first, space separated.
        #[arg(long)]
        moves: Option<String>,
        /// Count root moves in parallel on this many threads (1..=256, as the Threads
        /// option).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search a fixed set of positions of every game (or the `--variant` given) to a
    /// fixed depth, one thread; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth (1..=20; default: the bench's own, 9 for the search).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_BENCH_DEPTH))]
        depth: Option<u32>,
        /// Measure move generation instead: perft of fixed positions.
        #[arg(long)]
        perft: bool,
        /// Set a search parameter for this run, e.g. `--param RfpMargin=90` (repeatable;
        /// `tinh` then `params` lists them).
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// Analyse a position and show the search's progress in readable lines.
    Analyse(tinh::protocol::analyse::AnalyseArgs),
    /// Play a match between engines (cutechess-cli style flags; `tinh match --help`).
    // The match runner parses its own flags (key=value words) and prints its own help.
    #[command(disable_help_flag = true)]
    Match {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Pool several runs of one test (match logs or pair counts) into one SPRT
    /// (`tinh sprt --help`).
    #[command(disable_help_flag = true)]
    Sprt {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Rate the strength levels: the random mover, levels 1-5 and full strength play
    /// their neighbours and the random mover; one rating table per game (all three, or
    /// `--variant`'s).
    Ladder(tinh::arena::ladder::LadderArgs),
    /// Tune numeric engine options by SPSA self-play (`tinh spsa --help`).
    #[command(disable_help_flag = true)]
    Spsa {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Serve a board to play on in a web browser (http://127.0.0.1:8080/ by default).
    Serve(serve::ServeArgs),
    /// Generate a balanced opening suite (`tinh genopenings --help`).
    #[command(disable_help_flag = true)]
    Genopenings {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Play self-play games at a fixed node budget and record every position with its
    /// search score and the game's result (the data `tune` fits to).
    Datagen(tinh::tune::datagen::DatagenArgs),
    /// Fit the evaluation weights of the data's game to self-play data (Texel tuning).
    Tune(tinh::tune::texel::TuneArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let variant = cli.variant.unwrap_or_default();
    let result = match cli.command {
        None | Some(Command::Uci) => {
            tinh::protocol::run_loop(variant);
            Ok(())
        }
        Some(Command::Perft {
            depth,
            fen,
            moves,
            threads,
        }) => run_perft(variant, depth, fen.as_deref(), moves.as_deref(), threads),
        Some(Command::Bench {
            depth,
            perft,
            params,
        }) => run_bench(depth, perft, &params, cli.variant),
        Some(Command::Analyse(args)) => tinh::protocol::analyse::run(variant, args),
        Some(Command::Match { args }) => tinh::arena::run_match_cli(&with_variant(args, variant)),
        Some(Command::Sprt { args }) => tinh::arena::pool::sprt_cli(&args),
        Some(Command::Ladder(args)) => {
            let variants = cli.variant.map_or(Variant::ALL.to_vec(), |v| vec![v]);
            tinh::arena::ladder::run(&variants, &args)
        }
        Some(Command::Spsa { args }) => tinh::arena::spsa::spsa_cli(&with_variant(args, variant)),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Genopenings { args }) => {
            tinh::arena::genopenings_cli(&with_variant(args, variant))
        }
        Some(Command::Datagen(args)) => tinh::tune::datagen::run(variant, args),
        Some(Command::Tune(args)) => tinh::tune::texel::run(cli.variant, args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// clap takes a leading `--variant V` of `match`/`genopenings` as the global flag before
/// the raw arguments start: hand it back to the subcommand, which parses its own flags.
fn with_variant(mut args: Vec<String>, variant: Variant) -> Vec<String> {
    if !args.iter().any(|a| a == "--variant" || a == "-variant") {
        args.splice(0..0, ["--variant".to_string(), variant.name().to_string()]);
    }
    args
}

/// `tinh bench`: every game, or the one `--variant` names.
fn run_bench(
    depth: Option<u32>,
    perft: bool,
    params: &[String],
    variant: Option<Variant>,
) -> Result<(), String> {
    let variants: Vec<Variant> = match variant {
        Some(v) => vec![v],
        None => Variant::ALL.to_vec(),
    };
    if perft {
        if !params.is_empty() {
            return Err("--param applies to the search bench, not --perft".into());
        }
        return tinh::bench::run_perft(depth, &variants);
    }
    let mut p = tinh::search::params::SearchSettings::default();
    p.apply_assignments(params)?;
    tinh::bench::run(depth, &variants, p)
}

fn run_perft(
    variant: Variant,
    depth: u32,
    fen: Option<&str>,
    moves: Option<&str>,
    threads: usize,
) -> Result<(), String> {
    let moves: Vec<&str> = moves
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    // Built as the protocol's `position` builds it, so errors read the same.
    let pos = tinh::protocol::build_position(variant, fen, &moves, &[])?;
    let n = i64::try_from(threads).unwrap_or(i64::MAX);
    tinh::protocol::check_spin("Threads", n).map_err(|e| format!("--threads: {e}"))?;
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
