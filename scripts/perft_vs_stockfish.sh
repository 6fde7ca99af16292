#!/usr/bin/env bash
# Standard-chess perft speed, Tinh against Stockfish's own `go perft`, side by side in one
# run, single thread each: start position depth 6 and Kiwipete depth 5 (default), both
# counts checked against each other. Prints nodes/s for each and the ratio Tinh / Stockfish.
# Usage: scripts/perft_vs_stockfish.sh [runs]   (best of `runs`, default 3)
#        TINH=target/native/release/tinh scripts/perft_vs_stockfish.sh   (another build,
#        e.g. the native one from `cargo native`; by default the portable release build)
# Stockfish here is whatever `stockfish` is installed (Debian's package: 15.1, built for
# plain x86-64 with SSE2 only); the script prints its version line so that a figure says
# what it was measured against.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
SF=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$SF" ] || { echo "stockfish not found (apt-get install -y stockfish)" >&2; exit 1; }
if [ -z "${TINH:-}" ]; then
  cargo build --release --quiet
  TINH=target/release/tinh
fi
echo "tinh: $TINH; stockfish: $SF ($(echo quit | "$SF" 2>/dev/null | head -1))"
now() { date +%s.%N; }
declare -A POS=(
  [startpos]="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
  [kiwipete]="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
)
for name in startpos kiwipete; do
  fen=${POS[$name]%|*}; depth=${POS[$name]#*|}
  best_t=999999; best_s=999999
  for _ in $(seq "$RUNS"); do
    t0=$(now)
    tn=$("$TINH" perft --variant chess --fen "$fen" "$depth" 2>/dev/null | awk '/Nodes searched/ {print $3}')
    t1=$(now)
    sn=$(printf 'uci\nsetoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$fen" "$depth" \
      | "$SF" 2>/dev/null | awk '/Nodes searched/ {print $3}')
    t2=$(now)
    [ "$tn" = "$sn" ] || { echo "$name: node counts differ: tinh $tn stockfish $sn" >&2; exit 1; }
    best_t=$(echo "$t1 - $t0" | bc -l | awk -v b="$best_t" '{print ($1 < b) ? $1 : b}')
    best_s=$(echo "$t2 - $t1" | bc -l | awk -v b="$best_s" '{print ($1 < b) ? $1 : b}')
  done
  awk -v n="$tn" -v tt="$best_t" -v ts="$best_s" -v name="$name" -v d="$depth" 'BEGIN {
    printf "%-9s depth %d: %d nodes | tinh %.3f s %.1f Mnps | stockfish %.3f s %.1f Mnps | ratio tinh/stockfish %.2f\n",
      name, d, n, tt, n/tt/1e6, ts, n/ts/1e6, ts/tt }'
done
