#!/usr/bin/env bash
# The multi-GPU sort's runs (issues 16 and 18) on N GPUs, as one command:
#   bench/multi_gpu.sh N [BIN_DIR]      (BIN_DIR holds the gpusort CLI; default build)
# 1. checks in both launch shapes (one process with N GPUs, N processes with
#    one each): every rank's range against std::stable_sort;
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
echo "== checks: $N threads, then $N processes"
$G multi-run --threads "$N" --n 2^24 --key u32
$G multi-run --threads "$N" --n 2^22 --key f64 --pairs --dist zipf --descending
$G multi-run --procs "$N" --n 2^24 --key u64 --pairs
$G multi-run --procs "$N" --n 1000 --key i16 --dist equal
echo "== bench -> $csv"
tmp=$(mktemp -d)
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
