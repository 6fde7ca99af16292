//! Where a search's nodes go: plain counters kept by each worker (inner nodes by kind,
//! quiescence nodes, chance nodes and how they ended, outcome searches by depth
//! reduction, where inner nodes were cut), summed over workers into the result and shown
//! by `tinh analyse --stats`. They only count; nothing in the search reads them.

/// How many outcome-search depth reductions are told apart (the last counts this many
/// plies or more).
pub const REDUCTION_BUCKETS: usize = 4;

/// Node counters of one search (or one worker).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Inner nodes on the principal variation.
    pub pv_nodes: u64,
    /// Inner nodes searched with a null window.
    pub null_window_nodes: u64,
    /// Inner nodes off the principal variation that need an exact value inside a wide
    /// window (what chance nodes ask of their outcomes), whether they are searched as PV
    /// nodes (`chance_nonpv` off) or not.
    pub wide_nodes: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    /// Chance nodes entered (a move with chance outcomes searched by the main search).
    pub chance_nodes: u64,
    /// Chance nodes answered by the transposition table.
    pub chance_tt_cuts: u64,
    /// Chance nodes decided by the probing pass (null-window answers of every outcome).
    pub probe_cuts: u64,
    /// Chance nodes decided by Star1 bounds before every outcome was exact.
    pub star1_cuts: u64,
    /// Chance nodes valued by one outcome only (`Search_ChanceSingle`).
    pub single_outcome: u64,
    /// Of those, the ones shifted by quiescence searches of their own outcomes
    /// (`ChanceSingleQuietDepth`).
    pub quiet_shifts: u64,
    /// Chance nodes on the principal variation valued by predictions (`ChancePvPredict`).
    pub predicted: u64,
    /// Outcomes of those searched again with the full window, their null-window answer
    /// having landed more than `ChancePvPredictMargin` from the prediction.
    pub predict_researches: u64,
    /// Reveals at PV nodes whose single-outcome null-window estimate beat alpha, searched
    /// again over every outcome before a full-window re-search (`ChancePvVerify`).
    pub pv_verifies: u64,
    /// Of those, the ones that then failed low, so that no re-search was needed.
    pub pv_verify_fails: u64,
    /// Outcome searches, by how many plies their depth was reduced (0, 1, 2, 3+).
    pub outcome_searches: [u64; REDUCTION_BUCKETS],
    /// Outcomes valued by a static evaluation (chance moves in quiescence).
    pub static_outcomes: u64,
    /// Inner nodes answered by the transposition table before any move.
    pub tt_cuts: u64,
    /// Inner nodes cut by reverse futility pruning.
    pub rfp_cuts: u64,
    /// Inner nodes cut by null-move pruning.
    pub nmp_cuts: u64,
    /// Null-move searches tried.
    pub nmp_tries: u64,
    /// Inner nodes whose move loop failed high.
    pub beta_cuts: u64,
    /// Of those, the ones where the first move searched did (how good the move ordering
    /// is: about 90% in chess engines).
    pub first_move_cuts: u64,
}

impl SearchStats {
    pub fn add(&mut self, o: &SearchStats) {
        self.pv_nodes += o.pv_nodes;
        self.null_window_nodes += o.null_window_nodes;
        self.wide_nodes += o.wide_nodes;
        self.qnodes += o.qnodes;
        self.chance_nodes += o.chance_nodes;
        self.chance_tt_cuts += o.chance_tt_cuts;
        self.probe_cuts += o.probe_cuts;
        self.star1_cuts += o.star1_cuts;
        self.single_outcome += o.single_outcome;
        self.quiet_shifts += o.quiet_shifts;
        self.predicted += o.predicted;
        self.predict_researches += o.predict_researches;
        self.pv_verifies += o.pv_verifies;
        self.pv_verify_fails += o.pv_verify_fails;
        for (a, b) in self.outcome_searches.iter_mut().zip(o.outcome_searches) {
            *a += b;
        }
        self.static_outcomes += o.static_outcomes;
        self.tt_cuts += o.tt_cuts;
        self.rfp_cuts += o.rfp_cuts;
        self.nmp_cuts += o.nmp_cuts;
        self.nmp_tries += o.nmp_tries;
        self.beta_cuts += o.beta_cuts;
        self.first_move_cuts += o.first_move_cuts;
    }

    /// Inner (main-search) nodes of every kind.
    pub fn inner_nodes(&self) -> u64 {
        self.pv_nodes + self.null_window_nodes + self.wide_nodes
    }

    /// The counters as one labelled line.
    pub fn summary(&self) -> String {
        let o = &self.outcome_searches;
        format!(
            "inner {} (pv {} wide {} null {}) qsearch {} chance {} (tt {} probe {} star1 {} single {} quiet {} predicted {} again {} verified {} low {}) \
             outcomes by reduction {}/{}/{}/{}+ static outcomes {}",
            self.inner_nodes(),
            self.pv_nodes,
            self.wide_nodes,
            self.null_window_nodes,
            self.qnodes,
            self.chance_nodes,
            self.chance_tt_cuts,
            self.probe_cuts,
            self.star1_cuts,
            self.single_outcome,
            self.quiet_shifts,
            self.predicted,
            self.predict_researches,
            self.pv_verifies,
            self.pv_verify_fails,
            o[0],
            o[1],
            o[2],
            o[3],
            self.static_outcomes,
        )
    }

    /// Where inner nodes were cut, as one labelled line.
    pub fn cuts_summary(&self) -> String {
        format!(
            "table {} reverse futility {} null move {} of {} tried, move loop {} (first move {:.1}%)",
            self.tt_cuts,
            self.rfp_cuts,
            self.nmp_cuts,
            self.nmp_tries,
            self.beta_cuts,
            100.0 * self.first_move_cuts as f64 / self.beta_cuts.max(1) as f64
        )
    }
}
