"""python-chess drives Tinh (chess mode) as a real UCI client: handshake, options,
`position ... moves`, `go` with depth, nodes and clocks, `analyse`, `quit`.

Usage: python3 python_chess_play.py PATH_TO_TINH. Exit 77 (with a message) when the
`chess` package is missing, so the Rust test that runs this can report a skip.
"""
import sys

try:
    import chess
    import chess.engine
except ImportError:
    print("python-chess is not installed (python3 -m pip install chess)")
    sys.exit(77)

tinh = sys.argv[1]
board = chess.Board()
limits = [
    chess.engine.Limit(depth=2),
    chess.engine.Limit(nodes=2000),
    chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.02, black_inc=0.02),
    chess.engine.Limit(time=0.05),
]
with chess.engine.SimpleEngine.popen_uci([tinh, "--variant", "chess"], timeout=60) as engine:
    assert engine.id.get("name", "").startswith("Tinh"), engine.id
    assert "Hash" in engine.options and "Threads" in engine.options, engine.options
    engine.configure({"Hash": 16, "Threads": 1})
    for ply in range(20):
        if board.is_game_over():
            break
        result = engine.play(board, limits[ply % len(limits)])
        assert result.move is not None, "engine gave no move in %s" % board.fen()
        assert result.move in board.legal_moves, "illegal %s in %s" % (result.move, board.fen())
        board.push(result.move)
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert "score" in info and info.get("pv"), info
    assert info["pv"][0] in board.legal_moves, info
    # A mate in one is found and scored as a mate.
    mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    result = engine.play(mate, chess.engine.Limit(depth=3), info=chess.engine.INFO_SCORE)
    assert result.move == chess.Move.from_uci("a1a8"), result
print("game ok:", board.fen(), " ".join(m.uci() for m in board.move_stack))
