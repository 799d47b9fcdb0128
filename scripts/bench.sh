#!/usr/bin/env bash
# The benchmark: builds the CLI (build/gpusort), then times gpusort against
# its peers (CUB, Thrust, PyTorch, CuPy, NumPy, the CPU sorts) on this
# machine's GPU, every output verified.
#
#   scripts/bench.sh [all [ARGS]]    the presets core msd segmented topk host
#                                    cpu python: bench/results/<device>.csv,
#                                    its panels (<device>.png) and the headline
#                                    figure (<device>-headline.png)
#   scripts/bench.sh PRESET [ARGS]   one preset: bench/results/<device>-PRESET.csv
#   scripts/bench.sh --OPTION ...    `gpusort bench --OPTION ...` as given
#
# Presets (ARGS go to each of their `gpusort bench` calls, e.g. --reps 5;
# python's to python -m gpusort.bench, e.g. --runs 20):
#   core       the fast sorts and their peers at 2^28: u32 keys, u32 + u32
#              pairs, u64 keys; f32 keys at 1e8
#   msd        u64 keys (uniform, zipf, entropy-reduced, < 2^20), u64 + u64
#              and u64 + u32 pairs, u32 keys: radix_msd, onesweep and CUB;
#              sample sort and quicksort against cub_merge at 2^26 and 2^28
#   segmented  the segmented sort and cub_segmented, 2^26 keys: segments of
#              16 to 2^20 keys and power-law sizes; u32 pairs; u64 keys; and
#              segments of 16 and 64 keys (and power-law sizes) over the
#              values real data holds (--dist seg64:normal and the like),
#              u32 f32 u64 keys alone and with u32 values
#   topk       top-k of 2^28 keys (k = 1024 and 2^20; f32 uniform and in
#              [0, 1); u32 all-equal and sorted) and of 65536 rows of 4096
#   host       sort(std::span) of 1e9 u64 keys in pinned and pageable memory
#              against copy in, cub::DeviceRadixSort, copy out
#   cpu        the CPU backend against libstdc++'s parallel mode and IPS4o,
#              1e8 keys: u32, f32, u64, u32 + u32 pairs
#   python     python -m gpusort.bench (the package from build/python, else
#              the installed one): torch, CuPy and NumPy where installed
#   headline   the headline's cases alone (bench/headline.py: one task a bar),
#              from one run on this GPU: the automatic sort against CUB at
#              2^28 (u32 and u64 keys, u32 + u32 pairs, u64 + u32 indices),
#              segments of power-law sizes, top-k, host memory, and the
#              python preset; writes bench/results/<device>-headline.csv and
#              its figure, and with README=FILE rewrites FILE's headline table
#   sweep      every algorithm, u32 keys, n = 2^10 to 2^28 (gpusort bench's
#              default)
#   dists      the comparison sorts and their peers at 2^26 on sorted,
#              reverse, equal, few-unique, zipf, entropy-reduced and
#              adversarial inputs
#   real       the automatic sort (auto) against the newest CUB's radix sort
#              on the values real data holds, u32 i32 u64 i64 f32 f64 keys,
#              alone and with u32 indices (argsort), at 2^27 and 2^28
#              (real-int and real-float run one half each); REAL_ALGOS and
#              REAL_N change the methods and the sizes
#   ab OTHER 'ARGS' ['ARGS'...]
#              build/gpusort against another gpusort binary OTHER, each
#              'ARGS' a `gpusort bench` argument list, run A B B A (ROUNDS
#              times, default 2) so that drift falls on both alike; prints
#              bench/ab_compare.py's table
# Environment: GPUSORT runs that binary instead of building build/gpusort;
# CSV names the output of a preset (or of the default run).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${GPUSORT:-./build/gpusort}
[ -n "${GPUSORT:-}" ] || bash scripts/build.sh gpusort_cli

