#!/usr/bin/env bash
# The GPU check of issues 15 and 17 in one call, over .carry/gpusort_tests.xz
# and .carry/prefix.tar.xz (see scripts/device_msd_topk.sh): the top-k suites,
# the graph-capture suite (every algorithm) and radix_msd's, memcheck and
# racecheck on small top-k cases, then the whole pytest suite against the
# pip-installed package. Logs to $OUT.
set -u
final=$OUT; out=/tmp/o; mkdir -p /tmp/bin $out
xz -dc .carry/gpusort_tests.xz > /tmp/bin/gpusort_tests; chmod +x /tmp/bin/gpusort_tests
T=/tmp/bin/gpusort_tests
nvidia-smi --query-gpu=name --format=csv,noheader
(xz -dc .carry/prefix.tar.xz | tar -C /tmp -xf - && \
 PIP_ROOT_USER_ACTION=ignore timeout 250 python3 -m pip install -q --disable-pip-version-check --no-build-isolation . \
   -Cbuild-dir=/tmp/pipbuild -Ccmake.define.GPUSORT_PYTHON_ONLY=ON -Ccmake.define.CMAKE_PREFIX_PATH=/tmp/prefix > $out/pip.log 2>&1; echo "pip rc=$?" >> $out/pip.log) &
pippid=$!
timeout 170 $T --gtest_filter='TopkPlan*:GpuTopk*' > $out/t_topk.log 2>&1; echo "topk tests rc=$?"; grep -E "^\[  FAILED|Failure" $out/t_topk.log | head; grep -E "tests? from .* ran|PASSED" $out/t_topk.log | tail -2
timeout 200 $T --gtest_filter='GpuGraph*:GpuRadixMsd*' > $out/t_graph.log 2>&1; echo "graph+msd tests rc=$?"; grep -E "^\[  FAILED|Failure" $out/t_graph.log | head; grep -E "^\[       OK \] GpuGraph" $out/t_graph.log; grep -E "tests? from .* ran|PASSED" $out/t_graph.log | tail -2
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='GpuTopkGraph*:GpuTopkSanitize*:GpuTopk/2.Segments' > $out/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY" $out/memcheck.log | sort | uniq -c
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $T --gtest_filter='GpuTopkSanitize*:GpuTopk/0.Segments:GpuTopk/3.Segments' > $out/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY" $out/racecheck.log | sort | uniq -c
wait $pippid; tail -1 $out/pip.log
repo=$(pwd); (cd /tmp && timeout 120 python3 -m pytest -q -p no:cacheprovider $repo/python/tests > $out/pytest.log 2>&1; echo "pytest rc=$?" >> $out/pytest.log); tail -2 $out/pytest.log
cp $out/t_topk.log $out/t_graph.log $out/memcheck.log $out/racecheck.log $out/pytest.log $final/ 2>/dev/null
