//! Playing below full strength. The options `Level`, `UCI_LimitStrength` + `UCI_Elo` and
//! `Skill Level` (a `StrengthRequest`) resolve, with the game's calibration (a
//! `StrengthScale`), into one `Strength`: full, the random mover (the rating ladder's
//! zero), or a `Skill` from -1 to just under 20. A skill limits the search (depth, nodes)
//! and searches several candidate lines (MultiPV); after the search it picks one of them
//! with a seeded random choice that favours the better moves more the higher the skill:
//! plausible mistakes (a slightly worse move, a tactic too deep for its depth), never a
//! random one. Below 0 the skill bridges to the random mover: skill -f plays a random
//! move with probability f and skill 0 otherwise, so that the rating ladder can measure
//! every step from the random mover up (and `UCI_Elo` reach down to it).

use crate::game::{INFINITY, MATE_BOUND, Score};
use rand::{Rng, RngExt};

/// `Skill Level` at and above which the engine plays at full strength.
pub const FULL_SKILL: i64 = 20;
/// `Skill Level` of the random mover.
pub const RANDOM_SKILL: i64 = -1;
/// The named levels a GUI offers in one menu (`Level` 1..=5).
pub const LEVEL_NAMES: [&str; 5] = ["novice", "casual", "club", "strong", "expert"];

/// A weakened skill, -1 (the random mover) to just under 20 (full strength); fractional
/// skills come from `UCI_Elo`. Every limit below is a function of it that never weakens
/// as it rises.
/// The choice's spread is measured in the game's `pawn` (its scale's small unit of
/// material), so a mistake weighs alike in every game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    value: f64,
    pawn: Score,
}

/// The strongest weakened skill (20 is full strength).
const TOP_SKILL: f64 = 19.99;
/// The weakest skill: every move random.
const BOTTOM_SKILL: f64 = RANDOM_SKILL as f64;
/// Scores beyond this many pawns (wins by the rules, huge material leads) count as this
/// much when the pick weighs moves: a skill tells "winning" from "winning more" no better.
const SCORE_CAP_PAWNS: Score = 20;

impl Skill {
    /// A skill in a game whose small unit of material is `pawn` centipawns.
    pub fn new(skill: f64, pawn: Score) -> Skill {
        Skill {
            value: if skill.is_nan() {
                0.0
            } else {
                skill.clamp(BOTTOM_SKILL, TOP_SKILL)
            },
            pawn: pawn.max(1),
        }
    }

    pub fn value(self) -> f64 {
        self.value
    }

    /// The share of moves played at random: 1 at skill -1, 0 from skill 0 on.
    pub fn random_share(self) -> f64 {
        (-self.value).max(0.0)
    }

    /// The skill its searched moves are played at (below 0: skill 0).
    fn searching(self) -> f64 {
        self.value.max(0.0)
    }

    /// How far below full strength, 1 at skill 0 and 0 at full strength.
    fn weakness(self) -> f64 {
        (20.0 - self.searching()) / 20.0
    }

    /// The deepest iteration: 1 at skill 0, one more every two skill steps.
    pub fn depth(self) -> u32 {
        1 + (self.searching() / 2.0) as u32
    }

    /// No iteration starts once the search has spent this many nodes: 250 at skill 0,
    /// doubling every 2.3 skill steps (about 76 000 at 19).
    pub fn node_budget(self) -> u64 {
        (250.0 * 2f64.powf(self.searching() / 2.3)) as u64
    }

    /// An iteration in progress is abandoned past this many nodes, once one iteration is
    /// complete (the move then comes from the last complete one). It bounds the time a
    /// deep iteration can take where the tree grows fast (Reveal Chess's chance nodes).
    pub fn node_cap(self) -> u64 {
        4 * self.node_budget()
    }

    /// Lines searched to the end (MultiPV): the moves the pick chooses among; 9 at skill 0,
    /// 4 near full strength.
    pub fn candidates(self) -> usize {
        4 + (5.0 * self.weakness()).round() as usize
    }

    /// The spread of the choice, in centipawns: a move that scores `t` less than another
    /// is chosen e (2.72) times less often. 2.5 pawns at skill 0, 0.1 at full strength.
    pub fn temperature(self) -> f64 {
        self.pawn as f64 * (0.1 + 2.4 * self.weakness() * self.weakness())
    }

    /// A candidate that scores more than this below the best is never chosen: 4 pawns at
    /// skill 0, 0.4 at full strength.
    pub fn max_loss(self) -> Score {
        (self.pawn as f64 * (0.4 + 3.6 * self.weakness())) as Score
    }

    /// From skill 10 on, a forced win the search has found (a mate, the enemy 0) is
    /// always played, the fastest one.
    pub fn takes_sure_wins(self) -> bool {
        self.value >= 10.0
    }

