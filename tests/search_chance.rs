//! Chance-node pruning measured on Reveal Chess: the same positions searched to the same
//! depth with Star1 bounds and probing on and off give the same move and score, and far
//! fewer nodes with them on. (Other pruning is off in both, so that the values are the
//! exact expectimax values and must agree to the centipawn.)

use tinh::protocol::format_score;
use tinh::search::params::SearchSettings;
use tinh::search::{Limits, Options, Searcher};
use tinh::variant::Variant;
use tinh::with_game;

fn search(moves: &str, depth: u32, chance_pruning: bool) -> (String, String, u64) {
    let mut pos = Variant::RevealChess.startpos();
    pos.apply_moves(moves.split_whitespace()).unwrap();
    let searcher = Searcher::new(32);
    let settings = SearchSettings::with(&[
        ("Search_NullMove", 0),
        ("Search_LMR", 0),
        ("Search_Futility", 0),
        ("Search_SEE", 0),
        ("Search_ChanceNonPv", 0),
        ("Search_ChanceReduction", 0),
        ("Search_ChanceSingle", 0),
        ("Search_ChancePruning", chance_pruning as i64),
    ])
    .unwrap();
    let opts = Options {
        settings,
        ..Default::default()
    };
    with_game!(&pos, g => {
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = searcher.search(g, &limits, &opts, &|_| {});
        (g.move_to_string(r.best.unwrap()), format_score(r.score), r.nodes)
    })
}

#[test]
fn star1_and_probing_keep_move_and_score_with_fewer_nodes() {
    let mut on_total = 0;
    let mut off_total = 0;
    for moves in ["", "e2e4P e7e5P g1f3N b8c6N", "d2d4Q d7d5P c1f4B g8f6R"] {
        let (m_on, s_on, n_on) = search(moves, 2, true);
        let (m_off, s_off, n_off) = search(moves, 2, false);
        assert_eq!((&m_on, &s_on), (&m_off, &s_off), "after '{moves}'");
        eprintln!("after '{moves}': {m_on} {s_on}, {n_on} nodes with pruning, {n_off} without");
        on_total += n_on;
        off_total += n_off;
    }
    assert!(
        on_total * 3 < off_total,
        "pruning searched {on_total} nodes, full expectimax {off_total}"
    );
}
