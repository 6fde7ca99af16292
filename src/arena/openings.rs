//! Opening suites: reading EPD-style files (one FEN per line, checked by the rules code),
//! their order in a match (sequential or shuffled by the seed, from a start index), and
//! `tinh genopenings`, which builds balanced suites: random legal plies from the start
//! (reveals drawn with the right weights), kept when Tinh's own search scores the position
//! within a threshold, deduplicated across threads.

use super::args::Order;
use super::ranges::{at_least, in_range};
use crate::game::{ChanceList, Game, MoveList, NO_OUTCOME};
use crate::protocol::check_spin;
use crate::search::{Limits, MAX_DEPTH, Options, Searcher};
use crate::variant::{Position, Variant};
use dashmap::DashMap;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::seed::mix;

/// Parse one opening line: a FEN, possibly EPD-style (operations such as `bm e4;
/// id "x";` after it), as the variant's rules code reads it (`Game::with_epd`).
pub fn parse_line(variant: Variant, line: &str) -> Result<Position, String> {
    variant.startpos().with_epd(line)
}

/// Every opening of a file, as normalised FENs; blank lines and `#` comments are skipped.
pub fn load(variant: Variant, path: &str) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read openings {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let pos = parse_line(variant, l)
            .map_err(|e| format!("{path}:{}: not a {variant} position: {e}", i + 1))?;
        if with_game!(&pos, g => g.game_end()).is_some() {
            return Err(format!("{path}:{}: the game is already over there", i + 1));
        }
        out.push(pos.to_fen());
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings"));
    }
    Ok(out)
}

/// The openings in playing order: shuffled by `seed` when random, then rotated so that
/// the 1-based `start` comes first.
pub fn arrange(mut list: Vec<String>, order: Order, start: usize, seed: u64) -> Vec<String> {
    if order == Order::Random {
        let mut rng = StdRng::seed_from_u64(mix(seed, u64::MAX));
        list.shuffle(&mut rng);
    }
    let k = (start.max(1) - 1) % list.len().max(1);
    list.rotate_left(k);
    list
}

/// `tinh genopenings` settings.
#[derive(Clone, Debug)]
pub struct GenConfig {
    pub variant: Variant,
    pub count: usize,
    pub plies: usize,
    pub seed: u64,
    pub depth: u32,
    /// Node limit of each search as well (0 = none).
    pub nodes: u64,
    pub threshold: i32,
    pub out: Option<String>,
    /// Convert a file of move lines (`name: moves` or `moves`) instead of random plies.
    pub lines: Option<String>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    pub hash_mb: usize,
}

/// Most random plies from the start: an opening, not a game.
pub const MAX_GEN_PLIES: usize = 100;
/// Most positions one suite holds.
pub const MAX_GEN_COUNT: usize = 100_000;
/// Largest balance threshold, in centipawns.
pub const MAX_GEN_THRESHOLD: i32 = 10_000;

const GEN_HELP: &str = "\
tinh genopenings: build a balanced opening suite, one FEN per line.

  --variant V        {variants}
  --count N          positions wanted, 1..=100000 (default 200)
  --plies P          random legal plies from the start, 1..=100 (default 6); reveals are
                     drawn from the pool with their true weights
  --seed S           seed of the random plies, 0..=2^64-1 (default 1): same seed, same file
  --depth D          search depth used to balance, 1..=120 (default 6)
  --nodes N          also stop each search after N nodes (default 0: depth only)
  --threshold CP     keep positions whose |score| <= CP for the side to move, 0..=10000
                     (default 50)
  --out FILE         write there instead of stdout
  --lines FILE       instead: convert each line of FILE (`[name:] move move ...` from the
                     start, in `position ... moves` notation) to its FEN, checking every
                     move with the rules code (no search, no filtering)
  --threads T        candidates searched in parallel, 1..=256 (default: all cores)
  --hash MB          hash per search thread, 1..=the Hash option's max (default 8)
";

