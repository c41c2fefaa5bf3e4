#!/usr/bin/env bash
# 1x2 clusters and rows off 128-byte lines, on the GPU machine, in one
# call: every kernel of the cluster folders verified against cuBLAS (one
# process each, a time limit each), memcheck on SAMPLE manifests, the
# lines folder verified and timed (tile-run bench, cuBLAS in the same
# run), then the cluster pairs folder timed in as many of ROUNDS runs as
# the time left allows. Writes $OUT/verify.txt, $OUT/memcheck.txt,
# $OUT/lines.csv, $OUT/pairs-R.csv.
#
#   bench/gpu/cluster-n.sh PAIRS_DIR RANDOM_DIR LINES_DIR ROUNDS [SAMPLE_MANIFEST...]
set -uo pipefail
[[ $# -ge 4 ]] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
pairs=$1 random=$2 lines=$3 rounds=$4
shift 4
out=${OUT:-/tmp/cluster-n}
mkdir -p "$out"
start=$SECONDS
source bench/gpu/build-runtime.sh
gpu_line "$out/gpu.txt"
build_runtime "$out/build.log" tile-run || exit 1
# Verification and memcheck as for persistent kernels (no timing there).
OUT=$out bench/gpu/persistent.sh "$pairs" 0 "$random,$lines" "$@"
echo "verified after $((SECONDS - start)) s"
"$tile_run" bench --csv "$out/lines.csv" $(ls "$lines"/*.json | sort -V) |
  tail -n 30
echo "lines timed after $((SECONDS - start)) s"
for round in $(seq 1 "$rounds"); do
  # A round of the pairs takes about 100 s: none started past 420 s.
  (( SECONDS - start > 420 )) && { echo "round $round skipped (time)"; break; }
  "$tile_run" bench --csv "$out/pairs-$round.csv" \
    $(ls "$pairs"/*.json | sort -V) | tail -n 36
done
echo "done after $((SECONDS - start)) s"
