#!/usr/bin/env bash
# On the lent GPU machine (no GoogleTest package there): configure and build
# into build-dev with the GoogleTest sources carried in .deps/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
if [ ! -f build-dev/build.ninja ]; then
  cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSORT_GTEST_SOURCE="$PWD/.deps/googletest" >/dev/null
fi
ninja -C build-dev -j"$(nproc)" 2>&1 | grep -E "error|FAILED|warning: [^#]" | head -40 || true
test -x build-dev/gpusort && test -x build-dev/tests/gpusort_tests
