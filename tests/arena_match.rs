//! End-to-end tests of `tinh match`: Tinh against Tinh in each game (summary, PGN read
//! back and replayed through the rules code, same seed = same games), and fake engines
//! (tests/fake_engines/fake_engine.py) that misbehave: each loses with the right reason
//! while the match completes.

use std::path::PathBuf;
use std::process::Command;
use tinh::arena::pgn;
use tinh::game::Outcome;
use tinh::variant::Variant;
use tinh::with_game;

const BIN: &str = env!("CARGO_BIN_EXE_tinh");

fn fake() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines/fake_engine.py")
        .to_string_lossy()
        .into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tinh-arena-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Engine words for a fake engine with the given mode.
fn fake_engine(name: &str, mode: &str, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "--engine".into(),
        "cmd=python3".into(),
        format!("name={name}"),
        format!("arg={}", fake()),
        "arg=--tinh".into(),
        format!("arg={BIN}"),
        "arg=--mode".into(),
        format!("arg={mode}"),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

struct Run {
    stdout: String,
    stderr: String,
    ok: bool,
}

fn run_match(args: &[String]) -> Run {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .expect("run tinh match");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        ok: out.status.success(),
    }
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn finished_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect()
}

/// Read the PGN back and check every game: the tags, the moves replay legally from the
/// FEN tag through the rules code, PlyCount, and a result consistent with the final
/// position when the game ended by the rules.
fn check_pgn(path: &PathBuf, variant: Variant, games: usize) -> Vec<pgn::PgnGame> {
    let text = std::fs::read_to_string(path).expect("pgn written");
    let parsed = pgn::parse(&text).expect("valid PGN");
    assert_eq!(parsed.len(), games, "{text}");
    for (k, g) in parsed.iter().enumerate() {
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Variant",
            "FEN",
            "SetUp",
            "Termination",
            "TimeControl",
            "PlyCount",
        ] {
            assert!(g.tag(tag).is_some(), "game {k}: tag {tag} missing\n{text}");
        }
        assert_eq!(g.tag("Round"), Some((k + 1).to_string().as_str()));
        assert_eq!(g.tag("Variant"), Some(variant.name()));
        assert_eq!(g.tag("Result"), Some(g.result.as_str()));
        assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
        // One comment per move plus the reason at the end.
        assert_eq!(g.comments.len(), g.moves.len() + 1);
        let mut pos = variant
            .from_fen(g.tag("FEN").unwrap())
            .expect("FEN tag parses");
        pos.apply_moves(g.moves.iter().map(|s| s.as_str()))
            .unwrap_or_else(|e| panic!("game {k}: moves do not replay: {e}"));
        let reason = g.comments.last().unwrap();
        match g.tag("Termination").unwrap() {
            "normal" => {
                let end = with_game!(&pos, p => p.game_end().map(|e| (e, p.side_to_move())))
                    .unwrap_or_else(|| panic!("game {k}: 'normal' end but the game goes on"));
                let ((end, stm), expected) = (end, g.result.as_str());
                let got = match end.outcome {
                    Outcome::Draw => "1/2-1/2",
                    Outcome::Win if stm == 0 => "1-0",
                    Outcome::Loss if stm == 1 => "1-0",
                    _ => "0-1",
                };
                assert_eq!(got, expected, "game {k}: result vs final position");
                assert!(reason.contains(&end.reason), "{reason} vs {}", end.reason);
            }
            "adjudication" => {}
            other => panic!("game {k}: unexpected termination {other}: {reason}"),
        }
    }
    parsed
}

/// The `Score of A vs B: W - L - D` figures.
fn score_line(stdout: &str) -> (u32, u32, u32) {
    let l = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of"))
        .expect("score line");
    let nums: Vec<u32> = l
        .split(':')
        .nth(1)
        .unwrap()
        .split('[')
        .next()
        .unwrap()
        .split('-')
        .map(|s| s.trim().parse().unwrap())
        .collect();
    (nums[0], nums[1], nums[2])
}

