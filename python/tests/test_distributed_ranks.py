"""gpusort.distributed on every rank of a launched job: run by a launcher,
one pytest per rank, the same tests in the same order (each a collective):
    torchrun --nproc_per_node 2 -m pytest -q python/tests/test_distributed_ranks.py   # PyTorch, NCCL group
    mpirun -np 2 python -m pytest -q python/tests/test_distributed_ranks.py          # CuPy, mpi4py
(test_distributed_gpu.py launches both when the machine has two GPUs.)
Each rank's shard comes from a seed and its rank; every rank rebuilds the
whole input, so the oracle (oracle.py: NumPy's stable sort on the keys'
ranks) needs no gather of inputs; the outputs are all-gathered and compared
bit for bit, with the balance, the source pointers and the stability."""
import os

import numpy as np
import pytest

import oracle

TORCH_RUN = "TORCHELASTIC_RUN_ID" in os.environ or ("RANK" in os.environ and "LOCAL_RANK" in os.environ)
MPI_RUN = any(k in os.environ for k in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"))
if not (TORCH_RUN or MPI_RUN):
    pytest.skip("runs on every rank of a job: torchrun --nproc_per_node 2 -m pytest ..., or mpirun -np 2 python -m "
                "pytest ... (test_distributed_gpu.py launches both)", allow_module_level=True)

DTYPES = ["int32", "int64", "float32", "float64", "uint32", "int16", "float16"]
LAYOUTS = {"even": lambda p: [40_000] * p, "uneven": lambda p: [1000 * (7 * q + 1) ** 2 for q in range(p)],
           "one_empty": lambda p: [0] + [30_001] * (p - 1), "tiny": lambda p: [q % 2 for q in range(p)]}


class Job:
    """The framework's view of the job: rank, size, device arrays and the all-gather of outputs."""

    def __init__(self):
        if TORCH_RUN:
            import torch
            import torch.distributed as dist
            self.torch, self.dist = torch, dist
            torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
            if not dist.is_initialized():
                dist.init_process_group("nccl")
            self.rank, self.size = dist.get_rank(), dist.get_world_size()
        else:
            import cupy
            from mpi4py import MPI
            self.cupy, self.comm = cupy, MPI.COMM_WORLD
            self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
            cupy.cuda.Device(self.rank % cupy.cuda.runtime.getDeviceCount()).use()

    def device(self, host):
        if TORCH_RUN:
            return self.torch.from_numpy(np.ascontiguousarray(host)).cuda()
        return self.cupy.asarray(host)

    def gather(self, arr):
        """Every rank's array (on the host), by rank."""
        if TORCH_RUN:
            out = [None] * self.size
            self.dist.all_gather_object(out, arr.cpu().numpy())
            return out
        return self.comm.allgather(self.cupy.asnumpy(arr))


@pytest.fixture(scope="module")
def job():
    return Job()


def shard_of(dtype, sizes, q, skew=False, seed=1):
    rng = np.random.default_rng([seed, q])
    n = sizes[q]
    dt = np.dtype(dtype)
    if skew:
        return rng.integers(0, 4, n).astype(dt)
    if dt.kind == "f":
        x = (rng.standard_normal(n) * 1000).astype(dt)
        if n >= 4:
            x[:4] = np.array([np.nan, -np.inf, -0.0, np.inf], dtype=dt)
        return x
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)


def check(job, parts, shards, descending, counts_balanced=True):
    """The gathered parts are the global stable order of the shards."""
    whole = np.concatenate(shards)
    got = np.concatenate(parts)
    u = oracle.UINT[whole.dtype.itemsize]
    assert np.array_equal(got.view(u), oracle.sort(whole, descending).view(u))
    n = whole.size
    if counts_balanced and n >= 1 << 16:
        assert all(abs(len(p) - n / job.size) <= 0.06 * n / job.size for p in parts), [len(p) for p in parts]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_sort(job, dtype, descending, layout):
    import gpusort.distributed as gd
    sizes = LAYOUTS[layout](job.size)
    shards = [shard_of(dtype, sizes, q) for q in range(job.size)]
    part = gd.sort(job.device(shards[job.rank]), descending=descending)
    check(job, job.gather(part), shards, descending)


