//! Correction history: the search's results corrected against the static evaluation,
//! learnt per part of the position (`Game::correction_keys`: in chess the pawns and each
//! side's other pieces). Where searches keep finding a position better (worse) than its
//! evaluation said, positions sharing those parts get their evaluation raised (lowered)
//! before pruning decisions and stand-pat use it. Each entry is an exponential moving
//! average of (search result - evaluation), weighted by the depth that found it.

use crate::game::{CORRECTION_KEYS, MATE_BOUND, Score};

/// Entries per key and side to move.
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times this.
const GRAIN: i32 = 256;
/// An entry corrects by at most this many centipawns.
const MAX_CP: i32 = 64;
/// Weights of the moving average, out of this.
const WEIGHT_SCALE: i32 = 1024;

pub struct CorrectionHistory {
    /// [side][key][index], empty when the feature is off.
    table: Vec<i32>,
}

#[inline(always)]
fn slot(side: usize, k: usize, key: u64) -> usize {
    (side * CORRECTION_KEYS + k) * SIZE + (key as usize & (SIZE - 1))
}

impl CorrectionHistory {
    /// A table, or nothing when `on` is false.
    pub fn new(on: bool) -> Self {
        CorrectionHistory {
            table: if on {
                vec![0; 2 * CORRECTION_KEYS * SIZE]
            } else {
                Vec::new()
            },
        }
    }

    /// The evaluation `raw` of a position with these keys, `side` to move, corrected by
    /// `weight_pct` percent of the summed entries; it stays an evaluation (never a mate).
    #[inline]
    pub fn correct(
        &self,
        side: usize,
        keys: &[u64; CORRECTION_KEYS],
        raw: Score,
        weight_pct: i32,
    ) -> Score {
        let mut sum = 0i64;
        for (k, &key) in keys.iter().enumerate().filter(|(_, key)| **key != 0) {
            sum += self.table[slot(side, k, key)] as i64;
        }
        let delta = sum * weight_pct as i64 / (100 * GRAIN as i64);
        (raw as i64 + delta).clamp(-(MATE_BOUND as i64) + 1, MATE_BOUND as i64 - 1) as Score
    }

    /// A search of `depth` found `diff` = result - evaluation here.
    #[inline]
    pub fn update(&mut self, side: usize, keys: &[u64; CORRECTION_KEYS], depth: i32, diff: Score) {
        let w = (depth * depth + 2 * depth + 1).min(128);
        let target = diff.clamp(-MAX_CP, MAX_CP) * GRAIN;
        for (k, &key) in keys.iter().enumerate().filter(|(_, key)| **key != 0) {
            let e = &mut self.table[slot(side, k, key)];
            // The step rounded away from zero, so that an entry reaches its target
            // instead of stalling a few grains short of it (never past it: w <= scale).
            let d = (target - *e) * w;
            *e += (d + d.signum() * (WEIGHT_SCALE - 1)) / WEIGHT_SCALE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_toward_the_search_results_and_stay_bounded() {
        let mut c = CorrectionHistory::new(true);
        let keys = [11, 22, 0];
        assert_eq!(c.correct(0, &keys, 50, 100), 50);
        for _ in 0..200 {
            c.update(0, &keys, 10, 1000);
        }
        // Two keys in use, each at most MAX_CP.
        assert_eq!(c.correct(0, &keys, 50, 100), 50 + 2 * MAX_CP);
        assert_eq!(c.correct(0, &keys, 50, 50), 50 + MAX_CP);
        // The other side to move and other keys are untouched.
        assert_eq!(c.correct(1, &keys, 50, 100), 50);
        assert_eq!(c.correct(0, &[33, 44, 55], 50, 100), 50);
        c.update(0, &keys, 1, -20);
        assert!(c.correct(0, &keys, 50, 100) < 50 + 2 * MAX_CP);
    }
}
