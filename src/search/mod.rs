//! The searcher: iterative deepening, alpha-beta, chance nodes, transposition table,
//! move ordering, time management and Lazy SMP threads, generic over `Game`.
//! This file is the searcher's public face: limits in, reports and a result out.

pub mod alphabeta;
mod chance;
mod correction;
pub mod mean;
pub mod ordering;
pub mod params;
mod quiescence;
pub mod skill;
pub mod stats;
#[cfg(test)]
mod tests;
pub mod threads;
pub mod time;
pub mod tt;
pub mod worker;

use crate::game::{Game, Score};
use params::SearchSettings;
use stats::SearchStats;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Instant;
use tt::TranspositionTable;

/// Search features, each switched by a check option `Search_<Name>` (see `FEATURES`).
/// The first five are on in every game; the later heuristics are off unless a game turns
/// them on in its `Game::search_defaults` (each is kept per game only where a match
/// showed it pays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub null_move: bool,
    pub lmr: bool,
    /// Reverse futility, futility and late-move pruning.
    pub futility: bool,
    /// Star1 bounds at chance nodes (off: every outcome gets a full window).
    pub chance_pruning: bool,
    pub aspiration: bool,
    /// The outcomes of a chance node are searched as non-PV nodes (with the pruning of
    /// non-PV nodes) even when their window is wide; only the most likely outcome of a
    /// chance node on the principal variation stays a PV node. Off: every outcome with a
    /// wide window is searched as a PV node.
    pub chance_nonpv: bool,
    /// Outcomes less likely than a chance node's most likely one are searched with less
    /// depth (`ChanceReduction*` parameters); never on the principal variation, never for
    /// an outcome that gives check.
    pub chance_reduction: bool,
    /// A chance node off the principal variation is valued by searching one outcome only
    /// (the one statically nearest the mean), shifted by the static difference between
    /// the mean of all outcomes and that one (`ChanceSingleMinDepth`); the tree then
    /// grows like chess's instead of by the pool size at every reveal. Never at the root,
    /// never for a forced-mate window.
    pub chance_single: bool,
    /// With `chance_single`, quiescence values a revealing capture the same way: by
    /// quiescence after that one outcome plus the shift, instead of the static mean of
    /// every outcome.
    pub chance_single_qsearch: bool,
    /// Continuation history (1 and 2 plies) in quiet-move ordering, reductions and the
    /// history rewards.
    pub cont_hist: bool,
    /// Static exchange evaluation: losing captures ordered after the quiet moves, and
    /// losing captures and quiet moves pruned near the leaves and in quiescence.
    pub see: bool,
    /// Correction history: the static evaluation corrected by what searches of
    /// positions sharing parts with this one found (`Game::correction_keys`).
    pub corr_hist: bool,
    /// Singular extensions: the table move is searched a ply deeper when every other
    /// move falls clearly short of its table score (and the node is cut at once when
    /// even without it another move reaches beta: multi-cut).
    pub singular: bool,
    /// Time management scales each move's soft limit by how settled the search is: more
    /// time while the best move keeps changing or shares the nodes with rivals, less once
    /// it has held for iterations and takes most of them (`TimeStable*`, `TimeNodes*`).
    pub time_scaling: bool,
    /// Capture history: captures ordered by how often each (by side, from and to) failed
    /// high before, on top of MVV-LVA (`CaptHistDivisor`).
    pub capt_hist: bool,
}

impl Default for Features {
    fn default() -> Self {
        let mut f = Features {
            null_move: false,
            lmr: false,
            futility: false,
            chance_pruning: false,
            aspiration: false,
            cont_hist: false,
            see: false,
            corr_hist: false,
            singular: false,
            time_scaling: false,
            capt_hist: false,
            chance_nonpv: false,
            chance_reduction: false,
            chance_single: false,
            chance_single_qsearch: false,
        };
        for spec in FEATURES {
            *f.slot(spec.name).expect("listed feature") = spec.default;
        }
        f
    }
}

/// One feature switch as the protocol lists it.
#[derive(Clone, Copy, Debug)]
pub struct FeatureSpec {
    /// The check option's name.
    pub name: &'static str,
    /// On unless a game says otherwise.
    pub default: bool,
    pub doc: &'static str,
}

