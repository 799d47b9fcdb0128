#!/usr/bin/env bash
# The multi-GPU sort's runs (issues 16 and 18) on N GPUs, as one command:
#   bench/multi_gpu.sh N [BIN_DIR]      (BIN_DIR holds the gpusort CLI; default build)
# 1. checks in both launch shapes (one process with N GPUs, N processes with
#    one each; mpirun too where it is installed): every key type, skewed
#    inputs, empty shards and n < N, keys and pairs, every rank's range
#    against std::stable_sort (a failure is counted, the bench still runs,
#    and the script exits 1);
# 2. bench-multi rows into bench/results/<device>-multi-x<N>.csv, each beside
#    gpusort's one-GPU sort of the same n (sort_x1) from the same run:
#      N = 2: 2^31 u32 keys; 2^30 u64 keys + u64 values; skewed keys (all
#             equal, zipf); 2e9 u32 keys from host memory to host memory
#      N > 2: 2^32 u32 keys; 2^31 u64 keys + u32 values; 16e9 u32 keys host
#             to host
# NCCL_NVLS_ENABLE=0 (NVLink SHARP multicast stays off on the lent machines).
set -euo pipefail
N=${1:?usage: bench/multi_gpu.sh N [BUILD_DIR]}
B=${2:-build}
G=$B/gpusort
export NCCL_NVLS_ENABLE=0
slug=$($G bench-multi --help >/dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 |
  tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9]+/-/g; s/-+$//')
csv=bench/results/${slug}-multi-x${N}.csv
echo "== checks: one process with $N GPUs, then $N processes with one each (then mpirun, if present)"
# every key type; uniform, skewed and killer inputs; n = 0 and n < N (empty
# shards), odd sizes; keys ascending, pairs descending (the stable permutation)
fails=0
D=uniform,equal,few_unique,zipf,sorted,sample_killer,float_special
S=0,1,3,65537,300007
for shape in "--threads $N" "--procs $N"; do
  $G multi-run $shape --key all --dist $D --n $S || fails=$((fails + 1))
  $G multi-run $shape --key all --dist $D --n $S --pairs --descending || fails=$((fails + 1))
done
if command -v mpirun >/dev/null; then
  root=()
  mpirun --version 2>&1 | grep -q "Open MPI" && root=(--allow-run-as-root --oversubscribe)
  mpirun "${root[@]}" -np "$N" $G multi-run --id-file "/tmp/gpusort-nccl-id.$$" \
    --key u64,f32 --pairs --dist zipf,equal --n 1,2^22 || fails=$((fails + 1))
fi
echo "== checks: $fails failed"
echo "== bench -> $csv"
tmp=${MULTI_GPU_PARTS:-$(mktemp -d)}; mkdir -p "$tmp"
if [ "$N" -le 2 ]; then
  $G bench-multi --gpus "$N" --key u32 --n 2^31 --dist uniform,equal,zipf --csv "$tmp/a.csv"
  $G bench-multi --gpus "$N" --key u64 --value u64 --n 2^30 --csv "$tmp/b.csv"
  $G bench-multi --gpus "$N" --key u32 --n 2000000000 --host --reps 5 --csv "$tmp/c.csv"
else
  $G bench-multi --gpus "$N" --key u32 --n 2^32 --csv "$tmp/a.csv"
  $G bench-multi --gpus "$N" --key u64 --value u32 --n 2^31 --csv "$tmp/b.csv"
  $G bench-multi --gpus "$N" --key u32 --n 16000000000 --host --reps 3 --csv "$tmp/c.csv"
fi
mkdir -p bench/results
python3 bench/merge_csv.py "$csv" "$tmp/a.csv" "$tmp/b.csv" "$tmp/c.csv"
echo "wrote $csv"
[ "$fails" -eq 0 ]
