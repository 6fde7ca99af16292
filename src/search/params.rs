//! Every number the search is tuned by, named and documented in one place: reductions,
//! pruning margins, aspiration windows, chance-node bounds, time management and the
//! transposition table's replacement. `SearchParams` holds the values a search runs with;
//! each is settable at run time (`setoption name <Name> value <N>`, listed by the protocol
//! command `params`; `tinh bench --param Name=N`) so that a tuner can move them.
//!
//! Constants that encode structure rather than strength (the ply limit, thread stack
//! sizes, move-ordering score bands) stay where they are used.

use super::{Features, feature_spec};

/// One parameter as the protocol lists it.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub doc: &'static str,
}

macro_rules! search_params {
    ($( $(#[doc = $doc:literal])+ $field:ident : $name:literal = $default:literal, $min:literal ..= $max:literal; )*) => {
        /// The values one search runs with (see the module comment).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])+ pub $field: i32, )*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $( $field: $default, )* }
            }
        }

        /// Every parameter with its default, range and meaning.
        pub const PARAMS: &[ParamSpec] = &[
            $( ParamSpec { name: $name, default: $default, min: $min, max: $max, doc: concat!($($doc),+).trim_ascii() }, )*
        ];

        impl SearchParams {
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                $( if name.eq_ignore_ascii_case($name) { return Some(&mut self.$field); } )*
                None
            }
        }
    };
}

