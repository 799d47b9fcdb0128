#!/usr/bin/env bash
# Issue 16 on a machine of several GPUs, in one call, over
# .carry/gpusort_tests.xz and .carry/gpusort.xz: the multi-GPU test suites
# (NCCL over every visible GPU in one process, the thread fabric on GPU 0),
# bench/multi_gpu.sh over every GPU
# (checks in both launch shapes, then the bench rows), then memcheck on the
# newest small case. Logs and the CSV go to
# $OUT. NCCL_NVLS_ENABLE=0 (device README).
set -u
export NCCL_NVLS_ENABLE=0
mkdir -p /tmp/bin
xz -dc .carry/gpusort_tests.xz > /tmp/bin/gpusort_tests; chmod +x /tmp/bin/gpusort_tests
xz -dc .carry/gpusort.xz > /tmp/bin/gpusort; chmod +x /tmp/bin/gpusort
T=/tmp/bin/gpusort_tests
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nvidia-smi topo -m | head -4
gpus=$(nvidia-smi -L | wc -l)
command -v mpirun && mpirun --version 2>&1 | head -1
timeout 150 $T --gtest_filter='MultiPlan*:GpuMulti*' > $OUT/t_multi.log 2>&1; echo "multi tests rc=$?"
grep -E "^\[  FAILED|Failure|\[ rank" $OUT/t_multi.log | head -20; grep -E "tests? from .* ran|PASSED" $OUT/t_multi.log | tail -2
timeout 370 bash bench/multi_gpu.sh "$gpus" /tmp/bin 2>&1 | tee $OUT/bench.log | grep -vE "^rank .*verified$"; echo "multi_gpu.sh rc=${PIPESTATUS[0]}"
timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='GpuMulti.MisalignedValues' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY" $OUT/memcheck.log | sort | uniq -c
cp bench/results/*multi-x*.csv $OUT/ 2>/dev/null
