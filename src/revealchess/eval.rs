//! Static evaluation for Reveal Chess and chess: tapered (middlegame / endgame) terms for
//! material, piece-square bonuses, mobility, king safety (attacks on the king's zone, safe
//! checks within reach, the king's defenders), pawn structure (connected pawns,
//! and passed pawns with the kings around them) and threats (pieces attacked by pawns,
//! minor pieces and rooks), plus the face-down term:
//! a face-down piece is worth its pool's expected value (weights = pool counts, each type
//! at its value plus a correction for still being in the pool) and some credit for its
//! shell's mobility. All weights live in one `Weights` structure, the
//! piece values that order captures included; chess and Reveal Chess each compile in
//! their own set (`compiled_weights`). `Evaluation` is the search's evaluator; after a
//! reveal it also values the move's other outcomes by exchanging the revealed piece's own
//! part of the sums (threats against it included), which costs a fraction of evaluating
//! each outcome.

use super::bitboard::*;
use super::position::*;
use super::{Board, Move};
use crate::eval::{EvalTerm, Evaluator};
use crate::game::{Game, Score};

crate::eval_weights! {
/// Every evaluation weight, in one place. Pairs are (middlegame, endgame) centipawns.
pub struct Weights {
    /// By type P N B R Q K.
    pub value: [(i32, i32); 6],
    /// Game-phase weight of a piece by type (24 = all minor and major pieces on the board).
    pub phase: [i32; 6],
    /// Piece-square shape: bonus per step towards the centre (centre distance 0..3) by type.
    pub center: [(i32, i32); 6],
    /// Pawn bonus by relative rank (0 = own back rank).
    pub pawn_rank: [(i32, i32); 8],
    /// King: middlegame bonus for staying on the back rank, per rank advanced (negative).
    pub king_rank_mg: i32,
    /// Piece-square table by type and square, seen from the piece's own side (square 0 is
    /// its own a-file back-rank corner), added to the shapes above: they give every square
    /// a sensible start, and a tune from data learns what they cannot say (a knight on the
    /// rim of its own side, a king that castled short) in this table.
    pub psq: [[(i32, i32); 64]; 6],
    /// Mobility per reachable square (not own pieces, not attacked by enemy pawns), by type;
    /// counted around `mobility_base` squares.
    pub mobility: [(i32, i32); 6],
    pub mobility_base: [i32; 6],
    /// Face-down piece: mobility credit per square its shell reaches.
    pub shell_mobility: (i32, i32),
    /// Face-down piece: what a type still in the pool is worth beyond its `value`, by pool
    /// entry Q R B N P, in the pool's expected value. A piece that is still to be drawn is
    /// not the same as one on the board: where it lands and when it comes are unknown.
    pub pool_value: [(i32, i32); 5],
    /// King safety: attack units per enemy piece type hitting the king zone; the penalty
    /// is units^2 * king_attack_scale / 16 (middlegame only), capped.
    pub king_attack_units: [i32; 6],
    pub king_attack_scale: i32,
    pub king_attack_cap: i32,
    /// Checks within reach, to the attacker's credit, by the type of a revealed knight,
    /// bishop, rook or queen that attacks a square from which it would check the enemy
    /// king: a square not held by its own side, not attacked by an enemy pawn (or pawn
    /// shell) and not next to the king, which guards those itself. Once per such piece; a
    /// face-down piece is not counted, since it reveals as it moves. Each also adds
    /// `check_units` to its side's king-zone attack units.
    pub safe_check: [(i32, i32); 6],
    pub check_units: [i32; 6],
    /// A piece that attacks a square next to its own king (or the king's own), by type: a
    /// revealed P N B R Q, or (last) a face-down piece by its shell's reach.
    pub king_defenders: [(i32, i32); 6],
    /// Own pawn (or pawn shell) directly in front of / next to the castled king.
    pub pawn_shield: (i32, i32),
    pub doubled: (i32, i32),
    pub isolated: (i32, i32),
    /// A revealed pawn defended by an own pawn (or pawn shell) or beside one on its rank,
    /// by relative rank.
    pub connected: [(i32, i32); 8],
    /// Passed pawn bonus by relative rank.
    pub passed: [(i32, i32); 8],
    /// A passed pawn on relative rank 3 or more and the kings, each per square of king
    /// distance to the square in front of it, times its rank weight (relative rank - 2):
    /// the own king's ...
    pub passed_own_king: (i32, i32),
    /// ... and the enemy king's ...
    pub passed_enemy_king: (i32, i32),
    /// ... and the square in front occupied (by any piece, face-down ones too), once.
    pub passed_blocked: (i32, i32),
    pub bishop_pair: (i32, i32),
    /// A revealed rook on a file without pawns (pawn shells count as pawns) ...
    pub rook_open_file: (i32, i32),
    /// ... and on one without its own side's pawns but with enemy pawns.
    pub rook_half_open_file: (i32, i32),
    /// Threats, to the attacker's credit, by the piece attacked: a revealed P N B R Q, or
    /// (last) a face-down piece; kings are not counted (a king in check is not
    /// evaluated). Attacked by an enemy pawn or pawn shell (once a piece) ...
    pub threat_by_pawn: [(i32, i32); 6],
    /// ... by an enemy knight or bishop, or a face-down piece that moves as one (once per
    /// attacker and piece) ...
    pub threat_by_minor: [(i32, i32); 6],
    /// ... by an enemy rook or rook shell (once per attacker and piece).
    pub threat_by_rook: [(i32, i32); 6],
    pub tempo: i32,
    /// Piece values by type P N B R Q K for ordering captures (most valuable victim,
    /// least valuable attacker) and promotions; not part of the score.
    pub order_value: [i32; 6],
}
}

/// The compiled-in weights of chess or of Reveal Chess (`chess_weights.rs`,
/// `reveal_weights.rs`): one structure, a set per game, each written by `tinh tune`
/// with its piece-square tables (Reveal Chess's held small by `--l2`).
pub fn compiled_weights(chess: bool) -> &'static Weights {
    if chess {
        &super::chess_weights::WEIGHTS
    } else {
        &super::reveal_weights::WEIGHTS
    }
}

pub const TERM_NAMES: [&str; 7] = [
    "material",
    "piece-square",
    "mobility",
    "king safety",
    "pawns",
    "face-down",
    "threats",
];
const THREATS: usize = 6;
const N: usize = TERM_NAMES.len();

/// The sums of the evaluation before `finish`: per term, per colour, (mg, eg), and what
/// does not add up piece by piece kept apart (the phase and the king-attack counts, which
/// `finish` maps through a minimum and a square, and the bishops, which pair), so that
/// one piece's part can be taken out and another's put in (`evaluate_alternatives`).
#[derive(Clone, Copy)]
struct Acc {
    t: [[(i32, i32); 2]; N],
    /// Phase * 16 (face-down pieces count by expectation).
    phase_x: i32,
    /// By attacking colour: king-zone attack units and pieces hitting the zone.
    units: [i32; 2],
    attackers: [i32; 2],
    /// By colour: revealed bishops.
    bishops: [i32; 2],
}

impl Acc {
    #[inline(always)]
    fn add(&mut self, term: usize, c: usize, v: (i32, i32)) {
        self.t[term][c].0 += v.0;
        self.t[term][c].1 += v.1;
    }

