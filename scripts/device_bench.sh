#!/usr/bin/env bash
# The committed benchmark recipe, run on the lent GPU machine over binaries
# built here and carried compressed in .carry/ (see scripts/device_check.sh).
# Each part fits one 10-minute call; CSVs go to $OUT, bench/merge_csv.py
# joins them.
#   scripts/device_bench.sh core      the fast families and the peers at
#                                     2^28: u32 keys, u32 pairs, u64 keys;
#                                     f32 keys at 1e8
#   scripts/device_bench.sh default   every algorithm, u32 keys, 2^10 .. 2^28
#   scripts/device_bench.sh extra     distributions at 2^26 for the
#                                     comparison sorts and their peers
#   scripts/device_bench.sh msd       issue 15's rows: radix_msd, onesweep
#                                     and CUB on u64 keys (uniform, zipf,
#                                     entropy-reduced, < 2^20), u64 + u64 and
#                                     u64 + u32 pairs, u32 keys; sample and
#                                     quick against cub_merge at 2^26
#   scripts/device_bench.sh segmented segmented sort and cub_segmented at
#                                     2^26 keys, segments of 16 .. 2^20 and
#                                     power-law sizes; u32 pairs; u64 keys
# With gpusort_before.xz carried too, each part runs both binaries back to
# back (CSV names before_*.csv and after_*.csv).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out" /tmp/bin
for f in .carry/gpusort.xz .carry/gpusort_before.xz; do
  [ -e "$f" ] || continue
  xz -dc "$f" > "/tmp/bin/$(basename "$f" .xz)" && chmod +x "/tmp/bin/$(basename "$f" .xz)"
done
fast=radix_onesweep,merge_path,sample,quick,bitonic,radix_tile
cmp=radix_onesweep,cub_radix,merge_path,cub_merge,sample,quick
run() {  # run NAME ARGS...: one bench invocation with each binary
  local name=$1
  shift
  for b in gpusort_before gpusort; do
    [ -x "/tmp/bin/$b" ] || continue
    local tag=after
    [ "$b" = gpusort_before ] && tag=before
    timeout "${BENCH_TIMEOUT:-150}" "/tmp/bin/$b" bench "$@" --csv "$out/${tag}_$name.csv" >> "$out/bench.log" 2>&1
    echo "$tag $name rc=$?"
  done
}
case "${1:-core}" in
  core)
    run a_u32 --algo "$fast,cub_radix,cub_merge,thrust" --n 2^28
    run b_pairs --algo radix_onesweep,cub_radix,merge_path,cub_merge --pairs --n 2^28
    run c_u64 --algo radix_onesweep,cub_radix,merge_path,cub_merge --key u64 --n 2^28
    run d_f32 --algo radix_onesweep,cub_radix,sample,quick --key f32 --n 100000000 ;;
  default)
    run default ;;
  msd)
    msd=radix_msd,radix_onesweep,cub_radix
    run m_u64 --algo "$msd" --key u64 --n 2^28 --dist uniform,zipf,entropy2,entropy4,bits20
    run m_pairs64 --algo "$msd" --key u64 --value u64 --n 2^27
    run m_pairs32 --algo "$msd" --key u64 --value u32 --n 2^28
    run m_u32 --algo "$msd" --n 2^28
    run m_cmp --algo sample,quick,cub_merge --n 2^26,2^28 ;;
  segmented)
    run s_keys --algo segmented,cub_segmented --n 2^26 \
      --dist seg16,seg64,seg128,seg256,seg512,seg1024,seg2048,seg4096,seg16384,seg65536,seg1048576,segpow256
    run s_pairs --algo segmented,cub_segmented --pairs --n 2^26 --dist seg256
    run s_u64 --algo segmented,cub_segmented --key u64 --n 2^26 --dist seg1024 ;;
  extra)
    run dists --algo "$cmp" --n 2^26 \
      --dist sorted,reverse,equal,few_unique,zipf,entropy2,entropy4,organ_pipe,median3_killer,sample_killer ;;
  *) echo "usage: $0 core|default|extra|segmented|msd" >&2; exit 2 ;;
esac
