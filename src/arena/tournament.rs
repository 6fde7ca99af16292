//! The match itself: checks the engines start, schedules the games (game pairs with
//! colours swapped on one opening; every pair of engines meets in a round robin), runs them
//! on `--concurrency` worker threads that each own their engine processes, and prints the
//! finished-game lines, the statistics and the SPRT decision; writes the PGN in game order.

use super::args::MatchConfig;
use super::engine::Engine;
use super::openings::{self, mix};
use super::pgn;
use super::referee::{self, GameJob, GameRecord};
use super::stats::{self, SprtDecision, Tally};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

/// What a match produced (also what the tests look at through stdout).
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub names: Vec<String>,
    /// Tally of the lower-indexed engine against the other, per encounter (i, j), i < j.
    pub encounters: BTreeMap<(usize, usize), Tally>,
    pub games_played: usize,
    pub sprt: Option<SprtDecision>,
}

/// Engine names: `name=`, else the engine's `id name`, else the program's file name;
/// repeated names get `-2`, `-3` ... so the standings stay apart.
fn engine_names(cfg: &MatchConfig) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for (i, spec) in cfg.engines.iter().enumerate() {
        let provisional = spec.name.clone().unwrap_or_else(|| {
            std::path::Path::new(&spec.cmd)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| format!("engine{}", i + 1))
        });
        // Start it once: a program that cannot start or speak the protocol stops the match
        // before any game (as cutechess does); failures later only lose games.
        let e = referee::start_engine(cfg, spec, &provisional)?;
        let name = match (&spec.name, &e.id_name) {
            (Some(n), _) => n.clone(),
            (None, Some(id)) => id.clone(),
            (None, None) => provisional,
        };
        e.quit();
        names.push(name);
    }
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let mut cand = n.clone();
        let mut k = 2;
        while out.contains(&cand) {
            cand = format!("{n}-{k}");
            k += 1;
        }
        out.push(cand);
    }
    Ok(out)
}

/// All games of the match, in order.
fn schedule(cfg: &MatchConfig, openings: &[String]) -> Vec<GameJob> {
    let n = cfg.engines.len();
    let mut pairings = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            pairings.push((i, j));
        }
    }
    let mut jobs = Vec::new();
    let mut pair_id = 0usize;
    for round in 0..cfg.rounds as usize {
        for &(i, j) in &pairings {
            for k in 0..cfg.games as usize {
                if k % 2 == 0 && !jobs.is_empty() {
                    pair_id += 1;
                }
                let players = if k % 2 == 0 { [i, j] } else { [j, i] };
                jobs.push(GameJob {
                    number: jobs.len() + 1,
                    round: round + 1,
                    players,
                    start_fen: openings[pair_id % openings.len()].clone(),
                    // Both games of a pair draw the same reveal stream: fairer pairs.
                    seed: mix(cfg.seed, pair_id as u64),
                    pair: pair_id,
                });
            }
        }
    }
    jobs
}

fn time_control_tag(cfg: &MatchConfig, job: &GameJob) -> String {
    let tcs: Vec<String> = job
        .players
        .iter()
        .map(|&i| match cfg.engines[i].clock() {
            Some(tc) => tc.pgn(),
            None => "-".to_string(),
        })
        .collect();
    if tcs[0] == tcs[1] {
        tcs[0].clone()
    } else {
        format!("{}:{}", tcs[0], tcs[1])
    }
}

/// Standings of a round robin: each engine's score against the field.
fn standings(names: &[String], enc: &BTreeMap<(usize, usize), Tally>) -> String {
    let mut per: Vec<Tally> = vec![Tally::default(); names.len()];
    for (&(i, j), t) in enc {
        per[i].wins += t.wins;
        per[i].losses += t.losses;
        per[i].draws += t.draws;
        per[j].wins += t.losses;
        per[j].losses += t.wins;
        per[j].draws += t.draws;
    }
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| per[b].score().total_cmp(&per[a].score()));
    let w = names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    let mut s = format!(
        "{:>4} {:<w$} {:>8} {:>7} {:>6} {:>7} {:>6}\n",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    );
    for (rank, &i) in order.iter().enumerate() {
        let t = &per[i];
        let (elo, m) = match t.elo_trinomial() {
            Some(e) => (e.elo, e.margin()),
            None => (0.0, f64::INFINITY),
        };
        s.push_str(&format!(
            "{:>4} {:<w$} {:>8.1} {:>7.1} {:>6} {:>6.1}% {:>5.1}%\n",
            rank + 1,
            names[i],
            elo,
            m,
            t.games(),
            100.0 * t.score(),
            100.0 * t.draw_ratio()
        ));
    }
    s
}

