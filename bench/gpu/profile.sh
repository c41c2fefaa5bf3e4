#!/usr/bin/env bash
# Looks inside kernels on the GPU machine: SASS instruction mix of the main
# loop (cuobjdump) and Nsight Compute's scheduler and warp-state sections for
# one launch of each kernel and of cuBLAS on the same shape.
#
#   bench/gpu/profile.sh OUT_DIR ARTIFACT.json...
#
# Run from the repository root. Builds tile-run like run-bench.sh. Writes
# OUT_DIR/<kernel>.sass, OUT_DIR/<kernel>.sass-stats, OUT_DIR/ncu.txt.
set -uo pipefail
[[ $# -ge 2 ]] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
source bench/gpu/build-runtime.sh
build_runtime "$build.log" tile-run || exit 1

# Main loop = the instructions from the target of the longest backward
# branch to that branch. cuobjdump prints branch targets as labels
# ("@P0 BRA `(.L_x_1)") or as addresses ("@!P0 BRA 0x560").
for manifest in "$@"; do
  dir=$(dirname "$manifest")
  kernel=$(basename "$manifest" .json)
  cubin="$dir/$kernel.cubin"
  [[ -f $cubin ]] || continue
  cuobjdump --dump-sass "$cubin" >"$out/$kernel.sass" 2>&1
  awk '
    function norm(h) { h = tolower(h); sub(/^0+/, "", h); return h }
    /^ *\/\*[0-9a-f]+\*\// {
      n++; op[n] = $0
      match($0, /\/\*[0-9a-f]+\*\//); at[norm(substr($0, RSTART + 2, RLENGTH - 4))] = n
    }
    /^\.L_x_[0-9]+:/ { label[$1] = n + 1 }
    END {
      best = 0
      for (i = 1; i <= n; i++) if (op[i] ~ /BRA/) {
        t = 0
        if (match(op[i], /\.L_x_[0-9]+/)) {
          l = substr(op[i], RSTART, RLENGTH) ":"; if (l in label) t = label[l]
        } else if (match(op[i], /BRA 0x[0-9a-f]+/)) {
          h = norm(substr(op[i], RSTART + 6, RLENGTH - 6)); if (h in at) t = at[h]
        }
        if (t > 0 && t <= i && i - t > best) { best = i - t; s = t; e = i }
      }
      split("FFMA LDS LDG STS BAR IMAD IADD3 LEA ISETP MOV SHF LOP3 SEL", names, " ")
      total = 0
      for (i = s; i <= e; i++) { if (op[i] ~ / NOP/) continue; total++
        for (j in names) if (op[i] ~ (" " names[j] "[ .]")) c[names[j]]++ }
      printf "main loop: %d instructions (non-NOP)", total
      for (j = 1; j <= 13; j++) printf ", %s %d", names[j], c[names[j]] + 0
      printf "\n"
    }' "$out/$kernel.sass" >"$out/$kernel.sass-stats"
  echo "$kernel: $(cat "$out/$kernel.sass-stats")"
done

# Nsight Compute: one launch of each kernel (after warm-up), and one of the
# cuBLAS kernel on the first artifact's shape.
if command -v ncu >/dev/null 2>&1; then
  sections=(--section SchedulerStats --section WarpStateStats
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio")
  : >"$out/ncu.txt"
  for manifest in "$@"; do
    kernel=$(basename "$manifest" .json)
    ncu --clock-control none --kernel-name "$kernel" --launch-skip 3 \
      --launch-count 1 "${sections[@]}" "$tile_run" bench \
      --no-cublas --warmup 2 --iters 20 "$manifest" >>"$out/ncu.txt" 2>&1
  done
  ncu --clock-control none --kernel-name regex:gemm --launch-skip 3 \
    --launch-count 1 "${sections[@]}" "$tile_run" bench \
    --warmup 2 --iters 20 "$1" >>"$out/ncu.txt" 2>&1
  grep -E "^  [a-zA-Z_0-9]+.*\(|Issue Slots Busy|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Eligible Warps Per Scheduler|Warp Cycles Per Issued Instruction|Executed Ipc Active|Registers Per Thread|Achieved Occupancy|Bank Conflicts" "$out/ncu.txt" | head -80
  # Stall reasons (warps stalled per issued instruction), largest first, per kernel.
  awk '/^  [a-zA-Z_0-9]+.*\(/ { kernel = $1 }
       /issue_stalled_.*_per_issue_active/ && $NF + 0 >= 0.05 {
         sub(/smsp__average_warps_issue_stalled_/, "", $1); sub(/_per_issue_active.ratio/, "", $1)
         printf "%s %s %s\n", kernel, $1, $NF }' "$out/ncu.txt" | sort -k1,1 -k3,3gr
fi
