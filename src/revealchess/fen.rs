//! FEN for Reveal Chess (seven fields: the pools last, `X`/`x` face-down) and for standard
//! chess (six fields): parsing with clear errors for malformed or impossible input, and
//! exact output.

use super::bitboard::*;
use super::position::*;
use crate::game::{MAX_FULLMOVE, parse_counter};

pub const START_REVEAL: &str =
    "xxxxkxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXKXXX w KQkq - 0 1 Q1R2B2N2P8q1r2b2n2p8";
pub const START_CHESS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn sq_name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

pub fn parse_square(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
}

pub fn square_name(s: usize) -> String {
    sq_name(s)
}

fn parse_pools(f: &str) -> Result<[[u8; 5]; 2], String> {
    let mut pool = [[0u8; 5]; 2];
    let mut seen = [[false; 5]; 2];
    if f == "-" {
        return Ok(pool);
    }
    let b = f.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let ch = b[i] as char;
        let c = if ch.is_ascii_uppercase() {
            WHITE
        } else {
            BLACK
        };
        let idx = POOL_LETTER
            .iter()
            .position(|&l| l as char == ch.to_ascii_uppercase())
            .ok_or_else(|| format!("pool field '{f}': unknown piece letter '{ch}'"))?;
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            return Err(format!("pool field '{f}': '{ch}' needs a count"));
        }
        let n: u32 = f[start..i]
            .parse()
            .map_err(|_| format!("pool field '{f}': bad count"))?;
        if seen[c][idx] {
            return Err(format!("pool field '{f}': '{ch}' given twice"));
        }
        seen[c][idx] = true;
        if n > POOL_START[idx] as u32 {
            return Err(format!(
                "pool field '{f}': {n} x '{ch}' is more than the starting pool holds ({})",
                POOL_START[idx]
            ));
        }
        pool[c][idx] = n as u8;
    }
    Ok(pool)
}

/// A position from a FEN (six fields in chess, seven in Reveal Chess: the pools last),
/// checked field by field and then as a whole.
pub fn parse(fen: &str, chess: bool) -> Result<Pos, String> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!(
            "FEN '{fen}' has {} fields; expected at least board, side, castling, en passant",
            fields.len()
        ));
    }
    let max = if chess { 6 } else { 7 };
    if fields.len() > max {
        return Err(format!(
            "FEN '{fen}' has {} fields; {} takes at most {max}",
            fields.len(),
            if chess { "chess" } else { "revealchess" }
        ));
    }
    let mut p = parse_placement(fields[0], chess)?;
    check_kings_and_pawns(&p, chess)?;
    p.side = match fields[1] {
        "w" => 0,
        "b" => 1,
        s => return Err(format!("FEN side to move '{s}': expected w or b")),
    };
    p.castle = parse_castling(&p, fields[2])?;
    p.ep = parse_en_passant(&p, fields[3])?;
    parse_counters(&mut p, &fields, fen)?;
    if let Some(f) = fields.get(6) {
        p.pool = parse_pools(f)?;
    }
    check_pools_and_check(&p)?;
    p.refresh_key();
    Ok(p)
}

/// The board field: pieces, face-down `X`/`x` on starting squares (as their shells).
fn parse_placement(board: &str, chess: bool) -> Result<Pos, String> {
    let mut p = Pos::empty();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("FEN board '{board}' needs 8 ranks"));
    }
    for (ri, rank) in ranks.iter().enumerate() {
        let r = 7 - ri;
        let mut f = 0usize;
        for ch in rank.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(format!("FEN rank '{rank}': bad digit '{ch}'"));
                }
                f += d as usize;
                if f > 8 {
                    return Err(format!("FEN rank '{rank}' is longer than 8 squares"));
                }
                continue;
            }
            if f >= 8 {
                return Err(format!("FEN rank '{rank}' is longer than 8 squares"));
            }
            let s = r * 8 + f;
            let c = if ch.is_ascii_uppercase() {
                WHITE
            } else {
                BLACK
            };
            let t = if ch == 'X' || ch == 'x' {
                p.fd |= bit(s);
                face_down_shell(ch, c, s, chess)?
            } else {
                PIECE_LETTERS
                    .iter()
                    .position(|&l| l as char == ch.to_ascii_lowercase())
                    .ok_or_else(|| format!("FEN board: unknown piece '{ch}'"))?
            };
            p.bb[t] |= bit(s);
            p.col[c] |= bit(s);
            p.sq[s] = code(c, t);
            f += 1;
        }
        if f != 8 {
            return Err(format!("FEN rank '{rank}' does not have 8 squares"));
        }
    }
    Ok(p)
}

/// The shell type of a face-down piece `ch` of colour `c` on `s`: only in Reveal Chess,
/// only on a starting square of that colour.
fn face_down_shell(ch: char, c: usize, s: usize, chess: bool) -> Result<usize, String> {
    if chess {
        return Err(format!(
            "face-down piece '{ch}' on {} in standard chess",
            sq_name(s)
        ));
    }
    shell_of(c, s).ok_or_else(|| {
        format!(
            "face-down piece '{ch}' on {}, which is not a starting square of {}",
            sq_name(s),
            if c == WHITE { "White" } else { "Black" }
        )
    })
}

/// One king each; no pawn on its last rank (it would have promoted), in chess none on
/// the first either.
fn check_kings_and_pawns(p: &Pos, chess: bool) -> Result<(), String> {
    for c in 0..2 {
        let n = (p.bb[KING] & p.col[c]).count_ones();
        if n != 1 {
            return Err(format!(
                "{} has {n} kings; exactly one is needed",
                if c == WHITE { "White" } else { "Black" }
            ));
        }
    }
    if p.pieces(WHITE, PAWN) & RANK_8 != 0 || p.pieces(BLACK, PAWN) & RANK_1 != 0 {
        return Err("a pawn stands on its last rank".into());
    }
    if chess && (p.bb[PAWN] & !p.fd) & (RANK_1 | RANK_8) != 0 {
        return Err("a pawn stands on the first or last rank".into());
    }
    Ok(())
}

