"""gpusort on GPU arrays of PyTorch, CuPy and JAX, against the NumPy oracle.
Skipped, with the reason, where there is no GPU or no framework."""
import numpy as np
import pytest

import frameworks
import gpusort
import oracle

if not gpusort.gpu_available():
    pytest.skip("no CUDA device: the GPU tests need one", allow_module_level=True)

FRAMEWORKS = frameworks.installed()
if not FRAMEWORKS:
    pytest.skip("none of torch, cupy, jax is installed", allow_module_level=True)

DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "uint16", "uint32", "uint64"]


def host_keys(dtype, n, seed=3, few=False):
    import ml_dtypes
    rng = np.random.default_rng(seed)
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        dt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
        x = (rng.integers(-20, 20, n) if few else rng.standard_normal(n) * 100).astype(np.float32).astype(dt)
        if n >= 8:
            x[:8] = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.0, -0.0], np.float32).astype(dt)
            rng.shuffle(x)
        return x
    info = np.iinfo(dtype)
    lo, hi = (0, 5) if few else (info.min, info.max)
    return rng.integers(lo, hi, n, dtype=np.dtype(dtype), endpoint=True)


def to_device(fw, a):
    if fw == "torch":
        import torch
        if a.dtype.name == "bfloat16":
            return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).cuda()
        if a.dtype.name in ("uint16", "uint32", "uint64"):
            return torch.from_numpy(a.view(np.dtype(f"i{a.itemsize}"))).cuda().view(getattr(torch, a.dtype.name))
        return torch.from_numpy(a).cuda()
    if fw == "cupy":
        import cupy
        if a.dtype.name == "bfloat16":
            pytest.skip("CuPy has no bfloat16")
        return cupy.asarray(a)
    import jax
    return jax.device_put(a, jax.devices("gpu")[0])


def to_host(fw, x):
    if fw == "torch":
        import torch
        if x.dtype in (torch.bfloat16, torch.uint16, torch.uint32, torch.uint64):
            import ml_dtypes
            wide = {torch.bfloat16: (torch.int16, ml_dtypes.bfloat16), torch.uint16: (torch.int16, np.uint16),
                    torch.uint32: (torch.int32, np.uint32), torch.uint64: (torch.int64, np.uint64)}[x.dtype]
            return x.view(wide[0]).cpu().numpy().view(wide[1])
        return x.cpu().numpy()
    if fw == "cupy":
        return x.get()
    return np.asarray(x)


