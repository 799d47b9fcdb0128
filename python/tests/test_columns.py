"""gpusort.sort_by and gpusort.lexsort (several key columns) against
numpy.lexsort over oracle.py's ranks (independent of gpusort: NaNs all
equal above +inf, -0.0 equal to +0.0), with hypothesis generating the
tables: one to four columns of mixed dtypes, ties across columns, NaNs of
both signs, both zeros, every direction mix. NumPy arrays run the host
path; on a GPU, PyTorch, CuPy and JAX arrays run the device path, and
chained torch.argsort(stable=True) and cupy.lexsort are checked too where
their NaN order agrees."""
import numpy as np
import pytest

import frameworks
import gpusort
import oracle

pytest.importorskip("hypothesis", reason="the differential suites need hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from cases import DTYPES, dtype_of, special_bits  # noqa: E402

NUMPY_DTYPES = [d for d in DTYPES if d != "bfloat16"]


def ref_sort_by(cols, descending):
    """numpy.lexsort over the columns' ranks, the first column primary."""
    ranks = []
    for c, d in zip(cols, descending):
        r = oracle.rank(c).astype(np.uint64)
        ranks.append(~r if d else r)
    return np.lexsort(ranks[::-1])


@st.composite
def tables(draw, dtypes=NUMPY_DTYPES, max_rows=60):
    n = draw(st.integers(0, max_rows))
    count = draw(st.integers(1, 4))
    cols = []
    for _ in range(count):
        dt = dtype_of(draw(st.sampled_from(dtypes)))
        u = oracle.UINT[dt.itemsize]
        top = int(np.iinfo(u).max)
        bits = st.one_of(st.sampled_from(special_bits(dt)), st.integers(0, 2), st.integers(0, top))
        if dt.kind not in "ui":
            pad = int(np.array([np.inf], np.float32).astype(dt).view(u)[0]) | 1 | (1 << (dt.itemsize * 8 - 1))
            bits = bits.filter(lambda b: b != pad)
        cols.append(draw(hnp.arrays(u, n, elements=bits)).view(dt))
    descending = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    return cols, descending


@settings(max_examples=200, deadline=None)
@given(tables())
def test_sort_by_host(table):
    cols, descending = table
    got = gpusort.sort_by(cols, descending=descending)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, ref_sort_by(cols, descending))
    np.testing.assert_array_equal(gpusort.sort_by(cols, descending=descending, index_dtype="int32"),
                                  ref_sort_by(cols, descending))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_lexsort_host_nd(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6))
    count = data.draw(st.integers(1, 3))
    keys = [data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-2, 2))) for _ in range(count)]
    keys.append(data.draw(hnp.arrays(np.float32, shape, elements=st.sampled_from([0.0, -0.0, 1.5, np.inf, np.nan]))))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ranks = [oracle.rank(k) for k in keys]
    np.testing.assert_array_equal(gpusort.lexsort(keys, axis=axis), np.lexsort(ranks, axis=axis))


def test_lexsort_matches_numpy_without_nans():
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 5, 1000), rng.standard_normal(1000).round(1)
    np.testing.assert_array_equal(gpusort.lexsort((b, a)), np.lexsort((b, a)))
    np.testing.assert_array_equal(gpusort.lexsort(np.stack([b, a])), np.lexsort(np.stack([b, a])))
    flags = rng.random(1000) < 0.5
    np.testing.assert_array_equal(gpusort.lexsort([a, flags]), np.lexsort([a, flags]))


def test_errors_are_clear():
    a = np.arange(4)
    with pytest.raises(ValueError, match="shape"):
        gpusort.sort_by([a, np.arange(5)])
    with pytest.raises(ValueError, match="descending has 1 entries"):
        gpusort.sort_by([a, a], descending=[True])
    with pytest.raises(TypeError, match="complex128"):
        gpusort.sort_by([a.astype(complex)])
    with pytest.raises(ValueError, match="at least one column"):
        gpusort.sort_by([])
    with pytest.raises(ValueError, match="1-D"):
        gpusort.sort_by([np.zeros((2, 2))])


