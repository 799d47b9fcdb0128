"""The benchmark's input distributions as NumPy arrays, mirroring gpusort's
C++ harness (src/harness/harness.hpp says what each means per key type):
the same shapes and ranges, drawn from NumPy's generator (so not the same
values). For a key of w bits:

  normal        floats N(0, 1) (torch.randn); integers round(N(0, 1) * 2^(w/2-3))
  unit          floats uniform in [0, 1) (torch.rand: multiples of
                2^-(mantissa+1)); integers uniform in [0, 2^(w-1))
  grid          floats round(N(0, 1) * 500) / 100; integers round(N(0, 1) * 500)
                (8 bits: * 16): a few thousand distinct values
  small_signed  uniform integers in [-2^(w/2-1), 2^(w/2-1)); floats hold the
                integers of their width
  ids           uniform integers in [0, 50000) (or the key's non-negative range)
  timestamps    64-bit integers 1.7e18 + [0, 1e13), 32-bit 1.7e9 + [0, 2592000),
                16-bit 20000 + [0, 1440), 8-bit 100 + [0, 24); f64 1.7e9 +
                [0, 1e4), other floats 1e4 + [0, 1e4); in no order
  sorted        a sorted sample of the key's uniform values (every finite
                normal float; every integer); reverse: descending
  nearly_sorted sorted, then n // 200 disjoint pairs of positions swapped (1%)
  zipf          Zipf(1) over 2^16 random keys; few_unique: 16 random keys;
                equal: one random key

An unsigned key holds its signed twin's value plus 2^(w-1) where that value
can be negative (normal, grid, small_signed). Keys: numpy dtypes of kind
'u', 'i' and 'f' (float16, float32, float64).
"""

import numpy as np

FLOAT_DISTS = ("normal", "unit", "grid", "sorted", "nearly_sorted", "reverse", "zipf", "few_unique", "equal")
INT_DISTS = ("small_signed", "ids", "timestamps", "sorted", "nearly_sorted", "reverse", "zipf", "few_unique",
             "equal")
DISTS = ("normal", "unit", "grid", "small_signed", "ids", "timestamps", "sorted", "nearly_sorted", "reverse",
         "zipf", "few_unique", "equal")

_MANTISSA = {2: 10, 4: 23, 8: 52}  # float16, float32, float64
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _centred(v, dt, centred):
    """Signed int64 values as keys of dt: unsigned keys shifted by 2^(w-1) where centred."""
    w = dt.itemsize * 8
    if dt.kind == "u" and centred:
        return (v.view(np.uint64) + np.uint64(1 << (w - 1))).astype(dt)
    return v.astype(dt)


def _clipped(x, dt):
    """round(x) (half to even) within the w-bit signed range, as int64."""
    w = dt.itemsize * 8
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    return np.clip(np.rint(x), float(lo), float(hi)).astype(np.int64)


def _float_codes(codes, dt):
    """Floats from codes in [0, C): the finite normals in order, -max to +max."""
    m = _MANTISSA[dt.itemsize]
    e = dt.itemsize * 8 - 1 - m
    half = ((1 << e) - 2) << m  # positive normals
    u = _UINT[dt.itemsize]
    codes = codes.astype(np.uint64)
    neg = codes < np.uint64(half)
    mag = np.where(neg, np.uint64(half - 1) - codes, codes - np.uint64(half)) + np.uint64(1 << m)
    bits = (mag | np.where(neg, np.uint64(1 << (dt.itemsize * 8 - 1)), np.uint64(0))).astype(u)
    return bits.view(dt)


def _code_count(dt):
    if dt.kind == "f":
        m = _MANTISSA[dt.itemsize]
        return 2 * ((1 << (dt.itemsize * 8 - 1 - m)) - 2) << m
    return 1 << (dt.itemsize * 8)


def _from_codes(codes, dt):
    """Keys from codes in [0, C), monotone: floats as _float_codes, integers
    in order from the smallest."""
    if dt.kind == "f":
        return _float_codes(codes, dt)
    w = dt.itemsize * 8
    c = codes.astype(np.uint64)
    if dt.kind == "i":
        c = c + np.uint64(1 << (w - 1))  # code 0 is the most negative
    return c.astype(_UINT[dt.itemsize]).view(dt)


