//! `tinh spsa`: tunes an engine's numeric options by SPSA (simultaneous perturbation
//! stochastic approximation), the way fishtest tunes Stockfish. Each iteration k draws a
//! random sign δ_i = ±1 per parameter, plays one game pair (one opening, colours swapped)
//! between the engine with θ + c_k·δ and the engine with θ − c_k·δ, and moves every
//! parameter by a_k/c_k · (score of θ+ minus score of θ−) · δ_i. The step sizes follow
//! fishtest's schedule: c_k = c/k^γ and a_k = a/(A + k)^α, with c and a set so that the
//! last iteration perturbs by `c_end` and its step is `r_end`·c_end² per point of result.
//!
//! Games are played by the match runner's referee (`referee::play_game`) with the match's
//! flags (`--variant`, `--tc`/`--nodes`, `--openings`, adjudication ...); each engine is
//! started with its parameters as `setoption`s. The signs and the openings come from
//! `--seed`, so a run is reproducible at fixed nodes.

use super::args::{self, MatchConfig};
use super::ranges::in_range;
use super::referee::{self, GameJob};
use super::tournament;
use crate::seed::mix;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Most iterations (game pairs) one run plays.
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// One tuned parameter: its option name, range and schedule ends.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// Perturbation at the last iteration.
    pub c_end: f64,
    /// Learning rate at the last iteration (fishtest's R_end).
    pub r_end: f64,
}

impl SpsaParam {
    /// `NAME,START,MIN,MAX,C_END[,R_END]` (R_END 0.002 when left out), as fishtest lists
    /// its parameters.
    pub fn parse(s: &str) -> Result<SpsaParam, String> {
        let f: Vec<&str> = s.split(',').map(str::trim).collect();
        if !(5..=6).contains(&f.len()) || f[0].is_empty() {
            return Err(format!(
                "--param '{s}': expected NAME,START,MIN,MAX,C_END[,R_END]"
            ));
        }
        let num = |what: &str, v: &str| -> Result<f64, String> {
            in_range(&format!("--param {} {what}", f[0]), v, -1e9, 1e9)
        };
        let p = SpsaParam {
            name: f[0].to_string(),
            start: num("START", f[1])?,
            min: num("MIN", f[2])?,
            max: num("MAX", f[3])?,
            c_end: num("C_END", f[4])?,
            r_end: match f.get(5) {
                Some(v) => num("R_END", v)?,
                None => 0.002,
            },
        };
        if !(p.min <= p.start && p.start <= p.max) {
            return Err(format!(
                "--param {}: START {} is not within MIN..MAX ({}..{})",
                p.name, p.start, p.min, p.max
            ));
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            return Err(format!("--param {}: C_END and R_END must be > 0", p.name));
        }
        Ok(p)
    }

    /// The integer an engine is given for value `v` (rounded, within the range).
    fn setting(&self, v: f64) -> i64 {
        v.clamp(self.min, self.max).round() as i64
    }
}

/// A whole run's settings.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    pub params: Vec<SpsaParam>,
    pub iterations: u32,
    pub alpha: f64,
    pub gamma: f64,
    /// Stability constant A (default: a tenth of the iterations).
    pub big_a: f64,
    /// The match flags (engines, limits, openings, seed).
    pub games: MatchConfig,
}

/// fishtest's step schedule for one parameter.
struct Schedule {
    c: f64,
    a: f64,
}

impl Schedule {
    fn new(p: &SpsaParam, cfg: &SpsaConfig) -> Self {
        let n = cfg.iterations as f64;
        Schedule {
            c: p.c_end * n.powf(cfg.gamma),
            a: p.r_end * p.c_end * p.c_end * (cfg.big_a + n).powf(cfg.alpha),
        }
    }
    /// (c_k, a_k) at iteration k (1-based).
    fn at(&self, k: u32, cfg: &SpsaConfig) -> (f64, f64) {
        let k = k as f64;
        (
            self.c / k.powf(cfg.gamma),
            self.a / (cfg.big_a + k).powf(cfg.alpha),
        )
    }
}

