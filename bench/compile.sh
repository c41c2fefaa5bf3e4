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
#   options  extra tile-matmul-to-ptx options, e.g. block=128,128,8 stages=1;
#            three more are read here: in=TYPE (A and B: f32, bf16 or f16;
#            default f32), out=TYPE (C: f32 or the input type; default
#            f32), layout=L (nn: A and B row-major, the default; nt: B
#            stored N x K; tn: A stored K x M; tt: both), batch=N (a
#            linalg.batch_matmul of N matrices of that shape; default 1,
#            a plain linalg.matmul), and for INIT acc pad=PA,PB,PC and
#            offset=OA,OB,OC (strided operands: each stored row of A, B
#            and C padded by P elements, each matrix starting O elements
#            into its buffer; a batch's matrices rows*row_stride apart;
#            default 0,0,0: dense memrefs without a layout)
# '#' starts a comment. For each line, OUT_DIR gets NAME.mlir and the
# artifact files (<function>_matmul0.{json,ptx,cubin}).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tile_opt=${TILE_OPT:-$root/build/bin/tile-opt}
[[ $# -eq 2 ]] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
shapes=$1
out=$2
mkdir -p "$out"
[[ -x $tile_opt ]] || { echo "compile.sh: no tile-opt at $tile_opt (build first)" >&2; exit 1; }

write_mlir() { # name m n k init in out layout batch pads offsets
  local name=$1 m=$2 n=$3 k=$4 init=$5 t=$6 o=$7 layout=$8 batch=$9
  local pads=${10} offsets=${11}
  # A batch: every operand gets it as its first dimension, and the maps a
  # batch loop d0.
  local op=linalg.matmul bs="" bl="" bi=""
  if [[ $batch != 1 ]]; then
    op=linalg.batch_matmul bs="${batch}x" bl="b, " bi="b, "
  fi
  # Stored shapes and indexing maps of A and B (layout nn, nt, tn or tt).
  local sa=${bs}${m}x${k} sb=${bs}${k}x${n} sc=${bs}${m}x${n}
  local ma="(${bi}m, k)" mb="(${bi}k, n)" maps=""
  [[ ${layout:0:1} == t ]] && sa=${bs}${k}x${m} ma="(${bi}k, m)"
  [[ ${layout:1:1} == t ]] && sb=${bs}${n}x${k} mb="(${bi}n, k)"
  [[ $layout != nn ]] &&
    maps="indexing_maps = [affine_map<(${bl}m, n, k) -> $ma>, affine_map<(${bl}m, n, k) -> $mb>, affine_map<(${bl}m, n, k) -> (${bi}m, n)>] "
  # Strided layouts: ", strided<[batch stride, row stride, 1], offset: O>".
  local la="" lb="" lc=""
  if [[ $pads != 0,0,0 || $offsets != 0,0,0 ]]; then
    strided() { # shape pad offset
      local dims rows cols rs bs=""
      IFS=x read -ra dims <<<"$1"
      rows=${dims[-2]} cols=${dims[-1]} rs=$((dims[-1] + $2))
      [[ ${#dims[@]} == 3 ]] && bs="$((rows * rs)), "
      echo ", strided<[${bs}${rs}, 1], offset: $3>"
    }
    IFS=, read -r pa pb pc <<<"$pads"
    IFS=, read -r oa ob oc <<<"$offsets"
    la=$(strided "$sa" "$pa" "$oa") lb=$(strided "$sb" "$pb" "$ob")
    lc=$(strided "$sc" "$pc" "$oc")
  fi
  if [[ $init == acc ]]; then
    cat <<MLIR
func.func @$name(%A: memref<${sa}x${t}${la}>, %B: memref<${sb}x${t}${lb}>, %C: memref<${sc}x${o}${lc}>) {
  $op ${maps}ins(%A, %B : memref<${sa}x${t}${la}>, memref<${sb}x${t}${lb}>)
                outs(%C : memref<${sc}x${o}${lc}>)
  return
}
MLIR
  else
    cat <<MLIR
func.func @$name(%A: tensor<${sa}x${t}>, %B: tensor<${sb}x${t}>) -> tensor<${sc}x${o}> {
  %zero = arith.constant 0.0 : ${o}
  %empty = tensor.empty() : tensor<${sc}x${o}>
  %C = linalg.fill ins(%zero : ${o}) outs(%empty : tensor<${sc}x${o}>) -> tensor<${sc}x${o}>
  %R = $op ${maps}ins(%A, %B : tensor<${sa}x${t}>, tensor<${sb}x${t}>)
                     outs(%C : tensor<${sc}x${o}>) -> tensor<${sc}x${o}>
  return %R : tensor<${sc}x${o}>
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
  in_type=f32 out_type=f32 layout=nn batch=1 pads=0,0,0 offsets=0,0,0 rest=()
  for option in ${options:-}; do
    case $option in
      in=*) in_type=${option#in=} ;;
      out=*) out_type=${option#out=} ;;
      layout=nn|layout=nt|layout=tn|layout=tt) layout=${option#layout=} ;;
      layout=*) echo "compile.sh: $name: layout must be nn, nt, tn or tt" >&2; exit 1 ;;
      pad=*|offset=*)
        value=${option#*=}
        [[ $value =~ ^[0-9]+,[0-9]+,[0-9]+$ ]] || { echo "compile.sh: $name: ${option%%=*} must be three comma-separated counts" >&2; exit 1; }
        [[ $init == acc ]] || { echo "compile.sh: $name: ${option%%=*} needs INIT acc (memrefs)" >&2; exit 1; }
        if [[ $option == pad=* ]]; then pads=$value; else offsets=$value; fi ;;
      batch=*) batch=${option#batch=}
               [[ $batch =~ ^[1-9][0-9]*$ ]] || { echo "compile.sh: $name: batch must be a positive integer" >&2; exit 1; } ;;
      *) rest+=("$option") ;;
    esac
  done
  write_mlir "$name" "$m" "$n" "$k" "$init" "$in_type" "$out_type" "$layout" "$batch" "$pads" "$offsets" >"$out/$name.mlir"
  jobs+=("$name"$'\t'"${rest[*]:-}")
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
