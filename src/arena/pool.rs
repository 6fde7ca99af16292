//! `tinh sprt`: one SPRT over several runs of the same test. The match runner cannot
//! resume a run, so a long test is played in parts (stopped and started again, or two
//! runs beside each other on two cores); this pools their complete game pairs, read from
//! the runs' logs (`tinh match`'s stdout) or given as counts, and reports the Elo, its
//! interval and the LLR of the whole, with the formulas `tinh match` uses.

use super::aligned;
use super::args::{group, parse_sprt};
use super::stats::{self, Sprt, Tally};

/// `tinh sprt --help`.
pub fn help() -> String {
    "tinh sprt: pool the game pairs of several runs of one test and run the SPRT over them.

Flags may be written with one or two dashes (-log / --log).

  --log FILE ...        `tinh match` output (its stdout); the last statistics block is
                        read: the first engine's wins, losses and draws and the pair counts.
                        Print blocks often (--ratinginterval 2) so that the last one holds
                        every finished pair.
  --pairs COUNTS ...    Pair counts of a run as `tinh match` prints them: LL,LD,DD/WL,WD,WW
                        (six numbers; the wins, losses and draws follow from them) or
                        LL,LD,DD,WD,WW with the one-win-one-loss pairs counted in DD (five
                        numbers, the pentanomial counts alone; the LOS and draw ratio of the
                        whole are then left out). Brackets and spaces are ignored.
  --sprt elo0=A elo1=B [alpha=0.05] [beta=0.05]
                        The test, as `tinh match --sprt` (default elo0=0 elo1=10).
  --help                This text.

Every count is the first engine's, as each run printed it: runs must list the engines in
the same order (a log that names them otherwise is reported on stderr). Output: one row
per run, then the pooled statistics in `tinh match`'s words.
"
    .into()
}

/// The test without `--sprt`: the project's standard, elo0=0 elo1=10.
const STANDARD_TEST: Sprt = Sprt {
    elo0: 0.0,
    elo1: 10.0,
    alpha: 0.05,
    beta: 0.05,
};

/// One run's counts and where they came from.
struct Part {
    source: String,
    /// `A vs B`, when the source names the engines.
    engines: Option<String>,
    tally: Tally,
    /// Whether the wins, losses and draws (and the pairs of one win and one loss) are
    /// known, not only the pentanomial counts.
    games_known: bool,
}

/// `tinh sprt ARGS...`.
pub fn sprt_cli(args: &[String]) -> Result<(), String> {
    let mut parts = Vec::new();
    let mut sprt = STANDARD_TEST;
    for (flag, vals) in group(args)? {
        match flag.as_str() {
            "help" | "h" => {
                print!("{}", help());
                return Ok(());
            }
            "log" if vals.is_empty() => return Err("--log needs a file".into()),
            "log" => {
                for file in &vals {
                    let text = std::fs::read_to_string(file)
                        .map_err(|e| format!("--log {file}: cannot read it: {e}"))?;
                    parts.push(read_log(file, &text).map_err(|e| format!("--log {file}: {e}"))?);
                }
            }
            "pairs" if vals.is_empty() => return Err("--pairs needs counts".into()),
            "pairs" => {
                for counts in &vals {
                    parts.push(read_pairs(counts).map_err(|e| format!("--pairs {counts}: {e}"))?);
                }
            }
            "sprt" => sprt = parse_sprt(&vals)?,
            _ => {
                return Err(format!(
                    "unknown flag --{flag} (tinh sprt --help lists them)"
                ));
            }
        }
    }
    if parts.is_empty() {
        return Err(
            "nothing to pool: give --log files or --pairs counts (tinh sprt --help)".into(),
        );
    }
    warn_on_other_engines(&parts);
    print!("{}", report(&parts, &sprt));
    Ok(())
}

