#!/usr/bin/env bash
# Generates docs/passes.md (from include/tile/Transforms/Passes.td) and
# docs/dialect.md (from include/tile/Dialect/Tile/TileOps.td: its attributes and operations) with
# mlir-tblgen, into docs/ or the directory given. `ninja tile-docs` runs it
# into the build tree; test/Tools/passes-doc.test fails when docs/ is stale.
#
#   scripts/gen-docs.sh [OUTPUT_DIR]
#
# Environment: MLIR_TBLGEN (default /usr/lib/llvm-22/bin/mlir-tblgen),
# MLIR_INCLUDE_DIR (default: the include/ next to mlir-tblgen's bin/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs}
tblgen=${MLIR_TBLGEN:-/usr/lib/llvm-22/bin/mlir-tblgen}
mlir_include=${MLIR_INCLUDE_DIR:-$(dirname "$(dirname "$(readlink -f "$tblgen")")")/include}

# gen <output> <title or ""> <.td file> <mlir-tblgen options...>
gen() {
  local file=$1 title=$2 td=$3
  shift 3
  {
    echo "<!-- Generated from $td: edit that file, then regenerate with scripts/gen-docs.sh. -->"
    echo
    [[ -z $title ]] || printf '# %s\n\n' "$title"
    "$tblgen" -I "$mlir_include" -I "$root/include" "$@" "$root/$td"
  } >"$out/$file.tmp"
  mv "$out/$file.tmp" "$out/$file"
}

mkdir -p "$out"
gen passes.md "tile-opt passes" include/tile/Transforms/Passes.td -gen-pass-doc
# The dialect's page: its description, its attributes, then its operation.
gen dialect.md "" include/tile/Dialect/Tile/TileOps.td -gen-dialect-doc \
  -dialect=tile
