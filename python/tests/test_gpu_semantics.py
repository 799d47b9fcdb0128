"""The frameworks' semantics on GPU arrays, differentially against the
frameworks' own calls (torch.sort, torch.topk, cupy.sort, cupy.partition,
jnp.sort, jax.lax.top_k) and NumPy's stable sort on the host: NaN order,
any axis, partition. Skipped, with the reason, where there is no GPU, no
framework or no hypothesis."""
import numpy as np
import pytest

pytest.importorskip("hypothesis", reason="the differential suites need hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

import gpusort  # noqa: E402
import oracle  # noqa: E402
from cases import (axes, check_partition, dtype_of, keys, ref_argsort, ref_sort, same_bits, same_order,  # noqa: E402
                   select, special_bits, take, widen)
if not gpusort.gpu_available():
    pytest.skip("no CUDA device: the GPU differential tests need one", allow_module_level=True)
from test_gpu import FRAMEWORKS, to_device, to_host  # noqa: E402  (skips without a framework)

# NaNs with the sign bit set: CUDA's torch.sort (its radix path, from a few
# thousand keys) and cupy.sort, partition and argsort order float keys by
# CUB's bits, so such NaNs come first, before -inf (torch 2.11 and CuPy 14 on
# an NVIDIA H100: -NaN, -inf, -0.0, 0.0, 1.0, inf, NaN), while NumPy, PyTorch
# on the CPU and torch.sort's small-array path put every NaN last. gpusort
# follows NumPy (nan="largest"); nan="bits" gives the CUB order. So the
# differential checks against those frameworks draw no negative NaN, and
# test_negative_nans_as_frameworks shows both orders.
FW_DTYPES = {"cupy": ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16", "float32",
                      "float64"]}  # CuPy has no bfloat16


def framework_sort(fw, x, axis, descending):
    """(values, indices) of the framework's own stable sort, or None where
    it has none for this dtype or direction."""
    try:
        if fw == "torch":
            import torch
            t = x.reshape(-1) if axis is None else x
            r = torch.sort(t, dim=-1 if axis is None else axis, descending=descending, stable=True)
            return r.values, r.indices
        if fw == "cupy":
            import cupy
            if descending:
                return None
            return cupy.sort(x, axis=axis), cupy.argsort(x, axis=axis)
        import jax.numpy as jnp
        return (jnp.sort(x, axis=axis, stable=True, descending=descending),
                jnp.argsort(x, axis=axis, stable=True, descending=descending))
    except (RuntimeError, NotImplementedError, TypeError):  # a dtype the framework cannot sort
        return None


@pytest.mark.parametrize("fw", FRAMEWORKS)
@given(data=st.data(), descending=st.booleans())
def test_sort_argsort_against_framework(fw, data, descending):
    h = data.draw(keys(dtypes=FW_DTYPES.get(fw), max_side=40))
    axis = data.draw(axes(h))
    x = to_device(fw, h)
    y, i = gpusort.sort(x, axis=axis, descending=descending), gpusort.argsort(x, axis=axis, descending=descending)
    same_bits(to_host(fw, y), ref_sort(h, axis, descending))  # NumPy's stable order, bit for bit
    np.testing.assert_array_equal(to_host(fw, i), ref_argsort(h, axis, descending))
    theirs = None if cub_nans(fw, h) else framework_sort(fw, x, axis, descending)
    if theirs is not None:  # the same keys in the same order (NaNs equal, zeros equal) ...
        flush = fw == "jax"  # XLA compares subnormals as zeros
        same_order(to_host(fw, y), to_host(fw, theirs[0]), flush=flush)
        # ... and their indices sort too
        same_order(take(h, to_host(fw, theirs[1]), axis), ref_sort(h, axis, descending), flush=flush)


@pytest.mark.parametrize("fw", FRAMEWORKS)
@given(data=st.data(), largest=st.booleans())
def test_topk_against_framework(fw, data, largest):
    h = data.draw(keys(dtypes=FW_DTYPES.get(fw), min_dims=1, max_side=40))
    dim = data.draw(axes(h, allow_none=False))
    k = data.draw(st.integers(0, h.shape[dim]))
    x = to_device(fw, h)
    v, i = gpusort.topk(x, k, dim=dim, largest=largest)
    want = np.take(ref_argsort(h, dim, largest), np.arange(k), axis=dim)
    np.testing.assert_array_equal(to_host(fw, i), want)
    same_bits(to_host(fw, v), np.take_along_axis(h, want, dim))
    if fw == "torch":
        import torch
        try:
            tv = torch.topk(x, k, dim=dim, largest=largest).values
        except (RuntimeError, NotImplementedError):
            return
        same_order(to_host(fw, v), to_host(fw, tv))
    elif fw == "jax" and largest and dim in (-1, h.ndim - 1) and not negative_nans(h):
        # (jax.lax.top_k orders floats by IEEE total order: negative NaNs smallest)
        import jax
        same_order(to_host(fw, v), to_host(fw, jax.lax.top_k(x, k)[0]), flush=True)


