#!/usr/bin/env bash
# Runs the GPU lit tests' kernels (test/GPU) on a GPU machine without MLIR.
#
#   bench/gpu/gpu-tests.sh [ARTIFACT_DIR] [SECONDS]
#
# ARTIFACT_DIR (default bench/artifacts/gpu-tests) is what
# bench/compile-gpu-tests.py wrote on the development machine: one folder
# per test file with its kernels, and SUMMARY.txt (the compile-time checks of
# which structure each kernel took). Run from the repository root. Builds the
# runtime (no MLIR; TILE_RT_BUILD, default /tmp/tile-rt, nlohmann-json from
# bench/carry/include), then:
#   1. tile-run verify on every kernel, one process each under a time limit
#      (SECONDS, default 120): random inputs, a float64 reference (host, or
#      cuBLAS DGEMM for large problems), every element checked;
#   2. compute-sanitizer memcheck on a sample: the small kernels of
#      verify.mlir (both C initialisations, split-K, edges), the benchmarked
#      FP32 structures at their smallest shapes, the wgmma repack kernels and
#      the 4096^3 cp.async and TMA rings, within a time budget
#      (TILE_MEMCHECK_BUDGET seconds, default 180; 120 s a kernel);
#   3. python-example.mlir's kernels on PyTorch tensors, where torch with
#      CUDA is installed (else reported as not run).
# Prints a line per kernel, then a table per test file and a last line
# "gpu-tests: N passed, N failed". Everything printed is also written to
# $OUT/gpu-tests.txt when OUT is set (and to /tmp/gpu-tests.txt otherwise).
# Exit status 1 when any kernel failed, 2 when nothing could run.
set -uo pipefail
artifacts=${1:-bench/artifacts/gpu-tests}
limit=${2:-120}
budget=${TILE_MEMCHECK_BUDGET:-180}
build=${TILE_RT_BUILD:-/tmp/tile-rt}
log=${OUT:-/tmp}/gpu-tests.txt
mkdir -p "$(dirname "$log")"
exec > >(tee "$log") 2>&1

say() { printf '%s\n' "$*"; }
[[ -f runtime/CMakeLists.txt ]] || { say "gpu-tests: run me from the repository root"; exit 2; }
[[ -f $artifacts/SUMMARY.txt ]] || {
  say "gpu-tests: no $artifacts/SUMMARY.txt: compile the kernels first, on the"
  say "development machine: bench/compile-gpu-tests.py (then carry $artifacts)"
  exit 2
}
say "gpu-tests: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
say "gpu-tests: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
say "== what was compiled (bench/compile-gpu-tests.py, development machine)"
sed -n '1,3p' "$artifacts/SUMMARY.txt"
tail -n 1 "$artifacts/SUMMARY.txt"
grep -E '^  here, FAILED' "$artifacts/SUMMARY.txt" | sed 's/^/  compile-time check /'

say "== building the runtime in $build"
source bench/gpu/build-runtime.sh
build_runtime "$build.log" tile-run tile_runtime 2>&1 || exit 2

