#!/usr/bin/env bash
# One GPU session on the lent machine: build, the given gtest filter, then
# the given bench arguments. Logs go to $OUT. Usage:
#   scripts/device_session.sh 'GTEST_FILTER' 'BENCH ARGS' ['NCU BENCH ARGS']
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
if ! bash scripts/device_build.sh > "$out/build.log" 2>&1; then tail -40 "$out/build.log"; exit 1; fi
cd build-dev
if [ -n "$1" ]; then
  timeout "${TEST_TIMEOUT:-300}" ./tests/gpusort_tests --gtest_brief=1 --gtest_filter="$1" > "$out/tests.log" 2>&1
  echo "tests rc=$?"; grep -E "FAILED|Failure" "$out/tests.log" | head -20; tail -3 "$out/tests.log"
fi
if [ -n "${3:-}" ]; then
  # per-kernel time, registers, occupancy and DRAM use of one run of each point
  # shellcheck disable=SC2086
  ncu --clock-control none --csv --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    ./gpusort bench $3 --reps 1 --warmup 0 --csv "$out/ncu_bench.csv" > "$out/ncu.csv" 2>&1
  echo "ncu rc=$?"
fi
if [ -n "$2" ]; then
  # shellcheck disable=SC2086
  timeout 400 ./gpusort bench $2 --csv "$out/bench.csv" > "$out/bench.log" 2>&1
  echo "bench rc=$?"; grep -vE "^\s*$" "$out/bench.log" | tail -30
fi
