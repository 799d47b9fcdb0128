#!/usr/bin/env bash
# Issue 16 on a machine of several GPUs, in one call, over
# .carry/gpusort_tests.xz and .carry/gpusort.xz:
#   1. the radix_msd suites (the multi sort's local sort of 8-byte keys)
#   2. GpuMulti.PairsAtScale: 2^29 u64 + u64 pairs, the bench row's
#      per-rank sizes, on one device
#   3. the multi-GPU suites (NCCL over every visible GPU in one process, the
#      thread fabric on GPU 0)
#   4. bench/multi_gpu.sh over every GPU: checks in both launch shapes (and
#      mpirun), then the bench rows (parts kept in $OUT/parts if it is cut)
#   5. where nsys is installed: the kernels' time of one 2^31 u32 run
# NCCL_NVLS_ENABLE=0 (device README). Logs and the CSV go to $OUT.
set -u
export NCCL_NVLS_ENABLE=0
mkdir -p /tmp/bin
xz -dc .carry/gpusort_tests.xz > /tmp/bin/gpusort_tests; chmod +x /tmp/bin/gpusort_tests
xz -dc .carry/gpusort.xz > /tmp/bin/gpusort; chmod +x /tmp/bin/gpusort
T=/tmp/bin/gpusort_tests
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
gpus=$(nvidia-smi -L | wc -l)
s=$SECONDS
timeout 120 $T --gtest_filter='GpuRadixMsd*' > $OUT/t_msd.log 2>&1; echo "msd tests rc=$? ($((SECONDS - s)) s)"
grep -E "^\[  FAILED|Failure" $OUT/t_msd.log | head -8; grep -E "tests? from .* ran|PASSED" $OUT/t_msd.log | tail -2
s=$SECONDS
GPUSORT_MULTI_SCALE_N=536870912 timeout 90 $T --gtest_filter='GpuMulti.PairsAtScale' > $OUT/t_scale.log 2>&1; echo "scale test rc=$? ($((SECONDS - s)) s)"
grep -E "Failure|exception|OK \]" $OUT/t_scale.log | head -5
s=$SECONDS
timeout 80 $T --gtest_filter='MultiPlan*:GpuMulti*' > $OUT/t_multi.log 2>&1; echo "multi tests rc=$? ($((SECONDS - s)) s)"
grep -E "^\[  FAILED|Failure|\[ rank" $OUT/t_multi.log | head -20; grep -E "tests? from .* ran|PASSED" $OUT/t_multi.log | tail -2
s=$SECONDS
MULTI_GPU_PARTS=$OUT/parts timeout ${BENCH_LIMIT:-270} bash bench/multi_gpu.sh "$gpus" /tmp/bin > $OUT/bench.log 2>&1; echo "multi_gpu.sh rc=$? ($((SECONDS - s)) s)"
grep -vE "^rank .*verified$" $OUT/bench.log | grep -vE "^  algorithm|^$" | cut -c1-150
cp bench/results/*multi-x*.csv $OUT/ 2>/dev/null
if command -v nsys >/dev/null; then
  timeout 60 nsys profile -o /tmp/prof --force-overwrite true /tmp/bin/gpusort bench-multi --gpus "$gpus" --n 2^31 --reps 1 > /dev/null 2>&1
  timeout 40 nsys stats -r cuda_gpu_kern_sum -f csv -o $OUT/kern /tmp/prof.nsys-rep > /dev/null 2>&1; echo "nsys rc=$?"
  head -25 $OUT/kern*.csv | cut -d, -f1-9 | cut -c1-200
fi
