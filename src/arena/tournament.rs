//! The match itself: checks the engines start, schedules the games (game pairs with
//! colours swapped on one opening; every pair of engines meets in a round robin), runs them
//! on `--concurrency` worker threads that each own their engine processes, and prints the
//! finished-game lines, the statistics and the SPRT decision; writes the PGN in game order.

use super::args::MatchConfig;
use super::engine::Engine;
use super::openings;
use super::pgn;
use super::referee::{self, GameJob, GameRecord};
use super::stats::{self, SprtDecision, Tally};
use crate::seed::mix;
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
                    // Both games of a pair share the seed, so each side gets the same reveal
                    // draws in both (`RevealStream`): fairer pairs.
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
    play(cfg, true, &mut |_| {})
}

/// Run the whole match without a word on stdout or stderr (the PGN is still written);
/// `on_game` sees every game as it finishes, for callers that report in their own way
/// (`tinh ladder`).
pub fn run_quietly(
    cfg: &MatchConfig,
    on_game: &mut dyn FnMut(&GameRecord),
) -> Result<MatchSummary, String> {
    play(cfg, false, on_game)
}

fn play(
    cfg: &MatchConfig,
    verbose: bool,
    on_game: &mut dyn FnMut(&GameRecord),
) -> Result<MatchSummary, String> {
    let names = engine_names(cfg)?;
    let opening_list = opening_list(cfg)?;
    let jobs = schedule(cfg, &opening_list);
    let total = jobs.len();
    let pgn_file = match &cfg.pgnout {
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
    let mut results = Results::new(cfg, &names, total, pgn_file, verbose);
    std::thread::scope(|scope| -> Result<(), String> {
        for w in 0..cfg.concurrency.min(total.max(1)) {
            let tx = tx.clone();
            let (queue, stop, names) = (&queue, &stop, &names);
            std::thread::Builder::new()
                .name(format!("game-{w}"))
                .spawn_scoped(scope, move || {
                    play_games(cfg, names, queue, stop, tx, total, verbose)
                })
                .map_err(|e| format!("cannot start worker: {e}"))?;
        }
        drop(tx);
        for rec in rx.iter() {
            if stop.load(Ordering::Relaxed) {
                // Decided already: games that end afterwards are not counted.
                continue;
            }
            on_game(&rec);
            results.add(&rec, &stop)?;
        }
        results.write_remaining_pgn()
    })?;
    if verbose {
        let mut o = std::io::stdout().lock();
        let _ = write!(o, "{}", report(cfg, &names, &results.summary.encounters));
        let _ = writeln!(o, "Finished match");
        let _ = o.flush();
    }
    Ok(results.summary)
}

/// One worker thread: takes games off the queue until it is empty or the match stops,
/// with its own engine processes (started on first use, restarted when they die).
fn play_games(
    cfg: &MatchConfig,
    names: &[String],
    queue: &Mutex<VecDeque<GameJob>>,
    stop: &AtomicBool,
    tx: mpsc::Sender<GameRecord>,
    total: usize,
    verbose: bool,
) {
    let mut slots: Vec<Option<Engine>> = (0..cfg.engines.len()).map(|_| None).collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(job) = queue.lock().unwrap().pop_front() else {
            break;
        };
        if verbose {
            eprintln!(
                "Started game {} of {total} ({} vs {})",
                job.number, names[job.players[0]], names[job.players[1]]
            );
        }
        if let Some(rec) = referee::play_game(cfg, names, &job, &mut slots, stop)
            && tx.send(rec).is_err()
        {
            break;
        }
    }
    for e in slots.into_iter().flatten() {
        e.quit();
    }
}

/// The finished games as they come in: tallies, pairs for the SPRT, the PGN in game order,
/// and what a person watching reads (finished-game lines, progress, statistics) when
/// `verbose`.
struct Results<'a> {
    verbose: bool,
    cfg: &'a MatchConfig,
    names: &'a [String],
    total: usize,
    summary: MatchSummary,
    pgn_file: Option<std::fs::File>,
    /// PGN texts of games finished before an earlier-numbered one, by game number.
    pending_pgn: BTreeMap<usize, String>,
    next_pgn: usize,
    /// Points of the first game of each pair whose second game is still running.
    first_of_pair: HashMap<usize, f64>,
}

