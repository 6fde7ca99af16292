//! Search tests on a synthetic game with chance moves whose exact expectimax value a
//! brute-force walk computes: Star1 pruning must give the same value as full-window
//! expectimax, with fewer nodes.

use super::*;
use crate::eval::{EvalTerm, Evaluator};
use crate::game::*;
use params::SearchSettings;

/// A random game tree: the position is the hash of the path; each node has 2..=5 moves,
/// about a third of them with 2..=4 weighted chance outcomes; leaves score by hash.
#[derive(Clone, Debug)]
struct TreeGame {
    path: Vec<u64>,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TMove(u16);
impl GameMove for TMove {
    fn to_u16(self) -> u16 {
        self.0
    }
    fn from_u16(v: u16) -> Self {
        TMove(v)
    }
}

impl TreeGame {
    fn new(seed: u64) -> Self {
        TreeGame {
            path: vec![mix(seed)],
        }
    }
    fn h(&self) -> u64 {
        *self.path.last().unwrap()
    }
    fn n_moves(&self) -> u16 {
        2 + (self.h() % 4) as u16
    }
    fn outcomes(&self, mv: TMove, out: &mut ChanceList) -> bool {
        let z = mix(self.h() ^ (mv.0 as u64 * 77));
        if !z.is_multiple_of(3) {
            return false;
        }
        let k = 2 + (z >> 8) % 3;
        for o in 1..=k {
            out.push(o as u8, 1 + ((z >> (16 + 4 * o)) % 7) as u16);
        }
        true
    }
}

/// Leaves score by their hash.
#[derive(Clone)]
struct TreeEval;

impl Evaluator<TreeGame> for TreeEval {
    type Weights = ();
    fn default_weights(_: &TreeGame) {}
    fn new(_: &TreeGame, _: ()) -> Self {
        TreeEval
    }
    fn evaluate(&mut self, g: &TreeGame) -> Score {
        (g.h() % 401) as Score - 200
    }
    fn noisy_order(&self, _: &TreeGame, _: TMove) -> Score {
        0
    }
    fn terms(&mut self, _: &TreeGame) -> Vec<EvalTerm> {
        Vec::new()
    }
}

impl Game for TreeGame {
    type Move = TMove;
    type Eval = TreeEval;
    const HISTORY_SIZE: usize = 16;
    fn variant_name(&self) -> &'static str {
        "tree"
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["First", "Second"]
    }
    fn with_fen(&self, _fen: &str) -> Result<Self, String> {
        Err("a tree game has no FEN".into())
    }
    fn fullmove_number(&self) -> u32 {
        1 + self.game_ply() as u32 / 2
    }
    fn dimensions(&self) -> (usize, usize) {
        (1, 1)
    }
    fn to_fen(&self) -> String {
        format!("{:x}", self.h())
    }
    fn side_to_move(&self) -> usize {
        (self.path.len() + 1) % 2
    }
    fn key(&self) -> u64 {
        self.h()
    }
    fn game_ply(&self) -> usize {
        self.path.len() - 1
    }
    fn generate_moves(&self, list: &mut MoveList<TMove>) {
        for m in 1..=self.n_moves() {
            list.push(TMove(m));
        }
    }
    fn generate_noisy(&self, _list: &mut MoveList<TMove>) {}
    fn is_capture(&self, _mv: TMove) -> bool {
        false
    }
    fn is_noisy(&self, _mv: TMove) -> bool {
        false
    }
    fn history_index(&self, mv: TMove) -> usize {
        mv.0 as usize
    }
    const PIECE_TO_SIZE: usize = 16;
    fn piece_to_index(&self, mv: TMove) -> usize {
        mv.0 as usize
    }
    fn chance(&self, mv: TMove, out: &mut ChanceList) -> bool {
        self.outcomes(mv, out)
    }
    fn make(&mut self, mv: TMove, outcome: u8) {
        let h = mix(self.h() ^ (mv.0 as u64) << 8 ^ outcome as u64);
        self.path.push(h);
    }
    fn unmake(&mut self) {
        self.path.pop();
    }
    fn null_move_ok(&self) -> bool {
        false
    }
    fn make_null(&mut self) {}
    fn unmake_null(&mut self) {}
    fn in_check(&self) -> bool {
        false
    }
    fn immediate_result(&self) -> Option<Outcome> {
        // A few nodes end the game (a won or lost position) to exercise mate scores.
        match self.h() % 97 {
            0 => Some(Outcome::Loss),
            1 => Some(Outcome::Win),
            _ => None,
        }
    }
    fn no_moves_result(&self) -> Outcome {
        Outcome::Loss
    }
    fn is_search_draw(&self) -> bool {
        false
    }
    fn game_end(&self) -> Option<GameEnd> {
        None
    }
    fn move_to_string(&self, mv: TMove) -> String {
        format!("m{}", mv.0)
    }
    fn move_outcome_to_string(&self, mv: TMove, o: u8) -> String {
        format!("m{}o{}", mv.0, o)
    }
    fn parse_move(&self, _s: &str) -> Result<(TMove, u8), String> {
        Err("not supported".into())
    }
    fn parse_choice(&self, s: &str) -> Result<TMove, String> {
        s.trim_start_matches('m')
            .parse()
            .map(TMove)
            .map_err(|e| e.to_string())
    }
    fn display(&self) -> String {
        self.to_fen()
    }
}

