//! `tinh serve` as a server, run as a process on 127.0.0.1: bad requests and illegal moves
//! get clear errors and change nothing; many games at once keep their own state; an engine
//! killed mid-game is reported and restarts; engines stop when their page goes away;
//! games and processes stay within bounds however long the server runs.

mod serve_support;

use serde_json::{Value, json};
use serve_support::{Events, Server, children_of, http};
use std::time::{Duration, Instant};

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

#[test]
fn bad_requests_get_clear_errors() {
    let s = Server::start(&[]);
    let post = |path: &str, body: &str| s.request("POST", path, Some(body));
    let check = |r: serve_support::Response, status: u16, says: &str| {
        assert_eq!(r.status, status, "{}", r.body);
        let v: Value = serde_json::from_str(&r.body).expect("errors are JSON");
        assert!(
            error_of(&v).contains(says),
            "'{}' should say '{says}'",
            r.body
        );
    };
    check(
        post("/api/games", "{\"variant\":"),
        400,
        "malformed request",
    );
    check(post("/api/games", "[1, 2]"), 400, "malformed request");
    check(
        post(
            "/api/games",
            r#"{"variant":"chess","players":["human","human"],"colour":1}"#,
        ),
        400,
        "unknown field `colour`",
    );
    check(
        post(
            "/api/games",
            r#"{"variant":"xiangqi","players":["human","human"]}"#,
        ),
        400,
        "unknown variant 'xiangqi'",
    );
    check(
        post(
            "/api/games",
            r#"{"variant":"chess","players":["human","robot"]}"#,
        ),
        400,
        "unknown player 'robot'",
    );
    check(
        post(
            "/api/games",
            r#"{"variant":"chess","players":["tinh","tinh-2"]}"#,
        ),
        400,
        "at most one side can be Tinh",
    );
    check(
        post(
            "/api/games",
            r#"{"variant":"revealchess","players":["human","human"],"fen":"4k3/8/8/8/8/8/8/X3K3 w - - 0 1"}"#,
        ),
        400,
        "bad revealchess FEN",
    );
    check(
        post(
            "/api/games",
            r#"{"variant":"mathchess","players":["human","human"],"fen":"9/9 b"}"#,
        ),
        400,
        "bad mathchess FEN",
    );
    check(
        s.request("GET", "/api/games/0123456789abcdef", None),
        404,
        "no game '0123456789abcdef'",
    );
    check(
        post("/api/games/0123/move", r#"{"move":"e2e4"}"#),
        404,
        "no game",
    );
    check(s.request("GET", "/etc/passwd", None), 404, "not found");
    check(s.request("GET", "/../Cargo.toml", None), 404, "not found");
    // A body too large for any request.
    let big = format!(
        r#"{{"variant":"chess","players":["human","human"],"fen":"{}"}}"#,
        "x".repeat(40_000)
    );
    let r = post("/api/games", &big);
    assert_eq!(r.status, 413, "{}", r.body);
    // Not JSON, another site, another host name.
    let r = http(
        &s.addr,
        "POST",
        "/api/games",
        &[("Content-Type", "text/plain")],
        Some("{}"),
    );
    check(r, 415, "Content-Type: application/json");
    let json_ct = ("Content-Type", "application/json");
    let body = r#"{"variant":"chess","players":["human","human"]}"#;
    let r = http(
        &s.addr,
        "POST",
        "/api/games",
        &[json_ct, ("Origin", "http://evil.example")],
        Some(body),
    );
    check(r, 403, "requests from other sites");
    let r = http(
        &s.addr,
        "GET",
        "/api/health",
        &[("Host", "rebound.example:80")],
        None,
    );
    check(r, 403, "answers only to 127.0.0.1");
    let r = s.request("DELETE", "/api/health", None);
    assert_eq!(r.status, 405);
    // None of this made a game.
    assert_eq!(s.health()["games"], 0);
    // The page and its own assets are served, with a strict content policy.
    let page = s.request("GET", "/", None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<svg id=\"board\""));
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .contains("default-src 'self'")
    );
    for (path, ct) in [
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/icon.svg", "image/svg+xml"),
    ] {
        let r = s.request("GET", path, None);
        assert_eq!(r.status, 200, "{path}");
        assert!(r.header("content-type").unwrap().starts_with(ct), "{path}");
    }
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let s = Server::start(&[]);
    let g = s.new_game("mathchess", ["human", "human"]);
    let id = g["id"].as_str().unwrap();
    let fen = g["fen"].clone();
    let mv = |body: Value| s.json("POST", &format!("/api/games/{id}/move"), Some(body));
    let (st, v) = mv(json!({"move": "e1e3"}));
    assert_eq!(st, 400);
    assert_eq!(
        error_of(&v),
        "illegal move 'e1e3': a 5 cannot move from e1 to e3"
    );
    let (st, v) = mv(json!({"move": "zz99"}));
    assert_eq!(st, 400);
    assert!(error_of(&v).contains("malformed move 'zz99'"), "{v}");
    let (st, v) = mv(json!({"move": "c11c8"}));
    assert_eq!(st, 400);
    assert!(error_of(&v).contains("not the side to move's"), "{v}");
    let (st, v) = mv(json!({"move": "c1c4", "ply": 3}));
    assert_eq!(st, 409);
    assert!(error_of(&v).contains("position changed"), "{v}");
    let (st, v) = mv(json!({"move": 7}));
    assert_eq!(st, 400);
    assert!(error_of(&v).contains("malformed request"), "{v}");
    assert_eq!(s.state(id)["fen"], fen, "refused moves change nothing");
    let (st, v) = s.json("POST", &format!("/api/games/{id}/undo"), Some(json!({})));
    assert_eq!((st, error_of(&v)), (409, "nothing to undo"));
    let (st, _) = mv(json!({"move": "c1c4", "ply": 0}));
    assert_eq!(st, 200);

    // Reveal Chess: the server draws the reveal; a page cannot choose it.
    let g = s.new_game("revealchess", ["human", "human"]);
    let id = g["id"].as_str().unwrap();
    let (st, v) = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e2e4Q"})),
    );
    assert_eq!(st, 400, "{v}");
    assert!(error_of(&v).starts_with("'e2e4Q'"), "{v}");
    assert_eq!(s.state(id)["ply"], 0);

    // A finished game takes no more moves.
    let (st, g) = s.json(
        "POST",
        "/api/games",
        Some(json!({"variant": "chess", "players": ["human", "human"],
            "fen": "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"})),
    );
    assert_eq!(st, 201);
    let id = g["id"].as_str().unwrap();
    let (_, v) = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "d8h4"})),
    );
    assert_eq!(v["result"]["text"], "Black wins: checkmate");
    let (st, v) = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "a2a3"})),
    );
    assert_eq!(st, 409);
    assert!(
        error_of(&v).contains("the game is over (Black wins: checkmate)"),
        "{v}"
    );
}