/// Every feature switch, in the order `uci` lists them.
pub const FEATURES: &[FeatureSpec] = &[
    FeatureSpec {
        name: "Search_NullMove",
        default: true,
        doc: "null-move pruning",
    },
    FeatureSpec {
        name: "Search_LMR",
        default: true,
        doc: "late-move reductions",
    },
    FeatureSpec {
        name: "Search_Futility",
        default: true,
        doc: "reverse futility, futility and late-move pruning",
    },
    FeatureSpec {
        name: "Search_ChancePruning",
        default: true,
        doc: "Star1 bounds and probing at chance nodes",
    },
    FeatureSpec {
        name: "Search_Aspiration",
        default: true,
        doc: "aspiration windows",
    },
    FeatureSpec {
        name: "Search_ContHist",
        default: false,
        doc: "continuation history (1 and 2 plies) for quiet moves",
    },
    FeatureSpec {
        name: "Search_SEE",
        default: false,
        doc: "static exchange evaluation in capture ordering and pruning",
    },
    FeatureSpec {
        name: "Search_CorrHist",
        default: false,
        doc: "correction history of the static evaluation",
    },
    FeatureSpec {
        name: "Search_Singular",
        default: false,
        doc: "singular extensions (with multi-cut)",
    },
    FeatureSpec {
        name: "Search_TimeScaling",
        default: false,
        doc: "the soft time limit scaled by the best move's stability and its share of the nodes",
    },
    FeatureSpec {
        name: "Search_CaptHist",
        default: false,
        doc: "capture history added to the captures' MVV-LVA ordering",
    },
    FeatureSpec {
        name: "Search_ChanceNonPv",
        default: false,
        doc: "chance-node outcomes searched as non-PV nodes, re-searched inside a wide window",
    },
    FeatureSpec {
        name: "Search_ChanceReduction",
        default: false,
        doc: "less likely outcomes searched shallower (ChanceReduction* parameters)",
    },
    FeatureSpec {
        name: "Search_ChanceSingle",
        default: false,
        doc: "off the principal variation, a chance node searches one outcome only (the one statically nearest the mean), corrected by the outcomes' static mean",
    },
    FeatureSpec {
        name: "Search_ChanceSingleQsearch",
        default: false,
        doc: "with Search_ChanceSingle, quiescence values a revealing capture by that one outcome's quiescence plus the correction",
    },
];

impl Features {
    fn slot(&mut self, name: &str) -> Option<&mut bool> {
        let f = match FEATURES
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))?
            .name
        {
            "Search_NullMove" => &mut self.null_move,
            "Search_LMR" => &mut self.lmr,
            "Search_Futility" => &mut self.futility,
            "Search_ChancePruning" => &mut self.chance_pruning,
            "Search_Aspiration" => &mut self.aspiration,
            "Search_ContHist" => &mut self.cont_hist,
            "Search_SEE" => &mut self.see,
            "Search_CorrHist" => &mut self.corr_hist,
            "Search_Singular" => &mut self.singular,
            "Search_TimeScaling" => &mut self.time_scaling,
            "Search_CaptHist" => &mut self.capt_hist,
            "Search_ChanceNonPv" => &mut self.chance_nonpv,
            "Search_ChanceReduction" => &mut self.chance_reduction,
            "Search_ChanceSingle" => &mut self.chance_single,
            "Search_ChanceSingleQsearch" => &mut self.chance_single_qsearch,
            other => unreachable!("feature {other} has no field"),
        };
        Some(f)
    }
    /// Switch a feature by its option name (case-insensitive); `false` for an unknown name.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        self.slot(name).map(|f| *f = on).is_some()
    }
    /// A feature's state by its option name (case-insensitive).
    pub fn get(&self, name: &str) -> Option<bool> {
        self.clone().slot(name).map(|f| *f)
    }
}

/// The feature switch of this name (case-insensitive).
pub fn feature_spec(name: &str) -> Option<&'static FeatureSpec> {
    FEATURES.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The deepest iteration a search runs; deeper depth limits are clamped to it.