    const ZERO: Acc = Acc {
        t: [[(0, 0); 2]; N],
        phase_x: 0,
        units: [0; 2],
        attackers: [0; 2],
        bishops: [0; 2],
    };

    /// These sums with `other`'s taken out.
    fn minus(&self, other: &Acc) -> Acc {
        let mut a = *self;
        for (x, y) in a.t.iter_mut().flatten().zip(other.t.iter().flatten()) {
            x.0 -= y.0;
            x.1 -= y.1;
        }
        a.phase_x -= other.phase_x;
        for c in 0..2 {
            a.units[c] -= other.units[c];
            a.attackers[c] -= other.attackers[c];
            a.bishops[c] -= other.bishops[c];
        }
        a
    }
}

/// The finished evaluation: per term, per colour, (mg, eg); plus the game phase (0 = bare
/// kings .. 24 = full).
struct Terms {
    t: [[(i32, i32); 2]; N],
    phase: i32,
}

/// Square `s` seen from colour `c`'s side: black's ranks mirrored, so that each side's
/// back rank is rank 0.
#[inline(always)]
fn relative_square(c: usize, s: usize) -> usize {
    if c == WHITE { s } else { s ^ 56 }
}

#[inline(always)]
fn relative_rank(c: usize, s: usize) -> usize {
    if c == WHITE { s / 8 } else { 7 - s / 8 }
}

/// Steps from the board's edge towards the centre (0 on the edge .. 3 in the middle), by
/// square: a table, since `placement_of` asks it for every piece of an evaluation that
/// has no `Precomputed` (the tuner's).
const CENTER_STEPS: [i32; 64] = {
    let mut t = [0; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let df = if f < 4 { f } else { 7 - f };
        let dr = if r < 4 { r } else { 7 - r };
        t[s] = if df < dr { df } else { dr };
        s += 1;
    }
    t
};

#[inline(always)]
fn center_steps(s: usize) -> i32 {
    CENTER_STEPS[s & 63]
}

/// Squares attacked by colour `c`'s pawns (revealed pawns and pawn shells alike).
#[inline(always)]
fn pawn_attacks(p: &Pos, c: usize) -> Bb {
    let pw = p.pieces(c, PAWN);
    if c == WHITE {
        ((pw & !FILE_A) << 7) | ((pw & !FILE_H) << 9)
    } else {
        ((pw & !FILE_A) >> 9) | ((pw & !FILE_H) >> 7)
    }
}

/// What a revealed piece's part depends on besides its type and square: the occupancy,
/// its own side's pieces, the squares the enemy's pawns attack, the enemy king's zone and
/// the enemy pieces it may threaten.
struct Surroundings<'a> {
    tables: &'static Tables,
    pos: &'a Pos,
    occ: Bb,
    own: Bb,
    enemy_pawn_attacks: Bb,
    enemy_king_zone: Bb,
    /// Enemy pieces but the king; none when the weights count no threats.
    targets: Bb,
    /// Whether the weights count threats at all (`Parts`).
    threats: bool,
    /// The own king's zone (`king_defenders`) and, by type (knight .. queen), the squares
    /// from which such a piece would check the enemy king and that are safe for it
    /// (`safe_check`): found only for the evaluation that counts them (`KING_REACH`).
    own_king_zone: Bb,
    checks: [Bb; 6],
}

impl Surroundings<'_> {
    #[inline(always)]
    fn of<const KING_REACH: bool>(
        p: &Pos,
        c: usize,
        enemy_pawn_attacks: Bb,
        threats: bool,
    ) -> Surroundings<'_> {
        let ek = p.king_sq(c ^ 1);
        let tables = tables();
        let occ = p.occ();
        let (mut own_king_zone, mut checks) = (0, [0; 6]);
        if KING_REACH {
            let k = p.king_sq(c);
            own_king_zone = tables.king[k] | bit(k);
            // Not next to the king either: it guards those squares itself.
            let safe = !p.col[c] & !enemy_pawn_attacks & !tables.king[ek];
            let (diagonal, straight) = (tables.bishop(ek, occ), tables.rook(ek, occ));
            checks[KNIGHT] = tables.knight[ek] & safe;
            checks[BISHOP] = diagonal & safe;
            checks[ROOK] = straight & safe;
            checks[QUEEN] = (diagonal | straight) & safe;
        }
        Surroundings {
            tables,
            pos: p,
            occ,
            own: p.col[c],
            enemy_pawn_attacks,
            enemy_king_zone: tables.king[ek] | bit(ek),
            targets: if threats { threat_targets(p, c ^ 1) } else { 0 },
            threats,
            own_king_zone,
            checks,
        }
    }
}

/// Which optional groups of terms a weight set uses: a group whose weights are all zero
/// (a game whose weights for it have not passed their test) skips its loops, so that it
/// pays nothing for them and searches exactly as without them. Found once per weight set
/// by the search's evaluator (`Evaluation`), not at every node, which also lends its
/// look-up tables through it.
#[derive(Clone, Copy, Debug)]
struct Parts<'a> {
    /// The weight set's look-up tables (`Precomputed`), where the evaluator has them;
    /// without them each evaluation works their entries out as it needs them.
    precomputed: Option<&'a Precomputed>,
    /// Any threat weight set.
    threats: bool,
    /// Any connected-pawn or passed-pawn-surroundings weight set.
    pawn_company: bool,
    /// Any safe-check or king-defender weight set: the evaluation is then the copy of
    /// the code compiled with them (`KING_REACH`), so that without them it pays nothing,
    /// not even their tests.
    king_reach: bool,
}

impl Parts<'_> {
    fn of(w: &Weights) -> Parts<'static> {
        let set = |pairs: &[(i32, i32)]| pairs.iter().any(|&p| p != (0, 0));
        let around_passers = [w.passed_own_king, w.passed_enemy_king, w.passed_blocked];
        Parts {
            precomputed: None,
            threats: set(&w.threat_by_pawn) || set(&w.threat_by_minor) || set(&w.threat_by_rook),
            pawn_company: set(&around_passers) || set(&w.connected),
            king_reach: set(&w.safe_check)
                || w.check_units.iter().any(|&u| u != 0)
                || set(&w.king_defenders),
        }
    }
}

/// Colour `c`'s pieces that threats count against: all but the king.
#[inline(always)]
fn threat_targets(p: &Pos, c: usize) -> Bb {
    p.col[c] & !p.bb[KING]
}

/// The threat weights' index of the piece on `s`: its type if revealed, else the
/// face-down entry (5; kings are never targets).
#[inline(always)]
fn threat_index(p: &Pos, s: usize) -> usize {
    if p.fd & bit(s) != 0 {
        5
    } else {
        code_type(p.sq[s])
    }
}

/// The threats a piece of colour `c` and type `pt` (a face-down piece's: its shell's) makes
/// from the squares `att` (the enemy pieces there but the king), once per piece threatened.
#[inline(always)]
fn add_threats_by(a: &mut Acc, w: &Weights, env: &Surroundings, c: usize, pt: usize, att: Bb) {
    let hit = att & env.targets;
    if hit == 0 {
        return;
    }
    let table = match pt {
        KNIGHT | BISHOP => &w.threat_by_minor,
        ROOK => &w.threat_by_rook,
        _ => return,
    };
    for v in Bits(hit) {
        a.add(THREATS, c, table[threat_index(env.pos, v)]);
    }
}