fn tinh_vs_tinh(variant: Variant, seed: u64, pgn_path: &std::path::Path) -> Run {
    let args = words(&format!(
        "--engine cmd={BIN} name=tinh --engine cmd={BIN} name=tinh2 --variant {variant} \
         --games 2 --nodes 2000 --maxmoves 40 --seed {seed} --pgnout {} --ratinginterval 0",
        pgn_path.display()
    ));
    run_match(&args)
}

fn tinh_match_checks(variant: Variant) {
    let p1 = tmp(&format!("{variant}-1.pgn"));
    let r = tinh_vs_tinh(variant, 7, &p1);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(finished_lines(&r.stdout).len(), 2, "{}", r.stdout);
    let (w, l, d) = score_line(&r.stdout);
    assert_eq!(w + l + d, 2);
    assert!(r.stdout.contains("Elo difference:"));
    assert!(r.stdout.contains("Pairs [LL, LD, DD/WL, WD, WW]"));
    assert!(r.stdout.contains("Finished match"));
    assert!(r.stderr.contains("Started game 1 of 2"));
    let games = check_pgn(&p1, variant, 2);
    // Points in the summary agree with the PGN results (tinh is White in game 1).
    let mut pts = 0.0;
    for (k, g) in games.iter().enumerate() {
        let first = match g.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        pts += if k == 0 { first } else { 1.0 - first };
        let names = [g.tag("White").unwrap(), g.tag("Black").unwrap()];
        assert_eq!(
            names,
            if k == 0 {
                ["tinh", "tinh2"]
            } else {
                ["tinh2", "tinh"]
            }
        );
    }
    assert_eq!(pts, w as f64 + 0.5 * d as f64);
    // Same seed, fixed nodes: the same games, move for move (reveals included).
    let p2 = tmp(&format!("{variant}-2.pgn"));
    let r2 = tinh_vs_tinh(variant, 7, &p2);
    assert!(r2.ok);
    let again = check_pgn(&p2, variant, 2);
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.result, b.result);
    }
    let _ = std::fs::remove_file(p1);
    let _ = std::fs::remove_file(p2);
}

#[test]
fn tinh_vs_tinh_mathchess() {
    tinh_match_checks(Variant::MathChess);
}

#[test]
fn tinh_vs_tinh_revealchess() {
    tinh_match_checks(Variant::RevealChess);
}

#[test]
fn tinh_vs_tinh_chess() {
    tinh_match_checks(Variant::Chess);
}

/// A misbehaving fake engine against a good one: both games (colours swapped) are lost by
/// the bad one with `reason` in the game line, and the match completes.
fn misbehaving(variant: &str, mode: &str, bad_extra: &[&str], expect: &str, termination: &str) {
    let path = tmp(&format!("{mode}.pgn"));
    let mut args = fake_engine("bad", mode, bad_extra);
    args.extend(fake_engine("good", "good", &["nodes=1"]));
    args.extend(words(&format!(
        "--variant {variant} --games 2 --stalltimeout 1500 --movetimeout 1500 --pgnout {}",
        path.display()
    )));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let lines = finished_lines(&r.stdout);
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    let colours = if variant == "mathchess" {
        ["Blue", "Red"]
    } else {
        ["White", "Black"]
    };
    // Game 1: bad is first (White/Blue) and loses 0-1; game 2 the other way round.
    assert!(lines[0].contains("(bad vs good): 0-1"), "{}", lines[0]);
    assert!(lines[1].contains("(good vs bad): 1-0"), "{}", lines[1]);
    for (k, l) in lines.iter().enumerate() {
        let bad_colour = colours[k];
        assert!(
            l.contains(bad_colour) && l.contains(expect),
            "game {}: '{l}' should say {bad_colour} ... {expect}",
            k + 1
        );
    }
    assert_eq!(score_line(&r.stdout), (0, 2, 0));
    assert!(r.stdout.contains("Finished match"));
    let text = std::fs::read_to_string(&path).unwrap();
    let games = pgn::parse(&text).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("Termination"), Some(termination));
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn illegal_move_loses() {
    misbehaving(
        "mathchess",
        "illegal",
        &["arg=--after", "arg=1", "nodes=1"],
        "makes an illegal move: ",
        "illegal move",
    );
}

