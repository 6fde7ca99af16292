//! Match statistics: score, Elo difference with its 95% interval, LOS, draw ratio,
//! pentanomial pair counts and the SPRT log-likelihood ratio.
//!
//! Models: the Elo interval and the LLR use the pentanomial model (game pairs played with
//! colours swapped, scores 0, ¼, ½, ¾, 1 per game on average) whenever at least one pair is
//! complete; otherwise (or on request) the trinomial model (single games W/D/L). The Elo
//! interval uses the normal approximation of the mean score; the LLR is the generalised
//! SPRT of fishtest/fastchess with logistic Elo bounds: the multinomial log-likelihood
//! ratio between the maximum-likelihood distributions with expected scores s0 and s1.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Expected score of a player `elo` points stronger (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference matching an expected score in (0, 1); ±infinity at the ends.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Error function (std has none): Numerical Recipes' `erfcc` Chebyshev fit, fractional
/// error below 1.2e-7 everywhere, plenty for LOS.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { 1.0 - r } else { r - 1.0 }
}

/// Likelihood of superiority: probability that the first player is the stronger one,
/// from wins and losses only (draws carry no information on the sign).
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * (wins + losses) as f64).sqrt()))
}

/// Mean and variance of a discrete distribution given by (value, count) pairs.
fn mean_var(samples: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = samples.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = samples.iter().map(|&(v, c)| v * c).sum::<f64>() / n;
    let var = samples
        .iter()
        .map(|&(v, c)| c * (v - mean) * (v - mean))
        .sum::<f64>()
        / n;
    (n, mean, var)
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Interval ends (Elo of mean score ± 1.96 standard errors).
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval's width: the "±" figure cutechess prints.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

fn estimate(samples: &[(f64, f64)]) -> Option<EloEstimate> {
    let (n, mean, var) = mean_var(samples);
    if n <= 0.0 {
        return None;
    }
    let se = (var / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mean),
        lower: elo_from_score(mean - Z95 * se),
        upper: elo_from_score(mean + Z95 * se),
    })
}

/// Win/loss/draw counts of the first player, plus pentanomial counts of its complete pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Pairs by total score over the two games: [0 (LL), ½ (LD), 1 (DD or WL), 1½ (WD), 2 (WW)].
    pub penta: [u64; 5],
    /// Of `penta[2]`: pairs that were one win and one loss (rather than two draws).
    pub penta_wl: u64,
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }
    /// Points of the first player (win 1, draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }
    /// Add another tally's counts to these (runs of the same test pooled).
    pub fn add(&mut self, other: &Tally) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        for (sum, n) in self.penta.iter_mut().zip(other.penta) {
            *sum += n;
        }
        self.penta_wl += other.penta_wl;
    }
    /// Record one game; `points` is 1.0, 0.5 or 0.0 for the first player.
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
    /// Record a complete pair (the two games of one opening), points of the first player.
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let idx = ((a + b) * 2.0).round() as usize;
        self.penta[idx.min(4)] += 1;
        if idx == 2 && (a - b).abs() > 0.75 {
            self.penta_wl += 1;
        }
    }
    fn trinomial_samples(&self) -> [(f64, f64); 3] {
        [
            (1.0, self.wins as f64),
            (0.5, self.draws as f64),
            (0.0, self.losses as f64),
        ]
    }
    fn pentanomial_samples(&self) -> [(f64, f64); 5] {
        let p = self.penta;
        [
            (0.0, p[0] as f64),
            (0.25, p[1] as f64),
            (0.5, p[2] as f64),
            (0.75, p[3] as f64),
            (1.0, p[4] as f64),
        ]
    }
    /// Elo with its 95% interval from single games (trinomial model).
    pub fn elo_trinomial(&self) -> Option<EloEstimate> {
        estimate(&self.trinomial_samples())
    }
    /// Elo with its 95% interval from complete pairs (pentanomial model).
    pub fn elo_pentanomial(&self) -> Option<EloEstimate> {
        estimate(&self.pentanomial_samples())
    }
    /// The pentanomial estimate when there are pairs, otherwise the trinomial one.
    pub fn elo(&self) -> Option<(EloEstimate, Model)> {
        if self.pairs() > 0 {
            self.elo_pentanomial().map(|e| (e, Model::Pentanomial))
        } else {
            self.elo_trinomial().map(|e| (e, Model::Trinomial))
        }
    }
    pub fn los(&self) -> f64 {
        los(self.wins, self.losses)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    Trinomial,
    Pentanomial,
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Trinomial => "trinomial",
            Model::Pentanomial => "pentanomial",
        }
    }
}