def same_bits(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    u = oracle.UINT[a.dtype.itemsize]
    np.testing.assert_array_equal(a.view(u), b.view(u))


def framework_type(fw, y):
    return type(y).__module__.split(".")[0] in ({"jax": ("jax", "jaxlib")}.get(fw, (fw,)))


@pytest.mark.parametrize("fw", FRAMEWORKS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("n", [0, 1, 2, 3001, 1 << 20])
def test_sort_argsort(fw, dtype, descending, n):
    h = host_keys(dtype, n, few=(n == 3001))
    x = to_device(fw, h)
    y = gpusort.sort(x, descending=descending)
    assert framework_type(fw, y)
    same_bits(to_host(fw, y), oracle.sort(h, descending))
    i = gpusort.argsort(x, descending=descending)
    np.testing.assert_array_equal(to_host(fw, i), oracle.argsort(h, descending))
    same_bits(to_host(fw, x), h)


@pytest.mark.parametrize("fw", FRAMEWORKS)
@pytest.mark.parametrize("cols", [16, 256, 4096, 65536])
def test_rows(fw, cols):
    h = host_keys("float32", 64 * cols, few=True).reshape(64, cols)
    x = to_device(fw, h)
    same_bits(to_host(fw, gpusort.sort(x)), oracle.sort(h))
    i = gpusort.argsort(x, descending=True, index_dtype="int32")
    np.testing.assert_array_equal(to_host(fw, i), oracle.argsort(h, True))


@pytest.mark.parametrize("fw", FRAMEWORKS)
def test_pairs_segmented_out(fw):
    h = host_keys("int32", 100_000, few=True)
    x = to_device(fw, h)
    v = to_device(fw, np.arange(h.size, dtype=np.int64))
    k2, v2 = gpusort.sort_pairs(x, v)
    same_bits(to_host(fw, k2), oracle.sort(h))
    np.testing.assert_array_equal(to_host(fw, v2), oracle.argsort(h))
    off_h = np.array([0, 5, 5, 70_000, 99_999], np.int64)
    got = to_host(fw, gpusort.segmented_sort(x, to_device(fw, off_h)))
    want = h.copy()
    for a, b in zip(off_h[:-1], off_h[1:]):
        want[a:b] = oracle.sort(h[a:b])
    same_bits(got, want)
    if fw == "jax":
        with pytest.raises(ValueError, match="immutable"):
            gpusort.sort_(x)
        return
    out = to_device(fw, np.zeros_like(h))
    assert gpusort.sort(x, out=out) is out
    same_bits(to_host(fw, out), oracle.sort(h))
    gpusort.sort_(x, descending=True)
    same_bits(to_host(fw, x), oracle.sort(h, True))


@pytest.mark.parametrize("fw", FRAMEWORKS)
def test_wrong_dtypes_and_devices(fw):
    x = to_device(fw, host_keys("float32", 100))
    with pytest.raises(TypeError):
        gpusort.sort(to_device(fw, np.zeros(4, np.complex64)))
    with pytest.raises(ValueError, match="device"):
        gpusort.sort_pairs(x, np.arange(100))  # values on the host, keys on the GPU
    with pytest.raises(ValueError):
        gpusort.argsort(x, algorithm="bitonic")


def test_torch_non_contiguous_and_cpu_tensors():
    torch = pytest.importorskip("torch")
    x = torch.randn(300, 40, device="cuda").t()  # a view, not contiguous
    same_bits(gpusort.sort(x).cpu().numpy(), oracle.sort(x.contiguous().cpu().numpy()))
    c = torch.randn(1000)
    y = gpusort.sort(c)
    assert y.device.type == "cpu"
    same_bits(y.numpy(), oracle.sort(c.numpy()))


def test_torch_stream_order():
    """The input is written by a kernel still in flight on a side stream
    (queued behind a 50 ms sleep); gpusort must sort what it writes."""
    torch = pytest.importorskip("torch")
    n = 1 << 24
    src = torch.randn(n, device="cuda")
    x = torch.zeros(n, device="cuda")
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(100_000_000)  # about 50 ms of GPU time
        x.copy_(src)
        y = gpusort.sort(x)  # no synchronisation in between
        i = gpusort.argsort(x)
    side.synchronize()
    want = torch.sort(src).values
    assert torch.equal(y, want)
    assert torch.equal(src[i], want)


def test_cupy_stream_order():
    cupy = pytest.importorskip("cupy")
    spin = cupy.RawKernel(r'''
    extern "C" __global__ void late_fill(const float* src, float* dst, int n, long long cycles) {
      long long start = clock64();
      while (clock64() - start < cycles) {}
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) dst[i] = src[i];
    }''', "late_fill")
    n = 1 << 22
    src = cupy.random.standard_normal(n, dtype=cupy.float32)
    x = cupy.zeros(n, cupy.float32)
    cupy.cuda.Device().synchronize()
    with cupy.cuda.Stream(non_blocking=True) as s:
        spin((256,), (256,), (src, x, cupy.int32(n), cupy.int64(100_000_000)))
        y = gpusort.sort(x)
    s.synchronize()
    assert bool((y == cupy.sort(src)).all())


def test_out_of_memory_leaves_the_input():
    torch = pytest.importorskip("torch")
    free, _ = torch.cuda.mem_get_info()
    n = int(free * 0.25) // 4  # keys + output fit; keys + output + scratch do not
    x = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=torch.int32)
    check = x[:1000].clone(), x[-1000:].clone()
    try:
        with pytest.raises(MemoryError, match="scratch"):
            gpusort.argsort(x)
        assert torch.equal(x[:1000], check[0]) and torch.equal(x[-1000:], check[1])
    finally:
        del x
        torch.cuda.empty_cache()
        gpusort.release_memory()


def test_torch_graph_capture():
    """A call captured in a CUDA graph (torch.cuda.graph) replays correctly:
    no host synchronisation inside, scratch taken in stream order."""
    torch = pytest.importorskip("torch")
    x = torch.randn(1 << 20, device="cuda")
    y = torch.empty_like(x)
    i = torch.empty(x.numel(), dtype=torch.int64, device="cuda")
    rows = torch.randn(512, 256, device="cuda")
    r = torch.empty_like(rows)
    gpusort.sort(x, out=y)  # warm-up outside the capture
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        gpusort.sort(x, out=y)
        gpusort.argsort(x, out=i)
        gpusort.sort(rows, out=r)
    x.copy_(torch.randn(1 << 20, device="cuda"))
    rows.copy_(torch.randn(512, 256, device="cuda"))
    g.replay()
    torch.cuda.synchronize()
    assert torch.equal(y, torch.sort(x).values)
    assert torch.equal(x[i], y)
    assert torch.equal(r, torch.sort(rows, dim=-1).values)


class _CaiOnly:
    """A producer that speaks only the CUDA array interface."""

    def __init__(self, a):
        self._a = a
        self.__cuda_array_interface__ = a.__cuda_array_interface__


class _DlpackOnly:
    """A producer that speaks only DLPack."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


@pytest.mark.parametrize("wrap", [_CaiOnly, _DlpackOnly])
def test_bare_producers(wrap):
    cupy = pytest.importorskip("cupy")
    h = host_keys("float32", 5000)
    x = cupy.asarray(h)
    y = gpusort.sort(wrap(x))
    assert isinstance(y, gpusort.DeviceArray)
    same_bits(cupy.asarray(y).get(), oracle.sort(h))
    i = gpusort.argsort(wrap(x), descending=True)
    np.testing.assert_array_equal(cupy.from_dlpack(i).get(), oracle.argsort(h, True))


@pytest.mark.parametrize("fw", FRAMEWORKS)
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "float16", "bfloat16", "float64"])
@pytest.mark.parametrize("largest", [True, False])
def test_topk(fw, dtype, largest):
    """gpusort.topk against the stable argsort's first k (ties: lowest index first)."""
    for shape, k in (((100_003,), 1024), ((100_003,), 1), ((257, 300), 32), ((5, 5000), 7), ((3, 40), 40)):
        h = host_keys(dtype, int(np.prod(shape)), few=True).reshape(shape)
        x = to_device(fw, h)
        rows = h.reshape(-1, shape[-1])
        want = np.stack([oracle.argsort(r, largest)[:k] for r in rows]).reshape(shape[:-1] + (k,))
        v, i = gpusort.topk(x, k, largest=largest)
        assert framework_type(fw, v) and framework_type(fw, i)
        np.testing.assert_array_equal(to_host(fw, i), want)
        same_bits(to_host(fw, v), np.take_along_axis(h, want, axis=-1))
        # unsorted: the same winners in some order (input order for rows of up to 4096 keys)
        v, i = gpusort.topk(x, k, largest=largest, sorted=False)
        got = to_host(fw, i)
        np.testing.assert_array_equal(np.sort(got, axis=-1), np.sort(want, axis=-1))
        same_bits(to_host(fw, v), np.take_along_axis(h, got, axis=-1))
