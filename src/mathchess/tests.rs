//! Unit tests of the generator, the bulk counts and make/unmake on random positions.

// Pieces are indexed by their number and squares by index: index loops read best.
#![allow(clippy::needless_range_loop)]

use super::*;
use crate::game::{Game, MoveList, perft_generic};

/// xorshift64*: a tiny seeded generator so the tests are reproducible everywhere.
pub(crate) struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(splitmix64(seed).1 | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal-looking placement: both zeros, each other number present with
/// probability 3/4, random squares, random side to move. Built as FEN text.
pub(crate) fn random_placement(rng: &mut Rng) -> Board {
    let mut cells = [None; 99];
    for side in 0..2 {
        for n in 0..10 {
            if n != 0 && rng.below(4) == 0 {
                continue;
            }
            loop {
                let i = rng.below(99);
                if cells[i].is_none() {
                    cells[i] = Some((side, n));
                    break;
                }
            }
        }
    }
    let mut fen = String::new();
    for r in (0..11).rev() {
        let mut gap = 0;
        for f in 0..9 {
            match cells[r * 9 + f] {
                None => gap += 1,
                Some((side, n)) => {
                    if gap > 0 {
                        fen.push_str(&gap.to_string());
                        gap = 0;
                    }
                    fen.push(if side == 0 { 'b' } else { 'r' });
                    fen.push_str(&n.to_string());
                }
            }
        }
        if gap > 0 {
            fen.push_str(&gap.to_string());
        }
        if r > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if rng.below(2) == 0 { " b" } else { " r" });
    Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Positions from seeded random playouts of the start and from random placements.
pub(crate) fn sample_positions(seed: u64, count: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        if rng.below(2) == 0 {
            out.push(random_placement(&mut rng));
        } else {
            let mut b = Board::startpos();
            let plies = rng.below(80);
            for _ in 0..plies {
                let mut list = MoveList::new();
                b.generate_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                b.make(list.get(rng.below(list.len())), 0);
            }
            out.push(b);
        }
    }
    out
}

fn sorted_moves(b: &Board, list: &MoveList<Move>) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|&m| b.move_to_string(m)).collect();
    v.sort();
    v
}

#[test]
fn count_equals_list_and_noisy_is_the_captures() {
    for b in sample_positions(1, 400) {
        let mut all = MoveList::new();
        b.generate_moves(&mut all);
        assert_eq!(b.count_moves(), all.len() as u64, "{}", b.fen());
        let mut noisy = MoveList::new();
        b.generate_noisy(&mut noisy);
        let mut caps = MoveList::new();
        for &m in all.iter() {
            assert!(!m.is_null());
            assert_eq!(b.is_noisy(m), b.is_capture(m));
            if b.is_capture(m) {
                caps.push(m);
            }
        }
        assert_eq!(
            sorted_moves(&b, &noisy),
            sorted_moves(&b, &caps),
            "{}",
            b.fen()
        );
        // No duplicates.
        let v = sorted_moves(&b, &all);
        let mut d = v.clone();
        d.dedup();
        assert_eq!(v, d, "{}", b.fen());
    }
}

#[test]
fn bulk_perft_equals_generic_perft() {
    for (i, mut b) in sample_positions(2, 120).into_iter().enumerate() {
        if i % 3 == 0 {
            b.set_point_target(5 + (i as u32 % 20));
        }
        let depth = if i % 10 == 0 { 3 } else { 2 };
        for d in 1..=depth {
            let fast = b.perft(d);
            let slow = perft_generic(&mut b, d);
            assert_eq!(
                fast,
                slow,
                "depth {d} {} target {}",
                b.fen(),
                b.point_target()
            );
        }
    }
}