/// The enemy pieces that threaten colour `c`'s piece on `s` in `accumulate`'s threat sums,
/// whatever its type: whether an enemy pawn (or pawn shell) attacks it, and how many enemy
/// knights and bishops, and rooks (or shells of them), do. All zero, without looking, when
/// the weights count no threats.
#[derive(Default)]
struct Threateners {
    pawn: i32,
    minors: i32,
    rooks: i32,
}

impl Threateners {
    fn of(env: &Surroundings, c: usize, s: usize) -> Threateners {
        if !env.threats {
            return Threateners::default();
        }
        let (t, p, occ) = (env.tables, env.pos, env.occ);
        let enemy = p.col[c ^ 1];
        let minors = enemy & ((t.knight[s] & p.bb[KNIGHT]) | (t.bishop(s, occ) & p.bb[BISHOP]));
        Threateners {
            pawn: (env.enemy_pawn_attacks & bit(s) != 0) as i32,
            minors: minors.count_ones() as i32,
            rooks: (enemy & t.rook(s, occ) & p.bb[ROOK]).count_ones() as i32,
        }
    }
}

/// The threats against colour `c`'s revealed piece of type `pt` by `by`, to the enemy's
/// credit: the part of `accumulate`'s threat sums that involve it as the piece attacked.
fn add_threats_against(a: &mut Acc, w: &Weights, c: usize, pt: usize, by: &Threateners) {
    if pt == KING {
        return;
    }
    let them = c ^ 1;
    for (n, table) in [
        (by.pawn, &w.threat_by_pawn),
        (by.minors, &w.threat_by_minor),
        (by.rooks, &w.threat_by_rook),
    ] {
        a.add(THREATS, them, (n * table[pt].0, n * table[pt].1));
    }
}

/// The placement of a piece of type `pt` on `own_view`, its square seen from its own side
/// (`relative_square`): the centre shape, the pawn's rank or the king's, and the
/// piece-square table. Rooks' file bonuses come on top (`add_piece`).
fn placement_of(w: &Weights, pt: usize, own_view: usize) -> (i32, i32) {
    // The steps to the centre are the same from either side (the ranks mirror).
    let cs = center_steps(own_view);
    let mut placement = (w.center[pt].0 * cs, w.center[pt].1 * cs);
    let rr = own_view / 8;
    if pt == PAWN {
        placement.0 += w.pawn_rank[rr].0;
        placement.1 += w.pawn_rank[rr].1;
    } else if pt == KING {
        placement.0 = w.king_rank_mg * rr as i32;
    }
    let table = w.psq[pt][own_view];
    (placement.0 + table.0, placement.1 + table.1)
}

/// Add the part of a revealed piece of type `pt` and colour `c` on `s` (but for the
/// bishop pair, which `accumulate` counts at once).
#[inline(always)]
fn add_piece<const KING_REACH: bool>(
    a: &mut Acc,
    w: &Weights,
    precomputed: Option<&Precomputed>,
    env: &Surroundings,
    c: usize,
    s: usize,
    pt: usize,
) {
    let t = env.tables;
    a.add(0, c, w.value[pt]);
    a.phase_x += w.phase[pt] * 16;
    let own_view = relative_square(c, s);
    let mut placement = match precomputed {
        Some(pre) => pre.placement[pt][own_view],
        None => placement_of(w, pt, own_view),
    };
    if pt == ROOK {
        let pawns_on_file = env.pos.bb[PAWN] & (FILE_A << (s % 8));
        let bonus = if pawns_on_file == 0 {
            w.rook_open_file
        } else if pawns_on_file & env.own == 0 {
            w.rook_half_open_file
        } else {
            (0, 0)
        };
        placement.0 += bonus.0;
        placement.1 += bonus.1;
    }
    a.add(1, c, placement);
    let att = match pt {
        KNIGHT => t.knight[s],
        BISHOP => t.bishop(s, env.occ),
        ROOK => t.rook(s, env.occ),
        QUEEN => t.queen(s, env.occ),
        _ => 0,
    };
    if att != 0 {
        let m =
            (att & !env.own & !env.enemy_pawn_attacks).count_ones() as i32 - w.mobility_base[pt];
        a.add(2, c, (m * w.mobility[pt].0, m * w.mobility[pt].1));
        if att & env.enemy_king_zone != 0 {
            a.units[c] += w.king_attack_units[pt];
            a.attackers[c] += 1;
        }
        add_threats_by(a, w, env, c, pt, att);
        if KING_REACH {
            if att & env.own_king_zone != 0 {
                a.add(3, c, w.king_defenders[pt]);
            }
            if att & env.checks[pt] != 0 {
                a.add(3, c, w.safe_check[pt]);
                a.units[c] += w.check_units[pt];
            }
        }
    }
}

/// Chebyshev distance: the king moves it takes from one square to the other.
#[inline(always)]
fn king_distance(a: usize, b: usize) -> i32 {
    ((a / 8).abs_diff(b / 8)).max((a % 8).abs_diff(b % 8)) as i32
}

/// The parts of colour `c`'s passed pawn on `s` (relative rank `rr`) that depend on what
/// is around its square in front: the kings' distances to it and whether it is occupied,
/// each times the rank weight, so that they count most for a pawn about to queen.
#[inline(always)]
fn add_passer_surroundings(
    a: &mut Acc,
    w: &Weights,
    env: &Surroundings,
    c: usize,
    s: usize,
    rr: usize,
) {
    let rank_weight = rr.saturating_sub(2) as i32;
    if rank_weight == 0 {
        return;
    }
    // A pawn on relative rank 3..6 always has a square in front (none stands on its last
    // rank: FEN refuses one, and a shell revealed there as a pawn promotes at once).
    let stop = if c == WHITE { s + 8 } else { s - 8 };
    let own = king_distance(env.pos.king_sq(c), stop) * rank_weight;
    let enemy = king_distance(env.pos.king_sq(c ^ 1), stop) * rank_weight;
    let blocked = (env.occ & bit(stop) != 0) as i32 * rank_weight;
    let (ok, ek, bl) = (w.passed_own_king, w.passed_enemy_king, w.passed_blocked);
    a.add(
        4,
        c,
        (
            own * ok.0 + enemy * ek.0 + blocked * bl.0,
            own * ok.1 + enemy * ek.1 + blocked * bl.1,
        ),
    );
}

/// A pool's counts summed for the face-down term: the pieces in it, and their values
/// (each type at its `value` plus its `pool_value`) and phase weights, each times its
/// count.
#[derive(Clone, Copy, Debug, Default)]
struct PoolSum {
    total: i32,
    mg: i32,
    eg: i32,
    phase: i32,
}

impl PoolSum {
    fn of(w: &Weights, pool: &[u8; 5]) -> PoolSum {
        let mut s = PoolSum::default();
        for i in 0..5 {
            let n = pool[i] as i32;
            s.total += n;
            s.mg += n * (w.value[POOL_TYPE[i]].0 + w.pool_value[i].0);
            s.eg += n * (w.value[POOL_TYPE[i]].1 + w.pool_value[i].1);
            s.phase += n * w.phase[POOL_TYPE[i]];
        }
        s
    }
}