search_params! {
    /// Largest value a chance node averages: a won or lost outcome counts as this much.
    chance_bound: "ChanceBound" = 2000, 100..=20000;
    /// Chance reduction: an outcome less likely than the most likely one is searched this
    /// many hundredths of a ply shallower ...
    chance_reduction_base: "ChanceReductionBase" = 0, 0..=1000;
    /// ... plus this many hundredths of a ply per halving of its probability against the
    /// most likely outcome's.
    chance_reduction_slope: "ChanceReductionSlope" = 100, 0..=1000;
    /// ... plus this many hundredths of a ply per ply of depth left.
    chance_reduction_per_depth: "ChanceReductionPerDepth" = 0, 0..=100;
    /// 1: chance nodes on the principal variation reduce too (not at the root).
    chance_reduce_pv: "ChanceReducePv" = 0, 0..=1;
    /// 1: the root move on the principal variation reduces its less likely outcomes too
    /// (each still searched as a PV node, for its line).
    chance_reduce_root: "ChanceReduceRoot" = 0, 0..=1;
    /// A chance node off the principal variation with at most this much depth left is
    /// valued by the mean of its outcomes' static evaluations, as in quiescence (-1: never).
    chance_static_depth: "ChanceStaticDepth" = -1, -1..=20;
    /// A null-window chance node with at most this much depth left, that the probing pass
    /// leaves undecided, is valued by the mean of the probes' answers (-1: never).
    chance_estimate_depth: "ChanceEstimateDepth" = -1, -1..=100;
    /// `Search_ChanceSingle` applies to chance nodes with at least this much depth left
    /// (below it the outcomes are all searched, as without the switch; -64: every one).
    chance_single_min_depth: "ChanceSingleMinDepth" = -64, -64..=64;
    /// At chance nodes with at least this much depth left (0: none), `Search_ChanceSingle`
    /// chooses its outcome and shift from quiescence searches of this position's own
    /// outcomes (which see a revealed piece that hangs) instead of the static values shared
    /// by every position where the same move draws from the same pool.
    chance_single_quiet_depth: "ChanceSingleQuietDepth" = 0, 0..=64;
    /// `Search_ChanceSingle` applies on the principal variation too, at chance nodes this
    /// many plies or more from the root (0: never; the root's every outcome is searched for
    /// its line whatever this is).
    chance_single_pv: "ChanceSinglePv" = 0, 0..=64;
    /// 1: with `Search_ChanceSingle`, a chance node on the principal variation below the
    /// root searches its most likely outcome as a PV node and each other outcome with a
    /// null window at its predicted value (the first outcome's value plus the static
    /// difference), and takes the mean of those answers.
    chance_pv_predict: "ChancePvPredict" = 0, 0..=1;
    /// With `ChancePvPredict`, an outcome whose null-window answer lands more than this
    /// far from its prediction is searched again with the full window (0: never).
    chance_pv_predict_margin: "ChancePvPredictMargin" = 0, 0..=2000;
    /// 1: every outcome of a root move on the principal variation continues it (searched as
    /// a PV node, for its line); 0: only the most likely, as below the root.
    chance_root_pv: "ChanceRootPv" = 1, 0..=1;
    /// 1: at a PV node below the root, a later move that reveals and beats alpha on its
    /// null-window search (where its chance node is estimated from one outcome,
    /// `Search_ChanceSingle`) is searched again with the null window over every outcome,
    /// and with the full window only when that beats alpha too.
    chance_pv_verify: "ChancePvVerify" = 0, 0..=1;
    /// Chance nodes average their outcomes' win rates 1 / (1 + e^(-v/s)) with this scale s
    /// (centipawns) instead of their values (0: the plain mean of the values).
    chance_sigmoid_scale: "ChanceSigmoidScale" = 0, 0..=2000;
    /// At a PV node a later move that reveals is searched again with the full window only
    /// when its null-window search beats alpha by more than this (centipawns; 0: by any
    /// amount). Not near mate scores, and not with MultiPV above 1.
    pvs_margin: "PvsMargin" = 0, 0..=200;
    /// Late-move reduction table: base, in hundredths of a ply.
    lmr_base: "LmrBase" = 75, 0..=300;
    /// Late-move reduction table: divisor of ln(depth) * ln(move number), in hundredths.
    lmr_divisor: "LmrDivisor" = 225, 50..=1000;
    /// Late-move reductions start at this depth.
    lmr_min_depth: "LmrMinDepth" = 3, 1..=20;
    /// Late-move reductions start after this many moves (one more at PV nodes).
    lmr_min_moves: "LmrMinMoves" = 2, 1..=20;
    /// A quiet move's history shifts its reduction by one ply per this much.
    lmr_history_divisor: "LmrHistoryDivisor" = 8192, 256..=65536;
    /// Internal iterative reduction: a PV or cut node with this much depth or more and no
    /// move from the table is searched one ply shallower (0: off).
    iir_min_depth: "IirMinDepth" = 0, 0..=64;
    /// Reverse futility pruning up to this depth.
    rfp_max_depth: "RfpMaxDepth" = 6, 0..=20;
    /// Reverse futility margin per ply of depth (one ply less when improving).
    rfp_margin: "RfpMargin" = 80, 0..=1000;
    /// Null-move pruning from this depth on.
    nmp_min_depth: "NmpMinDepth" = 3, 1..=20;
    /// Null-move reduction: base plies.
    nmp_base: "NmpBase" = 3, 0..=10;
    /// Null-move reduction: one more ply per this many plies of depth.
    nmp_depth_divisor: "NmpDepthDivisor" = 4, 1..=20;
    /// Null-move reduction: one more ply per this much evaluation above beta ...
    nmp_eval_divisor: "NmpEvalDivisor" = 200, 10..=2000;
    /// ... but at most this many plies for it.
    nmp_eval_max: "NmpEvalMax" = 3, 0..=10;
    /// Futility pruning of quiet moves up to this depth.
    futility_max_depth: "FutilityMaxDepth" = 5, 0..=20;
    /// Futility margin: base ...
    futility_base: "FutilityBase" = 120, 0..=2000;
    /// ... plus this per ply of depth.
    futility_per_depth: "FutilityPerDepth" = 100, 0..=1000;
    /// Late-move pruning up to this depth.
    lmp_max_depth: "LmpMaxDepth" = 4, 0..=20;
    /// Late-move pruning: quiet moves tried before the rest are skipped, base ...
    lmp_base: "LmpBase" = 4, 0..=100;
    /// ... plus this times depth squared (halved when not improving).
    lmp_per_depth2: "LmpPerDepth2" = 3, 0..=50;
    /// History bonus per depth squared ...
    history_bonus_per_depth2: "HistoryBonusPerDepth2" = 16, 1..=1000;
    /// ... at most this much.
    history_bonus_max: "HistoryBonusMax" = 1600, 1..=16384;
    /// Static exchange pruning (`Search_SEE`) up to this depth.
    see_max_depth: "SeeMaxDepth" = 8, 0..=64;
    /// A capture is skipped when its exchange loses more than this per ply of depth.
    see_noisy_margin: "SeeNoisyMargin" = 100, 0..=2000;
    /// A quiet move is skipped when the piece's exchange loses more than this per depth
    /// squared.
    see_quiet_margin: "SeeQuietMargin" = 25, 0..=1000;
    /// Quiescence skips captures whose exchange loses more than this.
    qsearch_see_margin: "QsearchSeeMargin" = 0, 0..=1000;
    /// Singular extensions (`Search_Singular`) from this depth on ...
    se_min_depth: "SeMinDepth" = 6, 1..=64;
    /// ... when the table entry is at most this many plies shallower than the node.
    se_tt_depth_margin: "SeTtDepthMargin" = 3, 0..=20;
    /// The other moves must stay below the table score minus this per ply of depth, in
    /// sixteenths.
    se_margin: "SeMargin" = 16, 0..=1000;
    /// Capture history (`Search_CaptHist`): a capture's history divided by this is added
    /// to its MVV-LVA ordering score.
    capt_hist_divisor: "CaptHistDivisor" = 32, 1..=1024;
    /// Correction history (`Search_CorrHist`): percent of the learnt correction applied.
    corr_weight: "CorrWeight" = 100, 0..=400;
    /// Quiescence tries every move (check evasions, threats on the 0) for this many plies.
    qsearch_check_plies: "QsearchCheckPlies" = 4, 0..=16;
    /// Check extensions stop at this many times the iteration's depth (in plies).
    check_extension_factor: "CheckExtensionFactor" = 2, 0..=8;
    /// Aspiration windows from this depth on.
    aspiration_min_depth: "AspirationMinDepth" = 4, 1..=64;
    /// First aspiration half-width; doubled after every fail.
    aspiration_delta: "AspirationDelta" = 20, 1..=1000;
    /// Past this half-width the window opens fully.
    aspiration_max_delta: "AspirationMaxDelta" = 600, 1..=20000;
    /// Time: moves to go assumed when the clock does not say.
    time_moves_to_go: "TimeMovesToGo" = 30, 1..=200;
    /// Time: moves to go are counted at most this high.
    time_max_moves_to_go: "TimeMaxMovesToGo" = 50, 1..=200;
    /// Time: the clock's reserve, never planned, in Move Overheads: room for the stalls
    /// of a loaded machine (a few hundred ms; rarely up to 900 ms measured at load 15 on
    /// 2 cores), not only for the pipe's delay.
    time_reserve_overheads: "TimeReserveOverheads" = 12, 1..=100;
    /// Time: percent of the increment added to each move's share.
    time_increment_percent: "TimeIncrementPercent" = 75, 0..=100;
    /// Time: a move's soft limit is at most this percent of the usable time.
    time_max_share_percent: "TimeMaxSharePercent" = 50, 1..=100;
    /// Time: the hard limit is this many times the soft limit ...
    time_hard_factor: "TimeHardFactor" = 4, 1..=20;
    /// ... and at most this percent of the usable time.
    time_hard_max_percent: "TimeHardMaxPercent" = 75, 1..=100;
    /// Time scaling (`Search_TimeScaling`): percent of the soft limit when the best move
    /// changed in the last iteration ...
    time_stable0: "TimeStable0" = 250, 10..=1000;
    /// ... after one iteration with the same best move ...
    time_stable1: "TimeStable1" = 120, 10..=1000;
    /// ... after two ...
    time_stable2: "TimeStable2" = 90, 10..=1000;
    /// ... after three ...
    time_stable3: "TimeStable3" = 80, 10..=1000;
    /// ... and after four or more.
    time_stable4: "TimeStable4" = 75, 10..=1000;
    /// Time scaling: the soft limit is also multiplied by (TimeNodesBase - the best move's
    /// percent of the root's nodes) ...
    time_nodes_base: "TimeNodesBase" = 150, 100..=300;
    /// ... times this percent.
    time_nodes_scale: "TimeNodesScale" = 135, 10..=500;
    /// Time: report the root move being searched after this many milliseconds.
    currmove_after_ms: "CurrmoveAfterMs" = 1000, 0..=600000;
    /// Time: report an aspiration fail (bound) line after this many milliseconds.
    bound_lines_after_ms: "BoundLinesAfterMs" = 2000, 0..=600000;
    /// Transposition table: a result of the same position searched more than this many
    /// plies deeper is kept over a new inexact one.
    tt_keep_deeper: "TtKeepDeeper" = 2, 0..=64;
    /// Transposition table: each search of age counts as this many plies of depth when
    /// choosing the entry to replace.
    tt_age_weight: "TtAgeWeight" = 8, 0..=64;
}

