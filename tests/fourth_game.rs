//! A fourth game, written here in the tests only, runs through the generic machinery
//! unchanged: perft, the search (chance nodes included: its values equal a brute-force
//! expectimax), and a refereed game of the match runner's own game loop.
//!
//! The game, Dice Race: each player has a counter starting at 0; the first to reach 20
//! wins. On a turn a player either steps (+1) or rolls a die (+1..+6, but a 1 scores
//! nothing and is twice as likely as each other face). After 60 plies the game is drawn.

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tinh::arena::args;
use tinh::arena::engine::{EngineError, SearchInfo};
use tinh::arena::referee::{GameJob, Player, play_with_players};
use tinh::eval::{EvalTerm, Evaluator};
use tinh::game::*;
use tinh::perft;
use tinh::search::params::SearchSettings;
use tinh::search::{Limits, Options, Searcher};

const GOAL: u32 = 20;
const MAX_PLIES: u32 = 60;
const STEP: DMove = DMove(1);
const ROLL: DMove = DMove(2);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct DMove(u16);

impl GameMove for DMove {
    fn to_u16(self) -> u16 {
        self.0
    }
    fn from_u16(v: u16) -> Self {
        DMove(v)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    score: [u32; 2],
    side: usize,
    ply: u32,
}

#[derive(Clone, Debug)]
struct DiceRace {
    now: State,
    undo: Vec<State>,
}

impl DiceRace {
    fn start() -> Self {
        DiceRace {
            now: State {
                score: [0, 0],
                side: 0,
                ply: 0,
            },
            undo: Vec::new(),
        }
    }
    /// What a die face adds: a 1 scores nothing.
    fn gain(face: u8) -> u32 {
        if face == 1 { 0 } else { face as u32 }
    }
}

tinh::eval_weights! {
    /// The Dice Race evaluation's weights.
    pub struct DiceWeights {
        pub per_point: i32,
        pub tempo: i32,
    }
}

#[derive(Clone)]
struct DiceEval(DiceWeights);

impl Evaluator<DiceRace> for DiceEval {
    type Weights = DiceWeights;
    fn default_weights(_: &DiceRace) -> DiceWeights {
        DiceWeights {
            per_point: 10,
            tempo: 15,
        }
    }
    fn new(_: &DiceRace, w: DiceWeights) -> Self {
        DiceEval(w)
    }
    fn evaluate(&mut self, g: &DiceRace) -> Score {
        let s = g.now.side;
        (g.now.score[s] as i32 - g.now.score[1 - s] as i32) * self.0.per_point + self.0.tempo
    }
    fn noisy_order(&self, _: &DiceRace, _: DMove) -> Score {
        0
    }
    fn terms(&mut self, g: &DiceRace) -> Vec<EvalTerm> {
        vec![EvalTerm {
            name: "progress",
            first: g.now.score[0] as i32 * self.0.per_point,
            second: g.now.score[1] as i32 * self.0.per_point,
        }]
    }
}

impl Game for DiceRace {
    type Move = DMove;
    type Eval = DiceEval;
    const HISTORY_SIZE: usize = 4;

