#!/usr/bin/env bash
# Issue 15's check in one call, over .carry/gpusort_tests.xz and
# .carry/gpusort.xz: the radix suites (radix_msd, its edges, onesweep's
# digits), the segmented sort and the graph-capture suite (every algorithm:
# the persistent pass is shared), memcheck and racecheck on small radix_msd
# and segmented cases, then scripts/device_bench.sh msd. Logs and CSVs to $OUT.
set -u
final=$OUT; out=/tmp/o; mkdir -p /tmp/bin $out
xz -dc .carry/gpusort_tests.xz > /tmp/bin/gpusort_tests; chmod +x /tmp/bin/gpusort_tests
T=/tmp/bin/gpusort_tests
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 $T --gtest_filter='GpuRadixMsd*:GpuRadixDigits*:GpuSegmented*:GpuGraph*' > $out/t_radix.log 2>&1; echo "radix tests rc=$?"
grep -E "^\[  FAILED|Failure" $out/t_radix.log | head; grep -E "tests? from .* ran|PASSED" $out/t_radix.log | tail -2
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='GpuRadixMsdEdges/3.*:GpuSegmented/2.EqualSizes' > $out/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY" $out/memcheck.log | sort | uniq -c
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $T --gtest_filter='GpuRadixMsdEdges/3.*' > $out/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY" $out/racecheck.log | sort | uniq -c
OUT=$out BENCH_TIMEOUT=150 bash scripts/device_bench.sh msd > $out/msd.log 2>&1; echo "msd rc=$?"; tail -6 $out/msd.log
python3 bench/merge_csv.py $out/session.csv $out/after_m_u64.csv $out/after_m_pairs64.csv $out/after_m_pairs32.csv $out/after_m_u32.csv $out/after_m_cmp.csv
grep -v "^#" $out/session.csv | grep -v "^algorithm" | cut -d, -f1-7
cp $out/*.log $out/session.csv $final/ 2>/dev/null