/// The castling field: each right needs its king and its rook (or rook shell) at home.
fn parse_castling(p: &Pos, field: &str) -> Result<u8, String> {
    let mut castle = 0;
    if field == "-" {
        return Ok(castle);
    }
    for ch in field.chars() {
        let (bitv, c, ksq, corner) = match ch {
            'K' => (CASTLE_WK, WHITE, 4, 7),
            'Q' => (CASTLE_WQ, WHITE, 4, 0),
            'k' => (CASTLE_BK, BLACK, 60, 63),
            'q' => (CASTLE_BQ, BLACK, 60, 56),
            _ => return Err(format!("FEN castling '{field}': bad letter '{ch}'")),
        };
        if castle & bitv != 0 {
            return Err(format!("FEN castling '{field}': '{ch}' twice"));
        }
        if p.sq[ksq] != code(c, KING) {
            return Err(format!(
                "castling right '{ch}' but the king is not on {}",
                sq_name(ksq)
            ));
        }
        if p.sq[corner] != code(c, ROOK) {
            return Err(format!(
                "castling right '{ch}' but no rook (or face-down rook shell) on {}",
                sq_name(corner)
            ));
        }
        castle |= bitv;
    }
    Ok(castle)
}

/// The en-passant field: a square just passed over by a revealed pawn's double step of
/// the side not to move (`p.side` already set).
fn parse_en_passant(p: &Pos, field: &str) -> Result<u8, String> {
    if field == "-" {
        return Ok(NO_SQ);
    }
    let ep =
        parse_square(field).ok_or_else(|| format!("FEN en passant '{field}': not a square"))?;
    let (rank, pawn_sq, from_sq, mover) = if p.side == 0 {
        (5, ep.wrapping_sub(8), ep + 8, BLACK)
    } else {
        (2, ep + 8, ep.wrapping_sub(8), WHITE)
    };
    if ep / 8 != rank
        || p.sq[pawn_sq] != code(mover, PAWN)
        || p.fd & bit(pawn_sq) != 0
        || p.sq[ep] != 0
        || p.sq[from_sq] != 0
    {
        return Err(format!(
            "FEN en passant '{field}' does not follow a double pawn step"
        ));
    }
    Ok(ep as u8)
}

/// The half-move clock and the move number (both or neither); the repetition window
/// starts as long as the half-move clock.
fn parse_counters(p: &mut Pos, fields: &[&str], fen: &str) -> Result<(), String> {
    // The 75-move rule ends every game at a clock of 150, so no position has more.
    if let Some(s) = fields.get(4) {
        p.half = parse_counter(s, "FEN half-move clock", 0, MAX_HALFMOVE as u32)? as u16;
    }
    if let Some(s) = fields.get(5) {
        p.fullmove = parse_counter(s, "FEN full-move number", 1, MAX_FULLMOVE)?;
    }
    if fields.len() == 5 {
        return Err(format!("FEN '{fen}': half-move clock without move number"));
    }
    p.rep = p.half;
    Ok(())
}

/// The position as a whole: each pool holds at least its side's face-down pieces, and the
/// side not to move is not in check.
fn check_pools_and_check(p: &Pos) -> Result<(), String> {
    for c in 0..2 {
        let fdn = (p.fd & p.col[c]).count_ones();
        let total: u32 = p.pool[c].iter().map(|&n| n as u32).sum();
        if total < fdn {
            return Err(format!(
                "{}'s pool holds {total} pieces but {fdn} stand face-down",
                if c == WHITE { "White" } else { "Black" }
            ));
        }
    }
    let them = 1 - p.side as usize;
    if p.attacked(p.king_sq(them), p.side as usize, p.occ()) {
        return Err("the side not to move is in check".into());
    }
    Ok(())
}

pub fn format(p: &Pos, chess: bool) -> String {
    let mut s = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            let q = r * 8 + f;
            let pc = p.sq[q];
            if pc == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
                empty = 0;
            }
            let c = code_color(pc);
            let ch = if p.fd & bit(q) != 0 {
                'x'
            } else {
                PIECE_LETTERS[code_type(pc)] as char
            };
            s.push(if c == WHITE {
                ch.to_ascii_uppercase()
            } else {
                ch
            });
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if r > 0 {
            s.push('/');
        }
    }
    s.push_str(if p.side == 0 { " w " } else { " b " });
    if p.castle == 0 {
        s.push('-');
    } else {
        for (b, ch) in [
            (CASTLE_WK, 'K'),
            (CASTLE_WQ, 'Q'),
            (CASTLE_BK, 'k'),
            (CASTLE_BQ, 'q'),
        ] {
            if p.castle & b != 0 {
                s.push(ch);
            }
        }
    }
    s.push(' ');
    if p.ep == NO_SQ {
        s.push('-');
    } else {
        s.push_str(&sq_name(p.ep as usize));
    }
    s.push_str(&format!(" {} {}", p.half, p.fullmove));
    if !chess {
        s.push(' ');
        s.push_str(&pools_string(p));
    }
    s
}

/// The pool field: White's counts in capitals then Black's, order Q R B N P, zeros left out.
pub fn pools_string(p: &Pos) -> String {
    let mut s = String::new();
    for c in 0..2 {
        for (&n, &letter) in p.pool[c].iter().zip(&POOL_LETTER) {
            if n > 0 {
                let l = letter as char;
                s.push(if c == WHITE {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
                s.push_str(&n.to_string());
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}
