//! `tinh datagen`: self-play games at a fixed node budget, the data `tinh tune` fits the
//! evaluation to. Game i starts from opening i (cycling through the suite), plays a few
//! random legal plies drawn from its own generator (seeded by the seed and i; reveals drawn
//! from the pool by weight as the match referee draws them), then both sides are Tinh's
//! search with the node budget until the rules end the game, one side's score stays past
//! the resign threshold, or the length limit is reached. Games run on worker threads, each
//! with its own table, cleared before every game: a game depends on the seed, its index
//! and the settings only, and the file is written in game order, so the same settings give
//! the same file whatever the thread count. The file format is in `data.rs`.

use super::data::{DataWriter, End, GameData, MAX_RECORD_PLIES, Ply};
use crate::arena::openings::{self, random_walk};
use crate::game::{ChanceList, Game, NO_OUTCOME, Outcome};
use crate::progress::Progress;
use crate::search::{Limits, Options, Searcher};
use crate::seed::mix;
use crate::variant::Variant;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// Plies in a row both sides' scores must agree that one side is lost, for resignation.
pub const RESIGN_PLIES: usize = 8;
/// Tries at a random walk that does not end the game, before the opening is used as is.
const WALK_TRIES: usize = 100;

#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Write the games to this new file (an existing file is never overwritten).
    #[arg(long, required_unless_present = "dump", conflicts_with = "dump")]
    pub out: Option<String>,
    /// Instead of playing: print a data file as text, one position per line
    /// (`FEN | score | result | move | flags`).
    #[arg(long, value_name = "FILE")]
    pub dump: Option<String>,
    /// Games to play, 1..=10000000.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Number of the first game, 0..=1000000000: games are numbered from the seed, so
    /// `--first-game 1000 --games 1000` continues a run of games 0..999 exactly.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_000_000_000))]
    pub first_game: u64,
    /// Nodes searched per move, 1..=100000000.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// Opening suite, one FEN (EPD) per line (default: openings/VARIANT.epd).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Random legal plies played after the opening, 0..=20.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=20))]
    pub random_plies: u64,
    /// Seed of the random plies and reveals, 0..=2^64-1: same seed and settings, same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, 1..=256 (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table of each game being played, in MiB (1..=65536).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// A game still going after this many plies is a draw (adjudicated), 10..=1000.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(10..=1000))]
    pub max_plies: u64,
    /// Resign adjudication: when both sides' scores say the same side is behind by at
    /// least CP centipawns for 8 plies in a row, that side loses; 0 = off, up to 30000.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(i32).range(0..=30_000))]
    pub resign: i32,
}

/// The checked settings of one run.
struct Config {
    variant: Variant,
    out: String,
    games: u64,
    first_game: u64,
    nodes: u64,
    openings: Vec<String>,
    random_plies: usize,
    seed: u64,
    threads: usize,
    hash_mb: usize,
    max_plies: usize,
    resign: i32,
}