impl<'a> Results<'a> {
    fn new(
        cfg: &'a MatchConfig,
        names: &'a [String],
        total: usize,
        pgn_file: Option<std::fs::File>,
        verbose: bool,
    ) -> Self {
        let mut summary = MatchSummary {
            names: names.to_vec(),
            ..Default::default()
        };
        let n = names.len();
        for i in 0..n {
            for j in i + 1..n {
                summary.encounters.insert((i, j), Tally::default());
            }
        }
        Results {
            verbose,
            cfg,
            names,
            total,
            summary,
            pgn_file,
            pending_pgn: BTreeMap::new(),
            next_pgn: 1,
            first_of_pair: HashMap::new(),
        }
    }

    /// Count one finished game and print what it changes; raise `stop` when the SPRT
    /// decides.
    fn add(&mut self, rec: &GameRecord, stop: &AtomicBool) -> Result<(), String> {
        let (cfg, names) = (self.cfg, self.names);
        let job = &rec.job;
        self.summary.games_played += 1;
        let mut o = std::io::stdout().lock();
        if self.verbose {
            let _ = writeln!(
                o,
                "Finished game {} ({} vs {}): {} {{{}}}",
                job.number, rec.names[0], rec.names[1], rec.result, rec.reason
            );
        }
        let pair_done = self.tally(rec);
        self.write_pgn(rec)?;
        let mut decided = None;
        // The SPRT is judged on complete pairs (pentanomial), as fastchess does.
        if let Some(sp) = cfg.sprt.as_ref().filter(|_| pair_done) {
            let (i, j) = encounter(job);
            let (llr, _) = sp.llr(&self.summary.encounters[&(i, j)]);
            let d = sp.decide(llr);
            if d != SprtDecision::Continue {
                decided = Some(d);
            }
        }
        let done = self.summary.games_played;
        if self.verbose {
            self.progress(done);
        }
        if self.verbose
            && decided.is_none()
            && cfg.ratinginterval > 0
            && done.is_multiple_of(cfg.ratinginterval as usize)
            && done < self.total
        {
            let _ = write!(o, "{}", report(cfg, names, &self.summary.encounters));
        }
        let _ = o.flush();
        if let Some(d) = decided {
            self.summary.sprt = Some(d);
            stop.store(true, Ordering::SeqCst);
            if !self.verbose {
                return Ok(());
            }
            let _ = writeln!(
                o,
                "SPRT: {} accepted after {done} games; stopping the match",
                if d == SprtDecision::H1 { "H1" } else { "H0" }
            );
        }
        Ok(())
    }

    /// Add the game to its encounter's tally; whether it completes a pair.
    fn tally(&mut self, rec: &GameRecord) -> bool {
        let job = &rec.job;
        // Points of the lower-indexed engine of the encounter.
        let (i, j) = encounter(job);
        let pts = if job.players[0] == i {
            rec.first_points
        } else {
            1.0 - rec.first_points
        };
        let tally = self.summary.encounters.get_mut(&(i, j)).expect("encounter");
        tally.add_game(pts);
        match self.first_of_pair.remove(&job.pair) {
            Some(a) => {
                tally.add_pair(a, pts);
                true
            }
            None => {
                self.first_of_pair.insert(job.pair, pts);
                false
            }
        }
    }

    /// Queue the game's PGN and write every game whose turn has come (game order).
    fn write_pgn(&mut self, rec: &GameRecord) -> Result<(), String> {
        let Some(f) = self.pgn_file.as_mut() else {
            return Ok(());
        };
        let cfg = self.cfg;
        self.pending_pgn.insert(
            rec.job.number,
            pgn::write_game(
                rec,
                cfg.variant,
                &cfg.event,
                &cfg.site,
                &time_control_tag(cfg, &rec.job),
            ),
        );
        while let Some(text) = self.pending_pgn.remove(&self.next_pgn) {
            f.write_all(text.as_bytes())
                .map_err(|e| format!("cannot write PGN: {e}"))?;
            self.next_pgn += 1;
        }
        Ok(())
    }

    /// Games finished after an SPRT stop may leave holes: write what is left in order.
    fn write_remaining_pgn(&mut self) -> Result<(), String> {
        if let Some(f) = self.pgn_file.as_mut() {
            for text in self.pending_pgn.values() {
                f.write_all(text.as_bytes())
                    .map_err(|e| format!("cannot write PGN: {e}"))?;
            }
        }
        Ok(())
    }

    /// The progress line on stderr: the score so far in a two-engine match.
    fn progress(&self, done: usize) {
        let (names, total) = (self.names, self.total);
        if names.len() == 2 {
            let t = &self.summary.encounters[&(0, 1)];
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
    }
}

/// The encounter a game belongs to: its two engines, lower index first.
fn encounter(job: &GameJob) -> (usize, usize) {
    (
        job.players[0].min(job.players[1]),
        job.players[0].max(job.players[1]),
    )
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
