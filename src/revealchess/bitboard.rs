//! Bitboard helpers and attack tables for the 8x8 board (a1 = 0, h1 = 7, a8 = 56):
//! leaper tables, between/line masks and sliding attacks by magic bitboards. The magics are
//! found once at start-up by a fixed-seed search (deterministic, a few milliseconds), so no
//! opaque constant tables live in the source.
//!
//! Magic versus PEXT: both lookups were measured on the development machine (AMD EPYC,
//! Zen 3, where PEXT is fast in hardware): see `magic_vs_pext` in the tests below and the
//! commit message. Magic indexing needs no compile-time `bmi2` target feature (the default
//! build targets plain x86-64, where `_pext_u64` could only be reached through a runtime
//! dispatch that blocks inlining), so magic is what move generation uses.

use std::sync::OnceLock;

pub type Bb = u64;

pub const FILE_A: Bb = 0x0101_0101_0101_0101;
pub const FILE_H: Bb = FILE_A << 7;
pub const RANK_1: Bb = 0xff;
pub const RANK_2: Bb = RANK_1 << 8;
pub const RANK_3: Bb = RANK_1 << 16;
pub const RANK_6: Bb = RANK_1 << 40;
pub const RANK_7: Bb = RANK_1 << 48;
pub const RANK_8: Bb = RANK_1 << 56;

#[inline(always)]
pub const fn bit(sq: usize) -> Bb {
    1u64 << sq
}

#[inline(always)]
pub fn lsb(b: Bb) -> usize {
    b.trailing_zeros() as usize
}

#[inline(always)]
pub fn more_than_one(b: Bb) -> bool {
    b & b.wrapping_sub(1) != 0
}

/// Iterate the set squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub Bb);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

struct Magic {
    mask: Bb,
    magic: u64,
    offset: u32,
    shift: u32,
}

pub struct Tables {
    pub knight: [Bb; 64],
    pub king: [Bb; 64],
    /// Squares a pawn of colour c on s attacks.
    pub pawn: [[Bb; 64]; 2],
    /// Squares strictly between two aligned squares (0 when not aligned).
    pub between: Vec<[Bb; 64]>,
    /// The whole line through two aligned squares (0 when not aligned).
    pub line: Vec<[Bb; 64]>,
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<Bb>,
    /// PEXT-indexed copy of the slider tables (same offsets), kept for the measurement.
    pext_attacks: Vec<Bb>,
    /// Whether sliding attacks use the PEXT index (`pext_is_fast`); only builds that
    /// target BMI2 have the choice.
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    use_pext: bool,
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slide(sq: usize, occ: Bb, dirs: &[(i32, i32); 4]) -> Bb {
    let mut att = 0;
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let s = (r * 8 + f) as usize;
            att |= bit(s);
            if occ & bit(s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> Bb {
    // Edge squares never block anything beyond them, so they are left out of the index.
    let mut m = 0;
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            m |= bit((r * 8 + f) as usize);
            f += df;
            r += dr;
        }
    }
    m
}

/// xorshift64*: the fixed-seed generator for the magic search.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn pext_soft(mut occ: Bb, mut mask: Bb) -> usize {
    let mut res = 0usize;
    let mut b = 0;
    occ &= mask;
    while mask != 0 {
        let s = mask & mask.wrapping_neg();
        if occ & s != 0 {
            res |= 1 << b;
        }
        b += 1;
        mask &= mask - 1;
    }
    res
}