pub const MAX_DEPTH: u32 = ordering::MAX_PLY as u32 - 8;
/// The longest time (one day, in ms) a command-line flag may give: a move time, a clock,
/// a timeout. Larger values are typing errors, not plans.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// What `go` asked for. Times in milliseconds. `M` is the game's move type.
#[derive(Clone, Debug)]
pub struct Limits<M> {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    /// Search for a mate in this many moves (stops once one is found).
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Pondering: search without a time limit until `ponderhit` or `stop`. After
    /// `ponderhit` the clock limits apply, measured from the `go` (as Stockfish does), so a
    /// long ponder is answered at once.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: every legal move).
    pub searchmoves: Vec<M>,
    /// When the `go` was read: time limits count from then (`None`: from the search's
    /// start), so that the engine's own delays before the search are on its clock.
    pub start: Option<Instant>,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            wtime: None,
            btime: None,
            winc: None,
            binc: None,
            movestogo: None,
            mate: None,
            infinite: false,
            ponder: false,
            searchmoves: Vec::new(),
            start: None,
        }
    }
}

impl<M> Limits<M> {
    /// Whether a search with these limits ends without `stop` or `ponderhit`, for the
    /// side to move `side`: a depth, node, move-time or clock limit, and no hold.
    pub fn ends_by_itself(&self, side: usize) -> bool {
        let clock = if side == 0 { self.wtime } else { self.btime };
        !self.infinite
            && !self.ponder
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || clock.is_some())
    }

    /// The same limits with the root restricted to `searchmoves` (of another move type:
    /// the protocol parses `go` before it knows the game, then names the moves).
    pub fn with_searchmoves<N>(self, searchmoves: Vec<N>) -> Limits<N> {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            wtime: self.wtime,
            btime: self.btime,
            winc: self.winc,
            binc: self.binc,
            movestogo: self.movestogo,
            mate: self.mate,
            infinite: self.infinite,
            ponder: self.ponder,
            searchmoves,
            start: self.start,
        }
    }
}

/// Engine settings that shape a search.
#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Evaluation weights text (`EvalFile`) applied over the game's compiled-in weights;
    /// `None` searches with the compiled-in weights.
    pub eval_text: Option<Arc<String>>,
    /// Search parameters and feature switches set by name (`setoption`, `bench --param`),
    /// applied over the game's own defaults when a search starts.
    pub settings: SearchSettings,
    /// How strong to play (the `Level`, `UCI_LimitStrength`, `UCI_Elo` and `Skill Level`
    /// options), read with the game's calibration when the search starts.
    pub strength: skill::StrengthRequest,
    /// The seed of a weakened level's choices: each search draws from a generator seeded
    /// by it, the position and the game's ply, so the same seed replays the same game.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 50,
            eval_text: None,
            settings: SearchSettings::default(),
            strength: skill::StrengthRequest::default(),
            seed: 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (fail high).
    Lower,
    /// The score is at most this (fail low).
    Upper,
}

/// One line of search progress (an `info depth ...` line).
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    /// Principal variation; stops after the first move that involves chance (what
    /// follows it is not known).
    pub pv: Vec<M>,
    /// Where the reporting worker's nodes went so far.
    pub stats: SearchStats,
}

/// One chance outcome of a line's first move, as the iteration just reported valued it
/// (sent after that line's `Iteration` report, one per outcome, most likely first).
#[derive(Clone, Debug)]
pub struct OutcomeInfo<M> {
    pub depth: u32,
    pub multipv: usize,
    /// The line's first move, the one with chance.
    pub mv: M,
    pub outcome: u8,
    /// The outcome's probability is `weight / total`.
    pub weight: u16,
    pub total: u32,
    /// The value of the line if this outcome happens, from the side to move's view.
    pub score: Score,
    pub bound: Bound,
    /// What follows the outcome, from the position after it; ends after the first move
    /// with chance.
    pub pv: Vec<M>,
    /// How many plies shallower than `depth` the outcome was searched (see
    /// `OutcomeLine::reduction`).
    pub reduction: u32,
    /// The nodes the outcome's last search took.
    pub nodes: u64,
}

// A report goes out once per iteration or outcome, never in the search's inner loop, so
// the iteration's size (it carries the stats) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Report<M> {
    Iteration(Info<M>),
    /// An outcome of the reported line's first move (see `OutcomeInfo`).
    Outcome(OutcomeInfo<M>),
    /// The root move being searched (sent after the first second of a search).
    CurrMove {
        depth: u32,
        mv: M,
        number: usize,
    },
}

