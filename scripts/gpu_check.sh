#!/usr/bin/env bash
# The GPU check, on the machine it runs on (a GPU CI runner, a workstation):
#   scripts/gpu_check.sh [STEP...]
# STEP (default: all of them, in this order):
#   tests     every GoogleTest suite (the GPU ones run here; the multi-GPU
#             suites over every visible GPU where NCCL was found)
#   python    the pytest suites on the module in build/python (the GPU
#             suites run where PyTorch, CuPy or JAX see a GPU)
#   sanitize  compute-sanitizer memcheck and racecheck on the small cases
#             of every algorithm, the segmented sort and top-k (the
#             GpuSanitize* tests)
#   smoke     `gpusort bench --smoke` of every algorithm, every output
#             verified (needs build/gpusort: scripts/build.sh gpusort_cli)
# It builds what those steps need and is missing (the tests, the Python
# module) into build/ first. Logs go to $LOGS (default build/gpu_check/), one per step; the
# script prints one line per step and exits 1 if any step failed.
# Environment:
#   TEST_FILTER       gtest filter of the tests step (default '*')
#   MEMCHECK_FILTER   tests run under memcheck (default below)
#   RACECHECK_FILTER  tests run under racecheck (slower; default below)
#   GPUSORT_SANITIZE_ALGOS  restricts GpuSanitize's algorithms (name,name)
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
# The multi-GPU exchange is point-to-point: NVLink SHARP multicast stays off.
export NCCL_NVLS_ENABLE=0
logs=${LOGS:-build/gpu_check}
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(tests python sanitize smoke)
tests_bin=build/tests/gpusort_tests
memcheck_filter=${MEMCHECK_FILTER:-GpuSanitize*:GpuTopkSanitize*}
racecheck_filter=${RACECHECK_FILTER:-GpuSanitize.U8:GpuSanitizeSegmented.U8:GpuTopkSanitize*}

if ! nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; then
  echo "gpu_check: no GPU visible (nvidia-smi failed): the GPU suites would only skip" >&2
  exit 2
fi
# Build what the steps need and is missing (the smoke step only uses an
# existing build/gpusort).
need=()
for s in "${steps[@]}"; do
  case "$s" in
    tests | sanitize) [ -x "$tests_bin" ] || need+=(gpusort_tests) ;;
    python) [ -d build/python/gpusort ] || need+=(_gpusort) ;;
  esac
done
if [ ${#need[@]} -gt 0 ]; then
  bash scripts/build.sh "${need[@]}" || exit 2
fi
mkdir -p "$logs"

failed=0
# step NAME COMMAND...: runs one step into $logs/NAME.log and reports it.
step() {
  local name=$1
  shift
  local s=$SECONDS
  "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ]; then
    echo "gpu_check: $name passed ($((SECONDS - s)) s)"
  else
    failed=1
    echo "gpu_check: $name FAILED (exit $rc, $((SECONDS - s)) s; log: $logs/$name.log)"
    grep -E "^\[  FAILED|Failure|ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: [1-9]|Hazard|Invalid|FAILED" \
      "$logs/$name.log" | head -20
  fi
}

# A sanitizer's own exit code, not the tests', says whether it found errors.
sanitize() {
  local tool=$1 filter=$2
  compute-sanitizer --tool "$tool" --error-exitcode 3 "$tests_bin" --gtest_brief=1 --gtest_filter="$filter"
}

for s in "${steps[@]}"; do
  case "$s" in
    tests) step tests "$tests_bin" --gtest_brief=1 --gtest_filter="${TEST_FILTER:-*}" ;;
    python) step python env PYTHONPATH="$PWD/build/python" python3 -m pytest -q -rs -p no:cacheprovider python/tests ;;
    sanitize)
      command -v compute-sanitizer > /dev/null || { echo "gpu_check: compute-sanitizer not found"; failed=1; continue; }
      step memcheck sanitize memcheck "$memcheck_filter"
      step racecheck sanitize racecheck "$racecheck_filter" ;;
    smoke)
      if [ ! -x build/gpusort ]; then
        echo "gpu_check: smoke skipped: build/gpusort is missing (scripts/build.sh gpusort_cli)"
        continue
      fi
      all=odd_even,bitonic,merge_recursive,merge_bottom_up,merge_path,radix_split,radix_tile,radix_onesweep,radix_msd,sample,quick
      step smoke build/gpusort bench --smoke --algo "$all" --csv "$logs/smoke.csv"
      # `bench` exits 1 when an output fails verification; say how many rows ran.
      [ -f "$logs/smoke.csv" ] && echo "gpu_check: smoke rows verified: $(grep -c ',1$' "$logs/smoke.csv")," \
        "unverified: $(grep -c ',0$' "$logs/smoke.csv")" ;;
    *) echo "usage: $0 [tests|python|sanitize|smoke]..." >&2; exit 2 ;;
  esac
done
exit $failed
