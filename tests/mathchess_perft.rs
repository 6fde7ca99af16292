//! Perft of Math Chess: the start position's counts (from the issue, computed
//! independently from the rules file), bulk counting == plain tree walk on random
//! positions, make/unmake and incremental keys over seeded random playouts, and the
//! `tinh perft` command line.

mod cli_support;
use cli_support::tinh;

use tinh::game::*;
use tinh::mathchess::Board;

/// xorshift64*, seeded: reproducible random playouts.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as usize % n
    }
}

#[test]
fn start_position_perft() {
    let mut b = Board::startpos();
    assert_eq!(b.perft(0), 1);
    assert_eq!(b.perft(1), 87);
    assert_eq!(b.perft(2), 7_457);
    assert_eq!(b.perft(3), 701_479);
    assert_eq!(perft_generic(&mut b, 3), 701_479);
    assert_eq!(b, Board::startpos(), "perft leaves the board as it was");
}

/// Depth 4 (65 million leaves) only in optimised builds (`cargo test --release`).
#[cfg(not(debug_assertions))]
#[test]
fn start_position_perft_4() {
    let mut b = Board::startpos();
    assert_eq!(b.perft(4), 65_054_012);
    let lines = tinh::perft::divide(&b, 4, 2);
    assert_eq!(lines.len(), 87);
    assert_eq!(tinh::perft::total(&lines, 4), 65_054_012);
}

#[test]
fn divide_lines_sum_to_the_total() {
    let b = Board::startpos();
    let lines = tinh::perft::divide(&b, 3, 1);
    assert_eq!(lines.len(), 87);
    assert!(lines.iter().any(|(m, _)| m == "c1c4"));
    let mut c = b.clone();
    for (m, n) in &lines {
        let (mv, o) = c.parse_move(m).unwrap();
        c.make(mv, o);
        assert_eq!(perft_generic(&mut c, 2), *n, "{m}");
        c.unmake();
    }
    assert_eq!(tinh::perft::total(&lines, 3), 701_479);
}

/// Seeded random games from the start: at every ply, every legal move is made and
/// unmade (the board must come back equal in every field: placement, side, keys, undo
/// stack, history), the incremental key equals the key from scratch, the FEN
/// round-trips, and bulk perft equals the plain tree walk.
#[test]
fn random_playouts_make_unmake_keys_and_bulk_perft() {
    let mut rng = Rng(0x005E_ED0F_7A1B);
    let mut captures = 0;
    let mut checked = 0;
    for game in 0..40 {
        let mut b = Board::startpos();
        if game % 4 == 3 {
            b.set_point_target(10 + 5 * (game as u32 % 6));
        }
        for ply in 0..120 {
            if b.immediate_result().is_some() {
                break;
            }
            let mut list = MoveList::new();
            b.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let before = b.clone();
            let fen = b.to_fen();
            assert_eq!(Board::from_fen(&fen).unwrap().to_fen(), fen);
            assert_eq!(Board::from_fen(&fen).unwrap().key(), b.key());
            for &m in list.iter() {
                b.make(m, NO_OUTCOME);
                assert_eq!(
                    b.key(),
                    b.compute_key(),
                    "{fen} {}",
                    before.move_to_string(m)
                );
                b.check_consistency().unwrap();
                b.unmake();
                assert_eq!(b, before, "{fen} {}", before.move_to_string(m));
                assert_eq!(b.to_fen(), fen);
            }
            if ply % 15 == 7 {
                let depth = if checked % 5 == 0 { 3 } else { 2 };
                assert_eq!(b.perft(depth), perft_generic(&mut b, depth), "{fen}");
                checked += 1;
            }
            // Prefer captures half the time, so games reach the captures and the ends.
            let caps: Vec<_> = list.iter().copied().filter(|&m| b.is_capture(m)).collect();
            let m = if !caps.is_empty() && rng.below(2) == 0 {
                caps[rng.below(caps.len())]
            } else {
                list.get(rng.below(list.len()))
            };
            if b.is_capture(m) {
                captures += 1;
            }
            b.make(m, NO_OUTCOME);
        }
        // Unwind the whole game: back to the start exactly.
        let target = b.point_target();
        while b.game_ply() > 0 {
            b.unmake();
        }
        let mut start = Board::startpos();
        start.set_point_target(target);
        assert_eq!(b, start);
    }
    assert!(
        captures > 50,
        "the playouts must exercise captures ({captures})"
    );
    assert!(checked > 50);
}

#[test]
fn cli_perft_divide_format() {
    let (code, out, err) = tinh(&["perft", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 87 + 2, "{out}");
    for l in &lines[..87] {
        let (m, n) = l
            .split_once(": ")
            .unwrap_or_else(|| panic!("bad line '{l}'"));
        assert!(m.len() >= 4 && m.len() <= 6, "{l}");
        n.parse::<u64>().unwrap();
    }
    assert_eq!(lines[87], "");
    assert_eq!(lines[88], "Nodes searched: 7457");
    assert!(err.contains("leaves/s"), "speed goes to stderr: {err}");
    // Same with the variant named, on two threads.
    let (code, out2, _) = tinh(&["perft", "--variant", "mathchess", "--threads", "2", "2"]);
    assert_eq!(code, Some(0));
    assert_eq!(out2, out);
}

#[test]
fn cli_perft_fen_and_moves() {
    let (code, out, err) = tinh(&["perft", "--moves", "c1c4 i11i10", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let mut b = Board::startpos();
    for m in ["c1c4", "i11i10"] {
        let (mv, o) = b.parse_move(m).unwrap();
        b.make(mv, o);
    }
    assert!(
        out.ends_with(&format!("\nNodes searched: {}\n", b.perft(1))),
        "{out}"
    );
    let fen = "r0r1r2r3r4r5r6r7r8/r98/9/9/9/9/9/9/9/9/b0b1b2b3b4b5b6b7b8 b 1";
    let (code, out, err) = tinh(&["perft", "--fen", fen, "2"]);
    assert_eq!(code, Some(0), "{err}");
    let mut b = Board::from_fen(fen).unwrap();
    assert!(
        out.ends_with(&format!("\nNodes searched: {}\n", b.perft(2))),
        "{out}"
    );
}

#[test]
fn cli_perft_bad_arguments() {
    for (args, want) in [
        (vec!["perft", "--fen", "9/9 b", "2"], "ranks"),
        (vec!["perft", "--moves", "e2e3", "1"], "0 never moves"),
        (vec!["perft", "--moves", "c1c4 zz", "1"], "malformed"),
        (vec!["perft", "x"], "invalid value"),
        (vec!["perft"], "DEPTH"),
        (
            vec!["perft", "--variant", "nochess", "1"],
            "unknown variant",
        ),
    ] {
        let (code, out, err) = tinh(&args);
        assert_ne!(code, Some(0), "{args:?} should fail");
        assert!(
            err.contains(want),
            "{args:?}: stderr '{err}' should mention '{want}'"
        );
        assert!(out.is_empty(), "{args:?}: nothing on stdout, got '{out}'");
    }
}