    /// The index of the move to play among candidates scored `scores` (best first, as
    /// the search sorts them). Each eligible candidate gets its score plus Gumbel noise
    /// of scale `temperature`, and the highest wins: the move is drawn with probability
    /// proportional to exp(score / temperature) (a softmax), so the push toward the best
    /// grows as the temperature falls with the skill.
    pub fn pick(self, scores: &[Score], rng: &mut impl Rng) -> usize {
        let Some(&top) = scores.first() else {
            return 0;
        };
        if top >= MATE_BOUND && self.takes_sure_wins() {
            return 0;
        }
        let cap = SCORE_CAP_PAWNS * self.pawn;
        let capped = |s: Score| s.clamp(-cap, cap) as f64;
        let t = self.temperature();
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &s) in scores.iter().enumerate() {
            if s == -INFINITY || capped(top) - capped(s) > self.max_loss() as f64 {
                continue;
            }
            let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
            let gumbel = -(-u.ln()).ln();
            let v = capped(s) + t * gumbel;
            if v > best.1 {
                best = (i, v);
            }
        }
        best.0
    }
}

/// How strong to play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strength {
    Full,
    /// A uniformly random legal move: the rating ladder's zero.
    Random,
    Limited(Skill),
}

/// What the strength options ask for, before a game's calibration reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthRequest {
    /// `Level` 1..=5; 0: none.
    pub level: u8,
    /// `UCI_LimitStrength`: play at `elo`.
    pub limit_strength: bool,
    /// `UCI_Elo`, on the game's own scale (the random mover is 0).
    pub elo: i64,
    /// `Skill Level`: -1 the random mover, 0..=19 weakened, 20 full strength.
    pub skill_level: i64,
}

impl Default for StrengthRequest {
    fn default() -> Self {
        StrengthRequest {
            level: 0,
            limit_strength: false,
            elo: 0,
            skill_level: FULL_SKILL,
        }
    }
}

impl StrengthRequest {
    /// The strength this request means in a game with calibration `scale`: `Level` first,
    /// then `UCI_LimitStrength` with `UCI_Elo`, then `Skill Level`.
    pub fn resolve(&self, scale: &StrengthScale) -> Strength {
        if (1..=LEVEL_NAMES.len()).contains(&(self.level as usize)) {
            return Strength::Limited(Skill::new(
                scale.levels[self.level as usize - 1],
                scale.pawn,
            ));
        }
        if self.limit_strength {
            return scale.strength_for_elo(self.elo);
        }
        match self.skill_level {
            s if s <= RANDOM_SKILL => Strength::Random,
            s if s >= FULL_SKILL => Strength::Full,
            s => Strength::Limited(Skill::new(s as f64, scale.pawn)),
        }
    }
}

/// A game's calibration of the strength options, measured by `tinh ladder`: the skill of
/// each named level, and the ratings measured at rising skills on the game's own scale,
/// where the random mover is 0. `UCI_Elo` reads the ratings backwards.
#[derive(Clone, Copy, Debug)]
pub struct StrengthScale {
    /// The game's small unit of material in its evaluation's centipawns (a chess pawn is
    /// 100): the weakened choice's spread and its largest mistake are counted in it.
    pub pawn: Score,
    /// The skill of `Level` 1..=5.
    pub levels: [f64; 5],
    /// (skill, rating) at rising skills and ratings, at least two points: the `UCI_Elo`
    /// range runs from the first to the last (full strength is not on it: it depends on
    /// the clock, and `UCI_LimitStrength` false asks for it).
    pub ratings: &'static [(f64, i32)],
}

/// The scale of a game that has not measured its own (a test's game): levels spread over
/// the skills, ratings a straight line.
pub const DEFAULT_SCALE: StrengthScale = StrengthScale {
    pawn: 100,
    levels: [0.0, 5.0, 10.0, 14.0, 18.0],
    ratings: &[(0.0, 500), (18.0, 2300)],
};

impl StrengthScale {
    /// The `UCI_Elo` range this game understands: the first measured skill's rating up to
    /// the last one's.
    pub fn elo_range(&self) -> (i64, i64) {
        let first = self.ratings.first().map_or(0, |r| r.1);
        let last = self.ratings.last().map_or(0, |r| r.1);
        (first as i64, last as i64)
    }

    /// The strength whose measured rating is `elo`: the skill between the two measured
    /// points around it, in proportion; the first or last measured skill outside them.
    pub fn strength_for_elo(&self, elo: i64) -> Strength {
        let r = self.ratings;
        let e = elo as f64;
        let mut skill = r[0].0;
        for w in r.windows(2) {
            let ((s0, r0), (s1, r1)) = ((w[0].0, w[0].1 as f64), (w[1].0, w[1].1 as f64));
            if e >= r1 {
                skill = s1;
            } else if e > r0 {
                skill = s0 + (s1 - s0) * (e - r0) / (r1 - r0);
            }
        }
        Strength::Limited(Skill::new(skill, self.pawn))
    }

