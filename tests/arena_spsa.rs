//! End-to-end tests of `tinh spsa`: a tiny tuning run of Tinh against itself (progress on
//! stderr, the tuned values as option words on stdout, in range, the same seed giving the
//! same run), and bad command lines refused with a clear error.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tinh");

fn spsa(args: &str) -> (bool, String, String) {
    let out = Command::new(BIN)
        .arg("spsa")
        .args(args.split_whitespace())
        .output()
        .expect("run tinh spsa");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_tiny_run_reports_progress_and_tuned_values_and_replays_by_seed() {
    let args = format!(
        "--engine cmd={BIN} --variant mathchess --nodes 300 --maxmoves 30 --iterations 3 \
         --seed 9 --param RfpMargin,80,20,250,30,0.05 --param NmpBase,3,1,6,1,0.05"
    );
    let (ok, out, err) = spsa(&args);
    assert!(ok, "stdout: {out}\nstderr: {err}");
    for k in 1..=3 {
        assert!(err.contains(&format!("SPSA {k}/3 pair")), "{err}");
    }
    assert!(err.contains("ETA"), "{err}");
    assert!(out.starts_with("SPSA finished: 3 game pairs"), "{out}");
    let last = out.lines().last().unwrap();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 2, "{last}");
    let value = |w: &str, name: &str| -> i64 {
        w.strip_prefix(&format!("option.{name}="))
            .unwrap_or_else(|| panic!("{last}"))
            .parse()
            .unwrap()
    };
    assert!((20..=250).contains(&value(words[0], "RfpMargin")), "{last}");
    assert!((1..=6).contains(&value(words[1], "NmpBase")), "{last}");
    // Fixed nodes, one thread, the same seed: the same games and the same steps.
    let (_, again, _) = spsa(&args);
    assert_eq!(out, again);
}

#[test]
fn bad_command_lines_are_clear_errors() {
    for (args, says) in [
        (
            "--engine cmd=x --iterations 2 --nodes 10",
            "at least one --param",
        ),
        (
            "--engine cmd=x --param RfpMargin,300,20,250,8 --iterations 2 --nodes 10",
            "not within MIN..MAX",
        ),
        (
            "--engine cmd=x --param RfpMargin,80,20,250,8 --iterations 0 --nodes 10",
            "iterations",
        ),
        (
            "--engine cmd=x --param RfpMargin,80,20,250,8 --iterations 2 --sprt elo0=0 elo1=5",
            "not used by tinh spsa",
        ),
    ] {
        let (ok, out, err) = spsa(args);
        assert!(!ok, "{args}: should fail");
        assert!(out.is_empty(), "{args}: stdout {out}");
        assert!(err.contains(says), "{args}: {err}");
    }
}
