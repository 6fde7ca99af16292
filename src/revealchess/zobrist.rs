//! Zobrist keys of Reveal Chess and chess positions: one table (pieces by colour, type
//! and square; face-down bits; pool counts; castling rights; en-passant files; the side
//! to move), built at compile time from a fixed seed so keys are the same in every build.

pub struct Zobrist {
    pub piece: [[[u64; 64]; 6]; 2],
    pub fd: [u64; 64],
    /// `pool[c][i][n]`: type i of colour c's pool holds n; n = 0 hashes as 0 so standard
    /// chess keys carry no pool terms.
    pub pool: [[[u64; 9]; 5]; 2],
    pub castle: [u64; 16],
    pub ep: [u64; 8],
    pub side: u64,
}

/// splitmix64 with a fixed seed: deterministic keys across runs and builds.
const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_zobrist() -> Zobrist {
    let mut s = 0x005E_ED0F_7E11_u64;
    let mut z = Zobrist {
        piece: [[[0; 64]; 6]; 2],
        fd: [0; 64],
        pool: [[[0; 9]; 5]; 2],
        castle: [0; 16],
        ep: [0; 8],
        side: 0,
    };
    let mut c = 0;
    while c < 2 {
        let mut t = 0;
        while t < 6 {
            let mut q = 0;
            while q < 64 {
                z.piece[c][t][q] = splitmix(&mut s);
                q += 1;
            }
            t += 1;
        }
        let mut i = 0;
        while i < 5 {
            let mut n = 1;
            while n < 9 {
                z.pool[c][i][n] = splitmix(&mut s);
                n += 1;
            }
            i += 1;
        }
        c += 1;
    }
    let mut q = 0;
    while q < 64 {
        z.fd[q] = splitmix(&mut s);
        q += 1;
    }
    // Castling keys per right, combined by XOR so any subset has a key.
    let rights = [
        splitmix(&mut s),
        splitmix(&mut s),
        splitmix(&mut s),
        splitmix(&mut s),
    ];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut b = 0;
        while b < 4 {
            if m & (1 << b) != 0 {
                k ^= rights[b];
            }
            b += 1;
        }
        z.castle[m] = k;
        m += 1;
    }
    let mut f = 0;
    while f < 8 {
        z.ep[f] = splitmix(&mut s);
        f += 1;
    }
    z.side = splitmix(&mut s);
    z
}

pub static ZOBRIST: Zobrist = build_zobrist();