/// The sign of parameter `i` at iteration `k`.
fn sign(seed: u64, k: u32, i: usize) -> f64 {
    if mix(seed ^ 0x5350_5341, ((k as u64) << 16) | i as u64) & 1 == 0 {
        1.0
    } else {
        -1.0
    }
}

/// One SPSA step: θ moved by a_k/c_k · result · δ, kept in range. `result` is the pair's
/// wins minus losses of θ+ (-2..=2), as in fishtest.
fn step(theta: &mut [f64], params: &[SpsaParam], ck_ak: &[(f64, f64)], delta: &[f64], result: f64) {
    for i in 0..theta.len() {
        let (c, a) = ck_ak[i];
        theta[i] = (theta[i] + a / c * result * delta[i]).clamp(params[i].min, params[i].max);
    }
}

/// The help text of `tinh spsa`.
pub fn help() -> String {
    "tinh spsa: tune numeric engine options by SPSA, playing game pairs through the match runner.

  --engine cmd=PATH [option.NAME=VALUE ...] ...   The engine (exactly one; every other
                        `tinh match` engine key works). It plays against itself: θ+c·δ
                        against θ-c·δ.
  --param NAME,START,MIN,MAX,C_END[,R_END]        A parameter to tune (repeatable): its
                        option name, start value, range, the perturbation at the last
                        iteration and the learning rate there (default 0.002).
  --iterations N        Game pairs to play, 1..=1000000.
  --spsa-alpha X        Step decay exponent (default 0.602).
  --spsa-gamma X        Perturbation decay exponent (default 0.101).
  --spsa-A X            Stability constant (default: iterations / 10).
  Every other flag is `tinh match`'s (--variant, --tc or --nodes, --openings, --seed,
  --draw, --resign, --maxmoves ...; --games, --rounds, --sprt, --concurrency and --pgnout
  are not used).

Progress (with an ETA) goes to stderr; at the end stdout lists the tuned values as
`option.NAME=VALUE` words, ready for `tinh match --engine ...`.
"
    .to_string()
}

/// Parse `tinh spsa` arguments; `Ok(None)` for `--help`.
pub fn parse(argv: &[String]) -> Result<Option<SpsaConfig>, String> {
    let mut params = Vec::new();
    let mut iterations = None;
    let (mut alpha, mut gamma, mut big_a) = (0.602, 0.101, None);
    let mut rest: Vec<String> = Vec::new();
    let mut engine_words: Option<Vec<String>> = None;
    let mut it = argv.iter().peekable();
    let value = |flag: &str, v: Option<&String>| -> Result<String, String> {
        v.cloned().ok_or_else(|| format!("{flag} needs a value"))
    };
    while let Some(a) = it.next() {
        let flag = a.trim_start_matches('-');
        match flag {
            "help" | "h" => return Ok(None),
            "param" => params.push(SpsaParam::parse(&value(a, it.next())?)?),
            "iterations" => {
                iterations = Some(in_range(a, &value(a, it.next())?, 1, MAX_ITERATIONS)?)
            }
            "spsa-alpha" => alpha = in_range(a, &value(a, it.next())?, 0.0, 10.0)?,
            "spsa-gamma" => gamma = in_range(a, &value(a, it.next())?, 0.0, 10.0)?,
            "spsa-A" | "spsa-a" => big_a = Some(in_range(a, &value(a, it.next())?, 0.0, 1e9)?),
            "engine" => {
                if engine_words.is_some() {
                    return Err("tinh spsa takes exactly one --engine".into());
                }
                let mut words = vec![a.clone()];
                while let Some(w) = it.next_if(|w| !w.starts_with('-')) {
                    words.push(w.clone());
                }
                engine_words = Some(words);
            }
            "games" | "rounds" | "sprt" | "concurrency" | "pgnout" => {
                return Err(format!("{a} is not used by tinh spsa"));
            }
            _ => rest.push(a.clone()),
        }
    }
    let engine = engine_words.ok_or("tinh spsa needs an --engine")?;
    if params.is_empty() {
        return Err("tinh spsa needs at least one --param".into());
    }
    let iterations = iterations.ok_or("tinh spsa needs --iterations N")?;
    // The same engine twice makes a valid match; each pair then sets the parameters.
    let mut match_args = engine.clone();
    match_args.extend(engine);
    match_args.extend(rest);
    let games = args::parse(&match_args)?.ok_or("unexpected --help")?;
    Ok(Some(SpsaConfig {
        params,
        iterations,
        alpha,
        gamma,
        big_a: big_a.unwrap_or(iterations as f64 / 10.0),
        games,
    }))
}

