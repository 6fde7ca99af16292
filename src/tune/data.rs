//! The self-play data file: `tinh datagen` writes it, `tinh tune` reads it, `tinh datagen
//! --dump` prints it. A file holds whole games: the position self-play started from, then
//! every move with the search's score of the position it was played in; positions are
//! rebuilt by replaying the moves with the rules code (so the file stays small and any
//! game's positions can be read back exactly, chance outcomes included).
//!
//! Format, version 1. All integers are little-endian.
//!
//! ```text
//! header   magic "TINHDATA" (8 bytes), version u16 = 1,
//!          variant name length u8, variant name (ASCII, e.g. "chess")
//! game     record length u32 (the bytes of the record after this field), then
//!            result   u8   0 = the first player (Blue / White) lost, 1 = draw, 2 = won
//!            end      u8   0 = by the rules, 1 = resign adjudication, 2 = length limit
//!            fen len  u16, FEN (UTF-8): where self-play began (after the opening and the
//!                     random plies; the game's rules read it with `Game::with_fen`)
//!            plies    u16, then per ply 5 bytes:
//!              move     u16  `GameMove::to_u16` of the move played (the search's choice)
//!              outcome  u8   its chance outcome (a reveal), 0 when it has none
//!              score    i16  the search's score of the position before the move, side to
//!                            move's view, centipawns (mate scores as the search gives them)
//! ```
//!
//! Games follow each other to the end of the file. Each record is written in one piece
//! and flushed, so an interrupted run keeps every game it finished; a reader ignores a
//! truncated last record. Every position is recorded: filtering (in check, a noisy best
//! move, a mate score) is `tinh tune`'s job, where it can be changed without new data.

use crate::game::{ChanceList, Game, GameMove, MoveList, NO_OUTCOME};
use crate::variant::Variant;
use std::fs::File;
use std::io::{BufWriter, Write};

const MAGIC: &[u8; 8] = b"TINHDATA";
const VERSION: u16 = 1;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Rules = 0,
    Resign = 1,
    LengthLimit = 2,
}

impl End {
    pub fn name(self) -> &'static str {
        match self {
            End::Rules => "rules",
            End::Resign => "resign adjudication",
            End::LengthLimit => "length limit",
        }
    }
}

/// One recorded move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub mv: u16,
    pub outcome: u8,
    /// The search's score of the position before the move, side to move's view.
    pub score: i16,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// The first player's points: 0 lost, 1 draw, 2 won (half-points).
    pub result: u8,
    pub end: End,
    pub fen: String,
    pub plies: Vec<Ply>,
}

impl GameData {
    /// The game's result from the first player's view: 0, 0.5 or 1.
    pub fn first_player_score(&self) -> f64 {
        self.result as f64 / 2.0
    }
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.result {
            2 => "1-0",
            0 => "0-1",
            _ => "1/2-1/2",
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(12 + self.fen.len() + 5 * self.plies.len());
        b.extend_from_slice(&[0; 4]);
        b.push(self.result);
        b.push(self.end as u8);
        b.extend_from_slice(&(self.fen.len() as u16).to_le_bytes());
        b.extend_from_slice(self.fen.as_bytes());
        b.extend_from_slice(&(self.plies.len() as u16).to_le_bytes());
        for p in &self.plies {
            b.extend_from_slice(&p.mv.to_le_bytes());
            b.push(p.outcome);
            b.extend_from_slice(&p.score.to_le_bytes());
        }
        let len = (b.len() - 4) as u32;
        b[..4].copy_from_slice(&len.to_le_bytes());
        b
    }
}

/// Longest game a record holds (the ply count is a u16).
pub const MAX_RECORD_PLIES: usize = u16::MAX as usize;

/// Writes games to a data file, each record flushed as it is written.
pub struct DataWriter {
    out: BufWriter<File>,
    path: String,
}

impl DataWriter {
    /// A new data file for `variant`; an existing file is not overwritten (it may hold
    /// hours of self-play).
    pub fn create(path: &str, variant: Variant) -> Result<DataWriter, String> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => {
                    format!("{path} already exists: choose another --out, or delete it first")
                }
                _ => format!("cannot create {path}: {e}"),
            })?;
        let mut w = DataWriter {
            out: BufWriter::new(file),
            path: path.to_string(),
        };
        let name = variant.name().as_bytes();
        let mut header = MAGIC.to_vec();
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.push(name.len() as u8);
        header.extend_from_slice(name);
        w.write_bytes(&header)?;
        Ok(w)
    }

    /// Append one game and flush it to the file.
    pub fn write_game(&mut self, game: &GameData) -> Result<(), String> {
        self.write_bytes(&game.encode())
    }

    fn write_bytes(&mut self, b: &[u8]) -> Result<(), String> {
        self.out
            .write_all(b)
            .and_then(|_| self.out.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path))
    }
}

