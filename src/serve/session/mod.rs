//! One game on the board, refereed by the server: the position (Tinh's rules code decides
//! every move's legality), the moves played, reveals drawn from the pools with the game's
//! seeded generator (as the match referee does), undo, the end of the game, Tinh's engine
//! for its side and what it is thinking, the state the page draws, and the PGN.

use super::engine::{Engine, Event, Info, Level, Think};
use super::view::{Arithmetic, BoardView};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::time::Instant;
use tinh::game::{ChanceList, NO_OUTCOME, Outcome};
use tinh::variant::{Position, Variant};
use tinh::with_game;

/// A game longer than this many plies is drawn by the board (Math Chess has no move-count
/// rule), so that no game's state grows without end.
pub const MAX_PLIES: usize = 2000;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Tinh(Level),
}

impl Player {
    /// `human`, `tinh` (full strength) or `tinh-1` .. `tinh-5`.
    pub fn parse(s: &str) -> Result<Player, String> {
        match s {
            "human" => Ok(Player::Human),
            "tinh" => Ok(Player::Tinh(None)),
            _ => match s.strip_prefix("tinh-").and_then(|n| n.parse::<u8>().ok()) {
                Some(n @ 1..=5) => Ok(Player::Tinh(Some(n))),
                _ => Err(format!(
                    "unknown player '{s}' (expected human, tinh, or tinh-1 .. tinh-5)"
                )),
            },
        }
    }

    pub fn label(self) -> String {
        match self {
            Player::Human => "Player".to_string(),
            Player::Tinh(None) => "Tinh (full strength)".to_string(),
            Player::Tinh(Some(n)) => format!("Tinh (level {n})"),
        }
    }
}

/// Why a request cannot be done: the HTTP status and a sentence for the person.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

impl Refusal {
    pub fn bad(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 400,
            message: message.into(),
        }
    }
    pub fn conflict(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 409,
            message: message.into(),
        }
    }
}

/// A reveal as it happened: the letter drawn and its chance (`weight` in `total`).
#[derive(Clone, Debug, Serialize)]
pub struct Reveal {
    pub letter: String,
    pub weight: u32,
    pub total: u32,
}

/// A move played, with what the page shows about it.
#[derive(Clone, Debug, Serialize)]
pub struct Played {
    /// In `position ... moves` form (reveal letter included).
    pub text: String,
    pub side: usize,
    pub from: String,
    pub to: String,
    pub capture: bool,
    pub arithmetic: Option<Arithmetic>,
    pub reveal: Option<Reveal>,
    pub by_engine: bool,
    /// The engine's last search info for this move, as the PGN comment gives it.
    #[serde(skip)]
    pub info: Option<Info>,
    pub time_ms: u64,
}

/// A legal move of the side to move, for the page to offer.
#[derive(Clone, Debug, Serialize)]
pub struct Legal {
    pub uci: String,
    pub from: String,
    pub to: String,
    pub promotion: Option<char>,
    pub capture: bool,
    pub reveals: bool,
    pub arithmetic: Option<Arithmetic>,
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct Ended {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    pub winner: Option<usize>,
    /// `Blue wins: zero captured`, `Draw: stalemate`.
    pub text: String,
}

enum EngineSlot {
    /// Not running: none needed yet, or stopped while nobody watched (restarts when needed).
    Off,
    Running {
        engine: Engine,
        ready: bool,
        note: Option<String>,
        /// Ticket of the search it runs, if any.
        searching: Option<u64>,
    },
    /// Died or misbehaved; the person restarts it.
    Dead(String),
}

/// What the engine is or was thinking about the current position.
struct Thinking {
    info: Info,
    /// The side Tinh searched for (scores are from its point of view).
    side: usize,
    live: bool,
}

pub struct Session {
    pub id: String,
    variant: Variant,
    pos: Position,
    start_fen: String,
    seed: u64,
    rng: StdRng,
    players: [Player; 2],
    moves: Vec<Played>,
    /// Changes with every position change, so a late engine answer is recognised.
    ticket: u64,
    turn_started: Instant,
    thinking: Option<Thinking>,
    engine: EngineSlot,
    end: Option<Ended>,
    /// The last thing the engine refused or reported, for the page.
    message: Option<String>,
    /// Counts every change, so a page can drop a state older than one it has drawn.
    pub revision: u64,
    /// Event streams (pages) attached, and the last request or detach.
    pub watchers: usize,
    pub last_active: Instant,
}

impl Session {
    pub fn new(
        id: String,
        variant: Variant,
        fen: Option<&str>,
        players: [Player; 2],
        seed: u64,
    ) -> Result<Session, Refusal> {
        if players.iter().all(|p| matches!(p, Player::Tinh(_))) {
            return Err(Refusal::bad(
                "at most one side can be Tinh: pick 'human' for the other",
            ));
        }
        let pos = match fen.map(str::trim) {
            None | Some("") => variant.startpos(),
            Some(f) if f.len() > 256 => return Err(Refusal::bad("FEN too long")),
            Some(f) => variant
                .from_fen(f)
                .map_err(|e| Refusal::bad(format!("bad {variant} FEN: {e}")))?,
        };
        let mut s = Session {
            id,
            variant,
            start_fen: pos.to_fen(),
            pos,
            seed,
            rng: StdRng::seed_from_u64(seed),
            players,
            moves: Vec::new(),
            ticket: 0,
            turn_started: Instant::now(),
            thinking: None,
            engine: EngineSlot::Off,
            end: None,
            message: None,
            revision: 0,
            watchers: 0,
            last_active: Instant::now(),
        };
        s.end = s.judge();
        Ok(s)
    }

