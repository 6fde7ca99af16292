//! Board geometry and every precomputed table of Math Chess: square numbering, the 58 lines
//! (ranks, files, both diagonals) with their sentinel-bounded occupancy words, rays,
//! adjacency, the capture-distance sets D(A,B) and the Zobrist constants. All tables are
//! built by `const fn` at compile time, so they cost nothing at run time and are identical
//! on every machine.

// Pieces are indexed by their number and squares by index: index loops read best.
#![allow(clippy::needless_range_loop)]

/// Files a..i.
pub const FILES: usize = 9;
/// Ranks 1..11.
pub const RANKS: usize = 11;
/// Squares are numbered `rank * 10 + file`: a tenth, never-used column keeps index
/// arithmetic simple (a step of +1/-1 can never wrap silently onto another rank because
/// edges are handled by the line words below). Indices run 0..110.
pub const STRIDE: usize = 10;
pub const NSQ: usize = RANKS * STRIDE;
/// "No square" (a captured piece's square).
pub const NONE: u8 = 0xFF;

#[inline(always)]
pub const fn square(file: usize, rank: usize) -> usize {
    rank * STRIDE + file
}
#[inline(always)]
pub const fn file_of(sq: usize) -> usize {
    sq % STRIDE
}
#[inline(always)]
pub const fn rank_of(sq: usize) -> usize {
    sq / STRIDE
}
#[inline(always)]
pub const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

/// The squares of the board as a bitboard.
pub const BOARD: u128 = {
    let mut b = 0u128;
    let mut r = 0;
    while r < RANKS {
        let mut f = 0;
        while f < FILES {
            b |= 1u128 << square(f, r);
            f += 1;
        }
        r += 1;
    }
    b
};

/// The 8 directions. Index `2*t` is the positive direction of line type `t` and `2*t+1`
/// its negative: t = 0 rank (east/west), 1 file (north/south), 2 diagonal (north-east /
/// south-west), 3 anti-diagonal (north-west / south-east). "North" is toward rank 11.
pub const DIR_DELTA: [i32; 8] = [1, -1, 10, -10, 11, -11, 9, -9];
/// (file, rank) steps of each direction.
pub const DIR_STEP: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];

/// Number of lines: 11 ranks, 9 files, 19 diagonals, 19 anti-diagonals.
pub const NLINES: usize = RANKS + FILES + 19 + 19;

/// For every square and line type: the line's id and the square's bit in the line word.
/// A line word holds the line's squares at bits 1..=len (in the positive direction) and
/// sentinel bits at 0 and len+1, so the nearest blocker in either direction (piece or
/// edge) is one trailing/leading-zero count away.
#[derive(Clone, Copy)]
pub struct SqLines {
    pub id: [u8; 4],
    pub bit: [u8; 4],
}

const fn line_of(sq: usize, t: usize) -> (usize, usize) {
    let f = file_of(sq);
    let r = rank_of(sq);
    match t {
        0 => (r, f),
        1 => (RANKS + f, r),
        2 => {
            // file - rank constant; starts at the lowest rank of the diagonal.
            let c = f as i32 - r as i32; // -10..=8
            let r0 = if c < 0 { -c } else { 0 };
            (RANKS + FILES + (c + 10) as usize, r - r0 as usize)
        }
        _ => {
            // file + rank constant; starts at the lowest rank of the anti-diagonal.
            let c = (f + r) as i32; // 0..=18
            let r0 = if c > 8 { c - 8 } else { 0 };
            (RANKS + FILES + 19 + c as usize, r - r0 as usize)
        }
    }
}

pub const SQ_LINES: [SqLines; NSQ] = {
    let mut t = [SqLines {
        id: [0; 4],
        bit: [0; 4],
    }; NSQ];
    let mut r = 0;
    while r < RANKS {
        let mut f = 0;
        while f < FILES {
            let s = square(f, r);
            let mut lt = 0;
            while lt < 4 {
                let (id, pos) = line_of(s, lt);
                t[s].id[lt] = id as u8;
                t[s].bit[lt] = (pos + 1) as u8;
                lt += 1;
            }
            f += 1;
        }
        r += 1;
    }
    t
};

