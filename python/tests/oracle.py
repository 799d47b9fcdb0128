"""The test oracle, independent of gpusort: NumPy's stable sort on each
key's rank, written here from first principles. The rank orders keys as
the order-preserving bit pattern does (CUB's order), with -0.0 ranked as
+0.0, and NaNs either all equal above +inf (nan="largest", the frameworks'
order and gpusort's Python default) or by their bits (nan="bits": those
with the sign bit set below -inf, the others above +inf).
"""
import numpy as np

UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def rank(a, nan="largest"):
    """Unsigned ranks whose order is the order of the keys of a."""
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
    r = np.where(neg, ~bits, bits | sign).astype(u)
    if nan == "largest":
        with np.errstate(invalid="ignore"):
            r[np.isnan(a.astype(np.float64))] = ~u(0)  # above +inf's rank, all equal
    return r


def argsort(a, descending=False, nan="largest"):
    """Stable argsort of the last axis."""
    r = rank(a, nan)
    if descending:
        r = ~r
    return np.argsort(r, axis=-1, kind="stable")


def sort(a, descending=False, nan="largest"):
    return np.take_along_axis(np.asarray(a), argsort(a, descending, nan), axis=-1)