#[test]
fn crash_mid_game_loses_and_engine_restarts() {
    // Crashes on its third move of each game: the second game needs a restarted process.
    misbehaving(
        "revealchess",
        "crash",
        &["arg=--after", "arg=2", "nodes=1"],
        "engine disconnects",
        "abandoned",
    );
}

#[test]
fn never_answering_go_loses_by_stall() {
    misbehaving(
        "chess",
        "hang",
        &["arg=--after", "arg=1", "nodes=1"],
        "engine stalls (no bestmove in time)",
        "stalled connection",
    );
}

#[test]
fn overstepping_the_clock_loses_on_time() {
    misbehaving(
        "mathchess",
        "slow",
        &["arg=--after", "arg=1", "arg=--sleep", "arg=900", "tc=0.5+0"],
        "loses on time",
        "time forfeit",
    );
}

#[test]
fn same_seed_same_reveals_and_sprt_stops_early() {
    // Deterministic fake movers in Reveal Chess: the games differ only by the reveals the
    // referee draws, so the same seed must give the same movetext, another seed another.
    let run = |seed: u64, name: &str| {
        let path = tmp(name);
        let mut args = fake_engine("a", "good", &["nodes=1"]);
        args.extend(fake_engine("b", "good", &["nodes=1"]));
        args.extend(words(&format!(
            "--variant revealchess --games 2 --maxmoves 12 --seed {seed} --pgnout {}",
            path.display()
        )));
        let r = run_match(&args);
        assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
        let games = check_pgn(&path, Variant::RevealChess, 2);
        let _ = std::fs::remove_file(path);
        games.into_iter().map(|g| g.moves).collect::<Vec<_>>()
    };
    let a = run(11, "seed-a.pgn");
    let b = run(11, "seed-b.pgn");
    let c = run(12, "seed-c.pgn");
    assert_eq!(a, b);
    assert_ne!(a, c);
    // Reveal letters are in the movetext.
    assert!(
        a[0].iter()
            .any(|m| m.ends_with(|c: char| c.is_ascii_uppercase()))
    );

    // SPRT: an engine that always plays an illegal move loses every pair. With elo0=0
    // elo1=400 the LLR gains 0.598 a pair (see stats.rs): H1 after 5 pairs, 10 games of
    // the 40 scheduled.
    let mut args = fake_engine("good", "good", &["nodes=1"]);
    args.extend(fake_engine("bad", "illegal", &["nodes=1"]));
    args.extend(words(
        "--variant mathchess --games 40 --sprt elo0=0 elo1=400 alpha=0.05 beta=0.05 --ratinginterval 0",
    ));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("H1 accepted after 10 games"),
        "{}",
        r.stdout
    );
    assert_eq!(finished_lines(&r.stdout).len(), 10);
    assert!(r.stdout.contains("SPRT: llr"));
}

#[test]
fn each_side_gets_the_same_reveals_in_both_games_of_a_pair() {
    // Two different deterministic movers: the two games of the pair go different ways, so
    // the pieces that reveal, and when, differ; the types each side draws, in order, must
    // not (each side has its own reveal stream, and its pool changes only by its reveals).
    let path = tmp("pair-reveals.pgn");
    let mut args = fake_engine("a", "good", &["nodes=1", "arg=--salt", "arg=a"]);
    args.extend(fake_engine(
        "b",
        "good",
        &["nodes=1", "arg=--salt", "arg=b"],
    ));
    args.extend(words(&format!(
        "--variant revealchess --games 2 --maxmoves 30 --seed 5 --pgnout {}",
        path.display()
    )));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let games = check_pgn(&path, Variant::RevealChess, 2);
    let _ = std::fs::remove_file(path);
    assert_ne!(games[0].moves, games[1].moves);
    // A reveal's type is the upper-case letter that ends its move.
    let reveals = |moves: &[String], side: usize| -> Vec<char> {
        let letter = |m: &String| m.chars().last().filter(|c| c.is_ascii_uppercase());
        moves
            .iter()
            .skip(side)
            .step_by(2)
            .filter_map(letter)
            .collect()
    };
    for side in 0..2 {
        let (first, second) = (
            reveals(&games[0].moves, side),
            reveals(&games[1].moves, side),
        );
        let n = first.len().min(second.len());
        assert!(n >= 5, "{first:?} {second:?}");
        assert_eq!(first[..n], second[..n], "side {side}");
    }
}