/// A data file read back.
#[derive(Clone, Debug)]
pub struct DataFile {
    pub variant: Variant,
    pub games: Vec<GameData>,
    /// Bytes of an incomplete last record (an interrupted run), ignored.
    pub truncated_bytes: usize,
}

/// Read a data file written by `DataWriter`.
pub fn read(path: &str) -> Result<DataFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse(&bytes).map_err(|e| format!("{path}: {e}"))
}

/// Little-endian reads over a byte slice; `None` past its end.
struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|s| s[0])
    }
    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|s| u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
}

/// Parse a whole data file's bytes.
pub fn parse(bytes: &[u8]) -> Result<DataFile, String> {
    let mut c = Cursor { b: bytes, at: 0 };
    if c.take(8) != Some(MAGIC.as_slice()) {
        return Err("not a Tinh data file (no TINHDATA header)".into());
    }
    let version = c.u16().ok_or("header cut short")?;
    if version != VERSION {
        return Err(format!(
            "data format version {version}; this Tinh reads version {VERSION}"
        ));
    }
    let n = c.u8().ok_or("header cut short")? as usize;
    let name = c.take(n).ok_or("header cut short")?;
    let variant: Variant = std::str::from_utf8(name)
        .map_err(|_| "variant name is not text".to_string())?
        .parse()?;
    let mut games = Vec::new();
    let mut truncated_bytes = 0;
    while c.at < bytes.len() {
        let start = c.at;
        let record = c
            .u32()
            .and_then(|len| c.take(len as usize))
            .map(|body| decode_game(body).ok_or(games.len() + 1));
        match record {
            None => {
                truncated_bytes = bytes.len() - start;
                break;
            }
            Some(Ok(g)) => games.push(g),
            Some(Err(n)) => return Err(format!("game {n}: malformed record")),
        }
    }
    Ok(DataFile {
        variant,
        games,
        truncated_bytes,
    })
}

fn decode_game(body: &[u8]) -> Option<GameData> {
    let mut c = Cursor { b: body, at: 0 };
    let result = c.u8().filter(|&r| r <= 2)?;
    let end = match c.u8()? {
        0 => End::Rules,
        1 => End::Resign,
        2 => End::LengthLimit,
        _ => return None,
    };
    let n = c.u16()? as usize;
    let fen = String::from_utf8(c.take(n)?.to_vec()).ok()?;
    let count = c.u16()? as usize;
    let mut plies = Vec::with_capacity(count);
    for _ in 0..count {
        let mv = c.u16()?;
        let outcome = c.u8()?;
        let score = c.u16()? as i16;
        plies.push(Ply { mv, outcome, score });
    }
    (c.at == body.len()).then_some(GameData {
        result,
        end,
        fen,
        plies,
    })
}

/// Replay `game` from its FEN (a position of `start`'s game and rules): `f` sees every
/// position before its move is played, with the move and its ply index; it may make
/// moves on the board as long as it takes them back. Every move is checked with the rules
/// code: a move that is not legal there (a file from another build or another game) is an
/// error.
pub fn replay<G: Game>(
    start: &G,
    game: &GameData,
    mut f: impl FnMut(&mut G, G::Move, &Ply, usize),
) -> Result<(), String> {
    let mut g = start.with_fen(&game.fen)?;
    let mut list = MoveList::new();
    let mut chances = ChanceList::default();
    for (i, ply) in game.plies.iter().enumerate() {
        let mv = G::Move::from_u16(ply.mv);
        list.clear();
        g.generate_moves(&mut list);
        chances.clear();
        let has_chance = list.contains(&mv) && g.chance(mv, &mut chances);
        let outcome_ok = if has_chance {
            chances.as_slice().iter().any(|&(o, _)| o == ply.outcome)
        } else {
            ply.outcome == NO_OUTCOME
        };
        if !list.contains(&mv) || !outcome_ok {
            return Err(format!(
                "ply {}: move code {} (outcome {}) is not legal in {}",
                i + 1,
                ply.mv,
                ply.outcome,
                g.to_fen()
            ));
        }
        f(&mut g, mv, ply, i);
        g.make(mv, ply.outcome);
    }
    Ok(())
}