#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` when the side to move has no legal move (or the game is over).
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    /// Where the nodes went, summed over the workers.
    pub stats: SearchStats,
}

impl<M> Default for SearchResult<M> {
    fn default() -> Self {
        SearchResult {
            best: None,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            stats: SearchStats::default(),
        }
    }
}

/// Shared between the protocol thread and the search threads.
#[derive(Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Control {
    fn arm(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
    }
    /// End the search now (all threads); the best move found so far is reported.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: the ponder search becomes a normal one.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// The engine's searcher: owns the transposition table; one search at a time.
/// Shared as `Arc<Searcher>` between the protocol thread and the search thread; every
/// method takes `&self`.
pub struct Searcher {
    control: Arc<Control>,
    tt: RwLock<TranspositionTable>,
}

impl Searcher {
    /// A searcher with a `hash_mb` MiB table; panics if it cannot be allocated (for the
    /// fixed sizes of bench and tests: a size a user chooses goes through `try_new`).
    pub fn new(hash_mb: usize) -> Self {
        Self::try_new(hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }
    /// A searcher with a `hash_mb` MiB table, or why the table cannot be allocated.
    pub fn try_new(hash_mb: usize) -> Result<Self, String> {
        Ok(Searcher {
            control: Arc::new(Control::default()),
            tt: RwLock::new(TranspositionTable::try_new(hash_mb)?),
        })
    }
    /// Resize the transposition table (the `Hash` option, MiB); clears it. Call only
    /// between searches (it waits for a running search otherwise). The new table is
    /// allocated before the old one goes: when it cannot be, the error says why and the
    /// old table stays, contents and all.
    pub fn set_hash(&self, mb: usize) -> Result<(), String> {
        let table = TranspositionTable::try_new(mb)?;
        *self.tt.write().unwrap_or_else(|e| e.into_inner()) = table;
        Ok(())
    }
    /// The table's size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.tt.read().unwrap_or_else(|e| e.into_inner()).size_mb()
    }
    /// Forget everything learnt (`ucinewgame`, `Clear Hash`, a variant change).
    pub fn clear(&self) {
        self.tt.read().unwrap_or_else(|e| e.into_inner()).clear();
    }
    /// Permille of the table in use (for `hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.tt.read().unwrap_or_else(|e| e.into_inner()).hashfull()
    }
    /// The handle `stop`/`ponderhit` act on; valid across searches.
    pub fn control(&self) -> Arc<Control> {
        self.control.clone()
    }
    /// Start a search on its own thread; `done` receives the result (print `bestmove`
    /// there). The stop flag is armed before this returns, so a `stop` sent right after
    /// `go` is never lost. Join the handle before starting another search.
    pub fn start<G: Game>(
        self: &Arc<Self>,
        pos: G,
        limits: Limits<G::Move>,
        opts: Options,
        report: Box<dyn Fn(Report<G::Move>) + Send + Sync>,
        done: Box<dyn FnOnce(SearchResult<G::Move>) + Send>,
    ) -> std::thread::JoinHandle<()> {
        self.control.arm(limits.ponder);
        let me = self.clone();
        std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let result = me.run(&pos, &limits, &opts, &*report);
                done(result);
            })
            .expect("spawn search thread")
    }

    /// Search on the calling thread (bench, analyse, tests); blocks until done.
    pub fn search<G: Game>(
        &self,
        pos: &G,
        limits: &Limits<G::Move>,
        opts: &Options,
        report: &(dyn Fn(Report<G::Move>) + Sync),
    ) -> SearchResult<G::Move> {
        self.control.arm(limits.ponder);
        self.run(pos, limits, opts, report)
    }

    /// Search `pos` (whose undo history holds the game so far, for repetitions) and
    /// return the best move. Blocks until the limits or `stop` end it; `report` is called
    /// from the searching thread for each completed iteration (and currmove lines).
    fn run<G: Game>(
        &self,
        pos: &G,
        limits: &Limits<G::Move>,
        opts: &Options,
        report: &(dyn Fn(Report<G::Move>) + Sync),
    ) -> SearchResult<G::Move> {
        let tt = self.tt.read().unwrap_or_else(|e| e.into_inner());
        threads::run(pos, limits, opts, &tt, &self.control, report)
    }
}