/// `tinh sprt` reads a match's log back: one run pooled alone gives the statistics lines
/// the match printed last, and the same log twice gives twice its pairs.
#[test]
fn sprt_pools_match_logs_as_the_match_counted_them() {
    let mut args = fake_engine("good", "good", &["nodes=1"]);
    args.extend(fake_engine("bad", "illegal", &["nodes=1"]));
    args.extend(words(
        "--variant mathchess --games 6 --sprt elo0=0 elo1=400 --ratinginterval 2",
    ));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let log = tmp("sprt-pool.log");
    std::fs::write(&log, &r.stdout).unwrap();
    let pool = |extra: &str| {
        let out = Command::new(BIN)
            .args(words(&format!("sprt --sprt elo0=0 elo1=400 {extra}")))
            .output()
            .expect("run tinh sprt");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let last = |text: &str, prefix: &str| {
        text.lines()
            .rev()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' line in\n{text}"))
            .to_string()
    };
    let one = pool(&format!("--log {}", log.display()));
    for prefix in ["Elo difference:", "Pairs [", "SPRT: llr"] {
        assert_eq!(last(&one, prefix), last(&r.stdout, prefix), "{one}");
    }
    assert!(
        one.contains("Pooled over 1 run: 6 games, 6 - 0 - 0"),
        "{one}"
    );
    let two = pool(&format!("--log {} {}", log.display(), log.display()));
    assert!(
        two.contains("Pairs [LL, LD, DD/WL, WD, WW]: [0, 0, 0/0, 0, 6] (6 pairs)"),
        "{two}"
    );
    let _ = std::fs::remove_file(log);
}

#[test]
fn round_robin_with_concurrency() {
    let path = tmp("rr.pgn");
    // `--variant` first: clap sees it as the global flag; main hands it back to the match.
    let mut args = words("--variant chess");
    args.extend(fake_engine("a", "good", &["nodes=1"]));
    args.extend(fake_engine("b", "good", &["nodes=1"]));
    args.extend(fake_engine("c", "illegal", &["nodes=1"]));
    args.extend(words(&format!(
        "--games 2 --concurrency 2 --maxmoves 6 --pgnout {}",
        path.display()
    )));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let lines = finished_lines(&r.stdout);
    assert_eq!(lines.len(), 6);
    // Chess colours: the variant reached the match.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("White wins: Black makes an illegal move"))
    );
    assert!(r.stdout.contains("Score of a vs b"));
    assert!(
        r.stdout.contains("Score of a vs c: 2 - 0 - 0"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Score of b vs c: 2 - 0 - 0"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Rank"));
    // PGN in game order even though games ran two at a time.
    let games = pgn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rounds: Vec<String> = games
        .iter()
        .map(|g| g.tag("Round").unwrap().to_string())
        .collect();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "6"]);
    let _ = std::fs::remove_file(path);
}

#[test]
fn bad_command_lines_are_refused() {
    let r = run_match(&words(
        "--engine cmd=/nonexistent/engine --engine cmd=x --nodes 1",
    ));
    assert!(!r.ok);
    assert!(r.stderr.contains("cannot start engine"), "{}", r.stderr);
    let r = run_match(&words("--help"));
    assert!(r.ok && r.stdout.contains("--sprt"));
    let r = run_match(&words(
        "--engine cmd=a --engine cmd=b --nodes 1 --frobnicate",
    ));
    assert!(!r.ok && r.stderr.contains("unknown flag"));
}

