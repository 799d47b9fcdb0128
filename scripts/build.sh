#!/usr/bin/env bash
# Configures and builds gpusort into build/.
#   scripts/build.sh [TARGET...] [-- CMAKE_ARGS...]
# With no target it builds everything (library, tests, CLI, the Python
# module into build/python/gpusort). Extra CMake
# configure arguments follow `--`, e.g. -- -DCMAKE_CUDA_ARCHITECTURES=80
# -DGPUSORT_KEYS="u32;f32".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="/usr/local/cuda/bin:$PATH"
targets=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do targets+=(--target "$1"); shift; done
[ "${1:-}" = "--" ] && shift
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  # Paths hashed relative to the compile's directory: another clone, or
  # scripts/wheel.sh's source copy, reuses these objects.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSORT_BUILD_PYTHON=ON "${launcher[@]}" "$@"
cmake --build build --parallel "$(nproc)" "${targets[@]}"
