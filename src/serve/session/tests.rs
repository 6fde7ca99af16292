//! The referee, undo, engine answers, ends and PGN of one game, without a server.

use super::report::score_text;
use super::*;

fn session(v: Variant, players: [Player; 2]) -> Session {
    Session::new("t".into(), v, None, players, 7).unwrap()
}

#[test]
fn players_parse_with_clear_errors() {
    assert_eq!(Player::parse("human"), Ok(Player::Human));
    assert_eq!(Player::parse("tinh"), Ok(Player::Tinh(None)));
    assert_eq!(Player::parse("tinh-5"), Ok(Player::Tinh(Some(5))));
    for bad in ["tinh-0", "tinh-6", "Tinh", "", "robot"] {
        assert!(Player::parse(bad).unwrap_err().contains("unknown player"));
    }
}

#[test]
fn moves_are_refereed_and_undone() {
    let mut s = session(Variant::MathChess, [Player::Human, Player::Human]);
    let e = s.play_human("e1e3", None).unwrap_err();
    assert_eq!(e.status, 400);
    assert!(e.message.contains("a 5 cannot move from e1 to e3"), "{e:?}");
    s.play_human("c1c4", Some(0)).unwrap();
    assert_eq!(s.play_human("g11g8", Some(0)).unwrap_err().status, 409);
    s.play_human("g11g8", Some(1)).unwrap();
    assert_eq!(s.moves.len(), 2);
    s.undo().unwrap();
    assert_eq!(s.moves.len(), 1);
    assert_eq!(s.side_to_move(), 1);
    s.undo().unwrap();
    assert_eq!(s.pos.to_fen(), s.start_fen);
    assert_eq!(s.undo().unwrap_err().status, 409);
}

#[test]
fn reveals_are_drawn_from_the_pool_with_the_seed() {
    let texts = |seed| {
        let mut s = Session::new(
            "t".into(),
            Variant::RevealChess,
            None,
            [Player::Human, Player::Human],
            seed,
        )
        .unwrap();
        for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            s.play_human(m, None).unwrap();
        }
        let r = s.moves[0].reveal.clone().unwrap();
        assert_eq!(r.total, 15);
        s.moves.iter().map(|m| m.text.clone()).collect::<Vec<_>>()
    };
    assert_eq!(texts(11), texts(11));
    assert!((0..20).any(|seed| texts(seed) != texts(11)));
    let t = texts(11);
    assert!(
        t.iter()
            .all(|m| m.len() == 5 && m.ends_with(char::is_uppercase))
    );
}

#[test]
fn against_tinh_undo_returns_to_the_persons_turn() {
    let mut s = session(Variant::Chess, [Player::Human, Player::Tinh(Some(1))]);
    s.play_human("e2e4", None).unwrap();
    assert!(s.engine_to_move());
    assert_eq!(
        s.play_human("e7e5", None).unwrap_err().message,
        "it is Tinh's turn: wait for its move"
    );
    // The engine's answer arrives for the current ticket.
    s.on_engine(Event::BestMove {
        ticket: s.ticket,
        text: "e7e5".into(),
    });
    assert_eq!(s.moves.len(), 2);
    // A late answer to an older position is ignored.
    s.on_engine(Event::BestMove {
        ticket: 0,
        text: "d7d5".into(),
    });
    assert_eq!(s.moves.len(), 2);
    s.undo().unwrap();
    assert_eq!(s.moves.len(), 0);
    assert!(!s.engine_to_move());
}

#[test]
fn a_finished_game_refuses_moves_and_names_the_winner() {
    let mut s = Session::new(
        "t".into(),
        Variant::Chess,
        Some("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"),
        [Player::Human, Player::Human],
        1,
    )
    .unwrap();
    s.play_human("d8h4", None).unwrap();
    let end = s.end.clone().unwrap();
    assert_eq!(end.text, "Black wins: checkmate");
    assert_eq!(end.result, "0-1");
    assert_eq!(s.play_human("a2a3", None).unwrap_err().status, 409);
    let pgn = s.pgn();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("d8h4"), "{pgn}");
}

#[test]
fn bad_set_ups_are_refused() {
    let e = Session::new(
        "t".into(),
        Variant::MathChess,
        Some("nonsense"),
        [Player::Human, Player::Human],
        1,
    )
    .err()
    .unwrap();
    assert!(e.message.starts_with("bad mathchess FEN"), "{e:?}");
    let e = Session::new(
        "t".into(),
        Variant::Chess,
        None,
        [Player::Tinh(None), Player::Tinh(Some(1))],
        1,
    )
    .err()
    .unwrap();
    assert!(e.message.contains("at most one side"));
}

#[test]
fn scores_read_as_who_is_ahead() {
    let names = ["Blue", "Red"];
    let cp = |v| Info {
        cp: Some(v),
        ..Info::default()
    };
    assert_eq!(score_text(&cp(35), 0, names), "Blue +0.35");
    assert_eq!(score_text(&cp(35), 1, names), "Red +0.35");
    assert_eq!(score_text(&cp(-120), 1, names), "Blue +1.20");
    assert_eq!(score_text(&cp(0), 1, names), "even (0.00)");
    let mate = Info {
        mate: Some(-2),
        ..Info::default()
    };
    assert_eq!(score_text(&mate, 0, names), "Red wins in 2");
}
