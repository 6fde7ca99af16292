//! The referee of one game: starts (or reuses) the two engine processes, sends
//! `ucinewgame`/`position`/`go`, keeps the clocks, checks every move with Tinh's own rules
//! code (`Game::parse_choice`), draws every reveal from the pool with a seeded stream per
//! side (`Game::chance` weights; `RevealStream`), and ends the game by the rules
//! (`Game::game_end`), by adjudication, or against an engine that misbehaves (time,
//! illegal move, crash, stall).

use super::args::{EngineSpec, MatchConfig, TimeControl};
use super::engine::{Engine, EngineError, SearchInfo};
use crate::game::{ChanceList, Game, Outcome};
use crate::seed::mix;
use crate::variant::Variant;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the scheduler asks for: one game between two engines from one start position.
#[derive(Clone, Debug)]
pub struct GameJob {
    /// 1-based game number in the match.
    pub number: usize,
    pub round: usize,
    /// Engine indices: [first player (White/Blue), second player (Black/Red)].
    pub players: [usize; 2],
    pub start_fen: String,
    /// Seed of this game's reveal draws (shared by the two games of a pair).
    pub seed: u64,
    /// Index of the game pair (same opening, colours swapped) this game belongs to.
    pub pair: usize,
}

/// One side's reveal draws in a game: one 64-bit number per chance event of that side,
/// mapped onto the outcomes' total weight. Each side has its own stream, so the two games
/// of a pair (same seed, colours swapped) give a side the same draws in the same order
/// whichever moves the engines choose: its k-th reveal lands on the same type in both
/// games as long as its pool is the same, and a side's pool changes only by its own
/// reveals. With one stream for both sides, the first move that reveals nothing in one
/// game and something in the other shifts every later draw to the other side, and the
/// two games of a pair get unrelated luck. Each draw is still uniform over the pool.
struct RevealStream(StdRng);

impl RevealStream {
    fn new(game_seed: u64, side: usize) -> RevealStream {
        RevealStream(StdRng::seed_from_u64(mix(game_seed, side as u64)))
    }

    /// A number in `0..total`, uniform (multiply and shift: one draw, whatever `total`).
    fn draw(&mut self, total: u32) -> u32 {
        ((self.0.next_u64() as u128 * total as u128) >> 64) as u32
    }
}

/// How a game ended, for the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Normal,
    Adjudication,
    TimeForfeit,
    IllegalMove,
    Disconnect,
    Stall,
    /// Not over yet (a game saved while in progress, e.g. from the board).
    Unterminated,
}

impl Termination {
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Disconnect => "abandoned",
            Termination::Stall => "stalled connection",
            Termination::Unterminated => "unterminated",
        }
    }
}

#[derive(Clone, Debug)]
pub struct MoveRecord {
    /// In `position ... moves` notation, reveal letter included.
    pub text: String,
    pub info: SearchInfo,
    pub time_ms: u64,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub job: GameJob,
    /// Engine names, [first player, second player].
    pub names: [String; 2],
    pub start_fen: String,
    pub moves: Vec<MoveRecord>,
    /// Points of the first player: 1, 0.5 or 0.
    pub first_points: f64,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// `Blue wins: zero captured`, `Draw: threefold repetition`, ...
    pub reason: String,
    pub termination: Termination,
    /// PGN `Date`, `YYYY.MM.DD` (UTC).
    pub date: String,
}

/// Colour names of the two players in this variant.
pub fn colours(v: Variant) -> [&'static str; 2] {
    with_game!(v.startpos(), g => g.side_names())
}

/// Today's UTC date as PGN wants it (civil-from-days, H. Hinnant's algorithm).
pub fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}

