//! `tinh tune`: fits every weight of a game's evaluation to self-play data, Texel's way:
//! minimise the mean squared error between a target (the game's result, or a blend
//! λ·result + (1-λ)·sigmoid(search score)) and sigmoid(K·q/400), where q is the quiet
//! score: the static evaluation of the leaf of a captures-only search from the position
//! (its principal variation played out). K is fitted first, to the results, with the
//! starting weights, and then kept.
//!
//! Method: the evaluation is a black box (the game's own `Evaluator` and its flat
//! `Weights`), so nothing is written twice per game. Each round measures, at every kept
//! position, the evaluation's slope in every weight by central differences (±`STEP`),
//! which turns the evaluation into a linear model around the current weights (exact for
//! the linear terms, a tangent for the others: king safety's square, tapering, maxima).
//! The epochs (full passes, one Adam step each) then run on that model in parallel, at a
//! few million positions a second; the next round re-measures at the rounded weights,
//! recomputing the quiet leaves, so the curved terms are followed too. Each round's start
//! reports the true loss (real evaluation); a round whose held-out loss is worse than the
//! previous round's ends the tuning with the previous weights. Sums are taken over fixed
//! chunks in a fixed order, so the result does not depend on the thread count.
//!
//! Positions used: those the search played from, except when the side to move is in
//! check, the move played was noisy (a capture or promotion), the search score is a mate
//! score, or the quiet leaf ends the game. Captures-only search skips moves with chance
//! (a reveal has no single leaf).

use super::data::{self, GameData, replay};
use crate::eval::{Evaluator, Weights};
use crate::game::{ChanceList, Game, INFINITY, MATE, MATE_BOUND, MoveList, NO_OUTCOME, Score};
use crate::progress::Progress;
use crate::variant::Variant;
use rayon::prelude::*;

/// Finite-difference step, in weight units: large enough that integer rounding in the
/// evaluation (tapering divides by 24) is small beside it.
const STEP: i32 = 8;
/// Plies of captures the quiet-leaf search looks at.
const QUIET_DEPTH: u32 = 8;
/// Positions per chunk of the parallel sums (fixed, so sums do not depend on threads).
const CHUNK: usize = 2048;
const LN10: f64 = std::f64::consts::LN_10;

#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Data files written by `tinh datagen` (all of one game).
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<String>,
    /// Write the tuned weights here as a weights text (what the EvalFile option loads).
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Also write them as Rust source defining `WEIGHTS`, e.g. src/mathchess/weights.rs.
    #[arg(long, value_name = "FILE")]
    pub rust: Option<String>,
    /// Start from this weights text instead of the compiled-in weights.
    #[arg(long, value_name = "FILE")]
    pub eval: Option<String>,
    /// Rounds (each re-measures the evaluation at the current weights), 0..=100; 0 only
    /// measures the loss of the starting weights.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub rounds: u32,
    /// Epochs per round (full passes over the positions, one Adam step each), 1..=100000.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// Weight λ of the game result in the target, 0..=1 (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Adam step size, in weight units, 0.001..=100.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// L2 penalty, 0..=1: adds this times the sum of the squared changes of the
    /// `--l2-on` weights from where the tune started to the loss it fits (not to the loss
    /// it reports), so a weight that few positions speak for stays near its start (1e-8 on
    /// `psq` kept Reveal Chess's piece-square tables within ±19 instead of ±48). 0, the
    /// default, is no penalty.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// The weights `--l2` applies to: names or name prefixes, comma separated (`psq`);
    /// every tuned weight when not given.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub l2_on: Vec<String>,
    /// Weights to keep as they are: names or name prefixes, comma separated (`phase,tempo`).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub freeze: Vec<String>,
    /// Percent of the games held out to measure over-fitting, 0..=50.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=50))]
    pub validation: u32,
    /// Threads, 1..=256 (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `tinh tune`. `variant`: the `--variant` given, which must match the data.