/// Number of squares on each line.
pub const LINE_LEN: [u8; NLINES] = {
    let mut len = [0u8; NLINES];
    let mut s = 0;
    while s < NSQ {
        if file_of(s) < FILES {
            let mut lt = 0;
            while lt < 4 {
                len[SQ_LINES[s].id[lt] as usize] += 1;
                lt += 1;
            }
        }
        s += 1;
    }
    len
};

/// The sentinel bits of each line word (bit 0 and bit len+1).
pub const LINE_SENTINEL: [u16; NLINES] = {
    let mut w = [0u16; NLINES];
    let mut i = 0;
    while i < NLINES {
        w[i] = 1 | (1 << (LINE_LEN[i] + 1));
        i += 1;
    }
    w
};

/// Bitboard of the squares strictly beyond `sq` in direction `d`, up to the edge.
pub const RAYS: [[u128; 8]; NSQ] = {
    let mut t = [[0u128; 8]; NSQ];
    let mut s = 0;
    while s < NSQ {
        if file_of(s) < FILES {
            let mut d = 0;
            while d < 8 {
                let mut f = file_of(s) as i32 + DIR_STEP[d].0;
                let mut r = rank_of(s) as i32 + DIR_STEP[d].1;
                while on_board(f, r) {
                    t[s][d] |= 1u128 << square(f as usize, r as usize);
                    f += DIR_STEP[d].0;
                    r += DIR_STEP[d].1;
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
};

/// Bitboard of the (up to 8) squares adjacent to each square.
pub const ADJACENT: [u128; NSQ] = {
    let mut t = [0u128; NSQ];
    let mut s = 0;
    while s < NSQ {
        if file_of(s) < FILES {
            let mut d = 0;
            while d < 8 {
                let f = file_of(s) as i32 + DIR_STEP[d].0;
                let r = rank_of(s) as i32 + DIR_STEP[d].1;
                if on_board(f, r) {
                    t[s] |= 1u128 << square(f as usize, r as usize);
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
};

/// The capture distances of attacker `a` with support `b`, computed from the rules:
/// (a+b) mod 10, a-b, (a*b) mod 10, a div b, a mod b, each used only when positive (the
/// last two only when b != 0).
pub const fn capture_distances(a: u32, b: u32) -> u16 {
    let mut set = 0u16;
    let sum = (a + b) % 10;
    if sum > 0 {
        set |= 1 << sum;
    }
    if a > b {
        set |= 1 << (a - b);
    }
    let prod = (a * b) % 10;
    if prod > 0 {
        set |= 1 << prod;
    }
    if let Some(q) = a.checked_div(b)
        && q > 0
    {
        set |= 1 << q;
    }
    if let Some(r) = a.checked_rem(b)
        && r > 0
    {
        set |= 1 << r;
    }
    set
}

/// D(A,B) as a bit set: bit k set when the attacker A (1..9) with support B (0..9) may
/// capture k squares beyond the support. Row 0 is empty: 0 never captures.
pub const CAPTURE_DIST: [[u16; 10]; 10] = {
    let mut t = [[0u16; 10]; 10];
    let mut a = 1;
    while a < 10 {
        let mut b = 0;
        while b < 10 {
            t[a][b] = capture_distances(a as u32, b as u32);
            b += 1;
        }
        a += 1;
    }
    t
};

/// splitmix64: a fixed, portable generator for the Zobrist constants.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys per side, number and square; and the key of "Red to move".
pub struct Zobrist {
    pub piece: [[[u64; NSQ]; 10]; 2],
    pub red_to_move: u64,
}

pub const ZOBRIST: Zobrist = {
    let mut z = Zobrist {
        piece: [[[0; NSQ]; 10]; 2],
        red_to_move: 0,
    };
    let mut state = 0x7469_6E68_6D61_7468u64; // "tinhmath"
    let mut side = 0;
    while side < 2 {
        let mut n = 0;
        while n < 10 {
            let mut s = 0;
            while s < NSQ {
                let (st, v) = splitmix64(state);
                state = st;
                z.piece[side][n][s] = v;
                s += 1;
            }
            n += 1;
        }
        side += 1;
    }
    let (_, v) = splitmix64(state);
    z.red_to_move = v;
    z
};

/// Square name, e.g. `e10`.
pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + file_of(sq) as u8) as char, rank_of(sq) + 1)
}

/// Parse a square name (`a1` .. `i11`) at the start of `s`; returns the square and the
/// number of bytes used.
pub fn parse_square_prefix(s: &[u8]) -> Option<(usize, usize)> {
    let f = *s.first()?;
    if !(b'a'..=b'i').contains(&f) {
        return None;
    }
    let mut i = 1;
    let mut rank = 0usize;
    while i < s.len() && i <= 2 && s[i].is_ascii_digit() {
        rank = rank * 10 + (s[i] - b'0') as usize;
        i += 1;
    }
    // No leading zero, rank 1..=11.
    if i == 1 || s[1] == b'0' || rank == 0 || rank > RANKS {
        return None;
    }
    Some((square((f - b'a') as usize, rank - 1), i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_examples_of_capture_distances() {
        let set = |v: &[u32]| v.iter().fold(0u16, |a, &k| a | 1 << k);
        assert_eq!(CAPTURE_DIST[7][4], set(&[1, 3, 8]));
        assert_eq!(CAPTURE_DIST[8][4], set(&[2, 4]));
        assert_eq!(CAPTURE_DIST[8][5], set(&[3, 1]));
        assert_eq!(CAPTURE_DIST[1][2], set(&[3, 2, 1]));
        assert_eq!(CAPTURE_DIST[4][7], set(&[1, 4, 8]));
        for n in 1..10 {
            assert_eq!(CAPTURE_DIST[n][0], set(&[n as u32]));
        }
        for b in 0..10 {
            assert_eq!(CAPTURE_DIST[0][b], 0, "0 never captures");
        }
    }

    #[test]
    fn lines_cover_the_board() {
        assert_eq!(BOARD.count_ones(), 99);
        let mut total = [0usize; 4];
        for id in 0..NLINES {
            assert!(LINE_LEN[id] >= 1 && LINE_LEN[id] <= 11);
        }
        for s in 0..NSQ {
            if file_of(s) >= FILES {
                continue;
            }
            for (t, tot) in total.iter_mut().enumerate() {
                *tot += 1;
                let id = SQ_LINES[s].id[t] as usize;
                let bit = SQ_LINES[s].bit[t] as usize;
                assert!(bit >= 1 && bit <= LINE_LEN[id] as usize);
                // The next square in the positive direction is the next bit of the line.
                let (df, dr) = DIR_STEP[2 * t];
                let (f, r) = (file_of(s) as i32 + df, rank_of(s) as i32 + dr);
                if on_board(f, r) {
                    let n = square(f as usize, r as usize);
                    assert_eq!(SQ_LINES[n].id[t] as usize, id);
                    assert_eq!(SQ_LINES[n].bit[t] as usize, bit + 1);
                } else {
                    assert_eq!(bit, LINE_LEN[id] as usize);
                }
            }
        }
        assert_eq!(total, [99; 4]);
        assert_eq!(
            LINE_LEN[..11].iter().map(|&l| l as usize).sum::<usize>(),
            99
        );
    }

    #[test]
    fn rays_and_adjacency() {
        let e2 = square(4, 1);
        assert_eq!(ADJACENT[e2].count_ones(), 8);
        assert_eq!(ADJACENT[square(0, 0)].count_ones(), 3);
        assert_eq!(RAYS[e2][2].count_ones(), 9); // e3..e11
        assert_eq!(RAYS[e2][3].count_ones(), 1); // e1
        assert_eq!(RAYS[square(0, 0)][4].count_ones(), 8); // b2..i9
    }

    #[test]
    fn square_names() {
        assert_eq!(square_name(square(4, 9)), "e10");
        assert_eq!(parse_square_prefix(b"e10e11"), Some((square(4, 9), 3)));
        assert_eq!(parse_square_prefix(b"i11"), Some((square(8, 10), 3)));
        assert_eq!(parse_square_prefix(b"a1"), Some((0, 2)));
        assert_eq!(parse_square_prefix(b"j1"), None);
        assert_eq!(parse_square_prefix(b"a12"), None);
        assert_eq!(parse_square_prefix(b"a0"), None);
        assert_eq!(parse_square_prefix(b"a01"), None);
    }
}