/// The last statistics block of a `tinh match` log: its `Score of` and `Pairs` lines.
fn read_log(source: &str, text: &str) -> Result<Part, String> {
    // The last block's pair counts and the score line above them (a log cut while a block
    // was written may end with a score line whose pair counts are missing).
    let lines: Vec<&str> = text.lines().collect();
    let block = lines
        .iter()
        .rposition(|l| l.starts_with("Pairs [LL, LD, DD/WL, WD, WW]: "))
        .and_then(|p| {
            let s = lines[..p]
                .iter()
                .rposition(|l| l.starts_with("Score of "))?;
            Some((lines[s], lines[p]))
        });
    let Some((score, pairs)) = block else {
        return Err("no statistics block in it yet (is it `tinh match`'s stdout?)".into());
    };
    let bad = || format!("cannot read its statistics line '{score}'");
    // "Score of A vs B: W - L - D  [0.500] N"
    let rest = &score["Score of ".len()..];
    let (engines, counts) = rest.rsplit_once(": ").ok_or_else(bad)?;
    let counts = counts.split('[').next().ok_or_else(bad)?;
    let wld: Vec<u64> = counts
        .split('-')
        .map(|w| w.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let [wins, losses, draws] = wld[..] else {
        return Err(bad());
    };
    let counts = pairs.split_once("]: ").map(|(_, c)| c).unwrap_or_default();
    let mut part = read_pairs(counts.split('(').next().unwrap_or_default())
        .map_err(|e| format!("its pair counts: {e}"))?;
    part.source = source.to_string();
    part.engines = Some(engines.to_string());
    part.tally.wins = wins;
    part.tally.losses = losses;
    part.tally.draws = draws;
    Ok(part)
}

/// Pair counts: six numbers `LL,LD,DD/WL,WD,WW` (as `tinh match` prints them) or five,
/// `LL,LD,DD,WD,WW` with the pairs of one win and one loss counted in DD.
fn read_pairs(counts: &str) -> Result<Part, String> {
    let words: Vec<&str> = counts
        .split(|c: char| c == ',' || c == '/' || c.is_whitespace() || c == '[' || c == ']')
        .filter(|w| !w.is_empty())
        .collect();
    let n: Vec<u64> = words
        .iter()
        .map(|w| {
            w.parse::<u64>()
                .ok()
                .filter(|&x| x <= 1_000_000_000)
                .ok_or_else(|| format!("'{w}' is not a count (0..=1000000000)"))
        })
        .collect::<Result<_, _>>()?;
    let mut t = Tally::default();
    let games_known = match n[..] {
        [ll, ld, dd, wl, wd, ww] if counts.contains('/') => {
            t.penta = [ll, ld, dd + wl, wd, ww];
            t.penta_wl = wl;
            t.wins = 2 * ww + wd + wl;
            t.losses = 2 * ll + ld + wl;
            t.draws = ld + 2 * dd + wd;
            true
        }
        [ll, ld, dd, wd, ww] if !counts.contains('/') => {
            t.penta = [ll, ld, dd, wd, ww];
            false
        }
        _ => {
            return Err("expected LL,LD,DD/WL,WD,WW (six counts) or LL,LD,DD,WD,WW (five)".into());
        }
    };
    Ok(Part {
        source: format!("--pairs {counts}"),
        engines: None,
        tally: t,
        games_known,
    })
}

/// Counts are the first engine's as each run printed them: a log whose engines are not
/// the first log's (another order, another name) is pooled as it is, and said so.
fn warn_on_other_engines(parts: &[Part]) {
    let mut named = parts.iter().filter_map(|p| Some((p, p.engines.as_ref()?)));
    if let Some((_, first)) = named.next() {
        for (p, engines) in named.filter(|(_, e)| e != &first) {
            log::warn!(
                "{} plays {engines}, the first log {first}: its counts are pooled as the first engine's",
                p.source
            );
        }
    }
}

/// One row per run, then the pooled statistics.
fn report(parts: &[Part], sprt: &Sprt) -> String {
    let mut pooled = Tally::default();
    for p in parts {
        pooled.add(&p.tally);
    }
    let games_known = parts.iter().all(|p| p.games_known);
    let rows: Vec<Vec<String>> = parts
        .iter()
        .map(|p| {
            let t = &p.tally;
            let elo = t.elo_pentanomial().map_or("-".into(), |e| {
                format!("{:+.1} [{:+.1}, {:+.1}]", e.elo, e.lower, e.upper)
            });
            vec![
                p.source.clone(),
                p.engines.clone().unwrap_or_default(),
                t.pairs().to_string(),
                format!("{:?}", t.penta),
                elo,
            ]
        })
        .collect();
    let header = [
        "run",
        "engines",
        "pairs",
        "[LL, LD, DD+WL, WD, WW]",
        "Elo [95%]",
    ];
    let mut s = aligned(&header, &rows);
    s.push('\n');
    let runs = parts.len();
    let games = if games_known {
        format!(
            "{} games, {} - {} - {} for the first engine",
            pooled.games(),
            pooled.wins,
            pooled.losses,
            pooled.draws
        )
    } else {
        format!(
            "{} pairs (the wins, losses and draws are not known for every run)",
            pooled.pairs()
        )
    };
    let plural = if runs == 1 { "" } else { "s" };
    s.push_str(&format!("Pooled over {runs} run{plural}: {games}\n"));
    s.push_str(&stats::elo_line(&pooled, games_known));
    s.push_str(&stats::pairs_line(&pooled, games_known));
    s.push_str(&stats::sprt_line(&pooled, sprt));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "Finished game 1 (A vs B): 1-0 {White mates}
Score of A vs B: 1 - 0 - 0  [1.000] 1
Elo difference: +inf +/- inf [-inf, +inf] (trinomial, 95%), LOS: 84.1 %, DrawRatio: 0.0 %
Pairs [LL, LD, DD/WL, WD, WW]: [0, 0, 0/0, 0, 0] (0 pairs)
Finished game 2 (B vs A): 1/2-1/2 {Draw by repetition}
Finished game 3 (A vs B): 0-1 {Black mates}
Finished game 4 (B vs A): 0-1 {Black mates}
Finished game 5 (A vs B): 1-0 {White mates}
Score of A vs B: 3 - 1 - 1  [0.700] 5
Elo difference: +190.85 +/- 500.00 [-100.00, 300.00] (pentanomial, 95%), LOS: 84.1 %, DrawRatio: 20.0 %
Pairs [LL, LD, DD/WL, WD, WW]: [0, 0, 0/1, 1, 0] (2 pairs)
SPRT: llr 0.100 (3.4%), lbound -2.94, ubound 2.94 (pentanomial, elo0=0 elo1=10 alpha=0.05 beta=0.05)
";

    #[test]
    fn a_log_gives_its_last_block() {
        let p = read_log("run.log", LOG).unwrap();
        assert_eq!(p.engines.as_deref(), Some("A vs B"));
        assert!(p.games_known);
        let t = p.tally;
        assert_eq!((t.wins, t.losses, t.draws), (3, 1, 1));
        assert_eq!((t.penta, t.penta_wl), ([0, 0, 1, 1, 0], 1));
        // Cut while the next block was written: that block's score line is not read.
        let cut = format!("{LOG}Score of A vs B: 4 - 1 - 1  [0.750] 6\n");
        assert_eq!(read_log("run.log", &cut).unwrap().tally, t);
        assert!(read_log("x", "Finished game 1 (A vs B): 1-0\n").is_err());
        assert!(read_log("x", "").is_err());
    }

    #[test]
    fn six_counts_give_the_games_and_five_only_the_pairs() {
        let p = read_pairs("[1, 2, 3/4, 5, 6]").unwrap();
        let t = p.tally;
        assert!(p.games_known);
        assert_eq!((t.penta, t.penta_wl), ([1, 2, 7, 5, 6], 4));
        // WW 6 -> 12 wins, WD 5 -> 5 wins and 5 draws, WL 4 -> 4 and 4, LD 2 -> 2 losses
        // and 2 draws, LL 1 -> 2 losses, DD 3 -> 6 draws.
        assert_eq!((t.wins, t.losses, t.draws), (21, 8, 13));
        assert_eq!(t.games(), 2 * t.pairs());
        let p = read_pairs("75,50,220,49,92").unwrap();
        assert!(!p.games_known);
        assert_eq!(p.tally.penta, [75, 50, 220, 49, 92]);
        for bad in [
            "1,2,3,4",
            "1,2,3/4,5",
            "1,2,3,4,5,6",
            "1,2,x,4,5",
            "1,2,-3,4,5",
            "",
        ] {
            assert!(read_pairs(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pooled_counts_are_the_sums_and_the_llr_is_the_match_runners() {
        let sprt = STANDARD_TEST;
        let parts = [
            read_log("run.log", LOG).unwrap(),
            read_pairs("75,50,220,49,92").unwrap(),
        ];
        let out = report(&parts, &sprt);
        let whole = Tally {
            penta: [75, 50, 221, 50, 92],
            ..Tally::default()
        };
        assert!(out.contains("(488 pairs)"), "{out}");
        assert!(out.contains(&stats::sprt_line(&whole, &sprt)), "{out}");
        assert!(out.contains(&stats::elo_line(&whole, false)), "{out}");
        assert!(out.contains("Pairs [LL, LD, DD+WL, WD, WW]: [75, 50, 221, 50, 92]"));
        // With the games of every run known, the lines are the match runner's own.
        let out = report(&parts[..1], &sprt);
        let one = parts[0].tally;
        assert!(out.contains(&stats::elo_line(&one, true)), "{out}");
        assert!(out.contains(&stats::pairs_line(&one, true)), "{out}");
        assert!(
            out.contains("Pooled over 1 run: 5 games, 3 - 1 - 1"),
            "{out}"
        );
        assert!(out.contains("[0, 0, 0/1, 1, 0]"), "{out}");
    }

    #[test]
    fn readme_pooled_verdict_is_reproduced() {
        // README ("Search heuristics"): Reveal Chess's static exchange evaluation at
        // 10+0.1 ran in two parts, [18, 13, 2/65, 17, 55] and [9, 2, 0/33, 9, 17], and
        // passed pooled at 240 pairs with +74.2 +/- 29.6 Elo.
        let sprt = STANDARD_TEST;
        let parts = [
            read_pairs("18,13,2/65,17,55").unwrap(),
            read_pairs("9,2,0/33,9,17").unwrap(),
        ];
        let out = report(&parts, &sprt);
        assert!(out.contains("Elo difference: 74.21 +/- 29.56"), "{out}");
        assert!(out.contains("(240 pairs)"), "{out}");
        assert!(out.contains("H1 was accepted"), "{out}");
    }

    #[test]
    fn the_command_line_checks_its_input() {
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert!(sprt_cli(&words("")).is_err());
        assert!(sprt_cli(&words("--pairs")).is_err());
        assert!(sprt_cli(&words("--log")).is_err());
        assert!(sprt_cli(&words("--log /nonexistent/tinh.log")).is_err());
        assert!(sprt_cli(&words("--pairs 1,2,3,4,5 --sprt elo0=10 elo1=0")).is_err());
        assert!(sprt_cli(&words("--pairs 1,2,3,4,5 --bogus 1")).is_err());
        assert!(sprt_cli(&words("--pairs 1,2,3,4,5 --sprt elo0=-5 elo1=5")).is_ok());
    }
}