pub fn run(variant: Option<Variant>, args: TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda: {} is out of range 0..=1", args.lambda));
    }
    if !(0.001..=100.0).contains(&args.lr) {
        return Err(format!("--lr: {} is out of range 0.001..=100", args.lr));
    }
    if !(0.0..=1.0).contains(&args.l2) {
        return Err(format!("--l2: {} is out of range 0..=1", args.l2));
    }
    let threads = match args.threads {
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    crate::protocol::check_spin("Threads", threads as i64)
        .map_err(|e| format!("--threads: {e}"))?;
    let mut games: Vec<GameData> = Vec::new();
    let mut file_variant: Option<Variant> = None;
    for path in &args.data {
        let d = data::read(path)?;
        if d.truncated_bytes > 0 {
            log::warn!("{path}: ignored an incomplete last record (an interrupted run)");
        }
        if let Some(v) = file_variant
            && v != d.variant
        {
            return Err(format!("{path} holds {} games, not {v}", d.variant));
        }
        file_variant = Some(d.variant);
        games.extend(d.games);
    }
    let v = file_variant.expect("at least one data file");
    if let Some(flag) = variant
        && flag != v
    {
        return Err(format!("the data is {v}, not {flag} (--variant)"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let start = v.startpos();
    pool.install(|| with_game!(&start, g => tune(g, &args, &games, threads)))
}

/// One kept position, linearised: eval(w) ≈ base + Σ coef·(w - w_at), first player's view.
#[derive(Clone, Copy)]
struct Sample {
    /// First player's result, 0 / 0.5 / 1.
    result: f32,
    /// Search score, first player's view (centipawns).
    search: f32,
    base: f32,
    target: f32,
    first: u32,
    len: u32,
}

/// A set of samples and their slopes (weight index, d eval / d weight).
#[derive(Default)]
struct Set {
    samples: Vec<Sample>,
    idx: Vec<u16>,
    coef: Vec<f32>,
}

impl Set {
    fn append(&mut self, mut other: Set) {
        let off = self.idx.len() as u32;
        for s in &mut other.samples {
            s.first += off;
        }
        self.samples.append(&mut other.samples);
        self.idx.append(&mut other.idx);
        self.coef.append(&mut other.coef);
    }

    fn set_targets(&mut self, k: f64, lambda: f64) {
        for s in &mut self.samples {
            s.target =
                (lambda * s.result as f64 + (1.0 - lambda) * sigmoid(k, s.search as f64)) as f32;
        }
    }

    /// The model's score of sample `s` at weights `w0 + delta`.
    #[inline]
    fn predict(&self, s: &Sample, delta: &[f64]) -> f64 {
        let (a, b) = (s.first as usize, (s.first + s.len) as usize);
        let mut e = s.base as f64;
        for (&i, &c) in self.idx[a..b].iter().zip(&self.coef[a..b]) {
            e += c as f64 * delta[i as usize];
        }
        e
    }

    /// Mean squared error at `w0 + delta`, and its gradient when asked.
    fn loss(&self, k: f64, delta: &[f64], grad: bool) -> (f64, Vec<f64>) {
        let n = self.samples.len().max(1) as f64;
        let parts: Vec<(f64, Vec<f64>)> = self
            .samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut g = if grad {
                    vec![0.0; delta.len()]
                } else {
                    Vec::new()
                };
                let mut sum = 0.0;
                for s in chunk {
                    let p = sigmoid(k, self.predict(s, delta));
                    let err = s.target as f64 - p;
                    sum += err * err;
                    if grad {
                        let d = -2.0 * err * p * (1.0 - p) * k * LN10 / 400.0;
                        let a = s.first as usize;
                        for j in a..a + s.len as usize {
                            g[self.idx[j] as usize] += d * self.coef[j] as f64;
                        }
                    }
                }
                (sum, g)
            })
            .collect();
        let mut total = 0.0;
        let mut g = vec![0.0; if grad { delta.len() } else { 0 }];
        for (s, pg) in parts {
            total += s;
            for (a, b) in g.iter_mut().zip(pg) {
                *a += b;
            }
        }
        g.iter_mut().for_each(|x| *x /= n);
        (total / n, g)
    }
}

/// 1 / (1 + 10^(-K·s/400)): an expected score from a centipawn score.
fn sigmoid(k: f64, s: f64) -> f64 {
    1.0 / (1.0 + (-k * s * LN10 / 400.0).exp())
}

fn tune<G: Game>(
    start: &G,
    args: &TuneArgs,
    games: &[GameData],
    threads: usize,
) -> Result<(), String> {
    let mut weights = G::Eval::default_weights(start);
    if let Some(path) = &args.eval {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        weights = weights
            .with_text(&text)
            .map_err(|e| format!("{path}: {e}"))?;
    }
    let initial = weights.clone();
    let names = weights.names();
    let active: Vec<bool> = named_weights(&names, &args.freeze, "--freeze")?
        .iter()
        .map(|f| !f)
        .collect();
    // `--l2` per weight: what the penalty's gradient multiplies.
    let l2: Vec<f64> = if args.l2_on.is_empty() {
        active.clone()
    } else {
        named_weights(&names, &args.l2_on, "--l2-on")?
    }
    .iter()
    .map(|&on| if on { args.l2 } else { 0.0 })
    .collect();
    eprintln!(
        "tune: {} {} games, {} of {} weights tuned, {} rounds of {} epochs, lambda {}, {threads} threads",
        games.len(),
        start.variant_name(),
        active.iter().filter(|&&a| a).count(),
        names.len(),
        args.rounds,
        args.epochs,
        args.lambda
    );
    let mut k = 0.0;
    let mut prev: Option<(<G::Eval as Evaluator<G>>::Weights, f64)> = None;
    let mut summary = String::new();
    for round in 0..=args.rounds {
        let last = round == args.rounds;
        let (mut train, mut valid) =
            linearize_all(start, games, &weights, &active, args.validation, !last)?;
        if round == 0 {
            k = fit_k(&train);
            eprintln!(
                "tune: {} positions to fit, {} held out; K = {k:.4}",
                train.samples.len(),
                valid.samples.len()
            );
        }
        train.set_targets(k, args.lambda);
        valid.set_targets(k, args.lambda);
        let zero = vec![0.0; names.len()];
        let lt = train.loss(k, &zero, false).0;
        let lv = valid.loss(k, &zero, false).0;
        eprintln!("tune: round {round}: loss {lt:.6}, held out {lv:.6} (real evaluation)");
        if let Some((w, prev_lv)) = &prev
            && !valid.samples.is_empty()
            && lv > *prev_lv
        {
            eprintln!(
                "tune: the held-out loss rose: keeping the weights of round {}",
                round - 1
            );
            weights = w.clone();
            break;
        }
        summary = format!("K = {k:.4}, loss {lt:.6}, held-out loss {lv:.6}");
        if last {
            break;
        }
        prev = Some((weights.clone(), lv));
        let w0: Vec<f64> = weights.to_flat().iter().map(|&x| x as f64).collect();
        let prior = Prior {
            l2: &l2,
            moved: (w0.iter().zip(initial.to_flat()))
                .map(|(w, i)| w - i as f64)
                .collect(),
        };
        let delta = adam(&train, &valid, k, args, &active, &prior, round);
        let flat: Vec<i32> = w0
            .iter()
            .zip(&delta)
            .map(|(w, d)| (w + d).round() as i32)
            .collect();
        if flat == weights.to_flat() {
            // The next round would measure the same weights and repeat this one exactly.
            eprintln!("tune: round {} changed no weight: done", round + 1);
            break;
        }
        weights.set_flat(&flat);
        write_outputs(args, &weights, &summary)?;
    }
    write_outputs(args, &weights, &summary)?;
    report_changes(&initial, &weights);
    Ok(())
}

/// Which weights `prefixes` name (each a name, or a prefix before `[` / `.`); `flag`
/// names the option in the error for a name that matches none.
fn named_weights(names: &[String], prefixes: &[String], flag: &str) -> Result<Vec<bool>, String> {
    let named = |n: &str, f: &str| {
        n == f || (n.starts_with(f) && matches!(n.as_bytes().get(f.len()), Some(b'[' | b'.')))
    };
    for f in prefixes {
        if !names.iter().any(|n| named(n, f)) {
            return Err(format!("{flag}: no weight named '{f}'"));
        }
    }
    Ok(names
        .iter()
        .map(|n| prefixes.iter().any(|f| named(n, f)))
        .collect())
}

/// Every kept position of every game, linearised at `weights` (`slopes` false: the base
/// scores only, to measure the loss). `validation` percent of the games, spread evenly,
/// are held out.
fn linearize_all<G: Game>(
    start: &G,
    games: &[GameData],
    weights: &<G::Eval as Evaluator<G>>::Weights,
    active: &[bool],
    validation: u32,
    slopes: bool,
) -> Result<(Set, Set), String> {
    let flat = weights.to_flat();
    let shifted = |d: i32| -> Vec<_> {
        (0..flat.len())
            .map(|j| {
                let mut f = flat.clone();
                f[j] += d;
                let mut w = weights.clone();
                w.set_flat(&f);
                w
            })
            .collect()
    };
    let (plus, minus) = if slopes {
        (shifted(STEP), shifted(-STEP))
    } else {
        (Vec::new(), Vec::new())
    };
    let total: u64 = games.iter().map(|g| g.plies.len() as u64).sum();
    let progress = std::sync::Mutex::new(Progress::new("positions", total));
    let done = std::sync::atomic::AtomicU64::new(0);
    let parts: Vec<(bool, Set)> = games
        .par_iter()
        .enumerate()
        .map(|(n, game)| {
            let mut set = Set::default();
            replay(start, game, |g, mv, ply, _| {
                if g.in_check() || g.is_noisy(mv) || (ply.score as Score).abs() >= MATE_BOUND {
                    return;
                }
                let sign = if g.side_to_move() == 0 { 1.0 } else { -1.0 };
                let first = set.idx.len() as u32;
                let Some(base) = quiet_leaf(g, weights, |leaf, base_sign| {
                    for j in (0..plus.len()).filter(|&j| active[j]) {
                        let ep = G::Eval::evaluate_by(leaf, &plus[j]);
                        let em = G::Eval::evaluate_by(leaf, &minus[j]);
                        if ep != em {
                            set.idx.push(j as u16);
                            set.coef
                                .push(base_sign * (ep - em) as f32 / (2 * STEP) as f32);
                        }
                    }
                }) else {
                    return;
                };
                set.samples.push(Sample {
                    result: game.first_player_score() as f32,
                    search: sign * ply.score as f32,
                    base,
                    target: 0.0,
                    first,
                    len: set.idx.len() as u32 - first,
                });
            })
            .map_err(|e| format!("game {}: {e}", n + 1))?;
            let d = done.fetch_add(
                game.plies.len() as u64,
                std::sync::atomic::Ordering::Relaxed,
            );
            if let Ok(mut p) = progress.try_lock() {
                p.update(d + game.plies.len() as u64, "measuring");
            }
            let v = validation as usize;
            Ok((n * v / 100 != (n + 1) * v / 100, set))
        })
        .collect::<Result<_, String>>()?;
    if let Ok(mut p) = progress.lock() {
        p.finish(total, "measured");
    }
    let (mut train, mut valid) = (Set::default(), Set::default());
    for (held_out, set) in parts {
        if held_out {
            valid.append(set);
        } else {
            train.append(set);
        }
    }
    Ok((train, valid))
}

/// Play out the captures-only search's principal variation from `g`, call `slopes` on the
/// leaf with the sign that turns the leaf's side-to-move view into the first player's,
/// and return the leaf's evaluation (first player's view); `None` when the leaf ends the
/// game. `g` is left as it was.
fn quiet_leaf<G: Game>(
    g: &mut G,
    weights: &<G::Eval as Evaluator<G>>::Weights,
    slopes: impl FnOnce(&G, f32),
) -> Option<f32> {
    let mut ev = G::Eval::new(g, weights.clone());
    let mut pv = Vec::new();
    captures_search(g, &mut ev, -INFINITY, INFINITY, QUIET_DEPTH, &mut pv);
    for &m in &pv {
        g.make(m, NO_OUTCOME);
    }
    let out = g.immediate_result().is_none().then(|| {
        let sign = if g.side_to_move() == 0 { 1.0 } else { -1.0 };
        let base = G::Eval::new(g, weights.clone()).evaluate(g) as f32 * sign;
        slopes(g, sign);
        base
    });
    for _ in &pv {
        g.unmake();
    }
    out
}

/// Alpha-beta over captures and promotions only (standing pat on the evaluation), with its
/// principal variation in `pv`. Moves with chance are skipped.
fn captures_search<G: Game>(
    g: &mut G,
    ev: &mut G::Eval,
    mut alpha: Score,
    beta: Score,
    depth: u32,
    pv: &mut Vec<G::Move>,
) -> Score {
    pv.clear();
    if let Some(o) = g.immediate_result() {
        return match o {
            crate::game::Outcome::Win => MATE,
            crate::game::Outcome::Loss => -MATE,
            crate::game::Outcome::Draw => 0,
        };
    }
    let stand = ev.evaluate(g);
    if stand >= beta || depth == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut best = stand;
    let mut list = MoveList::new();
    g.generate_noisy(&mut list);
    let mut moves: Vec<(Score, G::Move)> =
        list.iter().map(|&m| (ev.noisy_order(g, m), m)).collect();
    moves.sort_by_key(|&(o, _)| std::cmp::Reverse(o));
    let mut chances = ChanceList::default();
    let mut child = Vec::new();
    for (_, m) in moves {
        chances.clear();
        if g.chance(m, &mut chances) {
            continue;
        }
        g.make(m, NO_OUTCOME);
        ev.push(g);
        let s = -captures_search(g, ev, -beta, -alpha, depth - 1, &mut child);
        g.unmake();
        ev.pop();
        if s > best {
            best = s;
            if s > alpha {
                alpha = s;
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&child);
                if s >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The K that best predicts the results from the base scores (golden-section search; the
/// error is unimodal in K).
fn fit_k(set: &Set) -> f64 {
    let loss = |k: f64| -> f64 {
        let parts: Vec<f64> = set
            .samples
            .par_chunks(CHUNK)
            .map(|c| {
                c.iter()
                    .map(|s| (s.result as f64 - sigmoid(k, s.base as f64)).powi(2))
                    .sum()
            })
            .collect();
        parts.iter().sum::<f64>() / set.samples.len().max(1) as f64
    };
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.01f64, 10.0f64);
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// `--l2`'s pull towards the starting weights in one round: its factor per weight, and
/// how far each weight's linearisation point lies from where the tune started.
struct Prior<'a> {
    l2: &'a [f64],
    moved: Vec<f64>,
}

/// The epochs of one round: Adam on the linear model, from its linearisation point, on
/// the data's loss plus the `prior`'s penalty.
/// Returns the change of every weight: after the last epoch, or after the epoch with the
/// lowest held-out loss when there are held-out positions (early stopping).
fn adam(
    train: &Set,
    valid: &Set,
    k: f64,
    args: &TuneArgs,
    active: &[bool],
    prior: &Prior,
    round: u32,
) -> Vec<f64> {
    let n = active.len();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut delta = vec![0.0; n];
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let mut best = (f64::INFINITY, delta.clone(), 0);
    let every = (args.epochs / 10).max(1);
    for epoch in 1..=args.epochs {
        let (loss, grad) = train.loss(k, &delta, true);
        let held = valid.loss(k, &delta, false).0;
        if !valid.samples.is_empty() && held < best.0 {
            best = (held, delta.clone(), epoch - 1);
        }
        if epoch % every == 0 || epoch == 1 {
            eprintln!(
                "tune: round {} epoch {epoch:>5}/{}  loss {loss:.6}  held out {held:.6}",
                round + 1,
                args.epochs
            );
        }
        for j in (0..n).filter(|&j| active[j]) {
            let g = grad[j] + 2.0 * prior.l2[j] * (prior.moved[j] + delta[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            delta[j] -= args.lr * mh / (vh.sqrt() + eps);
        }
    }
    if valid.samples.is_empty() {
        return delta;
    }
    let held = valid.loss(k, &delta, false).0;
    if held < best.0 {
        return delta;
    }
    eprintln!(
        "tune: round {}: lowest held-out loss {:.6} after epoch {}: keeping that",
        round + 1,
        best.0,
        best.2
    );
    best.1
}

/// Write the weights text (and the Rust source when asked), with how they were made.
fn write_outputs<W: Weights>(args: &TuneArgs, w: &W, summary: &str) -> Result<(), String> {
    let command = super::command_line();
    let text = format!("# Tuned by: {command}\n# {summary}\n{}", w.to_text());
    std::fs::write(&args.out, text).map_err(|e| format!("cannot write {}: {e}", args.out))?;
    if let Some(path) = &args.rust {
        let src = super::source::rust_source(w, &command, summary);
        std::fs::write(path, src).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}

/// The weights that changed, old and new, on stderr.
fn report_changes<W: Weights>(old: &W, new: &W) {
    let names = old.names();
    let (a, b) = (old.to_flat(), new.to_flat());
    let changed: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    eprintln!("tune: {} of {} weights changed", changed.len(), a.len());
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
    for i in changed {
        eprintln!("  {:<width$}  {:>6} -> {:>6}", names[i], a[i], b[i]);
    }
}