    fn side_to_move(&self) -> usize {
        with_game!(&self.pos, g => g.side_to_move())
    }

    fn engine_player(&self) -> Option<(usize, Level)> {
        (0..2).find_map(|s| match self.players[s] {
            Player::Tinh(l) => Some((s, l)),
            Player::Human => None,
        })
    }

    fn engine_to_move(&self) -> bool {
        self.end.is_none() && matches!(self.players[self.side_to_move()], Player::Tinh(_))
    }

    /// The verdict on the current position: the rules' (`Game::game_end`, as the match
    /// referee applies them), or the board's ply limit.
    fn judge(&self) -> Option<Ended> {
        let names = self.side_names();
        let (end, stm) = with_game!(&self.pos, g => (g.game_end(), g.side_to_move()));
        let (winner, reason) = match end {
            Some(e) => match e.outcome {
                Outcome::Win => (Some(stm), e.reason),
                Outcome::Loss => (Some(1 - stm), e.reason),
                Outcome::Draw => (None, e.reason),
            },
            None if self.moves.len() >= MAX_PLIES => {
                (None, format!("the board's limit of {MAX_PLIES} plies"))
            }
            None => return None,
        };
        Some(match winner {
            Some(w) => Ended {
                result: if w == 0 { "1-0" } else { "0-1" },
                winner,
                text: format!("{} wins: {reason}", names[w]),
            },
            None => Ended {
                result: "1/2-1/2",
                winner,
                text: format!("Draw: {reason}"),
            },
        })
    }

    fn side_names(&self) -> [&'static str; 2] {
        with_game!(&self.pos, g => g.side_names())
    }

    /// Play a move chosen by a person (`e2e4`, `c1c4`, `e7e8q`; no reveal letter).
    /// `ply`, when given, must be the number of plies the page has seen.
    pub fn play_human(&mut self, text: &str, ply: Option<usize>) -> Result<(), Refusal> {
        if let Some(end) = &self.end {
            return Err(Refusal::conflict(format!(
                "the game is over ({}); start a new game or undo",
                end.text
            )));
        }
        if ply.is_some_and(|p| p != self.moves.len()) {
            return Err(Refusal::conflict(
                "the position changed since the page last saw it; it will refresh",
            ));
        }
        if self.engine_to_move() {
            return Err(Refusal::conflict("it is Tinh's turn: wait for its move"));
        }
        if text.len() > 12 {
            return Err(Refusal::bad(
                "a move is at most a few characters, e.g. e2e4",
            ));
        }
        self.play(text, None).map_err(Refusal::bad)
    }

    /// Play a legal choice: draw its reveal if it has one, make it, record it, judge.
    fn play(&mut self, text: &str, info: Option<Info>) -> Result<(), String> {
        let side = self.side_to_move();
        let rng = &mut self.rng;
        let mut played = with_game!(&mut self.pos, g => play_on(g, text, rng))?;
        played.side = side;
        played.by_engine = info.is_some();
        played.info = info;
        played.time_ms = self.turn_started.elapsed().as_millis() as u64;
        self.moves.push(played);
        self.position_changed();
        Ok(())
    }

    fn position_changed(&mut self) {
        self.ticket += 1;
        self.turn_started = Instant::now();
        if let Some(t) = &mut self.thinking {
            t.live = false;
        }
        if let EngineSlot::Running {
            engine,
            searching: Some(_),
            ..
        } = &self.engine
        {
            engine.stop();
        }
        self.end = self.judge();
    }