/// Run the tuning; prints progress on stderr and the result on stdout.
pub fn run(cfg: &SpsaConfig) -> Result<Vec<f64>, String> {
    let g = &cfg.games;
    let opening_list = tournament::opening_list(g)?;
    let schedules: Vec<Schedule> = cfg.params.iter().map(|p| Schedule::new(p, cfg)).collect();
    let mut theta: Vec<f64> = cfg.params.iter().map(|p| p.start).collect();
    let names = ["plus".to_string(), "minus".to_string()];
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let (mut plus_points, mut games) = (0.0, 0u32);
    for k in 1..=cfg.iterations {
        let ck_ak: Vec<(f64, f64)> = schedules.iter().map(|s| s.at(k, cfg)).collect();
        let delta: Vec<f64> = (0..theta.len()).map(|i| sign(g.seed, k, i)).collect();
        let mut pair_cfg = g.clone();
        for (side, sgn) in [1.0, -1.0].into_iter().enumerate() {
            let spec = &mut pair_cfg.engines[side];
            for (i, p) in cfg.params.iter().enumerate() {
                let v = p.setting(theta[i] + sgn * ck_ak[i].0 * delta[i]);
                spec.options.push((p.name.clone(), v.to_string()));
            }
        }
        let fen = &opening_list[(k as usize - 1) % opening_list.len()];
        let mut slots = vec![None, None];
        let mut result = 0.0;
        for (n, players) in [[0, 1], [1, 0]].into_iter().enumerate() {
            let job = GameJob {
                number: 2 * k as usize - 1 + n,
                round: k as usize,
                players,
                start_fen: fen.clone(),
                seed: mix(g.seed, k as u64),
                pair: k as usize,
            };
            let rec = referee::play_game(&pair_cfg, &names, &job, &mut slots, &stop)
                .ok_or("the game was stopped")?;
            let plus = if players[0] == 0 {
                rec.first_points
            } else {
                1.0 - rec.first_points
            };
            result += plus - (1.0 - plus);
            plus_points += plus;
            games += 1;
        }
        for e in slots.into_iter().flatten() {
            e.quit();
        }
        step(&mut theta, &cfg.params, &ck_ak, &delta, result);
        let per_pair = started.elapsed().as_secs_f64() / k as f64;
        let eta = per_pair * (cfg.iterations - k) as f64;
        let values: Vec<String> = cfg
            .params
            .iter()
            .zip(&theta)
            .map(|(p, v)| format!("{} {v:.1}", p.name))
            .collect();
        eprintln!(
            "SPSA {k}/{} pair {result:+}  plus scored {:.1}%  ETA {}  {}",
            cfg.iterations,
            100.0 * plus_points / games as f64,
            hms(eta),
            values.join("  ")
        );
    }
    let out = std::io::stdout();
    let mut o = out.lock();
    let width = cfg.params.iter().map(|p| p.name.len()).max().unwrap_or(4);
    let _ = writeln!(o, "SPSA finished: {} game pairs", cfg.iterations);
    for (p, v) in cfg.params.iter().zip(&theta) {
        let _ = writeln!(
            o,
            "  {:<width$}  start {:>8.1}  tuned {v:>8.1}  ({})",
            p.name,
            p.start,
            p.setting(*v)
        );
    }
    let words: Vec<String> = cfg
        .params
        .iter()
        .zip(&theta)
        .map(|(p, v)| format!("option.{}={}", p.name, p.setting(*v)))
        .collect();
    let _ = writeln!(o, "{}", words.join(" "));
    Ok(theta)
}