@pytest.mark.parametrize("fw", [f for f in FRAMEWORKS if f in ("cupy", "torch")])
@pytest.mark.parametrize("method", [None, "topk", "sort"])
@given(data=st.data())
def test_partition_against_framework(fw, method, data):
    h = data.draw(keys(dtypes=FW_DTYPES.get(fw), min_dims=1, max_side=40))
    axis = data.draw(axes(h))
    n = h.size if axis is None else h.shape[axis]
    if n == 0:
        return
    kth = data.draw(st.one_of(st.integers(-n, n - 1), st.lists(st.integers(-n, n - 1), min_size=1, max_size=3)))
    x = to_device(fw, h)
    got = to_host(fw, select(x, kth, axis, False, method))
    check_partition(h, got, kth, axis)
    idx = to_host(fw, select(x, kth, axis, True, method))
    check_partition(h, take(h, idx, axis), kth, axis)
    if fw == "cupy" and not cub_nans(fw, h):
        import cupy
        ax = -1 if axis is None else axis
        ks = np.atleast_1d(kth) % n
        np.testing.assert_array_equal(np.take(widen(got), ks, ax),
                                      np.take(widen(cupy.partition(x, kth, axis=axis).get()), ks, ax))


def cub_nans(fw, h):
    """Whether fw's own sort orders h's NaNs by CUB's bits, not as NumPy:
    h holds a negative NaN and fw is PyTorch or CuPy on the GPU."""
    return fw in ("torch", "cupy") and negative_nans(h)


def negative_nans(h):
    """Whether the keys h hold a NaN with its sign bit set."""
    if h.dtype.kind in "ui":
        return False
    u = oracle.UINT[h.dtype.itemsize]
    with np.errstate(invalid="ignore"):
        return bool((np.isnan(h.astype(np.float64)) & (h.view(u) >> u(8 * h.itemsize - 1) == 1)).any())


def big_keys(dtype, n, seed=5):
    """Many normal keys with NaNs of both signs and payloads, infinities and
    both zeros sprinkled in (a few in a hundred), and many ties."""
    rng = np.random.default_rng(seed)
    dt = dtype_of(dtype)
    x = np.round(rng.standard_normal(n) * 50).astype(np.float32).astype(dt)
    specials = np.array(special_bits(dt), dtype=oracle.UINT[dt.itemsize]).view(dt)
    where = rng.random(n) < 0.03
    x[where] = rng.choice(specials, int(where.sum()))
    return x


@pytest.mark.parametrize("fw", FRAMEWORKS)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_nan_order_at_scale(fw, dtype):
    """1-D (the fast path for CUDA tensors), rows and a non-last axis, large
    enough for every GPU path: NaNs last ascending, first descending, in
    input order, against NumPy bit for bit."""
    for shape, axis in (((1 << 20) + 3,), -1), ((300, 4097), -1), ((300, 4097), 0), ((40, 30, 50), 1):
        h = big_keys(dtype, int(np.prod(shape))).reshape(shape)
        x = to_device(fw, h)
        for descending in (False, True):
            same_bits(to_host(fw, gpusort.sort(x, axis=axis, descending=descending)), ref_sort(h, axis, descending))
            np.testing.assert_array_equal(to_host(fw, gpusort.argsort(x, axis=axis, descending=descending)),
                                          ref_argsort(h, axis, descending))
        k = min(100, shape[axis])
        v, i = gpusort.topk(x, k, dim=axis)
        want = np.take(ref_argsort(h, axis, True), np.arange(k), axis=axis)
        np.testing.assert_array_equal(to_host(fw, i), want)
        same_bits(to_host(fw, v), np.take_along_axis(h, want, axis))


@pytest.mark.parametrize("fw", [f for f in FRAMEWORKS if f in ("cupy", "torch")])
@pytest.mark.parametrize("shape, axis, kth", [(((1 << 22),), -1, 1000), (((1 << 22),), -1, [-5, -1]),
                                              ((512, 4096), -1, [7, 100]), ((4096, 300), 0, 3),
                                              (((1 << 22),), -1, 1 << 21)])
def test_partition_at_scale(fw, shape, axis, kth):
    """Large partitions on both ways (the top-k path for kth near an end)."""
    h = big_keys("float32", int(np.prod(shape))).reshape(shape)
    x = to_device(fw, h)
    check_partition(h, to_host(fw, gpusort.partition(x, kth, axis=axis)), kth, axis)
    check_partition(h, take(h, to_host(fw, gpusort.argpartition(x, kth, axis=axis)), axis), kth, axis)


def test_torch_fast_path_nan_order():
    """A 1-D CUDA tensor (gpusort.sort's fast path) with NaNs of both signs:
    NumPy's order by default, CUB's with nan="bits"."""
    torch = pytest.importorskip("torch")
    h = big_keys("float32", 1 << 16)
    x = torch.from_numpy(h).cuda()
    same_bits(gpusort.sort(x).cpu().numpy(), oracle.sort(h))
    same_bits(gpusort.sort(x, nan="bits").cpu().numpy(), oracle.sort(h, nan="bits"))
    positive = h.copy()
    positive[np.isnan(positive)] = np.float32(np.nan)  # NaNs without the sign bit: every order agrees
    y = torch.from_numpy(positive).cuda()
    same_bits(gpusort.sort(y).cpu().numpy(), torch.sort(y, stable=True).values.cpu().numpy())


@pytest.mark.parametrize("fw", [f for f in FRAMEWORKS if f in ("cupy", "torch")])
def test_negative_nans_as_frameworks(fw):
    """Where PyTorch's and CuPy's GPU sorts order by CUB's bits (a large 1-D
    array), nan="bits" gives their order: negative NaNs first."""
    h = big_keys("float32", 1 << 16)
    x = to_device(fw, h)
    ours = to_host(fw, gpusort.sort(x, nan="bits"))
    theirs = to_host(fw, framework_sort(fw, x, -1, False)[0])
    same_order(ours, theirs)
    assert np.isnan(ours[0]) and np.signbit(ours[0])
    assert not np.isnan(to_host(fw, gpusort.sort(x))[0])
