"""The test oracle, independent of gpusort: NumPy's stable sort on each
key's rank in CUB's order (the order-preserving bit pattern, with -0.0
ranked as +0.0 and NaNs by their bits), written here from first principles.
"""
import numpy as np

UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def rank(a):
    """Unsigned ranks whose order is CUB's order of the keys of a."""
    a = np.ascontiguousarray(a)
    kind = a.dtype.kind if a.dtype.name != "bfloat16" else "f"
    u = UINT[a.dtype.itemsize]
    bits = a.view(u).copy()
    width = a.dtype.itemsize * 8
    sign = u(1) << u(width - 1)
    if kind == "u":
        return bits
    if kind == "i":
        return bits ^ sign
    bits[bits == sign] = u(0)  # -0.0 ranks as +0.0
    neg = (bits & sign) != 0
    return np.where(neg, ~bits, bits | sign).astype(u)


def argsort(a, descending=False):
    """Stable argsort of the last axis under CUB's order."""
    r = rank(a)
    if descending:
        r = ~r
    return np.argsort(r, axis=-1, kind="stable")


def sort(a, descending=False):
    return np.take_along_axis(np.asarray(a), argsort(a, descending), axis=-1)