fn report(cfg: &MatchConfig, names: &[String], enc: &BTreeMap<(usize, usize), Tally>) -> String {
    let mut s = String::new();
    for (&(i, j), t) in enc {
        s.push_str(&stats::summary(&names[i], &names[j], t, cfg.sprt.as_ref()));
    }
    if names.len() > 2 {
        s.push_str(&standings(names, enc));
    }
    s
}

/// The match's start positions in playing order: its opening suite arranged as the flags
/// say, or the variant's start position.
pub(super) fn opening_list(cfg: &MatchConfig) -> Result<Vec<String>, String> {
    Ok(match &cfg.openings {
        Some(spec) => openings::arrange(
            openings::load(cfg.variant, &spec.file)?,
            spec.order,
            spec.start,
            cfg.seed,
        ),
        None => vec![cfg.variant.startpos().to_fen()],
    })
}

/// Run the whole match; prints as it goes.
pub fn run(cfg: &MatchConfig) -> Result<MatchSummary, String> {
    let names = engine_names(cfg)?;
    let opening_list = opening_list(cfg)?;
    let jobs = schedule(cfg, &opening_list);
    let total = jobs.len();
    let mut pgn_file = match &cfg.pgnout {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open {p}: {e}"))?,
        ),
        None => None,
    };
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<_>>());
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut summary = MatchSummary {
        names: names.clone(),
        ..Default::default()
    };
    let n = names.len();
    for i in 0..n {
        for j in i + 1..n {
            summary.encounters.insert((i, j), Tally::default());
        }
    }
    let out = std::io::stdout();
    std::thread::scope(|scope| -> Result<(), String> {
        for w in 0..cfg.concurrency.min(total.max(1)) {
            let tx = tx.clone();
            let (queue, stop, names) = (&queue, &stop, &names);
            std::thread::Builder::new()
                .name(format!("game-{w}"))
                .spawn_scoped(scope, move || {
                    let mut slots: Vec<Option<Engine>> =
                        (0..cfg.engines.len()).map(|_| None).collect();
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let Some(job) = queue.lock().unwrap().pop_front() else {
                            break;
                        };
                        eprintln!(
                            "Started game {} of {total} ({} vs {})",
                            job.number, names[job.players[0]], names[job.players[1]]
                        );
                        if let Some(rec) = referee::play_game(cfg, names, &job, &mut slots, stop)
                            && tx.send(rec).is_err()
                        {
                            break;
                        }
                    }
                    for e in slots.into_iter().flatten() {
                        e.quit();
                    }
                })
                .map_err(|e| format!("cannot start worker: {e}"))?;
        }
        drop(tx);
        let mut pending_pgn: BTreeMap<usize, String> = BTreeMap::new();
        let mut next_pgn = 1usize;
        let mut first_of_pair: HashMap<usize, f64> = HashMap::new();
        for rec in rx.iter() {
            if stop.load(Ordering::Relaxed) {
                // Decided already: games that end afterwards are not counted.
                continue;
            }
            let job = &rec.job;
            summary.games_played += 1;
            let mut o = out.lock();
            let _ = writeln!(
                o,
                "Finished game {} ({} vs {}): {} {{{}}}",
                job.number, rec.names[0], rec.names[1], rec.result, rec.reason
            );
            // Points of the lower-indexed engine of the encounter.
            let (i, j) = (
                job.players[0].min(job.players[1]),
                job.players[0].max(job.players[1]),
            );
            let pts = if job.players[0] == i {
                rec.first_points
            } else {
                1.0 - rec.first_points
            };
            let tally = summary.encounters.get_mut(&(i, j)).expect("encounter");
            tally.add_game(pts);
            let pair_done = match first_of_pair.remove(&job.pair) {
                Some(a) => {
                    tally.add_pair(a, pts);
                    true
                }
                None => {
                    first_of_pair.insert(job.pair, pts);
                    false
                }
            };
            if pgn_file.is_some() {
                pending_pgn.insert(
                    job.number,
                    pgn::write_game(
                        &rec,
                        cfg.variant,
                        &cfg.event,
                        &cfg.site,
                        &time_control_tag(cfg, job),
                    ),
                );
            }
            if let Some(f) = pgn_file.as_mut() {
                while let Some(text) = pending_pgn.remove(&next_pgn) {
                    f.write_all(text.as_bytes())
                        .map_err(|e| format!("cannot write PGN: {e}"))?;
                    next_pgn += 1;
                }
            }
            let mut decided = None;
            // The SPRT is judged on complete pairs (pentanomial), as fastchess does.
            if let Some(sp) = cfg.sprt.as_ref().filter(|_| pair_done) {
                let (llr, _) = sp.llr(tally);
                let d = sp.decide(llr);
                if d != SprtDecision::Continue {
                    decided = Some(d);
                }
            }
            let done = summary.games_played;
            if n == 2 {
                let t = &summary.encounters[&(0, 1)];
                eprintln!(
                    "Progress: {done}/{total} games, {} {:.1} - {:.1} {} (W-L-D {}-{}-{})",
                    names[0],
                    t.points(),
                    t.games() as f64 - t.points(),
                    names[1],
                    t.wins,
                    t.losses,
                    t.draws
                );
            } else {
                eprintln!("Progress: {done}/{total} games");
            }
            if decided.is_none()
                && cfg.ratinginterval > 0
                && done.is_multiple_of(cfg.ratinginterval as usize)
                && done < total
            {
                let _ = write!(o, "{}", report(cfg, &names, &summary.encounters));
            }
            let _ = o.flush();
            if let Some(d) = decided {
                summary.sprt = Some(d);
                stop.store(true, Ordering::SeqCst);
                let _ = writeln!(
                    o,
                    "SPRT: {} accepted after {done} games; stopping the match",
                    if d == SprtDecision::H1 { "H1" } else { "H0" }
                );
            }
        }
        // Games finished after an SPRT stop may leave holes: write what is left in order.
        if let Some(f) = pgn_file.as_mut() {
            for text in pending_pgn.values() {
                f.write_all(text.as_bytes())
                    .map_err(|e| format!("cannot write PGN: {e}"))?;
            }
        }
        Ok(())
    })?;
    let mut o = out.lock();
    let _ = write!(o, "{}", report(cfg, &names, &summary.encounters));
    let _ = writeln!(o, "Finished match");
    let _ = o.flush();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::args;

    #[test]
    fn schedule_pairs_and_round_robin() {
        let w: Vec<String> =
            "--engine cmd=a --engine cmd=b --engine cmd=c --games 4 --rounds 2 --nodes 1"
                .split_whitespace()
                .map(String::from)
                .collect();
        let cfg = args::parse(&w).unwrap().unwrap();
        let ops: Vec<String> = (0..100).map(|i| format!("fen{i}")).collect();
        let jobs = schedule(&cfg, &ops);
        assert_eq!(jobs.len(), 2 * 3 * 4);
        for pair in jobs.chunks(2) {
            assert_eq!(pair[0].start_fen, pair[1].start_fen);
            assert_eq!(pair[0].seed, pair[1].seed);
            assert_eq!(pair[0].players, [pair[1].players[1], pair[1].players[0]]);
            assert_eq!(pair[0].pair, pair[1].pair);
        }
        let fens: std::collections::HashSet<_> = jobs.iter().map(|j| &j.start_fen).collect();
        assert_eq!(fens.len(), 12);
        assert_eq!(jobs[5].number, 6);
    }
}
