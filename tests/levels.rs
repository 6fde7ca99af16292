//! The strength options in every game, searched in-process: level 5 and above never miss
//! a win in one (the Math Chess 0, a chess mate, a Reveal Chess mate whatever the reveal), level 1
//! answers after one shallow iteration, the random mover is uniform and instant, every
//! choice replays under its seed, and each game's calibration reads `UCI_Elo` monotonely
//! with its levels at least 150 Elo apart. Games between levels with a clock are in
//! `arena_match.rs`.

use tinh::game::*;
use tinh::search::skill::{LEVEL_NAMES, StrengthRequest};
use tinh::search::{Limits, Options, SearchResult, Searcher};
use tinh::variant::Variant;
use tinh::with_game;

/// Limits as in a game: a clock, so that nothing but the level ends the search early.
fn clock<M>() -> Limits<M> {
    Limits {
        wtime: Some(600_000),
        btime: Some(600_000),
        ..Default::default()
    }
}

fn options(strength: StrengthRequest, seed: u64) -> Options {
    Options {
        strength,
        seed,
        ..Default::default()
    }
}

fn level(n: u8) -> StrengthRequest {
    StrengthRequest {
        level: n,
        ..Default::default()
    }
}

fn search<G: Game>(g: &G, opts: &Options) -> SearchResult<G::Move> {
    Searcher::new(16).search(g, &clock(), opts, &|_| {})
}

/// The side to move has lost: by the rules at once, or without a legal move.
fn lost<G: Game>(p: &G) -> bool {
    if let Some(o) = p.immediate_result() {
        return o == Outcome::Loss;
    }
    let mut l = MoveList::new();
    p.generate_moves(&mut l);
    l.is_empty() && p.no_moves_result() == Outcome::Loss
}

/// Playing `m` wins at once, whatever chance reveals.
fn wins_at_once<G: Game>(p: &mut G, m: G::Move) -> bool {
    let mut ch = ChanceList::default();
    let outcomes: Vec<u8> = if p.chance(m, &mut ch) {
        ch.as_slice().iter().map(|x| x.0).collect()
    } else {
        vec![NO_OUTCOME]
    };
    outcomes.into_iter().all(|o| {
        p.make(m, o);
        let l = lost(p);
        p.unmake();
        l
    })
}

