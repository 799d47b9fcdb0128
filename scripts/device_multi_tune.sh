#!/usr/bin/env bash
# Issue 16's exchange experiments on a machine of several GPUs, in one call,
# over .carry/gpusort.xz (and .carry/gpusort_tests.xz when TESTS=1, which
# first runs the multi-GPU suites): the exchange's rounds
# (multi::options::rounds) of each form in TUNE_STRATEGY (default
# sort_first), then NCCL's settings for the point-to-point exchange at
# TUNE_ENV_ROUNDS rounds of the first form, each a bench-multi run of TUNE_N
# keys of TUNE_KEY (default 2^30 u32) whose rows give the phases' times.
# NCCL_NVLS_ENABLE=0 (device README). Logs go to $OUT.
set -u
export NCCL_NVLS_ENABLE=0
mkdir -p /tmp/bin
xz -dc .carry/gpusort.xz > /tmp/bin/gpusort && chmod +x /tmp/bin/gpusort || exit 1
G=/tmp/bin/gpusort
gpus=$(nvidia-smi -L | wc -l)
if [ "${TESTS:-0}" = 1 ]; then
  xz -dc .carry/gpusort_tests.xz > /tmp/bin/gpusort_tests && chmod +x /tmp/bin/gpusort_tests
  s=$SECONDS
  timeout ${TEST_LIMIT:-150} /tmp/bin/gpusort_tests --gtest_filter='MultiPlan*:GpuMulti*' > $OUT/t_multi.log 2>&1
  echo "multi tests rc=$? ($((SECONDS - s)) s)"
  grep -E "^\[  FAILED|Failure" $OUT/t_multi.log | head -20
  grep -E "tests? from .* ran|PASSED" $OUT/t_multi.log | tail -2
fi
n=${TUNE_N:-2^30}
key=(--key ${TUNE_KEY:-u32})
[ -n "${TUNE_VALUE:-}" ] && key+=(--value $TUNE_VALUE)
forms=${TUNE_STRATEGY:-sort_first}
run() {  # NAME ENV... -- bench-multi arguments
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" $G bench-multi --gpus "$gpus" --reps ${TUNE_REPS:-5} --csv "$OUT/tune_$name.csv" "$@" > "$OUT/tune_$name.log" 2>&1
  echo "== $name (${envs[*]}) rc=$?"
  grep -vE "^#" "$OUT/tune_$name.csv" | grep -E "_x[0-9]+(_partition|_exchange|_sort|_merge)?,|sort_x1" | cut -d, -f1,2,3,4,6 | head -40
}
run rounds NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT -- "${key[@]}" --n $n --strategy $forms --rounds ${TUNE_ROUNDS:-1,4,8,16}
grep -hE "p2p channels|coll channels|NCCL version" "$OUT/tune_rounds.log" | sort -u | head -5
for v in ${TUNE_ENVS:-}; do
  run "${v%%=*}_${v##*=}" "$v" -- "${key[@]}" --n $n --strategy ${forms%%,*} --rounds ${TUNE_ENV_ROUNDS:-0}
done
