# Sourced by the bench/gpu scripts (run from the repository root on the GPU
# machine): builds the runtime and finds tile-run.
#
#   source bench/gpu/build-runtime.sh
#   gpu_line [FILE]
#   build_runtime LOG [TARGET...] || exit 1
#
# Configures runtime/ into $build (kept when the caller set it, else
# TILE_RT_BUILD, default /tmp/tile-rt; Release, Ninja) with nlohmann-json
# from bench/carry/include when it was carried (else CMake finds the
# package), builds TARGET... (default: everything) and sets tile_run to the
# tile-run binary. CMake's and ninja's output is appended to LOG. On
# failure prints why (for a missing nlohmann-json, how to carry it) and the
# end of LOG to stderr and returns 1.
build=${build:-${TILE_RT_BUILD:-/tmp/tile-rt}}
# gpu_line [FILE]: prints the GPU's name, driver version and maximum SM
# clock, the first line of every record (and writes it to FILE).
gpu_line() {
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader |
    tee ${1:+"$1"}
}
build_runtime() {
  local log=$1
  shift
  local json=()
  [[ -d bench/carry/include/nlohmann ]] &&
    json=(-DTILE_NLOHMANN_JSON_INCLUDE_DIR="$PWD/bench/carry/include")
  # What this call writes starts past the log's present end.
  local start
  start=$(($(stat -c %s "$log" 2>/dev/null || echo 0) + 1))
  if ! cmake -S runtime -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "${json[@]}" >>"$log" 2>&1; then
    if tail -c +"$start" "$log" | grep -q "nlohmann-json not found"; then
      echo "build-runtime: nlohmann-json not found: there is no" \
        "bench/carry/include/nlohmann and no nlohmann_json package here; on" \
        "the development machine run 'mkdir -p bench/carry/include &&" \
        "cp -r /usr/include/nlohmann bench/carry/include/' and send the tree" \
        "again." >&2
    else
      echo "build-runtime: configuring the runtime in $build failed; the end" \
        "of $log:" >&2
      tail -n 30 "$log" >&2
    fi
    return 1
  fi
  if ! ninja -C "$build" "$@" >>"$log" 2>&1; then
    echo "build-runtime: building the runtime in $build failed; the end of" \
      "$log:" >&2
    tail -n 30 "$log" >&2
    return 1
  fi
  tile_run=$build/bin/tile-run
}