#[test]
fn adjudication_by_score_and_maxmoves() {
    // Draw: from move 0, both scores within 1.00 for 2 moves each -> 4 plies.
    let mut args = fake_engine("a", "good", &["nodes=1"]);
    args.extend(fake_engine("b", "good", &["nodes=1"]));
    args.extend(words(
        "--variant mathchess --games 2 --draw movenumber=0 movecount=2 score=100",
    ));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let lines = finished_lines(&r.stdout);
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert!(
            l.contains("1/2-1/2 {Draw: adjudication, scores within 1.00 for 2 moves}"),
            "{l}"
        );
    }
    // Resign: `b` reports -6.00 on every move; after its third it loses, whatever colour.
    let path = tmp("resign.pgn");
    let mut args = fake_engine("a", "good", &["nodes=1", "arg=--score", "arg=20"]);
    args.extend(fake_engine(
        "b",
        "good",
        &["nodes=1", "arg=--score", "arg=-600"],
    ));
    args.extend(words(&format!(
        "--variant chess --games 2 --resign movecount=3 score=500 --pgnout {}",
        path.display()
    )));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let lines = finished_lines(&r.stdout);
    assert!(
        lines[0].contains(
            "1-0 {White wins: adjudication, Black's score at or below -5.00 for 3 moves}"
        ),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains(
            "0-1 {Black wins: adjudication, White's score at or below -5.00 for 3 moves}"
        ),
        "{}",
        lines[1]
    );
    let games = check_pgn(&path, Variant::Chess, 2);
    assert_eq!(games[0].moves.len(), 6);
    assert_eq!(games[1].moves.len(), 5);
    let _ = std::fs::remove_file(path);
    // Max moves: a draw after 3 moves each.
    let mut args = fake_engine("a", "good", &["nodes=1"]);
    args.extend(fake_engine("b", "good", &["nodes=1"]));
    args.extend(words("--variant revealchess --games 2 --maxmoves 3"));
    let r = run_match(&args);
    assert!(r.ok);
    for l in finished_lines(&r.stdout) {
        assert!(
            l.contains("1/2-1/2 {Draw: adjudication, 3 moves played (maxmoves)}"),
            "{l}"
        );
    }
}

#[test]
fn time_loss_against_a_bare_king_is_a_draw() {
    // White: king and pawn; Black: bare king. The slow engine oversteps its clock on its
    // first move: as White it only draws (a bare king cannot mate), as Black it loses.
    let book = tmp("bare.epd");
    std::fs::write(&book, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n").unwrap();
    let mut args = fake_engine("slow", "slow", &["tc=0.3+0", "arg=--sleep", "arg=700"]);
    args.extend(fake_engine("good", "good", &["nodes=1"]));
    args.extend(words(&format!(
        "--variant chess --games 2 --stalltimeout 2000 --openings {}",
        book.display()
    )));
    let r = run_match(&args);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let lines = finished_lines(&r.stdout);
    assert!(
        lines[0].contains("1/2-1/2 {Draw: White loses on time"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("Black cannot mate"), "{}", lines[0]);
    // Game 2: slow is Black; White moves first, then Black oversteps and loses.
    assert!(
        lines[1].contains("1-0 {White wins: Black loses on time"),
        "{}",
        lines[1]
    );
    let _ = std::fs::remove_file(book);
}

#[test]
fn levels_never_lose_on_time_nor_play_an_illegal_move() {
    // Level 5, level 1 and the random mover in a round robin at a one-second clock, in
    // every game; every game is replayed through the rules code from the PGN.
    for &variant in Variant::ALL {
        let pgn = tmp(&format!("{variant}-levels.pgn"));
        let mut args = words(&format!(
            "--engine cmd={BIN} name=level5 option.Level=5 \
             --engine cmd={BIN} name=level1 option.Level=1 \
             --each option.Seed=3 --variant {variant} --games 2 --tc 1+0.01 --maxmoves 60 \
             --pgnout {} --ratinginterval 0",
            pgn.display()
        ));
        // The random mover's option name has a space: one word of its own.
        args.extend(words(&format!("--engine cmd={BIN} name=random")));
        args.push("option.Skill Level=-1".into());
        let r = run_match(&args);
        assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
        let lines = finished_lines(&r.stdout);
        assert_eq!(lines.len(), 6, "{}", r.stdout);
        for l in lines {
            for bad in ["on time", "illegal", "stalls", "disconnects"] {
                assert!(!l.contains(bad), "{variant}: {l}");
            }
        }
        check_pgn(&pgn, variant, 6);
        let _ = std::fs::remove_file(pgn);
    }
}
