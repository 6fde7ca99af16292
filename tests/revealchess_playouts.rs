//! Seeded random playouts of Reveal Chess and chess: make/unmake (and null moves) restore
//! every bit of the position, one move deep after every legal move and all the way back
//! to the start after a whole game; the special moves (reveals, castling, en passant,
//! promotions) all occur; the incremental key always equals the key from scratch, FEN
//! round-trips mid-game, and the fast perft equals `game::perft_generic`.

use tinh::game::*;
use tinh::revealchess::position::{KING, Pos, code_type};
use tinh::revealchess::{Board, Move};

/// xorshift64: tests need deterministic randomness, no crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// How often each kind of special move was made and unmade.
#[derive(Default, Debug)]
struct Seen {
    reveals: usize,
    castles: usize,
    /// Castling with a face-down rook: the rook reveals.
    castle_reveals: usize,
    en_passant: usize,
    promotions: usize,
    /// A face-down piece reaching the last rank with a backup letter.
    backups: usize,
}

impl Seen {
    fn count(&mut self, b: &Board, m: Move) {
        let p = b.pos();
        let from_piece = p.sq[m.from()];
        if b.pos().is_reveal(m.0) {
            self.reveals += 1;
        }
        if from_piece != 0 && code_type(from_piece) == KING && m.from().abs_diff(m.to()) == 2 {
            self.castles += 1;
            if b.pos().is_reveal(m.0) {
                self.castle_reveals += 1;
            }
        }
        if b.is_capture(m) && p.sq[m.to()] == 0 {
            self.en_passant += 1;
        }
        if m.promo() != 0 {
            if p.fd & (1u64 << m.from()) == 0 {
                self.promotions += 1;
            } else {
                self.backups += 1;
            }
        }
    }
}

fn playouts(chess: bool, games: usize, seed: u64) -> (usize, usize, Seen) {
    let mut rng = Rng(seed);
    let (mut plies, mut perfts) = (0, 0);
    let mut seen = Seen::default();
    for _ in 0..games {
        let mut b = Board::startpos(chess);
        // The position before each move played: unmaking the game must meet them all.
        let mut line: Vec<Pos> = Vec::new();
        for ply in 0..300 {
            assert_eq!(b.key(), b.compute_key(), "key drift at {}", b.to_fen());
            if b.game_end().is_some() || b.immediate_result().is_some() {
                break;
            }
            let fen = b.to_fen();
            let again = Board::from_fen(&fen, chess).unwrap();
            assert_eq!(again.to_fen(), fen);
            assert_eq!(again.key(), b.key(), "FEN loses key information: {fen}");
            if ply % 7 == 3 {
                let mut g = b.clone();
                let d = if rng.below(4) == 0 { 3 } else { 2 };
                assert_eq!(g.perft(d), perft_generic(&mut b, d), "perft {d} at {fen}");
                perfts += 1;
            }
            let mut l = MoveList::new();
            b.generate_moves(&mut l);
            assert!(!l.is_empty());
            // The noisy generator is exactly the noisy subset of all moves.
            let mut noisy = MoveList::new();
            b.generate_noisy(&mut noisy);
            let mut want: Vec<u16> = l.iter().filter(|&&m| b.is_noisy(m)).map(|m| m.0).collect();
            let mut got: Vec<u16> = noisy.iter().map(|m| m.0).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "noisy moves at {fen}");
            // Every legal move: make / unmake restores the position exactly.
            let before = *b.pos();
            let hist = b.game_ply();
            for &m in l.iter() {
                let mut ch = ChanceList::default();
                let o = if b.chance(m, &mut ch) {
                    ch.as_slice()[rng.below(ch.len() as u64) as usize].0
                } else {
                    NO_OUTCOME
                };
                seen.count(&b, m);
                b.make(m, o);
                assert_eq!(
                    b.key(),
                    b.compute_key(),
                    "{fen} {}",
                    b.move_outcome_to_string(m, o)
                );
                // The mover's king is never left in check.
                let p = b.pos();
                let mover = 1 - p.side as usize;
                assert!(!p.attacked(p.king_sq(mover), p.side as usize, p.occ()));
                b.unmake();
                assert_eq!(*b.pos(), before);
                assert_eq!(b.game_ply(), hist);
            }
            if b.null_move_ok() && rng.below(5) == 0 {
                b.make_null();
                assert_eq!(b.key(), b.compute_key());
                b.unmake_null();
                assert_eq!(*b.pos(), before);
            }
            let m = l.get(rng.below(l.len() as u64) as usize);
            let mut ch = ChanceList::default();
            let o = if b.chance(m, &mut ch) {
                // Weighted by the pool counts, as in a real game.
                ch.pick(rng.below(ch.total() as u64) as u32)
            } else {
                NO_OUTCOME
            };
            // Notation round trip of the move actually played.
            let s = b.move_outcome_to_string(m, o);
            assert_eq!(b.parse_move(&s), Ok((m, o)), "{s} at {fen}");
            line.push(*b.pos());
            b.make(m, o);
            plies += 1;
        }
        while let Some(before) = line.pop() {
            b.unmake();
            assert_eq!(*b.pos(), before, "unmaking the game, ply {}", line.len());
            assert_eq!(b.game_ply(), line.len());
        }
    }
    (plies, perfts, seen)
}

#[test]
fn reveal_chess_playouts() {
    let (plies, perfts, seen) = playouts(false, 40, 0x1234_5678);
    assert!(plies > 2000 && perfts > 200, "{plies} {perfts}");
    assert!(
        seen.reveals > 0
            && seen.castles > 0
            && seen.castle_reveals > 0
            && seen.en_passant > 0
            && seen.promotions > 0
            && seen.backups > 0,
        "{seen:?}"
    );
}

#[test]
fn chess_playouts() {
    let (plies, perfts, seen) = playouts(true, 30, 0xDEAD_BEEF);
    assert!(plies > 2000 && perfts > 200, "{plies} {perfts}");
    assert!(
        seen.castles > 0 && seen.en_passant > 0 && seen.promotions > 0,
        "{seen:?}"
    );
}
