#!/usr/bin/env bash
# Issue 16's exchange experiments on a machine of several GPUs, in one call,
# over .carry/gpusort.xz: sort first's rounds (multi::options::rounds) and
# NCCL's settings for the point-to-point exchange, each a bench-multi run
# of TUNE_N u32 keys (default 2^30) whose rows give the exchange's time.
# NCCL_NVLS_ENABLE=0 (device README). Logs go to $OUT.
set -u
export NCCL_NVLS_ENABLE=0
mkdir -p /tmp/bin
xz -dc .carry/gpusort.xz > /tmp/bin/gpusort && chmod +x /tmp/bin/gpusort || exit 1
G=/tmp/bin/gpusort
gpus=$(nvidia-smi -L | wc -l)
n=${TUNE_N:-2^30}
run() {  # NAME ENV... -- bench-multi arguments
  local name=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" $G bench-multi --gpus "$gpus" --reps 5 --csv "$OUT/tune_$name.csv" "$@" > "$OUT/tune_$name.log" 2>&1
  echo "== $name (${envs[*]}) rc=$?"
  grep -vE "^#" "$OUT/tune_$name.csv" | grep -E "_x[0-9]+(_exchange|_merge)?,|sort_x1" | cut -d, -f1,2,3,4,6 | head -20
}
run rounds NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT -- --key u32 --n $n --strategy sort_first --rounds ${TUNE_ROUNDS:-1,4,8,16}
grep -hE "p2p channels|coll channels|NCCL version" "$OUT/tune_rounds.log" | sort -u | head -5
for v in ${TUNE_ENVS:-NCCL_MIN_NCHANNELS=32 NCCL_NTHREADS=512 NCCL_P2P_USE_CUDA_MEMCPY=1 NCCL_P2P_NVL_CHUNKSIZE=2097152}; do
  run "${v%%=*}" "$v" -- --key u32 --n $n --strategy sort_first
done
