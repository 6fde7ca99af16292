#!/usr/bin/env bash
# Lazy SMP: time to reach a fixed depth with T threads against 1, on the same positions,
# each run in a fresh process with a fresh table. Prints each time and the speedup.
# Usage: scripts/smp_speedup.sh [threads] [runs]   (default 2 threads, best of 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-2}
RUNS=${2:-3}
cargo build --release --quiet
TINH=target/release/tinh
# variant|depth|fen ("-" for the start position)
POSITIONS=(
  "mathchess|11|-"
  "mathchess|10|r91r72r4r3r2r1/4r0r53/3r85/9/9/9/b48/r65b72/1b26b6/4b04/b11b31b52b8b9 b 7"
  "chess|13|-"
  "chess|12|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "chess|12|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
)
best_time() { # variant depth fen threads
  local best=999999 t
  for _ in $(seq "$RUNS"); do
    local args=(analyse --variant "$1" --depth "$2" --threads "$4" --hash 64)
    [ "$3" = "-" ] || args+=(--fen "$3")
    t=$("$TINH" "${args[@]}" 2>/dev/null | awk '/^best move:/ {print $(NF-1)}')
    best=$(awk -v a="$t" -v b="$best" 'BEGIN {print (a < b) ? a : b}')
  done
  echo "$best"
}
sum1=0; sumt=0
for p in "${POSITIONS[@]}"; do
  IFS='|' read -r variant depth fen <<<"$p"
  t1=$(best_time "$variant" "$depth" "$fen" 1)
  tt=$(best_time "$variant" "$depth" "$fen" "$T")
  printf '%-10s depth %2s  1 thread %7.2f s  %s threads %7.2f s  speedup %.2f  %s\n' \
    "$variant" "$depth" "$t1" "$T" "$tt" "$(awk -v a="$t1" -v b="$tt" 'BEGIN {print a / b}')" "$fen"
  sum1=$(awk -v a="$sum1" -v b="$t1" 'BEGIN {print a + b}')
  sumt=$(awk -v a="$sumt" -v b="$tt" 'BEGIN {print a + b}')
done
echo "total: 1 thread ${sum1} s, $T threads ${sumt} s, speedup $(awk -v a="$sum1" -v b="$sumt" 'BEGIN {printf "%.2f", a / b}')"
