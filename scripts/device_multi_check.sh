#!/usr/bin/env bash
# The GPU check of issue 16 in one call, over .carry/gpusort_tests.xz and
# .carry/gpusort.xz: the multi-GPU suites (the thread fabric on one device,
# NCCL over every visible GPU, the convenience call), the suites of the
# kernels it shares (partition: sample and quick; merge: the host pipeline,
# merge_path), memcheck and racecheck on small multi-GPU cases, then
# bench-multi over every GPU. NCCL_NVLS_ENABLE=0 (device README). Logs to $OUT.
set -u
export NCCL_NVLS_ENABLE=0
final=$OUT; out=/tmp/o; mkdir -p /tmp/bin $out
xz -dc .carry/gpusort_tests.xz > /tmp/bin/gpusort_tests; chmod +x /tmp/bin/gpusort_tests
xz -dc .carry/gpusort.xz > /tmp/bin/gpusort; chmod +x /tmp/bin/gpusort
T=/tmp/bin/gpusort_tests
nvidia-smi --query-gpu=name --format=csv,noheader
gpus=$(nvidia-smi -L | wc -l)
timeout 200 $T --gtest_filter='MultiPlan*:GpuMulti*' > $out/t_multi.log 2>&1; echo "multi tests rc=$?"
grep -E "^\[  FAILED|Failure|rank [0-9]" $out/t_multi.log | head -20; grep -E "tests? from .* ran|PASSED" $out/t_multi.log | tail -2
timeout 200 $T --gtest_filter='GpuSample*:GpuQuick*:GpuHostPipeline*:GpuMergePath*:GpuGraph*:-*Huge*:*Large*' > $out/t_shared.log 2>&1; echo "shared kernels tests rc=$?"
grep -E "^\[  FAILED|Failure" $out/t_shared.log | head; grep -E "tests? from .* ran|PASSED" $out/t_shared.log | tail -2
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='GpuMulti.SmallAndEmpty:GpuMulti.ValueWidths:GpuMulti.CapacityTooSmall' > $out/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY" $out/memcheck.log | sort | uniq -c
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $T --gtest_filter='GpuMulti.ValueWidths' > $out/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY" $out/racecheck.log | sort | uniq -c
for args in "--key u32 --n 2^28" "--key u64 --value u64 --n 2^27"; do
  timeout 150 /tmp/bin/gpusort bench-multi --gpus $gpus $args --reps 10 --csv $out/multi.csv > $out/bench.log 2>&1; echo "bench-multi $args rc=$?"; tail -12 $out/bench.log
done
cp $out/*.log $out/*.csv $final/ 2>/dev/null