/// Plain negamax-expectimax over the whole tree, the definition the search must meet: a
/// chance node's value is `mean`'s value of its outcomes' clamped values, unless every
/// outcome wins (loses): then the slowest win (longest loss).
fn brute<G: Game>(g: &mut G, depth: i32, ply: usize, mean: &mean::ChanceMean) -> Score {
    if let Some(o) = g.immediate_result() {
        return alphabeta::outcome_score(o, ply);
    }
    if depth == 0 {
        return G::Eval::new(g, G::Eval::default_weights(g)).evaluate(g);
    }
    let bound = params::SearchParams::default().chance_bound;
    let mut list = MoveList::new();
    g.generate_moves(&mut list);
    let mut best = -INFINITY;
    for &m in list.iter() {
        let mut ch = ChanceList::default();
        let v = if g.chance(m, &mut ch) {
            let total = ch.total() as i64;
            let mut sum = 0i64;
            let mut vals = Vec::new();
            for &(o, w) in ch.as_slice() {
                g.make(m, o);
                let v = -brute(g, depth - 1, ply + 1, mean);
                g.unmake();
                vals.push(v);
                sum += w as i64 * mean.w(v.clamp(-bound, bound) as i64);
            }
            if vals.iter().all(|&v| v >= MATE_BOUND) {
                *vals.iter().min().unwrap()
            } else if vals.iter().all(|&v| v <= -MATE_BOUND) {
                *vals.iter().max().unwrap()
            } else {
                mean.value(sum, total)
            }
        } else {
            g.make(m, NO_OUTCOME);
            let v = -brute(g, depth - 1, ply + 1, mean);
            g.unmake();
            v
        };
        best = best.max(v);
    }
    best
}

/// The search with every inexact pruning off: Star1 and probing (`chance_pruning`) and
/// searching outcomes as non-PV nodes (`chance_nonpv`) keep the value exact; `scale` is
/// the win-rate mean's (0: the plain mean).
fn exact_settings(chance_pruning: bool, chance_nonpv: bool, scale: Score) -> SearchSettings {
    SearchSettings::with(&[
        ("Search_NullMove", 0),
        ("Search_LMR", 0),
        ("Search_Futility", 0),
        ("Search_ChancePruning", chance_pruning as i64),
        ("Search_ChanceNonPv", chance_nonpv as i64),
        ("ChanceSigmoidScale", scale as i64),
    ])
    .unwrap()
}

