//! Ratings of many players from all their games at once: the maximum-likelihood
//! Bradley–Terry (logistic Elo) fit, one player held at a fixed rating (the anchor), with
//! intervals from the likelihood's curvature. A draw counts as half a win and half a
//! loss; every pairing that played also gets one virtual draw (a weak prior, as BayesElo's
//! default), so that a pairing one side won every game of still has a finite gap, decided
//! mostly by the other pairings.

/// The games of one pairing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    /// Points of `a` (wins + draws / 2).
    pub points: f64,
    pub games: u64,
}

/// Ratings and their covariance, in Elo.
#[derive(Clone, Debug)]
pub struct Fit {
    pub elo: Vec<f64>,
    /// Covariance of the ratings (the anchor's row and column are 0).
    pub cov: Vec<Vec<f64>>,
}

/// Elo per natural-log unit of the odds: 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// The weak prior: this many virtual draws per pairing that played.
const VIRTUAL_DRAWS: f64 = 1.0;

impl Fit {
    /// Half-width of the 95% interval of player `i`'s rating.
    pub fn margin(&self, i: usize) -> f64 {
        1.96 * self.cov[i][i].max(0.0).sqrt()
    }

    /// Half-width of the 95% interval of the gap `elo[i] - elo[j]`.
    pub fn gap_margin(&self, i: usize, j: usize) -> f64 {
        let v = self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j];
        1.96 * v.max(0.0).sqrt()
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fit `n` players' ratings to `results`, player `anchor` fixed at `anchor_elo`. Every
/// player must be connected to the anchor through pairings that played.
pub fn fit(
    n: usize,
    anchor: usize,
    anchor_elo: f64,
    results: &[PairResult],
) -> Result<Fit, String> {
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let index = |p: usize| free.iter().position(|&f| f == p);
    let mut x = vec![0.0f64; n];
    let mut info = vec![vec![0.0f64; free.len()]; free.len()];
    for _ in 0..200 {
        let mut grad = vec![0.0f64; free.len()];
        for row in info.iter_mut() {
            row.iter_mut().for_each(|v| *v = 0.0);
        }
        for r in results.iter().filter(|r| r.games > 0) {
            let games = r.games as f64 + VIRTUAL_DRAWS;
            let points = r.points + VIRTUAL_DRAWS / 2.0;
            let p = logistic(x[r.a] - x[r.b]);
            let w = games * p * (1.0 - p);
            let (ia, ib) = (index(r.a), index(r.b));
            if let Some(i) = ia {
                grad[i] += points - games * p;
                info[i][i] += w;
            }
            if let Some(j) = ib {
                grad[j] -= points - games * p;
                info[j][j] += w;
            }
            if let (Some(i), Some(j)) = (ia, ib) {
                info[i][j] -= w;
                info[j][i] -= w;
            }
        }
        let step = solve(&info, &grad).ok_or("the pairings do not connect every player")?;
        let mut largest = 0.0f64;
        for (k, &p) in free.iter().enumerate() {
            x[p] += step[k];
            largest = largest.max(step[k].abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let inv = invert(&info).ok_or("the pairings do not connect every player")?;
    let mut cov = vec![vec![0.0; n]; n];
    for (a, &p) in free.iter().enumerate() {
        for (b, &q) in free.iter().enumerate() {
            cov[p][q] = inv[a][b] * ELO_PER_NAT * ELO_PER_NAT;
        }
    }
    Ok(Fit {
        elo: x.iter().map(|v| anchor_elo + v * ELO_PER_NAT).collect(),
        cov,
    })
}

/// Solve `m * v = b` (Gaussian elimination with partial pivoting); `None` when singular.
fn solve(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(b)
        .map(|(row, &bi)| {
            let mut r = row.clone();
            r.push(bi);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (row, r) in a.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

/// The inverse of `m`, column by column; `None` when singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut cols = Vec::with_capacity(n);
    for c in 0..n {
        let e: Vec<f64> = (0..n).map(|i| if i == c { 1.0 } else { 0.0 }).collect();
        cols.push(solve(m, &e)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| cols[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::elo_from_score;

    #[test]
    fn two_players_match_the_score_formula() {
        // 76 points of 100 (with the virtual draw: 76.5 of 101).
        let r = [PairResult {
            a: 1,
            b: 0,
            points: 76.0,
            games: 100,
        }];
        let f = fit(2, 0, 0.0, &r).unwrap();
        assert!((f.elo[1] - elo_from_score(76.5 / 101.0)).abs() < 1e-6);
        assert_eq!(f.elo[0], 0.0);
        assert!(f.margin(1) > 50.0 && f.margin(1) < 120.0, "{}", f.margin(1));
    }

    #[test]
    fn a_chain_adds_up_and_perfect_scores_stay_finite() {
        // 0 < 1 < 2, each gap about 200 Elo (76%); 2 beats 0 every game.
        let r = [
            PairResult {
                a: 1,
                b: 0,
                points: 152.0,
                games: 200,
            },
            PairResult {
                a: 2,
                b: 1,
                points: 152.0,
                games: 200,
            },
            PairResult {
                a: 2,
                b: 0,
                points: 20.0,
                games: 20,
            },
        ];
        let f = fit(3, 0, 0.0, &r).unwrap();
        assert!(f.elo[1] > 150.0 && f.elo[1] < 260.0, "{:?}", f.elo);
        assert!(f.elo[2] > 350.0 && f.elo[2] < 520.0, "{:?}", f.elo);
        assert!(f.gap_margin(2, 1) < f.margin(2) + f.margin(1));
        // Nobody connects player 3.
        assert!(fit(4, 0, 0.0, &r).is_err());
    }
}
