#!/usr/bin/env bash
# Builds everything and runs the test suites. Without a CUDA device the GPU
# tests are reported as skipped, with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
