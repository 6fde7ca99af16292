//! PGN of a Reveal Chess game: written with reveal letters and engine comments, and read
//! back.

use tinh::arena::engine::{EngineScore, SearchInfo};
use tinh::arena::pgn::*;
use tinh::arena::referee::{GameJob, GameRecord, MoveRecord, Termination};
use tinh::variant::Variant;

#[test]
fn write_and_read_back() {
    let mv = |t: &str, cp: Option<i32>| MoveRecord {
        text: t.to_string(),
        info: SearchInfo {
            score: cp.map(EngineScore::Cp),
            depth: cp.map(|_| 7),
        },
        time_ms: 510,
    };
    let g = GameRecord {
        job: GameJob {
            number: 3,
            round: 1,
            players: [0, 1],
            start_fen: String::new(),
            seed: 0,
            pair: 1,
        },
        names: ["tinh".into(), "tinh \"2\"".into()],
        start_fen: "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX b KQkq - 0 4 Q1R2B2N2P8q1r2b2n2p8"
            .into(),
        moves: vec![
            mv("e7e5P", Some(35)),
            mv("e2e4P", None),
            mv("b8c6N", Some(-120)),
        ],
        first_points: 1.0,
        result: "1-0",
        reason: "White wins: checkmate".into(),
        termination: Termination::Normal,
        date: "2026.11.30".into(),
    };
    let text = write_game(&g, Variant::RevealChess, "E", "?", "10+0.1");
    assert!(
        text.contains("4... e7e5P {+0.35/7 0.510s} 5. e2e4P {0.510s} b8c6N {-1.20/7 0.510s}"),
        "{text}"
    );
    let games = parse(&(text.clone() + &text)).unwrap();
    assert_eq!(games.len(), 2);
    let p = &games[0];
    assert_eq!(p.tag("Black"), Some("tinh \"2\""));
    assert_eq!(p.tag("Round"), Some("3"));
    assert_eq!(p.tag("PlyCount"), Some("3"));
    assert_eq!(p.moves, vec!["e7e5P", "e2e4P", "b8c6N"]);
    assert_eq!(p.result, "1-0");
    assert_eq!(
        p.comments.last().map(|s| s.as_str()),
        Some("White wins: checkmate")
    );
}