impl SearchParams {
    /// Set a parameter by name (case-insensitive), checking its range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let spec = spec(name).ok_or_else(|| format!("unknown search parameter '{name}'"))?;
        if value < spec.min as i64 || value > spec.max as i64 {
            return Err(format!(
                "search parameter '{}' value {value} is out of range {}..={}",
                spec.name, spec.min, spec.max
            ));
        }
        *self.slot(spec.name).expect("listed parameter") = value as i32;
        Ok(())
    }

    /// A parameter's value by name (case-insensitive).
    pub fn get(&self, name: &str) -> Option<i32> {
        self.clone().slot(name).map(|v| *v)
    }
}

/// Search parameters and feature switches set by name over a game's own defaults: what
/// `setoption` gives (and `tinh bench --param`, `tinh match ... option.X=V`). A feature
/// is named by its check option (`Search_NullMove`) with 1 for on and 0 for off. A later
/// setting of a name replaces an earlier one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchSettings {
    values: Vec<(&'static str, i32)>,
}

impl SearchSettings {
    /// Settings from (name, value) pairs, each checked as `set` checks it.
    pub fn with(pairs: &[(&str, i64)]) -> Result<Self, String> {
        let mut s = SearchSettings::default();
        for &(name, value) in pairs {
            s.set(name, value)?;
        }
        Ok(s)
    }