fn hms(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `tinh spsa ARGS...`.
pub fn spsa_cli(argv: &[String]) -> Result<(), String> {
    match parse(argv)? {
        None => {
            print!("{}", help());
            Ok(())
        }
        Some(cfg) => run(&cfg).map(|_| ()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parameters_parse_with_ranges() {
        let p = SpsaParam::parse("RfpMargin,80,20,200,8").unwrap();
        assert_eq!(
            (p.start, p.min, p.max, p.c_end, p.r_end),
            (80.0, 20.0, 200.0, 8.0, 0.002)
        );
        assert_eq!(p.setting(250.4), 200);
        assert_eq!(p.setting(79.6), 80);
        for bad in [
            "RfpMargin,80,20,200",
            "RfpMargin,300,20,200,8",
            "X,1,0,2,0",
            ",1,0,2,1",
            "X,a,0,2,1",
        ] {
            assert!(SpsaParam::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn command_line_and_schedule() {
        let cfg = parse(&words(
            "--engine cmd=tinh option.Hash=16 --param RfpMargin,80,20,200,8 --param LmrBase,75,0,300,10,0.004 --iterations 100 --nodes 1000 --variant chess",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(cfg.params.len(), 2);
        assert_eq!(cfg.games.engines.len(), 2);
        assert_eq!(
            cfg.games.engines[1].options,
            vec![("Hash".to_string(), "16".to_string())]
        );
        assert_eq!(cfg.big_a, 10.0);
        // The last iteration perturbs by c_end and steps r_end * c_end^2 per point.
        let s = Schedule::new(&cfg.params[0], &cfg);
        let (c, a) = s.at(100, &cfg);
        assert!((c - 8.0).abs() < 1e-9);
        assert!((a / (c * c) - 0.002).abs() < 1e-12);
        let (c1, _) = s.at(1, &cfg);
        assert!(c1 > c);
        for bad in [
            "--param RfpMargin,80,20,200,8 --iterations 10 --nodes 1",
            "--engine cmd=a --iterations 10 --nodes 1",
            "--engine cmd=a --param RfpMargin,80,20,200,8 --nodes 1",
            "--engine cmd=a --engine cmd=b --param RfpMargin,80,20,200,8 --iterations 10",
            "--engine cmd=a --param RfpMargin,80,20,200,8 --iterations 10 --games 4",
        ] {
            assert!(parse(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn steps_follow_the_result_and_signs_and_stay_in_range() {
        let params = vec![
            SpsaParam::parse("A,50,0,100,5").unwrap(),
            SpsaParam::parse("B,50,0,100,5").unwrap(),
        ];
        let mut theta = vec![50.0, 99.0];
        step(
            &mut theta,
            &params,
            &[(5.0, 10.0), (5.0, 10.0)],
            &[1.0, 1.0],
            1.0,
        );
        assert_eq!(theta, vec![52.0, 100.0]);
        step(
            &mut theta,
            &params,
            &[(5.0, 10.0), (5.0, 10.0)],
            &[1.0, -1.0],
            -0.5,
        );
        assert_eq!(theta, vec![51.0, 100.0]);
        // Signs are seeded: the same seed gives the same draws, and both signs occur.
        let draws: Vec<f64> = (1..100).map(|k| sign(7, k, 0)).collect();
        assert_eq!(draws, (1..100).map(|k| sign(7, k, 0)).collect::<Vec<_>>());
        assert!(draws.contains(&1.0) && draws.contains(&-1.0));
    }
}
