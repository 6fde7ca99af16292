#!/usr/bin/env bash
# Compare `tinh bench` speed of two builds on a busy machine: runs them alternately N
# times and reports each one's best (highest) nps, the figure least disturbed by other
# load, with the node counts (which must be equal when the change keeps the search).
# Usage: scripts/bench_compare.sh OLD_BINARY NEW_BINARY [RUNS] [bench args...]
set -euo pipefail
old=$1 new=$2 runs=${3:-5}
shift 3 || shift $#
best() { sort -n | tail -1; }
o=() n=()
for _ in $(seq "$runs"); do
  o+=("$("$old" bench "$@" 2>/dev/null | tail -1)")
  n+=("$("$new" bench "$@" 2>/dev/null | tail -1)")
done
on=$(printf '%s\n' "${o[@]}" | awk '{print $3}' | best)
nn=$(printf '%s\n' "${n[@]}" | awk '{print $3}' | best)
printf 'old: %s nodes, best %s nps\n' "$(echo "${o[0]}" | awk '{print $1}')" "$on"
printf 'new: %s nodes, best %s nps\n' "$(echo "${n[0]}" | awk '{print $1}')" "$nn"
awk -v a="$on" -v b="$nn" 'BEGIN { printf "new/old: %.3f\n", b / a }'
