#!/usr/bin/env bash
# The committed benchmark recipe, on the lent GPU machine, in two parts that
# each fit one 10-minute call (the machine may be fresh each time, so each
# part builds the CLI first). CSVs go to $OUT; bench/merge_csv.py joins them.
#   scripts/device_bench.sh default   every algorithm, u32 keys, 2^10 .. 2^28
#   scripts/device_bench.sh extra     distributions, pairs, f32, u64 and the
#                                     struct key at the issue sizes
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
if [ ! -f build-dev/build.ninja ]; then
  cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSORT_GTEST_SOURCE="$PWD/.deps/googletest" >/dev/null
fi
ninja -C build-dev -j"$(nproc)" gpusort 2>&1 | grep -E "error|FAILED" | head -20 || true
bench=build-dev/gpusort
cmp=radix_onesweep,cub_radix,merge_path,cub_merge,sample,quick
case "${1:-default}" in
  default)
    "$bench" bench --csv "$out/a_default.csv" >> "$out/bench.log" 2>&1 ;;
  extra)
    "$bench" bench --algo "$cmp" --n 2^26 \
      --dist sorted,reverse,equal,few_unique,zipf,entropy2,entropy4,organ_pipe,median3_killer,sample_killer \
      --csv "$out/b_dists.csv" >> "$out/bench.log" 2>&1
    "$bench" bench --algo "$cmp" --pairs --n 2^26 --csv "$out/c_pairs.csv" >> "$out/bench.log" 2>&1
    "$bench" bench --algo cub_radix,radix_onesweep --pairs --n 2^28 --csv "$out/d_pairs28.csv" >> "$out/bench.log" 2>&1
    "$bench" bench --algo "$cmp" --key f32,u64 --n 2^26,100000000 --csv "$out/e_f32_u64.csv" >> "$out/bench.log" 2>&1
    "$bench" bench --algo cub_radix,radix_onesweep,merge_path,cub_merge --key u64 --n 2^28 \
      --csv "$out/f_u64_28.csv" >> "$out/bench.log" 2>&1
    "$bench" bench --algo merge_path,cub_merge --key u32f32 --n 2^26 --csv "$out/g_struct.csv" >> "$out/bench.log" 2>&1 ;;
  *) echo "usage: $0 default|extra" >&2; exit 2 ;;
esac
