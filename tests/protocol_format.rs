//! The protocol's line formats with real games: `info` lines name the PV's moves in the
//! game's notation and stop after a move with chance; `bestmove` carries a ponder move.

use tinh::game::*;
use tinh::protocol::{format_bestmove, format_info};
use tinh::search::{Bound, Info, SearchResult};

fn info<M>(pv: Vec<M>) -> Info<M> {
    Info {
        depth: 5,
        seldepth: 9,
        multipv: 1,
        score: 34,
        bound: Bound::Exact,
        nodes: 1000,
        nps: 20000,
        hashfull: 3,
        time_ms: 50,
        pv,
        stats: Default::default(),
    }
}

#[test]
fn info_and_bestmove_lines_in_math_chess() {
    let b = tinh::mathchess::Board::startpos();
    let first = b.parse_choice("c1c4").unwrap();
    let mut after = b.clone();
    after.make(first, NO_OUTCOME);
    let second = after.parse_choice("i11i10").unwrap();
    let mut i = info(vec![first, second]);
    assert_eq!(
        format_info(&b, &i),
        "info depth 5 seldepth 9 multipv 1 score cp 34 nodes 1000 nps 20000 hashfull 3 \
         time 50 pv c1c4 i11i10"
    );
    i.bound = Bound::Lower;
    i.score = MATE - 3;
    i.pv.clear();
    assert_eq!(
        format_info(&b, &i),
        "info depth 5 seldepth 9 multipv 1 score mate 2 lowerbound nodes 1000 nps 20000 \
         hashfull 3 time 50"
    );
    let r = SearchResult {
        best: Some(first),
        ponder: Some(second),
        ..Default::default()
    };
    assert_eq!(format_bestmove(&b, &r), "bestmove c1c4 ponder i11i10");
    assert_eq!(
        format_bestmove(&b, &SearchResult::default()),
        "bestmove (none)"
    );
}

#[test]
fn a_reveal_ends_the_named_pv() {
    let b = tinh::revealchess::Board::startpos(false);
    let e4 = b.parse_choice("e2e4").unwrap();
    // Whatever follows a reveal depends on its outcome: it is not named.
    let i = info(vec![e4, e4]);
    assert!(format_info(&b, &i).ends_with(" pv e2e4"));
}