    /// Set a parameter (its range checked) or a feature switch (0 or 1).
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let canonical = if let Some(f) = feature_spec(name) {
            if value != 0 && value != 1 {
                return Err(format!(
                    "search feature '{}' value {value} is not 0 (off) or 1 (on)",
                    f.name
                ));
            }
            f.name
        } else {
            SearchParams::default().set(name, value)?;
            spec(name).expect("checked by set").name
        };
        self.values.retain(|(n, _)| *n != canonical);
        self.values.push((canonical, value as i32));
        Ok(())
    }

    /// Apply `NAME=VALUE` settings (as given to `bench --param`); a feature takes
    /// `true`/`false` as well as 1/0.
    pub fn apply_assignments(&mut self, assignments: &[String]) -> Result<(), String> {
        for a in assignments {
            let (name, value) = a
                .split_once('=')
                .ok_or_else(|| format!("'{a}': expected NAME=VALUE"))?;
            let v: i64 = match value.trim().to_ascii_lowercase().as_str() {
                "true" => 1,
                "false" => 0,
                other => other
                    .parse()
                    .map_err(|_| format!("'{a}': '{value}' is not an integer"))?,
            };
            self.set(name.trim(), v)?;
        }
        Ok(())
    }

    /// The parameters and features a search runs with: the generic defaults, then the
    /// game's own (`Game::search_defaults`), then these settings.
    pub fn resolve(&self, game_defaults: &[(&str, i32)]) -> (SearchParams, Features) {
        let mut params = SearchParams::default();
        let mut features = Features::default();
        for &(name, value) in game_defaults.iter().chain(self.values.iter()) {
            if !features.set(name, value != 0) && params.set(name, value as i64).is_err() {
                // Settings are checked when made and every game's defaults by a test.
                debug_assert!(false, "search setting {name}={value} not applied");
            }
        }
        (params, features)
    }
}

/// The parameter of this name (case-insensitive).
pub fn spec(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_settable_and_in_range() {
        let mut p = SearchParams::default();
        for s in PARAMS {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert_eq!(p.get(s.name), Some(s.default));
            assert!(!s.doc.is_empty());
            p.set(&s.name.to_ascii_lowercase(), s.max as i64).unwrap();
            assert_eq!(p.get(s.name), Some(s.max));
            assert!(p.set(s.name, s.max as i64 + 1).is_err());
            assert!(p.set(s.name, s.min as i64 - 1).is_err());
        }
        assert!(p.set("NoSuchParam", 1).is_err());
    }

    #[test]
    fn settings_apply_over_game_defaults() {
        let mut s = SearchSettings::default();
        s.apply_assignments(&[
            "rfpmargin=90".into(),
            "LmrBase = 50".into(),
            "search_nullmove=false".into(),
        ])
        .unwrap();
        for bad in [
            "RfpMargin",
            "RfpMargin=x",
            "RfpMargin=100000",
            "Search_LMR=2",
            "X=1",
        ] {
            assert!(s.apply_assignments(&[bad.into()]).is_err(), "{bad}");
        }
        let game = [
            ("RfpMargin", 70),
            ("LmrDivisor", 300),
            ("Search_NullMove", 1),
        ];
        let (p, f) = s.resolve(&game);
        // The user's settings win over the game's, which win over the generic defaults.
        assert_eq!((p.rfp_margin, p.lmr_base, p.lmr_divisor), (90, 50, 300));
        assert!(!f.null_move && f.lmr);
        let (p, f) = SearchSettings::default().resolve(&[]);
        assert_eq!((p, f), (SearchParams::default(), Features::default()));
        // A later setting of a name replaces the earlier one.
        s.set("RFPMARGIN", 60).unwrap();
        assert_eq!(s.resolve(&game).0.rfp_margin, 60);
    }
}
