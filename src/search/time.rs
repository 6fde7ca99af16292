//! Time management: turns `go` limits into a soft limit (do not start another iteration
//! past it) and a hard limit (abort the iteration in progress), both net of the
//! `Move Overhead` safety margin.
//!
//! Low clocks: a reserve of `TimeReserveOverheads` × `Move Overhead` (600 ms by default)
//! is never planned, whatever the moves to go, so a machine that stalls the engine for a
//! few hundred milliseconds does not cost the game; once the clock is down to the reserve
//! the engine answers within a millisecond or two and lives on the increment. Limits
//! count from when `go` was read (`Limits::start`), not from when the search began.

use super::Limits;
use super::params::SearchParams;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct TimeManager {
    pub start: Instant,
    /// `None`: no clock limit (depth, nodes, infinite, or pondering until `ponderhit`).
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl TimeManager {
    pub fn new<M>(limits: &Limits<M>, side: usize, overhead_ms: u64, p: &SearchParams) -> Self {
        let start = limits.start.unwrap_or_else(Instant::now);
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = if side == 0 {
            (limits.wtime, limits.winc.unwrap_or(0))
        } else {
            (limits.btime, limits.binc.unwrap_or(0))
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let mtg = limits
            .movestogo
            .unwrap_or(p.time_moves_to_go as u32)
            .clamp(1, p.time_max_moves_to_go as u32) as u64;
        let reserve = overhead_ms * p.time_reserve_overheads as u64;
        let usable = time.saturating_sub(reserve).max(1);
        let soft = (usable / mtg + inc * p.time_increment_percent as u64 / 100)
            .min(usable * p.time_max_share_percent as u64 / 100)
            .max(1);
        let hard = (soft * p.time_hard_factor as u64)
            .min(usable * p.time_hard_max_percent as u64 / 100)
            .max(soft);
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the soft limit scaled by `percent` (never beyond the hard limit).
    pub fn past_scaled_soft(&self, percent: u64) -> bool {
        self.soft.is_some_and(|s| {
            let scaled = s.mul_f64(percent as f64 / 100.0);
            self.elapsed() >= self.hard.map_or(scaled, |h| scaled.min(h))
        })
    }

    /// The percent of the soft limit a search should take once its best move has held
    /// for `stable` iterations and taken `best_share` (0 to 1) of the root's nodes.
    pub fn scale_percent(p: &SearchParams, stable: usize, best_share: f64) -> u64 {
        let stability = [
            p.time_stable0,
            p.time_stable1,
            p.time_stable2,
            p.time_stable3,
            p.time_stable4,
        ][stable.min(4)] as f64;
        let nodes = (p.time_nodes_base as f64 / 100.0 - best_share.clamp(0.0, 1.0))
            * p.time_nodes_scale as f64
            / 100.0;
        (stability * nodes).round().max(1.0) as u64
    }

    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_second_plus_increment_leaves_a_margin() {
        let limits = Limits::<()> {
            wtime: Some(1000),
            btime: Some(1000),
            winc: Some(10),
            binc: Some(10),
            ..Default::default()
        };
        let tm = TimeManager::new(&limits, 0, 30, &SearchParams::default());
        let hard = tm.hard.unwrap().as_millis() as u64;
        assert!(
            hard < 1000 - 30,
            "hard limit {hard} must stay inside the clock"
        );
        assert!(tm.soft.unwrap() <= tm.hard.unwrap());
    }

    #[test]
    fn the_reserve_is_never_planned() {
        let p = SearchParams::default();
        let reserve = 50 * p.time_reserve_overheads as u64;
        for (time, inc, mtg) in [
            (1000, 10, None),
            (700, 10, None),
            (700, 0, Some(1)),
            (reserve + 5, 100, None),
            (reserve, 100, None),
            (10, 100, None),
            (60_000, 0, Some(1)),
        ] {
            let limits = Limits::<()> {
                btime: Some(time),
                binc: Some(inc),
                movestogo: mtg,
                ..Default::default()
            };
            let tm = TimeManager::new(&limits, 1, 50, &p);
            let hard = tm.hard.unwrap().as_millis() as u64;
            // At or below the reserve: answer at once (one millisecond).
            let most = time.saturating_sub(reserve).max(1);
            assert!(hard <= most, "{time}+{inc}: hard limit {hard} ms");
            assert!(tm.soft.unwrap() <= tm.hard.unwrap());
        }
    }

    #[test]
    fn limits_count_from_when_go_was_read() {
        let read = Instant::now() - Duration::from_millis(30);
        let limits = Limits::<()> {
            movetime: Some(100),
            start: Some(read),
            ..Default::default()
        };
        let tm = TimeManager::new(&limits, 0, 0, &SearchParams::default());
        assert!(tm.elapsed() >= Duration::from_millis(30));
    }

    #[test]
    fn a_settled_search_stops_sooner_than_a_contested_one() {
        let p = SearchParams::default();
        let settled = TimeManager::scale_percent(&p, 6, 0.9);
        let contested = TimeManager::scale_percent(&p, 0, 0.3);
        assert!(settled < 100 && contested > 100, "{settled} {contested}");
        assert!(TimeManager::scale_percent(&p, 2, 0.5) < TimeManager::scale_percent(&p, 1, 0.5));
        // Whatever the scale, the hard limit holds.
        let tm = TimeManager {
            start: Instant::now() - Duration::from_millis(50),
            soft: Some(Duration::from_millis(10)),
            hard: Some(Duration::from_millis(40)),
        };
        assert!(tm.past_scaled_soft(1000));
        assert!(!tm.past_scaled_soft(1000) || tm.past_hard());
    }

    #[test]
    fn movetime_and_infinite() {
        let p = SearchParams::default();
        let tm = TimeManager::new(
            &Limits::<()> {
                movetime: Some(500),
                ..Default::default()
            },
            1,
            20,
            &p,
        );
        assert_eq!(tm.hard, Some(Duration::from_millis(480)));
        let tm = TimeManager::new(
            &Limits::<()> {
                infinite: true,
                ..Default::default()
            },
            1,
            20,
            &p,
        );
        assert!(tm.hard.is_none());
    }
}