fn search_tree(seed: u64, depth: u32, settings: SearchSettings) -> SearchResult<TMove> {
    let searcher = Searcher::new(4);
    let opts = Options {
        settings,
        ..Default::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    searcher.search(&TreeGame::new(seed), &limits, &opts, &|_| {})
}

#[test]
fn star1_matches_brute_force_expectimax() {
    let mut pruned_nodes = 0;
    let mut full_nodes = 0;
    // The plain mean, and the win-rate mean at a small and a large scale.
    for scale in [0, 60, 300] {
        let mean = mean::ChanceMean::new(params::SearchParams::default().chance_bound, scale);
        for seed in 0..40 {
            if TreeGame::new(seed).immediate_result().is_some() {
                continue;
            }
            for depth in [5, 6] {
                let exact = brute(&mut TreeGame::new(seed), depth as i32, 0, &mean);
                let case = format!("seed {seed} depth {depth} scale {scale}");
                let search =
                    |star, nonpv| search_tree(seed, depth, exact_settings(star, nonpv, scale));
                let pruned = search(true, false);
                let full = search(false, false);
                assert_eq!(full.score, exact, "full-window expectimax, {case}");
                assert_eq!(pruned.score, exact, "Star1, {case}");
                assert_eq!(search(true, true).score, exact, "non-PV outcomes, {case}");
                assert_eq!(
                    search(false, true).score,
                    exact,
                    "full windows, non-PV, {case}"
                );
                pruned_nodes += pruned.nodes;
                full_nodes += full.nodes;
            }
        }
    }
    eprintln!("Star1 {pruned_nodes} nodes, full-window expectimax {full_nodes} nodes");
    assert!(
        pruned_nodes < full_nodes,
        "Star1 searched {pruned_nodes} nodes, full expectimax {full_nodes}"
    );
}

/// `PvsMargin` trades exactness for fewer re-searches: at a PV node a later chance move is
/// searched again only when it beats alpha by more than the margin, so each PV level may
/// settle for up to the margin less than its best move. The root's value stays within the
/// margin times the depth of the exact one, and the tree shrinks.
#[test]
fn pvs_margin_errs_by_at_most_its_margin_per_ply() {
    let margin = 20;
    let mean = mean::ChanceMean::new(params::SearchParams::default().chance_bound, 0);
    let (mut exact_nodes, mut margin_nodes, mut differ) = (0, 0, 0);
    for seed in 0..40 {
        if TreeGame::new(seed).immediate_result().is_some() {
            continue;
        }
        for depth in [5, 6] {
            let exact = brute(&mut TreeGame::new(seed), depth as i32, 0, &mean);
            let with_margin = |m: i64| {
                let settings = SearchSettings::with(&[
                    ("Search_NullMove", 0),
                    ("Search_LMR", 0),
                    ("Search_Futility", 0),
                    ("PvsMargin", m),
                ])
                .unwrap();
                search_tree(seed, depth, settings)
            };
            let plain = with_margin(0);
            let loose = with_margin(margin);
            assert_eq!(plain.score, exact, "seed {seed} depth {depth}, margin 0");
            assert!(
                (loose.score - exact).abs() <= margin as Score * depth as Score,
                "seed {seed} depth {depth}: {} with margin {margin}, exact {exact}",
                loose.score
            );
            differ += (loose.score != exact) as u32;
            exact_nodes += plain.nodes;
            margin_nodes += loose.nodes;
        }
    }
    eprintln!(
        "margin {margin}: {margin_nodes} nodes, {differ} values off; margin 0: {exact_nodes} nodes"
    );
    assert!(
        margin_nodes < exact_nodes,
        "{margin_nodes} nodes with the margin, {exact_nodes} without"
    );
}

#[test]
fn search_reports_iterations_and_a_legal_move() {
    let searcher = Searcher::new(1);
    let seen = std::sync::Mutex::new(Vec::new());
    let limits = Limits {
        depth: Some(4),
        ..Default::default()
    };
    let r = searcher.search(&TreeGame::new(7), &limits, &Options::default(), &|rep| {
        if let Report::Iteration(i) = rep {
            seen.lock().unwrap().push(i.depth);
        }
    });
    assert_eq!(*seen.lock().unwrap(), vec![1, 2, 3, 4]);
    assert!(r.best.is_some());
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let searcher = std::sync::Arc::new(Searcher::new(1));
    let (tx, rx) = std::sync::mpsc::channel();
    let h = searcher.start(
        TreeGame::new(3),
        Limits {
            infinite: true,
            ..Default::default()
        },
        Options::default(),
        Box::new(|_| {}),
        Box::new(move |r| tx.send(r).unwrap()),
    );
    std::thread::sleep(std::time::Duration::from_millis(50));
    searcher.control().stop();
    let r = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("search ended after stop");
    h.join().unwrap();
    assert!(r.best.is_some());
}

#[test]
fn a_table_size_that_cannot_be_had_keeps_the_old_table() {
    let searcher = Searcher::new(2);
    let limits = Limits {
        depth: Some(4),
        ..Default::default()
    };
    searcher.search(&TreeGame::new(5), &limits, &Options::default(), &|_| {});
    let used = searcher.hashfull();
    assert!(used > 0);
    // 2^40 MiB: more than any machine has (refused before anything is allocated).
    let e = searcher.set_hash(1 << 40).unwrap_err();
    assert!(e.contains("MiB"), "{e}");
    assert_eq!(searcher.hash_mb(), 2);
    assert_eq!(
        searcher.hashfull(),
        used,
        "the old table's contents are kept"
    );
    searcher.set_hash(1).unwrap();
    assert_eq!((searcher.hash_mb(), searcher.hashfull()), (1, 0));
}
