#!/usr/bin/env bash
# The GPU check on the lent machine, over binaries built here and carried
# compressed in .carry/ (gpusort_tests.xz):
#   scripts/device_check.sh tests      every test, then compute-sanitizer
#                                      memcheck and racecheck on the small
#                                      cases of every algorithm (GpuSanitize)
# The benchmarks: scripts/device_bench.sh.
# Logs and CSVs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out" /tmp/bin
for f in .carry/gpusort_tests.xz; do
  [ -e "$f" ] || continue
  xz -dc "$f" > "/tmp/bin/$(basename "$f" .xz)" && chmod +x "/tmp/bin/$(basename "$f" .xz)"
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
case "${1:-}" in
  tests)
    timeout "${TEST_TIMEOUT:-330}" /tmp/bin/gpusort_tests --gtest_brief=1 > "$out/tests.log" 2>&1
    echo "tests rc=$?"
    grep -E "^\[  FAILED|Failure" "$out/tests.log" | head -20
    tail -4 "$out/tests.log"
    for tool in memcheck racecheck; do
      filter=${MEMCHECK_FILTER:-GpuSanitize.U32:GpuSanitize.U8:GpuSanitize.F64}
      [ "$tool" = racecheck ] && filter=${RACECHECK_FILTER:-GpuSanitize.U8}
      timeout "${SANITIZE_TIMEOUT:-120}" compute-sanitizer --tool "$tool" --error-exitcode 3 \
        /tmp/bin/gpusort_tests --gtest_brief=1 --gtest_filter="$filter" > "$out/$tool.log" 2>&1
      echo "$tool rc=$?"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|Invalid" "$out/$tool.log" | sort | uniq -c | head -5
    done ;;
  *) echo "usage: $0 tests" >&2; exit 2 ;;
esac