pub fn parse_gen_args(args: &[String]) -> Result<Option<GenConfig>, String> {
    let mut cfg = GenConfig {
        variant: Variant::default(),
        count: 200,
        plies: 6,
        seed: 1,
        depth: 6,
        nodes: 0,
        threshold: 50,
        out: None,
        lines: None,
        threads: None,
        hash_mb: 8,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let f = flag.trim_start_matches('-');
        if f == "help" || f == "h" {
            return Ok(None);
        }
        let v = it
            .next()
            .ok_or_else(|| format!("--{f} needs a value"))?
            .as_str();
        let what = format!("--{f}");
        match f {
            "variant" => cfg.variant = v.parse()?,
            "count" => cfg.count = in_range(&what, v, 1, MAX_GEN_COUNT)?,
            "plies" => cfg.plies = in_range(&what, v, 1, MAX_GEN_PLIES)?,
            "seed" => cfg.seed = at_least(&what, v, 0)?,
            "depth" => cfg.depth = in_range(&what, v, 1, MAX_DEPTH)?,
            "nodes" => cfg.nodes = at_least(&what, v, 0)?,
            "threshold" => cfg.threshold = in_range(&what, v, 0, MAX_GEN_THRESHOLD)?,
            "out" => cfg.out = Some(v.to_string()),
            "lines" => cfg.lines = Some(v.to_string()),
            // Threads and hash share the engine options' ranges.
            "threads" | "hash" => {
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("{what}: '{v}' is not a number"))?;
                let option = if f == "threads" { "Threads" } else { "Hash" };
                check_spin(option, n).map_err(|e| format!("{what}: {e}"))?;
                if f == "threads" {
                    cfg.threads = Some(n as usize);
                } else {
                    cfg.hash_mb = n as usize;
                }
            }
            _ => return Err(format!("unknown flag --{f} (see tinh genopenings --help)")),
        }
    }
    Ok(Some(cfg))
}

/// Play `plies` random legal plies from `g` (reveals drawn by weight); `None` if the game
/// ended on the way.
pub fn random_walk<G: Game>(mut g: G, plies: usize, rng: &mut StdRng) -> Option<G> {
    let mut list = MoveList::new();
    let mut chances = ChanceList::default();
    for _ in 0..plies {
        if g.game_end().is_some() {
            return None;
        }
        list.clear();
        g.generate_moves(&mut list);
        if list.is_empty() {
            return None;
        }
        let mv = list.get(rng.random_range(0..list.len()));
        chances.clear();
        let outcome = if g.chance(mv, &mut chances) {
            chances.pick(rng.random_range(0..chances.total()))
        } else {
            NO_OUTCOME
        };
        g.make(mv, outcome);
    }
    if g.game_end().is_some() {
        return None;
    }
    Some(g)
}