    /// Take back the last move; against Tinh, back to the person's previous turn.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        if self.moves.is_empty() {
            return Err(Refusal::conflict("nothing to undo"));
        }
        loop {
            with_game!(&mut self.pos, g => g.unmake());
            self.moves.pop();
            self.end = None;
            let back_to_person = matches!(self.players[self.side_to_move()], Player::Human);
            if back_to_person || self.moves.is_empty() {
                break;
            }
        }
        self.thinking = None;
        self.position_changed();
        Ok(())
    }

    /// Start a dead engine again (it resumes if it is its turn).
    pub fn restart_engine(&mut self) -> Result<(), Refusal> {
        if self.engine_player().is_none() {
            return Err(Refusal::bad("no side of this game is played by Tinh"));
        }
        match self.engine {
            EngineSlot::Dead(_) => {
                self.engine = EngineSlot::Off;
                self.message = None;
                Ok(())
            }
            _ => Err(Refusal::conflict("Tinh's engine is running")),
        }
    }

    /// Stop the engine process when nobody has watched the game for a while; it starts
    /// again when needed.
    pub fn park_engine(&mut self) -> bool {
        if let EngineSlot::Running { .. } = self.engine {
            self.engine = EngineSlot::Off;
            self.revision += 1;
            if let Some(t) = &mut self.thinking {
                t.live = false;
            }
            return true;
        }
        false
    }

    pub fn engine_running(&self) -> bool {
        matches!(self.engine, EngineSlot::Running { .. })
    }

    /// When it is Tinh's turn: start its engine if none runs, and ask it for a move. The
    /// process starts only when needed, so a game left on the person's turn holds none.
    pub fn drive(&mut self, start: impl FnOnce(Variant, Level) -> Engine) {
        let Some((_, level)) = self.engine_player() else {
            return;
        };
        if !self.engine_to_move() {
            return;
        }
        if let EngineSlot::Off = self.engine {
            self.engine = EngineSlot::Running {
                engine: start(self.variant, level),
                ready: false,
                note: None,
                searching: None,
            };
        }
        let position = self.position_line();
        let EngineSlot::Running {
            engine, searching, ..
        } = &mut self.engine
        else {
            return;
        };
        if *searching != Some(self.ticket) {
            let think = Think {
                ticket: self.ticket,
                position,
            };
            if engine.think(think) {
                *searching = Some(self.ticket);
                self.thinking = None;
            }
        }
    }

    fn position_line(&self) -> String {
        let mut s = format!("position fen {}", self.start_fen);
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(&m.text);
            }
        }
        s
    }

    /// Take in what the engine says.
    pub fn on_engine(&mut self, event: Event) {
        match event {
            Event::Ready { note } => {
                if let EngineSlot::Running { ready, note: n, .. } = &mut self.engine {
                    *ready = true;
                    *n = note;
                }
            }
            Event::Info { ticket, info } => {
                if ticket == self.ticket && self.engine_to_move() {
                    self.thinking = Some(Thinking {
                        info,
                        side: self.side_to_move(),
                        live: true,
                    });
                }
            }
            Event::BestMove { ticket, text } => {
                if let EngineSlot::Running { searching, .. } = &mut self.engine
                    && *searching == Some(ticket)
                {
                    *searching = None;
                }
                if ticket != self.ticket || !self.engine_to_move() {
                    return; // the answer to a position taken back or left
                }
                let info = self.thinking.as_ref().map(|t| t.info.clone());
                if let Err(e) = self.play(&text, Some(info.unwrap_or_default())) {
                    self.engine = EngineSlot::Dead(format!(
                        "Tinh answered a move the board cannot play: {text} ({e})"
                    ));
                }
            }
            Event::Warning(w) => self.message = Some(format!("Tinh: {w}")),
            Event::Died(why) => {
                if let Some(t) = &mut self.thinking {
                    t.live = false;
                }
                self.engine = EngineSlot::Dead(why);
            }
        }
    }
}

/// Play the choice `text` on `g`: the reveal is drawn from the mover's pool with `rng`.
fn play_on<G: BoardView>(g: &mut G, text: &str, rng: &mut StdRng) -> Result<Played, String> {
    let mv = g.parse_choice(text.trim())?;
    let (from, to) = g.squares(mv);
    let capture = g.is_capture(mv);
    let arithmetic = g.arithmetic(mv);
    let mut chances = ChanceList::default();
    let (outcome, reveal) = if g.chance(mv, &mut chances) {
        let total = chances.total();
        let o = chances.pick(rng.random_range(0..total));
        let weight = chances
            .as_slice()
            .iter()
            .find(|&&(c, _)| c == o)
            .map_or(0, |&(_, w)| w as u32);
        let letter = g.move_outcome_to_string(mv, o)[g.move_to_string(mv).len()..].to_string();
        (
            o,
            Some(Reveal {
                letter,
                weight,
                total,
            }),
        )
    } else {
        (NO_OUTCOME, None)
    };
    let text = g.move_outcome_to_string(mv, outcome);
    g.make(mv, outcome);
    Ok(Played {
        text,
        side: 0,
        from,
        to,
        capture,
        arithmetic,
        reveal,
        by_engine: false,
        info: None,
        time_ms: 0,
    })
}

mod report;
#[cfg(test)]
mod tests;
