#!/usr/bin/env python3
"""A fake engine for the match runner's tests: speaks Tinh's UCI-style protocol and plays
legal moves (it asks `tinh perft 1` for the legal moves of the position, so it needs no
rules of its own), then misbehaves on purpose on its N-th `go` of each game.

Usage: fake_engine.py --tinh PATH [--mode good|illegal|crash|hang|slow] [--after N]
                      [--sleep MS] [--name NAME] [--score CP] [--salt S]
  good     always plays a legal move (chosen by a hash of the position and the salt:
           deterministic; two salts, two different players)
  illegal  on go number N plays a well-formed move that is not legal there
  crash    on go number N exits without answering
  hang     on go number N never answers (still answers isready)
  slow     on go number N sleeps MS milliseconds before answering (oversteps its clock)
"""
import argparse
import subprocess
import sys
import time
import zlib

ap = argparse.ArgumentParser()
ap.add_argument("--tinh", required=True)
ap.add_argument("--mode", default="good")
ap.add_argument("--after", type=int, default=0)
ap.add_argument("--sleep", type=int, default=1000)
ap.add_argument("--name", default=None)
ap.add_argument("--score", type=int, default=0, help="score cp it reports on every move")
ap.add_argument("--salt", default="", help="mixed into the hash that picks the move")
a = ap.parse_args()

variant = "mathchess"
fen = None
moves = []
gos = 0


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def legal_moves():
    cmd = [a.tinh, "--variant", variant, "perft", "1"]
    if fen:
        cmd += ["--fen", fen]
    if moves:
        cmd += ["--moves", " ".join(moves)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    res = []
    for line in r.stdout.splitlines():
        if ":" in line and not line.startswith("Nodes"):
            m = line.split(":")[0].strip()
            # A reveal letter (upper case, last) is chance, not the player's choice.
            if m and m[-1].isupper():
                m = m[:-1]
            if m not in res:
                res.append(m)
    return res


def pick(legal):
    h = zlib.crc32((a.salt + str(fen) + " " + " ".join(moves)).encode())
    return legal[h % len(legal)]


for raw in sys.stdin:
    line = raw.strip()
    w = line.split()
    if not w:
        continue
    cmd = w[0]
    if cmd == "uci":
        out("id name " + (a.name or ("fake-" + a.mode)))
        out("id author tests")
        out("option name UCI_Variant type combo default mathchess var mathchess var revealchess var chess")
        out("option name PointTarget type spin default 0 min 0 max 45")
        out("uciok")
    elif cmd == "isready":
        out("readyok")
    elif cmd == "setoption":
        if len(w) >= 5 and w[2] == "UCI_Variant":
            variant = w[4]
    elif cmd == "ucinewgame":
        gos = 0
    elif cmd == "position":
        if w[1] == "fen":
            k = w.index("moves") if "moves" in w else len(w)
            fen = " ".join(w[2:k])
            moves = w[k + 1:]
        else:
            fen = None
            moves = w[w.index("moves") + 1:] if "moves" in w else []
    elif cmd == "go":
        n = gos
        gos += 1
        bad = a.mode != "good" and n == a.after
        if bad and a.mode == "crash":
            sys.exit(3)
        if bad and a.mode == "hang":
            continue
        if bad and a.mode == "slow":
            time.sleep(a.sleep / 1000.0)
        legal = legal_moves()
        if bad and a.mode == "illegal":
            for m in ["e2e3", "e10e9", "e1e3", "e8e6", "a1a1"]:
                if m not in legal:
                    out("bestmove " + m)
                    break
            continue
        out("info depth 1 score cp %d nodes 1 pv %s" % (a.score, legal[0] if legal else ""))
        out("bestmove " + (pick(legal) if legal else "(none)"))
    elif cmd == "quit":
        break