/// What the evaluator works out once per weight set, so that an evaluation looks it up
/// instead of working it out again for each pool and piece: the `PoolSum` of every pool a
/// game can reach, and each type's placement on each square (`placement_of`). Both sides'
/// pools are summed at every Reveal Chess evaluation and seldom change; with the placement
/// and the shells' reach weighted once (`accumulate`), 3.4% fewer instructions to search
/// Reveal Chess's bench positions and 6.3% fewer for chess's, but cheap ones: about 1% and
/// 2% less time (README, "Measured here").
#[derive(Clone, Debug)]
struct Precomputed {
    pools: Vec<PoolSum>,
    placement: [[(i32, i32); 64]; 6],
}

impl Precomputed {
    fn of(w: &Weights) -> Precomputed {
        let mut placement = [[(0, 0); 64]; 6];
        for (pt, row) in placement.iter_mut().enumerate() {
            for (own_view, v) in row.iter_mut().enumerate() {
                *v = placement_of(w, pt, own_view);
            }
        }
        Precomputed {
            pools: (0..POOLS).map(|i| PoolSum::of(w, &pool_at(i))).collect(),
            placement,
        }
    }
}

/// How many pools a game can reach: each count from 0 to its start count (`POOL_START`;
/// a pool only shrinks), 2 * 3 * 3 * 3 * 9 = 486.
const POOLS: usize = {
    let (mut n, mut i) = (1, 0);
    while i < 5 {
        n *= POOL_START[i] as usize + 1;
        i += 1;
    }
    n
};

/// A pool's place among the `POOLS` (its counts as the digits of a mixed-radix number,
/// each count's radix its start count + 1), or None for a pool with a count above its
/// start, which no game reaches.
#[inline(always)]
fn pool_index(pool: &[u8; 5]) -> Option<usize> {
    let mut i = 0;
    for (&n, &most) in pool.iter().zip(&POOL_START) {
        if n > most {
            return None;
        }
        i = i * (most as usize + 1) + n as usize;
    }
    Some(i)
}

/// The pool at place `i` among the `POOLS`: `pool_index`'s inverse.
fn pool_at(mut i: usize) -> [u8; 5] {
    let mut pool = [0; 5];
    for (n, &most) in pool.iter_mut().zip(&POOL_START).rev() {
        let radix = most as usize + 1;
        *n = (i % radix) as u8;
        i /= radix;
    }
    pool
}

/// Add the expected value and phase of colour `c`'s `k` face-down pieces drawn from `pool`
/// (weights = pool counts), each type counted at its `value` plus its `pool_value`.
#[inline(always)]
fn add_face_down_expectation(
    a: &mut Acc,
    w: &Weights,
    precomputed: Option<&Precomputed>,
    c: usize,
    pool: &[u8; 5],
    k: i32,
) {
    let s = match (precomputed, pool_index(pool)) {
        (Some(pre), Some(i)) => pre.pools[i],
        _ => PoolSum::of(w, pool),
    };
    if s.total == 0 {
        return;
    }
    a.add(5, c, (k * s.mg / s.total, k * s.eg / s.total));
    a.phase_x += k * s.phase * 16 / s.total;
}

/// The sums of `p`'s evaluation. The portable build's `count_ones` is a dozen instructions
/// where the CPU's POPCNT is one, and the evaluation counts bits for every piece: on a CPU
/// that has it, the same code compiled for it is used (found once, at run time).
#[inline(always)]
fn accumulate(p: &Pos, w: &Weights, parts: Parts) -> Acc {
    if parts.king_reach {
        accumulate_for::<true>(p, w, parts)
    } else {
        accumulate_for::<false>(p, w, parts)
    }
}

#[inline(always)]
fn accumulate_for<const KING_REACH: bool>(p: &Pos, w: &Weights, parts: Parts) -> Acc {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports the one feature `accumulate_popcnt` is compiled for.
            return unsafe { accumulate_popcnt::<KING_REACH>(p, w, parts) };
        }
    }
    accumulate_body::<KING_REACH>(p, w, parts)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
fn accumulate_popcnt<const KING_REACH: bool>(p: &Pos, w: &Weights, parts: Parts) -> Acc {
    accumulate_body::<KING_REACH>(p, w, parts)
}

#[inline(always)]
fn accumulate_body<const KING_REACH: bool>(p: &Pos, w: &Weights, parts: Parts) -> Acc {
    let t = tables();
    let mut a = Acc::ZERO;
    let occ = p.occ();
    let patt = [pawn_attacks(p, WHITE), pawn_attacks(p, BLACK)];
    for c in 0..2 {
        let own = p.col[c];
        let them = c ^ 1;
        let env = Surroundings::of::<KING_REACH>(p, c, patt[them], parts.threats);
        let revealed = own & !p.fd;
        // Face-down pieces: expected pool value and shell mobility.
        let fd = own & p.fd;
        if fd != 0 {
            let k = fd.count_ones() as i32;
            add_face_down_expectation(&mut a, w, parts.precomputed, c, &p.pool[c], k);
            // A pawn shell reaches no square here (its credit would be 0). The squares
            // are counted over every shell and weighted once.
            let mut reach = 0;
            for s in Bits(fd & !p.bb[PAWN]) {
                let pt = code_type(p.sq[s]);
                let att = match pt {
                    KNIGHT => t.knight[s],
                    BISHOP => t.bishop(s, occ),
                    ROOK => t.rook(s, occ),
                    _ => t.queen(s, occ),
                };
                reach += (att & !own).count_ones() as i32;
                add_threats_by(&mut a, w, &env, c, pt, att);
                if att & env.enemy_king_zone != 0 {
                    a.units[c] += w.king_attack_units[pt];
                    a.attackers[c] += 1;
                }
                if KING_REACH && att & env.own_king_zone != 0 {
                    a.add(3, c, w.king_defenders[5]);
                }
            }
            a.add(
                5,
                c,
                (reach * w.shell_mobility.0, reach * w.shell_mobility.1),
            );
        }
        let pawns = p.pieces(c, PAWN) & !p.fd;
        for s in Bits(revealed) {
            add_piece::<KING_REACH>(&mut a, w, parts.precomputed, &env, c, s, code_type(p.sq[s]));
        }
        a.bishops[c] = (p.pieces(c, BISHOP) & !p.fd).count_ones() as i32;
        if patt[c] & env.enemy_king_zone != 0 {
            a.units[c] += w.king_attack_units[PAWN];
        }
        // Pawn threats: each enemy piece attacked by a pawn (or pawn shell), once.
        for v in Bits(patt[c] & env.targets) {
            a.add(THREATS, c, w.threat_by_pawn[threat_index(p, v)]);
        }
        // Pawn shield: own pawns and pawn shells in front of the king.
        let k = p.king_sq(c);
        let r = k / 8;
        let front_rank = match c {
            WHITE if r < 7 => RANK_1 << (8 * (r + 1)),
            BLACK if r > 0 => RANK_1 << (8 * (r - 1)),
            _ => 0,
        };
        let front = t.king[k] & front_rank;
        let shield = (front & p.pieces(c, PAWN)).count_ones() as i32;
        a.add(3, c, (shield * w.pawn_shield.0, shield * w.pawn_shield.1));
        // Pawn structure (revealed pawns only; enemy pawn shells still block passers).
        let enemy_pawns = p.pieces(them, PAWN);
        if parts.pawn_company {
            let own_pawns = p.pieces(c, PAWN);
            let beside = ((own_pawns & !FILE_A) >> 1) | ((own_pawns & !FILE_H) << 1);
            for s in Bits(pawns & (patt[c] | beside)) {
                a.add(4, c, w.connected[relative_rank(c, s)]);
            }
        }
        let mut files_seen = 0u8;
        for s in Bits(pawns) {
            let f = s % 8;
            let file = FILE_A << f;
            if files_seen & (1 << f) != 0 {
                a.add(4, c, w.doubled);
            }
            files_seen |= 1 << f;
            let adj = (if f > 0 { FILE_A << (f - 1) } else { 0 })
                | (if f < 7 { FILE_A << (f + 1) } else { 0 });
            if pawns & adj == 0 {
                a.add(4, c, w.isolated);
            }
            let r = s / 8;
            let ahead = match c {
                WHITE if r < 7 => !0u64 << (8 * (r + 1)),
                WHITE => 0,
                _ => (1u64 << (8 * r)) - 1,
            };
            if enemy_pawns & (file | adj) & ahead == 0 {
                let rr = relative_rank(c, s);
                a.add(4, c, w.passed[rr]);
                if parts.pawn_company {
                    add_passer_surroundings(&mut a, w, &env, c, s, rr);
                }
            }
        }
    }
    a
}

