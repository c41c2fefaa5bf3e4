set -u
cmake -S runtime -B /tmp/tile-rt -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILE_NLOHMANN_JSON_INCLUDE_DIR=$PWD/bench/carry/include >/dev/null && ninja -C /tmp/tile-rt tile-run >/dev/null || exit 1
a=bench/artifacts/epilogues/bench
/tmp/tile-rt/bin/tile-run verify --reference cublas $a/alpha_beta_*_matmul0.json $a/residual_relu_*_matmul0.json 2>&1 | grep -E "PASS|FAIL|passed"
for r in 1 2; do /tmp/tile-rt/bin/tile-run bench --csv $OUT/epi-$r.csv $a/*.json 2>&1 | tail -n 14; done