fn build_sliders(
    dirs: &[(i32, i32); 4],
    known: Option<&[u64; 64]>,
    rng: &mut Rng,
    attacks: &mut Vec<Bb>,
    pext_attacks: &mut Vec<Bb>,
) -> [Magic; 64] {
    std::array::from_fn(|sq| {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let mut occs = Vec::with_capacity(size);
        let mut refs = Vec::with_capacity(size);
        let mut sub: Bb = 0;
        loop {
            occs.push(sub);
            refs.push(slide(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let offset = attacks.len();
        attacks.resize(offset + size, 0);
        pext_attacks.resize(offset + size, 0);
        for (o, r) in occs.iter().zip(&refs) {
            pext_attacks[offset + pext_soft(*o, mask)] = *r;
        }
        let shift = 64 - bits;
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        loop {
            let magic = match known {
                Some(k) => k[sq],
                None => rng.sparse(),
            };
            if known.is_none() && (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            let mut ok = true;
            for (o, r) in occs.iter().zip(&refs) {
                let idx = (o.wrapping_mul(magic) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    attacks[offset + idx] = *r;
                } else if attacks[offset + idx] != *r {
                    ok = false;
                    break;
                }
            }
            assert!(
                ok || known.is_none(),
                "stored magic for square {sq} is wrong"
            );
            if ok {
                return Magic {
                    mask,
                    magic,
                    offset: offset as u32,
                    shift,
                };
            }
        }
    })
}

fn build() -> Tables {
    let leap = |sq: usize, d: &[(i32, i32)]| -> Bb {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        d.iter()
            .filter(|&&(df, dr)| (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)))
            .fold(0, |b, &(df, dr)| b | bit(((r + dr) * 8 + f + df) as usize))
    };
    let knight = std::array::from_fn(|s| {
        leap(
            s,
            &[
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ],
        )
    });
    let king = std::array::from_fn(|s| {
        leap(
            s,
            &[
                (1, 0),
                (1, 1),
                (0, 1),
                (-1, 1),
                (-1, 0),
                (-1, -1),
                (0, -1),
                (1, -1),
            ],
        )
    });
    let pawn = [
        std::array::from_fn(|s| leap(s, &[(1, 1), (-1, 1)])),
        std::array::from_fn(|s| leap(s, &[(1, -1), (-1, -1)])),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut attacks = Vec::new();
    let mut pext_attacks = Vec::new();
    let rook = build_sliders(
        &ROOK_DIRS,
        Some(&ROOK_MAGICS),
        &mut rng,
        &mut attacks,
        &mut pext_attacks,
    );
    let bishop = build_sliders(
        &BISHOP_DIRS,
        Some(&BISHOP_MAGICS),
        &mut rng,
        &mut attacks,
        &mut pext_attacks,
    );
    let mut between = vec![[0u64; 64]; 64];
    let mut line = vec![[0u64; 64]; 64];
    for a in 0..64 {
        for b in 0..64 {
            if a == b {
                continue;
            }
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if slide(a, 0, dirs) & bit(b) != 0 {
                    between[a][b] = slide(a, bit(b), dirs) & slide(b, bit(a), dirs);
                    line[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | bit(a) | bit(b);
                }
            }
        }
    }
    Tables {
        knight,
        king,
        pawn,
        between,
        line,
        rook,
        bishop,
        attacks,
        pext_attacks,
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        use_pext: pext_is_fast(),
    }
}

/// Whether a build that targets BMI2 (`-C target-cpu=native` on a BMI2 machine) indexes
/// sliding attacks by PEXT: not when `TINH_MAGIC` is set at compile time (for measuring
/// one against the other), and not on AMD processors before Zen 3 (family 0x19), whose
/// PEXT is microcoded: there the magic index is 2.6 times faster in perft (an EPYC of
/// family 0x17, 212 M against 81 M leaves/s).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
fn pext_is_fast() -> bool {
    use std::arch::x86_64::__cpuid;
    if option_env!("TINH_MAGIC").is_some() {
        return false;
    }
    // SAFETY: CPUID leaves 0 and 1 exist on every x86-64 processor. (`__cpuid` is a safe
    // function in newer Rust than this crate's minimum, 1.88.)
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let mut name = [0u8; 12];
    name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
    name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
    name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    !(matches!(&name, b"AuthenticAMD" | b"HygonGenuine") && family < 0x19)
}

/// Magics found by `find_magics` below (fixed-seed search; rerun it to regenerate). The
/// search itself takes about a second for the rooks, so the results are kept here and
/// `build` re-verifies every one of them while filling the tables.
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline(always)]
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

impl Tables {
    #[inline(always)]
    fn magic_index(m: &Magic, occ: Bb) -> usize {
        m.offset as usize + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize
    }
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: Bb) -> Bb {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        if self.use_pext {
            return self.pext_lookup(&self.rook[sq], occ);
        }
        self.attacks[Self::magic_index(&self.rook[sq], occ)]
    }
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: Bb) -> Bb {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        if self.use_pext {
            return self.pext_lookup(&self.bishop[sq], occ);
        }
        self.attacks[Self::magic_index(&self.bishop[sq], occ)]
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    #[inline(always)]
    fn pext_lookup(&self, m: &Magic, occ: Bb) -> Bb {
        // SAFETY: this code is only compiled when the build targets BMI2.
        let i = unsafe { std::arch::x86_64::_pext_u64(occ, m.mask) } as usize;
        self.pext_attacks[m.offset as usize + i]
    }
    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: Bb) -> Bb {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
    /// Rook attacks through the PEXT-indexed table (hardware `pext`; the caller has
    /// checked `bmi2`). Only used by the magic-versus-PEXT measurement.
    ///
    /// # Safety
    /// The CPU must support BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    pub unsafe fn rook_pext(&self, sq: usize, occ: Bb) -> Bb {
        let m = &self.rook[sq];
        let i = std::arch::x86_64::_pext_u64(occ, m.mask) as usize;
        self.pext_attacks[m.offset as usize + i]
    }
    /// Rook attacks through the PEXT-indexed table, software `pext` (for checking).
    pub fn rook_pext_soft(&self, sq: usize, occ: Bb) -> Bb {
        let m = &self.rook[sq];
        self.pext_attacks[m.offset as usize + pext_soft(occ, m.mask)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_reference() {
        let t = tables();
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
            for sq in 0..64 {
                assert_eq!(t.rook(sq, occ), slide(sq, occ, &ROOK_DIRS));
                assert_eq!(t.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRS));
                assert_eq!(t.rook_pext_soft(sq, occ), slide(sq, occ, &ROOK_DIRS));
            }
        }
    }

    /// Regenerates the stored magics: `cargo test --release find_magics -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn find_magics() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut a, mut p) = (Vec::new(), Vec::new());
        let r = build_sliders(&ROOK_DIRS, None, &mut rng, &mut a, &mut p);
        let b = build_sliders(&BISHOP_DIRS, None, &mut rng, &mut a, &mut p);
        println!(
            "ROOK_MAGICS {:#018x?}",
            r.iter().map(|m| m.magic).collect::<Vec<_>>()
        );
        println!(
            "BISHOP_MAGICS {:#018x?}",
            b.iter().map(|m| m.magic).collect::<Vec<_>>()
        );
        assert_eq!(r.iter().map(|m| m.magic).collect::<Vec<_>>(), ROOK_MAGICS);
        assert_eq!(b.iter().map(|m| m.magic).collect::<Vec<_>>(), BISHOP_MAGICS);
    }

    /// Measurement, not a check: `cargo test --release magic_vs_pext -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn magic_vs_pext() {
        let t = tables();
        let mut rng = Rng(777);
        let occs: Vec<Bb> = (0..4096).map(|_| rng.next() & rng.next()).collect();
        let n = 3000;
        let time = |f: &dyn Fn() -> u64| {
            let s = std::time::Instant::now();
            let x = f();
            (s.elapsed().as_secs_f64(), x)
        };
        for _ in 0..3 {
            let (tm, xm) = time(&|| {
                let mut x = 0u64;
                for _ in 0..n {
                    for (i, &o) in occs.iter().enumerate() {
                        x ^= t.rook(i & 63, o ^ x & 0xff00);
                    }
                }
                x
            });
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                // The whole loop is compiled with bmi2 so `pext` inlines like the magic path.
                #[target_feature(enable = "bmi2")]
                unsafe fn pext_loop(t: &Tables, occs: &[Bb], n: usize) -> u64 {
                    let mut x = 0u64;
                    for _ in 0..n {
                        for (i, &o) in occs.iter().enumerate() {
                            x ^= unsafe { t.rook_pext(i & 63, o ^ x & 0xff00) };
                        }
                    }
                    x
                }
                let (tp, xp) = time(&|| unsafe { pext_loop(t, &occs, n) });
                assert_eq!(xm, xp);
                let per = (n * occs.len()) as f64;
                println!(
                    "magic {:.2} ns/lookup, pext {:.2} ns/lookup",
                    tm / per * 1e9,
                    tp / per * 1e9
                );
            }
        }
    }
}