/// Positions with a win in one (the first of each game from `search_wins.rs`, proved
/// there; `wins_at_once` checks the move played in every one).
const WINS_IN_ONE: &[(Variant, &str)] = &[
    (Variant::MathChess, "8r1/9/9/9/4r04/4b24/4b54/9/9/4b04/9 b"),
    (Variant::MathChess, "9/9/9/7r8r0/9/8b4/b97b8/9/9/4b0r53/9 b"),
    (
        Variant::MathChess,
        "2b66/9/9/6r22/9/1b76r0/3r35/9/9/4b04/3b45 b",
    ),
    (Variant::Chess, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
    // Scholar's mate, a smothered mate, and a back-rank mate by Black.
    (
        Variant::Chess,
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ),
    (Variant::Chess, "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1"),
    (Variant::Chess, "3qk3/8/8/8/8/8/5PPP/6K1 b - - 0 1"),
    (
        Variant::RevealChess,
        "3rkr2/3p1p2/8/8/8/3n4/4X3/K3R3 w - - 0 1 Q1R2B2N2P8",
    ),
    // Scholar's mate against face-down pieces (no shell reaches f7), for White and Black.
    (
        Variant::RevealChess,
        "xxxxkxxx/xxxxxxxx/8/7Q/2B5/8/8/4K3 w - - 0 1 q1r2b2n2p8",
    ),
    (
        Variant::RevealChess,
        "4k3/8/8/2b5/7q/8/XXXXXXXX/XXXXKXXX b - - 0 1 Q1R2B2N2P8",
    ),
];

#[test]
fn level_five_and_above_never_miss_a_win_in_one() {
    let skill = |s| StrengthRequest {
        skill_level: s,
        ..Default::default()
    };
    let strengths = [
        ("level 5", level(5)),
        ("Skill Level 19", skill(19)),
        ("full strength", skill(20)),
    ];
    for &(variant, fen) in WINS_IN_ONE {
        let mut pos = variant.from_fen(fen).expect(fen);
        with_game!(&mut pos, g => {
            for (name, strength) in strengths {
                // Full strength under a game's clock would think for seconds (its own
                // test is search_wins.rs): here it searches 4 plies.
                let mut limits = clock();
                if strength.skill_level == 20 {
                    limits.depth = Some(4);
                }
                for seed in 1..=25 {
                    let r = Searcher::new(16).search(g, &limits, &options(strength, seed), &|_| {});
                    let best = r.best.expect("a move");
                    assert!(
                        wins_at_once(g, best),
                        "{variant} {fen}, seed {seed}: {name} played {}",
                        g.move_to_string(best)
                    );
                }
            }
        });
    }
}

#[test]
fn level_one_answers_after_one_shallow_iteration() {
    for v in Variant::ALL {
        let suite =
            std::fs::read_to_string(format!("{}/openings/{v}.epd", env!("CARGO_MANIFEST_DIR")))
                .expect("opening suite");
        let mut positions = vec![v.startpos()];
        positions.extend(
            suite
                .lines()
                .take(10)
                .map(|l| v.startpos().with_epd(l).expect(l)),
        );
        for pos in &positions {
            with_game!(pos, g => {
                let r = search(g, &options(level(1), 3));
                assert_eq!(r.depth, 1, "{v} {}", g.to_fen());
                assert!(r.nodes < 5_000, "{v} {}: {} nodes", g.to_fen(), r.nodes);
            });
        }
    }
}

#[test]
fn the_random_mover_is_uniform_instant_and_seeded() {
    let pos = Variant::Chess.startpos();
    with_game!(&pos, g => {
        let mut counts = std::collections::HashMap::new();
        let random = StrengthRequest { skill_level: -1, ..Default::default() };
        for seed in 0..800 {
            let r = search(g, &options(random, seed));
            assert_eq!(r.nodes, 0);
            let again = search(g, &options(random, seed));
            assert_eq!(r.best, again.best, "seed {seed} must replay");
            *counts.entry(r.best.expect("a move")).or_insert(0u32) += 1;
        }
        // 20 moves, 40 draws each on average: all of them, none far off.
        assert_eq!(counts.len(), 20, "{counts:?}");
        assert!(counts.values().all(|&c| (15..=70).contains(&c)), "{counts:?}");
    });
}

#[test]
fn each_level_replays_under_its_seed_and_varies_across_seeds() {
    for v in Variant::ALL {
        let pos = v.startpos();
        with_game!(&pos, g => {
            for n in 1..=LEVEL_NAMES.len() as u8 {
                let mut moves = std::collections::HashSet::new();
                for seed in 1..=8 {
                    let a = search(g, &options(level(n), seed)).best;
                    let b = search(g, &options(level(n), seed)).best;
                    assert_eq!(a, b, "{v} level {n} seed {seed}");
                    moves.insert(a);
                }
                if n <= 3 {
                    assert!(moves.len() > 1, "{v} level {n} always plays the same opening move");
                }
            }
        });
    }
}

#[test]
fn uci_elo_reads_each_games_scale_monotonely() {
    for v in Variant::ALL {
        let scale = with_game!(v.startpos(), g => g.strength_scale());
        let (lo, hi) = scale.elo_range();
        assert!(lo < hi, "{v}");
        let mut last = f64::NEG_INFINITY;
        for elo in (lo - 100..=hi + 100).step_by(5) {
            let req = StrengthRequest {
                limit_strength: true,
                elo,
                ..Default::default()
            };
            let skill = match req.resolve(scale) {
                tinh::search::skill::Strength::Limited(s) => s.value(),
                other => panic!("{v}: UCI_Elo {elo} gave {other:?}"),
            };
            assert!(
                skill >= last,
                "{v}: UCI_Elo {elo} is weaker than {}",
                elo - 5
            );
            if (lo..=hi).contains(&elo) {
                let back = scale.elo_for_skill(skill);
                assert!(
                    (back - elo as f64).abs() < 2.0,
                    "{v}: {elo} reads back as {back}"
                );
            }
            last = skill;
        }
        for w in scale.levels.windows(2) {
            let gap = scale.elo_for_skill(w[1]) - scale.elo_for_skill(w[0]);
            assert!(gap >= 150.0, "{v}: levels at skills {w:?} only {gap} apart");
        }
    }
}
