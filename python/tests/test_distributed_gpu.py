"""Several GPUs: the launched rank tests (test_distributed_ranks.py) under
torchrun and under mpirun, and gpusort.sort(host_array, devices=) in this
process. Skips, with the reason, below two GPUs or without the multi-GPU
module, and each launcher without its tools."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import gpusort
import oracle
from gpusort import _dist_load, _host_multi

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS = os.path.join(HERE, "test_distributed_ranks.py")


def _gpus():
    return _dist_load.module().device_count() if _dist_load.available() else 0


pytestmark = [
    pytest.mark.skipif(not _dist_load.available(), reason="no gpusort._gpusort_dist in this build (no NCCL)"),
    pytest.mark.skipif(_dist_load.available() and _gpus() < 2,
                       reason=f"needs two GPUs ({_gpus() if _dist_load.available() else 0} visible)"),
]


def _launch(cmd):
    env = dict(os.environ, NCCL_NVLS_ENABLE=os.environ.get("NCCL_NVLS_ENABLE", "0"),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=env, cwd=HERE)
    assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stdout[-6000:]}\n{r.stderr[-6000:]}"


def test_torchrun_two_ranks():
    pytest.importorskip("torch", reason="PyTorch is not installed")
    _launch([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", "-m", "pytest",
             "-q", "-x", "-p", "no:cacheprovider", RANKS])


def test_mpirun_two_ranks():
    pytest.importorskip("cupy", reason="CuPy is not installed")
    pytest.importorskip("mpi4py", reason="mpi4py is not installed")
    mpirun = shutil.which("mpirun") or shutil.which("mpiexec")
    if mpirun is None:
        pytest.skip("no mpirun or mpiexec on PATH")
    extra = ["--allow-run-as-root", "--oversubscribe"] if "Open MPI" in subprocess.run(
        [mpirun, "--version"], capture_output=True, text=True).stdout else []
    _launch([mpirun, *extra, "-np", "2", sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", RANKS])


@pytest.mark.parametrize("dtype", ["uint32", "int64", "float32", "float64"])
@pytest.mark.parametrize("descending", [False, True])
def test_host_array_over_every_gpu(dtype, descending):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(3_000_001) * 1e6).astype(dtype) if dtype.startswith("float") else \
        rng.integers(0, 1 << 30, 3_000_001).astype(dtype)
    before = x.copy()
    u = oracle.UINT[x.dtype.itemsize]
    ref = oracle.sort(x, descending).view(u)
    assert np.array_equal(gpusort.sort(x, devices=2, descending=descending).view(u), ref)
    assert np.array_equal(x, before)
    assert gpusort.sort_(x, devices=list(range(_gpus())), descending=descending) is x
    assert np.array_equal(x.view(u), ref)


@pytest.mark.parametrize("pinned_in", [False, True])
def test_host_tensor_into_a_pinned_output(pinned_in):
    """A page-locked out= takes the direct path (the GPUs write it by DMA)."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    x = torch.from_numpy(np.random.default_rng(9).integers(-(1 << 40), 1 << 40, 2_000_003, dtype=np.int64))
    if pinned_in:
        x = x.pin_memory()
    before = x.clone()
    out = torch.empty_like(x).pin_memory()
    assert gpusort.sort(x, devices=2, out=out) is out
    assert torch.equal(out, torch.sort(before).values) and torch.equal(x, before)


def test_host_default_uses_every_gpu_from_the_threshold(monkeypatch):
    calls = []
    real = _host_multi.sort
    monkeypatch.setattr(_host_multi, "sort", lambda *a: calls.append(a[3]) or real(*a))
    monkeypatch.setattr(_host_multi, "MULTI_MIN_KEYS", 1 << 20)
    x = np.random.default_rng(2).integers(0, 1 << 62, (1 << 20) + 3, dtype=np.uint64)
    assert np.array_equal(gpusort.sort(x), np.sort(x)) and calls == [_gpus()]
    assert np.array_equal(gpusort.sort(x[:1000]), np.sort(x[:1000])) and len(calls) == 1
    import gpusort.distributed as gd
    gd.release_host_cache()
