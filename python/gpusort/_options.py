"""The NumPy- and framework-style arguments every call shares: `nan=`,
`kind=`/`order=` and `axis=`, checked and turned into what the extension
module takes (a NaN flag, a stability flag, an axis in [0, ndim) or None)."""

import operator

import numpy as np

_AxisError = getattr(getattr(np, "exceptions", np), "AxisError")

NAN_ORDERS = ("largest", "bits")
KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def nan_largest(nan, fn):
    """The module's nan_largest flag for a `nan=` argument.

    "largest": every NaN ranks above +inf whatever its sign and payload, all
    NaNs equal (so they keep their input order in a stable sort): NaNs come
    last ascending and first descending, as in NumPy, PyTorch, CuPy and JAX.
    "bits": CUB's order, by the key's bits: NaNs with the sign bit set before
    -inf, the others after +inf."""
    if nan == "largest":
        return True
    if nan == "bits":
        return False
    raise ValueError(f"gpusort.{fn}: nan must be 'largest' or 'bits', not {nan!r}")


def stable_for_kind(kind, order, stable, fn):
    """`stable` as NumPy's `kind=` asks for it; `order=` is refused.

    "stable" and "mergesort" (NumPy's stable sorts) ask for a stable sort;
    "quicksort" and "heapsort" allow an unstable one, which gpusort does not
    need to take: the result is a correct sort either way."""
    if order is not None:
        raise ValueError(f"gpusort.{fn}: order= (sorting a structured array by its fields) is not supported; "
                         "sort a key array instead")
    if kind not in KINDS:
        raise ValueError(f"gpusort.{fn}: kind must be one of {', '.join(map(repr, KINDS))}, not {kind!r}")
    return True if kind in ("stable", "mergesort") else stable


def axis(a, ax, fn):
    """The axis to sort along as an index in [0, ndim), or None to sort the
    flattened array. A 0-d array has no axis (as in NumPy, CuPy and JAX),
    except a PyTorch tensor, which torch.sort sorts along dim 0 or -1 as a
    one-item array (-1 here, the last of no axes: nothing moves)."""
    if ax is None:
        return None
    nd = len(a.shape)
    try:
        ax = operator.index(ax)
    except TypeError:
        raise TypeError(f"gpusort.{fn}: axis must be an integer or None, not {type(ax).__name__}") from None
    if nd == 0 and a.fw == "torch" and ax in (0, -1):
        return -1
    if not -nd <= ax < nd:
        raise _AxisError(ax, nd, f"gpusort.{fn}")
    return ax % nd


def kth(kth, n, fn):
    """NumPy's `kth` of partition(): an int or a sequence of ints, negative
    counting from the end, each in [-n, n); returned sorted, unique and in
    [0, n). Empty when the axis is empty (every kth is vacuous there)."""
    if hasattr(kth, "tolist"):  # a NumPy scalar, or an array of a framework (on any device)
        kth = kth.tolist()
    out = set()
    for k in kth if isinstance(kth, (list, tuple, range)) else [kth]:
        if isinstance(k, (bool, np.bool_)):
            raise ValueError(f"gpusort.{fn}: booleans are not accepted as kth")
        try:
            k = operator.index(k)
        except TypeError:
            raise TypeError(f"gpusort.{fn}: kth must be an integer or a sequence of integers, "
                            f"not {type(k).__name__}") from None
        if n == 0:
            continue
        if not -n <= k < n:
            raise ValueError(f"gpusort.{fn}: kth = {k} is out of bounds for an axis of length {n}")
        out.add(k % n)
    return sorted(out)
