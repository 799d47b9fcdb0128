"""The differential suites' cases and references: hypothesis strategies for
keys of every key type (with NaNs of both signs and several payloads, both
zeros, infinities and ties), and NumPy's own stable sort as the reference
for the frameworks' order (NaNs largest)."""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import oracle
from gpusort import _partition

DTYPES = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
try:
    import ml_dtypes
    DTYPES.append("bfloat16")
except ImportError:
    ml_dtypes = None


def dtype_of(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def special_bits(dt):
    """Bit patterns that make sorting hard: for floats NaNs of both signs
    (quiet, with a payload, signalling), both infinities, both zeros, the
    smallest subnormal, ±1; for integers both ends, 0 and ±1."""
    u = oracle.UINT[dt.itemsize]
    if dt.kind in "ui":
        info = np.iinfo(dt)
        vals = np.array([info.min, info.max, 0, 1, info.max - 1] + ([-1] if dt.kind == "i" else []), dt)
        return vals.view(u).tolist()
    w = dt.itemsize * 8
    sign = 1 << (w - 1)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0], np.float32).astype(dt).view(u)
    nan, inf = int(specials[0]), int(specials[1])
    # (inf | 1 | sign, the negative signalling NaN of payload 1, is the
    # library's pad: test_semantics.py's test_pad_nan has it)
    return specials.tolist() + [nan | sign, nan | 1, nan | 1 | sign, inf | 1, 1, 1 | sign]


def pad_bits(dt):
    """The negative signalling NaN of payload 1 (the sorts' pad, which ranks
    last descending too), as an unsigned integer."""
    inf = int(np.array([np.inf], np.float32).astype(dt).view(oracle.UINT[dt.itemsize])[0])
    return inf | 1 | (1 << (dt.itemsize * 8 - 1))


@st.composite
def keys(draw, dtypes=None, min_dims=0, max_dims=3, max_side=7):
    """A key array: a dtype, a shape (0-d, 0-size sides included) and bits
    drawn from the special patterns, a few small values (ties) and any."""
    dt = dtype_of(draw(st.sampled_from(dtypes or DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=max_side))
    u = oracle.UINT[dt.itemsize]
    top = int(np.iinfo(u).max)
    elements = st.one_of(st.sampled_from(special_bits(dt)), st.integers(0, 3), st.integers(0, top))
    if dt.kind not in "ui":  # a float: the pad NaN ranks last descending (test_semantics.py): kept out
        pad = pad_bits(dt)
        elements = elements.filter(lambda b: b != pad)
    return draw(hnp.arrays(u, shape, elements=elements)).view(dt)


@st.composite
def axes(draw, x, allow_none=True):
    """An axis of x, negative or not, or None (the flattened array)."""
    nd = x.ndim
    choices = [st.none()] if allow_none else []
    if nd:
        choices.append(st.integers(-nd, nd - 1))
    return draw(st.one_of(*choices))


def widen(x):
    """x as NumPy sorts it right: bfloat16 (which NumPy's sort mishandles)
    as float32, exactly."""
    return x.astype(np.float32) if x.dtype.name == "bfloat16" else x


def ref_argsort(x, axis=-1, descending=False):
    """The stable argsort under NaNs largest, from oracle.py's ranks (not
    NumPy's sort: on some CPUs its vectorised sorts put negative NaNs
    first), or its stable descending twin (NaNs first, equal keys still in
    input order)."""
    w = x
    if axis is None:
        w, axis = w.reshape(-1), -1
    idx = oracle.argsort(np.moveaxis(w, axis, -1), descending)
    return np.moveaxis(idx, -1, axis)


def take(x, idx, axis):
    """x's items at idx along axis (along the flattened x for None)."""
    return np.take_along_axis(x.reshape(-1) if axis is None else x, idx, -1 if axis is None else axis)


def ref_sort(x, axis=-1, descending=False):
    return take(x, ref_argsort(x, axis, descending), axis)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    u = oracle.UINT[a.dtype.itemsize]
    np.testing.assert_array_equal(a.view(u), b.view(u))


def flush_subnormals(a):
    """a with its subnormal floats as zeros of their sign: how XLA (JAX)
    compares floats, flushing subnormals to zero."""
    a = np.asarray(a)
    if a.dtype.kind in "ui":
        return a
    finfo = ml_dtypes.finfo if a.dtype.name == "bfloat16" else np.finfo
    with np.errstate(invalid="ignore"):
        w = a.astype(np.float64)
        tiny = (w != 0) & (np.abs(w) < float(finfo(a.dtype).tiny))
    out = a.copy()
    out[tiny] = np.copysign(0.0, w[tiny]).astype(a.dtype)
    return out


def same_order(a, b, nan="largest", flush=False):
    """a and b hold equal keys position by position (NaNs equal; -0.0 and
    +0.0 equal): what an unstable sort must match. flush: subnormals count
    as zeros (for comparisons with JAX)."""
    a, b = np.asarray(a), np.asarray(b)
    if flush:
        a, b = flush_subnormals(a), flush_subnormals(b)
    np.testing.assert_array_equal(oracle.rank(a, nan), oracle.rank(b, nan))


def check_partition(x, got, kth, axis, nan="largest"):
    """got is x partitioned along axis around every k of kth: the same keys
    (bit for bit), the k-th smallest at k, none larger before, none smaller
    after."""
    if axis is None:
        x, axis = x.reshape(-1), 0
    r = np.moveaxis(oracle.rank(x, nan), axis, -1)
    g = np.moveaxis(oracle.rank(got, nan), axis, -1)
    u = oracle.UINT[x.dtype.itemsize]
    np.testing.assert_array_equal(np.sort(np.moveaxis(got.view(u), axis, -1), axis=-1),
                                  np.sort(np.moveaxis(x.view(u), axis, -1), axis=-1))
    s = np.sort(r, axis=-1)
    n = r.shape[-1]
    for k in np.atleast_1d(kth):
        k = int(k) % n
        np.testing.assert_array_equal(g[..., k], s[..., k])
        assert (g[..., :k] <= g[..., k:k + 1]).all() and (g[..., k + 1:] >= g[..., k:k + 1]).all()


def select(x, kth, axis, indices, method, nan="largest"):
    """partition (indices=False) or argpartition of x, computed the given
    way: "topk", "sort", or None (as the package chooses)."""
    fn = "argpartition" if indices else "partition"
    return _partition._select(x, kth, axis, "introselect", None, nan, fn, indices, method=method)
