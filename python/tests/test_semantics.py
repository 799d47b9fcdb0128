"""The frameworks' semantics on host arrays (NumPy, and JAX's CPU arrays),
differentially against NumPy's own sorts: NaN order, any axis, NumPy's
kind= and order=, out=, 0-d and 0-size arrays. Runs everywhere, CI
included; hypothesis generates the cases (profile: conftest.py)."""
import numpy as np
import pytest

pytest.importorskip("hypothesis", reason="the differential suites need hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

import gpusort  # noqa: E402
import oracle  # noqa: E402
import cases  # noqa: E402
from cases import DTYPES, axes, dtype_of, keys, ref_argsort, ref_sort, same_bits, same_order, take  # noqa: E402


@given(st.data(), keys(), st.booleans())
def test_sort_argsort_any_axis(data, x, descending):
    """Stable sort and argsort along every axis against NumPy's stable sort,
    bit for bit: NaNs of both signs last ascending, first descending, in
    input order among themselves; -0.0 and +0.0 in input order."""
    axis = data.draw(axes(x))
    before = x.copy()
    same_bits(gpusort.sort(x, axis=axis, descending=descending), ref_sort(x, axis, descending))
    i = gpusort.argsort(x, axis=axis, descending=descending)
    assert i.dtype == np.int64
    np.testing.assert_array_equal(i, ref_argsort(x, axis, descending))
    same_bits(x, before)


@given(st.data(), keys(min_dims=1), st.booleans())
def test_sort_pairs_any_axis(data, x, descending):
    axis = data.draw(axes(x))
    vals = np.arange(x.size, dtype=np.int32).reshape(x.shape)
    k, v = gpusort.sort_pairs(x, vals, axis=axis, descending=descending)
    same_bits(k, ref_sort(x, axis, descending))
    same_bits(v, take(vals, ref_argsort(x, axis, descending), axis))


@given(keys(min_dims=1, max_dims=2), st.booleans())
def test_nan_bits_is_cubs_order(x, descending):
    """nan="bits": NaNs by their bits, those with the sign bit first."""
    same_bits(gpusort.sort(x, descending=descending, nan="bits"), oracle.sort(x, descending, nan="bits"))
    np.testing.assert_array_equal(gpusort.argsort(x, descending=descending, nan="bits"),
                                  oracle.argsort(x, descending, nan="bits"))
    got = gpusort.segmented_sort(x.reshape(-1), np.array([0, x.size // 2, x.size], np.int64), nan="bits",
                                 descending=descending)
    half = x.size // 2
    flat = x.reshape(-1)
    same_bits(got, np.concatenate([oracle.sort(flat[:half], descending, "bits"),
                                   oracle.sort(flat[half:], descending, "bits")]))


@given(keys(min_dims=1, max_dims=1, max_side=300), st.booleans(),
       st.sampled_from([a for a, stable in gpusort.algorithms().items() if not stable]))
def test_unstable_algorithms(x, descending, algorithm):
    """Unstable sorts: the same keys in order (equal keys in any order);
    their pairs carry a permutation that sorts."""
    want = ref_sort(x, -1, descending)
    same_order(gpusort.sort(x, descending=descending, algorithm=algorithm, stable=False), want)
    k, v = gpusort.sort_pairs(x, np.arange(x.size, dtype=np.int64), descending=descending, algorithm=algorithm,
                              stable=False)
    same_order(k, want)
    np.testing.assert_array_equal(np.sort(v), np.arange(x.size))
    same_bits(x[v], k)


@given(st.data(), keys(min_dims=1), st.booleans(), st.booleans())
def test_topk_any_dim(data, x, largest, sorted_):
    """topk along every dim: the first k of the stable sort (ties and NaNs
    as there), listed in index order when unsorted."""
    dim = data.draw(axes(x, allow_none=False))
    n = x.shape[dim]
    k = data.draw(st.integers(0, n))
    v, i = gpusort.topk(x, k, dim=dim, largest=largest, sorted=sorted_)
    want = np.take(ref_argsort(x, dim, largest), np.arange(k), axis=dim)
    if not sorted_:
        want = np.sort(want, axis=dim)
    np.testing.assert_array_equal(i, want)
    same_bits(v, np.take_along_axis(x, want, dim))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.startswith(("float", "bfloat"))])
def test_pad_nan(dtype):
    """The one exception to NaNs largest (the library's pad pattern): the
    negative signalling NaN of payload 1 is a NaN like the others
    ascending, and ranks after every key, NaNs included, descending. No
    arithmetic or conversion produces a signalling NaN; the NaN of all ones
    (which they do produce) is an ordinary NaN."""
    dt = dtype_of(dtype)
    u = oracle.UINT[dt.itemsize]
    pad = np.array([cases.pad_bits(dt)], u).view(dt)
    ones = np.array([np.iinfo(u).max], u).view(dt)
    x = np.concatenate([pad, np.array([1.0, np.nan, np.inf, -np.nan, 1.0], np.float32).astype(dt), ones])
    same_bits(gpusort.sort(x), ref_sort(x))
    got = gpusort.sort(x, descending=True)
    assert got.view(u)[-1] == cases.pad_bits(dt)
    same_bits(got[:-1], ref_sort(x[1:], -1, True))
    np.testing.assert_array_equal(gpusort.argsort(x, descending=True), list(ref_argsort(x[1:], -1, True) + 1) + [0])


def test_zero_d_and_zero_size():
    s = np.array(3.5, np.float32)
    same_bits(gpusort.sort(s, axis=None), np.array([3.5], np.float32))
    np.testing.assert_array_equal(gpusort.argsort(s, axis=None), [0])
    for fn in (gpusort.sort, gpusort.argsort):
        with pytest.raises(ValueError, match="out of bounds"):  # as NumPy: a 0-d array has no axis -1
            fn(s)
    e = np.zeros((3, 0, 2), np.int16)
    for axis in (0, 1, 2, -1, None):
        assert gpusort.sort(e, axis=axis).shape == np.sort(e, axis=axis).shape
        assert gpusort.argsort(e, axis=axis).shape == np.argsort(e, axis=axis).shape
    assert gpusort.topk(e, 0, dim=1)[0].shape == (3, 0, 2)


def test_out_along_any_axis():
    x = np.random.default_rng(2).integers(-50, 50, (6, 5, 4)).astype(np.float64)
    x[1, 2, 3], x[4, 0, 0] = np.nan, -np.nan
    for axis in (0, 1, -2):
        out = np.empty_like(x)
        assert gpusort.sort(x, axis=axis, out=out) is out
        same_bits(out, ref_sort(x, axis))
        idx = np.empty(x.shape, np.int32)
        assert gpusort.argsort(x, axis=axis, out=idx, index_dtype="int32") is idx
        np.testing.assert_array_equal(idx, ref_argsort(x, axis))
        k, v = x.copy(), np.arange(x.size, dtype=np.uint16).reshape(x.shape)
        want_v = np.take_along_axis(v, ref_argsort(x, axis, True), axis)
        assert gpusort.sort_pairs_(k, v, axis=axis, descending=True) == (k, v)
        same_bits(k, ref_sort(x, axis, True))
        np.testing.assert_array_equal(v, want_v)
    y = x.copy()
    assert gpusort.sort_(y, axis=0) is y
    same_bits(y, ref_sort(x, 0))


def test_non_contiguous_inputs_along_any_axis():
    x = np.random.default_rng(3).standard_normal((8, 9, 10)).astype(np.float32)[::2, :, 1::3]
    for axis in (0, 1, 2, None):
        same_bits(gpusort.sort(x, axis=axis), ref_sort(np.ascontiguousarray(x), axis))
        assert gpusort.sort(x, axis=axis).flags.c_contiguous


def test_numpy_kind_and_order():
    x = np.array([2, 1, 2, 0, 1], np.int32)
    for kind in (None, "quicksort", "mergesort", "heapsort", "stable"):
        np.testing.assert_array_equal(gpusort.argsort(x, kind=kind), np.argsort(x, kind="stable"))
        np.testing.assert_array_equal(gpusort.sort(x, kind=kind), np.sort(x))
    with pytest.raises(ValueError, match="gpusort.sort: kind"):
        gpusort.sort(x, kind="bogo")
    with pytest.raises(ValueError, match="not stable"):  # kind="stable" asks for a stable algorithm
        gpusort.sort(x, kind="stable", stable=False, algorithm="quick")
    for fn in (gpusort.sort, gpusort.argsort):
        with pytest.raises(ValueError, match="order="):
            fn(x, order="f0")
    with pytest.raises(ValueError, match="gpusort.sort_pairs: order="):
        gpusort.sort_pairs(x, x, order=["a"])


def test_argument_errors():
    x = np.zeros((4, 5), np.float32)
    for call in (lambda: gpusort.sort(x, nan="first"), lambda: gpusort.argsort(x, nan=None),
                 lambda: gpusort.topk(x, 1, nan="last"), lambda: gpusort.sort_pairs(x, x, nan=True),
                 lambda: gpusort.segmented_sort(x[0], np.array([0, 5]), nan="x")):
        with pytest.raises(ValueError, match="nan must be 'largest' or 'bits'"):
            call()
    with pytest.raises(ValueError, match="gpusort.sort: axis 2 is out of bounds"):
        gpusort.sort(x, axis=2)
    with pytest.raises(ValueError, match="gpusort.topk: axis -3 is out of bounds"):
        gpusort.topk(x, 1, dim=-3)
    with pytest.raises(TypeError, match="gpusort.argsort: axis must be an integer"):
        gpusort.argsort(x, axis=1.0)
    with pytest.raises(ValueError, match="out of range"):
        gpusort.topk(x, 5, dim=0)
    with pytest.raises(ValueError, match="shape"):
        gpusort.sort(x, axis=0, out=np.empty(7, np.float32))


def test_jax_cpu_arrays():
    """JAX arrays on the CPU: the results are JAX arrays, equal to jnp's."""
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    import jax.numpy as jnp
    with jax.default_device(jax.devices("cpu")[0]):
        h = np.random.default_rng(4).integers(-3, 3, (5, 6, 7)).astype(np.float32)
        h[0, 0, :3] = [np.nan, -np.nan, -0.0]
        x = jnp.asarray(h)
        for axis in (0, 1, -1, None):
            y = gpusort.sort(x, axis=axis)
            assert isinstance(y, jax.Array)
            same_bits(np.asarray(y), np.asarray(jnp.sort(x, axis=axis, stable=True)))
            np.testing.assert_array_equal(np.asarray(gpusort.argsort(x, axis=axis)),
                                          np.asarray(jnp.argsort(x, axis=axis, stable=True)))
        v, i = gpusort.topk(x, 3, dim=1)
        assert isinstance(v, jax.Array) and isinstance(i, jax.Array)
        np.testing.assert_array_equal(np.asarray(i), np.take(ref_argsort(h, 1, True), np.arange(3), axis=1))
