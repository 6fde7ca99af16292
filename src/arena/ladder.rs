//! `tinh ladder`: the rating ladder that measures the strength options. For each game it
//! plays, with `tinh match`, each rung against its neighbours (random mover, levels 1-5,
//! full strength) and each rung against the random mover, then fits every rating to all
//! the games at once (`rating.rs`, the random mover fixed at 0) and prints one table per
//! game, with the time each rung took per move and the calibration line the game's
//! `StrengthScale` is written from.

use super::aligned;
use super::args::{self, TimeControl};
use super::pgn::{self, PgnGame};
use super::rating::{self, Fit, PairResult};
use super::referee::{GameRecord, Termination};
use super::tournament;
use crate::search::skill::{FULL_SKILL, LEVEL_NAMES, RANDOM_SKILL, StrengthScale};
use crate::seed::mix;
use crate::variant::Variant;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The largest `Seed` an engine option takes (the protocol's `Seed` range).
const MAX_ENGINE_SEED: u64 = crate::protocol::options::MAX_SEED as u64;

#[derive(clap::Args, Debug, Clone)]
pub struct LadderArgs {
    /// Games of each pairing of neighbours on the ladder (even, 2..=100000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub games: u32,
    /// Games of each rung above level 1 against the random mover (even, 0..=100000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub anchor_games: u32,
    /// Time control of every game, as `tinh match --tc` ([MOVES/]TIME[+INC]).
    #[arg(long, default_value = "8+0.08")]
    pub tc: String,
    /// Play every move to this many nodes instead of a clock (1..=10^9): full strength
    /// searches this many, each level the fewer of this and its own node budget. Results
    /// then do not depend on the machine's load, and a game replays exactly under a seed.
    #[arg(long, conflicts_with = "tc", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub nodes: Option<u64>,
    /// Games played at the same time (1..=256).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Seed of the opening order, the reveals and the engines' choices: the same seed
    /// replays the same ladder.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Folder of the opening suites, one `<variant>.epd` per game.
    #[arg(long, default_value = "openings")]
    pub openings: String,
    /// Rate these `Skill Level` values (0..=19) instead of the five levels: the
    /// measurement a game's calibration is written from, e.g. `--skills 0,4,8,12,16`.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(i64).range(0..FULL_SKILL))]
    pub skills: Vec<i64>,
    /// Also rate the engine at these `UCI_Elo` values (with `UCI_LimitStrength`), each
    /// against the two rungs around it, to check the calibration, e.g. `--elo 700,1300`.
    #[arg(long, value_delimiter = ',')]
    pub elo: Vec<i64>,
    /// Append every game to DIR/ladder-VARIANT.pgn (DIR is created if missing).
    #[arg(long, value_name = "DIR")]
    pub pgnout: Option<String>,
    /// The engine to rate (default: this program).
    #[arg(long)]
    pub engine: Option<String>,
    /// Adjudicate a draw after this many moves by each side (1..=100000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub maxmoves: u32,
    /// Play nothing: fit the ratings again from the games of these PGN files (written by
    /// `--pgnout`), so that several runs of the same ladder pool into one table, e.g.
    /// `--refit run1/ladder-chess.pgn run2/ladder-chess.pgn`.
    #[arg(long, value_name = "PGN", num_args = 1..)]
    pub refit: Vec<String>,
}

/// One player of the ladder.
#[derive(Clone, Debug)]
struct Player {
    /// Engine name in the match (no spaces).
    name: String,
    /// What the table calls it.
    label: String,
    /// `setoption` name and value that make this player.
    options: Vec<(String, String)>,
    /// Its skill (-1 the random mover, 20 full strength); `None` for a `UCI_Elo` check.
    skill: Option<f64>,
    /// Where the game's calibration puts it (for placing the `UCI_Elo` checks).
    expected: f64,
}

impl Player {
    fn random() -> Player {
        Player {
            name: "random".into(),
            label: "random mover".into(),
            options: vec![opt("Skill Level", RANDOM_SKILL.to_string())],
            skill: Some(RANDOM_SKILL as f64),
            expected: 0.0,
        }
    }

    /// `Level` `n` (1..=5).
    fn level(n: usize, scale: &StrengthScale) -> Player {
        Player {
            name: format!("level-{n}"),
            label: format!("level {n} ({})", LEVEL_NAMES[n - 1]),
            options: vec![opt("Level", n.to_string())],
            skill: Some(scale.levels[n - 1]),
            expected: scale.elo_for_skill(scale.levels[n - 1]),
        }
    }

    fn skill(s: i64, scale: &StrengthScale) -> Player {
        Player {
            name: format!("skill-{s}"),
            label: format!("Skill Level {s}"),
            options: vec![opt("Skill Level", s.to_string())],
            skill: Some(s as f64),
            expected: scale.elo_for_skill(s as f64),
        }
    }

    fn full() -> Player {
        Player {
            name: "full".into(),
            label: "full strength".into(),
            options: Vec::new(),
            skill: Some(FULL_SKILL as f64),
            // Above every value: its strength depends on the clock.
            expected: f64::INFINITY,
        }
    }

    /// A `UCI_Elo` check.
    fn elo(elo: i64) -> Player {
        Player {
            name: format!("elo-{elo}"),
            label: format!("UCI_Elo {elo}"),
            options: vec![
                opt("UCI_LimitStrength", "true".into()),
                opt("UCI_Elo", elo.to_string()),
            ],
            skill: None,
            expected: elo as f64,
        }
    }

    /// The player a ladder game names `name` (its PGN `White` or `Black`).
    fn from_name(name: &str, scale: &StrengthScale) -> Option<Player> {
        let number = |prefix: &str| name.strip_prefix(prefix)?.parse::<i64>().ok();
        match name {
            "random" => Some(Player::random()),
            "full" => Some(Player::full()),
            _ => {
                if let Some(n) =
                    number("level-").filter(|&n| (1..=LEVEL_NAMES.len() as i64).contains(&n))
                {
                    Some(Player::level(n as usize, scale))
                } else if let Some(s) = number("skill-").filter(|s| (0..FULL_SKILL).contains(s)) {
                    Some(Player::skill(s, scale))
                } else {
                    number("elo-").map(Player::elo)
                }
            }
        }
    }
}

fn opt(name: &str, value: String) -> (String, String) {
    (name.to_string(), value)
}

/// The games one pairing is to play.
#[derive(Clone, Copy, Debug)]
struct Pairing {
    a: usize,
    b: usize,
    games: u32,
}

/// The ladder of one game: players (the rungs first, in rising strength, then the
/// `UCI_Elo` checks) and pairings.
struct Plan {
    variant: Variant,
    players: Vec<Player>,
    rungs: usize,
    pairings: Vec<Pairing>,
}

impl Plan {
    /// Each player's place by its name in the games.
    fn index(&self) -> HashMap<&str, usize> {
        self.players
            .iter()
            .enumerate()
            .map(|(i, pl)| (pl.name.as_str(), i))
            .collect()
    }
}

fn plan(variant: Variant, a: &LadderArgs) -> Plan {
    let scale: &StrengthScale = with_game!(variant.startpos(), g => g.strength_scale());
    let mut players = vec![Player::random()];
    if a.skills.is_empty() {
        players.extend((1..=LEVEL_NAMES.len()).map(|n| Player::level(n, scale)));
    } else {
        let mut skills = a.skills.clone();
        skills.sort_unstable();
        skills.dedup();
        players.extend(skills.into_iter().map(|s| Player::skill(s, scale)));
    }
    players.push(Player::full());
    let rungs = players.len();
    let even = |g: u32| g.div_ceil(2) * 2;
    let mut pairings: Vec<Pairing> = (0..rungs - 1)
        .map(|k| Pairing {
            a: k + 1,
            b: k,
            games: even(a.games),
        })
        .collect();
    if a.anchor_games > 0 {
        pairings.extend((2..rungs).map(|k| Pairing {
            a: k,
            b: 0,
            games: even(a.anchor_games),
        }));
    }
    for &elo in &a.elo {
        let p = players.len();
        // The rungs just below and above the value on the game's calibration.
        let above = (1..rungs)
            .find(|&k| players[k].expected > elo as f64)
            .unwrap_or(rungs - 1);
        players.push(Player::elo(elo));
        for k in [above - 1, above] {
            pairings.push(Pairing {
                a: p,
                b: k,
                games: even(a.games / 2),
            });
        }
    }
    Plan {
        variant,
        players,
        rungs,
        pairings,
    }
}

/// What the games said about one player's clock use.
#[derive(Clone, Copy, Debug, Default)]
struct TimeUse {
    moves: u64,
    total_ms: u64,
    max_ms: u64,
    games: u64,
    time_losses: u64,
}

/// Progress over the whole run, with an estimate of the time left from each player's
/// thinking time so far.
struct Progress {
    start: Instant,
    done: u64,
    total: u64,
    last_line: Instant,
}

impl Progress {
    fn say(&mut self, what: &str, left: Duration, force: bool) {
        if !force && self.last_line.elapsed() < Duration::from_secs(10) {
            return;
        }
        self.last_line = Instant::now();
        eprintln!(
            "ladder {what} | {}/{} games, {} elapsed, about {} left",
            self.done,
            self.total,
            clock(self.start.elapsed()),
            clock(left)
        );
    }
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `tinh ladder`: every game of `variants` in turn, a table for each as it completes.
pub fn run(variants: &[Variant], a: &LadderArgs) -> Result<(), String> {
    if !a.refit.is_empty() {
        return refit(variants, a);
    }
    let limit = match a.nodes {
        Some(n) => format!("{n} nodes per move"),
        None => TimeControl::parse(&a.tc)?
            .ok_or("--tc: the ladder needs a clock (not inf), or give --nodes")?
            .pgn(),
    };
    let engine = match &a.engine {
        Some(e) => e.clone(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find this program to run it as the engine: {e}"))?
            .to_string_lossy()
            .into_owned(),
    };
    let plans: Vec<Plan> = variants.iter().map(|&v| plan(v, a)).collect();
    if let Some(dir) = &a.pgnout {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--pgnout: cannot create the folder {dir}: {e}"))?;
    }
    for p in &plans {
        let file = opening_file(a, p.variant);
        if !std::path::Path::new(&file).is_file() {
            return Err(format!(
                "opening suite {file} not found: run from the repository root, or give \
                 --openings DIR with one <variant>.epd per game"
            ));
        }
    }
    let mut progress = Progress {
        start: Instant::now(),
        done: 0,
        total: plans
            .iter()
            .flat_map(|p| p.pairings.iter())
            .map(|q| q.games as u64)
            .sum(),
        last_line: Instant::now(),
    };
    eprintln!(
        "ladder: {} games over {} game(s) at {}; progress every 10 s on stderr, a table per game on stdout",
        progress.total,
        plans.len(),
        limit
    );
    for (gi, p) in plans.iter().enumerate() {
        let rest: u64 = plans[gi + 1..]
            .iter()
            .flat_map(|q| q.pairings.iter())
            .map(|q| q.games as u64)
            .sum();
        let (results, times) = play_plan(p, a, &engine, &mut progress, rest)?;
        let fit = rating::fit(p.players.len(), 0, 0.0, &results)?;
        print!(
            "{}",
            table(p, &results, &fit, &times, &format!("at {limit}"))
        );
    }
    Ok(())
}

/// `--refit`: one table per game from the ladder games of PGN files, nothing played.
/// The players are the names the games give (`random`, `level-N`, `skill-N`, `full`,
/// `elo-N`), read with this build's calibration; the rungs in rising skill, then the
/// `UCI_Elo` checks.
fn refit(variants: &[Variant], a: &LadderArgs) -> Result<(), String> {
    let mut games = Vec::new();
    for f in &a.refit {
        let text =
            std::fs::read_to_string(f).map_err(|e| format!("--refit: cannot read {f}: {e}"))?;
        games.extend(pgn::parse(&text).map_err(|e| format!("--refit: {f}: {e}"))?);
    }
    let source = format!("read from {}", a.refit.join(", "));
    let mut tables = 0;
    for &variant in variants {
        let of_game: Vec<&PgnGame> = games
            .iter()
            .filter(|g| g.tag("Variant") == Some(variant.name()))
            .collect();
        if of_game.is_empty() {
            continue;
        }
        let scale: &StrengthScale = with_game!(variant.startpos(), g => g.strength_scale());
        let mut players: Vec<Player> = Vec::new();
        for g in &of_game {
            for name in [g.tag("White"), g.tag("Black")].map(|n| n.unwrap_or("")) {
                if !players.iter().any(|p| p.name == name) {
                    players.push(Player::from_name(name, scale).ok_or_else(|| {
                        format!(
                            "--refit: {name:?} is not a ladder player (random, level-N, \
                             skill-N, full or elo-N): give PGN written by `tinh ladder --pgnout`"
                        )
                    })?);
                }
            }
        }
        if !players.iter().any(|p| p.name == "random") {
            return Err(format!(
                "--refit: no {variant} game of the random mover, the scale's zero"
            ));
        }
        let order = |p: &Player| (p.skill.is_none(), p.skill.unwrap_or(p.expected));
        players.sort_by(|x, y| order(x).partial_cmp(&order(y)).unwrap_or(Ordering::Equal));
        let plan = Plan {
            variant,
            rungs: players.iter().filter(|p| p.skill.is_some()).count(),
            pairings: Vec::new(),
            players,
        };
        let index = plan.index();
        let mut times = vec![TimeUse::default(); plan.players.len()];
        let mut pairs: Vec<PairResult> = Vec::new();
        for g in &of_game {
            let white_points = match g.result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let clock = GameClock::from_pgn(g);
            let (w, b) = (index[clock.names[0]], index[clock.names[1]]);
            let (hi, lo, points) = if w > b {
                (w, b, white_points)
            } else {
                (b, w, 1.0 - white_points)
            };
            match pairs.iter_mut().find(|r| r.a == hi && r.b == lo) {
                Some(r) => {
                    r.points += points;
                    r.games += 1;
                }
                None => pairs.push(PairResult {
                    a: hi,
                    b: lo,
                    points,
                    games: 1,
                }),
            }
            note_times(&plan, &index, &clock, &mut times);
        }
        let fit = rating::fit(plan.players.len(), 0, 0.0, &pairs)?;
        print!("{}", table(&plan, &pairs, &fit, &times, &source));
        tables += 1;
    }
    if tables == 0 {
        return Err("--refit: no game of the asked variant(s) in these files".into());
    }
    Ok(())
}

fn opening_file(a: &LadderArgs, v: Variant) -> String {
    format!("{}/{}.epd", a.openings.trim_end_matches('/'), v.name())
}

/// Play every pairing of one game's ladder; the results by pairing and each player's
/// clock use.
fn play_plan(
    p: &Plan,
    a: &LadderArgs,
    engine: &str,
    progress: &mut Progress,
    games_after: u64,
) -> Result<(Vec<PairResult>, Vec<TimeUse>), String> {
    let openings = opening_count(&opening_file(a, p.variant))?;
    let index = p.index();
    let mut times = vec![TimeUse::default(); p.players.len()];
    let mut results = Vec::new();
    for (pi, pairing) in p.pairings.iter().enumerate() {
        let (pa, pb) = (&p.players[pairing.a], &p.players[pairing.b]);
        let what = format!("{}: {} vs {}", p.variant, pa.label, pb.label);
        let mut result = PairResult {
            a: pairing.a,
            b: pairing.b,
            points: 0.0,
            games: 0,
        };
        // An opening is played once per colour in a pairing: past the suite's length,
        // the next chunk gets new engine seeds, so no game repeats another.
        let mut pairs_left = pairing.games / 2;
        let mut chunk = 0u64;
        while pairs_left > 0 {
            let pairs = pairs_left.min(openings);
            pairs_left -= pairs;
            let id = ((pi as u64) << 32) | chunk;
            chunk += 1;
            let words = match_words(p, pairing, a, engine, pairs, mix(a.seed, id));
            let cfg = args::parse(&words)?.ok_or("internal error: the ladder asked for help")?;
            let mut done = result.games;
            let summary = tournament::run_quietly(&cfg, &mut |rec: &GameRecord| {
                note_times(p, &index, &GameClock::played(rec), &mut times);
                done += 1;
                progress.done += 1;
                let left = time_left(p, pi, done, &times, games_after);
                progress.say(&format!("{what} {done}/{}", pairing.games), left, false);
            })?;
            let t = summary.encounters.get(&(0, 1)).copied().unwrap_or_default();
            result.points += t.points();
            result.games += t.games();
        }
        results.push(result);
        let left = time_left(p, pi + 1, 0, &times, games_after);
        progress.say(
            &format!("{what}: {:.1}/{} points", result.points, result.games),
            left,
            true,
        );
    }
    Ok((results, times))
}

fn opening_count(file: &str) -> Result<u32, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let n = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    Ok((n as u32).max(1))
}

/// The `tinh match` command line of one chunk of a pairing.
fn match_words(
    p: &Plan,
    pairing: &Pairing,
    a: &LadderArgs,
    engine: &str,
    pairs: u32,
    seed: u64,
) -> Vec<String> {
    let mut w: Vec<String> = Vec::new();
    for (k, &i) in [pairing.a, pairing.b].iter().enumerate() {
        let pl = &p.players[i];
        w.push("--engine".into());
        w.push(format!("cmd={engine}"));
        w.push(format!("name={}", pl.name));
        for (n, v) in &pl.options {
            w.push(format!("option.{n}={v}"));
        }
        w.push(format!(
            "option.Seed={}",
            1 + mix(seed, k as u64) % MAX_ENGINE_SEED
        ));
    }
    let file = opening_file(a, p.variant);
    for x in [
        "--variant",
        p.variant.name(),
        "--games",
        "2",
        "--rounds",
        &pairs.to_string(),
        "--concurrency",
        &a.concurrency.to_string(),
        "--seed",
        &seed.to_string(),
        "--openings",
        &format!("file={file}"),
        "order=random",
        "--maxmoves",
        &a.maxmoves.to_string(),
        "--ratinginterval",
        "0",
        "--event",
        "Tinh ladder",
    ] {
        w.push(x.to_string());
    }
    match a.nodes {
        Some(n) => w.extend(["--nodes".to_string(), n.to_string()]),
        None => w.extend(["--tc".to_string(), a.tc.clone()]),
    }
    if let Some(dir) = &a.pgnout {
        w.push("--pgnout".into());
        w.push(format!(
            "{}/ladder-{}.pgn",
            dir.trim_end_matches('/'),
            p.variant.name()
        ));
    }
    w
}

/// Add one game's thinking times (and a time loss) to its two players' clock use.
/// What the clock columns need of one game: one just played, or one read back from PGN.
struct GameClock<'a> {
    names: [&'a str; 2],
    start_fen: &'a str,
    /// Thinking time of each move, in order.
    move_ms: Vec<u64>,
    time_forfeit: bool,
    /// The referee's reason for the end ("White loses on time", ...).
    reason: &'a str,
}

impl<'a> GameClock<'a> {
    fn played(rec: &'a GameRecord) -> Self {
        GameClock {
            names: [&rec.names[0], &rec.names[1]],
            start_fen: &rec.start_fen,
            move_ms: rec.moves.iter().map(|m| m.time_ms).collect(),
            time_forfeit: rec.termination == Termination::TimeForfeit,
            reason: &rec.reason,
        }
    }

    /// A game as `pgn.rs` writes it: each move's comment ends with its time in seconds
    /// (`{+0.35/9 0.112s}`), and the comment after the last move is the reason.
    fn from_pgn(g: &'a PgnGame) -> Self {
        let seconds = |c: &String| {
            let t = c.split_whitespace().last()?.strip_suffix('s')?;
            t.parse::<f64>().ok().filter(|t| t.is_finite() && *t >= 0.0)
        };
        GameClock {
            names: [g.tag("White").unwrap_or(""), g.tag("Black").unwrap_or("")],
            start_fen: g.tag("FEN").unwrap_or(""),
            move_ms: g
                .comments
                .iter()
                .take(g.moves.len())
                .map(|c| (seconds(c).unwrap_or(0.0) * 1000.0).round() as u64)
                .collect(),
            time_forfeit: g.tag("Termination") == Some(Termination::TimeForfeit.pgn()),
            reason: g.comments.get(g.moves.len()).map_or("", |c| c.as_str()),
        }
    }
}

fn note_times(p: &Plan, index: &HashMap<&str, usize>, game: &GameClock, times: &mut [TimeUse]) {
    let first = p
        .variant
        .from_fen(game.start_fen)
        .map(|pos| with_game!(&pos, g => g.side_to_move()))
        .unwrap_or(0);
    for (side, name) in game.names.iter().enumerate() {
        let Some(&i) = index.get(name) else {
            continue;
        };
        let t = &mut times[i];
        t.games += 1;
        for (ply, &ms) in game.move_ms.iter().enumerate() {
            if (first + ply) % 2 == side {
                t.moves += 1;
                t.total_ms += ms;
                t.max_ms = t.max_ms.max(ms);
            }
        }
        // The referee names the side that ran out, also when the game is then drawn
        // because the other side could not have won.
        let ran_out = format!("{} loses on time", colour(p, side));
        if game.time_forfeit && game.reason.contains(&ran_out) {
            t.time_losses += 1;
        }
    }
}

/// Seconds of thinking a game of pairing `q` is expected to take: its two players' mean
/// so far, `fallback` for a player not seen yet.
fn expected_game_seconds(q: &Pairing, times: &[TimeUse], fallback: f64) -> f64 {
    [q.a, q.b]
        .iter()
        .map(|&i| {
            let t = times[i];
            if t.games > 0 {
                t.total_ms as f64 / 1000.0 / t.games as f64
            } else {
                fallback / 2.0
            }
        })
        .sum()
}

/// The time left: the games still to play in this game's pairings from `pi` on (minus
/// `done` of pairing `pi`), each by its players' pace, and `games_after` of later games
/// at the mean pace.
fn time_left(p: &Plan, pi: usize, done: u64, times: &[TimeUse], games_after: u64) -> Duration {
    let (games, secs) = times
        .iter()
        .fold((0u64, 0u64), |(g, ms), t| (g + t.games, ms + t.total_ms));
    // Each game counts in both of its players' uses: the mean game is twice the mean use.
    let mean = if games > 0 {
        2.0 * secs as f64 / 1000.0 / games as f64
    } else {
        1.0
    };
    let mut left = games_after as f64 * mean;
    for (k, q) in p.pairings.iter().enumerate().skip(pi) {
        let n = if k == pi {
            (q.games as u64).saturating_sub(done)
        } else {
            q.games as u64
        };
        left += n as f64 * expected_game_seconds(q, times, mean);
    }
    Duration::from_secs_f64(left.max(0.0))
}

fn colour(p: &Plan, side: usize) -> &'static str {
    with_game!(p.variant.startpos(), g => g.side_names())[side]
}

/// The table of one game's ladder: every rung with its rating, interval, gap to the rung
/// below and clock use; the `UCI_Elo` checks; the calibration line.
fn table(p: &Plan, results: &[PairResult], fit: &Fit, times: &[TimeUse], source: &str) -> String {
    let games: u64 = results.iter().map(|r| r.games).sum();
    let mut s = format!(
        "\n{}: {games} games {source}; ratings fitted to all of them, the random mover at 0, \
         with 95% intervals\n\n",
        p.variant
    );
    let interval = |i: usize| {
        let m = fit.margin(i);
        format!("[{:.0}, {:.0}]", fit.elo[i] - m, fit.elo[i] + m)
    };
    let clock_use = |i: usize| {
        let t = times[i];
        let mean = t.total_ms as f64 / t.moves.max(1) as f64;
        [
            t.games.to_string(),
            format!("{mean:.1}"),
            t.max_ms.to_string(),
            t.time_losses.to_string(),
        ]
    };
    let mut rows = Vec::new();
    for i in 0..p.rungs {
        let pl = &p.players[i];
        let mut row = vec![
            pl.label.clone(),
            pl.skill.map_or("-".into(), |v| format!("{v}")),
            format!("{:.0}", fit.elo[i]),
        ];
        if i == 0 {
            row.extend(["anchor", "-", "-"].map(String::from));
        } else {
            let vs = results
                .iter()
                .find(|r| r.a == i && r.b == i - 1)
                .map_or("-".into(), |r| format!("{:.1}/{}", r.points, r.games));
            row.push(interval(i));
            row.push(format!(
                "{:+.0} ± {:.0}",
                fit.elo[i] - fit.elo[i - 1],
                fit.gap_margin(i, i - 1)
            ));
            row.push(vs);
        }
        row.extend(clock_use(i));
        rows.push(row);
    }
    s.push_str(&aligned(
        &[
            "player",
            "skill",
            "Elo",
            "95% interval",
            "gap to the rung below",
            "points vs it",
            "games",
            "ms/move",
            "max ms",
            "time losses",
        ],
        &rows,
    ));
    if p.players.len() > p.rungs {
        s.push_str("\nUCI_Elo checks, each played against the two rungs around its value:\n\n");
        let rows: Vec<Vec<String>> = (p.rungs..p.players.len())
            .map(|i| {
                let mut row = vec![
                    p.players[i].label.clone(),
                    format!("{:.0}", fit.elo[i]),
                    interval(i),
                    format!("{:+.0}", fit.elo[i] - p.players[i].expected),
                ];
                row.extend(clock_use(i));
                row
            })
            .collect();
        s.push_str(&aligned(
            &[
                "setting",
                "Elo",
                "95% interval",
                "measured - asked",
                "games",
                "ms/move",
                "max ms",
                "time losses",
            ],
            &rows,
        ));
    }
    let points: Vec<String> = (0..p.rungs - 1)
        .filter_map(|i| {
            let skill = p.players[i].skill?;
            Some(format!("({skill:.1}, {:.0})", fit.elo[i]))
        })
        .collect();
    s.push_str(&format!(
        "\ncalibration of {} (StrengthScale ratings: (skill, Elo) of the random mover and each weakened rung):\n    \
         &[{}]\n",
        p.variant,
        points.join(", ")
    ));
    s
}
