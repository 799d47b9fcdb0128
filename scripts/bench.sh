#!/usr/bin/env bash
# Builds everything and runs the benchmark suite (every algorithm against
# CUB, Thrust and the CPU baselines), writing bench/results/<device>.csv.
# Arguments go to `gpusort bench` (see `build/gpusort bench --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/gpusort bench "$@"