/// The sums finished: king safety from the attack counts (charged to the side being
/// attacked), the bishop pair, the phase.
#[inline(always)]
fn finish(a: &Acc, w: &Weights) -> Terms {
    let mut t = a.t;
    for c in 0..2 {
        if a.attackers[c] >= 2 {
            let units = a.units[c];
            let pen = (units * units * w.king_attack_scale / 16).min(w.king_attack_cap);
            t[3][c ^ 1].0 -= pen;
        }
        if a.bishops[c] >= 2 {
            t[0][c].0 += w.bishop_pair.0;
            t[0][c].1 += w.bishop_pair.1;
        }
    }
    Terms {
        t,
        phase: (a.phase_x / 16).min(24),
    }
}

fn compute(p: &Pos, w: &Weights) -> Terms {
    finish(&accumulate(p, w, Parts::of(w)), w)
}

#[inline(always)]
fn taper(v: (i32, i32), phase: i32) -> i32 {
    (v.0 * phase + v.1 * (24 - phase)) / 24
}

/// Side-to-move relative centipawns of finished terms.
#[inline(always)]
fn score(p: &Pos, w: &Weights, a: &Terms) -> Score {
    let (mut mg, mut eg) = (0, 0);
    for term in &a.t {
        mg += term[0].0 - term[1].0;
        eg += term[0].1 - term[1].1;
    }
    let v = taper((mg, eg), a.phase);
    (if p.side == 0 { v } else { -v }) + w.tempo
}

/// Side-to-move relative centipawns.
fn evaluate_with(p: &Pos, w: &Weights) -> Score {
    evaluate_parts(p, w, Parts::of(w))
}

/// `evaluate_with` where the weights' `Parts` are known.
#[inline(always)]
fn evaluate_parts(p: &Pos, w: &Weights, parts: Parts) -> Score {
    score(p, w, &finish(&accumulate(p, w, parts), w))
}

/// The square a revealing move `mv` just made in `p` revealed its piece on: the rook's
/// in castling, else the move's destination.
fn revealed_square(p: &Pos, mv: Move) -> usize {
    let (from, to) = (mv.from(), mv.to());
    if code_type(p.sq[to]) == KING && from.abs_diff(to) == 2 {
        castling_rook(from, to).1
    } else {
        to
    }
}

/// `evaluate_with` of `p`, just reached by the revealing move `mv` with outcome `made`,
/// and, written into `out`, of the positions its other outcomes `others` would have
/// reached instead, where that follows from this one without making them: a revealed
/// piece other than a pawn differs from another only in its own part and in its side's
/// pool, while a pawn changes pawn attacks, structure and en passant. Alternatives are
/// given only while a face-down piece is left, so that none of them is a dead position
/// (the game's immediate result; after a reveal the move clocks are 0).
fn evaluate_alternatives(
    p: &Pos,
    w: &Weights,
    parts: Parts,
    mv: Move,
    made: u8,
    others: &[(u8, u16)],
    out: &mut [Option<Score>],
) -> Score {
    let a = accumulate(p, w, parts);
    let v = score(p, w, &finish(&a, w));
    let made_type = POOL_TYPE[made as usize - 1];
    if made_type == PAWN || p.fd == 0 {
        return v;
    }
    if parts.king_reach {
        add_alternatives::<true>(p, w, parts, &a, mv, made, made_type, others, out);
    } else {
        add_alternatives::<false>(p, w, parts, &a, mv, made, made_type, others, out);
    }
    v
}

/// `evaluate_alternatives`' other outcomes, from `a`, the sums of the outcome `made`, a
/// revealed piece of type `made_type` other than a pawn.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn add_alternatives<const KING_REACH: bool>(
    p: &Pos,
    w: &Weights,
    parts: Parts,
    a: &Acc,
    mv: Move,
    made: u8,
    made_type: usize,
    others: &[(u8, u16)],
    out: &mut [Option<Score>],
) {
    let s = revealed_square(p, mv);
    debug_assert_eq!(code_type(p.sq[s]), made_type);
    let c = (p.side ^ 1) as usize;
    let env = Surroundings::of::<KING_REACH>(p, c, pawn_attacks(p, c ^ 1), parts.threats);
    let k = (p.col[c] & p.fd).count_ones() as i32;
    // Who threatens the square does not depend on the piece revealed there: found once.
    let threateners = Threateners::of(&env, c, s);
    // What the revealed piece adds when it is of type `pt` and its side's pool is `pool`.
    let add_revealed = |acc: &mut Acc, pt: usize, pool: &[u8; 5]| {
        add_piece::<KING_REACH>(acc, w, parts.precomputed, &env, c, s, pt);
        add_threats_against(acc, w, c, pt, &threateners);
        acc.bishops[c] += (pt == BISHOP) as i32;
        add_face_down_expectation(acc, w, parts.precomputed, c, pool, k);
    };
    let mut made_part = Acc::ZERO;
    add_revealed(&mut made_part, made_type, &p.pool[c]);
    let base = a.minus(&made_part);
    for (&(o, _), slot) in others.iter().zip(out.iter_mut()) {
        let i = o as usize - 1;
        let pt = POOL_TYPE[i];
        if pt == PAWN {
            continue;
        }
        let mut pool = p.pool[c];
        pool[made as usize - 1] += 1;
        pool[i] -= 1;
        let mut alt = base;
        add_revealed(&mut alt, pt, &pool);
        *slot = Some(score(p, w, &finish(&alt, w)));
    }
}

