#!/usr/bin/env bash
# Compiles a list of matmul shapes to kernel artifacts (on a machine with
# MLIR; the GPU machine has none).
#
#   bench/compile.sh SHAPES_FILE OUT_DIR
#
# SHAPES_FILE has one kernel per line: NAME M N K INIT [PIPELINE OPTIONS...]
#   NAME     kernel/file name prefix (letters, digits, _)
#   INIT     acc  (memref linalg.matmul: C += A*B)
#            fill (tensor form: C = 0 + A*B through linalg.fill)
#   options  extra tile-matmul-to-ptx options, e.g. block=128,128,8 stages=1
# '#' starts a comment. For each line, OUT_DIR gets NAME.mlir and the
# artifact files (<function>_matmul0.{json,ptx,cubin}).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tile_opt=${TILE_OPT:-$root/build/bin/tile-opt}
[[ $# -eq 2 ]] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
shapes=$1
out=$2
mkdir -p "$out"
[[ -x $tile_opt ]] || { echo "compile.sh: no tile-opt at $tile_opt (build first)" >&2; exit 1; }

write_mlir() { # name m n k init
  local name=$1 m=$2 n=$3 k=$4 init=$5
  if [[ $init == acc ]]; then
    cat <<MLIR
func.func @$name(%A: memref<${m}x${k}xf32>, %B: memref<${k}x${n}xf32>, %C: memref<${m}x${n}xf32>) {
  linalg.matmul ins(%A, %B : memref<${m}x${k}xf32>, memref<${k}x${n}xf32>)
                outs(%C : memref<${m}x${n}xf32>)
  return
}
MLIR
  else
    cat <<MLIR
func.func @$name(%A: tensor<${m}x${k}xf32>, %B: tensor<${k}x${n}xf32>) -> tensor<${m}x${n}xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<${m}x${n}xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<${m}x${n}xf32>) -> tensor<${m}x${n}xf32>
  %R = linalg.matmul ins(%A, %B : tensor<${m}x${k}xf32>, tensor<${k}x${n}xf32>)
                     outs(%C : tensor<${m}x${n}xf32>) -> tensor<${m}x${n}xf32>
  return %R : tensor<${m}x${n}xf32>
}
MLIR
  fi
}

# Write every input first, then compile them in parallel (one job per core:
# each compile runs tile-opt, then ptxas).
jobs=()
while read -r name m n k init options; do
  [[ -z ${name:-} || $name == \#* ]] && continue
  [[ $init == acc || $init == fill ]] || { echo "compile.sh: $name: INIT must be acc or fill" >&2; exit 1; }
  write_mlir "$name" "$m" "$n" "$k" "$init" >"$out/$name.mlir"
  jobs+=("$name"$'\t'"${options:-}")
done <"$shapes"

compile_one() { # name<TAB>options
  local name=${1%%$'\t'*} options=${1#*$'\t'}
  "$tile_opt" "$out/$name.mlir" -o /dev/null \
    --tile-matmul-to-ptx="output-dir=$out $options" ||
    { echo "compile.sh: $name failed" >&2; return 1; }
}
export -f compile_one
export tile_opt out
printf '%s\0' "${jobs[@]}" |
  xargs -0 -P "$(nproc)" -I{} bash -c 'compile_one "$1"' _ {}
echo "compile.sh: ${#jobs[@]} kernels in $out" >&2
