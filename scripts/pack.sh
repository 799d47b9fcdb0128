#!/usr/bin/env bash
# Builds the CLI and the test binary and writes them, stripped and
# xz-compressed, into a folder, for a GPU machine that runs them without a
# toolchain (both link the CUDA runtime statically; the machine needs the
# NVIDIA driver, and NCCL for the multi-GPU parts):
#   scripts/pack.sh DIR [-- CMAKE_ARGS...]
# writes DIR/gpusort.xz and DIR/gpusort_tests.xz. On the other machine:
#   xz -dk gpusort.xz gpusort_tests.xz && chmod +x gpusort gpusort_tests
# then e.g. GPUSORT=./gpusort scripts/bench.sh, or ./gpusort_tests.
set -euo pipefail
dir=${1:?usage: scripts/pack.sh DIR [-- CMAKE_ARGS...]}
shift
cd "$(dirname "$0")/.."
bash scripts/build.sh gpusort_cli gpusort_tests "$@"
mkdir -p "$dir"
for b in build/gpusort build/tests/gpusort_tests; do
  name=$(basename "$b")
  strip -o "$dir/$name" "$b"
  xz -6 -T0 -f "$dir/$name"
  echo "pack.sh: $dir/$name.xz ($(du -h "$dir/$name.xz" | cut -f1))"
done
