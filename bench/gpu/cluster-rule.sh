#!/usr/bin/env bash
# The cost model's cluster picks against its picks without clusters, on the
# GPU machine: every kernel verified against cuBLAS (one process each, a
# time limit each), then ROUNDS tile-run bench runs of the folder (NAME and
# NAME_u next to each other). Writes $OUT/verify.txt, $OUT/bench-R.csv.
#
#   bench/gpu/cluster-rule.sh DIR ROUNDS
set -uo pipefail
[[ $# -eq 2 ]] || { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
OUT=${OUT:-/tmp/cluster-rule} bench/gpu/persistent.sh "$1" "$2" ""
