#!/usr/bin/env bash
# Issues 16 and 18 on a machine of several GPUs, in one call, over
# .carry/gpusort_tests.xz and .carry/gpusort.xz:
#   1. the multi-GPU suites: the thread fabric on GPU 0 (both forms, partition
#      first and sort first), NCCL over every visible GPU in one process
#   2. bench/multi_gpu.sh over every GPU: checks in both launch shapes (and
#      mpirun), then the bench rows (parts kept in $OUT/parts if it is cut)
# QUICK=1 narrows step 2's checks (MULTI_KEYS/DISTS/SIZES) for a short lease.
# TESTS=0 skips step 1 and MULTI_CHECKS=0 step 2's checks; MULTI_GPU_ROWS
# picks the bench rows (bench/multi_gpu.sh): a run too long for one call is
# split in two that way.
# NCCL_NVLS_ENABLE=0 (device README). Logs and the CSV go to $OUT.
# Seen on nvidia-h200-x4 (be8b213): step 1 31 s; QUICK checks with rows a and
# b about 250 s; row c (16e9 keys host to host) 180 s; rows a2 and a_x2
# about 190 s; b_x2 80 s. So four GPUs or more take three calls, e.g.
#   QUICK=1 MULTI_GPU_ROWS="a b"; TESTS=0 MULTI_CHECKS=0 MULTI_GPU_ROWS=c;
#   TESTS=0 MULTI_CHECKS=0 MULTI_GPU_ROWS="a2 a_x2 b_x2"
# and bench/merge_csv.py joins the calls' $OUT/parts.
set -u
export NCCL_NVLS_ENABLE=0
mkdir -p /tmp/bin
xz -dc .carry/gpusort_tests.xz > /tmp/bin/gpusort_tests; chmod +x /tmp/bin/gpusort_tests
xz -dc .carry/gpusort.xz > /tmp/bin/gpusort; chmod +x /tmp/bin/gpusort
T=/tmp/bin/gpusort_tests
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
gpus=$(nvidia-smi -L | wc -l)
s=$SECONDS
[ "${TESTS:-1}" = 1 ] && timeout ${TEST_LIMIT:-120} $T --gtest_filter='MultiPlan*:GpuMulti*' > $OUT/t_multi.log 2>&1; echo "multi tests rc=$? ($((SECONDS - s)) s)"
grep -E "^\[  FAILED|Failure|\[ rank" $OUT/t_multi.log 2>/dev/null | head -20
grep -E "tests? from .* ran|PASSED" $OUT/t_multi.log 2>/dev/null | tail -2
if [ "${QUICK:-0}" = 1 ]; then
  export MULTI_KEYS=u8,i16,u32,f32,u64,f64 MULTI_DISTS=uniform,equal,zipf,float_special MULTI_SIZES=0,1,65537,300007
fi
s=$SECONDS
MULTI_GPU_PARTS=$OUT/parts timeout ${BENCH_LIMIT:-400} bash bench/multi_gpu.sh "$gpus" /tmp/bin > $OUT/bench.log 2>&1; echo "multi_gpu.sh rc=$? ($((SECONDS - s)) s)"
grep -vE "^rank .*verified$" $OUT/bench.log | grep -vE "^  algorithm|^$" | cut -c1-120
cp bench/results/*multi-x*.csv $OUT/ 2>/dev/null
