#!/usr/bin/env bash
# Strength of each search feature: Tinh against Tinh with that feature switched off
# (the Search_* options), in games from the opening suites. Prints each match's summary.
# Usage: scripts/feature_matches.sh [games] [tc] [concurrency]
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-40}
TC=${2:-2+0.05}
CONC=${3:-2}
cargo build --release --quiet
TINH=target/release/tinh
run() { # variant feature
  local variant=$1 feature=$2
  echo "== $variant: Tinh vs Tinh without $feature ($GAMES games, tc $TC)"
  "$TINH" match --variant "$variant" --engine cmd="$TINH" name=tinh \
    --engine cmd="$TINH" name="no-$feature" "option.Search_$feature=false" \
    --openings "openings/$variant.epd" --order random --seed 7 --games "$GAMES" \
    --tc "$TC" --concurrency "$CONC" --maxmoves 150 --ratinginterval 0 2>/dev/null \
    | grep -v '^Finished game'
}
for f in NullMove LMR Futility Aspiration; do run mathchess "$f"; done
for f in NullMove LMR Futility; do run chess "$f"; done
run revealchess ChancePruning
