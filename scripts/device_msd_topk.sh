#!/usr/bin/env bash
# The H100/H200 benchmark of issues 15 and 17 in one call (under 3 minutes),
# over binaries built here and carried: .carry/gpusort.xz (the CLI) and
# .carry/prefix.tar.xz (cmake --install of the library, for the Python
# package: pip-installed there against it, GPUSORT_PYTHON_ONLY). Runs
# scripts/device_bench.sh msd, gpusort bench-topk (f32 k = 1024 and 2^20, uniform and unit,
# u32 all-equal and sorted, rows of 4096), python -m gpusort.bench
# --topk-only and pytest -k topk, then joins the CSVs into $OUT/session.csv
# (bench/merge_csv.py): the committed bench/results/nvidia-h100-80gb-hbm3.csv.
set -u
final=$OUT; out=/tmp/o; mkdir -p /tmp/bin $out
for f in .carry/gpusort.xz; do xz -dc $f > /tmp/bin/$(basename $f .xz); chmod +x /tmp/bin/$(basename $f .xz); done
G=/tmp/bin/gpusort
nvidia-smi --query-gpu=name --format=csv,noheader
if [ -e .carry/prefix.tar.xz ]; then
(xz -dc .carry/prefix.tar.xz | tar -C /tmp -xf - && \
 PIP_ROOT_USER_ACTION=ignore timeout 250 python3 -m pip install -q --disable-pip-version-check --no-build-isolation . \
   -Cbuild-dir=/tmp/pipbuild -Ccmake.define.GPUSORT_PYTHON_ONLY=ON -Ccmake.define.CMAKE_PREFIX_PATH=/tmp/prefix > $out/pip.log 2>&1; echo "pip rc=$?" >> $out/pip.log) &
fi

OUT=$out BENCH_TIMEOUT=150 bash scripts/device_bench.sh msd > $out/msd.log 2>&1; echo "msd rc=$?"; cat $out/msd.log | tail -6
timeout 120 $G bench-topk --key f32 --n 2^28 --k 1024,1048576 --dist uniform,unit --csv $out/t_f32.csv > $out/topk.log 2>&1; echo "topk f32 rc=$?"
timeout 100 $G bench-topk --key u32 --n 2^28 --k 1024 --dist equal,sorted --csv $out/t_u32.csv >> $out/topk.log 2>&1; echo "topk u32 rc=$?"
timeout 60 $G bench-topk --key f32 --rows 65536 --cols 4096 --k 32 --csv $out/t_rows.csv >> $out/topk.log 2>&1; echo "topk rows rc=$?"
wait; tail -1 $out/pip.log 2>/dev/null
repo=$(pwd); (cd /tmp && timeout 100 python3 -m gpusort.bench --topk-only --csv $out/py.csv > $out/py.log 2>&1; echo "py bench rc=$?"); tail -3 $out/py.log
(cd /tmp && timeout 100 python3 -m pytest -q -p no:cacheprovider $repo/python/tests -k "topk" > $out/pytest.log 2>&1; echo "pytest rc=$?" >> $out/pytest.log); tail -2 $out/pytest.log
python3 bench/merge_csv.py $out/session.csv $out/after_m_u64.csv $out/after_m_pairs64.csv $out/after_m_pairs32.csv $out/after_m_u32.csv $out/after_m_cmp.csv $out/t_f32.csv $out/t_u32.csv $out/t_rows.csv $out/py.csv
grep -v "^#" $out/session.csv | grep -v "^algorithm" | cut -d, -f1-7
cp $out/session.csv $out/py.log $out/pytest.log $out/bench.log $out/topk.log $final/ 2>/dev/null
