//! The match runner's command line: time controls, every flag, and the errors.

use tinh::arena::args::*;
use tinh::variant::Variant;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn time_controls() {
    let tc = TimeControl::parse("10+0.1").unwrap().unwrap();
    assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 10_000, 100));
    let tc = TimeControl::parse("40/60+0.5").unwrap().unwrap();
    assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 60_000, 500));
    assert_eq!(tc.pgn(), "40/60+0.5");
    let tc = TimeControl::parse("1:30").unwrap().unwrap();
    assert_eq!(tc.base_ms, 90_000);
    assert_eq!(TimeControl::parse("inf").unwrap(), None);
    assert!(TimeControl::parse("x+1").is_err());
    assert!(TimeControl::parse("0").is_err());
}

#[test]
fn full_command_line() {
    let cfg = parse(&words(
        "-engine cmd=./a name=A option.Hash=16 tc=5+0.05 --engine cmd=./b arg=--x arg=-y \
         --each option.Threads=1 nodes=1000 --variant revealchess --games 4 --rounds 3 \
         -concurrency 2 --tc 10+0.1 --openings file=o.epd order=random start=5 --seed 7 \
         --pgnout out.pgn --sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 \
         --draw movenumber=30 movecount=8 score=10 --resign movecount=3 score=-600 \
         --maxmoves 200 --ratinginterval 5 --timemargin 50 --stalltimeout 300",
    ))
    .unwrap()
    .unwrap();
    assert_eq!(cfg.engines.len(), 2);
    let a = &cfg.engines[0];
    assert_eq!(a.name.as_deref(), Some("A"));
    assert_eq!(
        a.options,
        vec![
            ("Threads".to_string(), "1".to_string()),
            ("Hash".to_string(), "16".to_string())
        ]
    );
    assert_eq!(a.clock().unwrap().base_ms, 5000);
    assert_eq!(a.nodes, Some(1000));
    assert_eq!(a.timemargin_ms, Some(50));
    let b = &cfg.engines[1];
    assert_eq!(b.args, vec!["--x", "-y"]);
    assert_eq!(b.clock().unwrap().inc_ms, 100);
    assert_eq!(cfg.variant, Variant::RevealChess);
    assert_eq!((cfg.games, cfg.rounds, cfg.concurrency), (4, 3, 2));
    let op = cfg.openings.unwrap();
    assert_eq!(
        (op.file.as_str(), op.order, op.start),
        ("o.epd", Order::Random, 5)
    );
    assert_eq!(cfg.seed, 7);
    assert_eq!(cfg.pgnout.as_deref(), Some("out.pgn"));
    assert_eq!(cfg.sprt.unwrap().beta, 0.1);
    assert_eq!(cfg.draw.unwrap().movenumber, 30);
    assert_eq!(cfg.resign.unwrap().score, 600);
    assert_eq!(cfg.maxmoves, Some(200));
    assert_eq!(cfg.ratinginterval, 5);
    assert_eq!(cfg.stall_ms, 300);
}

#[test]
fn errors() {
    assert!(parse(&words("--engine cmd=a --nodes 5")).is_err());
    assert!(parse(&words("--engine cmd=a --engine cmd=b")).is_err()); // no limit
    assert!(parse(&words("--engine cmd=a --engine cmd=b --nodes 5 --bogus")).is_err());
    assert!(
        parse(&words(
            "--engine cmd=a --engine cmd=b --nodes 5 --sprt elo0=5 elo1=0"
        ))
        .is_err()
    );
    assert!(parse(&words("--engine cmd=a --engine foo --nodes 5")).is_err());
    assert!(parse(&words("--help")).unwrap().is_none());
    let cfg = parse(&words(
        "--engine cmd=a --engine cmd=b --depth 2 --openings x.epd",
    ))
    .unwrap()
    .unwrap();
    assert_eq!(cfg.openings.unwrap().file, "x.epd");
}
