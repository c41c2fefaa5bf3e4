#!/usr/bin/env bash
# Installs missing dependencies, then configures (once) and builds tile-opt,
# the pass plugin, the runtime, tile-run and the unit tests into build/
# (or $TILE_BUILD_DIR; with TILE_SANITIZE=1 the sanitizer build, build-asan/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILE_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
# TILE_SANITIZE=1: the AddressSanitizer + UndefinedBehaviorSanitizer build
# (into build-asan/ unless TILE_BUILD_DIR says otherwise), at -O1 with line
# tables, which compiles faster than -O3 and gives reports with lines.
sanitize=()
if [[ ${TILE_SANITIZE:-0} == 1 ]]; then
  build=${TILE_BUILD_DIR:-$root/build-asan}
  sanitize=(-DTILE_SANITIZE=ON "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g1"
            "-DCMAKE_C_FLAGS_RELEASE=-O1 -g1")
fi
if [[ ! -f $build/build.ninja ]]; then
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir "${sanitize[@]}" \
    >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
# Two cores and ~13 s per MLIR translation unit: one job per core.
ninja -C "$build" -j "$(nproc)"
