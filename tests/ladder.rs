//! `tinh ladder` end to end: a tiny fixed-node ladder plays every pairing and prints its
//! table, and `--refit` on the PGN it wrote fits exactly the same ratings without playing;
//! two copies of the games pool into one table; a file that is not a ladder's is refused.

mod cli_support;
use cli_support::tinh;

/// The table's rows from "player" on, without the header line naming the games' source.
fn rows(table: &str) -> Vec<String> {
    table
        .lines()
        .skip_while(|l| !l.starts_with("player"))
        .map(|l| l.to_string())
        .collect()
}

/// A column of a table row (columns are separated by two or more spaces).
fn column(row: &str, i: usize) -> String {
    row.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .nth(i)
        .unwrap_or("")
        .to_string()
}

#[test]
fn refit_reproduces_the_ladder_and_pools_runs() {
    let dir = std::env::temp_dir().join(format!("tinh-ladder-test-{}", std::process::id()));
    // `--pgnout` creates its folder.
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (code, played, err) = tinh(&[
        "ladder",
        "--variant",
        "chess",
        "--nodes",
        "300",
        "--games",
        "2",
        "--anchor-games",
        "2",
        "--seed",
        "3",
        "--pgnout",
        d,
    ]);
    assert_eq!(code, Some(0), "ladder failed: {err}");
    // Random mover, five levels and full strength; 6 neighbour pairs and 5 anchor pairs.
    assert!(
        played.contains("chess: 22 games at 300 nodes per move"),
        "{played}"
    );
    let table = rows(&played);
    for name in [
        "random mover",
        "level 1 (novice)",
        "level 5 (expert)",
        "full strength",
    ] {
        assert!(
            table.iter().any(|r| r.starts_with(name)),
            "{name} missing: {played}"
        );
    }
    let pgn = dir.join("ladder-chess.pgn");
    let pgn = pgn.to_str().unwrap();
    let (code, refit, err) = tinh(&["ladder", "--refit", pgn]);
    assert_eq!(code, Some(0), "refit failed: {err}");
    assert!(refit.contains("chess: 22 games read from"), "{refit}");
    // The same games give the same fit, points and clock columns.
    assert_eq!(rows(&refit), table, "played:\n{played}\nrefit:\n{refit}");

    // The same file twice: twice the games and points, every rating still finite.
    let (code, twice, err) = tinh(&["ladder", "--variant", "chess", "--refit", pgn, pgn]);
    assert_eq!(code, Some(0), "{err}");
    assert!(twice.contains("chess: 44 games read from"), "{twice}");
    for (once, doubled) in table.iter().zip(rows(&twice)).skip(2).take(6) {
        let (a, b) = (column(once, 5), column(&doubled, 5));
        if a == "-" {
            continue;
        }
        let half = |s: &str| -> (f64, f64) {
            let (p, g) = s.split_once('/').unwrap();
            (p.parse().unwrap(), g.parse().unwrap())
        };
        let ((p1, g1), (p2, g2)) = (half(&a), half(&b));
        assert_eq!((2.0 * p1, 2.0 * g1), (p2, g2), "{once} / {doubled}");
    }

    // Not a ladder's games: a clear error, exit status 1, nothing on stdout.
    assert!(dir.join("ladder-chess.pgn").is_file());
    let other = dir.join("other.pgn");
    std::fs::write(
        &other,
        "[White \"Stockfish\"]\n[Black \"random\"]\n[Result \"1-0\"]\n[Variant \"chess\"]\n\n\
         e2e4 {0.1s} 1-0\n\n",
    )
    .unwrap();
    let (code, out, err) = tinh(&["ladder", "--refit", other.to_str().unwrap()]);
    assert_ne!(code, Some(0));
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("\"Stockfish\" is not a ladder player"),
        "{err}"
    );
    let (code, _, err) = tinh(&["ladder", "--refit", "/nonexistent/ladder.pgn"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("cannot read /nonexistent/ladder.pgn"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