/// The evaluation's terms, tapered, White's and Black's part each (White's view).
fn terms_with(p: &Pos, w: &Weights) -> Vec<EvalTerm> {
    let a = compute(p, w);
    let mut out: Vec<EvalTerm> = TERM_NAMES
        .iter()
        .zip(&a.t)
        .map(|(&name, v)| EvalTerm {
            name,
            first: taper(v[0], a.phase),
            second: taper(v[1], a.phase),
        })
        .collect();
    let tempo = if p.side == 0 {
        (w.tempo, 0)
    } else {
        (0, w.tempo)
    };
    out.push(EvalTerm {
        name: "tempo",
        first: tempo.0,
        second: tempo.1,
    });
    out
}

/// The search's evaluator: the weights, and the evaluation computed from scratch at
/// every node (nothing incremental yet).
#[derive(Clone, Debug)]
pub struct Evaluation {
    weights: Weights,
    /// The groups of terms `weights` uses (without its tables: they are `precomputed`
    /// below, lent at each call).
    parts: Parts<'static>,
    precomputed: Precomputed,
}

impl Evaluation {
    #[inline(always)]
    fn parts(&self) -> Parts<'_> {
        Parts {
            precomputed: Some(&self.precomputed),
            ..self.parts
        }
    }
}

impl Evaluator<Board> for Evaluation {
    type Weights = Weights;