# The device's name as `gpusort bench` names its CSVs ("nvidia-h200").
slug() {
  local s
  s=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr 'A-Z' 'a-z' |
    sed -E 's/[^a-z0-9._-]+/-/g; s/-+$//') || true
  echo "${s:-unknown-device}"
}
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT
status=0
made=()  # the parts' CSVs, in the order they ran
# run NAME ARGS...: one `gpusort bench`-family call into the part NAME.csv;
# a failure is reported and remembered, and the other parts still run.
run() {
  local name=$1
  shift
  made+=("$parts/$name.csv")
  "$bin" "$@" --csv "$parts/$name.csv" || { echo "bench.sh: part $name failed" >&2; status=1; }
}

shared=sorted,nearly_sorted,reverse,zipf,few_unique,equal
real_args=(--algo "${REAL_ALGOS:-auto,cub_radix}" --value none,u32 --n "${REAL_N:-2^27,2^28}")

# preset NAME ARGS...: the calls of one preset, each a part.
preset() {
  local p=$1
  shift
  local fast=radix_onesweep,merge_path,sample,quick,bitonic,radix_tile msd=radix_msd,radix_onesweep,cub_radix
  case "$p" in
    core)
      run core_u32 bench --algo "$fast,cub_radix,cub_merge,thrust" --n 2^28 "$@"
      run core_pairs bench --algo radix_onesweep,cub_radix,merge_path,cub_merge --pairs --n 2^28 "$@"
      run core_u64 bench --algo radix_onesweep,cub_radix,merge_path,cub_merge --key u64 --n 2^28 "$@"
      run core_f32 bench --algo radix_onesweep,cub_radix,sample,quick --key f32 --n 1e8 "$@" ;;
    msd)
      run msd_u64 bench --algo "$msd" --key u64 --n 2^28 --dist uniform,zipf,entropy2,entropy4,bits20 "$@"
      run msd_pairs64 bench --algo "$msd" --key u64 --value u64 --n 2^27 "$@"
      run msd_pairs32 bench --algo "$msd" --key u64 --value u32 --n 2^28 "$@"
      run msd_u32 bench --algo "$msd" --n 2^28 "$@"
      run msd_cmp bench --algo sample,quick,cub_merge --n 2^26,2^28 "$@" ;;
    segmented)
      run seg_keys bench --algo segmented,cub_segmented --n 2^26 "$@" \
        --dist seg16,seg64,seg128,seg256,seg512,seg1024,seg2048,seg4096,seg16384,seg65536,seg1048576,segpow256
      run seg_pairs bench --algo segmented,cub_segmented --pairs --n 2^26 --dist seg256 "$@"
      run seg_u64 bench --algo segmented,cub_segmented --key u64 --n 2^26 --dist seg1024 "$@"
      local real=""
      for s in seg16 seg64; do
        for k in normal small_signed zipf nearly_sorted few_unique; do real="$real,$s:$k"; done
      done
      run seg_real bench --algo segmented,cub_segmented --key u32,f32,u64 --value none,u32 --n 2^26 "$@" \
        --dist "${real#,},segpow256:normal,segpow256:zipf" ;;
    topk)
      run topk_f32 bench-topk --key f32 --n 2^28 --k 1024,1048576 --dist uniform,unit "$@"
      run topk_u32 bench-topk --key u32 --n 2^28 --k 1024 --dist equal,sorted "$@"
      run topk_rows bench-topk --key f32 --rows 65536 --cols 4096 --k 32 "$@" ;;
    host)
      run host bench --algo host_pinned,host_pageable,host_naive_pinned,host_naive_pageable --key u64 --n 1e9 "$@" ;;
    cpu)
      local cpu=cpu_parallel,gnu_parallel,ips4o
      run cpu_u32 bench --algo $cpu --key u32 --n 1e8 "$@"
      run cpu_f32 bench --algo $cpu --key f32 --n 1e8 "$@"
      run cpu_u64 bench --algo $cpu --key u64 --n 1e8 "$@"
      run cpu_pairs bench --algo $cpu --key u32 --pairs --n 1e8 "$@" ;;
    python)
      local path=${PYTHONPATH:-}
      [ -d build/python/gpusort ] && path="$PWD/build/python${path:+:$path}"
      made+=("$parts/python.csv")
      PYTHONPATH="$path" python3 -m gpusort.bench --csv "$parts/python.csv" "$@" ||
        { echo "bench.sh: part python failed" >&2; status=1; } ;;
    headline)
      run hl_sorts bench --algo auto,radix_onesweep,radix_msd,cub_radix,cub_radix_cuda --key u32,u64 \
        --value none,u32 --n 2^28 "$@"
      run hl_segmented bench --algo segmented,cub_segmented --n 2^26 --dist segpow256 "$@"
      run hl_topk bench-topk --key f32 --n 2^28 --k 1024 --dist unit "$@"
      run hl_host bench --algo host_pageable,host_naive_pageable --key u64 --n 1e9 "$@"
      preset python ;;
    sweep) run sweep bench "$@" ;;
    dists)
      run dists bench --algo radix_onesweep,cub_radix,merge_path,cub_merge,sample,quick --n 2^26 "$@" \
        --dist sorted,reverse,equal,few_unique,zipf,entropy2,entropy4,organ_pipe,median3_killer,sample_killer ;;
    real-int)
      run real_int bench "${real_args[@]}" --key u32,i32,u64,i64 --dist "small_signed,ids,timestamps,$shared" "$@" ;;
    real-float)
      run real_float bench "${real_args[@]}" --key f32,f64 --dist "normal,unit,grid,$shared" "$@" ;;
    real) preset real-int "$@"; preset real-float "$@" ;;
    *) echo "bench.sh: unknown preset '$p' (see the head of scripts/bench.sh)" >&2; exit 2 ;;
  esac
}

