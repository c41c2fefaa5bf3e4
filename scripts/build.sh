#!/usr/bin/env bash
# Installs missing dependencies, then configures (once) and builds tile-opt,
# the pass plugin, the runtime, tile-run and the unit tests into build/
# (or $TILE_BUILD_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILE_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
if [[ ! -f $build/build.ninja ]]; then
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
# Two cores and ~13 s per MLIR translation unit: one job per core.
ninja -C "$build" -j "$(nproc)"