@pytest.mark.parametrize("dtype", ["uint32", "float32", "int64"])
@pytest.mark.parametrize("descending", [False, True])
def test_skewed_keys_and_source_pointers(job, dtype, descending):
    import gpusort.distributed as gd
    sizes = LAYOUTS["uneven"](job.size)
    shards = [shard_of(dtype, sizes, q, skew=True) for q in range(job.size)]
    keys, src_rank, src_pos = gd.sort(job.device(shards[job.rank]), descending=descending, return_indices=True)
    check(job, job.gather(keys), shards, descending)
    ranks, pos = np.concatenate(job.gather(src_rank)), np.concatenate(job.gather(src_pos))
    offsets = np.cumsum([0] + sizes)
    flat = offsets[ranks] + pos
    assert np.unique(flat).size == flat.size == offsets[-1]  # every source once
    whole = np.concatenate(shards)
    assert np.array_equal(whole[flat], np.concatenate(job.gather(keys)))  # and pointing at its key
    assert np.array_equal(flat, oracle.argsort(whole, descending))  # stable across ranks


@pytest.mark.parametrize("layout", ["uneven", "one_empty"])
def test_sort_pairs(job, layout):
    import gpusort.distributed as gd
    sizes = LAYOUTS[layout](job.size)
    shards = [shard_of("float32", sizes, q, skew=True) for q in range(job.size)]
    offsets = np.cumsum([0] + sizes)
    ids = np.arange(offsets[job.rank], offsets[job.rank + 1], dtype=np.int64)
    wide = np.zeros((ids.size,), dtype=np.complex128)
    wide.real = ids
    k, v = gd.sort_pairs(job.device(shards[job.rank]), job.device(ids))
    check(job, job.gather(k), shards, False)
    whole = np.concatenate(shards)
    assert np.array_equal(np.concatenate(job.gather(v)), oracle.argsort(whole))
    _, w = gd.sort_pairs(job.device(shards[job.rank]), job.device(wide), descending=True)
    assert np.array_equal(np.concatenate(job.gather(w)).real.astype(np.int64), oracle.argsort(whole, True))


def test_every_rank_empty(job):
    import gpusort.distributed as gd
    part = gd.sort(job.device(np.zeros(0, np.float64)))
    assert part.shape == (0,)


def test_dtype_mismatch_raises_on_every_rank(job):
    import gpusort.distributed as gd
    x = np.arange(100, dtype=np.int32 if job.rank == 0 else np.int64)
    with pytest.raises(TypeError, match="different dtypes"):
        gd.sort(job.device(x))


def test_wrong_device_raises_on_every_rank(job):
    import gpusort.distributed as gd
    if job.size < 2 or not TORCH_RUN or job.torch.cuda.device_count() < 2:
        pytest.skip("needs two GPUs in one torch job")
    torch = job.torch
    x = torch.arange(100, device="cuda:0" if job.rank == 1 else "cuda")
    with pytest.raises(ValueError, match="current device" if job.rank == 1 else "rank 1 failed its checks"):
        gd.sort(x)
    # the group is still in step: a good call works after it
    check(job, job.gather(gd.sort(torch.arange(10, device="cuda"))), [np.arange(10)] * job.size, False)


def test_release_and_gloo_group(job):
    import gpusort.distributed as gd
    shards = [shard_of("int64", [5000] * job.size, q) for q in range(job.size)]
    gd.release()
    check(job, job.gather(gd.sort(job.device(shards[job.rank]))), shards, False)
    if TORCH_RUN:
        gloo = job.dist.new_group(backend="gloo")
        check(job, job.gather(gd.sort(job.device(shards[job.rank]), group=gloo)), shards, False)
        gd.release(gloo)