#[test]
fn make_unmake_restores_everything() {
    for b in sample_positions(3, 150) {
        let mut list = MoveList::new();
        b.generate_moves(&mut list);
        let mut c = b.clone();
        for &m in list.iter() {
            c.make(m, 0);
            c.check_consistency().unwrap();
            assert_eq!(c.key(), c.compute_key());
            c.unmake();
            assert_eq!(c, b, "move {}", b.move_to_string(m));
        }
        c.make_null();
        assert_eq!(c.key(), c.compute_key());
        c.unmake_null();
        assert_eq!(c, b);
    }
}

#[test]
fn zero_attacked_matches_the_opponents_captures() {
    for b in sample_positions(4, 400) {
        for side in 0..2 {
            let Some(z) = b.square_of(side, 0) else {
                continue;
            };
            // The opponent to move in the same placement.
            let fen = b.fen();
            let mut parts: Vec<&str> = fen.split(' ').collect();
            parts[1] = if side == BLUE { "r" } else { "b" };
            let o = Board::from_fen(&parts.join(" ")).unwrap();
            let mut list = MoveList::new();
            o.generate_noisy(&mut list);
            let hits = list.iter().any(|m| m.to() == z);
            assert_eq!(b.zero_attacked(side), hits, "{fen} side {side}");
        }
    }
}

/// The moves straight from the rules text, on the mailbox only (no tables, no line words).
fn naive_moves(b: &Board) -> Vec<String> {
    let at = |f: i32, r: i32| -> Option<u8> {
        if (0..9).contains(&f) && (0..11).contains(&r) {
            Some(b.piece_at(square(f as usize, r as usize)))
        } else {
            None
        }
    };
    let name = |f: i32, r: i32| square_name(square(f as usize, r as usize));
    let mut out = Vec::new();
    let us = b.side_to_move();
    if b.square_of(0, 0).is_none() || b.square_of(1, 0).is_none() {
        return out;
    }
    for f in 0..9 {
        for r in 0..11 {
            let c = at(f, r).unwrap();
            if c == EMPTY || code_side(c) != us || code_num(c) == 0 {
                continue;
            }
            let a = code_num(c) as i32;
            for (df, dr) in DIR_STEP {
                for k in 1..=a {
                    if at(f + k * df, r + k * dr) != Some(EMPTY) {
                        break;
                    }
                    out.push(format!("{}{}", name(f, r), name(f + k * df, r + k * dr)));
                }
                let (sf, sr) = (f + df, r + dr);
                let Some(s) = at(sf, sr) else { continue };
                if s == EMPTY || code_side(s) != us {
                    continue;
                }
                let bn = code_num(s) as i32;
                let mut dists = vec![(a + bn) % 10, a - bn, (a * bn) % 10];
                if bn != 0 {
                    dists.push(a / bn);
                    dists.push(a % bn);
                }
                dists.sort();
                dists.dedup();
                for d in dists.into_iter().filter(|&d| d > 0) {
                    let (tf, tr) = (sf + d * df, sr + d * dr);
                    let Some(t) = at(tf, tr) else { continue };
                    if t == EMPTY || code_side(t) == us {
                        continue;
                    }
                    if (1..d).all(|i| at(sf + i * df, sr + i * dr) == Some(EMPTY)) {
                        out.push(format!("{}{}", name(f, r), name(tf, tr)));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn generator_agrees_with_the_rules_text() {
    let mut captures = 0;
    for b in sample_positions(5, 1500) {
        let mut list = MoveList::new();
        b.generate_moves(&mut list);
        captures += list.iter().filter(|&&m| b.is_capture(m)).count();
        assert_eq!(sorted_moves(&b, &list), naive_moves(&b), "{}", b.fen());
    }
    // The sample must exercise captures, not just slides.
    assert!(captures > 300, "only {captures} captures in the sample");
}

#[test]
fn bench_positions_parse_and_count_alike() {
    for (fen, _) in PERFT_BENCH {
        let mut b = Board::from_fen(fen).unwrap();
        assert_eq!(b.fen(), *fen);
        assert_eq!(b.perft(3), perft_generic(&mut b, 3), "{fen}");
    }
}
