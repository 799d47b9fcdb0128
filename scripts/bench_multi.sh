#!/usr/bin/env bash
# The multi-GPU sort (gpusort::multi, over NCCL) on N GPUs of this machine:
#   scripts/bench_multi.sh [N]          (default: every visible GPU)
# Builds the CLI (build/gpusort, with the multi-GPU sort where CMake finds
# NCCL) unless GPUSORT names a gpusort binary, then
# 1. checks in both launch shapes (one process with N GPUs, N processes with
#    one each; mpirun too where it is installed), every form
#    (multi::strategy): every key type, skewed inputs, empty shards and
#    n < N, keys and pairs, every rank's range against std::stable_sort (a
#    failure is counted, the bench still runs, and the script exits 1);
# 2. bench-multi rows into bench/results/<device>-multi-x<N>.csv, each beside
#    gpusort's one-GPU sort of the same n (sort_x1) from the same run:
#      N = 2: 2^31 u32 keys; 2^30 u64 keys + u64 values (both in every
#             form); skewed keys (all equal, zipf); 2e9 u32 keys from host
#             memory to host memory
#      N > 2: 2^32 u32 keys; 2^31 u64 keys + u32 values (every form); 16e9
#             u32 keys host to host; the first two rows again on 2 of the GPUs
# Environment: MULTI_CHECKS=0 skips step 1; MULTI_KEYS, MULTI_DISTS and
# MULTI_SIZES narrow its checks; MULTI_GPU_ROWS picks step 2's rows (below);
# MULTI_GPU_PARTS keeps each row's CSV in that folder.
set -euo pipefail
cd "$(dirname "$0")/.."
G=${GPUSORT:-./build/gpusort}
[ -n "${GPUSORT:-}" ] || bash scripts/build.sh gpusort_cli
N=${1:-$(nvidia-smi -L | wc -l)}
# The exchange is point-to-point: NVLink SHARP multicast stays off.
export NCCL_NVLS_ENABLE=0
slug=$($G bench-multi --help >/dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 |
  tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9]+/-/g; s/-+$//')
csv=bench/results/${slug}-multi-x${N}.csv
echo "== checks: one process with $N GPUs, then $N processes with one each (then mpirun, if present)"
# every key type; uniform, skewed and killer inputs; n = 0 and n < N (empty
# shards), odd sizes; keys ascending, pairs descending (the stable permutation)
fails=0
KEYS=${MULTI_KEYS:-all}
D=${MULTI_DISTS:-uniform,equal,few_unique,zipf,sorted,sample_killer,float_special}
S=${MULTI_SIZES:-0,1,3,65537,300007}
# the forms in both shapes: keys in one form, pairs in another, crossed
shapes=("--threads $N:radix_first:partition_first" "--procs $N:sort_first:radix_first")
[ "${MULTI_CHECKS:-1}" = 0 ] && shapes=()
for shape in "${shapes[@]}"; do
  IFS=: read -r launch keys_form pairs_form <<< "$shape"
  $G multi-run $launch --key $KEYS --dist $D --n $S --strategy $keys_form || fails=$((fails + 1))
  $G multi-run $launch --key $KEYS --dist $D --n $S --pairs --descending --strategy $pairs_form ||
    fails=$((fails + 1))
done
if [ "${MULTI_CHECKS:-1}" = 1 ] && command -v mpirun >/dev/null; then
  root=()
  mpirun --version 2>&1 | grep -q "Open MPI" && root=(--allow-run-as-root --oversubscribe)
  mpirun "${root[@]}" -np "$N" $G multi-run --id-file "/tmp/gpusort-nccl-id.$$" \
    --key u64,f32 --pairs --dist zipf,equal --n 1,2^22 || fails=$((fails + 1))
fi
echo "== checks: $fails failed"
echo "== bench -> $csv"
tmp=${MULTI_GPU_PARTS:-$(mktemp -d)}; mkdir -p "$tmp"
# the forms of the sort on the main rows (nccl_sample_xN is the automatic
# one: radix first where the top digit balances the ranks, else sort first;
# nccl_sortfirst_xN and nccl_partfirst_xN the other two)
# MULTI_GPU_ROWS picks among the rows a (main keys), a2 (skew), b (pairs),
# c (host), and for N > 2: a_x2, b_x2 (rows a and b on 2 of the N GPUs)
rows=" ${MULTI_GPU_ROWS:-a a2 b c a_x2 b_x2} "
has() { [[ "$rows" == *" $1 "* ]]; }
other=sort_first,partition_first
if [ "$N" -le 2 ]; then
  big=2^31 pairs="--key u64 --value u64 --n 2^30" host_n=2000000000 host_reps=5
else
  big=2^32 pairs="--key u64 --value u32 --n 2^31" host_n=16000000000 host_reps=3
fi
parts=()
has a && parts+=("$tmp/a.csv") && $G bench-multi --gpus "$N" --key u32 --n $big --strategy auto,$other --csv "$tmp/a.csv"
has a2 && parts+=("$tmp/a2.csv") && $G bench-multi --gpus "$N" --key u32 --n $big --dist equal,zipf --csv "$tmp/a2.csv"
has b && parts+=("$tmp/b.csv") && $G bench-multi --gpus "$N" $pairs --strategy auto,$other --csv "$tmp/b.csv"
has c && parts+=("$tmp/c.csv") && $G bench-multi --gpus "$N" --key u32 --n $host_n --host --reps $host_reps --csv "$tmp/c.csv"
# the same n on 2 of the N GPUs, for the rate against 2 GPUs (the one-GPU
# rows come with every call)
if [ "$N" -gt 2 ]; then
  has a_x2 && parts+=("$tmp/a_x2.csv") && $G bench-multi --gpus 2 --key u32 --n $big --csv "$tmp/a_x2.csv"
  has b_x2 && parts+=("$tmp/b_x2.csv") && $G bench-multi --gpus 2 $pairs --csv "$tmp/b_x2.csv"
fi
mkdir -p bench/results
python3 bench/merge_csv.py "$csv" "${parts[@]}"
echo "wrote $csv"
[ "$fails" -eq 0 ]
