//! Parsing the arguments of `position` and `go`, and building the position a `position`
//! command describes (shared with `tinh analyse` and `tinh perft`).

use crate::search::Limits;
use crate::variant::{Position, Variant};

/// Parse the arguments of `position`: `startpos | fen <FEN fields...>` then optionally
/// `moves <m1> <m2> ...`. Returns the FEN (`None` for the start position) and the moves.
pub fn parse_position_args<'a>(args: &[&'a str]) -> Result<(Option<String>, Vec<&'a str>), String> {
    let mpos = args.iter().position(|&t| t == "moves");
    let (head, moves) = match mpos {
        Some(i) => (&args[..i], args[i + 1..].to_vec()),
        None => (args, Vec::new()),
    };
    match head.first() {
        Some(&"startpos") => {
            if head.len() > 1 {
                return Err(format!(
                    "position: unexpected '{}' after startpos (expected 'moves')",
                    head[1]
                ));
            }
            Ok((None, moves))
        }
        Some(&"fen") => {
            if head.len() < 2 {
                return Err("position: missing FEN after 'fen'".into());
            }
            Ok((Some(head[1..].join(" ")), moves))
        }
        Some(other) => Err(format!(
            "position: expected 'startpos' or 'fen', got '{other}'"
        )),
        None => Err("position: expected 'startpos' or 'fen'".into()),
    }
}

/// A parsed `go`.
#[derive(Clone, Debug)]
pub enum Go {
    Perft(u32),
    /// A search; `searchmoves` still as given (named by the caller, who knows the game).
    Search(Limits<String>),
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Parse the arguments of `go`. Times are milliseconds; a negative `wtime`/`btime`/
/// `winc`/`binc` (some GUIs send one when a clock runs out) counts as 0. `searchmoves`
/// takes every following token up to the next keyword; the moves are checked against the
/// position by the caller.
pub fn parse_go(args: &[&str]) -> Result<Go, String> {
    if args.first() == Some(&"perft") {
        let max = crate::perft::MAX_DEPTH;
        let d = args
            .get(1)
            .ok_or("go perft: missing depth")?
            .parse::<u32>()
            .map_err(|_| format!("go perft: depth '{}' is not a number in 0..={max}", args[1]))?;
        // The same range as `tinh perft`.
        if d > max {
            return Err(format!("go perft: depth {d} is out of range 0..={max}"));
        }
        if args.len() > 2 {
            return Err(format!(
                "go perft: unexpected '{}' after the depth",
                args[2]
            ));
        }
        return Ok(Go::Perft(d));
    }
    let mut l = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let mut value = |what: &str| -> Result<&str, String> {
            let v = args
                .get(i)
                .copied()
                .filter(|v| !GO_KEYWORDS.contains(v))
                .ok_or_else(|| format!("go: '{key}' needs {what}"))?;
            i += 1;
            Ok(v)
        };
        match key {
            "wtime" | "btime" | "winc" | "binc" => {
                let v = value("a time in milliseconds")?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("go: {key} '{v}' is not a number"))?;
                let n = Some(n.max(0) as u64);
                match key {
                    "wtime" => l.wtime = n,
                    "btime" => l.btime = n,
                    "winc" => l.winc = n,
                    _ => l.binc = n,
                }
            }
            "movestogo" | "depth" | "mate" => {
                let v = value("a number")?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("go: {key} '{v}' is not a number in 1..={}", u32::MAX))?;
                if n == 0 {
                    return Err(format!("go: {key} must be at least 1"));
                }
                match key {
                    "movestogo" => l.movestogo = Some(n),
                    "depth" => l.depth = Some(n),
                    _ => l.mate = Some(n),
                }
            }
            "nodes" | "movetime" => {
                let v = value("a number")?;
                let n: u64 = v
                    .parse()
                    .map_err(|_| format!("go: {key} '{v}' is not a number in 1..={}", u64::MAX))?;
                if n == 0 {
                    return Err(format!("go: {key} must be at least 1"));
                }
                if key == "nodes" {
                    l.nodes = Some(n);
                } else {
                    l.movetime = Some(n);
                }
            }
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "searchmoves" => {
                let start = i;
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    l.searchmoves.push(args[i].to_string());
                    i += 1;
                }
                if i == start {
                    return Err("go: 'searchmoves' needs at least one move".into());
                }
            }
            "perft" => return Err("go: 'perft' must come first: go perft <depth>".into()),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(Go::Search(l))
}

/// Build a position of `variant`: the start or a FEN, the rule settings, then the moves.
/// Errors name what was wrong (the FEN, or which move and why).
pub fn build_position(
    variant: Variant,
    fen: Option<&str>,
    moves: &[&str],
    rules: &[(&str, i64)],
) -> Result<Position, String> {
    let mut pos = match fen {
        None => variant.startpos(),
        Some(f) => variant
            .from_fen(f)
            .map_err(|e| format!("bad {variant} FEN '{f}': {e}"))?,
    };
    // Rule settings (a point target) are part of the rules the moves are
    // played under (a move that reaches the target ends the game): set them first.
    pos.set_rule_options(rules);
    pos.apply_moves(moves.iter().copied())?;
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn go_parses_every_parameter() {
        let Go::Search(l) = parse_go(&toks(
            "wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3 nodes 500 mate 2 \
             movetime 99 searchmoves a1a2 b1b2 infinite ponder",
        ))
        .unwrap() else {
            panic!("not a search");
        };
        assert_eq!(l.wtime, Some(1000));
        assert_eq!(l.btime, Some(0));
        assert_eq!((l.winc, l.binc), (Some(10), Some(20)));
        assert_eq!(l.movestogo, Some(7));
        assert_eq!(l.depth, Some(3));
        assert_eq!(l.nodes, Some(500));
        assert_eq!(l.mate, Some(2));
        assert_eq!(l.movetime, Some(99));
        assert_eq!(l.searchmoves, vec!["a1a2", "b1b2"]);
        assert!(l.infinite && l.ponder);
        assert!(matches!(parse_go(&toks("perft 3")), Ok(Go::Perft(3))));
        assert!(matches!(parse_go(&toks("perft 20")), Ok(Go::Perft(20))));
        for bad in [
            "depth",
            "depth x",
            "depth 0",
            "depth -1",
            "nodes 1.5",
            "movetime infinite",
            "wtime abc",
            "searchmoves",
            "perft",
            "perft -1",
            "perft 2 3",
            "perft 21",
            "perft 4294967296",
            "depth 3 perft 2",
            "frobnicate",
        ] {
            assert!(parse_go(&toks(bad)).is_err(), "accepted 'go {bad}'");
        }
    }

    #[test]
    fn position_args() {
        assert_eq!(
            parse_position_args(&toks("startpos moves a b")).unwrap(),
            (None, vec!["a", "b"])
        );
        assert_eq!(
            parse_position_args(&toks("fen x y z w")).unwrap(),
            (Some("x y z w".to_string()), vec![])
        );
        assert!(parse_position_args(&toks("")).is_err());
        assert!(parse_position_args(&toks("fen")).is_err());
        assert!(parse_position_args(&toks("fen moves e2e4")).is_err());
        assert!(parse_position_args(&toks("startpos e2e4")).is_err());
        assert!(parse_position_args(&toks("start")).is_err());
    }
}
