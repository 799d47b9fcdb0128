"""gpusort on NumPy arrays: the host path (the GPU when present, the CPU
backend otherwise). Runs everywhere, CI included."""
import numpy as np
import pytest

import gpusort
import oracle

DTYPES = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
try:
    import ml_dtypes  # noqa: F401
    DTYPES.append("bfloat16")
except ImportError:
    pass


def keys(dtype, n, seed=1, few=False):
    rng = np.random.default_rng(seed)
    if dtype == "bfloat16":
        import ml_dtypes
        return rng.integers(-50, 50, n).astype(np.float32).astype(ml_dtypes.bfloat16)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        x = (rng.integers(-20, 20, n) if few else rng.standard_normal(n) * 100).astype(dt)
        if n >= 8:
            x[:8] = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.0, -0.0], dtype=dt)
            rng.shuffle(x)
        return x
    info = np.iinfo(dt)
    lo, hi = (0, 5) if few else (info.min, info.max)
    return rng.integers(lo, hi, n, dtype=dt, endpoint=True)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    u = oracle.UINT[a.dtype.itemsize]
    np.testing.assert_array_equal(a.view(u), b.view(u))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("n", [0, 1, 2, 1000, 100_003])
def test_sort_and_argsort(dtype, descending, n):
    x = keys(dtype, n, few=(n == 1000))
    before = x.copy()
    same_bits(gpusort.sort(x, descending=descending), oracle.sort(x, descending))
    idx = gpusort.argsort(x, descending=descending)
    assert idx.dtype == np.int64
    np.testing.assert_array_equal(idx, oracle.argsort(x, descending))
    same_bits(x, before)  # the input is never changed


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint64", "float16"])
@pytest.mark.parametrize("cols", [1, 16, 255, 256, 4097])
def test_rows(dtype, cols):
    x = keys(dtype, 7 * cols, few=True).reshape(7, cols)
    same_bits(gpusort.sort(x), oracle.sort(x))
    np.testing.assert_array_equal(gpusort.argsort(x, index_dtype="int32"), oracle.argsort(x))
    y = keys(dtype, 2 * 3 * cols).reshape(2, 3, cols)
    same_bits(gpusort.sort(y, descending=True), oracle.sort(y, True))


def test_pairs_are_stable_and_carry_values():
    x = keys("float32", 50_000, few=True)
    vals = np.arange(x.size, dtype=np.int64)
    k, v = gpusort.sort_pairs(x, vals)
    same_bits(k, oracle.sort(x))
    np.testing.assert_array_equal(v, oracle.argsort(x))
    wide = np.zeros((x.size,), dtype=np.complex128)
    wide.real = vals
    _, w = gpusort.sort_pairs(x, wide)
    np.testing.assert_array_equal(w.real.astype(np.int64), oracle.argsort(x))


def test_out_and_in_place():
    x = keys("int64", 10_000)
    out = np.empty_like(x)
    assert gpusort.sort(x, out=out) is out
    np.testing.assert_array_equal(out, oracle.sort(x))
    y = x.copy()
    assert gpusort.sort_(y) is y
    np.testing.assert_array_equal(y, oracle.sort(x))
    k, v = x.copy(), np.arange(x.size, dtype=np.uint32)
    gpusort.sort_pairs_(k, v, descending=True)
    np.testing.assert_array_equal(v, oracle.argsort(x, True))
    idx = np.empty(x.size, np.int32)
    gpusort.argsort(x, out=idx, index_dtype="int32")
    np.testing.assert_array_equal(idx, oracle.argsort(x))


def test_axis_none_and_non_contiguous():
    x = keys("float64", 600).reshape(20, 30)
    np.testing.assert_array_equal(gpusort.sort(x, axis=None), oracle.sort(x.ravel()))
    t = x.T  # not C-contiguous: sorted from a contiguous copy
    same_bits(gpusort.sort(t), oracle.sort(np.ascontiguousarray(t)))


def test_bit_range():
    x = keys("uint32", 5000)
    got = gpusort.argsort(x, begin_bit=8, end_bit=16)
    np.testing.assert_array_equal(got, np.argsort((x >> 8) & 0xFF, kind="stable"))


def test_segmented():
    x = keys("float32", 1000, few=True)
    off = np.array([0, 10, 10, 400, 999], np.int64)
    got = gpusort.segmented_sort(x, off)
    want = x.copy()
    for a, b in zip(off[:-1], off[1:]):
        want[a:b] = oracle.sort(x[a:b])
    same_bits(got, want)
    k, v = gpusort.segmented_sort(x, off.astype(np.int32), values=np.arange(1000, dtype=np.int32), descending=True)
    for a, b in zip(off[:-1], off[1:]):
        np.testing.assert_array_equal(v[a:b] - a, oracle.argsort(x[a:b], True))


def test_errors():
    x = keys("float32", 100)
    with pytest.raises(TypeError, match="complex64"):
        gpusort.sort(np.zeros(3, np.complex64))
    with pytest.raises(TypeError, match="bool"):
        gpusort.argsort(np.zeros(3, bool))
    with pytest.raises(TypeError, match="cannot sort"):
        gpusort.sort([3, 2, 1])
    with pytest.raises(ValueError, match="unknown algorithm"):
        gpusort.sort(x, algorithm="nope")
    with pytest.raises(ValueError, match="not stable"):
        gpusort.sort(x, algorithm="quick")
    with pytest.raises(ValueError, match="out of bounds"):
        gpusort.sort(x.reshape(10, 10), axis=2)
    with pytest.raises(ValueError, match="bit range"):
        gpusort.sort(x, begin_bit=3, end_bit=40)
    with pytest.raises(ValueError, match="index_dtype"):
        gpusort.argsort(x, index_dtype="int16")
    with pytest.raises(ValueError, match="dtype"):
        gpusort.sort(x, out=np.empty(100, np.float64))
    with pytest.raises(ValueError, match="contiguous"):
        gpusort.sort(x, out=np.empty(200, np.float32)[::2])
    with pytest.raises(ValueError, match="shape"):
        gpusort.sort_pairs(x, np.arange(99))
    quick = gpusort.sort(x, algorithm="quick", stable=False)  # unstable: ranks match, -0.0/+0.0 may swap
    np.testing.assert_array_equal(oracle.rank(quick), oracle.rank(oracle.sort(x)))
    np.testing.assert_array_equal(x, keys("float32", 100))  # untouched by the failures


@pytest.mark.parametrize("largest", [True, False])
def test_topk_host(largest):
    """NumPy arrays: gpusort.topk through the host argsort, same tie rule."""
    h = keys("float32", 3000).reshape(3, 1000)
    want = np.stack([oracle.argsort(r, largest)[:17] for r in h])
    v, i = gpusort.topk(h, 17, largest=largest)
    np.testing.assert_array_equal(i, want)
    np.testing.assert_array_equal(v.view(np.uint32), np.take_along_axis(h, want, axis=-1).view(np.uint32))
    v, i = gpusort.topk(h, 17, largest=largest, sorted=False)
    np.testing.assert_array_equal(i, np.sort(want, axis=-1))
    with pytest.raises(ValueError, match="out of range"):
        gpusort.topk(h, 1001)
