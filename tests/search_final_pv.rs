//! The move a search plays is the first move of the last principal variation it reported
//! (fastchess checks this: "Bestmove does not match beginning of last PV"). An iteration
//! cut short by a limit can change the best move without completing; the search then
//! reports one more line for the move it plays.

use std::sync::Mutex;
use tinh::search::{Limits, Options, Report, Searcher};
use tinh::variant::Variant;
use tinh::with_game;

#[test]
fn the_move_played_heads_the_last_reported_pv() {
    let mut searches = 0;
    let mut changed_in_unfinished_iteration = 0;
    for variant in Variant::ALL {
        let start = variant.startpos();
        let positions = with_game!(&start, g => g.bench_positions());
        for bp in positions.iter().take(6) {
            let mut pos = match bp.fen {
                None => variant.startpos(),
                Some(f) => variant.from_fen(f).unwrap(),
            };
            pos.apply_moves(bp.moves.split_whitespace()).unwrap();
            with_game!(&pos, g => {
                // Node limits stop the search at many different points of an iteration.
                let mut nodes = 300u64;
                while nodes < 60_000 {
                    let searcher = Searcher::new(1);
                    let heads = Mutex::new(Vec::new());
                    let limits = Limits { nodes: Some(nodes), ..Default::default() };
                    let r = searcher.search(g, &limits, &Options::default(), &|rep| {
                        if let Report::Iteration(i) = rep
                            && i.multipv == 1
                        {
                            heads.lock().unwrap().push((i.depth, i.pv.first().copied()));
                        }
                    });
                    let heads = heads.into_inner().unwrap();
                    searches += 1;
                    // (Stopped inside the very first move searched, a search knows no
                    // line at all and reports none.)
                    if let Some(best) = r.best
                        && !heads.is_empty()
                    {
                        let last = heads.last().and_then(|h| h.1);
                        assert_eq!(
                            last,
                            Some(best),
                            "{variant} {:?} nodes {nodes}: bestmove is not the last PV's first move",
                            bp.moves
                        );
                        // The last two lines of one depth with different moves: the last
                        // is the one added for a move an unfinished iteration changed.
                        if let [.., (d1, m1), (d2, _)] = heads.as_slice()
                            && d1 == d2
                            && *m1 != Some(best)
                        {
                            changed_in_unfinished_iteration += 1;
                        }
                    }
                    nodes = nodes * 3 / 2;
                }
            });
        }
    }
    eprintln!("{searches} searches, {changed_in_unfinished_iteration} ended on a changed move");
    assert!(
        changed_in_unfinished_iteration > 0,
        "no search ended on a move changed by an unfinished iteration: the test sees nothing"
    );
}