/// Play `plies` plies of a game against Tinh level 1: the person's moves are the first
/// legal move listed; returns the final state.
fn play_against_level_1(s: &Server, id: &str, plies: usize) -> Value {
    loop {
        let st = s.wait_state(id, 20, |v| {
            v["result"].is_object()
                || v["ply"].as_u64() >= Some(plies as u64)
                || v["legal"].as_array().is_some_and(|l| !l.is_empty())
        });
        if st["result"].is_object() || st["ply"].as_u64() >= Some(plies as u64) {
            return st;
        }
        let m = st["legal"][0]["uci"].as_str().unwrap().to_string();
        let (status, v) = s.json(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({"move": m, "ply": st["ply"]})),
        );
        assert_eq!(status, 200, "{v}");
    }
}

#[test]
fn many_games_at_once_keep_their_own_state() {
    let s = Server::start(&[]);
    let variants = ["mathchess", "revealchess", "chess"];
    let results: Vec<(String, String, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..12)
            .map(|i| {
                let s = &s;
                scope.spawn(move || {
                    let v = variants[i % 3];
                    let players = if i % 2 == 0 {
                        ["human", "tinh-1"]
                    } else {
                        ["tinh-1", "human"]
                    };
                    let g = s.new_game(v, players);
                    let id = g["id"].as_str().unwrap().to_string();
                    let st = play_against_level_1(s, &id, 6);
                    let moves = st["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m["text"].as_str().unwrap().to_string())
                        .collect();
                    (id, v.to_string(), moves)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut ids: Vec<&String> = results.iter().map(|r| &r.0).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 12, "every game has its own id");
    for (id, variant, moves) in &results {
        assert!(moves.len() >= 6, "{variant} {id}: {moves:?}");
        let st = s.state(id);
        assert_eq!(st["variant"], variant.as_str());
        // Each game's position is its own moves from its own start.
        let again: Vec<String> = st["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(&again[..moves.len()], &moves[..]);
        let pgn = s.request("GET", &format!("/api/games/{id}/pgn"), None);
        assert!(pgn.body.contains(&format!("[Variant \"{variant}\"]")));
        assert!(pgn.body.contains(&moves[0]), "{}", pgn.body);
    }
    let h = s.health();
    assert_eq!(h["games"], 12);
    assert_eq!(h["engines"], 12);
    assert_eq!(s.engine_pids().len(), 12, "one engine process per game");
}

fn kill(pid: u32) {
    let ok = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "kill -9 {pid}");
}

#[test]
fn an_engine_that_dies_mid_game_is_reported_and_restarts() {
    let s = Server::start(&[]);
    // Tinh at full strength thinks for seconds: long enough to die while thinking.
    let g = s.new_game("chess", ["human", "tinh"]);
    let id = g["id"].as_str().unwrap();
    let (st, _) = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e2e4"})),
    );
    assert_eq!(st, 200);
    s.wait_state(id, 10, |v| {
        v["engine"]["status"] == "thinking" && v["thinking"].is_object()
    });
    let pids = s.engine_pids();
    assert_eq!(pids.len(), 1);
    kill(pids[0]);
    let dead = s.wait_state(id, 10, |v| v["engine"]["status"] == "dead");
    let why = dead["engine"]["message"].as_str().unwrap();
    assert!(why.contains("exited") || why.contains("closed"), "{why}");
    assert_eq!(dead["ply"], 1, "the game is kept as it was");
    assert_eq!(dead["thinking"]["live"], false);
    // Nobody can move for Tinh; the person can take back or restart it.
    let (st, v) = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e7e5"})),
    );
    assert_eq!(
        (st, error_of(&v)),
        (409, "it is Tinh's turn: wait for its move")
    );
    let (st, v) = s.json("POST", &format!("/api/games/{id}/engine"), Some(json!({})));
    assert_eq!(st, 200, "{v}");
    let after = s.wait_state(id, 15, |v| v["ply"] == 2);
    assert_eq!(after["moves"][1]["by_engine"], true);
    assert_eq!(after["engine"]["status"], "ready");
    assert_eq!(
        s.engine_pids().len(),
        1,
        "the dead engine was replaced, not added to"
    );
    let (st, v) = s.json("POST", &format!("/api/games/{id}/engine"), Some(json!({})));
    assert_eq!((st, error_of(&v)), (409, "Tinh's engine is running"));
}

#[test]
fn engines_stop_when_their_page_goes_away() {
    let s = Server::start(&["--engine-idle", "1", "--game-idle", "4"]);
    let g = s.new_game("mathchess", ["human", "tinh-1"]);
    let id = g["id"].as_str().unwrap().to_string();
    let mut page = Events::open(&s.addr, &id);
    let (name, data) = page.next(10).expect("the first state");
    assert_eq!(name, "state");
    let first: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(first["ply"], 0);
    // A move is pushed to the page, then Tinh's answer.
    let (st, _) = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "c1c4"})),
    );
    assert_eq!(st, 200);
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, data) = page.next(10).expect("a state after the moves");
        let v: Value = serde_json::from_str(&data).unwrap();
        if v["ply"] == 2 {
            break;
        }
        assert!(Instant::now() < until);
    }
    assert_eq!(s.engine_pids().len(), 1);
    // While the page stays, the engine stays (longer than the idle time).
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(s.engine_pids().len(), 1, "a watched game keeps its engine");
    // The browser goes away: the engine process is stopped, the game kept for a while.
    drop(page);
    wait_for("the engine to stop", 10, || s.engine_pids().is_empty());
    assert_eq!(s.health()["engines"], 0);
    let st = s.state(&id);
    assert_eq!(st["engine"]["status"], "off");
    assert_eq!(st["ply"], 2);
    // Coming back starts it again when it is needed; then left alone, the game goes.
    let m = st["legal"][0]["uci"].clone();
    let (code, _) = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": m})),
    );
    assert_eq!(code, 200);
    s.wait_state(&id, 10, |v| v["ply"] == 4);
    wait_for("the game to be forgotten", 15, || s.health()["games"] == 0);
    assert!(s.engine_pids().is_empty());
    let (code, v) = s.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(code, 404, "{v}");
}

