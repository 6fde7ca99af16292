//! The opening suites in openings/ and `tinh genopenings`: every file loads through the
//! rules code with enough distinct positions, and generation is reproducible (same seed,
//! same file, whatever the thread count).

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;
use tinh::arena::openings;
use tinh::variant::Variant;
use tinh::with_game;

fn file(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("openings")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn suites_load_and_are_distinct() {
    for (name, variant, min) in [
        ("mathchess.epd", Variant::MathChess, 200),
        ("revealchess.epd", Variant::RevealChess, 200),
        ("chess.epd", Variant::Chess, 50),
    ] {
        let list = openings::load(variant, &file(name)).unwrap();
        let distinct: HashSet<&String> = list.iter().collect();
        assert!(distinct.len() >= min, "{name}: {} distinct", distinct.len());
        assert_eq!(distinct.len(), list.len(), "{name} has duplicates");
        for fen in &list {
            let pos = variant.from_fen(fen).unwrap();
            // Playable: the game goes on there.
            assert!(with_game!(&pos, g => g.game_end()).is_none(), "{fen}");
        }
    }
    // Reveal Chess openings are a few plies in: some pieces revealed, most still face-down.
    let list = openings::load(Variant::RevealChess, &file("revealchess.epd")).unwrap();
    for fen in &list {
        let board = fen.split_whitespace().next().unwrap();
        let down = board.chars().filter(|c| *c == 'x' || *c == 'X').count();
        assert!((18..30).contains(&down), "{fen}");
    }
}

fn generate(args: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tinh"))
        .arg("genopenings")
        .args(args.split_whitespace())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn genopenings_is_reproducible() {
    for v in ["mathchess", "revealchess"] {
        let base = format!(
            "--variant {v} --count 12 --plies 4 --depth 2 --nodes 5000 --threshold 80 --seed 3"
        );
        let a = generate(&format!("{base} --threads 1"));
        let b = generate(&format!("{base} --threads 2"));
        assert_eq!(a, b, "{v}: thread count changed the output");
        let lines: Vec<&str> = a.lines().collect();
        assert_eq!(lines.len(), 12);
        let variant: Variant = v.parse().unwrap();
        let distinct: HashSet<&&str> = lines.iter().collect();
        assert_eq!(distinct.len(), 12);
        for l in &lines {
            variant.from_fen(l).unwrap();
        }
        let c = generate(&format!(
            "--variant {v} --count 12 --plies 4 --depth 2 --nodes 5000 --threshold 80 --seed 4"
        ));
        assert_ne!(a, c, "{v}: another seed, another suite");
    }
}

#[test]
fn chess_lines_convert() {
    let out = generate(&format!(
        "--variant chess --lines {}",
        file("chess-lines.txt")
    ));
    let expected = std::fs::read_to_string(file("chess.epd")).unwrap();
    assert_eq!(
        out, expected,
        "chess.epd is what chess-lines.txt converts to"
    );
    // Ruy Lopez after 1 e4 e5 2 Nf3 Nc6 3 Bb5 is the first line.
    assert_eq!(
        out.lines().next().unwrap(),
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    );
}
