#!/usr/bin/env bash
# The GPU check on the lent machine, over binaries built here and carried
# compressed in .carry/ (gpusort_tests.xz):
#   scripts/device_check.sh tests      every test, then compute-sanitizer
#                                      memcheck and racecheck on the small
#                                      cases of every algorithm (GpuSanitize)
#   scripts/device_check.sh cli        over the carried CLI (gpusort.xz) when
#                                      the test binary cannot travel with it:
#                                      the smoke bench of every algorithm
#                                      (every output verified), then memcheck
#                                      and racecheck on small sorts of every
#                                      algorithm, keys and pairs
# The benchmarks: scripts/device_bench.sh.
# Logs and CSVs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out" /tmp/bin
for f in .carry/gpusort_tests.xz .carry/gpusort.xz; do
  [ -x "/tmp/bin/$(basename "$f" .xz)" ] && continue
  [ -e "$f" ] || continue
  xz -dc "$f" > "/tmp/bin/$(basename "$f" .xz)" && chmod +x "/tmp/bin/$(basename "$f" .xz)"
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
case "${1:-}" in
  tests)
    timeout "${TEST_TIMEOUT:-330}" /tmp/bin/gpusort_tests --gtest_brief=1 --gtest_filter="${TEST_FILTER:-*}" > "$out/tests.log" 2>&1
    echo "tests rc=$?"
    grep -E "^\[  FAILED|Failure" "$out/tests.log" | head -20
    tail -4 "$out/tests.log"
    for tool in memcheck racecheck; do
      filter=${MEMCHECK_FILTER:-GpuSanitize.U32:GpuSanitize.U8:GpuSanitize.F64:GpuSanitizeSegmented.*}
      [ "$tool" = racecheck ] && filter=${RACECHECK_FILTER:-GpuSanitize.U8:GpuSanitizeSegmented.U8}
      timeout "${SANITIZE_TIMEOUT:-120}" compute-sanitizer --tool "$tool" --error-exitcode 3 \
        /tmp/bin/gpusort_tests --gtest_brief=1 --gtest_filter="$filter" > "$out/$tool.log" 2>&1
      echo "$tool rc=$?"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Hazard|Invalid" "$out/$tool.log" | sort | uniq -c | head -5
    done ;;
  cli)
    all=odd_even,bitonic,merge_recursive,merge_bottom_up,merge_path,radix_split,radix_tile,radix_onesweep,sample,quick
    timeout 120 /tmp/bin/gpusort bench --smoke --algo "$all" --csv "$out/smoke.csv" > "$out/smoke.log" 2>&1
    echo "smoke rc=$? rows=$(grep -c ',1$' "$out/smoke.csv") unverified=$(grep -c ',0$' "$out/smoke.csv")"
    for tool in memcheck racecheck; do
      for kind in "" --pairs; do
        timeout "${SANITIZE_TIMEOUT:-100}" compute-sanitizer --tool "$tool" --error-exitcode 3 \
          /tmp/bin/gpusort bench --algo "$all" --n 3000,70001 --reps 1 --warmup 0 $kind \
          --csv "$out/${tool}${kind}.csv" > "$out/${tool}${kind}.log" 2>&1
        echo "$tool $kind rc=$?"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/${tool}${kind}.log" | sort | uniq -c | head -3
      done
      # segmented sort: every size class (segments of 7, 300 and 5000 keys,
      # power-law sizes), keys and pairs
      for kind in "" --pairs; do
        timeout "${SANITIZE_TIMEOUT:-100}" compute-sanitizer --tool "$tool" --error-exitcode 3 \
          /tmp/bin/gpusort bench --algo segmented --dist seg7,seg300,seg5000,segpow64 --n 70001 --reps 1 \
          --warmup 0 $kind --csv "$out/${tool}_seg${kind}.csv" > "$out/${tool}_seg${kind}.log" 2>&1
        echo "$tool segmented $kind rc=$?"
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/${tool}_seg${kind}.log" | sort | uniq -c | head -3
      done
    done ;;
  *) echo "usage: $0 tests|cli" >&2; exit 2 ;;
esac
