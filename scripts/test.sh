#!/usr/bin/env bash
# Builds the library, its tests and the Python module (not the CLI:
# scripts/bench.sh builds that) and runs every test: the GoogleTest suites,
# then the Python package's pytest suites on the module in build/python.
# Without a CUDA device the GPU tests are reported as skipped, with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh gpusort_tests _gpusort
# Say up front whether the GPU suites will run or skip, and why.
./build/tests/gpusort_tests --gtest_filter='GpuSanitize.U8' 2>&1 | grep -E '^\[gpusort\]|SKIPPED \]' | head -n 2 || true
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
PYTHONPATH="$PWD/build/python" python3 -m pytest -q -rs -p no:cacheprovider python/tests