    fn default_weights(b: &Board) -> Weights {
        compiled_weights(b.is_standard_chess()).clone()
    }
    fn new(_: &Board, weights: Weights) -> Self {
        Evaluation {
            parts: Parts::of(&weights),
            precomputed: Precomputed::of(&weights),
            weights,
        }
    }
    #[inline]
    fn evaluate(&mut self, b: &Board) -> Score {
        evaluate_parts(b.pos(), &self.weights, self.parts())
    }
    fn evaluate_by(b: &Board, weights: &Weights) -> Score {
        evaluate_with(b.pos(), weights)
    }
    #[inline]
    fn evaluate_with_alternatives(
        &mut self,
        b: &Board,
        mv: Move,
        made: u8,
        others: &[(u8, u16)],
        out: &mut [Option<Score>],
    ) -> Score {
        evaluate_alternatives(b.pos(), &self.weights, self.parts(), mv, made, others, out)
    }
    fn noisy_order(&self, b: &Board, mv: Move) -> Score {
        let p = b.pos();
        let value = &self.weights.order_value;
        let victim = p.sq[mv.to()];
        let v = if victim != 0 {
            value[code_type(victim)]
        } else if b.is_capture(mv) {
            value[PAWN]
        } else {
            0
        };
        let attacker = code_type(p.sq[mv.from()]) as Score;
        let promo = if mv.promo() != 0 && p.fd & bit(mv.from()) == 0 {
            value[mv.promo()] - value[PAWN]
        } else {
            0
        };
        v * 8 + promo - attacker
    }
    /// The exchange by the ordering values (`order_value`).
    fn see_ge(&self, b: &Board, mv: Move, threshold: Score) -> bool {
        super::see::see_ge(b.pos(), mv, threshold, &self.weights.order_value)
    }
    fn terms(&mut self, b: &Board) -> Vec<EvalTerm> {
        terms_with(b.pos(), &self.weights)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fen;
    use super::*;

    fn ev(f: &str, chess: bool) -> Score {
        evaluate_with(&fen::parse(f, chess).unwrap(), compiled_weights(chess))
    }

    /// The compiled-in weights with every threat, safe-check, check-unit, king-defender,
    /// rook-file, connected-pawn, passed-pawn-surroundings and pool-value weight set, each
    /// to its own value (the compiled-in sets may leave them at zero, where the tests
    /// below would not see them).
    fn with_every_term(chess: bool) -> Weights {
        let mut w = compiled_weights(chess).clone();
        for (r, k) in (0..8).zip(0i32..) {
            w.connected[r] = (4 + 3 * k, 7 + 2 * k);
        }
        w.passed_own_king = (-3, -11);
        w.passed_enemy_king = (2, 9);
        w.passed_blocked = (-5, -13);
        w.rook_open_file = (23, 9);
        w.rook_half_open_file = (12, 5);
        for (i, k) in (0..6).zip(0i32..) {
            w.safe_check[i] = (6 + 5 * k, 19 - 3 * k);
            w.king_defenders[i] = (9 - 2 * k, 4 + k);
            w.check_units[i] = 1 + k;
            w.threat_by_pawn[i] = (11 + 7 * k, 5 + 3 * k);
            w.threat_by_minor[i] = (13 + 5 * k, -3 + 4 * k);
            w.threat_by_rook[i] = (-7 + 9 * k, 17 - 2 * k);
        }
        for (i, k) in (0..5).zip(0i32..) {
            w.pool_value[i] = (-20 + 6 * k, -60 + 13 * k);
        }
        w
    }

    #[test]
    fn start_positions_are_balanced() {
        // Only the tempo bonus separates the sides at the start.
        assert_eq!(ev(fen::START_CHESS, true), compiled_weights(true).tempo);
        assert_eq!(ev(fen::START_REVEAL, false), compiled_weights(false).tempo);
    }

    /// The colour-flipped FEN (ranks mirrored, colours swapped, side swapped).
    fn mirror(f: &str) -> String {
        let parts: Vec<&str> = f.split_whitespace().collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let board: Vec<String> = parts[0].split('/').rev().map(swap).collect();
        let side = if parts[1] == "w" { "b" } else { "w" };
        let mut castle: Vec<char> = swap(parts[2]).chars().collect();
        castle.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        let castle: String = castle.into_iter().collect();
        let mut out = format!("{} {side} {castle} - 0 1", board.join("/"));
        if let Some(pool) = parts.get(6) {
            // Pools: the two halves trade places and cases.
            let split = pool
                .find(|c: char| c.is_ascii_lowercase())
                .unwrap_or(pool.len());
            out.push_str(&format!(
                " {}{}",
                swap(&pool[split..]),
                swap(&pool[..split])
            ));
        }
        out
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        for (f, chess) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                true,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                true,
            ),
            (
                "xxxxkx1x/xxxx1xxx/5n2/4p3/4P3/2B5/XXXX1XXX/XXXXK1XX w - - 0 3 Q1R2B1N2P7q1r2b2n1p7",
                false,
            ),
        ] {
            let m = mirror(f);
            assert_eq!(ev(f, chess), ev(&m, chess), "{f} vs {m}");
            let w = with_every_term(chess);
            let ev_threats = |f: &str| evaluate_with(&fen::parse(f, chess).unwrap(), &w);
            assert_eq!(ev_threats(f), ev_threats(&m), "threats: {f} vs {m}");
        }
    }

    #[test]
    fn extra_queen_is_good_and_face_down_worth_pool_average() {
        assert!(ev("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", true) > 700);
        // One face-down knight shell whose pool holds only a queen is worth about a queen.
        let q = ev("4k3/8/8/8/8/8/8/1X2K3 w - - 0 1 Q1", false);
        let p = ev("4k3/8/8/8/8/8/8/1X2K3 w - - 0 1 P1", false);
        assert!(q > p + 600, "{q} {p}");
    }

    /// A type still in the pool counts at its value plus its `pool_value`: lowering the
    /// queen's correction by 100 lowers a face-down piece whose pool holds only a queen by
    /// 100, and by a third of that when the pool also holds two pawns (to a centipawn of
    /// the middlegame/endgame blend's rounding).
    #[test]
    fn pool_value_corrects_the_pool_types() {
        let w = compiled_weights(false);
        let mut less = w.clone();
        less.pool_value[0] = (w.pool_value[0].0 - 100, w.pool_value[0].1 - 100);
        for (pool, fall) in [("Q1", 100), ("Q1P2", 33)] {
            let f = format!("4k3/8/8/8/8/8/8/1X2K3 w - - 0 1 {pool}");
            let p = fen::parse(&f, false).unwrap();
            let (before, after) = (evaluate_with(&p, w), evaluate_with(&p, &less));
            assert!(
                (before - after - fall).abs() <= 1,
                "{pool}: {before} {after}"
            );
        }
    }

    /// `evaluate_with_alternatives` equals making each other outcome and evaluating it,
    /// for every revealing move along seeded random playouts (castling reveals and reveals
    /// with a promotion letter included), and it tells most of them; with the compiled-in
    /// weights and with every threat weight set. The evaluator, which looks up its
    /// `Precomputed` tables, equals the evaluation that works each entry out.
    #[test]
    fn alternatives_equal_the_outcomes_made() {
        use crate::game::{ChanceList, Game, MoveList};
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut told, mut made) = (0, 0);
        for game in 0..30 {
            let mut b = Board::startpos(false);
            let weights = if game % 2 == 0 {
                compiled_weights(false).clone()
            } else {
                with_every_term(false)
            };
            let mut eval = Evaluation::new(&b, weights.clone());
            for _ in 0..200 {
                let mut moves = MoveList::new();
                b.generate_moves(&mut moves);
                if moves.is_empty() || b.immediate_result().is_some() {
                    break;
                }
                for &mv in moves.iter() {
                    let mut chances = ChanceList::default();
                    if !b.chance(mv, &mut chances) {
                        continue;
                    }
                    let list = chances.as_slice();
                    for (k, &(o, _)) in list.iter().enumerate() {
                        b.make(mv, o);
                        let direct = eval.evaluate(&b);
                        assert_eq!(direct, Evaluation::evaluate_by(&b, &weights));
                        let mut out = vec![None; list.len() - k - 1];
                        let v =
                            eval.evaluate_with_alternatives(&b, mv, o, &list[k + 1..], &mut out);
                        b.unmake();
                        assert_eq!(v, direct);
                        for (&(other, _), told_value) in list[k + 1..].iter().zip(&out) {
                            let Some(told_value) = told_value else {
                                continue;
                            };
                            b.make(mv, other);
                            assert!(b.immediate_result().is_none());
                            assert_eq!(
                                *told_value,
                                eval.evaluate(&b),
                                "{} {mv:?} {o} -> {other}",
                                b.to_fen()
                            );
                            b.unmake();
                            told += 1;
                        }
                        made += 1;
                    }
                }
                let mv = moves.get(next() as usize % moves.len());
                let mut chances = ChanceList::default();
                let outcome = if b.chance(mv, &mut chances) {
                    let list = chances.as_slice();
                    list[next() as usize % list.len()].0
                } else {
                    0
                };
                b.make(mv, outcome);
            }
        }
        assert!(told > made / 2, "told {told} of {made}");
    }

    /// Every pool a game can reach (no count above its start) has its own place among
    /// the `POOLS`, and `pool_at` gives it back; a pool above the start counts has none.
    #[test]
    fn every_reachable_pool_has_its_own_place() {
        let mut seen = std::collections::HashSet::new();
        for q in 0..=1 {
            for r in 0..=2 {
                for b in 0..=2 {
                    for n in 0..=2 {
                        for p in 0..=8 {
                            let pool = [q, r, b, n, p];
                            let i = pool_index(&pool).unwrap();
                            assert!(i < POOLS);
                            assert!(seen.insert(i));
                            assert_eq!(pool_at(i), pool);
                        }
                    }
                }
            }
        }
        assert_eq!(seen.len(), 486);
        assert_eq!(POOLS, 486);
        assert_eq!(pool_index(&[2, 0, 0, 0, 0]), None);
        assert_eq!(pool_index(&[0, 0, 0, 0, 9]), None);
    }

    /// The evaluation's term `name` of `b` with weights `w`.
    fn term(b: &Pos, w: &Weights, name: &str) -> EvalTerm {
        terms_with(b, w)
            .into_iter()
            .find(|t| t.name == name)
            .unwrap()
    }

    /// A piece attacked by two pawns is one pawn threat; each knight, bishop or rook that
    /// attacks a piece is one threat of its kind; kings are never counted.
    #[test]
    fn threats_count_once_per_pawn_target_and_per_piece_attacker() {
        // White pawns c4 and e4 and the rook on d1 attack the knight on d5, which attacks
        // nothing of White's but the king's neighbourhood.
        let b = fen::parse("4k3/8/8/3n4/2P1P3/8/8/3RK3 w - - 0 1", true).unwrap();
        let w = with_every_term(true);
        let threats = term(&b, &w, "threats");
        let phase = w.phase[KNIGHT] + w.phase[ROOK];
        let want = (
            w.threat_by_pawn[KNIGHT].0 + w.threat_by_rook[KNIGHT].0,
            w.threat_by_pawn[KNIGHT].1 + w.threat_by_rook[KNIGHT].1,
        );
        assert_eq!((threats.first, threats.second), (taper(want, phase), 0));
        // Reveal Chess: the pawn on c6 attacks a face-down piece (d7) and the knight on b6
        // attacks it and a revealed rook (a8); the face-down pieces attack the pawn on c6
        // as their shells do, a pawn (d7) and a knight (b8).
        let b = fen::parse("rx2k3/3x4/1NP5/8/8/8/8/4K3 w - - 0 1 n1p1", false).unwrap();
        let w = with_every_term(false);
        let threats = term(&b, &w, "threats");
        let want = (
            w.threat_by_pawn[5].0 + w.threat_by_minor[5].0 + w.threat_by_minor[ROOK].0,
            w.threat_by_pawn[5].1 + w.threat_by_minor[5].1 + w.threat_by_minor[ROOK].1,
        );
        let e = evaluate_with(&b, &w);
        let phase = ((w.phase[KNIGHT] * 16 * 2 + w.phase[ROOK] * 16) / 16).min(24);
        assert_eq!(
            (threats.first, threats.second),
            (
                taper(want, phase),
                taper(
                    (
                        w.threat_by_pawn[PAWN].0 + w.threat_by_minor[PAWN].0,
                        w.threat_by_pawn[PAWN].1 + w.threat_by_minor[PAWN].1
                    ),
                    phase
                )
            ),
            "evaluation {e}"
        );
    }

    /// A knight, bishop, rook or queen that attacks a square from which it would check the
    /// enemy king, a square not attacked by an enemy pawn, gets its safe-check weight once,
    /// to its side's king-safety term.
    #[test]
    fn safe_checks_count_once_per_piece_and_not_under_pawns() {
        // Every other part of the king-safety term off, so that it is the checks alone.
        let mut on = with_every_term(true);
        on.pawn_shield = (0, 0);
        on.king_defenders = [(0, 0); 6];
        let mut off = on.clone();
        off.safe_check = [(0, 0); 6];
        off.check_units = [0; 6];
        let safety = |f: &str, w: &Weights| {
            let t = term(&fen::parse(f, true).unwrap(), w, "king safety");
            (t.first, t.second)
        };
        let phase = on.phase[KNIGHT] + on.phase[ROOK];
        let both = (
            on.safe_check[KNIGHT].0 + on.safe_check[ROOK].0,
            on.safe_check[KNIGHT].1 + on.safe_check[ROOK].1,
        );
        // The knight on c4 reaches d6 and the rook on a1 both e1 and a8 (once). Their
        // attack units change nothing: neither reaches the king's zone, and the penalty
        // needs two pieces that do.
        let open = "4k3/8/8/8/2N4K/8/8/R7 w - - 0 1";
        assert_eq!(safety(open, &off), (0, 0));
        assert_eq!(safety(open, &on), (taper(both, phase), 0));
        // The pawn on e7 guards d6 and closes the e-file; a8 is still a rook check.
        let guarded = "4k3/4p3/8/8/2N4K/8/8/R7 w - - 0 1";
        assert_eq!(safety(guarded, &off), (0, 0));
        assert_eq!(safety(guarded, &on), (taper(on.safe_check[ROOK], phase), 0));
    }

    /// A piece that attacks a square next to its own king, or the king's own square, gets
    /// its type's defender weight once; a face-down piece by its shell's reach, with the
    /// face-down entry.
    #[test]
    fn king_defenders_count_by_type_and_shell() {
        // The defenders alone in the king-safety term.
        let only = |chess: bool| {
            let mut w = with_every_term(chess);
            w.pawn_shield = (0, 0);
            w.safe_check = [(0, 0); 6];
            w.check_units = [0; 6];
            w
        };
        let safety = |f: &str, chess: bool| {
            let t = term(&fen::parse(f, chess).unwrap(), &only(chess), "king safety");
            (t.first, t.second)
        };
        let w = only(true);
        let phase = w.phase[KNIGHT] + w.phase[ROOK];
        // The knight on f3 reaches g1 and h2; the rook on a5 reaches nothing near g1, nor
        // the knight on c3.
        let knight = "4k3/8/8/R7/8/5N2/8/6K1 w - - 0 1";
        assert_eq!(
            safety(knight, true),
            (taper(w.king_defenders[KNIGHT], phase), 0)
        );
        assert_eq!(safety("4k3/8/8/R7/8/2N5/8/6K1 w - - 0 1", true), (0, 0));
        // A face-down piece on f1 moves as a bishop: it reaches e2, next to the king.
        let w = only(false);
        let shell = "4k3/8/8/8/8/8/8/4KX2 w - - 0 1 B1";
        assert_eq!(
            safety(shell, false),
            (taper(w.king_defenders[5], w.phase[BISHOP]), 0)
        );
    }

    /// A rook on a file without pawns gets the open-file bonus, with only enemy pawns the
    /// half-open one, as part of its placement.
    #[test]
    fn rooks_on_open_and_half_open_files() {
        let w = with_every_term(true);
        let placement = |f: &str| term(&fen::parse(f, true).unwrap(), &w, "piece-square").first;
        let open = placement("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let half_open = placement("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1");
        let phase = w.phase[ROOK];
        let want = taper(w.rook_open_file, phase) - taper(w.rook_half_open_file, phase);
        // Tapering the rook's whole placement may round differently by one.
        assert!(
            (open - half_open - want).abs() <= 1,
            "{open} {half_open} {want}"
        );
        assert!(open - half_open > 0);
    }

    /// What weights `on` add to White's and Black's pawn terms of `f` over weights `off`.
    fn pawns_added(f: &str, chess: bool, on: &Weights, off: &Weights) -> (i32, i32) {
        let b = fen::parse(f, chess).unwrap();
        let (with, without) = (term(&b, on, "pawns"), term(&b, off, "pawns"));
        (with.first - without.first, with.second - without.second)
    }

    /// A passed pawn's surroundings: each king's distance to the square in front of it
    /// and a piece there, times its rank weight (relative rank - 2); none below rank 3.
    #[test]
    fn passed_pawns_count_king_distances_and_a_blocker() {
        let w = with_every_term(true);
        let mut off = w.clone();
        off.passed_own_king = (0, 0);
        off.passed_enemy_king = (0, 0);
        off.passed_blocked = (0, 0);
        // Bare kings and pawns: phase 0, so only the endgame weights count.
        let added = |f: &str| pawns_added(f, true, &w, &off);
        let (own, enemy, blocked) = (
            w.passed_own_king.1,
            w.passed_enemy_king.1,
            w.passed_blocked.1,
        );
        // White pawn e6 (relative rank 5, weight 3), square in front e7: the white king on
        // e1 is 6 away, the black one on a8 4 away.
        let f = "k7/8/4P3/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(added(f), (3 * (6 * own + 4 * enemy), 0));
        // The black king stands on e7: 0 away, and the square is occupied.
        let f = "8/4k3/4P3/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(added(f), (3 * (6 * own + blocked), 0));
        // Black's pawn d3 (relative rank 5 for Black), square in front d2: the black king
        // on e1 is 1 away, the white one on a1 3 away.
        let f = "8/8/8/8/8/3p4/8/K3k3 w - - 0 1";
        assert_eq!(added(f), (0, 3 * (own + 3 * enemy)));
        // On relative rank 3 (e4) the weight is 1: e5 is 4 from either king; on rank 2
        // (e3), none.
        assert_eq!(
            added("k7/8/8/8/4P3/8/8/4K3 w - - 0 1"),
            (4 * own + 4 * enemy, 0)
        );
        assert_eq!(added("k7/8/8/8/8/4P3/8/4K3 w - - 0 1"), (0, 0));
    }

    /// A revealed pawn counts as connected when an own pawn or pawn shell defends it or
    /// stands beside it on its rank.
    #[test]
    fn connected_pawns_are_defended_or_side_by_side() {
        let w = with_every_term(false);
        let mut off = w.clone();
        off.connected = [(0, 0); 8];
        let added = |f: &str| pawns_added(f, false, &w, &off);
        let eg = |r: usize| w.connected[r].1;
        // White d4 and e4 side by side, f3 defending e4; f3 itself is neither. The black
        // pawn a5 is alone. Only kings and pawns: phase 0.
        let f = "4k3/8/8/p7/3PP3/5P2/8/4K3 w - - 0 1";
        assert_eq!(added(f), (2 * eg(3), 0));
        // Pawn shells (face-down pieces on pawns' start squares): c2's defends d3, and the
        // revealed pawn on h2 stands beside g2's.
        let f = "4k3/8/8/8/8/3P4/2X3XP/4K3 w - - 0 1 P2";
        assert_eq!(added(f), (eg(2) + eg(1), 0));
    }

    #[test]
    fn terms_add_up_to_the_evaluation() {
        let b = fen::parse(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            true,
        )
        .unwrap();
        let w = compiled_weights(true);
        let sum: i32 = terms_with(&b, w).iter().map(|t| t.first - t.second).sum();
        // Tapering per term may round differently from tapering the sum.
        assert!((-sum - evaluate_with(&b, w)).abs() <= N as i32 + 1);
    }
}