def test_refused_inside_jax_jit():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    with pytest.raises(TypeError, match="jax.jit"):
        jax.jit(lambda a, b: gpusort.lexsort([a, b]))(jnp.arange(4), jnp.arange(4))


# ---- GPU arrays ----------------------------------------------------------------------
GPU_FRAMEWORKS = frameworks.installed() if gpusort.gpu_available() else []


def _to(fw, h):
    if fw == "torch":
        import torch
        return torch.from_numpy(np.ascontiguousarray(h)).cuda()
    if fw == "cupy":
        import cupy
        return cupy.asarray(h)
    import jax
    return jax.device_put(h, jax.devices("gpu")[0])


def _back(fw, x):
    if fw == "torch":
        return x.cpu().numpy()
    if fw == "cupy":
        return x.get()
    return np.asarray(x)


gpu = pytest.mark.skipif(not GPU_FRAMEWORKS, reason="no GPU, or none of torch, cupy, jax")


@gpu
@pytest.mark.parametrize("fw", GPU_FRAMEWORKS or ["none"])
@settings(max_examples=60, deadline=None)
@given(table=tables(max_rows=3000))
def test_sort_by_gpu(fw, table):
    cols, descending = table
    got = gpusort.sort_by([_to(fw, c) for c in cols], descending=descending)
    np.testing.assert_array_equal(_back(fw, got), ref_sort_by(cols, descending))


@gpu
@pytest.mark.parametrize("fw", GPU_FRAMEWORKS or ["none"])
def test_lexsort_gpu_large(fw):
    """Two and three passes at 2^20 + 3 rows, and rows of an N-D key."""
    rng = np.random.default_rng(7)
    n = (1 << 20) + 3
    a = rng.integers(-3, 3, n).astype(np.int32)
    b = rng.standard_normal(n).round(2).astype(np.float64)
    b[rng.random(n) < 0.01] = np.nan
    b[rng.random(n) < 0.01] = -0.0
    c = rng.integers(0, 2**63, n, dtype=np.uint64) % 7
    for keys in ([b, a], [c, b, a]):
        want = np.lexsort([oracle.rank(k) for k in keys])
        np.testing.assert_array_equal(_back(fw, gpusort.lexsort([_to(fw, k) for k in keys])), want)
    k3 = rng.integers(0, 4, (3, 64, 500)).astype(np.int16)
    for axis in (-1, 0, 1):
        np.testing.assert_array_equal(_back(fw, gpusort.lexsort(_to(fw, k3), axis=axis)), np.lexsort(k3, axis=axis))


@pytest.mark.skipif("torch" not in GPU_FRAMEWORKS, reason="no GPU or no torch")
def test_against_chained_torch_argsort():
    """The permutation of (int32, int32) columns, as PyTorch users build it
    today: stable argsorts chained from the last column to the first."""
    import torch
    g = torch.Generator(device="cuda").manual_seed(3)
    a = torch.randint(-100, 100, (100003,), device="cuda", dtype=torch.int32, generator=g)
    b = torch.randint(-5, 5, (100003,), device="cuda", dtype=torch.int32, generator=g)
    perm = torch.argsort(b, stable=True)
    perm = perm[torch.argsort(a[perm], stable=True)]
    assert torch.equal(gpusort.sort_by([a, b]), perm)


@pytest.mark.skipif("cupy" not in GPU_FRAMEWORKS, reason="no GPU or no cupy")
def test_against_cupy_lexsort():
    import cupy
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 50, 100003), rng.integers(-3, 3, 100003).astype(np.int16)
    keys = cupy.asarray(np.stack([b.astype(np.int64), a]))
    assert bool((gpusort.lexsort([cupy.asarray(b), cupy.asarray(a)]) == cupy.lexsort(keys)).all())