#[test]
fn closing_a_game_ends_its_stream_and_its_engine() {
    let s = Server::start(&[]);
    let g = s.new_game("revealchess", ["tinh-1", "human"]);
    let id = g["id"].as_str().unwrap();
    let mut page = Events::open(&s.addr, id);
    assert!(page.next(10).is_some());
    s.wait_state(id, 10, |v| v["ply"] == 1);
    assert_eq!(s.engine_pids().len(), 1);
    let r = s.request("DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(r.status, 204);
    let mut closed = false;
    while let Some((name, _)) = page.next(5) {
        if name == "closed" {
            closed = true;
            break;
        }
    }
    assert!(closed, "the page is told the game was closed");
    wait_for("the engine to quit", 10, || s.engine_pids().is_empty());
    assert_eq!(
        s.request("DELETE", &format!("/api/games/{id}"), None)
            .status,
        404
    );
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn wait_for(what: &str, secs: u64, cond: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(secs);
    while !cond() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_long_run_stays_within_its_bounds() {
    let s = Server::start(&["--max-games", "6", "--engine-idle", "1", "--game-idle", "3"]);
    // Games nobody closes: the oldest unwatched game makes room for a new one.
    let mut ids = Vec::new();
    for i in 0..15 {
        let players = if i % 3 == 0 {
            ["human", "tinh-1"]
        } else {
            ["human", "human"]
        };
        let g = s.new_game(["mathchess", "revealchess", "chess"][i % 3], players);
        ids.push(g["id"].as_str().unwrap().to_string());
        let h = s.health();
        assert!(h["games"].as_u64() <= Some(6), "{h}");
        assert!(s.engine_pids().len() <= 6);
    }
    assert_eq!(s.state(&ids[14])["ply"], 0, "the newest game is there");
    let (code, _) = s.json("GET", &format!("/api/games/{}", ids[0]), None);
    assert_eq!(code, 404, "the oldest was forgotten");
    // When every game is watched, a new one is refused with a clear reason.
    let watched: Vec<Events> = ids[9..]
        .iter()
        .map(|id| {
            let mut e = Events::open(&s.addr, id);
            assert!(e.next(10).is_some());
            e
        })
        .collect();
    let (code, v) = s.json(
        "POST",
        "/api/games",
        Some(json!({"variant": "chess", "players": ["human", "human"]})),
    );
    assert_eq!(code, 503, "{v}");
    assert!(error_of(&v).contains("limit of 6 games"), "{v}");
    drop(watched);
    // The server notices a closed stream a moment after the client drops it, not at
    // once (a clean-clone CI run under load lost that race): wait, at most 10 s, until an
    // unwatched game makes room again.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (code, v) = s.json(
            "POST",
            "/api/games",
            Some(json!({"variant": "chess", "players": ["human", "human"]})),
        );
        if code != 503 {
            assert!(v["id"].is_string(), "{v}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{v}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }

    // Many short games played and closed: the server's memory does not grow with them.
    let cycle = |n: usize| {
        for i in 0..n {
            let g = s.new_game(
                ["mathchess", "revealchess", "chess"][i % 3],
                ["human", "human"],
            );
            let id = g["id"].as_str().unwrap();
            let m = g["legal"][0]["uci"].as_str().unwrap();
            let (code, _) = s.json(
                "POST",
                &format!("/api/games/{id}/move"),
                Some(json!({"move": m})),
            );
            assert_eq!(code, 200);
            assert_eq!(
                s.request("DELETE", &format!("/api/games/{id}"), None)
                    .status,
                204
            );
        }
    };
    cycle(100);
    let before = rss_kib(s.pid());
    cycle(300);
    let after = rss_kib(s.pid());
    eprintln!("server memory: {before} KiB after 100 games, {after} KiB after 400");
    assert!(
        after < before + 4096,
        "memory grew from {before} KiB to {after} KiB over 300 games"
    );
    // Left alone, everything is reclaimed.
    wait_for("every game to be forgotten", 15, || {
        s.health()["games"] == 0
    });
    assert!(children_of(s.pid()).is_empty());
}