/// The FEN without its move counters: two walks reaching the same position are one opening.
fn dedup_key(fen: &str) -> String {
    fen.split_whitespace()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Generate the suite: (FEN, score) in candidate order, `count` of them at most.
pub fn generate(cfg: &GenConfig) -> Result<Vec<(String, i32)>, String> {
    let start = cfg.variant.startpos();
    // Every worker thread allocates its own table: say so once, up front, if one cannot be.
    Searcher::try_new(cfg.hash_mb).map_err(|e| format!("--hash {}: {e}", cfg.hash_mb))?;
    // Seen positions -> the lowest candidate index that reached them: keeps the output
    // independent of which thread got there first.
    let seen: DashMap<String, usize> = DashMap::new();
    let mut kept: Vec<(usize, String, i32)> = Vec::new();
    let batch = (cfg.count * 2).max(64);
    let max_candidates = cfg.count * 500 + 10_000;
    let mut next = 0usize;
    const CHUNK: usize = 8;
    while kept.len() < cfg.count {
        if next >= max_candidates {
            return Err(format!(
                "only {} positions within {} cp after {next} candidates; raise --threshold or lower --plies",
                kept.len(),
                cfg.threshold
            ));
        }
        let ids: Vec<usize> = (next..next + batch).collect();
        next += batch;
        let found: Vec<(usize, String, i32)> = ids
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let searcher = Searcher::new(cfg.hash_mb);
                chunk
                    .iter()
                    .filter_map(|&id| {
                        with_game!(&start, g => candidate(g, id, cfg, &seen, &searcher))
                            .map(|(fen, score)| (id, fen, score))
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut found: Vec<_> = found
            .into_iter()
            .filter(|(id, fen, _)| seen.get(&dedup_key(fen)).map(|v| *v) == Some(*id))
            .collect();
        found.sort_by_key(|(id, _, _)| *id);
        kept.extend(found);
        log::info!("genopenings: {} kept after {next} candidates", kept.len());
    }
    kept.truncate(cfg.count);
    Ok(kept.into_iter().map(|(_, f, s)| (f, s)).collect())
}

/// One candidate: its random walk, dedup (first reach by the lowest index wins), and the
/// search; `Some` when kept.
fn candidate<G: Game>(
    start: &G,
    id: usize,
    cfg: &GenConfig,
    seen: &DashMap<String, usize>,
    searcher: &Searcher,
) -> Option<(String, i32)> {
    let mut rng = StdRng::seed_from_u64(mix(cfg.seed, id as u64));
    let w = random_walk(start.clone(), cfg.plies, &mut rng)?;
    let fen = w.to_fen();
    let mut first = true;
    seen.entry(dedup_key(&fen))
        .and_modify(|v| {
            if *v < id {
                first = false;
            } else {
                *v = id;
            }
        })
        .or_insert(id);
    if !first {
        return None;
    }
    // Cleared before every search so a score does not depend on what this thread
    // searched before: the same seed gives the same file whatever the thread count.
    searcher.clear();
    let limits = Limits {
        depth: Some(cfg.depth),
        nodes: (cfg.nodes > 0).then_some(cfg.nodes),
        ..Default::default()
    };
    let r = searcher.search(&w, &limits, &Options::default(), &|_| {});
    r.best.as_ref()?;
    (r.score.abs() <= cfg.threshold).then_some((fen, r.score))
}

/// `--lines`: each line's moves from the start, checked by the rules code, to a FEN.
pub fn convert_lines(variant: Variant, path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let moves = match l.split_once(':') {
            Some((_, m)) => m,
            None => l,
        };
        let mut pos = variant.startpos();
        pos.apply_moves(moves.split_whitespace())
            .map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        if with_game!(&pos, g => g.game_end()).is_some() {
            return Err(format!(
                "{path}:{}: the game is over after these moves",
                i + 1
            ));
        }
        let fen = pos.to_fen();
        if out.contains(&fen) {
            return Err(format!("{path}:{}: duplicate position {fen}", i + 1));
        }
        out.push(fen);
    }
    Ok(out)
}

/// The `tinh genopenings --help` text.
pub fn gen_help() -> String {
    GEN_HELP.replace("{variants}", &Variant::names_for_help())
}

pub fn genopenings(args: &[String]) -> Result<(), String> {
    let Some(cfg) = parse_gen_args(args)? else {
        print!("{}", gen_help());
        return Ok(());
    };
    let t0 = std::time::Instant::now();
    let fens: Vec<String> = match &cfg.lines {
        Some(path) => convert_lines(cfg.variant, path)?,
        None => {
            let run = || generate(&cfg);
            let res = if let Some(threads) = cfg.threads {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| e.to_string())?
                    .install(run)
            } else {
                run()
            }?;
            res.into_iter().map(|(f, _)| f).collect()
        }
    };
    let mut text = String::new();
    for f in &fens {
        text.push_str(f);
        text.push('\n');
    }
    match &cfg.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        None => print!("{text}"),
    }
    eprintln!(
        "genopenings: {} positions in {:.1} s",
        fens.len(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrange_orders() {
        let l: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        assert_eq!(arrange(l.clone(), Order::Sequential, 3, 1)[0], "2");
        let a = arrange(l.clone(), Order::Random, 1, 42);
        let b = arrange(l.clone(), Order::Random, 1, 42);
        let c = arrange(l.clone(), Order::Random, 1, 43);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut s = a.clone();
        s.sort();
        assert_eq!(s, l);
    }

    #[test]
    fn dedup_key_drops_counters() {
        assert_eq!(
            dedup_key("8/8/8/8/8/8/8/K6k w - - 12 40"),
            "8/8/8/8/8/8/8/K6k w - -"
        );
    }
}
