#!/usr/bin/env bash
# Before/after timing of two CLI builds on the lent GPU machine, interleaved so
# that drift (clocks, temperature over minutes of load) falls on both alike:
# every row runs A, B, B, A (ROUNDS times), each run a `gpusort bench`
# invocation of its own (median of --reps inside it). Binaries: .carry/
# gpusort_before.xz and .carry/gpusort.xz (strip, then xz -6: two fit the
# 64 MiB carry). Rows: one `gpusort bench` argument list a line, in $AB_ROWS
# or the file $AB_ROWS_FILE, e.g.
#   AB_ROWS=$'--algo radix_msd --key u64 --value u64 --n 2^27\n--algo radix_msd --key u64 --n 2^30'
# CSVs go to $OUT/ab/<row>_<binary>_<k>.csv, and bench/ab_compare.py prints
# each row's medians and the after/before time ratio.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}/ab
mkdir -p "$out" /tmp/bin
for b in gpusort gpusort_before; do
  xz -dc ".carry/$b.xz" > "/tmp/bin/$b" && chmod +x "/tmp/bin/$b" || { echo "missing .carry/$b.xz" >&2; exit 2; }
done
rows=${AB_ROWS:-}
[ -n "${AB_ROWS_FILE:-}" ] && rows=$(cat "$AB_ROWS_FILE")
[ -n "$rows" ] || { echo "set AB_ROWS or AB_ROWS_FILE" >&2; exit 2; }
rounds=${ROUNDS:-2}
i=0
while IFS= read -r row; do
  [ -z "$row" ] && continue
  i=$((i + 1))
  k=0
  for r in $(seq "$rounds"); do
    for b in gpusort_before gpusort gpusort gpusort_before; do
      k=$((k + 1))
      # shellcheck disable=SC2086
      timeout "${AB_TIMEOUT:-200}" "/tmp/bin/$b" bench $row --csv "$out/r${i}_${b}_${k}.csv" > /dev/null 2>&1 ||
        echo "row $i ($row): $b run $k failed" >&2
    done
  done
  echo "row $i: $row" >> "$out/rows.txt"
done <<< "$rows"
python3 bench/ab_compare.py "$out"
