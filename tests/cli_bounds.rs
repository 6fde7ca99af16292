//! The command line refuses every numeric value outside its range with a clear error and
//! a non-zero exit status, before it starts any work; and `bench --variant` keeps one
//! game's positions.

mod cli_support;
use cli_support::tinh;

/// `args` must fail with status 2, print nothing on stdout, and say on the first line of
/// stderr an error that contains `want`.
fn refused(args: &str, want: &str) {
    let words: Vec<&str> = args.split_whitespace().collect();
    let (code, out, err) = tinh(&words);
    assert_eq!(code, Some(2), "tinh {args}: exit status; stderr: {err}");
    assert!(out.is_empty(), "tinh {args}: stdout should be empty: {out}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with("error: ") && first.contains(want),
        "tinh {args}: first stderr line '{first}' should mention '{want}'"
    );
}

#[test]
fn perft_bench_and_analyse_flags_have_ranges() {
    refused("perft --threads 0 1", "is out of range 1..=256");
    refused("perft --threads 100000 1", "is out of range 1..=256");
    refused("perft 21", "21 is not in 0..=20");
    refused("perft x", "invalid value 'x'");
    refused("bench 0", "0 is not in 1..=20");
    refused("bench --perft 21", "21 is not in 1..=20");
    refused("analyse --depth 0", "0 is not in 1..=120");
    refused("analyse --depth 121", "121 is not in 1..=120");
    refused("analyse --nodes 0", "0 is not in 1..");
    refused("analyse --movetime 0", "0 is not in 1..=86400000");
    refused("analyse --movetime 86400001", "is not in 1..=86400000");
    refused("analyse --multipv 0", "--multipv: option 'MultiPV' value 0");
    refused(
        "analyse --threads 257",
        "--threads: option 'Threads' value 257",
    );
    refused("analyse --hash 0", "--hash: option 'Hash' value 0");
    refused(
        "analyse --option PointTarget=46",
        "value 46 is out of range 0..=45",
    );
}

#[test]
fn match_flags_and_engine_keys_have_ranges() {
    let two = "match --engine cmd=a --engine cmd=b";
    refused(
        &format!("{two} --depth 0"),
        "--depth: 0 is out of range 1..=120",
    );
    refused(
        &format!("{two} --nodes 0"),
        "--nodes: 0 is out of range (at least 1)",
    );
    refused(&format!("{two} --st 0"), "--st: 0 s is less than 1 ms");
    refused(&format!("{two} --st 86401"), "--st: 86401 is out of range");
    refused(&format!("{two} --tc 0+0"), "bad time control");
    refused(&format!("{two} --tc 1e300"), "times are 0..=86400 seconds");
    refused(
        &format!("{two} --tc 0/10+1"),
        "moves per period are 1..=1000",
    );
    let d = format!("{two} --depth 2");
    refused(
        &format!("{d} --games 0"),
        "--games: 0 is out of range 1..=1000000",
    );
    refused(&format!("{d} --rounds 0"), "--rounds: 0 is out of range");
    refused(
        &format!("{d} --games 1000 --rounds 1001"),
        "the match would have 1001000 games",
    );
    refused(
        &format!("{d} --concurrency 0"),
        "--concurrency: 0 is out of range 1..=256",
    );
    refused(
        &format!("{d} --concurrency 100000"),
        "--concurrency: 100000 is out of range",
    );
    refused(
        &format!("{d} --rule PointTarget=46"),
        "PointTarget must be in 0..45",
    );
    refused(
        &format!("{d} --maxmoves 0"),
        "--maxmoves: 0 is out of range",
    );
    refused(
        &format!("{d} --stalltimeout 0"),
        "--stalltimeout: 0 is out of range",
    );
    refused(
        &format!("{d} --movetimeout 99999999999"),
        "--movetimeout: 99999999999",
    );
    refused(
        &format!("{d} --timemargin -1"),
        "--timemargin: '-1' is not a number",
    );
    refused(&format!("{d} --seed -1"), "--seed: '-1' is not a number");
    refused(
        &format!("{d} --sprt elo0=0 elo1=2000"),
        "--sprt elo1: 2000 is out of range",
    );
    refused(
        &format!("{d} --sprt elo0=0 elo1=5 alpha=0.7"),
        "--sprt alpha: 0.7",
    );
    refused(
        &format!("{d} --draw movenumber=0 movecount=0 score=10"),
        "--draw movecount: 0",
    );
    refused(
        &format!("{d} --resign movecount=3 score=1e9"),
        "--resign score",
    );
    refused(
        &format!("{d} --openings x.epd start=0"),
        "--openings start: 0",
    );
    // Per-engine keys, the same ranges.
    let one = "match --engine cmd=b --depth 2 --engine cmd=a";
    refused(
        &format!("{one} nodes=0"),
        "--engine nodes: 0 is out of range (at least 1)",
    );
    refused(
        &format!("{one} depth=0"),
        "--engine depth: 0 is out of range 1..=120",
    );
    refused(
        &format!("{one} depth=x"),
        "--engine depth: 'x' is not a number",
    );
    refused(
        &format!("{one} st=0.0001"),
        "--engine st: 0.0001 s is less than 1 ms",
    );
    refused(&format!("{one} tc=40/0"), "bad time control");
    refused(&format!("{one} timemargin=-5"), "--engine timemargin: '-5'");
    refused(
        "match --each depth=0 --engine cmd=a --engine cmd=b",
        "--each depth: 0",
    );
}

#[test]
fn genopenings_flags_have_ranges() {
    refused(
        "genopenings --threads 0",
        "--threads: option 'Threads' value 0",
    );
    refused(
        "genopenings --hash 0",
        "--hash: option 'Hash' value 0 is out of range 1..=",
    );
    refused(
        "genopenings --plies 100000",
        "--plies: 100000 is out of range 1..=100",
    );
    refused(
        "genopenings --plies 0",
        "--plies: 0 is out of range 1..=100",
    );
    refused(
        "genopenings --count 0",
        "--count: 0 is out of range 1..=100000",
    );
    refused(
        "genopenings --depth 0",
        "--depth: 0 is out of range 1..=120",
    );
    refused(
        "genopenings --threshold -1",
        "--threshold: -1 is out of range 0..=10000",
    );
    refused("genopenings --nodes -1", "--nodes: '-1' is not a number");
}

#[test]
fn bench_variant_keeps_one_games_positions() {
    // At depth 2 each game's share adds up to the whole bench.
    let nodes = |args: &[&str]| -> u64 {
        let (code, out, err) = tinh(args);
        assert_eq!(code, Some(0), "tinh {args:?}: {err}");
        let last = out.lines().last().unwrap_or("");
        last.split_whitespace().next().unwrap().parse().unwrap()
    };
    let all = nodes(&["bench", "2"]);
    let parts: Vec<u64> = ["mathchess", "revealchess", "chess"]
        .iter()
        .map(|v| nodes(&["bench", "--variant", v, "2"]))
        .collect();
    assert!(parts.iter().all(|&n| n > 0), "{parts:?}");
    assert_eq!(parts.iter().sum::<u64>(), all, "{parts:?}");
    // Only that game's positions are searched (the per-position lines are on stderr).
    let (_, _, err) = tinh(&["bench", "--variant", "chess", "2"]);
    assert!(
        err.lines()
            .all(|l| !l.contains("mathchess") && !l.contains("revealchess")),
        "{err}"
    );
    assert!(err.lines().any(|l| l.contains("chess")), "{err}");
    // The variant may also come before the subcommand, as for the others.
    assert_eq!(nodes(&["--variant", "chess", "bench", "2"]), parts[2]);
}