# 1. verify every kernel.
declare -A test_pass test_fail
total_pass=0 total_fail=0
failures=()
say "== 1. tile-run verify, every kernel (limit ${limit} s each)"
for dir in $(ls -d "$artifacts"/*/ | sort); do
  test=$(basename "$dir")
  test_pass[$test]=0 test_fail[$test]=0
  for manifest in $(ls "$dir"*.json 2>/dev/null | sort -V); do
    output=$(timeout "$limit" "$tile_run" verify "$manifest" 2>&1)
    status=$?
    line=$(printf '%s\n' "$output" | grep -E ' (PASS|FAIL)( |$)' | tail -n 1)
    if [[ $status -eq 0 && $line == *PASS* ]]; then
      test_pass[$test]=$((test_pass[$test] + 1)); total_pass=$((total_pass + 1))
      say "$test: $line"
    else
      test_fail[$test]=$((test_fail[$test] + 1)); total_fail=$((total_fail + 1))
      [[ $status -eq 124 ]] && line="TIMEOUT (over ${limit} s)"
      say "$test: FAILED $(basename "$manifest") (exit $status): ${line:-$(printf '%s' "$output" | tail -n 3 | tr '\n' ' ')}"
      failures+=("$test/$(basename "$manifest")")
    fi
  done
done

# 2. memcheck on a sample, smallest problems first within each group.
sanitizer=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
mem_pass=0 mem_fail=0 mem_skipped=0
say "== 2. compute-sanitizer memcheck on a sample (budget ${budget} s)"
if [[ ! -x $sanitizer ]]; then
  say "memcheck: no $sanitizer: not run"
else
  sample=()
  for f in "$artifacts"/verify/*.json; do [[ -f $f ]] && sample+=("$f"); done
  # The smaller kernels of each structure first; the two 4096^3 rings last,
  # so that the budget cuts those if any.
  for k in benchmarked/prime1021 benchmarked/kheavy256 benchmarked/skinny16 \
           wgmma/u97 wgmma/u300 wgmma/u777 wgmma/b1024 \
           random/rf000_b0 random/rf004_b1 random/rb003_b1 random/rh001_b0 \
           benchmarked/sq4096 wgmma/b4096; do
    [[ -f $artifacts/${k}_matmul0.json ]] && sample+=("$artifacts/${k}_matmul0.json")
  done
  started=$SECONDS
  for manifest in "${sample[@]}"; do
    name="$(basename "$(dirname "$manifest")")/$(basename "$manifest")"
    if (( SECONDS - started > budget )); then
      mem_skipped=$((mem_skipped + 1)); say "memcheck $name: not run (budget spent)"; continue
    fi
    output=$(timeout 120 "$sanitizer" --tool memcheck --error-exitcode 99 \
      "$tile_run" verify "$manifest" 2>&1)
    status=$?
    summary=$(printf '%s\n' "$output" | grep -oE 'ERROR SUMMARY: [0-9]+ errors?' | tail -n 1)
    verdict=$(printf '%s\n' "$output" | grep -oE '\b(PASS|FAIL)\b' | tail -n 1)
    if [[ $status -eq 0 && $verdict == PASS ]]; then
      mem_pass=$((mem_pass + 1)); say "memcheck $name: CLEAN ($summary, verify $verdict)"
    else
      mem_fail=$((mem_fail + 1)); failures+=("memcheck $name")
      [[ $status -eq 124 ]] && summary="TIMEOUT (over 120 s)"
      say "memcheck $name: DIRTY (exit $status): ${summary:-no summary}, verify ${verdict:-none}"
      printf '%s\n' "$output" | grep -E '=========  ?(Invalid|Error|Program hit)' | head -n 3
    fi
  done
fi

# 3. the Python example on PyTorch tensors.
py_status="not run (python3 with torch and CUDA not found)"
py_pass=0 py_fail=0
say "== 3. python-example.mlir: the kernels on PyTorch tensors"
if [[ -d $artifacts/python-example ]] &&
   python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  output=$(TILE_RUNTIME_LIBRARY=$build/libtile_runtime.so PYTHONPATH=python timeout 300 \
    python3 examples/python/matmul_torch.py $(ls "$artifacts"/python-example/*.json | sort) 2>&1)
  status=$?
  printf '%s\n' "$output" | tail -n 8
  py_pass=$(printf '%s\n' "$output" | grep -cE ': PASS( |$)')
  py_fail=$(printf '%s\n' "$output" | grep -cE ': FAIL( |$)')
  [[ $status -eq 0 ]] || { py_fail=$((py_fail == 0 ? 1 : py_fail)); failures+=("python-example (exit $status)"); }
  py_status="$py_pass passed, $py_fail failed"
else
  say "python-example: $py_status"
fi

# The table.
say ""
say "== gpu-tests: results ($(date -u '+%H:%M:%S UTC'))"
printf '%-20s %8s %8s   %s\n' "test file" "passed" "failed" "what it runs"
describe() {
  case $1 in
    verify) echo "awkward shapes; C accumulated, split-K filled, in-kernel fill" ;;
    benchmarked) echo "FP32 bench-list configs (128-wide blocks, 8x8/8x16 per lane, cp.async ring, split-K)" ;;
    wgmma) echo "bf16/f16 wgmma: TMA+mbarrier ring of 4096^3, repacked operands, bf16/f16 C" ;;
    random) echo "random shapes (seeds 20261202-4), every size band, FMA and wgmma" ;;
    python-example) echo "tile-run verify on the Python example's kernels" ;;
    *) echo "" ;;
  esac
}
for test in $(printf '%s\n' "${!test_pass[@]}" | sort); do
  printf '%-20s %8d %8d   %s\n' "$test" "${test_pass[$test]}" "${test_fail[$test]}" "$(describe "$test")"
done
printf '%-20s %8d %8d   %s\n' "memcheck sample" "$mem_pass" "$mem_fail" \
  "compute-sanitizer memcheck$( ((mem_skipped)) && echo ", $mem_skipped not run (budget)")"
printf '%-20s %8s %8s   %s\n' "python (torch)" "$py_pass" "$py_fail" "$py_status"
compile_failed=$(grep -c '^  here, FAILED' "$artifacts/SUMMARY.txt")
say "compile-time structure checks failed (SUMMARY.txt): $compile_failed"
for f in "${failures[@]}"; do say "  FAILED: $f"; done
passed=$((total_pass + mem_pass + py_pass))
failed=$((total_fail + mem_fail + py_fail))
say "gpu-tests: $passed passed, $failed failed (verify $total_pass/$((total_pass + total_fail)) kernels, memcheck $mem_pass/$((mem_pass + mem_fail)), python $py_status); saved to $log"
[[ $failed -eq 0 ]]