# join_parts OUT: the parts, in the order they ran, into one CSV.
join_parts() {
  local out=$1 files=() f
  for f in "${made[@]}"; do [ -s "$f" ] && files+=("$f"); done
  [ ${#files[@]} -gt 0 ] || { echo "bench.sh: no results" >&2; exit 1; }
  mkdir -p "$(dirname "$out")"
  python3 bench/merge_csv.py "$out" "${files[@]}"
  echo "bench.sh: wrote $out"
}

case "${1:-all}" in
  all)
    [ $# -gt 0 ] && shift
    for p in core msd segmented topk host cpu; do preset "$p" "$@"; done
    preset python
    out=${CSV:-bench/results/$(slug).csv}
    join_parts "$out"
    if python3 -c 'import matplotlib' 2> /dev/null; then
      "$bin" plot --csv "$out" --out "${out%.csv}.png" || status=1
      "$bin" plot --headline --csv "$out" --out "${out%.csv}-headline.png" || status=1
    else
      echo "bench.sh: no figures (python3 cannot import matplotlib: pip install matplotlib)"
    fi ;;
  ab)
    shift
    other=${1:?usage: scripts/bench.sh ab OTHER_GPUSORT 'ARGS' ['ARGS'...]}
    shift
    [ $# -gt 0 ] || { echo "usage: scripts/bench.sh ab OTHER_GPUSORT 'ARGS' ['ARGS'...]" >&2; exit 2; }
    dir=$(mktemp -d)
    i=0
    for row in "$@"; do
      i=$((i + 1))
      k=0
      for _ in $(seq "${ROUNDS:-2}"); do
        for b in gpusort_before gpusort gpusort gpusort_before; do
          k=$((k + 1))
          exe=$bin
          [ "$b" = gpusort_before ] && exe=$other
          # shellcheck disable=SC2086
          "$exe" bench $row --csv "$dir/r${i}_${b}_${k}.csv" > /dev/null 2>&1 ||
            echo "bench.sh: row $i ($row): $b run $k failed" >&2
        done
      done
      echo "row $i: $row" >> "$dir/rows.txt"
    done
    python3 bench/ab_compare.py "$dir"
    echo "bench.sh: the runs' CSVs are in $dir" ;;
  -*) "$bin" bench "$@" ;;
  *)
    p=$1
    shift
    preset "$p" "$@"
    out=${CSV:-bench/results/$(slug)-$p.csv}
    join_parts "$out"
    if [ "$p" = headline ]; then
      if python3 -c 'import matplotlib' 2> /dev/null; then
        "$bin" plot --headline --csv "$out" --out "${out%.csv}.png" ${README:+--readme "$README"} || status=1
      else  # the table alone
        python3 bench/headline.py "$out" --table ${README:+--readme "$README"} || status=1
      fi
    fi ;;
esac
exit $status
