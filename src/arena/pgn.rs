//! PGN of finished games (the usual seven-tag roster plus Variant, FEN/SetUp, Termination,
//! TimeControl, PlyCount), movetext in the game's own notation with reveal letters and a
//! cutechess-style `{score/depth time}` comment per move; and a small reader for it
//! (used by the tests to check what the match wrote).

use super::referee::GameRecord;
use crate::variant::Variant;

/// Full-move number and side to move of a start position.
fn fen_move_number(variant: Variant, fen: &str) -> (u32, usize) {
    match variant.from_fen(fen) {
        Ok(p) => with_game!(&p, g => (g.fullmove_number(), g.side_to_move())),
        Err(_) => (1, 0),
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game in PGN, ending with an empty line.
pub fn write_game(
    g: &GameRecord,
    variant: Variant,
    event: &str,
    site: &str,
    time_control: &str,
) -> String {
    let mut s = String::new();
    let tags: [(&str, String); 13] = [
        ("Event", event.to_string()),
        ("Site", site.to_string()),
        ("Date", g.date.clone()),
        ("Round", g.job.number.to_string()),
        ("White", g.names[0].clone()),
        ("Black", g.names[1].clone()),
        ("Result", g.result.to_string()),
        ("Variant", variant.name().to_string()),
        ("FEN", g.start_fen.clone()),
        ("SetUp", "1".to_string()),
        ("Termination", g.termination.pgn().to_string()),
        ("TimeControl", time_control.to_string()),
        ("PlyCount", g.moves.len().to_string()),
    ];
    for (k, v) in tags {
        s.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
    }
    s.push('\n');
    let (mut number, mut side) = fen_move_number(variant, &g.start_fen);
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        if side == 0 {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.text.clone());
        let mut comment = String::new();
        if let Some(sc) = m.info.score {
            comment.push_str(&sc.pgn());
            if let Some(d) = m.info.depth {
                comment.push_str(&format!("/{d}"));
            }
            comment.push(' ');
        }
        comment.push_str(&format!("{:.3}s", m.time_ms as f64 / 1000.0));
        tokens.push(format!("{{{comment}}}"));
        if side == 1 {
            number += 1;
        }
        side = 1 - side;
    }
    tokens.push(format!("{{{}}}", g.reason));
    tokens.push(g.result.to_string());
    // Wrap at 80 columns, as PGN export format asks.
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// A game read back from PGN.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    /// Moves as written (move numbers and comments removed).
    pub moves: Vec<String>,
    /// Comments in order (move comments, then the final reason).
    pub comments: Vec<String>,
    /// The result token ending the movetext.
    pub result: String,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Read every game of a PGN text (tags, movetext with `{}` comments, result).
pub fn parse(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut cur = PgnGame::default();
    let mut in_moves = false;
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            '[' if !in_moves || cur.moves.is_empty() && cur.comments.is_empty() => {
                chars.next();
                let mut tag = String::new();
                let mut esc = false;
                let mut in_str = false;
                for c in chars.by_ref() {
                    if esc {
                        tag.push(c);
                        esc = false;
                    } else if c == '\\' && in_str {
                        esc = true;
                    } else if c == '"' {
                        in_str = !in_str;
                        tag.push(c);
                    } else if c == ']' && !in_str {
                        break;
                    } else {
                        tag.push(c);
                    }
                }
                let (k, v) = tag
                    .split_once(' ')
                    .ok_or_else(|| format!("bad tag [{tag}]"))?;
                let v = v.trim();
                let v = v
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| format!("bad tag value [{tag}]"))?;
                cur.tags.push((k.to_string(), v.to_string()));
            }
            '{' => {
                chars.next();
                let mut com = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    com.push(c);
                }
                cur.comments.push(com);
                in_moves = true;
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let mut tok = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || c == '{' {
                        break;
                    }
                    tok.push(c);
                    chars.next();
                }
                in_moves = true;
                if matches!(tok.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    cur.result = tok;
                    games.push(std::mem::take(&mut cur));
                    in_moves = false;
                } else if tok.ends_with('.') && tok.starts_with(|c: char| c.is_ascii_digit()) {
                    // move number
                } else {
                    cur.moves.push(tok);
                }
            }
        }
    }
    if !cur.tags.is_empty() || !cur.moves.is_empty() {
        return Err("PGN ends inside a game (no result token)".into());
    }
    Ok(games)
}