/// Start an engine process and bring it to the point of playing: `uci`, the variant,
/// the point target and the user's options, `isready`.
pub fn start_engine(cfg: &MatchConfig, spec: &EngineSpec, name: &str) -> Result<Engine, String> {
    let mut e = Engine::spawn(spec, name)?;
    let hs = Duration::from_millis(cfg.stall_ms.max(10_000));
    e.handshake(hs)
        .map_err(|err| format!("engine '{name}' failed the uci handshake: {err:?}"))?;
    let mut setup = Vec::new();
    // A standard UCI engine playing chess may not know UCI_Variant: send it only when the
    // variant needs it or the engine advertises it.
    let standard_chess = with_game!(cfg.variant.startpos(), g => g.is_standard_chess());
    if !standard_chess || e.advertises("UCI_Variant") {
        setup.push(format!(
            "setoption name UCI_Variant value {}",
            cfg.variant.name()
        ));
    }
    for (name, value) in &cfg.rules {
        setup.push(format!("setoption name {name} value {value}"));
    }
    for (n, v) in &spec.options {
        setup.push(format!("setoption name {n} value {v}"));
    }
    for l in setup {
        e.send(&l)
            .map_err(|_| format!("engine '{name}' exited during setup"))?;
    }
    e.sync(hs)
        .map_err(|err| format!("engine '{name}' did not answer isready: {err:?}"))?;
    Ok(e)
}

/// Two distinct mutable slots of the engine table.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b);
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = v.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}

struct Clock {
    tc: TimeControl,
    remaining_ms: i64,
    moves_in_period: u32,
}

/// One side of a refereed game: an engine process, or anything else that answers a
/// position and a `go` line with a move (the tests' in-process players).
pub trait Player {
    /// Play the side to move in `position` (a `position fen ... moves ...` line) under
    /// `go` (a `go ...` line): the `bestmove` line and what the search said about itself,
    /// or the error that ended the wait (no answer by `deadline`, or the player is gone).
    fn best_move(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<(String, SearchInfo), EngineError>;
}

impl Player for Engine {
    fn best_move(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<(String, SearchInfo), EngineError> {
        self.drain();
        self.send(position)?;
        self.send(go)?;
        let mut info = SearchInfo::default();
        let line = self.wait_for("bestmove", deadline, |l| info.update(l))?;
        Ok((line, info))
    }
}

/// Everything the game loop needs that does not depend on the game type.
struct Ctx<'a> {
    cfg: &'a MatchConfig,
    job: &'a GameJob,
    colours: [&'static str; 2],
    stop: &'a AtomicBool,
}

/// A finished game's verdict, before it becomes a `GameRecord`.
struct Verdict {
    /// Winning side (0 first player, 1 second) or None for a draw.
    winner: Option<usize>,
    reason: String,
    termination: Termination,
}

impl Verdict {
    fn win(side: usize, reason: String, termination: Termination) -> Verdict {
        Verdict {
            winner: Some(side),
            reason,
            termination,
        }
    }
    fn draw(reason: String, termination: Termination) -> Verdict {
        Verdict {
            winner: None,
            reason,
            termination,
        }
    }
}

/// Play one game. `slots` holds this worker's engine processes, by engine index; a dead
/// or stalled engine is dropped from its slot (killed) and restarted for the next game.
/// Returns `None` when the match was stopped (SPRT decided) before the game ended.
pub fn play_game(
    cfg: &MatchConfig,
    names: &[String],
    job: &GameJob,
    slots: &mut [Option<Engine>],
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut pos = match cfg.variant.from_fen(&job.start_fen) {
        Ok(p) => p,
        Err(e) => {
            // Openings are checked when loaded; this is a bug guard, not a game.
            log::error!(
                "game {}: bad start FEN '{}': {e}",
                job.number,
                job.start_fen
            );
            return None;
        }
    };
    // Rule options (the point target) are rules of the game: the rules code judges
    // them (`game_end`).
    pos.set_rule_options(&cfg.rules);
    let colours = with_game!(&pos, g => g.side_names());
    let ctx = Ctx {
        cfg,
        job,
        colours,
        stop,
    };
    let start_fen = pos.to_fen();
    let mut moves = Vec::new();
    let verdict = 'game: {
        // Start engines that are not running, then the new-game handshake.
        for (side, &idx) in job.players.iter().enumerate() {
            if slots[idx].is_none() {
                match start_engine(cfg, &cfg.engines[idx], &names[idx]) {
                    Ok(e) => slots[idx] = Some(e),
                    Err(err) => {
                        log::warn!("{err}");
                        break 'game Verdict::win(
                            1 - side,
                            format!("{}'s engine could not start", colours[side]),
                            Termination::Disconnect,
                        );
                    }
                }
            }
        }
        for side in 0..2 {
            let idx = job.players[side];
            let e = slots[idx].as_mut().expect("started above");
            let r = e
                .send("ucinewgame")
                .and_then(|_| e.sync(Duration::from_millis(cfg.stall_ms)));
            if let Err(err) = r {
                slots[idx] = None;
                break 'game misbehaviour(&ctx, side, err, "readyok");
            }
        }
        let (a, b) = two_mut(slots, job.players[0], job.players[1]);
        let (Some(a), Some(b)) = (a.as_mut(), b.as_mut()) else {
            unreachable!("both engines started above")
        };
        let mut players: [&mut dyn Player; 2] = [a, b];
        let mut restart = [false; 2];
        let v = with_game!(pos, g => referee(g, &ctx, &start_fen, &mut players, &mut moves, &mut restart));
        for side in 0..2 {
            if restart[side] {
                slots[job.players[side]] = None;
            }
        }
        v?
    };
    Some(record(job, names, start_fen, moves, verdict, colours))
}

