//! What a game shows: the state the page draws (board, moves, legal moves, pools,
//! thinking, engine, result) and its PGN.

use super::*;
use crate::serve::view::{BoardView, Piece, PoolEntry, Style};
use tinh::arena::engine::{EngineScore, SearchInfo};
use tinh::arena::pgn;
use tinh::arena::referee::{GameJob, GameRecord, MoveRecord, Termination, pgn_date};
use tinh::game::MoveList;

impl Session {
    /// The whole state the page draws.
    pub fn state(&self) -> serde_json::Value {
        let names = self.side_names();
        let human_to_move = self.end.is_none() && !self.engine_to_move();
        let view = with_game!(&self.pos, g => view_of(g, human_to_move));
        let (files, ranks) = with_game!(&self.pos, g => g.dimensions());
        let engine = match &self.engine {
            _ if self.engine_player().is_none() => serde_json::json!({"status": "none"}),
            EngineSlot::Off => serde_json::json!({"status": "off"}),
            EngineSlot::Running {
                ready,
                note,
                searching,
                ..
            } => serde_json::json!({
                "status": if searching.is_some() { "thinking" } else if *ready { "ready" } else { "starting" },
                "note": note,
            }),
            EngineSlot::Dead(why) => serde_json::json!({"status": "dead", "message": why}),
        };
        let thinking = self.thinking.as_ref().map(|t| {
            serde_json::json!({
                "live": t.live,
                "label": if view.pools.is_some() { "expected value" } else { "score" },
                "score": score_text(&t.info, t.side, names),
                "bound": t.info.bound,
                "depth": t.info.depth,
                "seldepth": t.info.seldepth,
                "nodes": t.info.nodes,
                "nps": t.info.nps,
                "time_ms": t.info.time_ms,
                "pv": t.info.pv,
            })
        });
        let players: Vec<_> = self
            .players
            .iter()
            .map(|p| serde_json::json!({"kind": if *p == Player::Human { "human" } else { "tinh" }, "label": p.label()}))
            .collect();
        serde_json::json!({
            "id": self.id,
            "revision": self.revision,
            "variant": self.variant.name(),
            "title": view.title,
            "style": view.style,
            "files": files,
            "ranks": ranks,
            "sides": names,
            "players": players,
            "fen": self.pos.to_fen(),
            "start_fen": self.start_fen,
            "seed": self.seed.to_string(),
            "ply": self.moves.len(),
            "to_move": self.side_to_move(),
            "pieces": view.pieces,
            "moves": self.moves,
            "legal": view.legal,
            "pools": view.pools,
            "points": view.points,
            "check": view.check,
            "thinking": thinking,
            "engine": engine,
            "result": self.end,
            "message": self.message,
        })
    }

    /// The game in PGN, with the match runner's writer (moves in the game's notation,
    /// reveal letters included; Tinh's moves carry its score and depth).
    pub fn pgn(&self) -> String {
        let (first_points, result, reason, termination) = match &self.end {
            Some(e) => (
                match e.winner {
                    Some(0) => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                },
                e.result,
                e.text.clone(),
                Termination::Normal,
            ),
            None => (
                0.5,
                "*",
                "game in progress".to_string(),
                Termination::Unterminated,
            ),
        };
        let record = GameRecord {
            job: GameJob {
                number: 1,
                round: 1,
                players: [0, 1],
                start_fen: self.start_fen.clone(),
                seed: self.seed,
                pair: 0,
            },
            names: self.players.map(Player::label),
            start_fen: self.start_fen.clone(),
            moves: self
                .moves
                .iter()
                .map(|m| MoveRecord {
                    text: m.text.clone(),
                    info: search_info(m.info.as_ref()),
                    time_ms: m.time_ms,
                })
                .collect(),
            first_points,
            result,
            reason,
            termination,
            date: pgn_date(),
        };
        pgn::write_game(&record, self.variant, "Tinh board", "tinh serve", "-")
    }
}

/// The engine's info as the PGN comment wants it.
fn search_info(info: Option<&Info>) -> SearchInfo {
    let Some(i) = info else {
        return SearchInfo::default();
    };
    SearchInfo {
        score: i.mate.map(EngineScore::Mate).or(i.cp.map(EngineScore::Cp)),
        depth: (i.depth > 0).then_some(i.depth),
    }
}

/// A score for people: the side ahead and by how much (`Red +1.20`), or who wins in how
/// many moves; `info` is from the point of view of `side`, the side that searched.
pub(super) fn score_text(info: &Info, side: usize, names: [&str; 2]) -> String {
    if let Some(m) = info.mate {
        let winner = if m > 0 { side } else { 1 - side };
        return format!("{} wins in {}", names[winner], m.abs());
    }
    let cp = info.cp.unwrap_or(0);
    if cp == 0 {
        return "even (0.00)".to_string();
    }
    let ahead = if cp > 0 { side } else { 1 - side };
    format!("{} +{:.2}", names[ahead], cp.abs() as f64 / 100.0)
}

/// The position as the page draws it.
struct View {
    title: &'static str,
    style: Style,
    pieces: Vec<Piece>,
    legal: Vec<Legal>,
    pools: Option<[Vec<PoolEntry>; 2]>,
    points: Option<[u32; 2]>,
    check: Option<String>,
}

fn view_of<G: BoardView>(g: &G, with_moves: bool) -> View {
    let mut legal = Vec::new();
    if with_moves {
        let mut list = MoveList::new();
        g.generate_moves(&mut list);
        let mut chances = ChanceList::default();
        for &mv in list.iter() {
            let (from, to) = g.squares(mv);
            chances.clear();
            legal.push(Legal {
                uci: g.move_to_string(mv),
                from,
                to,
                promotion: g.promotion(mv),
                capture: g.is_capture(mv),
                reveals: g.chance(mv, &mut chances),
                arithmetic: g.arithmetic(mv),
            });
        }
    }
    View {
        title: g.title(),
        style: g.style(),
        pieces: g.pieces(),
        legal,
        pools: g.pools(),
        points: g.points_captured(),
        check: g.check_square(),
    }
}