/// `tinh datagen`.
pub fn run(variant: Variant, args: DatagenArgs) -> Result<(), String> {
    if let Some(path) = &args.dump {
        return super::data::dump(path);
    }
    let out = args
        .out
        .clone()
        .expect("clap requires --out without --dump");
    let threads = match args.threads {
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    crate::protocol::check_spin("Threads", threads as i64)
        .map_err(|e| format!("--threads: {e}"))?;
    crate::protocol::check_spin("Hash", args.hash as i64).map_err(|e| format!("--hash: {e}"))?;
    let book = args
        .openings
        .clone()
        .unwrap_or_else(|| format!("openings/{variant}.epd"));
    let openings = openings::load(variant, &book)
        .map_err(|e| format!("{e} (give a suite with --openings FILE)"))?;
    let cfg = Config {
        variant,
        out,
        games: args.games,
        first_game: args.first_game,
        nodes: args.nodes,
        openings,
        random_plies: args.random_plies as usize,
        seed: args.seed,
        threads,
        hash_mb: args.hash,
        max_plies: args.max_plies as usize,
        resign: args.resign,
    };
    let start = variant.startpos();
    with_game!(&start, g => generate(g, &cfg))
}

/// What a run produced, for its last line.
#[derive(Default)]
struct Totals {
    games: u64,
    positions: u64,
    /// First player's results: lost, drawn, won.
    results: [u64; 3],
    resigned: u64,
    length_limit: u64,
}

fn generate<G: Game>(start: &G, cfg: &Config) -> Result<(), String> {
    let openings: Vec<G> = cfg
        .openings
        .iter()
        .map(|f| start.with_fen(f))
        .collect::<Result<_, _>>()?;
    let mut writer = DataWriter::create(&cfg.out, cfg.variant)?;
    eprintln!(
        "datagen: {} {} games ({}..{}), {} nodes a move, {} random plies, seed {}, {} threads -> {}",
        cfg.games,
        cfg.variant,
        cfg.first_game,
        cfg.first_game + cfg.games - 1,
        cfg.nodes,
        cfg.random_plies,
        cfg.seed,
        cfg.threads,
        cfg.out
    );
    let end = cfg.first_game + cfg.games;
    let next = AtomicU64::new(cfg.first_game);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, GameData)>();
    let mut totals = Totals::default();
    let mut progress = Progress::new("games", cfg.games);
    let written: Result<(), String> = std::thread::scope(|s| {
        for id in 0..cfg.threads {
            let (tx, next, stop, openings) = (tx.clone(), &next, &stop, &openings);
            // The search recurses deeply: a thread with the search thread's stack.
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{id}"))
                .stack_size(64 << 20)
                .spawn_scoped(s, move || {
                    let searcher = Searcher::new(cfg.hash_mb);
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= end {
                            break;
                        }
                        let game = play_game(openings, cfg, i, &searcher);
                        if tx.send((i, game)).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                return Err(format!("cannot start a datagen thread: {e}"));
            }
        }
        drop(tx);
        // Games finish in any order; they are written in game order.
        let mut pending: BTreeMap<u64, GameData> = BTreeMap::new();
        let mut want = cfg.first_game;
        for (i, game) in rx {
            pending.insert(i, game);
            while let Some(game) = pending.remove(&want) {
                if let Err(e) = writer.write_game(&game) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                totals.add(&game);
                want += 1;
            }
            let rate = totals.positions as f64 / progress.elapsed().max(1e-9);
            progress.update(
                totals.games,
                &format!("{} positions  {rate:.0} pos/s", totals.positions),
            );
        }
        Ok(())
    });
    written?;
    let secs = progress.elapsed();
    let rate = totals.positions as f64 / secs.max(1e-9);
    progress.finish(
        totals.games,
        &format!("{} positions  {rate:.0} pos/s", totals.positions),
    );
    let [lost, drawn, won] = totals.results;
    eprintln!(
        "datagen: {} games, {} positions in {:.1} s ({rate:.0} positions/s) -> {}\n\
         datagen: first player +{won} ={drawn} -{lost}; adjudicated: {} resigned, {} at the length limit",
        totals.games, totals.positions, secs, cfg.out, totals.resigned, totals.length_limit
    );
    Ok(())
}

impl Totals {
    fn add(&mut self, g: &GameData) {
        self.games += 1;
        self.positions += g.plies.len() as u64;
        self.results[g.result as usize] += 1;
        match g.end {
            End::Resign => self.resigned += 1,
            End::LengthLimit => self.length_limit += 1,
            End::Rules => {}
        }
    }
}

/// Play game `i`: its opening, its random plies, then self-play.
fn play_game<G: Game>(openings: &[G], cfg: &Config, i: u64, searcher: &Searcher) -> GameData {
    let mut rng = StdRng::seed_from_u64(mix(cfg.seed, i));
    let opening = &openings[(i % openings.len() as u64) as usize];
    let walked = (0..WALK_TRIES)
        .find_map(|_| random_walk(opening.clone(), cfg.random_plies, &mut rng))
        .unwrap_or_else(|| opening.clone());
    // Self-play starts from the FEN, as a reader replaying the record will.
    let fen = walked.to_fen();
    let mut g = walked
        .with_fen(&fen)
        .expect("a FEN the game wrote reads back");
    searcher.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Default::default()
    };
    let opts = Options::default();
    let mut plies = Vec::new();
    let mut chances = ChanceList::default();
    // Plies in a row whose score says the first player is winning (+) or losing (-).
    let mut streak: i64 = 0;
    let (winner, end): (Option<usize>, End) = loop {
        if let Some(e) = g.game_end() {
            let stm = g.side_to_move();
            break match e.outcome {
                Outcome::Win => (Some(stm), End::Rules),
                Outcome::Loss => (Some(1 - stm), End::Rules),
                Outcome::Draw => (None, End::Rules),
            };
        }
        if plies.len() >= cfg.max_plies.min(MAX_RECORD_PLIES) {
            break (None, End::LengthLimit);
        }
        let r = searcher.search(&g, &limits, &opts, &|_| {});
        let Some(mv) = r.best else {
            // Not reached: a position the rules have not ended has a legal move.
            break (None, End::LengthLimit);
        };
        chances.clear();
        let outcome = if g.chance(mv, &mut chances) {
            chances.pick(rng.random_range(0..chances.total()))
        } else {
            NO_OUTCOME
        };
        plies.push(Ply {
            mv: crate::game::GameMove::to_u16(mv),
            outcome,
            score: r.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        });
        let first_view = if g.side_to_move() == 0 {
            r.score
        } else {
            -r.score
        };
        g.make(mv, outcome);
        if cfg.resign > 0 {
            streak = match first_view {
                s if s >= cfg.resign => streak.max(0) + 1,
                s if s <= -cfg.resign => streak.min(0) - 1,
                _ => 0,
            };
            if streak.unsigned_abs() as usize >= RESIGN_PLIES {
                break (Some(if streak > 0 { 0 } else { 1 }), End::Resign);
            }
        }
    };
    GameData {
        result: match winner {
            Some(0) => 2,
            Some(_) => 0,
            None => 1,
        },
        end,
        fen,
        plies,
    }
}