/// The distribution closest (maximum likelihood) to the empirical `phat` over the values
/// `a` whose expectation is `s`: `p_i = phat_i / (1 + θ(a_i − s))` with θ the root of
/// `Σ phat_i (a_i − s) / (1 + θ(a_i − s)) = 0` (Van den Bergh, "Comments on Normalized
/// Elo", proposition 1.1). The left side falls strictly in θ, from +∞ to −∞ across the
/// interval where every denominator stays positive: bisection finds the root.
fn mle_with_mean(a: &[f64], phat: &[f64], s: f64) -> Vec<f64> {
    let amax = a.iter().cloned().fold(f64::MIN, f64::max);
    let amin = a.iter().cloned().fold(f64::MAX, f64::min);
    let (mut lo, mut hi) = (-1.0 / (amax - s), -1.0 / (amin - s));
    let f = |t: f64| -> f64 {
        a.iter()
            .zip(phat)
            .map(|(&x, &p)| p * (x - s) / (1.0 + t * (x - s)))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    a.iter()
        .zip(phat)
        .map(|(&x, &p)| p / (1.0 + t * (x - s)))
        .collect()
}

/// Log-likelihood ratio of H1 (elo1) against H0 (elo0), multinomial model over samples
/// with values in [0, 1]: `N · Σ phat_i · ln(p1_i / p0_i)` with p0, p1 the maximum
/// likelihood distributions of expected score s0, s1 (the generalised SPRT that fishtest
/// and fastchess use). Empty cells count 1e-3 (their `regularize`), so a one-sided run
/// (every pair won) still moves the LLR, slowly.
fn gsprt_llr(samples: &[(f64, f64)], elo0: f64, elo1: f64) -> f64 {
    if samples.iter().all(|&(_, c)| c <= 0.0) {
        return 0.0;
    }
    let a: Vec<f64> = samples.iter().map(|&(v, _)| v).collect();
    let counts: Vec<f64> = samples.iter().map(|&(_, c)| c.max(1e-3)).collect();
    let n: f64 = counts.iter().sum();
    let phat: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let p0 = mle_with_mean(&a, &phat, score_from_elo(elo0));
    let p1 = mle_with_mean(&a, &phat, score_from_elo(elo1));
    n * phat
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&p, (&q0, &q1))| p * (q1.ln() - q0.ln()))
        .sum::<f64>()
}

/// Sequential probability ratio test settings (`--sprt elo0= elo1= alpha= beta=`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// LLR reached the upper bound: H1 (elo >= elo1) accepted.
    H1,
    /// LLR reached the lower bound: H0 (elo <= elo0) accepted.
    H0,
    Continue,
}

