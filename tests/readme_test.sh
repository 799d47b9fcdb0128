#!/usr/bin/env bash
# The README's quick starts, as written: its C++ example and CMakeLists.txt
# built against an installed gpusort (find_package), its Python examples on
# the installed package (the NumPy one always; the PyTorch one where PyTorch
# sees a GPU; the JAX one where gpusort.jax imports) and its command-line
# example with a given gpusort binary. Without a GPU the host-memory calls
# take the CPU path, which is what runs in CI.
#   tests/readme_test.sh PREFIX GPUSORT_BINARY
set -euo pipefail
prefix=$(cd "${1:?usage: tests/readme_test.sh PREFIX GPUSORT_BINARY}" && pwd)
bin=$(cd "$(dirname "${2:?usage: tests/readme_test.sh PREFIX GPUSORT_BINARY}")" && pwd)/$(basename "$2")
readme=$(cd "$(dirname "$0")/.." && pwd)/README.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# block LANG: the fenced blocks of that language, one after another
block() { sed -n "/^\`\`\`$1\$/,/^\`\`\`\$/p" "$readme" | sed '/^```/d'; }

cd "$work"
mkdir app && block cpp > app/app.cpp && block cmake > app/CMakeLists.txt
cmake -S app -B app/build -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > app/configure.log
cmake --build app/build > app/build.log
echo "readme: C++ quick start: $(./app/build/app)"

# the Python blocks: the first uses NumPy; the second needs a GPU through
# PyTorch; the third JAX (its CPU platform will do) and gpusort.jax; the
# several-GPU blocks after it (from "# torchrun") need a launcher and two
# GPUs: python/tests/test_distributed_ranks.py runs their calls
block python > all.py
awk 'BEGIN{b=0} /^import gpusort, numpy/{b=1} /^import gpusort, torch/{b=2} b==1' all.py > numpy_qs.py
python3 numpy_qs.py && echo "readme: Python quick start (NumPy) ran"
if python3 -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
  awk 'BEGIN{b=0} /^import gpusort, torch/{b=1} /^import jax, gpusort.jax/{b=2} b==1' all.py > torch_qs.py
  python3 torch_qs.py && echo "readme: Python quick start (PyTorch) ran"
else
  echo "readme: Python quick start (PyTorch) skipped: no PyTorch with a GPU here"
fi
if python3 -c 'import gpusort.jax' 2>/dev/null; then
  awk 'BEGIN{b=0} /^import jax, gpusort.jax/{b=1} /^# (torchrun|mpirun)/{b=2} b==1' all.py > jax_qs.py
  python3 jax_qs.py && echo "readme: Python quick start (JAX) ran"
else
  echo "readme: Python quick start (JAX) skipped: no jax, or gpusort built without XLA's FFI headers"
fi

# the command-line block, with build/gpusort standing for the given binary
mkdir -p build && ln -s "$bin" build/gpusort
block sh | awk '/build\/gpusort gen/,/build\/gpusort topk/' > cli.sh
bash -e cli.sh > cli.log 2>&1 || { cat cli.log; exit 1; }
build/gpusort verify --key u64 sorted.bin > /dev/null
python3 -c 'import gzip, io, numpy as np; a = np.load(io.BytesIO(gzip.open("sorted.npy.gz").read())); assert (np.diff(a) >= 0).all(), "not sorted"; assert a.size == 10**7'
python3 -c 'import numpy as np; t, s = np.load("table.npy"), np.load("by_country.npy"); assert s.tobytes() == t[np.lexsort((-t["score"], t["country"]))].tobytes(), "--by"'
echo "readme: command-line quick start ran (the piped sort's output sorted, the --by sort as numpy.lexsort's)"
