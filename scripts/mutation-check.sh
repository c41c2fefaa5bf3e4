#!/usr/bin/env bash
# Mutation check of the CPU oracle's tests: applies each plausible bug of
# scripts/mutations.txt, one at a time, to a copy of the sources, rebuilds
# tile-opt there, runs the tile-interp tests (test/Interp) with it, and
# reports whether at least one test failed ("caught"). The working tree is
# not touched. Not part of scripts/test.sh: the first build takes ~10
# minutes on two cores, each mutation ~1 more.
#
#   scripts/mutation-check.sh [--output FILE] [NAME...]
#
# NAME...        only these mutations (default: all of scripts/mutations.txt)
# --output FILE  also write the results as markdown to FILE
#                (test/Interp/mutation-results.md records a full run)
# TILE_MUTATION_DIR  where the copy and its build go (default: build-mutation/)
#
# Exit status 0 only if every mutation applied, built and was caught.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/scripts/mutations.txt
tool=$root/scripts/mutations.py
work=${TILE_MUTATION_DIR:-$root/build-mutation}
lit=/usr/lib/llvm-22/bin/lit
output=
names=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --output) output=$2; shift 2 ;;
    --output=*) output=${1#--output=}; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) names+=("$1"); shift ;;
  esac
done
[[ ${#names[@]} -eq 0 ]] && mapfile -t names < <(python3 "$tool" list "$list")

"$root/scripts/install-deps.sh" || exit 1
# Every mutation must apply to the current sources before anything is built.
python3 "$tool" check "$list" "$root" || exit 1

# A copy of the tracked and untracked (not ignored) files; a file whose
# content changed since the last run gets a new mtime, so ninja rebuilds it.
src=$work/src obj=$work/obj
mkdir -p "$src" "$obj"
# The commit the copy is taken from (with "+ changes" when the tree has
# uncommitted ones), for the results: HEAD may move during a long run.
commit=$(git -C "$root" log -1 --format='%h (%s)')
[[ -n $(git -C "$root" status --porcelain --untracked-files=no) ]] && commit+=" + uncommitted changes"
python3 "$tool" sync "$root" "$src" || { echo "mutation-check: copying the sources failed"; exit 1; }
if [[ ! -f $obj/build.ninja ]]; then
  cmake -S "$src" -B "$obj" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTILE_BUILD_RUNTIME=OFF -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
fi
build() { ninja -C "$obj" -j "$(nproc)" "$@" >"$work/build.log" 2>&1; }
run_tests() { "$lit" -v --filter='Interp/' "$obj/test" >"$work/lit.log" 2>&1; }

echo "mutation-check: building tile-opt and tile-interp in $obj"
build tile-opt tile-interp || { tail -30 "$work/build.log"; exit 1; }
# tile-interp is built once, from the unmutated sources: the mutations
# rebuild only tile-opt.
if ! run_tests; then
  cat "$work/lit.log"
  echo "mutation-check: the tests fail without any mutation"
  exit 1
fi

rows=() bad=0
for name in "${names[@]}"; do
  described=$(python3 "$tool" describe "$list" "$name") || exit 1
  file=${described%%$'\t'*} bug=${described#*$'\t'}
  cp "$src/$file" "$work/original"
  start=$SECONDS
  if ! python3 "$tool" apply "$list" "$name" "$src"; then
    result="DOES NOT APPLY" detail="" bad=1
  elif ! build tile-opt; then
    result="DOES NOT BUILD" detail=$(grep -m1 "error:" "$work/build.log") bad=1
  elif run_tests; then
    result="SURVIVED" detail="every test/Interp test passed" bad=1
  else
    result="caught"
    failing=$(grep -oE '^FAIL: TILE :: Interp/[^ ]+' "$work/lit.log" |
              sed 's|FAIL: TILE :: Interp/||' | paste -sd, -)
    # The first reason: tile-interp's FAIL line, else tile-opt's error (not
    # FileCheck's).
    reason=$(grep -m1 -E '^FAIL [A-Za-z0-9_]+ (batch=[0-9]+ )?m=' "$work/lit.log" |
             sed -E 's/^FAIL ([A-Za-z0-9_]+) (batch=[0-9]+ )?m=[0-9]+ n=[0-9]+ k=[0-9]+: /\1: /;
                     s/ \(grid [0-9]+, block .*$//')
    [[ -z $reason ]] &&
      reason=$(grep -E 'error: ' "$work/lit.log" | grep -v -m1 -E 'error: [A-Z0-9-]+:' |
               sed -E 's/^.*(error: )/tile-opt \1/')
    reason=$(cut -c1-200 <<<"$reason")
    detail="$failing: $reason"
  fi
  cp "$work/original" "$src/$file"
  printf '%-45s %-14s %4ss  %s\n' "$name" "$result" $((SECONDS - start)) "$detail"
  rows+=("| \`$name\` | $bug | $result | ${detail//|/\\|} |")
done
build tile-opt # back to the unmutated tile-opt

if [[ -n $output ]]; then
  {
    echo "# Mutation check of the CPU oracle's tests"
    echo
    echo "$(date +%F), \`scripts/mutation-check.sh --output ${output#"$root/"}\` at"
    echo "$commit."
    echo "Each mutation of \`scripts/mutations.txt\` is applied alone, tile-opt is rebuilt,"
    echo "and the tile-interp tests (\`test/Interp\`) run; \"caught\" means at least one"
    echo "failed. Last column: the failing test files and the first failure reported."
    echo
    echo "| mutation | bug | result | failing tests: first failure |"
    echo "|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
  } >"$output"
  echo "mutation-check: results in $output"
fi
if [[ $bad -ne 0 ]]; then
  echo "mutation-check: some mutations survived or did not apply/build"
  exit 1
fi
echo "mutation-check: all ${#names[@]} mutations caught"