/// Play one game from `start` between two players of any kind under the match's rules
/// (clocks and limits of `cfg`'s engines `job.players`, adjudication, the seeded reveals):
/// the match runner's own game loop, open to games and players outside the variant list
/// (the tests play a game that exists only in the tests). `None` when `stop` was raised.
pub fn play_with_players<G: Game>(
    start: G,
    cfg: &MatchConfig,
    names: &[String],
    job: &GameJob,
    players: [&mut dyn Player; 2],
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let colours = start.side_names();
    let ctx = Ctx {
        cfg,
        job,
        colours,
        stop,
    };
    let start_fen = start.to_fen();
    let mut moves = Vec::new();
    let mut players = players;
    let mut restart = [false; 2];
    let verdict = referee(
        start,
        &ctx,
        &start_fen,
        &mut players,
        &mut moves,
        &mut restart,
    )?;
    Some(record(job, names, start_fen, moves, verdict, colours))
}

/// A finished game as the match records it.
fn record(
    job: &GameJob,
    names: &[String],
    start_fen: String,
    moves: Vec<MoveRecord>,
    verdict: Verdict,
    colours: [&'static str; 2],
) -> GameRecord {
    let (first_points, result) = match verdict.winner {
        Some(0) => (1.0, "1-0"),
        Some(_) => (0.0, "0-1"),
        None => (0.5, "1/2-1/2"),
    };
    let reason = match verdict.winner {
        Some(s) => format!("{} wins: {}", colours[s], verdict.reason),
        None => format!("Draw: {}", verdict.reason),
    };
    GameRecord {
        job: job.clone(),
        names: [names[job.players[0]].clone(), names[job.players[1]].clone()],
        start_fen,
        moves,
        first_points,
        result,
        reason,
        termination: verdict.termination,
        date: pgn_date(),
    }
}

/// The verdict against `side` for an engine error while waiting for `what`.
fn misbehaviour(ctx: &Ctx, side: usize, err: EngineError, what: &str) -> Verdict {
    let c = ctx.colours[side];
    match err {
        EngineError::Timeout => Verdict::win(
            1 - side,
            format!("{c}'s engine stalls (no {what} in time)"),
            Termination::Stall,
        ),
        EngineError::Disconnected => Verdict::win(
            1 - side,
            format!("{c}'s engine disconnects (crashed or exited)"),
            Termination::Disconnect,
        ),
    }
}

/// The `go` line for the side to move.
fn go_line(clocks: &[Option<Clock>; 2], spec: &EngineSpec, side: usize) -> String {
    let mut s = String::from("go");
    for (i, (t, inc)) in [("wtime", "winc"), ("btime", "binc")].iter().enumerate() {
        if let Some(c) = &clocks[i] {
            s.push_str(&format!(
                " {t} {} {inc} {}",
                c.remaining_ms.max(1),
                c.tc.inc_ms
            ));
        }
    }
    if let Some(c) = &clocks[side]
        && let Some(m) = c.tc.moves
    {
        s.push_str(&format!(" movestogo {}", m - c.moves_in_period));
    }
    if let Some(n) = spec.nodes {
        s.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = spec.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(mt) = spec.movetime_ms {
        s.push_str(&format!(" movetime {mt}"));
    }
    s
}

/// Score adjudication counters (cutechess semantics): a move without a score resets.
#[derive(Default)]
struct Adjudication {
    draw_count: u32,
    resign_count: [u32; 2],
    last_score: [Option<i32>; 2],
}

impl Adjudication {
    /// `side` moved reporting `score` (centipawns, its own view); `plies` moves have been
    /// played. The verdict when the match's draw or resign rule ends the game here.
    fn after_move(
        &mut self,
        cfg: &MatchConfig,
        ctx: &Ctx,
        side: usize,
        score: Option<i32>,
        plies: usize,
    ) -> Option<Verdict> {
        self.last_score[side] = score;
        if let Some(d) = cfg.draw {
            match score {
                Some(s) if s.abs() <= d.score => self.draw_count += 1,
                _ => self.draw_count = 0,
            }
            if (plies as u32) / 2 >= d.movenumber && self.draw_count >= 2 * d.movecount {
                return Some(Verdict::draw(
                    format!(
                        "adjudication, scores within {:.2} for {} moves",
                        d.score as f64 / 100.0,
                        d.movecount
                    ),
                    Termination::Adjudication,
                ));
            }
        }
        if let Some(r) = cfg.resign {
            let agrees = !r.twosided || self.last_score[1 - side].is_some_and(|o| o >= r.score);
            match score {
                Some(s) if s <= -r.score && agrees => self.resign_count[side] += 1,
                _ => self.resign_count[side] = 0,
            }
            if self.resign_count[side] >= r.movecount {
                return Some(Verdict::win(
                    1 - side,
                    format!(
                        "adjudication, {}'s score at or below {:.2} for {} moves",
                        ctx.colours[side],
                        -r.score as f64 / 100.0,
                        r.movecount
                    ),
                    Termination::Adjudication,
                ));
            }
        }
        None
    }
}

/// The game loop proper, generic over the game so the rules code is called directly.
/// Returns `None` when stopped.
fn referee<G: Game>(
    mut g: G,
    ctx: &Ctx,
    start_fen: &str,
    players: &mut [&mut dyn Player; 2],
    moves: &mut Vec<MoveRecord>,
    restart: &mut [bool; 2],
) -> Option<Verdict> {
    let cfg = ctx.cfg;
    let specs = [
        &cfg.engines[ctx.job.players[0]],
        &cfg.engines[ctx.job.players[1]],
    ];
    let mut streams = [0, 1].map(|side| RevealStream::new(ctx.job.seed, side));
    let mut clocks: [Option<Clock>; 2] = [0, 1].map(|s| {
        specs[s].clock().map(|tc| Clock {
            tc,
            remaining_ms: tc.base_ms as i64,
            moves_in_period: 0,
        })
    });
    let mut texts: Vec<String> = Vec::new();
    let mut adjudication = Adjudication::default();
    let mut chances = ChanceList::default();
    loop {
        if ctx.stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(end) = g.game_end() {
            let stm = g.side_to_move();
            return Some(match end.outcome {
                Outcome::Draw => Verdict::draw(end.reason, Termination::Normal),
                Outcome::Win => Verdict::win(stm, end.reason, Termination::Normal),
                Outcome::Loss => Verdict::win(1 - stm, end.reason, Termination::Normal),
            });
        }
        if let Some(mm) = cfg.maxmoves
            && texts.len() >= 2 * mm as usize
        {
            return Some(Verdict::draw(
                format!("adjudication, {mm} moves played (maxmoves)"),
                Termination::Adjudication,
            ));
        }
        let side = g.side_to_move();
        let spec = specs[side];
        let margin = spec.timemargin_ms.unwrap_or(0);
        let mut pos_cmd = format!("position fen {start_fen}");
        if !texts.is_empty() {
            pos_cmd.push_str(" moves ");
            pos_cmd.push_str(&texts.join(" "));
        }
        let go = go_line(&clocks, spec, side);
        let t0 = Instant::now();
        let allowed = match (&clocks[side], spec.movetime_ms) {
            (Some(c), _) => Some(c.remaining_ms.max(0) as u64 + margin),
            (None, Some(mt)) => Some(mt + margin),
            (None, None) => None,
        };
        let deadline = t0
            + Duration::from_millis(match allowed {
                Some(a) => a + cfg.stall_ms,
                None => cfg.move_timeout_ms,
            });
        let answer = players[side].best_move(&pos_cmd, &go, deadline);
        let elapsed = t0.elapsed().as_millis() as u64;
        let (line, info) = match answer {
            Ok(a) => a,
            Err(err) => {
                restart[side] = true;
                return Some(misbehaviour(ctx, side, err, "bestmove"));
            }
        };
        let c = ctx.colours[side];
        if let Some(a) = allowed
            && elapsed > a
        {
            let why = format!(
                "{c} loses on time ({elapsed} ms, {} ms allowed)",
                a - margin
            );
            return Some(if g.can_win(1 - side) {
                Verdict::win(1 - side, why, Termination::TimeForfeit)
            } else {
                Verdict::draw(
                    format!("{why}, {} cannot mate", ctx.colours[1 - side]),
                    Termination::TimeForfeit,
                )
            });
        }
        let word = line.split_whitespace().nth(1).unwrap_or("(none)");
        let mv = match g.parse_choice(word) {
            Ok(m) => m,
            Err(e) => {
                return Some(Verdict::win(
                    1 - side,
                    format!("{c} makes an illegal move: {word} ({e})"),
                    Termination::IllegalMove,
                ));
            }
        };
        chances.clear();
        let outcome = if g.chance(mv, &mut chances) {
            chances.pick(streams[side].draw(chances.total()))
        } else {
            crate::game::NO_OUTCOME
        };
        let text = g.move_outcome_to_string(mv, outcome);
        g.make(mv, outcome);
        if let Some(cl) = clocks[side].as_mut() {
            cl.remaining_ms -= elapsed as i64;
            cl.remaining_ms += cl.tc.inc_ms as i64;
            cl.moves_in_period += 1;
            if cl.tc.moves == Some(cl.moves_in_period) {
                cl.remaining_ms += cl.tc.base_ms as i64;
                cl.moves_in_period = 0;
            }
        }
        moves.push(MoveRecord {
            text: text.clone(),
            info,
            time_ms: elapsed,
        });
        texts.push(text);

        // Score adjudication, as cutechess does it: a move without a score resets.
        if let Some(v) =
            adjudication.after_move(cfg, ctx, side, info.score.map(|s| s.cp()), texts.len())
        {
            return Some(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws `n` outcomes without replacement from a pool of five kinds (counts 8, 2, 2,
    /// 2, 1, as in Reveal Chess, though any would do) through `stream`, and after each,
    /// `others` draws through `other` (the other side's stream): the kinds drawn, in order.
    fn reveals(
        stream: &mut RevealStream,
        other: &mut RevealStream,
        others: usize,
        n: usize,
    ) -> Vec<u8> {
        let mut pool = [8u16, 2, 2, 2, 1];
        let mut got = Vec::new();
        for _ in 0..n {
            let mut chances = ChanceList::default();
            for (i, &count) in pool.iter().enumerate() {
                if count > 0 {
                    chances.push(i as u8 + 1, count);
                }
            }
            let outcome = chances.pick(stream.draw(chances.total()));
            pool[outcome as usize - 1] -= 1;
            got.push(outcome);
            for _ in 0..others {
                assert!(other.draw(15) < 15);
            }
        }
        got
    }

    #[test]
    fn each_side_draws_the_same_reveals_whatever_the_other_side_does() {
        for seed in 0..20 {
            let white = |others| {
                let mut s = [0, 1].map(|side| RevealStream::new(seed, side));
                let [w, b] = &mut s;
                reveals(w, b, others, 15)
            };
            let alone = white(0);
            assert_eq!(alone, white(1), "seed {seed}");
            assert_eq!(alone, white(3), "seed {seed}");
            // The whole pool, each type as often as it is in the pool.
            let mut sorted = alone.clone();
            sorted.sort();
            assert_eq!(sorted, [1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
        }
        let first = |side| RevealStream::new(7, side).draw(1 << 20);
        assert_ne!(first(0), first(1));
    }

    #[test]
    fn reveal_draws_are_uniform_over_the_total() {
        let mut stream = RevealStream::new(3, 0);
        let mut seen = [0u32; 15];
        for _ in 0..150_000 {
            seen[stream.draw(15) as usize] += 1;
        }
        // 10,000 expected each; a standard deviation is about 97.
        assert!(
            seen.iter().all(|&n| (9_500..=10_500).contains(&n)),
            "{seen:?}"
        );
    }

    #[test]
    fn date_format() {
        let d = pgn_date();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