/// `tinh datagen --dump FILE`: one line per position on stdout, `FEN | score | result |
/// move | flags`, score from the side to move's view, result from the first player's.
pub fn dump(path: &str) -> Result<(), String> {
    let data = read(path)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let start = data.variant.startpos();
    let mut positions = 0usize;
    for (n, game) in data.games.iter().enumerate() {
        let mut lines = String::new();
        with_game!(&start, s => replay(s, game, |g, mv, ply, _| {
            let mut flags = Vec::new();
            if g.in_check() {
                flags.push("check");
            }
            if g.is_noisy(mv) {
                flags.push("noisy");
            }
            if (ply.score as i32).abs() >= crate::game::MATE_BOUND {
                flags.push("mate");
            }
            lines.push_str(&format!(
                "{} | {} | {} | {} | {}\n",
                g.to_fen(),
                ply.score,
                game.result_text(),
                g.move_outcome_to_string(mv, ply.outcome),
                if flags.is_empty() { "-".to_string() } else { flags.join(",") }
            ));
        }))
        .map_err(|e| format!("{path}: game {}: {e}", n + 1))?;
        positions += game.plies.len();
        if let Err(e) = out.write_all(lines.as_bytes()) {
            // A reader that stops early (`| head`) is not an error.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(());
            }
            return Err(format!("cannot write to stdout: {e}"));
        }
    }
    if let Err(e) = out.flush()
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(format!("cannot write to stdout: {e}"));
    }
    eprintln!(
        "{path}: {} games, {positions} positions ({})",
        data.games.len(),
        data.variant
    );
    if data.truncated_bytes > 0 {
        eprintln!(
            "{path}: ignored an incomplete last record ({} bytes; an interrupted run)",
            data.truncated_bytes
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameData {
        GameData {
            result: 2,
            end: End::Resign,
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            plies: vec![
                Ply {
                    mv: 0x1234,
                    outcome: 0,
                    score: -31_990,
                },
                Ply {
                    mv: 7,
                    outcome: 3,
                    score: 250,
                },
            ],
        }
    }

    fn file_bytes(games: &[GameData]) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.push(5);
        b.extend_from_slice(b"chess");
        for g in games {
            b.extend_from_slice(&g.encode());
        }
        b
    }

    #[test]
    fn records_round_trip_and_a_cut_last_record_is_ignored() {
        let g = sample();
        let bytes = file_bytes(&[g.clone(), g.clone()]);
        let d = parse(&bytes).unwrap();
        assert_eq!(d.variant, Variant::Chess);
        assert_eq!(d.games, vec![g.clone(), g.clone()]);
        assert_eq!(d.truncated_bytes, 0);
        // 12 bytes of record head, the FEN, 5 bytes a ply.
        assert_eq!(g.encode().len(), 4 + 2 + 2 + g.fen.len() + 2 + 5 * 2);
        for cut in 1..g.encode().len() {
            let d = parse(&bytes[..bytes.len() - cut]).unwrap();
            assert_eq!(d.games, vec![g.clone()], "cut {cut}");
            assert_eq!(d.truncated_bytes, g.encode().len() - cut);
        }
    }

    #[test]
    fn foreign_files_are_refused() {
        let good = file_bytes(&[sample()]);
        assert!(
            parse(b"PK\x03\x04 not ours")
                .unwrap_err()
                .contains("not a Tinh data file")
        );
        let mut v2 = good.clone();
        v2[8] = 2;
        assert!(parse(&v2).unwrap_err().contains("version 2"));
        let mut shogi = good.clone();
        shogi[11..16].copy_from_slice(b"shogi");
        assert!(parse(&shogi).unwrap_err().contains("unknown variant"));
        // A record whose length does not match its contents.
        let mut bad = good.clone();
        let at = 16;
        let len = u32::from_le_bytes(bad[at..at + 4].try_into().unwrap());
        bad[at..at + 4].copy_from_slice(&(len - 5).to_le_bytes());
        assert!(parse(&bad).unwrap_err().contains("malformed"));
    }
}
