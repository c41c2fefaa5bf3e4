#!/usr/bin/env bash
# Compiles the exploration set: the fit set's larger shapes (seed 12001, as
# bench/fit-compile.sh draws them) with many configs each, to see which
# config families win where the model's top few do not (then
# bench/gpu/fit-sweep.sh ARTIFACT_DIR OUT on the GPU machine).
#
#   bench/explore-compile.sh [OUT_DIR] [MIN_FLOP] [TOP]
#
# Shapes of the 300 with 2*M*N*K >= MIN_FLOP (default 2e8); per shape the
# cost model's TOP (default 30) best-ranked configs plus tile-tune's
# baselines and occupancy variants (tile-tune candidates without
# --ranked-only). OUT_DIR (default bench/artifacts/explore) gets the
# artifacts (carried to the GPU machine as an archive: 1936 kernels are
# 60 MB of cubins and manifests, 7 MB in tar.xz, more with their PTX), and
# shapes.txt, candidates.txt. bench/fit-compile.sh does the work.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
MIN_FLOP=${2:-2e8} RANKED_ONLY=0 \
  exec "$root/bench/fit-compile.sh" "${1:-bench/artifacts/explore}" 300 "${3:-30}"
