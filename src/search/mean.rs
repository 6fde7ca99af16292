//! How a chance node averages its outcomes' values: the weighted mean of the values
//! clamped to ±B (`ChanceBound`), either of the values themselves (the linear mean) or of
//! their win rates (`ChanceSigmoidScale` > 0: each value v counts as 1 / (1 + e^(-v/s)),
//! and the mean win rate is turned back into a score). The win-rate mean values a gamble
//! as a player does: a sure +2 beats an even chance of +8 or -3, which the linear mean
//! ranks the other way round.
//!
//! Both are monotone maps W from scores to integers, so that Star1's arguments carry over:
//! bounds on the outcomes' values give bounds on the sum of their W, and a node's value is
//! `F(sum) = the largest x in [-B, B] with total * W(x) <= sum`. For the linear mean W is
//! the identity and F is the floored mean, exactly as before W existed.

use crate::game::Score;

/// Fixed-point unit of a win rate (1.0): fine enough that W stays strictly increasing
/// over ±B at every scale the parameter allows, small enough that a sum of weights times
/// it fits in an i64.
const ONE: f64 = (1u64 << 40) as f64;

#[derive(Clone, Debug)]
pub struct ChanceMean {
    /// B: values are clamped to [-B, B] before they are averaged.
    bound: i64,
    /// W(v) for v in [-B-1, B+1] (win-rate mean); empty for the linear mean.
    table: Vec<i64>,
}

impl ChanceMean {
    /// The mean for clamp bound `bound` and win-rate scale `scale` (0: linear).
    pub fn new(bound: Score, scale: Score) -> Self {
        let bound = bound as i64;
        let table = if scale > 0 {
            (-bound - 1..=bound + 1)
                .map(|v| (ONE / (1.0 + (-(v as f64) / scale as f64).exp())).round() as i64)
                .collect()
        } else {
            Vec::new()
        };
        ChanceMean { bound, table }
    }

    /// W(v) of a value in [-B-1, B+1].
    #[inline]
    pub fn w(&self, v: i64) -> i64 {
        if self.table.is_empty() {
            v
        } else {
            self.table[(v + self.bound + 1) as usize]
        }
    }

    /// The largest v with W(v) <= y (below -B-1 or above B+1 when every or no value of
    /// the range has it, for the win-rate mean: -B-2 and B+1).
    pub fn floor_inv(&self, y: i64) -> i64 {
        if self.table.is_empty() {
            return y;
        }
        // Values with W(v) <= y form a prefix of the table.
        let n = self.table.partition_point(|&t| t <= y) as i64;
        n - self.bound - 2
    }

    /// The smallest v with W(v) >= y (-B-1 or B+2 beyond the range, as `floor_inv`).
    pub fn ceil_inv(&self, y: i64) -> i64 {
        if self.table.is_empty() {
            return y;
        }
        let n = self.table.partition_point(|&t| t < y) as i64;
        n - self.bound - 1
    }

    /// The value of a node whose outcomes' W, weighted, sum to `sum` (weights' total
    /// `total`): the largest x in [-B, B] with total * W(x) <= sum.
    #[inline]
    pub fn value(&self, sum: i64, total: i64) -> Score {
        let y = sum.div_euclid(total);
        if self.table.is_empty() {
            y as Score
        } else {
            self.floor_inv(y).clamp(-self.bound, self.bound) as Score
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_mean_is_the_floored_mean() {
        let m = ChanceMean::new(2000, 0);
        assert_eq!(m.w(-7), -7);
        assert_eq!(m.value(-7, 2), -4);
        assert_eq!(m.floor_inv(13), 13);
        assert_eq!(m.ceil_inv(13), 13);
    }

    #[test]
    fn win_rate_mean_inverts_its_map() {
        for scale in [100, 150, 400] {
            let m = ChanceMean::new(2000, scale);
            for v in -2001..=2001i64 {
                if v < 2001 {
                    assert!(m.w(v) < m.w(v + 1), "strictly increasing at {v}");
                }
                assert_eq!(m.floor_inv(m.w(v)), v);
                assert_eq!(m.ceil_inv(m.w(v)), v);
                assert_eq!(m.floor_inv(m.w(v) - 1), v - 1);
            }
            assert_eq!(m.floor_inv(-1), -2002);
            assert_eq!(m.ceil_inv(i64::MAX), 2002);
            // One value alone is its own mean; +2 for sure beats +8 or -3 at even odds.
            assert_eq!(m.value(3 * m.w(250), 3), 250);
            let gamble = m.value(m.w(800) + m.w(-300), 2);
            assert!(gamble < 200 && gamble > -300, "{gamble}");
            assert_eq!(m.value(m.w(2000), 1), 2000);
        }
    }
}
