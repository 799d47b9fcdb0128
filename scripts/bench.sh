#!/usr/bin/env bash
# Builds the CLI and runs the benchmark suite (every algorithm against
# CUB, Thrust and the CPU baselines), writing bench/results/<device>.csv.
# Arguments go to `gpusort bench` (see `build/gpusort bench --help`).
#
#   scripts/bench.sh real [ARGS...]   the real-data rows (both parts below),
#                                     into bench/results/<device>-real.csv
#   scripts/bench.sh real-int [ARGS...]    u32 i32 u64 i64 keys: small_signed
#                                     ids timestamps and the shared shapes,
#                                     into <device>-real-int.csv
#   scripts/bench.sh real-float [ARGS...]  f32 f64 keys: normal unit grid and
#                                     the shared shapes, into
#                                     <device>-real-float.csv
# The shared shapes: sorted nearly_sorted reverse zipf few_unique equal
# (src/harness/harness.hpp says what each distribution means per key). Each
# key runs alone and with u32 indices (argsort), at 2^27 and 2^28, for the
# library's automatic sort (auto) against the newest CUB's radix sort
# (cub_radix: both offset widths timed, the faster reported; the CSV's '#'
# lines name the CUB version and the width of each row). ARGS go to every
# `gpusort bench` call (e.g. --reps 5; real-int and real-float also take
# --csv PATH, to write elsewhere; bench/merge_csv.py joins CSVs). Environment:
#   GPUSORT     a gpusort binary to run instead of building build/gpusort
#   REAL_ALGOS  the methods (default auto,cub_radix; e.g. add cub_radix_cuda
#               for the toolkit's CUB)
#   REAL_N      the sizes (default 2^27,2^28)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${GPUSORT:-}" ]; then
  bin=$GPUSORT
else
  bash scripts/build.sh gpusort_cli
  bin=./build/gpusort
fi

shared=sorted,nearly_sorted,reverse,zipf,few_unique,equal
real=(--algo "${REAL_ALGOS:-auto,cub_radix}" --value none,u32 --n "${REAL_N:-2^27,2^28}")
# The device's name as `gpusort bench` names its CSVs ("nvidia-h200").
slug() {
  local s
  s=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr 'A-Z' 'a-z' |
    sed -E 's/[^a-z0-9._-]+/-/g; s/-+$//') || true
  echo "${s:-unknown-device}"
}
# real_part int|float CSV ARGS...: one part's `gpusort bench` call.
real_part() {
  local part=$1 csv=$2
  shift 2
  if [ "$part" = int ]; then
    "$bin" bench "${real[@]}" --key u32,i32,u64,i64 --dist "small_signed,ids,timestamps,$shared" --csv "$csv" "$@"
  else
    "$bin" bench "${real[@]}" --key f32,f64 --dist "normal,unit,grid,$shared" --csv "$csv" "$@"
  fi
}

case "${1:-}" in
  real-int | real-float)
    part=${1#real-}
    shift
    real_part "$part" "bench/results/$(slug)-real-$part.csv" "$@" ;;
  real)
    shift
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    status=0
    real_part int "$tmp/int.csv" "$@" || status=$?
    real_part float "$tmp/float.csv" "$@" || status=$?
    parts=()
    for f in "$tmp/int.csv" "$tmp/float.csv"; do [ -s "$f" ] && parts+=("$f"); done
    if [ ${#parts[@]} -gt 0 ]; then
      out="bench/results/$(slug)-real.csv"
      python3 bench/merge_csv.py "$out" "${parts[@]}"
      echo "real-data rows: $out"
    fi
    exit "$status" ;;
  *)
    "$bin" bench "$@" ;;
esac
