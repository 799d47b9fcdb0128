"""Device memory of gpusort calls on GPU arrays: the outputs and the scratch
come from PyTorch's caching allocator and CuPy's memory pool, and nothing is
left behind; and the sequence of 2^30-key sorts that once ran gpusort out of
memory beside those allocators' caches. Skipped, with the reason, where
there is no GPU, no framework, or (the 2^30 sequence) less than 70 GiB."""
import pytest

import gpusort
from gpusort import _arrays
from gpusort import _gpusort as core

if not gpusort.gpu_available():
    pytest.skip("no CUDA device: the GPU tests need one", allow_module_level=True)

N = 1 << 24  # sort's, argsort's and the rows' scratch are far above _arrays.POOL_MAX
M = 1 << 20  # the slice of a 2^30-key result that is checked


def every_call(x, offsets):
    """Each device call of the package on x; every result dropped at once."""
    gpusort.sort(x)
    gpusort.sort(x, descending=True, algorithm="radix_onesweep")
    gpusort.argsort(x)
    gpusort.argsort(x, index_dtype="int32")
    gpusort.topk(x, 1000)
    gpusort.sort_pairs(x, x)
    gpusort.sort(x.reshape(64, -1))
    gpusort.argsort(x.reshape(64, -1))
    gpusort.segmented_sort(x, offsets)


def argsort_scratch(x_ptr, out_ptr):
    key = _arrays.KEY_CODE["f32"]
    return core.argsort_device(key, N, 1, x_ptr, out_ptr, 8, False, "auto", 0, -1, 0, 0, pool_max=0)


def own_pool_reserved(device):
    return core.pool_bytes(device)[0]


def test_torch_scratch_and_outputs_come_from_torch():
    torch = pytest.importorskip("torch")
    x = torch.randn(N, device="cuda")
    offsets = torch.tensor([0, 5, N // 3, N], device="cuda", dtype=torch.int64)
    every_call(x, offsets)  # the module's first calls set up what it keeps
    torch.cuda.synchronize()
    gpusort.release_memory()
    start = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    for _ in range(3):
        every_call(x, offsets)
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() == start
    # argsort's int64 output and its scratch were both held from torch at once
    need = argsort_scratch(x.data_ptr(), x.data_ptr() + 4 * N)
    assert torch.cuda.max_memory_allocated() >= start + 8 * N + need
    assert own_pool_reserved(x.get_device()) < need // 2  # small scratch only, at the pool's granularity


def test_cupy_scratch_and_outputs_come_from_cupy():
    cupy = pytest.importorskip("cupy")
    x = cupy.random.standard_normal(N, dtype=cupy.float32)
    offsets = cupy.asarray([0, 5, N // 3, N], dtype=cupy.int64)
    every_call(x, offsets)
    cupy.cuda.Device().synchronize()
    gpusort.release_memory()
    pool = cupy.get_default_memory_pool()
    pool.free_all_blocks()
    start = pool.used_bytes()
    for _ in range(3):
        every_call(x, offsets)
    cupy.cuda.Device().synchronize()
    assert pool.used_bytes() == start
    # the pool grew to hold argsort's int64 output and its scratch at once
    need = argsort_scratch(x.data.ptr, x.data.ptr + 4 * N)
    assert pool.total_bytes() >= start + 8 * N + need
    assert own_pool_reserved(x.device.id) < need // 2


def test_argsort_into_its_own_keys():
    """out=x: the output overlaps the keys, so the call keeps its working
    data in scratch instead of the output."""
    torch = pytest.importorskip("torch")
    for shape in ((1 << 20,), (4, 70001)):
        x = torch.randint(-1000, 1000, shape, device="cuda", dtype=torch.int64)
        want = torch.argsort(x, dim=-1, stable=True)
        assert gpusort.argsort(x, out=x) is x
        assert torch.equal(x, want)


@pytest.mark.slow
def test_sorts_of_2_30_keys_beside_torch_and_cupy_caches():
    """2^30 f32 keys (4 GiB), three times over: torch.sort, cupy.sort,
    cupy.argsort, gpusort.sort, gpusort.argsort, torch.argsort. gpusort's
    argsort once asked for 21.6 GB of scratch from its own pool while 64 GB
    sat in the two frameworks' caches, and failed with MemoryError."""
    torch = pytest.importorskip("torch")
    cupy = pytest.importorskip("cupy")
    total = torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory
    if total < 70 * 2**30:
        pytest.skip(f"needs a card of 70 GiB or more (this one has {total / 2**30:.0f} GiB)")
    x = torch.rand(1 << 30, device="cuda")
    xc = cupy.from_dlpack(x)
    start = torch.cuda.memory_allocated()
    for _ in range(3):
        v = torch.sort(x).values
        head = v[:M].clone()
        del v
        head_c = cupy.from_dlpack(head)
        c = cupy.sort(xc)
        assert bool((c[:M] == head_c).all())
        del c
        i = cupy.argsort(xc)
        assert bool((xc[i[:M]] == head_c).all())
        del i
        y = gpusort.sort(x)
        assert torch.equal(y[:M], head)
        del y
        i = gpusort.argsort(x)
        assert torch.equal(x[i[:M]], head)
        del i
        i = torch.argsort(x)
        assert torch.equal(x[i[:M]], head)
        del i, head, head_c
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() == start