    fn variant_name(&self) -> &'static str {
        "dicerace"
    }
    fn dimensions(&self) -> (usize, usize) {
        (2, 1)
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["North", "South"]
    }
    /// `<north> <south> <n|s> <ply>`.
    fn with_fen(&self, fen: &str) -> Result<Self, String> {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let [a, b, side, ply] = f[..] else {
            return Err(format!("'{fen}': expected '<north> <south> <n|s> <ply>'"));
        };
        let num = |t: &str| {
            t.parse::<u32>()
                .map_err(|_| format!("'{t}' is not a count"))
        };
        let side = match side {
            "n" => 0,
            "s" => 1,
            _ => return Err(format!("'{side}': the side is n or s")),
        };
        Ok(DiceRace {
            now: State {
                score: [num(a)?, num(b)?],
                side,
                ply: num(ply)?,
            },
            undo: Vec::new(),
        })
    }
    fn to_fen(&self) -> String {
        let n = &self.now;
        let side = if n.side == 0 { "n" } else { "s" };
        format!("{} {} {side} {}", n.score[0], n.score[1], n.ply)
    }
    fn fullmove_number(&self) -> u32 {
        1 + self.now.ply / 2
    }
    fn side_to_move(&self) -> usize {
        self.now.side
    }
    fn key(&self) -> u64 {
        let n = &self.now;
        let k = (n.score[0] as u64) | (n.score[1] as u64) << 8 | (n.side as u64) << 16;
        (k | (n.ply as u64) << 24).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn game_ply(&self) -> usize {
        self.undo.len()
    }
    fn generate_moves(&self, list: &mut MoveList<DMove>) {
        list.push(STEP);
        list.push(ROLL);
    }
    fn generate_noisy(&self, _: &mut MoveList<DMove>) {}
    fn is_capture(&self, _: DMove) -> bool {
        false
    }
    fn is_noisy(&self, _: DMove) -> bool {
        false
    }
    fn history_index(&self, mv: DMove) -> usize {
        mv.0 as usize
    }
    const PIECE_TO_SIZE: usize = 4;
    fn piece_to_index(&self, mv: DMove) -> usize {
        mv.0 as usize
    }
    fn chance(&self, mv: DMove, out: &mut ChanceList) -> bool {
        if mv != ROLL {
            return false;
        }
        out.push(1, 2);
        for face in 2..=6 {
            out.push(face, 1);
        }
        true
    }
    fn make(&mut self, mv: DMove, outcome: u8) {
        self.undo.push(self.now);
        let gain = if mv == ROLL { Self::gain(outcome) } else { 1 };
        let n = &mut self.now;
        n.score[n.side] += gain;
        n.side = 1 - n.side;
        n.ply += 1;
    }
    fn unmake(&mut self) {
        self.now = self.undo.pop().expect("a move to take back");
    }
    fn null_move_ok(&self) -> bool {
        false
    }
    fn make_null(&mut self) {
        unreachable!("null_move_ok is false")
    }
    fn unmake_null(&mut self) {
        unreachable!("null_move_ok is false")
    }
    fn in_check(&self) -> bool {
        false
    }
    fn immediate_result(&self) -> Option<Outcome> {
        let n = &self.now;
        if n.score[1 - n.side] >= GOAL {
            Some(Outcome::Loss)
        } else if n.ply >= MAX_PLIES {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn no_moves_result(&self) -> Outcome {
        Outcome::Draw
    }
    fn is_search_draw(&self) -> bool {
        false
    }
    fn game_end(&self) -> Option<GameEnd> {
        self.immediate_result().map(|o| {
            let why = if o == Outcome::Draw {
                "ply limit"
            } else {
                "reached the goal"
            };
            GameEnd::automatic(o, why)
        })
    }
    fn move_to_string(&self, mv: DMove) -> String {
        match mv {
            STEP => "step".into(),
            ROLL => "roll".into(),
            _ => "0000".into(),
        }
    }
    fn move_outcome_to_string(&self, mv: DMove, outcome: u8) -> String {
        if mv == ROLL {
            format!("roll{outcome}")
        } else {
            self.move_to_string(mv)
        }
    }
    fn parse_move(&self, s: &str) -> Result<(DMove, u8), String> {
        if self.game_over().is_some() {
            return Err("the game is over".into());
        }
        match s {
            "step" => Ok((STEP, NO_OUTCOME)),
            _ => match s.strip_prefix("roll").and_then(|f| f.parse::<u8>().ok()) {
                Some(face @ 1..=6) => Ok((ROLL, face)),
                _ => Err(format!("'{s}' is not step or roll1..roll6")),
            },
        }
    }
    fn parse_choice(&self, s: &str) -> Result<DMove, String> {
        match s {
            "step" => Ok(STEP),
            "roll" => Ok(ROLL),
            _ => Err(format!("'{s}' is not step or roll")),
        }
    }
    fn display(&self) -> String {
        format!("Dice Race {}\n", self.to_fen())
    }
}

fn at(fen: &str) -> DiceRace {
    DiceRace::start().with_fen(fen).unwrap()
}

#[test]
fn perft_counts_every_outcome_as_a_branch() {
    // Each ply: one step and six faces.
    let mut g = DiceRace::start();
    assert_eq!(g.perft(1), 7);
    assert_eq!(g.perft(3), 343);
    let lines = perft::divide(&g, 2, 1);
    assert_eq!(lines.len(), 7);
    assert!(lines.contains(&("roll4".to_string(), 7)));
    assert_eq!(perft::total(&lines, 2), 49);
    // North at 19 wins with a step or any roll but a 1: those branches end at once, and
    // only after a roll of 1 does South move (7 leaves).
    let mut near = at("19 0 n 10");
    assert_eq!(near.perft(2), 7);
}

/// Expectimax by definition: weighted means at rolls, the best choice elsewhere. Wins
/// and losses are scored as the search scores them inside a chance node (clamped).
fn brute(g: &mut DiceRace, depth: u32, ply: usize, bound: Score) -> Score {
    if let Some(o) = g.immediate_result() {
        return tinh::search::alphabeta::outcome_score(o, ply);
    }
    if depth == 0 {
        return tinh::eval::default_evaluator(g).evaluate(g);
    }
    let mut best = -INFINITY;
    let mut list = MoveList::new();
    g.generate_moves(&mut list);
    for &m in list.iter() {
        let mut ch = ChanceList::default();
        let v = if g.chance(m, &mut ch) {
            let mut vals = Vec::new();
            let mut sum = 0i64;
            for &(o, w) in ch.as_slice() {
                g.make(m, o);
                let v = -brute(g, depth - 1, ply + 1, bound);
                g.unmake();
                vals.push(v);
                sum += w as i64 * v.clamp(-bound, bound) as i64;
            }
            if vals.iter().all(|&v| v >= MATE_BOUND) {
                *vals.iter().min().unwrap()
            } else if vals.iter().all(|&v| v <= -MATE_BOUND) {
                *vals.iter().max().unwrap()
            } else {
                sum.div_euclid(ch.total() as i64) as Score
            }
        } else {
            g.make(m, NO_OUTCOME);
            let v = -brute(g, depth - 1, ply + 1, bound);
            g.unmake();
            v
        };
        best = best.max(v);
    }
    best
}

#[test]
fn search_equals_brute_force_expectimax_and_takes_a_sure_win() {
    let opts = Options {
        settings: SearchSettings::with(&[
            ("Search_NullMove", 0),
            ("Search_LMR", 0),
            ("Search_Futility", 0),
        ])
        .unwrap(),
        ..Default::default()
    };
    let bound = opts.settings.resolve(&[]).0.chance_bound;
    for fen in ["0 0 n 0", "12 15 s 20", "17 18 n 30", "3 9 s 5"] {
        let g = at(fen);
        let depth = 5;
        let searcher = Searcher::new(4);
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = searcher.search(&g, &limits, &opts, &|_| {});
        assert_eq!(r.score, brute(&mut g.clone(), depth, 0, bound), "{fen}");
        assert!(r.best.is_some());
    }
    // At 19 a step wins at once; a roll might score nothing.
    let g = at("19 19 n 30");
    let r = Searcher::new(4).search(
        &g,
        &Limits {
            depth: Some(3),
            ..Default::default()
        },
        &Options::default(),
        &|_| {},
    );
    assert_eq!(r.best, Some(STEP));
    assert_eq!(r.score, MATE - 1);
}

/// An in-process player: Tinh's search on the position the referee describes.
struct SearchPlayer {
    depth: u32,
}

impl Player for SearchPlayer {
    fn best_move(
        &mut self,
        position: &str,
        _go: &str,
        _deadline: Instant,
    ) -> Result<(String, SearchInfo), EngineError> {
        let rest = position.strip_prefix("position fen ").expect("a fen");
        let (fen, moves) = match rest.split_once(" moves ") {
            Some((f, m)) => (f, m.split_whitespace().collect()),
            None => (rest, Vec::new()),
        };
        let mut g = at(fen);
        for m in moves {
            let (mv, o) = g.parse_move(m).expect("the referee sends legal moves");
            g.make(mv, o);
        }
        let limits = Limits {
            depth: Some(self.depth),
            ..Default::default()
        };
        let r = Searcher::new(4).search(&g, &limits, &Options::default(), &|_| {});
        let mv = r.best.expect("a move while the game goes on");
        Ok((
            format!("bestmove {}", g.move_to_string(mv)),
            SearchInfo::default(),
        ))
    }
}

fn refereed_game(seed: u64) -> tinh::arena::referee::GameRecord {
    let words: Vec<String> = "--engine cmd=north --engine cmd=south --depth 3"
        .split_whitespace()
        .map(String::from)
        .collect();
    let cfg = args::parse(&words).unwrap().unwrap();
    let job = GameJob {
        number: 1,
        round: 1,
        players: [0, 1],
        start_fen: DiceRace::start().to_fen(),
        seed,
        pair: 0,
    };
    let names = ["north".to_string(), "south".to_string()];
    let (mut a, mut b) = (SearchPlayer { depth: 3 }, SearchPlayer { depth: 2 });
    play_with_players(
        DiceRace::start(),
        &cfg,
        &names,
        &job,
        [&mut a, &mut b],
        &AtomicBool::new(false),
    )
    .expect("not stopped")
}

#[test]
fn the_match_runner_referees_a_game_it_has_never_heard_of() {
    let rec = refereed_game(7);
    assert!(!rec.moves.is_empty());
    // Replaying the record with the rules reaches the end the referee announced.
    let mut g = DiceRace::start();
    for m in &rec.moves {
        let (mv, o) = g.parse_move(&m.text).unwrap();
        assert_eq!(
            mv == ROLL,
            o != NO_OUTCOME,
            "{}: every roll shows its face",
            m.text
        );
        g.make(mv, o);
    }
    let end = g.game_end().expect("the game ended");
    let expected = match (end.outcome, g.side_to_move()) {
        (Outcome::Draw, _) => "1/2-1/2",
        (Outcome::Loss, 0) | (Outcome::Win, 1) => "0-1",
        _ => "1-0",
    };
    assert_eq!(rec.result, expected, "{}", rec.reason);
    assert!(
        rec.reason.starts_with("North wins")
            || rec.reason.starts_with("South wins")
            || rec.reason.starts_with("Draw"),
        "{}",
        rec.reason
    );
    // The dice come from the game's seed: the same seed replays the same game.
    let again = refereed_game(7);
    let texts = |r: &tinh::arena::referee::GameRecord| -> Vec<String> {
        r.moves.iter().map(|m| m.text.clone()).collect()
    };
    assert_eq!(texts(&rec), texts(&again));
}
