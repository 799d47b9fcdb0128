"""partition() and argpartition() on host arrays, against numpy.partition
and numpy.argpartition: the k-th keys in place, not larger before, not
smaller after, every kth at once. Both ways of computing them run here:
the full sort (the host path) and the selection from top-k (the GPU path,
forced through the module's hook: on NumPy arrays its operations are
CuPy's). Runs everywhere, CI included."""
import numpy as np
import pytest

pytest.importorskip("hypothesis", reason="the differential suites need hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

import gpusort  # noqa: E402
from cases import axes, check_partition, keys, same_bits, select, take, widen  # noqa: E402


@st.composite
def kths(draw, n):
    """One kth or a list of them, negative ones too, in [-n, n)."""
    one = st.integers(-n, n - 1)
    return draw(st.one_of(one, st.lists(one, min_size=1, max_size=4)))


@pytest.mark.parametrize("method", [None, "topk"])
@given(data=st.data(), x=keys(min_dims=1))
def test_against_numpy(method, data, x):
    axis = data.draw(axes(x))
    n = x.size if axis is None else x.shape[axis]
    if n == 0:
        return
    kth = data.draw(kths(n))
    got = select(x, kth, axis, False, method)
    assert got.dtype == x.dtype and got.shape == np.partition(x, kth, axis=axis).shape
    check_partition(x, got, kth, axis)
    ax = -1 if axis is None else axis
    ks = np.atleast_1d(kth) % n  # the k-th keys are NumPy's (NaNs equal, zeros equal)
    np.testing.assert_array_equal(np.take(widen(got), ks, ax), np.take(np.partition(widen(x), kth, axis), ks, ax))
    i = select(x, kth, axis, True, method)
    assert i.dtype == np.int64 and i.shape == np.argpartition(x, kth, axis=axis).shape
    moved = np.moveaxis(i, ax, -1)  # a permutation of each row
    np.testing.assert_array_equal(np.sort(moved, axis=-1), np.broadcast_to(np.arange(n), moved.shape))
    check_partition(x, take(x, i, axis), kth, axis)


@given(keys(dtypes=["float16", "float32", "float64"], min_dims=1, max_dims=2), st.data())
def test_nan_bits(x, data):
    n = x.shape[-1]
    if n == 0:
        return
    kth = data.draw(kths(n))
    for method in (None, "topk"):
        check_partition(x, select(x, kth, -1, False, method, "bits"), kth, -1, "bits")
        check_partition(x, take(x, select(x, kth, -1, True, method, "bits"), -1), kth, -1, "bits")


def test_public_calls_and_errors():
    x = np.array([5, 1, 4, 1, 3, 9, 2, 6], np.int16)
    p = gpusort.partition(x, 3)
    assert p[3] == np.partition(x, 3)[3]
    check_partition(x, p, 3, -1)
    i = gpusort.argpartition(x, [1, -2])
    check_partition(x, x[i], [1, -2], -1)
    same_bits(gpusort.partition(x.reshape(2, 4), 0, axis=None), gpusort.sort(x))
    with pytest.raises(ValueError, match="gpusort.partition: kind must be 'introselect'"):
        gpusort.partition(x, 1, kind="quicksort")
    with pytest.raises(ValueError, match="gpusort.argpartition: order="):
        gpusort.argpartition(x, 1, order="f0")
    with pytest.raises(ValueError, match="gpusort.partition: kth = 8 is out of bounds"):
        gpusort.partition(x, 8)
    with pytest.raises(ValueError, match="kth = -9"):
        gpusort.argpartition(x, [0, -9])
    with pytest.raises(TypeError, match="gpusort.partition: kth must be an integer"):
        gpusort.partition(x, 1.0)
    with pytest.raises(ValueError, match="booleans"):
        gpusort.partition(x, True)
    with pytest.raises(ValueError, match="nan must be"):
        gpusort.partition(x, 1, nan="smallest")
    with pytest.raises(ValueError, match="out of bounds"):
        gpusort.partition(np.array(1.0), 0)
    with pytest.raises(TypeError, match="complex"):
        gpusort.partition(np.zeros(3, np.complex64), 1)
    same_bits(gpusort.partition(np.array(1.5), 0, axis=None), np.array([1.5]))
    assert gpusort.partition(np.zeros((0, 3)), 1, axis=1).shape == (0, 3)
    assert gpusort.argpartition(np.zeros(0), 0).shape == (0,)