    /// The rating the scale gives a skill (interpolated between measured points).
    pub fn elo_for_skill(&self, skill: f64) -> f64 {
        let r = self.ratings;
        if skill <= r[0].0 {
            return r[0].1 as f64;
        }
        for w in r.windows(2) {
            if skill <= w[1].0 {
                let f = (skill - w[0].0) / (w[1].0 - w[0].0).max(1e-9);
                return w[0].1 as f64 + f * (w[1].1 - w[0].1) as f64;
            }
        }
        r[r.len() - 1].1 as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn limits_never_weaken_as_the_skill_rises() {
        let mut prev = Skill::new(0.0, 100);
        for i in 1..=200 {
            let s = Skill::new(i as f64 / 10.0, 100);
            assert!(s.depth() >= prev.depth());
            assert!(s.node_budget() >= prev.node_budget());
            assert!(s.temperature() <= prev.temperature());
            assert!(s.max_loss() <= prev.max_loss());
            assert!(s.candidates() <= prev.candidates());
            prev = s;
        }
        assert_eq!(Skill::new(0.0, 100).depth(), 1);
        assert_eq!(Skill::new(50.0, 100).value(), TOP_SKILL);
    }

    #[test]
    fn the_pick_favours_the_best_more_at_higher_skill() {
        let scores = [50, 20, 0, -40, -300];
        let best_share = |skill: f64| {
            let mut rng = StdRng::seed_from_u64(7);
            let n = 4000;
            let hits = (0..n)
                .filter(|_| Skill::new(skill, 100).pick(&scores, &mut rng) == 0)
                .count();
            hits as f64 / n as f64
        };
        let (low, mid, high) = (best_share(0.0), best_share(10.0), best_share(19.0));
        assert!(low < mid && mid < high, "{low} {mid} {high}");
        assert!(high > 0.9);
        // A move far below the best is never chosen at a high skill.
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..1000 {
            assert_ne!(Skill::new(15.0, 100).pick(&scores, &mut rng), 4);
        }
    }

    #[test]
    fn sure_wins_are_taken_from_skill_ten() {
        let scores = [crate::game::MATE - 1, crate::game::MATE - 3, 200];
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..1000 {
            assert_eq!(Skill::new(10.0, 100).pick(&scores, &mut rng), 0);
        }
    }

    #[test]
    fn requests_resolve_in_order_of_precedence() {
        let scale = StrengthScale {
            pawn: 50,
            levels: [1.0, 2.0, 3.0, 4.0, 5.0],
            ratings: &[(0.0, 100), (10.0, 1100), (18.0, 2100)],
        };
        let mut r = StrengthRequest::default();
        assert_eq!(r.resolve(&scale), Strength::Full);
        r.skill_level = -1;
        assert_eq!(r.resolve(&scale), Strength::Random);
        r.skill_level = 7;
        assert_eq!(r.resolve(&scale), Strength::Limited(Skill::new(7.0, 50)));
        r.limit_strength = true;
        r.elo = 600;
        assert_eq!(r.resolve(&scale), Strength::Limited(Skill::new(5.0, 50)));
        r.elo = 2500;
        assert_eq!(r.resolve(&scale), Strength::Limited(Skill::new(18.0, 50)));
        r.elo = 0;
        assert_eq!(r.resolve(&scale), Strength::Limited(Skill::new(0.0, 50)));
        r.level = 3;
        assert_eq!(r.resolve(&scale), Strength::Limited(Skill::new(3.0, 50)));
        assert_eq!(scale.elo_for_skill(14.0), 1600.0);
        assert_eq!(scale.elo_range(), (100, 2100));
    }

    #[test]
    fn below_level_one_uci_elo_bridges_to_the_random_mover() {
        let scale = StrengthScale {
            pawn: 100,
            levels: [0.0, 2.0, 4.0, 6.0, 8.0],
            ratings: &[(-1.0, 0), (0.0, 400), (8.0, 1600)],
        };
        let share = |elo| match scale.strength_for_elo(elo) {
            Strength::Limited(s) => s.random_share(),
            other => panic!("UCI_Elo {elo} gave {other:?}"),
        };
        assert_eq!(share(0), 1.0);
        assert_eq!(share(100), 0.75);
        assert_eq!(share(300), 0.25);
        assert_eq!(share(400), 0.0);
        assert_eq!(share(900), 0.0);
        // Skills below 0 search as skill 0 when they do search.
        let half = Skill::new(-0.5, 100);
        assert_eq!(half.depth(), Skill::new(0.0, 100).depth());
        assert_eq!(half.node_budget(), 250);
        assert_eq!(Skill::new(-7.0, 100).value(), -1.0);
    }
}
