#!/usr/bin/env bash
# Builds the library and its tests (not the CLI: scripts/bench.sh builds
# that) and runs every test. Without a CUDA device the GPU tests are
# reported as skipped, with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh gpusort_tests
# Say up front whether the GPU suites will run or skip, and why.
./build/tests/gpusort_tests --gtest_filter='GpuSanitize.U8' 2>&1 | grep -E '^\[gpusort\]|SKIPPED \]' | head -n 2 || true
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