def _random_keys(rng, dt, n):
    """n keys uniform over the key's codes (every finite normal float; every integer)."""
    return _from_codes(_codes(rng.random(n), dt), dt)


def _codes(u, dt):
    """Codes from fractions u in [0, 1) (53 bits each, so 64-bit codes are
    multiples of 2^11)."""
    c = _code_count(dt)
    if c > 1 << 53:
        return (u * float(c // 2048)).astype(np.uint64) * np.uint64(2048)
    return np.minimum((u * float(c)).astype(np.uint64), np.uint64(c - 1))


def _sorted(rng, dt, n):
    """A sorted sample: one code from each of n equal slices of the space."""
    u = (np.arange(n, dtype=np.float64) + rng.random(n)) / max(n, 1)
    return _from_codes(_codes(np.minimum(u, np.nextafter(1.0, 0.0)), dt), dt)


def _zipf(rng, dt, n):
    ranks = 1 << 16
    cdf = np.cumsum(1.0 / np.arange(1, ranks + 1))
    cdf /= cdf[-1]
    table = _random_keys(rng, dt, ranks)
    return table[np.minimum(np.searchsorted(cdf, rng.random(n)), ranks - 1)]


def generate(dist, dtype, n, seed=1):
    """n keys of numpy dtype `dtype` drawn from `dist` (one of DISTS)."""
    dt = np.dtype(dtype)
    w = dt.itemsize * 8
    fp = dt.kind == "f"
    rng = np.random.default_rng([seed, DISTS.index(dist)])
    if dist == "normal":
        z = rng.standard_normal(n)
        return z.astype(dt) if fp else _centred(_clipped(z * float(1 << (w // 2 - 3)), dt), dt, True)
    if dist == "unit":
        if fp:
            p = _MANTISSA[dt.itemsize] + 1
            return (rng.integers(0, 1 << p, n, dtype=np.int64) * 2.0 ** -p).astype(dt)
        return rng.integers(0, 1 << (w - 1), n, dtype=np.uint64).astype(dt)
    if dist == "grid":
        z = rng.standard_normal(n)
        if fp:
            return (np.rint(z * 500.0) / 100.0).astype(dt)
        return _centred(_clipped(z * (16.0 if w == 8 else 500.0), dt), dt, True)
    if dist == "small_signed":
        half = 1 << (w // 2 - 1)
        v = rng.integers(-half, half, n, dtype=np.int64)
        return v.astype(dt) if fp else _centred(v, dt, True)
    if dist == "ids":
        limit = 50000 if fp else min(50000, 1 << (w if dt.kind == "u" else w - 1))
        return rng.integers(0, limit, n, dtype=np.int64).astype(dt)
    if dist == "timestamps":
        if fp:
            epoch = 1.7e9 if w == 64 else 1e4
            return (epoch + rng.random(n) * 1e4).astype(dt)
        epoch, span = {64: (1700000000000000000, 10000000000000), 32: (1700000000, 2592000),
                       16: (20000, 1440), 8: (100, 24)}[w]
        return (epoch + rng.integers(0, span, n, dtype=np.int64)).astype(dt)
    if dist in ("sorted", "reverse", "nearly_sorted"):
        x = _sorted(rng, dt, n)
        if dist == "reverse":
            return x[::-1].copy()
        if dist == "nearly_sorted":
            m = n // 200
            p = rng.choice(n, 2 * m, replace=False)
            x[p[:m]], x[p[m:]] = x[p[m:]], x[p[:m]]
        return x
    if dist == "zipf":
        return _zipf(rng, dt, n)
    if dist == "few_unique":
        return _random_keys(rng, dt, 16)[rng.integers(0, 16, n)]
    if dist == "equal":
        return np.repeat(_random_keys(rng, dt, 1), n)
    raise ValueError(f"unknown distribution {dist!r} (known: {', '.join(DISTS)})")