impl Sprt {
    /// (lower, upper) LLR bounds: ln(β/(1−α)) and ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
    pub fn llr_trinomial(&self, t: &Tally) -> f64 {
        gsprt_llr(&t.trinomial_samples(), self.elo0, self.elo1)
    }
    pub fn llr_pentanomial(&self, t: &Tally) -> f64 {
        gsprt_llr(&t.pentanomial_samples(), self.elo0, self.elo1)
    }
    /// The LLR under the pentanomial model when pairs exist, else trinomial.
    pub fn llr(&self, t: &Tally) -> (f64, Model) {
        if t.pairs() > 0 {
            (self.llr_pentanomial(t), Model::Pentanomial)
        } else {
            (self.llr_trinomial(t), Model::Trinomial)
        }
    }
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::H1
        } else if llr <= lo {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        // No "-0.00".
        format!("{:.2}", if x.abs() < 0.005 { 0.0 } else { x })
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// The summary block printed at the end of a match and every `--ratinginterval` games,
/// for the first player (`a`) against the second (`b`).
pub fn summary(a: &str, b: &str, t: &Tally, sprt: Option<&Sprt>) -> String {
    let mut s = format!(
        "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}\n",
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        t.games()
    );
    s.push_str(&elo_line(t, true));
    s.push_str(&pairs_line(t, true));
    if let Some(sp) = sprt {
        s.push_str(&sprt_line(t, sp));
    }
    s
}

/// The Elo line of `summary`; `games_known`: whether `t`'s wins, losses and draws are
/// counted (else the LOS and draw ratio, which need them, are left out).
pub fn elo_line(t: &Tally, games_known: bool) -> String {
    let Some((e, model)) = t.elo() else {
        return "Elo difference: - (no games)\n".into();
    };
    let margin = if e.margin().is_finite() {
        format!("{:.2}", e.margin().abs())
    } else {
        "inf".into()
    };
    let mut s = format!(
        "Elo difference: {} +/- {margin} [{}, {}] ({}, 95%)",
        fmt_elo(e.elo),
        fmt_elo(e.lower),
        fmt_elo(e.upper),
        model.name(),
    );
    if games_known {
        s.push_str(&format!(
            ", LOS: {:.1} %, DrawRatio: {:.1} %",
            t.los() * 100.0,
            t.draw_ratio() * 100.0
        ));
    }
    s.push('\n');
    s
}

/// The pair counts line of `summary`; `wl_known`: whether `t.penta_wl` is counted (else
/// the pairs of one win and one loss stay merged with the two draws, as `DD+WL`).
pub fn pairs_line(t: &Tally, wl_known: bool) -> String {
    let p = t.penta;
    let (head, middle) = if wl_known {
        ("DD/WL", format!("{}/{}", p[2] - t.penta_wl, t.penta_wl))
    } else {
        ("DD+WL", p[2].to_string())
    };
    format!(
        "Pairs [LL, LD, {head}, WD, WW]: [{}, {}, {middle}, {}, {}] ({} pairs)\n",
        p[0],
        p[1],
        p[3],
        p[4],
        t.pairs()
    )
}

/// The SPRT line of `summary`: the LLR, the bounds and the decision.
pub fn sprt_line(t: &Tally, sp: &Sprt) -> String {
    let (llr, model) = sp.llr(t);
    let (lo, hi) = sp.bounds();
    let verdict = match sp.decide(llr) {
        SprtDecision::H1 => " - H1 was accepted",
        SprtDecision::H0 => " - H0 was accepted",
        SprtDecision::Continue => "",
    };
    format!(
        "SPRT: llr {llr:.3} ({:.1}%), lbound {lo:.2}, ubound {hi:.2} ({}, elo0={} elo1={} alpha={} beta={}){verdict}\n",
        100.0 * llr / if llr >= 0.0 { hi } else { -lo },
        model.name(),
        sp.elo0,
        sp.elo1,
        sp.alpha,
        sp.beta,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn sixty_percent_is_plus_70_4() {
        // -400*log10(1/0.6-1) = 70.4365; python: -400*math.log10(1/0.6-1)
        assert!(close(elo_from_score(0.6), 70.4365, 1e-3));
        assert!(close(score_from_elo(70.4365), 0.6, 1e-6));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(elo_from_score(1.0).is_infinite());
    }

    #[test]
    fn erf_and_los() {
        // python: math.erf(0.5) = 0.5204998778, math.erf(-1.3) = -0.9340079449
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(-1.3), -0.934_007_944_9, 2e-7));
        // W=600 L=400: 0.5*(1+math.erf(200/math.sqrt(2*1000))) = 0.99999999... (1 - 1.27e-10)
        assert!(los(600, 400) > 0.999_999);
        // W=55 L=45: 0.5*(1+math.erf(10/math.sqrt(200))) = 0.8413447461
        assert!(close(los(55, 45), 0.841_344_746_1, 1e-6));
        assert_eq!(los(0, 0), 0.5);
    }

    #[test]
    fn trinomial_interval_600_400() {
        // 1000 games, 600 wins, 400 losses, no draws: score 0.6, sd per game 0.4899,
        // se = 0.4899/sqrt(1000) = 0.015492; python:
        //   s=0.6; se=math.sqrt(0.24/1000); e=lambda x:-400*math.log10(1/x-1)
        //   e(s-1.959964*se) = 48.7049, e(s+1.959964*se) = 92.7266
        let t = Tally {
            wins: 600,
            losses: 400,
            draws: 0,
            ..Default::default()
        };
        let e = t.elo_trinomial().unwrap();
        assert!(close(e.elo, 70.4365, 1e-3));
        assert!(close(e.lower, 48.7049, 2e-3), "{e:?}");
        assert!(close(e.upper, 92.7266, 2e-3), "{e:?}");
    }

    #[test]
    fn pentanomial_interval() {
        // Pairs [LL, LD, DD/WL, WD, WW] = [10, 40, 100, 60, 20] (230 pairs). python:
        //   v=[0,.25,.5,.75,1]; c=[10,40,100,60,20]; n=sum(c)
        //   m=sum(a*b for a,b in zip(v,c))/n = 0.5434783
        //   var=sum(b*(a-m)**2 for a,b in zip(v,c))/n = 0.0578922
        //   se=math.sqrt(var/n); e(m) = 30.2883
        //   e(m-1.959964*se) = 8.6063, e(m+1.959964*se) = 52.2084
        let t = Tally {
            penta: [10, 40, 100, 60, 20],
            ..Default::default()
        };
        let e = t.elo_pentanomial().unwrap();
        assert!(close(e.elo, 30.2883, 2e-3), "{e:?}");
        assert!(close(e.lower, 8.6063, 2e-3), "{e:?}");
        assert!(close(e.upper, 52.2084, 2e-3), "{e:?}");
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sp = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // math.log(0.05/0.95) = -2.944439
        let (lo, hi) = sp.bounds();
        assert!(close(lo, -2.944_439, 1e-5) && close(hi, 2.944_439, 1e-5));
        // Expected values from an independent python implementation of the same MLE
        // (bisection on θ, 200 steps), e.g.
        //   def mle(a,ph,s): solve sum(p*(x-s)/(1+t*(x-s)))=0 for t; return [p/(1+t*(x-s))]
        //   llr = n*sum(p*(log(q1)-log(q0))), counts regularised max(c,1e-3)
        // Trinomial L=250 D=450 W=300, elo 0..10: 1.865023 (the normal approximation
        // n(s1-s0)(2m-s0-s1)/(2var) gives 1.871664 here: the two agree, as they should).
        let t = Tally {
            wins: 300,
            losses: 250,
            draws: 450,
            ..Default::default()
        };
        let llr = sp.llr_trinomial(&t);
        assert!(close(llr, 1.865_023, 1e-4), "{llr}");
        assert_eq!(sp.decide(llr), SprtDecision::Continue);
        // Pentanomial [10, 40, 100, 60, 20], elo 0..10: 2.016505.
        let t = Tally {
            penta: [10, 40, 100, 60, 20],
            ..Default::default()
        };
        let llr = sp.llr_pentanomial(&t);
        assert!(close(llr, 2.016_505, 1e-4), "{llr}");
        assert_eq!(sp.decide(llr), SprtDecision::Continue);
        assert_eq!(sp.decide(3.0), SprtDecision::H1);
        // Every pair won, elo 0..400: 0.598 per pair; 4 pairs 2.391 (continue), 5 pairs
        // 2.989 >= 2.944 (H1). The match test relies on this: H1 after 10 games.
        let sp = Sprt {
            elo0: 0.0,
            elo1: 400.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let ww = |k| Tally {
            penta: [0, 0, 0, 0, k],
            ..Default::default()
        };
        assert!(close(sp.llr_pentanomial(&ww(4)), 2.391, 2e-3));
        assert!(close(sp.llr_pentanomial(&ww(5)), 2.989, 2e-3));
        assert_eq!(
            sp.decide(sp.llr_pentanomial(&ww(4))),
            SprtDecision::Continue
        );
        assert_eq!(sp.decide(sp.llr_pentanomial(&ww(5))), SprtDecision::H1);
        assert_eq!(sp.decide(-3.0), SprtDecision::H0);
    }

    #[test]
    fn pairs_are_classified() {
        let mut t = Tally::default();
        for (a, b) in [(1.0, 1.0), (1.0, 0.0), (0.5, 0.5), (0.0, 0.5), (1.0, 0.5)] {
            t.add_game(a);
            t.add_game(b);
            t.add_pair(a, b);
        }
        assert_eq!(t.penta, [0, 1, 2, 1, 1]);
        assert_eq!(t.penta_wl, 1);
        assert_eq!((t.wins, t.losses, t.draws), (4, 2, 4));
    }
}
