#!/usr/bin/env bash
# Builds the CLI and runs the benchmark suite (every algorithm against
# CUB, Thrust and the CPU baselines), writing bench/results/<device>.csv.
# Arguments go to `gpusort bench` (see `build/gpusort bench --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh gpusort_cli
./build/gpusort bench "$@"
