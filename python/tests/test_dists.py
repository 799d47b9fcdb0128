"""The Python bench's input distributions (gpusort._dists), on the host: the
ranges and shapes the C++ harness's generators have (harness.hpp), and
determinism. Runs everywhere, CI included."""
import numpy as np
import pytest

from gpusort import _dists

DTYPES = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
N = 100_000


def signed_values(x):
    """Integers as signed values: unsigned keys less 2^(w-1) (the centred dists)."""
    w = x.dtype.itemsize * 8
    if x.dtype.kind == "u":
        return x.astype(np.int64) - (1 << (w - 1)) if w < 64 else (x - np.uint64(1 << 63)).view(np.int64)
    return x.astype(np.int64)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dist", _dists.DISTS)
def test_deterministic_and_seeded(dtype, dist):
    a, b = _dists.generate(dist, dtype, 1000, seed=7), _dists.generate(dist, dtype, 1000, seed=7)
    assert a.dtype == np.dtype(dtype) and a.shape == (1000,)
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    if dist != "equal" or np.dtype(dtype).itemsize > 1:
        assert not np.array_equal(a, _dists.generate(dist, dtype, 1000, seed=8))
    assert np.isfinite(a.astype(np.float64)).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_small_signed_straddles_zero(dtype):
    x = _dists.generate("small_signed", dtype, N)
    w = x.dtype.itemsize * 8
    half = 1 << (w // 2 - 1)
    v = x.astype(np.float64) if x.dtype.kind == "f" else signed_values(x).astype(np.float64)
    assert v.min() >= -half and v.max() < half
    assert v.min() < -0.99 * half and v.max() >= 0.99 * half - 1
    assert abs((v < 0).mean() - 0.5) < 0.02
    assert (v == np.rint(v)).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_normal(dtype):
    x = _dists.generate("normal", dtype, N)
    w = x.dtype.itemsize * 8
    v = x.astype(np.float64) if x.dtype.kind == "f" else signed_values(x).astype(np.float64)
    sd = 1.0 if x.dtype.kind == "f" else float(1 << (w // 2 - 3))
    assert abs(v.std() / sd - 1) < 0.05
    assert abs(v.mean() / sd) < 0.02
    assert abs((v < 0).sum() / (v > 0).sum() - 1) < 0.05


@pytest.mark.parametrize("dtype", ["int16", "int32", "int64", "uint32", "uint64", "float32", "float64"])
def test_grid_has_a_few_thousand_values(dtype):
    x = _dists.generate("grid", dtype, N)
    assert 1000 <= len(np.unique(x)) <= 10000
    v = x.astype(np.float64) if x.dtype.kind == "f" else signed_values(x).astype(np.float64)
    steps = v * 100 if x.dtype.kind == "f" else v
    assert np.abs(steps - np.rint(steps)).max() < 1e-3
    assert (v < 0).any() and (v > 0).any()


@pytest.mark.parametrize("dtype", DTYPES)
def test_ids(dtype):
    x = _dists.generate("ids", dtype, N).astype(np.float64)
    dt = np.dtype(dtype)
    w = dt.itemsize * 8
    limit = 50000 if dt.kind == "f" else min(50000, 1 << (w if dt.kind == "u" else w - 1))
    assert x.min() >= 0
    assert x.max() <= limit * (1.01 if dt == np.float16 else 1) and x.max() > 0.99 * limit - 1


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"])
def test_timestamps(dtype):
    x = _dists.generate("timestamps", dtype, N)
    dt = np.dtype(dtype)
    w = dt.itemsize * 8
    if dt.kind == "f":
        lo = 1.7e9 if w == 64 else 1e4
        assert x.min() >= lo and x.max() <= lo + 1e4
    else:
        lo, span = {64: (1700000000000000000, 10000000000000), 32: (1700000000, 2592000), 16: (20000, 1440),
                    8: (100, 24)}[w]
        v = x.astype(np.int64)
        assert v.min() >= lo and v.max() < lo + span and v.max() - lo + 1 > 0.99 * span
    assert not (np.diff(x.astype(np.float64)) >= 0).all()  # in no order


@pytest.mark.parametrize("dtype", ["uint32", "int32", "uint64", "int64", "float32", "float64"])
@pytest.mark.parametrize("n", [199, 1000, N])
def test_nearly_sorted_moves_one_percent(dtype, n):
    x = _dists.generate("nearly_sorted", dtype, n)
    moved = int((x != np.sort(x)).sum())
    assert moved == 2 * (n // 200)
    assert (_dists.generate("sorted", dtype, n)[1:] >= _dists.generate("sorted", dtype, n)[:-1]).all()
    r = _dists.generate("reverse", dtype, n)
    assert (r[1:] <= r[:-1]).all()


def test_unknown_distribution():
    with pytest.raises(ValueError):
        _dists.generate("bogus", "int32", 10)
