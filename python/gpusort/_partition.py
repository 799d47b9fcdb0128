"""partition() and argpartition(): NumPy's selection, from gpusort's top-k.

For kth = k1 < ... < kj along an axis of length n, the output has the
k-th smallest key at position k for every k of kth, keys that are not
larger before it and keys that are not smaller after it (NaNs are the
largest keys, with nan="largest").

On the GPU (CuPy arrays, CUDA tensors) the positions 0..kj, or kj..n-1 when
that side is shorter, are filled by a sorted top-k of m = min(kj + 1,
n - k1) keys: radix selection, about two reads of the keys, then a sort of
the m winners only. The other n - m keys go to the other side, in input
order, by a stable sort on a one-bit key (1 for the winners, scattered by
their indices: one radix pass), with the keys (partition) or their indices
(argpartition) moving with it; the winners' block is then overwritten by
the sorted top-k. That is a few passes over the keys whatever m is, where a
full sort takes several passes plus a sort of all n keys; past m > n / 4,
the sort of the winners costs about as much as the full sort saves, so
there, and for rows of more than 4096 keys (whose top-k is itself a
segmented sort), the full sort runs instead: its output is a partition for
every kth. Host arrays (NumPy, CPU tensors) and JAX arrays are always fully
sorted: gpusort's top-k of host keys is a sort, and JAX arrays cannot be
written in place.
"""

from . import _arrays, _axes, _options

# The share of the axis up to which the top-k path beats the full sort
# (from the pass counts above).
_TOPK_SHARE = 0.25
_TOPK_ROW_LIMIT = 4096
# The frameworks whose arrays the top-k path writes in place (not JAX's).
_SELECTS = ("numpy", "cupy", "torch")


def partition(a, kth, axis=-1, kind="introselect", order=None, *, nan="largest"):
    """A copy of a partitioned along axis around every kth, as numpy.partition.

    kth: an int or a sequence of ints (negative counting from the end): the
    k-th smallest key goes to position k, not larger keys before it, not
    smaller ones after it. axis: any axis, or None for the flattened array.
    kind: "introselect" (NumPy's only one); order: not supported. nan:
    "largest" (NaNs above +inf, as NumPy) or "bits" (CUB's order). The
    order within the parts is unspecified (it may be sorted). On the GPU
    (CuPy, CUDA tensors) a selection by gpusort's top-k when the kth lie
    within the first or last quarter of a 1-D array or of rows of up to
    4096 keys, a full sort otherwise; host and JAX arrays are sorted.
    Returns an array of a's framework on a's device.
    """
    return _select(a, kth, axis, kind, order, nan, "partition", False)


def argpartition(a, kth, axis=-1, kind="introselect", order=None, *, nan="largest"):
    """The int64 indices that partition a along axis around every kth, as
    numpy.argpartition (flat indices with axis=None). Arguments and the
    choice between selection and sort as for partition()."""
    return _select(a, kth, axis, kind, order, nan, "argpartition", True)


def _select(x, kth, axis, kind, order, nan, fn, indices, method=None):
    """partition (indices=False) or argpartition (True). method: "topk" or
    "sort" forces one way (the tests' hook); None chooses as the module
    docstring says."""
    from . import _key, argsort, sort
    if kind != "introselect":
        raise ValueError(f"gpusort.{fn}: kind must be 'introselect', not {kind!r}")
    _options.stable_for_kind(None, order, True, fn)
    _options.nan_largest(nan, fn)
    a = _arrays.describe(x)
    _key(a, fn)
    ax = _options.axis(a, axis, fn)
    n = a.size if ax is None else (a.shape[ax] if a.shape else 1)
    ks = _options.kth(kth, n, fn)
    rows = a.size // n if n else 0
    m = min(ks[-1] + 1, n - ks[0]) if ks else 0
    if method is None:
        fits = a.fw in _SELECTS and a.device != _arrays.HOST
        method = "topk" if fits and ks and m <= _TOPK_SHARE * n and (rows <= 1 or n <= _TOPK_ROW_LIMIT) else "sort"
    if method == "sort" or not ks:
        return (argsort if indices else sort)(x, axis=axis, nan=nan)
    ops = _axes.ops(a)
    with ops.on(a.obj):
        if ax is None:
            y = ops.flat(a.obj)
        else:
            y = _axes.to_last(a, ax, fn).obj if _axes.moves(a, ax) else a.obj
        out = _by_topk(y, ks, n, m, ops, indices, nan)
        return _axes.back(a, out, ax) if _axes.moves(a, ax) else out


def _by_topk(y, ks, n, m, ops, indices, nan):
    """partition / argpartition of the rows (last axis) of y, from the top-k
    of the shorter side (module docstring)."""
    from . import argsort, sort_pairs, topk
    low = ks[-1] + 1 <= n - ks[0]  # the winners are the smallest m keys
    v, i = topk(y, m, largest=not low, sorted=True, nan=nan)
    if not low:  # best first is descending: the block ascends the other way
        v, i = ops.flip(v), ops.flip(i)
    winner, other = (0, 1) if low else (1, 0)
    mask = ops.full_u8(y, other)
    ops.scatter_rows(mask, i, winner)
    block = slice(0, m) if low else slice(n - m, n)
    if indices:
        out = argsort(mask, begin_bit=0, end_bit=1)
        out[..., block] = i
    else:
        _, out = sort_pairs(mask, y, begin_bit=0, end_bit=1)
        out[..., block] = v
    return out
