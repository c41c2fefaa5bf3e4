#!/usr/bin/env bash
# Compiles the fused-epilogue artifacts for bench/gpu/epilogues.sh (run HERE,
# from the repository root, after scripts/build.sh):
#   bench/artifacts/epilogues/verify/  each epilogue (bias per column + ReLU,
#       bias per row, alpha*AB + beta*D, residual + ReLU, bias per column +
#       GELU in its tanh form) on 12 shapes with edges, f32 (fma) and bf16
#       (wgmma, bf16 C)
#   bench/artifacts/epilogues/bench/   4096^3 plain, bias + ReLU, bias +
#       GELU, bias + ReLU on C += A*B, alpha*AB + beta*D and residual + ReLU,
#       f32 and bf16
# With --bench-only, only the bench folder.
set -euo pipefail
out=bench/artifacts/epilogues
verify=true
[[ ${1:-} == --bench-only ]] && verify=false
if $verify; then
  rm -rf "$out"
else
  rm -rf "$out/bench"
fi
mkdir -p "$out/verify" "$out/bench" "$out/src"
opt=build/bin/tile-opt
# gen NAME M N K TYPE EPILOGUE: one function
gen() {
  local name=$1 m=$2 n=$3 k=$4 t=$5 e=$6 init=${7:-acc}
  local fill="" zero="%zero = arith.constant 0.0 : $t"
  local ins body
  case $e in
    plain) ins=""; body="" ;;
    bias_relu) ins="%bias: memref<${n}x$t>"
      body="linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%bias : memref<${n}x$t>) outs(%c : memref<${m}x${n}x$t>) {
  ^bb0(%x: $t, %o: $t):
    %s = arith.addf %o, %x : $t
    %r = arith.maximumf %s, %zero : $t
    linalg.yield %r : $t
  }" ;;
    row_bias) ins="%bias: memref<${m}x$t>"
      body="linalg.generic {indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%bias : memref<${m}x$t>) outs(%c : memref<${m}x${n}x$t>) {
  ^bb0(%x: $t, %o: $t):
    %s = arith.addf %o, %x : $t
    linalg.yield %s : $t
  }" ;;
    alpha_beta) ins="%d: memref<${m}x${n}x$t>"
      fill="linalg.fill ins(%zero : $t) outs(%c : memref<${m}x${n}x$t>)"
      body="%alpha = arith.constant 1.5 : $t
  %beta = arith.constant -0.5 : $t
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%d : memref<${m}x${n}x$t>) outs(%c : memref<${m}x${n}x$t>) {
  ^bb0(%x: $t, %o: $t):
    %p = arith.mulf %o, %alpha : $t
    %q = arith.mulf %x, %beta : $t
    %s = arith.addf %p, %q : $t
    linalg.yield %s : $t
  }" ;;
    bias_gelu) ins="%bias: memref<${n}x$t>"
      body="%half = arith.constant 0.5 : $t
  %one = arith.constant 1.0 : $t
  %k0 = arith.constant 0.797884583 : $t
  %k1 = arith.constant 0.044715 : $t
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%bias : memref<${n}x$t>) outs(%c : memref<${m}x${n}x$t>) {
  ^bb0(%bv: $t, %o: $t):
    %x = arith.addf %o, %bv : $t
    %x2 = arith.mulf %x, %x : $t
    %x3 = arith.mulf %x2, %x : $t
    %t0 = arith.mulf %k1, %x3 : $t
    %t1 = arith.addf %x, %t0 : $t
    %t2 = arith.mulf %k0, %t1 : $t
    %t3 = math.tanh %t2 : $t
    %t4 = arith.addf %one, %t3 : $t
    %t5 = arith.mulf %half, %x : $t
    %y = arith.mulf %t5, %t4 : $t
    linalg.yield %y : $t
  }" ;;
    residual_relu) ins="%r: memref<${m}x${n}x$t>"
      body="linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%r : memref<${m}x${n}x$t>) outs(%c : memref<${m}x${n}x$t>) {
  ^bb0(%x: $t, %o: $t):
    %s = arith.addf %o, %x : $t
    %y = arith.maximumf %s, %zero : $t
    linalg.yield %y : $t
  }" ;;
  esac
  [[ $e == plain || $init == fill ]] && fill="linalg.fill ins(%zero : $t) outs(%c : memref<${m}x${n}x$t>)"
  echo "func.func @$name(%a: memref<${m}x${k}x$t>, %b: memref<${k}x${n}x$t>, %c: memref<${m}x${n}x$t>${ins:+, $ins}) {
  $zero
  $fill
  linalg.matmul ins(%a, %b : memref<${m}x${k}x$t>, memref<${k}x${n}x$t>) outs(%c : memref<${m}x${n}x$t>)
  $body
  return
}"
}
shapes="1x1x1 37x41x23 64x64x64 65x129x72 127x255x64 128x128x128 130x136x72 257x511x200 333x517x136 512x512x512 1000x1000x1000 1024x4096x512"
for t in f32 bf16; do
  for e in bias_relu row_bias alpha_beta residual_relu bias_gelu; do
    $verify || continue
    file=$out/src/${e}_$t.mlir
    : >"$file"
    for s in $shapes; do
      IFS=x read -r m n k <<<"$s"
      gen "${e}_${t}_${m}x${n}x${k}" "$m" "$n" "$k" "$t" "$e" >>"$file"
    done
    "$opt" "$file" --tile-matmul-to-ptx="output-dir=$out/verify" >/dev/null
  done
  file=$out/src/bench_$t.mlir
  { gen "plain_${t}_4096" 4096 4096 4096 "$t" plain
    gen "bias_relu_${t}_4096" 4096 4096 4096 "$t" bias_relu fill
    gen "bias_gelu_${t}_4096" 4096 4096 4096 "$t" bias_gelu fill
    gen "bias_relu_acc_${t}_4096" 4096 4096 4096 "$t" bias_relu
    gen "alpha_beta_${t}_4096" 4096 4096 4096 "$t" alpha_beta fill
    gen "residual_relu_${t}_4096" 4096 4096 4096 "$t" residual_relu fill; } >"$file"
  "$opt" "$file" --tile-matmul-to-ptx="output-dir=$out/bench" >/dev/null
done
$verify && ls "$out/verify"/*.json | wc -l | xargs echo "verify manifests:"
ls "$out/bench"/*.json | xargs -n1 basename
du -sh "$out"
